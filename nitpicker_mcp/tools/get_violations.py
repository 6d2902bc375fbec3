"""Tool ``get_violations``."""

from ..schema import item, list_output
from ._base import query_tool

TOOL = query_tool(
    "get_violations",
    title="Analysis violations",
    description="""What did the analyze plugins report, and on which pages? Ours
    (nitpicker-crawl analyze: validators axe for accessibility, vnu for HTML conformance,
    text, search-keywords) or upstream's (axe, markuplint, textlint). One item per
    finding: url, validator, severity (error, warning, info), rule, message, code and,
    when recorded, line and col. Filter by validator, severity, rule, url (one page) or
    urlPattern (SQL LIKE); sortBy url, validator, severity, rule, message or code, with
    sortOrder asc or desc. analysed: the pages each plugin analysed; an archive never
    analysed (or a validator that never ran) answers an empty list with a note saying so:
    not a clean site.""",
    output_schema=list_output(item(["url", "validator", "severity", "rule", "message"])),
)
