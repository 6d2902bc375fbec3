"""Format 0.13's reference values: how a URL, a text, a content type, a JSON payload and a
set of response headers become rows of ``url_refs``, ``text_refs``, ``content_type_refs``,
``json_refs``/``blob_refs`` and the ``header_*`` tables (docs/archive-format.md, "Format
0.13"; upstream's archive format notes §4.1 and §5). Pure functions, so the converter and
its tests share one definition, and the values equal what upstream's writer computes
for the same input:

- every hash is SHA-256, 32 raw bytes (``text_refs.hash`` of the UTF-8 text,
  ``json_refs.hash`` of the raw JSON, ``blob_refs.hash`` of the decoded bytes,
  ``url_refs.query_hash`` of the query string without ``?``);
- a URL is decomposed as the WHATWG parser reads it::

      https://Example.com:443/a/b?x=1#top → https, example.com, NULL, /a/b, sha256("x=1"), top
      http://example.com                  → http,  example.com, NULL, /,    NULL,          NULL
      http://example.com:8080/?           → http,  example.com, 8080, /,    NULL,          NULL
      data:image/png;base64,iVBO…         → data,  NULL,        NULL, NULL, NULL,          NULL
      /relative/path                      → every part NULL (no base to read it against)

- a header set's canonical lines are ``name/occurrence=value.trim()``, names lower-cased,
  sorted by (name, occurrence); ``Set-Cookie: [a, b]`` is two occurrences of one name.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote_to_bytes, urlsplit

import zstandard

from nitpicker_query.archive.html_codec import ZSTD_LEVEL
from nitpicker_query.format.content_types import classify_content_type, normalize_content_type

DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21}
"""Ports the WHATWG parser drops (``url_refs.port`` is NULL for them)."""

SPECIAL_SCHEMES = frozenset({*DEFAULT_PORTS, "file"})
"""Schemes whose empty path reads as ``/`` (WHATWG "special" schemes)."""

NO_PATH_SCHEMES = frozenset({"data", "blob", "javascript"})
"""Schemes whose ``url_refs.path`` upstream leaves NULL."""

DATA_URI_URL_REFS_LIMIT = 512
"""A ``data:`` URI longer than this, as an image ``src`` or a resource URL, is stored
decoded in ``blob_refs`` instead of ``url_refs`` (upstream's writer does the same)."""

VOLATILE_HEADERS = frozenset({
    "date", "expires", "last-modified", "etag", "age", "via", "x-cache", "cf-ray",
    "x-request-id", "set-cookie", "server-timing", "x-amz-request-id"})
"""Header names whose values change from one response to the next: left out of
``header_sets.stable_hash``, so two pages served alike share a stable hash."""

FLAG_HEADERS = (
    ("has_csp", "content-security-policy"),
    ("has_x_frame_options", "x-frame-options"),
    ("has_x_content_type_options", "x-content-type-options"),
    ("has_hsts", "strict-transport-security"),
    ("has_referrer_policy", "referrer-policy"),
    ("has_permissions_policy", "permissions-policy"),
    ("has_set_cookie", "set-cookie"),
)
"""``header_flags`` column → the header name whose presence it records."""

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_COMPRESSOR = zstandard.ZstdCompressor(level=ZSTD_LEVEL)


def sha256(data: str | bytes) -> bytes:
    """SHA-256 of ``data`` (text as UTF-8), 32 raw bytes: every hash of format 0.13."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    return hashlib.sha256(raw).digest()


UrlParts = tuple[str | None, str | None, int | None, str | None, bytes | None, str | None]
"""``(scheme, host, port, path, query_hash, fragment)`` of a ``url_refs`` row."""

_UNPARSABLE: UrlParts = (None, None, None, None, None, None)


def decompose_url(url: str) -> UrlParts:
    """The ``url_refs`` columns of ``url`` (examples in the module docstring).

    Scheme lower-case without ``:``; host the lower-cased host name (IPv6 in brackets, as
    WHATWG's ``hostname``), NULL when there is none; port NULL when absent or the
    scheme's default; path the WHATWG pathname (``/`` for an empty path of an http(s)
    URL), NULL for ``data:``, ``blob:`` and ``javascript:``; ``query_hash`` the SHA-256 of
    the query without ``?``, NULL when it is absent or empty; fragment without ``#``,
    NULL when empty. A URL the parser refuses (no scheme, a bad port) has every part NULL.
    """
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return _UNPARSABLE
    scheme = parts.scheme.lower()
    if not scheme:
        return _UNPARSABLE
    host = parts.hostname or None
    if host is not None and ":" in host:
        host = f"[{host}]"
    if port is not None and DEFAULT_PORTS.get(scheme) == port:
        port = None
    if scheme in NO_PATH_SCHEMES:
        path: str | None = None
    elif not parts.path and scheme in SPECIAL_SCHEMES:
        path = "/"
    else:
        path = parts.path or None
    query_hash = sha256(parts.query) if parts.query else None
    return scheme, host, port, path, query_hash, parts.fragment or None


def is_blob_url(url: str) -> bool:
    """A ``data:`` URI too long for ``url_refs`` (kept in ``blob_refs``)."""
    return len(url) > DATA_URI_URL_REFS_LIMIT and url[:5].lower() == "data:"


def data_uri_bytes(url: str) -> bytes:
    """The payload a ``data:`` URI carries: base64-decoded when it says ``;base64``,
    percent-decoded otherwise; a base64 payload that does not decode is kept as its
    percent-decoded text (its bytes are still what the page held)."""
    header, _, payload = url[5:].partition(",")
    raw = unquote_to_bytes(payload)
    if header.lower().rstrip().endswith(";base64"):
        compact = re.sub(rb"\s+", b"", raw)
        try:
            return base64.b64decode(compact + b"=" * (-len(compact) % 4))
        except (binascii.Error, ValueError):
            return raw
    return raw


@dataclass(frozen=True)
class Payload:
    """A ``json_refs``/``blob_refs`` row: ``hash`` of the raw bytes, zstd ``body``."""

    hash: bytes
    body: bytes
    size_raw: int
    size_stored: int
    codec: str = "zstd"


def payload(raw: bytes) -> Payload:
    """``raw`` as upstream's writer stores a JSON or data: payload (always zstd)."""
    body = _COMPRESSOR.compress(raw)
    return Payload(sha256(raw), body, len(raw), len(body))


def js_json(value: Any) -> str:
    """``JSON.stringify(value)`` for what JSON can hold: no spaces, non-ASCII as is."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def content_type_ref(value: str | None) -> tuple[str, str, str] | None:
    """``(raw, normalized, category)`` of a ``content_type_refs`` row, or None (no type).

    ``raw`` is the type as upstream's writer stores it: the part before ``;``, trimmed
    and lower-cased (``Text/HTML; charset=UTF-8`` → ``text/html``); ``normalized`` the
    same without control characters; ``category`` one of the 18 categories
    (:mod:`nitpicker_query.format.content_types`).
    """
    raw = normalize_content_type(value)
    if raw is None:
        return None
    normalized = _CONTROL.sub("", raw).strip()
    return raw, normalized, classify_content_type(normalized)


@dataclass(frozen=True)
class HeaderSet:
    """One response-header set, decomposed (``header_sets``, ``header_set_entries``,
    ``header_flags``)."""

    entries: tuple[tuple[str, int, str, bool], ...]  # name, occurrence, value, volatile
    raw_json_hash: bytes
    raw_hash: bytes
    stable_hash: bytes
    volatile_hash: bytes | None
    flags: tuple[int, ...]  # in FLAG_HEADERS order
    cache_policy: str | None

    @property
    def stable_entry_count(self) -> int:
        return sum(1 for e in self.entries if not e[3])


def header_set(headers: dict[str, Any]) -> tuple[HeaderSet, int]:
    """The decomposed set of a response-header object, and how many of its values had no
    place (``null``, an object: a header is text, or a list of texts).

    An object without headers (``{}``: a response was received, with none) is the empty
    set — no entries, its hashes those of the empty text, every flag 0 — so that it
    stays apart from a row whose headers are unknown (``header_set_id`` NULL: never
    fetched, failed), as the two are in 0.10 (upstream's writer, having no such rows,
    never writes it). Values are stored verbatim; the canonical lines hash the trimmed
    value. ``cache_policy`` is every ``cache-control`` value joined by ``, ``.
    """
    seen: dict[str, int] = {}
    entries: list[tuple[str, int, str, bool]] = []
    dropped = 0
    for name, value in headers.items():
        lower = str(name).lower()
        for item in value if isinstance(value, list) else [value]:
            text = _header_text(item)
            if text is None:
                dropped += 1
                continue
            seen[lower] = seen.get(lower, 0) + 1
            entries.append((lower, seen[lower], text, lower in VOLATILE_HEADERS))
    entries.sort(key=lambda e: (e[0], e[1]))
    lines = [f"{n}/{k}={v.strip()}" for n, k, v, _ in entries]
    stable = [line for line, e in zip(lines, entries, strict=True) if not e[3]]
    volatile = [line for line, e in zip(lines, entries, strict=True) if e[3]]
    names = {e[0] for e in entries}
    policy = [e[2] for e in entries if e[0] == "cache-control"]
    return HeaderSet(
        entries=tuple(entries),
        raw_json_hash=sha256(js_json(headers)),
        raw_hash=sha256("\n".join(lines)),
        stable_hash=sha256("\n".join(stable)),
        volatile_hash=sha256("\n".join(volatile)) if volatile else None,
        flags=tuple(int(header in names) for _, header in FLAG_HEADERS),
        cache_policy=", ".join(policy) if policy else None,
    ), dropped


def _header_text(value: Any) -> str | None:
    """A header value as the text a browser received (JSON numbers and booleans as
    JavaScript writes them); None for what a header cannot be."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return js_json(value)
    return None
