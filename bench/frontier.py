"""The fair frontier's cost: URLs/s through the queue and crawl pages/s, before and after.

    python bench/frontier.py                 # baseline: the commit before the fair frontier
    python bench/frontier.py --baseline HEAD~5 --rounds 3

1. 100,000 URLs (50 path shapes) added to a ``Frontier`` and taken out again, in a fresh
   process per source tree.
2. ``nitpicker-crawl --no-render --max-pages 2000`` of TrapZoo's session trap at
   ``--parallels 1, 4, 8``, the baseline's crawler and this checkout's alternating, so a
   busy moment of the machine hits both.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from doc import add_flag, emit  # noqa: E402
from softcap_sites import BASELINE  # noqa: E402

from nitpicker_crawl.trapzoo import TrapZoo  # noqa: E402

PAGES = 2000
QUEUE = """
import asyncio, time
from nitpicker_crawl.crawl.frontier import Frontier

async def run():
    f = Frontier(lambda key: None)
    urls = [f"http://h/s{i % 50}/item-{i}/?page={i % 7}" for i in range(100_000)]
    start = time.perf_counter()
    for u in urls:
        f.add(u, external=False, metadata_only=False)
    while (item := await f.next()) is not None:
        await f.done(item)
    return time.perf_counter() - start

print(100_000 / asyncio.run(run()))
"""
CRAWL = "import sys; from nitpicker_crawl.cli import main; sys.exit(main())"


def _env(tree: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(tree)}


def queue_rate(tree: Path) -> float:
    out = subprocess.run([sys.executable, "-c", QUEUE], env=_env(tree), check=True,
                         capture_output=True, text=True).stdout
    return float(out)


def crawl_rate(tree: Path, url: str, parallels: int) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        r = subprocess.run([sys.executable, "-c", CRAWL, url, "-o", f"{tmp}/x.nitpicker",
                            "--no-render", "--max-pages", str(PAGES), "--silent",
                            "--no-fetch-external", "--parallels", str(parallels)],
                           env=_env(tree), cwd=tmp, capture_output=True)
        if r.returncode not in (0, 3):  # 3: stopped by --max-pages (since issue 13)
            raise SystemExit(f"nitpicker-crawl exited {r.returncode}: {r.stderr[-500:]!r}")
        return PAGES / (time.perf_counter() - start)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--baseline", default=BASELINE)
    p.add_argument("--rounds", type=int, default=2)
    add_flag(p)
    args = p.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="nitpicker-frontier-"))
    base = tmp / "baseline"
    subprocess.run(["git", "worktree", "add", "--detach", str(base), args.baseline], cwd=ROOT,
                   check=True, capture_output=True)
    trees = {f"before ({args.baseline})": base, "after": ROOT}
    try:
        queue: dict[str, list[float]] = {k: [] for k in trees}
        crawl: dict[tuple[str, int], list[float]] = {}
        with TrapZoo() as zoo:
            url = zoo.url + "catalog/?session=root"
            for _ in range(args.rounds):
                for label, tree in trees.items():
                    queue[label].append(queue_rate(tree))
                    for parallels in (1, 4, 8):
                        crawl.setdefault((label, parallels), []).append(
                            crawl_rate(tree, url, parallels))
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT,
                       capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)
    lines = [f"`python bench/frontier.py --baseline {args.baseline} --rounds {args.rounds}` — "
             f"Python {platform.python_version()}, {os.cpu_count()} CPUs; medians of "
             f"{args.rounds} alternating rounds\n",
             "| frontier | URLs/s through the queue | crawl pages/s, --parallels 1 | 4 | 8 |",
             "|---|---|---|---|---|"]
    for label in trees:
        rates = [statistics.median(crawl[(label, n)]) for n in (1, 4, 8)]
        lines.append(f"| {label} | {statistics.median(queue[label]):,.0f} | "
                     + " | ".join(f"{r:.0f}" for r in rates) + " |")
    emit("frontier", "\n".join(lines), write=args.write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
