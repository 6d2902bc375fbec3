"""Time ``nitpicker-crawl convert`` on the benchmark archive: 0.10 → 0.13 and back.

    python bench/convert.py                 # 300,000 pages (built once, ~8 min, shared)
    python bench/convert.py --pages 10000 --repeat 3

Each conversion is the real command in a fresh process (``nitpicker-crawl convert
ARCHIVE --to 0.13 -o OUT``, then the result ``--to 0.10``), timed from outside: wall
time, CPU (user + system of the command and the worker process it starts) and the peak
RSS of the largest of those processes. The target is 300,000 pages in under two minutes
on a two-core machine. The converted archive is checked with the query library: the
same pages and link instances as the source. Prints a markdown table with the command,
machine and versions, and writes it into its block of docs/BENCHMARKS.md (``--no-write``:
print only).
"""

from __future__ import annotations

import argparse
import os
import platform
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from doc import add_flag, emit  # noqa: E402
from make_archive import ensure  # noqa: E402

import nitpicker_query as q  # noqa: E402

PAGES = 300_000  # the benchmark archive (bench/make_archive.py), as bench/queries.py
REPEAT = 1       # conversions per direction (a 300,000-page run takes over a minute)
TARGET_S = 120   # the wall-time target at 300,000 pages
CRAWL = str(Path(sys.executable).with_name("nitpicker-crawl"))


def cpu_model() -> str:
    """The CPU's model name (``/proc/cpuinfo``), or the platform's word for it."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def run(source: Path, output: Path, to: str) -> tuple[float, float, float]:
    """One conversion in a fresh process: (wall s, CPU s, peak RSS MiB of the largest
    process: the command's or its worker's). ``wait4`` gives this one command's usage,
    its worker's included."""
    with tempfile.TemporaryFile() as err:
        started = time.monotonic()
        proc = subprocess.Popen([CRAWL, "convert", str(source), "--to", to, "-o", str(output),
                                 "--force"], stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            err.seek(0)
            raise SystemExit(f"convert --to {to} failed:\n{err.read().decode()}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def check(source: Path, converted: Path) -> None:
    """The converted archive holds the source's pages and link instances."""
    with q.open_archive(source) as a, q.open_archive(converted) as b:
        for table in ("pages", "anchors", "images"):
            sql = f"SELECT count(*) FROM {table}"
            if a.count(sql) != b.count(sql):
                raise SystemExit(f"{converted.name}: {table} differ from {source.name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=PAGES)
    parser.add_argument("--repeat", type=int, default=REPEAT)
    add_flag(parser)
    args = parser.parse_args()
    source = ensure(args.pages)
    rows = []
    with tempfile.TemporaryDirectory(dir=source.parent, prefix="convert-bench-") as tmp:
        new = Path(tmp) / f"{source.stem}-0.13.nitpicker"
        back = Path(tmp) / f"{source.stem}-back.nitpicker"
        for label, src, out, to in (("0.10 → 0.13", source, new, "0.13"),
                                    ("0.13 → 0.10", new, back, "0.10")):
            runs = [run(src, out, to) for _ in range(args.repeat)]
            check(source, out)
            wall = statistics.median(r[0] for r in runs)
            cpu = statistics.median(r[1] for r in runs)
            rss = max(r[2] for r in runs)
            size = out.stat().st_size / 1024**2
            rows.append(f"| {label} | {wall:.1f} | {cpu:.1f} | {rss:.0f} | {size:.0f} |")
            print(rows[-1], file=sys.stderr)
    size = source.stat().st_size / 1024**2
    emit(f"convert-{source.name}", "\n".join([
        f"### `nitpicker-crawl convert`, {source.name} ({args.pages:,} pages, {size:.0f} MiB)\n",
        f"`python bench/convert.py --pages {args.pages}` — {os.cpu_count()} CPUs "
        f"(`nproc`), {cpu_model()}, Python {platform.python_version()}, SQLite "
        f"{sqlite3.sqlite_version}; median of {args.repeat} run(s), each the real command "
        "in a fresh process; target: 0.10 → 0.13 under "
        f"{TARGET_S} s\n",
        "| conversion | wall s | CPU s (command + worker) | peak RSS MiB (largest process) "
        "| output MiB |",
        "|---|---|---|---|---|",
        *rows,
    ]), write=args.write)


if __name__ == "__main__":
    main()
