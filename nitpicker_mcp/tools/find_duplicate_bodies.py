"""Tool ``find_duplicate_bodies``."""

from ..schema import item, list_output
from ._base import query_tool

TOOL = query_tool(
    "find_duplicate_bodies",
    title="Pages with identical bodies",
    description="""Which of the site's own fetched pages (any status, not redirects) have
    the same <body> once dynamic ids are masked — session tokens, build hashes and other
    runs of 8+ letters mixed with digits, and /index.html folded to / (upstream's body
    hash)? Unlike find_duplicates, which compares titles, this compares content: the same
    page under two URLs, http and https copies, soft 404s. One item per group of two or
    more: bodyHash (hex), count (exact) and urls (the first pagesLimit, default 20),
    biggest first. An archive that records no body hashes answers an error saying how
    to get them.""",
    output_schema=list_output(item(["bodyHash", "count", "urls"])),
)
