"""``compare_archives`` at scale: two 300,000-page crawls compared, beside one
``get_summary`` in the same run.

    python bench/compare.py                   # site-300000 against its 0.13 conversion
    python bench/compare.py --pages 10000 --no-write

The pair is the archive of ``bench/make_archive.py`` and the same crawl converted to
format 0.13 (``bench/queries.py --format013`` makes it): every URL matches, so every
page's values are read and compared across formats — the whole work of a comparison.
Each pair runs in a fresh process (peak RSS is that process's): the summary (which builds
the comparison database), then the first page of each list served from it, and one
``get_summary`` of the newer archive for scale. Peak RSS counts the archives' pages SQLite
maps into memory (256 MiB each at most: the kernel's to reclaim); the process's own memory
is its anonymous RSS after the build. A second pair, the 0.10 archive against itself, is
the comparison without the 0.13 views' cost.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from doc import add_flag, emit  # noqa: E402
from make_archive import ensure, ensure_013  # noqa: E402

CHILD = """
import json, resource, sys, time
sys.path.insert(0, {root!r})
import nitpicker_query as q
from nitpicker_query.queries.compare import KINDS, compare_archives
old, new = sys.argv[1], sys.argv[2]
out = {{}}
started = time.perf_counter()
q.get_summary(new)
out["get_summary"] = time.perf_counter() - started
started = time.perf_counter()
summary = compare_archives(new, old=old)
out["summary"] = time.perf_counter() - started
for kind in KINDS:
    started = time.perf_counter()
    compare_archives(new, old=old, kind=kind, limit=100)
    out[kind] = time.perf_counter() - started
out["counts"] = summary["counts"]
out["rss"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
for line in open("/proc/self/status"):
    if line.startswith("RssAnon:"):
        out["anon"] = int(line.split()[1]) / 1024
print(json.dumps(out))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=300_000)
    add_flag(parser)
    args = parser.parse_args()
    old, new = ensure(args.pages), ensure_013(args.pages)
    pairs = [(old, new), (old, old)]
    runs = []
    for before, after in pairs:
        r = subprocess.run([sys.executable, "-c", CHILD.format(root=str(ROOT)), str(before),
                            str(after)], capture_output=True, text=True, check=True)
        runs.append(json.loads(r.stdout.strip().splitlines()[-1]))
    rows = [f"`python bench/compare.py --pages {args.pages}` — {old.name} (0.10) against "
            f"{new.name} (0.13), and against itself; Python {platform.python_version()}, "
            f"{os.cpu_count()} CPUs\n",
            "| step (seconds) | 0.10 against 0.13 | 0.10 against 0.10 |", "|---|---|---|",
            "| get_summary of the newer archive (for scale) | "
            + " | ".join(f"{m['get_summary']:.1f}" for m in runs) + " |",
            "| compare: the summary (reads both crawls, builds the comparison) | "
            + " | ".join(f"{m['summary']:.1f}" for m in runs) + " |"]
    rows += [f"| compare: first page of {kind} | "
             + " | ".join(f"{m[kind]:.2f}" for m in runs) + " |"
             for kind in ("changed", "added", "removed", "not-comparable", "broken-links",
                          "clusters")]
    rows += ["| peak RSS, MiB (with the archives' mapped pages) | "
             + " | ".join(f"{m['rss']:.0f}" for m in runs) + " |",
             "| anonymous RSS after the build, MiB (the process's own) | "
             + " | ".join(f"{m.get('anon', 0):.0f}" for m in runs) + " |"]
    m = runs[0]
    rows += ["", "Rows (0.10 against 0.13): "
             + ", ".join(f"{k} {v:,}" for k, v in m["counts"].items()) + "."]
    emit(f"compare-{args.pages}", "\n".join(rows), write=args.write)


if __name__ == "__main__":
    main()
