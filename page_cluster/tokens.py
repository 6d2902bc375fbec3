"""Structural tokens: a page's DOM under ``<body>`` as a set of element paths, text ignored.

A token is the path from ``<body>`` to an element, each step the tag with its id and
*first* class: ``main#main.content>article.entry>div.entry-body``. The first class names
the element (``card``); the classes after it modify it (``card is-active``,
``content is-wide``) — in the path they would change the token of everything inside.
So each element gives one token with its first class and, when it has more, a second
with all of them (``…>div.card~card.is-active``): a modifier moves one token of two.
Which attributes count, and why:

- **tag** — the structure itself;
- **id and class** — how templates name their parts (``sidebar``, ``card-title``); digit
  runs are replaced by ``#`` (``post-123`` and ``post-456`` are one part), classes are
  sorted and de-duplicated;
- **role** — ``main``, ``search``, ``navigation`` mark landmarks as tags do;
- everything else (``href``, ``src``, ``data-*``, ``style``, ``aria-*``…) carries content
  or state, not template, and is ignored. So is text.

A page's token *set* (not list) is what is compared: a list with 6 items and one with 30
give the same tokens, as they come from the same template. Each token also records its
depth under ``<main>`` (the template's own region, where article bodies vary most) and
the landmark it belongs to, for the depth cap and chrome discovery
(:mod:`page_cluster.landmarks`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from selectolax.lexbor import LexborNode

from .nesting import parse_html

LANDMARK_TAGS = {"header": "header", "footer": "footer", "nav": "nav", "aside": "aside",
                 "form": "form", "search": "search", "main": "main", "dialog": "dialog"}
LANDMARK_ROLES = {"banner": "header", "contentinfo": "footer", "navigation": "nav",
                  "complementary": "aside", "form": "form", "search": "search",
                  "main": "main", "dialog": "dialog", "alertdialog": "dialog"}
"""The seven landmark types, by tag and by ARIA role, and dialogs: not a landmark in ARIA,
but a cookie consent or newsletter popup is the site's frame as its header is (on most
pages, any template), and counted as chrome it stops splitting templates by whether a
page shows it."""

SKIPPED_TAGS = frozenset({"script", "style", "noscript", "template", "svg", "iframe", "br",
                          "wbr", "#text", "#comment", "_text", "_comment", "-text",
                          "-comment"})
"""Elements that carry no template structure (or, for svg and iframe, someone else's)."""

MAX_DEPTH = 40
"""Deepest element followed: deeper nesting is content (or a hostile page), never layout."""

MAX_ELEMENTS = 20_000
"""Most elements read per page: a 10 MB page is judged by its first 20,000 elements."""

_DIGITS = re.compile(r"\d+")
_ID_SEPARATORS = str.maketrans({".": "_", "~": "_", "[": "_", "]": "_", ">": "_"})


@dataclass(frozen=True)
class Token:
    """One element path and where it sits."""

    path: str
    main_depth: int      # 0 outside <main>; 1 for main's children, 2 below them …
    landmark: int        # index of the top-level landmark instance it is in, -1 if none


@dataclass
class Landmark:
    """A top-level landmark instance of a page (one not inside another landmark, except
    ``main``, whose inner landmarks are the template's own)."""

    kind: str
    position: int        # order among the page's landmark instances
    tokens: frozenset[str]
    root: str = ""       # the landmark element's own path

    @property
    def shell(self) -> frozenset[str]:
        """The tokens relative to the landmark (``header.site>nav>a``): the same header
        gives the same shell wherever a page nests it, and what
        :func:`page_cluster.landmarks.extract_landmarks` gives for its HTML."""
        return relative(self.tokens, self.root)


def relative(paths: Iterable[str], root: str) -> frozenset[str]:
    """``paths`` (all at or under the element ``root``) rewritten to start at it."""
    prefix = root.rpartition(">")[0]
    cut = len(prefix) + 1 if prefix else 0
    return frozenset(p[cut:] for p in paths)


@dataclass
class Document:
    tokens: list[Token]
    landmarks: list[Landmark]
    main_root: str | None = None   # the path of the first <main> (role=main) element
    # landmark elements inside an item of a list (no instance of their own: content)
    item_landmarks: list[str] = field(default_factory=list)


def _steps(node: LexborNode) -> tuple[str, str | None]:
    """How an element is written: ``tag#id.first-class[role]`` (also its step in its
    descendants' paths), and with every class when it has more than one."""
    attrs = node.attributes
    step = node.tag or ""
    ident = attrs.get("id")
    if ident:  # the separators of a path are kept out of it, so a step can be read back
        step += "#" + _DIGITS.sub("#", ident.strip()).translate(_ID_SEPARATORS)[:40]
    classes = [_DIGITS.sub("#", c)[:40] for c in (attrs.get("class") or "").split()]
    role = attrs.get("role")
    suffix = f"[{role.strip().lower()[:20]}]" if role else ""
    if not classes:
        return step + suffix, None
    full = None
    if len(set(classes)) > 1:
        full = step + "." + classes[0] + "~" + ".".join(sorted(set(classes))[:8]) + suffix
    return step + "." + classes[0] + suffix, full


NESTED_REPEATS = (2, 3)
"""Lengths of a nesting pattern folded when it repeats (``ul>li`` in ``ul>li>ul>li``;
``div.comment>div.replies>article`` …): a table of contents three levels deep and one
of a single level, a thread of replies and a lone comment are one template, as a list
of 6 items and one of 30 are. Single steps (``div>div``, ``section>section``) are not
folded: wrappers nest by design."""


def _fold(parent: str, own: str) -> str:
    """``parent>own``, with a repeated nesting pattern folded back to its first
    occurrence: the element's path is then its ancestor's, and its descendants' paths
    are those of the ancestor's."""
    if not parent:
        return own
    if own in parent:  # cheap test first: a repeat needs the step among the ancestors
        steps = parent.split(">")
        steps.append(own)
        for k in NESTED_REPEATS:
            if len(steps) >= 2 * k and steps[-k:] == steps[-2 * k:-k]:
                return ">".join(steps[:-k])
    return f"{parent}>{own}"


def _item_step(node: LexborNode) -> str:
    """What makes siblings alike as items: tag and first class (digits as ``#``)."""
    tag = node.tag or ""
    if tag.startswith(("-", "_", "#")):   # text and comments: never items
        return ""
    classes = (node.attributes.get("class") or "").split()
    return tag + ("." + _DIGITS.sub("#", classes[0]) if classes else "")


def _landmark_kind(node: LexborNode) -> str | None:
    role = (node.attributes.get("role") or "").strip().lower()
    if role in LANDMARK_ROLES:
        return LANDMARK_ROLES[role]
    return LANDMARK_TAGS.get(node.tag or "")


def parse(html: str, *, content_block_attribute: str | None = None) -> Document:
    """Every element under ``<body>`` as a :class:`Token`, with the landmark instances.

    ``content_block_attribute``: elements carrying it (a CMS's free-form blocks, e.g.
    ``data-bgb``) are left out with everything under them.
    """
    tree = parse_html(html)
    body = tree.body
    tokens: list[Token] = []
    landmarks: list[Landmark] = []
    if body is None:
        return Document(tokens, landmarks)
    owners: list[list[str]] = []
    item_landmarks: list[str] = []
    main_root: str | None = None
    count = 0
    # iterative walk: (node, parent path, main depth, landmark index, inside an item)
    stack: list[tuple[LexborNode, str, int, int, bool]] = [
        (child, "", 0, -1, False) for child in reversed(list(body.iter()))]
    while stack:
        node, parent, main_depth, landmark, in_item = stack.pop()
        tag = node.tag or ""
        if tag in SKIPPED_TAGS or tag.startswith("#") or tag.startswith("_"):
            continue
        if content_block_attribute and content_block_attribute in node.attributes:
            continue
        count += 1
        if count > MAX_ELEMENTS:
            break
        own, full = _steps(node)
        path = _fold(parent, own)
        if path.count(">") >= MAX_DEPTH:
            continue
        kind = _landmark_kind(node)
        if main_depth:                      # inside main: one deeper per level
            child_depth = main_depth + 1
        elif kind == "main":                # main itself stays 0; its children are 1
            child_depth = 1
            if main_root is None:
                main_root = path
        else:
            child_depth = 0
        depth = main_depth
        owner = landmark
        if kind is not None and kind != "main" and landmark == -1 and in_item:
            item_landmarks.append(path)
        elif kind is not None and kind != "main" and landmark == -1:
            owner = len(landmarks)
            landmarks.append(Landmark(kind, owner, frozenset(), path))
            owners.append([])
        tokens.append(Token(path, depth, owner))
        if owner >= 0:
            owners[owner].append(path)
        if full is not None:
            full_path = f"{parent}>{full}" if parent else full
            tokens.append(Token(full_path, depth, owner))
            if owner >= 0:
                owners[owner].append(full_path)
        children = list(node.iter())
        if in_item or owner >= 0 or len(children) < 2:
            # inside an item, or a landmark (which holds no other), or a single child:
            # nothing to tell
            for child in reversed(children):
                stack.append((child, path, child_depth, owner, in_item))
            continue
        # an item of a list (one of several siblings written alike: the posts of a
        # thread, the cards of a grid) holds content; a landmark inside it (a quote's
        # aside in a post) is that content, not a region of the template
        steps = [_item_step(c) for c in children]
        seen: dict[str, int] = {}
        for step in steps:
            seen[step] = seen.get(step, 0) + 1
        for child, step in zip(reversed(children), reversed(steps), strict=True):
            stack.append((child, path, child_depth, owner, seen[step] > 1))
    for landmark_item, paths in zip(landmarks, owners, strict=True):
        landmark_item.tokens = frozenset(paths)
    return Document(tokens, landmarks, main_root, item_landmarks)


def tokenize(html: str, *, content_block_attribute: str | None = None) -> list[str]:
    """The structural tokens of a page, in document order (repeats kept)."""
    return [t.path for t in parse(html, content_block_attribute=content_block_attribute).tokens]
