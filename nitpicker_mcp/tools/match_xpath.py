"""Tool ``match_xpath``."""

from ..schema import BOOL, INT, item, list_output
from ._base import query_tool

TOOL = query_tool(
    "match_xpath",
    title="XPath over the stored HTML",
    description="""What CSS cannot ask: an XPath 1.0 expression over each page's stored
    HTML — nodes by their text (//a[contains(., 'Read more')]/@href), attribute values,
    a number or test per page (count(//img[not(@alt)])). The site's HTML pages where it
    selects something, in URL order: url, matches, values (the first 20); absent: the
    pages where it selects nothing (empty, false, 0). Reads every stored page (bounded
    by the query deadline, as search_html).""",
    output_schema=list_output(item(["url", "matches", "values"]), complete=BOOL,
                              scannedPages=INT, totalPages=INT),
)
