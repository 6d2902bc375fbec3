"""Shared fixtures: a private extraction cache and the fixture archives of ARCHIVE-FORMAT.md §8."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

# Property tests assert what the code answers, never how fast: hypothesis' per-example
# deadline (200 ms) failed the natural-order test on a 2-core machine busy with a crawl.
settings.register_profile("nitpicker", deadline=None)
settings.load_profile("nitpicker")

# Every test process extracts into its own cache, never the user's, removed at the end.
os.environ["NITPICKER_PY_CACHE_DIR"] = tempfile.mkdtemp(prefix="nitpicker-py-test-cache-")
atexit.register(shutil.rmtree, os.environ["NITPICKER_PY_CACHE_DIR"], True)
os.environ.pop("NITPICKER_PY_DISABLE_CACHE", None)

from corpora.fixture_archives import build_pre013  # noqa: E402 - after the cache is set


@pytest.fixture(scope="session")
def base_archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The base fixture of §8.1 (pages /a and /b)."""
    return build_pre013(tmp_path_factory.mktemp("base"))


@pytest.fixture(scope="session")
def extended_archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """§8.1 plus the redirect, error, external, skipped and cap-event rows of §8.2."""
    return build_pre013(tmp_path_factory.mktemp("extended"), extended=True)
