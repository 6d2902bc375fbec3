"""Tool ``list_network_outages``."""

from ..schema import item, list_output
from ._base import query_tool

TOOL = query_tool(
    "list_network_outages",
    title="Network outages during the crawl",
    description="""When did nothing answer the crawl — the crawler's own network down, or
    the whole site gone for a while — so that it paused, probed the site until it answered,
    and fetched again what had failed meanwhile? One item per window, oldest first:
    startedAt, detectedAt, endedAt (epoch ms), probeHost, triggerErrorCount and
    triggerHostCount (the failures that set it off) and failures (pages still recorded as
    failed inside it: none when the crawl came back). Use it before reading failed pages
    as broken: a failure inside a window says the network, not the site.""",
    output_schema=list_output(item(["startedAt", "detectedAt", "endedAt", "probeHost"])),
)
