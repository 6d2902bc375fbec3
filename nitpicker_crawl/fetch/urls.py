"""URL identity for the crawler: how a discovered href becomes the key it is stored under.

One URL is fetched at most once; its identity is the absolute URL with

- the fragment removed (``/a#top`` and ``/a`` are one page),
- credentials removed (``http://u:p@host/`` is stored as ``http://host/``),
- the host lower-cased and a default port dropped (``HTTP://Example.COM:80/`` →
  ``http://example.com/``),
- runs of ``/`` in the path collapsed (``/a//b`` → ``/a/b``),
- ``PHPSESSID`` query parameters dropped (a session id is not a page),
- escaped unreserved characters decoded and the other escapes upper-cased
  (``/%6Eews/%2f`` → ``/news/%2F``), and
- with ``disable_queries`` the whole query string dropped.

It is read as a browser reads it first (:func:`normalize`): hosts by
:mod:`nitpicker_crawl.fetch.hosts`, ``\\`` as ``/``, dot segments resolved.

Path case, query keys, values and their order are kept: ``/A`` and ``/a``, ``?p=1`` and
``?p=2`` are different pages (equivalence is decided by the
server, not guessed by the crawler; the looser "canonical equivalence" used for
soft-cap signals lives in ``nitpicker_query`` and never changes identity).
"""

from __future__ import annotations

import functools
import posixpath
import re
from urllib.parse import SplitResult, parse_qsl, quote, urlencode, urljoin, urlsplit, urlunsplit

from .hosts import parse_host

_DEFAULT_PORTS = {"http": 80, "https": 443}
_SLASHES = re.compile(r"/{2,}")
_HTML_EXTENSIONS = {"", ".html", ".htm", ".xhtml", ".php", ".php3", ".php4", ".php5",
                    ".phtml", ".asp", ".aspx", ".ashx", ".jsp", ".jspx", ".cfm", ".cgi",
                    ".pl", ".shtml", ".do", ".action"}


MAX_URL_LENGTH = 8192
"""Longest URL the crawler fetches (characters of its identity). Most servers answer
414 beyond 8 KiB; a longer href is kept as a skipped page (``url-too-long``), not
fetched."""

_TAB_NEWLINE = str.maketrans("", "", "\t\n\r")
_C0_SPACE = "".join(chr(c) for c in range(0x21))
_QUERY_SAFE = "!$%&()*+,-./:;=?@[\\]^_`{|}~"
"""What stays as it is in a query (WHATWG's special-query percent-encode set is the
rest: controls, space, ``"``, ``#``, ``<``, ``>``, ``'``… and non-ASCII as UTF-8)."""


@functools.lru_cache(maxsize=65536)
def normalize(url: str, *, disable_queries: bool = False) -> str | None:
    """The identity of an absolute http(s) URL, or None if it is not one we crawl.

    Cached (the same menu links stand on every page of a site): 0.5 µs for a URL seen
    recently, about 10 µs for a new one.

    Read as a browser reads it (WHATWG URL Standard): leading and trailing controls and
    spaces stripped, tabs and newlines removed anywhere, ``\\`` a ``/`` before the query
    (``http://h\\@evil/`` is host ``h``, path ``/@evil/``), the host parsed by
    :func:`nitpicker_crawl.fetch.hosts.parse_host` (IDNA, fullwidth, IPv4 numbers).
    """
    url = _as_browser_reads(url)
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS:
        return None
    netloc = parts.netloc.rpartition("@")[2]
    if netloc.startswith("["):
        raw_host, _, rest = netloc.partition("]")
        raw_host += "]"
        port_text = rest[1:] if rest.startswith(":") else ("" if not rest else None)
    else:
        raw_host, _, port_text = netloc.partition(":")
    if port_text is None or (port_text and not port_text.isdigit()):
        return None
    port = int(port_text) if port_text else None
    if port is not None and port > 65535:
        return None
    host = parse_host(raw_host)
    if host is None:
        return None
    netloc = host if port in (None, _DEFAULT_PORTS[scheme]) else f"{host}:{port}"
    path = _SLASHES.sub("/", parts.path) or "/"
    if "/." in path or "%2e" in path.lower():
        path = _remove_dot_segments(path)
    if not _PATH_OK.fullmatch(path):
        path = _escapes(quote(path, safe="/%:@!$&'()*+,;=~-._"))
    query = "" if disable_queries else _drop_session(parts.query)
    if query and not _QUERY_OK.fullmatch(query):
        query = _escapes(quote(query, safe=_QUERY_SAFE))
    return urlunsplit(SplitResult(scheme, netloc, path, query, ""))


def _as_browser_reads(url: str) -> str:
    """Controls and spaces stripped at both ends, tabs and newlines removed, and ``\\``
    read as ``/`` before the query (an http(s) URL's authority and path)."""
    url = url.strip(_C0_SPACE)
    if "\t" in url or "\n" in url or "\r" in url:
        url = url.translate(_TAB_NEWLINE)
    if "\\" not in url:
        return url
    cut = min((i for i in (url.find("?"), url.find("#")) if i >= 0), default=len(url))
    return url[:cut].replace("\\", "/") + url[cut:]


_PATH_OK = re.compile(r"[A-Za-z0-9/:@!$&'()*+,;=~._-]*")
_QUERY_OK = re.compile(r"[A-Za-z0-9!$&()*+,./:;=?@\[\]^_`{|}~-]*")
"""Paths and queries that need no percent-encoding at all (most): left as they are."""
_ESCAPE = re.compile(r"%([0-9A-Fa-f]{2})")
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")


def _escapes(text: str) -> str:
    """RFC 3986 §6.2.2: an escaped unreserved character is that character (``%6E`` is
    ``n``), and the hex of the others is upper case (``%2f`` is ``%2F``) — one resource,
    one identity, however a link spells it."""
    if "%" not in text:
        return text

    def one(match: re.Match[str]) -> str:
        char = chr(int(match.group(1), 16))
        return char if char in _UNRESERVED else "%" + match.group(1).upper()

    return _ESCAPE.sub(one, text)


def _remove_dot_segments(path: str) -> str:
    """``/a/./b/../c`` → ``/a/c``, as a browser resolves it (``%2e`` is a dot too)."""
    out: list[str] = []
    segments = path.split("/")[1:]
    for i, segment in enumerate(segments):
        last = i == len(segments) - 1
        low = segment.lower().replace("%2e", ".")
        if low == "..":
            if out:
                out.pop()
            if last:
                out.append("")
        elif low == ".":
            if last:
                out.append("")
        else:
            out.append(segment)
    return "/" + "/".join(out)


def _drop_session(query: str) -> str:
    if "phpsessid" not in query.lower():
        return query
    kept = [(k, v) for k, v in parse_qsl(query, keep_blank_values=True)
            if k.lower() != "phpsessid"]
    return urlencode(kept)


def resolve(href: str, base: str) -> tuple[str, str | None] | None:
    """Absolutise ``href`` against ``base``; return ``(absolute without fragment, fragment)``.

    None for hrefs that are not links to fetch (``mailto:``, ``javascript:``, ``tel:``,
    empty or fragment-only links to the page itself count as links to ``base``).
    """
    href = _as_browser_reads(href)
    if not href or href.lower().startswith(("javascript:", "mailto:", "tel:", "data:")):
        return None
    try:
        absolute = urljoin(base, href)
    except ValueError:
        return None
    fragment = None
    if "#" in absolute:
        absolute, fragment = absolute.split("#", 1)
    return absolute, (fragment or None)


def is_likely_html(url: str) -> bool:
    """Guess from the path alone whether ``url`` serves HTML (for queue priority only)."""
    path = urlsplit(url).path
    ext = posixpath.splitext(path.rsplit("/", 1)[-1])[1].lower()
    return path.endswith("/") or ext in _HTML_EXTENSIONS


def origin(url: str) -> str:
    """``scheme://host[:port]`` of a normalised URL."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"
