"""The viewer's HTTP server: uvicorn, with the limits a stranger's client must meet.

uvicorn's h11 protocol waits for ever for a request whose headers never finish (a
client sending one byte a second holds a connection, and enough of them hold the
viewer), and answers a request line or headers past its buffer (a 1 MB query string)
by closing the connection with the rest of the request unread, which the client sees
as a reset instead of an answer. :class:`GuardedProtocol` adds:

- a deadline for each request's line and headers (:data:`HEADER_TIMEOUT_S`, from the
  connection's start or the previous response): then ``408 Request Timeout``;
- ``431 Request Header Fields Too Large`` for a request line and headers over
  :data:`MAX_HEAD_BYTES`, sent whole, the rest of the request read and dropped for up to
  :data:`DRAIN_S` so the client reads the answer;
- the security headers of :mod:`nitpicker_viewer.app` on both.
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from .app import SECURITY_HEADERS

HEADER_TIMEOUT_S = 10.0
MAX_HEAD_BYTES = 64 * 1024
DRAIN_S = 2.0


class GuardedProtocol(H11Protocol):
    """uvicorn's h11 protocol with a header deadline and a clear answer to oversize."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_timer: asyncio.TimerHandle | None = None
        self._draining = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    @property
    def _head_timeout(self) -> float:
        return float(getattr(self.config, "header_timeout_s", HEADER_TIMEOUT_S))

    def _arm(self) -> None:
        self._disarm()
        self._head_timer = self.loop.call_later(self._head_timeout, self._head_too_slow)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def data_received(self, data: bytes) -> None:
        if self._draining:
            return  # the rest of a refused request: read, dropped
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self._disarm()  # the request line and headers are in

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # the next request on this connection gets its own deadline

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _head_too_slow(self) -> None:
        self._head_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self._refuse(408, f"The request's headers did not arrive within "
                         f"{self._head_timeout:g} s.")

    def send_400_response(self, msg: str) -> None:
        pending = len(self.conn.trailing_data[0])
        if pending >= MAX_HEAD_BYTES:
            self._refuse(431, f"The request line and headers are longer than "
                         f"{MAX_HEAD_BYTES // 1024} KiB.")
        else:
            self._refuse(400, msg)

    def _refuse(self, status: int, message: str) -> None:
        """Answer ``status`` whole on the raw transport and drain, then close."""
        self._disarm()
        body = message.encode("utf-8")
        phrase = {400: "Bad Request", 408: "Request Timeout",
                  431: "Request Header Fields Too Large"}[status]
        head = [f"HTTP/1.1 {status} {phrase}", "Content-Type: text/plain; charset=utf-8",
                f"Content-Length: {len(body)}", "Connection: close",
                *(f"{name}: {value}" for name, value in SECURITY_HEADERS)]
        self._draining = True
        self.transport.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body)
        self.loop.call_later(DRAIN_S, self.transport.close)


def config(app: Any, *, host: str, port: int, header_timeout_s: float = HEADER_TIMEOUT_S,
           **options: Any) -> uvicorn.Config:
    """The server configuration every viewer runs with (the CLI, the tests, the bench)."""
    result = uvicorn.Config(app, host=host, port=port, http=GuardedProtocol,
                            h11_max_incomplete_event_size=MAX_HEAD_BYTES, **options)
    result.header_timeout_s = header_timeout_s  # type: ignore[attr-defined]
    return result
