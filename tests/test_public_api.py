"""The public surface and the import boundaries of DESIGN.md §2."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import nitpicker_query
from nitpicker_query.queries.catalog import QUERIES

ROOT = Path(__file__).resolve().parent.parent


def test_all_is_exactly_the_public_names() -> None:
    public = {n for n in dir(nitpicker_query) if not n.startswith("_")
              and not inspect.ismodule(getattr(nitpicker_query, n))}
    assert set(nitpicker_query.__all__) == public


def test_every_query_is_exported_under_its_own_name() -> None:
    for spec in QUERIES:
        assert getattr(nitpicker_query, spec.name) is spec.function
        assert spec.function.__doc__, spec.name


def _imports(package: str) -> set[str]:
    found: set[str] = set()
    for path in (ROOT / package).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module.split(".")[0])
            elif isinstance(node, ast.Import):
                found.update(a.name.split(".")[0] for a in node.names)
    return found


def test_import_boundaries() -> None:
    assert not _imports("nitpicker_query") & {"nitpicker_crawl", "nitpicker_mcp"}
    assert "nitpicker_crawl" not in _imports("nitpicker_mcp")
    assert "nitpicker_mcp" not in _imports("nitpicker_crawl")


def test_only_archive_module_connects_read_side() -> None:
    for path in (ROOT / "nitpicker_query").rglob("*.py"):
        # opening.py: archives, read-only; scratch.py: a private working file, never one
        if path.relative_to(ROOT) not in (Path("nitpicker_query/archive/opening.py"),
                                          Path("nitpicker_query/archive/scratch.py")):
            assert "sqlite3.connect(" not in path.read_text(), path
