"""What each part issue 25 added costs the crawl, each measured on its own in one run.

    python bench/feature_cost.py [--pages 2000] [--render-pages 300] [--rounds 3]

Every round crawls TrapZoo's endless session trap (``/catalog/?session=…``: small pages,
each linking two new ones; the site's robots.txt names a sitemap index) with everything
on, then once with each part off, alternating, each crawl a fresh process (start-up
included, as a user waits for it): ``--no-render --max-pages N``, and in Chromium
``--render --max-pages M``. A part with a flag is switched off by it (``--no-sitemap``,
``--no-main-contents``); one without is switched off in the process before the crawl
starts: the body hash (replaced by a constant) and, rendering, console capture (its
listeners never registered). The outage watch costs nothing until fetches fail and is
not measured here (tests/crawl/test_outages.py measures its behaviour).
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from crawl_cost import crawl  # noqa: E402
from doc import add_flag, emit  # noqa: E402

from nitpicker_crawl.trapzoo import TrapZoo  # noqa: E402

NO_BODY_HASH = ("import nitpicker_crawl.crawl.scraping as _c\n"
                "_c.body_hash = lambda html: bytes(32)\n")
NO_CONSOLE = ("from playwright.async_api import Page as _P\n_on = _P.on\n"
              "_P.on = lambda self, event, f: None if event in ('console', 'pageerror') "
              "else _on(self, event, f)\n")

PARTS: dict[str, tuple[tuple[str, ...], str]] = {
    "all on": ((), ""),
    "without sitemaps": (("--no-sitemap",), ""),
    "without main contents": (("--no-main-contents",), ""),
    "without body hashes": ((), NO_BODY_HASH),
}
RENDER_PARTS: dict[str, tuple[tuple[str, ...], str]] = {
    "all on": ((), ""),
    "without main contents": (("--no-main-contents",), ""),
    "without console capture": ((), NO_CONSOLE),
}


def measure(start: str, parts: dict[str, tuple[tuple[str, ...], str]], pages: int,
            rounds: int, render: bool) -> dict[str, list[float]]:
    results: dict[str, list[float]] = {name: [] for name in parts}
    for _ in range(rounds):
        for name, (extra, prelude) in parts.items():
            results[name].append(crawl(ROOT, start, pages, render, extra=extra,
                                       prelude=prelude))
            print(f"{'render' if render else 'no-render'} {name}: "
                  f"{results[name][-1]:.1f} pages/s", flush=True)
    return results


def rows(results: dict[str, list[float]], mode: str) -> list[str]:
    base = statistics.mean(results["all on"])
    out = []
    for name, values in results.items():
        mean = statistics.mean(values)
        share = "" if name == "all on" else f"{(mean - base) / mean * 100:+.1f} %"
        out.append(f"| {mode} | {name} | {', '.join(f'{v:.1f}' for v in values)} | "
                   f"{mean:.1f} | {share} |")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--render-pages", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    add_flag(parser)
    args = parser.parse_args()
    with TrapZoo() as zoo:
        start = zoo.url + "catalog/?session=0123456789abcdef"
        plain = measure(start, PARTS, args.pages, args.rounds, render=False)
        rendered = measure(start, RENDER_PARTS, args.render_pages, args.rounds,
                           render=True)
    lines = [
        f"`python bench/feature_cost.py --pages {args.pages} --render-pages "
        f"{args.render_pages} --rounds {args.rounds}` — {platform.machine()}, "
        f"{len(__import__('os').sched_getaffinity(0))} CPUs, Python "
        f"{platform.python_version()}",
        "",
        "| mode | crawl | pages/s, each round | mean | cost of the part (share of "
        "the crawl's time) |",
        "|---|---|---|---:|---:|",
        *rows(plain, f"--no-render, {args.pages} pages"),
        *rows(rendered, f"--render, {args.render_pages} pages"),
    ]
    emit("feature-cost", "\n".join(lines), write=args.write)


if __name__ == "__main__":
    main()
