"""Tool ``get_page_console_logs``."""

from ._base import query_tool

TOOL = query_tool(
    "get_page_console_logs",
    title="Console messages of one page",
    description="""Every console message and uncaught JavaScript error one page produced
    when the crawl rendered it, in the order they came: type, text, the url, line and
    column of the source, the stack of an uncaught error (type pageerror) and ts (epoch
    ms). Use it after list_console_logs named a page, or when get_page_detail shows a page
    misbehaving. The url must match exactly as stored; an unknown URL is an error saying
    how to list them.""",
    output_schema={"type": "object", "required": ["url", "count", "logs"]},
)
