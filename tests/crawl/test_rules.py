"""The crawler's pure rules as tables of worked cases: identity, scope, excludes, progress."""

from __future__ import annotations

import pytest

from nitpicker_crawl.crawl.progress import Counters
from nitpicker_crawl.extract.extraction import anchors, clean, page_fields
from nitpicker_crawl.extract.parser import parse
from nitpicker_crawl.fetch.excludes import Excluder, keyword_matcher, path_matches, split_list
from nitpicker_crawl.fetch.scope import Scope
from nitpicker_crawl.fetch.urls import is_likely_html, normalize
from nitpicker_crawl.trapzoo import TrapZoo
from nitpicker_crawl.trapzoo.site import js_number


@pytest.mark.parametrize(
    ("spelling", "identity"),
    [
        ("http://example.com/a#top", "http://example.com/a"),             # fragment
        ("http://user:pw@example.com/a", "http://example.com/a"),         # credentials
        ("HTTP://EXAMPLE.com:80/a", "http://example.com/a"),              # case, port
        ("https://example.com:443", "https://example.com/"),              # default port
        ("http://example.com//a///b", "http://example.com/a/b"),          # slashes
        ("http://example.com/a?PHPSESSID=abc&x=1", "http://example.com/a?x=1"),
        ("http://example.com/a b", "http://example.com/a%20b"),
    ],
)
def test_equivalent_spellings_share_an_identity(spelling: str, identity: str) -> None:
    assert normalize(spelling) == identity


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("http://example.com/A", "http://example.com/a"),                  # path case
        ("http://example.com/a?p=1", "http://example.com/a?p=2"),          # query value
        ("http://example.com/a?p=1", "http://example.com/a?q=1"),          # query key
        ("http://example.com/a", "https://example.com/a"),                 # scheme
        ("http://example.com/a", "http://www.example.com/a"),              # host
        ("http://example.com:8080/a", "http://example.com/a"),             # port
    ],
)
def test_different_pages_never_share_an_identity(a: str, b: str) -> None:
    assert normalize(a) != normalize(b)


def test_not_crawlable() -> None:
    assert normalize("mailto:a@b.c") is None and normalize("ftp://x/") is None
    assert normalize("http:///nohost") is None
    assert normalize("http://example.com/a?x=1", disable_queries=True) == "http://example.com/a"


@pytest.mark.parametrize(("url", "html"), [
    ("http://x/", True), ("http://x/about", True), ("http://x/a.php", True),
    ("http://x/a.pdf", False), ("http://x/s.css", False), ("http://x/i.jpg", False)])
def test_likely_html(url: str, html: bool) -> None:
    assert is_likely_html(url) is html


def test_scope_by_host_port_and_path_segments() -> None:
    scope = Scope(["http://h/blog/", "http://h:8080/", "http://h/meta/full"])
    assert scope.is_internal("http://h/blog/2024/post")
    assert not scope.is_internal("http://h/blogger")        # segment, not prefix
    assert not scope.is_internal("http://h/")               # above the root
    assert scope.is_internal("http://h:8080/anything")
    assert scope.is_internal("https://h/blog/")             # scheme is not part of scope
    assert scope.is_internal("http://h/meta/full")
    assert scope.is_internal("http://h/meta/other")         # a page root: its directory
    assert not scope.is_internal("http://h/metadata")       # … not its prefix
    assert not scope.is_internal("http://other/blog/")
    entry = scope.find("http://h:80/blog/x")                # default port = no port
    assert entry is not None and entry.root == "http://h/blog/"


@pytest.mark.parametrize(("root", "inside", "outside"), [
    ("http://h/wiki/Main_Page", ["http://h/wiki/Main_Page", "http://h/wiki/Other",
                                 "http://h/wiki/a/b"], ["http://h/", "http://h/w/index.php"]),
    ("http://h/blog", ["http://h/", "http://h/blog", "http://h/about"], ["http://g/"]),
    ("http://h/docs/index.html?x=1", ["http://h/docs/", "http://h/docs/x/y"],
     ["http://h/doc", "http://h/index.html"]),
    ("http://h/blog/", ["http://h/blog/", "http://h/blog/2024/post"],
     ["http://h/blogger", "http://h/blo"]),
])
def test_a_page_root_scopes_its_directory(root: str, inside: list[str],
                                          outside: list[str]) -> None:
    scope = Scope([root])
    assert all(scope.is_internal(u) for u in inside)
    assert not any(scope.is_internal(u) for u in outside)


def test_split_list_keeps_braces() -> None:
    assert split_list("/blog/**/*,/facility/**/*") == ["/blog/**/*", "/facility/**/*"]
    assert split_list("/blog/*.{html,php},/admin/*") == ["/blog/*.{html,php}", "/admin/*"]


@pytest.mark.parametrize(("path", "glob", "match"), [
    ("/blog/2020/01", "/blog/*", True),
    ("/blog/2020/01", "/blog/**/*", True),
    ("/about", "/blog/*", False),
    ("/blogger/x", "/blog/*", False),
    ("/a/x.php", "/a/*.{html,php}", True),
    ("/a/x.asp", "/a/*.{html,php}", False),
    ("/search", "/search", True),
])
def test_path_globs(path: str, glob: str, match: bool) -> None:
    assert path_matches(path, glob) is match


def test_excluder_reasons() -> None:
    ex = Excluder(["/private/**"], ["http://h/print/"], [r"[?&]sort="])
    assert ex.reason("http://h/private/a") == "excluded (--exclude /private/**)"
    assert ex.reason("http://h/print/page") == "excluded (--exclude-url http://h/print/)"
    assert ex.reason("http://h/list?sort=asc") == "excluded (--exclude-pattern [?&]sort=)"
    assert ex.reason("http://h/public/a") is None
    kw = keyword_matcher(["Lorem", "/id=\\d+/"])
    assert kw is not None and kw.search("x Lorem y") and kw.search("id=42")
    assert not kw.search("nothing here")


def test_extraction_is_whitespace_and_url_normalised() -> None:
    raw = parse("<html lang=ja dir=ltr><head><base href='/base/'><title>\n A \t title </title>"
                "<meta name=robots content='NOINDEX, nofollow'>"
                "<meta property='og:url' content='page'><link rel='canonical' href='../c'>"
                "<meta name=format-detection content='telephone=no'></head>"
                "<body><a href='x#frag'> x\n y </a><a href='javascript:void(0)'>j</a>"
                "</body></html>")
    fields = page_fields(raw, "http://h/dir/p")
    assert fields["title"] == "A title" and fields["lang"] == "ja"
    assert (fields["robots_noindex"], fields["robots_nofollow"], fields["robots_noarchive"]) == (
        1, 1, 0)
    assert fields["og_url"] == "http://h/base/page" and fields["canonical"] == "http://h/c"
    assert fields["formatDetection_telephone"] == 0
    assert anchors(raw, "http://h/dir/p") == [("http://h/base/x", "frag", "x y", False)]


def test_rel_nofollow_is_read_from_each_anchor() -> None:
    raw = parse("<a href='/a' rel='nofollow'>a</a><a href='/b' rel='Noopener NOFOLLOW'>b</a>"
                "<a href='/c' rel='noopener'>c</a><a href='/d'>d</a>")
    assert [(u, n) for u, _, _, n in anchors(raw, "http://h/")] == [
        ("http://h/a", True), ("http://h/b", True), ("http://h/c", False), ("http://h/d", False)]
    assert clean("  ") is None


def test_progress_line_format() -> None:
    c = Counters(internal_done=130, pages_saved=85, internal_found=250, external_done=12,
                 external_found=20, parallels=10)
    assert c.line() == ("Crawling: 130(85) done / 250 found URLs (+12/20 ext) (52%) "
                        "[128 remaining] [10 parallel]")
    assert Counters().line().endswith("(0%) [0 remaining] [1 parallel]")
    # at 80 columns the soft cap's count is still seen (it used to be cut off)
    c.capped = 1234
    assert len(c.line()) > 79
    assert c.line(100) == ("Crawling: 130(85) done / 250 found (+12/20 ext) 52% · 1234 "
                           "capped · 128 left · 10 par")
    # narrower: the workers go first, then the external links, then what is left
    assert c.line(79) == ("Crawling: 130(85) done / 250 found (+12/20 ext) 52% · 1234 "
                          "capped · 128 left")
    assert c.line(60) == "Crawling: 130(85) done / 250 found 52% · 1234 capped"
    assert all(len(c.line(w)) <= w for w in (60, 79, 100))
    assert c.line(200) == c.line()


@pytest.mark.parametrize(("n", "text"), [(2030, "2030"), (2.03e21, "2.03e+21"),
                                         (1.5e32, "1.5e+32"), (20300, "20300")])
def test_trap_years_print_like_javascript(n: float, text: str) -> None:
    assert js_number(n) == text


def test_frontier_is_breadth_first_pages_before_assets() -> None:
    import asyncio

    from nitpicker_crawl.crawl.frontier import Frontier

    async def order() -> list[str]:
        f = Frontier()
        for url in ("http://h/a.pdf", "http://h/1/", "http://x/ext", "http://h/2/"):
            f.add(url, external=url.startswith("http://x"), metadata_only=False)
        assert not f.add("http://h/1/", external=False, metadata_only=False)  # seen
        got = []
        for _ in range(4):   # the site's lane: pages first, then the rest of the site
            item = await f.next()
            assert item is not None
            got.append(item.url)
            if item.url == "http://h/1/":
                f.add("http://h/1/next/", external=False, metadata_only=False)
            await f.done(item)
        # the external link waits in a lane of its own, for the external workers
        item = await f.next(external=True)
        assert item is not None
        got.append(item.url)
        await f.done(item)
        assert await f.next() is None and await f.next(external=True) is None
        return got

    assert asyncio.run(order()) == ["http://h/1/", "http://h/2/", "http://h/1/next/",
                                    "http://h/a.pdf", "http://x/ext"]


def test_frontier_serves_path_shapes_in_turn_breadth_first_inside_each() -> None:
    """An exploding trap fills its own queue, not everyone's: the blog's ten pages all
    come up among the first twenty, however many trap URLs were queued before them."""
    import asyncio

    from nitpicker_crawl.crawl.frontier import Frontier

    async def order() -> list[str]:
        f = Frontier()
        for i in range(1000):
            f.add(f"http://h/trap/{i}/", external=False, metadata_only=False)
        for i in range(10):
            f.add(f"http://h/blog/post-{chr(97 + i)}", external=False, metadata_only=False)
        f.add("http://h/trap/9999/?page=1", external=False, metadata_only=False)  # same path shape
        got = []
        while (item := await f.next()) is not None:
            got.append(item.url)
            await f.done()
        return got

    got = asyncio.run(order())
    assert len(got) == 1011
    first = got[:20]
    assert {u for u in first if "/blog/" in u} == {f"http://h/blog/post-{chr(97 + i)}"
                                                  for i in range(10)}
    trap = [u for u in got if "/trap/" in u]
    assert trap[:3] == ["http://h/trap/0/", "http://h/trap/1/", "http://h/trap/2/"]  # FIFO
    assert trap[-1] == "http://h/trap/9999/?page=1"


def test_redirects_into_a_refused_url_stop_before_it(zoo: TrapZoo) -> None:
    """The gate is asked before a redirect is followed; the target is never requested."""
    import asyncio

    from nitpicker_crawl.fetch.fetcher import Fetcher, RedirectRefused

    zoo_url = zoo.url
    before = zoo.site.hits["/redirect/end"]

    async def run() -> tuple[RedirectRefused | None, str]:
        fetcher = Fetcher(user_agent="t", timeout_s=10, retry=1, parallels=1)
        try:
            try:
                await fetcher.fetch(zoo_url + "redirect/start", body=True,
                                    gate=lambda t: not t.endswith("/redirect/end"))
            except RedirectRefused as refused:
                caught: RedirectRefused | None = refused
            else:
                caught = None
            assert zoo.site.hits["/redirect/end"] == before   # never requested
            allowed = await fetcher.fetch(zoo_url + "redirect/start", body=True,
                                          gate=lambda t: True)
            return caught, allowed.url
        finally:
            await fetcher.close()

    refused, final = asyncio.run(run())
    assert refused is not None and refused.target == zoo_url + "redirect/end"
    assert [h.url for h in refused.hops] == [zoo_url + "redirect/start",
                                             zoo_url + "redirect/middle"]
    assert final == zoo_url + "redirect/end"


def test_trapzoo_help_names_the_unbounded_mode() -> None:
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "nitpicker_crawl.trapzoo", "--help"],
                       capture_output=True, text=True, timeout=30)
    assert r.returncode == 0 and "--unbounded" in r.stdout
