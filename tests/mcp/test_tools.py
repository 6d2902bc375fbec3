"""Every tool through a real MCP client, in process (JSON-RPC over memory streams in the
handshake era, direct dispatch in the 2026 protocol), against hand-computed answers."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.types import ListRootsResult, Root

from nitpicker_crawl.archive import ArchiveWriter
from nitpicker_mcp.server import MAX_STRUCTURED_CHARS, create_server
from nitpicker_mcp.tools import TOOLS
from nitpicker_query.keys.page_keys import page_keys

pytestmark = pytest.mark.anyio
MODES = ["legacy", "auto"]
A, B = "http://localhost/a", "http://localhost/b"


async def call(client: Client, name: str, **arguments: Any) -> Any:
    result = await client.call_tool(name, arguments)
    assert not result.is_error, result.content[0].text  # type: ignore[union-attr]
    assert json.loads(result.content[0].text) == result.structured_content  # type: ignore[union-attr]
    return result.structured_content


async def error(client: Client, name: str, **arguments: Any) -> str:
    result = await client.call_tool(name, arguments)
    assert result.is_error
    text: str = result.content[0].text  # type: ignore[union-attr]
    assert "Traceback" not in text and "\n" not in text
    return text


async def test_tool_list_is_complete_and_read_only(root: Path) -> None:
    async with Client(create_server(roots=[root]), mode="legacy") as client:
        tools = (await client.list_tools()).tools
    assert [t.name for t in tools] == [t.name for t in TOOLS]
    for tool in tools:
        a = tool.annotations
        assert a is not None and a.read_only_hint and a.idempotent_hint
        assert a.open_world_hint is False and a.destructive_hint is False
        schema = tool.input_schema
        assert schema["additionalProperties"] is False
        for name, prop in schema["properties"].items():
            assert prop.get("description"), (tool.name, name)
            if name == "limit":  # 0 asks list_inbound_links for the total alone
                low = 0 if tool.name == "list_inbound_links" else 1
                assert (prop["minimum"], prop["maximum"]) == (low, 1000)
        assert tool.output_schema is not None and tool.output_schema["type"] == "object"
        assert 40 <= len(tool.description.split()) <= 120, tool.name  # type: ignore[union-attr]


async def test_the_tool_list_costs_an_assistant_little(root: Path, tmp_path: Path) -> None:
    """What a host puts in the model's context for each tool (name, description, input
    schema) stays under 90,000 characters for all of them, crawl tools included: the
    archive argument, on 47 tools, says in one sentence what the instructions say in
    full (it took 22 KB of the list when it said it all on each)."""
    async with Client(create_server(roots=[root], crawl_dir=tmp_path), mode="legacy") as c:
        result = await c.list_tools()
    tools = [t.model_dump(by_alias=True, exclude_none=True) for t in result.tools]
    context = sum(len(t["name"]) + len(t["description"]) + len(json.dumps(t["inputSchema"]))
                  for t in tools)
    assert context < 90_000, context
    archive = [t["inputSchema"]["properties"]["archive"]["description"] for t in tools
               if "archive" in t["inputSchema"]["properties"]]
    assert len(archive) >= 40 and all(len(d) < 200 for d in archive)
    assert "list_archives" in archive[0]   # still says where to find one


def test_every_query_of_the_cli_is_a_tool() -> None:
    """The catalog is the one list of questions: each of the CLI's queries is an MCP tool
    of the same name (nine of them, search_html to link score, once reached only the CLI
    and the viewer); the two tools beyond it look at the roots, not one archive."""
    from nitpicker_query.queries.catalog import QUERIES

    tools = {t.name for t in TOOLS}
    assert [q.name for q in QUERIES if q.name not in tools] == []
    assert sorted(tools - {q.name for q in QUERIES}) == ["list_archives", "open_archive"]


@pytest.mark.parametrize("mode", MODES)
async def test_every_tool_answers(root: Path, site: Path, mode: str) -> None:
    s = str(site)
    async with Client(create_server(roots=[root]), mode=mode) as c:
        archives = await call(c, "list_archives")
        found = {Path(i["archive"]).name: i for i in archives["items"]}
        assert set(found) == {"site.nitpicker", "upstream.nitpicker"}
        assert (found["site.nitpicker"]["pages"], found["site.nitpicker"]["baseUrl"]) == (
            5, "http://localhost")
        opened = await call(c, "open_archive", archive=s)
        assert (opened["mode"], opened["formatVersion"], opened["totalPages"]) == (
            "archive", "0.10.0", 5)
        summary = await call(c, "get_summary", archive=s)
        assert summary["statusDistribution"] == [
            {"status": 200, "count": 3}, {"status": 404, "count": 1},
            {"status": 503, "count": 1}]
        pages = await call(c, "list_pages", archive=s, isExternal=False, limit=2)
        assert [i["url"] for i in pages["items"]] == [A, B] and pages["nextOffset"] == 2
        assert pages["total"] == 4  # the skipped URL is left out
        skipped = await call(c, "list_pages", archive=s, skipped="only")
        assert [i["skipReason"] for i in skipped["items"]] == ["dedupe-cap"]
        detail = await call(c, "get_page_detail", archive=s, url=B)
        assert detail["redirectFrom"] == ["http://localhost/old-b"]
        html = await call(c, "get_page_html", archive=s, url=A, maxLength=5)
        assert (html["html"], html["truncated"]) == ("<html", True)
        dups = await call(c, "find_duplicates", archive=s)
        assert dups["total"] == 0
        mism = await call(c, "find_mismatches", archive=s, type="og:title")
        assert mism["items"] == []
        broken = await call(c, "list_links", archive=s, type="broken")
        assert [(i["sourceUrl"], i["destUrl"]) for i in broken["items"]] == [
            (A, "http://localhost/missing"), (B, "http://localhost/flaky")]
        upstream = await call(c, "list_links", archive=s, type="broken", brokenAs="404")
        assert [(i["sourceUrl"], i["destUrl"]) for i in upstream["items"]] == [
            (A, "http://localhost/missing")]
        pages = await call(c, "list_pages", archive=s)
        # null fields are left out; the ones every item must have stay
        assert {k for i in pages["items"] for k, v in i.items() if v is None} <= {
            "url", "status", "title", "isExternal"}
        assert "description" not in pages["items"][0] and "url" in pages["items"][0]
        # … and the schema an assistant reads says so
        listed = {t.name: t for t in (await c.list_tools()).tools}
        items = listed["list_pages"].output_schema["properties"]["items"]
        assert "a missing field means null" in items["description"]
        res = await call(c, "list_resources", archive=s)
        assert res["items"][0]["referrerCount"] == 2
        refs = await call(c, "get_resource_referrers", archive=s,
                          resourceUrl="http://localhost/style.css", limit=1)
        assert refs["items"] == [{"url": A}] and refs["nextOffset"] == 1
        images = await call(c, "list_images", archive=s, missingAlt=True)
        assert images["total"] == 0
        headers = await call(c, "check_headers", archive=s, missingOnly=True)
        # /a and /b miss all four; /flaky (failed) and /missing have no headers stored:
        # not known to miss any (their flags are null)
        assert [i["url"] for i in headers["items"]] == [A, "http://localhost/b"]
        every = await call(c, "check_headers", archive=s)
        assert every["items"][2] == {"url": "http://localhost/flaky", "hasCSP": None,
                                     "hasXFrameOptions": None, "hasXContentTypeOptions": None,
                                     "hasHSTS": None}
        events = await call(c, "list_dedupe_cap_events", archive=s)
        assert events["total"] == 1
        event = events["items"][0]
        assert (event["shapeKey"], event["rejectedCount"], event["signals"]["ogUrlMismatch"]) == (
            "localhost/list/date/{n}/", 1, True)
        clusters = await call(c, "get_duplicate_clusters", archive=s, minCount=2)
        assert clusters["total"] == 0
        sig = page_keys(A, title="Page A", description=None, og_title=None,
                        og_url=None).signature
        one = await call(c, "get_duplicate_cluster", archive=s, signature=sig)
        assert [m["url"] for m in one["items"]] == [A] and one["by"] == "signature"
        assert "No cluster with signature" in await error(
            c, "get_duplicate_cluster", archive=s, signature="0" * 40)


@pytest.mark.parametrize(
    ("name", "arguments", "message"),
    [
        ("list_pages", {"limit": 10**9}, "greater than the maximum of 1000"),
        ("list_pages", {"offset": -1}, "less than the minimum of 0"),
        ("list_pages", {"limit": "10"}, "is not of type 'integer'"),
        ("list_pages", {"isExternal": "yes"}, "is not of type 'boolean'"),
        ("list_pages", {"bogus": 1}, "Additional properties are not allowed"),
        ("list_links", {}, "'type' is a required property"),
        ("list_links", {"type": "dead"}, "is not one of"),
        ("get_page_detail", {"url": "http://localhost/nope"}, "No page with URL"),
        ("get_resource_referrers", {"resourceUrl": "http://x/y.css"}, "No resource with URL"),
    ],
)
@pytest.mark.parametrize("mode", MODES)
async def test_bad_calls_are_tool_errors(root: Path, site: Path, name: str,
                                         arguments: dict[str, Any], message: str,
                                         mode: str) -> None:
    async with Client(create_server(roots=[root]), mode=mode) as c:
        text = await error(c, name, archive=str(site), **arguments)
        assert message in text
        assert (await call(c, "get_summary", archive=str(site)))["totalPages"] == 5


async def test_paths_are_confined(root: Path, site: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.nitpicker"
    outside.write_bytes(site.read_bytes())
    (root / "escape-link.nitpicker").unlink(missing_ok=True)
    os.symlink(outside, root / "escape-link.nitpicker")
    try:
        async with Client(create_server(roots=[root]), mode="legacy") as c:
            for path in (str(outside), str(root / ".." / outside.parent.name / outside.name),
                         str(root / "escape-link.nitpicker"), "/etc/passwd"):
                text = await error(c, "get_summary", archive=path)
                assert "outside the allowed locations" in text
                assert str(tmp_path) not in text and "/etc" not in text
            text = await error(c, "nope")
            assert "Unknown tool 'nope'" in text
            (root / "notes.nitpicker").write_text("not a tar")
            text = await error(c, "get_summary", archive=str(root / "notes.nitpicker"))
            assert "expected an uncompressed tar" in text
            assert (await call(c, "get_summary", archive=str(site)))["totalPages"] == 5
    finally:
        (root / "escape-link.nitpicker").unlink(missing_ok=True)
        (root / "notes.nitpicker").unlink(missing_ok=True)


async def test_no_roots_refuses_with_instructions(site: Path) -> None:
    async with Client(create_server(), mode="legacy") as c:
        text = await error(c, "get_summary", archive=str(site))
        assert "--root" in text and "roots" in text
        assert "--root" in await error(c, "list_archives")


async def test_client_declared_roots_are_honoured(root: Path, site: Path) -> None:
    async def roots(context: Any) -> ListRootsResult:
        return ListRootsResult(roots=[Root(uri=root.as_uri(), name="crawls")])  # type: ignore[arg-type]

    async with Client(create_server(), mode="legacy", list_roots_callback=roots) as c:
        assert (await call(c, "get_summary", archive=str(site)))["totalPages"] == 5


async def test_default_archive(site: Path) -> None:
    async with Client(create_server(archive=site), mode="legacy") as c:
        tools = {t.name: t for t in (await c.list_tools()).tools}
        assert "archive" not in tools["get_summary"].input_schema["required"]
        assert (await call(c, "get_summary"))["totalPages"] == 5


async def test_results_are_bounded(tmp_path: Path) -> None:
    w = ArchiveWriter.create(tmp_path / "big.nitpicker", roots=["http://big.test/"],
                             workdir=tmp_path / "._nitpicker-big")
    for i in range(400):
        pid = w.save_page(f"http://big.test/p/{i:04d}", contentType="text/html", status=200,
                          isExternal=0, title="T" * 200, description="D" * 300)
        if i == 0:
            w.save_html(pid, "<p>\"quoted\"</p>\n" * 10_000)
    w.close()
    async with Client(create_server(roots=[tmp_path]), mode="legacy") as c:
        pages = await call(c, "list_pages", archive=str(tmp_path / "big.nitpicker"), limit=400)
        assert len(json.dumps(pages)) < MAX_STRUCTURED_CHARS
        assert 0 < len(pages["items"]) < 400 and pages["nextOffset"] == len(pages["items"])
        rest = await call(c, "list_pages", archive=str(tmp_path / "big.nitpicker"), limit=400,
                          offset=pages["nextOffset"])
        assert rest["items"][0]["url"] == f"http://big.test/p/{pages['nextOffset']:04d}"
        html = await call(c, "get_page_html", archive=str(tmp_path / "big.nitpicker"),
                          url="http://big.test/p/0000")
        assert html["truncated"] is True and len(json.dumps(html)) < MAX_STRUCTURED_CHARS


async def test_full_sweep_is_read_only(root: Path) -> None:
    old = root / "old" / "upstream.nitpicker"
    before = hashlib.sha256(old.read_bytes()).hexdigest()
    async with Client(create_server(roots=[root]), mode="legacy") as c:
        for name, args in [("open_archive", {}), ("get_summary", {}), ("list_pages", {}),
                           ("get_page_detail", {"url": A}), ("get_page_html", {"url": A}),
                           ("find_duplicates", {}), ("find_mismatches", {"type": "canonical"}),
                           ("list_links", {"type": "orphaned"}), ("list_resources", {}),
                           ("list_images", {}), ("check_headers", {}),
                           ("get_duplicate_clusters", {"minCount": 2}),
                           ("list_dedupe_cap_events", {})]:
            await call(c, name, archive=str(old), **args)
        await call(c, "list_archives")
    assert hashlib.sha256(old.read_bytes()).hexdigest() == before
    import nitpicker_query as q

    with q.open_archive(old) as a:
        assert not a.has_table("dedupe_cap_events")


async def test_a_rewritten_archive_is_reopened(tmp_path: Path) -> None:
    from corpora.fixture_archives import build_pre013

    path = build_pre013(tmp_path, name="live")
    async with Client(create_server(roots=[tmp_path]), mode="legacy") as c:
        assert (await call(c, "get_summary", archive=str(path)))["totalPages"] == 2
        assert (await call(c, "get_summary", archive=str(path)))["totalPages"] == 2
        build_pre013(tmp_path, extended=True, name="live")  # a new crawl, same file name
        assert (await call(c, "get_summary", archive=str(path)))["totalPages"] == 5


async def test_relative_names_resolve_against_each_root(root: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    from corpora.fixture_archives import build_pre013

    build_pre013(other, name="second")  # 2 pages, only in the second root
    cwd = os.getcwd()
    os.chdir(tmp_path)  # the server's working directory must play no part
    try:
        (tmp_path / "site.nitpicker").write_text("a decoy in the working directory")
        async with Client(create_server(roots=[root, other]), mode="legacy") as client:
            first = await call(client, "get_summary", archive="site.nitpicker")
            assert first["totalPages"] == 5  # root/site.nitpicker, not the decoy
            nested = await call(client, "get_summary", archive="old/upstream.nitpicker")
            assert nested["totalPages"] > 0
            second = await call(client, "get_summary", archive="second.nitpicker")
            assert second["totalPages"] == 2  # found in the second root
            missing = await error(client, "get_summary", archive="nope.nitpicker")
            assert "No archive 'nope.nitpicker' in the allowed locations" in missing
            escape = await error(client, "get_summary", archive="../site.nitpicker")
            assert "outside the allowed locations" in escape
    finally:
        os.chdir(cwd)
