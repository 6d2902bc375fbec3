"""Network outages (issue 25): a site on 127.0.0.1 that is stopped in the middle of a
crawl and started again on the same port. The crawl pauses, probes, fetches again every
URL that failed meanwhile, loses no page and records the window; failures that are the
site's own (a path whose connection is always reset, links to a server that is not
there) are still reported, with no window; and an outage longer than --max-outage stops
the crawl for --resume."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

import nitpicker_query as q
from tests.crawl.conftest import CRAWL


class _Quiet(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        """A connection this test cut on purpose is no error to print."""


class Site:
    """``/p/0`` … ``/p/{n-1}``: page i links to 2i+1 and 2i+2 (a tree: work for every
    worker). ``/p/0`` also links the ``extra`` paths. ``stop_after`` pages served, the
    server goes away for ``down_s`` seconds (``None``: for good), then comes back on the
    same port. ``/p/reset/…`` paths close the connection without an answer."""

    def __init__(self, pages: int, *, stop_after: int | None = None,
                 down_s: float | None = 0.0, extra: tuple[str, ...] = ()) -> None:
        self.pages, self.stop_after, self.down_s, self.extra = pages, stop_after, down_s, extra
        self.served = 0
        self.lock = threading.Lock()
        self.outage: tuple[float, float] | None = None
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/p/0"
        self._server: ThreadingHTTPServer | None = None
        self._open: set[socket.socket] = set()   # keep-alive connections, cut on stop
        self._threads: list[threading.Thread] = []

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        site = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def setup(self) -> None:
                super().setup()
                with site.lock:
                    site._open.add(self.connection)

            def finish(self) -> None:
                with site.lock:
                    site._open.discard(self.connection)
                super().finish()

            def do_GET(self) -> None:
                if self.path.startswith("/p/reset/"):
                    # linger 0: the close sends a reset (every reference to the socket
                    # closed, or it stays open)
                    self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                               b"\x01\x00\x00\x00\x00\x00\x00\x00")
                    self.close_connection = True
                    self.rfile.close()
                    self.wfile.close()
                    self.connection.close()
                    return
                if not self.path.startswith("/p/"):
                    self.send_error(404)
                    return
                i = int(self.path.split("/")[2])
                links = [f"/p/{j}" for j in (2 * i + 1, 2 * i + 2) if j < site.pages]
                links += list(site.extra) if i == 0 else []
                body = (f"<html><head><title>Page {i}</title></head><body><main>"
                        + "".join(f'<a href="{h}">{h}</a>' for h in links)
                        + "</main></body></html>").encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                with site.lock:
                    site.served += 1
                    if site.served == site.stop_after:
                        threading.Thread(target=site._outage, daemon=True).start()

            def do_HEAD(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return Handler

    def start(self) -> None:
        self._server = _Quiet(("127.0.0.1", self.port), self._handler())
        self._server.daemon_threads = True
        thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        thread.start()
        self._threads.append(thread)

    def stop(self) -> None:
        """Gone: no new connection is accepted, and the open ones are cut."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        with self.lock:
            for conn in list(self._open):
                with contextlib.suppress(OSError):
                    conn.shutdown(socket.SHUT_RDWR)

    def _outage(self) -> None:
        began = time.time()
        self.stop()
        if self.down_s is None:
            self.outage = (began, float("inf"))
            return
        time.sleep(self.down_s)
        self.start()
        self.outage = (began, time.time())


@pytest.fixture
def site_factory() -> Iterator[list[Site]]:
    sites: list[Site] = []
    yield sites
    for s in sites:
        s.stop()


def crawl(site: Site, out: Path, *args: str, timeout: float = 300
          ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CRAWL, site.url, "-o", str(out), "--no-render", "--no-templates",
                           "--no-sitemap", "--parallels", "4", *args], capture_output=True,
                          text=True, timeout=timeout, cwd=out.parent)


def fetched(archive: Path) -> dict[str, int]:
    with q.open_archive(archive) as a:
        return {r[0]: r[1] for r in a.execute(
            "SELECT url, status FROM pages WHERE isExternal = 0 AND scraped = 1")}


def windows(archive: Path) -> list[tuple[int, int | None, int]]:
    with q.open_archive(archive) as a:
        return [(r[0], r[1], r[2]) for r in a.execute(
            "SELECT started_at, ended_at, trigger_error_count FROM network_outages")]


def check_outage_crawl(site_factory: list[Site], tmp_path: Path, pages: int, down_s: float
                       ) -> None:
    site = Site(pages, stop_after=pages // 3, down_s=down_s)
    site_factory.append(site)
    site.start()
    out = tmp_path / "site.nitpicker"
    done = crawl(site, out)
    assert done.returncode == 0, done.stderr[-2000:]
    statuses = fetched(out)
    assert len(statuses) == pages and set(statuses.values()) == {200}   # no page lost
    assert site.outage is not None
    [(started, ended, failures)] = windows(out)
    assert ended is not None and failures >= 4
    # the window recorded is the server's absence, give or take the probe's interval
    assert started / 1000 >= site.outage[0] - 1
    assert site.outage[1] - 1 <= ended / 1000 <= site.outage[1] + 16
    assert "[network]" in done.stderr and "tried again" in done.stderr
    summary = q.get_summary(out)
    assert all(row["status"] != -1 for row in summary["statusDistribution"])
    assert summary["networkOutages"] == {"windows": 1, "failuresInside": 0}
    [listed] = q.list_network_outages(out)["items"]
    assert (listed["startedAt"], listed["endedAt"], listed["failures"]) == (started, ended, 0)
    assert listed["probeHost"] == f"127.0.0.1:{site.port}"


@pytest.mark.slow  # 12 s of a site away and back
def test_a_site_that_goes_away_and_comes_back_loses_no_page(
        site_factory: list[Site], tmp_path: Path) -> None:
    check_outage_crawl(site_factory, tmp_path, pages=300, down_s=5)


@pytest.mark.slow
def test_two_thousand_pages_and_a_thirty_second_outage(site_factory: list[Site],
                                                      tmp_path: Path) -> None:
    check_outage_crawl(site_factory, tmp_path, pages=2000, down_s=30)


def test_the_sites_own_failures_are_still_failures(site_factory: list[Site],
                                                   tmp_path: Path) -> None:
    """Six links whose connection is always reset and six to a server that is not
    there: the probe finds the site answering, so they are failures, no window."""
    with socket.socket() as s:   # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    extra = (*(f"/p/reset/{i}" for i in range(6)),
             *(f"http://127.0.0.1:{closed}/dead/{i}" for i in range(6)))
    site = Site(40, extra=extra)
    site_factory.append(site)
    site.start()
    out = tmp_path / "site.nitpicker"
    done = crawl(site, out)
    assert done.returncode == 1, done.stderr[-2000:]      # URLs of the site failed
    statuses = fetched(out)
    assert sum(1 for u, s in statuses.items() if "/reset/" in u and s == -1) == 6
    assert sum(1 for u, s in statuses.items() if "/p/" in u and s == 200) == 40
    with q.open_archive(out) as a:
        dead = a.execute("SELECT count(*) FROM pages WHERE isExternal = 1 AND status = -1"
                         ).fetchone()[0]
    assert dead == 6
    assert windows(out) == [] and "[network]" not in done.stderr


@pytest.mark.slow   # waits out --max-outage, then a second crawl
def test_an_outage_past_max_outage_stops_for_resume(site_factory: list[Site],
                                                    tmp_path: Path) -> None:
    site = Site(200, stop_after=50, down_s=None)
    site_factory.append(site)
    site.start()
    out = tmp_path / "site.nitpicker"
    done = crawl(site, out, "--max-outage", "3")
    assert done.returncode == 4, done.stderr[-2000:]
    assert "nothing answered for more than --max-outage 3 s" in done.stderr
    [(_, ended, _)] = windows(out)
    assert ended is not None
    with q.open_archive(out) as a:
        failed = a.execute("SELECT count(*) FROM pages WHERE status = -1").fetchone()[0]
        stop = a.execute("SELECT stopReason FROM crawl_runs").fetchone()[0]
    assert failed == 0 and stop == "network-outage"
    assert q.get_summary(out)["crawl"]["stopReason"] == "network-outage"
    site.start()                      # it is back: the resumed crawl finishes the site
    again = subprocess.run([CRAWL, "--resume", str(out)], capture_output=True, text=True,
                           timeout=300, cwd=tmp_path)
    assert again.returncode == 0, again.stderr[-2000:]
    statuses = fetched(out)
    assert len(statuses) == 200 and set(statuses.values()) == {200}


def test_ctrl_c_during_an_outage_stops_at_once(site_factory: list[Site],
                                               tmp_path: Path) -> None:
    """Nothing answers and the crawl is probing (--max-outage 600 s): Ctrl-C stops it
    within its grace period, the archive is written, and the URLs that failed meanwhile
    are left for --resume, which finishes the site once it is back."""
    import signal

    site = Site(200, stop_after=50, down_s=None)
    site_factory.append(site)
    site.start()
    out = tmp_path / "site.nitpicker"
    crawler = subprocess.Popen([CRAWL, site.url, "-o", str(out), "--no-render",
                                "--no-templates", "--no-sitemap", "--stop-grace", "2"],
                               stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    assert crawler.stderr is not None
    said = ""
    while "[network]" not in said:
        line = crawler.stderr.readline()
        assert line, said
        said += line
    began = time.monotonic()
    crawler.send_signal(signal.SIGINT)
    rest = crawler.communicate(timeout=60)[1]
    assert crawler.returncode == 130, said + rest
    assert time.monotonic() - began < 20
    with q.open_archive(out) as a:
        failed = a.execute("SELECT count(*) FROM pages WHERE status = -1").fetchone()[0]
    assert failed == 0
    site.start()
    again = subprocess.run([CRAWL, "--resume", str(out)], capture_output=True, text=True,
                           timeout=300, cwd=tmp_path)
    assert again.returncode == 0, again.stderr[-2000:]
    assert set(fetched(out).values()) == {200} and len(fetched(out)) == 200
