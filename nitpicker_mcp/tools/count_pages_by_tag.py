"""Tool ``count_pages_by_tag``."""

from ..schema import INT, NSTR, STR, object_output
from ._base import query_tool

TOOL = query_tool(
    "count_pages_by_tag",
    title="Count pages by technology",
    description="""How many pages use one detected technology, or one container or
    property id of it (externalId such as GTM-XXXX)? Returns provider, externalId and
    pageCount, the total list_pages_by_tag would report, without the list. Use it to
    check how far a tag reaches across the site before asking for the pages that carry
    it.""",
    output_schema=object_output(["provider", "pageCount"],
                                {"provider": STR, "externalId": NSTR, "pageCount": INT}),
)
