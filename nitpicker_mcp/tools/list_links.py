"""Tool ``list_links``."""

from ..schema import list_output
from ._base import query_tool

TOOL = query_tool(
    "list_links",
    title="Broken, external and orphan links",
    description="""Link problems. type broken: every link whose target answers an error
    after following redirects — by default any 4xx, 5xx or failed fetch (status -1);
    brokenAs "4xx" or "404" narrows it (404 is upstream's rule). sourceUrl is the page to
    fix, destUrl the target, status its final status, textContent the link text; a link
    to a redirecting URL also has its redirectChain. type external: every link leaving the
    site. type orphaned: the site's pages no link points to (items url, title, status).
    One item per link occurrence (byDestination: one per target, with referrerCount).
    Paged with nextOffset.""",
    output_schema=list_output({"type": "object"}),
)
