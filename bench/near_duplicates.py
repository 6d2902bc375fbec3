"""``near-duplicates`` at scale: the first call (every page's stored HTML read, its content
area's signature made, the groups found), a second threshold and one page's near
duplicates from memory — beside the floor of reading the same HTML, and datasketch (the
MinHash library an auditor would reach for) signing and grouping the same texts.

    python bench/near_duplicates.py                  # the 300,000-page archive
    python bench/near_duplicates.py --pages 10000 --no-write

Each measurement runs in a fresh process (peak RSS is that process's; it counts the
archive's pages SQLite maps, 256 MiB at most). datasketch runs on the first
``--library-pages`` pages only (its MinHash hashes each shingle in Python: an hour at
300,000), and ours on the same pages in the same process for the ratio.
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
import numpy as np
from nitpicker_query.archive import snapshots
from nitpicker_query.archive.opening import open_archive
from nitpicker_query.keys import near_text
from nitpicker_query.queries.near_duplicates import find_near_duplicates, get_near_duplicates
path, step, sample = sys.argv[1], sys.argv[2], int(sys.argv[3])
out = {{}}
started = time.perf_counter()


def listed(a, limit=None):
    sql = (f"SELECT p.id, p.url, r.hash FROM pages p JOIN page_html_ref r ON r.page_id = p.id "
           f"WHERE {{a.population('p', 'indexable')}} ORDER BY p.url")
    rows = a.rows(sql)
    return rows[:limit] if limit else rows


if step == "floor":
    a = open_archive(path)
    out["pages"] = sum(1 for _ in snapshots.read(a, listed(a), limit=4 << 20))
elif step == "query":
    first = find_near_duplicates(path, limit=100)
    out["first"] = time.perf_counter() - started
    out["groups"], out["compared"] = first["total"], first["comparedPages"]
    started = time.perf_counter()
    out["groups80"] = find_near_duplicates(path, threshold=80, limit=100)["total"]
    out["second"] = time.perf_counter() - started
    started = time.perf_counter()
    url = first["items"][0]["representativeUrl"] if first["items"] else None
    if url:
        get_near_duplicates(path, url=url, limit=20)
    out["page"] = time.perf_counter() - started
    started = None
elif step == "library":
    from datasketch import MinHash, MinHashLSH
    a = open_archive(path)
    texts = []
    for _i, url, html, _c in snapshots.read(a, listed(a, sample), limit=4 << 20):
        text = near_text.content_text(html)
        words = near_text.tokens(text or "")
        if len(words) >= 50:
            texts.append((url, words, text or ""))
    out["pages"] = len(texts)
    started = time.perf_counter()
    sigs = [near_text.signature(near_text.word_hashes(t)) for _u, _w, t in texts]
    labels, best = near_text.near_groups(np.unique(np.vstack(sigs), axis=0), 0.9)
    out["ours"] = time.perf_counter() - started
    started = time.perf_counter()
    lsh = MinHashLSH(threshold=0.9, num_perm=128)
    hashes = []
    for n, (_u, words, _h) in enumerate(texts):
        m = MinHash(num_perm=128)
        m.update_batch([" ".join(words[i:i + 3]).encode() for i in range(len(words) - 2)])
        lsh.insert(str(n), m)
        hashes.append(m)
    alike = sum(1 for n, m in enumerate(hashes) if len(lsh.query(m)) > 1)
    out["library"] = time.perf_counter() - started
    out["libraryAlike"] = alike
    started = None
if started is not None:
    out["seconds"] = time.perf_counter() - started
out["rss"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
"""


def run(path: Path, step: str, sample: int = 0) -> dict[str, float]:
    r = subprocess.run([sys.executable, "-c", CHILD.format(root=str(ROOT)), str(path), step,
                        str(sample)], capture_output=True, text=True, check=True)
    result: dict[str, float] = json.loads(r.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=300_000)
    parser.add_argument("--library-pages", type=int, default=10_000,
                        help="pages signed by datasketch and by ours for the ratio")
    add_flag(parser)
    args = parser.parse_args()
    path = ensure(args.pages)
    floor, query = run(path, "floor"), run(path, "query")
    library = run(path, "library", args.library_pages)
    rows = [f"`python bench/near_duplicates.py --pages {args.pages}` — {path.name}; Python "
            f"{platform.python_version()}, {os.cpu_count()} CPUs\n",
            "| step | seconds | peak RSS, MiB |", "|---|---|---|",
            f"| floor: every indexable page's stored HTML read and decoded "
            f"({floor['pages']:,.0f}) | {floor['seconds']:.1f} | {floor['rss']:.0f} |",
            f"| near-duplicates, first call ({query['compared']:,.0f} pages compared, "
            f"{query['groups']:,.0f} groups at 90 %) | {query['first']:.1f} | "
            f"{query['rss']:.0f} |",
            f"| near-duplicates --threshold 80, from memory ({query['groups80']:,.0f} groups) "
            f"| {query['second']:.2f} | |",
            f"| near-duplicates-of, the biggest group's first page | {query['page']:.2f} | |",
            f"| signatures and groups of {library['pages']:,.0f} pages' texts: ours | "
            f"{library['ours']:.2f} | |",
            f"| the same with datasketch (MinHash 128, MinHashLSH at 0.9; "
            f"{library['libraryAlike']:,.0f} pages with a match) | {library['library']:.2f} "
            f"| {library['rss']:.0f} |",
            "", f"Ratio, first call to the floor of reading: "
            f"{query['first'] / floor['seconds']:.2f}×; datasketch to ours on the same texts: "
            f"{library['library'] / library['ours']:.1f}×."]
    emit(f"near-duplicates-{args.pages}", "\n".join(rows), write=args.write)


if __name__ == "__main__":
    main()
