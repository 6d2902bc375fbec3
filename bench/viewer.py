"""The viewer's server time per view against the query function it calls, same run.

    python bench/viewer.py [--pages 300000]

On the benchmark archive of ``bench/make_archive.py``: the viewer is served on 127.0.0.1
(uvicorn, as ``nitpicker-viewer`` runs it) and each view is requested over HTTP; its
server time is the ``Server-Timing`` header (query, template, response). The query
function is timed alone on the same opened archive. Views and queries alternate, five
times after a warm-up; medians are reported. Targets (issue 10): each view ≤ its query
+ 20 ms, none above 2 s, the first page of Pages under 100 ms.

Then the whole Pages list as CSV (``/pages?format=csv``, what its **Download CSV** link
streams): rows, bytes, seconds, and the server process's peak resident memory above
what it held before the download (sampled every 10 ms while the answer streams in): the
export reads and writes a thousand rows at a time, so it must stay flat whatever the
archive's size.
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import platform
import statistics
import sys
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from doc import add_flag, emit  # noqa: E402
from make_archive import ensure  # noqa: E402

import nitpicker_query as q  # noqa: E402
from nitpicker_viewer.app import create_app  # noqa: E402
from nitpicker_viewer.archives import Archives  # noqa: E402
from nitpicker_viewer.serving import config  # noqa: E402


def rss_mib() -> float:
    """This process's resident memory now (Linux ``/proc``; 0 elsewhere)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


class _Counted(io.RawIOBase):
    """A response read through, its bytes counted."""

    def __init__(self, response: Any) -> None:
        self.response, self.size = response, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        chunk = self.response.read(len(buffer))
        buffer[:len(chunk)] = chunk
        self.size += len(chunk)
        return len(chunk)


def csv_export(url: str) -> tuple[int, int, float, float]:
    """Download ``url`` (a CSV), parsing its records as they stream in (a line break
    may fall between two reads, or inside a quoted title: records, not lines, are
    counted), while a thread samples the process's RSS: (rows, bytes, seconds, peak RSS
    above before)."""
    before = rss_mib()
    peak = [before]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.01):
            peak[0] = max(peak[0], rss_mib())

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    start = time.perf_counter()
    with urllib.request.urlopen(url, timeout=3600) as response:
        counted = _Counted(response)
        text = io.TextIOWrapper(io.BufferedReader(counted, 65536), encoding="utf-8",
                                newline="")
        records = sum(1 for _ in csv.reader(text))
    seconds = time.perf_counter() - start
    done.set()
    sampler.join()
    return records - 1, counted.size, seconds, peak[0] - before


def server_ms(url: str) -> float:
    with urllib.request.urlopen(url, timeout=120) as response:
        response.read()
        timing = response.headers["Server-Timing"]
    return float(timing.split("dur=")[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=300_000)
    parser.add_argument("--rounds", type=int, default=5)
    add_flag(parser)
    args = parser.parse_args()
    path = ensure(args.pages)  # built once, shared with bench/queries.py
    import socket

    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    archives = Archives(path, [])
    app = create_app(archives, host="127.0.0.1", port=port)
    server = uvicorn.Server(config(app, host="127.0.0.1", port=port, log_level="error"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    a = archives.open(None)
    page_url = q.list_pages(a, limit=1, offset=1000)["items"][0]["url"]
    cluster = q.get_duplicate_clusters(a)["items"][0]["signature"]
    event = (q.list_dedupe_cap_events(a)["items"] or [{"id": 1}])[0]["id"]
    quoted = urllib.parse.quote(page_url, safe="")

    def detail(x: Any) -> Any:
        return (q.get_page_detail(x, url=page_url, links_limit=100),
                q.get_page_html(x, url=page_url, max_length=200_000),
                q.get_page_jsonld(x, url=page_url), q.get_page_tags(x, url=page_url))

    cases: list[tuple[str, str, Callable[[Any], Any]]] = [
        ("Summary", "/summary", q.get_summary),
        ("Pages, first page", "/pages", lambda x: q.list_pages(x)),
        ("Pages, sorted by status", "/pages?sortBy=status",
         lambda x: q.list_pages(x, sort_by="status")),
        ("Pages, search", "/pages?search=item-14",
         lambda x: q.list_pages(x, search="item-14", security_headers=True)),
        ("Pages, by title, descending", "/pages?sortBy=title&sortOrder=desc",
         lambda x: q.list_pages(x, sort_by="title", sort_order="desc",
                                security_headers=True)),
        ("Pages, missing title", "/pages?missingTitle=true",
         lambda x: q.list_pages(x, missing_title=True)),
        ("Page detail", f"/page?url={quoted}", detail),
        ("Links, broken", "/links?type=broken", lambda x: q.list_links(x, type="broken")),
        ("Links, broken by status", "/links?type=broken&sortBy=status&sortOrder=desc",
         lambda x: q.list_links(x, type="broken", sort_by="status", sort_order="desc")),
        ("Links, external by destination", "/links?type=external&byDestination=true",
         lambda x: q.list_links(x, type="external", by_destination=True)),
        ("Resources", "/resources", q.list_resources),
        ("Images", "/images", q.list_images),
        ("Duplicates", "/duplicates", q.find_duplicates),
        ("Mismatches", "/mismatches?type=canonical",
         lambda x: q.find_mismatches(x, type="canonical")),
        ("Headers", "/headers", q.check_headers),
        ("Duplicate clusters", "/duplicate-clusters",
         lambda x: q.get_duplicate_clusters(x, min_count=10)),
        ("A cluster's members", f"/duplicate-cluster?signature={cluster}",
         lambda x: q.get_duplicate_cluster(x, signature=cluster)),
        ("Cap events", "/dedupe-cap-events", q.list_dedupe_cap_events),
        ("Cap events, most refused first", "/dedupe-cap-events?sortBy=rejectedCount&"
         "sortOrder=desc",
         lambda x: q.list_dedupe_cap_events(x, sort_by="rejectedCount", sort_order="desc")),
        ("Refused URLs of an event", f"/pages?capEvent={event}",
         lambda x: q.list_pages(x, cap_event=event)),
    ]
    rows = []
    worst = 0.0
    for label, path_query, query in cases:
        url = f"http://127.0.0.1:{port}{path_query}"
        server_ms(url)
        query(a)
        views, queries = [], []
        for _ in range(args.rounds):
            start = time.perf_counter()
            query(a)
            queries.append((time.perf_counter() - start) * 1000)
            views.append(server_ms(url))
        v, qm = statistics.median(views), statistics.median(queries)
        worst = max(worst, max(views))
        rows.append(f"| {label} | `{path_query[:60]}` | {v:.1f} | {qm:.1f} | {v - qm:+.1f} |")
    total = q.list_pages(a)["total"]
    exported, size, seconds, rss = csv_export(f"http://127.0.0.1:{port}/pages?format=csv")
    assert exported == total, (exported, total)
    server.should_exit = True
    lines = [
        f"`python bench/viewer.py --pages {args.pages}` — {platform.machine()}, "
        f"{os.cpu_count()} CPUs, Python {platform.python_version()}; {path.name}; "
        f"median of {args.rounds}, views and queries alternating\n",
        "| view | URL | view server ms | query ms | view − query ms |",
        "|---|---|---:|---:|---:|",
        *rows,
        f"\nSlowest single view request in this run: {worst:.0f} ms.",
        f"\nCSV export of the whole Pages list (`/pages?format=csv`, the Download CSV "
        f"link): {exported:,} rows, {size / 2**20:,.0f} MiB in {seconds:.1f} s; the "
        f"server's peak resident memory during it {rss:+.0f} MiB above before.",
    ]
    emit("viewer", "\n".join(lines), write=args.write)


if __name__ == "__main__":
    main()
