"""URL identity for the crawler: how a discovered href becomes the key it is stored under.

One URL is fetched at most once; its identity is the absolute URL with

- the fragment removed (``/a#top`` and ``/a`` are one page),
- credentials removed (``http://u:p@host/`` is stored as ``http://host/``),
- the host lower-cased and a default port dropped (``HTTP://Example.COM:80/`` →
  ``http://example.com/``),
- runs of ``/`` in the path collapsed (``/a//b`` → ``/a/b``),
- ``PHPSESSID`` query parameters dropped (a session id is not a page), and
- with ``disable_queries`` the whole query string dropped.

Path case, query keys, values and their order are kept: ``/A`` and ``/a``, ``?p=1`` and
``?p=2`` are different pages (equivalence is decided by the
server, not guessed by the crawler; the looser "canonical equivalence" used for
soft-cap signals lives in ``nitpicker_query`` and never changes identity).
"""

from __future__ import annotations

import posixpath
import re
from urllib.parse import SplitResult, parse_qsl, quote, urlencode, urljoin, urlsplit, urlunsplit

_DEFAULT_PORTS = {"http": 80, "https": 443}
_SLASHES = re.compile(r"/{2,}")
_HTML_EXTENSIONS = {"", ".html", ".htm", ".xhtml", ".php", ".php3", ".php4", ".php5",
                    ".phtml", ".asp", ".aspx", ".ashx", ".jsp", ".jspx", ".cfm", ".cgi",
                    ".pl", ".shtml", ".do", ".action"}


def normalize(url: str, *, disable_queries: bool = False) -> str | None:
    """The identity of an absolute http(s) URL, or None if it is not one we crawl."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    try:
        port = parts.port
    except ValueError:
        return None
    host = parts.hostname.lower()
    if ":" in host:  # IPv6 literal
        host = f"[{host}]"
    netloc = host if port in (None, _DEFAULT_PORTS[scheme]) else f"{host}:{port}"
    path = _SLASHES.sub("/", parts.path) or "/"
    path = quote(path, safe="/%:@!$&'()*+,;=~-._")
    query = "" if disable_queries else _drop_session(parts.query)
    return urlunsplit(SplitResult(scheme, netloc, path, query, ""))


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
    href = href.strip()
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
