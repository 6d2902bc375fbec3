"""page-cluster on pages built by software we did not write (make test-slow): CPython's
documentation as Debian ships it (Sphinx), a blog built by Debian's Pelican and a real
MediaWiki crawled from its root, each labelled from what the software wrote
(corpora/real/cluster_corpora.py), and a site written by a helper apart from the rules
(corpora/template_site.py) and two more held out from the tuning (corpora/publisher_site.py,
corpora/municipal_site.py). Skipped with the
reason where the package is missing; ``bench/targets.py`` installs them as root."""

from __future__ import annotations

import pytest

from corpora.real import cluster_corpora
from page_cluster import resolve_page_cluster_keys
from page_cluster.scoring import adjusted_rand_index, purity

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("name", ["pelican", "sphinx"])
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


def test_the_site_written_apart_from_the_rules() -> None:
    """The independent site (25 templates, written by a helper who never read
    page_cluster): today ARI 0.972 and purity 0.995 (0.952 and 0.970 before small tables
    were judged by Fisher's exact test; 0.868 before clusters holding one structure were
    joined across blocks; upstream scores 0.952) — what is left is over-splitting, not
    mixing templates. Held here so it only moves up."""
    records = list(cluster_corpora.independent_pages())
    labels = [r["label"] for r in records]
    keys = resolve_page_cluster_keys(records)
    assert adjusted_rand_index(labels, keys) >= 0.96
    assert purity(labels, keys) >= 0.99


@pytest.mark.parametrize(("name", "ari", "purity_at_least"),
                         [("publisher", 0.8, 0.99), ("municipal", 0.6, 0.95)])
def test_the_sites_held_out_from_the_tuning(name: str, ari: float,
                                            purity_at_least: float) -> None:
    """Two more sites written apart from the rules, held out while page_cluster was tuned
    (publisher: ARI 0.477, purity 1.000, then 0.836 with a consent dialog read as the
    frame and wrappers taken out; municipal: 0.629, 0.965). Purity most of all:
    a rule that merges two of their templates (a shared-component rule did: municipal
    purity 0.827) is a wrong answer, and fails here."""
    missing, pages = cluster_corpora.CORPORA[name]
    assert missing() is None
    records = list(pages())
    labels = [r["label"] for r in records]
    keys = resolve_page_cluster_keys(records)
    assert purity(labels, keys) >= purity_at_least, name
    assert adjusted_rand_index(labels, keys) >= ari, name


@pytest.mark.parametrize("query", [True, False], ids=["stylesheet-queries", "without"])
def test_a_real_wikis_page_types(query: bool) -> None:
    """Debian's MediaWiki crawled from ``/`` (about 1,550–1,750 pages, 109–111 page types
    from its body classes: articles, edit forms, histories, diffs, old revisions, every
    special page, API help and results): its ``load.php?modules=…`` stylesheets as the
    crawl saw them, and with their queries cut off.

    Which pages a capped crawl keeps varies from run to run (the order pages come back
    in; with one fetch at a time too), and so does the mix: four crawls of the final
    crawler scored ARI 0.932–0.953 and purity 0.893–0.904 both ways (docs/BENCHMARKS.md);
    the bounds sit under that spread. What is left is finer labels than templates:
    MediaWiki gives each special page its own body class, while ``Special:LongPages``,
    ``Special:AncientPages`` and their kin share one list template, and single special
    pages reached under ``/wiki/`` sit with the ``MediaWiki:`` namespace's views."""
    reason = cluster_corpora.mediawiki_missing()
    if reason:
        pytest.skip(reason)
    records = list(cluster_corpora.mediawiki_pages())
    if not query:
        records = [{**r, "stylesheetHrefs": [h.split("?")[0] for h in r["stylesheetHrefs"]]}
                   for r in records]
    labels = [r["label"] for r in records]
    keys = resolve_page_cluster_keys(records)
    assert adjusted_rand_index(labels, keys) >= 0.92
    assert len(set(keys)) <= 2 * len(set(labels))
    assert purity(labels, keys) >= 0.88
