"""Tool ``check_headers``."""

from ..schema import item, list_output
from ._base import query_tool

TOOL = query_tool(
    "check_headers",
    title="Security headers",
    description="""Does each page of the site send the security headers
    Content-Security-Policy (hasCSP), X-Frame-Options, X-Content-Type-Options and
    Strict-Transport-Security (hasHSTS)? One item per HTML page, ordered by URL.
    missingOnly true keeps the pages missing at least one, and total then counts exactly
    those. Paged with nextOffset.""",
    output_schema=list_output(item(["url", "hasCSP", "hasXFrameOptions",
                                    "hasXContentTypeOptions", "hasHSTS"])),
)
