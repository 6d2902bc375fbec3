"""Seed 000's acceptance criteria on TrapZoo: the whole site, endless traps included,
crawled with ``--dedupe-cap 100`` and no ``--max-pages``."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

import nitpicker_query as q
from nitpicker_crawl.trapzoo import TrapZoo
from tests.crawl.conftest import CRAWL, Crawl, interrupt_once

# family → (LIKE pattern of its URLs, effective threshold at N = 100)
TRAPS = {
    "path counter": ("%/list/date/_%", 30),
    "query pager": ("%/search?page=%", 30),
    "session": ("%/catalog/?session=%", 30),
    "no signal": ("%/archive/?offset=%", 100),
    "wiki history": ("%action=history%", 30),
}
PARALLELS = 4


@pytest.fixture(params=["capped_plain",  # rendered: make test-slow (the crawl takes 45 s)
                        pytest.param("capped_rendered", marks=pytest.mark.slow)])
def crawl(request: pytest.FixtureRequest) -> Crawl:
    result: Crawl = request.getfixturevalue(request.param)
    return result


def _count(archive: Path, sql: str, *params: object) -> int:
    with q.open_archive(archive) as a:
        return int(a.execute(sql, params).fetchone()[0])


def test_the_whole_trap_site_ends_by_itself(crawl: Crawl) -> None:
    assert crawl.returncode == 0, crawl.stderr
    assert "soft cap: 5 cluster(s) suspected (5 refused)" in crawl.stderr


def test_the_last_progress_line_counts_the_refusals_the_archive_holds(crawl: Crawl) -> None:
    """The probes a suspect's waiting URLs give up are fetched, not refused: the progress
    line's count falls with them, and its last figure is the archive's (it said 79
    where the archive held 69)."""
    lines = [line for line in crawl.stderr.splitlines() if line.startswith("Crawling: ")]
    last = re.search(r"\[([\d,]+) dedupe-capped\]", lines[-1])
    refused = q.get_summary(crawl.archive)["totals"]["refusedUrls"]
    assert refused > 0 and last is not None, lines[-1]
    assert int(last.group(1).replace(",", "")) == refused


@pytest.mark.parametrize("family", TRAPS)
def test_each_trap_is_capped_near_its_threshold(crawl: Crawl, family: str) -> None:
    pattern, threshold = TRAPS[family]
    fetched = _count(crawl.archive, "SELECT count(*) FROM pages WHERE url LIKE ? "
                     "AND scraped = 1 AND (isSkipped = 0 OR isSkipped IS NULL)", pattern)
    # at most the threshold, the page that exceeded it, and what was in flight at cap time
    assert threshold < fetched <= threshold + 1 + PARALLELS * 2, fetched
    skipped = _count(crawl.archive, "SELECT count(*) FROM pages WHERE url LIKE ? "
                     "AND skipReason = 'dedupe-cap'", pattern)
    assert skipped >= 1


def test_og_url_traps_cap_earlier_than_the_no_signal_trap(crawl: Crawl) -> None:
    events = {e["shapeKey"].split("/", 1)[1]: e
              for e in q.list_dedupe_cap_events(crawl.archive)["items"]}
    assert events["list/date/{n}/"]["effectiveThreshold"] == 30
    assert events["list/date/{n}/"]["signals"]["ogUrlPointsToParent"] is True
    assert events["archive/?offset={v}"]["effectiveThreshold"] == 100
    assert events["archive/?offset={v}"]["observedCount"] == 101
    assert events["search?page={v}"]["effectiveThreshold"] == 30          # query trap
    assert events["catalog/?session={v}"]["effectiveThreshold"] == 30     # session ids


def test_every_legit_family_is_complete_and_never_capped(crawl: Crawl, zoo: TrapZoo) -> None:
    def fetched(pattern: str) -> int:
        return _count(crawl.archive, "SELECT count(*) FROM pages WHERE url LIKE ? AND "
                      "status = 200 AND (isSkipped = 0 OR isSkipped IS NULL)", pattern)

    assert fetched("%/blog/page/%") == 60
    assert fetched("%/products/shirt-%") == 40
    assert fetched("%/en/%") + fetched("%/ja/%") == 20
    # the articles sharing /index.php with the capped history trap are all crawled
    assert _count(crawl.archive, "SELECT count(*) FROM pages WHERE url LIKE ? AND "
                  "url NOT LIKE '%action=%' AND status = 200", "%/index.php?title=Article_%") == 30
    assert _count(crawl.archive, "SELECT count(*) FROM pages WHERE skipReason = 'dedupe-cap' "
                  "AND (url LIKE '%/blog/%' OR url LIKE '%/products/%' OR url LIKE '%/en/%' "
                  "OR url LIKE '%/ja/%' OR (url LIKE '%/index.php%' AND url NOT LIKE "
                  "'%action=history%'))") == 0


def test_audit_log_matches_the_skipped_rows(crawl: Crawl) -> None:
    events = q.list_dedupe_cap_events(crawl.archive)
    assert events["total"] == 5
    detected = [e["detectedAt"] for e in events["items"]]
    assert detected == sorted(detected, reverse=True)  # newest first
    refused = _count(crawl.archive,
                     "SELECT count(*) FROM pages WHERE skipReason = 'dedupe-cap'")
    assert sum(e["rejectedCount"] for e in events["items"]) == refused
    assert all(e["sampleUrlArchived"] and e["capturedPageCount"] > e["effectiveThreshold"] - 1
               for e in events["items"])


def test_duplicate_clusters_count_descending_with_cap_events(crawl: Crawl) -> None:
    clusters = q.get_duplicate_clusters(crawl.archive)
    counts = [c["count"] for c in clusters["items"]]
    assert counts == sorted(counts, reverse=True) and clusters["total"] >= 5
    capped = [c for c in clusters["items"] if c["capEvent"] is not None]
    assert len(capped) == 5
    for cluster in capped:
        exclude = cluster["suggestedExclude"]
        assert exclude["matchesInCluster"] == cluster["count"]
        assert exclude["matchesOutside"] == 0, exclude
    # colour variants share title and description, but og:url = self keeps each apart
    assert not [c for c in clusters["items"] if "shirt-" in c["samplePages"][0]]
    top = clusters["items"][0]
    members = q.get_duplicate_cluster(crawl.archive, signature=top["signature"], limit=1000)
    assert members is not None and members["total"] == top["count"]
    assert [m["url"] for m in members["items"]][:len(top["samplePages"])] == top["samplePages"]


def test_ctrl_c_after_a_cap_keeps_rejected_count_exact(tmp_path: Path, zoo: TrapZoo) -> None:
    proc = subprocess.Popen([CRAWL, zoo.url, "-o", "c.nitpicker", "--dedupe-cap", "10",
                             "--no-render", "--interval", "20", "--silent"], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ})
    interrupt_once(proc, tmp_path / "._nitpicker-c" / "db.sqlite",
                   "SELECT count(*) FROM pages WHERE skipReason = 'dedupe-cap'")
    archive = tmp_path / "c.nitpicker"
    events = q.list_dedupe_cap_events(archive, limit=1000)["items"]
    assert events and all(e["rejectedCount"] is not None for e in events)
    assert sum(e["rejectedCount"] for e in events) == _count(
        archive, "SELECT count(*) FROM pages WHERE skipReason = 'dedupe-cap'")
    # resuming keeps the caps (sticky across runs): no trap restarts from zero
    r = subprocess.run([CRAWL, "--resume", "c.nitpicker", "--dedupe-cap", "10", "--no-render",
                        "--silent"], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                       env={**os.environ})
    assert r.returncode == 0, r.stderr
    after = q.list_dedupe_cap_events(archive, limit=1000)["items"]
    assert {e["shapeKey"] for e in events} <= {e["shapeKey"] for e in after}
    assert len(after) == 5  # one event per trap, none twice
    assert sum(e["rejectedCount"] for e in after) == _count(
        archive, "SELECT count(*) FROM pages WHERE skipReason = 'dedupe-cap'")
