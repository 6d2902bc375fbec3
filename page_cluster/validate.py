"""Checks of a finished partition, independent of how it was made: pages of different
clusters with the same structure, and how alike each cluster's members are.

Works on any clustering (keys read back from an archive too): it needs each page's key
and structural token set. It reports data; what to merge is the caller's choice, and
:func:`merge_validated_clusters` applies the choice.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Hashable, Iterable, Sequence
from typing import Any

from .similarity import jaccard_similarity

MAX_SAMPLED = 200
"""Members per cluster compared for cohesion (a sample, in input order: bounded cost)."""


def find_cross_cluster_duplicates(keys: Sequence[str], tokens: Sequence[frozenset[Hashable]]
                                  ) -> list[dict[str, Any]]:
    """Cluster pairs holding pages with exactly the same structural token set: the same
    template split in two (similarity 1, safe to merge)."""
    seen: dict[frozenset[Hashable], set[str]] = defaultdict(set)
    for key, token_set in zip(keys, tokens, strict=True):
        seen[token_set].add(key)
    pairs: dict[tuple[str, str], int] = defaultdict(int)
    for clusters in seen.values():
        ordered = sorted(clusters)
        for i, a in enumerate(ordered):
            for b in ordered[i + 1:]:
                pairs[(a, b)] += 1
    return [{"clusterKeys": [a, b], "similarity": 1.0, "sharedStructures": n}
            for (a, b), n in sorted(pairs.items())]


def compute_cluster_cohesion(keys: Sequence[str], tokens: Sequence[frozenset[Hashable]]
                             ) -> dict[str, dict[str, float]]:
    """Per cluster: median, 10th percentile and minimum Jaccard similarity of its members
    to the first one (sampled). A low tail flags a cluster mixing templates."""
    members: dict[str, list[frozenset[Hashable]]] = defaultdict(list)
    for key, token_set in zip(keys, tokens, strict=True):
        if len(members[key]) < MAX_SAMPLED:
            members[key].append(token_set)
    report = {}
    for key, sets in sorted(members.items()):
        sims = sorted(jaccard_similarity(sets[0], s) for s in sets[1:]) or [1.0]
        report[key] = {"median": round(statistics.median(sims), 4),
                       "p10": round(sims[len(sims) // 10], 4), "min": round(sims[0], 4),
                       "sampled": len(sets)}
    return report


def validate_cluster_partition(keys: Sequence[str], tokens: Sequence[frozenset[Hashable]]
                               ) -> dict[str, Any]:
    """Both checks in one report."""
    return {"crossClusterDuplicates": find_cross_cluster_duplicates(keys, tokens),
            "cohesion": compute_cluster_cohesion(keys, tokens)}


def merge_validated_clusters(keys: Sequence[str], pairs: Iterable[dict[str, Any]]
                             ) -> list[str]:
    """Apply confirmed merges: each pair's clusters take the smaller key (chains too)."""
    parent: dict[str, str] = {}

    def find(k: str) -> str:
        while parent.get(k, k) != k:
            k = parent[k]
        return k

    for pair in pairs:
        a, b = (find(k) for k in pair["clusterKeys"])
        if a != b:
            parent[max(a, b)] = min(a, b)
    return [find(k) for k in keys]
