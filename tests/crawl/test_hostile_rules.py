"""The crawler's rules against hostile input, as tables both ways (issue 20): hosts and
URLs read as a browser reads them, robots.txt as RFC 9309 says, charsets as the HTML
Standard sniffs them, bodies decoded within their bound, nesting and JSON-LD depth,
numeric attributes."""

from __future__ import annotations

import asyncio
import codecs
import gzip
import time
import zlib
from collections.abc import AsyncIterator

import pytest

from nitpicker_crawl.extract.extraction import MAX_JSON_DEPTH, images, jsonld
from nitpicker_crawl.extract.parser import parse
from nitpicker_crawl.fetch.body import BodyTooLarge, UndecodableBody, read_body
from nitpicker_crawl.fetch.charset import decode_html
from nitpicker_crawl.fetch.hosts import parse_host
from nitpicker_crawl.fetch.robots import parse as parse_robots
from nitpicker_crawl.fetch.urls import normalize, resolve
from nitpicker_query.format.error_kinds import classify_error_kind
from page_cluster.nesting import MAX_DEPTH, cap_nesting, parse_html

# ----------------------------------------------------------------------------- hosts


@pytest.mark.parametrize(("written", "host"), [
    ("EXAMPLE.com", "example.com"),
    ("ｅｘａｍｐｌｅ.com", "example.com"),                 # fullwidth letters
    ("１２７.０.０.１", "127.0.0.1"),                       # fullwidth digits and dots
    ("Bücher.example", "xn--bcher-kva.example"),           # IDNA: the wire form
    ("xn--bcher-kva.example", "xn--bcher-kva.example"),    # …which is the same host
    ("%65xample.com", "example.com"),
    ("0177.0.0.1", "127.0.0.1"), ("0x7f.1", "127.0.0.1"), ("2130706433", "127.0.0.1"),
    ("127.1", "127.0.0.1"),
    ("[::FFFF:127.0.0.1]", "[::ffff:7f00:1]"),
    ("my_host.local", "my_host.local"),                    # browsers accept "_"
    ("example.com.", "example.com."),                      # another origin, as in a browser
])
def test_hosts_read_as_a_browser_reads_them(written: str, host: str) -> None:
    assert parse_host(written) == host


@pytest.mark.parametrize("written", [
    "exa mple.com", "a<b", "a%00b", "1.2.3.256", "09.1.1.1", "1.2.3.4.5", "999999999999",
    "x" * 300, "", "[::1", "[zz::1]"])
def test_hosts_no_browser_would_request_are_refused(written: str) -> None:
    assert parse_host(written) is None


@pytest.mark.parametrize(("spelling", "identity"), [
    ("http://127.0.0.1:81\\@127.0.0.2:82/", "http://127.0.0.1:81/@127.0.0.2:82/"),
    ("http://ｌｏｃａｌｈｏｓｔ:8080/a", "http://localhost:8080/a"),
    ("http://0177.0.0.1:8080/x", "http://127.0.0.1:8080/x"),
    ("http://Bücher.example/a", "http://xn--bcher-kva.example/a"),
    ("  http://h/a\tb\n  ", "http://h/ab"),                 # tabs, newlines, spaces
    ("http://h/a/../b/./c", "http://h/b/c"),                # dot segments
    ("http://h/a/%2e%2E/c", "http://h/c"),
    ("http://h/a?b c&d=ü", "http://h/a?b%20c&d=%C3%BC"),    # the query as a browser sends it
    ("http://h/a\\b?c\\d", "http://h/a/b?c\\d"),           # "\" is "/" before the query only
    ("http://h/%6Eormal/%37?q=%7e", "http://h/normal/7?q=~"),  # escaped unreserved
    ("http://h/a%2fb?x=%2f", "http://h/a%2Fb?x=%2F"),          # escapes in upper case
])
def test_urls_read_as_a_browser_reads_them(spelling: str, identity: str) -> None:
    assert normalize(spelling) == identity


@pytest.mark.parametrize(("a", "b"), [
    ("http://h/a?b%20c", "http://h/a?b+c"),         # + is not a space to a server
    ("http://h/a%2Fb", "http://h/a/b"),             # an escaped slash is not a slash
    ("http://h/a/%2e%2e.x", "http://h/"),           # a segment that only starts with dots
    ("http://127.0.0.1/", "http://127.0.0.2/"),
    ("http://example.com/", "http://example.com./"),
])
def test_different_urls_stay_different(a: str, b: str) -> None:
    assert normalize(a) != normalize(b)


def test_relative_links_with_backslashes_and_controls() -> None:
    assert resolve("\\\\other.example\\x", "http://h/p") == ("http://other.example/x", None)
    assert resolve("java\nscript:alert(1)", "http://h/") is None
    assert resolve("/a\\b#frag", "http://h/") == ("http://h/a/b", "frag")


# ----------------------------------------------------------------------------- robots.txt

ROBOTS = """\
User-agent: *
Disallow: /private/
Allow: /private/ok$
Disallow: /*.pdf$
Disallow: /a*b*c

User-agent: Nitpicker-Py
User-agent: other
Disallow: /only-us
Disallow: /ünï
"""


@pytest.mark.parametrize(("path", "allowed"), [
    ("/private/x", False), ("/private/ok", True), ("/private/okx", False),  # longest wins
    ("/a.pdf", False), ("/a.pdfx", True),                                   # $ anchors
    ("/aXbYc", False), ("/acb", True),                                      # * in order
    ("/robots.txt", True), ("/", True),
])
def test_robots_rules_longest_match_allow_on_tie(path: str, allowed: bool) -> None:
    rules, _ = parse_robots(ROBOTS, "somebot")
    assert rules.allowed(path) is allowed


def test_robots_group_is_the_product_token_case_insensitively() -> None:
    rules, understood = parse_robots(ROBOTS, "nitpicker-py")
    assert not rules.allowed("/only-us") and rules.allowed("/private/x")
    assert not rules.allowed("/%C3%BCn%C3%AF")  # a rule's non-ASCII as URLs encode it
    assert understood == 9


def test_robots_without_rules_allows_everything_and_says_it_read_nothing() -> None:
    rules, understood = parse_robots("R2VydGh1ZGUK\x00\x01binary", "nitpicker-py")
    assert understood == 0 and rules.allowed("/anything")


def test_a_hostile_robots_pattern_is_linear() -> None:
    rules, _ = parse_robots("User-agent: *\nDisallow: /" + "*a" * 2000 + "b\n", "x")
    started = time.process_time()
    assert rules.allowed("/" + "a" * 5000)
    assert time.process_time() - started < 5  # no backtracking (it would never end)


# ----------------------------------------------------------------------------- charsets


@pytest.mark.parametrize(("body", "header", "text"), [
    (b"<p>hi</p>", "rot13", "<p>hi</p>"),             # a Python codec, not a web encoding
    ("<p>ü</p>".encode(), "base64", "<p>ü</p>"),
    ("<p>ü</p>".encode(), "x-klingon", "<p>ü</p>"),
    (codecs.BOM_UTF16_LE + "<p>ü</p>".encode("utf-16-le"), "utf-8", "<p>ü</p>"),  # BOM wins
    (b"<meta charset=shift_jis><p>\x82\xa0</p>", None, "<meta charset=shift_jis><p>あ</p>"),
    (b"<p>\xe9</p>", "iso-8859-1", "<p>é</p>"),
    (b"<p>\x80</p>", "latin1", "<p>€</p>"),            # latin1 is windows-1252 on the web
    (b"<p>\xff</p>", None, "<p>\ufffd</p>"),           # nothing declared: UTF-8, replaced
])
def test_charsets_sniffed_as_a_browser_does(body: bytes, header: str | None,
                                            text: str) -> None:
    assert decode_html(body, header) == text


# ----------------------------------------------------------------------------- bodies


async def _chunks(data: bytes, size: int = 65536) -> AsyncIterator[bytes]:
    for i in range(0, len(data), size):
        yield data[i:i + size]


async def _gzip_bomb(mib: int, layers: int = 1) -> AsyncIterator[bytes]:
    """A gzip stream of ``mib`` MiB of zeros, generated as it is read."""
    compressors = [zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
                   for _ in range(layers)]
    for _ in range(mib):
        piece = b"\0" * (1 << 20)
        for c in compressors:
            piece = c.compress(piece) + c.flush(zlib.Z_SYNC_FLUSH)
        yield piece


def _read(chunks: AsyncIterator[bytes], encoding: str | None, limit: int) -> bytes:
    return asyncio.run(read_body(chunks, encoding, limit))


@pytest.mark.parametrize("layers", [1, 2])
def test_a_bomb_stops_at_the_limit(layers: int) -> None:
    with pytest.raises(BodyTooLarge) as caught:
        _read(_gzip_bomb(5000, layers), ", ".join(["gzip"] * layers), 8 << 20)
    assert caught.value.limit == 8 << 20


def test_bodies_within_the_limit_are_whole() -> None:
    page = b"<p>hello</p>" * 1000
    assert _read(_chunks(gzip.compress(page) + gzip.compress(page)), "gzip", 1 << 20) == page * 2
    assert _read(_chunks(zlib.compress(page)), "deflate", 1 << 20) == page
    raw = zlib.compressobj(wbits=-15)
    assert _read(_chunks(raw.compress(page) + raw.flush()), "deflate", 1 << 20) == page
    assert _read(_chunks(page), "identity", len(page)) == page  # exactly the limit: whole
    assert asyncio.run(read_body(_chunks(page), None, 100, truncate=True)) == page[:100]


@pytest.mark.parametrize(("encoding", "data", "message"), [
    ("br", b"x", "unsupported Content-Encoding 'br'"),
    ("x-nonsense", b"x", "unsupported Content-Encoding 'x-nonsense'"),
    ("gzip, gzip, gzip, gzip, gzip", b"x", "5 content codings stacked"),
    ("gzip", b"not gzip at all", "corrupt gzip stream"),
])
def test_undecodable_bodies_say_why(encoding: str, data: bytes, message: str) -> None:
    with pytest.raises(UndecodableBody, match=message):
        _read(_chunks(data), encoding, 1 << 20)


# ----------------------------------------------------------------------------- content


def test_deep_nesting_is_flattened_like_chromium_and_parses_in_linear_time() -> None:
    deep = ("<html><head><title>Deep</title></head><body>" + "<div>" * 100_000 + "x"
            + "</div>" * 100_000 + "<a href=/after>after</a></body></html>")
    started = time.process_time()
    raw = parse(deep)
    assert time.process_time() - started < 5  # 30 s of CPU before
    assert raw["title"] == "Deep" and [a["href"] for a in raw["anchors"]] == ["/after"]
    assert raw["html"] is deep  # the snapshot is the page as served
    tree = parse_html(deep)
    depth, node = 0, tree.css_first("div")
    while node is not None:  # down the first child element each time
        depth, node = depth + 1, next((c for c in node.iter() if c.tag == "div"), None)
    assert 500 < depth < MAX_DEPTH


def test_ordinary_pages_are_not_touched() -> None:
    page = ("<html><body><ul>" + "<li><a href=x>i</a><br><img src=y><p>text" * 3000
            + "</ul></body></html>")
    assert cap_nesting(page) is page  # unclosed <li>s and <p>s close each other: no depth
    nested = "<body>" + "<div>" * 6000 + "x" + "</div>" * 6000
    capped = cap_nesting(nested)
    assert capped.count("<div>") == MAX_DEPTH - 1 and capped.count("</div>") == 6000
    shallow = "<body>" + "<div>" * 600 + "x" + "</div>" * 600  # too few tags to cost much
    assert cap_nesting(shallow) is shallow


def test_deep_json_ld_is_kept_raw_with_an_error() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    rows = jsonld({"jsonld": [{"type": "application/ld+json", "text": deep},
                              {"type": "application/ld+json",
                               "text": '{"@type": "Product", "offers": {"price": 1}}'}]})
    assert rows[0]["parseError"] == f"nested deeper than {MAX_JSON_DEPTH} levels"
    assert rows[0]["parsed"] is None and rows[0]["raw"] == deep
    assert rows[1]["type"] == "Product" and rows[1]["parseError"] is None


def test_numeric_attributes_that_are_not_numbers_read_as_zero() -> None:
    raw = parse('<img src=a height="nan"><img src=b width="inf"><img src=c height="1e999">'
                '<img src=d width="-1"><img src=e width="99999999999999999999">'
                '<img src=f width="12px">')
    sizes = [(i["width"], i["height"]) for i in images(raw, "http://h/")]
    assert sizes == [(0, 0), (0, 0), (0, 0), (-1, 0), (0, 0), (12, 0)]


@pytest.mark.parametrize(("message", "kind"), [
    ("renderer-memory: http://h/hog took more than 512 MB in its tab and was stopped "
     "(--max-tab-memory); stored as the server sent it, not rendered", "renderer-memory"),
    ("renderer crashed (Page crashed): http://h/x; stored as the server sent it, not "
     "rendered", "renderer-crash"),
    ("Page.goto: net::ERR_ABORTED at http://h/x; stored as the server sent it, not rendered",
     "not-rendered"),
    ("navigation: a script or refresh on http://h/a went to http://h/b — refused, the page "
     "is stored as it was", "navigation-refused"),
    ("ERR_TOO_MANY_REDIRECTS http://h/a: redirects to itself", "too-many-redirects"),
    ("http://h/f links more than 500 new URLs; the rest are left out "
     "(--max-links-per-page)", "links-left-out"),
    # and the other way: upstream's messages keep upstream's kinds
    ("Page.goto: net::ERR_ABORTED at http://h/x", "unknown"),
    ("Navigation timeout of 30000 ms exceeded", "timeout"),
])
def test_a_problem_is_named_by_its_kind(message: str, kind: str) -> None:
    assert classify_error_kind(message) == kind
