"""The main-content inventory (issue 25): where each page's main content is, how long it
is, and what it holds — read by the crawler from every HTML page it stores, in both crawl
modes, queried by ``get_page_main_contents``. On real crawls of TrapZoo, whose
/support/faq/ holds one of each element the inventory lists, and on hand-written pages
for the region rules, both ways."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import nitpicker_query as q
from nitpicker_crawl.extract.main_contents import (
    KINDS,
    MAX_ITEMS,
    SelectorError,
    check_selector,
    read_html,
)
from nitpicker_crawl.trapzoo import TrapZoo
from nitpicker_query.exceptions import NotRecorded
from nitpicker_query.format.v013_schema import MAIN_CONTENT_COLUMNS
from tests.crawl.conftest import Crawl, run_crawl

QUERY = str(Path(sys.executable).with_name("nitpicker-query"))
PAGE = "https://s.test/docs/page.html"


def _region(html: str, **kw: str) -> tuple[str | None, str | None]:
    found = read_html(html, PAGE, **kw)
    return found.node_name, found.selector


def test_candidates_by_priority() -> None:
    # DokuWiki's template with a sidebar (Debian's lib/tpl/dokuwiki/main.php): the
    # sidebar's div.content comes first in the document, the page is in <main>
    dokuwiki = ('<body><nav id="dokuwiki__aside"><h3>Sidebar</h3><div class="content">'
                '<p>links</p></div></nav><main id="dokuwiki__content"><h1>Page</h1></main>'
                '</body>')
    assert _region(dokuwiki) == ("MAIN", "#dokuwiki__content")
    assert _region('<body><div class="main">x</div><div role="Main" id="r">y</div></body>'
                   ) == ("DIV", "#r")
    # without a semantic element the named ones by priority: the common Japanese layout,
    # #contents wrapping #main and a side column, is #main
    named = ('<body><div id="contents"><div id="main"><h1>Page</h1></div><div id="side">'
             '<h2>Menu</h2></div></div></body>')
    assert _region(named) == ("DIV", "#main")
    assert read_html(named, PAGE).counts["headings"] == 1
    # and the other way: a #contents alone is the region
    assert _region('<body><div id="contents"><h1>x</h1></div><div id="side"></div>'
                   '</body>') == ("DIV", "#contents")
    # a class among others counts; a word inside a class name does not
    assert _region('<body><div class="content-wrap">a</div><div class="page content">b'
                   '</div></body>') == ("DIV", "div:nth-of-type(2)")
    # the user's selector wins over every default candidate
    assert _region(dokuwiki, selector=".content") == ("DIV", "nav > div")
    # a user's selector that matches nothing falls back to the usual candidates
    assert _region(named, selector="#nothing") == ("DIV", "#main")
    # without an id the selector is the path from <body>, unique in the document
    twice = ('<body><div><p>x</p></div><div><section class="main">a</section>'
             '<section class="main">b</section></div></body>')
    assert _region(twice) == ("SECTION", "div:nth-of-type(2) > section:nth-of-type(1)")


def test_no_region_counts_nothing_but_the_body() -> None:
    found = read_html('<body><div class="wrapper"><h1>Title</h1><img src="a.png"></div>'
                      '</body>', PAGE)
    assert found.node_name is None and found.selector is None
    assert found.counts == dict.fromkeys(KINDS, 0) and found.word_count == 0
    assert found.body_word_count == len("Title")
    assert found.columns()["main_content_class_list"] is None


def test_lengths_leave_out_whitespace_scripts_and_styles() -> None:
    found = read_html('<body><main><h1>日本語の 見出し</h1><script>var secret = 1;</script>'
                      '<style>p{color:red}</style><p>two words</p></main><p>out</p></body>',
                      PAGE)
    assert found.word_count == len("日本語の見出し") + len("twowords")
    assert found.body_word_count == found.word_count + len("out")


def test_counts_are_exact_lists_are_bounded() -> None:
    many = "".join(f'<img src="/i/{n}.png" alt="{n}">' for n in range(MAX_ITEMS + 700))
    found = read_html(f"<body><main>{many}</main></body>", PAGE)
    assert found.counts["images"] == MAX_ITEMS + 700
    assert len(found.items["images"]) == MAX_ITEMS
    assert found.items["images"][-1] == {"order": MAX_ITEMS - 1,
                                         "src": f"https://s.test/i/{MAX_ITEMS - 1}.png",
                                         "alt": str(MAX_ITEMS - 1)}


def test_an_element_matching_two_kinds_of_selector_counts_once() -> None:
    # MediaWiki's table of contents toggle is <input type=checkbox role=button>
    found = read_html('<body><main><input type="checkbox" role="button">'
                      '<img role="button" src="a.png" alt="go"><button>ok</button>'
                      '<input type="checkbox"></main></body>', PAGE)
    assert found.counts["buttons"] == 3 and found.counts["images"] == 1
    assert [(b["nodeName"], b["type"]) for b in found.items["buttons"]] == \
        [("INPUT", "checkbox"), ("IMG", None), ("BUTTON", "submit")]


def test_columns_are_format_013s() -> None:
    assert list(read_html("<main></main>", PAGE).columns()) == \
        [name for name, _ in MAIN_CONTENT_COLUMNS]


def test_a_bad_selector_is_refused_in_one_line() -> None:
    with pytest.raises(SelectorError, match=r"^--main-content-selector 'div\[' is not a CSS"):
        check_selector("div[")
    with pytest.raises(SelectorError, match="is empty"):
        check_selector("  ")
    assert check_selector(" #page-body ") == "#page-body"


FAQ_EXPECTED = {
    "region": {"nodeName": "MAIN", "id": None, "role": None, "selector": "main",
               "classList": []},
    "counts": {"headings": 2, "images": 2, "tables": 1, "buttons": 2, "iframes": 1,
               "videos": 1, "audios": 0, "canvases": 1, "customElements": 1},
    "headings": [{"order": 0, "text": "Orders", "level": 2},
                 {"order": 1, "text": "Returns", "level": 3}],
    "tables": [{"order": 0, "rows": 3, "cols": 3, "hasHeader": True, "hasFooter": False,
                "hasMergedCell": True}],
    "buttons": [{"order": 0, "nodeName": "BUTTON", "role": None, "type": "button",
                 "text": "Show more", "disabled": False},
                {"order": 1, "nodeName": "BUTTON", "role": None, "type": "submit",
                 "text": "Send", "disabled": True}],
    "iframes": [{"order": 0, "src": "about:blank", "title": "Map", "width": "300",
                 "height": "200"}],
    "audios": [],
    "canvases": [{"order": 0, "width": 120, "height": 150}],
    "customElements": [{"order": 0, "nodeName": "FAQ-RATING", "elementId": "rating",
                        "classList": ["stars", "big"]}],
}


def test_the_faq_page_of_a_crawl(plain_crawl: Crawl, zoo: TrapZoo) -> None:
    page = q.get_page_main_contents(plain_crawl.archive, url=f"{zoo.url}support/faq/")
    assert page is not None
    assert {k: page[k] for k in FAQ_EXPECTED} == FAQ_EXPECTED
    assert page["images"] == [
        {"order": 0, "src": f"{zoo.url}static/faq.png", "alt": "How to order"},
        {"order": 1, "src": f"{zoo.url}static/arrow.png", "alt": ""}]
    assert page["videos"] == [{"order": 0, "src": f"{zoo.url}static/howto.mp4",
                               "poster": f"{zoo.url}static/poster.png", "width": 640,
                               "height": 360}]
    assert 0 < page["wordCount"] < page["bodyWordCount"]   # the header and footer are out
    # the contact page of the same template holds none of it: the other direction
    contact = q.get_page_main_contents(plain_crawl.archive, url=f"{zoo.url}support/contact/")
    assert contact is not None and contact["region"] == FAQ_EXPECTED["region"]
    assert contact["counts"] == {**dict.fromkeys(FAQ_EXPECTED["counts"], 0), "buttons": 0}
    assert contact["headings"] == [] and contact["wordCount"] < page["wordCount"]


def test_both_crawl_modes_read_the_same(plain_crawl: Crawl, rendered_crawl: Crawl,
                                        zoo: TrapZoo) -> None:
    url = f"{zoo.url}support/faq/"
    assert q.get_page_main_contents(rendered_crawl.archive, url=url) == \
        q.get_page_main_contents(plain_crawl.archive, url=url)


def test_what_has_no_inventory_says_so(plain_crawl: Crawl, zoo: TrapZoo) -> None:
    assert q.get_page_main_contents(plain_crawl.archive, url=f"{zoo.url}nowhere") is None
    with pytest.raises(NotRecorded, match=r"files/report\.pdf has no main-content inventory: "
                       r"only the site's HTML pages are read \(this one: status 200, "
                       r"content type application/pdf\)"):
        q.get_page_main_contents(plain_crawl.archive, url=f"{zoo.url}files/report.pdf")


def test_the_cli_prints_it(plain_crawl: Crawl, zoo: TrapZoo) -> None:
    out = subprocess.run([QUERY, "main-contents", str(plain_crawl.archive), "--url",
                          f"{zoo.url}support/faq/", "--format", "json"],
                         capture_output=True, text=True, check=True).stdout
    assert json.loads(out)["headings"] == FAQ_EXPECTED["headings"]
    bad = subprocess.run([QUERY, "main-contents", str(plain_crawl.archive), "--url",
                          f"{zoo.url}files/report.pdf"], capture_output=True, text=True)
    assert bad.returncode != 0 and bad.stdout == ""
    assert bad.stderr.count("\n") == 1 and "has no main-content inventory" in bad.stderr


SMALL = ("--no-render", "--no-sitemap", "--no-templates", "--silent")


def _support(zoo: TrapZoo, directory: Path, *extra: str) -> Path:
    """A crawl of /support/ alone (three pages)."""
    directory.mkdir()
    out = directory / "support.nitpicker"
    done = run_crawl(directory, f"{zoo.url}support/", "-o", str(out), *SMALL, *extra)
    assert done.returncode == 0, done.stderr
    return out


def test_a_selector_of_the_user_and_no_inventory_at_all(zoo: TrapZoo, tmp_path: Path) -> None:
    chosen = _support(zoo, tmp_path / "chosen", "--main-content-selector", "table")
    page = q.get_page_main_contents(chosen, url=f"{zoo.url}support/faq/")
    assert page is not None and page["region"]["nodeName"] == "TABLE"
    assert page["counts"]["headings"] == 0 and page["counts"]["tables"] == 0
    other = q.get_page_main_contents(chosen, url=f"{zoo.url}support/")  # no table: usual
    assert other is not None and other["region"]["nodeName"] == "MAIN"
    off = _support(zoo, tmp_path / "off", "--no-main-contents")
    with pytest.raises(NotRecorded, match=r"records no main-content inventory .* "
                       r"--no-main-contents"):
        q.get_page_main_contents(off, url=f"{zoo.url}support/")


def test_a_bad_selector_stops_before_any_fetch(zoo: TrapZoo, tmp_path: Path) -> None:
    done = run_crawl(tmp_path, zoo.url, "-o", str(tmp_path / "x.nitpicker"),
                     "--main-content-selector", "div[")
    assert done.returncode == 2
    assert "--main-content-selector 'div[' is not a CSS selector" in done.stderr
    assert list(tmp_path.iterdir()) == []
