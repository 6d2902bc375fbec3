"""Tool ``list_isolated_clusters``."""

from ..schema import item, list_output
from ._base import query_tool

TOOL = query_tool(
    "list_isolated_clusters",
    title="Orphan clusters",
    description="""Which groups of pages named by the site's sitemaps (or the crawl's
    --list) link each other but are linked from no crawled page — a forgotten section, an
    archive series whose pages only point at one another? One item per group of two or
    more, biggest first: representativeUrl (the group's first URL in URL order, its name),
    size, and that page's title and status. Call get_isolated_cluster with a
    representativeUrl for every member; single orphans are list_isolated_pages'.""",
    output_schema=list_output(item(["representativeUrl", "size"])),
)
