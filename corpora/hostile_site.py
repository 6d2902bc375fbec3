"""A hostile website: a local HTTP server whose paths misbehave the way broken or malicious
servers do, beside a handful of ordinary pages, so a crawler can be pointed at it and be seen
to survive.

Why it is built this way:

* Raw ``asyncio`` streams, not ``http.server``: many cases need byte-level control (a garbage
  status line, headers that trickle one byte a second, a Content-Length that lies, a CR inside
  a header), which a real HTTP library would refuse to produce.
* Everything is generated lazily and streamed with ``await writer.drain()`` after each write, so
  a client that stops reading stops the server too and no body is ever built in memory: the
  5 GiB gzip bomb is one 1 MiB-of-zeros deflate segment (about 1 KB, ending at a full-flush
  point so that copies of it in a row form a valid stream) written again and again.
* One background thread with its own event loop serves two listeners: the site on 127.0.0.1
  and "another host" on 127.0.0.2 that answers any path with a small page and counts its hits,
  so tests can tell whether a crawler was lured off the site (a backslash URL, a redirect, a
  ``<base href>``...).
* Deterministic: the only randomness is seeded.

Use it as a context manager::

    with HostileSite(robots="normal") as site:
        crawl(site.url)
        assert site.hits("/private/secret") == 0

or by hand: ``python -m corpora.hostile_site [--robots MODE]``.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import functools
import gzip
import html
import itertools
import json
import random
import socket
import struct
import sys
import threading
import time
import zlib
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any, Literal
from urllib.parse import unquote_to_bytes

__all__ = ["CASES", "NORMAL_PAGES", "PRIVATE_PAGE", "ROBOTS_MODES", "Case", "HostileSite"]

Group = Literal["body", "timing", "content", "links", "script", "url", "protocol", "redirect"]

KIB = 1024
MIB = 1024 * KIB
GIB = 1024 * MIB
CHUNK = 64 * KIB  # the size of one streamed write; the transport's high-water mark is 64 KiB
HTML = "text/html; charset=utf-8"
# A request line may carry the 3 MB URL one of the pages links to; larger heads get a 431.
_REQUEST_LIMIT = 4 * MIB
_MAX_HEADER_LINES = 200
_MAX_REQUEST_BODY = MIB

ROBOTS_MODES = (
    "normal", "slow", "503", "500-then-ok", "404", "rot13", "base64", "binary", "huge",
    "gzip-bomb", "redirect-loop", "endless",
)
NORMAL_PAGES: tuple[str, ...] = ("/", "/about", *(f"/normal/{i}" for i in range(1, 11)))
PRIVATE_PAGE = "/private/secret"  # exists and is linked from /; robots.txt "normal" disallows it
_ROBOTS_NORMAL = b"User-agent: *\nDisallow: /private/\n"


@dataclass(frozen=True)
class Case:
    """One hostile path: what ``/`` links to and what the server does there.

    ``render_only`` is True when the page is harmless HTML and only its JavaScript (or what a
    browser does with it) misbehaves: a crawler that does not render sees an ordinary page.
    """

    name: str
    path: str
    behaviour: str
    render_only: bool
    group: Group


class _HeadOnly(Exception):
    """Raised by a body write on a HEAD request: the head went out, the body is skipped, and
    the connection is closed (the handler could not say where its body would have ended)."""


@dataclass
class _Site:
    """What handlers need to know about the running site (ports for absolute URLs)."""

    port: int
    other_port: int
    closed_port: int
    robots: str
    robots_requests: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    @property
    def other_url(self) -> str:
        return f"http://127.0.0.2:{self.other_port}/"


class _Exchange:
    """One request and the means to answer it, at byte level when a case needs that."""

    def __init__(self, site: _Site, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 method: str, target: str, path: str, version: str,
                 headers: dict[str, str]) -> None:
        self.site = site
        self.reader = reader
        self.writer = writer
        self.method = method
        self.target = target
        self.path = path
        self.version = version
        self.headers = headers
        self.head_only = method == "HEAD"
        connection = headers.get("connection", "").lower()
        if version == "HTTP/1.1":
            self.keep_alive = "close" not in connection
        else:
            self.keep_alive = "keep-alive" in connection
        self.reusable = False  # set by the well-formed answers once complete

    async def send(self, data: bytes) -> None:
        """Write bytes that belong to the head (always sent, HEAD or not)."""
        self.writer.write(data)
        await self.writer.drain()

    async def body(self, data: bytes) -> None:
        """Write body bytes; on a HEAD request stop the handler instead."""
        if self.head_only:
            raise _HeadOnly
        await self.send(data)

    async def head(self, status: int | str, headers: Iterable[tuple[str, str]] = (),
                   *, close: bool = True) -> None:
        """Send a status line (an int, or a whole status line as a string) and headers.

        Header text is sent as UTF-8 unchanged: NUL, CR and raw non-ASCII bytes go out as they
        are, which is the point of several cases.
        """
        if isinstance(status, int):
            try:
                reason = HTTPStatus(status).phrase
            except ValueError:
                reason = "Unknown"
            line = f"HTTP/1.1 {status} {reason}"
        else:
            line = status
        lines = [line, "Server: nitpicker-hostile/1.0"]
        lines += [f"{name}: {value}" for name, value in headers]
        if close:
            lines.append("Connection: close")
        await self.send(("\r\n".join(lines) + "\r\n\r\n").encode("utf-8", "surrogateescape"))

    async def sized(self, parts: Iterable[bytes], length: int, *, status: int = 200,
                    content_type: str | None = HTML,
                    headers: Iterable[tuple[str, str]] = ()) -> None:
        """A well-formed answer with a Content-Length; the connection stays open if asked."""
        keep = self.keep_alive
        fields = [("Content-Type", content_type)] if content_type else []
        fields += [*headers, ("Content-Length", str(length))]
        await self.head(status, fields, close=not keep)
        if not self.head_only:
            for part in parts:
                await self.send(part)
        self.reusable = keep

    async def page(self, body: bytes, *, status: int = 200, content_type: str | None = HTML,
                   headers: Iterable[tuple[str, str]] = ()) -> None:
        """A complete small answer."""
        await self.sized([body], len(body), status=status, content_type=content_type,
                         headers=headers)

    async def chunked(self, parts: Iterable[bytes], *, status: int = 200,
                      content_type: str = HTML,
                      headers: Iterable[tuple[str, str]] = ()) -> None:
        """A well-formed answer of unknown length, chunked (close-delimited for HTTP/1.0)."""
        fields = [("Content-Type", content_type), *headers]
        if self.version != "HTTP/1.1":
            await self.head(status, fields, close=True)
            for part in _rechunk(parts):
                await self.body(part)
            return
        keep = self.keep_alive
        await self.head(status, [*fields, ("Transfer-Encoding", "chunked")], close=not keep)
        if not self.head_only:
            for part in _rechunk(parts):
                await self.send(b"%x\r\n%b\r\n" % (len(part), part))
            await self.send(b"0\r\n\r\n")
        self.reusable = keep

    async def redirect(self, location: str, status: int = 302) -> None:
        """A well-formed redirect (the location is sent as given, whatever it holds)."""
        body = _page("Redirect", f"<p>Moved to {html.escape(location)}</p>")
        await self.page(body, status=status, headers=[("Location", location)])

    async def until_closed(self) -> None:
        """Wait, reading and dropping whatever comes, until the client goes away."""
        while await self.reader.read(CHUNK):
            pass


Handler = Callable[[_Exchange], Awaitable[None]]
_CASES: list[Case] = []
_ROUTES: dict[str, Handler] = {}
_PREFIXES: list[tuple[str, Handler]] = []


def _case(name: str, path: str, group: Group, behaviour: str, *,
          render_only: bool = False) -> Callable[[Handler], Handler]:
    """Register a handler as the hostile case ``name`` at ``path``."""

    def register(handler: Handler) -> Handler:
        _CASES.append(Case(name=name, path=path, behaviour=behaviour,
                           render_only=render_only, group=group))
        _ROUTES[_normalise(path)] = handler
        return handler

    return register


def _route(path: str) -> Callable[[Handler], Handler]:
    """Register a handler for a path that is not itself a case (a redirect target, a leaf)."""

    def register(handler: Handler) -> Handler:
        _ROUTES[_normalise(path)] = handler
        return handler

    return register


def _prefix(prefix: str) -> Callable[[Handler], Handler]:
    """Register a handler for every path under ``prefix``."""

    def register(handler: Handler) -> Handler:
        _PREFIXES.append((prefix, handler))
        return handler

    return register


def _normalise(path: str) -> str:
    """The path a handler is looked up by, as a lenient real server would see it: percent-
    decoded (as UTF-8), with ``.`` and ``..`` segments resolved and repeated slashes merged."""
    decoded = unquote_to_bytes(path).decode("utf-8", "replace")
    stack: list[str] = []
    segments = decoded.split("/")
    for segment in segments:
        if segment == "..":
            if stack:
                stack.pop()
        elif segment not in ("", "."):
            stack.append(segment)
    trailing = bool(stack) and segments[-1] in ("", ".", "..")
    return "/" + "/".join(stack) + ("/" if trailing else "")


def _lookup(path: str) -> Handler:
    if path in _ROUTES:
        return _ROUTES[path]
    for prefix, handler in _PREFIXES:
        if path.startswith(prefix):
            return handler
    return _not_found


# ---------------------------------------------------------------- HTML and byte generators


def _page(title: str, body: str, *, description: str | None = None, head: str = "") -> bytes:
    """A small valid UTF-8 HTML page."""
    meta = html.escape(description or f"The page titled {title}.")
    return (
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<title>{html.escape(title)}</title>\n<meta name=\"description\" content=\"{meta}\">\n"
        f"{head}</head>\n<body>\n<h1>{html.escape(title)}</h1>\n{body}\n</body>\n</html>\n"
    ).encode()


def _links(hrefs: Iterable[str]) -> str:
    return "<ul>\n" + "".join(
        f"<li><a href=\"{html.escape(href)}\">{html.escape(href)}</a></li>\n" for href in hrefs
    ) + "</ul>"


def _start(title: str, head: str = "") -> bytes:
    """The opening of a page whose body is streamed after it."""
    return (
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<title>{html.escape(title)}</title>\n"
        f"<meta name=\"description\" content=\"{html.escape(title)}\">\n{head}</head>\n<body>\n"
    ).encode()


_END = b"\n</body>\n</html>\n"


def _rechunk(parts: Iterable[bytes], size: int = CHUNK) -> Iterator[bytes]:
    """Join small parts into writes of about ``size`` bytes (fewer drains, less CPU)."""
    buffer: list[bytes] = []
    count = 0
    for part in parts:
        buffer.append(part)
        count += len(part)
        if count >= size:
            yield b"".join(buffer)
            buffer, count = [], 0
    if count:
        yield b"".join(buffer)


def _filler(total: int, unit: bytes) -> Iterator[bytes]:
    """``total`` bytes of ``unit`` repeated, in blocks of about CHUNK bytes."""
    block = unit * max(1, CHUNK // len(unit))
    while total >= len(block):
        yield block
        total -= len(block)
    if total:
        yield block[:total]


def _garbage(seed: int, size: int) -> bytes:
    return random.Random(seed).randbytes(size)


@functools.cache
def _deflate_zeros() -> tuple[bytes, bytes]:
    """(segment, tail): raw deflate of 1 MiB of zeros ending at a full-flush point (so copies
    of it in a row are a valid stream, each worth 1 MiB), and the final empty block."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    segment = compressor.compress(bytes(MIB)) + compressor.flush(zlib.Z_FULL_FLUSH)
    return segment, compressor.flush(zlib.Z_FINISH)


_GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"  # no name, mtime 0, OS unknown
_ZLIB_HEADER = b"\x78\xda"  # deflate, 32 KiB window, best compression
_CRC_POLY = 0xEDB88320


def _multmodp(a: int, b: int) -> int:
    """a·b modulo the (reflected) CRC-32 polynomial: zlib's multmodp; ``a`` is non-zero."""
    m = 1 << 31
    p = 0
    while True:
        if a & m:
            p ^= b
            if a & (m - 1) == 0:
                return p
        m >>= 1
        b = (b >> 1) ^ _CRC_POLY if b & 1 else b >> 1


def _crc32_combine(crc1: int, crc2: int, length2: int) -> int:
    """The CRC-32 of A+B from crc(A), crc(B) and len(B), as zlib's crc32_combine."""
    power, square, n = 1 << 31, 1 << 23, length2  # x^0 and x^8 (one byte of shift)
    while n:
        if n & 1:
            power = _multmodp(square, power)
        square = _multmodp(square, square)
        n >>= 1
    return _multmodp(power, crc1) ^ crc2


@functools.cache
def _crc32_zeros(mebibytes: int) -> int:
    """The CRC-32 of that many MiB of zeros, without running over gigabytes of them."""
    total = 0
    block, block_length = zlib.crc32(bytes(MIB)), MIB
    n = mebibytes
    while n:
        if n & 1:
            total = _crc32_combine(total, block, block_length)
        block = _crc32_combine(block, block, block_length)
        block_length *= 2
        n >>= 1
    return total


def _zero_segments(mebibytes: int | None) -> Iterator[bytes]:
    """The deflate segments for that many MiB of zeros (None: without end), in ~64 KB writes."""
    segment, _ = _deflate_zeros()
    per_write = max(1, CHUNK // len(segment))
    batch = segment * per_write
    if mebibytes is None:
        while True:
            yield batch
    full, rest = divmod(mebibytes, per_write)
    for _ in range(full):
        yield batch
    if rest:
        yield segment * rest


def _gzip_zeros(mebibytes: int | None) -> Iterator[bytes]:
    """A gzip member of that many MiB of zeros with a correct trailer (None: never ends)."""
    yield _GZIP_HEADER
    yield from _zero_segments(mebibytes)
    if mebibytes is not None:
        yield _deflate_zeros()[1]
        yield struct.pack("<II", _crc32_zeros(mebibytes), (mebibytes * MIB) & 0xFFFFFFFF)


def _gzip_zeros_length(mebibytes: int) -> int:
    segment, tail = _deflate_zeros()
    return len(_GZIP_HEADER) + mebibytes * len(segment) + len(tail) + 8


def _zlib_zeros(mebibytes: int) -> Iterator[bytes]:
    """A zlib stream of that many MiB of zeros; Adler-32 of n zeros is (n mod 65521)<<16 | 1."""
    yield _ZLIB_HEADER
    yield from _zero_segments(mebibytes)
    yield _deflate_zeros()[1]
    yield struct.pack(">I", (((mebibytes * MIB) % 65521) << 16) | 1)


@functools.cache
def _gzip_twice() -> bytes:
    """gzip(gzip(16 GiB of zeros)): the inner stream is 16 MB of repeated segments, which
    compress again to about 40 KB; built once (a tenth of a second) and kept."""
    mebibytes = 16 * 1024
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    out = [_GZIP_HEADER]
    crc = size = 0
    for piece in _rechunk(_gzip_zeros(mebibytes)):
        crc = zlib.crc32(piece, crc)
        size += len(piece)
        out.append(compressor.compress(piece))
    out.append(compressor.flush())
    out.append(struct.pack("<II", crc, size & 0xFFFFFFFF))
    return b"".join(out)


@functools.cache
def _png() -> bytes:
    """A real 64×64 PNG of seeded noise: binary bytes, NULs, nothing like HTML."""
    width = height = 64
    noise = random.Random(7)
    raw = b"".join(b"\x00" + noise.randbytes(width * 3) for _ in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data)))

    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


# ---------------------------------------------------------------- ordinary pages


_NORMAL_TITLES = {"/": "Hostile site: home", "/about": "About the hostile site"}


def _normal_links(path: str) -> list[str]:
    if path == "/about":
        return ["/", "/normal/1"]
    i = int(path.rsplit("/", 1)[1])
    return ["/", f"/normal/{i % 10 + 1}", f"/normal/{(i + 1) % 10 + 1}"]


async def _home(ex: _Exchange) -> None:
    parts = ["<h2>Ordinary pages</h2>", _links([*NORMAL_PAGES[1:], PRIVATE_PAGE])]
    groups: dict[str, list[Case]] = {}
    for case in _CASES:
        groups.setdefault(case.group, []).append(case)
    for group, cases in groups.items():
        parts.append(f"<h2>{group}</h2>\n<ul>")
        parts += [
            f"<li><a href=\"{html.escape(case.path)}\">{case.name}</a>: "
            f"{html.escape(case.behaviour)}</li>" for case in cases
        ]
        parts.append("</ul>")
    await ex.page(_page(_NORMAL_TITLES["/"], "\n".join(parts),
                        description="A website whose pages misbehave, for crawler tests."))


async def _normal(ex: _Exchange) -> None:
    title = _NORMAL_TITLES.get(ex.path) or f"Normal page {ex.path.rsplit('/', 1)[1]}"
    text = f"<p>An ordinary page ({html.escape(ex.path)}), with café and naïve text.</p>"
    await ex.page(_page(title, text + "\n" + _links(_normal_links(ex.path)),
                        description=f"{title}: an ordinary page of the hostile site."))


_ROUTES["/"] = _home
for _path in NORMAL_PAGES[1:]:
    _ROUTES[_path] = _normal


@_route(PRIVATE_PAGE)
async def _private(ex: _Exchange) -> None:
    await ex.page(_page("Private secret page", "<p>robots.txt asks crawlers not to come here.</p>"
                        + _links(["/"])))


async def _not_found(ex: _Exchange) -> None:
    await ex.page(_page("Not found", f"<p>No page at {html.escape(ex.path)}.</p>"), status=404)


async def _other_host(ex: _Exchange) -> None:
    """Every path of the other host (127.0.0.2): a small page; hits are counted."""
    await ex.page(_page("Another host", "<p>You left the hostile site for another host.</p>"))


# ---------------------------------------------------------------- robots.txt


@_route("/robots.txt")
async def _robots(ex: _Exchange) -> None:
    site = ex.site
    site.robots_requests += 1
    mode = site.robots
    text = "text/plain; charset=utf-8"
    if mode == "normal" or (mode == "500-then-ok" and site.robots_requests > 2):
        await ex.page(_ROBOTS_NORMAL, content_type=text)
    elif mode in ("503", "500-then-ok"):
        await ex.page(b"Service unavailable\n", status=503, content_type=text)
    elif mode == "404":
        await ex.page(b"Not found\n", status=404, content_type=text)
    elif mode == "rot13":
        await ex.page(_ROBOTS_NORMAL, content_type="text/plain; charset=rot13")
    elif mode == "base64":
        await ex.page(base64.b64encode(_ROBOTS_NORMAL) + b"\n",
                      content_type="text/plain; charset=base64")
    elif mode == "binary":
        await ex.page(_garbage(1, 2 * KIB), content_type="text/plain")
    elif mode == "redirect-loop":
        await ex.redirect("/robots.txt")
    elif mode == "huge":
        first, last = b"User-agent: *\n", b"Disallow: /normal/\n"
        comments = _filler(20 * MIB, b"# " + b"x" * 77 + b"\n")
        await ex.sized(itertools.chain([first], comments, [last]),
                       len(first) + 20 * MIB + len(last), content_type=text)
    elif mode == "slow":
        await ex.head(200, [("Content-Type", text), ("Content-Length", str(len(_ROBOTS_NORMAL)))])
        for byte in _ROBOTS_NORMAL:
            await ex.body(bytes([byte]))
            await asyncio.sleep(5)
    elif mode == "gzip-bomb":
        await ex.head(200, [("Content-Type", text), ("Content-Encoding", "gzip")])
        for piece in _gzip_zeros(None):
            await ex.body(piece)
    elif mode == "endless":
        await ex.head(200, [("Content-Type", text), ("Transfer-Encoding", "chunked")])
        await ex.body(b"e\r\nUser-agent: *\n\r\n")
        for n in itertools.count():
            line = b"Disallow: /endless/%d/\n" % n
            await ex.body(b"%x\r\n%b\r\n" % (len(line), line))
            await asyncio.sleep(0.01)


# ---------------------------------------------------------------- body


@_case("gzip-bomb", "/body/gzip-bomb", "body",
       "Content-Encoding: gzip, no Content-Length: a valid gzip stream of 5 GiB of zeros "
       "(about 5 MB on the wire).")
async def _gzip_bomb(ex: _Exchange) -> None:
    await ex.head(200, [("Content-Type", HTML), ("Content-Encoding", "gzip")])
    for piece in _gzip_zeros(5 * 1024):
        await ex.body(piece)


@_case("gzip-twice", "/body/gzip-twice", "body",
       "Content-Encoding: gzip, gzip: a gzip stream of a gzip stream of 16 GiB of zeros "
       "(about 40 KB on the wire), Content-Length set.")
async def _gzip_twice_case(ex: _Exchange) -> None:
    body = _gzip_twice()
    await ex.page(body, headers=[("Content-Encoding", "gzip, gzip")])


@_case("deflate-bomb", "/body/deflate-bomb", "body",
       "Content-Encoding: deflate, no Content-Length: a valid zlib stream of 5 GiB of zeros.")
async def _deflate_bomb(ex: _Exchange) -> None:
    await ex.head(200, [("Content-Type", HTML), ("Content-Encoding", "deflate")])
    for piece in _zlib_zeros(5 * 1024):
        await ex.body(piece)


@_case("gzip-1gib-valid", "/body/gzip-1gib", "body",
       "Content-Encoding: gzip with a correct Content-Length (about 1 MB): a complete, valid "
       "gzip stream (right CRC-32 and size) of 1 GiB of zeros.")
async def _gzip_1gib(ex: _Exchange) -> None:
    await ex.sized(_gzip_zeros(1024), _gzip_zeros_length(1024),
                   headers=[("Content-Encoding", "gzip")])


@_case("html-600mb", "/body/600mb", "body",
       "A 600 MiB HTML page without Content-Length (Connection: close): a valid start, then "
       "filler text.")
async def _html_600mb(ex: _Exchange) -> None:
    await ex.head(200, [("Content-Type", HTML)])
    await ex.body(_start("Six hundred megabytes") + b"<pre>\n")
    for piece in _filler(600 * MIB, b"All work and no play makes a crawler a dull crawler.\n"):
        await ex.body(piece)
    await ex.body(b"</pre>" + _END)


@_case("endless-chunked", "/body/endless-chunked", "body",
       "Transfer-Encoding: chunked, an HTML page whose chunks never stop, as fast as read.")
async def _endless_chunked(ex: _Exchange) -> None:
    await ex.head(200, [("Content-Type", HTML), ("Transfer-Encoding", "chunked")])
    start = _start("Endless chunked page")
    await ex.body(b"%x\r\n%b\r\n" % (len(start), start))
    block = b"<p>This page never ends.</p>\n" * 512
    frame = b"%x\r\n%b\r\n" % (len(block), block)
    while True:
        await ex.body(frame)


@_case("content-length-overstated", "/body/content-length-100-sends-10", "body",
       "Content-Length: 100, then 10 bytes, then the connection closes.")
async def _length_over(ex: _Exchange) -> None:
    await ex.head(200, [("Content-Type", HTML), ("Content-Length", "100")])
    await ex.body(b"<html>oop")  # 9 bytes + newline
    await ex.body(b"\n")


@_case("content-length-understated", "/body/content-length-10-sends-10000", "body",
       "Content-Length: 10, then 10,000 bytes of HTML, then the connection closes.")
async def _length_under(ex: _Exchange) -> None:
    await ex.head(200, [("Content-Type", HTML), ("Content-Length", "10")])
    start = _start("Content-Length understated")
    await ex.body(start + b"<p>" + b"x" * (10_000 - len(start) - 3))


def _encoded_garbage(name: str, path: str, encoding: str, body: Callable[[], bytes],
                     behaviour: str) -> None:
    @_case(name, path, "body", behaviour)
    async def handler(ex: _Exchange) -> None:
        await ex.page(body(), headers=[("Content-Encoding", encoding)])


_encoded_garbage("encoding-br-garbage", "/body/br-garbage", "br",
                 lambda: _garbage(2, 4 * KIB),
                 "Content-Encoding: br, the body 4 KB of seeded random bytes (not brotli).")
_encoded_garbage("encoding-zstd-garbage", "/body/zstd-garbage", "zstd",
                 lambda: b"\x28\xb5\x2f\xfd" + _garbage(3, 4 * KIB),
                 "Content-Encoding: zstd, the body the zstd magic number then 4 KB of seeded "
                 "random bytes.")
_encoded_garbage("encoding-unknown", "/body/x-nonsense", "x-nonsense",
                 lambda: _page("Unknown content encoding", "<p>Plain HTML, whatever it says.</p>"),
                 "Content-Encoding: x-nonsense (made up); the body is in fact plain HTML.")
_encoded_garbage("gzip-not-gzipped", "/body/gzip-not-gzipped", "gzip",
                 lambda: _page("Says gzip, is not", "<p>Plain HTML, despite the header.</p>"),
                 "Content-Encoding: gzip, but the body is plain uncompressed HTML (a common "
                 "misconfiguration).")


@_case("gzip-truncated", "/body/gzip-truncated", "body",
       "Content-Encoding: gzip, the body the first half of a gzipped page (no end, no "
       "trailer), Content-Length matching what is sent.")
async def _gzip_truncated(ex: _Exchange) -> None:
    text = _page("Truncated gzip", "<p>" + "Half of this page is missing. " * 200 + "</p>")
    whole = gzip.compress(text, mtime=0)
    await ex.page(whole[: len(whole) // 2], headers=[("Content-Encoding", "gzip")])


# ---------------------------------------------------------------- timing


@_case("slowloris-body", "/timing/slow-body", "timing",
       "Headers at once (no Content-Length), then the HTML body at 1 byte every 10 seconds, "
       "forever.")
async def _slow_body(ex: _Exchange) -> None:
    await ex.head(200, [("Content-Type", HTML)])
    stream = itertools.chain(_start("Slowloris body"),
                             itertools.cycle(b"<p>Still coming.</p>\n"))
    for byte in stream:
        await ex.body(bytes([byte]))
        await asyncio.sleep(10)


@_case("slow-headers", "/timing/slow-headers", "timing",
       "The status line and headers trickle at 1 byte per second, forever (headers never end).")
async def _slow_headers(ex: _Exchange) -> None:
    lines = (b"X-Trickle-%d: still-sending-headers\r\n" % n for n in itertools.count())
    stream = itertools.chain(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n",
                             itertools.chain.from_iterable(lines))
    for byte in stream:
        await ex.send(bytes([byte]))
        await asyncio.sleep(1)


@_case("no-answer", "/timing/no-answer", "timing",
       "Reads the request and never answers; the connection stays open until the client goes.")
async def _no_answer(ex: _Exchange) -> None:
    await ex.until_closed()


@_case("slow-page", "/timing/slow-page", "timing",
       "Answers after 3 seconds with a small valid page (slow but real: it belongs in an "
       "archive).")
async def _slow_page(ex: _Exchange) -> None:
    await asyncio.sleep(3)
    await ex.page(_page("Slow but real page", "<p>This page took 3 seconds.</p>"))


@_case("stall-mid-body", "/timing/stall-mid-body", "timing",
       "Content-Length: 4000, sends the first 1,000 bytes of the page, then stays silent with "
       "the connection open.")
async def _stall(ex: _Exchange) -> None:
    await ex.head(200, [("Content-Type", HTML), ("Content-Length", "4000")])
    start = _start("Stalled page")
    await ex.body(start + b"<p>" + b"s" * (1000 - len(start) - 3))
    await ex.until_closed()


# ---------------------------------------------------------------- content


def _content(name: str, path: str, behaviour: str, body: Callable[[], bytes],
             content_type: str = HTML) -> None:
    """A case that is one in-memory body (each is at most a few hundred KB)."""

    @_case(name, path, "content", behaviour)
    async def handler(ex: _Exchange) -> None:
        await ex.page(body(), content_type=content_type)


_ORDINARY = "<p>An ordinary page: café, naïve, 東京.</p>"
_content("charset-rot13", "/content/charset-rot13",
         "Content-Type: text/html; charset=rot13, the body an ordinary UTF-8 HTML page.",
         lambda: _page("Charset rot13", _ORDINARY), "text/html; charset=rot13")
_content("charset-base64", "/content/charset-base64",
         "Content-Type: text/html; charset=base64, the body an ordinary UTF-8 HTML page.",
         lambda: _page("Charset base64", _ORDINARY), "text/html; charset=base64")
_content("charset-unknown", "/content/charset-klingon",
         "Content-Type: text/html; charset=x-klingon, the body an ordinary UTF-8 HTML page.",
         lambda: _page("Charset x-klingon", _ORDINARY), "text/html; charset=x-klingon")
_content("utf16-says-utf8", "/content/utf16-bom",
         "The header says charset=utf-8; the body starts with a UTF-16LE BOM and is UTF-16LE.",
         lambda: b"\xff\xfe" + _page("UTF-16 page", _ORDINARY).decode().encode("utf-16-le"))
_content("invalid-utf8", "/content/invalid-utf8",
         "charset=utf-8, but title and body hold invalid UTF-8 (overlong, surrogate, lone "
         "continuation and truncated sequences, 0xFF) and NUL bytes.",
         lambda: _page("Invalid UTF-8 @ page", "<p>bad: @</p>").replace(
             b"@", b"\xc0\xaf \xed\xa0\x80 \x80 \xe2\x82 \xff \x00"))
_content("empty-200", "/content/empty", "Status 200, text/html, Content-Length: 0: no body.",
         lambda: b"")
_content("png-as-html", "/content/png-as-html",
         "Served as text/html, the body is a real PNG image (binary, NULs).", _png)
_content("image-bad-dimensions", "/content/img-dimensions",
         "A page with <img> elements whose height/width are nan, inf, 1e999, -1 and "
         "99999999999999999999.",
         lambda: _page("Images with absurd dimensions", "\n".join(
             f"<img src=\"data:image/gif;base64,R0lGODlhAQABAAAAACw=\" alt=\"{value}\" "
             f"{attribute}=\"{value}\">"
             for attribute, value in [("height", "nan"), ("width", "inf"), ("height", "1e999"),
                                      ("width", "-1"), ("width", "99999999999999999999")])))


@_case("jsonld-deep", "/content/jsonld-deep", "content",
       "An ordinary page with a title whose JSON-LD script is an array nested 100,000 deep.")
async def _jsonld_deep(ex: _Exchange) -> None:
    depth = 100_000
    head = _start("Deep JSON-LD", "<script type=\"application/ld+json\">")
    head = head.replace(b"</head>\n<body>\n", b"")  # the script stays in <head>
    tail = b"</script>\n</head>\n<body>\n<p>The JSON-LD is deep.</p>" + _END
    parts = [head, *_filler(depth, b"["), *_filler(depth, b"]"), tail]
    await ex.sized(parts, len(head) + 2 * depth + len(tail))


@_case("deep-divs", "/content/deep-divs", "content",
       "A page with a title and 100,000 nested <div> elements (about 1.1 MB).")
async def _deep_divs(ex: _Exchange) -> None:
    depth = 100_000
    start, middle = _start("Deeply nested divs"), b"<p>The bottom.</p>"
    parts = [start, *_filler(5 * depth, b"<div>"), middle, *_filler(6 * depth, b"</div>"), _END]
    await ex.sized(parts, len(start) + 11 * depth + len(middle) + len(_END))


@_case("title-10mb", "/content/title-10mb", "content",
       "A page whose <title> is 10 MiB of text.")
async def _title_10mb(ex: _Exchange) -> None:
    start = b"<!doctype html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>"
    end = b"</title>\n</head>\n<body>\n<p>The title is long.</p>" + _END
    parts = [start, *_filler(10 * MIB, b"Very long title. "), end]
    await ex.sized(parts, len(start) + 10 * MIB + len(end))


@_case("line-50mb", "/content/line-50mb", "content",
       "A page with a title and one 50 MiB line of text (no newline) inside a <p>.")
async def _line_50mb(ex: _Exchange) -> None:
    start, end = _start("One fifty-megabyte line") + b"<p>", b"</p>" + _END
    parts = [start, *_filler(50 * MIB, b"lorem ipsum dolor sit amet "), end]
    await ex.sized(parts, len(start) + 50 * MIB + len(end))


# ---------------------------------------------------------------- links


_FANOUT = 10_000


@_case("fanout-10k", "/fanout", "links",
       "A page linking 10,000 distinct new URLs /fanout/leaf/0 … /fanout/leaf/9999, each a "
       "tiny page with a title and no links.")
async def _fanout(ex: _Exchange) -> None:
    links = (b"<li><a href=\"/fanout/leaf/%d\">leaf %d</a></li>\n" % (n, n)
             for n in range(_FANOUT))
    await ex.chunked(itertools.chain([_start("Fan-out"), b"<ul>\n"], links, [b"</ul>", _END]))


@_prefix("/fanout/leaf/")
async def _fanout_leaf(ex: _Exchange) -> None:
    number = ex.path.removeprefix("/fanout/leaf/")
    if not number.isdigit() or int(number) >= _FANOUT or str(int(number)) != number:
        await _not_found(ex)
        return
    await ex.page(_page(f"Fan-out leaf {number}", "<p>A leaf.</p>"))


@_case("same-url-100k", "/links/same-url", "links",
       "A page with 100,000 links, all to /normal/1.")
async def _same_url(ex: _Exchange) -> None:
    links = _filler(100_000 * 29, b"<a href=\"/normal/1\">same</a>\n")
    await ex.chunked(itertools.chain([_start("One URL, 100,000 links")], links, [_END]))


def _spellings(port: int) -> Iterator[str]:
    """100,000 distinct spellings of /normal/7: origin × path form × fragment."""
    origins = ["", f"http://127.0.0.1:{port}", f"HTTP://127.0.0.1:{port}",
               f"hTtP://127.0.0.1:{port}", f"//127.0.0.1:{port}"]
    paths = ["/normal/7", "/./normal/7", "/normal/./7", "/normal//7", "//normal///7",
             "/%6Eormal/7", "/normal/%37", "/../normal/7", "/normal/x/../7"]
    for i in range(100_000):
        origin, path = origins[i % 5], paths[(i // 5) % 9]
        if origin == "" and path.startswith("//"):
            path = "/." + path  # a bare //normal would name a host called "normal"
        fragment = i // 45
        yield origin + path + ("" if fragment == 0 else "#" if fragment == 1 else f"#s{fragment}")


@_case("spellings-100k", "/links/spellings", "links",
       "A page with 100,000 links that are all /normal/7 spelled differently: scheme case, "
       "absolute/relative/scheme-relative, ./ and ../ segments, doubled slashes, percent-encoded "
       "letters, fragments.")
async def _spellings_case(ex: _Exchange) -> None:
    links = (f"<a href=\"{html.escape(href)}\">7</a>\n".encode()
             for href in _spellings(ex.site.port))
    await ex.chunked(itertools.chain([_start("100,000 spellings of one URL")], links, [_END]))


def _long_link(name: str, path: str, length: int, letter: bytes, behaviour: str) -> None:
    @_case(name, path, "links", behaviour)
    async def handler(ex: _Exchange) -> None:
        target = _filler(length - len(b"/long/"), letter)
        parts = itertools.chain([_start(f"A link of {length} characters"), b"<a href=\"/long/"],
                                target, [b"\">a long link</a>", _END])
        await ex.chunked(parts)


_long_link("url-70k", "/links/long-url", 70_000, b"a",
           "A page linking one URL whose path is 70,000 characters (/long/aaa…); any /long/ "
           "path answers 200 with a small page.")
_long_link("url-3mb", "/links/huge-url", 3_000_000, b"b",
           "A page linking one URL whose path is 3,000,000 characters (/long/bbb…); any /long/ "
           "path answers 200 with a small page.")


@_prefix("/long/")
async def _long_target(ex: _Exchange) -> None:
    await ex.page(_page("Long URL target", f"<p>You asked for {len(ex.path)} characters.</p>"))


@_case("relative-trap", "/trap/relative/", "links",
       "Every path under /trap/relative/ answers the same page, which links a/ and b/ "
       "relatively: an endless, exponentially growing tree of URLs.")
async def _relative_trap(ex: _Exchange) -> None:
    await ex.page(_page("Relative link trap", "<p>Same page at every depth.</p>"
                        + _links(["a/", "b/"])))


_prefix("/trap/relative/")(_relative_trap)


@_case("odd-schemes", "/links/odd-schemes", "links",
       "A page of links that are not ordinary http links: javascript:, mailto:, tel:, data:, "
       "file:, ftp:, ws:, about:, chrome:, view-source:, blob:, empty, https: to the plain-"
       "HTTP port, bad ports, http:// with no host, an unclosed IPv6 bracket.")
async def _odd_schemes(ex: _Exchange) -> None:
    port = ex.site.port
    hrefs = ["javascript:alert(1)", "mailto:someone@example.invalid", "tel:+10000000000",
             "data:text/html,<h1>hi</h1>", "file:///etc/passwd", "ftp://127.0.0.1/",
             f"ws://127.0.0.1:{port}/", "about:blank", "chrome://settings",
             f"view-source:http://127.0.0.1:{port}/", f"blob:http://127.0.0.1:{port}/x", "",
             "#", " ", f"https://127.0.0.1:{port}/normal/1", f"http://127.0.0.1:{port}:{port}/",
             "http://127.0.0.1:99999/", "http://", "http:///normal/1", "http://[::1"]
    await ex.page(_page("Links with odd schemes", _links(hrefs)))


@_case("base-other-host", "/links/base-other-host", "links",
       "A page whose <base href> is the other host (127.0.0.2), so its relative links "
       "(normal/1, about) point off the site.")
async def _base_other(ex: _Exchange) -> None:
    await ex.page(_page("Base href to another host", _links(["normal/1", "about"]),
                        head=f"<base href=\"{html.escape(ex.site.other_url)}\">\n"))


# ---------------------------------------------------------------- script (render only)


def _script(name: str, path: str, title: str, behaviour: str, script: Callable[[_Site], str],
            *, in_head: bool = False, head: str = "", extra: str = "") -> None:
    """A page that is harmless without JavaScript and misbehaves with it."""

    @_case(name, path, "script", behaviour, render_only=True)
    async def handler(ex: _Exchange) -> None:
        code = f"<script>\n{script(ex.site)}\n</script>\n"
        body = f"<p>Without JavaScript this is a harmless page.</p>\n{extra}{_links(['/'])}"
        if in_head:
            await ex.page(_page(title, body, head=head + code))
        else:
            await ex.page(_page(title, body + "\n" + code, head=head))


def _on_load(code: str) -> str:
    return f"window.addEventListener('load', () => {{\n{code}\n}});"


_script("push-state-flood", "/script/push-state", "pushState flood",
        "After load, calls history.pushState 100,000 times in a loop.",
        lambda site: _on_load(
            "for (let i = 0; i < 100000; i++) history.pushState({i}, '', '?state=' + i);"))
_script("memory-hog", "/script/memory-hog", "Memory hog",
        "After load, allocates 100 MB typed arrays without end, filled so they are resident, "
        "kept in a global array.",
        lambda site: _on_load(
            "window.hog = [];\n"
            "const grow = () => { const a = new Uint8Array(100 * 1024 * 1024); a.fill(1);\n"
            "  window.hog.push(a); setTimeout(grow, 0); };\ngrow();"))
_script("subresource-bomb", "/script/subresource-bomb", "Sub-resource gzip bomb",
        "Loads /script/bomb (Content-Encoding: gzip, endless zeros) as an <img>, a "
        "<script src> and a fetch().",
        lambda site: "fetch('/script/bomb').then(r => r.arrayBuffer()).catch(() => {});",
        head="<script src=\"/script/bomb\"></script>\n",
        extra="<img src=\"/script/bomb\" alt=\"bomb\">\n")
_script("navigate-same-site", "/script/navigate-same-site", "Navigates to a page of the site",
        "100 ms after load, sets location.href to /normal/8.",
        lambda site: _on_load("setTimeout(() => { location.href = '/normal/8'; }, 100);"))
_script("navigate-other-origin", "/script/navigate-other-origin", "Navigates to another origin",
        "100 ms after load, sets location.href to the other host (127.0.0.2) /from-script.",
        lambda site: _on_load(
            f"setTimeout(() => {{ location.href = {json.dumps(site.other_url + 'from-script')};"
            " }, 100);"))
_script("navigate-in-head", "/script/navigate-in-head", "Navigates before load",
        "An inline script in <head> sets location.href to /normal/9 at once, before load.",
        lambda site: "location.href = '/normal/9';", in_head=True)
_script("location-replace", "/script/location-replace", "location.replace during load",
        "On DOMContentLoaded (while the page is still loading) calls location.replace "
        "('/normal/10').",
        lambda site: "document.addEventListener('DOMContentLoaded', () => "
                     "location.replace('/normal/10'));")
_script("meta-refresh", "/script/meta-refresh", "Meta refresh",
        "A <meta http-equiv=\"refresh\" content=\"0; url=/normal/2\"> (no script needed, but "
        "only a browser acts on it).",
        lambda site: "", head="<meta http-equiv=\"refresh\" content=\"0; url=/normal/2\">\n")
_script("popup-loop", "/script/popups", "Popup loop",
        "After load, calls window.open('/normal/4?popup') every 10 ms, forever.",
        lambda site: _on_load("setInterval(() => window.open('/normal/4?popup'), 10);"))
_script("cpu-loop", "/script/cpu-loop", "CPU loop", "After load, runs while (true) {}.",
        lambda site: _on_load("while (true) {}"))
_script("alert-loop", "/script/alert-loop", "Alert loop",
        "After load, calls alert() in an endless loop.",
        lambda site: _on_load("for (;;) alert('hostile');"))
_script("fetch-flood", "/script/fetch-flood", "Fetch flood",
        "After load, fetches /script/ping?n=0, 1, 2 … one after another, forever (each a 204).",
        lambda site: _on_load(
            "(async () => { for (let i = 0; ; i++) {\n"
            "  try { await fetch('/script/ping?n=' + i); } catch (e) {} } })();"))
_script("beforeunload-trap", "/script/beforeunload", "Beforeunload trap",
        "Registers a beforeunload handler that asks the user to stay, blocking navigation away.",
        lambda site: "window.addEventListener('beforeunload', (e) => {\n"
                     "  e.preventDefault(); e.returnValue = 'Stay!'; return 'Stay!'; });")


@_route("/script/bomb")
async def _script_bomb(ex: _Exchange) -> None:
    """The sub-resource of subresource-bomb: an endless gzip stream of zeros."""
    await ex.head(200, [("Content-Type", "application/octet-stream"),
                        ("Content-Encoding", "gzip")])
    for piece in _gzip_zeros(None):
        await ex.body(piece)


@_route("/script/ping")
async def _ping(ex: _Exchange) -> None:
    await ex.head(204, close=not ex.keep_alive)  # a 204 has neither body nor Content-Length
    ex.reusable = ex.keep_alive


# ---------------------------------------------------------------- url


def _url_links(name: str, path: str, title: str, behaviour: str,
               hrefs: Callable[[_Site], list[str]]) -> None:
    @_case(name, path, "url", behaviour)
    async def handler(ex: _Exchange) -> None:
        await ex.page(_page(title, _links(hrefs(ex.site))))


def _fullwidth(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if c.isdigit() else c for c in text)


_url_links("backslash-host", "/url/backslash", "Backslash in the authority",
           "Links http://127.0.0.1:PORT\\@127.0.0.2:PORT2/ : a browser's host is 127.0.0.1 "
           "(path /@127.0.0.2:PORT2/, a 404), other parsers go to the other host.",
           lambda site: [f"http://127.0.0.1:{site.port}\\@127.0.0.2:{site.other_port}/"])
_url_links("fullwidth-host", "/url/fullwidth-host", "Fullwidth host",
           "Links http://１２７.０.０.１:PORT/normal/3 (fullwidth digits, NFKC maps them to "
           "127.0.0.1).",
           lambda site: [f"http://{_fullwidth('127.0.0.1')}:{site.port}/normal/3"])
_url_links("octal-host", "/url/octal-host", "Octal host",
           "Links http://0177.0.0.1:PORT/normal/4 (octal for 127.0.0.1).",
           lambda site: [f"http://0177.0.0.1:{site.port}/normal/4"])
_url_links("decimal-host", "/url/decimal-host", "Single-number host",
           "Links http://2130706433:PORT/normal/5 (127.0.0.1 as one number).",
           lambda site: [f"http://2130706433:{site.port}/normal/5"])
_url_links("uppercase-host", "/url/uppercase-host", "Upper-case host",
           "Links HTTP://0X7F.0.0.1:PORT/normal/6 and HTTP://LOCALHOST:PORT/normal/6 (scheme "
           "and host in upper case).",
           lambda site: [f"HTTP://0X7F.0.0.1:{site.port}/normal/6",
                         f"HTTP://LOCALHOST:{site.port}/normal/6"])
_url_links("trailing-dot-host", "/url/trailing-dot-host", "Host with a trailing dot",
           "Links http://127.0.0.1.:PORT/normal/7.",
           lambda site: [f"http://127.0.0.1.:{site.port}/normal/7"])
_url_links("userinfo", "/url/userinfo", "Credentials in the URL",
           "Links http://user:secret@127.0.0.1:PORT/normal/8 (userinfo in the authority).",
           lambda site: [f"http://user:secret@127.0.0.1:{site.port}/normal/8"])

_UNICODE_TARGET = "/\u00fcn\u00efc\u00f6d\u00e9-target"  # /ünïcödé-target


@_case("raw-utf8-location", "/url/raw-utf8-redirect", "url",
       "302 whose Location is raw UTF-8 bytes /ünïcödé-target (not percent-encoded); the "
       "target exists at /%C3%BCn%C3%AFc%C3%B6d%C3%A9-target.")
async def _raw_utf8(ex: _Exchange) -> None:
    await ex.redirect(_UNICODE_TARGET)


@_route(_UNICODE_TARGET)
async def _unicode_target(ex: _Exchange) -> None:
    await ex.page(_page("Unicode redirect target", "<p>ünïcödé</p>"))


@_case("redirect-other-host", "/url/redirect-other-host", "url",
       "302 to the other host: http://127.0.0.2:PORT2/redirected.")
async def _redirect_other(ex: _Exchange) -> None:
    await ex.redirect(ex.site.other_url + "redirected")


@_case("redirect-port-1", "/url/redirect-port-1", "url",
       "302 to http://127.0.0.1:1/ (a closed port).")
async def _redirect_port_1(ex: _Exchange) -> None:
    await ex.redirect("http://127.0.0.1:1/")


# ---------------------------------------------------------------- protocol


def _raw(name: str, path: str, behaviour: str, head: Callable[[int], bytes],
         body: bytes = b"") -> None:
    """A case that is a fixed head (made from the body length) and body, then a close."""

    @_case(name, path, "protocol", behaviour)
    async def handler(ex: _Exchange) -> None:
        await ex.send(head(len(body)))
        if body:
            await ex.body(body)


_BODY = _page("Protocol case", "<p>A small page after a broken head.</p>")

_raw("garbage-status", "/protocol/garbage-status",
     "Status line HTTP/1.1 abc OK, then ordinary headers and a page.",
     lambda n: b"HTTP/1.1 abc OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n"
               b"Connection: close\r\n\r\n" % n, _BODY)
_raw("http09", "/protocol/http09", "HTTP/0.9 style: no status line or headers, just HTML, "
     "then close.", lambda n: b"", _page("HTTP/0.9 page", "<p>No status line.</p>"))
_raw("location-nul", "/protocol/location-nul",
     "302 whose Location holds a NUL byte: /normal/1<NUL>/evil.",
     lambda n: b"HTTP/1.1 302 Found\r\nLocation: /normal/1\x00/evil\r\nContent-Length: 0\r\n"
               b"Connection: close\r\n\r\n")
_raw("location-cr", "/protocol/location-cr",
     "302 whose Location holds a bare CR followed by a header: /normal/2<CR>Set-Cookie: "
     "injected=1.",
     lambda n: b"HTTP/1.1 302 Found\r\nLocation: /normal/2\rSet-Cookie: injected=1\r\n"
               b"Content-Length: 0\r\nConnection: close\r\n\r\n")
_raw("conflicting-lengths", "/protocol/conflicting-lengths",
     "Two Content-Length headers that disagree (10 and the true length), then close.",
     lambda n: b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 10\r\n"
               b"Content-Length: %d\r\nConnection: close\r\n\r\n" % n, _BODY)
_raw("chunked-and-length", "/protocol/chunked-and-length",
     "Both Transfer-Encoding: chunked and Content-Length: 5, with a valid chunked body.",
     lambda n: b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n"
               b"Content-Length: 5\r\nConnection: close\r\n\r\n%x\r\n" % len(_BODY),
     _BODY + b"\r\n0\r\n\r\n")
_raw("bad-chunk-size", "/protocol/bad-chunk-size",
     "Chunked: a first valid chunk of HTML, then a chunk size of \"zz\" and garbage, then close.",
     lambda n: b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n"
               b"Connection: close\r\n\r\n%x\r\n" % len(_BODY),
     _BODY + b"\r\nzz\r\nnot a chunk\r\n")
_raw("malformed-headers", "/protocol/malformed-headers",
     "Header lines without a colon, an obs-fold continuation, a space before a colon and an "
     "empty name, around ordinary headers and a page.",
     lambda n: b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nThis line has no colon\r\n"
               b"X-Folded: first part\r\n  continued on an obs-fold line\r\n"
               b"X-Space-Before-Colon : value\r\n: empty name\r\nContent-Length: %d\r\n"
               b"Connection: close\r\n\r\n" % n, _BODY)


@_case("many-headers", "/protocol/many-headers", "protocol",
       "10,000 header lines (X-Header-0 … X-Header-9999), then a small page.")
async def _many_headers(ex: _Exchange) -> None:
    await ex.send(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n")
    lines = (b"X-Header-%d: value %d\r\n" % (n, n) for n in range(10_000))
    for piece in _rechunk(lines):
        await ex.send(piece)
    await ex.send(b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(_BODY))
    await ex.body(_BODY)


@_case("huge-header", "/protocol/huge-header", "protocol",
       "One header, X-Huge, whose value is 1 MiB, then a small page.")
async def _huge_header(ex: _Exchange) -> None:
    await ex.send(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-Huge: ")
    for piece in _filler(MIB, b"a"):
        await ex.send(piece)
    await ex.send(b"\r\nContent-Length: %d\r\nConnection: close\r\n\r\n" % len(_BODY))
    await ex.body(_BODY)


@_case("endless-headers", "/protocol/endless-headers", "protocol",
       "Header lines of 1 KB each, sent forever as fast as they are read (the head never ends).")
async def _endless_headers(ex: _Exchange) -> None:
    await ex.send(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n")
    for n in itertools.count():
        prefix = b"X-Endless-%d: " % n
        await ex.send(prefix + b"e" * (1022 - len(prefix)) + b"\r\n")


@_case("endless-continue", "/protocol/endless-continue", "protocol",
       "Interim responses HTTP/1.1 100 Continue, one every 10 ms, forever (no final response).")
async def _endless_continue(ex: _Exchange) -> None:
    while True:
        await ex.send(b"HTTP/1.1 100 Continue\r\n\r\n")
        await asyncio.sleep(0.01)


@_case("empty-reply", "/protocol/empty-reply", "protocol",
       "Reads the request and closes the connection without sending a byte.")
async def _empty_reply(ex: _Exchange) -> None:
    return


@_case("connection-reset", "/protocol/reset", "protocol",
       "Reads the request and resets the connection (TCP RST, SO_LINGER 0) without answering.")
async def _reset(ex: _Exchange) -> None:
    sock = ex.writer.get_extra_info("socket")
    if sock is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    ex.writer.transport.abort()


# ---------------------------------------------------------------- redirect


def _redirect(name: str, path: str, location: Callable[[_Site], str], behaviour: str,
              status: int = 302) -> None:
    @_case(name, path, "redirect", behaviour)
    async def handler(ex: _Exchange) -> None:
        await ex.redirect(location(ex.site), status)


_CHAIN = 100
_redirect("redirect-loop", "/redirect/loop-a", lambda site: "/redirect/loop-b",
          "302 to /redirect/loop-b, which 302s back to /redirect/loop-a.")
_route("/redirect/loop-b")(
    lambda ex: ex.redirect("/redirect/loop-a"))
_redirect("redirect-self", "/redirect/self", lambda site: "/redirect/self",
          "301 to itself.", 301)
_redirect("redirect-chain-100", "/redirect/chain/0", lambda site: "/redirect/chain/1",
          "A chain of 100 302 hops (/redirect/chain/0 … /99) ending on the real page "
          "/redirect/chain-end.")
_redirect("redirect-endless-unique", "/redirect/forever/0", lambda site: "/redirect/forever/1",
          "302 from /redirect/forever/N to /redirect/forever/N+1, without end: never a loop.")
_redirect("redirect-file", "/redirect/file", lambda site: "file:///etc/passwd",
          "302 to file:///etc/passwd.")
_redirect("redirect-data", "/redirect/data", lambda site: "data:text/html,hi",
          "302 to data:text/html,hi.")
_redirect("redirect-javascript", "/redirect/javascript", lambda site: "javascript:alert(1)",
          "302 to javascript:alert(1).")
_redirect("redirect-closed-port", "/redirect/closed-port",
          lambda site: f"http://127.0.0.1:{site.closed_port}/normal/1",
          "302 to another port of 127.0.0.1, found free at start and left closed.")


@_prefix("/redirect/chain/")
async def _chain(ex: _Exchange) -> None:
    number = ex.path.removeprefix("/redirect/chain/")
    if not number.isdigit() or int(number) >= _CHAIN:
        await _not_found(ex)
    elif int(number) == _CHAIN - 1:
        await ex.redirect("/redirect/chain-end")
    else:
        await ex.redirect(f"/redirect/chain/{int(number) + 1}")


@_route("/redirect/chain-end")
async def _chain_end(ex: _Exchange) -> None:
    await ex.page(_page("End of the redirect chain", "<p>100 hops to get here.</p>"))


@_prefix("/redirect/forever/")
async def _forever(ex: _Exchange) -> None:
    number = ex.path.removeprefix("/redirect/forever/")
    if not number.isdigit():
        await _not_found(ex)
    else:
        await ex.redirect(f"/redirect/forever/{int(number) + 1}")


@_case("redirect-no-location", "/redirect/no-location", "redirect",
       "302 with no Location header and a small HTML body.")
async def _no_location(ex: _Exchange) -> None:
    await ex.page(_page("Redirect to nowhere", "<p>302 without a Location.</p>"), status=302)


@_case("refresh-header", "/redirect/refresh-header", "redirect",
       "200 with the header Refresh: 0; url=/normal/5 and a small page.")
async def _refresh_header(ex: _Exchange) -> None:
    await ex.page(_page("Refresh header", "<p>Refresh: 0; url=/normal/5</p>"),
                  headers=[("Refresh", "0; url=/normal/5")])


CASES: tuple[Case, ...] = tuple(_CASES)


# ---------------------------------------------------------------- the server


async def _read_request(reader: asyncio.StreamReader
                        ) -> tuple[str, str, str, dict[str, str]] | int | None:
    """(method, target, version, headers), or a status to refuse with, or None at EOF."""
    lines: list[bytes] = []
    total = 0
    while True:
        try:
            line = await reader.readuntil(b"\n")
        except asyncio.IncompleteReadError:
            return None
        except asyncio.LimitOverrunError:
            return 431
        total += len(line)
        if total > _REQUEST_LIMIT or len(lines) > _MAX_HEADER_LINES:
            return 431
        line = line.rstrip(b"\r\n")
        if not line:
            if lines:
                break
            continue  # blank lines before a request line are allowed
        lines.append(line)
    parts = lines[0].split(b" ")
    if len(parts) != 3 or not parts[2].startswith(b"HTTP/1."):
        return 400
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, colon, value = line.partition(b":")
        if colon:
            headers[name.strip().lower().decode("latin-1")] = value.strip().decode("latin-1")
    method, target, version = (part.decode("utf-8", "surrogateescape") for part in parts)
    return method, target, version, headers


def _path_of(target: str) -> str:
    """The path and query of a request target (origin-form, or absolute-form as to a proxy)."""
    if target.lower().startswith(("http://", "https://")):
        rest = target.split("://", 1)[1]
        slash = rest.find("/")
        return rest[slash:] if slash >= 0 else "/"
    return target


def _quiet(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """Say nothing about clients that went away; anything else is a bug of this module."""
    if isinstance(context.get("exception"), OSError | asyncio.IncompleteReadError):
        return
    loop.default_exception_handler(context)


class HostileSite:
    """The hostile site and the other host, served from a daemon thread while in ``with``.

    ``robots`` picks how /robots.txt behaves (one of ROBOTS_MODES). ``url`` and ``other_url``
    are set once started; ``hits(path)`` counts requests by path-with-query as requested.
    """

    def __init__(self, robots: str = "normal") -> None:
        if robots not in ROBOTS_MODES:
            raise ValueError(f"unknown robots mode {robots!r}; one of {', '.join(ROBOTS_MODES)}")
        self.robots = robots
        self.url = ""
        self.other_url = ""
        self._hits: Counter[str] = Counter()
        self._other_hits = 0
        self._lock = threading.Lock()
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._site: _Site | None = None

    def __enter__(self) -> HostileSite:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop(raise_on_timeout=exc_info[0] is None)

    def hits(self, path: str) -> int:
        """How many requests (any method) reached ``path`` (path with query, as requested)."""
        with self._lock:
            return self._hits.get(path, 0)

    def other_hits(self) -> int:
        """How many requests the other host (127.0.0.2) received, on any path."""
        with self._lock:
            return self._other_hits

    def start(self) -> None:
        """Start serving; returns once both listeners accept connections."""
        if self._thread is not None:
            raise RuntimeError("the hostile site is already started")
        self._thread = threading.Thread(target=self._run, name="hostile-site", daemon=True)
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("the hostile site did not start within 10 s")
        if self._error is not None:
            self._thread.join(5)
            raise self._error

    def stop(self, *, raise_on_timeout: bool = True) -> None:
        """Close the listeners, cancel every connection (endless ones too), join the thread."""
        thread, loop, stop = self._thread, self._loop, self._stop
        if thread is None:
            return
        if loop is not None and stop is not None and thread.is_alive():
            with contextlib.suppress(RuntimeError):  # the loop may be closing already
                loop.call_soon_threadsafe(stop.set)
        thread.join(5)
        if thread.is_alive() and raise_on_timeout:
            raise RuntimeError("the hostile site did not stop within 5 s")
        self._thread = None

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        loop.set_exception_handler(_quiet)
        self._loop = loop
        try:
            loop.run_until_complete(self._serve())
        except BaseException as error:  # reported to start() if it happened while starting
            self._error = error
        finally:
            self._ready.set()
            with contextlib.suppress(Exception):
                loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()

    async def _serve(self) -> None:
        self._stop = asyncio.Event()
        main = await asyncio.start_server(functools.partial(self._connection, other=False),
                                          "127.0.0.1", 0, limit=_REQUEST_LIMIT)
        try:
            other = await asyncio.start_server(functools.partial(self._connection, other=True),
                                               "127.0.0.2", 0, limit=_REQUEST_LIMIT)
        except BaseException:
            main.close()
            raise
        port = main.sockets[0].getsockname()[1]
        other_port = other.sockets[0].getsockname()[1]
        self._site = _Site(port=port, other_port=other_port, closed_port=_closed_port(),
                           robots=self.robots)
        self.url, self.other_url = self._site.url, self._site.other_url
        self._ready.set()
        await self._stop.wait()
        main.close()
        other.close()
        while self._tasks:
            tasks = list(self._tasks)
            for task in tasks:
                task.cancel()
            await asyncio.wait(tasks, timeout=3)
            self._tasks.difference_update(tasks)
        await main.wait_closed()
        await other.wait_closed()

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                          *, other: bool) -> None:
        """One client connection: requests in turn while the answers allow keep-alive."""
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        # A cancelled task must end normally: Python 3.11.7+ logs a traceback for a
        # client_connected_cb task that ends in any exception, CancelledError included.
        try:
            with contextlib.suppress(OSError, asyncio.IncompleteReadError,
                                     asyncio.LimitOverrunError, _HeadOnly):
                await self._requests(reader, writer, other)  # a client leaving, a HEAD ending
            writer.close()  # flushes what is still buffered (a HEAD's head, a 431...)
            await asyncio.wait_for(writer.wait_closed(), 5)
        except (OSError, asyncio.CancelledError, TimeoutError):
            pass  # the client left, the site is stopping, or the client does not read
        finally:
            writer.transport.abort()  # no-op once closed; drops what a stuck client left
            self._tasks.discard(task)

    async def _requests(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                        other: bool) -> None:
        while True:
            request = await _read_request(reader)
            if request is None:
                return
            if isinstance(request, int):
                status = HTTPStatus(request)
                writer.write(b"HTTP/1.1 %d %s\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                             % (status.value, status.phrase.encode()))
                await writer.drain()
                return
            method, target, version, headers = request
            key = _path_of(target)
            with self._lock:
                if other:
                    self._other_hits += 1
                else:
                    self._hits[key] += 1
            length = headers.get("content-length", "0")
            if "transfer-encoding" in headers or not length.isdigit() \
                    or int(length) > _MAX_REQUEST_BODY:
                writer.write(b"HTTP/1.1 411 Length Required\r\nContent-Length: 0\r\n"
                             b"Connection: close\r\n\r\n")
                await writer.drain()
                return
            if int(length):
                await reader.readexactly(int(length))
            path = _normalise(key.split("?", 1)[0].split("#", 1)[0])
            assert self._site is not None
            exchange = _Exchange(self._site, reader, writer, method, target, path, version,
                                 headers)
            handler = _other_host if other else _lookup(path)
            await handler(exchange)
            if not exchange.reusable:
                return


def _closed_port() -> int:
    """A port of 127.0.0.1 that was free a moment ago and that nothing here will listen on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def main(argv: list[str] | None = None) -> int:
    """Serve until Ctrl-C, for trying a crawler (or a browser) by hand."""
    parser = argparse.ArgumentParser(prog="python -m corpora.hostile_site", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--robots", default="normal", choices=ROBOTS_MODES,
                        help="how /robots.txt behaves (default: normal)")
    options = parser.parse_args(argv)
    with HostileSite(robots=options.robots) as site:
        print(f"hostile site: {site.url}  (other host: {site.other_url}, robots: "
              f"{options.robots}); Ctrl-C to stop", flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            print("stopping", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
