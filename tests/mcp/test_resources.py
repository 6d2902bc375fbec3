"""Resources (issue 43, item 2) over real stdio: each archive under the roots listed as
its summary, the templates of a page's detail, its stored HTML, a template cluster and
the report page, each read back equal to what the library answers; a cut page's HTML
answered with a link to the whole; bad URIs and absent pages one JSON-RPC line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp.types import ResourceLink, TextResourceContents

import nitpicker_query as q
from corpora.fixture_archives import HTML_A
from nitpicker_mcp import resources
from nitpicker_query.queries.templates import template_id
from nitpicker_query.values import jsonable
from tests.mcp.test_stdio import A, params, template_key

pytestmark = pytest.mark.anyio


async def _read(client: Client, uri: str) -> TextResourceContents:
    result = await client.read_resource(uri)
    content = result.contents[0]
    assert isinstance(content, TextResourceContents) and str(content.uri) == uri
    return content


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_archives_are_listed_and_each_form_reads_what_the_library_says(
        root: Path, site: Path, mode: str) -> None:
    key = template_key(site)
    async with Client(params("--root", str(root)), mode=mode) as client:
        listed = (await client.list_resources()).resources
        forms = (await client.list_resource_templates()).resource_templates
        summary = await _read(client, resources.uri(site))
        page = await _read(client, resources.uri(site, "page", A))
        html = await _read(client, resources.uri(site, "html", A))
        template = await _read(client, resources.uri(site, "template", key))
        short = await _read(client, resources.uri(site, "template", template_id(key)))
        report = await _read(client, resources.uri(site, "report"))
    assert resources.uri(site) in [str(r.uri) for r in listed]
    assert [f.name for f in forms] == ["summary", "page", "html", "template", "report"]
    assert summary.mime_type == "application/json"
    assert json.loads(summary.text) == jsonable(q.get_summary(site))
    assert json.loads(page.text) == jsonable(q.get_page_detail(site, url=A))
    assert (html.mime_type, html.text) == ("text/html", HTML_A)
    expected = q.get_template_cluster(site, key=key, limit=resources.TEMPLATE_PAGES)
    assert expected is not None and json.loads(template.text)["total"] == expected["total"]
    assert json.loads(short.text) == json.loads(template.text)   # its id names it too
    assert report.mime_type == "text/html" and report.text.startswith("<!doctype html>")
    assert "Site audit: " in report.text


async def test_a_cut_page_points_at_its_whole_html(root: Path, site: Path) -> None:
    async with Client(params("--root", str(root))) as client:
        cut = await client.call_tool("get_page_html", {"archive": str(site), "url": A,
                                                       "maxLength": 5})
        whole = await client.call_tool("get_page_html", {"archive": str(site), "url": A})
        links = [c for c in cut.content if isinstance(c, ResourceLink)]
        assert len(links) == 1 and links[0].mime_type == "text/html"
        read = await _read(client, str(links[0].uri))
    assert cut.structured_content is not None and cut.structured_content["truncated"]
    assert read.text == HTML_A   # the whole of what the tool cut
    assert not [c for c in whole.content if isinstance(c, ResourceLink)]   # nothing cut


async def test_what_cannot_be_read_is_one_line(root: Path, site: Path,
                                               tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.nitpicker"
    outside.write_bytes(site.read_bytes())
    async with Client(params("--root", str(root))) as client:
        for uri, code, message in (
                ("https://example.com/", None, "Not a nitpicker resource"),
                (resources.uri(site) + "/pages/x", None, "after the archive"),
                (resources.uri(site, "page", "http://localhost/none"), -32002,
                 "No page 'http://localhost/none'"),
                (resources.uri(site, "template", "nope"), -32002, "No template cluster"),
                (resources.uri(outside), None, "outside the allowed")):
            with pytest.raises(MCPError) as caught:
                await client.read_resource(uri)
            text = str(caught.value)
            assert message in text and "\n" not in text, (uri, text)
            assert str(tmp_path) not in text
            if code is not None:
                assert caught.value.error.code == code


async def test_lists_carry_cache_hints_in_the_2026_protocol(root: Path, site: Path) -> None:
    """2026-07-28's freshness hints: an hour for what the server's code fixes (its tools,
    prompts, resource forms), ten seconds for the archives under the roots, none for what
    an archive holds (a live crawl writes it); private, as the answers depend on the roots."""
    async with Client(params("--root", str(root)), mode="auto") as client:
        tools = await client.list_tools(cache_mode="refresh")
        prompts = await client.list_prompts(cache_mode="refresh")
        listed = await client.list_resources(cache_mode="refresh")
        read = await client.read_resource(resources.uri(site))
    assert (tools.ttl_ms, tools.cache_scope) == (3_600_000, "private")
    assert (prompts.ttl_ms, prompts.cache_scope) == (3_600_000, "private")
    assert (listed.ttl_ms, read.ttl_ms) == (10_000, 0)


async def test_template_clusters_are_compact_for_an_assistant(root: Path, site: Path) -> None:
    """get_template_clusters over MCP leaves each template's reasons out (most of its bytes)
    and lists three pages, unless asked; the CLI's default keeps them (both directions)."""
    import json as _json

    full = q.get_template_clusters(site)
    assert all("reasons" in i for i in full["items"])
    async with Client(params("--root", str(root))) as client:
        compact = await client.call_tool("get_template_clusters", {"archive": str(site)})
        asked = await client.call_tool("get_template_clusters", {"archive": str(site),
                                                                 "reasons": True})
    small, large = compact.structured_content, asked.structured_content
    assert small is not None and large is not None
    assert [i["key"] for i in small["items"]] == [i["key"] for i in full["items"]]
    assert not any("reasons" in i for i in small["items"])
    assert all(len(i["samplePages"]) <= 3 for i in small["items"])
    assert [i["reasons"] for i in large["items"]] == [
        _json.loads(_json.dumps(i["reasons"])) for i in full["items"]]
