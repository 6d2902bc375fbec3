"""Tool ``list_isolated_pages``."""

from ..schema import item, list_output
from ._base import query_tool

TOOL = query_tool(
    "list_isolated_pages",
    title="Orphan pages",
    description="""Which pages does the site say exist — in its sitemaps, or the URL list
    given to the crawl with --list — while no crawled page links to them, nor any other
    such page? These orphans are what a sitemap-versus-crawl audit looks for. One item per
    page in URL order: url, title, status and source (inventory-seed: named by the
    sitemap or list; inventory-discovered: reached only through such a page's links).
    Groups of orphans that link each other are list_isolated_clusters'. A crawl run with
    --no-sitemap and no list has none.""",
    output_schema=list_output(item(["url", "status", "source"])),
)
