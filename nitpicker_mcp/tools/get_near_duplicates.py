"""Tool ``get_near_duplicates``."""

from ..schema import item, list_output
from ._base import query_tool

TOOL = query_tool(
    "get_near_duplicates",
    title="Near duplicates of one page",
    description="""Which pages are almost the same as this one (url, as stored)? Most
    alike first: url, similarity (percent), and the passages that differ — onlyHere (in
    this page, not the other) and onlyThere. Same threshold, population and content
    area options as find_near_duplicates.""",
    output_schema=list_output(item(["url", "similarity"])),
)
