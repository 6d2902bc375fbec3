"""Time every query function against the raw SQL that produces the same rows, same run.

    python bench/queries.py --pages 10000 100000 300000   # builds missing archives first
    python bench/queries.py --pages 300000 --upstream --rss

For each query: *ours* is the public function (open archive, SQL, Python mapping,
envelope); *raw* is the minimal SQL statement(s) returning the same rows, run with
``sqlite3`` on an identical read-only connection to the same extracted file. Calls are
interleaved and repeated; "cold" is the first call on a freshly opened archive (empty
in-memory count memo, warm OS page cache), "warm" the median of the next REPEAT calls.
Also: ``open_archive`` with an empty extraction cache vs the cached re-open. ``--upstream``
repeats the run on a copy shaped like an archive written by upstream (no
``page_signatures``, none of our extra indexes); ``--rss`` runs each query alone in a fresh
process and reports its peak RSS. Prints markdown tables with the command, machine and
versions, and writes each into its block of docs/BENCHMARKS.md (``--no-write``: print only).
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from doc import add_flag, emit
from make_archive import archive_path, ensure, ensure_013

import nitpicker_query as q
from nitpicker_query.format.v010 import loose_page, strict_page

REPEAT = 5  # warm calls per query (median reported)
PAGE = (100, 0)  # LIMIT, OFFSET bound as parameters, as the query functions bind them
RESOURCE = "https://bench.example/assets/r0.css"
SAMPLE = "https://bench.example/section-0/item-1000/"  # an ordinary 200 page at every N
OUR_INDEXES = ("idx_pages_listfilter", "idx_resources_internal_url", "idx_images_covering",
               "idx_pages_summary_contenttype", "idx_pages_summary_failed")

LIST_COLS = (
    "url, title, status, contentType, isExternal, description, keywords, lang, robots_noindex, "
    "robots_nofollow, robots_noarchive, robots_raw, canonical, og_type, og_title, og_site_name, "
    "og_description, og_url, og_image, og_image_alt, og_locale, og_article_published_time, "
    "twitter_card, twitter_site, twitter_creator, twitter_image, charset, themeColor, manifest, "
    "tag_count, jsonld_count, tags_providers_csv, firstCrawledAt, lastCrawledAt"
)


def raw_cases(sample_url: str) -> dict[str, list[tuple[str, tuple[Any, ...]]]]:
    """The raw statements per case (run in order, all rows fetched)."""
    inbound = ("SELECT pageId, min(id) AS anchorId FROM anchors WHERE hrefId IN "
               "(SELECT id FROM pages WHERE url = ? UNION ALL SELECT r.id FROM pages r JOIN "
               "pages d ON d.id = r.redirectDestId WHERE d.url = ?) GROUP BY pageId")
    return {
        "list_pages (first 100)": [(
            f"SELECT {LIST_COLS} FROM pages p WHERE {loose_page('p', url_order=True)} "
            "ORDER BY p.url LIMIT ? OFFSET ?", PAGE)],
        "list_pages missing_title": [(
            f"SELECT {LIST_COLS} FROM pages p WHERE {loose_page('p', url_order=True)} AND "
            "(p.title IS NULL OR p.title = '') ORDER BY p.url LIMIT ? OFFSET ?", PAGE)],
        "get_page_detail": [
            ("SELECT * FROM pages WHERE url = ?", (sample_url,)),
            ("SELECT type, parseError FROM page_jsonld j JOIN pages p ON p.id = j.pageId "
             "WHERE p.url = ?", (sample_url,)),
            ("SELECT provider, externalId FROM page_tags t JOIN pages p ON p.id = t.pageId "
             "WHERE p.url = ?", (sample_url,)),
            ("SELECT t.url, an.textContent, t.status, t.isExternal FROM anchors an JOIN pages t "
             "ON t.id = an.hrefId JOIN pages p ON p.id = an.pageId WHERE p.url = ? "
             "ORDER BY an.id LIMIT 100", (sample_url,)),
            ("SELECT count(*) FROM anchors an JOIN pages p ON p.id = an.pageId WHERE p.url = ?",
             (sample_url,)),
            (f"SELECT s.url, an.textContent FROM ({inbound}) m JOIN anchors an ON "
             "an.id = m.anchorId JOIN pages s ON s.id = m.pageId ORDER BY s.url LIMIT 100",
             (sample_url, sample_url)),
            (f"SELECT count(*) FROM ({inbound})", (sample_url, sample_url)),
            ("SELECT r.url, count(*) OVER () FROM pages r JOIN pages d ON d.id = "
             "r.redirectDestId WHERE d.url = ? ORDER BY r.url LIMIT 100", (sample_url,)),
        ],
        "find_mismatches canonical (first 100)": [(
            f"SELECT p.url, p.url, p.canonical FROM pages p WHERE "
            f"{strict_page('p', url_order=True)} AND p.canonical IS NOT NULL AND "
            "p.canonical != '' AND p.url != p.canonical ORDER BY p.url LIMIT ? OFFSET ?", PAGE)],
        "find_duplicates title (first 50)": [(
            f"SELECT p.title, count(*) AS n, group_concat(p.url, char(31)) FROM pages p WHERE "
            f"{strict_page('p')} AND p.title IS NOT NULL AND p.title != '' GROUP BY p.title "
            "HAVING count(*) > 1 ORDER BY n DESC, p.title LIMIT ? OFFSET ?", (50, 0))],
        "get_summary": [
            (f"SELECT isExternal, status, count(*) FROM pages WHERE {loose_page('pages')} AND "
             "(isSkipped = 0 OR isSkipped IS NULL) GROUP BY isExternal, status", ()),
            ("SELECT count(*), sum(title != ''), sum(description != ''), sum(keywords != ''), "
             "sum(og_title != ''), sum(og_description != ''), sum(og_image != '') FROM pages "
             f"WHERE {strict_page('pages')}", ()),
            ("SELECT contentType, isExternal, count(*) FROM pages WHERE scraped = 1 AND "
             "redirectDestId IS NULL AND (isSkipped = 0 OR isSkipped IS NULL) "
             "GROUP BY contentType, isExternal", ()),
        ],
        "list_links broken (first 100)": [(
            "SELECT s.url, COALESCE(r.url, d.url), COALESCE(r.status, d.status), an.textContent "
            "FROM pages s CROSS JOIN anchors an ON an.pageId = s.id JOIN pages d ON "
            "d.id = an.hrefId LEFT JOIN pages r ON r.id = d.redirectDestId WHERE "
            "COALESCE(r.status, d.status) = 404 ORDER BY s.url, an.id LIMIT ? OFFSET ?", PAGE)],
        "list_links external (first 100)": [(
            "SELECT s.url, COALESCE(r.url, d.url), COALESCE(r.status, d.status), an.textContent "
            "FROM pages s CROSS JOIN anchors an ON an.pageId = s.id JOIN pages d ON "
            "d.id = an.hrefId LEFT JOIN pages r ON r.id = d.redirectDestId WHERE "
            "COALESCE(r.isExternal, d.isExternal) = 1 ORDER BY s.url, an.id LIMIT ? OFFSET ?",
            PAGE)],
        "get_resource_referrers (first 100)": [(
            'SELECT p.url FROM "resources-referrers" rr JOIN pages p ON p.id = rr.pageId '
            "JOIN resources r ON r.id = rr.resourceId WHERE r.url = ? ORDER BY rr.pageId "
            "LIMIT ? OFFSET ?", (RESOURCE, *PAGE))],
        "get_duplicate_clusters": [(
            f"SELECT p.title, p.description, p.og_title, p.og_url, count(*) AS n FROM pages p "
            f"WHERE {strict_page('p')} GROUP BY p.title, p.description, p.og_title, p.og_url "
            "HAVING n >= 10 ORDER BY n DESC", ())],
        "list_dedupe_cap_events (first 100)": [(
            "SELECT * FROM dedupe_cap_events ORDER BY detected_at DESC, id DESC "
            "LIMIT ? OFFSET ?", PAGE)],
        "list_resources (first 100)": [(
            "SELECT r.*, (SELECT count(*) FROM \"resources-referrers\" rr WHERE rr.resourceId = "
            "r.id) FROM resources r ORDER BY r.url ASC LIMIT ? OFFSET ?", PAGE)],
        "list_images missing_alt (first 100)": [(
            "SELECT p.url, i.src, i.alt, i.width, i.height, i.naturalWidth, i.naturalHeight, "
            "i.isLazy FROM images i JOIN pages p ON p.id = i.pageId WHERE (i.alt IS NULL OR "
            "i.alt = '') ORDER BY p.url, i.id LIMIT ? OFFSET ?", PAGE)],
        "check_headers (first 100)": [(
            "SELECT p.url, " + ", ".join(
                "CASE WHEN json_valid(p.responseHeaders) THEN EXISTS (SELECT 1 FROM "
                f"json_each(p.responseHeaders) h WHERE lower(h.key) = '{h}') ELSE 0 END"
                for h in ("content-security-policy", "x-frame-options",
                          "x-content-type-options", "strict-transport-security"))
            + f" FROM pages p WHERE {strict_page('p', url_order=True)} ORDER BY p.url "
            "LIMIT ? OFFSET ?", PAGE)],
    }


PAGE_013 = ("ci.scraped = 1 AND ci.redirect_dest_id IS NULL AND ci.alias_of_id IS NULL AND "
            "(ctr.raw IS NULL OR ctr.raw = 'text/html')")
STRICT_013 = ("ci.scraped = 1 AND ci.is_external = 0 AND ctr.raw = 'text/html' AND "
              "ci.redirect_dest_id IS NULL AND ci.alias_of_id IS NULL")
LIST_013 = (
    "SELECT ur.url, t.text, ci.status, ctr.raw, ci.is_external, d.text, k.text, pm.lang, "
    "pm.robots_noindex, pm.robots_nofollow, pm.robots_noarchive, rr.text, cu.url, pm.og_type, "
    "ot.text, pm.og_site_name, od.text, ou.url, oi.url, pm.og_image_alt, pm.og_locale, "
    "pm.og_article_published_time, pm.twitter_card, pm.twitter_site, pm.twitter_creator, "
    "ti.url, pm.charset, pm.theme_color, mu.url, pm.tag_count, pm.jsonld_count, "
    "pm.tags_providers_csv, ci.first_crawled_at, ci.last_crawled_at "
    "FROM url_refs ur JOIN content_items ci ON ci.url_id = ur.id "
    "LEFT JOIN content_type_refs ctr ON ctr.id = ci.content_type_id "
    "LEFT JOIN page_meta pm ON pm.page_id = ci.id "
    + " ".join(f"LEFT JOIN text_refs {a} ON {a}.id = pm.{c}" for a, c in (
        ("t", "title_text_id"), ("d", "description_text_id"), ("k", "keywords_text_id"),
        ("rr", "robots_raw_text_id"), ("ot", "og_title_text_id"),
        ("od", "og_description_text_id")))
    + " " + " ".join(f"LEFT JOIN url_refs {a} ON {a}.id = pm.{c}" for a, c in (
        ("cu", "canonical_url_id"), ("ou", "og_url_id"), ("oi", "og_image_url_id"),
        ("ti", "twitter_image_url_id"), ("mu", "manifest_url_id")))
)


def raw_cases_013() -> dict[str, list[tuple[str, tuple[Any, ...]]]]:
    """The same answers written by hand over format 0.13's own tables, with the joins
    upstream's 0.13 readers use (docs/archive-format.md, "Format 0.13")."""
    base = ("FROM content_items ci LEFT JOIN content_type_refs ctr ON "
            "ctr.id = ci.content_type_id LEFT JOIN page_meta pm ON pm.page_id = ci.id ")
    return {
        "list_pages (first 100)": [(
            f"{LIST_013} WHERE {PAGE_013} ORDER BY ur.url LIMIT ? OFFSET ?", PAGE)],
        "list_pages missing_title": [(
            f"{LIST_013} WHERE {PAGE_013} AND pm.title_text_id IS NULL ORDER BY ur.url "
            "LIMIT ? OFFSET ?", PAGE)],
        "find_duplicates title (first 50)": [(
            "SELECT tr.text, count(*) AS n, group_concat(ur.url, char(31)) FROM content_items "
            "ci JOIN content_type_refs ctr ON ctr.id = ci.content_type_id JOIN page_meta pm "
            "ON pm.page_id = ci.id JOIN text_refs tr ON tr.id = pm.title_text_id JOIN "
            f"url_refs ur ON ur.id = ci.url_id WHERE {STRICT_013} GROUP BY pm.title_text_id "
            "HAVING count(*) > 1 ORDER BY n DESC, tr.text LIMIT ? OFFSET ?", (50, 0))],
        "get_summary": [
            (f"SELECT ci.is_external, ci.status, count(*) {base} WHERE {PAGE_013} AND "
             "(ci.is_skipped = 0 OR ci.is_skipped IS NULL) GROUP BY 1, 2", ()),
            ("SELECT count(*), sum(pm.title_text_id IS NOT NULL), "
             "sum(pm.description_text_id IS NOT NULL), sum(pm.keywords_text_id IS NOT NULL), "
             "sum(pm.og_title_text_id IS NOT NULL), sum(pm.og_description_text_id IS NOT "
             f"NULL), sum(pm.og_image_url_id IS NOT NULL) {base} WHERE {STRICT_013}", ()),
            (f"SELECT ctr.raw, ci.is_external, count(*) {base} WHERE ci.scraped = 1 AND "
             "ci.redirect_dest_id IS NULL AND (ci.is_skipped = 0 OR ci.is_skipped IS NULL) "
             "GROUP BY 1, 2", ()),
        ],
        "get_duplicate_clusters": [(
            f"SELECT pm.title_text_id, pm.description_text_id, pm.og_title_text_id, "
            f"pm.og_url_id, count(*) AS n {base} WHERE {STRICT_013} GROUP BY 1, 2, 3, 4 "
            "HAVING n >= 10 ORDER BY n DESC", ())],
    }


def our_cases(sample_url: str) -> dict[str, Callable[[q.Archive], Any]]:
    return {
        "list_pages (first 100)": lambda a: q.list_pages(a),
        "list_pages missing_title": lambda a: q.list_pages(a, missing_title=True),
        "get_page_detail": lambda a: q.get_page_detail(a, url=sample_url),
        "find_mismatches canonical (first 100)": lambda a: q.find_mismatches(a, type="canonical"),
        "find_duplicates title (first 50)": lambda a: q.find_duplicates(a),
        "get_summary": lambda a: q.get_summary(a),
        "list_links broken (first 100)": lambda a: q.list_links(a, type="broken"),
        "list_links external (first 100)": lambda a: q.list_links(a, type="external"),
        "get_resource_referrers (first 100)": lambda a: q.get_resource_referrers(
            a, resource_url=RESOURCE),
        "get_duplicate_clusters": lambda a: q.get_duplicate_clusters(a),
        "list_dedupe_cap_events (first 100)": lambda a: q.list_dedupe_cap_events(a),
        "list_resources (first 100)": lambda a: q.list_resources(a),
        "list_images missing_alt (first 100)": lambda a: q.list_images(a, missing_alt=True),
        "check_headers (first 100)": lambda a: q.check_headers(a),
    }


def _time(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def _raw_conn(db: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(db.resolve().as_uri() + "?immutable=1", uri=True)
    conn.execute("PRAGMA query_only = ON")
    conn.execute("PRAGMA cache_size = -65536")
    conn.execute("PRAGMA mmap_size = 268435456")
    return conn


def run(path: Path, fmt: str = "0.10") -> list[str]:
    rows: list[str] = []
    # open: empty cache vs cached re-open, in one process
    cache_dir = Path(tempfile.mkdtemp(prefix="nitpicker-bench-cache-"))
    os.environ["NITPICKER_PY_CACHE_DIR"] = str(cache_dir)
    cold_open = _time(lambda: q.open_archive(path).close())
    from nitpicker_query.archive import opening as archive_module

    archive_module._KEYS.clear()  # the in-process memo too: measure the on-disk cache
    cached_open = statistics.median(_time(lambda: q.open_archive(path).close())
                                    for _ in range(REPEAT))
    rows.append(f"| open_archive (extract vs cached re-open) | {cold_open * 1000:.0f} | "
                f"{cached_open * 1000:.1f} | — | — | {cached_open / cold_open * 100:.2f} % |")
    with q.open_archive(path) as a:
        db = a.directory / "db.sqlite"
    raws = raw_cases(SAMPLE) if fmt == "0.10" else raw_cases_013()
    ours = our_cases(SAMPLE)
    for name, statements in raws.items():
        conn = _raw_conn(db)

        def raw(conn: sqlite3.Connection = conn,
                statements: list[tuple[str, tuple[Any, ...]]] = statements) -> None:
            for sql, params in statements:
                conn.execute(sql, params).fetchall()

        archive = q.open_archive(path)
        ours_cold = _time(lambda archive=archive, name=name: ours[name](archive))
        raw_cold = _time(raw)
        ours_warm, raw_warm = [], []
        for _ in range(REPEAT):
            ours_warm.append(_time(lambda archive=archive, name=name: ours[name](archive)))
            raw_warm.append(_time(raw))
        archive.close()
        conn.close()
        o, r = statistics.median(ours_warm), statistics.median(raw_warm)
        rows.append(f"| {name} | {ours_cold * 1000:.1f} | {o * 1000:.2f} | "
                    f"{raw_cold * 1000:.1f} | {r * 1000:.2f} | {o / r:.2f}× |")
    shutil.rmtree(cache_dir, ignore_errors=True)
    return rows


def upstream_copy(path: Path, out: Path) -> Path:
    """The archive as upstream would have written it: no page_signatures, no extra indexes."""
    from variants import derived_copy

    return derived_copy(path, out, ["DROP TABLE page_signatures",
                                    *(f"DROP INDEX IF EXISTS {i}" for i in OUR_INDEXES)])


def rss_rows(path: Path) -> list[str]:
    """Each query alone in a fresh process: peak RSS, and peak Python heap (tracemalloc).

    RSS includes the SQLite file pages the query touched through mmap (shared, file-backed);
    the heap figure is what the query itself holds in Python — the check that no query
    pulls all rows into Python where SQL can aggregate.
    """
    rows = ["| query | peak RSS MiB | peak Python heap MiB |", "|---|---|---|"]
    for name in our_cases(SAMPLE):
        # VmHWM, not ru_maxrss: the latter keeps the forking parent's peak across exec
        code = (
            "import sys, tracemalloc; sys.path.insert(0, sys.argv[3]); "
            "import nitpicker_query as q; from queries import our_cases, SAMPLE; "
            "a = q.open_archive(sys.argv[1]); tracemalloc.start(); "
            "our_cases(SAMPLE)[sys.argv[2]](a); "
            "hwm = [l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')]; "
            "print(hwm[0], tracemalloc.get_traced_memory()[1])")
        out = subprocess.run([sys.executable, "-c", code, str(path), name,
                              str(Path(__file__).parent)], capture_output=True, text=True,
                             check=True, env={**os.environ})
        rss, heap = out.stdout.split()
        rows.append(f"| {name} | {int(rss) / 1024:.0f} | {int(heap) / 1024**2:.1f} |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, nargs="+", default=[300_000])
    parser.add_argument("--upstream", action="store_true",
                        help="also time an upstream-shaped copy of the largest archive")
    parser.add_argument("--rss", action="store_true",
                        help="peak RSS of each query on the largest archive")
    parser.add_argument("--format013", action="store_true",
                        help="also time the largest archive converted to format 0.13 "
                        "(nitpicker-crawl convert --to 0.13) against raw SQL over 0.13's "
                        "own tables")
    add_flag(parser)
    args = parser.parse_args()
    for pages in args.pages:
        path = ensure(pages)
        _report(path, f"python bench/queries.py --pages {pages}", run(path), args.write)
    largest = archive_path(max(args.pages))
    if args.upstream:
        with tempfile.TemporaryDirectory(dir=largest.parent) as tmp:
            copy = upstream_copy(largest, Path(tmp) / f"upstream-{largest.name}")
            _report(copy, f"python bench/queries.py --pages {max(args.pages)} --upstream "
                    "(upstream-shaped copy: no page_signatures, no extra indexes)", run(copy),
                    args.write)
    if args.format013:
        converted = ensure_013(max(args.pages))
        _report(converted, f"python bench/queries.py --pages {max(args.pages)} --format013 "
                "(the same archive converted to format 0.13; raw = SQL over 0.13's tables)",
                run(converted, "0.13"), args.write)
    if args.rss:
        emit(f"queries-rss-{largest.name}",
             f"### Peak memory per query, {largest.name} (each query alone in a fresh "
             "process)\n\n" + "\n".join(rss_rows(largest.absolute())), write=args.write)


def _report(path: Path, command: str, rows: list[str], write: bool) -> None:
    size = path.stat().st_size / 1024**2
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    emit(f"queries-{path.name}", "\n".join([
        f"### {path.name} ({size:.0f} MiB)\n",
        f"`{command}` — Python {platform.python_version()}, SQLite "
        f"{sqlite3.sqlite_version}, {os.cpu_count()} CPUs, {platform.machine()}\n",
        "| query | ours cold ms | ours warm ms | raw cold ms | raw warm ms | warm ratio |",
        "|---|---|---|---|---|---|",
        *rows,
        f"\nPeak RSS of the benchmark process so far: {peak:.0f} MiB",
    ]), write=write)


if __name__ == "__main__":
    main()
