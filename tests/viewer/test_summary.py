"""The Summary and the views around it as a person reads them: cards that link to their
lists, bars as long as their share (an empty one at 0 %), a legend for the content
types, metadata shares linked to the pages without the field, plurals; Mismatches that
say which field is which; clusters and templates titled in words."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import nitpicker_query as q
from nitpicker_crawl.archive import ArchiveWriter
from tests.viewer.conftest import Served, serve
from tests.viewer.tables import table, tables
from tests.viewer.test_api import get


def test_summary_cards_metadata_links_and_plurals(viewer: Served, capped_archive: Path) -> None:
    summary = q.get_summary(capped_archive)
    _, body, _ = get(viewer, "/summary")
    cards = {html.unescape(label).strip(): (html.unescape(href), int(n.replace(",", "")))
             for href, n, label in re.findall(r'<a class="card" href="([^"]+)"><span '
                                              r'class="n">([\d,]+)</span>([^<]+)</a>', body)}
    assert cards == {
        "Broken links": ("/links?type=broken",
                         q.list_links(capped_archive, type="broken")["total"]),
        "Skipped URLs": ("/pages?skipped=only",
                         q.list_pages(capped_archive, skipped="only")["total"]),
        "Cap events": ("/dedupe-cap-events", q.list_dedupe_cap_events(capped_archive)["total"]),
    }
    assert all(n > 0 for _, n in cards.values())
    runs = summary["crawl"]["runs"]
    assert f"({runs} run{'' if runs == 1 else 's'})" in body and "run(s)" not in body
    # each metadata share below 100 % links to the pages without that field
    rows = tables(body)[-1]
    assert rows[0] == ["Field", "Pages with it", "Pages without it"]
    links = dict(re.findall(r'<a class="without" href="([^"]+)">pages without ([^<]+)</a>',
                            body))
    shares = summary["metadataFulfillment"]
    assert len(links) == sum(1 for v in shares.values() if v < 1) > 0
    for href, field in links.items():
        _, listed, _ = get(viewer, html.unescape(href))
        key = re.search(r"missing=(\w+)", href)
        assert key is not None
        # the pages behind the share: the indexable pages the share counts
        assert "indexable=true" in href
        expected = q.list_pages(capped_archive, missing=key.group(1), is_external=False,
                                indexable=True)
        assert expected["total"] == summary["metadataPages"] - summary[
            "metadataPresent"][key.group(1)]
        assert expected["total"] > 0
        shown = re.search(r"Showing 1–[\d,]+ of ([\d,]+)", listed)
        assert shown is not None and int(shown.group(1).replace(",", "")) == expected["total"]
        column = html.unescape(field)
        if column in table(listed)[0]:
            assert all(r[column] == "" for r in table(listed)), column


@pytest.fixture
def tab(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield context.new_page()
    context.close()


def test_bars_are_as_long_as_their_share(tab: Any, viewer: Served,
                                         capped_archive: Path) -> None:
    tab.goto(viewer.url + "/summary")
    bars = tab.evaluate("""[...document.querySelectorAll('.bar')].map(bar => ({
        share: parseFloat(bar.dataset.share), text: bar.parentElement.innerText.trim(),
        fill: bar.firstElementChild.getBoundingClientRect().width,
        whole: bar.getBoundingClientRect().width - 2}))""")
    assert bars and any(b["text"] == "0.0 %" for b in bars)  # keywords: none on TrapZoo
    for bar in bars:
        assert abs(bar["fill"] - bar["whole"] * bar["share"] / 100) <= 1, bar
        if bar["text"] == "0.0 %":
            assert bar["fill"] < 1, bar  # an empty bar looks empty
    # the stacked bar has a legend, colour for colour
    segments = tab.evaluate("[...document.querySelectorAll('.stack .seg')].map(s => "
                            "[s.title, getComputedStyle(s).backgroundColor])")
    legend = tab.evaluate("[...document.querySelectorAll('ul.legend li')].map(li => "
                          "[li.innerText.trim(), getComputedStyle(li.querySelector('.swatch'))"
                          ".backgroundColor])")
    rows = [r for r in q.get_summary(capped_archive)["contentTypeDistribution"] if r["internal"]]
    assert [name for name, _ in segments] == [r["category"] for r in rows]
    assert [text.split(" ")[0] for text, _ in legend] == [r["category"] for r in rows]
    assert [colour for _, colour in legend] == [colour for _, colour in segments]


@pytest.fixture(scope="module")
def titled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = "http://m.test/"
    w = ArchiveWriter.create(tmp_path_factory.mktemp("mismatch") / "m.nitpicker", roots=[base])
    page = {"scraped": 1, "isTarget": 1, "isExternal": 0, "status": 200,
            "contentType": "text/html", "isSkipped": 0}
    w.save_page(base + "a", page, title="Red shirt | Shop", og_title="Red shirt")
    w.save_page(base + "b", page, title="Blue shirt", og_title="Green shirt")
    return w.close()


def test_mismatches_say_which_field_is_which(titled: Path) -> None:
    for served in serve(titled, []):
        _, body, _ = get(served, "/mismatches?type=og:title")
        rows = table(body)
        assert list(rows[0]) == ["URL", "Type", "og:title", "Title"]
        assert [(r["og:title"], r["Title"]) for r in rows] == [
            ("Red shirt", "Red shirt | Shop\nog:title is the start of the title"),
            ("Green shirt", "Blue shirt")]
        # the differing part is marked in both cells
        marks = re.findall(r"<mark>([^<]*)</mark>", body)
        assert marks == [" | Shop", "Green", "Blue"]


def test_clusters_and_templates_are_titled_in_words(viewer: Served,
                                                    capped_archive: Path) -> None:
    cluster = q.get_duplicate_clusters(capped_archive, min_count=5)["items"][0]
    _, body, _ = get(viewer, f"/duplicate-cluster?signature={cluster['signature']}")
    members = q.get_duplicate_cluster(capped_archive, signature=cluster["signature"])
    assert members is not None
    title = f"Cluster {members['items'][0]['shapeKey']}: {members['total']} pages"
    assert html.unescape(re.findall(r"<h1>(.*?)</h1>", body)[0]) == title
    assert html.unescape(re.findall(r"<title>(.*?) — ", body)[0]) == title
    assert (f'<code>{cluster["signature"]}</code> <button type="button" class="copy" '
            f'data-copy="{cluster["signature"]}">Copy</button>') in body


def test_the_sitemaps_missing_page_is_a_status_row_of_its_own(viewer: Served,
                                                              capped_archive: Path) -> None:
    statuses = q.get_summary(capped_archive)["statusDistribution"]
    seed = [s for s in statuses if s.get("inventorySeed")]
    assert seed == [{"status": 404, "count": 1, "inventorySeed": True}]
    _, body, _ = get(viewer, "/summary")
    rows = {r[0]: r[1] for r in tables(body)[0][1:]}
    assert rows["404, named only by the sitemaps or the list"] == "1"
    assert rows["404"] == f"{next(s['count'] for s in statuses if s['status'] == 404):,}"
    assert '<a href="/isolated-pages">404, named only by the sitemaps or the list</a>' in body
