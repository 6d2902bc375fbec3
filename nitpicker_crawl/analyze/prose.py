"""The prose of a page: the text a reader sees, as the ``text`` and ``search-keywords``
plugins read it.

Scripts, styles, templates and ``noscript`` are not prose; neither is code (``pre``,
``code``, ``kbd``, ``samp``, ``textarea``), where a doubled word or a full-width letter
is what the author meant. Each text node is kept apart: two list items reading "News"
and "News" are not the doubled word "News News".
"""

from __future__ import annotations

from selectolax.lexbor import LexborHTMLParser

HIDDEN = ("script", "style", "noscript", "template")
CODE = frozenset({"pre", "code", "kbd", "samp", "textarea"})
MAX_NODES = 200_000
"""Text nodes read from one page (a page of a million empty spans is a hostile page)."""


def text_nodes(html: str) -> list[str]:
    """The page's visible text, one string per text node, in document order."""
    tree = LexborHTMLParser(html)
    tree.strip_tags(list(HIDDEN))
    root = tree.body or tree.root
    if root is None:
        return []
    found: list[str] = []
    for node in root.traverse(include_text=True):
        if node.tag != "-text":
            continue
        text = node.text_content or ""
        if not text.strip() or _in_code(node):
            continue
        found.append(text)
        if len(found) >= MAX_NODES:
            break
    return found


def _in_code(node: object) -> bool:
    parent = getattr(node, "parent", None)
    depth = 0
    while parent is not None and depth < 64:
        if parent.tag in CODE:
            return True
        parent = parent.parent
        depth += 1
    return False


def context(text: str, start: int, end: int, width: int = 30) -> str:
    """``text[start:end]`` with up to ``width`` characters either side, on one line."""
    left = text[max(0, start - width):start]
    right = text[end:end + width]
    snippet = ("…" if start > width else "") + left + text[start:end] + right + (
        "…" if end + width < len(text) else "")
    return " ".join(snippet.split())
