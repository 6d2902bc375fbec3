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
from collections.abc import Callable, Sequence

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
