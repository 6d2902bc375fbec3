"""Upstream's newest queries on real crawls of local sites: ``match-urls`` (why a listed
URL is or is not a page of the crawl), ``links --type all`` with source and destination
patterns, ``resource-hosts`` and ``pages-by-resource`` (the third-party inventory, from a
rendered crawl in real Chromium loading files from a second host)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from nitpicker_query import (
    InvalidArgument,
    list_links,
    list_pages_by_resource,
    list_resource_hosts,
    match_urls,
)
from tests.crawl.conftest import run_crawl
from tests.query.served import crawled_once, serving

HTML = {"Content-Type": "text/html; charset=utf-8"}


def _page(body: str, head: str = "") -> bytes:
    return f"<!doctype html><html><head><title>t</title>{head}</head><body>{body}</body>" \
           f"</html>".encode()


def _site(path: str) -> tuple[int, dict[str, str], bytes]:
    links = {
        "/": '<a href="/blog/one">1</a> <a href="/blog/two">2</a> <a href="/shop/">shop</a>'
             ' <a href="/old">old</a> <a href="/private/x">p</a> <a href="/gone">g</a>',
        "/blog/one": '<a href="/shop/">shop</a> <a href="/blog/two">two</a>',
        "/blog/two": '<a href="/shop/">shop</a> <a href="/">home</a>',
        "/shop/": '<a href="/blog/one">blog</a>',
        "/new": "moved here",
    }
    if path == "/robots.txt":
        return 200, {"Content-Type": "text/plain"}, b"User-agent: *\nDisallow: /private/\n"
    if path == "/old":
        return 301, {"Location": "/new"}, b""
    if path in links:
        return 200, HTML, _page(links[path])
    return 404, HTML, _page("not here")


@pytest.fixture(scope="module")
def crawled(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    # exit 2: the site's broken link
    with crawled_once(tmp_path_factory.mktemp("upstream-queries"), _site,
                      exit_codes=(0, 2)) as crawl:
        yield crawl


def test_match_urls_says_why_each_listed_url_is_or_is_not_a_page(
        crawled: tuple[Path, str]) -> None:
    archive, base = crawled
    host = base.removeprefix("http://")
    listed = [base + "/blog/one", base + "/shop", f"HTTP://{host}/blog/two",
              base + "/old", base + "/private/x", base + "/gone", base + "/never-linked"]
    found = match_urls(archive, urls=listed)
    got = {i["url"]: (i["result"], i["status"], i["matchedAs"], i["finalUrl"], i["reason"])
           for i in found["items"]}
    assert got == {
        base + "/blog/one": ("found", 200, None, None, None),
        # another spelling of a stored page: which one answered is said
        base + "/shop": ("found", 200, base + "/shop/", None, None),
        f"HTTP://{host}/blog/two": ("found", 200, base + "/blog/two", None, None),
        base + "/old": ("redirect", 301, None, base + "/new",
                        "redirects to a page answering 200"),
        base + "/private/x": ("skipped", None, None, None, "robots.txt"),
        base + "/gone": ("found", 404, None, None, None),
        base + "/never-linked": ("missing", None, None, None,
                                 "no page of the crawl links to it"),
    }
    assert found["counts"] == {"found": 4, "redirect": 1, "external": 0, "skipped": 1,
                               "not-fetched": 0, "missing": 1}
    with pytest.raises(InvalidArgument, match="at most 1000 a call"):
        match_urls(archive, urls=[f"{base}/p{i}" for i in range(1001)])


def test_every_link_narrowed_by_source_and_destination(crawled: tuple[Path, str]) -> None:
    archive, base = crawled
    every = list_links(archive, type="all", limit=1000)
    assert every["total"] == 11
    # the redirect is followed: the home page's link to /old reads as a link to /new
    assert any(i["sourceUrl"] == base + "/" and i["destUrl"] == base + "/new"
               for i in every["items"])
    blog_to_shop = list_links(archive, type="all", source_pattern="%/blog/%",
                              destination_pattern="%/shop/%")
    assert [(i["sourceUrl"], i["destUrl"]) for i in blog_to_shop["items"]] == [
        (base + "/blog/one", base + "/shop/"), (base + "/blog/two", base + "/shop/")]
    # the other way round: the shop links the blog once, and nothing links the shop
    # from itself
    assert list_links(archive, type="all", source_pattern="%/shop/%")["total"] == 1
    by_dest = list_links(archive, type="all", by_destination=True,
                         destination_pattern="%/blog/%")
    assert {(i["destUrl"], i["referrerCount"]) for i in by_dest["items"]} == {
        (base + "/blog/one", 2), (base + "/blog/two", 2)}
    # a quote in a pattern is a character of the pattern, not SQL
    assert list_links(archive, type="all", source_pattern="%' OR '1'='1")["total"] == 0
    with pytest.raises(InvalidArgument, match="narrow links, not orphaned pages"):
        list_links(archive, type="orphaned", source_pattern="%")


def _shop(cdn: str) -> Any:
    def answer(path: str) -> tuple[int, dict[str, str], bytes]:
        head = (f'<link rel="stylesheet" href="/site.css">'
                f'<script src="{cdn}/lib/jquery.js"></script>')
        if path == "/site.css":
            return 200, {"Content-Type": "text/css"}, b"body{color:#111}"
        if path in ("/", "/a", "/b"):
            body = '<a href="/a">a</a> <a href="/b">b</a>'
            if path == "/b":   # one page also loads a font the CDN does not have
                head += f'<link rel="stylesheet" href="{cdn}/missing.css">'
            return 200, HTML, _page(body, head)
        return 404, HTML, _page("no")
    return answer


def _cdn(path: str) -> tuple[int, dict[str, str], bytes]:
    if path == "/lib/jquery.js":
        return 200, {"Content-Type": "application/javascript"}, b"window.jq=1;" * 10
    return 404, {"Content-Type": "text/plain"}, b"no"


def test_resource_hosts_and_the_pages_loading_them(tmp_path: Path) -> None:
    with serving(_cdn) as cdn, serving(_shop(cdn)) as base:
        r = run_crawl(tmp_path, base + "/", "-o", "shop.nitpicker", "--silent")
        assert r.returncode == 0, r.stderr
    archive = tmp_path / "shop.nitpicker"
    own, third = base.removeprefix("http://"), cdn.removeprefix("http://")
    hosts = {i["host"]: i for i in list_resource_hosts(archive)["items"]}
    assert hosts[third]["isExternal"] is True and hosts[own]["isExternal"] is False
    assert (hosts[third]["resources"], hosts[third]["pages"], hosts[third]["failed"]) == \
        (2, 3, 1)
    assert hosts[third]["bytes"] == 122   # the script, 120, and the 404 answer, 2
    assert (hosts[own]["resources"], hosts[own]["pages"]) == (1, 3)
    assert "application/javascript" in hosts[third]["contentTypes"]
    assert [i["host"] for i in list_resource_hosts(archive, is_external=True)["items"]] == \
        [third]
    loading = list_pages_by_resource(archive, resource_pattern="%jquery%")
    assert [(i["url"], i["resources"], i["first"]) for i in loading["items"]] == [
        (base + "/", 1, cdn + "/lib/jquery.js"), (base + "/a", 1, cdn + "/lib/jquery.js"),
        (base + "/b", 1, cdn + "/lib/jquery.js")]
    by_host = list_pages_by_resource(archive, host=third.upper())
    assert [(i["url"], i["resources"]) for i in by_host["items"]] == [
        (base + "/", 1), (base + "/a", 1), (base + "/b", 2)]
    query = str(Path(sys.executable).with_name("nitpicker-query"))
    csv = subprocess.run([query, "resource-hosts", str(archive), "--format", "csv"],
                         capture_output=True, text=True, timeout=60)
    assert csv.returncode == 0, csv.stderr
    assert csv.stdout.splitlines()[0] == "pages,resources,bytes,failed,host,isExternal," \
                                         "contentTypes"
    bad = subprocess.run([query, "pages-by-resource", str(archive)], capture_output=True,
                         text=True, timeout=60)
    assert bad.returncode == 2 and bad.stderr.strip().endswith(
        "give resource_pattern or host (or both): which resources?")
