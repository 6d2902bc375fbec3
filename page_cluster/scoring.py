"""How good a partition is against known labels: adjusted Rand index and purity."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence


def _comb2(n: int) -> float:
    return n * (n - 1) / 2


def adjusted_rand_index(truth: Sequence[Hashable], found: Sequence[Hashable]) -> float:
    """ARI (Hubert and Arabie): 1.0 for identical partitions, about 0 for chance."""
    if len(truth) != len(found):
        raise ValueError("the two labelings differ in length")
    n = len(truth)
    if n < 2:
        return 1.0
    pairs = Counter(zip(truth, found, strict=True))
    index = sum(_comb2(c) for c in pairs.values())
    a = sum(_comb2(c) for c in Counter(truth).values())
    b = sum(_comb2(c) for c in Counter(found).values())
    expected = a * b / _comb2(n)
    maximum = (a + b) / 2
    if maximum == expected:
        return 1.0
    return (index - expected) / (maximum - expected)


def purity(truth: Sequence[Hashable], found: Sequence[Hashable]) -> float:
    """Share of pages whose cluster's most common true label is their own."""
    by_cluster: dict[Hashable, Counter[Hashable]] = {}
    for t, f in zip(truth, found, strict=True):
        by_cluster.setdefault(f, Counter())[t] += 1
    return sum(c.most_common(1)[0][1] for c in by_cluster.values()) / max(1, len(truth))
