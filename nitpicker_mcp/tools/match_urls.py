"""Tool ``match_urls``."""

from ..schema import object_output
from ._base import query_tool

TOOL = query_tool(
    "match_urls",
    title="Check a list of URLs against the crawl",
    description="""Why is a URL of a list (a sitemap, last year's pages, a client's
    list; urls separated by spaces or newlines, at most 1,000) missing from the crawl?
    counts per result first, then each url with result — found, redirect (finalUrl),
    external, skipped (reason: the soft cap, robots.txt, an exclusion, nofollow),
    not-fetched, missing (nothing links to it) — status and matchedAs (the stored
    spelling). A long answer is cut at nextOffset: send the URLs from there again.""",
    output_schema=object_output(["counts", "items", "total"]),
)
