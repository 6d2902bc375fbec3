"""Tool ``get_tag_inventory``."""

from ..schema import item, list_output
from ._base import query_tool

TOOL = query_tool(
    "get_tag_inventory",
    title="Technology inventory",
    description="""What technologies does the site use? One item per technology the crawl
    detected: provider, pageCount (distinct pages), category, categories, versions and
    externalIds (container or property ids such as GTM-XXXX), most used first. A good
    first answer to what a site is built with and which analytics tags it carries;
    follow with list_pages_by_tag for the pages of one.""",
    output_schema=list_output(item(["provider", "pageCount", "versions", "externalIds"])),
)
