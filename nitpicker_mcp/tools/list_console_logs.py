"""Tool ``list_console_logs``."""

from ..schema import item, list_output
from ._base import query_tool

TOOL = query_tool(
    "list_console_logs",
    title="Console messages and JavaScript errors",
    description="""Which JavaScript errors and console messages did the site's pages
    produce when rendered? One item per distinct message, aggregated over every page it
    occurred on: type (error, warning, log, info, pageerror for uncaught exceptions), text,
    the url/line/column of its source, pageCount (distinct pages), totalCount
    (occurrences) and samplePage; most frequent first (sortBy totalCount, pageCount, text,
    type). Filter with type, e.g. "error" or "pageerror", for site-wide script failures.
    A crawl run with --no-render ran no script and has none.""",
    output_schema=list_output(item(["type", "pageCount", "totalCount"])),
)
