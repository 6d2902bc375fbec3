"""Filters added for the viewer (issue 10), usable everywhere: links grouped by
destination, skipped URLs by reason, and the URLs one cap event refused."""

from __future__ import annotations

from collections import defaultdict

import nitpicker_query as q
from tests.crawl.conftest import Crawl


def test_links_by_destination_agree_with_the_anchor_list(plain_crawl: Crawl) -> None:
    a = plain_crawl.archive
    for kind in ("broken", "external"):
        anchors = q.list_links(a, type=kind, limit=1000)["items"]
        sources: dict[str, set[str]] = defaultdict(set)
        links: dict[str, int] = defaultdict(int)
        for item in anchors:
            sources[item["destUrl"]].add(item["sourceUrl"])
            links[item["destUrl"]] += 1
        grouped = q.list_links(a, type=kind, by_destination=True, limit=1000)
        assert grouped["total"] == len(sources) > 0
        assert {i["destUrl"]: (i["referrerCount"], i["linkCount"]) for i in grouped["items"]} \
            == {d: (len(s), links[d]) for d, s in sources.items()}
        counts = [i["referrerCount"] for i in grouped["items"]]
        assert counts == sorted(counts, reverse=True)  # most referred first
        page = q.list_links(a, type=kind, by_destination=True, limit=1, offset=1)
        assert page["items"] == grouped["items"][1:2]


def test_skip_reason_and_cap_event(capped_plain: Crawl) -> None:
    a = capped_plain.archive
    skipped = q.list_pages(a, skipped="only", limit=1000)["items"]
    reasons = {i["skipReason"] for i in skipped}
    assert "dedupe-cap" in reasons and len(reasons) > 1  # robots.txt, nofollow … too
    for reason in reasons:
        only = q.list_pages(a, skip_reason=reason, limit=1000)
        assert only["total"] == sum(1 for i in skipped if i["skipReason"] == reason)
        assert {i["skipReason"] for i in only["items"]} == {reason}
    assert q.list_pages(a, skip_reason="no such reason")["total"] == 0
    events = q.list_dedupe_cap_events(a)["items"]
    refused_total = 0
    for event in events:
        refused = q.list_pages(a, cap_event=event["id"], limit=1000)
        assert refused["total"] == event["rejectedCount"]
        assert {i["skipReason"] for i in refused["items"]} <= {"dedupe-cap"}
        refused_total += refused["total"]
    assert refused_total == q.list_pages(a, skip_reason="dedupe-cap")["total"] > 0
    assert q.list_pages(a, cap_event=10_000)["total"] == 0
