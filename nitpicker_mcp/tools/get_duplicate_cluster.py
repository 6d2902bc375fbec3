"""Tool ``get_duplicate_cluster``."""

from ..schema import STR, list_output
from ._base import query_tool

TOOL = query_tool(
    "get_duplicate_cluster",
    title="Pages of one duplicate cluster",
    description="""Every page of one duplicate cluster, by the signature that
    get_duplicate_clusters listed: url, title, ogUrl, ogUrlMismatch (og:url points
    elsewhere than the page) and shapeKey (the URL pattern), in URL order, plus the shared
    metaSignatureFields. Use it to see a trap's pages or to check that a suggested
    exclusion would not hit real content. Paged with nextOffset.""",
    output_schema=list_output({"type": "object", "required": ["url", "title", "shapeKey"]},
                              signature=STR, by=STR,
                              metaSignatureFields={"type": "object"}),
)
