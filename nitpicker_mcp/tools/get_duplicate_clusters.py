"""Tool ``get_duplicate_clusters``."""

from ..schema import list_output
from ._base import query_tool

TOOL = query_tool(
    "get_duplicate_clusters",
    title="Duplicate clusters (crawler traps)",
    description="""Which groups of pages share the same title, description, og:title and
    og:url — the signature of endless pagers, session-id URLs and other crawler traps? One
    item per cluster of at least minCount pages, biggest first: count, shapeKey (the URL
    pattern, {n} = a varying segment, {v} = a varying query value), samplePages,
    metaSignatureFields, ogUrlMismatchCount (members whose og:url points elsewhere, a
    trap sign), capEvent (set when the crawl's soft cap stopped this cluster) and
    suggestedExclude (a crawl flag skipping exactly these URLs; null when it would drop
    a real page, or for error pages). Call get_duplicate_cluster with a signature for all
    members.""",
    output_schema=list_output({"type": "object", "required": [
        "signature", "parentPath", "shapeKey", "count", "samplePages", "metaSignatureFields",
        "ogUrlMismatchCount", "capEvent", "suggestedExclude"]}),
)
