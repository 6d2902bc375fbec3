"""What every MCP tool's default answer weighs on the benchmark archive (issue 43's budget).

    python bench/mcp_answers.py --pages 300000     # uses bench/data/site-300000.nitpicker

Spawns the real server over stdio (``nitpicker-mcp --root bench/data``) and calls each of
its tools once with only the arguments it requires, taken from the archive itself (its
page with the most links, its biggest duplicate and template clusters:
``tests/mcp/answers.py``, the same sweep ``tests/crawl/test_mcp_answer_budget.py`` holds
on a crawl). Per tool: the characters an assistant receives (structured JSON and its
text copy), whether the list was paged (``nextOffset``) or the HTML cut, and seconds —
the first template-clusters call computes the templates, the others read. Exit 1 when
one answer is over the budget. Also ``get_template_clusters`` with the reasons asked for
(the CLI's default), the before of that tool's compact default.

    python bench/mcp_answers.py --session          # the scripted assistant session only

``--session``: the assistant's whole workflow over stdio, as ``tests/mcp/test_crawl_tools.py``
scripts it, with the bytes each step brings back (the JSON-RPC result as the client
decodes it): discover the server, pick the audit prompt, start a crawl of TrapZoo
(``--allow-crawl``), follow it to its end, then the prompt's questions.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from doc import add_flag, emit
from make_archive import ensure

from nitpicker_crawl.trapzoo import TrapZoo
from tests.mcp.answers import BUDGET, Answer, calls_for, weigh


async def run(archive: Path) -> tuple[list[Answer], Answer]:
    server = str(Path(sys.executable).with_name("nitpicker-mcp"))
    env = {k: v for k, v in os.environ.items() if k.startswith("NITPICKER_")}
    params = StdioServerParameters(command=server, args=["--root", str(archive.parent)],
                                   env=env)
    calls = calls_for(archive)
    async with Client(params, mode="legacy") as client:
        answers = await weigh(client, calls)
        (full,) = await weigh(client, [("get_template_clusters",
                                        {"archive": str(archive), "reasons": True,
                                         "samplePagesLimit": 5})])
    return answers, full


def _size(result: Any) -> int:
    return len(result.model_dump_json(by_alias=True, exclude_none=True).encode())


async def session(directory: Path) -> list[tuple[str, int]]:
    """The scripted session's steps and the bytes each brought back."""
    server = str(Path(sys.executable).with_name("nitpicker-mcp"))
    env = {k: v for k, v in os.environ.items() if k.startswith("NITPICKER_")}
    params = StdioServerParameters(command=server, args=["--allow-crawl", str(directory)],
                                   env=env)
    steps: list[tuple[str, int]] = []
    with TrapZoo() as zoo:
        async with Client(params) as client:
            async def step(label: str, result: Any) -> Any:
                steps.append((label, _size(result)))
                return result

            await step("tools/list", await client.list_tools())
            await step("prompts/list", await client.list_prompts())
            await step("resources/templates/list", await client.list_resource_templates())
            await step("start_crawl (TrapZoo, --no-render)", await client.call_tool(
                "start_crawl", {"url": zoo.url, "name": "zoo", "render": False}))
            await step("crawl_status wait 600 (followed to its end)", await client.call_tool(
                "crawl_status", {"name": "zoo", "wait": 600}))
            a = {"archive": "zoo.nitpicker"}
            await step("prompts/get audit_site", await client.get_prompt("audit_site", a))
            await step("get_summary", await client.call_tool("get_summary", a))
            await step("list_dedupe_cap_events", await client.call_tool(
                "list_dedupe_cap_events", a))
            await step("get_duplicate_clusters", await client.call_tool(
                "get_duplicate_clusters", a))
            full = await client.call_tool("get_template_clusters",
                                          {**a, "reasons": True, "samplePagesLimit": 5})
            steps.append(("get_template_clusters with reasons, 5 pages (before)", _size(full)))
            listed = await step("get_template_clusters (default)", await client.call_tool(
                "get_template_clusters", a))
            first = (listed.structured_content or {})["items"][0]["id"]
            await step(f"get_template_cluster {first}", await client.call_tool(
                "get_template_cluster", {**a, "key": first}))
            await step("list_links broken", await client.call_tool(
                "list_links", {**a, "type": "broken"}))
            await step("list_pages redirects", await client.call_tool(
                "list_pages", {**a, "redirects": True}))
            await step("find_duplicates title", await client.call_tool(
                "find_duplicates", {**a, "field": "title"}))
            await step("resources/read the archive's summary", await client.read_resource(
                "nitpicker://archive/zoo.nitpicker"))
    return steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=300_000)
    parser.add_argument("--session", action="store_true",
                        help="only the scripted assistant session on TrapZoo")
    add_flag(parser)
    args = parser.parse_args()
    if args.session:
        with tempfile.TemporaryDirectory() as tmp:
            steps = anyio.run(session, Path(tmp))
        emit("mcp-session", "\n".join([
            f"`python bench/mcp_answers.py --session` — Python {platform.python_version()}, "
            f"{os.cpu_count()} CPUs: TrapZoo crawled and audited over stdio\n",
            "| step | bytes back |", "|---|---|",
            *(f"| {label} | {size:,} |" for label, size in steps),
            f"\nThe whole session: {sum(s for lbl, s in steps if '(before)' not in lbl):,} "
            "bytes.",
        ]), write=args.write)
        return
    archive = ensure(args.pages)
    answers, full = anyio.run(run, archive)
    ordered = sorted(answers, key=lambda a: -a.chars)
    rows = [f"| {a.tool} | {a.chars:,} | {'paged' if a.cut else ''} | "
            f"{'error: ' + (a.error or '')[:60] if a.error else ''} | {a.seconds:.2f} |"
            for a in ordered]
    compact = next(a for a in answers if a.tool == "get_template_clusters")
    over = [a.tool for a in answers if a.chars > BUDGET]
    emit("mcp-answers", "\n".join([
        f"`python bench/mcp_answers.py --pages {args.pages}` — Python "
        f"{platform.python_version()}, {os.cpu_count()} CPUs, {len(answers)} tools, budget "
        f"{BUDGET:,} characters per answer (structured JSON and its text copy)\n",
        "| tool (default options) | characters | | | seconds |", "|---|---|---|---|---|",
        *rows,
        f"\nOver the budget: {', '.join(over) if over else 'none'}. All answers together: "
        f"{sum(a.chars for a in answers):,} characters. `get_template_clusters` with "
        f"its reasons and five sample pages (the CLI's default): {full.chars:,}; the tool's "
        f"default (no reasons, three pages): {compact.chars:,}.",
    ]), write=args.write)
    if over:
        sys.exit(1)


if __name__ == "__main__":
    main()
