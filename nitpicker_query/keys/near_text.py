"""How near two pages' texts are: passages of a page's content area, MinHash signatures
of their word shingles, and the groups of signatures at least a threshold alike.

The measure is the Jaccard similarity of the two texts' sets of three-token shingles
(what Screaming Frog's near-duplicate check estimates with MinHash, 90 % by default): a
page of 300 words with ten words changed is about 82 % alike, a page that differs only in
a price and a product code about 97 %. Tokens are words — runs of letters or digits — and,
in Chinese, Japanese and Korean text, which is written without spaces, each character.

A signature is 128 minimums of multiply-shift hashes of the shingles: the share of equal
minimums estimates the Jaccard similarity within about ±3 points at 90 %. Signatures are
compared by locality-sensitive hashing (bands of rows), so a site of 300,000 pages is
never compared pair by pair; the band width is chosen from the threshold so that a pair
at the threshold is a candidate with a probability of at least 99.5 %.
"""

from __future__ import annotations

import html as html_lib
import re
import zlib
from itertools import repeat

import numpy as np
import numpy.typing as npt
from scipy.sparse import coo_matrix  # type: ignore[import-untyped]
from scipy.sparse.csgraph import connected_components  # type: ignore[import-untyped]
from selectolax.lexbor import LexborHTMLParser, LexborNode

from .main_region import main_region

PERMUTATIONS = 128
SHINGLE = 3
CHUNK = 4096
"""Shingles hashed at once (a 100,000-word page costs 4 MiB at a time, not 100)."""
MAX_BUCKET = 500
"""Distinct signatures of one band bucket compared with each other; past it, each is
compared with the bucket's first :data:`STAR` only (a family of ten thousand pages
alike would otherwise cost a hundred million comparisons in every band)."""
STAR = 50
BLOCK = 64
"""Rows of a bucket compared at once (64 × 10,000 × 128 bytes: 80 MB at most)."""
MIN_CANDIDATE = 0.995

Signature = npt.NDArray[np.uint32]

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_TOKEN = re.compile(f"[{_CJK}]|[^\\W{_CJK}]+")
_DROPPED = "script, style, noscript, template, svg, nav, footer"
_CHROME = ", header, aside"
_BLOCK_TAG = re.compile(
    r"</?(?:address|article|aside|blockquote|br|dd|details|div|dl|dt|fieldset|figcaption|"
    r"figure|form|h[1-6]|header|hr|li|main|ol|p|pre|section|summary|table|td|th|tr|ul)"
    r"\b[^>]*>", re.IGNORECASE)
_TAG = re.compile(r"<[^>]*>")
_SPACE = re.compile(r"\s+")
MAX_REGION_CHARS = 2_000_000

_RANDOM = np.random.default_rng(20261207)
_A = _RANDOM.integers(1, 2**63, PERMUTATIONS, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
_B = _RANDOM.integers(0, 2**63, PERMUTATIONS, dtype=np.uint64)
_K = (np.uint64(0x9E3779B97F4A7C15), np.uint64(0xC2B2AE3D27D4EB4F),
      np.uint64(0x165667B19E3779F9))
"""Fixed seeds: the same archive gives the same groups in every process."""


def _content_area(html: str, selector: str | None) -> LexborNode | None:
    """The page's content area, navigation, footers, scripts and styles removed: the
    ``selector``'s element when given, else the main region
    (:func:`~nitpicker_query.keys.main_region.main_region`), else the body less its header
    and aside too. None when the ``selector`` matches nothing, or the page has no body."""
    try:
        tree = LexborHTMLParser(html)
    except Exception:   # a document lexbor refuses has no content area
        return None
    if selector:   # the user's content area, or none: never another element
        region = tree.css_first(selector)
        if region is None:
            return None
    else:
        region = main_region(tree)
    dropped = _DROPPED
    if region is None:
        region, dropped = tree.body, _DROPPED + _CHROME
        if region is None:
            return None
    for node in region.css(dropped):
        node.decompose()
    return region


def content_text(html: str, selector: str | None = None) -> str | None:
    """The content area's text, what signatures are made of (None: no content area)."""
    region = _content_area(html, selector)
    return None if region is None else region.text(deep=True, separator=" ")


def passages(html: str, selector: str | None = None) -> list[str] | None:
    """The content area's text blocks (paragraphs, headings, list items, cells), in
    document order, whitespace folded: what two pages are shown to differ by."""
    region = _content_area(html, selector)
    if region is None:
        return None
    text = _TAG.sub("", _BLOCK_TAG.sub("\n", (region.html or "")[:MAX_REGION_CHARS]))
    found = []
    for line in html_lib.unescape(text).split("\n"):
        line = _SPACE.sub(" ", line).strip()
        if line:
            found.append(line)
    return found


def tokens(text: str) -> list[str]:
    """The words of the text, lower-cased; a CJK character is a word of its own."""
    return _TOKEN.findall(text[:MAX_REGION_CHARS].lower())


def signature(words: list[str]) -> Signature | None:
    """The MinHash signature of the text's shingles; None under :data:`SHINGLE` words."""
    if len(words) < SHINGLE:
        return None
    # (C functions mapped: no Python frame per word; a lone surrogate is replaced)
    encoded = map(str.encode, words, repeat("utf-8"), repeat("surrogatepass"))
    hashed = np.fromiter(map(zlib.crc32, encoded), dtype=np.uint64, count=len(words))
    n = len(words) - SHINGLE + 1
    shingles = hashed[:n] * _K[0] + hashed[1:n + 1] * _K[1] + hashed[2:n + 2] * _K[2]
    shingles = np.unique(shingles)
    low = np.full(PERMUTATIONS, np.iinfo(np.uint64).max, dtype=np.uint64)
    for start in range(0, len(shingles), CHUNK):
        part = shingles[start:start + CHUNK]
        mixed = (_A[:, None] * part[None, :] + _B[:, None]) >> np.uint64(32)
        np.minimum(low, mixed.min(axis=1), out=low)
    return low.astype(np.uint32)


def similarity(a: Signature, b: Signature) -> float:
    """The estimated Jaccard similarity of two signatures (0–1)."""
    return float(np.count_nonzero(a == b)) / PERMUTATIONS


def band_rows(threshold: float) -> int:
    """Rows per band: the widest band that still makes a pair at ``threshold`` a
    candidate with probability :data:`MIN_CANDIDATE` or more."""
    best = 1
    for rows in (1, 2, 4, 8, 16, 32):
        bands = PERMUTATIONS // rows
        if 1 - (1 - threshold ** rows) ** bands >= MIN_CANDIDATE:
            best = rows
    return best


def near_groups(signatures: Signature, threshold: float
                ) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.float64]]:
    """For the rows of ``signatures`` (distinct signatures, one per row): a component
    label per row — rows joined when estimated at least ``threshold`` alike, directly or
    through others — and each row's best similarity to another row (0 when none is
    that alike)."""
    count = len(signatures)
    best = np.zeros(count)
    if count < 2:
        return np.arange(count), best
    rows = band_rows(threshold)
    need = int(np.ceil(threshold * PERMUTATIONS - 1e-9))
    starts: list[npt.NDArray[np.intp]] = []
    ends: list[npt.NDArray[np.intp]] = []
    for start in range(0, PERMUTATIONS, rows):
        band = np.ascontiguousarray(signatures[:, start:start + rows])
        keys = band.view(np.dtype((np.void, band.dtype.itemsize * rows))).ravel()
        order = np.argsort(keys, kind="stable")
        sorted_keys = keys[order]
        bounds = np.concatenate(([0], np.flatnonzero(sorted_keys[1:] != sorted_keys[:-1])
                                 + 1, [count]))
        # only the buckets of two or more: most pages share no band with another
        for b in np.flatnonzero(np.diff(bounds) >= 2):
            edge = _bucket(signatures, order[bounds[b]:bounds[b + 1]], need, best)
            if edge is not None:
                starts.append(edge[0])
                ends.append(edge[1])
    if not starts:
        return np.arange(count), best
    first, second = np.concatenate(starts), np.concatenate(ends)
    graph = coo_matrix((np.ones(len(first), dtype=np.int8), (first, second)),
                       shape=(count, count))
    _n, labels = connected_components(graph, directed=False)
    return labels.astype(np.intp), best


def _bucket(signatures: Signature, bucket: npt.NDArray[np.intp], need: int,
            best: npt.NDArray[np.float64]
            ) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]] | None:
    """One band bucket: the rows at least ``need`` minimums alike joined (edges from
    each joined set's first row to the others, enough to connect them), and ``best``
    raised where a row found a closer match."""
    heads = bucket if len(bucket) <= MAX_BUCKET else bucket[:STAR]
    members = signatures[bucket]
    equal = np.empty((len(heads), len(bucket)), dtype=np.int16)
    for start in range(0, len(heads), BLOCK):
        block = members[start:min(start + BLOCK, len(heads))]
        equal[start:start + BLOCK] = np.count_nonzero(
            block[:, None, :] == members[None, :, :], axis=2)
    np.fill_diagonal(equal[:, :len(heads)], 0)
    alike = equal >= need
    if not alike.any():
        return None
    scores = np.where(alike, equal, 0)
    np.maximum.at(best, bucket, scores.max(axis=0) / PERMUTATIONS)
    np.maximum.at(best, heads, scores.max(axis=1) / PERMUTATIONS)
    rows, columns = np.nonzero(alike)
    square = coo_matrix((np.ones(len(rows), dtype=np.int8), (rows, columns)),
                        shape=(len(bucket), len(bucket)))
    _n, local = connected_components(square, directed=False)
    first_of = np.full(local.max() + 1, -1, dtype=np.intp)
    for position in range(len(bucket) - 1, -1, -1):   # the lowest position of each
        first_of[local[position]] = position
    joined = np.flatnonzero(first_of[local] != np.arange(len(bucket)))
    return bucket[first_of[local[joined]]], bucket[joined]


__all__ = ["PERMUTATIONS", "SHINGLE", "band_rows", "content_text", "near_groups", "passages",
           "signature", "similarity", "tokens"]
