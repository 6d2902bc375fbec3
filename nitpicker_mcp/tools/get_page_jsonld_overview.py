"""Tool ``get_page_jsonld_overview``."""

from ..schema import INT, STR, object_output
from ._base import query_tool

TOOL = query_tool(
    "get_page_jsonld_overview",
    title="Page JSON-LD overview",
    description="""What structured data does one page carry, and how big is it? One entry
    per JSON-LD or speculation rules script with kind, type (the top-level @type),
    rawByteSize and parseError (null when it parsed), plus count and totalRawBytes. A
    cheap look before get_page_jsonld, and the quickest way to find pages whose JSON-LD
    does not parse.""",
    output_schema=object_output(["url", "count", "totalRawBytes", "entries"],
                                {"url": STR, "count": INT, "totalRawBytes": INT,
                                 "entries": {"type": "array"}}),
)
