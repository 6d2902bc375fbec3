"""Tool ``match_selector``."""

from ..schema import BOOL, INT, item, list_output
from ._base import query_tool

TOOL = query_tool(
    "match_selector",
    title="CSS selector over the stored HTML",
    description="""Which pages have an element matching this CSS selector, and what does
    it say? The site's HTML pages in URL order: url, matches, values (each match's text,
    or its attribute's value — every page's price, author, canonical — the first 20).
    absent: the pages where it matches nothing (no h1, no breadcrumb). Reads every
    stored page (bounded by the query deadline, as search_html).""",
    output_schema=list_output(item(["url", "matches", "values"]), complete=BOOL,
                              scannedPages=INT, totalPages=INT),
)
