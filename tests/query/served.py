"""A local site for a test: a function from a path to ``(status, headers, body)``, served
on 127.0.0.1 in a thread for the length of a ``with`` block."""

from __future__ import annotations

import contextlib
import http.server
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from tests.crawl.conftest import run_crawl

Answer = Callable[[str], tuple[int, dict[str, str], bytes]]


@contextlib.contextmanager
def serving(answer: Answer) -> Iterator[str]:
    """Serve ``answer``; yield the base URL (``http://127.0.0.1:PORT``, no slash)."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            status, headers, body = answer(self.path)
            self.send_response(status)
            for name, value in {**headers, "Content-Length": str(len(body))}.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@contextlib.contextmanager
def crawled_once(directory: Path, answer: Answer, *, exit_codes: tuple[int, ...] = (0,)
                 ) -> Iterator[tuple[Path, str]]:
    """Serve ``answer`` and crawl it without rendering into ``directory/site.nitpicker``;
    yield the archive and the base URL while the site is still up. ``exit_codes``: the
    crawl's accepted exit codes (2 when the site has broken links on purpose)."""
    with serving(answer) as base:
        r = run_crawl(directory, base + "/", "-o", "site.nitpicker", "--no-render",
                      "--silent")
        assert r.returncode in exit_codes, r.stderr
        yield directory / "site.nitpicker", base
