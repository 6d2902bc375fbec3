"""The two codecs of ``page_html_blobs`` (docs/archive-format.md), both directions.

``hash`` is the SHA-256 of the raw HTML as UTF-8, so identical snapshots share a row;
``zstd`` bodies are one zstd frame, ``none`` bodies the UTF-8 bytes. Encoding lives here
beside decoding so the writer and the readers cannot drift.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import zstandard

from ..exceptions import NotAnArchive

CODECS = ("zstd", "none")
ZSTD_LEVEL = 3
"""zstd's default level: upstream uses Node's default; any level decodes the same."""


@dataclass(frozen=True)
class EncodedHtml:
    hash: bytes
    body: bytes
    codec: str
    size_raw: int
    size_stored: int


def encode_html(html: str, codec: str = "zstd") -> EncodedHtml:
    """Encode one snapshot for storage."""
    raw = html.encode("utf-8")
    if codec == "zstd":
        body = zstandard.ZstdCompressor(level=ZSTD_LEVEL).compress(raw)
    elif codec == "none":
        body = raw
    else:
        raise ValueError(f"Unknown page_html_blobs.codec: {codec}")
    return EncodedHtml(hashlib.sha256(raw).digest(), body, codec, len(raw), len(body))


DECODE_LIMIT = 32 * 1024 * 1024
"""Most bytes of HTML ever decompressed for one answer. A stranger's archive can hold a
zstd frame of 10 GiB of zeros in a few kilobytes; real pages are far below this."""


def decode_html(body: bytes, codec: str, *, limit: int = DECODE_LIMIT) -> tuple[str, bool]:
    """Decode a stored body, at most ``limit`` bytes of it; return ``(html, complete)``.

    An unknown codec, a body that is not bytes or a broken frame is an archive error.
    """
    if isinstance(body, str):  # a TEXT value where a BLOB belongs: take it as written
        body = body.encode("utf-8", errors="surrogatepass")
    if not isinstance(body, bytes | bytearray | memoryview):
        raise NotAnArchive("Stored HTML is not a blob (page_html_blobs.body).")
    if codec == "none":
        raw = bytes(body[: limit + 1])
    elif codec == "zstd":
        data = bytes(body)
        try:
            whole = _whole_frame(data, limit)
            raw = whole if whole is not None else \
                zstandard.ZstdDecompressor().stream_reader(data).read(limit + 1)
        except zstandard.ZstdError as exc:
            raise NotAnArchive(f"Stored HTML is not a valid zstd frame ({exc}).") from exc
    else:
        raise NotAnArchive(f"Unknown page_html_blobs.codec: {str(codec)[:40]}")
    complete = len(raw) <= limit
    return raw[:limit].decode("utf-8", errors="replace"), complete


def _whole_frame(data: bytes, limit: int) -> bytes | None:
    """A frame that declares its size, at most ``limit``, decompressed at once (5x faster
    than a reader asked for ``limit + 1`` bytes); None otherwise — an undeclared size, a
    larger one, or a frame that does not decompress whole, which the reader then reads
    as it always has."""
    try:
        size = zstandard.frame_content_size(data)  # -1: the frame does not say
        return zstandard.ZstdDecompressor().decompress(data) if 0 <= size <= limit else None
    except zstandard.ZstdError:
        return None
