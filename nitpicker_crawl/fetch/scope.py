"""Crawl scope: which URLs are "the site" (internal) and which are external.

Each root URL is a scope entry ``(host, port, directory)``. A URL is inside an entry when
host and port are equal (a default port equals an omitted one) and its path lies in the
entry's directory, compared segment by segment, so ``/blog/`` contains
``/blog/2024/post`` but not ``/blogger``. The scheme is not compared: ``http://h/`` and
``https://h/`` are one site.

A root that names a page scopes the crawl to that page's directory, as a user means it:

====================================  ==========================================
start URL                             crawls
====================================  ==========================================
``https://h/``                        the whole host
``https://h/blog/``                   ``/blog/`` and below
``https://h/wiki/Main_Page``          ``/wiki/`` and below (the page's directory)
``https://h/blog`` (no slash)         the whole host (``blog`` is a page of ``/``)
``https://h/docs/index.html?x=1``     ``/docs/`` and below
====================================  ==========================================

(Upstream scopes a page root to that page alone, which crawls one URL from
``/wiki/Main_Page``.) With several roots the deepest matching entry wins.
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


def directory_segments(path: str) -> tuple[str, ...]:
    """The segments of the directory a root's path names: a page's own directory.

    >>> directory_segments("/wiki/Main_Page")
    ('wiki', '')
    >>> directory_segments("/blog/")
    ('blog', '')
    """
    segments = _segments(path)
    return (*segments[:-1], "")


def host_port(url: str) -> tuple[str, int | None]:
    """The host (lower case) and port a URL's scope entry is compared on; a scheme's
    default port is None, as an omitted one (``https://h:443/`` is ``https://h/``)."""
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
            host, port = host_port(root)
            self.entries.append(ScopeEntry(root, host, port,
                                           directory_segments(urlsplit(root).path)))

    def find(self, url: str) -> ScopeEntry | None:
        """The deepest entry containing ``url``, or None when it is external."""
        host, port = host_port(url)
        segments = _segments(urlsplit(url).path)
        best: ScopeEntry | None = None
        for entry in self.entries:
            if entry.host == host and entry.port == port and is_lower_layer(
                    segments, entry.segments) and (best is None or entry.depth > best.depth):
                best = entry
        return best

    def is_internal(self, url: str) -> bool:
        return self.find(url) is not None

    def describe(self) -> str:
        """What the crawl takes as the site, in a person's words, with the host's root
        suggested when a start URL narrows the crawl to a directory (a page of the same
        host outside it is an external link, which surprises whoever started at
        ``/wiki/Main_Page`` and finds ``/index.php?…`` external):

        >>> Scope(["https://h/"]).describe()
        'https://h/ (the whole host)'
        >>> Scope(["https://h/wiki/Main_Page"]).describe()
        'https://h/wiki/ and below; other pages of h are external links (start at https://h/ to crawl the whole host)'
        """  # noqa: E501
        said: list[str] = []
        roots: dict[str, str] = {}  # host → its root, for hosts crawled only in part
        whole: set[str] = set()
        for entry in self.entries:
            parts = urlsplit(entry.root)
            base = f"{parts.scheme}://{parts.netloc}"
            directory = "/" + "/".join(entry.segments)
            if entry.depth <= 1:
                whole.add(parts.netloc)
                said.append(f"{base}/ (the whole host)")
            else:
                roots.setdefault(parts.netloc, base + "/")
                said.append(f"{base}{directory} and below")
        text = "; ".join(dict.fromkeys(said))
        for netloc, root in roots.items():
            if netloc not in whole:
                text += (f"; other pages of {netloc} are external links (start at {root} "
                         "to crawl the whole host)")
        return text
