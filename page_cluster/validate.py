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

from .mirror import MirrorAxis, detect_mirror_axis, normalize_path_by_mirror_axis
from .similarity import jaccard_similarity

MAX_SAMPLED = 200
"""Members per cluster compared for cohesion (a sample, in input order: bounded cost)."""

MIRROR_SIMILARITY = 0.8
"""Least structural similarity of two mirrored pages (``/en/about`` and ``/ja/about``)
for their clusters to count as one template corroborated by the mirror axis. Mirrors of
one template differ by a translated-away block or two; two templates that merely share a
path differ by far more. Fixed: the handful of mirrored pairs of a site is too few for a
gap to mean anything."""


def find_cross_cluster_duplicates(keys: Sequence[str], tokens: Sequence[frozenset[Hashable]],
                                  paths: Sequence[Sequence[str]] | None = None, *,
                                  axis: MirrorAxis | None = None) -> list[dict[str, Any]]:
    """Cluster pairs that look like one template split in two.

    - Pages of different clusters with exactly the same structural token set
      (``similarity`` 1: safe to merge without more evidence).
    - With ``paths`` (each page's URL path segments): pages of different clusters that
      are mirrors of each other along the site's mirror axis (``axis``, else detected
      from ``paths``) and at least :data:`MIRROR_SIMILARITY` alike
      (``corroboratedByMirrorAxis``: safe to merge too).

    One entry per cluster pair: ``clusterKeys``, ``similarity`` (the lowest seen between
    its evidence pages), ``sharedStructures`` (identical structures),
    ``mirroredPages`` and ``corroboratedByMirrorAxis``.
    """
    seen: dict[frozenset[Hashable], set[str]] = defaultdict(set)
    for key, token_set in zip(keys, tokens, strict=True):
        seen[token_set].add(key)
    pairs: dict[tuple[str, str], dict[str, Any]] = {}
    lowest: dict[tuple[str, str], float] = {}

    def entry(a: str, b: str) -> dict[str, Any]:
        return pairs.setdefault((a, b), {"clusterKeys": [a, b], "similarity": 1.0,
                                         "sharedStructures": 0, "mirroredPages": 0,
                                         "corroboratedByMirrorAxis": False})

    for clusters in seen.values():
        ordered = sorted(clusters)
        for i, a in enumerate(ordered):
            for b in ordered[i + 1:]:
                entry(a, b)["sharedStructures"] += 1
    if paths is not None:
        if axis is None:
            axis = detect_mirror_axis(paths)
        if axis is not None:
            mirrors: dict[tuple[str, ...], list[int]] = defaultdict(list)
            for n, path in enumerate(paths):
                normalised = normalize_path_by_mirror_axis(path, axis)
                if normalised != list(path):
                    mirrors[tuple(normalised)].append(n)
            for group in mirrors.values():
                by_key: dict[str, int] = {}
                for n in group:
                    by_key.setdefault(keys[n], n)
                ordered = sorted(by_key)
                for i, a in enumerate(ordered):
                    for b in ordered[i + 1:]:
                        sim = jaccard_similarity(tokens[by_key[a]], tokens[by_key[b]])
                        if sim < MIRROR_SIMILARITY:
                            continue
                        found = entry(a, b)
                        found["mirroredPages"] += 1
                        found["corroboratedByMirrorAxis"] = True
                        lowest[(a, b)] = min(lowest.get((a, b), 1.0), sim)
    for pair, sim in lowest.items():
        if not pairs[pair]["sharedStructures"]:  # identical pages are evidence enough
            pairs[pair]["similarity"] = round(sim, 4)
    return [pairs[k] for k in sorted(pairs)]


def safe_merges(duplicates: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The pairs that can be merged on the report alone: identical structures, or
    mirrors corroborated by the axis."""
    return [d for d in duplicates if d["similarity"] == 1.0 or d["corroboratedByMirrorAxis"]]


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


def validate_cluster_partition(keys: Sequence[str], tokens: Sequence[frozenset[Hashable]],
                               paths: Sequence[Sequence[str]] | None = None
                               ) -> dict[str, Any]:
    """The three checks in one report: the mirror axis (when ``paths`` are given), cross-
    cluster duplicates (corroborated by that axis) and each cluster's cohesion."""
    axis = detect_mirror_axis(paths) if paths is not None else None
    return {"mirrorAxis": None if axis is None else {
                "position": axis.position, "values": list(axis.values),
                "skeletons": axis.skeletons},
            "crossClusterDuplicates": find_cross_cluster_duplicates(keys, tokens, paths,
                                                                    axis=axis),
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
