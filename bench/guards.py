"""What the guards against hostile archives cost, and what they save (issue 14).

    python bench/guards.py [--pages 300000]

1. The per-statement deadline (an SQLite progress handler called every 20,000 VM steps):
   the same heavy statements on the same extracted database, with and without the
   handler, alternating, in one run.
2. ``get_summary``'s failure messages from ``error.log``: the old scan (a substring test
   per failure per line) against the new one (URL tokens looked up in a set), at sizes
   where the old one still ends, and the new one at 20,000 failures × 200,000 lines.
3. ``html`` of a zstd bomb (1 GiB of zeros): time and peak memory of the process.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import sqlite3
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
from nitpicker_query.archive.opening import _PROGRESS_STEPS  # noqa: E402

HEAVY = (
    "SELECT isExternal, status, count(*) FROM pages WHERE scraped = 1 AND "
    "redirectDestId IS NULL GROUP BY isExternal, status",
    "SELECT title, count(*) AS n FROM pages WHERE scraped = 1 AND isExternal = 0 AND "
    "title IS NOT NULL GROUP BY title HAVING n > 1 ORDER BY n DESC LIMIT 50",
    "SELECT count(*) FROM anchors a JOIN pages p ON p.id = a.hrefId WHERE p.status = 404",
)


def _deadline(db: Path, rounds: int) -> tuple[float, float]:
    plain = sqlite3.connect(f"file:{db}?immutable=1", uri=True)
    guarded = sqlite3.connect(f"file:{db}?immutable=1", uri=True)
    started = [time.monotonic()]
    guarded.set_progress_handler(lambda: int(time.monotonic() - started[0] > 60),
                                 _PROGRESS_STEPS)
    totals = {"plain": 0.0, "guarded": 0.0}
    for _ in range(rounds):
        for name, conn in (("plain", plain), ("guarded", guarded)):
            for sql in HEAVY:
                t = time.perf_counter()
                started[0] = time.monotonic()
                conn.execute(sql).fetchall()
                totals[name] += time.perf_counter() - t
    return totals["plain"] / rounds, totals["guarded"] / rounds


def _old_scan(urls: list[str], log: Path) -> int:
    wanted, found = set(urls), 0
    with open(log) as fh:
        for line in fh:
            for url in wanted:
                if url in line:
                    found += 1
    return found


_TOKEN = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*://[^\s\"'<>]+")


def _new_scan(urls: list[str], log: Path) -> int:
    wanted, found = set(urls), 0
    with open(log) as fh:
        for line in fh:
            for token in _TOKEN.findall(line):
                if token in wanted or token.rstrip(".,;:)]}'\"") in wanted:
                    found += 1
    return found


def _log(directory: Path, failures: int, lines: int) -> tuple[list[str], Path]:
    urls = [f"http://localhost/fail/{i}" for i in range(failures)]
    log = directory / f"error-{failures}-{lines}.log"
    with open(log, "w") as fh:
        for i in range(lines):
            fh.write(f"2026-01-01 error http://localhost/other/{i} ECONNRESET\n")
    return urls, log


def _timed(fn: object, *args: object) -> float:
    t = time.perf_counter()
    fn(*args)  # type: ignore[operator]
    return time.perf_counter() - t


BOMB = """
import resource, sys, time
sys.path.insert(0, sys.argv[2])
from nitpicker_query.archive.html_codec import decode_html
body = open(sys.argv[1], "rb").read()
t = time.perf_counter()
html, complete = decode_html(body, "zstd")
took = time.perf_counter() - t
print(f"{took:.2f} {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} {complete}")
"""


def _bomb(directory: Path) -> tuple[float, int, int]:
    from corpora.hostile_archives import _bomb_blob

    blob = _bomb_blob(1.0)
    path = directory / "bomb.zst"
    path.write_bytes(blob)
    out = subprocess.run([sys.executable, "-c", BOMB, str(path), str(ROOT)],
                         capture_output=True, text=True, check=True).stdout.split()
    return float(out[0]), int(out[1]), len(blob)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=300_000)
    parser.add_argument("--rounds", type=int, default=3)
    add_flag(parser)
    args = parser.parse_args()
    archive = ensure(args.pages)
    with q.open_archive(archive) as a:
        db = a.directory / "db.sqlite"
        plain, guarded = _deadline(db, args.rounds)
    lines = [
        f"`python bench/guards.py --pages {args.pages}` — {platform.machine()}, "
        f"{os.cpu_count()} CPUs, Python {platform.python_version()}, SQLite "
        f"{sqlite3.sqlite_version}\n",
        "| guard | without | with | ratio |",
        "|---|---:|---:|---:|",
        f"| deadline on {len(HEAVY)} heavy statements, {args.pages:,}-page archive "
        f"(mean of {args.rounds}) | {plain * 1000:.0f} ms | {guarded * 1000:.0f} ms | "
        f"{guarded / plain:.3f}× |",
    ]
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        for failures, count in ((200, 20_000), (2_000, 20_000)):
            urls, log = _log(d, failures, count)
            old, new = _timed(_old_scan, urls, log), _timed(_new_scan, urls, log)
            lines.append(f"| error.log scan, {failures:,} failures × {count:,} lines (old "
                         f"vs new) | {old:.2f} s | {new:.2f} s | {new / old:.3f}× |")
        urls, log = _log(d, 20_000, 200_000)
        new = _timed(_new_scan, urls, log)
        lines.append(f"| error.log scan, 20,000 failures × 200,000 lines | over 60 s "
                     f"(issue) | {new:.2f} s | |")
        took, rss, stored = _bomb(d)
        lines.append(f"| `html` of a zstd bomb: 1 GiB of zeros in {stored // 1024} KiB | "
                     f"3 GB of memory (issue) | {took:.2f} s, peak RSS {rss} MiB | |")
    emit("guards", "\n".join(lines), write=args.write)


if __name__ == "__main__":
    main()
