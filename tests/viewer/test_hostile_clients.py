"""Clients that misbehave (issue 20, item 8): headers that never finish, a request line
of a megabyte, a flood of slow queries. Each gets an answer with the security headers,
and the viewer keeps answering everyone else."""

from __future__ import annotations

import json
import socket
import sys
import threading
import time
import urllib.request
from pathlib import Path

from tests.viewer.conftest import serve


def _read_all(sock: socket.socket, limit_s: float = 30) -> bytes:
    sock.settimeout(limit_s)
    chunks = []
    while True:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError as exc:  # what the client saw before the fix
            raise AssertionError("the viewer reset the connection instead of answering") \
                from exc
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def test_headers_that_never_finish_get_408(capped_archive: Path) -> None:
    for served in serve(capped_archive, [], header_timeout_s=1.0):
        with socket.create_connection(("127.0.0.1", served.port)) as sock:
            sock.sendall(f"GET /summary HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n"
                         "X-Slow: 1".encode())
            started = time.monotonic()
            answer = _read_all(sock)
        head = answer.split(b"\r\n\r\n", 1)[0].decode()
        assert head.startswith("HTTP/1.1 408 Request Timeout"), answer[:200]
        assert "Content-Security-Policy: default-src 'none'" in head
        assert answer.endswith(b"The request's headers did not arrive within 1 s.")
        assert time.monotonic() - started < 20  # it ended: the deadline is what closed it
        # and the next client is served as usual
        with urllib.request.urlopen(f"{served.url}/summary", timeout=30) as response:
            assert response.status == 200


def test_a_megabyte_request_line_gets_431_not_a_reset(capped_archive: Path) -> None:
    for served in serve(capped_archive, []):
        with socket.create_connection(("127.0.0.1", served.port)) as sock:
            query = "q=" + "x" * 1_000_000
            sock.sendall(f"GET /api/list_pages?{query} HTTP/1.1\r\n"
                         f"Host: 127.0.0.1:{served.port}\r\n\r\n".encode())
            answer = _read_all(sock)
        head = answer.split(b"\r\n\r\n", 1)[0].decode()
        assert head.startswith("HTTP/1.1 431 Request Header Fields Too Large"), answer[:200]
        assert "X-Frame-Options: DENY" in head
        assert answer.endswith(b"The request line and headers are longer than 64 KiB.")


def test_slow_queries_queue_apart_and_the_summary_still_answers(tmp_path: Path) -> None:
    """45 first calls of template clusters (each would read every snapshot: seconds on
    3,000 pages) run one at a time on their own; /summary is answered meanwhile."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    from make_archive import build

    fresh = tmp_path / "fresh.nitpicker"
    build(fresh, 3000)
    finished: list[float] = []
    statuses: list[int] = []

    def clusters(url: str) -> None:
        with urllib.request.urlopen(f"{url}/api/get_template_clusters",
                                    timeout=300) as response:
            statuses.append(response.status)
            json.loads(response.read())
        finished.append(time.monotonic())

    for served in serve(fresh, []):
        threads = [threading.Thread(target=clusters, args=(served.url,)) for _ in range(45)]
        for thread in threads:
            thread.start()
        time.sleep(0.2)  # let them all be sent
        with urllib.request.urlopen(f"{served.url}/summary", timeout=300) as response:
            assert response.status == 200 and b"HTML pages" in response.read()
        answered_before = len(finished)
        for thread in threads:
            thread.join(timeout=300)
        assert statuses == [200] * 45
        assert answered_before < 45  # the summary did not wait for them
