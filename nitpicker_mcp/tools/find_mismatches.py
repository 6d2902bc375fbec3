"""Tool ``find_mismatches``."""

from ..schema import item, list_output
from ._base import query_tool

TOOL = query_tool(
    "find_mismatches",
    title="Metadata mismatches",
    description="""Which pages declare metadata that disagrees with the page? type canonical:
    the canonical link points elsewhere (actual = page URL, expected = canonical);
    og:title: og:title differs from the title; og:description: og:description differs
    from the meta description. Only the site's own HTML pages, ordered by URL, paged with
    nextOffset.""",
    output_schema=list_output(item(["url", "type", "actual", "expected"])),
)
