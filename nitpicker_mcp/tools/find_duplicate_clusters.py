"""Tool ``find_duplicate_clusters``."""

from ..schema import list_output
from ._base import query_tool

TOOL = query_tool(
    "find_duplicate_clusters",
    title="Same-body clusters (crawler traps)",
    description="""Which groups of at least minCount pages (default 10) share one body
    (find_duplicate_bodies' hash) and one title — the mark of a pager past its end, a
    calendar or a query loop serving one page under endless URLs? Ranked by
    ogUrlMismatchRatio (share of members whose og:url names another URL, often the parent
    listing), then count. Each item: signature (the body hash), count, title,
    ogUrlMismatchRatio, samplePages (first samplePagesLimit URLs) and commonDirectories
    (the five directories, origin and first path segment, holding most members). For
    clusters by title, description and og tags use get_duplicate_clusters.""",
    output_schema=list_output({"type": "object", "required": [
        "signature", "count", "title", "ogUrlMismatchRatio", "samplePages",
        "commonDirectories"]}),
)
