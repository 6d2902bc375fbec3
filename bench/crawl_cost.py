"""What a change costs the crawler: pages/s of two source trees, interleaved in one run.

    python bench/crawl_cost.py --tree /path/to/worktree-of-older-commit [--pages 2000] [--render]

Each round crawls TrapZoo's endless session trap (``/catalog/?session=…``, small pages
that each link two new ones) with ``--no-render --max-pages N --no-templates --interval
0`` once with the older tree and once with this one, each in a fresh process importing
its own tree (``PYTHONPATH``), alternating, so the machine's drift (other load, CPU
frequency) falls on both. Without ``--tree`` only this tree is timed. Wall time of the
whole process, start-up included: what a user waits for. ``--render`` crawls in Chromium
instead (start-up of the browser included).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from nitpicker_crawl.trapzoo import TrapZoo  # noqa: E402

CLI = "import sys; from nitpicker_crawl.cli import main; sys.exit(main())"


def crawl(tree: Path, start: str, pages: int, render: bool = False, *,
          extra: Sequence[str] = (), prelude: str = "") -> float:
    """Pages per second of one crawl with ``tree``'s code (``extra`` flags; ``prelude``:
    Python run before the CLI, to switch off a part that has no flag)."""
    with tempfile.TemporaryDirectory() as work:
        began = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", prelude + CLI, start, "-o", f"{work}/site.nitpicker",
             "--render" if render else "--no-render",
             "--max-pages", str(pages), "--no-templates", "--silent", "--interval", "0",
             *extra],
            env={**os.environ, "PYTHONPATH": str(tree)}, cwd=work, capture_output=True,
            text=True)
        elapsed = time.perf_counter() - began
    if done.returncode not in (0, 3):   # 3: stopped by --max-pages, as asked
        raise SystemExit(f"crawl with {tree} failed: {done.stderr.strip()[-300:]}")
    return pages / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, help="an older commit's worktree to compare")
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--render", action="store_true", help="crawl in Chromium")
    args = parser.parse_args()
    trees = ([("before", args.tree)] if args.tree else []) + [("this tree", ROOT)]
    results: dict[str, list[float]] = {name: [] for name, _ in trees}
    with TrapZoo() as zoo:
        start = zoo.url + "catalog/?session=0123456789abcdef"
        for _ in range(args.rounds):
            for name, tree in trees:
                results[name].append(crawl(tree, start, args.pages, args.render))
                print(f"{name}: {results[name][-1]:.1f} pages/s", flush=True)
    for name, values in results.items():
        print(f"{name}: " + ", ".join(f"{v:.1f}" for v in values) + " pages/s")


if __name__ == "__main__":
    main()
