"""Unbounded TrapZoo — every trap infinite, five families built on failure classes of real
sites — crawled with the soft cap and no ``--max-pages``: the crawl must end by itself
with every legit page crawled and the traps held near their thresholds."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path

import pytest

import nitpicker_query as q
from nitpicker_crawl.trapzoo import TrapZoo
from nitpicker_crawl.trapzoo.content import legit_repo_paths
from nitpicker_crawl.trapzoo.site import TRAP_FAMILIES, legit_paths
from tests.crawl.conftest import Crawl, crawl_site

TRAPS = {name: (like, og) for name, (like, og, _) in TRAP_FAMILIES.items()}


@pytest.fixture(scope="module")
def wild() -> Iterator[TrapZoo]:
    with TrapZoo(unbounded=True) as z:
        yield z


@pytest.fixture(scope="module", params=[
    pytest.param((100, False), id="cap100", marks=pytest.mark.slow),
    pytest.param((20, False), id="cap20"),
    pytest.param((100, True), id="cap100-rendered", marks=pytest.mark.slow)])
def capped(request: pytest.FixtureRequest, wild: TrapZoo,
           tmp_path_factory: pytest.TempPathFactory) -> tuple[int, Crawl]:
    n, rendered = request.param
    mode = () if rendered else ("--no-render",)
    return n, crawl_site(wild, tmp_path_factory.mktemp(f"unbounded-{n}"), "--dedupe-cap",
                         str(n), *mode, "--silent")


def _rows(archive: Path, sql: str, *params: object) -> list[tuple[object, ...]]:
    with q.open_archive(archive) as a:
        return [tuple(r) for r in a.execute(sql, params).fetchall()]


def _fetched(archive: Path, pattern: str) -> int:
    return int(_rows(archive, "SELECT count(*) FROM pages WHERE url LIKE ? AND status = 200 "
                     "AND (isSkipped = 0 OR isSkipped IS NULL)", pattern)[0][0])


def _urls(archive: Path, pattern: str) -> list[str]:
    return [str(u) for (u,) in _rows(archive, "SELECT url FROM pages WHERE url LIKE ? AND "
                                     "status = 200 AND (isSkipped = 0 OR isSkipped IS NULL)",
                                     pattern)]


def test_ends_by_itself_with_every_legit_page(capped: tuple[int, Crawl], wild: TrapZoo) -> None:
    _, crawl = capped
    assert crawl.returncode == 0, crawl.stderr[-2000:]
    status = dict(_rows(crawl.archive, "SELECT url, status FROM pages"))
    legit = [wild.url + p.lstrip("/") for p in legit_paths(unbounded=True)]
    missing = [u for u in legit if status.get(u) != 200]
    assert not missing
    refused = {u for (u,) in _rows(crawl.archive,
                                   "SELECT url FROM pages WHERE skipReason = 'dedupe-cap'")}
    assert not refused & set(legit)


def test_trap_pages_stay_within_three_thresholds_per_family(capped: tuple[int, Crawl],
                                                            wild: TrapZoo) -> None:
    n, crawl = capped
    budget = 3 * sum(math.ceil(0.3 * n) if og else n for _, og in TRAPS.values())
    legit = {wild.url + p.lstrip("/") for p in legit_paths(unbounded=True)}
    per_family = {name: len(set(_urls(crawl.archive, like)) - legit)
                  for name, (like, _) in TRAPS.items()}
    assert sum(per_family.values()) <= budget, per_family
    # and every family was actually entered (fetched, or refused by a cap)
    refused = {name: _rows(crawl.archive, "SELECT count(*) FROM pages WHERE url LIKE ? AND "
                           "skipReason = 'dedupe-cap'", like)[0][0]
               for name, (like, _) in TRAPS.items()}
    assert all(per_family[f] + refused[f] > 0 for f in TRAPS), (per_family, refused)


def test_content_families_stay_within_three_thresholds_each(capped: tuple[int, Crawl],
                                                             wild: TrapZoo) -> None:
    """The families only content tells apart, one by one: the pager past its end and the
    share variants at a trap's threshold (their pages repeat what the crawl has), each
    view of the repository within three thresholds, its timeline too; every file at
    HEAD and every changeset fetched (once: one row per URL)."""
    n, crawl = capped
    low = math.ceil(0.3 * n)
    legit = {wild.url + p.lstrip("/") for p in legit_paths(unbounded=True)}

    def traps(family: str) -> int:
        return len(set(_urls(crawl.archive, TRAPS[family][0])) - legit)

    assert 0 < traps("pager past its end") <= 3 * low
    assert 0 < traps("share variants") <= 3 * low
    for view in ("revisions of files", "sort orders", "changesets per path",
                 "revision logs per path", "timeline"):
        assert traps(view) <= 3 * n, view
    repo = [wild.url + p.lstrip("/") for p in legit_repo_paths()]
    rows = _rows(crawl.archive, "SELECT url, count(*) FROM pages WHERE status = 200 AND "
                 "url LIKE '%/repo/%' GROUP BY url")
    fetched = dict(rows)
    assert all(fetched.get(u) == 1 for u in repo), [u for u in repo if fetched.get(u) != 1]


def test_every_trap_family_is_capped(capped: tuple[int, Crawl]) -> None:
    _, crawl = capped
    events = q.list_dedupe_cap_events(crawl.archive, limit=1000)["items"]
    shapes = [e["shapeKey"] for e in events]
    for marker in ("/list/date/", "/search?", "/catalog/", "/archive/", "action={v}",
                   "/members/", "/guide/{r}/", "/login?", "/changes?", "/shop/search?",
                   "/shelf/?page=", "/news/", "/repo/browser/", "/repo/timeline?"):
        assert any(marker in s for s in shapes), (marker, shapes)
    kinds = {e["signals"]["key"] for e in events}
    assert {"parent", "shape", "repeat", "copy", "view"} <= kinds
    # every kind of cap counts the pages it kept, and refused what it counted
    for e in events:
        assert e["capturedPageCount"] >= e["observedCount"], e
    assert sum(e["rejectedCount"] for e in events) == len(
        _rows(crawl.archive, "SELECT url FROM pages WHERE skipReason = 'dedupe-cap'"))


def test_every_refused_url_names_the_cap_that_refused_it(capped: tuple[int, Crawl]) -> None:
    """``page-detail`` of a refused URL gives the shape of its event — also for variants
    refused by family (another query-key set than any capped shape)."""
    _, crawl = capped
    refused = [u for (u,) in _rows(crawl.archive, "SELECT url FROM pages WHERE skipReason = "
                                   "'dedupe-cap' ORDER BY url")]
    shapes = {e["shapeKey"] for e in q.list_dedupe_cap_events(crawl.archive, limit=1000)["items"]}
    for url in refused[:: max(1, len(refused) // 200)]:
        detail = q.get_page_detail(crawl.archive, url=url)
        assert detail is not None and detail["isDedupeCapped"] is True
        assert detail["dedupeCapShapeKey"] in shapes, url


def test_redirect_targets_are_gated(capped: tuple[int, Crawl]) -> None:
    """``/changes/latest?…`` redirects into the capped per-entity views: the target is
    refused and recorded with its redirect source, not fetched."""
    _, crawl = capped
    rows = _rows(crawl.archive,
                 "SELECT count(*) FROM pages d JOIN pages s ON s.redirectDestId = d.id "
                 "WHERE d.skipReason = 'dedupe-cap' AND s.url LIKE '%/changes/latest?%'")
    assert rows[0][0] > 0


def test_nofollow_is_recorded_not_followed(capped: tuple[int, Crawl], wild: TrapZoo) -> None:
    _, crawl = capped
    status = {u: (s, r) for u, s, r in _rows(
        crawl.archive, "SELECT url, status, skipReason FROM pages WHERE url LIKE '%/nofollow/%'")}
    assert status[wild.url + "nofollow/"] == (200, None)
    assert status[wild.url + "nofollow/hidden/"] == (None, "nofollow")
    assert status[wild.url + "nofollow/rel-only/"] == (None, "nofollow")


@pytest.mark.slow  # a crawl of its own: 12 s
def test_follow_nofollow_follows_them_and_still_ends(wild: TrapZoo, tmp_path: Path) -> None:
    crawl = crawl_site(wild, tmp_path, "--dedupe-cap", "100", "--no-render", "--silent",
                       "--follow-nofollow")
    assert crawl.returncode == 0, crawl.stderr[-2000:]
    assert _fetched(crawl.archive, "%/nofollow/hidden/") == 1
    assert _fetched(crawl.archive, "%/nofollow/rel-only/") == 1
    assert not _rows(crawl.archive, "SELECT url FROM pages WHERE skipReason = 'nofollow'")


@pytest.mark.slow  # a crawl of its own: 11 s
def test_dedupe_allow_exempts_a_capped_section(wild: TrapZoo, tmp_path: Path) -> None:
    """``--dedupe-allow`` keeps a section out of the cap (here: the guide, capped above);
    ``--exclude`` then bounds the trap by hand, as docs/soft-cap.md describes."""
    crawl = crawl_site(wild, tmp_path, "--dedupe-cap", "100", "--no-render", "--silent",
                       "--dedupe-allow", "/guide/**", "--exclude", "/guide/*/*/*/**")
    assert crawl.returncode == 0, crawl.stderr[-2000:]
    assert not [e for e in q.list_dedupe_cap_events(crawl.archive, limit=1000)["items"]
                if "/guide/" in e["shapeKey"]]
    # every guide page above the excluded depth was crawled: /guide/, then 2 + 4
    assert _fetched(crawl.archive, "%/guide/%") == 7
