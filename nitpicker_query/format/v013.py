"""Reading upstream's format 0.13.0: the 0.13 tables presented as the 0.10 tables.

Format 0.13 (upstream 0.13.0 … newest; docs/archive-format.md, "Format 0.13") splits a
page row into ``content_items`` + ``page_meta`` + ``url_refs``, stores every text once in
``text_refs``, decomposes headers into ``header_*`` tables and keeps one anchor row per
(page, target) pair with a count. Rather than a second copy of every query, a 0.13
archive is given, on each read-only connection, ``TEMP`` views with the 0.10 names and
columns (``pages``, ``anchors``, ``images``, ``resources``, ``resources-referrers`` and,
in archives of the newest build, ``page_tags``). Every query then has one definition
and reads both formats. SQLite flattens the views into each query; every text, URL and
content type is a scalar sub-select by primary key in the view's column list, not a
join, so a query pays only for the columns it reads (SQLite 3.40 keeps an unused
``LEFT JOIN`` in the plan: with one per text a count looked up 20 rows a page).

The views are created in the connection's ``temp`` schema before ``query_only`` is set:
nothing is written to the archive, whose bytes stay as they were.

Where 0.13 cannot express a 0.10 value, the view says NULL (docs/archive-format.md):
an anchor pair counted ``n`` times is ``n`` rows of which only the first has its text
and fragment; an image has no ``sourceCode``; an image whose ``src`` was a long
``data:`` URI (kept in ``blob_refs``) has a NULL ``src``. Where 0.13 holds more, the
views add columns the queries may read when present: ``pages.body_hash``,
``pages.aliasOfId``, ``pages.dedupeCapEventId``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

import zstandard

from .v013_schema import PAGE_META_PLAIN, PAGE_META_TEXTS, PAGE_META_URLS

MAX_ANCHOR_INSTANCES = 10_000
"""Rows an ``anchor_edges`` pair expands to at most: ``count`` comes from a stranger's
file, and a pair of ten thousand links on one page is already past any real page."""

JSON_LIMIT = 4 * 1024 * 1024
"""Most bytes of one ``json_refs`` payload decompressed (``meta_extras``): a zstd frame
of a few kilobytes can hold gigabytes."""

SEQUENCE_TABLE = "_np_instances"


def is_013(tables: frozenset[str]) -> bool:
    """A 0.13 database: ``content_items`` and its sentinel ``url_refs`` (upstream creates
    the ref tables first, ``url_refs`` among them)."""
    return "content_items" in tables and "url_refs" in tables


def json_text(body: object, codec: object) -> str | None:
    """A zstd-or-plain JSON payload as text (``json_refs.json_text``: SQL function
    ``np_json``; ``page_template_clusters.reason_json``), None when it does not decode."""
    if body is None:
        return None
    if isinstance(body, str):
        return body
    if not isinstance(body, bytes | bytearray | memoryview):
        return None
    raw = bytes(body)
    if codec == "zstd":
        try:
            raw = zstandard.ZstdDecompressor().stream_reader(raw).read(JSON_LIMIT + 1)
        except zstandard.ZstdError:
            return None
        if len(raw) > JSON_LIMIT:
            return None
    return raw.decode("utf-8", errors="replace")


def _headers(table: str, alias: str) -> str:
    """A correlated sub-select rebuilding the 0.10 ``responseHeaders`` JSON object of
    ``alias.header_set_id``: lower-cased names; a name sent several times (set-cookie)
    becomes an array in occurrence order, as upstream's writer received it."""
    return (  # no header set: NULL (headers unknown), as 0.10 stores it, not "{}"
        f"(CASE WHEN {alias}.header_set_id IS NULL THEN NULL ELSE "
        "(SELECT json_group_object(n, CASE WHEN k = 1 THEN v ELSE json(vs) END) FROM ("
        "SELECT hn.name AS n, count(*) AS k, min(hv.value) AS v, "
        "json_group_array(hv.value) AS vs FROM (SELECT * FROM header_set_entries e "
        f"WHERE e.header_set_id = {alias}.header_set_id ORDER BY e.name_id, e.occurrence) e "
        "JOIN header_name_refs hn ON hn.id = e.name_id "
        "JOIN header_value_refs hv ON hv.id = e.value_id GROUP BY hn.name ORDER BY hn.name)) "
        "END)"
    )


_TEXTS, _URLS, _PLAIN = PAGE_META_TEXTS, PAGE_META_URLS, PAGE_META_PLAIN
"""The 0.10 ↔ 0.13 column mapping, defined once (format013_schema) for the converter and
the views."""


def _pages_view(have: Callable[[str, str], bool]) -> str:
    """``pages``: one row per ``content_items`` row, its meta joined in.

    An alias row (``alias_of_id``: the same document under another URL, such as
    ``/index.html`` of ``/``) is a page, as a 0.10 crawl of the same site stores it;
    ``aliasOfId`` names the page it duplicates. (Reading it as a redirect source, as
    upstream's readers leave it out, would put a ``coalesce`` on ``redirectDestId`` and
    take its index away from every redirect lookup.) Columns an older 0.13 archive lacks
    (the writer adds them when it opens an archive; a read-only open does not) read as
    NULL.
    """
    def ci(col: str) -> str:
        return f"ci.{col}" if have("content_items", col) else "NULL"

    def pm(col: str) -> str:
        return f"pm.{col}" if have("page_meta", col) else "NULL"

    alias = ci("alias_of_id")
    cols = [
        "ci.id AS id", "ur.url AS url",
        "ci.redirect_dest_id AS redirectDestId",
        "ci.scraped AS scraped", "ci.is_target AS isTarget", "ci.is_external AS isExternal",
        "ci.status AS status", "ci.status_text AS statusText", "ctr.raw AS contentType",
        "ci.content_length AS contentLength",
        f"{_headers('content_items', 'ci')} AS responseHeaders",
    ]
    joins = [
        "FROM content_items ci JOIN url_refs ur ON ur.id = ci.url_id",
        # a join, not a sub-select: nearly every page predicate reads the content type
        # (twice: "IS NULL OR = 'text/html'"), and each mention would be a lookup
        "LEFT JOIN content_type_refs ctr ON ctr.id = ci.content_type_id",
        "LEFT JOIN page_meta pm ON pm.page_id = ci.id",
    ]
    for name, col in _TEXTS:
        cols.append(f"(SELECT text FROM text_refs WHERE id = pm.{col}) AS {name}"
                    if have("page_meta", col) else f"NULL AS {name}")
    for name, col in _URLS:
        cols.append(f"(SELECT url FROM url_refs WHERE id = pm.{col}) AS {name}"
                    if have("page_meta", col) else f"NULL AS {name}")
    cols += [f"{pm(col)} AS {name}" for name, col in _PLAIN]
    # "has a value" without reading it: 0.13 stores no empty text, so an id is a value
    cols += [f"({pm(col)} IS NOT NULL) AS has_{name}" for name, col in (*_TEXTS, *_URLS)]
    # "the canonical is the page itself" without reading either URL: url_refs holds each
    # URL once (UNIQUE), so equal ids are equal URLs (the indexable population)
    cols.append(f"({pm('canonical_url_id')} = ci.url_id) AS canonical_self")
    cols.append("(SELECT np_json(json_text, codec) FROM json_refs WHERE id = "
                "pm.meta_extras_json_id) AS meta_extras"
                if have("page_meta", "meta_extras_json_id") else "NULL AS meta_extras")
    cols += [
        "ci.first_crawled_at AS firstCrawledAt", "ci.last_crawled_at AS lastCrawledAt",
        "ci.is_skipped AS isSkipped", "ci.skip_reason AS skipReason",
        'ci.crawl_order AS "order"', "ci.source AS source",
        f"{pm('body_hash')} AS body_hash", f"{alias} AS aliasOfId",
        f"{ci('dedupe_cap_event_id')} AS dedupeCapEventId",
    ]
    view = "SELECT " + ", ".join(cols) + " " + " ".join(joins)
    return "CREATE TEMP VIEW pages AS " + view


def _pages_lite_view(pages: str) -> str:
    """``pages_lite``: the same rows and columns, the URL a sub-select instead of a join.

    The URL join is most of what a pass over every page costs (290 of 356 ms counting
    300,000 pages: ``url_refs`` rows are wide), and an aggregate that never names the
    URL need not pay it; a lookup or an order by URL needs the join's index, so
    ``pages`` keeps it. :attr:`nitpicker_query.archive.opening.Archive.lite` names this view on
    0.13 archives and ``pages`` itself on 0.10 ones."""
    view = pages.removeprefix("CREATE TEMP VIEW pages AS ")
    view = view.replace("ur.url AS url", "(SELECT url FROM url_refs WHERE id = ci.url_id) AS url")
    view = view.replace(" JOIN url_refs ur ON ur.id = ci.url_id", "")
    return "CREATE TEMP VIEW pages_lite AS " + view


def _anchors_view() -> str:
    """``anchors``: a pair counted ``n`` times is ``n`` rows (the counts and lists of
    0.10 hold), the first with the pair's text and fragment, the others with NULL.
    ``CROSS JOIN`` keeps the pair outside the instance numbers: left to itself the
    planner may scan all 10,000 numbers and look up pairs for each."""
    return (
        "CREATE TEMP VIEW anchors AS SELECT ae.id * 16384 + s.n AS id, "
        "ae.page_id AS pageId, ae.href_page_id AS hrefId, "
        "CASE WHEN s.n = 1 THEN ae.first_hash END AS hash, "
        "CASE WHEN s.n = 1 THEN (SELECT text FROM text_refs WHERE id = ae.first_text_id) "
        "END AS textContent "
        f"FROM anchor_edges ae CROSS JOIN temp.{SEQUENCE_TABLE} s ON s.n <= ae.count"
    )


def _anchor_pairs_view() -> str:
    """``anchor_pairs``: a linked pair once with its count ``n`` (as ``anchors`` would
    expand it): a pass that only counts links or follows them reads the pairs, not every
    instance (0.10 reads ``anchors`` as pairs of ``n`` = 1:
    :attr:`nitpicker_query.archive.opening.Archive.pairs`)."""
    return ("CREATE TEMP VIEW anchor_pairs AS SELECT ae.page_id AS pageId, "
            f"ae.href_page_id AS hrefId, min(ae.count, {MAX_ANCHOR_INSTANCES}) AS n "
            "FROM anchor_edges ae WHERE ae.count >= 1")


def _images_view() -> str:
    """``images``: ``image_items`` with their URLs and alt text; no ``sourceCode``."""
    return (
        "CREATE TEMP VIEW images AS SELECT ii.id AS id, ii.page_id AS pageId, "
        "(SELECT url FROM url_refs WHERE id = ii.src_url_id) AS src, "
        "(SELECT url FROM url_refs WHERE id = ii.current_src_url_id) AS currentSrc, "
        "(SELECT text FROM text_refs WHERE id = ii.alt_text_id) AS alt, ii.width AS width, "
        "ii.height AS height, ii.natural_width AS naturalWidth, "
        "ii.natural_height AS naturalHeight, ii.is_lazy AS isLazy, "
        "ii.viewport_width AS viewportWidth, NULL AS sourceCode "
        "FROM image_items ii"
    )


def _resources_views() -> tuple[str, str]:
    return (
        "CREATE TEMP VIEW resources AS SELECT ri.id AS id, ru.url AS url, "
        "ri.is_external AS isExternal, ri.status AS status, ri.status_text AS statusText, "
        "(SELECT raw FROM content_type_refs WHERE id = ri.content_type_id) AS contentType, "
        "ri.content_length AS contentLength, "
        "ri.compress AS compress, ri.cdn AS cdn, "
        f"{_headers('resource_items', 'ri')} AS responseHeaders, ri.source AS source "
        "FROM resource_items ri JOIN url_refs ru ON ru.id = ri.url_id",
        'CREATE TEMP VIEW "resources-referrers" AS SELECT NULL AS id, '
        "rr.resource_id AS resourceId, rr.page_id AS pageId FROM resource_ref_edges rr",
    )


def _page_tags_view() -> str:
    """``page_tags`` of the newest build, from ``page_technologies``: the technology is
    the provider. A ``wappalyzer`` signal whose evidence is a JSON object (our
    converter's, nitpicker_crawl/archive/to013.py: one per 0.10 tag row) gives that row back
    whole — its container id (``externalId``), categories, sources and confidence;
    a technology with no such signal (upstream's crawler) is one row whose sources are
    its signals — ``{type: signalType, src: evidence, weight}``, strongest first — with
    upstream's noisy-OR ``confidence``, and whose ``externalId`` is NULL."""
    json_signal = ("ts.signalType = 'wappalyzer' AND json_valid(ts.evidence) AND "
                   "json_type(ts.evidence) = 'object'")
    return (
        "CREATE TEMP VIEW page_tags AS "
        "SELECT ts.id AS id, ts.pageId AS pageId, ts.technology AS provider, "
        "pt.category AS category, json_extract(ts.evidence, '$.externalId') AS externalId, "
        "pt.version AS version, ts.weight AS confidence, "
        "coalesce(json_extract(ts.evidence, '$.categories'), '[]') AS categories, "
        "coalesce(json_extract(ts.evidence, '$.sources'), '[]') AS sources "
        "FROM technology_signals ts JOIN page_technologies pt ON pt.pageId = ts.pageId "
        f"AND pt.technology = ts.technology WHERE {json_signal} "
        "UNION ALL "
        "SELECT -pt.id AS id, pt.pageId AS pageId, "
        "pt.technology AS provider, pt.category AS category, NULL AS externalId, "
        "pt.version AS version, pt.confidence AS confidence, "
        "CASE WHEN pt.category IS NULL THEN '[]' ELSE json_array(pt.category) END "
        "AS categories, (SELECT json_group_array(json_object('type', s.signalType, "
        "'src', s.evidence, 'weight', s.weight)) FROM (SELECT * FROM technology_signals ts "
        "WHERE ts.pageId = pt.pageId AND ts.technology = pt.technology ORDER BY ts.weight "
        "DESC, ts.id) s) AS sources FROM page_technologies pt WHERE NOT EXISTS (SELECT 1 "
        f"FROM technology_signals ts WHERE ts.pageId = pt.pageId AND ts.technology = "
        f"pt.technology AND {json_signal})"
    )


VIEWS = ("pages", "pages_lite", "anchors", "anchor_pairs", "images", "resources",
         "resources-referrers", "page_tags")
"""The 0.10 names a 0.13 archive is read through (``page_tags`` only where the archive
has ``page_technologies`` and no ``page_tags`` of its own)."""


def present(conn: sqlite3.Connection, tables: frozenset[str]) -> frozenset[str]:
    """Create the 0.10-shaped TEMP views on ``conn``; return the names created.

    Must run before ``PRAGMA query_only`` (which refuses even TEMP objects). A table a
    view reads that the archive lacks leaves that view out: a query then sees the 0.10
    table as absent, as it would in a 0.10 archive without it.
    """
    conn.create_function("np_json", 2, json_text, deterministic=True)
    columns: dict[str, frozenset[str]] = {}

    def have(table: str, col: str) -> bool:
        if table not in columns:
            rows = conn.execute(f'PRAGMA table_info("{table}")').fetchall()
            columns[table] = frozenset(str(r[1]) for r in rows)
        return col in columns[table]

    header_tables = {"header_set_entries", "header_name_refs", "header_value_refs"}
    if not header_tables <= tables:
        return frozenset()
    conn.execute(f"CREATE TEMP TABLE {SEQUENCE_TABLE} (n INTEGER PRIMARY KEY)")
    conn.execute(f"WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < "
                 f"{MAX_ANCHOR_INSTANCES}) INSERT INTO temp.{SEQUENCE_TABLE} SELECT n FROM s")
    made = set()
    wanted: list[tuple[str, set[str], str]] = [
        ("pages", {"page_meta", "content_type_refs", "text_refs", "json_refs"},
         _pages_view(have)),
        ("pages_lite", {"page_meta", "content_type_refs", "text_refs", "json_refs"},
         _pages_lite_view(_pages_view(have))),
        ("anchors", {"anchor_edges", "text_refs"}, _anchors_view()),
        ("anchor_pairs", {"anchor_edges"}, _anchor_pairs_view()),
        ("images", {"image_items", "text_refs"}, _images_view()),
        ("resources", {"resource_items", "content_type_refs"}, _resources_views()[0]),
        ("resources-referrers", {"resource_ref_edges"}, _resources_views()[1]),
    ]
    if "page_tags" not in tables:
        wanted.append(("page_tags", {"page_technologies", "technology_signals"},
                       _page_tags_view()))
    for name, needs, sql in wanted:
        if needs <= tables:
            conn.execute(sql)
            made.add(name)
    return frozenset(made)
