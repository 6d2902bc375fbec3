"""Rendering on other machines (issue 44): ``--browser-endpoint`` with Playwright's own
server (``nitpicker-crawl browser-host``, i.e. ``playwright launch-server``) and with a
Chromium DevTools endpoint, the local browser beside them — the same pages and fields as
a crawl on the local browser alone; a host killed mid-crawl loses no page; an endpoint
refused, unreachable or of another Playwright version is one line at start and writes
nothing. Every server listens on 127.0.0.1."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import nitpicker_query as q
from nitpicker_crawl.fetch.renderer import find_browser
from nitpicker_crawl.trapzoo import TrapZoo
from tests.crawl.conftest import CRAWL, WITHOUT_TRAPS, Crawl, run_crawl

ROOT = Path(__file__).resolve().parents[2]
OLD_PLAYWRIGHT = ROOT / ".npm-tools/playwright-1.56/node_modules/playwright-core/cli.js"
FIELDS = ("url, status, scraped, isExternal, title, description, lang, contentType, "
          "(SELECT count(*) FROM anchors a WHERE a.pageId = p.id) AS anchors")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _one_line_failure(result: subprocess.CompletedProcess[str], code: int) -> str:
    assert result.returncode == code, result.stderr
    assert "Traceback" not in result.stderr
    return result.stderr.strip().splitlines()[-1]


@pytest.mark.parametrize(("args", "message"), [
    (("--browser-endpoint", "ftp://127.0.0.1:1/"), "expected ws://HOST:PORT/"),
    (("--browser-endpoint", "not a url"), "expected ws://HOST:PORT/"),
    (("--browser-slots", "2"), "--browser-slots N goes right after the --browser-endpoint"),
    (("--browser-endpoint", "ws://127.0.0.1:1/", "--browser-slots", "0"),
     "--browser-slots must be 1 to 64, got 0"),
    (("--browser-endpoint", "ws://127.0.0.1:1/", "--browser-slots", "65"),
     "--browser-slots must be 1 to 64, got 65"),
    (("--no-local-browser",), "--no-local-browser needs at least one --browser-endpoint"),
    (("--browser-endpoint", "ws://127.0.0.1:1/", "--no-render"), "cannot go with --no-render"),
])
def test_a_bad_endpoint_option_is_one_usage_line_and_writes_nothing(
        tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    result = run_crawl(tmp_path, "http://127.0.0.1:9/", "-o", "x.nitpicker", *args)
    assert result.returncode == 2 and message in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("endpoint", ["ws://127.0.0.1:{port}/token", "http://127.0.0.1:{port}"])
def test_an_endpoint_that_refuses_is_said_at_start(zoo: TrapZoo, tmp_path: Path,
                                                   endpoint: str) -> None:
    url = endpoint.format(port=_free_port())
    result = run_crawl(tmp_path, zoo.url, "-o", "x.nitpicker", "--browser-endpoint", url)
    line = _one_line_failure(result, 1)
    assert "could not be reached" in line and url.rsplit("/", 1)[0] in line, line
    assert "token" not in line or url.endswith("/token")
    assert not (tmp_path / "x.nitpicker").exists()


@pytest.mark.skipif(not OLD_PLAYWRIGHT.exists(), reason="npm's playwright-core 1.56 is not "
                    "installed (make old-playwright)")
def test_a_server_of_another_playwright_version_is_refused_at_start(zoo: TrapZoo,
                                                                    tmp_path: Path) -> None:
    port = _free_port()
    server = subprocess.Popen(["node", str(OLD_PLAYWRIGHT), "run-server", "--port", str(port),
                               "--host", "127.0.0.1"], stdout=subprocess.PIPE, text=True,
                              start_new_session=True)
    try:
        assert server.stdout is not None and "Listening" in server.stdout.readline()
        result = run_crawl(tmp_path, zoo.url, "-o", "x.nitpicker",
                           "--browser-endpoint", f"ws://127.0.0.1:{port}/")
    finally:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()
        server.stdout.close()  # type: ignore[union-attr]
    line = _one_line_failure(result, 1)
    assert "runs Playwright 1.56, this crawler 1." in line, line
    assert "pip install 'playwright==1." in line
    assert not (tmp_path / "x.nitpicker").exists()


@contextmanager
def browser_host() -> Iterator[tuple[subprocess.Popen[str], str]]:
    """``nitpicker-crawl browser-host`` on 127.0.0.1: the process and its endpoint."""
    host = subprocess.Popen([CRAWL, "browser-host"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    try:
        assert host.stdout is not None
        url = host.stdout.readline().strip()
        assert url.startswith("ws://127.0.0.1:"), url
        yield host, url
    finally:
        with_group(host, signal.SIGKILL)
        host.stdout.close()  # type: ignore[union-attr]


def with_group(process: subprocess.Popen[str], sig: int) -> None:
    if process.poll() is None:
        os.killpg(process.pid, sig)
        process.wait()


@contextmanager
def devtools_chromium() -> Iterator[str]:
    """Chromium with a DevTools endpoint on 127.0.0.1 (the port it chose): the full
    browser, as a managed one would be."""
    executable = find_browser(shell=False)
    assert executable is not None
    with tempfile.TemporaryDirectory() as profile:
        browser = subprocess.Popen(
            [executable, "--headless=new", "--no-sandbox", "--disable-gpu",
             "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
             f"--user-data-dir={profile}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            port_file = Path(profile) / "DevToolsActivePort"
            deadline = time.monotonic() + 30
            while not port_file.exists() or not port_file.read_text().strip():
                assert time.monotonic() < deadline, "no DevTools port"
                time.sleep(0.1)
            yield f"http://127.0.0.1:{port_file.read_text().split()[0]}"
        finally:
            with_group(browser, signal.SIGKILL)  # type: ignore[arg-type]


def _site(zoo: TrapZoo, directory: Path, *extra: str) -> Crawl:
    out = directory / "site.nitpicker"
    args = [a.format(zoo=zoo.url) for a in WITHOUT_TRAPS if a != "--silent"]
    result = run_crawl(directory, zoo.url, "-o", str(out), *args, *extra, timeout=600)
    return Crawl(out, result.returncode, result.stderr)


def _pages(archive: Path) -> list[tuple[object, ...]]:
    with q.open_archive(archive) as a:
        return [tuple(r) for r in a.execute(f"SELECT {FIELDS} FROM pages p ORDER BY url")]


def _unrendered(archive: Path) -> list[str]:
    """Pages stored as the server sent them because their rendering failed."""
    with q.open_archive(archive) as a:
        urls = [r[0] for r in a.execute("SELECT url FROM pages WHERE scraped = 1 AND "
                                        "isExternal = 0 AND status = 200")]
        return [u for u in urls if any(p["phase"] == "render" for p in
                                       (q.get_page_detail(a, url=u) or {})["problems"])]


@pytest.mark.slow   # three browsers on two cores (make test-slow)
def test_two_playwright_hosts_and_the_local_browser_store_what_the_local_one_alone_does(
        zoo: TrapZoo, rendered_crawl: Crawl, tmp_path: Path) -> None:
    with browser_host() as (_a, first), browser_host() as (_b, second):
        lent = _site(zoo, tmp_path, "--parallels", "2", "--browser-endpoint", first,
                     "--browser-slots", "2", "--browser-endpoint", second)
    assert lent.returncode == 0, lent.stderr
    assert _pages(lent.archive) == _pages(rendered_crawl.archive)
    assert _unrendered(lent.archive) == []
    for url in (first, second):   # pages went to each browser, and the end says so
        name = url.rsplit("/", 1)[0]
        said = [line for line in lent.stderr.splitlines() if line.startswith(f"[browser] {name}")]
        assert said and " pages rendered" in said[-1] and not said[-1].startswith(
            f"[browser] {name}: 0 pages"), said


@pytest.mark.slow   # three browsers on two cores, one killed (make test-slow)
def test_a_host_killed_mid_crawl_loses_no_page(zoo: TrapZoo, rendered_crawl: Crawl,
                                               tmp_path: Path) -> None:
    out = tmp_path / "site.nitpicker"
    args = [a.format(zoo=zoo.url) for a in WITHOUT_TRAPS if a != "--silent"]
    with browser_host() as (doomed, first), browser_host() as (_b, second):
        crawl = subprocess.Popen(
            [CRAWL, zoo.url, "-o", str(out), *args, "--parallels", "1",
             "--browser-endpoint", first, "--browser-slots", "3",
             "--browser-endpoint", second, "--browser-slots", "1"],
            cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        db = next(iter(tmp_path.glob("._nitpicker-*")), tmp_path) / "db.sqlite"
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:   # a third of the site stored: the kill
            db = next(iter(tmp_path.glob("._nitpicker-*")), tmp_path) / "db.sqlite"
            try:
                conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)
                stored = conn.execute("SELECT count(*) FROM pages WHERE scraped = 1").fetchone()[0]
                conn.close()
                if stored >= len(_pages(rendered_crawl.archive)) // 3:
                    break
            except sqlite3.Error:
                pass
            time.sleep(0.05)
        with_group(doomed, signal.SIGKILL)
        _, err = crawl.communicate(timeout=600)
    assert crawl.returncode == 0, err
    assert _pages(out) == _pages(rendered_crawl.archive)   # every page, once
    assert _unrendered(out) == []                           # and rendered
    name, token = first.rsplit("/", 1)
    assert token not in err   # the host's path is its password: never printed
    assert f"[browser] {name} lost (" in err
    end = [line for line in err.splitlines() if line.startswith(f"[browser] {name}: ")]
    assert end and "lost 1 time(s)" in end[-1] and "down at the end" in end[-1], end
    # the loss is a row of the archive, as the end said it, the token nowhere in it
    moved = int(end[-1].split(", ")[-1].split(" pages moved")[0].replace(",", ""))
    [loss] = q.list_browser_outages(out)["items"]
    assert (loss["endpoint"], loss["endedAt"], loss["pagesMoved"]) == (name, None, moved)
    assert loss["reason"] and token not in loss["reason"]
    assert q.get_summary(out)["browserOutages"] == {"losses": 1, "pagesMoved": moved,
                                                    "downAtEnd": 1}
    shown = subprocess.run([str(Path(CRAWL).with_name("nitpicker-query")), "browser-outages",
                            str(out), "--format", "csv"], capture_output=True, text=True)
    assert shown.returncode == 0 and name in shown.stdout and token not in shown.stdout


@pytest.mark.slow   # a DevTools Chromium beside the crawl (make test-slow)
def test_a_devtools_endpoint_alone_stores_what_the_local_browser_does(
        zoo: TrapZoo, rendered_crawl: Crawl, tmp_path: Path) -> None:
    with devtools_chromium() as endpoint:
        lent = _site(zoo, tmp_path, "--no-local-browser", "--browser-endpoint", endpoint)
    assert lent.returncode == 0, lent.stderr
    assert _pages(lent.archive) == _pages(rendered_crawl.archive)
    assert _unrendered(lent.archive) == []
