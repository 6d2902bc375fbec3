"""Rendering with one request per page vs two, on the same URLs in the same run.

    python bench/fetch_once.py [--pages 200] [--rounds 2]

Before issue 13 a rendered page cost two requests: the fetcher's HEAD (status, headers,
redirects, the soft cap's redirect gate) and then Chromium's own GET. Now the fetcher
GETs the page once and its response answers the browser's navigation
(``Renderer.render(document=…)``). Both ways crawl TrapZoo's session trap with Chromium,
``--parallels 4``, stopped by ``--max-pages``; the rounds alternate so drift on this
noisy machine hits both alike. Reported: pages/s, and the requests the server saw per
page (TrapZoo counts every request).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from crawling import timed_crawl  # noqa: E402
from doc import add_flag, emit  # noqa: E402

from nitpicker_crawl.options import CrawlOptions  # noqa: E402
from nitpicker_crawl.trapzoo import TrapZoo  # noqa: E402


def run(zoo: TrapZoo, pages: int, fetch_once: bool, latency: float = 0.0) -> tuple[float, float]:
    """Seconds and server requests per fetched page of one crawl; ``latency``: seconds
    the server takes for each HTML answer (HEAD included, as a CMS builds the page
    either way)."""
    zoo.site.page_latency = latency
    root = zoo.url + "catalog/"
    options = CrawlOptions(roots=(root,), parallels=4, max_pages=pages, silent=True,
                           fetch_external=False, fetch_once=fetch_once)
    before = sum(zoo.site.hits.values())
    elapsed = timed_crawl(options)
    requests = sum(zoo.site.hits.values()) - before
    return elapsed, requests / pages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=2)
    add_flag(parser)
    args = parser.parse_args()
    latencies = (0.0, 0.05)
    results: dict[tuple[float, bool], list[tuple[float, float]]] = {
        (lat, once): [] for lat in latencies for once in (False, True)}
    with TrapZoo() as zoo:
        run(zoo, 20, True)  # warm-up: Chromium's first start is slow
        for _ in range(args.rounds):
            for lat in latencies:
                for once in (False, True):
                    results[lat, once].append(run(zoo, args.pages, once, lat))
    lines = [
        f"`python bench/fetch_once.py --pages {args.pages} --rounds {args.rounds}` — "
        f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}; "
        "TrapZoo's session trap, Chromium, `--parallels 4`, mean of the rounds\n",
        "| server time per HTML answer | rendering | pages | seconds | pages/s | "
        "server requests per page |",
        "|---|---|---:|---:|---:|---:|",
    ]
    ratios = []
    for lat in latencies:
        seconds = {}
        for once, label in ((False, "HEAD + Chromium's GET (before)"),
                            (True, "one GET answers Chromium (now)")):
            runs = results[lat, once]
            seconds[once] = sum(t for t, _ in runs) / len(runs)
            per_page = sum(r for _, r in runs) / len(runs)
            lines.append(f"| {lat * 1000:.0f} ms | {label} | {args.pages} | "
                         f"{seconds[once]:.1f} | {args.pages / seconds[once]:.1f} | "
                         f"{per_page:.2f} |")
        ratios.append(f"{seconds[False] / seconds[True]:.2f}× at {lat * 1000:.0f} ms")
    lines.append(f"\nFetching once vs twice, pages/s in this run: {', '.join(ratios)} "
                 "(the third request of a page is its stylesheet).")
    emit("fetch-once", "\n".join(lines), write=args.write)


if __name__ == "__main__":
    main()
