"""stdio for the MCP server, answering every request — even the malformed ones.

The SDK's ``stdio_server`` (mcp 2.x, ``mcp/server/stdio.py``, ``stdin_reader``) hands a
line that fails to parse or validate to the session as an exception, and the session
drops it: a client that sent a lone surrogate, a 5,000-digit integer or a request with no
method waits for ever. JSON-RPC 2.0 says each gets an error answer. So the lines are
checked here first: a good line goes on to the SDK unchanged, a bad one is answered here
(``-32700`` parse error, ``-32600`` invalid request) with the request's id when one can
be read. Both writers share one lock, so an answer never lands inside another.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from io import TextIOWrapper
from typing import Any

import anyio
import mcp_types
from mcp.server.stdio import stdio_server

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
_ID = re.compile(r'"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")')


class _LockedWriter:
    """The stdout both the SDK and :class:`_CheckedLines` write whole lines to."""

    def __init__(self, target: Any) -> None:
        self._target = target
        self._lock = anyio.Lock()

    async def write(self, text: str) -> None:
        async with self._lock:
            await self._target.write(text)
            await self._target.flush()

    async def flush(self) -> None:
        return None  # every write flushes under the lock


def problem(line: str) -> tuple[int, str, Any] | None:
    """``(code, message, id)`` when ``line`` is not a JSON-RPC message the SDK accepts."""
    ident = _readable_id(line)
    try:
        data = json.loads(line)
    except (ValueError, RecursionError) as exc:
        return PARSE_ERROR, f"Parse error: {str(exc)[:200]}", ident
    if not isinstance(data, dict):
        return INVALID_REQUEST, "Invalid Request: not a JSON object", None
    ident = data.get("id") if isinstance(data.get("id"), int | str) else ident
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return INVALID_REQUEST, "Invalid Request: a string holds a lone surrogate", ident
    try:
        mcp_types.jsonrpc_message_adapter.validate_json(line, by_name=False)
    except Exception as exc:  # pydantic's ValidationError, or anything it raises
        first = str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
        return INVALID_REQUEST, f"Invalid Request: {first}", ident
    return None


def _readable_id(line: str) -> Any:
    match = _ID.search(line)
    if match is None:
        return None
    try:
        return json.loads(match.group(1))
    except ValueError:
        return None


class _CheckedLines:
    """stdin as the SDK reads it, without the lines that :func:`problem` answers."""

    def __init__(self, source: Any, out: _LockedWriter) -> None:
        self._source = source
        self._out = out

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        async for line in self._source:
            if not line.strip():
                continue
            found = problem(line)
            if found is None:
                yield line
                continue
            code, message, ident = found
            answer = {"jsonrpc": "2.0", "id": ident, "error": {"code": code,
                                                               "message": message}}
            await self._out.write(json.dumps(answer, ensure_ascii=True) + "\n")


@asynccontextmanager
async def checked_stdio() -> AsyncIterator[tuple[Any, Any]]:
    """``stdio_server()`` over checked stdin and a locked stdout."""
    stdin = anyio.wrap_file(TextIOWrapper(sys.stdin.buffer, encoding="utf-8",
                                          errors="replace"))
    stdout = _LockedWriter(anyio.wrap_file(TextIOWrapper(sys.stdout.buffer,
                                                         encoding="utf-8")))
    async with stdio_server(stdin=_CheckedLines(stdin, stdout),  # type: ignore[arg-type]
                            stdout=stdout) as streams:  # type: ignore[arg-type]
        yield streams
