"""Tool ``get_page_tags``."""

from ..schema import INT, STR, object_output
from ._base import query_tool

TOOL = query_tool(
    "get_page_tags",
    title="Page technologies",
    description="""The technologies detected on one page: one item per technology and id,
    with category, externalId, version, confidence, categories and sources, the evidence
    that matched (a header, a script URL, a meta generator). Use it after get_page_detail
    showed a tags summary, to see exactly what was found on that page and why it was
    recognised.""",
    output_schema=object_output(["url", "count", "tags"],
                                {"url": STR, "count": INT, "tags": {"type": "array"}}),
)
