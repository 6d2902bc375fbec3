"""A page's main region: the element holding its own content, as upstream's main-content
inventory chooses it — the user's ``--main-content-selector``, then ``<main>`` and
``role="main"``, then the ids and classes upstream tries, in its order.

One definition for the crawler (the inventory it stores, :mod:`nitpicker_crawl.extract.
main_contents`) and for the read side (near-duplicate content compares the text of this
region), so "the main content" means the same element in an archive and in an answer.
"""

from __future__ import annotations

from selectolax.lexbor import LexborHTMLParser, LexborNode

SEMANTIC_SELECTORS = ("main", '[role="main" i]')
"""The candidates that say what they are, tried first."""
NAMED_SELECTORS = (
    "#main", ".main", "#content", ".content", "#contents", ".contents", "#main-content",
    ".main-content", "#main_content", ".main_content", "#mainContent", ".mainContent",
)
"""Upstream's id and class candidates, in its order, which is their priority here."""

_NAMED = ", ".join(NAMED_SELECTORS)
MAX_NAMED = 1000
"""Elements with a candidate id or class looked at (a hostile page's 100,000 ``.content``
divisions cost one pass, not a hundred)."""


def main_region(tree: LexborHTMLParser, selector: str | None = None) -> LexborNode | None:
    """The page's main region, or None when no candidate matches (the page has none)."""
    for candidate in (*([selector] if selector else []), *SEMANTIC_SELECTORS):
        node = tree.css_first(candidate)
        if node is not None:
            return node
    # one pass over the document for every named candidate, then their priority
    found = tree.css(_NAMED)[:MAX_NAMED]
    for candidate in NAMED_SELECTORS:
        name = candidate[1:]
        for node in found:
            attrs = node.attributes
            if (attrs.get("id") == name if candidate[0] == "#"
                    else name in (attrs.get("class") or "").split()):
                return node
    return None


__all__ = ["NAMED_SELECTORS", "SEMANTIC_SELECTORS", "main_region"]
