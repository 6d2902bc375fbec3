"""template-clusters over an archive against page_cluster on the same pages in memory.

    python bench/template_clusters.py [--pages 10000]

The labelled synthetic site (``page_cluster.synthetic``) is written into a ``.nitpicker``
archive (HTML snapshots zstd-compressed, as the crawler stores them). In one process,
three measurements on the same pages:

- **library**: ``page_cluster.resolve`` on the records in memory (HTML, path segments
  and stylesheet hrefs given) — what the query wraps;
- **first call**: ``get_template_clusters`` on the archive with an empty cache: reading
  and decompressing every snapshot, finding the stylesheets in the HTML, clustering,
  and joining the meta-signature clusters;
- **second call**: the same call again (the per-process cache).

The ratio first call / library is what reading from an archive costs on top of the
clustering. ARI compares the archive query's keys with the template labels (the
stylesheets it reads from the HTML include the ~2 % of pages the JSONL corpus gives
without stylesheet data).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from doc import add_flag, emit  # noqa: E402

import nitpicker_query as q  # noqa: E402
from nitpicker_crawl.archive import ArchiveWriter  # noqa: E402
from nitpicker_query import templates  # noqa: E402
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=7)
    add_flag(parser)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        archive, records, labels = build(Path(tmp), args.pages, args.seed)
        size = archive.stat().st_size / 2**20
        start = time.process_time()
        library = resolve(records)
        library_s = time.process_time() - start
        with q.open_archive(archive) as a:  # extraction is not counted
            templates.clear_cache()
            start = time.process_time()
            first = q.get_template_clusters(a, limit=1000)
            first_s = time.process_time() - start
            start = time.perf_counter()
            q.get_template_clusters(a, limit=1000)
            second_ms = (time.perf_counter() - start) * 1000
            keys: dict[str, str] = {}
            for item in first["items"]:
                offset: int | None = 0
                while offset is not None:
                    members = q.get_template_cluster(a, key=item["key"], limit=1000,
                                                     offset=offset)
                    assert members is not None
                    keys.update({m["url"]: item["key"] for m in members["items"]})
                    offset = members["nextOffset"]
    ari = adjusted_rand_index(list(labels.values()), [keys[u] for u in labels])
    library_ari = adjusted_rand_index(list(labels.values()), library.keys)
    lines = [
        f"`python bench/template_clusters.py --pages {args.pages}` — {platform.machine()}, "
        f"{os.cpu_count()} CPUs, Python {platform.python_version()}; archive {size:,.0f} MiB, "
        f"page_cluster.synthetic seed {args.seed}\n",
        "| measurement | CPU s | ARI | clusters |",
        "|---|---:|---:|---:|",
        f"| library: `page_cluster.resolve` on the records in memory | {library_s:.1f} | "
        f"{library_ari:.4f} | {len(set(library.keys))} |",
        f"| `get_template_clusters`, first call (read, decode, cluster, join) | "
        f"{first_s:.1f} | {ari:.4f} | {first['total']} |",
        f"| `get_template_clusters`, second call (cached) | {second_ms / 1000:.3f} "
        f"({second_ms:.1f} ms wall) | | |",
        "",
        f"First call / library: **{first_s / library_s:.2f}×**; second call: "
        f"{second_ms:.1f} ms.",
    ]
    emit("template-clusters", "\n".join(lines), write=args.write)


if __name__ == "__main__":
    main()
