"""``resolve_page_cluster_keys``: pages in, one template key per page out.

The pipeline (docs/page-cluster.md has the picture):

1. **Read** (one pass, bounded memory): each page's HTML is parsed into structural tokens
   (:mod:`page_cluster.tokens`) and forgotten. What is kept is interned: a page becomes
   two small integers — its *structure* (the set of ``(token, depth under <main>,
   landmark)`` triples, shared by every page built the same way) and its *block*. Memory
   grows with the number of distinct structures, not with pages or bytes.
2. **Chrome discovery**: landmark instances (header, footer, nav, aside, form, search)
   identical across pages are counted; the self-tuning cut (:func:`auto_cut_threshold`)
   on how many pages share each separates *global chrome* (the site's header and footer,
   left out of every comparison: they make every page look alike) from *local chrome*
   (a section's sidebar or table of contents, kept: it distinguishes templates).
3. **Content containers under <main>**: article bodies vary page by page (paragraphs,
   tables, figures) below the element where the template ends. The elements whose
   children vary most (the same cut on how many child variants each shows) are content
   containers, decided per block (:func:`_content_containers`), so bodies stop
   splitting a template.
   Children of an element that come and go independently of their siblings (a landing
   page's blocks, a promotion beside a video) are *free options*, decided per block
   from how they occur together (:mod:`page_cluster.options`), and left out as well.
4. **Blocking** (Pass 0): pages are grouped by their first URL path segment and their
   first-party stylesheet set, so that the expensive comparisons stay inside a block;
   pages without stylesheet data join the biggest block of their path segment.
5. **Stage A**, per block: complete-linkage clustering of the distinct structures by
   Jaccard distance, cut at the site's widest gap between merge heights, or where a
   block with structures enough sits its pages best (:func:`_group_cut`).
6. **Stage B**: clusters of different blocks whose quorum cores (tokens on 80 % of their
   pages) are near-identical merge, to a fixed point, behind a cohesion guard — the same
   template served under two paths (``/docs/…`` and ``/en/docs/…``) is one template.
   So do clusters that both hold one structure on a fifth of their pages or more
   (:func:`_built_alike`): pages built identically are one template, whichever block's
   cut kept them apart.

Every key is ``["<block>","cluster:<n>"]``, numbered in order of first appearance, so
the same input gives byte-identical output.
"""

from __future__ import annotations

import json
import re
from array import array
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.cluster.hierarchy import fcluster, linkage  # type: ignore[import-untyped]
from scipy.spatial.distance import squareform  # type: ignore[import-untyped]
from scipy.special import bdtr, bdtrc  # type: ignore[import-untyped]

from .ids import content_class_rewrites, content_id_rewrites
from .options import EXACT_BOUND, free_options
from .similarity import auto_cut_threshold, incidence, jaccard_matrix
from .stylesheets import first_party
from .tokens import parse
from .wrappers import wrapper_rewrites

_DIGITS = re.compile(r"\d+")

MIN_SPLIT_DISTANCE = 0.3
"""Lowest site-wide Stage A cut height, whatever the widest gap says. A template's
optional parts (a share bar, a site notice, modifier classes, an empty result list)
combine to a distance of 0.1–0.25 between two of its pages; below 0.3 the pooled heights
of a site whose blocks each hold one template have no second population, and their
widest gap would split options from options. Templates closer than this are told apart
by their landmarks (a sidebar, a form), their path block (docs/page-cluster.md), or a
group's own verdict (:func:`_group_cut`)."""

CUT_CANDIDATES = tuple(round(0.05 * k, 2) for k in range(2, 20))
"""Cut heights a group with structures enough tries for itself (0.10 to 0.95)."""

MIN_OWN_STRUCTURES = 20
"""Distinct structures a group (block and landmark profile) needs before its own
silhouettes choose its cut: with fewer, a handful of heights gives no verdict and the
site's cut holds. Measured, not derived: the real wiki's ``index.php`` and ``api.php``
groups hold 20 to 130 structures, our generators' groups at most 11 (a template and the
combinations of its options), and their own verdicts there would split options."""

ALONE_DISTANCE = 1.0
"""A structure's distance to the nearest other template when its group's cut leaves a
single cluster: the others are in other blocks, under another path or with other
stylesheets, as far as the comparison can tell."""

STAGE_B_SIMILARITY = 0.97
"""Jaccard similarity of quorum cores above which clusters of *different* blocks merge.
Fixed, not self-tuned: what Stage B is for — one template under two paths (``/docs/…``
and ``/en/docs/…``, ``/blog/`` and ``/blog/page/2``) — gives identical cores (optional
parts and noise stay out of a core, which holds tokens on 80 % of pages), while two
sections' templates that differ by a class or a block give 0.9 and must stay apart; a
cut over the handful of values Stage B sees would not be meaningful."""

QUORUM = 0.8
"""Share of a cluster's pages a token must be on to be in the cluster's core."""

STAGE_B_MIN_CORE = 3
"""Fewest tokens the merged core of two clusters of different blocks must keep for Stage B
to merge them. Two sections whose pages are all text (a container, and content left
out) have identical, nearly empty cores; that says nothing of one template, and their
blocks keep them apart. The smallest true merges seen hold four tokens (a campaign's
frame under two paths on our extended site, a Pelican archive's five)."""

COHESION_GUARD = 0.8
"""A Stage B merge is refused when the merged core keeps less than this share of the
smaller core: many small steps must not chain unrelated templates together."""

GLOBAL_CHROME_MIN = 0.3
"""A landmark shared by fewer pages than this is never global chrome, whatever the cut
says: a sidebar on a third of the site is a template feature, not the site's frame."""

MIN_TELLING_PAGES = 5.0
"""Pages of a block a landmark design's site-wide share must predict both with and
without it for the block to tell whether the share holds there
(:func:`_steady_designs`): the usual size for a count to be read against a law, as
:data:`~page_cluster.options.MIN_EXPECTED` is for a 2×2 table."""

MIN_CONTENT_VARIANTS = 8
"""Fewest child variants an element must show to be a content container: an element
with a few (a share bar or not, a notice or not: 2 to 4) is template with options."""

CONTENT_SPREAD = 0.25
"""Share of a block's pages below which an element's child variants repeat (each set on
four pages or more on average): a template switch gives hundreds of pages the same few
(a wiki's content area under ``index.php``: 26 variants on 1,340 pages, 0.02), an
article body most pages a set of their own (Sphinx's sections: 0.6 to 1) — or, with a
small vocabulary, few sets again, hence :func:`_switches`' second test."""

FIXED_VARIANTS = 4
"""Most child sets of an element that is a fixed part of a block's template, options
included (a notice or not, a share bar or not: 2 to 4)."""

SWITCH_OWN_PARTS = 0.5
"""Share of a page's children, on average, that must be parts most of the block's other
pages lack (:func:`_own_parts`) for an element to switch between templates there (a
wiki's ``index.php``: 0.54 to 0.89; its ``api.php``, help pages and results: 0.72, where
counting against all pages said 0.25; an element holding text: 0.07 to 0.38 on the wiki,
0 to 0.08 on our generators)."""

MAX_TRACKED_VARIANTS = 200
"""Child variants counted per element before it is plainly a content container (bounds
the memory of the count)."""

MAX_LINKAGE = 1500
"""Most distinct structures of a block clustered by complete linkage (its memory is the
square of this); the rest join the cluster of their most similar clustered structure."""

PATH_VALUE_MIN_PAGES = 2
"""A second path segment shared by this many pages names a part of the site (kept in
the block key); one seen on a single page is an item's own name."""

STAGE_B_ROUNDS = 10
"""Safety valve of the Stage B fixed point (it converges in a few rounds)."""

Progress = Callable[[str, str], None]
"""``(phase, message)``: phases ``pass0``, ``pass1``, ``pass1b``, ``stage-b``, ``done``."""


@dataclass
class _Corpus:
    """Everything kept about the pages once read: interned, bounded."""

    token_ids: dict[str, int] = field(default_factory=dict)
    landmark_ids: dict[frozenset[int], int] = field(default_factory=dict)
    landmark_pages: Counter[int] = field(default_factory=Counter)
    landmark_kind: dict[int, str] = field(default_factory=dict)
    landmark_shell: dict[int, frozenset[str]] = field(default_factory=dict)
    landmark_root: dict[int, int] = field(default_factory=dict)  # its own element's token
    # landmark elements found inside a list's items on some page (a post's quote, a
    # card's footer): where a page holds a single item they make an instance, and it is
    # no template region either
    item_roots: set[int] = field(default_factory=set)
    structures: dict[frozenset[tuple[int, int, int]], int] = field(default_factory=dict)
    structure_list: list[frozenset[tuple[int, int, int]]] = field(default_factory=list)
    # per page, three 4-byte ints (structure, path pair, stylesheet set): what a page
    # costs once read; the values they point to are shared by the pages alike
    page_structure: array[int] = field(default_factory=lambda: array("i"))
    path_ids: dict[tuple[str, str], int] = field(default_factory=dict)  # two first segments
    page_path: array[int] = field(default_factory=lambda: array("i"))
    css_ids: dict[frozenset[str], int] = field(default_factory=dict)
    page_css: array[int] = field(default_factory=lambda: array("i"))  # -1: no data

    def token(self, path: str) -> int:
        tid = self.token_ids.get(path)
        if tid is None:
            tid = self.token_ids[path] = len(self.token_ids)
        return tid


def _read(pages: Iterable[Mapping[str, Any]], content_block_attribute: str | None,
          progress: Progress | None) -> _Corpus:
    corpus = _Corpus()
    for n, page in enumerate(pages, 1):
        doc = parse(str(page.get("html") or ""), content_block_attribute=content_block_attribute)
        lm_ids = []
        for landmark in doc.landmarks:
            key = frozenset(corpus.token(t) for t in landmark.tokens)
            lid = corpus.landmark_ids.get(key)
            if lid is None:
                lid = corpus.landmark_ids[key] = len(corpus.landmark_ids)
                corpus.landmark_kind[lid] = landmark.kind
                corpus.landmark_shell[lid] = landmark.shell
                corpus.landmark_root[lid] = corpus.token(landmark.root)
            lm_ids.append(lid)
        for path in doc.item_landmarks:
            corpus.item_roots.add(corpus.token(path))
        for lid in set(lm_ids):
            corpus.landmark_pages[lid] += 1
        structure = frozenset(
            (corpus.token(t.path), t.main_depth, lm_ids[t.landmark] if t.landmark >= 0 else -1)
            for t in doc.tokens)
        sid = corpus.structures.get(structure)
        if sid is None:
            sid = corpus.structures[structure] = len(corpus.structure_list)
            corpus.structure_list.append(structure)
        corpus.page_structure.append(sid)
        paths = page.get("paths")
        segments = [_DIGITS.sub("#", str(s))[:100] for s in paths[:2]] \
            if isinstance(paths, list) else []
        pair = (segments[0] if segments else "", segments[1] if len(segments) > 1 else "")
        corpus.page_path.append(corpus.path_ids.setdefault(pair, len(corpus.path_ids)))
        hrefs = page.get("stylesheetHrefs")
        if isinstance(hrefs, list):
            host = page.get("host")
            css = first_party(hrefs, host if isinstance(host, str) and host else None)
            corpus.page_css.append(corpus.css_ids.setdefault(css, len(corpus.css_ids)))
        else:
            corpus.page_css.append(-1)
        if progress is not None and n % 1000 == 0:
            progress("pass0", f"{n} pages read")
    return corpus


def _groups(corpus: _Corpus, block_of: Sequence[str]) -> dict[str, Counter[int]]:
    """Each block's pages per structure id."""
    groups: dict[str, Counter[int]] = defaultdict(Counter)
    for block, sid in zip(block_of, corpus.page_structure, strict=True):
        groups[block][sid] += 1
    return groups


def _drop_content_ids(corpus: _Corpus, block_of: Sequence[str]) -> None:
    """Take content-derived ids and classes out of the token paths
    (:mod:`page_cluster.ids`) and intern again: tokens, landmark instances and
    structures that differed only by them become one."""
    names = [""] * len(corpus.token_ids)
    for path, tid in corpus.token_ids.items():
        names[tid] = path
    tokens_of = [frozenset(t for t, _d, _lm in s) for s in corpus.structure_list]
    weights = Counter(corpus.page_structure)
    counts = [weights[s] for s in range(len(tokens_of))]
    changes = content_id_rewrites(names, tokens_of, counts)
    renamed = [changes.get(tid, path) for tid, path in enumerate(names)]
    for tid, path in content_class_rewrites(renamed, tokens_of,
                                            _groups(corpus, block_of)).items():
        changes[tid] = path
    # then layout wrappers (:mod:`page_cluster.wrappers`), on the paths as renamed
    renamed = [changes.get(tid, path) for tid, path in enumerate(names)]
    inside_main = {t for s in corpus.structure_list for t, d, _lm in s if d >= 1}
    shift = [0] * len(names)   # steps under <main> a token's path loses
    for tid, path in wrapper_rewrites(renamed, tokens_of, inside_main).items():
        shift[tid] = renamed[tid].count(">") - path.count(">")
        changes[tid] = path
    if not changes:
        return
    token_ids: dict[str, int] = {}
    new_token = [0] * len(names)
    for tid, path in enumerate(names):
        new_token[tid] = token_ids.setdefault(changes.get(tid, path), len(token_ids))
    corpus.token_ids = token_ids
    new_landmark: dict[int, int] = {}
    landmark_ids: dict[frozenset[int], int] = {}
    landmark_pages: Counter[int] = Counter()
    kinds: dict[int, str] = {}
    shells: dict[int, frozenset[str]] = {}
    roots: dict[int, int] = {}
    for key, lid in sorted(corpus.landmark_ids.items(), key=lambda kv: kv[1]):
        new_key = frozenset(new_token[t] for t in key)
        nid = landmark_ids.setdefault(new_key, len(landmark_ids))
        new_landmark[lid] = nid
        landmark_pages[nid] += corpus.landmark_pages[lid]
        kinds.setdefault(nid, corpus.landmark_kind[lid])
        shells.setdefault(nid, corpus.landmark_shell[lid])
        roots.setdefault(nid, new_token[corpus.landmark_root[lid]])
    total = len(corpus.page_structure)
    corpus.landmark_ids = landmark_ids
    # instances that became one on a page count it twice: never more pages than there are
    corpus.landmark_pages = Counter({k: min(n, total) for k, n in landmark_pages.items()})
    corpus.landmark_kind = kinds
    corpus.landmark_shell = shells
    corpus.landmark_root = roots
    corpus.item_roots = {new_token[t] for t in corpus.item_roots}
    structures: dict[frozenset[tuple[int, int, int]], int] = {}
    new_structure = [0] * len(corpus.structure_list)
    for sid, structure in enumerate(corpus.structure_list):
        mapped = frozenset((new_token[t], d - shift[t],
                            new_landmark.get(lm, -1) if lm >= 0 else -1)
                           for t, d, lm in structure)
        new_structure[sid] = structures.setdefault(mapped, len(structures))
    corpus.structures = structures
    corpus.structure_list = list(structures)
    corpus.page_structure = array("i", (new_structure[s] for s in corpus.page_structure))


def _global_chrome(corpus: _Corpus, block_of: Sequence[str]) -> set[int]:
    """Landmark instances shared so widely that they are the site's frame.

    Shares are counted per *design*, not per exact instance: a menu whose active item
    moves (``li.active`` on a category's pages, none elsewhere) or a header with an
    optional notice is one design in several instances, and each instance alone may be
    on too few pages to look like the frame (:func:`_designs`)."""
    pages = len(corpus.page_structure)
    if not pages or not corpus.landmark_pages:
        return set()
    design_of = _designs(corpus)
    design_pages: Counter[int] = Counter()
    for lid, n in corpus.landmark_pages.items():
        design_pages[design_of[lid]] += n
    shares = {d: min(n, pages) / pages for d, n in design_pages.items() if n >= 2}
    if not shares:
        return set()
    cut = auto_cut_threshold(list(shares.values()))
    if cut is None:  # one share for all: the frame if widely shared
        frame = {d for d, s in shares.items() if s >= GLOBAL_CHROME_MIN}
    else:
        frame = {d for d, s in shares.items() if s > cut and s >= GLOBAL_CHROME_MIN}
    frame |= _steady_designs(corpus, design_of, block_of, frame)
    return {lid for lid in corpus.landmark_pages if design_of[lid] in frame}


STEADY_BLOCKS = 3
"""Blocks a landmark design must be seen in, each with pages enough to have shown it
missing, before its steady share there says it is the frame (:func:`_steady_designs`):
in one or two blocks a share is as likely to be a template's as the site's."""


def _steady_designs(corpus: _Corpus, design_of: Mapping[int, int], block_of: Sequence[str],
                    frame: set[int]) -> set[int]:
    """Landmark designs on a share of the site's pages that does not depend on where a
    page is: the frame shown to some visits and not others (a cookie consent on the
    pages of a first visit), not a region of any template.

    A region of a template comes with its template: a sidebar is on every page of one
    block and on none of the next, a pager on a share of the list blocks' pages and on
    none of the detail pages'. A consent dialog shown at random is on about half the
    pages of *every* block, whatever the block's templates, so its presence tells no
    template from another. Each design not yet in the frame is held against the
    binomial law of its site-wide share, block by block (the exact tail of the block's
    count, two-sided, at :data:`~page_cluster.options.EXACT_BOUND` shared out over the
    blocks tested, Bonferroni): a block with too many or too few pages showing it makes
    it a template's; one that no block contradicts, seen in :data:`STEADY_BLOCKS`
    blocks or more whose size could have shown it missing, is the frame. Nothing is
    decided without that evidence: a design of two blocks, or of small ones, stays a
    region."""
    total = len(block_of)
    block_pages: Counter[str] = Counter(block_of)
    designs_of: dict[int, frozenset[int]] = {}
    with_design: dict[int, Counter[str]] = defaultdict(Counter)
    for (block, sid), n in Counter(zip(block_of, corpus.page_structure, strict=True)).items():
        designs = designs_of.get(sid)
        if designs is None:
            designs = designs_of[sid] = frozenset(
                design_of[lm] for _t, _d, lm in corpus.structure_list[sid]
                if lm >= 0 and design_of[lm] not in frame)
        for design in designs:
            with_design[design][block] += n
    blocks = sorted(block_pages)
    sizes = np.array([block_pages[b] for b in blocks], dtype=np.int64)
    steady = set()
    for design, per_block in with_design.items():
        share = sum(per_block.values()) / total
        if share >= 1.0:
            continue
        seen = np.array([per_block.get(b, 0) for b in blocks], dtype=np.int64)
        # a block can contradict the share only if its size could show it missing
        telling = sizes * min(share, 1 - share) >= MIN_TELLING_PAGES
        if int(np.count_nonzero(telling & (seen > 0))) < STEADY_BLOCKS:
            continue
        level = EXACT_BOUND / max(int(np.count_nonzero(telling)), 1) / 2
        low = bdtr(seen, sizes, share)    # P(X <= seen); then P(X >= seen)
        high = np.where(seen > 0, bdtrc(np.maximum(seen - 1, 0), sizes, share), 1.0)
        if float(np.minimum(low, high).min()) >= level:
            steady.add(design)
    return steady


DESIGN_OVERLAP = 0.9
"""Share of an instance's tokens that must be its design's for the two to be one. For
the same element (the same path, id and classes), the design's tokens are those all its
instances so far have used: ``div.sphinxsidebar`` with a table of contents of any
length, or with only its "next topic" part, a menu with its active item anywhere or
nowhere. For another element, the design's first instance, and the smaller of the two
must be at least half the larger's size (a header with an optional notice). A site's
header and a section's sub-navigation share a few generic tokens; a bare ``nav>ul``
elsewhere is not a mega menu's design."""

MAX_DESIGNS = 64
"""Designs compared per landmark kind; instances beyond them are designs of their own
(a page-specific breadcrumb on every page would otherwise cost a comparison each)."""


def _designs(corpus: _Corpus) -> dict[int, int]:
    """Landmark instance → its design: the most widely shared instance of its kind that
    is one design with it (:data:`DESIGN_OVERLAP`). Instances are taken the most shared
    first and compared, by their tokens, with the designs found so far: an instance of
    the same element with the tokens its design's instances have used (a sidebar with
    only its "next topic" part, one with a long table of contents), or, for another
    element, with the design's first instance."""
    design_of: dict[int, int] = {}
    designs: dict[str, list[tuple[int, frozenset[int], set[int]]]] = defaultdict(list)
    root = corpus.landmark_root
    tokens_of = {lid: key for key, lid in corpus.landmark_ids.items()}
    for lid in sorted(tokens_of, key=lambda i: (-corpus.landmark_pages[i], i)):
        tokens = tokens_of[lid]
        found = designs[corpus.landmark_kind[lid]]
        match = None
        for design, first, used in found:
            if root[design] == root[lid]:
                alike = len(tokens & used) >= DESIGN_OVERLAP * len(tokens)
            else:
                small, large = sorted((len(tokens), len(first)))
                alike = small * 2 >= large and \
                    len(tokens & first) >= DESIGN_OVERLAP * small
            if alike:
                match = design
                used.update(tokens)
                break
        if match is None:
            match = lid
            if len(found) < MAX_DESIGNS:
                found.append((lid, tokens, set(tokens)))
        design_of[lid] = match
    return design_of


def _effective(structure: frozenset[tuple[int, int, int]], chrome: set[int],
               hidden: frozenset[int]) -> frozenset[int]:
    """The tokens compared: not global chrome, not inside a content container."""
    return frozenset(t for t, _d, lm in structure if lm not in chrome and t not in hidden)


def _profile(structure: frozenset[tuple[int, int, int]], chrome: set[int],
             kinds: Mapping[int, str], roots: Mapping[int, int], hidden: frozenset[int]
             ) -> str:
    """The kinds of local landmarks a page has (``aside``, ``form``, ``nav``…): a sidebar
    or a form more or less is a template difference however small it is in tokens. A
    landmark inside a content container (an ``aside`` a document's text puts in its
    body: a note, a "see also") is content, as the rest of that body is."""
    return ",".join(sorted({kinds[lm] for _t, _d, lm in structure
                            if lm >= 0 and lm not in chrome and roots[lm] not in hidden}))


def _content_containers(corpus: _Corpus, chrome: set[int], block_of: list[str]
                        ) -> dict[str, frozenset[int]]:
    """Per block, the tokens inside its *content containers*: the elements under <main>
    whose children change from page to page (an article body: paragraphs, lists, tables
    in any order).

    For every element path under <main>, the sets of child paths its pages show are
    counted within each block (a block holds one or a few templates, so <main> itself,
    whose children differ between templates, shows few variants there); pages built
    alike share one interned structure, so this runs over distinct structures. The
    self-tuning cut on the elements' most variants in any block separates the few
    elements with many child variants from the template's fixed parts, which show one
    to four (a share bar or not, a notice or not).

    The verdict is then taken per block, because one element can be an article body in
    one block and the switch between templates in another (a wiki's content area holds
    an article's text under ``/wiki/``, and under ``index.php`` the edit form, the
    history or a special page's list, each the same on hundreds of pages). A content
    container gives many of its pages a child set of their own: in a block, the element
    is one when its variants are at least :data:`CONTENT_SPREAD` of the block's pages
    that have it. Everything below a content container is left out of that block's
    comparisons: it is content, not template. This is the seed's depth cap under
    <main>, chosen per element and block instead of per page.
    """
    parent_of: dict[int, str] = {}
    for path, tid in corpus.token_ids.items():
        parent_of[tid] = path.rpartition(">")[0]
    # per (block, element): pages per child set (the first MAX_TRACKED_VARIANTS sets),
    # pages per child, and pages with the element
    variants: dict[tuple[str, str], Counter[frozenset[int]]] = defaultdict(Counter)
    kinds: dict[tuple[str, str], Counter[int]] = defaultdict(Counter)
    having: Counter[tuple[str, str]] = Counter()
    for (block, sid), pages in Counter(zip(block_of, corpus.page_structure,
                                           strict=True)).items():
        children: dict[str, set[int]] = defaultdict(set)
        for t, depth, lm in corpus.structure_list[sid]:
            if lm in chrome or depth < 2:  # main's own children count from depth 1
                continue
            children[parent_of[t]].add(t)
        for parent, kids in children.items():
            having[(block, parent)] += pages
            seen = variants[(block, parent)]
            kids_set = frozenset(kids)
            if kids_set in seen or len(seen) <= MAX_TRACKED_VARIANTS:
                seen[kids_set] += pages
            kinds[(block, parent)].update(dict.fromkeys(kids, pages))
    counts: dict[str, int] = {}
    for (_block, parent), seen in variants.items():
        counts[parent] = max(counts.get(parent, 0), len(seen))
    cut = auto_cut_threshold(list(counts.values()))
    if cut is None:
        return {}
    candidates = {parent for parent, n in counts.items()
                  if n > cut and n >= MIN_CONTENT_VARIANTS}
    per_block: dict[str, set[str]] = defaultdict(set)
    for (block, parent), seen in variants.items():
        if parent in candidates and not _switches(seen, kinds[(block, parent)],
                                                  having[(block, parent)]):
            per_block[block].add(parent)
    hidden: dict[frozenset[str], frozenset[int]] = {}
    out: dict[str, frozenset[int]] = {}
    for block, containers in per_block.items():
        key = frozenset(containers)
        if key not in hidden:
            hidden[key] = frozenset(tid for tid, head in parent_of.items()
                                    if head and _under(head, containers))
        out[block] = hidden[key]
    return out


def _switches(variants: Counter[frozenset[int]], kinds: Counter[int], pages: int) -> bool:
    """Is an element, in a block, template (a switch between templates, or a fixed part)
    rather than a text, although it holds a text elsewhere?

    Its child sets must repeat (fewer than :data:`CONTENT_SPREAD` of its pages have a
    set of their own), and either be a few (:data:`FIXED_VARIANTS` at most: the block's
    pages all build it alike, with an option or two — an article's content area whose
    text is one level down) or be made of parts the block's other pages lack (on a page,
    on average, more than :data:`SWITCH_OWN_PARTS` of its children are
    :func:`_own_parts`: each page kind brings its own form or list). An article body's
    children are drawn from what most articles use (paragraphs, lists, figures), however
    few variants a small block shows."""
    if len(variants) >= CONTENT_SPREAD * pages:
        return False
    if len(variants) <= FIXED_VARIANTS:
        return True
    seen = sum(variants.values())
    own = sum(n * _own_parts(kids, n, kinds, pages) for kids, n in variants.items())
    return own > SWITCH_OWN_PARTS * seen


def _own_parts(kids: frozenset[int], n: int, kinds: Counter[int], pages: int) -> float:
    """Share of a child set's children that fewer than half of the *other* pages have
    (the pages whose child set is another: ``kinds`` counts the ``n`` pages of this set
    too, which all have them).

    Counted against the other pages, not all of them: a block of two templates whose
    bigger one varies (an API's help pages, two thirds of the block: their parts are on
    most of its pages) beside one built the same every time (the API's results, a
    header and a ``<pre>``) is a switch, and the bigger template's parts are its own as
    much as the smaller's are. Counted against all pages, the bigger template's parts
    were shared, the element was a text, and everything in it left out made the two one
    template. A text's parts (paragraphs, lists) are on most of the other pages too."""
    others = pages - n
    return sum(1 for k in kids if (kinds[k] - n) * 2 < others) / len(kids)


def _free_options(corpus: _Corpus, block_of: list[str], chrome: set[int],
                  hidden: Mapping[str, frozenset[int]]) -> dict[str, frozenset[int]]:
    """Per block, the subtrees of its free options (:mod:`page_cluster.options`)."""
    groups = _groups(corpus, block_of)
    path_of = {tid: path for path, tid in corpus.token_ids.items()}
    parent_of = {tid: path.rpartition(">")[0] for tid, path in path_of.items()}
    chrome_tokens = {t for s in corpus.structure_list for t, _d, lm in s if lm in chrome}
    return free_options(groups, corpus.structure_list, parent_of, path_of,
                        chrome_tokens, hidden)


def _under(head: str, containers: set[str]) -> bool:
    """Is an element whose parent has the inner path ``head`` inside a container (the
    parent itself or one of its ancestors)?"""
    steps = head.split(">")
    return any(">".join(steps[:k]) in containers for k in range(1, len(steps) + 1))


def _path_keys(corpus: _Corpus) -> list[str]:
    """Each page's path key: its first segment, and its second when that value is a
    section of the site rather than an item. A second value on a single page is an item
    (a slug, an id); one shared by several pages (``tag``, ``page``, a year) is kept.
    The same holds at the top: a first segment that is one page's own name and nothing
    else's (``about.html``, ``genindex-A.html``, ``/contact``) is an item of the site's
    root, keyed ``*``. Digit runs are already ``#``."""
    seconds: Counter[int] = Counter(corpus.page_path)
    firsts: Counter[str] = Counter()
    for (first, _second), pid in corpus.path_ids.items():
        firsts[first] += seconds[pid]
    key_of: dict[int, str] = {}
    for (first, second), pid in corpus.path_ids.items():
        if second and seconds[pid] >= PATH_VALUE_MIN_PAGES:
            key_of[pid] = f"{first}/{second}"
        elif second:
            key_of[pid] = f"{first}/*"
        else:
            key_of[pid] = "*" if first and firsts[first] < PATH_VALUE_MIN_PAGES else first
    return [key_of[pid] for pid in corpus.page_path]


def _css_keys(corpus: _Corpus) -> dict[int, str]:
    """Each stylesheet set's key: its hrefs, less those that only one page links. A
    stylesheet of a page's own (a campaign's ``campaigns/<slug>.css``) says nothing of its
    template, as a path segment naming one page does not (:func:`_path_keys`)."""
    pages: Counter[str] = Counter()
    seen: Counter[int] = Counter(corpus.page_css)
    for css, cid in corpus.css_ids.items():
        for href in css:
            pages[href] += seen[cid]
    return {cid: ",".join(sorted(h for h in css if pages[h] >= PATH_VALUE_MIN_PAGES))
            for css, cid in corpus.css_ids.items()}


def _blocks(corpus: _Corpus) -> list[str]:
    """Block key per page: path key + stylesheet set; orphans (no stylesheet data) join
    the biggest block of their path key, else that of their first segment, else one of
    their own."""
    paths = _path_keys(corpus)
    keyed: list[str | None] = []
    sizes: Counter[tuple[str, str]] = Counter()
    css_keys = _css_keys(corpus)
    for path, cid in zip(paths, corpus.page_css, strict=True):
        if cid < 0:
            keyed.append(None)
            continue
        css_key = css_keys[cid]
        sizes[(path, css_key)] += 1
        keyed.append(f"path:{path}|css:{css_key}")
    best: dict[str, str] = {}
    for (path, css_key), _n in sorted(sizes.items(), key=lambda kv: (-kv[1], kv[0])):
        best.setdefault(path, f"path:{path}|css:{css_key}")
        best.setdefault(path.split("/")[0] + "/", f"path:{path}|css:{css_key}")
    return [k if k is not None else best.get(p) or best.get(p.split("/")[0] + "/")
            or f"path:{p}|css:?" for k, p in zip(keyed, paths, strict=True)]


@dataclass
class _Tree:
    """One (block, landmark profile) group's linkage, before it is cut."""

    ids: list[int]                  # distinct sets, by weight
    linked: int                     # how many of them the linkage holds
    tree: np.ndarray | None         # scipy linkage matrix; None for a single set
    matrix: Any                     # incidence rows of the linked sets
    # per cut of CUT_CANDIDATES, the silhouettes of the linked sets' pages, summed
    silhouettes: np.ndarray | None = None
    pages: int = 0                  # pages of the linked sets


def _linkage(sets: list[frozenset[int]], ids: list[int], weights: Mapping[int, int],
             width: int) -> _Tree:
    """Complete linkage of a group's distinct structures by Jaccard distance, and, for a
    group that judges its own cut (:func:`_group_cut`), how well each candidate cut
    would sit its pages (:func:`_silhouettes`)."""
    order = sorted(ids, key=lambda i: (-weights[i], i))
    if len(order) == 1:
        return _Tree(order, 1, None, None)
    linked = order[:MAX_LINKAGE]
    matrix = incidence([sets[i] for i in linked], width)
    dist = np.clip(1.0 - jaccard_matrix(matrix), 0.0, 1.0)
    np.fill_diagonal(dist, 0.0)
    tree = linkage(squareform(dist, checks=False), method="complete")
    if len(linked) < MIN_OWN_STRUCTURES:   # the site's cut: nothing to judge here
        return _Tree(order, len(linked), tree, matrix)
    pages = np.array([weights[i] for i in linked], dtype=np.float64)
    return _Tree(order, len(linked), tree, matrix, _silhouettes(tree, dist, pages),
                 int(pages.sum()))


def _silhouettes(tree: np.ndarray, dist: np.ndarray, pages: np.ndarray) -> np.ndarray:
    """For each cut of :data:`CUT_CANDIDATES`, the sum over the group's pages of their
    silhouette (Rousseeuw, 1987): ``(b - a) / max(a, b)``, ``a`` the page's mean distance
    to the other pages of its cluster, ``b`` to the pages of the nearest other cluster
    (:data:`ALONE_DISTANCE` when the cut leaves one). A page alone in its cluster
    counts 0. Pages of one structure are at distance 0 from each other."""
    out = np.zeros(len(CUT_CANDIDATES))
    rows = np.arange(len(pages))
    for c, cut in enumerate(CUT_CANDIDATES):
        labels = fcluster(tree, t=cut, criterion="distance") - 1
        k = int(labels.max()) + 1
        member = np.zeros((len(pages), k))
        member[rows, labels] = pages
        to_cluster = dist @ member                 # summed distance to each cluster's pages
        size = member.sum(axis=0)
        others = size[labels] - 1
        a = np.where(others > 0, to_cluster[rows, labels] / np.maximum(others, 1), 0.0)
        if k > 1:
            mean = to_cluster / size
            mean[rows, labels] = np.inf
            b = mean.min(axis=1)
        else:
            b = np.full(len(pages), ALONE_DISTANCE)
        s = np.where(others > 0, (b - a) / np.maximum(np.maximum(a, b), 1e-12), 0.0)
        out[c] = float((s * pages).sum())
    return out


def _stage_a_cut(trees: Sequence[_Tree]) -> float:
    """The site's cut height, from the merge heights of all groups.

    Heights pooled over the whole site form two populations: merges of a template's
    variants (optional parts, noise: small) and merges of different templates (large).
    The widest gap between them is the cut. Pooled, because one block alone often has
    too few merges to show both populations (two structures give one height)."""
    heights = [float(h) for t in trees if t.tree is not None for h in t.tree[:, 2]]
    cut = auto_cut_threshold(heights)  # None: one distinct height, its own widest gap
    return max(cut if cut is not None else MIN_SPLIT_DISTANCE, MIN_SPLIT_DISTANCE)


def _group_cut(tree: _Tree, site_cut: float) -> float:
    """One group's cut: the site's, or, for a group of :data:`MIN_OWN_STRUCTURES`
    distinct structures or more, the candidate under which its own pages sit best in
    their clusters (highest mean silhouette; the middle of a tied run).

    A group that big shows its own two populations, and they need not be the site's:
    a wiki's ``index.php`` holds some forty page types (edit forms, histories, special
    pages' lists) each built the same on every page and 0.1 to 0.7 apart, so the site's
    widest gap, between them and a few very different pages, would merge them all; its
    ``api.php`` help pages differ by the parameters each documents, and are one. The
    silhouette weighs both failures: cut too low, a template's variants are split from
    clusters as near as their own; cut too high, templates merge and their pages sit far
    from half their cluster."""
    if tree.silhouettes is None or tree.linked < MIN_OWN_STRUCTURES:
        return site_cut
    means = np.round(tree.silhouettes / max(tree.pages, 1), 3)
    best = [c for c, m in zip(CUT_CANDIDATES, means, strict=True) if m == means.max()]
    if len(best) % 2:
        return best[len(best) // 2]
    return round((best[len(best) // 2 - 1] + best[len(best) // 2]) / 2, 3)


def _stage_a(tree: _Tree, sets: list[frozenset[int]], cut: float, width: int
             ) -> dict[int, int]:
    """Cluster label per distinct set of one group."""
    if tree.tree is None:
        return {tree.ids[0]: 1}
    labels_linked = fcluster(tree.tree, t=cut, criterion="distance")
    labels = {i: int(labels_linked[pos]) for pos, i in enumerate(tree.ids[:tree.linked])}
    rest = tree.ids[tree.linked:]
    if rest:  # Pass 1b: the structures not clustered join their nearest clustered one
        nearest = jaccard_matrix(incidence([sets[i] for i in rest], width), tree.matrix)
        for row, i in enumerate(rest):
            labels[i] = int(labels_linked[int(np.argmax(nearest[row]))])
    return labels


SHARED_STRUCTURE_SHARE = round(1 - QUORUM, 2)
"""Share of a cluster's pages that one structure (or several) must hold for it to be
part of what the cluster is: a structure on ``1 - QUORUM`` of the pages or more can keep
any token it lacks out of the core. Two clusters that both hold such a structure,
identical page for page, are one template (:func:`_built_alike`); a page of that
structure in a few-page corner of a loosely cut block is no such evidence."""


def _built_alike(roots: Sequence[int], pooled: Mapping[int, Counter[int]]
                 ) -> set[tuple[int, int]]:
    """Pairs of clusters (positions in ``roots``) that hold the same structure on
    :data:`SHARED_STRUCTURE_SHARE` of the pages of each.

    A structure is the same page wherever it is served, so its pages are one template.
    Two clusters hold it only when it is served under two paths (its block differs) and
    the two blocks cut it with different neighbours: a block with many page kinds sits
    its pages best at a low cut and splits a template whose list shows one kind of row
    or two (``/index.php?title=…``), while the same template's block of its own
    (``/wiki/Special:…``) keeps both. Their cores differ by the row (the two blocks mix
    the variants in other proportions), so Stage B's core test does not see it; the
    shared structure does. It also ties clusters of one block, which the core test never
    does: the evidence comes from the other block's verdict, not from this one's cut."""
    holders: dict[int, list[int]] = defaultdict(list)
    for pos, root in enumerate(roots):
        for sid in pooled[root]:
            holders[sid].append(pos)
    shared: dict[tuple[int, int], set[int]] = defaultdict(set)
    for sid, positions in holders.items():
        for n, i in enumerate(positions):
            for j in positions[n + 1:]:
                shared[(i, j)].add(sid)
    return {(i, j) for (i, j), sids in shared.items()
            if _holds(pooled[roots[i]], sids) and _holds(pooled[roots[j]], sids)}


def _holds(members: Counter[int], sids: set[int]) -> bool:
    """Do the structures ``sids`` hold :data:`SHARED_STRUCTURE_SHARE` of a cluster's
    pages?"""
    return sum(members[s] for s in sids) >= SHARED_STRUCTURE_SHARE * sum(members.values())


def _core(sets: Sequence[frozenset[int]], weights: Sequence[int]) -> frozenset[int]:
    total = sum(weights)
    counts: Counter[int] = Counter()
    for s, w in zip(sets, weights, strict=True):
        for t in s:
            counts[t] += w
    return frozenset(t for t, c in counts.items() if c >= QUORUM * total)


def resolve_page_cluster_keys(pages: Iterable[Mapping[str, Any]], *,
                              content_block_attribute: str | None = None,
                              progress: Progress | None = None) -> list[str]:
    """One cluster key per page, in input order; ``pages`` is read once (any iterable:
    a generator over a huge file is fine). Pages are the CLI's records: ``html``, and
    optionally ``paths`` (URL path segments) and ``stylesheetHrefs``."""
    return resolve(pages, content_block_attribute=content_block_attribute,
                   progress=progress).keys


@dataclass
class Result:
    keys: list[str]
    reasons: dict[str, dict[str, Any]]
    structures: list[frozenset[int]]   # effective token set per page's structure id
    page_structure: list[int]
    token_names: list[str]


def resolve(pages: Iterable[Mapping[str, Any]], *, content_block_attribute: str | None = None,
            progress: Progress | None = None) -> Result:
    """:func:`resolve_page_cluster_keys` with the material of the reasons and checks."""
    corpus = _read(pages, content_block_attribute, progress)
    total = len(corpus.page_structure)
    block_of = _blocks(corpus)   # paths and stylesheets only: the same before and after
    _drop_content_ids(corpus, block_of)
    chrome = _global_chrome(corpus, block_of)
    hidden = _content_containers(corpus, chrome, block_of)
    width = len(corpus.token_ids)
    if progress is not None:
        progress("pass0", f"{total} pages read, {len(corpus.structure_list)} structures")
    free = _free_options(corpus, block_of, chrome, hidden)
    # distinct effective sets per block, with their page counts
    set_ids: dict[tuple[frozenset[int], str], int] = {}
    page_set: list[int] = []
    trimmed: dict[tuple[str, int], tuple[frozenset[int], str]] = {}
    # out of each block's comparisons: its content containers and free options; a
    # landmark rooted there (a note's aside in an article, a newsletter block's form) or
    # in a list's item is no region of the template either
    none: frozenset[int] = frozenset()
    out_of: dict[str, tuple[frozenset[int], frozenset[int]]] = {}
    shared: dict[tuple[int, int], tuple[frozenset[int], frozenset[int]]] = {}
    for block in set(block_of):
        containers, options = hidden.get(block, none), free.get(block, none)
        pair = (id(containers), id(options))   # blocks alike share one pair of sets
        if pair not in shared:
            out = containers | options
            shared[pair] = (out, out | corpus.item_roots)
        out_of[block] = shared[pair]
    for block, sid in zip(block_of, corpus.page_structure, strict=True):
        compared = trimmed.get((block, sid))
        if compared is None:
            out, not_regions = out_of[block]
            compared = trimmed[(block, sid)] = (
                _effective(corpus.structure_list[sid], chrome, out),
                _profile(corpus.structure_list[sid], chrome, corpus.landmark_kind,
                         corpus.landmark_root, not_regions))
        page_set.append(set_ids.setdefault(compared, len(set_ids)))
    sets = [s for s, _p in set_ids]
    set_profile = [p for _s, p in set_ids]
    per_block: dict[str, Counter[int]] = defaultdict(Counter)
    for block, s in zip(block_of, page_set, strict=True):
        per_block[block][s] += 1
    unit_of: dict[tuple[str, int], int] = {}     # (block, distinct set) → unit
    units: list[tuple[str, str]] = []            # (block, profile:label)
    unit_index: dict[tuple[str, str], int] = {}
    groups: list[tuple[str, str, _Tree]] = []
    for b, (block, counter) in enumerate(sorted(per_block.items())):
        by_profile: dict[str, list[int]] = defaultdict(list)
        for i in sorted(counter):
            by_profile[set_profile[i]].append(i)
        for profile, ids in sorted(by_profile.items()):
            groups.append((block, profile, _linkage(sets, ids, counter, width)))
        step = max(1, len(per_block) // 10)
        if progress is not None and ((b + 1) % step == 0 or b + 1 == len(per_block)):
            progress("pass1", f"clustered block {b + 1}/{len(per_block)}")
    cut = _stage_a_cut([tree for _b, _p, tree in groups])
    for block, profile, tree in groups:
        cut_labels = _stage_a(tree, sets, _group_cut(tree, cut), width)
        for i, label in sorted(cut_labels.items()):
            key = (block, f"{profile}:{label}")
            if key not in unit_index:
                unit_index[key] = len(units)
                units.append(key)
            unit_of[(block, i)] = unit_index[key]
    if progress is not None:
        beyond = sum(max(0, len(tree.ids) - tree.linked) for _b, _p, tree in groups)
        progress("pass1b", f"{total} pages assigned to {len(units)} units "
                 f"({beyond} structures beyond the linkage joined their nearest)")
    # members of each unit: distinct sets and weights
    members: dict[int, Counter[int]] = defaultdict(Counter)
    for block, s in zip(block_of, page_set, strict=True):
        members[unit_of[(block, s)]][s] += 1
    parent = list(range(len(units)))

    def find(u: int) -> int:
        while parent[u] != u:
            parent[u] = parent[parent[u]]
            u = parent[u]
        return u

    for _round in range(STAGE_B_ROUNDS):
        roots = sorted({find(u) for u in range(len(units))})
        pooled: dict[int, Counter[int]] = defaultdict(Counter)
        blocks_of: dict[int, set[str]] = defaultdict(set)
        profile_of: dict[int, str] = {}
        for u in range(len(units)):
            pooled[find(u)].update(members[u])
            blocks_of[find(u)].add(units[u][0])
            profile_of[find(u)] = units[u][1].rsplit(":", 1)[0]
        cores = {r: _core([sets[i] for i in pooled[r]], list(pooled[r].values()))
                 for r in roots}
        if progress is not None:
            progress("stage-b", f"merging {len(roots)} units")
        if len(roots) < 2:
            break
        matrix = incidence([cores[r] for r in roots], width)
        sim = jaccard_matrix(matrix)
        merged = False
        alike = {(i, j) for i in range(len(roots)) for j in range(i + 1, len(roots))
                 if sim[i, j] >= STAGE_B_SIMILARITY
                 and profile_of[roots[i]] == profile_of[roots[j]]
                 and not blocks_of[roots[i]] & blocks_of[roots[j]]}
        alike |= _built_alike(roots, pooled)
        pairs = sorted(((float(sim[i, j]), i, j) for i, j in alike),
                       key=lambda p: (-p[0], p[1], p[2]))
        for _s, i, j in pairs:
            a, b = find(roots[i]), find(roots[j])
            if a == b:
                continue
            ca, cb = cores[roots[i]], cores[roots[j]]
            both = Counter(pooled[roots[i]]) + Counter(pooled[roots[j]])
            merged_core = _core([sets[k] for k in both], list(both.values()))
            if len(merged_core) < COHESION_GUARD * min(len(ca), len(cb)):
                continue
            if len(merged_core) < STAGE_B_MIN_CORE:   # nothing shared: no evidence
                continue
            parent[max(a, b)] = min(a, b)
            merged = True
        if not merged:
            break
    # keys, numbered by first appearance in the input
    names: dict[int, str] = {}
    keys = []
    block_counter: Counter[str] = Counter()
    for block, s in zip(block_of, page_set, strict=True):
        root = find(unit_of[(block, s)])
        name = names.get(root)
        if name is None:
            rblock = units[root][0]
            name = names[root] = json.dumps([rblock, f"cluster:{block_counter[rblock]}"],
                                            ensure_ascii=False, separators=(",", ":"))
            block_counter[rblock] += 1
        keys.append(name)
    if progress is not None:
        progress("done", f"{total} pages in {len(names)} clusters")
    token_names = [""] * width
    for path, tid in corpus.token_ids.items():
        token_names[tid] = path
    reasons = _reasons(names, units, members, find, sets, token_names)
    _landmark_reasons(reasons, keys, corpus, chrome)
    return Result(keys, reasons, sets, page_set, token_names)


MAX_SHELL_TOKENS = 200
"""Most shell tokens listed per landmark kind in a reason (a mega menu has hundreds)."""


def _landmark_reasons(reasons: dict[str, dict[str, Any]], keys: Sequence[str],
                      corpus: _Corpus, chrome: set[int]) -> None:
    """Each cluster's ``landmarks``: per kind, ``memberCountWithInstance`` (pages with
    one), ``presenceRate`` (their share of the cluster), ``chromeRate`` (the share of
    those whose instance is the site's chrome) and ``shellTokens`` (tokens on
    :data:`QUORUM` of the chrome instances, relative to the landmark: what
    :func:`page_cluster.landmarks.is_chrome_landmark_instance` compares an instance
    with; empty when none of the kind is chrome)."""
    per_cluster: dict[str, Counter[int]] = defaultdict(Counter)
    for key, sid in zip(keys, corpus.page_structure, strict=True):
        per_cluster[key][sid] += 1
    landmarks_of: dict[int, frozenset[int]] = {}
    for counter in per_cluster.values():
        for sid in counter:
            if sid not in landmarks_of:
                landmarks_of[sid] = frozenset(lm for _t, _d, lm in corpus.structure_list[sid]
                                              if lm >= 0)
    for key, counter in per_cluster.items():
        total = sum(counter.values())
        having: Counter[str] = Counter()
        chrome_pages: Counter[str] = Counter()
        shells: dict[str, Counter[str]] = defaultdict(Counter)
        for sid, n in counter.items():
            kinds = {corpus.landmark_kind[lm] for lm in landmarks_of[sid]}
            chrome_kinds = set()
            for lm in landmarks_of[sid]:
                if lm in chrome:
                    kind = corpus.landmark_kind[lm]
                    chrome_kinds.add(kind)
                    for token in corpus.landmark_shell[lm]:
                        shells[kind][token] += n
            for kind in kinds:
                having[kind] += n
            for kind in chrome_kinds:
                chrome_pages[kind] += n
        reasons[key]["landmarks"] = {kind: {
            "presenceRate": round(having[kind] / total, 4),
            "chromeRate": round(chrome_pages[kind] / having[kind], 4),
            "shellTokens": sorted(t for t, c in shells[kind].items()
                                  if c >= QUORUM * chrome_pages[kind])[:MAX_SHELL_TOKENS],
            "memberCountWithInstance": having[kind],
        } for kind in sorted(having)}


def _reasons(names: Mapping[int, str], units: Sequence[tuple[str, str]],
             members: Mapping[int, Counter[int]], find: Callable[[int], int],
             sets: Sequence[frozenset[int]], token_names: Sequence[str]
             ) -> dict[str, dict[str, Any]]:
    """Why each cluster's pages are together, as data (one entry per cluster): its
    blocks (path and stylesheets), its quorum core of structural tokens, and the
    clusters that share a block with it but stayed apart (compare their cores to see
    what differs); :func:`_landmark_reasons` adds the landmarks."""
    pooled: dict[int, Counter[int]] = defaultdict(Counter)
    blocks: dict[int, set[str]] = defaultdict(set)
    for u, (block, _label) in enumerate(units):
        root = find(u)
        pooled[root].update(members[u])
        blocks[root].add(block)
    by_block: dict[str, set[str]] = defaultdict(set)
    for root, name in names.items():
        for block in blocks[root]:
            by_block[block].add(name)
    reasons: dict[str, dict[str, Any]] = {}
    for root, name in sorted(names.items(), key=lambda kv: kv[1]):
        counter = pooled[root]
        core = _core([sets[i] for i in counter], list(counter.values()))
        blocking = []
        for block in sorted(blocks[root]):
            path, _, css = block.removeprefix("path:").partition("|css:")
            blocking.append({"blockKey": block, "reason": {
                "kind": "path+stylesheets", "pathKey": path,
                "stylesheets": [c for c in css.split(",") if c and c != "?"]}})
        reasons[name] = {
            "memberCount": sum(counter.values()),
            "blocking": blocking,
            "structuralCoreTokens": sorted(token_names[t] for t in core)[:500],
            "landmarks": {},
            "siblingClusterKeys": sorted(set().union(*(by_block[b] for b in blocks[root]))
                                         - {name}),
        }
    return reasons
