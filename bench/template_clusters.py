"""template-clusters over an archive: stored by the crawl, computed on first call, and
page_cluster on the same pages in memory.

    python bench/template_clusters.py [--pages 10000] [--no-library]

The labelled synthetic site (``page_cluster.synthetic``) is written into a ``.nitpicker``
archive (HTML snapshots zstd-compressed, as the crawler stores them). On the same pages:

- **library**: ``page_cluster.resolve`` on the records in memory (HTML, path segments
  and stylesheet hrefs given) — what the query wraps (``--no-library`` leaves it out: at
  300,000 pages the records alone hold gigabytes);
- **crawl end**: ``nitpicker_crawl.extract.templates.store`` on the archive's database, what the
  crawler runs when a crawl ends — in a child process of its own, so its CPU time and
  peak RSS are its own;
- **stored**: ``get_template_clusters`` on that database with an empty cache: one table
  read (wall time: what an MCP call waits);
- **first call**: ``get_template_clusters`` on the archive without stored templates and
  an empty cache: reading and decompressing every snapshot, finding the stylesheets in
  the HTML, clustering, and joining the meta-signature clusters;
- **second call**: the same call again (the per-process cache).

ARI compares the archive query's keys with the template labels (the stylesheets it
reads from the HTML include the ~2 % of pages the JSONL corpus gives without
stylesheet data); the stored keys must equal the computed ones.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from doc import add_flag, emit  # noqa: E402

import nitpicker_query as q  # noqa: E402
from nitpicker_crawl.archive import ArchiveWriter  # noqa: E402
from nitpicker_query.queries import templates  # noqa: E402
from page_cluster import resolve, synthetic  # noqa: E402
from page_cluster.scoring import adjusted_rand_index  # noqa: E402

BASE = "http://site.test"


def build(directory: Path, n: int, seed: int) -> tuple[Path, list[dict[str, object]],
                                                        dict[str, str]]:
    """The archive, the in-memory records, and URL → template label (in record order)."""
    w = ArchiveWriter.create(directory / "synthetic.nitpicker", roots=[BASE + "/"],
                             workdir=directory / "work")
    common = {"scraped": 1, "isTarget": 1, "isExternal": 0, "status": 200,
              "statusText": "OK", "contentType": "text/html", "isSkipped": 0}
    records, labels, seen = [], {}, set()
    for i, (page, template) in enumerate(synthetic.site(n, seed=seed)):
        url = BASE + "/" + "/".join(page["paths"]) + ("/" if page["paths"] else "")
        if url in seen:
            url += f"?v={i}"
        seen.add(url)
        pid = w.save_page(url, common, title=f"{template} {i}")
        w.save_html(pid, page["html"])
        records.append(page)
        labels[url] = template
    return w.close(), records, labels


CRAWL_END = """
import json, resource, sqlite3, sys, time
from pathlib import Path
from nitpicker_crawl import templates
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
wall = time.perf_counter()
stored = templates.store(conn, Path(sys.argv[1]).parent)
wall = time.perf_counter() - wall
conn.close()
usage = resource.getrusage(resource.RUSAGE_SELF)
# VmHWM, not ru_maxrss: Linux keeps ru_maxrss across exec, so a child started by a
# parent holding gigabytes would report the parent's
with open("/proc/self/status") as status:
    peak = int(status.read().split("VmHWM:")[1].split()[0]) / 1024
print(json.dumps({"cpu": usage.ru_utime + usage.ru_stime, "wall": wall,
                  "rss": peak, "templates": stored.templates}))
"""


def crawl_end(db: Path) -> dict[str, float]:
    """The crawler's end step on ``db``, in a child process: CPU s, wall s, peak MiB."""
    done = subprocess.run([sys.executable, "-c", CRAWL_END, str(db)], capture_output=True,
                          text=True, check=True, cwd=ROOT)
    result: dict[str, float] = json.loads(done.stdout)
    return result


def members(a: q.Archive | Path, items: list[dict[str, object]]) -> dict[str, str]:
    """URL → key, every member of every listed cluster."""
    keys: dict[str, str] = {}
    for item in items:
        offset: int | None = 0
        while offset is not None:
            page = q.get_template_cluster(a, key=str(item["key"]), limit=1000, offset=offset)
            assert page is not None
            keys.update({m["url"]: str(item["key"]) for m in page["items"]})
            offset = page["nextOffset"]
    return keys


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--library", action=argparse.BooleanOptionalAction, default=True,
                        help="also cluster the records in memory (default)")
    add_flag(parser)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        archive, records, labels = build(Path(tmp), args.pages, args.seed)
        size = archive.stat().st_size / 2**20
        library_s = library_ari = library_n = None
        if args.library:
            start = time.process_time()
            library = resolve(records)
            library_s = time.process_time() - start
            library_ari = adjusted_rand_index(list(labels.values()), library.keys)
            library_n = len(set(library.keys))
        records.clear()
        with q.open_archive(archive) as a:  # extraction is not counted
            stub = Path(tmp) / "stored"
            stub.mkdir()
            shutil.copy(a.directory / "db.sqlite", stub / "db.sqlite")
            templates.clear_cache()
            start = time.process_time()
            first = q.get_template_clusters(a, limit=1000)
            first_s = time.process_time() - start
            start = time.perf_counter()
            q.get_template_clusters(a, limit=1000)
            second_ms = (time.perf_counter() - start) * 1000
            keys = members(a, first["items"])
        end = crawl_end(stub / "db.sqlite")
        templates.clear_cache()
        start = time.perf_counter()
        stored = q.get_template_clusters(stub, limit=1000)
        stored_ms = (time.perf_counter() - start) * 1000
        assert stored["items"] == first["items"], "stored and computed templates differ"
        assert members(stub, stored["items"]) == keys
    ari = adjusted_rand_index(list(labels.values()), [keys[u] for u in labels])
    lines = [
        f"`python bench/template_clusters.py --pages {args.pages}"
        f"{'' if args.library else ' --no-library'}` — {platform.machine()}, "
        f"{os.cpu_count()} CPUs, Python {platform.python_version()}; archive {size:,.0f} MiB, "
        f"page_cluster.synthetic seed {args.seed}\n",
        "| measurement | CPU s | wall | peak RSS | ARI | clusters |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    if library_s is not None:
        lines.append(f"| library: `page_cluster.resolve` on the records in memory | "
                     f"{library_s:.1f} | | | {library_ari:.4f} | {library_n} |")
    lines += [
        f"| crawl end: `nitpicker_crawl.extract.templates.store` (read, cluster, write the tables; "
        f"own process) | {end['cpu']:.1f} | {end['wall']:.1f} s | {end['rss']:.0f} MiB | | "
        f"{end['templates']:.0f} |",
        f"| `get_template_clusters` on the stored tables, first call | | "
        f"**{stored_ms:.0f} ms** | | {ari:.4f} | {stored['total']} |",
        f"| `get_template_clusters` without stored tables, first call (read, decode, "
        f"cluster, join) | {first_s:.1f} | | | {ari:.4f} | {first['total']} |",
        f"| `get_template_clusters`, second call (cached) | | {second_ms:.1f} ms | | | |",
        "",
        f"A stored result answers the first call in {stored_ms:.0f} ms where computing it "
        f"takes {first_s:.0f} s of CPU"
        + (f"; first call / library: **{first_s / library_s:.2f}×**" if library_s else "")
        + f"; second call: {second_ms:.1f} ms.",
    ]
    emit("template-clusters", "\n".join(lines), write=args.write)


if __name__ == "__main__":
    main()
