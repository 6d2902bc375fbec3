"""The real thing: ``nitpicker-mcp`` spawned as a subprocess, spoken to over stdio by the
Python SDK's client (both protocol eras) and by the MCP Inspector's CLI (TypeScript SDK)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters

from nitpicker_mcp.tools import TOOLS
from nitpicker_query.keys.page_keys import page_keys
from tests.format013_builder import as_both_formats_say_it

pytestmark = pytest.mark.anyio
SERVER = str(Path(sys.executable).with_name("nitpicker-mcp"))
ROOT_DIR = Path(__file__).resolve().parents[2]
INSPECTOR_DIR = ROOT_DIR / ".npm-tools"
INSPECTOR_PKG = "@modelcontextprotocol/inspector-cli@1.0.3"
A = "http://localhost/a"
SIG_A = page_keys(A, title="Page A", description=None, og_title=None, og_url=None).signature


def params(*args: str) -> StdioServerParameters:
    env = {"NITPICKER_PY_CACHE_DIR": os.environ["NITPICKER_PY_CACHE_DIR"]}
    return StdioServerParameters(command=SERVER, args=list(args), env=env)


def template_key(site: Path) -> str:
    """The biggest template cluster's key, read through the library."""
    import nitpicker_query as q

    return str(q.get_template_clusters(site)["items"][0]["key"])


NOT_IN_THE_FIXTURE = {"get_isolated_cluster": "No isolated cluster named",
                      "get_page_main_contents": "records no main-content inventory"}
"""Tools whose answer on the fixture is an error saying what is missing (it was crawled
without an inventory, so it has no isolated cluster to name; its crawler read no main
content)."""


def sweep_calls(site: Path) -> list[tuple[str, dict[str, Any]]]:
    s = str(site)
    calls = [
        ("list_archives", {}), ("open_archive", {"archive": s}), ("get_summary", {"archive": s}),
        ("list_pages", {"archive": s}), ("get_page_detail", {"archive": s, "url": A}),
        ("get_page_html", {"archive": s, "url": A}), ("find_duplicates", {"archive": s}),
        ("find_mismatches", {"archive": s, "type": "canonical"}),
        ("list_links", {"archive": s, "type": "broken"}), ("list_resources", {"archive": s}),
        ("get_resource_referrers", {"archive": s, "resourceUrl": "http://localhost/style.css"}),
        ("list_images", {"archive": s}), ("check_headers", {"archive": s}),
        ("get_duplicate_clusters", {"archive": s, "minCount": 2}),
        ("get_duplicate_cluster", {"archive": s, "signature": SIG_A}),
        ("list_dedupe_cap_events", {"archive": s}),
        ("get_template_clusters", {"archive": s}),
        ("get_template_cluster", {"archive": s, "key": template_key(site)}),
        ("list_inbound_links", {"archive": s, "url": "http://localhost/b"}),
        ("list_pages_by_jsonld_type", {"archive": s, "type": "WebPage"}),
        ("count_pages_by_jsonld_type", {"archive": s, "type": "WebPage"}),
        ("get_page_jsonld", {"archive": s, "url": A}),
        ("get_page_jsonld_overview", {"archive": s, "url": A}),
        ("list_pages_by_tag", {"archive": s, "provider": "WordPress"}),
        ("count_pages_by_tag", {"archive": s, "provider": "WordPress"}),
        ("get_tag_inventory", {"archive": s}),
        ("get_page_tags", {"archive": s, "url": A}),
        ("get_violations", {"archive": s}),
        ("find_duplicate_bodies", {"archive": s}),
        ("find_duplicate_clusters", {"archive": s, "minCount": 2}),
        ("list_isolated_pages", {"archive": s}), ("list_isolated_clusters", {"archive": s}),
        ("get_isolated_cluster", {"archive": s, "representativeUrl": A}),
        ("list_network_outages", {"archive": s}),
        ("list_browser_outages", {"archive": s}),
        ("list_console_logs", {"archive": s}),
        ("get_page_console_logs", {"archive": s, "url": A}),
        ("get_page_main_contents", {"archive": s, "url": A}),
        ("list_unused_resources", {"archive": s}),
        ("compare_archives", {"archive": s, "old": s, "kind": "removed"}),
        ("find_near_duplicates", {"archive": s, "threshold": 50, "minWords": 3}),
        ("get_near_duplicates", {"archive": s, "url": A, "minWords": 3}),
        ("list_link_score", {"archive": s}), ("list_resource_hosts", {"archive": s}),
        ("list_pages_by_resource", {"archive": s, "resourcePattern": "%.css"}),
        ("match_urls", {"archive": s, "urls": f"{A} http://localhost/nowhere"}),
        ("search_html", {"archive": s, "pattern": "/<title>/i"}),
        ("match_selector", {"archive": s, "selector": "title"}),
        ("match_xpath", {"archive": s, "xpath": "//title"}),
    ]
    assert {n for n, _ in calls} == {t.name for t in TOOLS}
    return calls


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_stdio_session_calls_every_tool(root: Path, site: Path, mode: str) -> None:
    async with Client(params("--root", str(root)), mode=mode) as client:
        names = [t.name for t in (await client.list_tools()).tools]
        assert names == [t.name for t in TOOLS]
        for name, arguments in sweep_calls(site):
            # the client validates structuredContent against each tool's outputSchema
            result = await client.call_tool(name, arguments)
            if name in NOT_IN_THE_FIXTURE:
                assert result.is_error
                assert NOT_IN_THE_FIXTURE[name] in result.content[0].text  # type: ignore[union-attr]
                continue
            assert not result.is_error, (name, result.content)
        bad = await client.call_tool("list_pages", {"archive": str(site), "limit": 10**9})
        assert bad.is_error
        ok = await client.call_tool("get_summary", {"archive": str(site)})
        assert ok.structured_content is not None
        assert ok.structured_content["totalPages"] == 5


async def test_the_extraction_tools_answer_what_the_library_answers(root: Path,
                                                                   site: Path) -> None:
    """The tools added with the CLI's queries give the library's answer, over stdio."""
    import nitpicker_query as q

    expected = {
        "match_selector": q.match_selector(site, selector="body"),
        "match_xpath": q.match_xpath(site, xpath="//body"),
        "search_html": q.search_html(site, pattern="A</body>"),
        "match_urls": q.match_urls(site, urls=f"{A} http://localhost/nowhere"),
        "list_link_score": q.list_link_score(site),
    }
    arguments = {"match_selector": {"selector": "body"}, "match_xpath": {"xpath": "//body"},
                 "search_html": {"pattern": "A</body>"},
                 "match_urls": {"urls": f"{A} http://localhost/nowhere"},
                 "list_link_score": {}}
    assert expected["match_xpath"]["items"][0]["values"] == ["A"]   # page A's body
    assert expected["search_html"]["total"] == 1
    async with Client(params("--root", str(root))) as client:
        for name, answer in expected.items():
            result = await client.call_tool(name, {"archive": str(site), **arguments[name]})
            assert not result.is_error, (name, result.content)
            got = result.structured_content
            assert got is not None
            assert got["items"] == [{k: v for k, v in i.items() if v is not None}
                                    for i in answer["items"]], name
            assert got["total"] == answer["total"], name


async def test_200_concurrent_calls(root: Path, site: Path) -> None:
    expected: dict[int, Any] = {}
    got: dict[int, Any] = {}
    async with Client(params("--root", str(root)), mode="legacy") as client:
        for offset in range(6):
            r = await client.call_tool("list_pages", {"archive": str(site), "limit": 1,
                                                      "offset": offset})
            expected[offset] = r.structured_content

        async def one(i: int) -> None:
            r = await client.call_tool("list_pages", {"archive": str(site), "limit": 1,
                                                      "offset": i % 6})
            got[i] = r.structured_content

        async with anyio.create_task_group() as tg:
            for i in range(200):
                tg.start_soon(one, i)
    assert len(got) == 200
    assert all(got[i] == expected[i % 6] for i in range(200))


def _inspector() -> Path:
    script = (INSPECTOR_DIR / "node_modules" / "@modelcontextprotocol" / "inspector-cli" /
              "build" / "index.js")
    if not script.exists():
        subprocess.run(["npm", "install", "--silent", "--prefix", str(INSPECTOR_DIR),
                        INSPECTOR_PKG], check=True, timeout=300, capture_output=True)
    return script


@pytest.mark.skipif(shutil.which("npm") is None or shutil.which("node") is None,
                    reason="npm/node absent: the MCP Inspector CLI cannot be installed")
def test_mcp_inspector_cli(root: Path, site: Path) -> None:
    script = _inspector()

    def inspect(*args: str) -> Any:
        # the CLI reads its own package.json relative to the working directory
        r = subprocess.run(["node", str(script), SERVER, "--root", str(root), *args],
                           cwd=script.parent, capture_output=True, text=True, timeout=120,
                           env={**os.environ})
        assert r.returncode == 0, r.stderr + r.stdout
        return json.loads(r.stdout)

    listed = inspect("--method", "tools/list")
    assert [t["name"] for t in listed["tools"]] == [t.name for t in TOOLS]
    broken = inspect("--method", "tools/call", "--tool-name", "list_links",
                     "--tool-arg", f"archive={site}", "type=broken")
    assert broken["isError"] is False
    assert broken["structuredContent"]["items"][0]["destUrl"] == "http://localhost/missing"
    summary = inspect("--method", "tools/call", "--tool-name", "get_summary",
                      "--tool-arg", f"archive={site}")
    assert summary["structuredContent"]["totalPages"] == 5
    refused = inspect("--method", "tools/call", "--tool-name", "get_summary",
                      "--tool-arg", "archive=/etc/passwd")
    assert refused["isError"] is True
    assert "outside the allowed locations" in refused["content"][0]["text"]
    # prompts and resources through the second client too
    from nitpicker_mcp import prompts, resources

    assert [p["name"] for p in inspect("--method", "prompts/list")["prompts"]] == [
        p.name for p in prompts.PROMPTS]
    plan = inspect("--method", "prompts/get", "--prompt-name", "audit_site",
                   "--prompt-args", f"archive={site}")
    assert "list_links" in plan["messages"][0]["content"]["text"]
    read = inspect("--method", "resources/read", "--uri", resources.uri(site))
    assert json.loads(read["contents"][0]["text"])["totalPages"] == 5


async def test_every_tool_answers_the_same_on_the_archive_converted_to_013(
        root: Path, site: Path, tmp_path: Path) -> None:
    """The fixture archive and the same archive converted to format 0.13, side by side in
    one server: every tool's structured answer is the same. The conversion is written
    to a directory of its own, so the shared root other tests list stays as it was."""
    converted = tmp_path / "site-0.13.nitpicker"
    crawl = str(Path(sys.executable).with_name("nitpicker-crawl"))
    subprocess.run([crawl, "convert", str(site), "--to", "0.13", "-o", str(converted)],
                   check=True, capture_output=True)
    async with Client(params("--root", str(root), "--root", str(tmp_path)),
                      mode="auto") as client:
        opened = await client.call_tool("open_archive", {"archive": str(converted)})
        assert not opened.is_error, opened.content
        compared = 0
        for name, arguments in sweep_calls(site):
            if "archive" not in arguments or name == "open_archive":
                continue
            old = await client.call_tool(name, arguments)
            new = await client.call_tool(name, {**arguments, "archive": str(converted)})
            if name in NOT_IN_THE_FIXTURE:
                assert old.is_error and new.is_error
                compared += 1
                continue
            assert not new.is_error, (name, new.content)
            assert as_both_formats_say_it(new.structured_content) == \
                as_both_formats_say_it(old.structured_content), name
            compared += 1
        assert compared == len(TOOLS) - 2


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_first_template_clusters_call_sends_progress_when_asked(
        root: Path, site: Path, mode: str) -> None:
    """The archive's crawl stored no templates, so the server's first call reads every
    page: a client that passed a progress callback hears of it; one that did not gets
    the same answer and no notification."""
    heard: list[tuple[float, float | None, str | None]] = []

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        heard.append((done, total, message))

    async with Client(params("--root", str(root)), mode=mode) as client:
        result = await client.call_tool("get_template_clusters", {"archive": str(site)},
                                        progress_callback=on_progress)
        assert not result.is_error
        pages = result.structured_content["pagesClustered"]
        assert heard, "no progress notification"
        assert heard[0][2] == f"reading page 1 of {pages}" and heard[0][:2] == (0, pages)
        assert any((m or "").startswith("clustering: ") for _d, _t, m in heard)
        assert all(d <= (t or d) for d, t, _m in heard)
        heard.clear()   # a second call is served from the server's cache: nothing to tell
        again = await client.call_tool("get_template_clusters", {"archive": str(site)},
                                       progress_callback=on_progress)
        assert again.structured_content == result.structured_content and heard == []


async def test_the_older_crawl_of_a_comparison_is_confined_as_archive_is(
        root: Path, site: Path, tmp_path: Path) -> None:
    """compare_archives opens two archives: the old one is looked up in the allowed
    locations as archive is, and one outside them is refused, never opened."""
    outside = tmp_path / "elsewhere.nitpicker"
    outside.write_bytes(site.read_bytes())
    async with Client(params("--root", str(root))) as client:
        same = await client.call_tool("compare_archives",
                                      {"archive": str(site), "old": site.name})
        assert not same.is_error, same.content
        summary = same.structured_content
        assert summary["counts"]["removed"] == summary["counts"]["changed"] == 0
        assert summary["old"]["archive"] == summary["new"]["archive"] == site.name
        # the fixture has no run log: nobody can say its crawl completed
        assert summary["comparable"] is False
        assert summary["notes"][0].startswith("how the old crawl ended is not recorded")
        refused = await client.call_tool("compare_archives",
                                         {"archive": str(site), "old": str(outside)})
        assert refused.is_error
        assert "outside the allowed locations" in refused.content[0].text  # type: ignore[union-attr]


async def test_an_assistant_is_told_an_archive_was_never_analysed(root: Path,
                                                                  site: Path) -> None:
    """An empty list of violations from an archive no plugin ran on must not read as a
    clean site to the assistant either: the answer says it was never analysed."""
    async with Client(params("--root", str(root))) as client:
        result = await client.call_tool("get_violations", {"archive": str(site)})
        assert not result.is_error and result.structured_content is not None
        assert result.structured_content["items"] == []
        assert result.structured_content["analysed"] == {}
        assert result.structured_content["note"].startswith(
            "this archive was never analysed: no findings is not a clean site")
