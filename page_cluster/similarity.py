"""Set similarity and the self-tuning cut: the two primitives every stage uses."""

from __future__ import annotations

from collections.abc import Collection, Sequence

import numpy as np
from scipy import sparse  # type: ignore[import-untyped]


def jaccard_similarity(a: Collection[object], b: Collection[object]) -> float:
    """|a ∩ b| / |a ∪ b|; two empty sets are identical (1.0)."""
    sa, sb = a if isinstance(a, set | frozenset) else set(a), \
        b if isinstance(b, set | frozenset) else set(b)
    union = len(sa | sb)
    return 1.0 if union == 0 else len(sa & sb) / union


def incidence(sets: Sequence[Collection[int]], width: int) -> sparse.csr_matrix:
    """Sets of token ids as the rows of a 0/1 sparse matrix (``width`` columns)."""
    indptr = np.zeros(len(sets) + 1, dtype=np.int64)
    for i, s in enumerate(sets):
        indptr[i + 1] = indptr[i] + len(s)
    indices = np.fromiter((t for s in sets for t in sorted(s)), dtype=np.int32,
                          count=int(indptr[-1]))
    data = np.ones(len(indices), dtype=np.float32)
    return sparse.csr_matrix((data, indices, indptr), shape=(len(sets), width))


def jaccard_matrix(rows: sparse.csr_matrix, other: sparse.csr_matrix | None = None
                   ) -> np.ndarray:
    """Pairwise Jaccard similarity between the rows of two incidence matrices (one
    sparse product for all the intersections)."""
    other = rows if other is None else other
    inter = (rows @ other.T).toarray()
    size_a = np.asarray(rows.sum(axis=1)).ravel()
    size_b = np.asarray(other.sum(axis=1)).ravel()
    union = size_a[:, None] + size_b[None, :] - inter
    with np.errstate(divide="ignore", invalid="ignore"):
        sim = np.where(union > 0, inter / np.maximum(union, 1), 1.0)
    return np.asarray(sim, dtype=np.float64)


def auto_cut_threshold(values: Sequence[float]) -> float | None:
    """The midpoint of the widest gap between consecutive distinct values.

    Values from two populations (distances within templates and between them; how many
    pages share a header and how many share a sidebar) leave their widest gap between
    the populations; its midpoint separates them without a hand-set threshold. None when
    there are fewer than two distinct values (nothing to separate).
    """
    distinct = sorted(set(float(v) for v in values))
    if len(distinct) < 2:
        return None
    gaps = [(distinct[i + 1] - distinct[i], i) for i in range(len(distinct) - 1)]
    width, i = max(gaps, key=lambda g: (g[0], -g[1]))
    return (distinct[i] + distinct[i + 1]) / 2 if width > 0 else None
