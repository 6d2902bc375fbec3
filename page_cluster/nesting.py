"""Bounded nesting: HTML whose elements nest deeper than a browser builds, flattened first.

lexbor (like every HTML5 tree builder) looks through the stack of open elements for
many start and end tags (``<div>`` closes a ``<p>`` in button scope, ``</div>`` searches
its scope, ``<li>`` its list item scope), so a page of N nested elements costs N² steps:
100,000 nested ``<div>`` (1.1 MB) took 30 s of CPU to parse, 20,000 nested
``<ul><li>`` 2.2 s. Browsers bound this: Chromium's parser never nests deeper than 512
(``kMaximumHTMLParserDOMTreeDepth``) and adds deeper elements as siblings at that depth.

:func:`cap_nesting` does the same before a parse: a start tag that would open an element
deeper than ``max_depth`` is left out (its content stays, one level up), so the tree
builder's stack stays short and a parse is linear in the input again. Pages that do not
nest that deep are returned unchanged (the same object), and most are recognised by a
cheap count before any scan.

The depth is estimated from the tags alone, the way a tree builder counts it for the
cases that matter: void elements (``<br>``, ``<img>``…) and ``/>`` open nothing, the
contents of ``<script>``, ``<style>``, ``<textarea>``, ``<title>`` and comments are not
tags, an end tag closes up to the nearest open element of its name (a stray one closes
nothing), block-level start tags close an open ``<p>``, and ``<li>``, ``<dt>``/``<dd>``,
``<option>``, ``<tr>``/``<td>``/``<th>`` close an open element of their kind, as the
standard's tree builder does. It can overestimate
(a page of a thousand unclosed ``<p>`` in ``<div>``s), never by more than what the
tree builder itself would nest, and only pages estimated past ``max_depth`` are touched.
The searches for an open element to close look at most 64 elements deep, so the scan
itself stays linear.
"""

from __future__ import annotations

import re
from collections import Counter

from selectolax.lexbor import LexborHTMLParser

MAX_DEPTH = 512
"""Deepest element kept: Chromium's parser limit, so a rendered and an unrendered crawl
of the same page see the same tree shape."""

_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
                   "meta", "param", "source", "track", "wbr", "keygen", "frame", "basefont",
                   "bgsound", "image", "isindex"})
_SPECIAL = frozenset({
    "address", "applet", "area", "article", "aside", "base", "basefont", "bgsound",
    "blockquote", "body", "br", "button", "caption", "center", "col", "colgroup", "dd",
    "details", "dir", "div", "dl", "dt", "embed", "fieldset", "figcaption", "figure",
    "footer", "form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head",
    "header", "hgroup", "hr", "html", "iframe", "img", "input", "keygen", "li", "link",
    "listing", "main", "marquee", "menu", "meta", "nav", "noembed", "noframes", "noscript",
    "object", "ol", "p", "param", "plaintext", "pre", "script", "search", "section",
    "select", "source", "style", "summary", "table", "tbody", "td", "template", "textarea",
    "tfoot", "th", "thead", "title", "tr", "track", "ul", "wbr", "xmp"})
"""The HTML Standard's "special" elements: where the search for an open ``<li>`` stops."""

_CLOSES_P = frozenset({
    "address", "article", "aside", "blockquote", "center", "details", "dialog", "dir",
    "div", "dl", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3",
    "h4", "h5", "h6", "header", "hgroup", "hr", "li", "dd", "dt", "main", "menu", "nav",
    "ol", "p", "pre", "search", "section", "summary", "table", "ul", "listing", "xmp"})
"""Start tags that close an open ``<p>`` in button scope."""

_BUTTON_SCOPE = frozenset({"html", "table", "td", "th", "caption", "marquee", "object",
                           "applet", "template", "button"})
_SIBLINGS = {"li": frozenset({"li"}), "dt": frozenset({"dt", "dd"}),
             "dd": frozenset({"dt", "dd"}), "option": frozenset({"option"}),
             "tr": frozenset({"tr"}), "td": frozenset({"td", "th"}),
             "th": frozenset({"td", "th"})}
"""A start tag of the key closes an open element of the values (``<li>`` an ``<li>``)."""

_WALK = 64
"""Most open elements looked through for an implied end (bounded: no quadratic walk)."""


_TOKEN = re.compile(
    r"<!--.*?(?:-->|\Z)"                      # a comment
    r"|<(script|style|textarea|title|xmp|iframe|noembed|noframes|noscript)\b"
    r"[^>]*>.*?(?:</\1|\Z)"                  # an element whose content is text
    r"|<(/?)([A-Za-z][A-Za-z0-9:_-]*)[^>]*>",  # a start or end tag
    re.DOTALL | re.IGNORECASE)

SCAN_ABOVE = 10_000
"""Pages with at most this many ``<`` are parsed as they are: nested as deep as they can
be, they cost lexbor about 0.15 s (5,000 nested ``<ul><li>``), and the scan would cost
more than it saves on the ordinary pages of that size."""


def cap_nesting(html: str, max_depth: int = MAX_DEPTH) -> str:
    """``html`` with start tags deeper than ``max_depth`` left out (see the module)."""
    if html.count("<") <= max(SCAN_ABOVE, max_depth):
        return html
    return _rewrite(html, max_depth)


def _rewrite(html: str, max_depth: int) -> str:
    pieces: list[str] = []
    kept_from = 0
    stack: list[str] = []
    open_names: Counter[str] = Counter()
    for match in _TOKEN.finditer(html):
        name = match.group(3)
        if name is None:
            continue  # a comment or a text-only element: nothing nests in it
        name = name.lower()
        if match.group(2):  # an end tag: close up to the nearest open one of its name
            if open_names[name]:
                while stack:
                    top = stack.pop()
                    open_names[top] -= 1
                    if top == name:
                        break
            continue
        if name in _VOID or html[match.end() - 2] == "/":
            continue
        if name in _CLOSES_P:
            _close(stack, open_names, frozenset({"p"}), _BUTTON_SCOPE)
        siblings = _SIBLINGS.get(name)
        if siblings is not None:
            _close(stack, open_names, siblings, _SPECIAL - {"address", "div", "p"})
        if len(stack) >= max_depth:
            pieces.append(html[kept_from:match.start()])
            kept_from = match.end()
            continue
        stack.append(name)
        open_names[name] += 1
    if not pieces:
        return html
    pieces.append(html[kept_from:])
    return "".join(pieces)


def _close(stack: list[str], open_names: Counter[str], targets: frozenset[str],
           boundary: frozenset[str]) -> None:
    """Pop through the nearest open element of ``targets`` unless a ``boundary`` element
    comes first (looking at most :data:`_WALK` deep)."""
    for i in range(len(stack) - 1, max(-1, len(stack) - 1 - _WALK), -1):
        node = stack[i]
        if node in targets:
            for popped in stack[i:]:
                open_names[popped] -= 1
            del stack[i:]
            return
        if node in boundary:
            return


def parse_html(html: str) -> LexborHTMLParser:
    """A lexbor tree of ``html`` with its nesting bounded: linear whatever the page."""
    return LexborHTMLParser(cap_nesting(html))
