"""Tool ``count_pages_by_jsonld_type``."""

from ..schema import INT, STR, object_output
from ._base import query_tool

TOOL = query_tool(
    "count_pages_by_jsonld_type",
    title="Count pages by JSON-LD type",
    description="""How many pages carry a JSON-LD entry of this top-level @type? Returns
    type and pageCount, the total list_pages_by_jsonld_type would report, without
    fetching the list. Use it to size a question before asking for the pages, or to
    compare how widely types such as Product, Article or BreadcrumbList are used across
    the site.""",
    output_schema=object_output(["type", "pageCount"], {"type": STR, "pageCount": INT}),
)
