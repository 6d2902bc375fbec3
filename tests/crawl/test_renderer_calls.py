"""A browser call cut short leaves nothing for asyncio to print at exit.

CI's rendered hostile crawl printed a ``Task exception was never retrieved``
traceback on stderr: a page's ``evaluate``, cancelled with its render, ended with
the tab's own error instead of as cancelled, and nobody read it. The user sees a
traceback after a crawl that went well. These tests play that call with a
coroutine that answers cancellation with an error, as Playwright's does.
"""
from __future__ import annotations

import asyncio
import contextlib
import gc
from typing import Any

from nitpicker_crawl.fetch.renderer import _owned


async def _closes_on_cancel() -> None:
    try:
        await asyncio.sleep(30)
    except asyncio.CancelledError:
        raise RuntimeError("Target page, context or browser has been closed") from None


def _unread_errors(wrap: bool) -> list[str]:
    seen: list[str] = []

    async def main() -> None:
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(lambda _loop, context: seen.append(context["message"]))
        async def render() -> None:
            call = _owned(_closes_on_cancel()) if wrap else _closes_on_cancel()
            await asyncio.wait_for(call, timeout=10)

        # the render is cancelled (the tab crashed, or its overall deadline passed)
        # while the call waits: wait_for cancels the call and does not read it
        task = asyncio.ensure_future(render())
        await asyncio.sleep(0.05)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, RuntimeError):
            await task
        await asyncio.sleep(0.05)
        gc.collect()

    asyncio.run(main())
    gc.collect()
    return seen


def test_a_call_cancelled_with_its_render_prints_nothing() -> None:
    assert _unread_errors(wrap=True) == []


def test_without_it_asyncio_reports_the_unread_error() -> None:
    # the other direction: the situation is real, not a test that cannot fail
    assert any("never retrieved" in message for message in _unread_errors(wrap=False))


def test_the_call_still_gives_its_answer() -> None:
    async def answer() -> Any:
        return await asyncio.wait_for(_owned(asyncio.sleep(0, result=42)), timeout=1)

    assert asyncio.run(answer()) == 42
