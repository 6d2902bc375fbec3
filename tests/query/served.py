"""A local site for a test: a function from a path to ``(status, headers, body)``, served
on 127.0.0.1 in a thread for the length of a ``with`` block."""

from __future__ import annotations

import contextlib
import http.server
import threading
from collections.abc import Callable, Iterator
from typing import Any

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
