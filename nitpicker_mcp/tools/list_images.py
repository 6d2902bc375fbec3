"""Tool ``list_images``."""

from ..schema import item, list_output
from ._base import query_tool

TOOL = query_tool(
    "list_images",
    title="Image problems",
    description="""Which images lack alt text (missingAlt), were rendered with no width or
    height (missingDimensions), or are larger than oversizedThreshold pixels? Items
    pageUrl, src, alt, rendered width/height, naturalWidth/naturalHeight and isLazy,
    ordered by page URL; one item per image per scanned viewport. Paged with
    nextOffset.""",
    output_schema=list_output(item(["pageUrl", "src"])),
)
