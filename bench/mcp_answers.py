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
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from doc import add_flag, emit
from make_archive import ensure

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=300_000)
    add_flag(parser)
    args = parser.parse_args()
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
