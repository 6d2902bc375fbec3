"""Crawler fixtures: TrapZoo on 127.0.0.1 and crawls of it shared by many assertions."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from nitpicker_crawl.trapzoo import TrapZoo

CRAWL = str(Path(sys.executable).with_name("nitpicker-crawl"))
TRAPS = "/list/**,/search,/catalog/**,/archive/**"


@dataclass
class Crawl:
    archive: Path
    returncode: int
    stderr: str


def run_crawl(cwd: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CRAWL, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env={**os.environ})


@pytest.fixture(scope="session")
def zoo() -> Iterator[TrapZoo]:
    with TrapZoo() as z:
        yield z


def _site_crawl(zoo: TrapZoo, directory: Path, *extra: str) -> Crawl:
    out = directory / "site.nitpicker"
    r = run_crawl(directory, zoo.url, "-o", str(out), "--exclude", TRAPS, "--exclude-url",
                  zoo.url + "index.php", "--silent", *extra)
    return Crawl(out, r.returncode, r.stderr)


@pytest.fixture(scope="session")
def plain_crawl(zoo: TrapZoo, tmp_path_factory: pytest.TempPathFactory) -> Crawl:
    """The site without its traps, ``--no-render``."""
    return _site_crawl(zoo, tmp_path_factory.mktemp("plain"), "--no-render")


@pytest.fixture(scope="session")
def rendered_crawl(zoo: TrapZoo, tmp_path_factory: pytest.TempPathFactory) -> Crawl:
    """The site without its traps, rendered in Chromium."""
    return _site_crawl(zoo, tmp_path_factory.mktemp("rendered"))


def _cap_crawl(zoo: TrapZoo, directory: Path, *extra: str) -> Crawl:
    out = directory / "capped.nitpicker"
    r = run_crawl(directory, zoo.url, "-o", str(out), "--dedupe-cap", "100", *extra,
                  timeout=600)
    return Crawl(out, r.returncode, r.stderr)


@pytest.fixture(scope="session")
def capped_plain(zoo: TrapZoo, tmp_path_factory: pytest.TempPathFactory) -> Crawl:
    """The whole trap site, traps included, ``--dedupe-cap 100 --no-render``, no max-pages."""
    return _cap_crawl(zoo, tmp_path_factory.mktemp("capped-plain"), "--no-render")


@pytest.fixture(scope="session")
def capped_rendered(zoo: TrapZoo, tmp_path_factory: pytest.TempPathFactory) -> Crawl:
    """The same in Chromium."""
    return _cap_crawl(zoo, tmp_path_factory.mktemp("capped-rendered"))
