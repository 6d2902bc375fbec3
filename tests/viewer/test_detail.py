"""A page's detail as a person reads it: headings in words, times in local time, the cap
event that refused a URL one click away, "not fetched" where nothing was fetched; and in
the Links view a redirect's chain hop by hop."""

from __future__ import annotations

import html
import re
from pathlib import Path
from urllib.parse import urlencode

import nitpicker_query as q
from nitpicker_crawl.archive import ArchiveWriter
from nitpicker_query.terminal import local_time
from tests.viewer.conftest import Served, serve
from tests.viewer.tables import table, tables
from tests.viewer.test_api import get


def text(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", fragment)).split())


def definitions(body: str) -> dict[str, str]:
    """The first ``<dl class="meta">`` as ``{term: text}``."""
    found = re.search(r'<dl class="meta">(.*?)</dl>', body, re.S)
    assert found is not None
    return {text(dt): text(dd) for dt, dd in re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>",
                                                        found.group(1), re.S)}


def test_detail_headings_times_and_refusing_event(viewer: Served, capped_archive: Path) -> None:
    home = q.get_summary(capped_archive)["baseUrl"]
    detail = q.get_page_detail(capped_archive, url=home)
    assert detail is not None
    _, body, _ = get(viewer, "/page?" + urlencode({"url": home}))
    headings = [text(h) for h in re.findall(r"<h2>(.*?)</h2>", body, re.S)]
    assert f"Outbound links ({detail['outboundLinksTotal']:,})" in headings
    assert f"Inbound links ({detail['inboundLinksTotal']:,})" in headings
    assert f"Redirected here from ({detail['redirectFromTotal']:,})" in headings
    assert not [h for h in headings if re.search(r"[a-z][A-Z]", h)]  # no camelCase left
    terms = definitions(body)
    first, last = local_time(detail["firstCrawledAt"]), local_time(detail["lastCrawledAt"])
    assert terms["First crawled"] == f"{first[:10]} {first[11:19]}"  # local, to the second
    assert terms["Last crawled"] == f"{last[:10]} {last[11:19]}"
    assert f'<time datetime="{first}" title="{first}">' in body
    assert terms["Status"] == "200" and terms["Internal / external"] == "internal"
    assert terms["noindex"] == "—no"  # a flag: a mark, read as yes or no
    assert "firstCrawledAt" not in terms and str(detail["firstCrawledAt"]) not in body
    # a URL the soft cap refused: its event, one click away, and no headers to judge
    refused = q.list_pages(capped_archive, skip_reason="dedupe-cap", limit=1)["items"][0]
    detail = q.get_page_detail(capped_archive, url=refused["url"])
    assert detail is not None and detail["dedupeCapEventId"] is not None
    _, body, _ = get(viewer, "/page?" + urlencode({"url": refused["url"]}))
    link = re.search(r'<p class="refused-by">Refused by the soft cap: <a class="cap-event" '
                     r'href="([^"]+)">cap event (\d+)</a> <code>([^<]+)</code>', body)
    assert link is not None
    assert int(link.group(2)) == detail["dedupeCapEventId"]
    assert html.unescape(link.group(3)) == detail["dedupeCapShapeKey"]
    assert "None stored for this URL (not fetched, or a redirect)." in body
    _, events, _ = get(viewer, html.unescape(link.group(1)))
    rows = table(events)
    assert [r["URL shape"] for r in rows] == [detail["dedupeCapShapeKey"]]
    event = q.list_dedupe_cap_events(capped_archive, event=detail["dedupeCapEventId"])
    assert event["total"] == 1
    n = event["items"][0]["rejectedCount"]
    assert rows[0]["Refused"] == f"{n:,} refused URL{'' if n == 1 else 's'}"


def test_duplicate_clusters_link_their_own_event(viewer: Served, capped_archive: Path) -> None:
    clusters = q.get_duplicate_clusters(capped_archive, min_count=5)["items"]
    capped = [c for c in clusters if c["capEvent"]]
    assert capped
    _, body, _ = get(viewer, "/duplicate-clusters?minCount=5")
    hrefs = re.findall(r'<a class="cap-event" href="([^"]+)">capped at', body)
    assert [html.unescape(h) for h in hrefs] == [
        f"/dedupe-cap-events?event={c['capEvent']['id']}" for c in capped]


def test_links_show_a_redirects_chain(tmp_path: Path) -> None:
    base = "http://r.test/"
    w = ArchiveWriter.create(tmp_path / "r.nitpicker", roots=[base])
    page = {"scraped": 1, "isTarget": 1, "isExternal": 0, "contentType": "text/html",
            "isSkipped": 0}
    home = w.save_page(base, page, status=200, title="Home")
    gone = w.save_page(base + "gone", page, status=404, title="Gone")
    w.replace_anchors(home, [(base + "old", None, "old link"), (base + "gone", None, "direct")])
    w.record_redirect([(base + "old", 301), (base + "older", 302)], gone)
    archive = w.close()
    for served in serve(archive, []):
        expected = q.list_links(archive, type="broken")["items"]
        assert [i.get("redirectChain") is not None for i in expected] == [True, False]
        _, body, _ = get(served, "/links?type=broken")
        rows = table(body)
        assert [r["Link target"] for r in rows] == [base + "gone"] * 2
        chain = " → ".join(f"{h['status']} {h['url']}" for h in expected[0]["redirectChain"])
        assert chain.startswith(f"301 {base}old → ") and chain.endswith(f"404 {base}gone")
        assert [" ".join(r["Redirects"].split()) for r in rows] == [chain, ""]


def test_detail_shows_the_main_content(viewer: Served, capped_archive: Path) -> None:
    """/support/faq/ holds one of each element the inventory lists: its detail shows the
    region, the lengths and a table per kind, in words; a PDF's detail has no section."""
    faq = q.get_summary(capped_archive)["baseUrl"] + "support/faq/"
    main = q.get_page_main_contents(capped_archive, url=faq)
    assert main is not None
    _, body, _ = get(viewer, "/page?" + urlencode({"url": faq}))
    section = re.search(r"<h2>Main content</h2>(.*?)(?:<h2>|$)", body, re.S)
    assert section is not None
    terms = definitions(section.group(0))
    assert terms == {"Region": "main", "Characters (no whitespace)": (
        f"{main['wordCount']:,} in the region, {main['bodyWordCount']:,} in the whole body")}
    assert [text(h) for h in re.findall(r"<h3>(.*?)</h3>", section.group(1), re.S)] == [
        "Headings (2)", "Images (2)", "Tables (1)", "Buttons (2)", "Iframes (1)",
        "Videos (1)", "Canvases (1)", "Custom elements (1)"]
    grids = tables(section.group(1))
    assert grids[0] == [["Text", "Level"], ["Orders", "2"], ["Returns", "3"]]
    assert grids[1] == [["Source URL", "Alt text"], [faq.replace("support/faq/", "static/faq.png"),
                        "How to order"], [faq.replace("support/faq/", "static/arrow.png"), ""]]
    assert grids[3][0] == ["Element", "Role", "Type", "Text", "Disabled"]
    assert grids[3][2][-1] == "✓yes"   # the disabled one
    assert grids[-1] == [["Element", "Id", "Classes"], ["FAQ-RATING", "rating", "stars\nbig"]]
    pdf = faq.replace("support/faq/", "files/report.pdf")
    _, body, _ = get(viewer, "/page?" + urlencode({"url": pdf}))
    assert "<h2>Main content</h2>" not in body


def test_unused_files_of_a_no_render_crawl_say_why(viewer: Served,
                                                   capped_archive: Path) -> None:
    status, body, _ = get(viewer, "/unused-resources")
    assert status == 404
    assert "records no resource any page loaded (a --no-render crawl" in html.unescape(body)


def test_detail_lists_each_technology_signal(viewer: Served, capped_archive: Path) -> None:
    blog = q.get_summary(capped_archive)["baseUrl"] + "blog/page/1/"
    tags = q.get_page_tags(capped_archive, url=blog)
    assert tags is not None
    _, body, _ = get(viewer, "/page?" + urlencode({"url": blog}))
    grid = next(t for t in tables(body) if t[0][:1] == ["Provider"])
    assert grid[0] == ["Provider", "Version", "Id", "Category", "Confidence",
                       "Evidence (each signal's weight)"]
    rows = {r[0]: r for r in grid[1:]}
    jquery = next(t for t in tags["tags"] if t["provider"] == "jQuery")
    source = jquery["sources"][0]
    assert rows["jQuery"][4] == str(jquery["confidence"])
    assert rows["jQuery"][5] == f"{source['type']}: {source['src']} (weight {source['weight']})"
