"""Viewer fixtures: a capped crawl of TrapZoo, the viewer serving it on 127.0.0.1, and a
real Chromium driven by Playwright."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import uvicorn

from nitpicker_crawl.fetch.renderer import find_browser
from nitpicker_crawl.trapzoo import TrapZoo
from nitpicker_viewer.app import create_app
from nitpicker_viewer.archives import Archives
from nitpicker_viewer.serving import config
from tests.crawl.conftest import crawl_site, zoo  # noqa: F401  (the session's TrapZoo)


@dataclass
class Served:
    url: str          # http://127.0.0.1:PORT
    archive: Path
    port: int


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(archive: Path | None, roots: list[Path], *,
          header_timeout_s: float = 10.0) -> Iterator[Served]:
    port = free_port()
    app = create_app(Archives(archive, roots), host="127.0.0.1", port=port)
    server = uvicorn.Server(config(app, host="127.0.0.1", port=port, log_level="error",
                                   lifespan="on", header_timeout_s=header_timeout_s))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline:  # pragma: no cover
            raise RuntimeError("the viewer did not start")
        time.sleep(0.05)
    try:
        yield Served(f"http://127.0.0.1:{port}", archive or roots[0], port)
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="session")
def capped_archive(zoo: TrapZoo, tmp_path_factory: pytest.TempPathFactory) -> Path:  # noqa: F811
    crawl = crawl_site(zoo, tmp_path_factory.mktemp("viewer-capped"), "--dedupe-cap", "20",
                       "--no-render")
    assert crawl.archive.exists(), crawl.stderr
    return crawl.archive


@pytest.fixture(scope="session")
def viewer(capped_archive: Path) -> Iterator[Served]:
    yield from serve(capped_archive, [])


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    executable = find_browser()
    if executable is None:  # pragma: no cover
        pytest.skip("no Chromium (make browser installs one)")
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=executable,
                                      args=["--no-sandbox", "--disable-gpu"])
        yield chromium
        chromium.close()
