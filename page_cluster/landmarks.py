"""Landmarks one page at a time: where each instance is in the HTML, whether it is the
site's chrome, and which design variant of a landmark each page carries.

These are stateless helpers around the clustering: :func:`extract_landmarks` finds the
seven landmark kinds in a page's source with their positions (to show or cut them out);
:func:`is_chrome_landmark_instance` tells chrome from content by a cluster reason's
``shellTokens``; :func:`resolve_landmark_variant_keys` groups pages by the variant of
one landmark (two header designs, a sidebar with or without a search box).
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

import numpy as np
from scipy.cluster.hierarchy import fcluster, linkage  # type: ignore[import-untyped]
from scipy.spatial.distance import squareform  # type: ignore[import-untyped]

from .similarity import auto_cut_threshold, incidence, jaccard_matrix
from .tokens import LANDMARK_ROLES, LANDMARK_TAGS, MAX_ELEMENTS, parse, relative

VOID_TAGS = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
                       "meta", "source", "track", "wbr", "param", "keygen"})

SHELL_COVERAGE = 0.9
"""Share of a shell's tokens an instance must have to be that chrome: a site header on
one page may lack an item (a "log in" link once logged in), rarely a tenth of them."""

SHELL_SHARE = 0.5
"""Share of an instance's own tokens that must be shell: a header that carries the
shell *and* twice as much again (a page-specific mega menu) is that page's own."""

VARIANT_MIN_DISTANCE = 0.2
"""Lowest cut between landmark variants: instances of one design differ by an optional
item or two (a distance under 0.2); a widest gap below that is noise, not a design."""

MAX_VARIANT_LINKAGE = 1500
"""Most distinct instances clustered by complete linkage (memory is its square); the
rest join their nearest clustered instance."""


@dataclass(frozen=True)
class LandmarkInstance:
    """One landmark element of a page's source.

    ``line`` and ``column`` are 1-based, ``offset`` and ``end`` 0-based character
    offsets into the HTML given (``html[offset:end]`` is ``html`` of the instance, from
    its start tag to the end of its end tag, or to the end of the document when it is
    never closed). ``tokens`` are its structural tokens relative to itself
    (``header.site>nav>a``), comparable with a cluster reason's ``shellTokens``.
    ``nested`` is true for a landmark inside ``<main>`` (a template's own sidebar).
    """

    kind: str
    tag: str
    line: int
    column: int
    offset: int
    end: int
    html: str
    tokens: frozenset[str]
    nested: bool


def _kind(tag: str, attrs: Mapping[str, str | None]) -> str | None:
    role = (attrs.get("role") or "").strip().lower()
    if role in LANDMARK_ROLES:
        return LANDMARK_ROLES[role]
    return LANDMARK_TAGS.get(tag)


class _Stop(Exception):
    """Raised by the scanner past :data:`MAX_ELEMENTS`: the rest of the page is not read."""


class _Scanner(HTMLParser):
    """Start and end positions of landmark elements, with an element stack that closes
    what an end tag implies (an unclosed ``<p>`` or ``<li>`` before ``</div>``)."""

    def __init__(self, source: str) -> None:
        super().__init__(convert_charrefs=True)
        self.source = source
        self.line_starts = [0, *(m.end() for m in re.finditer("\n", source))]
        # open elements: (tag, index into found or -1, landmark kind or None)
        self.stack: list[tuple[str, int, str | None]] = []
        self.open_tags: Counter[str] = Counter()  # for a stray end tag, in O(1)
        self.found: list[list[Any]] = []  # [kind, tag, offset, end, nested]
        self.open_outer = 0                # open landmarks other than main
        self.open_main = 0
        self.elements = 0

    def _offset(self) -> int:
        line, col = self.getpos()
        return self.line_starts[line - 1] + col

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements += 1
        if self.elements > MAX_ELEMENTS:
            raise _Stop
        if tag in VOID_TAGS:
            return
        kind = _kind(tag, dict(attrs))
        index = -1
        if kind is not None and not self.open_outer:
            index = len(self.found)
            self.found.append([kind, tag, self._offset(), None, self.open_main > 0])
        if kind == "main":
            self.open_main += 1
        elif kind is not None:
            self.open_outer += 1
        self.stack.append((tag, index, kind))
        self.open_tags[tag] += 1

    def handle_endtag(self, tag: str) -> None:
        if not self.open_tags[tag]:
            return  # a stray end tag closes nothing
        start = self._offset()
        close = self.source.find(">", start)
        end = close + 1 if close >= 0 else len(self.source)
        while self.stack:
            open_tag, index, kind = self.stack.pop()
            self.open_tags[open_tag] -= 1
            if index >= 0:
                self.found[index][3] = end
            if kind == "main":
                self.open_main -= 1
            elif kind is not None:
                self.open_outer -= 1
            if open_tag == tag:
                break


def extract_landmarks(html: str, *, content_block_attribute: str | None = None
                      ) -> list[LandmarkInstance]:
    """Every landmark instance of a page (header, footer, nav, aside, form, search,
    main — by tag or ARIA role) that is not inside another landmark other than
    ``<main>``, in document order, with its position and source.

    A landmark inside another (a nav in the header) is part of that one, as in the
    clustering. Like :func:`page_cluster.tokenize`, the first 20,000 elements are read.
    """
    scanner = _Scanner(html)
    try:
        scanner.feed(html)
        scanner.close()
    except _Stop:
        pass
    result = []
    for kind, tag, offset, end, nested in scanner.found:
        stop = end if end is not None else len(html)
        source = html[offset:stop]
        line = bisect.bisect_right(scanner.line_starts, offset)
        column = offset - scanner.line_starts[line - 1] + 1
        tokens = frozenset(t.path for t in parse(
            "<body>" + source + "</body>",
            content_block_attribute=content_block_attribute).tokens)
        result.append(LandmarkInstance(kind, tag, line, column, offset, stop, source, tokens,
                                       bool(nested)))
    return result


def is_chrome_landmark_instance(tokens: Collection[str], shell_tokens: Collection[str]
                                ) -> bool:
    """Is this landmark instance the site's chrome, judged by a shell (a cluster reason's
    ``landmarks[kind].shellTokens``)? True when it has nearly all of the shell
    (:data:`SHELL_COVERAGE`) and is mostly shell (:data:`SHELL_SHARE`). An empty shell —
    the cluster has no chrome of that kind — makes every instance content."""
    shell = frozenset(shell_tokens)
    own = frozenset(tokens)
    if not shell or not own:
        return False
    shared = len(own & shell)
    return shared >= SHELL_COVERAGE * len(shell) and shared >= SHELL_SHARE * len(own)


def resolve_landmark_variant_keys(pages: Iterable[str | Mapping[str, Any]], kind: str, *,
                                  content_block_attribute: str | None = None) -> list[str]:
    """One key per page for the design variant of its first ``kind`` landmark
    (``header:0``, ``header:1`` … numbered by first appearance; ``none`` for a page
    without one). Pages are HTML strings or records with ``html``.

    Instances are compared by their shell tokens; distinct shells are clustered by
    complete linkage cut at the widest gap of the merge heights (never below
    :data:`VARIANT_MIN_DISTANCE`), as Stage A does for whole pages.
    """
    if kind not in set(LANDMARK_TAGS.values()):
        raise ValueError(f"kind must be one of {', '.join(sorted(set(LANDMARK_TAGS.values())))}"
                         f"; got {kind!r}")
    shells: dict[frozenset[str], int] = {}
    weights: list[int] = []
    page_shell: list[int] = []
    for page in pages:
        text = page if isinstance(page, str) else str(page.get("html") or "")
        doc = parse(text, content_block_attribute=content_block_attribute)
        shell: frozenset[str] | None = None
        if kind == "main":  # main is no landmark instance of the clustering: its root
            root = doc.main_root
            if root is not None:
                shell = relative((t.path for t in doc.tokens if t.path == root
                                  or t.path.startswith(root + ">")), root)
        else:
            found = next((lm for lm in doc.landmarks if lm.kind == kind), None)
            shell = found.shell if found is not None else None
        if shell is None:
            page_shell.append(-1)
            continue
        sid = shells.setdefault(shell, len(shells))
        if sid == len(weights):
            weights.append(0)
        weights[sid] += 1
        page_shell.append(sid)
    labels = _variant_labels(list(shells), weights)
    names: dict[int, str] = {}
    keys = []
    for sid in page_shell:
        if sid < 0:
            keys.append("none")
            continue
        label = labels[sid]
        keys.append(names.setdefault(label, f"{kind}:{len(names)}"))
    return keys


def _variant_labels(shells: list[frozenset[str]], weights: list[int]) -> list[int]:
    if len(shells) <= 1:
        return [0] * len(shells)
    names: dict[str, int] = {}
    sets = [frozenset(names.setdefault(t, len(names)) for t in s) for s in shells]
    order = sorted(range(len(sets)), key=lambda i: (-weights[i], i))
    linked = order[:MAX_VARIANT_LINKAGE]
    matrix = incidence([sets[i] for i in linked], len(names))
    labels = [0] * len(sets)
    if len(linked) == 1:
        assigned = np.ones(1, dtype=int)
    else:
        dist = np.clip(1.0 - jaccard_matrix(matrix), 0.0, 1.0)
        np.fill_diagonal(dist, 0.0)
        tree = linkage(squareform(dist, checks=False), method="complete")
        cut = auto_cut_threshold([float(h) for h in tree[:, 2]])
        cut = max(cut if cut is not None else VARIANT_MIN_DISTANCE, VARIANT_MIN_DISTANCE)
        assigned = fcluster(tree, t=cut, criterion="distance")
    for pos, i in enumerate(linked):
        labels[i] = int(assigned[pos])
    rest = order[MAX_VARIANT_LINKAGE:]
    if rest:
        nearest = jaccard_matrix(incidence([sets[i] for i in rest], len(names)), matrix)
        for row, i in enumerate(rest):
            labels[i] = labels[linked[int(np.argmax(nearest[row]))]]
    return labels
