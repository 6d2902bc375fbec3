"""Reading a response body with a bound on what it may cost once decoded.

A server decides how many bytes a body expands to: 5 MB of gzip is 5 GiB of zeros,
``Content-Encoding: gzip, gzip`` squares that, and a body without ``Content-Length``
or a chunked one may never end. An HTTP client that decodes each network chunk in one
call holds the whole expansion of that chunk at once (a 64 KiB chunk of a doubly
gzipped bomb is gigabytes), so the body is read *raw* and decoded here, every layer
asked for at most :data:`PIECE` bytes at a time (zlib's ``max_length``), and the
decoded bytes are counted as they come: reading stops at ``limit``, whatever the
encoding, with :class:`BodyTooLarge`.

Content codings decoded: ``gzip`` (``x-gzip``; concatenated members too), ``deflate``
(zlib-wrapped, or raw as some servers send it) and ``identity``, stacked up to
:data:`MAX_LAYERS` deep. The crawler only advertises ``gzip, deflate``; anything else
(``br``, ``zstd``, made-up names) is refused with :class:`UndecodableBody`, as is a
corrupt stream — as Chromium's ``ERR_CONTENT_DECODING_FAILED``.
"""

from __future__ import annotations

import zlib
from collections.abc import AsyncIterable, Iterator

PIECE = 1 << 16
"""Most bytes one decoding step produces: the memory a bomb can take between two checks."""

MAX_LAYERS = 4
"""Most content codings stacked on one body (``gzip, gzip`` is 2)."""

ACCEPT_ENCODING = "gzip, deflate"


class BodyTooLarge(Exception):
    """More than ``limit`` decoded bytes (what was read is dropped at once)."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"more than {limit:,} bytes")
        self.limit = limit


class UndecodableBody(Exception):
    """A content coding we do not decode, or a corrupt stream."""


class _Inflate:
    """One zlib layer, its output bounded per step."""

    def __init__(self, coding: str) -> None:
        self.coding = coding
        self._obj: zlib._Decompress | None = None
        self._gzip = coding == "gzip"

    def _start(self, data: bytes) -> zlib._Decompress:
        if self._gzip:
            return zlib.decompressobj(16 + zlib.MAX_WBITS)
        # RFC 9110's deflate is zlib-wrapped; some servers send a raw deflate stream
        zlib_header = len(data) >= 2 and data[0] & 0x0F == 8 and (data[0] << 8 | data[1]) % 31 == 0
        return zlib.decompressobj(zlib.MAX_WBITS if zlib_header else -zlib.MAX_WBITS)

    def feed(self, data: bytes) -> Iterator[bytes]:
        while data:
            if self._obj is None:
                self._obj = self._start(data)
            try:
                out = self._obj.decompress(data, PIECE)
            except zlib.error as exc:
                raise UndecodableBody(f"corrupt {self.coding} stream: {exc}") from None
            if out:
                yield out
            if self._obj.eof:
                rest = self._obj.unused_data
                self._obj = None
                # another gzip member may follow; anything else after the end is ignored
                data = rest if self._gzip and rest[:2] == b"\x1f\x8b" else b""
            else:
                data = self._obj.unconsumed_tail

    def flush(self) -> Iterator[bytes]:
        if self._obj is not None and not self._obj.eof:
            try:
                out = self._obj.flush(PIECE)
            except zlib.error as exc:
                raise UndecodableBody(f"corrupt {self.coding} stream: {exc}") from None
            if out:
                yield out


def codings(content_encoding: str | None) -> list[str]:
    """The content codings in the order they were applied (``identity`` left out)."""
    names = [c.strip().lower() for c in (content_encoding or "").split(",")]
    return [("gzip" if n == "x-gzip" else n) for n in names if n and n != "identity"]


def _layers(content_encoding: str | None) -> list[_Inflate]:
    applied = codings(content_encoding)
    if len(applied) > MAX_LAYERS:
        raise UndecodableBody(f"{len(applied)} content codings stacked "
                              f"(at most {MAX_LAYERS} are decoded)")
    for name in applied:
        if name not in ("gzip", "deflate"):
            raise UndecodableBody(f"unsupported Content-Encoding {name[:40]!r}")
    return [_Inflate(name) for name in reversed(applied)]  # the last applied comes off first


def _through(layers: list[_Inflate], data: bytes) -> Iterator[bytes]:
    if not layers:
        if data:
            yield data
        return
    for piece in layers[0].feed(data):
        yield from _through(layers[1:], piece)


def _flushed(layers: list[_Inflate]) -> Iterator[bytes]:
    for i, layer in enumerate(layers):
        for piece in layer.flush():
            yield from _through(layers[i + 1:], piece)


async def read_body(chunks: AsyncIterable[bytes], content_encoding: str | None,
                    limit: int, *, truncate: bool = False) -> bytes:
    """The decoded body, at most ``limit`` bytes.

    ``truncate``: return the first ``limit`` bytes instead of raising
    :class:`BodyTooLarge` (robots.txt: what lies past the parsing limit is ignored).
    """
    layers = _layers(content_encoding)
    out = bytearray()

    def take(pieces: Iterator[bytes]) -> bool:
        for piece in pieces:
            room = limit - len(out)
            if len(piece) > room:
                out.extend(piece[:room])
                return False
            out.extend(piece)
        return True

    async for chunk in chunks:
        if not take(_through(layers, chunk)):
            break
    else:
        if take(_flushed(layers)):
            return bytes(out)
    if truncate:
        return bytes(out)
    raise BodyTooLarge(limit)
