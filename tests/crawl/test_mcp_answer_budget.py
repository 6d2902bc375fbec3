"""Issue 43's size budget: every MCP tool's default answer on a real crawl (TrapZoo, the
soft cap on: hundreds of pages, trap clusters, redirects) fits an assistant's context —
lists paged with nextOffset, HTML cut and linked — over real stdio. The 300,000-page
figures are ``bench/mcp_answers.py``'s (docs/BENCHMARKS.md)."""

from __future__ import annotations

import pytest
from mcp import Client

from tests.crawl.conftest import Crawl
from tests.mcp.answers import BUDGET, calls_for, weigh
from tests.mcp.test_stdio import params

pytestmark = pytest.mark.anyio

ERRORS = {"list_unused_resources": "records no resource any page loaded"}
"""The tools whose answer on this crawl is an error saying what is missing (a
``--no-render`` crawl loads no resource)."""


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_every_tools_default_answer_fits_the_budget(capped_plain: Crawl) -> None:
    calls = calls_for(capped_plain.archive)
    async with Client(params("--root", str(capped_plain.archive.parent))) as client:
        answers = await weigh(client, calls)
    over = [(a.tool, a.chars) for a in answers if a.chars > BUDGET]
    assert not over, over
    errors = {a.tool: a.error for a in answers if a.error is not None}
    assert set(errors) == set(ERRORS), errors
    assert all(ERRORS[t] in (e or "") for t, e in errors.items()), errors
    # the long lists are paged, not cut silently: hundreds of pages, a first page of them
    cut = {a.tool for a in answers if a.cut}
    assert {"list_pages", "check_headers", "search_html", "get_template_cluster"} <= cut, cut
    assert max(a.chars for a in answers) > BUDGET // 8   # the sweep reaches big answers
