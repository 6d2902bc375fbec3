"""Near-duplicate content: pages whose content area says nearly the same thing (a
product's colour variants, a press release on three paths, a template's near-empty
pages) — what the exact body-hash query cannot see, because one changed word, date or
sidebar makes every byte hash differ.

``find_near_duplicates`` lists the groups: pages joined when their texts are at least
``threshold`` % alike (:mod:`nitpicker_query.keys.near_text`: MinHash over three-word
shingles of the content area), each group a connected set — every member that alike to
at least one other, not necessarily to all. ``get_near_duplicates`` shows one page's
group with the passages that differ between it and each member.

Every page's stored HTML is read once per archive, content area and population (about
0.2 ms a page beside decompression); the signatures (512 bytes a page: 150 MB at
300,000) are kept per process for the last :data:`CACHED` archives, so a second
threshold or page is answered from memory. Nothing is written.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import progress
from ..archive import snapshots
from ..archive.opening import Archive, opened
from ..format.v010 import POPULATIONS
from ..keys.near_text import (
    PERMUTATIONS,
    SHINGLE,
    Signature,
    content_text,
    near_groups,
    passages,
    signature,
    similarity,
    word_hashes,
)
from .html_extraction import PAGE_BYTES, check_selector
from .paging import check_choice, check_int, check_paging, envelope
from .templates import identity

THRESHOLD = 90
MIN_WORDS = 50
"""Words a content area needs to be compared: a thinner page (a login form, an empty
tag page) looks like every other thin page and says nothing about duplicated content."""
CACHED = 2
SHOWN = 10
"""Members listed per group (``pages`` counts them all; the rest by the page's call)."""
PASSAGES = 5
PASSAGE_CHARS = 200
READ_STEP = 1000


@dataclass
class _Index:
    """The compared pages of one archive (for one population and content area)."""

    urls: list[str]
    titles: list[str | None]
    node: list[int]             # page → its distinct signature
    signatures: Signature       # one row per distinct signature
    pages: int                  # pages of the population
    too_short: int
    no_region: int
    unread: int
    groups: dict[int, list[_Group]] = field(default_factory=dict)


@dataclass
class _Group:
    members: list[int]          # page indices, URL order
    best: dict[int, float]      # page → its best similarity to another member


_LOCK = threading.Lock()
_CACHE: OrderedDict[tuple[Any, ...], _Index] = OrderedDict()


def _index(a: Archive, population: str, selector: str | None, min_words: int) -> _Index:
    key = (identity(a), population, selector or None, min_words)
    with _LOCK:   # one reading at a time: a second caller of the same archive waits for it
        found = _CACHE.get(key)
        if found is None:
            found = _read(a, population, selector, min_words)
            _CACHE[key] = found
            while len(_CACHE) > CACHED:
                _CACHE.popitem(last=False)
        _CACHE.move_to_end(key)
        return found


def ready(a: Archive, *, population: str = "indexable", selector: str | None = None,
          min_words: int = MIN_WORDS, **_options: Any) -> bool:
    """Whether a call with these options answers at once: the archive's pages were read
    for them in this process already (a lookup: the reading thread holds the lock)."""
    return (identity(a), population, selector or None, min_words) in _CACHE


def _read(a: Archive, population: str, selector: str | None, min_words: int) -> _Index:
    """Every page of the population with a snapshot, its content area's signature."""
    listed: list[tuple[int, str, Any]] = []
    titles: dict[int, str | None] = {}
    if snapshots.stored(a):
        for page_id, url, title, digest in a.rows(
                f"SELECT p.id, p.url, p.title, r.hash FROM pages p JOIN page_html_ref r "
                f"ON r.page_id = p.id WHERE {a.population('p', population)} ORDER BY p.url"):
            listed.append((int(page_id), str(url), digest))
            titles[int(page_id)] = title
    pages = a.count(f"SELECT count(*) FROM pages p WHERE {a.population('p', population)}")
    urls: list[str] = []
    page_titles: list[str | None] = []
    # filled in place: 512 bytes a page, no list of small arrays beside it
    matrix = np.empty((len(listed), PERMUTATIONS), dtype=np.uint32)
    too_short = no_region = read = 0
    with progress.working_on(str(a.path)) as report:
        for n, (page_id, url, html, _whole) in enumerate(
                snapshots.read(a, listed, limit=PAGE_BYTES)):
            if n % READ_STEP == 0:
                report(n, len(listed), f"reading page {n + 1:,} of {len(listed):,}")
            read += 1
            text = content_text(html, selector)
            if text is None:
                no_region += 1
                continue
            words = word_hashes(text)
            sig = signature(words) if len(words) >= min_words else None
            if sig is None:
                too_short += 1
                continue
            urls.append(url)
            page_titles.append(titles.get(page_id))
            matrix[len(urls) - 1] = sig
    matrix = matrix[:len(urls)]
    # pages with the same text share one row (each signature one 512-byte value)
    keys = np.ascontiguousarray(matrix).view(
        np.dtype((np.void, matrix.itemsize * PERMUTATIONS))).ravel()
    _keys, first, node = np.unique(keys, return_index=True, return_inverse=True)
    return _Index(urls, page_titles, node.ravel().tolist(), matrix[first],
                  pages, too_short, no_region, len(listed) - read)


def _groups(index: _Index, threshold: int) -> list[_Group]:
    """The groups at ``threshold`` %, biggest first (computed once per threshold)."""
    if threshold in index.groups:
        return index.groups[threshold]
    labels, best_node = near_groups(index.signatures, threshold / 100)
    by_node: dict[int, list[int]] = {}
    for page, n in enumerate(index.node):
        by_node.setdefault(n, []).append(page)
    members: dict[int, list[int]] = {}
    for n, pages in by_node.items():
        if len(pages) > 1 or best_node[n] > 0:
            members.setdefault(int(labels[n]), []).extend(pages)
    groups = []
    for pages in members.values():
        pages.sort(key=lambda p: index.urls[p])
        best = {p: 1.0 if len(by_node[index.node[p]]) > 1
                else float(best_node[index.node[p]]) for p in pages}
        groups.append(_Group(pages, best))
    groups.sort(key=lambda g: (-len(g.members), -min(g.best.values()),
                               index.urls[g.members[0]]))
    index.groups[threshold] = groups
    return groups


def _percent(value: float) -> int:
    return round(value * 100)


def _check(threshold: int, population: str, selector: str | None, min_words: int
           ) -> None:
    check_int("threshold", threshold, minimum=50, maximum=100)
    check_choice("population", population, POPULATIONS)
    check_int("min_words", min_words, minimum=SHINGLE, maximum=100_000)
    if selector is not None:
        check_selector(selector)


def _counts(index: _Index, threshold: int, population: str) -> dict[str, Any]:
    counts = {"threshold": threshold, "population": population,
              "comparedPages": len(index.urls), "populationPages": index.pages,
              "tooShort": index.too_short, "noContentArea": index.no_region}
    if index.unread:
        counts["unreadable"] = index.unread
    return counts


def find_near_duplicates(archive: Archive | str, *, threshold: int = THRESHOLD,
                         population: str = "indexable", selector: str | None = None,
                         min_words: int = MIN_WORDS, limit: int = 100,
                         offset: int = 0) -> dict[str, Any]:
    """Groups of pages whose content areas are at least ``threshold`` % alike (50–100;
    Jaccard similarity of three-word shingles, estimated by MinHash), biggest first:
    ``pages``, ``similarity`` (the lowest of the members' best match: each member is at
    least this alike to another), ``representativeUrl`` and ``title`` (the first member
    by URL) and ``members`` (the first ten: ``url``, ``title``, ``similarity`` to the
    representative). Over ``population`` (indexable pages by default); the content area
    is ``selector``'s element (CSS), else the main region, else the body without
    header, navigation, aside and footer; pages under ``min_words`` words are left out
    (``tooShort``). Pages with the same stored HTML are also in duplicate-bodies."""
    _check(threshold, population, selector, min_words)
    limit, offset = check_paging(limit, offset)
    with opened(archive) as a:
        index = _index(a, population, selector, min_words)
    groups = _groups(index, threshold)
    items = []
    for g in groups[offset:offset + limit]:
        head = g.members[0]
        first = index.signatures[index.node[head]]
        items.append({
            "pages": len(g.members), "similarity": _percent(min(g.best.values())),
            "representativeUrl": index.urls[head], "title": index.titles[head],
            "members": [{"url": index.urls[p], "title": index.titles[p],
                         "similarity": _percent(similarity(
                             first, index.signatures[index.node[p]]))}
                        for p in g.members[:SHOWN]]})
    return envelope(items, len(groups), limit, offset,
                    **_counts(index, threshold, population))


def get_near_duplicates(archive: Archive | str, *, url: str, threshold: int = THRESHOLD,
                        population: str = "indexable", selector: str | None = None,
                        min_words: int = MIN_WORDS, limit: int = 100,
                        offset: int = 0) -> dict[str, Any] | None:
    """The other members of ``url``'s near-duplicate group (same options as
    ``find_near_duplicates``), most alike first: ``url``, ``title``, ``similarity`` to
    the page (%), and the passages that differ — ``onlyHere`` (the member's text blocks
    the page lacks) and ``onlyThere`` (the page's that the member lacks), five of each,
    each cut to 200 characters. Empty when the page has no near duplicate, or was not
    compared (``note`` says why); None when the archive has no page ``url``."""
    _check(threshold, population, selector, min_words)
    limit, offset = check_paging(limit, offset)
    with opened(archive) as a:
        why = _why_missing(a, url, population)
        if why is None:   # no such page: said before any page is read
            return None
        index = _index(a, population, selector, min_words)
        try:
            page = index.urls.index(url)
        except ValueError:
            return envelope([], 0, limit, offset, url=url, note=why,
                            **_counts(index, threshold, population))
        group = next((g for g in _groups(index, threshold) if page in g.members), None)
        mine = index.signatures[index.node[page]]
        others = [] if group is None else sorted(
            (p for p in group.members if p != page),
            key=lambda p: (-similarity(mine, index.signatures[index.node[p]]),
                           index.urls[p]))
        shown = others[offset:offset + limit]
        texts = _texts(a, [index.urls[page], *(index.urls[p] for p in shown)], selector)
    base = texts.get(index.urls[page], [])
    items = []
    for p in shown:
        theirs = texts.get(index.urls[p], [])
        items.append({
            "url": index.urls[p], "title": index.titles[p],
            "similarity": _percent(similarity(mine, index.signatures[index.node[p]])),
            "onlyHere": _differing(theirs, base), "onlyThere": _differing(base, theirs)})
    return envelope(items, len(others), limit, offset, url=url,
                    **_counts(index, threshold, population))


def _why_missing(a: Archive, url: str, population: str) -> str | None:
    """Why the page would not be compared (asked before it is looked up: a page outside
    the population or too thin has a reason); None when the archive has no such page."""
    row = a.execute(f"SELECT {a.population('p', population)} FROM pages p WHERE p.url = ?",
                    (url,)).fetchone()
    if row is None:
        return None
    if not row[0]:
        return (f"{url} is not among the {population} pages compared (--population all "
                "compares every rendered HTML page).")
    return (f"{url} was not compared: its content area has fewer words than "
            "--min-words, or none matched --selector, or no HTML is stored for it.")


def _texts(a: Archive, urls: list[str], selector: str | None) -> dict[str, list[str]]:
    marks = ",".join("?" for _ in urls)
    listed = [(int(i), str(u), h) for i, u, h in a.rows(
        f"SELECT p.id, p.url, r.hash FROM pages p JOIN page_html_ref r ON r.page_id = p.id "
        f"WHERE p.url IN ({marks})", urls)]
    return {url: passages(html, selector) or []
            for _i, url, html, _w in snapshots.read(a, listed, limit=PAGE_BYTES)}


def _differing(blocks: list[str], other: list[str]) -> list[str]:
    """The first of ``blocks`` absent from ``other``, each cut."""
    present = set(other)
    found: list[str] = []
    for block in blocks:
        if block not in present and block not in found:
            found.append(block if len(block) <= PASSAGE_CHARS
                         else block[:PASSAGE_CHARS - 1] + "…")
            if len(found) == PASSAGES:
                break
    return found


def clear_cache() -> None:
    """Forget every archive's signatures (tests; a process that wants memory back)."""
    with _LOCK:
        _CACHE.clear()


__all__ = ["clear_cache", "find_near_duplicates", "get_near_duplicates"]
