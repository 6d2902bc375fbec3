"""Tool ``list_dedupe_cap_events``."""

from ..schema import list_output
from ._base import query_tool

TOOL = query_tool(
    "list_dedupe_cap_events",
    title="Soft-cap events",
    description="""Which clusters did the crawl stop following (nitpicker-crawl
    --dedupe-cap), newest first? Each event: shapeKey (the URL pattern no longer
    followed), sampleUrl (the page that tipped it), observedCount and effectiveThreshold,
    rejectedCount (distinct URLs refused because of it; null if the crawl crashed before
    counting), the title/description/og values that defined the cluster, signals (trap
    and legit signs that held, e.g. ogUrlPointsToParent) and capturedPageCount (its pages
    kept in the archive). Empty when the crawl ran without the cap. See
    get_duplicate_clusters for the clusters themselves.""",
    output_schema=list_output({"type": "object", "required": [
        "id", "shapeKey", "sampleUrl", "effectiveThreshold", "observedCount", "detectedAt",
        "rejectedCount", "capturedPageCount", "sampleUrlArchived"]}),
)
