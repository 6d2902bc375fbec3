"""What request headers cost a rendered crawl: the same crawl with and without one header.

    python bench/request_headers.py [--pages 200] [--rounds 3]

Without ``--header`` (and its siblings) Chromium's interception pauses only the page's
document, which the crawler answers itself; with one, every request of every page is
paused and continued from Python (one more CDP round trip a request), so that only the
site's hosts get the headers. Two sites on 127.0.0.1, rendered, ``--parallels 4``,
stopped by ``--max-pages``, rounds alternating: TrapZoo's session trap (one stylesheet a
page) and pages that each load ten images of their own (eleven paused requests a page).
Reported: median pages/s, CPU ms a page (this process, Playwright's driver and Chromium,
which end with each crawl: steadier than seconds on a shared machine) and the requests the
server saw per page.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import platform
import resource
import statistics
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from crawling import timed_crawl  # noqa: E402
from doc import add_flag, emit  # noqa: E402

from nitpicker_crawl.fetch.request_headers import RequestHeaders  # noqa: E402
from nitpicker_crawl.options import CrawlOptions  # noqa: E402
from nitpicker_crawl.trapzoo import TrapZoo  # noqa: E402

IMAGES = 10
PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d49444154789c6300010000050001a5f645400000000049454e44ae426082")


@contextlib.contextmanager
def image_site() -> Iterator[tuple[str, list[int]]]:
    """Endless pages /p/N, each linking the next two and loading ten images of its own;
    yields the base URL and a one-item request counter."""
    hits = [0]

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True

        def do_GET(self) -> None:
            hits[0] += 1
            if self.path.startswith("/p/"):
                n = int(self.path[3:] or 0)
                images = "".join(f'<img src="/img/{n}-{k}.png" alt="">' for k in range(IMAGES))
                body = (f"<!DOCTYPE html><title>Page {n}</title><a href='/p/{2 * n + 1}'>a</a>"
                        f"<a href='/p/{2 * n + 2}'>b</a>{images}").encode()
                kind = "text/html; charset=utf-8"
            elif self.path.startswith("/img/"):
                body, kind = PNG, "image/png"
            else:
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/p/0", hits
    finally:
        server.shutdown()
        server.server_close()


def cpu_seconds() -> float:
    """CPU time of this process and of its children that have ended."""
    own, children = (resource.getrusage(w) for w in (resource.RUSAGE_SELF,
                                                     resource.RUSAGE_CHILDREN))
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def run(root: str, count: Any, pages: int, headers: bool) -> tuple[float, float, float]:
    """Seconds, CPU ms a page and server requests a page of one rendered crawl."""
    extra = RequestHeaders([("X-Staging", "bench")]) if headers else RequestHeaders()
    options = CrawlOptions(roots=(root,), parallels=4, max_pages=pages, silent=True,
                           fetch_external=False, sitemap=False, headers=extra)
    before, cpu = count(), cpu_seconds()
    elapsed = timed_crawl(options)
    return elapsed, (cpu_seconds() - cpu) * 1000 / pages, (count() - before) / pages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    add_flag(parser)
    args = parser.parse_args()
    lines = [
        f"`python bench/request_headers.py --pages {args.pages} --rounds {args.rounds}` — "
        f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}; "
        "Chromium, `--parallels 4`, median of the rounds\n",
        "| site | request headers | pages | seconds | pages/s | CPU ms a page | "
        "server requests per page |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    ratios = []
    with TrapZoo() as zoo, image_site() as (images_root, hits):
        sites = {"TrapZoo session trap (1 stylesheet a page)":
                 (zoo.url + "catalog/", lambda: sum(zoo.site.hits.values())),
                 f"{IMAGES} images a page": (images_root, lambda: hits[0])}
        run(zoo.url + "catalog/", sites[next(iter(sites))][1], 20, False)  # Chromium warm-up
        for name, (root, count) in sites.items():
            results: dict[bool, list[tuple[float, float, float]]] = {False: [], True: []}
            for _ in range(args.rounds):
                for headers in (False, True):
                    results[headers].append(run(root, count, args.pages, headers))
            seconds, cpu = {}, {}
            for headers in (False, True):
                seconds[headers] = statistics.median(t for t, _, _ in results[headers])
                cpu[headers] = statistics.median(c for _, c, _ in results[headers])
                per_page = statistics.median(r for _, _, r in results[headers])
                said = "--header (every request paused)" if headers else "none"
                lines.append(f"| {name} | {said} | {args.pages} | {seconds[headers]:.1f} | "
                             f"{args.pages / seconds[headers]:.1f} | {cpu[headers]:.0f} | "
                             f"{per_page:.2f} |")
            ratios.append(f"{seconds[False] / seconds[True]:.2f}× the pages/s and "
                          f"{cpu[True] / cpu[False]:.2f}× the CPU on {name}")
    lines.append(f"\nWith a header against without, in this run: {'; '.join(ratios)}.")
    emit("request-headers", "\n".join(lines), write=args.write)


if __name__ == "__main__":
    main()
