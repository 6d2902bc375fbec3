"""``nitpicker-query report --format html`` on generated archives: seconds, peak memory
and the page's size, beside the floor — the very queries the page is made of, called
in one process with the page's row limits and nothing written.

    python bench/report_html.py                   # 30,000 pages, 3 rounds
    python bench/report_html.py --pages 30000 300000 --no-write

Archives come from bench/make_archive.py, which stores no template clusters: both the
report and the floor compute them from the snapshots (the step a crawl by
nitpicker-crawl does once, at its end), so that step is in both columns. Each side runs
in its own process; peak RSS is the kernel's (``wait4``).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from doc import add_flag, emit
from make_archive import ensure

QUERY = str(Path(sys.executable).with_name("nitpicker-query"))

FLOOR = """
import sys, time
from nitpicker_query.archive.opening import opened
from nitpicker_query.report import html_report
with opened(sys.argv[1]) as a:
    html_report.sections(a, lambda done, total, message: None)
"""
"""The floor: every section's query with the page's limits, in one process, no page."""


def _child(command: list[str]) -> tuple[float, float]:
    """Seconds and peak RSS (MiB) of one child process."""
    started = time.monotonic()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _pid, status, usage = os.wait4(proc.pid, 0)
    seconds = time.monotonic() - started
    if status != 0:
        raise SystemExit(f"{command[:3]} failed: {proc.stderr.read() if proc.stderr else ''}")
    return seconds, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, nargs="+", default=[30_000])
    parser.add_argument("--rounds", type=int, default=3,
                        help="alternating rounds of each side; the medians are shown")
    add_flag(parser)
    args = parser.parse_args()
    rows = []
    for pages in args.pages:
        archive = ensure(pages)
        floors, reports = [], []
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "site.html"
            for _ in range(args.rounds):   # alternating: a busy spell costs both sides
                floors.append(_child([sys.executable, "-c", FLOOR, str(archive)]))
                reports.append(_child([QUERY, "report", str(archive), "-o", str(out)]))
            size = out.stat().st_size
        floor_s, floor_rss = statistics.median(s for s, _ in floors), max(r for _, r in floors)
        page_s, page_rss = statistics.median(s for s, _ in reports), max(r for _, r in reports)
        rows.append(f"| {pages:,} | {floor_s:.1f} | {floor_rss:.0f} | {page_s:.1f} | "
                    f"{page_rss:.0f} | {size / 1e6:.2f} | **{page_s / floor_s:.2f}×** |")
        print(rows[-1], flush=True)
    lines = [
        f"`python bench/report_html.py --pages {' '.join(map(str, args.pages))} "
        f"--rounds {args.rounds}` — "
        f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}; "
        "archives of bench/make_archive.py (no stored templates); median seconds of "
        "alternating rounds, highest peak RSS\n",
        "| pages | floor: the sections' queries, s | floor peak RSS, MiB | "
        "report --format html, s | peak RSS, MiB | page, MB | ratio |",
        "|---:|---:|---:|---:|---:|---:|---:|",
        *rows,
    ]
    emit("report-html", "\n".join(lines), write=args.write)


if __name__ == "__main__":
    main()
