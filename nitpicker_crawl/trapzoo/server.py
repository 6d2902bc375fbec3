"""Serving TrapZoo on 127.0.0.1 (stdlib threading HTTP server, two origins)."""

from __future__ import annotations

import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from .site import ExternalSite, Site


def _handler(site: Any) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # Headers and body go out in two writes; with Nagle on, a keep-alive client's
        # delayed ACK stalls every response by ~40 ms.
        disable_nagle_algorithm = True

        def _serve(self, with_body: bool) -> None:
            response = site.handle(self.command, self.path)
            delay = response.delay + (getattr(site, "page_latency", 0.0)
                                      if response.content_type.startswith("text/html") else 0)
            if delay:
                time.sleep(delay)
            self.send_response(response.status)
            self.send_header("Content-Type", response.content_type)
            self.send_header("Content-Length", str(len(response.body)))
            for key, value in response.headers.items():
                self.send_header(key, value)
            self.end_headers()
            if with_body:
                self.wfile.write(response.body)

        def do_GET(self) -> None:
            self._serve(True)

        def do_HEAD(self) -> None:
            self._serve(False)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hangs up mid-answer (a crawler stopped by Ctrl-C, a browser that
        left the page) is no error of the site's: ``socketserver`` would print a traceback
        in the middle of ``make demo``'s progress line. Anything else still prints."""
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


class TrapZoo:
    """Both origins of the site. ``with TrapZoo() as zoo: zoo.url …``"""

    def __init__(self, host: str = "127.0.0.1", *, unbounded: bool = False) -> None:
        self._external = _Server((host, 0), _handler(ExternalSite()))
        self.external_url = f"http://{host}:{self._external.server_address[1]}/"
        self.site = Site(self.external_url, unbounded=unbounded)
        self._main = _Server((host, 0), _handler(self.site))
        self.url = f"http://{host}:{self._main.server_address[1]}/"
        self.site.base = self.url.rstrip("/")  # sitemaps name absolute URLs
        self._threads: list[threading.Thread] = []

    def start(self) -> TrapZoo:
        for server in (self._main, self._external):
            thread = threading.Thread(target=server.serve_forever, daemon=True)
            thread.start()
            self._threads.append(thread)
        return self

    def stop(self) -> None:
        for server in (self._main, self._external):
            server.shutdown()
            server.server_close()

    def __enter__(self) -> TrapZoo:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
