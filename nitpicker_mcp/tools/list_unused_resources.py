"""Tool ``list_unused_resources``."""

from ..schema import item, list_output
from ._base import query_tool

TOOL = query_tool(
    "list_unused_resources",
    title="Files no page loads",
    description="""Which of the site's own files — stylesheets, scripts, images, fonts,
    audio and video — does no crawled page load? They are found through the site's
    sitemaps or the URL list given with --list (source inventory-seed) and checked against
    every sub-resource the rendered pages loaded: candidates for deletion from the server.
    One item per file in URL order: url, status, contentType, contentLength, source. An
    archive crawled with --no-render recorded no loads and answers an error saying so.""",
    output_schema=list_output(item(["url", "status", "source"])),
)
