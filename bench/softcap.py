"""The soft cap measured: tracker memory and speed, a capped crawl, cluster queries.

    python bench/softcap.py                  # all three sections
    python bench/softcap.py --observations 300000 --pages 300000

1. Pathological tracker run: OBSERVATIONS pages with all-unique signatures fed to
   ``SoftCap`` with ``--dedupe-map-cap`` 100,000; counters and RSS every 10,000
   observations; observations/s against a plain ``dict`` counter in the same process.
   Twice: meta only, and with each page's main content (30 blocks never seen before:
   the worst case for the content memories, which must stay flat too).
2. TrapZoo crawled ``--no-render --dedupe-cap 100`` (it ends by itself) against the same
   crawl without the cap and ``--max-pages`` equal to the capped run's page count: pages per
   trap family, total, wall time.
3. ``get_duplicate_clusters`` on the 300,000-page archive of ``bench/make_archive.py``, with
   ``page_signatures`` and without (a copy whose table is empty, so keys are computed),
   against a plain SQL ``GROUP BY`` over the four meta columns.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from doc import add_flag, emit  # noqa: E402
from make_archive import archive_path  # noqa: E402

import nitpicker_query as q  # noqa: E402
from nitpicker_crawl.extract.content import Content  # noqa: E402
from nitpicker_crawl.traps.softcap import SoftCap  # noqa: E402
from nitpicker_crawl.trapzoo import TrapZoo  # noqa: E402
from nitpicker_query.format.v010 import strict_page  # noqa: E402
from nitpicker_query.keys.page_keys import page_keys  # noqa: E402
from nitpicker_query.keys.signals import page_signals  # noqa: E402

OBSERVATIONS = 300_000   # section 1
MAP_CAP = 100_000
EVERY = 10_000
FAMILIES = {"path counter": "%/list/date/_%", "query pager": "%/search?page=%",
            "session": "%/catalog/?session=%", "no signal": "%/archive/?offset=%",
            "wiki history": "%action=history%", "legit (blog, products, mirrors, wiki)":
            "%/blog/%|%/products/%|%/en/%|%/ja/%|%index.php?title=Article%"}


def rss_mib() -> float:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1024**2


def _contents(n: int, blocks: int = 30) -> list[Content]:
    """Main content for each observation: ``blocks`` blocks never seen before (the worst
    case for the content memories), the last five shared site-wide (chrome)."""
    rng = random.Random(7)
    chrome = [rng.getrandbits(64) for _ in range(5)]
    out = []
    for _ in range(n):
        own = frozenset([rng.getrandbits(64) for _ in range(blocks - 5)] + chrome)
        pairs = tuple((h, h) for h in own)
        out.append(Content(own, own, own, pairs, pairs, rng.getrandbits(64),
                           rng.getrandbits(64), True))
    return out


def tracker(n: int, *, content: bool = False) -> list[str]:
    pages = []
    for i in range(n):
        url = f"https://site.example/s{i % 997}/item-{i}/"
        keys = page_keys(url, title=f"Unique title {i}", description="d", og_title=None,
                         og_url=None)
        pages.append((url, keys))
    signals = page_signals(pages[0][0], og_url=None, canonical=None, has_prev_next=False,
                           title="x")
    contents = _contents(n) if content else [None] * n
    base = rss_mib()
    cap = SoftCap(100, map_cap=MAP_CAP, age_window=10**9)  # age window off: worst case
    rows = ["| observations | counters | RSS MiB (above start) |", "|---|---|---|"]
    start = time.perf_counter()
    for i, ((url, keys), page) in enumerate(zip(pages, contents, strict=True), start=1):
        cap.observe(url, keys, signals, content=page)
        if i % EVERY == 0:
            rows.append(f"| {i:,} | {len(cap.counters):,} | {rss_mib() - base:.1f} |")
    ours = time.perf_counter() - start
    plain: dict[str, int] = {}
    start = time.perf_counter()
    for _, keys in pages:
        plain[keys.signature] = plain.get(keys.signature, 0) + 1
        plain[keys.shape_signature] = plain.get(keys.shape_signature, 0) + 1
    baseline = time.perf_counter() - start
    rows.append("")
    kind = "with main content (30 new blocks each)" if content else "meta only"
    rows.append(f"SoftCap, {kind}: {n / ours:,.0f} observations/s, counters never above "
                f"{MAP_CAP:,} (LRU evictions {cap.evicted['lru']:,}); plain dict counter "
                f"(two keys, no eviction, {len(plain):,} entries at the end): "
                f"{n / baseline:,.0f}/s — ratio {ours / baseline:.1f}× the dict's time."
                + (f" Content memories at the end: {cap.by_shape.nbytes / 2**20:.1f} MiB of "
                   f"shape filters, {cap.by_entity.nbytes / 2**20:.1f} MiB of entity "
                   f"filters, {cap.by_path.nbytes / 2**20:.1f} MiB of path filters and "
                   f"{cap.anywhere.nbytes / 2**20:.1f} MiB for every path (what probes are "
                   f"compared with), {len(cap._metas):,} metas remembered (at most "
                   f"{cap.stats_cap:,})." if content else ""))
    return rows


def crawl_rows() -> list[str]:
    crawl = str(Path(sys.executable).with_name("nitpicker-crawl"))
    rows = []
    with TrapZoo() as zoo, tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        subprocess.run([crawl, zoo.url, "-o", f"{tmp}/cap.nitpicker", "--no-render",
                        "--dedupe-cap", "100", "--silent"], check=True, cwd=tmp)
        capped_s = time.perf_counter() - start
        with q.open_archive(f"{tmp}/cap.nitpicker") as a:
            fetched = a.execute("SELECT count(*) FROM pages WHERE scraped = 1 AND "
                                "(isSkipped = 0 OR isSkipped IS NULL)").fetchone()[0]
        internal = _families(f"{tmp}/cap.nitpicker")
        start = time.perf_counter()
        r = subprocess.run([crawl, zoo.url, "-o", f"{tmp}/nocap.nitpicker", "--no-render",
                            "--max-pages", str(fetched), "--silent"], cwd=tmp)
        if r.returncode not in (0, 3):  # 3: stopped by --max-pages, as intended here
            raise SystemExit(f"nitpicker-crawl exited {r.returncode}")
        plain_s = time.perf_counter() - start
        uncapped = _families(f"{tmp}/nocap.nitpicker")
    rows.append("| family | pages fetched, --dedupe-cap 100 | pages fetched, no cap, "
                f"--max-pages {fetched} |")
    rows.append("|---|---|---|")
    for name in FAMILIES:
        rows.append(f"| {name} | {internal[name]} | {uncapped[name]} |")
    rows.append(f"| **total fetched** | {fetched} (ends by itself, {capped_s:.1f} s) | "
                f"{fetched} (stopped by --max-pages, {plain_s:.1f} s) |")
    return rows


def _families(archive: str) -> dict[str, int]:
    counts = {}
    with q.open_archive(archive) as a:
        for name, patterns in FAMILIES.items():
            where = " OR ".join("url LIKE ?" for _ in patterns.split("|"))
            counts[name] = a.execute(
                f"SELECT count(*) FROM pages WHERE ({where}) AND url NOT LIKE '%action=%' "
                "AND scraped = 1 AND (isSkipped = 0 OR isSkipped IS NULL)"
                if name.startswith("legit") else
                f"SELECT count(*) FROM pages WHERE ({where}) AND scraped = 1 AND "
                "(isSkipped = 0 OR isSkipped IS NULL)", patterns.split("|")).fetchone()[0]
    return counts


def without_signatures(path: Path, out: Path) -> Path:
    """A copy of the archive whose page_signatures table is empty."""
    from variants import derived_copy

    return derived_copy(path, out, ["DELETE FROM page_signatures"])


def cluster_rows(path: Path) -> list[str]:
    rows = ["| query | cold s | warm s (median of 3) | raw GROUP BY s | warm ratio |",
            "|---|---|---|---|---|"]
    raw_sql = (f"SELECT p.title, p.description, p.og_title, p.og_url, count(*) AS n "
               f"FROM pages p WHERE {strict_page('p')} GROUP BY p.title, p.description, "
               "p.og_title, p.og_url HAVING n >= 10 ORDER BY n DESC")
    with tempfile.TemporaryDirectory() as tmp:
        bare = without_signatures(path, Path(tmp) / "bare.nitpicker")
        for label, archive in (("with page_signatures", path), ("keys computed", bare)):
            with q.open_archive(archive) as a:
                conn = sqlite3.connect((a.directory / "db.sqlite").resolve().as_uri()
                                       + "?immutable=1", uri=True)
                start = time.perf_counter()
                q.get_duplicate_clusters(a)
                cold = time.perf_counter() - start
                warm, raw = [], []
                for _ in range(3):
                    start = time.perf_counter()
                    result = q.get_duplicate_clusters(a)
                    warm.append(time.perf_counter() - start)
                    start = time.perf_counter()
                    conn.execute(raw_sql).fetchall()
                    raw.append(time.perf_counter() - start)
                conn.close()
            w, r = statistics.median(warm), statistics.median(raw)
            rows.append(f"| get_duplicate_clusters, {label} ({result['total']} clusters) | "
                        f"{cold:.2f} | {w:.2f} | {r:.2f} | {w / r:.2f}× |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--observations", type=int, default=OBSERVATIONS)
    parser.add_argument("--pages", type=int, default=300_000)
    add_flag(parser)
    args = parser.parse_args()
    lines = [f"`python bench/softcap.py` — Python {platform.python_version()}, "
             f"{os.cpu_count()} CPUs\n",
             f"### Tracker under {args.observations:,} unique signatures\n",
             *tracker(args.observations),
             "\n### The same, each page with its main content\n",
             *tracker(args.observations, content=True),
             "\n### Trap-site crawl\n",
             *crawl_rows()]
    archive = archive_path(args.pages)
    if archive.exists():
        lines += [f"\n### duplicate-clusters on {archive.name}\n", *cluster_rows(archive)]
    emit("softcap", "\n".join(lines), write=args.write)


if __name__ == "__main__":
    main()
