"""Exact results on the fixture archives, computed by hand from ARCHIVE-FORMAT.md §8."""

from __future__ import annotations

from pathlib import Path

import pytest

import nitpicker_query as q

A, B = "http://localhost/a", "http://localhost/b"


def test_base_list_pages(base_archive: Path) -> None:
    result = q.list_pages(base_archive)
    assert result["total"] == 2
    assert [i["url"] for i in result["items"]] == [A, B]
    a = result["items"][0]
    assert (a["title"], a["status"], a["isExternal"], a["hasDescription"], a["noindex"]) == (
        "Page A", 200, False, False, False)
    assert (a["tagCount"], a["tagsProvidersCsv"], a["jsonldCount"]) == (1, "WordPress", 0)
    assert result["items"][1]["jsonldCount"] == 1
    assert result["nextOffset"] is None


def test_base_summary(base_archive: Path) -> None:
    s = q.get_summary(base_archive)
    assert (s["totalPages"], s["internalPages"], s["externalPages"]) == (2, 2, 0)
    assert (s["internalContents"], s["externalContents"]) == (2, 0)
    assert s["statusDistribution"] == [{"status": 200, "count": 2}]
    assert s["metadataFulfillment"] == {"title": 1, "description": 0, "keywords": 0,
                                        "ogTitle": 0, "ogDescription": 0, "ogImage": 0}
    assert s["contentTypeDistribution"] == [{"category": "html", "internal": 2, "external": 0}]
    assert s["baseUrl"] == "http://localhost" and s["roots"] == ["http://localhost"]


def test_base_page_detail_tags_and_jsonld(base_archive: Path) -> None:
    a = q.get_page_detail(base_archive, url=A)
    assert a is not None
    assert a["tags"] == {"count": 1, "providerIds": {"WordPress": ["wp"]}}
    b = q.get_page_detail(base_archive, url=B)
    assert b is not None
    assert b["jsonLd"] == {"count": 1, "types": ["Article"], "parseErrorCount": 0}
    # anchors a→b twice (inbound to b: one row per referring page, first anchor's text)
    assert b["inboundLinks"] == [{"url": A, "textContent": "link1"}]
    assert b["inboundLinksTotal"] == 1
    assert [(o["url"], o["textContent"]) for o in a["outboundLinks"]] == [
        (B, "link1"), (B, "link2")]


def test_base_page_html(base_archive: Path) -> None:
    assert q.get_page_html(base_archive, url=A) == {
        "url": A, "html": "<html><body>A</body></html>", "truncated": False, "totalLength": 27}
    cut = q.get_page_html(base_archive, url=A, max_length=5)
    assert cut is not None and (cut["html"], cut["truncated"]) == ("<html", True)
    assert q.get_page_html(base_archive, url=B) is None
    assert q.get_page_html(base_archive, url="http://localhost/nope") is None


def test_base_resources_and_referrers(base_archive: Path) -> None:
    r = q.list_resources(base_archive)
    assert r["total"] == 1 and "note" not in r   # loads recorded: nothing to explain
    assert r["items"][0]["referrerCount"] == 2
    assert (r["items"][0]["compress"], r["items"][0]["cdn"]) == (None, None)
    refs = q.get_resource_referrers(base_archive, resource_url="http://localhost/style.css")
    assert refs is not None
    assert [i["url"] for i in refs["items"]] == [A, B] and refs["total"] == 2
    assert refs["nextOffset"] is None
    first = q.get_resource_referrers(base_archive, resource_url="http://localhost/style.css",
                                     limit=1)
    assert first is not None
    assert [i["url"] for i in first["items"]] == [A] and first["nextOffset"] == 1
    assert q.get_resource_referrers(base_archive, resource_url="http://localhost/x.css") is None


def test_base_empty_answers(base_archive: Path) -> None:
    assert q.list_links(base_archive, type="broken")["total"] == 0
    assert q.list_links(base_archive, type="external")["total"] == 0
    assert q.find_duplicates(base_archive)["items"] == []
    assert q.find_mismatches(base_archive, type="canonical")["items"] == []
    assert q.list_images(base_archive)["total"] == 0
    headers = q.check_headers(base_archive)
    assert headers["total"] == 2
    assert all(not any(v for k, v in i.items() if k != "url") for i in headers["items"])


# --------------------------------------------------------------------------- §8.2


def test_extended_list_pages_order_and_redirect_source(extended_archive: Path) -> None:
    # skipped URLs are left out by default: the total is the summary's totalPages …
    result = q.list_pages(extended_archive)
    assert [i["url"] for i in result["items"]] == [
        A, B, "http://localhost/flaky", "http://localhost/missing", "https://example.org/"]
    assert result["total"] == q.get_summary(extended_archive)["totalPages"] == 5
    # … and listed, with their reason, on request
    result = q.list_pages(extended_archive, skipped="include")
    assert [i["url"] for i in result["items"]] == [
        A, B, "http://localhost/flaky", "http://localhost/list/date/1.5e+32/",
        "http://localhost/missing", "https://example.org/"]
    skipped = result["items"][3]
    assert (skipped["status"], skipped["skipReason"]) == (None, "dedupe-cap")
    assert all(i["skipReason"] is None for i in result["items"] if i is not skipped)
    only = q.list_pages(extended_archive, skipped="only")
    assert [i["url"] for i in only["items"]] == ["http://localhost/list/date/1.5e+32/"]


def test_extended_summary(extended_archive: Path) -> None:
    s = q.get_summary(extended_archive)
    assert (s["totalPages"], s["internalPages"], s["externalPages"]) == (5, 4, 1)
    assert s["statusDistribution"] == [
        {"status": 200, "count": 3}, {"status": 404, "count": 1}, {"status": 503, "count": 1}]
    # the shares count the two pages that answered 200 (indexable); every page, the 404
    # without a title and the 503 with one, on request
    assert (s["metadataPages"], s["metadataFulfillment"]["title"]) == (2, 1.0)
    every = q.get_summary(extended_archive, population="all")
    assert (every["metadataPages"], every["metadataPresent"]["title"],
            every["metadataFulfillment"]["title"]) == (4, 3, 0.75)
    assert s["contentTypeDistribution"] == [{"category": "html", "internal": 4, "external": 1}]


def test_extended_broken_links_any_error_or_upstreams_404(extended_archive: Path) -> None:
    missing = {"sourceUrl": A, "destUrl": "http://localhost/missing", "status": 404,
               "isExternal": False, "textContent": "dead"}
    flaky = {"sourceUrl": B, "destUrl": "http://localhost/flaky", "status": 503,
             "isExternal": False, "textContent": "flaky"}
    assert q.list_links(extended_archive, type="broken")["items"] == [missing, flaky]
    assert q.list_links(extended_archive, type="broken", broken_as="4xx")["items"] == [
        missing]
    assert q.list_links(extended_archive, type="broken", broken_as="404")["items"] == [
        missing]


def test_extended_external_links(extended_archive: Path) -> None:
    ext = q.list_links(extended_archive, type="external")
    assert ext["items"] == [{"sourceUrl": B, "destUrl": "https://example.org/", "status": 200,
                             "isExternal": True, "textContent": "ext"}]


def test_extended_redirect_resolution(extended_archive: Path) -> None:
    b = q.get_page_detail(extended_archive, url=B)
    assert b is not None
    assert b["redirectFrom"] == ["http://localhost/old-b"]
    # anchors 1, 2 (a→b) and 4 (a→old-b→b): one referring page
    assert b["inboundLinks"] == [{"url": A, "textContent": "link1"}]
    assert [(o["url"], o["status"]) for o in b["outboundLinks"]] == [
        (A, 200), ("http://localhost/flaky", 503), ("https://example.org/", 200),
        ("http://localhost/list/date/1.5e+32/", None)]
    assert b["outboundLinks"][2]["isExternal"] is True
    a = q.get_page_detail(extended_archive, url=A)
    assert a is not None
    assert {"url": "http://localhost/old-b", "textContent": "old link", "status": 301,
            "isExternal": False, "redirectsTo": B, "finalStatus": 200, "redirectChain": [
                {"url": "http://localhost/old-b", "status": 301},
                {"url": B, "status": 200}]} in a["outboundLinks"]
    old = q.get_page_detail(extended_archive, url="http://localhost/old-b")
    assert old is not None and old["redirectsTo"] == B
    # written without its hops (as upstream writes them): the source, then the end
    assert old["redirectChain"] == [{"url": "http://localhost/old-b", "status": 301},
                                    {"url": B, "status": 200}]


def test_extended_skipped_page_detail(extended_archive: Path) -> None:
    d = q.get_page_detail(extended_archive, url="http://localhost/list/date/1.5e+32/")
    assert d is not None
    assert (d["isSkipped"], d["skipReason"], d["isDedupeCapped"]) == (True, "dedupe-cap", True)
    assert d["dedupeCapShapeKey"] == "localhost/list/date/{n}/"
    a = q.get_page_detail(extended_archive, url=A)
    assert a is not None and a["isDedupeCapped"] is False and a["dedupeCapShapeKey"] is None


def test_broken_with_include_redirect_sources_uses_literal_target(
    extended_archive: Path,
) -> None:
    literal = q.list_links(extended_archive, type="broken", broken_as="404",
                           include_redirect_sources=True)
    assert [i["destUrl"] for i in literal["items"]] == ["http://localhost/missing"]


def test_orphaned_pages(extended_archive: Path) -> None:
    # every strict page of the fixture is linked: /a from /b, /b from /a (and via /old-b),
    # /missing from /a, /flaky from /b.
    assert q.list_links(extended_archive, type="orphaned")["total"] == 0


@pytest.mark.parametrize("value", ["%'; DROP TABLE pages; --", "100%", "it's \"quoted\"", "_"])
def test_url_pattern_with_quotes_and_percent_is_data(extended_archive: Path, value: str) -> None:
    # used as a LIKE pattern bound as a parameter: no URL matches these, nothing breaks
    assert q.list_pages(extended_archive, url_pattern=value)["total"] == 0
    assert q.list_pages(extended_archive, skipped="include")["total"] == 6  # nothing dropped


def test_url_pattern_matches_as_like(extended_archive: Path) -> None:
    assert q.list_pages(extended_archive, url_pattern="%/list/%")["total"] == 0  # skipped
    assert q.list_pages(extended_archive, url_pattern="%/list/%", skipped="include")[
        "total"] == 1
    assert q.list_pages(extended_archive, url_pattern="http://localhost/_")["total"] == 2


def test_directory_is_a_literal_path_prefix(extended_archive: Path) -> None:
    assert q.list_pages(extended_archive, directory="/list/date", skipped="only")["total"] == 1
    assert q.list_pages(extended_archive, directory="list/date", skipped="only")["total"] == 1
    assert q.list_pages(extended_archive, directory="http://localhost/list",
                        skipped="only")["total"] == 1
    assert q.list_pages(extended_archive, directory="/lis_")["total"] == 0
    # inside the path is not under it: /date/ is in /list/date/… but /list/date/ is not /date/
    assert q.list_pages(extended_archive, directory="/date", skipped="only")["total"] == 0
