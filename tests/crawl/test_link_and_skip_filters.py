"""Filters added for the viewer (issue 10), usable everywhere: links grouped by
destination, skipped URLs by reason, and the URLs one cap event refused."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

import nitpicker_query as q
from nitpicker_crawl.archive import ArchiveWriter
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
    # a reason no URL was skipped for is an error naming the archive's reasons (a typo
    # must not read as "nothing skipped")
    with pytest.raises(q.InvalidArgument, match=r"skipped for 'no such reason'; its skip "
                       r"reasons: 'dedupe-cap' \(\d+\)"):
        q.list_pages(a, skip_reason="no such reason")
    events = q.list_dedupe_cap_events(a)["items"]
    refused_total = 0
    for event in events:
        refused = q.list_pages(a, cap_event=event["id"], limit=1000)
        assert refused["total"] == event["rejectedCount"]
        assert {i["skipReason"] for i in refused["items"]} <= {"dedupe-cap"}
        refused_total += refused["total"]
    assert refused_total == q.list_pages(a, skip_reason="dedupe-cap")["total"] > 0
    assert q.list_pages(a, cap_event=10_000)["total"] == 0


def test_security_header_columns_match_check_headers(tmp_path: Path) -> None:
    w = ArchiveWriter.create(tmp_path / "h.nitpicker", roots=["https://h.test/"])
    page = {"scraped": 1, "isTarget": 1, "isExternal": 0, "status": 200,
            "contentType": "text/html", "isSkipped": 0, "title": "T"}
    every = {"Content-Security-Policy": "default-src 'self'", "strict-transport-security": "x",
             "X-Frame-Options": "DENY", "x-content-type-options": "nosniff"}
    w.save_page("https://h.test/safe", page, responseHeaders=every)
    w.save_page("https://h.test/bare", page, responseHeaders={"server": "x"})
    w.save_page("https://h.test/broken", page, responseHeaders="not json")
    w.save_page("http://h.test/plain", page, responseHeaders={
        k: v for k, v in every.items() if k != "strict-transport-security"})
    archive = w.close()
    listed = {i["url"]: i for i in q.list_pages(archive, security_headers=True)["items"]}
    checked = {i["url"]: i for i in q.check_headers(archive)["items"]}
    keys = ("hasCSP", "hasXFrameOptions", "hasXContentTypeOptions", "hasHSTS")
    assert {u: tuple(i[k] for k in keys) for u, i in listed.items()} == {
        u: tuple(i[k] for k in keys) for u, i in checked.items()}
    assert all(listed["https://h.test/safe"][k] for k in keys)
    assert not any(listed["https://h.test/bare"][k] for k in keys)
    # HSTS over plain HTTP is ignored by browsers: neither there nor missing
    assert [listed["http://h.test/plain"][k] for k in keys] == [True, True, True, None]
    assert q.check_headers(archive, missing_only=True)["total"] == 1   # https …/bare
    assert "hasCSP" not in q.list_pages(archive)["items"][0]  # only when asked for
