"""Crawling from the assistant (issue 43, item 4), over real stdio: ``nitpicker-mcp
--allow-crawl DIR`` spawned as a host spawns it, a scripted assistant session (no LLM)
that starts a crawl of a local trap site, follows it to its end, and audits the archive
through the read-only tools; a crawl stopped as Ctrl-C stops one; a crawl that outlives
its client; and without the flag nothing can write."""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

import nitpicker_query as q
from nitpicker_crawl.trapzoo import TrapZoo
from tests.mcp.test_stdio import params

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def zoo() -> Iterator[TrapZoo]:
    with TrapZoo() as site:
        yield site


async def _call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content[0].text  # type: ignore[union-attr]
    assert result.structured_content is not None
    return result.structured_content


async def _until_ended(client: Client, name: str, limit: float = 240) -> dict[str, Any]:
    deadline = time.monotonic() + limit
    while True:
        status = await _call(client, "crawl_status", name=name)
        if status["state"] != "running" or time.monotonic() > deadline:
            return status
        await anyio.sleep(0.5)


async def test_an_assistant_crawls_follows_and_audits(zoo: TrapZoo, tmp_path: Path) -> None:
    async with Client(params("--allow-crawl", str(tmp_path))) as client:
        names = [t.name for t in (await client.list_tools()).tools]
        assert {"start_crawl", "crawl_status", "stop_crawl"} <= set(names)
        started = await _call(client, "start_crawl", url=zoo.url, name="zoo", render=False,
                              parallels=2)
        assert started["state"] == "running" and started["archive"] == "zoo.nitpicker"
        assert "--dedupe-cap=100" in started["command"]   # the soft cap on by default
        heard: list[tuple[float, float | None, str | None]] = []

        async def on_progress(done: float, total: float | None, message: str | None) -> None:
            heard.append((done, total, message))

        # followed as a host follows it: one call waiting for the end, progress meanwhile
        followed = await client.call_tool("crawl_status", {"name": "zoo", "wait": 240},
                                          progress_callback=on_progress)
        assert not followed.is_error and followed.structured_content is not None
        status = followed.structured_content
        assert status["state"] == "finished" and status["exitCode"] == 0, status
        assert len(heard) >= 2, heard   # the crawl is seen to move, not only its end
        assert all(b[0] > a[0] for a, b in itertools.pairwise(heard)), heard
        assert all(t is None or d <= t for d, t, _m in heard)
        assert heard[0][2] and heard[0][2].startswith("running: ")
        # the figures in words: while it runs the progress line's, once ended the archive's
        assert all(re.match(r"(running: [\d,]+ URLs done|finished: [\d,]+ URLs in the "
                            r"archive)", m or "") for _d, _t, m in heard), heard
        assert heard[-1][0] == status["urlsDone"]   # the last word is the end's count
        if status["refusedByCap"]:   # the progress line's refusals are the archive's
            assert heard[-1][2].endswith(  # type: ignore[union-attr]
                f", {status['refusedByCap']:,} refused by the soft cap")
        assert await _call(client, "crawl_status", name="zoo") == status   # wait 0: at once
        assert status["archiveWritten"] and status["capEventsTotal"] > 0
        summary = await _call(client, "get_summary", archive="zoo.nitpicker")
        # the crawler's own last progress line and the archive agree
        assert summary["totals"]["htmlPages"] == status["htmlPagesDone"]
        assert summary["totals"]["refusedUrls"] == status["refusedByCap"]
        events = await _call(client, "list_dedupe_cap_events", archive="zoo.nitpicker")
        assert events["total"] > 0
        plan = await client.get_prompt("audit_site", {"archive": "zoo.nitpicker"})
        assert "get_summary" in plan.messages[0].content.text  # type: ignore[union-attr]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["zoo.crawl.log", "zoo.nitpicker"]


@pytest.mark.slow   # a crawl of its own (make test-slow): the session above is the fast one
async def test_stop_is_ctrl_c_the_archive_written(zoo: TrapZoo, tmp_path: Path) -> None:
    async with Client(params("--allow-crawl", str(tmp_path))) as client:
        await _call(client, "start_crawl", url=zoo.url, name="slow", render=False,
                    parallels=1, interval=300)
        await anyio.sleep(3)
        stopped = await _call(client, "stop_crawl", name="slow")
    assert stopped["state"] == "stopped" and stopped["archiveWritten"], stopped
    archive = tmp_path / "slow.nitpicker"
    summary = q.get_summary(archive)
    assert summary["totals"]["urls"] > 0 and summary["crawl"]["stopReason"] != "complete"


@pytest.mark.slow   # a crawl of its own, waited for twice (make test-slow)
async def test_a_crawl_outlives_its_client(zoo: TrapZoo, tmp_path: Path) -> None:
    async with Client(params("--allow-crawl", str(tmp_path))) as client:
        await _call(client, "start_crawl", url=zoo.url, name="alone", render=False)
    # the server has ended with its client; the crawl goes on and writes its archive
    archive = tmp_path / "alone.nitpicker"
    deadline = time.monotonic() + 240
    while not archive.exists() and time.monotonic() < deadline:
        await anyio.sleep(0.5)
    assert archive.exists()
    async with Client(params("--allow-crawl", str(tmp_path))) as client:
        status = await _until_ended(client, "alone")   # a new server finds it by name
    assert status["state"] == "finished" and status["urlsDone"] > 0


async def test_bad_input_and_no_writing_without_the_flag(zoo: TrapZoo, root: Path,
                                                          tmp_path: Path) -> None:
    (tmp_path / "taken.nitpicker").write_bytes(b"an archive of last week")
    async with Client(params("--allow-crawl", str(tmp_path))) as client:
        for arguments, message in (
                ({"url": zoo.url, "name": "../escape"}, "name: letters, digits"),
                ({"url": "ftp://example.com/", "name": "x"}, "url: an http(s) URL"),
                ({"url": zoo.url, "name": "taken"}, "taken.nitpicker exists"),
                ({"url": zoo.url, "name": "x", "dedupeCap": 0}, "dedupeCap")):
            # (an exclude of "--overwrite" is a glob, passed as --exclude=--overwrite)
            result = await client.call_tool("start_crawl", arguments)
            assert result.is_error, arguments
            text = result.content[0].text  # type: ignore[union-attr]
            assert message in text and "\n" not in text, (arguments, text)
        for arguments, message in (({"name": "never"}, "No crawl named 'never'"),
                                   ({"name": "never", "wait": 5}, "No crawl named 'never'"),
                                   ({"name": "x", "wait": 601}, "wait"),
                                   ({"name": "x", "wait": -1}, "wait")):
            result = await client.call_tool("crawl_status", arguments)
            text = result.content[0].text  # type: ignore[union-attr]
            assert result.is_error and message in text and "\n" not in text, (arguments, text)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken.nitpicker"]
    async with Client(params("--root", str(root))) as client:
        names = {t.name for t in (await client.list_tools()).tools}
        refused = await client.call_tool("start_crawl", {"url": zoo.url, "name": "x"})
    assert not names & {"start_crawl", "crawl_status", "stop_crawl"}
    assert refused.is_error and "Unknown tool 'start_crawl'" in \
        refused.content[0].text  # type: ignore[union-attr]


@pytest.mark.slow   # two crawls started and stopped (make test-slow)
async def test_a_third_crawl_at_once_is_refused(zoo: TrapZoo, tmp_path: Path) -> None:
    async with Client(params("--allow-crawl", str(tmp_path))) as client:
        for name in ("one", "two"):
            await _call(client, "start_crawl", url=zoo.url, name=name, render=False,
                        parallels=1, interval=500)
        third = await client.call_tool("start_crawl", {"url": zoo.url, "name": "three"})
        for name in ("one", "two"):
            await _call(client, "stop_crawl", name=name)
    assert third.is_error and "2 crawls are running (one, two)" in \
        third.content[0].text  # type: ignore[union-attr]
    assert not (tmp_path / "three.nitpicker").exists()
