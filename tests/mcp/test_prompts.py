"""Prompts and completions (issue 43, item 1) over real stdio: ``nitpicker-mcp`` spawned
and spoken to by the SDK's client in both protocol eras — the audits listed with their
arguments, a plan carrying the archive's own figures, every argument completed from what
is there (and nothing from what is not), and wrong arguments answered in one line."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp.types import PromptReference, TextContent

import nitpicker_query as q
from nitpicker_mcp.prompts import PROMPTS
from tests.mcp.test_stdio import params

pytestmark = pytest.mark.anyio
MODES = ["legacy", "auto"]


@pytest.mark.parametrize("mode", MODES)
async def test_the_audits_are_listed_with_their_arguments(root: Path, mode: str) -> None:
    async with Client(params("--root", str(root)), mode=mode) as client:
        listed = (await client.list_prompts()).prompts
    assert [p.name for p in listed] == [p.name for p in PROMPTS]
    by_name = {p.name: p for p in listed}
    assert [(a.name, a.required) for a in by_name["what_changed"].arguments or []] == [
        ("archive", True), ("old", True)]
    assert [(a.name, a.required) for a in by_name["accessibility_findings"].arguments
            or []] == [("archive", True), ("validator", False)]
    assert all(p.description and p.title for p in listed)


async def test_a_plan_names_the_tools_and_carries_the_archives_figures(
        root: Path, site: Path) -> None:
    summary = q.get_summary(site)
    async with Client(params("--root", str(root))) as client:
        got = await client.get_prompt("audit_site", {"archive": str(site)})
        changed = await client.get_prompt("what_changed", {"archive": str(site),
                                                           "old": str(site)})
    content = got.messages[0].content
    assert got.messages[0].role == "user" and isinstance(content, TextContent)
    text = content.text
    for tool in ("get_summary", "list_links", "find_duplicates", "list_dedupe_cap_events",
                 "get_template_clusters", "get_violations"):
        assert tool in text, tool
    html_pages = summary["totals"]["htmlPages"]
    assert f"{html_pages:,} HTML pages of {summary['totals']['urls']:,} URLs" in text
    assert summary["baseUrl"] in text and "never analysed" in text
    other = changed.messages[0].content
    assert isinstance(other, TextContent) and "compare_archives" in other.text


async def test_wrong_arguments_are_one_line(root: Path, site: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.nitpicker"
    outside.write_bytes(site.read_bytes())
    async with Client(params("--root", str(root))) as client:
        for name, arguments, message in (
                ("nope", {"archive": str(site)}, "Unknown prompt 'nope'"),
                ("review_page", {"archive": str(site)}, "review_page needs url."),
                ("audit_site", {"archive": str(outside)}, "outside the allowed"),
                ("audit_site", {"archive": "missing.nitpicker"}, "No archive 'missing.nitpicker'")):
            with pytest.raises(MCPError) as caught:
                await client.get_prompt(name, arguments)
            text = str(caught.value)
            assert message in text and "\n" not in text, (name, text)
            assert str(tmp_path) not in text   # absolute paths are masked


async def test_arguments_are_completed_from_what_is_there(root: Path, site: Path) -> None:
    ref = PromptReference(type="ref/prompt", name="review_page")
    urls = [i["url"] for i in q.list_pages(site, url_pattern="http://localhost/%",
                                           limit=100)["items"]]
    assert len(urls) >= 2
    async with Client(params("--root", str(root))) as client:
        archives = (await client.complete(ref, {"name": "archive", "value": "site"})).completion
        found = (await client.complete(ref, {"name": "url", "value": "http://localhost/"},
                                       {"archive": str(site)})).completion
        one = (await client.complete(ref, {"name": "url", "value": urls[0]},
                                     {"archive": str(site)})).completion
        none = (await client.complete(ref, {"name": "url", "value": "https://elsewhere/"},
                                      {"archive": str(site)})).completion
        unread = (await client.complete(ref, {"name": "url", "value": "http"},
                                        {"archive": "missing.nitpicker"})).completion
        validators = (await client.complete(
            PromptReference(type="ref/prompt", name="accessibility_findings"),
            {"name": "validator", "value": ""}, {"archive": str(site)})).completion
    assert str(site) in archives.values
    assert all(Path(v).name.startswith("site") for v in archives.values)
    assert found.values == urls and found.total == len(urls)
    assert one.values[0] == urls[0]
    assert none.values == [] and unread.values == []   # a suggestion, never an error
    assert validators.values == []   # the fixture was never analysed


async def test_a_template_key_completes_to_its_short_id_once_the_templates_are_at_hand(
        root: Path, site: Path, tmp_path: Path) -> None:
    """review_template's key completes to ids (12 characters an assistant carries back
    instead of a JSON key), from the id or the key typed so far — and not before the
    archive's templates exist: a completion never starts their computation."""
    copy = tmp_path / "fresh.nitpicker"   # its own cache key: never clustered by any test
    copy.write_bytes(site.read_bytes())
    copy.touch()
    ref = PromptReference(type="ref/prompt", name="review_template")
    async with Client(params("--root", str(tmp_path))) as client:
        before = (await client.complete(ref, {"name": "key", "value": ""},
                                        {"archive": str(copy)})).completion
        listed = await client.call_tool("get_template_clusters", {"archive": str(copy)})
        items = (listed.structured_content or {})["items"]
        ids = (await client.complete(ref, {"name": "key", "value": "t-"},
                                     {"archive": str(copy)})).completion
        by_key = (await client.complete(ref, {"name": "key", "value": items[0]["key"][:8]},
                                        {"archive": str(copy)})).completion
        none = (await client.complete(ref, {"name": "key", "value": "zz"},
                                      {"archive": str(copy)})).completion
        reviewed = await client.get_prompt("review_template", {"archive": str(copy),
                                                               "key": ids.values[0]})
        cluster = await client.call_tool("get_template_cluster", {"archive": str(copy),
                                                                  "key": ids.values[0]})
    assert before.values == []
    assert ids.values == [i["id"] for i in items]
    assert items[0]["id"] in by_key.values and none.values == []
    assert ids.values[0] in reviewed.messages[0].content.text  # type: ignore[union-attr]
    assert (cluster.structured_content or {})["key"] == items[0]["key"]
