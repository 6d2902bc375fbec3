"""Trap and legit signals of a page, URL equivalence, and the effective threshold.

*Equivalent* URLs (the design notes on URL identity: the same page arrives under several
spellings) differ only in scheme (http/https), a leading ``www.``, a default port, a
trailing slash, the fragment, host case and ``%xx`` case; path case, query keys and
query values make a different page. Query parameter order does not::

    http://www.Example.com:80/a/  ≡  https://example.com/a#top  ≡  https://example.com/a/
    https://example.com/a?x=1&y=2  ≡  https://example.com/a?y=2&x=1
    https://example.com/A          ≢  https://example.com/a
    https://example.com/a?x=1      ≢  https://example.com/a?x=2   ≢  https://example.com/a?z=1
    https://example.com/a          ≢  https://other.example/a

Signals of one page (seed 000 §3):

- trap: og:url present and not equivalent to the page (``ogUrlMismatch``); og:url
  equivalent to an ancestor of the page — a shorter path of it, or its own path without
  the query of a query pager (``ogUrlPointsToParent``);
- legit: og:url equivalent to the page (``ogUrlSelf``); ``<link rel=canonical>``
  equivalent to the page (``canonicalSelf``); ``rel=prev``/``rel=next`` present
  (``relPrevNext``); an ordinal ending the title — ``Page 3``, ``ページ 3``, ``- 3``,
  ``(3)`` (``ordinalTitle``);
- trap, from content (only the crawler sees it while crawling): the page's main content
  holds nothing its URL shape had not already produced (``contentRepeat``); the crawler
  also drops a page's legit signals when its content is not new (docs/soft-cap.md).

A cluster's signal counts when at least half of its pages observed so far had it. Score =
trap signals − legit signals; the effective threshold for ``--dedupe-cap N`` is
``ceil(0.3 N)`` when the score is positive, ``5 N`` when negative, ``N`` otherwise.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, fields
from functools import lru_cache
from urllib.parse import parse_qsl, urlencode, urlsplit

from .page_keys import host_key

_PERCENT = re.compile(r"%[0-9a-fA-F]{2}")
_ORDINAL = re.compile(
    r"(?:(?:\bpage|\bpg\.?|\bp\.|ページ|頁)\s*\d+|[-–—|:]\s*\d+|\(\s*\d+\s*\)|第\s*\d+\s*(?:ページ|頁))\s*$",
    re.IGNORECASE,
)

TRAP_SIGNALS = ("ogUrlMismatch", "ogUrlPointsToParent", "contentRepeat")
LEGIT_SIGNALS = ("ogUrlSelf", "canonicalSelf", "relPrevNext", "ordinalTitle")


_PLAIN_URL = re.compile(r"(https?)://([a-z0-9.-]+)(?::([0-9]{1,5}))?(/[^?#\\\s]*)?"
                        r"(?:\?([^#\s]*))?(?:#\S*)?", re.ASCII)
"""A URL as the crawler writes them (lower-case scheme and host, no user info, no
whitespace or backslash): read by one match, where ``urlsplit`` (twice, with
:func:`~nitpicker_query.keys.page_keys.host_key`) cost most of a soft-cap observation. Any other
spelling takes the general path; both give the same form (tested on both kinds)."""


@lru_cache(maxsize=4096)  # a cluster's pages share one og:url: parse it once
def _canonical(url: str) -> tuple[str, tuple[str, ...], tuple[tuple[str, str], ...]] | None:
    plain = _PLAIN_URL.fullmatch(url)
    if plain is not None and (plain[3] is None or int(plain[3]) <= 65535):
        scheme, host, port, raw_path, raw_query = plain.groups()
        host = host.removeprefix("www.")
        if port is not None and int(port) != (80 if scheme == "http" else 443):
            host = f"{host}:{int(port)}"
    else:
        try:
            parts = urlsplit(url.strip())
        except ValueError:
            return None
        if not parts.hostname:
            return None
        host, raw_path, raw_query = host_key(url), parts.path, parts.query
    path = raw_path or "/"
    if "%" in path:
        path = _PERCENT.sub(lambda m: m.group(0).upper(), path)
    segments = tuple(filter(None, path.split("/")))
    query = tuple(sorted(parse_qsl(raw_query, keep_blank_values=True))) if raw_query else ()
    return host, segments, query


def canonical_form(url: str | None) -> str | None:
    """One spelling per equivalence class (``http://www.Example.com/a/?y=2&x=1`` →
    ``example.com/a?x=1&y=2``), or None for what is not an absolute URL."""
    c = _canonical(url) if url else None
    if c is None:
        return None
    return c[0] + "/" + "/".join(c[1]) + ("?" + urlencode(c[2]) if c[2] else "")


def declared_target(url: str, *, og_url: str | None, canonical: str | None) -> str | None:
    """The URL a page declares itself a copy of: its og:url, else its canonical, when that
    points at **another** page (canonical form); None when both are absent or self.

    Seed 000's strongest trap signal — og:url aimed at a list page — used as a key: pages
    that declare the same target *and* carry the same meta are copies of one page,
    whatever their URLs look like (a session id in a middle segment gives every page its
    own parent path and shape, but not its own declared target).
    """
    for declared in (og_url, canonical):
        if declared and not equivalent(declared, url):
            form = canonical_form(declared)
            if form is not None:
                return form
    return None


def equivalent(a: str | None, b: str | None) -> bool:
    """Are ``a`` and ``b`` the same page spelled differently? (see the module docstring)"""
    if not a or not b:
        return False
    ca, cb = _canonical(a), _canonical(b)
    return ca is not None and ca == cb


def points_to_ancestor(og_url: str | None, page_url: str) -> bool:
    """Is ``og_url`` the page's parent list (a shorter path, or the path without query)?"""
    if not og_url:
        return False
    og, page = _canonical(og_url), _canonical(page_url)
    if og is None or page is None or og[0] != page[0] or og[2]:
        return False
    og_path, page_path = og[1], page[1]
    if og_path == page_path:
        return bool(page[2])  # /search?page=3 → /search
    return len(og_path) < len(page_path) and page_path[: len(og_path)] == og_path


def ordinal_title(title: str | None) -> bool:
    """Does the title end in a page number? ``Blog - Page 3``, ``一覧 ページ 2``, ``News (4)``."""
    return bool(title and _ORDINAL.search(title.strip()))


@dataclass(frozen=True)
class Signals:
    """The six signals of one page; keys as stored in ``dedupe_cap_events.signals``."""

    ogUrlMismatch: bool = False
    ogUrlPointsToParent: bool = False
    ogUrlSelf: bool = False
    canonicalSelf: bool = False
    relPrevNext: bool = False
    ordinalTitle: bool = False
    contentRepeat: bool = False  # set by the crawler, which sees content (docs/soft-cap.md)

    def as_dict(self) -> dict[str, bool]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


SIGNAL_NAMES = tuple(f.name for f in fields(Signals))


def page_signals(url: str, *, og_url: str | None, canonical: str | None,
                 has_prev_next: bool, title: str | None) -> Signals:
    self_og = equivalent(og_url, url)
    return Signals(
        ogUrlMismatch=bool(og_url) and not self_og,
        ogUrlPointsToParent=points_to_ancestor(og_url, url),
        ogUrlSelf=self_og,
        canonicalSelf=equivalent(canonical, url),
        relPrevNext=has_prev_next,
        ordinalTitle=ordinal_title(title),
    )


def score(present: dict[str, bool]) -> int:
    """Trap signals present minus legit signals present."""
    return (sum(1 for s in TRAP_SIGNALS if present.get(s))
            - sum(1 for s in LEGIT_SIGNALS if present.get(s)))


def effective_threshold(cap: int, trap_score: int) -> int:
    """``ceil(0.3 × cap)`` for trap-like clusters, ``5 × cap`` for legit-like, else ``cap``."""
    if trap_score > 0:
        return max(1, math.ceil(0.3 * cap))
    if trap_score < 0:
        return 5 * cap
    return cap
