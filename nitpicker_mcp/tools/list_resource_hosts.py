"""Tool ``list_resource_hosts``."""

from ..schema import item, list_output
from ._base import query_tool

TOOL = query_tool(
    "list_resource_hosts",
    title="Hosts the pages load files from",
    description="""Which third-party hosts does the site depend on? Every host the pages
    load sub-resources from (scripts, stylesheets, fonts, images): host, isExternal,
    pages (loading one of its files), resources, bytes, failed and contentTypes, most
    pages first. list_pages_by_resource names the pages of one host.""",
    output_schema=list_output(item(["host", "isExternal", "pages", "resources"])),
)
