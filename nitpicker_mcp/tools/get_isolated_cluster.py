"""Tool ``get_isolated_cluster``."""

from ._base import query_tool

TOOL = query_tool(
    "get_isolated_cluster",
    title="Members of an orphan cluster",
    description="""Every page of one isolated cluster (a group of sitemap or --list pages
    that link each other and that no crawled page links to), named by the
    representativeUrl list_isolated_clusters gave: representativeUrl, size and members
    (url, title, status, source), in URL order so the first member is the representative.
    An unknown name is an error saying where to list the clusters; a later crawl that
    reaches one of the pages through links dissolves its cluster.""",
    output_schema={"type": "object", "required": ["representativeUrl", "size", "members"]},
)
