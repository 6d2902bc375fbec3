"""Tool ``get_page_html``."""

from ..schema import BOOL, NINT, STR, object_output
from ._base import query_tool

TOOL = query_tool(
    "get_page_html",
    title="Page HTML",
    description="""The HTML snapshot the crawler stored for one URL (rendered DOM), to check
    markup the other tools do not extract. Returns html, truncated (true when cut) and
    totalLength. Cut at maxLength characters (default 30000); ask again with a larger
    maxLength only when the part you need was cut. Not every URL has HTML: external
    pages, files and failures do not.""",
    output_schema=object_output(["url", "html", "truncated", "totalLength"],
                                {"url": STR, "html": STR, "truncated": BOOL,
                                 "totalLength": NINT}),
    defaults={"max_length": 30_000},
)
