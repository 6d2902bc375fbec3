"""The Apache HTTP Server manual (Debian's ``apache2-doc`` served by Debian's
``apache2``, ``corpora/real/apache_doc.py``) audited as a Screaming Frog user would (issue 39):
each row of the issue asserted on what the user reads, against what the files say
(``Site.facts``: a walk of the manual's files along its links, no request).

Slow: one ``--no-render`` crawl of 2,659 pages (about a minute). External links are never
fetched (``--no-fetch-external``): the manual links hundreds of internet hosts.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import nitpicker_query as q
from corpora.real import apache_doc
from tests.crawl.conftest import run_crawl
from tests.viewer.test_lists import every

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def manual(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str, Any]]:
    why = apache_doc.ensure_installed()
    if why is not None:
        pytest.skip(f"the Apache manual cannot be served here: {why}")
    directory = tmp_path_factory.mktemp("apache-doc")
    # Apache's workers run as www-data when we are root: their directory must be
    # reachable, which pytest's own (0700) is not
    served = Path(tempfile.mkdtemp(prefix="nitpicker-apache-doc-"))
    served.chmod(0o755)
    try:
        site = apache_doc.setup(served / "site")
        with apache_doc.serve(site) as base:
            r = run_crawl(directory, base, "-o", "manual.nitpicker", "--no-render",
                          "--no-fetch-external", "--parallels", "4", "--silent",
                          timeout=1800)
            assert r.returncode == 0, r.stderr
            yield directory / "manual.nitpicker", base, site.facts(base)
    finally:
        shutil.rmtree(served, ignore_errors=True)


def test_every_page_and_every_broken_link_the_files_say(manual: tuple[Path, str, Any]) -> None:
    archive, _, facts = manual
    pages = {i["url"] for i in every(q.list_pages, archive, status=200, is_external=False)}
    assert pages == set(facts.pages)
    # row 4: the site's own broken links, apart from other hosts'
    broken = every(q.list_links, archive, type="broken", destination="internal")
    assert {i["destUrl"] for i in broken} == set(facts.broken)
    assert not every(q.list_links, archive, type="broken", destination="external")


def test_images_with_alt_empty_are_not_missing_their_alt(manual: tuple[Path, str, Any]) -> None:
    """Row 1: every ``<img>`` of the manual has an ``alt``; decorative ones say alt=""."""
    archive, _, _ = manual
    assert q.list_images(archive, missing_alt=True)["total"] == 0
    assert q.list_images(archive, empty_alt=True)["total"] > 0


def test_redirects_and_the_meta_refresh_are_listed(manual: tuple[Path, str, Any]) -> None:
    """Row 3: the directory redirect and the manual's meta refresh, one answer."""
    archive, _, facts = manual
    found = {i["url"]: i for i in every(q.list_pages, archive, redirects=True)}
    for source, target in facts.redirects.items():
        assert (found[source]["redirectKind"], found[source]["redirectTo"]) == ("http", target)
    for page, target in facts.refresh.items():
        assert (found[page]["redirectKind"], found[page]["redirectTo"]) == (
            "meta-refresh", target)
    assert len(found) == len(facts.redirects) + len(facts.refresh)
    totals = q.get_summary(archive)["totals"]
    assert totals["redirectingUrls"] == len(facts.redirects)


def test_no_suggested_exclusion_drops_a_page(manual: tuple[Path, str, Any]) -> None:
    """Row 2: a cluster of "404 Not Found" pages gets no suggestion; any suggestion names
    the pages it would drop, and drops none of the manual's."""
    archive, _, _ = manual
    clusters = every(q.get_duplicate_clusters, archive, min_count=2)
    assert clusters   # the manual has its clusters (the 404 pages, the per-language copies)
    for cluster in clusters:
        suggestion = cluster.get("suggestedExclude")
        if cluster["metaSignatureFields"]["title"] == "404 Not Found":
            assert suggestion is None, cluster
        elif suggestion:
            assert suggestion["pagesDropped"] == 0, cluster


def test_duplicates_and_metadata_count_indexable_pages(manual: tuple[Path, str, Any]) -> None:
    """Row 8: "404 Not Found" is no duplicate title of the manual; the metadata shares
    are over its 200 pages; row 10: no external URL is left queued."""
    archive, _, facts = manual
    titles = {g["value"] for g in every(q.find_duplicates, archive)}
    assert "404 Not Found" not in titles
    assert "404 Not Found" in {g["value"] for g in every(q.find_duplicates, archive,
                                                           population="all")}
    summary = q.get_summary(archive)
    assert summary["metadataPages"] == len(facts.pages)
    assert summary["metadataPresent"]["title"] == len(facts.pages) - len(facts.untitled)
    assert summary["totals"]["queuedUrls"] == 0


def test_a_start_url_answering_404_fails_the_crawl(manual: tuple[Path, str, Any],
                                                   tmp_path: Path) -> None:
    """Row 6: a mistyped start URL is an error naming its status, not an empty archive."""
    _, base, _ = manual
    r = run_crawl(tmp_path, base + "manual/en/nope.html", "-o", "typo.nitpicker",
                  "--no-render", "--no-fetch-external")
    assert r.returncode == 1
    assert "404" in r.stderr.strip().splitlines()[-1]


def test_dimensions_are_not_judged_without_rendering(manual: tuple[Path, str, Any]) -> None:
    """Row 7: a ``--no-render`` archive rendered no image: none is "0 wide"."""
    archive, _, _ = manual
    result = q.list_images(archive, missing_dimensions=True)
    assert result["total"] == 0 and "render" in result.get("note", "")


def test_link_score_is_pagerank_of_the_manuals_own_links(
        manual: tuple[Path, str, Any]) -> None:
    """Issue 42: the link score of every page equals networkx's PageRank over the graph
    the manual's files give (a walk of the files, no request: ``Site.facts``), by the
    rules of docs/queries.md — a link to a redirect counts for its target, each linked
    pair once, no self-links, the .c sources and other files pages without links out;
    and the strongest pages are what a reader of the manual would name."""
    import networkx as nx

    archive, base, facts = manual

    def leads(url: str) -> str | None:
        for _ in range(10):
            if url in facts.redirects:
                url = facts.redirects[url]
            else:
                return url if url in nodes else None
        return None

    nodes = set(facts.pages) | set(facts.files)
    graph = nx.DiGraph()
    graph.add_nodes_from(nodes)
    for page, targets in facts.links.items():
        for target in targets:
            to = leads(target)
            if to is not None and to != page:
                graph.add_edge(page, to)
    want = nx.pagerank(graph, alpha=0.85, tol=1e-12, max_iter=1000)
    got = {i["url"]: i for i in every(q.list_link_score, archive)}
    assert set(got) == nodes
    for url, rank in want.items():
        assert got[url]["pageRank"] == pytest.approx(rank, rel=1e-4), url
    top = [i["url"].removeprefix(base) for i in q.list_link_score(archive, limit=5)["items"]]
    # the English manual's hubs: its index, the module and directive indexes
    assert "manual/en/index.html" in top, top


def test_near_duplicates_are_one_document_in_several_places(
        manual: tuple[Path, str, Any]) -> None:
    """Issue 42: near-duplicate content on software nobody here wrote. The manual serves
    its untranslated pages in every language (the English text under /da/, /ko/ …, with
    that language's navigation) and a directory's index at two URLs: every group is one
    document — the same path under several languages, or a directory and its index.html —
    and never two different documents, at the default threshold and at 80 %."""
    archive, base, _facts = manual

    def document(url: str) -> str:
        path = url.removeprefix(base).removeprefix("manual/")
        path = path.split("/", 1)[1] if "/" in path else path   # the language dropped
        return path.removesuffix("index.html")

    groups = every(q.find_near_duplicates, archive)
    assert len(groups) > 100   # the untranslated pages of 11 languages
    for threshold in (90, 80):
        for group in every(q.find_near_duplicates, archive, threshold=threshold):
            members = q.get_near_duplicates(archive, url=group["representativeUrl"],
                                            threshold=threshold, limit=1000)
            assert members is not None
            urls = [group["representativeUrl"], *(i["url"] for i in members["items"])]
            assert len({document(u) for u in urls}) == 1, urls
    # the other direction: a translated page is alike to nothing — the index in every
    # language, the Spanish installation guide — while the languages without their own
    # installation guide serve the English one, and it is found in each
    for path in ("manual/en/index.html", "manual/es/install.html"):
        alone = q.get_near_duplicates(archive, url=base + path)
        assert alone is not None and alone["total"] == 0, path
    english = q.get_near_duplicates(archive, url=base + "manual/en/install.html")
    assert english is not None
    languages = {i["url"].removeprefix(base).split("/")[1] for i in english["items"]}
    assert "es" not in languages and "da" in languages, languages
