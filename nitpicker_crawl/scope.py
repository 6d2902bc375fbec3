"""Crawl scope: which URLs are "the site" (internal) and which are external.

Each root URL is a scope entry ``(host, port, path)``. A URL is inside an entry when host
and port are equal (a default port equals an omitted one) and the entry's path segments
are a prefix of the URL's, compared segment by segment, so ``/blog/`` contains
``/blog/2024/post`` but not ``/blogger``. The scheme is not compared: ``http://h/`` and
``https://h/`` are one site (upstream's WHATWG default-port rule has the same effect).
The trailing empty segment of a directory root (``/meta/`` → ``['meta', '']``) matches
anything, which is why a crawl must start at a
directory to find its siblings: ``/meta/full`` contains nothing but itself
(seed 001 §10, ``isLowerLayer``). With several roots the deepest matching entry wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit


@dataclass(frozen=True)
class ScopeEntry:
    root: str
    host: str
    port: int | None
    segments: tuple[str, ...]

    @property
    def depth(self) -> int:
        return len(self.segments)


def _segments(path: str) -> tuple[str, ...]:
    return tuple((path or "/").split("/")[1:])


def _host_port(url: str) -> tuple[str, int | None]:
    parts = urlsplit(url)
    port = parts.port
    if port == {"http": 80, "https": 443}.get(parts.scheme):
        port = None
    return (parts.hostname or "").lower(), port


def is_lower_layer(url_segments: tuple[str, ...], entry_segments: tuple[str, ...]) -> bool:
    """True when ``url`` lies at or below the entry's path.

    >>> is_lower_layer(("meta", "full"), ("meta", ""))
    True
    >>> is_lower_layer(("meta", "robots-noindex"), ("meta", "full"))
    False
    """
    for i, seg in enumerate(entry_segments):
        if i == len(entry_segments) - 1 and seg == "":
            return len(url_segments) >= i
        if i >= len(url_segments) or url_segments[i] != seg:
            return False
    return True


class Scope:
    """The scope entries of a crawl (one per root URL)."""

    def __init__(self, roots: list[str]) -> None:
        self.entries: list[ScopeEntry] = []
        for root in roots:
            host, port = _host_port(root)
            self.entries.append(ScopeEntry(root, host, port, _segments(urlsplit(root).path)))

    def find(self, url: str) -> ScopeEntry | None:
        """The deepest entry containing ``url``, or None when it is external."""
        host, port = _host_port(url)
        segments = _segments(urlsplit(url).path)
        best: ScopeEntry | None = None
        for entry in self.entries:
            if entry.host == host and entry.port == port and is_lower_layer(
                    segments, entry.segments) and (best is None or entry.depth > best.depth):
                best = entry
        return best

    def is_internal(self, url: str) -> bool:
        return self.find(url) is not None
