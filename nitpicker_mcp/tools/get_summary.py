"""Tool ``get_summary``."""

from nitpicker_query.queries.totals import TOTALS

from ..schema import INT, object_output
from ._base import query_tool

TOOL = query_tool(
    "get_summary",
    title="Site summary",
    description="""How big is the crawled site and how healthy is it? Returns totals in
    the words the crawl's last line uses (urls: every URL the crawl is done with;
    htmlPages: the site's HTML pages answered 2xx and stored; externalUrls,
    redirectingUrls, skippedUrls with refusedUrls by the soft cap among them, failedUrls;
    queuedUrls not fetched yet), page counts (totalPages, internalPages,
    externalPages), statusDistribution (each HTTP status with
    its count; status -1 means a network failure and carries errorKindBreakdown such as
    dns or timeout), metadataFulfillment (share 0–1 of the site's pages having a title,
    description, og:title, …), contentTypeDistribution (html, pdf, image, … internal
    and external) and violations (analyze findings per validator). Start here, then
    drill down with list_pages, list_links or find_duplicates.""",
    output_schema=object_output(
        ["totals", "totalPages", "internalPages", "externalPages", "statusDistribution",
         "metadataFulfillment", "contentTypeDistribution"],
        {"totals": {"type": "object", "required": list(TOTALS),
                    "properties": {key: INT for key in TOTALS}},
         "totalPages": INT, "internalPages": INT, "externalPages": INT},
    ),
)
