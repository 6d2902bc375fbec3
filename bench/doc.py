"""Write a benchmark's results into its own marked block of ``docs/BENCHMARKS.md``.

Each script prints its markdown and, unless run with ``--no-write``, replaces the block
between ``<!-- bench:KEY -->`` and ``<!-- /bench:KEY -->`` with it, so the tables in the
doc are always the output of the last run, never copied by hand. The prose around the
blocks (what the numbers mean, which targets are met) is written by people and stays put;
a block seen for the first time is appended at the end of the file.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "BENCHMARKS.md"


def add_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-write", dest="write", action="store_false",
                        help=f"print only; do not update {DOC.relative_to(DOC.parent.parent)}")


def emit(key: str, markdown: str, *, write: bool, doc: Path = DOC) -> None:
    """Print ``markdown`` and, when ``write``, put it in the ``key`` block of ``doc``."""
    print(markdown)
    if not write:
        return
    begin, end = f"<!-- bench:{key} -->", f"<!-- /bench:{key} -->"
    block = f"{begin}\n{markdown.strip()}\n{end}"
    text = doc.read_text(encoding="utf-8") if doc.exists() else "# Benchmarks\n"
    pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.DOTALL)
    if pattern.search(text):
        text = pattern.sub(lambda _: block, text, count=1)
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    temp = doc.with_suffix(".md.tmp")
    temp.write_text(text, encoding="utf-8")
    temp.replace(doc)
    print(f"(written to {doc.name}, block {key})")
