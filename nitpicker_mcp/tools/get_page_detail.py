"""Tool ``get_page_detail``."""

from ..schema import INT, NINT, STR, object_output
from ._base import query_tool

TOOL = query_tool(
    "get_page_detail",
    title="Page detail",
    description="""Everything the crawl knows about one URL: status, response headers, every
    meta field (title, description, canonical, robots, og:*, twitter:*), JSON-LD types,
    detected technologies, outboundLinks (the page's own links, with each target's status
    as linked — a redirecting link shows its 3xx with redirectsTo, finalStatus and its
    redirectChain, a skipped target its skipReason), inboundLinks (pages linking here, redirects
    followed), and redirectFrom (URLs redirecting here). For a URL that redirects,
    redirectChain lists every hop [{url, status}] ending at the final page, and
    redirectsTo names that page. Lists are capped at
    linksLimit; the *Total fields give exact counts. The url must match exactly as stored;
    find it with list_pages.""",
    output_schema=object_output(
        ["url", "status", "outboundLinks", "inboundLinks", "redirectFrom"],
        {"url": STR, "status": NINT, "outboundLinksTotal": INT, "inboundLinksTotal": INT},
    ),
    defaults={"links_limit": 50},
)
