"""``list_link_score`` at scale: the first call (the whole graph read and ranked) and a
later page, beside raw SQL reading the same links and networkx ranking the same graph.

    python bench/link_score.py                  # the 300,000-page archive, 0.10 and 0.13
    python bench/link_score.py --pages 10000 --no-write

Each measurement runs in a fresh process (peak RSS is that process's; it counts the
archive's pages SQLite maps, 256 MiB at most). Raw SQL is the floor of reading the links:
every link row fetched once into Python, no graph. networkx is the library an auditor
would reach for: its ``pagerank`` on the graph our query ranks (built from our edges,
so only the ranking is compared), run up to ``--networkx-max`` pages (its DiGraph of
millions of edges takes gigabytes).
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
from nitpicker_query.archive.opening import open_archive
from nitpicker_query.queries.link_score import list_link_score
import nitpicker_query.queries.link_score as ls
path, step = sys.argv[1], sys.argv[2]
out = {{}}
started = time.perf_counter()
if step == "sql":
    a = open_archive(path)
    rows = a.execute("SELECT pageId, hrefId FROM anchors").fetchall()
    out["rows"] = len(rows)
elif step == "query":
    list_link_score(path, limit=100)
    out["first"] = time.perf_counter() - started
    started = time.perf_counter()
    list_link_score(path, limit=100, offset=1000, sort_by="depth")
    out["later"] = time.perf_counter() - started
    from nitpicker_query import get_page_detail, list_pages
    started = time.perf_counter()
    first = list_pages(path, sort_by="linkScore", sort_order="desc", limit=100)
    out["pages"] = time.perf_counter() - started
    started = time.perf_counter()
    get_page_detail(path, url=first["items"][0]["url"], link_score=True)
    out["detail"] = time.perf_counter() - started
    started = None
elif step == "networkx":
    import networkx as nx
    import numpy as np
    a = open_archive(path)
    ids, forward = ls._pages(a)
    node = ls._resolve(ids, forward)
    src, dst = ls._edges(a, ids, node)
    graph = nx.DiGraph()
    graph.add_nodes_from(np.flatnonzero(node == np.arange(len(ids))).tolist())
    graph.add_edges_from(zip(src.tolist(), dst.tolist()))
    started = time.perf_counter()
    nx.pagerank(graph, alpha=0.85, tol=1e-10)
    out["edges"] = graph.number_of_edges()
if started is not None:
    out["seconds"] = time.perf_counter() - started
out["rss"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
"""


def run(path: Path, step: str) -> dict[str, float]:
    r = subprocess.run([sys.executable, "-c", CHILD.format(root=str(ROOT)), str(path), step],
                       capture_output=True, text=True, check=True)
    result: dict[str, float] = json.loads(r.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=300_000)
    parser.add_argument("--networkx-max", type=int, default=10_000,
                        help="run networkx up to this many pages (default 10000)")
    add_flag(parser)
    args = parser.parse_args()
    old, new = ensure(args.pages), ensure_013(args.pages)
    rows = [f"`python bench/link_score.py --pages {args.pages}` — {old.name} and its 0.13 "
            f"conversion; Python {platform.python_version()}, {os.cpu_count()} CPUs\n",
            "| step | 0.10: seconds | peak RSS, MiB | 0.13: seconds | peak RSS, MiB |",
            "|---|---|---|---|---|"]
    sql = [run(p, "sql") for p in (old, new)]
    query = [run(p, "query") for p in (old, new)]
    rows.append(f"| raw SQL: every link row fetched ({sql[0]['rows']:,.0f}) | "
                + " | ".join(f"{m['seconds']:.1f} | {m['rss']:.0f}" for m in sql) + " |")
    rows.append("| link-score: first call (graph read, ranked, depths) | "
                + " | ".join(f"{m['first']:.1f} | {m['rss']:.0f}" for m in query) + " |")
    rows.append("| link-score: a later page (sorted by depth, offset 1000) | "
                + " | ".join(f"{m['later']:.2f} | " for m in query) + " |")
    rows.append("| pages --sort-by linkScore --sort-order desc, first page (scores kept) | "
                + " | ".join(f"{m['pages']:.2f} | " for m in query) + " |")
    rows.append("| page-detail --link-score (scores kept) | "
                + " | ".join(f"{m['detail']:.2f} | " for m in query) + " |")
    if args.pages <= args.networkx_max:
        nx_run = run(old, "networkx")
        rows.append(f"| networkx.pagerank on the same graph ({nx_run['edges']:,.0f} edges; "
                    f"the ranking alone) | {nx_run['seconds']:.1f} | {nx_run['rss']:.0f} | | |")
    rows += ["", "Ratio, first call to raw SQL: " + ", ".join(
        f"{fmt} {q['first'] / s['seconds']:.2f}×" for fmt, q, s in
        (("0.10", query[0], sql[0]), ("0.13", query[1], sql[1]))) + "."]
    emit(f"link-score-{args.pages}", "\n".join(rows), write=args.write)


if __name__ == "__main__":
    main()
