"""Tool ``compare_archives``."""

from ..schema import object_output
from ._base import query_tool

TOOL = query_tool(
    "compare_archives",
    title="Compare two crawls",
    description="""What changed on the site since the last crawl? archive is the later
    crawl, old the earlier (both in the allowed locations). Without kind: the summary —
    each crawl's format, stopReason and pages, comparable with notes (pages only one crawl
    reached are never called removed when the other did not complete), counts per list,
    changedFields. With kind, one list, paged: changed (url, field, old, new; filter by
    field), added (linkedFrom), removed (now 404/410, redirects, no longer linked),
    not-comparable, broken-links (new or fixed), clusters (new or gone). maps rewrites
    the old URLs first (https://staging.example.com/=https://www.example.com/).""",
    output_schema=object_output([]),
)
