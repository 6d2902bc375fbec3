"""Tool ``get_page_main_contents``."""

from ._base import query_tool

TOOL = query_tool(
    "get_page_main_contents",
    title="Main content of one page",
    description="""Where is one page's main content and what does it hold? The region
    (the crawl's --main-content-selector, else main, role=main, #content and the usual
    ids and classes: nodeName, id, role, a unique selector, classList; null when the page
    has none), wordCount (characters other than whitespace, also right for Japanese) and
    bodyWordCount, exact counts, and in document order its headings, images (src, alt),
    tables (rows, cols, header, footer, merged cells), buttons, iframes, videos, audios,
    canvases and custom elements. Use it for thin pages, heading outlines or missing
    alt texts. The url must match exactly as stored.""",
    output_schema={"type": "object", "required": ["url", "region", "wordCount", "counts"]},
)
