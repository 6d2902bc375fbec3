"""Tool ``get_violations``."""

from ..schema import item, list_output
from ._base import query_tool

TOOL = query_tool(
    "get_violations",
    title="Analysis violations",
    description="""What did upstream's analyze plugins (axe for accessibility, markuplint
    for markup, textlint for text) report, and on which pages? One item per finding:
    url, validator, severity, rule, message, code and, when recorded, line and col.
    Filter by validator, severity, rule or urlPattern (SQL LIKE); sort by url,
    validator, severity or rule. An archive never analysed answers an empty list.""",
    output_schema=list_output(item(["url", "validator", "severity", "rule", "message"])),
)
