"""One crawl, one set of numbers: the crawl's last line, ``summary`` (CLI), MCP's
``get_summary`` and the viewer's Summary say the same totals in the same words."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

import nitpicker_query as q
from nitpicker_crawl.trapzoo import TrapZoo
from tests.crawl.conftest import run_crawl
from tests.viewer.conftest import Served, serve

BIN = Path(sys.executable).parent
DONE = re.compile(r"done: ([\d,]+) URLs? \(([\d,]+) HTML pages?\)")


@pytest.fixture(scope="module")
def crawled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int, int]:
    """A capped crawl of TrapZoo and the two numbers its last line says."""
    directory = tmp_path_factory.mktemp("totals")
    with TrapZoo() as zoo:
        r = run_crawl(directory, zoo.url, "-o", "site.nitpicker", "--no-render",
                      "--dedupe-cap", "20")
    assert r.returncode == 0, r.stderr
    said = DONE.search(r.stderr.splitlines()[-1] if "done:" in r.stderr.splitlines()[-1]
                       else r.stderr)
    assert said is not None, r.stderr
    urls, pages = (int(n.replace(",", "")) for n in said.groups())
    return directory / "site.nitpicker", urls, pages


@pytest.fixture(scope="module")
def viewer(crawled: tuple[Path, int, int]) -> Iterator[Served]:
    yield from serve(crawled[0], [])


def test_the_crawls_last_line_and_summary_agree(crawled: tuple[Path, int, int]) -> None:
    archive, urls, pages = crawled
    # the numbers are the site's, not zeros: TrapZoo has 5 traps capped and ~200 pages
    assert pages >= 150 and urls > pages
    out = subprocess.run([str(BIN / "nitpicker-query"), "summary", str(archive), "--format",
                          "json"], capture_output=True, text=True, check=True).stdout
    totals = json.loads(out)["totals"]
    assert (totals["urls"], totals["htmlPages"]) == (urls, pages)
    # every URL is counted once in one of the kinds, or is one of the site's other pages
    other = urls - totals["htmlPages"] - totals["externalUrls"] - totals["redirectingUrls"] \
        - totals["skippedUrls"] - totals["failedUrls"]
    assert 0 < totals["refusedUrls"] < totals["skippedUrls"] and 0 <= other <= 10, totals
    # skipped URLs are the list of skipped URLs, refused ones those of the soft cap
    assert totals["skippedUrls"] == q.list_pages(archive, skipped="only")["total"]
    assert totals["refusedUrls"] == q.list_pages(archive, skip_reason="dedupe-cap")["total"]
    # the templates cluster the same HTML pages (the site's error pages have no HTML)
    templates = q.get_template_clusters(archive)
    assert templates["pagesClustered"] == pages
    # the table says the same numbers, with the same names
    table = subprocess.run([str(BIN / "nitpicker-query"), "summary", str(archive),
                            "--format", "table"], capture_output=True, text=True,
                           check=True).stdout
    assert re.search(rf"^\s+urls\s+{urls}$", table, re.M), table
    assert re.search(rf"^\s+htmlPages\s+{pages}$", table, re.M), table


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_mcp_says_the_same(crawled: tuple[Path, int, int]) -> None:
    archive, urls, pages = crawled
    params = StdioServerParameters(command=str(BIN / "nitpicker-mcp"), args=[
        "--root", str(archive.parent)], env={
            "NITPICKER_PY_CACHE_DIR": os.environ["NITPICKER_PY_CACHE_DIR"]})
    async with Client(params) as client:
        result = await client.call_tool("get_summary", {"archive": str(archive)})
    assert not result.is_error
    assert result.structured_content is not None
    totals = result.structured_content["totals"]
    assert (totals["urls"], totals["htmlPages"]) == (urls, pages)


def test_the_viewer_says_the_same(crawled: tuple[Path, int, int], viewer: Served) -> None:
    _, urls, pages = crawled
    with urllib.request.urlopen(viewer.url + "/api/get_summary") as response:
        totals = json.load(response)["totals"]
    assert (totals["urls"], totals["htmlPages"]) == (urls, pages)
    with urllib.request.urlopen(viewer.url + "/") as response:
        text = re.sub(r"<[^>]+>", " ", response.read().decode())
    words = " ".join(text.split())
    assert f"{urls:,} URLs" in words and f"{pages:,} HTML pages" in words, words[:2000]


def test_unchecked_external_links_are_not_queued(tmp_path: Path) -> None:
    """A complete ``--no-fetch-external`` crawl has nothing queued: its external links
    are in the archive (the link graph) and never to be fetched; the other direction, a
    crawl stopped by ``--max-pages``, has the site's URLs it did not reach queued."""
    with TrapZoo() as zoo:
        whole = run_crawl(tmp_path, zoo.url + "blog/", "-o", "whole.nitpicker", "--no-render",
                          "--no-fetch-external", "--silent")
        cut = run_crawl(tmp_path, zoo.url + "blog/", "-o", "cut.nitpicker", "--no-render",
                        "--no-fetch-external", "--silent", "--max-pages", "5")
    assert whole.returncode == 0, whole.stderr
    totals = q.get_summary(tmp_path / "whole.nitpicker")["totals"]
    with q.open_archive(tmp_path / "whole.nitpicker") as a:
        externals = a.count("SELECT count(*) FROM pages WHERE isExternal = 1")
    assert externals > 0 and totals["queuedUrls"] == 0
    assert cut.returncode == 3, cut.stderr
    queued = q.get_summary(tmp_path / "cut.nitpicker")["totals"]["queuedUrls"]
    assert queued > 0
    # the viewer's summary says so too, not only that the crawl stopped at max-pages
    for served in serve(tmp_path / "cut.nitpicker", []):
        with urllib.request.urlopen(served.url + "/summary", timeout=60) as page:
            body = page.read().decode()
        urls = f"{queued:,} URL{'' if queued == 1 else 's'}"
        assert f"max-pages (1 run); {urls} found and not fetched yet" in body
    for served in serve(tmp_path / "whole.nitpicker", []):
        with urllib.request.urlopen(served.url + "/summary", timeout=60) as page:
            assert "not fetched yet" not in page.read().decode()
