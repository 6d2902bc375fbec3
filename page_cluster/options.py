"""Optional blocks that come and go independently: content of one template, not templates.

A landing page built from a CMS's block library shows three to six of eight blocks in
any order; an article has a share bar or not, a site notice or not. Compared token by
token, two pages of such a template share little (each block is a whole subtree), and
Stage A splits the template by which blocks a page happens to have. Two *templates*
of one block (the same path and stylesheets: a FAQ page and a policy page of one
section) also differ by their children under ``main``. The difference is in how the
children occur together, which the pages show:

- children of **one template's options** occur independently of each other: a page
  with the pricing block is as likely as any to have the video block (the correlation
  of their presences is near 0);
- children that **tell templates apart** exclude each other (the FAQ's list never
  appears with the policy's clauses: correlation −1) or come together (the policy's
  "updated" line always with its clauses: +1).

So within each block, a child element present on some of the pages its parent is on,
but not all, is a *free option* when every sibling option it can be compared with
(enough pages in each cell of their 2×2 table) shows no correlation beyond
:data:`PHI_MAX` that chance would not explain (:func:`_bound`), and at least
:data:`MIN_PEERS` can be. A free option's subtree is
left out of that block's comparisons, as a content container's is. Nothing is decided
without evidence: a child with fewer comparable siblings (a share bar beside a reviews
block under an article) stays structure, as do all children of a block too small to
show co-occurrence.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from typing import NamedTuple

PHI_MAX = 0.3
"""Largest correlation (the phi coefficient of the two presences) of two sibling
options that counts as independent. Blocks drawn at random without replacement from a
small library give a little under 0 (3–6 of 8: −0.05); children that exclude each other
give −1 when they share the pages, children that come together +1, whatever their
share."""

CHI2_BOUND = 10.83
"""Chi-square (one degree of freedom) past which a correlation is not chance: p = 0.001,
strict because each option is tested against every sibling (a landing page's block
against eleven others)."""

MIN_EXPECTED = 5.0
"""Pages independence must predict in every cell of the two options' 2×2 table (with
and without each) before the table is evidence of independence, or the chi-square
approximation holds: fewer, and chance alone moves the correlation past the bound.
Evidence of a bond needs no such size: a smaller table is judged by Fisher's exact
test (:func:`_exact_tail`) at the same level, :data:`EXACT_BOUND`."""

EXACT_BOUND = 0.001
"""Probability, under independence, of a table at least as far from it as the one seen
(Fisher's exact test, the tail in the observed direction) below which a small table
binds two options: the level of :data:`CHI2_BOUND`. A block of 1,354 articles and 46
archive lists shows its article on every page but the lists' and the lists' items on
none of the articles': independence predicts 1.5 pages without the article, too few
for the chi-square, and the exact test puts the table at 10⁻⁸⁷."""

MIN_PEERS = 2
"""Sibling options a free option must be independent of. Independence from one says
little: a template's own block (a reviews section) is as independent of a share bar
beside it as a landing page's blocks are of each other; a pool of interchangeable
blocks shows it with every one of them."""

PRESENT_MAX = 0.98
"""A child on more than this share of a block's pages is part of it, not an option."""


def free_options(groups: Mapping[str, Counter[int]],
                 structures: list[frozenset[tuple[int, int, int]]],
                 parent_of: Mapping[int, str], path_of: Mapping[int, str],
                 ignored: Iterable[int], ignored_in: Mapping[str, frozenset[int]]
                 ) -> dict[str, frozenset[int]]:
    """Per block, the tokens of its free options' subtrees (blocks with none left out).

    ``groups``: block → pages per structure id; ``structures``: the interned
    ``(token, depth under main, landmark)`` sets; ``parent_of`` / ``path_of``: a token's
    parent path and own path; ``ignored``: tokens already out of comparisons everywhere (the
    site's chrome), ``ignored_in`` per block (its content containers): no options."""
    # a token with all of an element's classes (``div.notice~notice.notice-#``) is that
    # element seen again, not a child of its own: it goes with the element's subtree
    skip = set(ignored) | {t for t, path in path_of.items()
                           if "~" in path.rpartition(">")[2]}
    children_of: dict[str, list[int]] = defaultdict(list)
    for tid, parent in parent_of.items():
        if parent:
            children_of[parent].append(tid)
    for tid, path in path_of.items():
        head, _, last = path.rpartition(">")
        if "~" in last:   # under the element it names
            children_of[(head + ">" if head else "") + last.partition("~")[0]].append(tid)
    token_of = {path: tid for tid, path in path_of.items()}
    parent_token = {tid: token_of[parent] for tid, parent in parent_of.items()
                    if parent in token_of}
    decided: dict[str, dict[int, bool]] = {}   # block → option → free (compared ones)
    present_in: dict[str, set[int]] = {}
    skips: dict[frozenset[int], set[int]] = {}
    for block, counter in groups.items():
        excluded = ignored_in.get(block, frozenset())
        if excluded not in skips:
            skips[excluded] = skip | excluded
        verdict = _judge(counter, structures, skips[excluded], parent_of, parent_token)
        decided[block] = verdict
        present_in[block] = {t for sid in counter for t, d, _lm in structures[sid] if d >= 1}
    # a block too small to judge takes the site's verdict: free where some block found
    # an option free and none found it bound to its siblings
    free_somewhere = {t for v in decided.values() for t, ok in v.items() if ok}
    bound_somewhere = {t for v in decided.values() for t, ok in v.items() if not ok}
    site_free = free_somewhere - bound_somewhere
    out: dict[str, frozenset[int]] = {}
    subtrees: dict[frozenset[int], frozenset[int]] = {}
    for block, verdict in decided.items():
        heads = frozenset({t for t, ok in verdict.items() if ok}
                          | {t for t in site_free & present_in[block] if t not in verdict})
        if not heads:
            continue
        if heads not in subtrees:
            subtrees[heads] = _subtree(heads, path_of, children_of)
        out[block] = subtrees[heads]
    return out


def _judge(counter: Counter[int], structures: list[frozenset[tuple[int, int, int]]],
           skip: set[int], parent_of: Mapping[int, str], parent_token: Mapping[int, int]
           ) -> dict[int, bool]:
    """One block's verdicts: option → free (True) or bound (False), for the options with
    :data:`MIN_PEERS` comparable siblings or a bound one.

    A block may hold several templates (a product page and a category page under one
    path): their *markers* (``div.product``, ``div.container``) exclude each other, and
    an option of one template (a product page's rail of related products) is then bound
    to its template's marker although it is free among that template's pages. So the
    markers are found first, on the whole block (a sibling they exclude), and the other
    options are judged among the pages of each combination of markers, one template's
    pages at a time."""
    pairs = _correlations(counter, structures, skip, parent_of, parent_token)
    markers = {t for (a, b), pair in pairs.items()
               if pair.phi < 0 and _bound(pair) for t in (a, b)}
    # an option found only with one marker (the rail only on product pages) is an option
    # of that template, kept apart from the other templates by its marker, not one itself
    inside = {x for (a, b), pair in pairs.items()
              for x, m, nx, nm in ((a, b, pair.na, pair.nb), (b, a, pair.nb, pair.na))
              if x in markers and m in markers and pair.nab == nx and nm > nx}
    markers -= inside
    strata: dict[frozenset[int], Counter[int]] = defaultdict(Counter)
    for sid, n in counter.items():
        strata[frozenset(t for t, _d, _lm in structures[sid] if t in markers)][sid] += n
    verdict: dict[int, bool] = dict.fromkeys(markers, False)
    peers: dict[int, set[int]] = defaultdict(set)   # siblings it was compared with
    for stratum in strata.values():
        within = _correlations(stratum, structures, skip | markers, parent_of, parent_token)
        for (a, b), pair in within.items():
            independent = not _bound(pair)
            if independent and not pair.readable:   # too small to say either way
                continue
            for t, other in ((a, b), (b, a)):
                verdict[t] = verdict.get(t, True) and independent
                peers[t].add(other)
    return {t: ok for t, ok in verdict.items() if not ok or len(peers[t]) >= MIN_PEERS}


class _Pair(NamedTuple):
    """Two sibling options' 2×2 table: their correlation, the pages of each, of both, and
    of their parent (``n``); ``readable`` when independence fills every cell enough
    (:data:`MIN_EXPECTED`)."""

    phi: float
    na: int
    nb: int
    nab: int
    n: int
    readable: bool


def _bound(pair: _Pair) -> bool:
    """Are two options correlated, as evidence and not chance: beyond :data:`PHI_MAX`,
    and significant (the 2×2 table's chi-square, ``n · phi²``, past :data:`CHI2_BOUND`;
    a table too small for it by the exact test, :data:`EXACT_BOUND`)? Thirty landing
    pages show correlations of ±0.4 between blocks drawn independently; ten thousand
    pages make a correlation of 0.05 significant."""
    if abs(pair.phi) <= PHI_MAX:
        return False
    if pair.readable:
        return pair.n * pair.phi * pair.phi > CHI2_BOUND
    return _exact_tail(pair) < EXACT_BOUND


def _exact_tail(pair: _Pair) -> float:
    """Fisher's exact test of a 2×2 table, one-sided in the direction of its correlation:
    the probability, with both options' pages as seen and independent of each other, of
    sharing ``nab`` pages or fewer (a negative correlation), or ``nab`` or more."""
    n, na, nb = pair.n, pair.na, pair.nb
    low, high = max(0, na + nb - n), min(na, nb)
    base = math.lgamma(na + 1) + math.lgamma(n - na + 1) + math.lgamma(nb + 1) \
        + math.lgamma(n - nb + 1) - math.lgamma(n + 1)

    def mass(k: int) -> float:
        return math.exp(base - math.lgamma(k + 1) - math.lgamma(na - k + 1)
                        - math.lgamma(nb - k + 1) - math.lgamma(n - na - nb + k + 1))

    ks = range(low, pair.nab + 1) if pair.phi < 0 else range(pair.nab, high + 1)
    return min(1.0, sum(mass(k) for k in ks))


def _correlations(counter: Counter[int], structures: list[frozenset[tuple[int, int, int]]],
                  skip: set[int], parent_of: Mapping[int, str],
                  parent_token: Mapping[int, int]
                  ) -> dict[tuple[int, int], _Pair]:
    """The 2×2 table of each pair of sibling options on ``counter``'s pages (pages per
    structure): their phi coefficient, the pages of each and of both, and whether
    independence fills its cells enough to be read (:data:`MIN_EXPECTED`). An option is
    judged among the pages its parent is on (an article's title and body are on every
    article, however few of the block's pages are articles)."""
    total = sum(counter.values())
    present: Counter[int] = Counter()
    for sid, n in counter.items():
        for t, depth, _lm in structures[sid]:
            if depth >= 1 and t not in skip:
                present[t] += n
    among = {t: present.get(parent_token.get(t, -1), total) for t in present}
    optional = {t for t, c in present.items() if c <= PRESENT_MAX * among[t]}
    both: Counter[tuple[int, int]] = Counter()
    for sid, n in counter.items():
        mine: dict[str, list[int]] = defaultdict(list)
        for t, _depth, _lm in structures[sid]:
            if t in optional:
                mine[parent_of[t]].append(t)
        for siblings in mine.values():
            siblings.sort()
            for i, a in enumerate(siblings):
                for b in siblings[i + 1:]:
                    both[(a, b)] += n
    by_parent: dict[str, list[int]] = defaultdict(list)
    for t in optional:
        by_parent[parent_of[t]].append(t)
    out: dict[tuple[int, int], _Pair] = {}
    for siblings in by_parent.values():
        siblings.sort()
        for i, a in enumerate(siblings):
            for b in siblings[i + 1:]:
                n = max(among[a], 1)
                na, nb, nab = present[a], present[b], both[(a, b)]
                # the smallest cell independence predicts: the usual rule for a
                # contingency table to be read as evidence of independence
                expected = min(na, n - na) * min(nb, n - nb) / n
                if expected <= 0:   # an option on all of its parent's pages, or none
                    continue
                phi = (nab * n - na * nb) / math.sqrt(na * (n - na) * nb * (n - nb))
                out[(a, b)] = _Pair(phi, na, nb, nab, n, expected >= MIN_EXPECTED)
    return out


def _subtree(heads: frozenset[int], path_of: Mapping[int, str],
             children_of: Mapping[str, list[int]]) -> frozenset[int]:
    """The heads and every token below them."""
    subtree = set(heads)
    stack = [path_of[t] for t in heads]
    while stack:
        for child in children_of.get(stack.pop(), ()):
            if child not in subtree:
                subtree.add(child)
                stack.append(path_of[child])
    return frozenset(subtree)
