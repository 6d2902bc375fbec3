"""The Pages view as an auditor reads it: the URL first and whole (in its title, and a
copy button), flags as marks a screen reader says as yes or no, column sets kept in the
URL, headings that never break inside a word, and on a phone one card per row."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import nitpicker_query as q
from tests.viewer.conftest import Served
from tests.viewer.tables import table, tables
from tests.viewer.test_api import get
from tests.viewer.test_lists import error_text, mark

OVERVIEW = ["URL", "Status", "Title", "Internal / external", "Content type", "noindex",
            "Skipped because"]
BROKEN_WORDS = """() => {
  // every word of every column heading (split at spaces and hyphens) on one line
  const broken = [];
  for (const th of document.querySelectorAll("main thead th")) {
    const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      for (const m of n.data.matchAll(/[^\\s-]+/g)) {
        const range = document.createRange();
        range.setStart(n, m.index);
        range.setEnd(n, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].filter(r => r.width > 0)
                             .map(r => Math.round(r.top)));
        if (tops.size > 1) broken.push(m[0]);
      }
    }
  }
  return broken;
}"""


def test_pages_columns_marks_and_sets(viewer: Served, capped_archive: Path) -> None:
    _, body, _ = get(viewer, "/pages?skipped=include&pageSize=200")
    rows = table(body)
    assert list(rows[0]) == OVERVIEW
    expected = q.list_pages(capped_archive, skipped="include", limit=200)["items"]
    assert [r["URL"] for r in rows] == [e["url"] for e in expected]
    assert [r["Internal / external"] for r in rows] == [
        "external" if e["isExternal"] else "internal" for e in expected]
    _, body_ext, _ = get(viewer, "/pages?isExternal=true&skipped=include")
    assert {r["Internal / external"] for r in table(body_ext)} == {"external"}
    assert [r["noindex"] for r in rows] == [mark(e["noindex"]) for e in expected]
    # the whole URL in the link's title and the copy button's text
    links = re.findall(r'<a class="u" href="[^"]+" title="([^"]+)">([^<]+)</a><button '
                       r'type="button" class="copy icon" data-copy="([^"]+)" '
                       r'aria-label="Copy URL"', body)
    assert [tuple(html.unescape(x) for x in link) for link in links] == [
        (e["url"],) * 3 for e in expected]
    # a column set, kept in the URL: in the form, and in the sort links
    _, body, _ = get(viewer, "/pages?columns=security&skipped=only&pageSize=200")
    assert tables(body)[0][0] == ["URL", "Status", "CSP", "X-Frame-Options",
                                  "X-Content-Type-Options", "HSTS"]
    assert '<option value="security" selected>Security headers</option>' in body
    assert all("columns=security" in href for href in re.findall(
        r'<a class="sort" href="([^"]+)"', body))
    # URLs never fetched have no headers: "not fetched", not "no" (null in the query)
    skipped = q.list_pages(capped_archive, skipped="only", security_headers=True,
                           limit=200)["items"]
    assert skipped and all(i["hasCSP"] is None for i in skipped)
    assert {r["CSP"] for r in table(body)} == {"not fetched"}
    _, body, _ = get(viewer, "/pages?columns=metadata")
    assert tables(body)[0][0][:3] == ["URL", "Title", "Description"]
    status, body, _ = get(viewer, "/pages?columns=bogus")
    assert status == 400 and error_text(body) == (
        "Columns (columns) must be one of overview, security, redirects, metadata, "
        "link-score, all, not 'bogus'")
    status, body, _ = get(viewer, "/links?columns=all")
    assert status == 400 and error_text(body) == (
        "The Links view has one set of columns: leave columns out, not 'all'")


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    made: list[Any] = []

    def new(width: int, **options: Any) -> Any:
        made.append(browser.new_context(viewport={"width": width, "height": 844}, **options))
        return made[-1]

    yield new
    for c in made:
        c.close()


def test_pages_at_1280_url_first_widest_and_copied(context: Any, viewer: Served) -> None:
    tab = context(1280).new_page()
    tab.context.grant_permissions(["clipboard-read", "clipboard-write"])
    tab.goto(viewer.url + "/pages?columns=all&pageSize=100")
    widths = tab.evaluate("[...document.querySelectorAll('main thead th')].map("
                          "th => [th.innerText, th.getBoundingClientRect().width])")
    assert widths[0][0].startswith("URL")
    assert widths[0][1] == max(w for _, w in widths)
    assert tab.evaluate(BROKEN_WORDS) == []
    for path in ("/headers", "/links?type=broken", "/dedupe-cap-events", "/resources"):
        tab.goto(viewer.url + path)
        assert tab.evaluate(BROKEN_WORDS) == [], path
    tab.goto(viewer.url + "/pages")
    first = tab.locator("main tbody td.url").first
    url = first.locator("a.u").get_attribute("title")
    assert url and first.locator("a.u").inner_text() == url
    first.locator("button.copy").click()
    tab.wait_for_function("document.querySelector('main tbody button.copy.done')")
    assert tab.evaluate("navigator.clipboard.readText()") == url
    # no clipboard (an older browser, a refused permission): the URL is selected instead
    other = context(1280)
    other.add_init_script("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
    tab = other.new_page()
    tab.goto(viewer.url + "/pages")
    button = tab.locator("main tbody td.url button.copy").first
    button.click()
    assert tab.evaluate("String(window.getSelection())") == url
    assert "press Ctrl+C" in (button.get_attribute("aria-label") or "")


def test_pages_on_a_phone_are_cards(context: Any, viewer: Served) -> None:
    """At 390 px each row is a card: the URL whole on its first line, then "label: value"
    lines; 100 rows measured 12,101 px tall (84,964 px as a 10-column table, where the
    URL column was 22 px wide)."""
    tab = context(390).new_page()
    tab.goto(viewer.url + "/pages?skipped=include&pageSize=100")
    assert tab.locator("main tbody tr").count() == 100
    assert tab.evaluate("document.documentElement.scrollWidth") <= 390
    height = tab.evaluate("document.documentElement.scrollHeight")
    assert height < 16_000, height
    cards = tab.evaluate("""[...document.querySelectorAll('main tbody tr')].map(tr => {
        const a = tr.querySelector('td.url a.u');
        return {url: a.title, text: a.innerText, cut: a.scrollWidth > a.clientWidth + 1,
                width: tr.getBoundingClientRect().width,
                labels: [...tr.querySelectorAll('td')].filter(td => td.innerText).map(
                    td => getComputedStyle(td, '::before').content)};
    })""")
    for card in cards:
        assert card["text"] == card["url"] and not card["cut"], card
        assert card["width"] <= 390
        assert card["labels"][0] == "none"  # the URL needs no label
        assert '"Status: "' in card["labels"] or '"Skipped because: "' in card["labels"], card


def test_every_column_set_and_option_set_has_words() -> None:
    """A column set named in the selector reads as words, never as its key (the
    redirects set once showed "column-set-redirects")."""
    from nitpicker_viewer.app import COLUMN_SETS, OPTION_SETS
    from nitpicker_viewer.text import t
    for view, sets in COLUMN_SETS.items():
        for name in sets:
            assert t("column-set-" + name) != "column-set-" + name, (view, name)
    for view, pairs in OPTION_SETS.items():
        assert all(name in COLUMN_SETS[view] for _, name in pairs)
