"""Upstream's newest queries at scale (``resource-hosts``, ``pages-by-resource``,
``match-urls``, ``links --type all`` with patterns), each beside the raw SQL doing the
same counting in the same run.

    python bench/upstream_queries.py                  # the 300,000-page archive
    python bench/upstream_queries.py --pages 10000 --no-write

Each query opens the archive afresh (no count memo carried between them); the time is
the median of three.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from doc import add_flag, emit  # noqa: E402
from make_archive import ensure  # noqa: E402

import nitpicker_query as q  # noqa: E402
from nitpicker_query.queries.resource_inventory import host_of  # noqa: E402


def timed(call: Callable[[], Any]) -> float:
    runs = []
    for _ in range(3):
        started = time.perf_counter()
        call()
        runs.append(time.perf_counter() - started)
    return statistics.median(runs)


def fresh(path: Path, sql: str, params: tuple[Any, ...] = ()) -> Callable[[], Any]:
    def run() -> Any:
        with q.open_archive(path) as a:
            return a.execute(sql, params).fetchall()
    return run


def lookups(path: Path, urls: list[str]) -> Callable[[], Any]:
    def run() -> Any:
        with q.open_archive(path) as a:
            return [a.execute("SELECT id FROM pages WHERE url = ?", (u,)).fetchone()
                    for u in urls]
    return run


def query(path: Path, function: Callable[..., Any], **options: Any) -> Callable[[], Any]:
    def run() -> Any:
        with q.open_archive(path) as a:
            return function(a, **options)
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=300_000)
    add_flag(parser)
    args = parser.parse_args()
    path = ensure(args.pages)
    with q.open_archive(path) as a:
        urls = [r[0] for r in a.execute("SELECT url FROM pages ORDER BY id").fetchall()]
    picked = random.Random(7).sample(urls, min(1000, len(urls)))
    host = host_of("r.url")
    cases = [
        ("resource-hosts", query(path, q.list_resource_hosts),
         "pages per host: one GROUP BY over the referrers",
         fresh(path, f'SELECT {host}, count(DISTINCT rr.pageId) FROM "resources-referrers" rr '
               "JOIN resources r ON r.id = rr.resourceId GROUP BY 1")),
        ("pages-by-resource `%.css`", query(path, q.list_pages_by_resource,
                                            resource_pattern="%.css"),
         "the count and the first 100 pages in URL order",
         fresh(path, 'SELECT count(DISTINCT rr.pageId), (SELECT group_concat(u) FROM '
               '(SELECT p.url AS u FROM "resources-referrers" rr JOIN resources r ON '
               "r.id = rr.resourceId JOIN pages p ON p.id = rr.pageId WHERE r.url LIKE "
               "'%.css' GROUP BY p.id ORDER BY p.url LIMIT 100)) FROM "
               '"resources-referrers" rr JOIN resources r ON r.id = rr.resourceId '
               "WHERE r.url LIKE '%.css'")),
        ("match-urls, 1,000 URLs", query(path, q.match_urls, urls=picked),
         "1,000 indexed lookups by URL on one connection", lookups(path, picked)),
        ("links --type all, first page", query(path, q.list_links, type="all"),
         "count(*) of every anchor",
         fresh(path, "SELECT count(*) FROM anchors")),
        ("links --type all --source-pattern '%/section-1/%'",
         query(path, q.list_links, type="all", source_pattern="%/section-1/%"),
         "count(*) of the anchors of matching pages",
         fresh(path, "SELECT count(*) FROM anchors an JOIN pages s ON s.id = an.pageId "
               "WHERE s.url LIKE '%/section-1/%'")),
        ("links --type all --by-destination", query(path, q.list_links, type="all",
                                                    by_destination=True),
         "pages and anchors per target: one GROUP BY over every anchor",
         fresh(path, "SELECT count(*) FROM (SELECT hrefId, count(DISTINCT pageId), "
               "count(*) FROM anchors GROUP BY hrefId)")),
    ]
    rows = [f"`python bench/upstream_queries.py --pages {args.pages}` — {path.name}; Python "
            f"{platform.python_version()}, {os.cpu_count()} CPUs; median of 3\n",
            "| query | seconds | raw SQL (same run) | seconds | ratio |", "|---|---|---|---|---|"]
    for name, call, raw_name, raw in cases:
        ours, floor = timed(call), timed(raw)
        rows.append(f"| {name} | {ours:.2f} | {raw_name} | {floor:.2f} | "
                    f"{ours / floor:.2f}× |")
    emit(f"upstream-queries-{args.pages}", "\n".join(rows), write=args.write)


if __name__ == "__main__":
    main()
