"""Defer before refusing (nitpicker_crawl/traps/deferral.py): a suspected cluster waits, probes
decide. Both directions for each rule — a catalogue of codes and prices under one CMS
title is released whole, a calendar that only prints its own coordinates is refused — and
what the user reads: every page's status, the skipped rows, the event's verdict and its
probes in ``dedupe-cap-events``, the lines on stderr, and a resumed crawl's verdicts."""

from __future__ import annotations

import json
import os
import random
import subprocess
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

import nitpicker_query as q
from nitpicker_crawl.extract.content import main_content
from nitpicker_crawl.traps.deferral import MAX_ROUNDS, Deferral, Probe, spread
from page_cluster.nesting import parse_html

from .conftest import CRAWL, SiteHandler, interrupt_once, local_site

PRODUCTS = 60
RNG = random.Random(5)
IDS = sorted(RNG.sample(range(10_000, 99_999), PRODUCTS))
CODE = {i: f"ZR-{RNG.randrange(10_000, 99_999)}" for i in IDS}
PRICE = {i: f"{RNG.randrange(5, 300)}.{RNG.choice((0, 49, 95, 99)):02d}" for i in IDS}


def _page(base: str, path: str, title: str, main: str, og_url: str | None = None) -> bytes:
    return (f"<!doctype html><html><head><title>{title}</title>"
            "<meta name=description content='Quality products from Holdout Works.'>"
            f"<meta property=og:title content='{title}'>"
            f"<meta property=og:url content='{base}{og_url or path}'>"
            f"<link rel=canonical href='{base}{path}'></head><body>"
            "<header><a href='/'>Home</a> <a href='/shop/'>Shop</a> "
            "<a href='/calendar?month=5&amp;year=2026'>Calendar</a></header>"
            f"<main>{main}</main><footer><p>Holdout Works, a small shop.</p></footer>"
            "</body></html>").encode()


class _Shop(SiteHandler):
    """A catalogue whose product pages say nothing but a code and a price, under one CMS
    title and og:url (the shop's; canonical self) — legit, every one — and a calendar
    that goes on forever printing only the month it is asked for (a trap)."""

    def do_GET(self) -> None:
        base = f"http://{self.headers['Host']}"
        parts = urlsplit(self.path)
        query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        body: bytes | None = None
        if parts.path == "/":
            body = _page(base, "/", "Holdout Works", "<h1>Welcome</h1><p>Browse the shop.</p>")
        elif parts.path == "/shop/":
            page = int(query.get("page", "1"))
            if 1 <= page <= PRODUCTS // 10:
                items = "".join(f"<li><a href='/shop/product/{i}'>Product {CODE[i]}</a></li>"
                                for i in IDS[(page - 1) * 10:page * 10])
                pager = "".join(f"<a href='/shop/?page={n}'>{n}</a> "
                                for n in range(1, PRODUCTS // 10 + 1))
                body = _page(base, self.path, "Shop | Holdout Works",
                             f"<h1>Shop</h1><ul>{items}</ul><p>{pager}</p>")
        elif parts.path.startswith("/shop/product/"):
            pid = int(parts.path.rsplit("/", 1)[1])
            if pid in CODE:
                k = IDS.index(pid)
                related = "".join(f"<li><a href='/shop/product/{IDS[(k + d) % PRODUCTS]}'>"
                                  f"Product {CODE[IDS[(k + d) % PRODUCTS]]}</a></li>"
                                  for d in (1, 7, 13))
                body = _page(base, self.path, "Product | Holdout Works",
                             f"<h1>Product {CODE[pid]}</h1><p>Price {PRICE[pid]} EUR</p>"
                             f"<p>In stock</p><h2>Related products</h2><ul>{related}</ul>",
                             og_url="/shop/")   # the CMS's default: the shop, not the page
        elif parts.path == "/calendar":
            month, year = int(query.get("month", "5")), int(query.get("year", "2026"))
            day = date(year, month, 1)
            before, after = day - timedelta(days=1), day + timedelta(days=31)
            body = _page(base, self.path, "Calendar | Holdout Works",
                         f"<h1>Calendar</h1><h2>{month:02d}/{year}</h2>"
                         "<table><tr><th>Mon</th><th>Tue</th><th>Wed</th></tr></table>"
                         "<p>No events in this month.</p><p>"
                         f"<a href='/calendar?month={before.month}&amp;year={before.year}'>"
                         "Previous month</a> "
                         f"<a href='/calendar?month={after.month}&amp;year={after.year}'>"
                         "Next month</a></p>")
        if body is None:
            self.answer(404)
        else:
            self.answer(200, body)


@pytest.fixture(scope="module")
def shop() -> Iterator[str]:
    with local_site(_Shop) as base:
        yield base


def _crawl(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CRAWL, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300, env={**os.environ})


def _pages(archive: Path) -> dict[str, tuple[int | None, str | None]]:
    with q.open_archive(archive) as a:
        return {r["url"]: (r["status"], r["skipReason"]) for r in a.execute(
            "SELECT url, status, skipReason FROM pages WHERE isExternal = 0")}


@pytest.fixture(scope="module")
def crawled(shop: str, tmp_path_factory: pytest.TempPathFactory
            ) -> tuple[Path, subprocess.CompletedProcess[str]]:
    directory = tmp_path_factory.mktemp("deferral")
    r = _crawl(directory, shop, "-o", "shop.nitpicker", "--no-render", "--dedupe-cap", "5",
               "--parallels", "2")
    assert r.returncode == 0, r.stderr[-2000:]
    return directory / "shop.nitpicker", r


def test_a_catalogue_of_codes_and_prices_is_released_whole(
        shop: str, crawled: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    archive, run = crawled
    pages = _pages(archive)
    products = [f"{shop}shop/product/{i}" for i in IDS]
    assert [u for u in products if pages.get(u) != (200, None)] == []
    events = q.list_dedupe_cap_events(archive, limit=100)["items"]
    product_events = [e for e in events if "/shop/product/" in e["shapeKey"]]
    assert product_events, "the catalogue must have been suspected for this test to mean it"
    for event in product_events:
        verdict = event["signals"]
        assert verdict["verdict"] in ("released", "unused")
        assert all(state == "released" for state in verdict["verdicts"].values())
    first = product_events[-1]["signals"]   # newest first: the last is the first cap
    assert first["verdict"] == "released" and first["rounds"][0]["probes"]
    assert any(p["informative"] for p in first["rounds"][0]["probes"])
    assert sum(e["rejectedCount"] for e in product_events) == 0
    assert "/shop/product/{n}: released" in run.stderr
    assert "waiting URLs queued again" in run.stderr


def test_a_calendar_printing_its_own_month_is_refused_with_its_evidence(
        shop: str, crawled: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    archive, run = crawled
    pages = _pages(archive)
    events = q.list_dedupe_cap_events(archive, limit=100)["items"]
    calendar = [e for e in events if "/calendar" in e["shapeKey"]]
    assert len(calendar) == 1
    event = calendar[0]
    assert event["signals"]["verdict"] == "refused"
    rounds = event["signals"]["rounds"]
    assert len(rounds) == 1 and rounds[0]["probes"]
    assert not any(p["informative"] for p in rounds[0]["probes"])
    assert all(p["newBlocks"] == 0 for p in rounds[0]["probes"])
    skipped = [u for u, (_, why) in pages.items() if why == "dedupe-cap"]
    assert skipped and all("/calendar?" in u for u in skipped)
    assert event["rejectedCount"] == len(skipped)
    fetched = [u for u, (status, _) in pages.items() if "/calendar" in u and status == 200]
    # the cap's threshold (ceil(0.3 * 5) = 2, or 5) plus its probes: nothing more
    assert len(fetched) <= 5 + 1 + 3
    assert "/calendar?month={v}&year={v}: refused " in run.stderr


def test_summary_counts_what_stays_refused(
        crawled: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    archive, run = crawled
    refused = sum(1 for _, why in _pages(archive).values() if why == "dedupe-cap")
    assert refused and any(f"{refused} URLs refused in the archive" in line
                           for line in run.stderr.splitlines())


def test_ctrl_c_while_suspected_then_resume_judges_what_waited(
        shop: str, tmp_path: Path) -> None:
    proc = subprocess.Popen([CRAWL, shop, "-o", "c.nitpicker", "--no-render", "--dedupe-cap",
                             "5", "--interval", "30", "--silent"], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ})
    interrupt_once(proc, tmp_path / "._nitpicker-c" / "db.sqlite",
                   "SELECT count(*) FROM pages WHERE skipReason = 'dedupe-cap' "
                   "AND url LIKE '%/shop/product/%'")
    archive = tmp_path / "c.nitpicker"
    pending = [e for e in q.list_dedupe_cap_events(archive, limit=100)["items"]
               if "/shop/product/" in e["shapeKey"]]
    assert pending and all(e["signals"]["verdict"] == "pending" for e in pending)
    r = _crawl(tmp_path, "--resume", "c.nitpicker", "--no-render", "--dedupe-cap", "5")
    assert r.returncode == 0, r.stderr
    pages = _pages(archive)
    assert [i for i in IDS if pages.get(f"{shop}shop/product/{i}") != (200, None)] == []
    after = {e["id"]: e for e in q.list_dedupe_cap_events(archive, limit=100)["items"]}
    calendar = [e for e in after.values() if "/calendar" in e["shapeKey"]]
    # the resumed run remembers the calendar's path from the archive: still refused
    assert calendar and all(e["signals"]["verdict"] == "refused" for e in calendar)


# ---------------------------------------------------------------- the rules, unit by unit


def test_probe_is_informative_only_with_enough_new_blocks() -> None:
    assert Probe("u", "s", blocks=4, new=2).informative            # a code and a price
    assert Probe("u", "s", blocks=4, new=1).informative            # one in four
    assert not Probe("u", "s", blocks=33, new=5).informative       # a file at an old revision
    assert not Probe("u", "s", blocks=3, new=0).informative        # the same month again
    assert not Probe("u", "s", blocks=4, new=4, noindex=True).informative  # the site says no
    assert not Probe("u", "s", blocks=None).informative            # not read: failed, not HTML


def test_probes_are_spread_from_first_to_last() -> None:
    urls = [f"u{i}" for i in range(10)]
    assert spread(urls, 3) in (["u0", "u5", "u9"], ["u0", "u4", "u9"])
    assert spread(urls[:2], 3) == ["u0", "u1"]
    assert spread(urls, 1) == ["u0"]


def _shape(url: str) -> str:
    return url.split("?")[0]


def _new(url: str, n: int) -> frozenset[int]:
    """``n`` blocks new on the page at ``url``, seen on no other page."""
    return frozenset(hash((url, i)) for i in range(n))


def test_each_shape_gets_its_own_verdict() -> None:
    d = Deferral(_shape)
    case = d.open(1, threshold=3)
    assert not d.passes("shop?a", 1) and not d.passes("cal?b", 1)   # suspect: both wait
    picks, spent = d.start(case, ["shop?1", "cal?1", "shop?2", "cal?2", "shop?3"])
    assert sorted(picks) == ["cal?1", "cal?2", "shop?1", "shop?2", "shop?3"] and spent == []
    for url in picks:
        d.read(url, blocks=4, new=_new(url, 2 if url.startswith("shop") else 0),
               indexable=True)
    assert d.conclude(case) == (["shop"], ["cal"])
    d.release(case, {"shop": 3})
    assert case.evidence()["verdict"] == "partly released"
    assert case.evidence()["verdicts"] == {"cal": "refused", "shop": "released"}
    assert not d.passes("cal?9", 1)                      # refused stays refused
    assert all(d.passes(f"shop?n{i}", 1) for i in range(3 + 3))   # waited + threshold
    assert not d.passes("shop?n6", 1)                    # budget spent: suspect again
    assert case.shapes["shop"].state == "suspect"
    assert d.passes("shop?n7", 1, spend=False) is False  # queued ones wait too now


def test_a_shape_released_too_often_is_refused_without_probes() -> None:
    d = Deferral(_shape)
    case = d.open(1, threshold=2)
    for _ in range(MAX_ROUNDS):
        picks, _ = d.start(case, ["a?1", "a?2"])
        for url in picks:
            d.read(url, blocks=2, new=_new(url, 2), indexable=True)
        assert d.conclude(case) == (["a"], [])
        d.release(case, {"a": 2})
        case.shapes["a"].state = "suspect"
    assert d.start(case, ["a?1", "a?2"]) == ([], ["a"])
    assert case.evidence()["verdict"] == "refused"
    assert "budget is spent" in case.evidence()["rounds"][-1]["why"]


def test_resume_restores_each_verdict() -> None:
    d = Deferral(_shape)
    d.open(1, 5, {"verdict": "refused", "verdicts": {"a": "refused"}, "rounds": [{}]})
    released = d.open(2, 5, {"verdict": "released", "verdicts": {"b": "released"}})
    d.open(3, 5, {"verdict": "pending", "rounds": []})
    assert released.shapes["b"].budget == 10 and released.shapes["b"].releases == 1
    assert not d.passes("a?x", 1) and d.passes("b?y", 2) and not d.passes("c?z", 3)


def test_a_case_that_held_nothing_is_unused_once_the_site_is_done() -> None:
    case = Deferral(_shape).open(1, 5)
    assert case.evidence()["verdict"] == "pending"
    assert case.evidence(complete=True)["verdict"] == "unused"
    # released, its budget spent, nothing of it waiting when the site was done: released
    d = Deferral(_shape)
    case = d.open(2, 1)
    assert d.start(case, ["a?1"]) == (["a?1"], [])
    d.read("a?1", blocks=2, new=_new("a?1", 2), indexable=True)
    d.conclude(case)
    d.release(case, {"a": 0})
    assert d.passes("a?2", 2) and not d.passes("a?3", 2)   # budget 1: spent, suspect
    assert case.evidence()["verdict"] == "pending"
    assert case.evidence(complete=True)["verdict"] == "released"


def _coordinates(url: str, text: str) -> set[int]:
    content = main_content(parse_html(f"<html><body><main><p>{text}</p></main></body></html>"),
                           url)
    assert content is not None
    return {c for _, c in content.coordinates}


def test_the_urls_own_values_are_masked_and_nothing_else() -> None:
    # the page printing its own coordinates again: the same block
    assert _coordinates("https://e.com/people/ann/activity?from=2019-03-05",
                        "Activity of ann from 2019-03-05, the 30 days before") == \
        _coordinates("https://e.com/people/ann/activity?from=2019-02-03",
                     "Activity of ann from 2019-02-03, the 30 days before")
    assert _coordinates("https://e.com/login?returnto=Main_Page",
                        "Log in to continue to Main Page") == \
        _coordinates("https://e.com/login?returnto=Help_Desk", "Log in to continue to Help Desk")
    # codes and prices that are not the URL's: content, told apart
    assert _coordinates("https://e.com/shop/product/48213", "Product ZR-71529") != \
        _coordinates("https://e.com/shop/product/48214", "Product ZR-71530")
    assert _coordinates("https://e.com/shop/product/48213", "Price 47.99 EUR") != \
        _coordinates("https://e.com/shop/product/48214", "Price 48.99 EUR")


def test_events_signals_are_json_a_reader_can_parse(
        crawled: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    archive, _ = crawled
    with q.open_archive(archive) as a:
        for (raw,) in a.execute("SELECT signals FROM dedupe_cap_events"):
            signals = json.loads(raw)
            assert signals["verdict"] in ("released", "refused", "partly released", "unused")
            assert isinstance(signals["rounds"], list)
            # the cluster's URL shapes (what --resume restores) are still there beside it
            assert isinstance(signals["shapes"], list) and signals["shapes"]


def test_a_view_is_weighed_against_its_entity_with_its_numbers_masked() -> None:
    d = Deferral(_shape)
    case = d.open(1, 5, whole=True, view=True)
    picks, _ = d.start(case, ["browser/a.py?rev=7", "browser/b.py?rev=3", "log/c?rev=2"])
    # a file at an old revision: lines its file at HEAD showed, other revision numbers
    d.read(picks[0], blocks=8, new=_new(picks[0], 6), entity_new=frozenset(), indexable=True)
    d.read(picks[1], blocks=8, new=_new(picks[1], 5), entity_new=_new(picks[1], 1),
           indexable=True)
    # the view of an entity the crawl never met is weighed as any page is
    d.read(picks[2], blocks=4, new=_new(picks[2], 3), entity_new=None, indexable=True)
    assert [p.new for p in case.probes] == [0, 1, 3]
    assert [p.informative for p in case.probes] == [False, False, True]
    assert d.conclude(case) == (["*"], [])


def test_a_block_new_on_two_probes_of_a_shape_is_their_template_not_their_content() -> None:
    d = Deferral(_shape)
    case = d.open(1, 5)
    since = hash("last change on this file since # was #")
    picks, _ = d.start(case, ["f?rev=1", "f?rev=2", "f?rev=3", "shop?1", "shop?2", "shop?3"])
    # every old revision prints the same line its newest never did, and nothing else new
    for url in picks[:3]:
        d.read(url, blocks=4, new=frozenset({since}), indexable=True)
    # products: each page's code and price are its own; "Related products" on all of them
    for url in picks[3:]:
        d.read(url, blocks=4, new=_new(url, 2) | {hash("Related products")}, indexable=True)
    probes = list(case.probes)
    assert d.conclude(case) == (["shop"], ["f"])
    assert [p.new for p in probes] == [0, 0, 0, 2, 2, 2]
    # a probe alone in its shape has nothing to share a line with: its blocks are its own
    d2 = Deferral(_shape)
    case2 = d2.open(1, 5)
    picks, _ = d2.start(case2, ["f?rev=1"])
    d2.read(picks[0], blocks=4, new=frozenset({since}), indexable=True)
    assert d2.conclude(case2) == (["f"], [])


def _view(text: str) -> set[int]:
    content = main_content(parse_html(f"<html><body><main><p>{text}</p></main></body></html>"),
                           "https://e.com/browser/src/core.py?rev=11a090b9e69e001a")
    assert content is not None
    return {m for _, m in content.masks}


def test_a_views_blocks_are_compared_by_their_words_with_every_id_and_number_masked() -> None:
    # a file at a revision names itself and its revisions: what its newest showed
    assert _view("src/core.py@") == _view("src/core.py")
    assert _view("on this file since 11a090b was 3d10b90, 3 years ago") == \
        _view("on this file since 0fdd7c8 was 2602578, 4 years ago")
    assert _view("File size: 632 bytes") == _view("File size: 978 bytes")
    # words are what a view would add: another colour, another message
    assert _view("Colour: red") != _view("Colour: blue")
    assert _view("Rework Unicode handling, refs #35") != _view("Fix empty input, refs #53")
