"""This tree's crawler against an earlier revision's, on the same workload in one run.

    python bench/before_after.py --base 3b5ab44          # the crawler before issue 20
    python bench/before_after.py --base HEAD~3 --rounds 7
    python bench/before_after.py --base 5e43c36 --workloads no-render capped

The earlier revision is checked out into a temporary git worktree and run with this
venv (``PYTHONPATH`` first), so both use the same interpreter, packages and Chromium;
rounds alternate between the two so the machine's drift hits both alike. Workloads
(TrapZoo's session trap, as ``bench/crawl.py``): ``--no-render`` 2,000 pages, the same
with the soft cap on (``--dedupe-cap 1000000``: every page observed, its main content
read, no cluster ever capped, so both trees fetch the same pages) and rendered 200 pages,
``--parallels 4``, external links not fetched (each tree with the browser it finds, then
both with the full Chromium, then both with its headless shell). The default is all five.
Reported: the median
pages/s and the median CPU time per page (the crawl's processes, Chromium's included:
steadier than wall time on a shared machine) of each, and their ratios.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from doc import add_flag, emit  # noqa: E402

from nitpicker_crawl.fetch.renderer import find_browser  # noqa: E402
from nitpicker_crawl.trapzoo import TrapZoo  # noqa: E402

WORKLOADS = {  # name: (label, pages, crawl options)
    "no-render": ("--no-render", 2000, ("--no-render",)),
    "capped": ("--no-render --dedupe-cap 1000000", 2000, ("--no-render", "--dedupe-cap",
                                                         "1000000")),
    "rendered": ("rendered", 200, ()),
    "rendered-full": ("rendered, both in full Chromium", 200, ()),
    "rendered-shell": ("rendered, both in the headless shell", 200, ()),
}
"""``rendered`` runs each tree with the browser it finds itself (this tree prefers
Chromium's headless shell); ``rendered-full`` and ``rendered-shell`` give both trees the
same browser (``NITPICKER_CHROMIUM``), so what the code costs is told apart from what the
browser does."""

RUN = "import sys; from nitpicker_crawl.cli import main; sys.exit(main(sys.argv[1:]))"


def crawl_seconds(tree: Path, url: str, pages: int, *extra: str,
                  browser: str | None = None) -> tuple[float, float]:
    """Wall seconds and CPU seconds (the crawl's processes, Chromium's included);
    ``browser``: the Chromium both trees render with (else each finds its own)."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    if browser:
        env["NITPICKER_CHROMIUM"] = browser
    with tempfile.TemporaryDirectory() as tmp:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        r = subprocess.run([sys.executable, "-c", RUN, url, "-o", f"{tmp}/b.nitpicker",
                            "--max-pages", str(pages), "--silent", "--no-fetch-external",
                            *extra], cwd=tmp, env=env,
                           capture_output=True, text=True)
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if r.returncode not in (0, 3):
            raise SystemExit(f"{tree}: exit {r.returncode}: {r.stderr[-500:]}")
        return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="3b5ab44", help="the earlier revision")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--workloads", nargs="+", choices=tuple(WORKLOADS),
                        default=list(WORKLOADS), help="which crawls to time (default: all)")
    parser.add_argument("--block", default="before-after",
                        help="the BENCHMARKS.md block written (one per comparison kept)")
    add_flag(parser)
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="bench-base-"))
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-f", str(base),
                    args.base], check=True, capture_output=True)
    rev = subprocess.run(["git", "-C", str(base), "rev-parse", "--short", "HEAD"],
                         capture_output=True, text=True, check=True).stdout.strip()
    rows = []
    try:
        with TrapZoo() as zoo:
            url = zoo.url + "catalog/?session=bench"
            for workload in args.workloads:
                label, pages, extra = WORKLOADS[workload]
                browser = {"rendered-full": find_browser(shell=False),
                           "rendered-shell": find_browser()}.get(workload)
                runs: dict[str, list[tuple[float, float]]] = {"base": [], "this": []}
                for _ in range(args.rounds):
                    runs["base"].append(crawl_seconds(base, url, pages, *extra,
                                                      browser=browser))
                    runs["this"].append(crawl_seconds(ROOT, url, pages, *extra,
                                                      browser=browser))
                speed = {k: pages / statistics.median(w for w, _ in v) for k, v in runs.items()}
                cpu = {k: 1000 * statistics.median(c for _, c in v) / pages
                       for k, v in runs.items()}
                rows.append(f"| {label}, {pages} pages | {speed['base']:.1f} | "
                            f"{speed['this']:.1f} | **{speed['this'] / speed['base']:.3f}×** | "
                            f"{cpu['base']:.2f} | {cpu['this']:.2f} | "
                            f"**{cpu['this'] / cpu['base']:.3f}×** |")
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)],
                       capture_output=True)
    chosen = ("" if args.workloads == list(WORKLOADS) else
              " --workloads " + " ".join(args.workloads)) + (
        "" if args.block == "before-after" else f" --block {args.block}")
    head = (f"`python bench/before_after.py --base {args.base} --rounds {args.rounds}"
            f"{chosen}` "
            f"({os.cpu_count()} cores, {time.strftime('%Y-%m-%d')}); median pages/s of "
            f"{args.rounds} alternating rounds:\n\n"
            f"| workload | pages/s {rev} (before) | pages/s this tree | ratio | CPU ms/page "
            f"before | CPU ms/page this tree | ratio |\n|---|---|---|---|---|---|---|\n")
    emit(args.block, head + "\n".join(rows), write=args.write)


if __name__ == "__main__":
    main()
