"""Tool ``list_pages_by_jsonld_type``."""

from ..schema import STR, item, list_output
from ._base import query_tool

TOOL = query_tool(
    "list_pages_by_jsonld_type",
    title="Pages by JSON-LD type",
    description="""Which pages carry structured data of one schema.org type? Lists the
    pages with at least one JSON-LD entry whose top-level @type is exactly the given type
    (Product, BreadcrumbList, FAQPage, Article), with the same fields as list_pages,
    ordered by URL and paged. On a large shop Product can match thousands of pages: call
    count_pages_by_jsonld_type first to see how many.""",
    output_schema=list_output(item(["url", "title", "status"]), type=STR),
)
