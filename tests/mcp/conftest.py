"""MCP fixtures: a root directory with fixture archives, and servers configured on it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from corpora.fixture_archives import build_pre013
from tests.query.test_foreign_archive import build_upstream_like


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="session")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``root/site.nitpicker`` (§8.1 + §8.2), ``root/old/upstream.nitpicker`` (no ours)."""
    base = tmp_path_factory.mktemp("mcp-root")
    build_pre013(base, extended=True, name="site")
    (base / "old").mkdir()
    upstream = build_upstream_like(tmp_path_factory.mktemp("upstream-src"))
    shutil.copy(upstream, base / "old" / "upstream.nitpicker")
    return base


@pytest.fixture(scope="session")
def site(root: Path) -> Path:
    return root / "site.nitpicker"
