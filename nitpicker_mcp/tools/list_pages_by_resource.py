"""Tool ``list_pages_by_resource``."""

from ..schema import item, list_output
from ._base import query_tool

TOOL = query_tool(
    "list_pages_by_resource",
    title="Pages loading a file",
    description="""Which pages load this script, stylesheet or image? By resourcePattern
    (SQL LIKE on the file's URL: %.css, %/jquery%) or host; the pages in URL order with
    the matching files each loads. list_resource_hosts lists the hosts first; a file
    nobody loads is in list_unused_resources.""",
    output_schema=list_output(item(["url"])),
)
