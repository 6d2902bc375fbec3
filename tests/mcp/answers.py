"""One call of every MCP tool with its default options on any archive, and what each answer
weighs: the size budget of issue 43 (an answer fits an assistant's context), held by
``tests/mcp/test_answer_budget.py`` on a crawl and measured by ``bench/mcp_answers.py`` on
the 300,000-page benchmark archive.

Each tool gets only the arguments it requires, taken from the archive itself — its page
with the most links, its most referenced resource, its biggest duplicate and template
clusters — so the answer is as large as that archive makes it, not a fixture's.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcp import Client

import nitpicker_query as q
from nitpicker_mcp.server import MAX_STRUCTURED_CHARS
from nitpicker_mcp.tools import TOOLS

BUDGET = 2 * MAX_STRUCTURED_CHARS + 4_096
"""Most characters of one tool result as an assistant receives it: the structured JSON
(the server's bound, 40,000) and its text copy, plus the envelope's room."""


@dataclass(frozen=True)
class Answer:
    tool: str
    chars: int          # structured JSON and text content, as sent
    error: str | None   # the one line of an error result
    cut: bool           # a list left items for nextOffset, or HTML marked truncated
    seconds: float


def calls_for(archive: Path, old: Path | None = None) -> list[tuple[str, dict[str, Any]]]:
    """Every tool's call on ``archive`` with its required arguments only (``old``: the
    older crawl compare_archives is given, the archive itself when None)."""
    s = str(archive)
    with q.open_archive(archive) as a:
        url = a.execute(
            "SELECT p.url FROM pages p JOIN anchors x ON x.pageId = p.id WHERE p.status = 200 "
            "GROUP BY p.id ORDER BY count(*) DESC, p.id LIMIT 1").fetchone()
        url = url[0] if url else a.execute("SELECT url FROM pages LIMIT 1").fetchone()[0]
        resources = q.list_resources(a, limit=1)["items"]
        resource = resources[0]["url"] if resources else url
        clusters = q.get_duplicate_clusters(a, min_count=2, limit=1)["items"]
        signature = clusters[0]["signature"] if clusters else "0" * 40
        isolated = q.list_isolated_clusters(a, limit=1)["items"]
        representative = isolated[0]["representativeUrl"] if isolated else url
        tags = q.get_tag_inventory(a, limit=1)["items"]
        provider = tags[0]["provider"] if tags else "WordPress"
    templates = q.get_template_clusters(archive, reasons=False, limit=1)["items"]
    template = templates[0]["id"] if templates else "t-0000000000"
    calls: list[tuple[str, dict[str, Any]]] = [
        ("list_archives", {}), ("open_archive", {"archive": s}),
        ("get_summary", {"archive": s}), ("list_pages", {"archive": s}),
        ("get_page_detail", {"archive": s, "url": url}),
        ("get_page_html", {"archive": s, "url": url}), ("find_duplicates", {"archive": s}),
        ("find_mismatches", {"archive": s, "type": "canonical"}),
        ("list_links", {"archive": s, "type": "broken"}), ("list_resources", {"archive": s}),
        ("get_resource_referrers", {"archive": s, "resourceUrl": resource}),
        ("list_images", {"archive": s}), ("check_headers", {"archive": s}),
        ("get_duplicate_clusters", {"archive": s}),
        ("get_duplicate_cluster", {"archive": s, "signature": signature}),
        ("list_dedupe_cap_events", {"archive": s}),
        ("get_template_clusters", {"archive": s}),
        ("get_template_cluster", {"archive": s, "key": template}),
        ("list_inbound_links", {"archive": s, "url": url}),
        ("list_pages_by_jsonld_type", {"archive": s, "type": "WebPage"}),
        ("count_pages_by_jsonld_type", {"archive": s, "type": "WebPage"}),
        ("get_page_jsonld", {"archive": s, "url": url}),
        ("get_page_jsonld_overview", {"archive": s, "url": url}),
        ("list_pages_by_tag", {"archive": s, "provider": provider}),
        ("count_pages_by_tag", {"archive": s, "provider": provider}),
        ("get_tag_inventory", {"archive": s}), ("get_page_tags", {"archive": s, "url": url}),
        ("get_violations", {"archive": s}), ("find_duplicate_bodies", {"archive": s}),
        ("find_duplicate_clusters", {"archive": s}),
        ("list_isolated_pages", {"archive": s}), ("list_isolated_clusters", {"archive": s}),
        ("get_isolated_cluster", {"archive": s, "representativeUrl": representative}),
        ("list_network_outages", {"archive": s}), ("list_console_logs", {"archive": s}),
        ("list_browser_outages", {"archive": s}),
        ("get_page_console_logs", {"archive": s, "url": url}),
        ("get_page_main_contents", {"archive": s, "url": url}),
        ("list_unused_resources", {"archive": s}),
        ("compare_archives", {"archive": s, "old": str(old or archive)}),
        ("find_near_duplicates", {"archive": s}),
        ("get_near_duplicates", {"archive": s, "url": url}),
        ("list_link_score", {"archive": s}), ("list_resource_hosts", {"archive": s}),
        ("list_pages_by_resource", {"archive": s, "resourcePattern": "%.css"}),
        ("match_urls", {"archive": s, "urls": url}),
        ("search_html", {"archive": s, "pattern": "/<a /i"}),
        ("match_selector", {"archive": s, "selector": "a[href]"}),
        ("match_xpath", {"archive": s, "xpath": "//a/@href"}),
    ]
    missing = {t.name for t in TOOLS} - {n for n, _ in calls}
    assert not missing, f"tools without a call: {sorted(missing)}"
    return calls


def _cut(value: Any) -> bool:
    return isinstance(value, dict) and (value.get("nextOffset") is not None
                                        or bool(value.get("truncated")))


async def weigh(client: Client, calls: list[tuple[str, dict[str, Any]]]) -> list[Answer]:
    """Each call made in turn on a connected client, and its answer's weight."""
    answers = []
    for name, arguments in calls:
        started = time.perf_counter()
        result = await client.call_tool(name, arguments)
        seconds = time.perf_counter() - started
        text = "".join(getattr(c, "text", "") for c in result.content)
        structured = json.dumps(result.structured_content, ensure_ascii=False) \
            if result.structured_content is not None else ""
        answers.append(Answer(name, len(text) + len(structured),
                              text if result.is_error else None,
                              _cut(result.structured_content), seconds))
    return answers
