"""Docs stay true to the code: every sub-command is documented and shown in --help."""

from __future__ import annotations

from pathlib import Path

from nitpicker_query.cli.main import build_parser
from nitpicker_query.queries.catalog import QUERIES

ROOT = Path(__file__).resolve().parent.parent


def test_every_sub_command_is_documented() -> None:
    queries_doc = (ROOT / "docs" / "queries.md").read_text()
    readme = (ROOT / "README.md").read_text()
    for spec in QUERIES:
        assert f"`{spec.command}`" in queries_doc and f"`{spec.name}`" in queries_doc
        assert f"nitpicker-query {spec.command} " in readme, spec.command


def test_every_mcp_tool_is_in_the_readme() -> None:
    from nitpicker_mcp.tools import TOOLS

    readme = (ROOT / "README.md").read_text()
    for tool in TOOLS:
        assert f"`{tool.name}`" in readme, tool.name


def test_every_option_has_help() -> None:
    for spec in QUERIES:
        for p in spec.params:
            assert p.help.endswith("."), (spec.name, p.name)


def test_readme_starts_with_the_two_setup_commands() -> None:
    lines = (ROOT / "README.md").read_text().splitlines()
    block = lines[lines.index("```sh") + 1: lines.index("```sh") + 3]
    assert block[0].startswith("make demo") and block[1].startswith("make test")


def test_parser_builds() -> None:
    assert build_parser().prog == "nitpicker-query"


def test_docs_stand_alone() -> None:
    """README and docs/ point only at files a clone of the repository has."""
    import re

    files = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for path in files:
        text = path.read_text()
        for outside in ("../shared", "ARCHIVE-FORMAT.md", "DESIGN.md"):
            assert outside not in text, (path.name, outside)
        for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", text):
            assert (path.parent / target).exists(), (path.name, target)
