"""Every hostile case of ``corpora/hostile_archives.py`` through ``nitpicker-query`` and
``nitpicker-mcp`` (issue 14): an answer or one clear line, the right exit code or
``isError``, no traceback, the input byte-identical, nothing written beside it, every
result under 40,000 characters, and each case within a time limit."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters

from corpora.hostile_archives import ANSI, Case, build

pytestmark = pytest.mark.anyio
QUERY = str(Path(sys.executable).with_name("nitpicker-query"))
SERVER = str(Path(sys.executable).with_name("nitpicker-mcp"))
CASE_SECONDS = 30.0
MAX_CHARS = 40_000


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Case]]:
    directory = tmp_path_factory.mktemp("hostile")
    return directory, build(directory)


def _tree(directory: Path) -> dict[str, str]:
    """Every regular file under ``directory`` → SHA-256 (FIFOs are not read)."""
    out = {}
    for dirpath, _, files in os.walk(directory):
        for name in files:
            path = Path(dirpath) / name
            if path.is_file() and not path.is_symlink():
                out[str(path.relative_to(directory))] = hashlib.sha256(
                    path.read_bytes()).hexdigest()
    return out


def _strict_json(text: str) -> Any:
    def refuse(constant: str) -> Any:
        raise ValueError(f"{constant} is not JSON")
    return json.loads(text, parse_constant=refuse)


def test_the_corpus_is_large_enough(corpus: tuple[Path, list[Case]]) -> None:
    _, cases = corpus
    assert len(cases) + len(ARGUMENT_CASES) + len(PROTOCOL_CASES) >= 60
    assert len({c.name for c in cases}) == len(cases)


def _cli_case(case: Case) -> str | None:
    """One case through ``nitpicker-query``: what is wrong with its answer, or None."""
    sub, *flags = case.cli
    argv = [QUERY, sub, str(case.archive), *flags]
    if "--format" not in flags:
        argv += ["--format", "json"]
    started = time.monotonic()
    try:
        r = subprocess.run(argv, capture_output=True, text=True, timeout=CASE_SECONDS,
                           errors="replace")
    except subprocess.TimeoutExpired:
        return f"{case.name}: no answer within {CASE_SECONDS:g} s"
    took = time.monotonic() - started
    problems = []
    expected = case.cli_error or case.error
    if expected is not None:
        if r.returncode != 1:
            problems.append(f"exit {r.returncode}, expected 1")
        if expected not in r.stderr:
            problems.append(f"stderr lacks {expected!r}")
        if len(r.stderr.strip().splitlines()) != 1:
            problems.append("not one line")
    elif r.returncode != 0:
        problems.append(f"exit {r.returncode}")
    elif "--format" not in flags:
        try:
            _strict_json(r.stdout)
        except ValueError as exc:
            problems.append(f"invalid JSON: {exc}")
    for stream, text in (("stderr", r.stderr), ("stdout", r.stdout)):
        if "\x1b" in text or ("\x07" in text):
            problems.append(f"raw control characters on {stream}")
    if "Traceback" in r.stderr or "internal error" in r.stderr:
        problems.append("internal error")
    if problems:
        return (f"{case.name} ({took:.1f} s): {'; '.join(problems)}: "
                f"{r.stderr.strip()[:300]!r}")
    return None


@pytest.mark.slow  # a process per case: 45 s (the library-level tests stay quick)
def test_every_case_through_the_cli(corpus: tuple[Path, list[Case]]) -> None:
    directory, cases = corpus
    before = _tree(directory)
    runnable = [c for c in cases if "\x00" not in str(c.archive)]  # no process gets a NUL
    with ThreadPoolExecutor(max_workers=2) as pool:  # each case a process of its own
        failures = [f for f in pool.map(_cli_case, runnable) if f is not None]
    assert not failures, "\n".join(failures)
    assert _tree(directory) == before  # every input byte-identical, nothing written beside


def _mcp(root: Path, *extra: str) -> StdioServerParameters:
    env = {"NITPICKER_PY_CACHE_DIR": os.environ["NITPICKER_PY_CACHE_DIR"]}
    return StdioServerParameters(command=SERVER, args=["--root", str(root), *extra], env=env)


async def test_every_case_through_the_mcp_server(corpus: tuple[Path, list[Case]]) -> None:
    directory, cases = corpus
    before = _tree(directory)
    failures: list[str] = []
    async with Client(_mcp(directory)) as client:
        for case in cases:
            if not case.mcp:
                continue
            arguments = {"archive": str(case.archive), **case.arguments}
            started = time.monotonic()
            result = await client.call_tool(case.tool, arguments)
            took = time.monotonic() - started
            text = result.content[0].text if result.content else ""  # type: ignore[union-attr]
            problems = []
            if took > CASE_SECONDS:
                problems.append(f"took {took:.1f} s")
            if case.error is not None:
                if not result.is_error:
                    problems.append("answered, expected an error")
                elif case.error not in text:
                    problems.append(f"error lacks {case.error!r}")
                if "\n" in text:
                    problems.append("not one line")
            elif result.is_error:
                problems.append("error, expected an answer")
            if result.is_error and "Internal error" in text:
                problems.append("internal error")
            if "\x1b" in text:
                problems.append("raw control characters in the error")
            if result.structured_content is not None:
                size = len(json.dumps(result.structured_content, ensure_ascii=False))
                if size >= MAX_CHARS:
                    problems.append(f"{size} characters")
                if isinstance(result.structured_content.get("nextOffset"), int):
                    page = result.structured_content
                    if page["nextOffset"] <= page["offset"] or not page["items"]:
                        problems.append("a page that makes no progress")
                if case.check is not None:
                    try:
                        case.check(result.structured_content)
                    except AssertionError as exc:
                        problems.append(f"check failed: {exc}")
            if problems:
                failures.append(f"{case.name}: {'; '.join(problems)}: {text[:300]!r}")
    assert not failures, "\n".join(failures)
    assert _tree(directory) == before


# ------------------------------------------------------------------ MCP arguments and roots

ARGUMENT_CASES: list[tuple[str, str, dict[str, Any], str | None]] = [
    ("limit 2**63", "list_pages", {"limit": 2**63}, "maximum"),
    ("offset 2**63", "list_pages", {"offset": 2**63}, "maximum"),
    ("status 2**40", "list_pages", {"status": 2**40}, "maximum"),
    ("limit 5.0 is 5", "list_pages", {"limit": 5.0}, None),
    ("limit as a string", "list_pages", {"limit": "5"}, "is not of type"),
    ("negative offset", "list_pages", {"offset": -1}, "minimum"),
    ("LIKE pattern of 60,000 characters", "list_pages", {"urlPattern": "%" * 60_000},
     "is too long"),
    ("a 1 MB URL", "get_page_detail", {"url": "x" * 1_000_000}, "is too long"),
    ("unknown argument", "list_pages", {"nope": 1}, "Additional properties"),
    ("wrong enum", "list_links", {"type": "dead"}, "is not one of"),
    ("missing required url", "get_page_detail", {}, "'url' is a required property"),
    ("NUL in a URL", "get_page_detail", {"url": "http://x/\x00"}, "No page with URL"),
    ("control characters in a URL", "get_page_detail", {"url": ANSI}, "No page with URL"),
]


@pytest.fixture(scope="module")
def rooted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path, Path]]:
    """``root/`` with a good archive, and ``outside/`` with one the roots do not cover."""
    from corpora.fixture_archives import build_pre013

    base = tmp_path_factory.mktemp("rooted")
    root, outside = base / "root", base / "outside"
    root.mkdir()
    outside.mkdir()
    good = build_pre013(root, extended=True, name="good")
    secret = build_pre013(outside, extended=True, name="secret")
    yield root, good, secret


async def test_hostile_arguments_and_paths(rooted: tuple[Path, Path, Path]) -> None:
    root, good, secret = rooted
    (root / "link.nitpicker").symlink_to(secret)
    crawl = root / "crawl"
    crawl.mkdir()
    (crawl / "db.sqlite").symlink_to(secret)  # not a real crawl: a pointer outside
    fifo = root / "hang.nitpicker"
    if not fifo.exists():
        os.mkfifo(fifo)
    calls: list[tuple[str, str, dict[str, Any], str | None]] = [
        (name, tool, {"archive": str(good), **args}, error)
        for name, tool, args, error in ARGUMENT_CASES]
    calls += [
        ("outside the roots", "get_summary", {"archive": str(secret)}, "outside the allowed"),
        ("'..' out of the root", "get_summary",
         {"archive": str(root / ".." / "outside" / secret.name)}, "outside the allowed"),
        ("a symlink pointing outside", "get_summary", {"archive": str(root / "link.nitpicker")},
         "outside the allowed"),
        ("db.sqlite symlinked outside", "get_summary", {"archive": str(crawl)},
         "points outside"),
        ("NUL in the archive path", "get_summary", {"archive": str(good) + "\x00x"},
         "contains a NUL byte"),
        ("a FIFO", "get_summary", {"archive": str(fifo)}, "Not a regular file"),
    ]
    failures = []
    async with Client(_mcp(root)) as client:
        for name, tool, arguments, error in calls:
            started = time.monotonic()
            result = await client.call_tool(tool, arguments)
            text = result.content[0].text if result.content else ""  # type: ignore[union-attr]
            ok = (result.is_error and error is not None and error in text) or (
                not result.is_error and error is None)
            if not ok or "Internal error" in text or "\x1b" in text or (
                    result.is_error and len(text) > 1_000) or (
                    time.monotonic() - started > CASE_SECONDS):
                failures.append(f"{name}: is_error={result.is_error} {text[:300]!r}")
        (root / "broken.nitpicker").write_text("not a tar")  # one bad item, not a failure
        listed = await client.call_tool("list_archives", {"limit": 1})
        assert not listed.is_error, listed.content
        page = listed.structured_content
        assert page is not None and page["total"] == 2 and page["nextOffset"] == 1
        assert "expected an uncompressed tar" in page["items"][0]["error"]
        rest = await client.call_tool("list_archives", {"limit": 1, "offset": 1})
        assert rest.structured_content is not None
        # the link, the FIFO and the crawl directory pointing outside are not listed
        assert [i["archive"] for i in rest.structured_content["items"]] == [str(good)]
    assert not failures, "\n".join(failures)


# ------------------------------------------------------------------ raw JSON-RPC

PROTOCOL_CASES: list[tuple[str, bytes]] = [
    ("not JSON", b"{nope\n"),
    ("a lone surrogate", b'{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": '
     b'{"name": "get_summary", "arguments": {"archive": "\\ud800"}}}\n'),
    ("a 5,000-digit integer", b'{"jsonrpc": "2.0", "id": 8, "method": "ping", "params": '
     b'{"n": ' + b"9" * 5000 + b"}}\n"),
    ("not an object", b"[1, 2, 3]\n"),
    ("a request without a method", b'{"jsonrpc": "2.0", "id": 9}\n'),
]


def test_every_malformed_request_gets_a_json_rpc_answer(rooted: tuple[Path, Path, Path]
                                                        ) -> None:
    root, _, _ = rooted
    init = (b'{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {'
            b'"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": '
            b'{"name": "t", "version": "1"}}}\n'
            b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')
    lines = b"".join(line for _, line in PROTOCOL_CASES)
    ping = b'{"jsonrpc": "2.0", "id": 99, "method": "ping"}\n'
    env = {**os.environ}
    r = subprocess.run([SERVER, "--root", str(root)], input=init + lines + ping,
                       capture_output=True, timeout=60, env=env)
    answers = [json.loads(line) for line in r.stdout.splitlines() if line.strip()]
    errors = [a for a in answers if "error" in a]
    assert len(errors) == len(PROTOCOL_CASES), answers
    assert all(isinstance(a["error"].get("code"), int) for a in errors)
    assert any(a.get("id") == 99 and "result" in a for a in answers)  # still serving
    assert b"Traceback" not in r.stderr
