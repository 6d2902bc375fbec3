"""Tool ``list_resources``."""

from ..schema import item, list_output
from ._base import query_tool

TOOL = query_tool(
    "list_resources",
    title="Sub-resources",
    description="""Which CSS, JavaScript, font and image files did the pages load? Items
    url, status, contentType, contentLength, compress (content encoding), cdn,
    isExternal (third-party) and referrerCount (pages that loaded it). Filter by
    contentType prefix (text/css, image/), isExternal or urlPattern; sort by url, status,
    contentType or contentLength. Then get_resource_referrers lists the pages.""",
    output_schema=list_output(item(["url", "status", "referrerCount"])),
)
