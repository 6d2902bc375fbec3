"""``list_link_score``: how much of the site's internal linking flows to each page.

Link score is PageRank over the crawl's own link graph (Brin and Page's random surfer,
damping 0.85), shown on a 0–100 logarithmic scale, as Screaming Frog's Link Score and
similar audit tools present it. The graph, as those tools build it:

- **Pages** (nodes): the site's URLs the crawl fetched and did not skip, that answered
  2xx, are not a redirect and do not name another page as canonical. A redirect and a
  canonicalised page pass on what they receive: a link to one counts as a link to where it
  leads (its redirect target, or its canonical when that page is in the crawl; chains
  followed up to :data:`HOPS` hops). A link to anything else (an error, an external or
  unfetched URL, a canonical outside the crawl) passes nothing on.
- **Links** (edges): the ``<a href>`` links between those pages, each linked pair once
  however often the page repeats the link, a page's links to itself left out. ``noindex``
  pages are pages like any other: they are crawled and their links followed.
- A page without links out (a PDF, a dead end) hands its score to every page evenly —
  the usual treatment of dangling pages (as ``networkx.pagerank`` does it).

The score is ``100 × ln(rank / lowest) / ln(highest / lowest)``: the strongest page is
100, the weakest 0, and each step of the scale a constant ratio of PageRank. It is
computed once per archive and process from one pass over the link pairs (numpy: a sparse
product a power-iteration step), then every sort and page of the list is in memory.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.sparse import csr_matrix  # type: ignore[import-untyped]
from scipy.sparse.csgraph import shortest_path  # type: ignore[import-untyped]

from ..archive.opening import Archive, opened
from ..format.v010 import NOT_SKIPPED
from ._common import start_urls
from .paging import check_choice, check_paging, envelope

DAMPING = 0.85
TOLERANCE = 1e-12
"""Stop when a step moves the ranks by less than this per page (L1)."""
MAX_ITERATIONS = 200
HOPS = 10
"""Redirect and canonical hops followed from a link to the page it counts for."""
TOP_SHARE = 0.1
"""Call-outs are about the strongest tenth of the pages (by score)."""
FEW_INLINKS = 2
DEEP = 4
"""A strong page this many clicks deep or more (and deeper than nine pages in ten of the
site) is called out: an important page few visitors reach."""
SORTS = ("linkScore", "inlinks", "depth", "url")
KEEP = 4
_CHUNK = 100_000


@dataclass(frozen=True)
class Scores:
    """One archive's link scores: arrays over its pages in page-id order."""

    ids: np.ndarray          # page id of each node
    rank: np.ndarray         # PageRank (sums to 1)
    score: np.ndarray        # 0–100
    inlinks: np.ndarray      # distinct pages linking to it (after redirects/canonicals)
    outlinks: np.ndarray     # distinct pages it links to
    depth: np.ndarray        # clicks from the start URLs over these links; -1: unreached
    callout: list[str | None]


_LOCK = threading.Lock()
_MEMO: OrderedDict[tuple[Any, ...], Scores] = OrderedDict()


def _identity(a: Archive) -> tuple[Any, ...] | None:
    """A key for an archive that cannot change (an extracted copy); None for a crawl
    directory, which may still grow: computed again each time."""
    if a.mode != "archive":
        return None
    db = a.directory / "db.sqlite"
    st = db.stat()
    return (str(db.resolve()), st.st_size, st.st_mtime_ns)


def _pages(a: Archive) -> tuple[np.ndarray, np.ndarray]:
    """Every fetched page of the site (ids, sorted) and where each passes its links on
    (a page id; -1 for itself; -2 for nowhere — an error, a canonical off the crawl)."""
    lite = a.lite
    have = set(a.columns(lite))
    ids: list[int] = []
    forward: list[int] = []
    redirect = "redirectDestId" if "redirectDestId" in have else "NULL"
    for pid, status, dest in a.stream(
            f"SELECT id, status, {redirect} FROM {lite} WHERE coalesce(isExternal, 0) = 0 "
            f"AND scraped = 1 AND {NOT_SKIPPED} AND typeof(id) = 'integer' ORDER BY id",
            chunk=_CHUNK):
        ids.append(pid)
        if isinstance(dest, int):
            forward.append(dest)
        elif isinstance(status, int) and 200 <= status <= 299:
            forward.append(-1)
        else:
            forward.append(-2)
    id_array = np.asarray(ids, dtype=np.int64)
    fwd = np.asarray(forward, dtype=np.int64)
    if "canonical" in have:
        # canonicalised: a page naming another URL as canonical counts for that page when
        # the crawl has it, for nothing when not
        for pid, target in a.stream(
                "SELECT p.id, (SELECT c.id FROM pages c WHERE c.url = p.canonical) "
                "FROM pages p WHERE coalesce(p.canonical, '') != '' AND p.canonical != p.url "
                "AND coalesce(p.isExternal, 0) = 0 AND p.scraped = 1", chunk=_CHUNK):
            at = np.searchsorted(id_array, pid)
            if at < len(id_array) and id_array[at] == pid and fwd[at] == -1:
                fwd[at] = target if isinstance(target, int) else -2
    return id_array, fwd


def _resolve(ids: np.ndarray, forward: np.ndarray) -> np.ndarray:
    """The node index each page counts for (-1: none), following forwards up to HOPS."""
    n = len(ids)
    node = np.where(forward == -1, np.arange(n), -1)
    pending = np.flatnonzero(forward >= 0)
    target = forward[pending]
    for _ in range(HOPS):
        if not len(pending):
            break
        at = np.searchsorted(ids, target)
        at = np.minimum(at, n - 1) if n else at
        known = (at < n) & (ids[at] == target) if n else np.zeros(len(target), bool)
        ends = np.where(known, forward[at] if n else -2, -2)
        done = ends == -1           # reached a page: it counts for that page
        node[pending[done]] = at[done]
        going = ends >= 0           # another redirect or canonical: one hop more
        pending, target = pending[going], ends[going]
    return node


def _edges(a: Archive, ids: np.ndarray, node: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The link pairs between nodes: each (source node, target node) once, no self-links;
    only a page's own links count (a redirect's or canonicalised page's are not read).

    A page's targets come as one ``group_concat`` text, parsed by numpy: 4.5 million
    links as Python tuples took 7 s of the 10 a 300,000-page archive took; this, 2.8 s."""
    n = len(ids)
    if not a.has_table("anchors") or not n:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    pairs: list[np.ndarray] = []
    sources: list[int] = []
    counts: list[int] = []
    texts: list[str] = []

    def flush() -> None:
        if not sources:
            return
        dst = np.fromstring(",".join(texts), dtype=np.int64, sep=",")
        src = np.repeat(np.asarray(sources, dtype=np.int64), np.asarray(counts))
        sources.clear()
        counts.clear()
        texts.clear()
        if len(dst) != len(src):   # a stranger's text that does not parse: read nothing
            return
        s_at = np.minimum(np.searchsorted(ids, src), n - 1)
        d_at = np.minimum(np.searchsorted(ids, dst), n - 1)
        s_node = np.where((ids[s_at] == src) & (node[s_at] == s_at), s_at, -1)
        d_node = np.where(ids[d_at] == dst, node[d_at], -1)
        keep = (s_node >= 0) & (d_node >= 0) & (s_node != d_node)
        pairs.append(s_node[keep] * n + d_node[keep])

    for src, count, hrefs in a.stream(
            f"SELECT pageId, count(*), group_concat(hrefId) FROM {a.pairs} "
            "WHERE typeof(pageId) = 'integer' AND typeof(hrefId) = 'integer' "
            "GROUP BY pageId", chunk=10_000):
        sources.append(src)
        counts.append(count)
        texts.append(hrefs)
        if len(sources) >= 20_000:
            flush()
    flush()
    # each pair once: sorted, then the first of each run (numpy's unique hashes: 7× slower)
    joined = np.sort(np.concatenate(pairs)) if pairs else np.zeros(0, np.int64)
    unique = joined[np.concatenate(([True], joined[1:] != joined[:-1]))] if len(joined) \
        else joined
    return unique // n, unique % n


def pagerank(n: int, src: np.ndarray, dst: np.ndarray, nodes: np.ndarray) -> np.ndarray:
    """PageRank of the ``nodes`` (a boolean mask of ``n``) over the edges ``src → dst``:
    power iteration, dangling nodes spread evenly, damping :data:`DAMPING`."""
    count = int(nodes.sum())
    rank = np.where(nodes, 1.0 / max(count, 1), 0.0)
    out = np.bincount(src, minlength=n).astype(float)
    dangling = nodes & (out == 0)
    share = np.divide(1.0, out, out=np.zeros(n), where=out > 0)
    for _ in range(MAX_ITERATIONS):
        flow = np.bincount(dst, weights=rank[src] * share[src], minlength=n)
        spread = rank[dangling].sum() / count
        new = np.where(nodes, (1 - DAMPING) / count + DAMPING * (flow + spread), 0.0)
        moved = np.abs(new - rank).sum()
        rank = new
        if moved < TOLERANCE * count:
            break
    return rank


def _depths(a: Archive, ids: np.ndarray, node: np.ndarray, src: np.ndarray,
            dst: np.ndarray, nodes: np.ndarray) -> np.ndarray:
    """Clicks from the start URLs (the node they count for) over the graph's links."""
    n = len(ids)
    roots: list[int] = []
    for url in start_urls(a)[:20]:
        row = a.execute("SELECT id FROM pages WHERE url = ?", (url,)).fetchone()
        if row is not None:
            at = int(np.searchsorted(ids, row[0]))
            if at < n and ids[at] == row[0] and node[at] >= 0:
                roots.append(int(node[at]))
    if not roots:
        first = np.flatnonzero(nodes)
        roots = [int(first[0])] if len(first) else []
    if not roots:
        return np.full(n, -1)
    graph = csr_matrix((np.ones(len(src)), (src, dst)), shape=(n, n))
    far = shortest_path(graph, unweighted=True, indices=sorted(set(roots)))
    near = np.atleast_2d(far).min(axis=0)
    return np.where(np.isfinite(near), near, -1).astype(np.int64)


def link_scores(a: Archive) -> Scores:
    """The archive's link scores, computed on first use (kept per process)."""
    key = _identity(a)
    if key is not None:
        with _LOCK:
            if key in _MEMO:
                _MEMO.move_to_end(key)
                return _MEMO[key]
    ids, forward = _pages(a)
    node = _resolve(ids, forward)
    nodes = node == np.arange(len(ids))
    src, dst = _edges(a, ids, node)
    rank = pagerank(len(ids), src, dst, nodes)
    score = np.zeros(len(ids))
    if nodes.any():
        low, high = rank[nodes].min(), rank[nodes].max()
        if high > low:
            score = np.where(nodes, 100 * np.log(np.maximum(rank, low) / low)
                             / np.log(high / low), 0.0)
        else:
            score = np.where(nodes, 100.0, 0.0)
    inlinks = np.bincount(dst, minlength=len(ids))
    outlinks = np.bincount(src, minlength=len(ids))
    depth = _depths(a, ids, node, src, dst, nodes)
    strong = np.quantile(score[nodes], 1 - TOP_SHARE) if nodes.any() else 101.0
    reached = depth[nodes & (depth >= 0)]
    # deep for this site: deeper than nine pages in ten, and at least DEEP clicks
    deep = max(DEEP, int(np.quantile(reached, 0.9)) + 1) if len(reached) else DEEP
    callout: list[str | None] = [None] * len(ids)
    for i in np.flatnonzero(nodes & (score >= strong)):
        said = []
        if inlinks[i] <= FEW_INLINKS:
            said.append(f"strong from {int(inlinks[i])} linking page"
                        + ("" if inlinks[i] == 1 else "s"))
        if depth[i] >= deep:
            said.append(f"strong but {int(depth[i])} clicks deep")
        callout[i] = "; ".join(said) or None
    found = Scores(ids[nodes], rank[nodes], score[nodes], inlinks[nodes], outlinks[nodes],
                   depth[nodes], [callout[i] for i in np.flatnonzero(nodes)])
    if key is not None:
        with _LOCK:
            _MEMO[key] = found
            while len(_MEMO) > KEEP:
                _MEMO.popitem(last=False)
    return found


def scores_of(s: Scores, page_ids: Sequence[int]) -> list[dict[str, Any] | None]:
    """Each page's link score as ``list_link_score`` reports it (``linkScore``,
    ``pageRank``, ``inlinks``, ``outlinks``, ``depth``, ``callout``), or None for a page
    with no score (not a fetched 2xx page of the site, a redirect, canonicalised)."""
    found: list[dict[str, Any] | None] = []
    wanted = np.asarray(list(page_ids), dtype=np.int64)
    at = np.searchsorted(s.ids, wanted)
    for page_id, i in zip(wanted.tolist(), at.tolist(), strict=True):
        if i >= len(s.ids) or int(s.ids[i]) != page_id:
            found.append(None)
            continue
        found.append({"linkScore": round(float(s.score[i])),
                      "pageRank": float(f"{s.rank[i]:.6g}"), "inlinks": int(s.inlinks[i]),
                      "outlinks": int(s.outlinks[i]),
                      "depth": int(s.depth[i]) if s.depth[i] >= 0 else None,
                      "callout": s.callout[i]})
    return found


def order_by_score(s: Scores, page_ids: Sequence[int], descending: bool) -> list[int]:
    """``page_ids`` by link score (the strongest first when ``descending``), pages without
    a score last either way; ties by the order given (the caller's URL order)."""
    wanted = np.asarray(list(page_ids), dtype=np.int64)
    if not len(wanted) or not len(s.ids):
        return [int(i) for i in wanted]
    at = np.minimum(np.searchsorted(s.ids, wanted), len(s.ids) - 1)
    scored = s.ids[at] == wanted
    rank = np.where(scored, s.rank[at], 0.0)
    key = -rank if descending else rank
    ordered = np.lexsort((np.arange(len(wanted)), key, ~scored))
    return [int(i) for i in wanted[ordered]]


def list_link_score(archive: Archive | str, *, url: str | None = None,
                    callouts: bool = False, sort_by: str = "linkScore",
                    sort_order: str | None = None, limit: int = 100,
                    offset: int = 0) -> dict[str, Any]:
    """The site's pages by link score (internal PageRank, 0–100 logarithmic), strongest
    first: ``url``, ``linkScore`` (whole number), ``pageRank`` (the raw share, sums to 1),
    ``inlinks`` and ``outlinks`` (distinct pages, after redirects and canonicals),
    ``depth`` (clicks from the start URLs; null when no link reaches it) and
    ``callout`` — for the strongest tenth, what an auditor looks at: a page strong from
    two linking pages or fewer (one link removed and it falls), or deeper than nine pages
    in ten of the site (and four clicks at least). ``callouts`` lists only those; ``url``
    one page. Only fetched 2xx pages of the site that are not redirects and not
    canonicalised have a score (see the module)."""
    check_choice("sort_by", sort_by, SORTS)
    order = sort_order or ("asc" if sort_by in ("url", "depth") else "desc")
    check_choice("sort_order", order, ("asc", "desc"))
    limit, offset = check_paging(limit, offset)
    with opened(archive) as a:
        s = link_scores(a)
        chosen = np.arange(len(s.ids))
        if url is not None:
            row = a.execute("SELECT id FROM pages WHERE url = ?", (url,)).fetchone()
            at = int(np.searchsorted(s.ids, row[0])) if row is not None else len(s.ids)
            chosen = chosen[at:at + 1] if at < len(s.ids) and s.ids[at] == row[0] else \
                chosen[:0]
        if callouts:
            chosen = np.asarray([i for i in chosen if s.callout[i]], dtype=np.int64)
        urls = _urls(a, s.ids[chosen]) if sort_by == "url" else None
        keys = {"linkScore": s.rank, "inlinks": s.inlinks,
                "depth": np.where(s.depth < 0, np.iinfo(np.int64).max, s.depth)}
        if urls is not None:
            ranked = sorted(range(len(chosen)), key=lambda i: urls[i],
                            reverse=order == "desc")
            picked = chosen[np.asarray(ranked, dtype=np.int64)][offset:offset + limit] \
                if ranked else chosen[:0]
        else:
            # ties: the stronger page first, then the page found first
            values = keys[sort_by][chosen]
            primary = -values if order == "desc" else values
            ranked_at = np.lexsort((s.ids[chosen], -s.rank[chosen], primary))
            picked = chosen[ranked_at][offset:offset + limit]
        names = _urls(a, s.ids[picked])
        items = [{"url": name, **(scored or {})} for name, scored in
                 zip(names, scores_of(s, s.ids[picked].tolist()), strict=True)]
    return envelope(items, len(chosen), limit, offset)


def _urls(a: Archive, ids: Sequence[int] | np.ndarray) -> list[str]:
    """The URLs of these page ids, in their order."""
    found: dict[int, str] = {}
    listed = [int(i) for i in ids]
    for begin in range(0, len(listed), 500):
        chunk = listed[begin:begin + 500]
        marks = ",".join("?" for _ in chunk)
        found.update(a.rows(f"SELECT id, url FROM pages WHERE id IN ({marks})", chunk))
    return [found.get(i, "") for i in listed]


__all__ = ["link_scores", "list_link_score", "order_by_score", "pagerank", "scores_of"]
