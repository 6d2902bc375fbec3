"""page-cluster on a labelled synthetic site: accuracy, CPU time and peak memory by size.

    python bench/clustering.py [--sizes 1000 10000 50000 100000] [--extended-sizes 10000 50000]

The corpus is ``page_cluster.synthetic`` (29 templates, shared chrome, site-wide and
per-section stylesheets, ~2 % of pages without stylesheet data, random repeat counts,
optional parts and noise, hard pairs: sidebar or not, a reviews block or not, a list and
a tag page of one section, list and detail of every section, mirrored sections). Each
size is written to a JSONL file first; a fresh process then clusters it the way the CLI
does (reading the file line by line), and reports the CPU time and peak RSS of that
process: generation is not counted. The extended site (``--extended-sizes``, 33
templates) adds what real sites showed: third-party stylesheets on a random share of
pages, first-party ones with a cache-busting query, section ids made from headings,
comment ids, a template of optional blocks in random order, and three templates that
share all chrome, path and stylesheets. Scores: adjusted Rand index and purity against the
templates, and the number of clusters. Targets (issue 11): ARI ≥ 0.97 at 10,000 and ≥ 0.95
at 50,000; CPU ≤ 30 s at 10,000 and ≤ 150 s at 50,000; peak RSS ≤ 400 MiB at 10,000 and
≤ 500 MiB at 100,000.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from doc import add_flag, emit  # noqa: E402

from corpora.real import cluster_corpora  # noqa: E402
from page_cluster import synthetic  # noqa: E402
from page_cluster.scoring import adjusted_rand_index, purity  # noqa: E402

CHILD = """
import json, sys, time
from page_cluster.resolve import resolve_page_cluster_keys
def pages(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            yield json.loads(line)
start = time.process_time()
keys = resolve_page_cluster_keys(pages(sys.argv[1]))
cpu = time.process_time() - start
# VmHWM, not ru_maxrss: Linux keeps ru_maxrss across exec (the parent's peak)
with open("/proc/self/status") as status:
    rss = int(status.read().split("VmHWM:")[1].split()[0]) / 1024
with open(sys.argv[2], "w") as f:
    json.dump({"keys": keys, "cpu": cpu, "rss": rss}, f)
"""


def _labelled(pages: Iterable[tuple[dict[str, Any], str]], tree: Path
              ) -> tuple[list[str], float, dict[str, Any]]:
    """Write ``(record, label)`` pairs to a JSONL file and cluster it in a fresh process,
    the way the CLI reads it: the labels, the file's size in MB and the child's keys,
    CPU time and peak RSS."""
    with tempfile.TemporaryDirectory() as tmp:
        corpus, out = Path(tmp) / "pages.jsonl", Path(tmp) / "out.json"
        labels = []
        with open(corpus, "w", encoding="utf-8") as f:
            for record, label in pages:
                f.write(json.dumps(record) + "\n")
                labels.append(label)
        size_mb = corpus.stat().st_size / 1e6
        subprocess.run([sys.executable, "-c", CHILD, str(corpus), str(out)], check=True,
                       env={**os.environ, "PYTHONPATH": str(tree)}, cwd=tree)
        result: dict[str, Any] = json.loads(out.read_text())
    return labels, size_mb, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[1000, 10_000, 50_000,
                                                                  100_000])
    parser.add_argument("--extended-sizes", type=int, nargs="*", default=[10_000, 50_000],
                        help="sizes of the extended site (synthetic.site(extended=True): "
                        "third-party stylesheets, content-derived ids, optional blocks in "
                        "random order, templates differing only inside main)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--corpora", nargs="*", choices=sorted(cluster_corpora.CORPORA),
                        default=sorted(cluster_corpora.CORPORA),
                        help="the corpora we did not write to cluster (default: all)")
    parser.add_argument("--tree", type=Path, default=ROOT,
                        help="source tree whose page_cluster runs (a git worktree of an "
                             "older commit, for figures measured in the same run)")
    add_flag(parser)
    args = parser.parse_args()
    rows = []
    for n in args.sizes:
        labels, size_mb, result = _labelled(synthetic.site(n, seed=args.seed), args.tree)
        keys = result["keys"]
        rows.append(f"| {n:,} | {size_mb:,.0f} MB | {len(set(labels))} | {len(set(keys))} | "
                    f"{adjusted_rand_index(labels, keys):.4f} | {purity(labels, keys):.4f} | "
                    f"{result['cpu']:.1f} | {result['rss']:.0f} |")
        print(rows[-1], flush=True)
    extended = []
    for n in args.extended_sizes:
        labels, size_mb, result = _labelled(synthetic.site(n, seed=args.seed, extended=True),
                                            args.tree)
        keys = result["keys"]
        extended.append(f"| {n:,} | {size_mb:,.0f} MB | {len(set(labels))} | "
                        f"{len(set(keys))} | {adjusted_rand_index(labels, keys):.4f} | "
                        f"{purity(labels, keys):.4f} | {result['cpu']:.1f} | "
                        f"{result['rss']:.0f} |")
        print(extended[-1], flush=True)
    real = []
    for name, (missing, pages) in sorted(cluster_corpora.CORPORA.items()):
        if name not in args.corpora:
            continue
        reason = missing()
        if reason:
            real.append(f"| {name} | skipped: {reason} | | | | | | |")
            continue
        labels, _size, result = _labelled(((r, r.pop("label")) for r in pages()), args.tree)
        keys = result["keys"]
        real.append(f"| {name} | {len(labels):,} | {len(set(labels))} | {len(set(keys))} | "
                    f"{adjusted_rand_index(labels, keys):.3f} | {purity(labels, keys):.3f} | "
                    f"{result['cpu']:.1f} | {result['rss']:.0f} |")
        print(real[-1], flush=True)
    lines = [
        f"`python bench/clustering.py --sizes {' '.join(map(str, args.sizes))} "
        f"--extended-sizes {' '.join(map(str, args.extended_sizes))}` — "
        f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}; "
        f"page_cluster.synthetic seed {args.seed}\n",
        "| pages | input | templates | clusters | ARI | purity | CPU s | peak RSS MiB |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
        *rows,
        "",
        "The extended site (`synthetic.site(extended=True)`, the hard cases of real sites):",
        "",
        "| pages | input | templates | clusters | ARI | purity | CPU s | peak RSS MiB |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
        *extended,
        "",
        "Corpora we did not write (corpora/real/cluster_corpora.py: labels from what the generator "
        "wrote; *independent*: a site written apart from the rules, corpora/template_site.py):",
        "",
        "| corpus | pages | page types | clusters | ARI | purity | CPU s | peak RSS MiB |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
        *real,
    ]
    emit("page-cluster", "\n".join(lines), write=args.write)


if __name__ == "__main__":
    main()
