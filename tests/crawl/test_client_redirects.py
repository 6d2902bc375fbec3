"""Redirects an auditor asks about, on every surface (issue 39, row 3): HTTP 3xx, a meta
refresh, a ``Refresh`` header and (rendered) a script's navigation — with their chains
and loops — listed by ``pages --redirects`` (CLI, CSV bytes), MCP's ``list_pages`` and
the viewer's Pages view; and what is no redirect (a refresh that only reloads, an
ordinary page) is not listed.

The site mimics the Apache manual: ``/manual`` answers 301 to ``/manual/``, whose page
says ``<meta http-equiv="refresh" content="0; URL=en/index.html">`` and nothing else.
"""

from __future__ import annotations

import csv
import io
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters

import nitpicker_query as q
from tests.crawl.conftest import SiteHandler, local_site, run_crawl
from tests.viewer.conftest import serve
from tests.viewer.tables import table
from tests.viewer.test_api import get

PAGES: dict[str, tuple[int, dict[str, str], str]] = {
    "/": (200, {}, "<title>Home</title><a href='/old'>manual</a> <a href='/hdr'>h</a> "
          "<a href='/loop-a'>loop</a> <a href='/reload'>news</a> <a href='/js'>js</a> "
          "<a href='/scripted'>s</a>"),
    "/old": (301, {"Location": "/manual"}, ""),
    "/manual": (301, {"Location": "/manual/"}, ""),
    "/manual/": (200, {}, '<html><head><meta http-equiv="refresh" content="0; '
                 'URL=en/index.html"></head><body></body></html>'),
    "/manual/en/index.html": (200, {}, "<title>Manual</title><p>The manual.</p>"),
    "/hdr": (200, {"Refresh": "0; url=/manual/en/index.html"}, "<title>Moved</title>"),
    "/loop-a": (200, {}, "<title>A</title><meta http-equiv='refresh' content='1;url=/loop-b'>"),
    "/loop-b": (200, {}, "<title>B</title><meta http-equiv='refresh' content='1;url=/loop-a'>"),
    "/reload": (200, {}, "<title>News</title><meta http-equiv='refresh' content='300'>"),
    "/scripted": (200, {}, "<title>S</title><meta http-equiv='refresh' "
                  "content='0;url=javascript:alert(1)'>"),
    "/js": (200, {}, "<title>JS</title><script>location.replace('/manual/en/index.html')"
            "</script>"),
}


class _Site(SiteHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        status, headers, body = PAGES.get(self.path, (404, {}, "<title>Not found</title>"))
        self.answer(status, body, headers=headers)

    do_HEAD = do_GET


@pytest.fixture(scope="module")
def crawled(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path, str]]:
    """The site crawled ``--no-render`` and rendered."""
    directory = tmp_path_factory.mktemp("redirects")
    with local_site(_Site) as base:
        for name, extra in (("plain", ["--no-render"]), ("rendered", [])):
            r = run_crawl(directory, base, "-o", f"{name}.nitpicker", "--silent", *extra)
            assert r.returncode == 0, r.stderr
    yield directory / "plain.nitpicker", directory / "rendered.nitpicker", base


def _redirects(archive: Path) -> dict[str, dict[str, Any]]:
    return {i["url"]: i for i in q.list_pages(archive, redirects=True)["items"]}


def test_every_kind_of_redirect_is_listed_with_where_it_ends(
        crawled: tuple[Path, Path, str]) -> None:
    plain, _, base = crawled
    found = _redirects(plain)
    manual = base + "manual/en/index.html"
    assert sorted(found) == sorted(base + p for p in (
        "old", "manual", "manual/", "hdr", "loop-a", "loop-b"))
    old = found[base + "old"]
    assert (old["redirectKind"], old["redirectTo"], old["finalUrl"], old["finalStatus"],
            old["redirectLoop"]) == ("http", base + "manual", manual, 200, False)
    assert [(h["url"], h["status"], h.get("kind")) for h in old["redirectChain"]] == [
        (base + "old", 301, "http"), (base + "manual", 301, "http"),
        (base + "manual/", 200, "meta-refresh"), (manual, 200, None)]
    assert (found[base + "manual/"]["redirectKind"], found[base + "manual/"]["redirectTo"]) \
        == ("meta-refresh", manual)
    assert (found[base + "hdr"]["redirectKind"], found[base + "hdr"]["finalUrl"]) == (
        "refresh-header", manual)
    loop = found[base + "loop-a"]
    assert loop["redirectLoop"] is True and loop["finalUrl"] == base + "loop-a"
    # the other direction: a refresh that only reloads, a script unseen without a
    # browser, and the page a chain ends on are no redirects
    for page in ("reload", "js", "scripted", "manual/en/index.html", ""):
        assert base + page not in found
    # the target of a meta refresh is crawled although no link names it
    detail = q.get_page_detail(plain, url=manual)
    assert detail is not None and detail["status"] == 200


def test_a_script_navigation_is_a_redirect_when_rendered(
        crawled: tuple[Path, Path, str]) -> None:
    _, rendered, base = crawled
    found = _redirects(rendered)
    assert found[base + "js"]["redirectKind"] == "javascript"
    assert found[base + "js"]["finalUrl"] == base + "manual/en/index.html"
    assert found[base + "manual/"]["redirectKind"] == "meta-refresh"
    assert base + "reload" not in found


def test_status_301_lists_the_http_redirects(crawled: tuple[Path, Path, str]) -> None:
    plain, _, base = crawled
    assert [i["url"] for i in q.list_pages(plain, status=301)["items"]] == [
        base + "manual", base + "old"]
    # and a 200 filter keeps to pages: no redirect source answered 200
    assert base + "old" not in {i["url"] for i in q.list_pages(plain, status=200)["items"]}


def test_the_cli_csv_has_the_redirect_columns(crawled: tuple[Path, Path, str]) -> None:
    plain, _, base = crawled
    r = run_crawl_query(plain, "pages", "--redirects", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(r)))
    # the table's columns, then the redirect's, then the rest of each item
    assert list(rows[0])[:12] == ["url", "status", "title", "contentType", "isExternal",
                                  "noindex", "skipReason", "redirectKind", "redirectTo",
                                  "finalUrl", "finalStatus", "redirectLoop"]
    by_url = {row["url"]: row for row in rows}
    assert by_url[base + "manual/"]["redirectKind"] == "meta-refresh"
    assert by_url[base + "manual/"]["finalUrl"] == base + "manual/en/index.html"
    assert by_url[base + "loop-b"]["redirectLoop"] == "true"


def run_crawl_query(archive: Path, *args: str) -> str:
    query = str(Path(sys.executable).with_name("nitpicker-query"))
    done = subprocess.run([query, *args, str(archive)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_mcp_lists_the_same_redirects(crawled: tuple[Path, Path, str]) -> None:
    plain, _, base = crawled
    server = str(Path(sys.executable).with_name("nitpicker-mcp"))
    params = StdioServerParameters(command=server, args=["--root", str(plain.parent)], env={
        "NITPICKER_PY_CACHE_DIR": os.environ["NITPICKER_PY_CACHE_DIR"]})
    async with Client(params) as client:
        result = await client.call_tool("list_pages", {"archive": str(plain),
                                                       "redirects": True})
    assert not result.is_error, result.content
    assert result.structured_content is not None
    items = {i["url"]: i for i in result.structured_content["items"]}
    assert items.keys() == _redirects(plain).keys()
    assert items[base + "hdr"]["redirectKind"] == "refresh-header"


def test_the_viewer_shows_the_redirect_columns(crawled: tuple[Path, Path, str]) -> None:
    plain, _, base = crawled
    for served in serve(plain, []):
        status, body, _ = get(served, "/pages?redirects=true&pageSize=50")
        assert status == 200, body[:300]
        rows = {r["URL"]: r for r in table(body)}
        assert set(rows) == set(_redirects(plain))
        row = rows[base + "manual/"]
        assert (row["Redirect kind"], row["Redirects to"]) == (
            "meta-refresh", base + "manual/en/index.html")
        # the Redirects column set was chosen for it, and is named in words
        assert '<option value="redirects" selected>Redirects</option>' in body
        # a site without a broken link says so, not "Nothing here."
        status, body, _ = get(served, "/links")
        assert status == 200 and "No broken link" in body and "Nothing here." not in body
