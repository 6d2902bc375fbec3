"""Tool ``find_duplicates``."""

from ..schema import item, list_output
from ._base import query_tool

TOOL = query_tool(
    "find_duplicates",
    title="Duplicate titles or descriptions",
    description="""Which titles (field title) or meta descriptions (field description) are
    used by more than one of the site's own HTML pages? One item per shared value: value,
    count (exact number of pages) and urls (the first pagesLimit of them, default 20),
    biggest groups first. Large groups of identical metadata often mean a template or
    pager problem; check a member with get_page_detail.""",
    output_schema=list_output(item(["field", "value", "count", "urls"])),
)
