"""Tool ``search_html``."""

from ..schema import BOOL, INT, item, list_output
from ._base import query_tool

TOOL = query_tool(
    "search_html",
    title="Search the stored HTML",
    description="""Which pages' HTML contains this text? pattern is a literal, or a
    regular expression as /regex/flags (i, m, s, x); the site's HTML pages in URL order
    with matches (1,000 at most a page) and up to three snippets of context characters
    each side. Reads every stored page (bounded by the query deadline: complete false
    and scannedPages of totalPages say how far a stopped scan got).""",
    output_schema=list_output(item(["url", "matches", "snippets"]), complete=BOOL,
                              scannedPages=INT, totalPages=INT),
)
