"""Tool ``get_page_jsonld``."""

from ..schema import BOOL, INT, STR, object_output
from ._base import query_tool

TOOL = query_tool(
    "get_page_jsonld",
    title="Page JSON-LD",
    description="""The structured data of one page: one entry per JSON-LD (or speculation
    rules) script with kind, type, rawByteSize, parseError and data, the parsed JSON.
    Slim by default: @context is dropped and levels below the third read "…", which
    shows what each schema is. Pass full true for every level and the raw text; check
    the sizes with get_page_jsonld_overview first, a product page can hold megabytes.""",
    output_schema=object_output(["url", "count", "full", "entries"],
                                {"url": STR, "count": INT, "full": BOOL,
                                 "entries": {"type": "array"}}),
)
