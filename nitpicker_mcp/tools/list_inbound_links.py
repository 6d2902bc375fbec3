"""Tool ``list_inbound_links``."""

from ..schema import NINT, STR, item
from ._base import query_tool

TOOL = query_tool(
    "list_inbound_links",
    title="Pages linking to a URL",
    description="""Which pages link to this exact URL? One item per referring page (url and
    the text of its first link here), ordered by URL and paged with limit and offset.
    Links to a URL that redirects here count, as in get_page_detail, whose inboundLinks
    list is bounded. Pass limit 0 to get only total, the number of referring pages,
    before fetching a list that can run to thousands for a home page.""",
    output_schema={
        "type": "object",
        "properties": {
            "url": STR,
            "items": {"type": "array", "items": item(["url", "textContent"])},
            "total": {"type": "integer", "minimum": 0},
            "limit": {"type": "integer", "minimum": 0},
            "offset": {"type": "integer", "minimum": 0},
            "nextOffset": NINT,
        },
        "required": ["url", "items", "total", "limit", "offset", "nextOffset"],
    },
)
