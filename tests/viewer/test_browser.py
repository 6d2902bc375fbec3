"""The viewer in a real Chromium: the Duplicate Clusters and cap-event journeys of the
soft-cap acceptance criteria, Back and shared links, no console error, accessibility
(axe-core) on every view, and hostile archive values rendered inert."""

from __future__ import annotations

import html
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

import nitpicker_query as q
from nitpicker_crawl.archive import ArchiveWriter
from tests.viewer.conftest import Served, serve

VIEWS = ("/summary", "/pages", "/pages?skipped=only", "/links", "/links?type=external&"
         "byDestination=true", "/links?type=orphaned", "/resources", "/images", "/duplicates",
         "/mismatches?type=og:title", "/headers", "/duplicate-clusters",
         "/duplicate-clusters?minCount=3&by=shape", "/dedupe-cap-events",
         "/template-clusters", "/template-clusters?minCount=20&pageSize=20")
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "img"


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    tab.errors = []  # console errors and uncaught exceptions, checked by the tests
    tab.on("console", lambda m: tab.errors.append(m.text) if m.type == "error" else None)
    tab.on("pageerror", lambda e: tab.errors.append(str(e)))
    tab.dialogs = []
    tab.on("dialog", lambda d: (tab.dialogs.append(d.message), d.dismiss()))
    yield tab
    context.close()


def test_duplicate_clusters_journey(page: Any, viewer: Served, capped_archive: Path) -> None:
    page.goto(viewer.url + "/duplicate-clusters")
    page.fill("input[name=minCount]", "5")
    page.click("form.filters button[type=submit]")
    page.wait_for_url(re.compile(r"minCount=5"))
    expected = q.get_duplicate_clusters(capped_archive, min_count=5)
    rows = page.locator("table.clusters tbody tr")
    assert rows.count() == expected["total"] >= 3
    capped = page.locator("table.clusters tbody tr", has_text="capped at").first
    signature_link = capped.locator("a.cluster")
    cluster_url = signature_link.get_attribute("href")
    assert cluster_url is not None
    signature = re.search(r"signature=([0-9a-f]{40})", cluster_url)
    assert signature is not None
    full = q.get_duplicate_cluster(capped_archive, signature=signature.group(1), limit=1000)
    assert full is not None
    # the representative page, to its detail and back
    representative = capped.locator("a.representative")
    url = representative.inner_text()
    representative.click()
    page.wait_for_url(re.compile(r"/page\?"))
    assert page.locator("p.url").inner_text().startswith(url)
    page.go_back()
    page.wait_for_url(re.compile(r"minCount=5"))
    assert page.locator("table.clusters tbody tr").count() == expected["total"]
    # every member page, paginated
    page.goto(viewer.url + cluster_url + "&pageSize=20")
    seen: list[str] = []
    while True:
        seen += page.locator("main table tbody tr td:first-child").all_inner_texts()
        following = page.locator("a[rel=next]")
        if following.count() == 0:
            break
        following.click()
        page.wait_for_load_state()
    assert len(seen) == full["total"] == len(set(seen))
    assert sorted(seen) == sorted(m["url"] for m in full["items"])
    # a copied URL restores the same view in a fresh tab
    shared = page.url
    other = page.context.new_page()
    other.goto(shared)
    assert other.locator("main table tbody").inner_text() == \
        page.locator("main table tbody").inner_text()
    assert not page.errors


def test_cap_event_to_its_refused_urls(page: Any, viewer: Served,
                                       capped_archive: Path) -> None:
    events = q.list_dedupe_cap_events(capped_archive)["items"]
    assert events
    page.goto(viewer.url + "/dedupe-cap-events")
    rows = page.locator("main table tbody tr")
    assert rows.count() == len(events)
    event = max(events, key=lambda e: e["rejectedCount"] or 0)
    row = page.locator("main table tbody tr", has_text=event["shapeKey"]).first
    row.locator("a.refused").click()
    page.wait_for_url(re.compile(r"capEvent="))
    refused = q.list_pages(capped_archive, cap_event=event["id"], limit=1000)
    assert refused["total"] == event["rejectedCount"] > 0
    shown = page.locator("main table tbody tr td:first-child").all_inner_texts()
    assert sorted(shown) == sorted(i["url"] for i in refused["items"][:100])
    assert all(i["skipReason"] == "dedupe-cap" for i in refused["items"])
    page.go_back()
    page.wait_for_url(re.compile(r"/dedupe-cap-events$"))
    row = page.locator("main table tbody tr", has_text=event["shapeKey"]).first
    row.locator("a.cluster").click()
    page.wait_for_url(re.compile(r"/duplicate-cluster\?"))
    assert page.locator("main table tbody tr").count() > 0
    assert not page.errors


def test_template_journey(page: Any, viewer: Served, capped_archive: Path) -> None:
    """Templates → a trap's template → every member page → its cap event's refused URLs."""
    expected = q.get_template_clusters(capped_archive, limit=1000)
    page.goto(viewer.url + "/template-clusters")
    rows = page.locator("table.templates tbody tr")
    assert rows.count() == min(expected["total"], 100)
    trap = next(i for i in expected["items"] if "/search?page=" in i["samplePages"][0])
    row = page.locator("table.templates tbody tr", has_text="/search").first
    assert row.locator("a.capped").count() == 1
    row.locator("a.template").click()
    page.wait_for_url(re.compile(r"/template-cluster\?"))
    assert page.locator("h1").inner_text() == f"Template /search: {trap['count']} pages"
    assert page.locator("p.key code").inner_text() == trap["key"]
    assert page.locator("p.key button.copy").get_attribute("data-copy") == trap["key"]
    shown = page.locator("main table tbody tr td:first-child").all_inner_texts()
    members = q.get_template_cluster(capped_archive, key=trap["key"], limit=1000)
    assert members is not None
    assert sorted(shown) == sorted(m["url"] for m in members["items"])
    page.locator("details.core summary").click()
    assert "main.search>ul.search-results" in page.locator("details.core").inner_text()
    page.locator("dl.meta a.capped").click()
    page.wait_for_url(re.compile(r"capEvent="))
    event = trap["metaSignatureClusters"][0]["capEventId"]
    refused = q.list_pages(capped_archive, cap_event=event, limit=1000)
    assert sorted(page.locator("main table tbody tr td:first-child").all_inner_texts()) == \
        sorted(i["url"] for i in refused["items"][:100])
    page.go_back()
    page.go_back()
    page.wait_for_url(re.compile(r"/template-clusters$"))
    assert not page.errors, page.errors


def test_templates_not_stored_are_computed_with_a_progress_line(
        page: Any, capped_archive: Path, tmp_path: Path) -> None:
    """An archive whose crawl stored no templates (--no-templates, or interrupted): the
    view answers at once with a progress line, which the page replaces with the
    clusters when they are computed."""
    from nitpicker_query.queries import templates
    from tests.crawl.conftest import without_stored_templates

    expected = q.get_template_clusters(capped_archive, limit=1000)
    without_stored_templates(capped_archive, tmp_path)
    templates.clear_cache()
    for served in serve(tmp_path, []):
        response = page.goto(served.url + "/template-clusters")
        assert response.status == 202
        line = page.locator("#progress[role=status]")
        assert line.count() == 1
        assert "did not store its template clusters" in page.locator("main").inner_text()
        page.wait_for_selector("table.templates", timeout=120_000)
        assert page.locator("table.templates tbody tr").count() == min(expected["total"], 100)
        assert page.locator("h1").inner_text() == "Templates"
        state = json.loads(page.evaluate("fetch('/api/progress').then(r => r.text())"))
        assert state == {"running": False, "done": 0, "total": 0, "message": None}
        # computed now: the next visit answers at once
        assert page.goto(served.url + "/template-clusters").status == 200
    assert not page.errors, page.errors


def test_every_view_loads_clean_and_accessible(page: Any, viewer: Served,
                                               capped_archive: Path) -> None:
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    home = q.get_summary(capped_archive)["baseUrl"]
    template = q.get_template_clusters(capped_archive)["items"][0]["key"]
    details = ("/page?url=" + home, "/page?url=" + home + "products/shirt-red/",
               "/page?url=" + home + "support/faq/",
               "/template-cluster?" + urlencode({"key": template}))
    for path in (*VIEWS, *details):
        response = page.goto(viewer.url + path)
        assert response is not None and response.status == 200, path
        results = axe.run(page)
        serious = [(v["id"], v["impact"], len(v["nodes"]))
                   for v in results.response["violations"]
                   if v["impact"] in ("serious", "critical")]
        assert serious == [], (path, serious)
    page.goto(viewer.url + "/summary")
    page.click("#theme")  # the theme toggle is remembered
    theme = page.evaluate("document.documentElement.dataset.theme")
    page.reload()
    assert page.evaluate("document.documentElement.dataset.theme") == theme
    results = axe.run(page)  # and the other theme is accessible too
    assert not [v for v in results.response["violations"]
                if v["impact"] in ("serious", "critical")]
    assert not page.errors, page.errors


HOSTILE = "<script>window.__xss=1;alert(1)</script>\"><img src=x onerror=alert(2)>"


def hostile_archive(directory: Path) -> Path:
    base = "http://localhost/"
    w = ArchiveWriter.create(directory / "evil.nitpicker", roots=[base])
    common = {"scraped": 1, "isTarget": 1, "isExternal": 0, "status": 200,
              "contentType": "text/html", "isSkipped": 0}
    pages = []
    for n in range(3):
        url = f"{base}p/{n}?q=\"><svg onload=alert(3)>"
        pid = w.save_page(url, common, title=HOSTILE, description=HOSTILE, og_title=HOSTILE,
                          og_url="javascript:alert(4)", canonical="javascript:alert(5)",
                          responseHeaders={"x-evil": HOSTILE, "content-security-policy":
                                           "</textarea><script>alert(6)</script>"})
        w.save_html(pid, "<html><body></textarea><script>alert(7)</script>"
                         f"<a href=\"javascript:alert(8)\">x</a>{HOSTILE}<div class='"
                         f"{html.escape(HOSTILE, quote=True)}' id='\"><svg onload=alert(11)>'>"
                         "</div></body></html>")
        pages.append(pid)
    for pid in pages:
        w.replace_anchors(pid, [("javascript:alert(9)", None, HOSTILE),
                                (f"{base}p/0?q=\"><svg onload=alert(3)>", None, HOSTILE)])
    w.add_dedupe_cap_event(shape_key=HOSTILE, sample_url="javascript:alert(10)",
                           effective_threshold=2, observed_count=3, signature="0" * 40,
                           parent_path=HOSTILE, title=HOSTILE, signals={"key": HOSTILE})
    return w.close()


def test_hostile_values_are_inert(page: Any, tmp_path: Path) -> None:
    archive = hostile_archive(tmp_path)
    url = "http://localhost/p/0?q=\"><svg onload=alert(3)>"
    for served in serve(archive, []):
        from urllib.parse import quote

        template = q.get_template_clusters(archive)["items"][0]["key"]
        # the hostile id reaches the template's core tokens (digits become #, a path's
        # separators such as ">" become _)
        assert "<svg onload=alert(#)_" in json.dumps(q.get_template_cluster(archive,
                                                                            key=template))
        for path in (*VIEWS, "/duplicate-clusters?minCount=2",
                     "/page?url=" + quote(url, safe=""), "/api/list_pages",
                     "/template-cluster?" + urlencode({"key": template})):
            page.goto(served.url + path)
            page.wait_for_load_state()
            assert page.evaluate("window.__xss") is None, path
            assert page.locator("a[href^='javascript:' i]").count() == 0, path
            assert page.locator("main script, main img[onerror], main svg").count() == 0
        assert page.dialogs == []
        # the stored HTML is shown as text, whole
        page.goto(served.url + "/page?url=" + quote(url, safe=""))
        assert "</textarea><script>alert(7)</script>" in page.locator("pre.source").inner_text()


def test_screenshots(page: Any, viewer: Served, capped_archive: Path, tmp_path: Path) -> None:
    """The pictures of docs/viewer.md, taken here at 1280 px and, for the views a phone
    shows as cards, at 390 px: written to docs/img when NITPICKER_SCREENSHOTS=1, else to
    a temporary directory."""
    target = SHOTS if os.environ.get("NITPICKER_SCREENSHOTS") == "1" else tmp_path
    target.mkdir(parents=True, exist_ok=True)
    cluster = q.get_duplicate_clusters(capped_archive, min_count=5)["items"][0]
    home = q.get_summary(capped_archive)["baseUrl"]
    shots = {"summary": "/summary", "pages": "/pages?pageSize=20",
             "duplicate-clusters": "/duplicate-clusters?minCount=5",
             "templates": "/template-clusters",
             "cluster": f"/duplicate-cluster?signature={cluster['signature']}",
             "cap-events": "/dedupe-cap-events",
             "page-detail": "/page?" + urlencode({"url": home + "redirect/start"})}
    phone = {"pages-phone": "/pages?pageSize=20", "summary-phone": "/summary",
             "cap-events-phone": "/dedupe-cap-events"}
    for width, pictures in ((1280, shots), (390, phone)):
        page.set_viewport_size({"width": width, "height": 900 if width > 600 else 844})
        for name, path in pictures.items():
            page.goto(viewer.url + path)
            page.screenshot(path=str(target / f"viewer-{name}.png"))
            assert (target / f"viewer-{name}.png").stat().st_size > 10_000
