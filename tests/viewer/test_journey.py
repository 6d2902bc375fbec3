"""The "Must show" journey, in a real Chromium at 1280 px and at 390 px (a phone): Summary
→ Pages search → sort → Download CSV (equal, parsed, to the query's whole result) → a
redirect's page detail with its chain → Headers with their values → Duplicate clusters
→ Cap events → a refused URL → the event that refused it. axe-core finds no serious or
critical violation on any view visited, at either width."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any

import pytest

import nitpicker_query as q
from tests.viewer.conftest import Served
from tests.viewer.test_lists import every, mark


def nav(tab: Any, name: str) -> None:
    tab.get_by_role("navigation", name="Views").get_by_role("link", name=name,
                                                             exact=True).click()
    tab.wait_for_load_state()


@pytest.mark.parametrize("width", [1280, 390])
def test_must_show_journey(browser: Any, viewer: Served, capped_archive: Path,
                           width: int) -> None:
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    context = browser.new_context(viewport={"width": width, "height": 844},
                                  accept_downloads=True)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    tab.on("pageerror", lambda e: errors.append(str(e)))
    visited: list[str] = []

    def accessible() -> None:
        """axe on the view shown; the page fits the screen's width."""
        results = axe.run(tab)
        serious = [(v["id"], v["impact"]) for v in results.response["violations"]
                   if v["impact"] in ("serious", "critical")]
        assert serious == [], (tab.url, serious)
        assert tab.evaluate("document.documentElement.scrollWidth") <= width, tab.url
        visited.append(tab.url)

    # Summary
    tab.goto(viewer.url + "/summary")
    assert tab.locator("h1").inner_text() == "Summary"
    accessible()
    # Pages: search
    nav(tab, "Pages")
    tab.fill("input[name=search]", "page")
    tab.select_option("select[name=pageSize]", "20")
    tab.click("form.filters button[type=submit]")
    tab.wait_for_url(re.compile(r"search=page"))
    assert "statusMin=" not in tab.url  # the filters left empty stay out of the link
    accessible()
    expected = q.list_pages(capped_archive, search="page", security_headers=True)
    assert expected["total"] > 20
    assert tab.locator("main tbody tr").count() == 20
    # sort by status, biggest first: the header on a screen, the form's selects on a phone
    if width > 600:
        tab.locator("main thead th a.sort", has_text="Status").click()  # ascending
        tab.wait_for_url(re.compile(r"sortBy=status"))
        tab.locator("main thead th a.sort", has_text="Status").click()  # descending
        tab.wait_for_url(re.compile(r"sortOrder=desc"))
    else:
        tab.select_option("select[name=sortBy]", "status")
        tab.select_option("select[name=sortOrder]", "desc")
        tab.click("form.filters button[type=submit]")
        tab.wait_for_url(re.compile(r"sortOrder=desc"))
    accessible()
    assert tab.locator("main thead th[aria-sort]").count() == 1
    assert tab.locator("main thead th[aria-sort=descending]").inner_text().startswith("Status")
    sorted_items = every(q.list_pages, capped_archive, search="page", sort_by="status",
                         sort_order="desc", security_headers=True)
    shown = tab.locator("main tbody td.url a.u").all_inner_texts()
    assert shown == [i["url"] for i in sorted_items[:20]]
    # Download CSV: the whole sorted, filtered result, not the 20 rows shown
    with tab.expect_download() as download:
        tab.locator("a.download").click()
    data = Path(download.value.path()).read_text(encoding="utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(data, newline="")))
    assert [(r["url"], r["status"], r["title"]) for r in rows] == [
        (i["url"], str(i["status"]), i["title"]) for i in sorted_items]
    assert len(rows) == expected["total"]
    # a redirect: its final page, then the URL that redirects there, with its chain
    home = q.get_summary(capped_archive)["baseUrl"]
    tab.fill("input[name=search]", "redirect/end")
    tab.click("form.filters button[type=submit]")
    tab.wait_for_url(re.compile(r"search=redirect"))
    tab.locator("main tbody td.url a.u", has_text="redirect/end").click()
    tab.wait_for_url(re.compile(r"/page\?"))
    accessible()
    tab.locator("ul.links a", has_text=home + "redirect/start").first.click()
    tab.wait_for_url(re.compile(r"redirect%2Fstart$"))
    accessible()
    chain = tab.locator("ol.chain li").all_inner_texts()
    assert chain == [f"301 {home}redirect/start", f"302 {home}redirect/middle",
                     f"200 {home}redirect/end"]
    # Headers, with their values
    nav(tab, "Headers")
    accessible()
    flags = q.check_headers(capped_archive)["items"]
    cells = tab.locator("main tbody tr").first.locator("td").all_inner_texts()
    keys = ("hasCSP", "hasXFrameOptions", "hasXContentTypeOptions", "hasHSTS")
    assert [c.replace("\n", "") for c in cells] == [flags[0]["url"], *(
        mark(flags[0][k], k, flags[0]["url"]) for k in keys)]
    # Duplicate clusters
    nav(tab, "Duplicate clusters")
    accessible()
    clusters = q.get_duplicate_clusters(capped_archive)
    assert tab.locator("table.clusters tbody tr").count() == clusters["total"] > 0
    # Cap events → the URLs one refused → one of them → the event that refused it
    nav(tab, "Cap events")
    accessible()
    events = q.list_dedupe_cap_events(capped_archive)["items"]
    assert tab.locator("main tbody tr").count() == len(events)
    event = max(events, key=lambda e: e["rejectedCount"] or 0)
    tab.locator(f"#event-{event['id']} a.refused").click()
    tab.wait_for_url(re.compile(rf"capEvent={event['id']}"))
    accessible()
    refused = tab.locator("main tbody td.url a.u").first
    url = refused.inner_text()
    refused.click()
    tab.wait_for_url(re.compile(r"/page\?"))
    accessible()
    assert tab.locator("p.url").inner_text().startswith(url)
    tab.locator("p.refused-by a.cap-event").click()
    tab.wait_for_url(re.compile(rf"event={event['id']}$"))
    accessible()
    assert tab.locator("main tbody tr").count() == 1
    assert tab.locator(f"main tbody tr#event-{event['id']}").count() == 1
    assert len(visited) == 11 and not errors, errors
    context.close()
