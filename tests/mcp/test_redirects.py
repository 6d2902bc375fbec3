"""Redirects as an assistant sees them over stdio: a redirect source's chain hop by hop,
and a link to a redirecting URL with its 3xx, where it ends and how."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters

from nitpicker_crawl.trapzoo import TrapZoo
from tests.crawl.conftest import run_crawl

pytestmark = pytest.mark.anyio
SERVER = str(Path(sys.executable).with_name("nitpicker-mcp"))


@pytest.fixture(scope="module")
def crawled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    directory = tmp_path_factory.mktemp("mcp-redirects")
    with TrapZoo() as zoo:
        r = run_crawl(directory, zoo.url, "-o", "site.nitpicker", "--no-render",
                      "--dedupe-cap", "20", "--no-fetch-external")
        assert r.returncode == 0, r.stderr
        return directory / "site.nitpicker", zoo.url


async def _call(archive: Path, name: str, **arguments: Any) -> dict[str, Any]:
    params = StdioServerParameters(command=SERVER, args=["--root", str(archive.parent)], env={
        "NITPICKER_PY_CACHE_DIR": os.environ["NITPICKER_PY_CACHE_DIR"]})
    async with Client(params) as client:
        result = await client.call_tool(name, {"archive": str(archive), **arguments})
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


async def test_a_redirect_source_shows_its_chain(crawled: tuple[Path, str]) -> None:
    archive, base = crawled
    detail = await _call(archive, "get_page_detail", url=base + "redirect/start")
    assert detail["status"] == 301
    assert detail["redirectChain"] == [
        {"url": base + "redirect/start", "status": 301},
        {"url": base + "redirect/middle", "status": 302},
        {"url": base + "redirect/end", "status": 200}]
    assert detail["redirectsTo"] == base + "redirect/end"
    # the final page is no redirect: no chain
    end = await _call(archive, "get_page_detail", url=base + "redirect/end")
    assert end["status"] == 200 and end.get("redirectChain") is None


async def test_a_link_to_a_redirect_shows_its_3xx_and_where_it_ends(
        crawled: tuple[Path, str]) -> None:
    archive, base = crawled
    home = await _call(archive, "get_page_detail", url=base)
    (link,) = [li for li in home["outboundLinks"] if li["url"] == base + "redirect/start"]
    assert (link["status"], link["redirectsTo"], link["finalStatus"]) == (
        301, base + "redirect/end", 200)
    assert [hop["status"] for hop in link["redirectChain"]] == [301, 302, 200]
    # a plain link has none of it
    plain = next(li for li in home["outboundLinks"] if li["url"] == base + "products/")
    assert plain["status"] == 200 and "redirectsTo" not in plain
