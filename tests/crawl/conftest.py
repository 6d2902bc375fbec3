"""Crawler fixtures: TrapZoo on 127.0.0.1 and crawls of it shared by many assertions."""

from __future__ import annotations

import contextlib
import http.server
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
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


def crawl_site(zoo: TrapZoo, directory: Path, *args: str) -> Crawl:
    """Crawl the whole of TrapZoo from its home page into ``directory/site.nitpicker``."""
    out = directory / "site.nitpicker"
    r = run_crawl(directory, zoo.url, "-o", str(out), *args, timeout=600)
    return Crawl(out, r.returncode, r.stderr)


WITHOUT_TRAPS = ("--exclude", TRAPS, "--exclude-url", "{zoo}index.php", "--silent")


def _site_crawl(zoo: TrapZoo, directory: Path, *extra: str) -> Crawl:
    return crawl_site(zoo, directory, *(a.format(zoo=zoo.url) for a in WITHOUT_TRAPS), *extra)


@pytest.fixture(scope="session")
def plain_crawl(zoo: TrapZoo, tmp_path_factory: pytest.TempPathFactory) -> Crawl:
    """The site without its traps, ``--no-render``."""
    return _site_crawl(zoo, tmp_path_factory.mktemp("plain"), "--no-render")


@pytest.fixture(scope="session")
def rendered_crawl(zoo: TrapZoo, tmp_path_factory: pytest.TempPathFactory) -> Crawl:
    """The site without its traps, rendered in Chromium."""
    return _site_crawl(zoo, tmp_path_factory.mktemp("rendered"))


@pytest.fixture(scope="session")
def capped_plain(zoo: TrapZoo, tmp_path_factory: pytest.TempPathFactory) -> Crawl:
    """The whole trap site, traps included, ``--dedupe-cap 100 --no-render``, no max-pages."""
    return crawl_site(zoo, tmp_path_factory.mktemp("capped-plain"), "--dedupe-cap", "100",
                      "--no-render")


@pytest.fixture(scope="session")
def capped_rendered(zoo: TrapZoo, tmp_path_factory: pytest.TempPathFactory) -> Crawl:
    """The same in Chromium."""
    return crawl_site(zoo, tmp_path_factory.mktemp("capped-rendered"), "--dedupe-cap", "100")


def without_stored_templates(archive: Path, directory: Path) -> None:
    """``directory`` as a crawl directory of ``archive`` whose templates were never stored
    (a ``--no-templates`` or interrupted crawl): the query computes them."""
    import shutil
    import sqlite3

    import nitpicker_query as q
    from nitpicker_query.format.v010 import PAGE_TEMPLATE_TABLES

    with q.open_archive(archive) as a:
        shutil.copy(a.directory / "db.sqlite", directory / "db.sqlite")
    conn = sqlite3.connect(directory / "db.sqlite")
    for table in PAGE_TEMPLATE_TABLES:
        conn.execute(f"DROP TABLE {table}")
    conn.commit()
    conn.close()


def interrupt_once(proc: subprocess.Popen[str], db: Path, sql: str, *, at_least: int = 3,
                   seconds: float = 60) -> str:
    """Ctrl-C a running crawl once its live archive (``db``) answers ``sql`` with at least
    ``at_least`` (or after ``seconds``); its stderr, the exit status checked to be 130."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)
            n = conn.execute(sql).fetchone()[0]
            conn.close()
            if n >= at_least:
                break
        except sqlite3.Error:
            pass
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    return err


class SiteHandler(http.server.BaseHTTPRequestHandler):
    """A request handler of a test's own site: quiet, and :meth:`answer` sends one whole
    answer (its length always said; its body only to a GET)."""

    def answer(self, status: int, body: bytes | str = b"", *,
               content_type: str = "text/html; charset=utf-8",
               headers: dict[str, str] | None = None) -> None:
        data = body.encode() if isinstance(body, str) else body
        self.send_response(status)
        for key, value in {"Content-Type": content_type, **(headers or {})}.items():
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextlib.contextmanager
def local_site(handler: type[http.server.BaseHTTPRequestHandler]) -> Iterator[str]:
    """A site of our own on 127.0.0.1 served by ``handler``: its base URL while open."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
