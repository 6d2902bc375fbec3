"""page-cluster on pages built by software we did not write (make test-slow): CPython's
documentation as Debian ships it (Sphinx) and a blog built by Debian's Pelican, each
labelled from what the generator wrote (bench/cluster_corpora.py). Skipped with the
reason where the package is missing; ``bench/targets.py`` installs them as root."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import cluster_corpora

from page_cluster import resolve_page_cluster_keys
from page_cluster.scoring import adjusted_rand_index

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("name", sorted(cluster_corpora.CORPORA))
def test_a_real_generators_page_types(name: str) -> None:
    missing, pages = cluster_corpora.CORPORA[name]
    reason = missing()
    if reason:
        pytest.skip(reason)
    records = list(pages())
    labels = [r["label"] for r in records]
    keys = resolve_page_cluster_keys(records)
    types = len(set(labels))
    assert adjusted_rand_index(labels, keys) >= 0.9, name
    assert len(set(keys)) <= 2 * types, (name, len(set(keys)), types)
    # and the biggest page type is one cluster, not many near-equal ones
    biggest = max(set(labels), key=labels.count)
    in_biggest = [k for k, label in zip(keys, labels, strict=True) if label == biggest]
    assert max(in_biggest.count(k) for k in set(in_biggest)) >= 0.95 * len(in_biggest)
