"""Tool ``list_images``."""

from ..schema import item, list_output
from ._base import query_tool

TOOL = query_tool(
    "list_images",
    title="Image problems",
    description="""Which images have no alt attribute (missingAlt), an empty one
    (emptyAlt: alt="", decorative, not a fault), were rendered with no width or height
    (missingDimensions: rendered pages only; a --no-render crawl answers a note), or are
    larger than oversizedThreshold pixels? Items pageUrl, src, alt, altState (text,
    empty, missing, or unknown where the archive cannot tell), rendered width/height,
    naturalWidth/naturalHeight and isLazy, ordered by page URL; one item per image per
    scanned viewport. Paged with nextOffset.""",
    output_schema=list_output(item(["pageUrl", "src"])),
)
