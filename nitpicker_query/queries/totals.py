"""How big a crawl is, in one vocabulary for every place that says it.

The crawl's last line, the first line of ``nitpicker-crawl --resume``, ``summary`` (CLI and
MCP: its ``totals``) and the viewer's Summary all count with :func:`crawl_totals`, so one
crawl's numbers agree wherever a person reads them:

==================  ===============================================================
``urls``            every URL the crawl is done with: fetched, redirecting, skipped,
                    refused by the soft cap, failed; the site's and external ones
``htmlPages``       the site's HTML pages that answered 2xx and were stored with
                    their content (rendered, or parsed with ``--no-render``)
``externalUrls``    URLs outside the crawl's scope (links checked, not crawled)
``redirectingUrls`` URLs that answered with a redirect (their target is another URL)
``skippedUrls``     URLs recorded and not fetched: robots.txt, excludes, nofollow, and
                    those the soft cap refused (``nitpicker-query pages --skipped only``)
``refusedUrls``     of those, the URLs the soft cap refused (``--dedupe-cap``)
``failedUrls``      URLs whose fetch failed (status -1: a timeout, a reset, DNS)
``queuedUrls``      URLs found and not fetched yet (a crawl stopped by ``--max-pages``
                    or Ctrl-C): not among ``urls``; ``--resume`` fetches them. External
                    links of a crawl that does not check them (``--no-fetch-external``)
                    are never fetched, and not counted
==================  ===============================================================

Worked example (TrapZoo, capped): 264 URLs = 210 HTML pages + 3 error pages and a PDF
of the site + 3 external + 4 redirecting + 43 skipped (42 of them refused by the soft
cap, 1 by robots.txt).
"""

from __future__ import annotations

from typing import Any, Protocol

from ..format.v010 import NOT_SKIPPED, strict_page

TOTALS = ("urls", "htmlPages", "externalUrls", "redirectingUrls", "refusedUrls",
          "skippedUrls", "failedUrls", "queuedUrls")
"""The keys of :func:`crawl_totals`, in the order they are shown."""


class _Executes(Protocol):
    def execute(self, sql: str, /) -> Any: ...


def crawl_totals(conn: _Executes, table: str = "pages", *,
                 externals_checked: bool = True) -> dict[str, int]:
    """The counts of the module's table over the ``pages`` table of ``conn`` (one
    read; the crawler's writing connection or an opened archive; ``table``: an
    archive's :attr:`~nitpicker_query.archive.opening.Archive.lite`). ``externals_checked``:
    False for a crawl with ``--no-fetch-external``, whose external links wait for
    nothing."""
    skipped = "isSkipped = 1"
    done = "scraped = 1"
    waiting = "scraped = 1" if externals_checked else "(scraped = 1 OR isExternal = 1)"
    row: Any = conn.execute(
        f"SELECT sum(CASE WHEN {done} THEN 1 ELSE 0 END), "
        f"sum(CASE WHEN {strict_page('pages')} AND {NOT_SKIPPED} "
        "AND status BETWEEN 200 AND 299 THEN 1 ELSE 0 END), "
        f"sum(CASE WHEN {done} AND isExternal = 1 THEN 1 ELSE 0 END), "
        f"sum(CASE WHEN {done} AND redirectDestId IS NOT NULL THEN 1 ELSE 0 END), "
        f"sum(CASE WHEN {done} AND {skipped} AND skipReason = 'dedupe-cap' THEN 1 ELSE 0 END), "
        f"sum(CASE WHEN {done} AND {skipped} THEN 1 ELSE 0 END), "
        f"sum(CASE WHEN {done} AND status = -1 AND {NOT_SKIPPED} THEN 1 ELSE 0 END), "
        f"sum(CASE WHEN {waiting} THEN 0 ELSE 1 END) "
        f"FROM {table} pages").fetchone()
    return {key: int(value or 0) for key, value in zip(TOTALS, row, strict=True)}


def plural(n: int, word: str) -> str:
    """``1 URL``, ``2 URLs``, ``1 HTML page``: the totals as a sentence says them."""
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def externals_checked(a: Any) -> bool:
    """Did the crawl of archive ``a`` check its external links (``info.fetchExternal``;
    yes when the archive does not say)? A crawl with ``--no-fetch-external`` keeps its
    external links as rows never fetched, and never will fetch them."""
    if "fetchExternal" not in a.columns("info"):
        return True
    row = a.execute("SELECT fetchExternal FROM info ORDER BY id LIMIT 1").fetchone()
    return row is None or str(row[0]).lower() not in ("0", "false")
