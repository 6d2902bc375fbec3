"""Tool ``get_resource_referrers``."""

from ..schema import STR, item, list_output
from ._base import query_tool

TOOL = query_tool(
    "get_resource_referrers",
    title="Pages using a resource",
    description="""Which pages loaded this exact resource URL (a stylesheet, script, font or
    image listed by list_resources)? Items are page URLs in crawl order; total is the
    exact number of pages. Useful to find where a broken or oversized file is used.
    Paged with nextOffset.""",
    output_schema=list_output(item(["url"]), resourceUrl=STR),
)
