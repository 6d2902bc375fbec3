"""Tool ``list_links``."""

from ..schema import list_output
from ._base import query_tool

TOOL = query_tool(
    "list_links",
    title="Broken, external and orphan links",
    description="""Link problems. type broken: every link whose target answers 404 after
    following redirects (sourceUrl is the page to fix, destUrl the dead target, textContent
    the link text); other errors such as 500 or 403 are found with list_pages status
    filters. type external: every link leaving the site. type orphaned: the site's pages
    no link points to (items url, title, status). One item per link occurrence, so a
    header link appears once per page. Paged with nextOffset.""",
    output_schema=list_output({"type": "object"}),
)
