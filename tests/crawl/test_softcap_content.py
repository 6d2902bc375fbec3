"""The soft cap's content rules, driven directly with real HTML: content repeat (a pager
past its end), copies of crawled pages (share variants), entity × view growth (a
repository at every revision), sort-order keys, legit signals as evidence only while
content is new, and concrete URLs never gated. Each rule in both directions."""

from __future__ import annotations

import html

from nitpicker_crawl.extract.content import main_content
from nitpicker_crawl.traps.softcap import SoftCap
from nitpicker_query.keys.page_keys import page_keys
from nitpicker_query.keys.signals import declared_target, page_signals
from page_cluster.nesting import parse_html

WORDS = ("oak", "pine", "elm", "ash", "yew", "fir", "beech", "birch", "cedar", "larch",
         "maple", "alder", "hazel", "holly", "rowan", "willow", "poplar", "lime", "spruce",
         "juniper")


def items(seed: int, n: int = 6) -> list[str]:
    """Distinct item lines for one page (no two pages share one)."""
    return [f"{WORDS[(seed + i) % 20].title()} {WORDS[(seed * 7 + i * 3) % 20]} set, "
            f"edition {WORDS[(seed // 20 + i) % 20]} {seed * 7 + 1000}-{i}" for i in range(n)]


def doc(title: str, lines: list[str], *, canonical: str | None = None,
        og_url: str | None = None, prev_next: bool = False, noindex: bool = False) -> str:
    head = f"<title>{html.escape(title)}</title>"
    if canonical:
        head += f"<link rel=canonical href='{canonical}'>"
    if og_url:
        head += f"<meta property='og:url' content='{og_url}'>"
    if prev_next:
        head += "<link rel=next href='x'>"
    if noindex:
        head += "<meta name=robots content=noindex>"
    body = "".join(f"<p>{html.escape(line)}</p>" for line in lines)
    return (f"<html><head>{head}</head><body><header>Shop header</header><main>"
            f"<h1>{html.escape(title)}</h1>{body}</main><footer>Footer text</footer></body></html>")


def feed(cap: SoftCap, url: str, title: str, lines: list[str], *,
         canonical: str | None = None, og_url: str | None = None, prev_next: bool = False,
         noindex: bool = False) -> int | None:
    page = doc(title, lines, canonical=canonical, og_url=og_url, prev_next=prev_next,
               noindex=noindex)
    keys = page_keys(url, title=title, description="d", og_title=title, og_url=og_url)
    signals = page_signals(url, og_url=og_url, canonical=canonical, has_prev_next=prev_next,
                           title=title)
    event = cap.observe(url, keys, signals, indexable=not noindex,
                        declared=declared_target(url, og_url=og_url, canonical=canonical),
                        content=main_content(parse_html(page), url))
    if event is None:
        return None
    event_id = len(cap.events) + 1
    cap.record(event, event_id)
    return event_id


# ---------------------------------------------------------------- content repeat

def test_a_pager_past_its_end_is_capped_despite_every_legit_signal() -> None:
    cap = SoftCap(100)
    fired = None
    for n in range(1, 400):
        url = f"http://h/catalog?page={n}"
        lines = items(min(n, 8))  # page 9, 10, … repeat page 8's items
        fired = feed(cap, url, f"Catalog - Page {n}", lines, canonical=url, og_url=url,
                     prev_next=True)
        if fired:
            break
    event = cap.events[0]
    assert n == 8 + 31 and event.kind == "repeat"  # 30 past the end: a trap's threshold
    assert event.signals["contentRepeat"] and not event.signals["relPrevNext"]
    assert cap.admit("http://h/catalog?page=5000") == fired
    assert cap.admit("http://h/catalog/item/oak") is None


def test_real_pagers_with_new_items_are_never_capped() -> None:
    """60 pages of different items: with ordinals and rel=prev/next, and with one title
    for every page and no signal at all (a forum thread), at caps 10 and 1000."""
    for n_cap in (10, 1000):
        for signals in (True, False):
            cap = SoftCap(n_cap)
            for n in range(1, 61):
                url = f"http://h/thread?p={n}"
                title = f"Catalog - Page {n}" if signals else "Which tent for the Alps?"
                assert feed(cap, url, title, items(n * 13), canonical=url,
                            prev_next=signals) is None, (n_cap, signals, n)
            assert cap.admit("http://h/thread?p=61") is None


def test_same_meta_same_content_is_still_capped() -> None:
    """The other direction of the fresh-content veto: identical meta and nothing new."""
    cap = SoftCap(10)
    fired = [feed(cap, f"http://h/thread?p={n}", "One thread", items(1)) for n in range(1, 40)]
    assert any(fired)


def test_one_generic_title_catalogue_is_never_capped_at_any_cap() -> None:
    for n_cap in (10, 20, 100, 1000):
        cap = SoftCap(n_cap)
        for n in range(1, 121):
            url = f"http://h/catalogue/?page={n}"
            assert feed(cap, url, "Catalogue | Shop", items(n * 17), canonical=url,
                        og_url=url) is None, (n_cap, n)


# ---------------------------------------------------------------- copies

def _articles(cap: SoftCap, slugs: list[str]) -> None:
    for slug in slugs:
        clean = f"http://h/news/{slug}"
        feed(cap, clean, f"{slug} news", items(len(slug) * 31 + ord(slug[0])),
             canonical=clean, og_url=clean)


SLUGS = [f"{a}-{b}" for a in WORDS[:8] for b in WORDS[8:13]]


def test_share_variants_of_crawled_pages_are_one_family_across_articles() -> None:
    cap = SoftCap(100)
    _articles(cap, SLUGS[:20])
    fired = None
    for i, slug in enumerate(SLUGS[:20]):
        clean = f"http://h/news/{slug}"
        fired = feed(cap, f"{clean}?ref=r{i}x&utm_source=mail", f"{slug} news",
                     items(len(slug) * 31 + ord(slug[0])), canonical=clean, og_url=clean)
        if fired:
            break
    event = cap.events[0]
    assert event.kind == "copy" and event.observed_count == 6 and i == 5
    assert event.gate == {"copyKeys": ["ref", "utm_source"],
                          "copyTarget": f"h/news/{SLUGS[0]}"}  # the first copy's
    # any article's share variant, even one never seen, any value, extra keys too
    assert cap.admit(f"http://h/news/{SLUGS[30]}?ref=zz&utm_source=x&lang=de") == fired
    assert cap.admit(f"http://h/news/{SLUGS[30]}") is None           # the article itself
    assert cap.admit(f"http://h/news/{SLUGS[3]}?view=print") is None  # another page
    assert cap.admit(f"http://h/news/{SLUGS[3]}?ref=zz") is None      # not the family


def test_a_variant_with_different_content_is_not_a_copy() -> None:
    cap = SoftCap(100)
    _articles(cap, SLUGS[:20])
    for i, slug in enumerate(SLUGS[:20]):
        clean = f"http://h/news/{slug}"
        # declares the article, same meta, but shows comments too: not a copy
        assert feed(cap, f"{clean}?ref=r{i}x&utm_source=mail", f"{slug} news",
                    items(len(slug) * 31 + ord(slug[0])) + items(900 + i),
                    canonical=clean, og_url=clean) is None
    assert not cap.copy_gates
    assert cap.admit(f"http://h/news/{SLUGS[3]}?ref=a&utm_source=b") is None


def test_a_copy_of_a_page_not_crawled_yet_is_not_a_copy() -> None:
    cap = SoftCap(100)
    for i, slug in enumerate(SLUGS):
        clean = f"http://h/news/{slug}"
        feed(cap, f"{clean}?ref=r{i}&utm_source=m", "n", items(i), canonical=clean)
    assert not cap.copy_gates


def test_copy_and_view_caps_survive_resume() -> None:
    cap = SoftCap(100)
    _articles(cap, SLUGS[:10])
    for i, slug in enumerate(SLUGS[:10]):
        clean = f"http://h/news/{slug}"
        feed(cap, f"{clean}?ref=r{i}&utm_source=m", f"{slug} news",
             items(len(slug) * 31 + ord(slug[0])), canonical=clean, og_url=clean)
    row = cap.events[0].row()
    again = SoftCap(100)
    again.restore(1, row["signature"], set(row["signals"]["shapes"]),
                  row["signals"]["queryValues"], row["signals"])
    assert again.admit(f"http://h/news/{SLUGS[30]}?ref=q&utm_source=z") == 1
    assert again.admit(f"http://h/news/{SLUGS[30]}") is None


# ---------------------------------------------------------------- entity × view

FILES = [f"src/{w}.py" for w in WORDS]


def code(path: str, rev: int) -> list[str]:
    """A file's lines at a revision: one line changes per revision."""
    return [f"{path.split('/')[-1][:-3]}_{w} = '{WORDS[(j + (rev if j == rev % 12 else 0)) % 20]}'"
            for j, w in enumerate(WORDS[:12])]


def test_views_of_entities_at_every_revision_are_capped_across_entities() -> None:
    cap = SoftCap(20)
    for path in FILES:  # every file at HEAD: the entities
        assert feed(cap, f"http://h/browser/{path}", path, code(path, 99)) is None
    fired = None
    seen = 0
    for rev in range(1, 40):
        for path in FILES:
            url = f"http://h/browser/{path}?rev=r{rev}x"
            fired = feed(cap, url, f"{path} at r{rev}x", code(path, rev), prev_next=True)
            seen += 1
            if fired:
                break
        if fired:
            break
    event = cap.events[0]
    assert event.kind == "view" and event.gate == {"view": "h/browser", "viewKeys": ["rev"]}
    assert seen <= 3 * 20
    # every file's views are refused now, also files never seen, with more keys
    assert cap.admit("http://h/browser/lib/new.py?rev=abc123&format=txt") == fired
    # never the entities themselves, and not another view
    assert cap.admit("http://h/browser/lib/new.py") is None
    assert cap.admit(f"http://h/browser/{FILES[0]}") is None
    assert cap.admit("http://h/browser/lib/new.py?annotate=1") is None


def test_trailing_path_views_repeating_their_entity_are_capped() -> None:
    cap = SoftCap(10)
    for rev in range(1, 30):
        feed(cap, f"http://h/changeset/a{rev}b", f"Changeset {rev}",
             [line for p in FILES[:3] for line in code(p, rev)])
    fired = None
    for rev in range(1, 30):
        for p in FILES[:3]:
            fired = fired or feed(cap, f"http://h/changeset/a{rev}b/{p}",
                                  f"Changeset {rev} for {p}", code(p, rev))
    assert fired is not None and cap.events[0].gate == {"view": "h/changeset/{n}/*",
                                                        "viewKeys": None}
    assert cap.admit("http://h/changeset/a99b/src/x.py") == fired
    assert cap.admit("http://h/changeset/a99b") is None


def test_posts_under_a_dated_path_are_not_views() -> None:
    """The other direction: ``/blog/2024/05/<slug>`` pages each bring new content, so
    they never count as views of ``/blog/2024/05``, at any cap."""
    cap = SoftCap(10)
    for month in range(1, 13):
        feed(cap, f"http://h/blog/2024/{month:02d}", "Archive", items(month))
        for k in range(12):
            url = f"http://h/blog/2024/{month:02d}/{WORDS[k]}-{WORDS[month]}"
            assert feed(cap, url, "Blog", items(month * 100 + k, 10)) is None
    assert not cap.view_gates and not cap.events


def test_a_sort_key_is_learned_from_the_pages() -> None:
    """``order`` shows the same entries in another order: it makes no view of its own;
    ``rev`` showing the same entries in the same order is not a sort key."""
    cap = SoftCap(100)
    for d in WORDS[:6]:
        entries = [f"{d} file {w}" for w in WORDS[:8]]
        feed(cap, f"http://h/browser/{d}", d, entries)
        feed(cap, f"http://h/browser/{d}?order=size", d, list(reversed(entries)))
        feed(cap, f"http://h/browser/{d}?rev=r1x", d, entries)
    assert cap.reorder.get("h/browser") == {"order"}
    # rev showed the same entries in the same order as the page without it: it changes
    # nothing there, but alone it still names the file's view (tests below)
    assert cap.inert.get("h/browser") == {"rev"}


def _calendar(cap: SoftCap, project: str, spelling: str, month: int, year: int,
              *, listed: list[str] | None = None) -> int | None:
    """One month of a project's calendar, with its month in the heading and the same
    empty grid every month (the trap), or ``listed`` entries."""
    url = f"http://h/projects/{project}/calendar?{spelling}month={month}&year={year}"
    lines = [f"Calendar: month {month} of {year}", "Mon Tue Wed Thu Fri Sat Sun",
             "No issues due this month", "Previous month", "Next month"]
    return feed(cap, url, f"Calendar - {project}", lines + (listed or []),
                og_url=url, canonical=url)


def _calendars(spellings: tuple[str, ...], *, months: int) -> SoftCap:
    """Three projects' calendars, each spelling met first on the current month (its
    overview links every spelling there), then months going back in every spelling."""
    cap = SoftCap(20)
    for project in WORDS[:3]:
        feed(cap, f"http://h/projects/{project}", project.title(), items(len(project)))
        for spelling in spellings:
            _calendar(cap, project, spelling, 5, 2024)
    for back in range(1, months + 1):
        for project in WORDS[:3]:
            for spelling in spellings:
                _calendar(cap, project, spelling, 1 + back % 12, 2024 - back // 12)
    return cap


SPELLINGS = ("", "set_filter=1&", "query_id=3&")


def test_a_calendar_reached_through_three_spellings_is_one_cluster() -> None:
    """``set_filter=1`` and ``query_id=3`` show the very page the calendar shows without
    them: learned from the pages, they make no view of their own, so the three link
    spellings count as one suspect at one threshold (legit signals: 5 × 20 = 100), not
    three suspects and three thresholds."""
    cap = _calendars(SPELLINGS, months=40)
    assert cap.inert.get("h/projects") == {"set_filter", "query_id"}
    assert len(cap.events) == 1
    event = cap.events[0]
    assert event.effective_threshold == 100 and event.observed_count == 101
    # the other spellings wait behind the one event too
    assert cap.admit("http://h/projects/oak/calendar?query_id=3&month=1&year=1990") == 1
    assert cap.admit("http://h/projects/oak/calendar?set_filter=1&month=1&year=1990") == 1


def test_a_key_learned_to_change_nothing_is_a_view_again_once_it_does() -> None:
    """Learned from the calendars that ``query_id`` changes nothing, then met on a month
    where the saved query lists other issues than the plain calendar (the plain month
    crawled first): from then on it names a view of its own."""
    cap = _calendars(SPELLINGS, months=3)
    assert "query_id" in cap.inert.get("h/projects", set())
    _calendar(cap, "oak", "", 6, 2031)
    _calendar(cap, "oak", "query_id=3&", 6, 2031,
              listed=[f"Issue oak {w}" for w in WORDS[:4]])
    assert "query_id" not in cap.inert.get("h/projects", set())
    assert "set_filter" in cap.inert["h/projects"]   # the other key is not touched


def test_a_key_that_changes_the_page_keeps_its_own_view() -> None:
    """The other direction: ``query_id=7`` lists other issues than the plain calendar on
    the current month, and shows the same empty grid on every other month. One page where
    the key changes what is shown makes it a view: the two spellings stay two clusters."""
    cap = SoftCap(20)
    for project in WORDS[:3]:
        feed(cap, f"http://h/projects/{project}", project.title(), items(len(project)))
        _calendar(cap, project, "", 5, 2024)
        _calendar(cap, project, "query_id=7&", 5, 2024,
                  listed=[f"Issue {project} {w}" for w in WORDS[:4]])
    for back in range(1, 41):
        for project in WORDS[:3]:
            for spelling in ("", "query_id=7&"):
                _calendar(cap, project, spelling, 1 + back % 12, 2024 - back // 12)
    assert "query_id" not in cap.inert.get("h/projects", set())
    assert len(cap.events) == 2
    assert {tuple(e.gate["viewKeys"]) for e in cap.events} == {("month", "year"),
                                                               ("month", "query_id", "year")}


# ---------------------------------------------------------------- hubs

def test_a_hub_found_late_is_crawled_although_its_cluster_was_capped() -> None:
    """Pages of one meta under ``/timeline`` — the bare hub among them — are capped;
    the hub URL met later again (another spelling) is not refused: a concrete URL is one
    page, never a trap's shape."""
    cap = SoftCap(10)
    feed(cap, "http://h/timeline", "Timeline", ["No events on this day"] * 1)
    fired = None
    for day in range(1, 40):
        fired = fired or feed(cap, f"http://h/timeline?from={day}", "Timeline",
                              [f"Day {day}", "No events on this day", "Older", "Newer"])
    assert fired is not None
    assert cap.admit("http://h/timeline?from=500") == fired
    assert cap.admit("https://www.h/timeline/") is None
    assert cap.admit("http://h/timeline") is None


# ---------------------------------------------------------------- what a probe brings


def _probe(cap: SoftCap, url: str, lines: list[str]) -> int:
    """Fetch ``url`` as a probe of a suspect cluster: the blocks it brings that count."""
    from nitpicker_crawl.traps.deferral import Probe

    probe = cap.deferral.probing[url] = Probe(url, "shape")
    feed(cap, url, "Source", lines)
    return probe.new


def test_a_probe_brings_only_what_no_page_of_the_site_showed() -> None:
    cap = SoftCap(cap=100)
    message = "Rework Unicode handling of the memory resolver, refs #35"
    code = ["def step_0():", "return the scanner column", "def step_1():", "load the proxy"]
    feed(cap, "https://e.com/changeset/8f3a21", "Changeset", [message, *items(1)])
    feed(cap, "https://e.com/files/core.py", "Source", ["Last change: 39d1ec2", *code])
    # an old revision: its commit message, which the changeset page printed, is not new
    assert _probe(cap, "https://e.com/files/core.py?rev=11a090b", [message, *code]) == 0
    # a line no page printed is
    assert _probe(cap, "https://e.com/files/core.py?rev=3d10b90",
                  ["Harden error messages of the observer sandbox", *code]) == 1
