"""Tool ``list_pages_by_tag``."""

from ..schema import NSTR, STR, item, list_output
from ._base import query_tool

TOOL = query_tool(
    "list_pages_by_tag",
    title="Pages by technology",
    description="""Which pages use one technology the crawl detected (Google Tag Manager,
    WordPress, jQuery …)? Give provider, exactly as get_tag_inventory names it, and
    optionally externalId to find the pages carrying one container or property id
    (GTM-XXXX, G-XXXX), for instance a stray old tag. Items as list_pages, ordered by
    URL and paged; count_pages_by_tag gives the total alone.""",
    output_schema=list_output(item(["url", "title", "status"]), provider=STR,
                              externalId=NSTR),
)
