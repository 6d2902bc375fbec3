"""Custom extraction over stored HTML: ``search-html``, ``match-selector`` and
``match-xpath`` on a real
crawl of a local site whose pages say what each search must find — both directions of
each rule (found / not found, present / absent), the bounds a stranger's page cannot
pass, and what a user reads (cells, CSV bytes, one-line errors)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from nitpicker_query import match_selector, match_xpath, open_archive, search_html
from tests.query.served import crawled_once

PAGES: dict[str, str] = {
    "/": '<h1>Shop</h1><a href="/p/1">one</a> <a href="/p/2">two</a> <a href="/about">about'
         '</a> <a href="/noisy">noisy</a><script>gtag("config", "G-ABC1234");</script>',
    "/p/1": '<meta name="author" content="Ana Lima"><h1>Kettle</h1>'
            '<span class="price">47.99 EUR</span><p>Boils   water\n fast.</p>',
    "/p/2": '<meta name="author" content="Bo Chen"><h1>Teapot</h1>'
            '<span class="price">12.50 EUR</span><span class="price">10.00 EUR</span>',
    "/about": "<p>No heading here, and no price. Lorem Ipsum dolor.</p>",
    "/noisy": "<h1>Noise</h1>" + "needle " * 1500,
}


def _answer(path: str) -> tuple[int, dict[str, str], bytes]:
    body = PAGES.get(path)
    if body is None:
        return 404, {}, b""
    return 200, {"Content-Type": "text/html; charset=utf-8"}, (
        f"<!doctype html><html><head><title>{path}</title></head>"
        f"<body>{body}</body></html>").encode()


@pytest.fixture(scope="module")
def crawled(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    with crawled_once(tmp_path_factory.mktemp("extraction"), _answer) as crawl:
        yield crawl


def _paths(result: dict[str, Any], base: str) -> list[str]:
    return [i["url"].removeprefix(base) for i in result["items"]]


def test_a_literal_is_found_as_written_and_a_regex_with_its_flags(
        crawled: tuple[Path, str]) -> None:
    archive, base = crawled
    found = search_html(archive, pattern='gtag("config"', context=10)
    assert _paths(found, base) == ["/"]
    item = found["items"][0]
    assert item["matches"] == 1 and item["matchesCapped"] is False
    assert item["snippets"] == ['…a><script>gtag("config", "G-ABC12…']
    assert found["complete"] is True and found["scannedPages"] == found["totalPages"] == 5
    # the other direction: a literal is case-sensitive, a regex folds case when told
    assert search_html(archive, pattern="lorem ipsum")["total"] == 0
    folded = search_html(archive, pattern="/lorem ipsum/i")
    assert _paths(folded, base) == ["/about"]
    ids = search_html(archive, pattern=r"/G-[A-Z0-9]{6,}/")
    assert _paths(ids, base) == ["/"] and "G-ABC1234" in ids["items"][0]["snippets"][0]
    # pages in URL order, narrowed by a URL pattern
    assert _paths(search_html(archive, pattern="EUR"), base) == ["/p/1", "/p/2"]
    assert _paths(search_html(archive, pattern="EUR", url_pattern="%/p/2"), base) == ["/p/2"]


def test_a_page_counts_at_most_a_thousand_matches(crawled: tuple[Path, str]) -> None:
    archive, base = crawled
    item = search_html(archive, pattern="needle")["items"][0]
    assert item["url"] == base + "/noisy"
    assert item["matches"] == 1000 and item["matchesCapped"] is True
    assert len(item["snippets"]) == 3


def test_a_selector_gives_each_pages_values_and_the_pages_it_misses(
        crawled: tuple[Path, str]) -> None:
    archive, base = crawled
    prices = match_selector(archive, selector=".price")
    assert [(p, i["matches"], i["values"]) for p, i in zip(
        _paths(prices, base), prices["items"], strict=True)] == [
        ("/p/1", 1, ["47.99 EUR"]), ("/p/2", 2, ["12.50 EUR", "10.00 EUR"])]
    authors = match_selector(archive, selector="meta[name=author]", attribute="content")
    assert [i["values"] for i in authors["items"]] == [["Ana Lima"], ["Bo Chen"]]
    # whitespace folded in text values
    assert match_selector(archive, selector="p", url_pattern="%/p/1")["items"][0][
        "values"] == ["Boils water fast."]
    # both directions: the pages with an <h1> and the one without
    with_h1 = _paths(match_selector(archive, selector="h1"), base)
    without = _paths(match_selector(archive, selector="h1", absent=True), base)
    assert with_h1 == ["/", "/noisy", "/p/1", "/p/2"] and without == ["/about"]


def test_an_xpath_gives_nodes_attribute_values_and_numbers(
        crawled: tuple[Path, str]) -> None:
    archive, base = crawled
    authors = match_xpath(archive, xpath="//meta[@name='author']/@content")
    assert [(p, i["values"]) for p, i in zip(_paths(authors, base), authors["items"],
                                              strict=True)] == [
        ("/p/1", ["Ana Lima"]), ("/p/2", ["Bo Chen"])]
    # an element by its text, whitespace folded; chosen by what CSS cannot say (its text)
    prices = match_xpath(archive, xpath="//span[contains(., '10.00')]")
    assert [(p, i["matches"], i["values"]) for p, i in zip(
        _paths(prices, base), prices["items"], strict=True)] == [("/p/2", 1, ["10.00 EUR"])]
    assert match_xpath(archive, xpath="//p", url_pattern="%/p/1")["items"][0][
        "values"] == ["Boils water fast."]
    # a number per page: pages where it is 0 are not listed, and are the absent ones
    counts = match_xpath(archive, xpath="count(//span[@class='price'])")
    assert [(p, i["values"]) for p, i in zip(_paths(counts, base), counts["items"],
                                              strict=True)] == [("/p/1", ["1"]), ("/p/2", ["2"])]
    none = match_xpath(archive, xpath="count(//span[@class='price'])", absent=True)
    assert _paths(none, base) == ["/", "/about", "/noisy"]
    # both directions of a node set: the pages with an <h1> and the one without
    assert _paths(match_xpath(archive, xpath="//h1"), base) == ["/", "/noisy", "/p/1",
                                                                "/p/2"]
    assert _paths(match_xpath(archive, xpath="//h1", absent=True), base) == ["/about"]
    # the same answers as the CSS selector where both can say it
    assert _paths(match_xpath(archive, xpath="//h1"), base) == _paths(
        match_selector(archive, selector="h1"), base)


def test_a_call_past_its_deadline_says_how_far_it_got(crawled: tuple[Path, str]) -> None:
    archive, _ = crawled
    hurried = open_archive(archive, query_timeout=1e-9)
    try:   # a question not asked before (a complete answer is kept and given again)
        found = search_html(hurried, pattern="Kettle")
    finally:
        hurried.close()
    assert found["complete"] is False and found["scannedPages"] < found["totalPages"] == 5
    assert found["note"].startswith("stopped after 1e-09 s (--query-timeout): ")


def test_the_command_line_writes_values_and_refuses_bad_input(
        crawled: tuple[Path, str]) -> None:
    archive, base = crawled
    query = str(Path(sys.executable).with_name("nitpicker-query"))

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([query, *args], capture_output=True, text=True, timeout=60)

    r = run("match-selector", str(archive), "--selector", ".price", "--format", "csv")
    assert r.returncode == 0, r.stderr
    # a list is a JSON array in its cell, as every list column of every CSV
    assert r.stdout.splitlines() == [
        "matches,url,values", f'1,{base}/p/1,"[""47.99 EUR""]"',
        f'2,{base}/p/2,"[""12.50 EUR"", ""10.00 EUR""]"']
    r = run("match-xpath", str(archive), "--xpath", "//span[@class='price']", "--format",
            "csv")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[1:] == [f'1,{base}/p/1,"[""47.99 EUR""]"',
                                         f'2,{base}/p/2,"[""12.50 EUR"", ""10.00 EUR""]"']
    for args, message in (
            (("search-html", "--pattern", "/([a-z/"),
             "pattern: not a valid regular expression: "),
            (("search-html", "--pattern", "/x/q"),
             "pattern: unknown flag 'q' after /…/ (i, m, s or x)"),
            (("match-selector", "--selector", "p[["),
             "selector: not a CSS selector lexbor reads: 'p[['"),
            (("match-xpath", "--xpath", "//p[["),
             "xpath: not an XPath 1.0 expression lxml reads: '//p[['"),
            (("match-xpath", "--xpath", "document('http://example.com/')"),
             "xpath: not an XPath 1.0 expression lxml reads")):
        bad = run(args[0], str(archive), *args[1:])
        assert bad.returncode == 2 and bad.stdout == "", bad.stderr
        lines = bad.stderr.strip().splitlines()
        assert len(lines) == 1 and message in lines[0], lines


def test_the_viewer_asks_first_then_lists_the_values(crawled: tuple[Path, str]) -> None:
    from tests.viewer.conftest import serve
    from tests.viewer.tables import table
    from tests.viewer.test_api import get

    archive, base = crawled
    for served in serve(archive, []):
        status, body, _ = get(served, "/match-selector")
        assert status == 200, body[:300]
        assert ('<p class="prompt">Fill in Selector and apply: every stored HTML page of '
                "the site is read.</p>") in body
        assert "<table" not in body
        status, body, _ = get(served, "/match-selector?selector=.price")
        assert status == 200, body[:300]
        assert [(r["URL"], r["Matches"], r["Values"]) for r in table(body)] == [
            (base + "/p/1", "1", "47.99 EUR"), (base + "/p/2", "2", "12.50 EUR\n10.00 EUR")]
        status, body, _ = get(served, "/search-html?pattern=%2Florem%2Fi")
        assert [r["URL"] for r in table(body)] == [base + "/about"]
        status, body, _ = get(served, "/search-html?pattern=%2F%28%2F")
        assert status == 400 and "pattern: not a valid regular expression" in body
