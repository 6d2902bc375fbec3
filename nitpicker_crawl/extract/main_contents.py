"""A page's *main content* and what is in it: upstream's main-content inventory.

An auditor asks of each page: where is its main content, how long is it, and which
headings, images, tables, buttons, embedded frames, media, canvases and custom elements
does it hold? Upstream's newest crawls answer from the rendered DOM into ``page_meta``'s
``main_content_*`` columns and nine ``page_main_content_*`` tables; this module answers the
same from the stored document (rendered or not), so both crawl modes and ``upgrade`` derive
it alike.

**The region.** Upstream's candidates, each tried in turn and the first element matching
it taken: the ``--main-content-selector``, ``<main>``, ``role="main"``, then the ids and
classes ``#main``, ``.main``, ``#content``, ``.content``, ``#contents``, ``.contents``,
``#main-content`` … ``.mainContent`` in that order. That is the priority upstream's
documentation states ("semantic elements are preferred over id/class heuristics, and the
user's explicit selector always wins"); its code joins the candidates into one
``querySelector``, which returns whichever comes first in the document. Measured on
pages nobody here wrote, document order takes a wrapper for the content: Debian's
DokuWiki with a sidebar puts the sidebar's ``<div class="content">`` before the
``<main>`` holding the page (every page wrong), and the common Japanese layout
``#contents`` > ``#main`` + ``#side`` gives the wrapper with its side column
(bench/page_inventory.py). No candidate matches: the page has no main region — a
finding in itself — and its counts are 0, as upstream's.

**What is counted.** ``word_count`` is upstream's: the characters of the region's text that
are not whitespace (a count that works for Japanese, which puts no spaces between words),
here without the text of scripts and styles; ``body_word_count`` the same for ``<body>``.
Each inventory lists the region's elements in document order (``order`` from 0):
headings ``h1``–``h6``; images ``img`` and ``input type=image`` (``src`` absolute, ``alt``
as written, ``""`` when absent as the DOM's ``alt`` property); tables (rows, columns of the
first row, ``thead``, ``tfoot``, a ``colspan``/``rowspan`` cell); buttons (``button``,
``input`` of type button/submit/reset, ``role=button``); ``iframe``; ``video`` and
``audio`` (``src``, else their first ``<source src>``); ``canvas`` (300 × 150 when unsized,
as the HTML standard says); custom elements (a tag name with a hyphen). Element names are
upper-case, as the DOM's ``nodeName``.

Bounded by construction: at most :data:`MAX_ITEMS` elements of each kind are listed (the
counts stay exact), texts are cut at :data:`MAX_TEXT` characters and URLs at 8,190.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin

from selectolax.lexbor import LexborHTMLParser, LexborNode

from nitpicker_query.keys.main_region import main_region
from page_cluster.nesting import parse_html

MAX_ITEMS = 500
"""Elements of one kind listed per page (a hostile page's ten thousand images are counted,
not stored)."""
MAX_TEXT = 1000
"""Characters kept of one heading's or button's text."""
MAX_URL = 8190
"""Characters kept of one URL (upstream's ``varchar(8190)``)."""
MAX_SELECTOR = 255
"""Longest ``--main-content-selector`` taken (upstream's ``varchar(255)``)."""

KINDS = ("headings", "images", "tables", "buttons", "iframes", "videos", "audios",
         "canvases", "custom_elements")
"""The inventories, in upstream's order; table ``page_main_content_<kind>`` each."""

_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_SINGLE = {"table": "tables", "iframe": "iframes", "video": "videos", "audio": "audios",
           "canvas": "canvases"}
_LISTED = ("h1, h2, h3, h4, h5, h6, img, input, table, button, [role], iframe, video, "
           "audio, canvas")
_CUSTOM_TAG = re.compile(r"<([A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)+)[\s/>]")
MAX_CUSTOM_NAMES = 50
"""Distinct custom tag names looked for by name; a page with more is walked whole."""
MAX_SOURCE = 5_000_000
"""Characters of the source searched for custom tag names."""
_WS = re.compile(r"\s+")
_ID = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_INT = re.compile(r"\s*(\d{1,9})")


class SelectorError(ValueError):
    """A ``--main-content-selector`` that is no CSS selector this parser reads."""


def check_selector(selector: str) -> str:
    """The selector, stripped, if the parser accepts it; else :class:`SelectorError` with
    a one-line reason."""
    value = selector.strip()
    if not value:
        raise SelectorError("--main-content-selector is empty")
    if len(value) > MAX_SELECTOR:
        raise SelectorError(f"--main-content-selector is longer than {MAX_SELECTOR} "
                            "characters")
    try:
        LexborHTMLParser("<p></p>").css(value)
    except Exception as exc:  # lexbor's own error types vary by release
        raise SelectorError(f"--main-content-selector {value!r} is not a CSS selector "
                            f"this crawler reads ({exc})") from None
    return value


@dataclass
class MainContents:
    """One page's main region and its inventories, as the archive stores them."""

    node_name: str | None = None        # None: the page has no main region
    element_id: str | None = None
    role: str | None = None
    selector: str | None = None
    class_list: list[str] = field(default_factory=list)
    word_count: int = 0
    body_word_count: int = 0
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    items: dict[str, list[dict[str, Any]]] = field(
        default_factory=lambda: {k: [] for k in KINDS})

    def columns(self) -> dict[str, Any]:
        """The ``main_content_*`` values (format 0.13's ``page_meta`` column names)."""
        row: dict[str, Any] = {
            "main_content_node_name": self.node_name, "main_content_id": self.element_id,
            "main_content_role": self.role, "main_content_selector": self.selector,
            "main_content_class_list": json.dumps(self.class_list)
            if self.node_name is not None else None,
            "main_content_word_count": self.word_count,
            "main_content_body_word_count": self.body_word_count,
        }
        for kind in KINDS:
            singular = {"custom_elements": "custom_element", "canvases": "canvas"}.get(
                kind, kind[:-1])
            row[f"main_content_{singular}_count"] = self.counts[kind]
        return row


def _chars(node: LexborNode | None) -> int:
    """Non-whitespace characters of the node's text, scripts and styles left out."""
    if node is None:
        return 0
    total = len(_WS.sub("", node.text(deep=True)))
    for inner in node.css("script, style"):
        total -= len(_WS.sub("", inner.text(deep=True)))
    return max(total, 0)


def _text(node: LexborNode) -> str | None:
    value = _WS.sub(" ", node.text(deep=True)).strip()
    return value[:MAX_TEXT] or None


def _int(value: str | None, default: int) -> int:
    m = _INT.match(value or "")
    return int(m.group(1)) if m else default


def _unique_selector(tree: LexborHTMLParser, node: LexborNode) -> str:
    """A CSS selector naming the node alone (what upstream's ``finder`` gives): its id
    when that is unique, else the path from ``<body>`` with ``:nth-of-type`` where
    siblings share the tag."""
    element_id = node.attributes.get("id")
    if element_id and _ID.fullmatch(element_id) and len(tree.css(f"#{element_id}")) == 1:
        return f"#{element_id}"
    steps: list[str] = []
    current: LexborNode | None = node
    while current is not None and current.tag not in ("body", "html", "-document"):
        parent = current.parent
        step = current.tag or "*"
        if parent is not None:
            same = [c for c in parent.iter() if c.tag == current.tag]
            if len(same) > 1:
                position = next(i for i, c in enumerate(same, 1) if c.mem_id == current.mem_id)
                step += f":nth-of-type({position})"
        steps.append(step)
        current = parent
        if len(steps) >= 64:   # the nesting is bounded; so is the path
            break
    return " > ".join(reversed(steps)) or "body"


def _media_src(node: LexborNode, absolute: Callable[[str | None], str]) -> str:
    src = node.attributes.get("src")
    if not src:
        source = node.css_first("source[src]")
        src = source.attributes.get("src") if source is not None else None
    return absolute(src)


def read(tree: LexborHTMLParser, url: str, *, selector: str | None = None,
         base_href: str | None = None, html: str | None = None) -> MainContents:
    """The main region of a parsed document and its inventories (the tree is not
    changed). ``url``/``base_href`` make ``src`` values absolute, as the DOM does;
    ``html``, the document's source when at hand, spares a walk over every element."""
    base = urljoin(url, base_href) if base_href else url

    def absolute(value: str | None) -> str:
        value = (value or "").strip()
        if not value:
            return ""
        try:
            return urljoin(base, value)[:MAX_URL]
        except ValueError:
            return value[:MAX_URL]

    out = MainContents(body_word_count=_chars(tree.body))
    region = main_region(tree, selector)
    if region is None:
        return out
    attrs = region.attributes
    out.node_name = (region.tag or "").upper()
    out.element_id = attrs.get("id") or None
    out.role = attrs.get("role")
    out.class_list = (attrs.get("class") or "").split()[:50]
    out.selector = _unique_selector(tree, region)
    out.word_count = _chars(region)

    # one query for every kind but custom elements, each element then sorted into its
    # kinds (an <img role=button> is an image and a button, as two queries would say)
    # lexbor's css() answers an element once per selector of the list it matches (an
    # <input role=button> twice) and matches the region itself too: each is seen once
    kinds: dict[str, list[LexborNode]] = {k: [] for k in KINDS}
    seen = {region.mem_id}
    for node in region.css(_LISTED):
        if node.mem_id in seen:
            continue
        seen.add(node.mem_id)
        tag = node.tag or ""
        kind_of_input = (node.attributes.get("type") or "").lower() if tag == "input" else ""
        if tag in _HEADINGS:
            kinds["headings"].append(node)
        if tag == "img" or kind_of_input == "image":
            kinds["images"].append(node)
        if tag in _SINGLE:
            kinds[_SINGLE[tag]].append(node)
        if tag == "button" or kind_of_input in ("button", "submit", "reset") or \
                (node.attributes.get("role") or "").lower() == "button":
            kinds["buttons"].append(node)
    kinds["custom_elements"] = _custom_elements(region, html)

    def listed(kind: str, one: Callable[[LexborNode], dict[str, Any]]) -> None:
        nodes = kinds[kind]
        out.counts[kind] = len(nodes)
        out.items[kind] = [{"order": i, **one(n)} for i, n in enumerate(nodes[:MAX_ITEMS])]

    listed("headings", lambda n: {"text": _text(n), "level": int((n.tag or "h1")[1])})
    listed("images", lambda n: {"src": absolute(n.attributes.get("src")),
                                "alt": (n.attributes.get("alt") or "")[:MAX_TEXT]})

    def table(n: LexborNode) -> dict[str, Any]:
        first = n.css_first("tr")
        return {"rows": len(n.css("tr")),
                "cols": len(first.css("th, td")) if first is not None else 0,
                "hasHeader": int(n.css_first("thead") is not None),
                "hasFooter": int(n.css_first("tfoot") is not None),
                "hasMergedCell": int(n.css_first("[colspan], [rowspan]") is not None)}
    listed("tables", table)

    def button(n: LexborNode) -> dict[str, Any]:
        a = n.attributes
        tag = (n.tag or "").upper()
        kind = a.get("type")
        if tag == "BUTTON" and not kind:
            kind = "submit"
        text = (a.get("value") or "")[:MAX_TEXT] or None if tag == "INPUT" else _text(n)
        return {"nodeName": tag, "role": a.get("role"), "type": kind, "text": text,
                "disabled": int("disabled" in a)}
    listed("buttons", button)
    listed("iframes", lambda n: {"src": absolute(n.attributes.get("src")),
                                 "title": n.attributes.get("title"),
                                 "width": n.attributes.get("width"),
                                 "height": n.attributes.get("height")})
    listed("videos", lambda n: {"src": _media_src(n, absolute),
                                "poster": absolute(n.attributes.get("poster")) or None,
                                "width": _int(n.attributes.get("width"), 0),
                                "height": _int(n.attributes.get("height"), 0)})
    listed("audios", lambda n: {"src": _media_src(n, absolute)})
    listed("canvases", lambda n: {"width": _int(n.attributes.get("width"), 300),
                                  "height": _int(n.attributes.get("height"), 150)})
    listed("custom_elements", lambda n: {
        "nodeName": (n.tag or "").upper()[:255], "elementId": n.attributes.get("id"),
        "classList": json.dumps((n.attributes.get("class") or "").split()[:50])})
    return out


def _custom_elements(region: LexborNode, html: str | None) -> list[LexborNode]:
    """The region's elements whose tag has a hyphen. With the document's source at hand,
    only the tag names it spells are looked for (most pages have none: no query at all);
    else, or past :data:`MAX_CUSTOM_NAMES` names, every element is looked at."""
    if html is not None:
        names = {m.lower() for m in _CUSTOM_TAG.findall(html[:MAX_SOURCE])}
        if not names:
            return []
        if len(names) <= MAX_CUSTOM_NAMES:
            with contextlib.suppress(Exception):   # a name lexbor's selectors refuse
                return [n for n in region.css(", ".join(sorted(names)))
                        if n.mem_id != region.mem_id]
    return [n for n in region.css("*") if "-" in (n.tag or "") and n.mem_id != region.mem_id]


def read_html(html: str, url: str, *, selector: str | None = None,
              base_href: str | None = None) -> MainContents:
    """:func:`read` of a document not parsed yet."""
    return read(parse_html(html), url, selector=selector, base_href=base_href, html=html)
