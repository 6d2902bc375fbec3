"""Custom extraction over a past crawl's stored HTML: ``search_html`` (a literal or a
regular expression, with snippets), ``match_selector`` (a CSS selector, with the
text or an attribute of what it matches — every page's price, author or canonical) and
``match_xpath`` (an XPath 1.0 expression: what CSS cannot say — an attribute's value as
the result, a node by its text, a count per page).

Both read the snapshots of the site's HTML pages (internal, fetched, not redirects) in
URL order, through :mod:`nitpicker_query.archive.snapshots`. What a stranger's archive
could make unbounded is bounded: each snapshot is read up to :data:`PAGE_BYTES`; a page
counts at most :data:`MAX_HITS` matches and keeps a few snippets or values, each cut;
a call stops scanning after the archive's query deadline (``--query-timeout``, 60 s by
default) and then says how far it got (``complete``: false, ``scannedPages`` of
``totalPages``) — the matches found so far are listed, never presented as all of them.
A complete scan is kept for the process, so paging through its matches is instant.

A regular expression is the caller's (Python ``re``); the HTML is a stranger's. Only a
pattern with nested repetition (``(a+)+``) can backtrack for long on a hostile page, and
no page is longer than :data:`PAGE_BYTES`.
"""

from __future__ import annotations

import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from lxml import etree
from selectolax.lexbor import LexborHTMLParser

from .. import progress
from ..archive import snapshots
from ..archive.opening import Archive, opened
from ..exceptions import InvalidArgument
from ..format.v010 import strict_page
from .paging import check_int, check_paging, envelope

PAGE_BYTES = 4 * 1024 * 1024
"""Most bytes of one snapshot searched (what the template clusters read too)."""
MAX_HITS = 1000
"""Matches counted on one page at most (``matches`` says 1000 and ``matchesCapped``)."""
SNIPPETS = 3
VALUES = 20
VALUE_CHARS = 300
CONTEXT_DEFAULT = 60
MAX_PATTERN = 1000
KEEP = 8
MEMO_ITEMS = 50_000
"""A complete answer is kept for the process only up to this many pages (a selector
matching every page of 300,000 is read again rather than held)."""
_FLAGS = {"i": re.IGNORECASE, "m": re.MULTILINE, "s": re.DOTALL, "x": re.VERBOSE}
_SPACE = re.compile(r"\s+")

PageResult = dict[str, Any]
Matcher = Callable[[str], PageResult | None]

_LOCK = threading.Lock()
_MEMO: OrderedDict[tuple[Any, ...], tuple[list[PageResult], int, int, bool]] = OrderedDict()


def compile_pattern(pattern: str) -> re.Pattern[str]:
    """A literal, or ``/regex/flags`` (flags of ``imsx``), as a compiled expression; a bad
    one is a one-line argument error."""
    if not isinstance(pattern, str) or not pattern:
        raise InvalidArgument("pattern must be a non-empty string.")
    if len(pattern) > MAX_PATTERN:
        raise InvalidArgument(f"pattern: at most {MAX_PATTERN} characters, got "
                              f"{len(pattern)}.")
    found = re.fullmatch(r"/(.+)/([a-z]*)", pattern, re.DOTALL)
    if found is None:
        return re.compile(re.escape(pattern))
    flags = 0
    for flag in found.group(2):
        if flag not in _FLAGS:
            raise InvalidArgument(f"pattern: unknown flag {flag!r} after /…/ (i, m, s or x)")
        flags |= _FLAGS[flag]
    try:
        return re.compile(found.group(1), flags)
    except re.error as exc:
        raise InvalidArgument(f"pattern: not a valid regular expression: {exc}") from None


def _clip(text: str, limit: int = VALUE_CHARS) -> str:
    text = _SPACE.sub(" ", text).strip()
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _scan(a: Archive, key: tuple[Any, ...], matcher: Matcher, url_pattern: str | None
          ) -> tuple[list[PageResult], int, int, bool]:
    """Every page the matcher answers for, in URL order: ``(results, scanned, total,
    complete)``, from the memo when a complete scan of the same question is kept."""
    identity = _identity(a)
    memo_key = (identity, *key, url_pattern) if identity is not None else None
    if memo_key is not None:
        with _LOCK:
            if memo_key in _MEMO:
                _MEMO.move_to_end(memo_key)
                return _MEMO[memo_key]
    if not snapshots.stored(a):
        return [], 0, 0, True
    where = strict_page("p")
    params: list[Any] = []
    if url_pattern:
        where += " AND p.url LIKE ?"
        params.append(url_pattern)
    listed = [(int(i), str(u), h) for i, u, h in a.rows(
        f"SELECT p.id, p.url, r.hash FROM pages p JOIN page_html_ref r ON r.page_id = p.id "
        f"WHERE {where} ORDER BY p.url", params)]
    results: list[PageResult] = []
    scanned = 0
    started = time.monotonic()
    complete = True
    with progress.working_on(str(a.path)) as report:
        for _id, url, html, _whole in snapshots.read(a, listed, limit=PAGE_BYTES):
            if scanned % 1000 == 0:
                report(scanned, len(listed), f"reading page {scanned + 1:,} of "
                                             f"{len(listed):,}")
            if time.monotonic() - started > a.query_timeout:
                complete = False
                break
            scanned += 1
            hit = matcher(html)
            if hit is not None:
                results.append({"url": url, **hit})
    if complete and memo_key is not None and len(results) <= MEMO_ITEMS:
        with _LOCK:
            _MEMO[memo_key] = (results, scanned, len(listed), complete)
            while len(_MEMO) > KEEP:
                _MEMO.popitem(last=False)
    return results, scanned, len(listed), complete


def _identity(a: Archive) -> tuple[Any, ...] | None:
    if a.mode != "archive":   # a crawl directory may still grow: scanned every time
        return None
    db = a.directory / "db.sqlite"
    st = db.stat()
    return (str(db.resolve()), st.st_size, st.st_mtime_ns)


def _answer(a: Archive, found: tuple[list[PageResult], int, int, bool], limit: int,
            offset: int) -> dict[str, Any]:
    results, scanned, total, complete = found
    extra: dict[str, Any] = {"complete": complete, "scannedPages": scanned,
                             "totalPages": total}
    if not complete:
        extra["note"] = (f"stopped after {a.query_timeout:g} s (--query-timeout): "
                         f"{scanned:,} of {total:,} pages searched; the matches of "
                         "those only")
    return envelope(results[offset:offset + limit], len(results), limit, offset, **extra)


def search_html(archive: Archive | str, *, pattern: str, context: int = CONTEXT_DEFAULT,
                url_pattern: str | None = None, limit: int = 100,
                offset: int = 0) -> dict[str, Any]:
    """The site's HTML pages whose stored HTML contains ``pattern`` — a literal
    (case-sensitive), or ``/regex/flags`` (Python syntax; flags ``i``, ``m``, ``s``,
    ``x``) — in URL order: ``url``, ``matches`` (on the page, at most 1,000:
    ``matchesCapped``) and up to three ``snippets``, each the match with ``context``
    characters either side, whitespace folded. ``url_pattern``: SQL LIKE on the URL."""
    expression = compile_pattern(pattern)
    context = check_int("context", context, minimum=0, maximum=500)
    limit, offset = check_paging(limit, offset)

    def matcher(html: str) -> PageResult | None:
        count = 0
        snippets: list[str] = []
        for m in expression.finditer(html):
            count += 1
            if len(snippets) < SNIPPETS:
                start, end = max(0, m.start() - context), m.end() + context
                snippets.append(_clip(("…" if start else "") + html[start:end]
                                      + ("…" if end < len(html) else ""), 2 * context + 400))
            if count >= MAX_HITS:
                break
        if not count:
            return None
        return {"matches": count, "matchesCapped": count >= MAX_HITS, "snippets": snippets}

    with opened(archive) as a:
        found = _scan(a, ("search", pattern, context), matcher, url_pattern)
        return _answer(a, found, limit, offset)


def check_selector(selector: str) -> None:
    if not isinstance(selector, str) or not selector.strip():
        raise InvalidArgument("selector must be a non-empty CSS selector.")
    if len(selector) > MAX_PATTERN:
        raise InvalidArgument(f"selector: at most {MAX_PATTERN} characters.")
    try:
        LexborHTMLParser("<html></html>").css(selector)
    except Exception as exc:  # lexbor's own error types vary by version
        raise InvalidArgument(f"selector: not a CSS selector lexbor reads: {selector!r} "
                              f"({exc})") from None


def match_selector(archive: Archive | str, *, selector: str, attribute: str | None = None,
                   absent: bool = False, url_pattern: str | None = None, limit: int = 100,
                   offset: int = 0) -> dict[str, Any]:
    """The site's HTML pages where the CSS ``selector`` matches, in URL order: ``url``,
    ``matches`` (elements matched) and ``values`` — each element's ``attribute`` (``href``,
    ``content`` …; absent attributes left out), or its text with whitespace folded —
    the first 20, each cut to 300 characters. ``absent``: the pages where it matches
    nothing instead (a page without its ``<h1>``, its price, its breadcrumb).
    ``url_pattern``: SQL LIKE on the URL. CSS as lexbor reads it (XPath:
    :func:`match_xpath`)."""
    check_selector(selector)
    if attribute is not None and (not isinstance(attribute, str) or not attribute.strip()
                                  or len(attribute) > 200):
        raise InvalidArgument("attribute must be an attribute name, such as href.")
    limit, offset = check_paging(limit, offset)

    def matcher(html: str) -> PageResult | None:
        try:
            nodes = LexborHTMLParser(html).css(selector)
        except Exception:   # a page lexbor cannot read matches nothing
            nodes = []
        if absent:
            return None if nodes else {"matches": 0, "values": []}
        if not nodes:
            return None
        values: list[str] = []
        for node in nodes[:MAX_HITS]:
            if len(values) >= VALUES:
                break
            if attribute is None:
                values.append(_clip(node.text(deep=True, separator=" ")))
            else:
                value = node.attributes.get(attribute)
                if value is not None:
                    values.append(_clip(value))
        return {"matches": min(len(nodes), MAX_HITS), "values": values}

    with opened(archive) as a:
        found = _scan(a, ("selector", selector, attribute, absent), matcher, url_pattern)
        return _answer(a, found, limit, offset)


def check_xpath(xpath: str) -> etree.XPath:
    """``xpath`` compiled, or the one-line error a user reads."""
    if not isinstance(xpath, str) or not xpath.strip():
        raise InvalidArgument("xpath must be a non-empty XPath expression.")
    if len(xpath) > MAX_PATTERN:
        raise InvalidArgument(f"xpath: at most {MAX_PATTERN} characters.")
    try:
        # EXSLT's regular expressions off: a pattern over a stranger's page is search-html's
        compiled = etree.XPath(xpath, regexp=False, smart_strings=False)
        # a function XPath 1.0 lacks (document(), a typo) compiles and fails on every
        # page: tried once on an empty page, it is the user's error, not "nothing found"
        compiled(etree.fromstring(b"<html><body></body></html>", _html_parser()))
        return compiled
    except etree.XPathError as exc:
        raise InvalidArgument(f"xpath: not an XPath 1.0 expression lxml reads: {xpath!r} "
                              f"({exc})") from None


def _html_parser() -> etree.HTMLParser:
    """libxml2's HTML parser (lexbor has no XPath), one per call (a parser is not to be
    shared between threads): forgiving like a browser's, reading the text as the UTF-8
    it is given in (not the page's own charset declaration: the snapshot is decoded
    already), never fetching anything (no DTD, no entity from the network), refusing a
    tree deeper than libxml2's limit (a stranger's page of a million nested elements)."""
    return etree.HTMLParser(encoding="utf-8", no_network=True, huge_tree=False)


def _xpath_values(result: Any) -> list[str]:
    """Each value of an XPath result as text: an element by its text (whitespace
    folded), an attribute or text node as it is, a number as written (``3``, not
    ``3.0``); an empty node set, ``false``, ``0`` or ``""`` is no value."""
    if isinstance(result, list):
        values = []
        for item in result:
            if isinstance(item, etree._Element):
                values.append(" ".join("".join(map(str, item.itertext())).split()))
            else:
                values.append(str(item))
        return values
    if isinstance(result, bool):
        return ["true"] if result else []
    if isinstance(result, float):
        return [] if result == 0 or result != result else [
            str(int(result)) if result.is_integer() else repr(result)]
    return [str(result)] if result else []


def match_xpath(archive: Archive | str, *, xpath: str, absent: bool = False,
                url_pattern: str | None = None, limit: int = 100, offset: int = 0
                ) -> dict[str, Any]:
    """The site's HTML pages where the XPath 1.0 ``xpath`` selects something, in URL
    order: ``url``, ``matches`` (nodes selected; 1 for a number, string or boolean) and
    ``values`` — each node's text (an element's with whitespace folded, an attribute's
    or a text node's as it is) or the expression's value (``count(//img[not(@alt)])``
    gives each page's count) — the first 20, each cut to 300 characters. A page where
    it selects nothing (an empty set, false, 0 or an empty string) is not listed;
    ``absent``: those pages instead. ``url_pattern``: SQL LIKE on the URL. The HTML is
    parsed by libxml2 (lxml), whose tree is close to a browser's but not the same on
    broken markup (CSS queries use lexbor's, an HTML5 parser)."""
    compiled = check_xpath(xpath)
    limit, offset = check_paging(limit, offset)
    parser = _html_parser()

    def matcher(html: str) -> PageResult | None:
        try:
            root = etree.fromstring(html.encode("utf-8", "replace"), parser)
            values = [] if root is None else _xpath_values(compiled(root))
        except (etree.LxmlError, ValueError):   # a page libxml2 cannot read matches nothing
            values = []
        if absent:
            return None if values else {"matches": 0, "values": []}
        if not values:
            return None
        return {"matches": min(len(values), MAX_HITS),
                "values": [_clip(v) for v in values[:VALUES]]}

    with opened(archive) as a:
        found = _scan(a, ("xpath", xpath, absent), matcher, url_pattern)
        return _answer(a, found, limit, offset)


__all__ = ["check_selector", "check_xpath", "compile_pattern", "match_selector",
           "match_xpath", "search_html"]
