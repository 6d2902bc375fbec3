"""What a person reads in the viewer's lists, cell by cell: the Headers view's values,
CSV downloads equal to the query's whole result, search, redirect chains, and the one
line a mistyped filter gets."""

from __future__ import annotations

import csv
import html
import io
import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlencode

import pytest

import nitpicker_query as q
from nitpicker_crawl.archive import ArchiveWriter
from tests.viewer.conftest import Served, serve
from tests.viewer.tables import table, tables
from tests.viewer.test_api import get


def every(function: Any, archive: Path, **options: Any) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    offset: int | None = 0
    while offset is not None:
        page = function(archive, **options, limit=1000, offset=offset)
        items += page["items"]
        offset = page["nextOffset"]
    return items


def error_text(body: str) -> str:
    """The one line an HTML view's error shows."""
    found = re.search(r'<p class="error" role="alert">(.*?)</p>', body, re.S)
    assert found is not None, body[:300]
    return html.unescape(found.group(1))


def mark(value: bool | None, key: str = "", url: str = "") -> str:
    """A flag's cell as its text reads: a mark (hidden from screen readers) and the word
    a screen reader says; null (no headers stored) as "not fetched" — but HSTS on a
    fetched http:// page, where it cannot apply, as "n/a (http)"."""
    if value is None and key == "hasHSTS" and url.startswith("http:"):
        return "n/a (http)"
    return "not fetched" if value is None else ("✓yes" if value else "—no")


def test_the_headers_view_shows_each_flag(viewer: Served, capped_archive: Path) -> None:
    status, body, _ = get(viewer, "/headers?pageSize=50")
    assert status == 200
    rows = table(body)
    assert list(rows[0]) == ["URL", "CSP", "X-Frame-Options", "X-Content-Type-Options", "HSTS"]
    expected = q.check_headers(capped_archive, limit=50)["items"]
    assert [r["URL"] for r in rows] == [e["url"] for e in expected]
    assert [[r["CSP"], r["X-Frame-Options"], r["X-Content-Type-Options"], r["HSTS"]]
            for r in rows] == [[mark(e[k], k, e["url"]) for k in (
                                   "hasCSP", "hasXFrameOptions", "hasXContentTypeOptions",
                                   "hasHSTS")]
                               for e in expected]


def test_the_pages_view_labels_its_columns_and_filters(viewer: Served) -> None:
    _, body, _ = get(viewer, "/pages")
    head = tables(body)[0][0]
    assert head[:3] == ["URL", "Status", "Title"] and "statusMin" not in body.split(
        "<table")[0].replace('name="statusMin"', "")
    assert "Status from" in body and "Skipped because" in head


def test_a_filter_the_query_does_not_take_is_a_400_naming_the_nearest(
        viewer: Served) -> None:
    status, body, _ = get(viewer, "/api/list_pages?bogus=1")
    assert status == 400 and "list_pages takes no parameter 'bogus'" in body
    status, body, _ = get(viewer, "/api/list_pages?statusMn=400")
    assert status == 400 and "did you mean statusMin?" in body
    status, body, _ = get(viewer, "/pages?statusMn=400")
    # a person in a browser reads the view's name and the filter's label, not the MCP tool
    assert status == 400 and error_text(body) == (
        "The Pages view takes no parameter 'statusMn'; did you mean Status from "
        "(statusMin)?")
    status, body, _ = get(viewer, "/pages?sortBy=bogus")
    assert status == 400 and error_text(body).startswith("Sort by (sortBy) must be one of ")
    assert error_text(body).endswith(", not 'bogus'")
    status, body, _ = get(viewer, "/api/list_pages?format=xml")
    assert status == 400 and "format must be json or csv" in body


def test_an_unknown_skip_reason_lists_the_archives_reasons(viewer: Served,
                                                          capped_archive: Path) -> None:
    status, body, _ = get(viewer, "/api/list_pages?skipReason=blocked+by+robots.txt")
    assert status == 400
    assert "skipped for 'blocked by robots.txt'" in body and "'robots.txt' (" in body
    status, body, _ = get(viewer, "/api/list_pages?skipReason=robots.txt")
    assert status == 200 and unquote(body).count(capped_archive.name) == 0
    assert q.list_pages(capped_archive, skip_reason="robots.txt")["total"] >= 1


TITLES = ("=HYPERLINK(\"http://evil.test\",\"click\")", "-2+3", "a, b \"quoted\"\nline",
          "@SUM(A1)", "plain")


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """2,345 pages (more than two pages of the query), titles a spreadsheet would run."""
    out = tmp_path_factory.mktemp("csv") / "big.nitpicker"
    w = ArchiveWriter.create(out, roots=["http://big.test/"], workdir=out.parent / "work")
    for i in range(2345):
        w.save_page(f"http://big.test/p/{i:05d}", scraped=1, isTarget=1, isExternal=0,
                    status=200 if i % 7 else 404, contentType="text/html", isSkipped=0,
                    title=TITLES[i % len(TITLES)], firstCrawledAt=1_700_000_000_000)
    return w.close()


def test_csv_is_the_whole_filtered_result(big: Path) -> None:
    for served in serve(big, []):
        status, body, headers = get(served, "/api/list_pages?format=csv")
        assert status == 200 and headers["content-type"].startswith("text/csv")
        assert headers["content-disposition"] == 'attachment; filename="pages.csv"'
        rows = list(csv.DictReader(io.StringIO(body, newline="")))
        expected = every(q.list_pages, big)
        assert len(expected) == 2345
        assert [r["url"] for r in rows] == [e["url"] for e in expected]
        assert [r["status"] for r in rows] == [str(e["status"]) for e in expected]
        assert body.count("\r\n") == len(expected) + 1  # RFC 4180 records end in CRLF
        # a cell a spreadsheet would run as a formula starts with ' (text); others as is
        titles = {r["title"] for r in rows}
        assert titles == {"'=HYPERLINK(\"http://evil.test\",\"click\")", "'-2+3",
                          "a, b \"quoted\"\nline", "'@SUM(A1)", "plain"}
        assert {r["firstCrawledAt"][:4] for r in rows} == {"2023"}  # a time, not epoch ms
        # limit and offset cut it only when given; a BOM on request
        _, cut, _ = get(served, "/api/list_pages?format=csv&limit=3&offset=1001")
        assert [r["url"] for r in csv.DictReader(io.StringIO(cut))] == [
            e["url"] for e in q.list_pages(big, limit=3, offset=1001)["items"]]
        _, bom, _ = get(served, "/api/list_pages?format=csv&bom=true&status=404&limit=1")
        assert bom.startswith("\ufeffurl,") and bom.count("\r\n") == 2
        status, body, _ = get(served, "/api/get_summary?format=csv")
        assert status == 400 and "not a list" in body


def test_a_view_with_format_csv_answers_its_download(viewer: Served,
                                                     capped_archive: Path) -> None:
    """``/pages?…&format=csv`` is the view's CSV link: the whole filtered result (not the
    page shown), the same bytes as ``/api/list_pages``, whatever page the view was on."""
    status, body, headers = get(viewer, "/pages?isExternal=false&pageSize=20&page=2&"
                                        "format=csv")
    assert status == 200 and headers["content-type"].startswith("text/csv")
    assert headers["content-disposition"] == 'attachment; filename="pages.csv"'
    _, api, _ = get(viewer, "/api/list_pages?isExternal=false&securityHeaders=true&"
                                "format=csv")
    assert body == api
    rows = list(csv.DictReader(io.StringIO(body, newline="")))
    expected = every(q.list_pages, capped_archive, is_external=False, security_headers=True)
    assert len(expected) > 20
    assert [(r["url"], r["status"]) for r in rows] == [(e["url"], str(e["status"]))
                                                       for e in expected]
    status, body, _ = get(viewer, "/summary?format=csv")
    assert status == 400 and "one object, not a list" in error_text(body)
    status, body, _ = get(viewer, "/pages?format=xml")
    assert status == 400 and error_text(body) == "format must be html, csv or json, not 'xml'"


def test_every_list_view_links_its_csv(viewer: Served, capped_archive: Path) -> None:
    _, body, _ = get(viewer, "/pages?statusMin=400&pageSize=20")
    link = re.search(r'<a class="download" href="([^"]+)" download>([^<]+)</a>', body)
    assert link is not None
    total = q.list_pages(capped_archive, status_min=400)["total"]
    assert link.group(2) == f"Download CSV (all {total:,} rows)"
    href = link.group(1).replace("&amp;", "&")
    assert "statusMin=400" in href and "pageSize" not in href
    _, data, _ = get(viewer, href)
    rows = list(csv.DictReader(io.StringIO(data.lstrip("\ufeff"))))
    assert len(rows) == total and all(int(r["status"]) >= 400 for r in rows)
    assert {"hasCSP", "hasHSTS"} <= set(rows[0])  # the view's security columns, too
    for view in ("links", "resources", "images", "headers", "duplicate-clusters",
                 "dedupe-cap-events", "template-clusters"):
        _, page, _ = get(viewer, f"/{view}")
        assert ('class="download"' in page) == ("<table" in page), view


def test_search_finds_urls_and_titles(viewer: Served, capped_archive: Path) -> None:
    _, body, _ = get(viewer, "/pages?" + urlencode({"search": "SHIRT", "pageSize": 500}))
    rows = table(body)
    expected = q.list_pages(capped_archive, search="SHIRT", limit=500)
    assert len(rows) == expected["total"] > 0
    assert all("shirt" in (r["URL"] + r["Title"]).lower() for r in rows)
    # taken literally: a LIKE wildcard is a character, not "anything"
    assert q.list_pages(capped_archive, search="%")["total"] == 0


def test_a_redirect_shows_its_chain(viewer: Served, capped_archive: Path) -> None:
    home = q.get_summary(capped_archive)["baseUrl"]
    _, body, _ = get(viewer, "/page?" + urlencode({"url": home + "redirect/start"}))
    chain = re.search(r'<ol class="chain">(.*?)</ol>', body, re.S)
    assert chain is not None
    hops = re.findall(r'<span class="status">([^<]*)</span> <a href="[^"]*">([^<]*)</a>',
                      chain.group(1))
    assert hops == [("301", home + "redirect/start"), ("302", home + "redirect/middle"),
                    ("200", home + "redirect/end")]
    # the home page's link to it shows the 3xx, every hop, and where it ends
    _, body, _ = get(viewer, "/page?" + urlencode({"url": home}))
    lines = [" ".join(html.unescape(re.sub(r"<[^>]+>", "", li)).split())
             for li in re.findall(r"<li>(.*?)</li>", body, re.S)]
    assert (f"301 {home}redirect/start → 302 {home}redirect/middle → 200 {home}redirect/end"
            " /redirect/start") in lines


def sorted_by(body: str) -> list[tuple[str, str]]:
    """The headers of the first table that carry aria-sort, with its value."""
    head = body.split("<thead>", 1)[1].split("</thead>", 1)[0]
    return [(html.unescape(re.sub(r"<[^>]+>", "", text)).strip(), order) for order, text in
            re.findall(r'<th scope="col" aria-sort="(\w+)"[^>]*>(.*?)</th>', head, re.S)]


def test_lists_sort_by_their_columns(viewer: Served, capped_archive: Path) -> None:
    """Each list whose query sorts has header links that sort it in SQL; only the column
    it is sorted by carries aria-sort (the default order's column when none is asked)."""
    _, body, _ = get(viewer, "/pages")
    assert sorted_by(body) == [("URL", "ascending")]
    _, body, _ = get(viewer, "/pages?sortBy=status&sortOrder=desc&pageSize=200")
    assert sorted_by(body) == [("Status", "descending")]
    expected = q.list_pages(capped_archive, sort_by="status", sort_order="desc", limit=200,
                            security_headers=True)["items"]
    assert [(r["URL"], r["Status"]) for r in table(body)] == [
        (e["url"], str(e["status"])) for e in expected]
    cases = [
        ("/links?type=broken&sortBy=status&sortOrder=desc", "Status", "descending",
         q.list_links, {"type": "broken", "sort_by": "status", "sort_order": "desc"},
         ("Link target", "destUrl")),
        ("/links?type=broken&byDestination=true", "Referring pages", "descending",
         q.list_links, {"type": "broken", "by_destination": True}, ("Link target", "destUrl")),
        ("/dedupe-cap-events?sortBy=rejectedCount&sortOrder=desc", "Refused", "descending",
         q.list_dedupe_cap_events, {"sort_by": "rejectedCount", "sort_order": "desc"},
         ("URL shape", "shapeKey")),
        ("/dedupe-cap-events", "Detected", "descending", q.list_dedupe_cap_events, {},
         ("URL shape", "shapeKey")),
    ]
    for path, header, order, function, options, (column, key) in cases:
        _, body, _ = get(viewer, path)
        assert "<thead>" in body, path
        assert sorted_by(body) == [(header, order)], path
        expected = function(capped_archive, **options)["items"]
        assert expected, path
        assert [r[column].split("\n")[0] for r in table(body)] == [
            str(e[key]) for e in expected], path
    # the list's own default order is unchanged when no sort is asked
    assert q.list_links(capped_archive, type="broken") == q.list_links(
        capped_archive, type="broken", sort_by="sourceUrl")
    _, body, _ = get(viewer, "/duplicate-clusters?minCount=3&sortBy=count&sortOrder=asc")
    assert sorted_by(body) == [("Pages", "ascending")]
    counts = [int(r["Pages"].split(" ")[0].replace(",", "")) for r in table(body)]
    assert counts == sorted(counts) and len(counts) == q.get_duplicate_clusters(
        capped_archive, min_count=3)["total"] > 2
    status, body, _ = get(viewer, "/links?type=orphaned&sortBy=destUrl")
    assert status == 400 and error_text(body) == (
        "sort_by 'destUrl' is not a key of orphaned items; choose url, title, status")


def test_headers_images_and_duplicates_sort(viewer: Served, capped_archive: Path) -> None:
    _, body, _ = get(viewer, "/headers")
    assert sorted_by(body) == [("URL", "ascending")]
    _, body, _ = get(viewer, "/headers?sortBy=hasCSP&pageSize=200")
    assert sorted_by(body) == [("CSP", "ascending")]
    expected = q.check_headers(capped_archive, sort_by="hasCSP", limit=200)["items"]
    assert [r["URL"] for r in table(body)] == [e["url"] for e in expected]
    assert q.check_headers(capped_archive, sort_by="url") == q.check_headers(capped_archive)
    _, body, _ = get(viewer, "/duplicates?sortBy=value")
    assert sorted_by(body) == [("Value", "ascending")]
    values = [r["Value"] for r in table(body)]
    assert values == [e["value"] for e in q.find_duplicates(capped_archive,
                                                           sort_by="value")["items"]]
    assert values == sorted(values) and len(values) > 1
    _, body, _ = get(viewer, "/images")
    assert sorted_by(body) in ([("Page", "ascending")], [])  # no table without images


def test_templates_sort_by_size(viewer: Served, capped_archive: Path) -> None:
    _, body, _ = get(viewer, "/template-clusters")
    assert sorted_by(body) == [("Pages", "descending")]
    _, body, _ = get(viewer, "/template-clusters?sortBy=count&sortOrder=asc&pageSize=500")
    assert sorted_by(body) == [("Pages", "ascending")]
    counts = [int(r["Pages"].split(" ")[0].replace(",", "")) for r in table(body)]
    expected = q.get_template_clusters(capped_archive, sort_by="count", sort_order="asc",
                                       limit=500)
    assert counts == [i["count"] for i in expected["items"]] == sorted(counts)
    assert len(counts) == expected["total"] > 2


def test_same_body_views_show_the_groups(viewer: Served, capped_archive: Path) -> None:
    """The two body-hash views, cell by cell against the queries: the contact form under
    two URLs and the forty shirt pages (one body, one title)."""
    _, body, _ = get(viewer, "/duplicate-bodies")
    rows = table(body)
    expected = q.find_duplicate_bodies(capped_archive)["items"]
    assert [r["Pages"] for r in rows] == [str(e["count"]) for e in expected]
    # a group cut by its pages limit says how many it leaves out
    assert [r["URLs"].split("\n") for r in rows] == [
        e["urls"] + ([f"…and {e['count'] - len(e['urls'])} more"]
                     if e["count"] > len(e["urls"]) else []) for e in expected]
    assert any(r["URLs"].endswith("…and 20 more") for r in rows)   # the forty shirts
    assert any(r["URLs"].endswith("/support/contact/") for r in rows)
    _, body, _ = get(viewer, "/duplicate-body-clusters?minCount=2")
    rows = table(body)
    shirts = next(r for r in rows if r["Title"] == "Classic shirt")
    assert shirts["Pages"] == "40" and shirts["og:url elsewhere"] == "0.0"
    assert shirts["Directories"].endswith("/products/ (40)")
    assert {r["Title"] for r in rows} == {e["title"] for e in q.find_duplicate_clusters(
        capped_archive, min_count=2)["items"]}


def test_orphan_views(viewer: Served, capped_archive: Path) -> None:
    """The sitemap's orphans as a person reads them: each page with how it was found, and
    the series of three as one group."""
    _, body, _ = get(viewer, "/isolated-pages")
    rows = table(body)
    assert [(r["URL"].rsplit("/", 2)[-2], r["Status"], r["Found by"]) for r in rows] == [
        ("blog", "200", "inventory-seed"), ("gone", "404", "inventory-seed"),
        ("lonely", "200", "inventory-seed")]
    _, body, _ = get(viewer, "/isolated-clusters")
    rows = table(body)
    assert len(rows) == 1 and rows[0]["Pages"] == "3"
    assert rows[0]["First page"].endswith("/orphans/series/1/")
    assert rows[0]["Title"] == "Old series 1"


def test_violations_of_a_crawl_never_analysed_say_so(viewer: Served) -> None:
    """An empty Violations view of an archive no plugin ran on reads as a clean site
    unless it says it was never analysed; the same archive analysed says nothing of it
    (tests/crawl/test_analyze.py: the view with findings)."""
    _, body, _ = get(viewer, "/violations")
    assert "<table" not in body
    assert re.search(r'<p class="note" role="note">this archive was never analysed: no '
                     r"findings is not a clean site \(nitpicker-crawl analyze ARCHIVE runs "
                     r"the plugins\)</p>", body), body[-2000:]
    _, body, _ = get(viewer, "/pages")
    assert 'class="note"' not in body
