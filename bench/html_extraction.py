"""``search-html``, ``match-selector`` and ``match-xpath`` at scale, beside the floor of
their work: every stored snapshot read and decompressed, nothing searched.

    python bench/html_extraction.py                  # the 300,000-page archive
    python bench/html_extraction.py --pages 10000 --no-write

Each measurement runs in a fresh process (peak RSS is that process's, with the archive's
pages SQLite maps: 256 MiB at most) with a deadline long enough for a whole scan.
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
from make_archive import ensure  # noqa: E402

CHILD = """
import json, resource, sys, time
sys.path.insert(0, {root!r})
import zstandard
from nitpicker_query import match_selector, match_xpath, open_archive, search_html
path, step = sys.argv[1], sys.argv[2]
a = open_archive(path, query_timeout=3600)
out = {{}}
started = time.perf_counter()
if step == "floor":
    size = 0
    for body, codec in a.execute("SELECT b.body, b.codec FROM page_html_ref r "
                                 "JOIN page_html_blobs b ON b.hash = r.hash"):
        size += len(zstandard.ZstdDecompressor().decompress(body) if codec == "zstd"
                    else body)
    out["bytes"] = size
elif step == "literal":
    out["pages"] = search_html(a, pattern="Section 7", limit=1)["total"]
elif step == "regex":
    out["pages"] = search_html(a, pattern=r"/Shared title 7\\d\\b/i", limit=1)["total"]
elif step == "selector":
    out["pages"] = match_selector(a, selector="title", limit=1)["total"]
elif step == "xpath":
    out["pages"] = match_xpath(a, xpath="//title", limit=1)["total"]
out["seconds"] = time.perf_counter() - started
out["rss"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
"""

STEPS = (("floor", "every snapshot read and decompressed (the floor)"),
         ("literal", "search-html, a literal (`Section 7`)"),
         ("regex", "search-html, a regex (`/Shared title 7\\d\\b/i`)"),
         ("selector", "match-selector, `title` with its text"),
         ("xpath", "match-xpath, `//title` with its text (libxml2 parses each page)"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=300_000)
    add_flag(parser)
    args = parser.parse_args()
    path = ensure(args.pages)
    runs = {}
    for step, _ in STEPS:
        r = subprocess.run([sys.executable, "-c", CHILD.format(root=str(ROOT)), str(path),
                            step], capture_output=True, text=True, check=True)
        runs[step] = json.loads(r.stdout.strip().splitlines()[-1])
    floor = runs["floor"]
    rows = [f"`python bench/html_extraction.py --pages {args.pages}` — {path.name} "
            f"({floor['bytes'] / 1e9:.2f} GB of stored HTML); Python "
            f"{platform.python_version()}, {os.cpu_count()} CPUs\n",
            "| step | seconds | × the floor | pages found | peak RSS, MiB |",
            "|---|---|---|---|---|"]
    for step, label in STEPS:
        m = runs[step]
        found = f"{m['pages']:,}" if "pages" in m else ""
        rows.append(f"| {label} | {m['seconds']:.1f} | {m['seconds'] / floor['seconds']:.2f}"
                    f" | {found} | {m['rss']:.0f} |")
    emit(f"html-extraction-{args.pages}", "\n".join(rows), write=args.write)


if __name__ == "__main__":
    main()
