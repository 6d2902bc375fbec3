"""The soft cap tracker, driven directly: thresholds, gating, and the four release
mechanisms inspected through the tracker's state."""

from __future__ import annotations

import pytest

from nitpicker_crawl.extract.content import main_content
from nitpicker_crawl.traps.softcap import CapEvent, SoftCap
from nitpicker_query.keys.page_keys import page_keys
from nitpicker_query.keys.signals import page_signals
from page_cluster.nesting import parse_html


def feed(cap: SoftCap, url: str, *, title: str = "News", og_url: str | None = None,
         canonical: str | None = None, prev_next: bool = False,
         indexable: bool = True) -> int | None:
    """Observe one page; record an event under the next id; return that id (or None)."""
    keys = page_keys(url, title=title, description="d", og_title=title, og_url=og_url)
    signals = page_signals(url, og_url=og_url, canonical=canonical,
                           has_prev_next=prev_next, title=title)
    event = cap.observe(url, keys, signals, indexable=indexable)
    if event is None:
        return None
    event_id = len(cap.events) + 1
    cap.record(event, event_id)
    return event_id


def fires_at(cap: SoftCap, urls: list[str], **kw: object) -> int | None:
    for n, url in enumerate(urls, start=1):
        if feed(cap, url, **kw) is not None:  # type: ignore[arg-type]
            return n
    return None


def test_og_url_to_parent_caps_after_30_percent() -> None:
    cap = SoftCap(100)
    urls = [f"http://h/list/date/{2000 + i}/" for i in range(200)]
    assert fires_at(cap, urls, og_url="http://h/list/date/") == 31   # exceeds ceil(0.3·100)
    event = cap.events[0]
    assert (event.effective_threshold, event.observed_count, event.kind) == (30, 31, "parent")
    assert event.signals["ogUrlPointsToParent"] and event.trap_score == 2


def test_no_signal_caps_after_n() -> None:
    cap = SoftCap(100)
    urls = [f"http://h/archive/?offset={10 * i}" for i in range(300)]
    assert fires_at(cap, urls, title="Archive") == 101
    assert cap.events[0].effective_threshold == 100


def test_legit_pager_signals_raise_the_threshold() -> None:
    cap = SoftCap(100)
    urls = [f"http://h/blog/page/{i}/" for i in range(1, 700)]
    # same meta on every page, but og:url = self, canonical = self, rel=prev/next
    assert fires_at(cap, urls[:499], og_url=None, canonical=None, prev_next=True,
                    title="Blog") is None  # 5 x 100 not exceeded
    cap2 = SoftCap(100)
    n = fires_at(cap2, urls, prev_next=True, title="Blog")
    assert n == 501 and cap2.events[0].effective_threshold == 500


def test_uniform_catalogue_with_self_canonicals_is_never_capped_at_100() -> None:
    cap = SoftCap(100)
    for colour in range(400):
        url = f"http://h/products/shirt-{chr(97 + colour % 26)}{colour}/"
        assert feed(cap, url, title="Shirt", og_url=url, canonical=url) is None


def test_gating_is_by_shape_never_by_parent_path() -> None:
    cap = SoftCap(10)
    history = [f"http://h/index.php?title=A&action=history&oldid={i}" for i in range(20)]
    assert fires_at(cap, history, title="History", og_url="http://h/index.php") is not None
    assert cap.admit("http://h/index.php?title=B&action=history&oldid=7") == 1
    assert cap.admit("http://h/index.php?title=Article_02") is None      # shares /index.php
    assert cap.admit("http://h/index.php") is None
    assert cap.admit("http://h/other/?title=A&action=history&oldid=1") is None


def test_capped_signature_moves_to_the_sticky_set() -> None:
    cap = SoftCap(5)
    urls = [f"http://h/s?page={i}" for i in range(10)]
    assert fires_at(cap, urls, og_url="http://h/s") == 3   # ceil(0.3·5) = 2, exceeded at 3
    keys = page_keys(urls[0], title="News", description="d", og_title="News",
                     og_url="http://h/s")
    assert keys.signature in cap.sticky and keys.shape_signature in cap.sticky
    assert keys.signature not in cap.counters and keys.shape_signature not in cap.counters
    assert feed(cap, urls[5], og_url="http://h/s") is None  # sticky: counted no more
    assert not cap.counters and len(cap.events) == 1


def test_age_window_drops_counters_that_never_capped() -> None:
    cap = SoftCap(100, age_window=50)
    feed(cap, "http://h/slow/1", title="Spread out")
    slow = page_keys("http://h/slow/1", title="Spread out", description="d",
                     og_title="Spread out", og_url=None)
    assert slow.signature in cap.counters
    for i in range(60):
        feed(cap, f"http://h/other{i}/x", title=f"T{i}")
    assert slow.signature not in cap.counters and cap.evicted["age"] >= 2
    # a late look-alike restarts from zero instead of inheriting the old count
    feed(cap, "http://h/slow/2", title="Spread out")
    assert cap.counters[slow.signature].count == 1


def test_parent_key_counters_drop_when_nothing_is_pending() -> None:
    cap = SoftCap(100)
    feed(cap, "http://h/news/1", title="A")
    feed(cap, "http://h/blog/1", title="B")
    parents = {c.parent_key for c in cap.counters.values() if c.kind == "parent"}
    assert parents == {"h/news", "h/blog"}
    cap.parent_idle("h/news")
    assert {c.parent_key for c in cap.counters.values() if c.kind == "parent"} == {"h/blog"}
    assert cap.evicted["parent"] == 1   # its signature counter; the shape counter stays
    assert len([c for c in cap.counters.values() if c.kind == "shape"]) == 2


def test_a_counter_spanning_parents_survives_its_first_parent_going_idle() -> None:
    """Regression: (c) dropped a shape counter with its first page's parent, so a session
    id in a middle segment (every page its own parent) never accumulated."""
    cap = SoftCap(100)
    fired = None
    for i in range(60):
        url = f"http://h/members/;sid={i:06X}F3A/home"
        fired = fired or feed(cap, url, title="Members", og_url="http://h/members/")
        cap.parent_idle(f"h/members/;sid={i:06X}F3A")   # its one URL is done
    assert fired == 1 and cap.events[0].observed_count == 31
    assert cap.admit("http://h/members/;sid=ABCDEF12/home") == 1
    assert cap.admit("http://h/members/") is None


def test_map_cap_evicts_least_recently_used() -> None:
    cap = SoftCap(100, map_cap=10, age_window=10**9)
    feed(cap, "http://h/keep/1", title="keep")
    for i in range(30):
        feed(cap, f"http://h/u{i}/p", title=f"unique {i}")
        feed(cap, "http://h/keep/1", title="keep")  # touched: stays recent
        assert len(cap.counters) <= 10
    keep = page_keys("http://h/keep/1", title="keep", description="d", og_title="keep",
                     og_url=None)
    assert keep.signature in cap.counters and cap.evicted["lru"] > 0


def test_refusals_are_credited_to_the_lowest_event() -> None:
    cap = SoftCap(2)
    fires_at(cap, [f"http://h/a/{i}/" for i in range(5)], title="X")
    cap.refused(1)
    cap.refused(1)
    assert cap.rejected == {1: 2} and cap.rejected_total == 2
    cap.restore(7, "f" * 40, {"h/a/{n}/", "h/b/{n}/"})
    assert cap.admit("http://h/a/9/") == 1 and cap.admit("http://h/b/9/") == 7


def test_generalises_beyond_the_seed() -> None:
    """Traps whose counter is not in the last segment or the query alone."""
    # dates spread over /y/m/d/: every month is another parent, the shape is shared
    cap = SoftCap(50)  # a month has at most 28 pages here: no parent counter reaches 50
    days = [f"http://h/archive/{2000 + i // 336}/{1 + i // 28 % 12}/{1 + i % 28}/"
            for i in range(200)]
    assert fires_at(cap, days, title="Daily") == 51
    assert cap.events[0].kind == "shape" and cap.admit("http://h/archive/2099/1/1/") == 1
    # a path that grows by concatenating a relative link
    cap = SoftCap(20)
    growing = ["http://h/docs/" + "intro/" * n for n in range(1, 60)]
    assert fires_at(cap, growing, title="Intro") is not None
    assert cap.admit("http://h/docs/" + "intro/" * 80) == 1
    assert cap.admit("http://h/docs/setup/") is None
    # sort and filter parameters in every order and combination
    cap = SoftCap(20)
    combos = [f"http://h/shop?{a}={i}&{b}=x" for i in range(40)
              for a, b in (("sort", "filter"), ("filter", "sort"))]
    assert fires_at(cap, combos, title="Shop") is not None
    assert cap.admit("http://h/shop?filter=z&sort=price") == 1
    assert cap.admit("http://h/shop?q=shirts") is None
    # identifiers in path parameters
    cap = SoftCap(20)
    sessions = [f"http://h/cart/;jsessionid=S{i:08d}" for i in range(40)]
    assert fires_at(cap, sessions, title="Cart") is not None
    assert cap.admit("http://h/cart/;jsessionid=S99999999") == 1



def test_declared_copies_group_across_shapes_and_parents() -> None:
    """og:url aimed at another page + identical meta: one cluster, whatever the URL."""
    cap = SoftCap(100)
    urls = [f"http://h/{section}/{token}/view" for token in ("a1", "b2", "c3", "d4", "e5")
            for section in ("x", "y", "z", "w", "v", "u", "t")]
    declared = "h/members"
    n = 0
    for url in urls:
        n += 1
        keys = page_keys(url, title="Members", description="d", og_title="Members",
                         og_url="http://h/members/")
        signals = page_signals(url, og_url="http://h/members/", canonical=None,
                               has_prev_next=False, title="Members")
        event = cap.observe(url, keys, signals, declared=declared)
        if event is not None:
            break
    assert event is not None and event.kind == "declared" and n == 31
    # the same meta without a declared target (og:url = self) never groups this way
    cap = SoftCap(100)
    for url in urls:
        keys = page_keys(url, title="Members", description="d", og_title="Members",
                         og_url=url)
        signals = page_signals(url, og_url=url, canonical=None, has_prev_next=False,
                               title="Members")
        assert cap.observe(url, keys, signals, declared=None) is None


def _entity_views(entities: int, variants: int) -> list[tuple[str, str]]:
    """Per-entity variant views: (url, title), one title per entity, BFS order."""
    return [(f"http://h/index.php?title=Special:Changes/E{e}&days={d}&limit=50", f"Changes E{e}")
            for d in range(variants) for e in range(entities)]


def test_repeating_shape_caps_per_entity_variants() -> None:
    cap = SoftCap(20)
    fired = None
    n = 0
    for url, title in _entity_views(30, 10):
        n += 1
        fired = feed(cap, url, title=title)
        if fired is not None:
            break
    assert fired == 1 and cap.events[0].kind == "repeat"
    # no entity reached 20 pages; the shape fired once its repeats outnumbered both the
    # threshold (20) and its new pages (30): 30 new + 31 repeats
    assert n == 61
    assert cap.admit("http://h/index.php?title=Special:Changes/E99&days=3&limit=50") == 1


def test_articles_never_trip_the_repeat_rule() -> None:
    cap = SoftCap(10)
    for i in range(2000):
        url = f"http://h/index.php?title=Article_{i}"
        assert feed(cap, url, title=f"Article {i} - Wiki") is None
    assert cap.is_novel("h/index.php?title={v}")


def test_a_mixed_shape_is_never_gated() -> None:
    """Articles and one alike "Related changes" view per article share
    ``index.php?title={v}``: the views repeat, the shape as a whole keeps producing new
    pages, so no cap — even one fired by the views' own signature — refuses it."""
    cap = SoftCap(20)
    for i in range(200):
        feed(cap, f"http://h/index.php?title=A{i}", title=f"A{i} - Wiki")
        feed(cap, f"http://h/index.php?title=Special:Related/A{i}", title="Related changes")
    assert cap.is_novel("h/index.php?title={v}")
    assert cap.admit("http://h/index.php?title=New_article") is None
    assert not cap.events  # the views' cluster had no shape it could gate


CAPPED_HISTORY = [  # action constant, title and oldid varied
    (f"http://h/index.php?title=A{i % 7}&action=history&oldid={i}", "History") for i in range(40)]
FAMILY = [  # URL, held back (suspected: waits for the probes) after the history cluster is capped?
    ("http://h/index.php?title=B&action=history&oldid=3", True),            # same shape
    ("http://h/index.php?title=B&action=history&oldid=3&limit=5", True),    # superset
    ("http://h/index.php?action=history&oldid=9", True),                   # subset, anchored
    ("http://h/index.php?title=B&action=history&from=3", True),            # sibling, anchored
    # every key the trap grew along (title, oldid), whatever the constant says: another
    # view or spelling of the same growth is suspected too — the probes judge it
    ("http://h/index.php?title=B&action=edit&oldid=3&limit=5", True),
    ("http://h/index.php?title=B&oldid=3", True),
    ("http://h/index.php?title=B&action=edit&limit=5", False),             # constant differs
    ("http://h/index.php?oldid=3", False),                                 # one varied key
    ("http://h/index.php?title=B", False),                                 # the article
    ("http://h/other.php?title=B&action=history&oldid=3&limit=5", False),   # other path
]


@pytest.mark.parametrize(("url", "refused"), FAMILY)
def test_shape_families_both_directions(url: str, refused: bool) -> None:
    cap = SoftCap(10)
    assert fires_at(cap, [u for u, _ in CAPPED_HISTORY], title="History") is not None
    assert (cap.admit(url) is not None) is refused


def test_family_survives_resume_through_the_event_row() -> None:
    cap = SoftCap(10)
    fires_at(cap, [u for u, _ in CAPPED_HISTORY], title="History")
    row = cap.events[0].row()
    resumed = SoftCap(10)
    resumed.restore(1, row["signature"], set(row["signals"]["shapes"]),
                    row["signals"]["queryValues"])
    for url, refused in FAMILY:
        assert (resumed.admit(url) is not None) is refused, url


def _product(cap: SoftCap, url: str, i: int, *, same: bool = False) -> CapEvent | None:
    """One product page under the CMS's one title, og:url and canonical self; its code,
    price and depot are its own (``same``: the first product's, shown again)."""
    keys = page_keys(url, title="Product", description="d", og_title="Product", og_url=url)
    signals = page_signals(url, og_url=url, canonical=url, has_prev_next=False,
                           title="Product")
    j = 0 if same else i
    html = (f"<html><body><main><h1>Product ZR-{10_000 + j}</h1><p>Price {j}.99 EUR</p>"
            f"<p>Ships from depot {j % 7} in {j % 5 + 1} days</p></main></body></html>")
    return cap.observe(url, keys, signals, content=main_content(parse_html(html), url))


@pytest.mark.parametrize("n", [10, 20, 100, 300])
@pytest.mark.parametrize("same", [False, True], ids=["own-codes", "one-product-again"])
def test_generic_catalogue_is_suspected_at_most_and_its_probes_decide(n: int,
                                                                      same: bool) -> None:
    # codes and prices differ only in their numbers: the cluster may be suspected (a
    # suspicion defers), but the probes see codes and prices no page showed, and release
    # it; the same product again under new ids is refused — both directions
    cap = SoftCap(n)
    urls = [f"http://h/products/item-{i}/" for i in range(6 * n)]
    fired, event = next((k, e) for k, u in enumerate(urls)
                        if (e := _product(cap, u, k)) is not None)
    assert isinstance(event, CapEvent)
    cap.record(event, 1)
    waiting = urls[fired + 1:]
    assert all(cap.admit(u) == 1 for u in waiting[:5])          # held back, not fetched
    case = cap.deferral.cases[1]
    picks, _ = cap.deferral.start(case, waiting)
    for url in picks:
        assert cap.admit(url, queued=True) is None             # a probe is fetched
        _product(cap, url, urls.index(url), same=same)
    released, refused = cap.deferral.conclude(case)
    assert (released, refused) == (([], ["h/products/{n}/"]) if same
                                   else (["h/products/{n}/"], []))


def test_dedupe_allow_exempts_a_path() -> None:
    cap = SoftCap(10, allow=lambda u: "/archive/" in u)
    urls = [f"http://h/archive/?offset={10 * i}" for i in range(100)]
    assert fires_at(cap, urls, title="Archive") is None and not cap.counters
    assert fires_at(cap, [f"http://h/other/?offset={i}" for i in range(30)],
                    title="Other") is not None
    assert cap.admit("http://h/other/?offset=999") == 1


def test_noindex_views_count_as_repeats_once_the_site_has_content() -> None:
    """Edit, history and info views: one title per article, all ``noindex``."""
    cap = SoftCap(100)
    for i in range(30):
        feed(cap, f"http://h/index.php?title=A{i}", title=f"A{i}")
    fired = None
    views = [f"http://h/index.php?title=A{i}&action={a}" for a in ("edit", "info", "history")
             for i in range(200)]
    for n, url in enumerate(views, start=1):
        fired = feed(cap, url, title=f"View {n}", indexable=False)
        if fired is not None:
            break
    assert fired == 1 and cap.events[0].kind == "repeat" and n == 101
    assert cap.admit("http://h/index.php?title=B&action=edit") == 1
    assert cap.admit("http://h/index.php?title=B") is None       # articles: indexable


def test_noindex_everywhere_is_not_a_trap() -> None:
    """A staging site says ``noindex`` on every page: distinct pages stay novel."""
    cap = SoftCap(10)
    for i in range(500):
        assert feed(cap, f"http://h/p?id={i}", title=f"Product {i}", indexable=False) is None
    assert cap.is_novel("h/p?id={v}")


def test_articles_beside_many_noindex_pages_of_their_shape_are_never_gated() -> None:
    cap = SoftCap(20)
    for i in range(100):
        feed(cap, f"http://h/index.php?title=A{i}", title=f"A{i}")
        for special in ("WhatLinksHere", "Related", "Log"):
            feed(cap, f"http://h/index.php?title=Special:{special}/A{i}",
                 title=f"{special} A{i}", indexable=False)
    assert cap.is_novel("h/index.php?title={v}")
    assert cap.admit("http://h/index.php?title=Late_article") is None
