"""Which element ids are template and which are content, decided from the pages.

Templates name their parts with ids (``div#sidebar``, ``main#content``): the same value
on every page built from the template. Renderers of Markdown and reStructuredText —
Sphinx, Hugo, MkDocs, Docusaurus, Pelican, MediaWiki's headings — give each section an
id made from its heading (``section#code-objects``, ``span#History``): a value found on
one page. Written into the token paths, such an id makes everything under it unique to
its page, and two pages of one template share almost nothing (Jaccard 0.12 on CPython's
Sphinx documentation).

So an id value counts where it recurs. For each *position* — the element's path with
every id taken out, and its own tag and classes — the pages showing each value are
counted. A value on a single page is content; and where a position shows several values
that are on fewer than :data:`MEAN_PAGES` pages each on average, every value there is
content (the ``introduction`` section a few documents share is a heading, not a part of
the template). Content ids are taken out of the paths; the tag and classes stay, so the
element still counts.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence

MEAN_PAGES = 4
"""Average pages per value below which a position's ids are content. The two populations
are far apart: ids made from headings average 1.0–1.3 pages a value on CPython's Sphinx
documentation and 1.8 on a Pelican blog whose headings repeat often; a template's ids are
on every page of their template (hundreds). A position with a single value is never
judged this way: one value everywhere is the template's."""

_STEP = re.compile(r"^([^#.~\[]*)#([^.~\[]*)(.*)$")
"""``tag#id.class~classes[role]``: the id runs from the first ``#`` (digits inside it are
``#`` too) to the first class, modifier or role mark (:mod:`page_cluster.tokens` keeps
those characters out of ids)."""


def _split(step: str) -> tuple[str, str] | None:
    """``(step without its id, id)``, or None for a step without an id."""
    m = _STEP.match(step)
    if m is None:
        return None
    return m.group(1) + m.group(3), m.group(2)


class _Rewriter:
    """Token paths with the ids ``drop(parent, step without id, id)`` names taken out,
    memoised by path (a parent is rewritten once for all its descendants)."""

    def __init__(self, drop: Callable[[str, str, str], bool]) -> None:
        self.drop = drop
        self.done: dict[str, str] = {"": ""}

    def __call__(self, path: str) -> str:
        done = self.done.get(path)
        if done is not None:
            return done
        parent, _, step = path.rpartition(">")
        split = _split(step)
        if split is not None and self.drop(parent, *split):
            step = split[0]
        head = self(parent) if parent else ""
        result = self.done[path] = f"{head}>{step}" if head else step
        return result


def content_id_rewrites(token_names: Sequence[str], structures: Sequence[frozenset[int]],
                        pages: Sequence[int]) -> dict[int, str]:
    """Token id → its path with the content ids taken out, for the tokens that change.

    ``token_names[t]`` is token ``t``'s path, ``structures[s]`` the token ids of
    structure ``s`` and ``pages[s]`` how many pages have it."""
    bare = _Rewriter(lambda _parent, _step, _value: True)
    position: dict[int, tuple[str, str]] = {}   # token → (position, id value)
    for tid, name in enumerate(token_names):
        parent, _, step = name.rpartition(">")
        split = _split(step)
        if split is not None:
            position[tid] = (bare(parent) + ">" + split[0], split[1])
    if not position:
        return {}
    seen: Counter[tuple[str, str]] = Counter()
    for tokens, n in zip(structures, pages, strict=True):
        for pair in {position[t] for t in tokens if t in position}:
            seen[pair] += n
    pages_at: dict[str, int] = defaultdict(int)
    values_at: dict[str, int] = defaultdict(int)
    for (where, _value), n in seen.items():
        pages_at[where] += n
        values_at[where] += 1
    content = {pair for pair, n in seen.items()
               if n == 1 or (values_at[pair[0]] > 1
                             and pages_at[pair[0]] < MEAN_PAGES * values_at[pair[0]])}
    if not content:
        return {}
    rewrite = _Rewriter(lambda parent, step, value: (bare(parent) + ">" + step, value)
                        in content)
    changes = {}
    for tid, name in enumerate(token_names):
        new = rewrite(name)
        if new != name:
            changes[tid] = new
    return changes


MIN_CLASS_VALUES = 8
"""Distinct classes an element's position must show before its rare ones are judged.
A template's own modifiers are few (``card--accent``, ``is-active``, an A/B variant);
classes made from content (WordPress's ``tag-<slug>`` and ``category-<slug>`` on every
post) run into the hundreds."""

CLASS_MAJORITY = 0.5
"""Share of a block's pages (those with the element) a class must reach in some block to
be the template's: ``news-entry`` is on every page of the news template's block, a
post's ``tag-battery`` on a few of any block's."""


def content_class_rewrites(token_names: Sequence[str], structures: Sequence[frozenset[int]],
                           groups: Mapping[str, Counter[int]]) -> dict[int, str]:
    """Token id → its path with the content classes taken out, for the tokens that change.

    Only the tokens that carry all of an element's classes (``…>article.post~post.tag-a
    .type-post``) hold such classes; an element's first class is its step in every path
    below it and stays. ``groups`` gives each block's pages per structure (a block: the
    pages of one path and stylesheet set, one template or a few). At each position (the
    element's path) showing more than :data:`MIN_CLASS_VALUES` classes, a class is
    content (a post's tags) when it is on fewer than :data:`CLASS_MAJORITY` of the
    element's pages in every block and on fewer pages than the position's classes
    average; the others are the template's (``post``, ``type-post``, ``news-entry``).
    A token left with one class is its element's own token."""
    parts: dict[int, tuple[str, list[str], str]] = {}   # token → (position, classes, role)
    for tid, name in enumerate(token_names):
        parent, _, step = name.rpartition(">")
        base, tilde, rest = step.partition("~")
        if not tilde:
            continue
        listed, bracket, role = rest.partition("[")
        position = f"{parent}>{base}" if parent else base
        parts[tid] = (position, listed.split("."), bracket + role)
    if not parts:
        return {}
    values: dict[str, set[str]] = defaultdict(set)
    for position, classes, _role in parts.values():
        values[position].update(classes)
    judged = {p for p, v in values.items() if len(v) > MIN_CLASS_VALUES}
    if not judged:
        return {}
    best: dict[tuple[str, str], float] = defaultdict(float)   # highest share in a block
    total: Counter[tuple[str, str]] = Counter()                # pages, all blocks
    for counter in groups.values():
        seen: Counter[tuple[str, str]] = Counter()
        having: Counter[str] = Counter()
        for sid, n in counter.items():
            here: set[tuple[str, str]] = set()
            for tid in structures[sid]:
                if tid in parts and parts[tid][0] in judged:
                    position, classes, _role = parts[tid]
                    here.update((position, c) for c in classes)
            for pair in here:
                seen[pair] += n
            for position in {pair[0] for pair in here}:
                having[position] += n
        for pair, n in seen.items():
            best[pair] = max(best[pair], n / having[pair[0]])
        total.update(seen)
    # and a class on more pages than the position's classes average is not a tag either
    # (one section's own class in a block several sections share)
    mean: dict[str, float] = {}
    for position in judged:
        mean[position] = sum(total[(position, c)] for c in values[position]) / len(
            values[position])
    changes = {}
    for tid, (position, classes, role) in parts.items():
        if position not in judged:
            continue
        kept = [c for c in classes if best[(position, c)] >= CLASS_MAJORITY
                or total[(position, c)] >= mean[position]]
        if len(kept) == len(classes):
            continue
        changes[tid] = position + role if len(kept) <= 1 else \
            f"{position}~{'.'.join(kept)}{role}"
    return changes
