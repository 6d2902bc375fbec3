"""Rendered pages/s with 1, 2 and 3 browsers (issue 44): the local Chromium alone, then
with one and two ``nitpicker-crawl browser-host`` servers beside it, in one run.

    python bench/endpoints.py [--pages 200] [--rounds 3]

Workload: TrapZoo's session trap (as ``bench/crawl.py``), rendered, ``--max-pages``,
external links not fetched. Each browser renders ``--slots`` pages at once (the local
one with ``--parallels``). Every browser host here is a process on this machine, so
they share its cores with the crawler and each other: what this measures is what the
endpoints cost and whether pages are dealt evenly, not what more machines bring (that
is each host's own pages/s, added: docs/scaling.md). Rounds alternate the
configurations so the machine's drift hits all alike. Reported: median pages/s and CPU
seconds per page (the crawl's processes and the hosts' browsers together).
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from doc import add_flag, emit  # noqa: E402

from nitpicker_crawl.trapzoo import TrapZoo  # noqa: E402

CRAWL = str(Path(sys.executable).with_name("nitpicker-crawl"))


@contextmanager
def host() -> Iterator[tuple[str, subprocess.Popen[str]]]:
    proc = subprocess.Popen([CRAWL, "browser-host"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    try:
        assert proc.stdout is not None
        yield proc.stdout.readline().strip(), proc
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()


def crawl(url: str, pages: int, extra: list[str]) -> tuple[float, float]:
    """Wall seconds and CPU seconds of one crawl (its processes: Chromium's included)."""
    with tempfile.TemporaryDirectory() as tmp:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        r = subprocess.run([CRAWL, url + "catalog/?session=1", "-o", f"{tmp}/b.nitpicker",
                            "--max-pages", str(pages), "--silent", "--no-fetch-external",
                            "--no-templates", *extra], cwd=tmp, capture_output=True,
                           text=True)
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if r.returncode not in (0, 3):
            raise SystemExit(f"exit {r.returncode}: {r.stderr[-800:]}")
        return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def cpu_of(proc: subprocess.Popen[str]) -> float:
    """CPU seconds of a host's process group so far (its driver and its Chromium)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            fields = stat[stat.rfind(")") + 2:].split()
            if int(fields[2]) == proc.pid:   # process group
                # its own time and its reaped children's (Chromium reaps its renderers)
                total += sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            continue
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--slots", type=int, default=2)
    add_flag(parser)
    args = parser.parse_args()
    configs = {"local Chromium alone": 0, "local + 1 browser host": 1,
               "local + 2 browser hosts": 2}
    results: dict[str, list[tuple[float, float]]] = {name: [] for name in configs}
    with TrapZoo() as zoo, ExitStack() as stack:
        hosts = [stack.enter_context(host()) for _ in range(2)]
        for _ in range(args.rounds):
            for name, count in configs.items():
                extra = ["--parallels", str(args.slots)]
                for endpoint, _proc in hosts[:count]:
                    extra += ["--browser-endpoint", endpoint, "--browser-slots", str(args.slots)]
                before = sum(cpu_of(p) for _e, p in hosts)
                wall, cpu = crawl(zoo.url, args.pages, extra)
                results[name].append((wall, cpu + sum(cpu_of(p) for _e, p in hosts) - before))
    base = statistics.median(args.pages / w for w, _c in results["local Chromium alone"])
    rows = []
    for name, runs in results.items():
        rate = statistics.median(args.pages / w for w, _c in runs)
        cpu = statistics.median(c / args.pages for _w, c in runs)
        rows.append(f"| {name} | {configs[name] + 1} | {(configs[name] + 1) * args.slots} | "
                    f"{rate:.2f} | {rate / base:.2f}× | {cpu * 1000:.0f} |")
    emit("endpoints", "\n".join([
        f"`python bench/endpoints.py --pages {args.pages} --rounds {args.rounds} --slots "
        f"{args.slots}` — {platform.machine()}, {os.cpu_count()} CPUs, Python "
        f"{platform.python_version()}; median of {args.rounds}, configurations alternating\n",
        "| browsers | count | pages at once | pages/s | vs local alone | CPU ms / page |",
        "|---|---|---|---|---|---|", *rows,
    ]), write=args.write)


if __name__ == "__main__":
    main()
