"""Per-call latency of ``nitpicker-mcp`` over stdio vs the same query called in-process.

    python bench/mcp_latency.py --pages 300000     # uses bench/data/site-300000.nitpicker

Spawns the real server (``nitpicker-mcp --archive …``), connects the Python SDK client
over stdio (handshake protocol), and for each tool times CALLS sequential calls; the
in-process baseline calls the query function on an already open archive in the same
run. The difference of the medians is the protocol overhead (JSON-RPC framing, schema
validation, JSON encoding of the result twice, thread hand-off). Also: server start to
the first answer.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from doc import add_flag, emit
from make_archive import ensure

import nitpicker_query as q

CALLS = 200  # sequential calls per tool (after 5 warm-up calls)


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


async def run(archive: Path) -> list[str]:
    server = str(Path(sys.executable).with_name("nitpicker-mcp"))
    env = {k: v for k, v in os.environ.items() if k.startswith("NITPICKER_")}
    params = StdioServerParameters(command=server, args=["--archive", str(archive)], env=env)
    with q.open_archive(archive) as a:
        sample = a.execute("SELECT url FROM pages WHERE url LIKE '%/item-%' AND status = 200 "
                           "ORDER BY id LIMIT 1 OFFSET 1000").fetchone()[0]
        cases: list[tuple[str, dict[str, Any], Any]] = [
            ("list_pages (limit 100)", {"limit": 100}, lambda: q.list_pages(a, limit=100)),
            ("get_page_detail", {"url": sample},
             lambda: q.get_page_detail(a, url=sample, links_limit=50)),
            ("get_summary", {}, lambda: q.get_summary(a)),
            ("get_duplicate_clusters", {}, lambda: q.get_duplicate_clusters(a)),
        ]
        names = {"list_pages (limit 100)": "list_pages", "get_page_detail": "get_page_detail",
                 "get_summary": "get_summary",
                 "get_duplicate_clusters": "get_duplicate_clusters"}
        rows = []
        start = time.perf_counter()
        async with Client(params, mode="legacy") as client:
            await client.call_tool("get_summary", {})
            first = time.perf_counter() - start
            for label, arguments, direct in cases:
                calls = CALLS if label in ("list_pages (limit 100)", "get_page_detail") else 20
                for _ in range(5):
                    await client.call_tool(names[label], arguments)
                    direct()
                over, inproc = [], []
                for _ in range(calls):
                    t = time.perf_counter()
                    r = await client.call_tool(names[label], arguments)
                    over.append(time.perf_counter() - t)
                    assert not r.is_error
                    t = time.perf_counter()
                    direct()
                    inproc.append(time.perf_counter() - t)
                o50, i50 = statistics.median(over), statistics.median(inproc)
                rows.append(f"| {label} | {o50 * 1000:.2f} | {pct(over, 95) * 1000:.2f} | "
                            f"{i50 * 1000:.2f} | {(o50 - i50) * 1000:.2f} | {o50 / i50:.2f}× |")
        rows.append(f"\nServer start (spawn, imports, open archive, handshake) to first "
                    f"answer: {first * 1000:.0f} ms")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=300_000)
    add_flag(parser)
    args = parser.parse_args()
    archive = ensure(args.pages)
    rows = anyio.run(run, archive)
    emit("mcp-latency", "\n".join([
        f"`python bench/mcp_latency.py --pages {args.pages}` — Python "
        f"{platform.python_version()}, {os.cpu_count()} CPUs\n",
        "| tool | stdio p50 ms | stdio p95 ms | in-process p50 ms | overhead p50 ms | ratio |",
        "|---|---|---|---|---|---|",
        *rows,
    ]), write=args.write)


if __name__ == "__main__":
    main()
