"""The two codecs of ``page_html_blobs`` (ARCHIVE-FORMAT.md §4.11), both directions.

``hash`` is the SHA-256 of the raw HTML as UTF-8, so identical snapshots share a row;
``zstd`` bodies are one zstd frame, ``none`` bodies the UTF-8 bytes. Encoding lives here
beside decoding so the writer and the readers cannot drift.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import zstandard

from .exceptions import NotAnArchive

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


def decode_html(body: bytes, codec: str) -> str:
    """Decode a stored body; an unknown codec or a broken frame is an archive error."""
    if codec == "none":
        return bytes(body).decode("utf-8", errors="replace")
    if codec == "zstd":
        try:
            raw = zstandard.ZstdDecompressor().decompressobj().decompress(bytes(body))
        except zstandard.ZstdError as exc:
            raise NotAnArchive(f"Stored HTML is not a valid zstd frame ({exc}).") from exc
        return raw.decode("utf-8", errors="replace")
    raise NotAnArchive(f"Unknown page_html_blobs.codec: {codec}")
