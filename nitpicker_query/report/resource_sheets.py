"""The report's sheets about what pages load: Resources (each URL, or grouped by URL
without query values), the Resources Relational Table and Images (upstream's
``create-resources``, ``create-resources-relational-table``, ``create-image-list``).

Resources come in natural URL order (:mod:`.order`), sorted by SQLite; the grouping of
``--dedupe-resources`` is an SQL ``GROUP BY`` over the canonical URL with a Python
aggregate for the query pattern, so neither holds the resources in memory.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from ..archive.opening import Archive
from .table import STATUS_ALERTS, Column, Table

RESOURCE_COLUMNS = (
    Column("URL", "url", 60), Column("Status Code", "int", 8, STATUS_ALERTS),
    Column("Status Text", width=14), Column("Content Type", width=20),
    Column("Content Length", "int", 12), Column("Referrers", width=12),
)
DEDUPE_COLUMNS = (
    *RESOURCE_COLUMNS[:4], Column("Content Length", width=16), RESOURCE_COLUMNS[5],
    Column("Count", "int", 8), Column("Query Pattern", width=30),
)

_REFERRERS = 'SELECT count(*) FROM "resources-referrers" rr WHERE rr.resourceId = r.id'


def resources(a: Archive, *, dedupe: bool) -> Table:
    """Every resource URL pages loaded, or with ``dedupe`` one row per URL without its
    query values (``/a.js?v=1`` and ``/a.js?v=2`` → ``/a.js?v``) and status and type:
    Content Length one number or ``min-max``, Referrers the distinct pages, Count the
    URLs merged, Query Pattern ``key=N`` (distinct values, ``100+`` past a hundred)."""
    if not dedupe:
        total = a.count("SELECT count(*) FROM resources")
        cursor = a.stream(
            f"SELECT r.url, r.status, r.statusText, r.contentType, r.contentLength, "
            f"({_REFERRERS}) FROM resources r ORDER BY np_natural(r.url), r.id")
        rows = ((url, -1 if status is None else status, text or "", ctype or "", length,
                 f"{n} pages") for url, status, text, ctype, length, n in cursor)
        return Table("Resources", RESOURCE_COLUMNS, total, rows, freeze_columns=1)
    grouped = ("SELECT np_canonical(r.url) AS c, r.status AS status, r.contentType AS ct, "
               "min(r.statusText) AS text, min(r.contentLength) AS low, "
               "max(r.contentLength) AS high, count(DISTINCT r.id) AS n, "
               "count(DISTINCT rr.pageId) AS pages, np_query_pattern(r.url) AS pattern "
               'FROM resources r LEFT JOIN "resources-referrers" rr ON rr.resourceId = r.id '
               "GROUP BY c, status, ct")
    total = a.count("SELECT count(*) FROM (SELECT 1 FROM resources r GROUP BY "
                    "np_canonical(r.url), r.status, r.contentType)")
    cursor = a.stream(f"SELECT * FROM ({grouped}) ORDER BY np_natural(c), status, ct")
    return Table("Resources", DEDUPE_COLUMNS, total, _grouped_rows(cursor),
                 freeze_columns=1)


def _grouped_rows(cursor: Any) -> Iterator[Sequence[Any]]:
    for url, status, ctype, text, low, high, n, pages, pattern in cursor:
        length = "" if low is None else str(low) if low == high else f"{low}-{high}"
        yield (url, -1 if status is None else status, text or "", ctype or "", length,
               f"{pages} pages", n, pattern)


RELATIONAL_COLUMNS = (
    Column("Referred Page (From)", "url", 50), Column("Resource (To)", width=60),
    Column("Resource Status Code", "int", 8, STATUS_ALERTS),
    Column("Resource Status Text", width=14), Column("Resource Content Type", width=20),
    Column("Resource Size", "int", 12),
)


def resources_table(a: Archive) -> Table:
    """Upstream's Resources Relational Table: for each resource in natural URL order,
    one row per page that loaded it (in the order the pages were stored)."""
    total = a.count('SELECT count(*) FROM "resources-referrers"')
    outer = a.stream("SELECT r.id, r.url, r.status, r.statusText, r.contentType, "
                      "r.contentLength FROM resources r ORDER BY np_natural(r.url), r.id")

    def rows() -> Iterator[Sequence[Any]]:
        for rid, url, status, text, ctype, length in outer:
            pages = a.stream('SELECT p.url FROM "resources-referrers" rr JOIN pages p '
                                 "ON p.id = rr.pageId WHERE rr.resourceId = ? "
                                 "ORDER BY rr.pageId", (rid,))
            for (page,) in pages:
                yield page, url, status, text, ctype, length
    return Table("Resources Relational Table", RELATIONAL_COLUMNS, total, rows(),
                 freeze_columns=1)


IMAGE_COLUMNS = (
    Column("Page URL", "url", 50), Column("Image path (src)", width=50),
    Column("Image Path (currentSrc)", width=50), Column("Alternative Text", width=30),
    Column("Displayed Width", "int", 9), Column("Displayed Height", "int", 9),
    Column("Lazy Loading", "bool", 8), Column("Source Code", width=40),
    Column("Viewport Width", "int", 9),
)


def images(a: Archive) -> Table:
    """Upstream's Images: every ``<img>`` of every page as the crawl saw it, by page URL
    then document order (as ``list_images``); one row per image per viewport the crawl
    scanned, hence the added Viewport Width column. Source Code is empty for format-0.13
    archives, which do not keep it."""
    total = a.count("SELECT count(*) FROM images")
    cursor = a.stream(
        "SELECT p.url, i.src, i.currentSrc, i.alt, i.width, i.height, i.isLazy, "
        "i.sourceCode, i.viewportWidth FROM images i JOIN pages p ON p.id = i.pageId "
        "ORDER BY p.url, i.id")
    rows = ((page, src, current, alt, w, h, None if lazy is None else bool(lazy), code, vw)
            for page, src, current, alt, w, h, lazy, code, vw in cursor)
    return Table("Images", IMAGE_COLUMNS, total, rows)
