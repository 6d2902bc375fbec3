"""Tool ``list_link_score``."""

from ..schema import item, list_output
from ._base import query_tool

TOOL = query_tool(
    "list_link_score",
    title="Link score (internal PageRank)",
    description="""Which pages does the site's own linking make strongest? Link score:
    internal PageRank (damping 0.85) on a 0-100 logarithmic scale, redirects and
    canonicals passing their links on, strongest first: url, linkScore, pageRank,
    inlinks, outlinks, depth (clicks from the start URL) and callout for a strong page
    held up by two links or fewer, or deeper than most. list_pages with linkScore adds
    each page's score to a page list.""",
    output_schema=list_output(item(["url", "linkScore", "inlinks", "outlinks"])),
)
