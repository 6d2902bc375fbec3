"""Reading the stored HTML of many pages: the one way every pass over snapshots reads
them (template clusters, ``search-html``, ``match-selector``).

Snapshots are fetched a chunk of pages at a time (one short statement each: the query
deadline is per statement), each decoded at most ``limit`` bytes (a zstd frame of a few
kilobytes can hold gigabytes). A snapshot that cannot be decoded (a stranger's broken
frame, an unknown codec) is passed over, not fatal.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from ..exceptions import NotAnArchive
from .html_codec import decode_html
from .opening import Archive

CHUNK = 200


def stored(a: Archive) -> bool:
    """Whether the archive stores HTML snapshots at all."""
    return a.has_table("page_html_ref") and a.has_table("page_html_blobs")


def read(a: Archive, listed: Sequence[tuple[int, str, Any]], *, limit: int
         ) -> Iterator[tuple[int, str, str, bool]]:
    """``(id, url, html, complete)`` for ``(id, url, hash)`` rows, in their order;
    ``complete`` is false for a snapshot cut at ``limit`` bytes."""
    for start in range(0, len(listed), CHUNK):
        chunk = listed[start:start + CHUNK]
        hashes = list(dict.fromkeys(h for _i, _u, h in chunk))
        marks = ",".join("?" for _ in hashes)
        bodies = {h: (body, codec) for h, body, codec in a.rows(
            f"SELECT hash, body, codec FROM page_html_blobs WHERE hash IN ({marks})", hashes)}
        for page_id, url, digest in chunk:
            if digest not in bodies:
                continue
            try:
                text, complete = decode_html(*bodies[digest], limit=limit)
            except NotAnArchive:
                continue
            yield page_id, url, text, complete


__all__ = ["CHUNK", "read", "stored"]
