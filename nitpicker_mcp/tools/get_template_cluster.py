"""Tool ``get_template_cluster``."""

from ..schema import STR, list_output
from ._base import query_tool

TOOL = query_tool(
    "get_template_cluster",
    title="Pages of one template cluster",
    description="""Every page of one template cluster, by the id (or the key)
    get_template_clusters listed: url and title in URL order, plus reasons with
    structuralCoreTokens (the element paths on 80 % of its pages: what the template is
    made of) and the metaSignatureClusters it overlaps. Compare two templates'
    structuralCoreTokens to see what
    sets two templates apart. Paged with nextOffset.""",
    output_schema=list_output({"type": "object", "required": ["url", "title"]},
                              id=STR, key=STR, reasons={"type": "object"},
                              metaSignatureClusters={"type": "array"}),
)
