"""Benchmark scripts write their tables into marked blocks of docs/BENCHMARKS.md."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def _doc_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_doc", ROOT / "bench" / "doc.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_block_is_replaced_and_the_prose_around_it_kept(tmp_path: Path) -> None:
    doc = tmp_path / "B.md"
    doc.write_text("# B\n\nBefore.\n\n<!-- bench:x -->\n| old |\n<!-- /bench:x -->\n\nAfter.\n")
    _doc_module().emit("x", "| new |\n|---|", write=True, doc=doc)
    assert doc.read_text() == ("# B\n\nBefore.\n\n<!-- bench:x -->\n| new |\n|---|\n"
                               "<!-- /bench:x -->\n\nAfter.\n")


def test_new_block_is_appended_and_no_write_leaves_the_file(tmp_path: Path) -> None:
    doc = tmp_path / "B.md"
    doc.write_text("# B\n\n<!-- bench:x -->\n1\n<!-- /bench:x -->\n")
    module = _doc_module()
    module.emit("y", "2", write=True, doc=doc)
    assert doc.read_text().endswith("<!-- /bench:x -->\n\n<!-- bench:y -->\n2\n<!-- /bench:y -->\n")
    before = doc.read_text()
    module.emit("x", "3", write=False, doc=doc)
    module.emit("x", r"a \1 backslash", write=True, doc=doc)  # not a regex replacement
    assert doc.read_text() == before.replace("\n1\n", "\na \\1 backslash\n")


def test_make_bench_updates_existing_blocks() -> None:
    """Each block `make bench` writes already exists, so a run replaces rather than appends."""
    text = (ROOT / "docs" / "BENCHMARKS.md").read_text()
    make = (ROOT / "Makefile").read_text()
    assert "bench/queries.py --pages 300000" in make
    for key in ("queries-site-300000.nitpicker", "mcp-latency", "crawl", "softcap", "hostile",
                "before-after"):
        assert len(re.findall(rf"<!-- bench:{re.escape(key)} -->", text)) == 1, key
        assert len(re.findall(rf"<!-- /bench:{re.escape(key)} -->", text)) == 1, key
