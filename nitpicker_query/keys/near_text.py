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
"""Distinct signatures of one band bucket compared pair by pair; a bigger bucket goes by
leaders (a family of a hundred thousand pages alike would otherwise cost ten billion
comparisons in every band)."""
STAR = 50
"""Leaders of a big bucket."""
BLOCK = 64
"""Rows of a bucket compared with all of it at once (64 × 500 × 128 bytes: 4 MB)."""
ROWS = 4096
"""Rows of a big bucket compared with its leader at once (512 KB)."""
MIN_CANDIDATE = 0.995

Signature = npt.NDArray[np.uint32]

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
_P = np.uint64(0x100000001B3)          # odd: invertible mod 2^64
_P_INVERSE = np.uint64(pow(int(_P), -1, 2**64))
_POWERS: list[npt.NDArray[np.uint64]] = [np.ones(1, dtype=np.uint64)] * 2



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


def _classes() -> npt.NDArray[np.int8]:
    """The class of each code point of the Basic Multilingual Plane: 0 not part of a
    word (spaces, punctuation, symbols), 1 part of a word (letters and digits of any
    script, ``_``), 2 a word of its own (a CJK character)."""
    table = np.ones(0x10000, dtype=np.int8)
    table[:128] = 0
    for c in b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_":
        table[c] = 1
    for low, high in _NOT_WORDS:
        table[low:high + 1] = 0
    for c in (0xAA, 0xB2, 0xB3, 0xB5, 0xB9, 0xBA):   # ª ² ³ µ ¹ º: letters and digits
        table[c] = 1
    for low, high in _OWN_WORDS:
        table[low:high + 1] = 2
    return table


_NOT_WORDS = ((0x80, 0xBF), (0xD7, 0xD7), (0xF7, 0xF7), (0x2000, 0x2BFF), (0x3000, 0x303F),
              (0xD800, 0xDFFF), (0xFE30, 0xFE6F), (0xFF00, 0xFF0F), (0xFF1A, 0xFF20),
              (0xFF3B, 0xFF40), (0xFF5B, 0xFF65), (0xFFF0, 0xFFFF))
"""Punctuation and symbols beyond ASCII: Latin-1's signs, general punctuation to
miscellaneous symbols and arrows, CJK and full-width punctuation, surrogates, specials."""
_OWN_WORDS = ((0x3040, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xAC00, 0xD7AF),
              (0xF900, 0xFAFF))
"""Kana, CJK ideographs and Hangul syllables: text written without spaces."""
_CLASS = _classes()


def _words(text: str) -> tuple[npt.NDArray[np.uint32], npt.NDArray[np.intp],
                               npt.NDArray[np.intp]]:
    """The text's code points and where each word starts and ends in them: one vector
    pass over the text, no regular expression (a page of 12,000 characters in about
    30 µs, where an expression took 400)."""
    points = np.frombuffer(text[:MAX_REGION_CHARS].encode("utf-32-le", "surrogatepass"),
                           dtype=np.uint32)
    kind = _CLASS[np.minimum(points, 0xFFFF)]
    # beyond the BMP: emoji and symbols (U+1F000 on) are not words, other scripts are
    astral = points > 0xFFFF
    if astral.any():
        kind[astral] = np.where(points[astral] >= 0x1F000, 0, 1)
    word, own = kind == 1, kind == 2
    before = np.concatenate(([False], word[:-1]))
    after = np.concatenate((word[1:], [False]))
    starts = np.flatnonzero((word & ~before) | own)
    ends = np.flatnonzero((word & ~after) | own) + 1
    return points, starts, ends


def tokens(text: str) -> list[str]:
    """The words of the text, lower-cased: runs of letters and digits of any script, and
    each CJK character a word of its own."""
    text = text[:MAX_REGION_CHARS].lower()
    _points, starts, ends = _words(text)
    return [text[s:e] for s, e in zip(starts.tolist(), ends.tolist(), strict=True)]


def word_hashes(text: str) -> npt.NDArray[np.uint64]:
    """A hash of each of the text's :func:`tokens`, in order: a polynomial hash of the
    word's code points, computed for every word at once."""
    points, starts, ends = _words(text[:MAX_REGION_CHARS].lower())
    if not len(starts):
        return np.zeros(0, dtype=np.uint64)
    # prefix sums of code point × P^position (wrapping mod 2^64), each word's sum brought
    # back to its own start by P's inverse: the same word hashes alike wherever it stands
    count = len(points)
    powers = _powers(count + 1)
    prefix = np.zeros(count + 1, dtype=np.uint64)
    np.cumsum((points.astype(np.uint64) + np.uint64(1)) * powers[0][:count],
              dtype=np.uint64, out=prefix[1:])
    hashed: npt.NDArray[np.uint64] = (prefix[ends] - prefix[starts]) * powers[1][starts]
    return hashed


def _powers(count: int) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
    """P^i and P^-i mod 2^64 for i < count (kept, grown when a longer text comes)."""
    if len(_POWERS[0]) < count:
        size = max(count, 2 * len(_POWERS[0]))
        grown = []
        for p in (_P, _P_INVERSE):
            factors = np.full(size, p, dtype=np.uint64)
            factors[0] = 1
            grown.append(np.cumprod(factors, dtype=np.uint64))
        _POWERS[:] = grown
    return _POWERS[0], _POWERS[1]


def signature(words: npt.NDArray[np.uint64]) -> Signature | None:
    """The MinHash signature of the shingles of a text's :func:`word_hashes`; None under
    :data:`SHINGLE` words."""
    if len(words) < SHINGLE:
        return None
    n = len(words) - SHINGLE + 1
    shingles = words[:n] * _K[0] + words[1:n + 1] * _K[1] + words[2:n + 2] * _K[2]
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
    raised where a row found a closer match. Every pair is compared up to
    :data:`MAX_BUCKET` rows; a bigger bucket goes by leaders (:func:`_leaders`)."""
    if len(bucket) > MAX_BUCKET:
        return _leaders(signatures, bucket, need, best)
    members = signatures[bucket]
    equal = np.empty((len(bucket), len(bucket)), dtype=np.int16)
    for start in range(0, len(bucket), BLOCK):
        block = members[start:start + BLOCK]
        equal[start:start + BLOCK] = np.count_nonzero(
            block[:, None, :] == members[None, :, :], axis=2)
    np.fill_diagonal(equal, 0)
    alike = equal >= need
    if not alike.any():
        return None
    np.maximum.at(best, bucket, np.where(alike, equal, 0).max(axis=1) / PERMUTATIONS)
    rows, columns = np.nonzero(alike)
    square = coo_matrix((np.ones(len(rows), dtype=np.int8), (rows, columns)),
                        shape=(len(bucket), len(bucket)))
    _n, local = connected_components(square, directed=False)
    _labels, first = np.unique(local, return_index=True)   # each set's first row
    joined = np.flatnonzero(first[local] != np.arange(len(bucket)))
    return bucket[first[local[joined]]], bucket[joined]


def _leaders(signatures: Signature, bucket: npt.NDArray[np.intp], need: int,
             best: npt.NDArray[np.float64]
             ) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]] | None:
    """A big bucket (a family of thousands of pages alike in this band): its first row
    leads, every row alike to it joins it; the first row left leads next, and so on for
    :data:`STAR` leaders — rows left after them are not compared in this band (they
    may be in another). Linear in the bucket, a chunk of rows at a time."""
    first: list[npt.NDArray[np.intp]] = []
    second: list[npt.NDArray[np.intp]] = []
    left = bucket
    for _ in range(STAR):
        if len(left) < 2:
            break
        leader, rest = left[0], left[1:]
        lead = signatures[leader]
        equal = np.concatenate([np.count_nonzero(signatures[rest[at:at + ROWS]] == lead,
                                                 axis=1) for at in range(0, len(rest), ROWS)])
        alike = equal >= need
        if alike.any():
            joined = rest[alike]
            scores = equal[alike] / PERMUTATIONS
            np.maximum.at(best, joined, scores)
            best[leader] = max(best[leader], float(scores.max()))
            first.append(np.full(len(joined), leader, dtype=np.intp))
            second.append(joined)
        left = rest[~alike]
    if not first:
        return None
    return np.concatenate(first), np.concatenate(second)


__all__ = ["PERMUTATIONS", "SHINGLE", "band_rows", "content_text", "near_groups", "passages",
           "signature", "similarity", "tokens"]
