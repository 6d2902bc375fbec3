"""Crawl speed on the bundled TrapZoo site, side by side with baselines in the same run.

    python bench/crawl.py            # all sections (~5 minutes; installs Scrapy once)
    python bench/crawl.py --quick    # smaller workloads

Workload: the endless session trap ``/catalog/?session=<hex>`` (each small page links two
new ones, so parallel workers have work) stopped by ``--max-pages``; external links are
not fetched, so every run fetches the same number of pages of the same kind.

1. ``nitpicker-crawl --no-render`` and rendering at ``--parallels 1, 4, 8``: pages/s.
2. Rendering with our one reused browser vs a browser launched per URL (upstream's
   design), both sequential on the same URLs, same extraction script.
3. ``--no-render`` vs Scrapy on the same workload (4 concurrent requests, links followed,
   no archive written by Scrapy; ours writes the archive). Scrapy is installed into
   ``bench/.venv-scrapy`` only, never into the project.
4. Peak RSS of a 20,000-page ``--no-render`` crawl.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import resource
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from doc import add_flag, emit  # noqa: E402

from nitpicker_crawl.fetch.renderer import CHROMIUM_ARGS, EXTRACT_JS, find_browser  # noqa: E402
from nitpicker_crawl.trapzoo import TrapZoo  # noqa: E402

BIN = Path(sys.executable).parent
NO_RENDER_PAGES = 2000     # section 1 and 3
RENDER_PAGES = 200         # section 1
PER_URL_PAGES = 30         # section 2
RSS_PAGES = 20_000         # section 4
SCRAPY_VENV = ROOT / "bench" / ".venv-scrapy"

SPIDER = textwrap.dedent('''
    import scrapy

    class Trap(scrapy.Spider):
        name = "trap"

        def __init__(self, start, **kw):
            super().__init__(**kw)
            self.start_urls = [start]

        def parse(self, response):
            yield {"url": response.url, "title": response.css("title::text").get()}
            for href in response.css("a::attr(href)").getall():
                if "/catalog/" in href:  # the same scope as nitpicker-crawl's root
                    yield response.follow(href, self.parse)
''')


def crawl(url: str, pages: int, *extra: str) -> tuple[float, int]:
    """Seconds and peak RSS (KiB) of one nitpicker-crawl process."""
    with tempfile.TemporaryDirectory() as tmp:
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        start = time.perf_counter()
        r = subprocess.run([str(BIN / "nitpicker-crawl"), url, "-o", f"{tmp}/b.nitpicker",
                            "--max-pages", str(pages), "--silent", "--no-fetch-external",
                            *extra], cwd=tmp)
        if r.returncode not in (0, 3):  # 3: stopped by --max-pages, as intended here
            raise SystemExit(f"nitpicker-crawl exited {r.returncode}")
        elapsed = time.perf_counter() - start
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return elapsed, max(peak, before)


async def per_url_browsers(urls: list[str]) -> float:
    """Upstream's design: launch Chromium, render one URL, close — for every URL."""
    from playwright.async_api import async_playwright

    executable = find_browser()
    start = time.perf_counter()
    async with async_playwright() as pw:
        for url in urls:
            browser = await pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
            page = await browser.new_page()
            await page.goto(url, wait_until="load")
            await page.evaluate(EXTRACT_JS.replace("WANT_IMAGES", "true"))
            await browser.close()
    return time.perf_counter() - start


def scrapy_seconds(url: str, pages: int) -> float | None:
    python = SCRAPY_VENV / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(SCRAPY_VENV)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "scrapy"], check=True)
    with tempfile.TemporaryDirectory() as tmp:
        spider = Path(tmp) / "trap.py"
        spider.write_text(SPIDER)
        start = time.perf_counter()
        subprocess.run([str(SCRAPY_VENV / "bin" / "scrapy"), "runspider", str(spider),
                        "-a", f"start={url}", "-s", f"CLOSESPIDER_PAGECOUNT={pages}",
                        "-s", "CONCURRENT_REQUESTS=4", "-s", "LOG_LEVEL=ERROR",
                        "-s", "ROBOTSTXT_OBEY=True", "-s", "TELNETCONSOLE_ENABLED=False",
                        "-o", f"{tmp}/out.jsonl"], check=True, cwd=tmp)
        elapsed = time.perf_counter() - start
        lines = len((Path(tmp) / "out.jsonl").read_text().splitlines())
    # CLOSESPIDER_PAGECOUNT counts responses (robots.txt too) and stops with requests
    # in flight, so the item count lands within a few of the target
    return elapsed if lines >= pages - 10 else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of each workload")
    add_flag(parser)
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    rows: list[str] = []
    with TrapZoo() as zoo:
        trap = zoo.url + "catalog/"
        # first, while no Chromium has run: RUSAGE_CHILDREN keeps the largest child's peak
        big = RSS_PAGES // scale
        t, peak = crawl(trap, big, "--no-render", "--parallels", "4")
        rss_row = (f"| --no-render {big}-page crawl (peak RSS {peak / 1024:.0f} MiB) | {big} | "
                   f"{t:.1f} | {big / t:.0f} |")
        n = NO_RENDER_PAGES // scale
        t, _ = crawl(trap, n, "--no-render", "--parallels", "4")
        rows.append(f"| nitpicker-crawl --no-render, --parallels 4 | {n} | {t:.1f} | "
                    f"{n / t:.0f} |")
        for parallels in (1, 4, 8):
            m = RENDER_PAGES // scale
            t, _ = crawl(trap, m, "--parallels", str(parallels))
            rows.append(f"| nitpicker-crawl (Chromium), --parallels {parallels} | {m} | "
                        f"{t:.1f} | {m / t:.1f} |")
        k = PER_URL_PAGES
        reused, _ = crawl(trap, k, "--parallels", "1")
        urls = [f"{zoo.url}catalog/?session={i:016x}" for i in range(k)]
        fresh = asyncio.run(per_url_browsers(urls))
        rows.append(f"| reused browser (ours), --parallels 1 | {k} | {reused:.1f} | "
                    f"{k / reused:.1f} |")
        rows.append(f"| browser per URL (upstream's design), sequential | {k} | {fresh:.1f} | "
                    f"{k / fresh:.1f} |")
        ours, _ = crawl(trap, n, "--no-render", "--parallels", "4")
        theirs = scrapy_seconds(trap, n)
        rows.append(f"| nitpicker-crawl --no-render (writes the archive), 4 parallel | {n} | "
                    f"{ours:.1f} | {n / ours:.0f} |")
        if theirs is not None:
            rows.append(f"| Scrapy {_scrapy_version()}, 4 concurrent, no output but JSONL | "
                        f"{n} | {theirs:.1f} | {n / theirs:.0f} |")
    rows.append(rss_row)
    emit("crawl" + ("-quick" if args.quick else ""), "\n".join([
        f"`python bench/crawl.py{' --quick' if args.quick else ''}` — Python "
        f"{platform.python_version()}, {os.cpu_count()} CPUs, TrapZoo on 127.0.0.1\n",
        "| run | pages | seconds | pages/s |",
        "|---|---|---|---|",
        *rows,
        f"\nreused vs per-URL browser: {fresh / reused:.1f}× faster; --no-render vs Scrapy: "
        + (f"{theirs / ours:.2f}× Scrapy's pages/s" if theirs else "Scrapy did not finish"),
    ]), write=args.write)


def _scrapy_version() -> str:
    out = subprocess.run([str(SCRAPY_VENV / "bin" / "scrapy"), "version"], capture_output=True,
                         text=True)
    return out.stdout.strip().replace("Scrapy ", "")


if __name__ == "__main__":
    main()
