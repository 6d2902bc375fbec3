"""``compare_archives`` at scale: two 300,000-page crawls compared, beside one
``get_summary`` in the same run.

    python bench/compare.py                   # site-300000 against its 0.13 conversion
    python bench/compare.py --pages 10000 --no-write

The pair is the archive of ``bench/make_archive.py`` and the same crawl converted to
format 0.13 (``bench/queries.py --format013`` makes it): every URL matches, so every
page's values are read and compared across formats — the whole work of a comparison.
Each measurement runs in a fresh process (peak RSS is that process's): the summary
(which builds the comparison database), then the first page of each list served from it,
and one ``get_summary`` of the newer archive for scale.
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
from make_archive import archive_path, ensure  # noqa: E402

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
print(json.dumps(out))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=300_000)
    add_flag(parser)
    args = parser.parse_args()
    old = ensure(args.pages)
    new = archive_path(args.pages).with_name(old.stem + "-0.13.nitpicker")
    if not new.exists():
        subprocess.run([str(Path(sys.executable).with_name("nitpicker-crawl")), "convert",
                        str(old), "--to", "0.13", "-o", str(new)], check=True)
    r = subprocess.run([sys.executable, "-c", CHILD.format(root=str(ROOT)), str(old), str(new)],
                       capture_output=True, text=True, check=True)
    m = json.loads(r.stdout.strip().splitlines()[-1])
    rows = [f"`python bench/compare.py --pages {args.pages}` — {old.name} (0.10) against "
            f"{new.name} (0.13), Python {platform.python_version()}, {os.cpu_count()} CPUs\n",
            "| step | seconds |", "|---|---|",
            f"| get_summary of the newer archive (for scale) | {m['get_summary']:.1f} |",
            f"| compare: the summary (reads both crawls, builds the comparison) "
            f"| {m['summary']:.1f} |"]
    rows += [f"| compare: first page of {kind} | {m[kind]:.2f} |"
             for kind in ("changed", "added", "removed", "not-comparable", "broken-links",
                          "clusters")]
    rows += ["", f"Peak RSS of the process: {m['rss']:.0f} MiB; rows: "
             + ", ".join(f"{k} {v:,}" for k, v in m["counts"].items()) + "."]
    emit(f"compare-{args.pages}", "\n".join(rows), write=args.write)


if __name__ == "__main__":
    main()
