"""Tool ``list_browser_outages``."""

from ..schema import item, list_output
from ._base import query_tool

TOOL = query_tool(
    "list_browser_outages",
    title="Lent browsers lost during the crawl",
    description="""When was a browser on another machine (--browser-endpoint) lost while
    the crawl rendered with it, and for how long? One item per loss, oldest first:
    endpoint (scheme, host, port), startedAt and endedAt (epoch ms; endedAt null: still
    down at the end), seconds, pagesMoved (pages that were rendering on it, rendered again
    on another browser: none is lost) and reason. Explains a slow stretch of a crawl, not
    failed pages.""",
    output_schema=list_output(item(["endpoint", "startedAt", "endedAt", "pagesMoved"])),
)
