"""Duplicate and metadata checks count the pages a search engine would index (issue 39,
row 8): a "404 Not Found" title every error page shares is no duplicate to fix, a
``noindex`` view or a declared copy is not a page missing its description. The others
are one option away (``--population all``, ``--no-indexable``), and the numbers an
auditor reads are counts, never a share rounded up to 100 %.

The site: 40 articles with their own titles (one without a description), two pairs of
real duplicates (indexable), 6 broken links answering 404 "404 Not Found", 3 ``noindex``
print views titled like their article, and a copy whose canonical names its original
(the first article's canonical names itself: indexable).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import nitpicker_query as q
from nitpicker_query.report.finding_sheets import _summary_rows
from tests.crawl.conftest import SiteHandler, local_site, run_crawl
from tests.viewer.conftest import serve
from tests.viewer.tables import table
from tests.viewer.test_api import get

ARTICLES = 40


def _page(path: str) -> tuple[int, str]:
    head = ""
    if path == "/":
        links = [f"/a{k}" for k in range(ARTICLES)] + [f"/gone{k}" for k in range(6)] + [
            f"/a{k}/print" for k in range(3)] + ["/copy", "/dup1", "/dup2", "/dup3", "/dup4",
                                                 "/ecoute"]
        return 200, "<title>Home</title><meta name=description content='Home'>" + "".join(
            f"<a href='{u}'>{u}</a>" for u in links)
    if path.startswith("/a") and path[2:].isdigit() and int(path[2:]) < ARTICLES:
        k = int(path[2:])
        desc = "" if k == 7 else f"<meta name=description content='About {k}'>"
        self_canonical = "<link rel=canonical href='/a0'>" if k == 0 else ""
        return 200, f"<title>Article {k}</title>{desc}{self_canonical}<p>Text {k}</p>"
    if path.endswith("/print") and path[2:-6].isdigit():
        k = int(path[2:-6])
        head = "<meta name=robots content=noindex>"
        return 200, f"<title>Article {k}</title>{head}<p>Print {k}</p>"
    if path == "/copy":
        return 200, ("<title>Article 1</title><link rel=canonical href='/a1'>"
                     "<meta name=description content='About 1'>")
    if path == "/ecoute":
        return 200, ("<title>Écoute — Straße ＡＢＣ</title>"
                     "<meta name=description content='Listen'>")
    if path in ("/dup1", "/dup2"):
        return 200, "<title>Offers</title><meta name=description content='Offers'>"
    if path in ("/dup3", "/dup4"):
        return 200, "<title>Contact</title><meta name=description content='Contact'>"
    return 404, "<title>404 Not Found</title><p>Not here.</p>"


class _Site(SiteHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        status, body = _page(self.path)
        self.answer(status, f"<html><head>{body}</head></html>")


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    directory = tmp_path_factory.mktemp("indexable")
    with local_site(_Site) as base:
        r = run_crawl(directory, base, "-o", "site.nitpicker", "--no-render", "--silent")
        assert r.returncode == 0, r.stderr
    yield directory / "site.nitpicker", base


def test_duplicates_are_among_indexable_pages_by_default(archive: tuple[Path, str]) -> None:
    path, base = archive
    groups = {g["value"]: g for g in q.find_duplicates(path)["items"]}
    assert set(groups) == {"Offers", "Contact"}
    assert groups["Offers"]["urls"] == [base + "dup1", base + "dup2"]
    # the other direction: every page of the site, 404 pages, print views, the copy
    everything = {g["value"]: g["count"] for g in q.find_duplicates(
        path, population="all")["items"]}
    assert everything["404 Not Found"] == 6
    assert everything["Article 1"] == 3   # the article, its print view, its copy
    assert everything["Article 2"] == 2


def test_metadata_shares_count_indexable_pages(archive: tuple[Path, str]) -> None:
    path, _ = archive
    summary = q.get_summary(path)
    # home, 40 articles, 4 duplicates, Écoute: 46 indexable pages, one without a
    # description
    assert summary["metadataPopulation"] == "indexable"
    assert summary["metadataPages"] == 46
    assert summary["metadataPresent"]["description"] == 45
    assert summary["metadataFulfillment"]["title"] == 1.0
    everything = q.get_summary(path, population="all")
    # + 6 error pages, 3 print views, the copy: the 404s and print views lack descriptions
    assert everything["metadataPages"] == 56
    assert everything["metadataPresent"]["description"] == 46
    # the pages behind the share: the same population, one option
    missing = q.list_pages(path, missing_description=True, indexable=True)
    assert [i["url"] for i in missing["items"]] == [archive[1] + "a7"]
    others = q.list_pages(path, indexable=False, is_external=False)
    assert others["total"] == 10


def test_a_013_archive_counts_the_same_indexable_pages(archive: tuple[Path, str],
                                                       tmp_path: Path) -> None:
    """0.13 tells a canonical naming the page itself by URL id, not by reading both URLs:
    the copy (canonical elsewhere) stays out, the article naming itself stays in."""
    path, _ = archive
    converted = tmp_path / "site-013.nitpicker"
    r = run_crawl(tmp_path, "convert", str(path), "--to", "0.13", "-o", str(converted))
    assert r.returncode == 0, r.stderr
    summary = q.get_summary(converted)
    assert summary["metadataPages"] == 46
    assert summary["metadataPresent"]["description"] == 45
    assert q.get_summary(converted, population="all")["metadataPages"] == 56
    groups = {g["value"]: g["count"] for g in q.find_duplicates(converted)["items"]}
    assert groups == {"Offers": 2, "Contact": 2}
    everything = {g["value"]: g["count"] for g in q.find_duplicates(
        converted, population="all")["items"]}
    assert everything["Article 1"] == 3 and everything["Article 0"] == 2


def test_unknown_population_is_refused_in_one_line(archive: tuple[Path, str]) -> None:
    path, _ = archive
    query = str(Path(sys.executable).with_name("nitpicker-query"))
    done = subprocess.run([query, "duplicates", str(path), "--population", "some"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "population" in done.stderr and "indexable" in done.stderr
    assert len(done.stderr.strip().splitlines()) <= 3


def test_the_report_and_viewer_never_round_a_missing_page_away(
        archive: tuple[Path, str]) -> None:
    """45 of 46 is 97.8 %; one page of 2,814 would be 99.9 %, never "100.0 %"."""
    path, _ = archive
    with q.open_archive(path) as a:
        rows = dict(_summary_rows(a))
    assert rows["Pages with description"] == "45 of 46 indexable pages (97.8 %)"
    assert rows["Pages with title"] == "46 of 46 indexable pages (100.0 %)"
    from nitpicker_query.terminal import percent
    assert percent(2813 / 2814) == "99.9 %" and percent(1.0) == "100.0 %"
    for served in serve(path, []):
        status, body, _ = get(served, "/summary")
        assert status == 200
        assert "Shares of the 46 indexable pages" in body
        assert "97.8 %" in body
        status, body, _ = get(served, "/summary?population=all")
        assert status == 200 and "Shares of all 56 HTML pages" in body
        # a group cut by its pages limit says how many it leaves out
        status, body, _ = get(served, "/duplicates?population=all&pagesLimit=2")
        assert status == 200
        row = next(r for r in table(body) if r["Value"] == "404 Not Found")
        assert row["Pages"] == "6" and row["URLs"].splitlines()[-1] == "…and 4 more"
        assert len(row["URLs"].splitlines()) == 3


def test_search_folds_case_and_accents_in_titles(archive: tuple[Path, str]) -> None:
    path, base = archive
    for typed in ("Ecoute", "écoute", "STRASSE", "abc"):
        assert [i["url"] for i in q.list_pages(path, search=typed)["items"]] == [
            base + "ecoute"], typed
    # the other direction: a word the title does not hold
    assert q.list_pages(path, search="Ecoutez")["total"] == 0


def test_an_empty_resource_list_says_why(archive: tuple[Path, str]) -> None:
    """A --no-render archive records no loads: "no items" must not read as "the site loads
    no stylesheet"."""
    path, _ = archive
    result = q.list_resources(path)
    assert result["total"] == 0 and "--no-render crawl reads the HTML only" in result["note"]
