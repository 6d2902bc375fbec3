"""Tool ``list_pages``."""

from ..schema import item, list_output
from ._base import query_tool

TOOL = query_tool(
    "list_pages",
    title="List pages",
    description="""Which pages match a filter? Lists crawled pages with their url, status,
    title, contentType, isExternal, noindex, description and social/meta fields, one item
    per URL. Filter by status (404, or statusMin 400 for all errors), missingTitle,
    missingDescription, noindex, isExternal, urlPattern (SQL LIKE, e.g. %/news/%),
    directory or contentTypeCategory (pdf, image, … instead of HTML pages). Paged: pass
    nextOffset as offset to continue. Use get_page_detail for one URL's links and
    headers.""",
    output_schema=list_output(item(["url", "status", "title", "isExternal"])),
)
