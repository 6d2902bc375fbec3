"""A held-out test website for crawler-trap handling: "Holdout Works".

The site was written from a description of how real sites behave, without knowledge of how
the crawler under test decides what a trap is. It is the company site of "Holdout Works",
built on an off-the-shelf CMS that sets generic default metadata: many pages of one section
share the same title and description. It mixes finite *legit* sections, which a complete
crawl must fetch entirely, with *trap* families, URL spaces that generate new pages forever
or combinatorially. Every page is generated on request by plain string building and is
deterministic (each entity or page seeds its own ``random.Random``); only small data tables
(150 products, 60 issues, 20 people) are kept in memory.

Every page is a complete HTML document with a ``<title>``, ``<meta name="description">``,
``og:title``, ``og:url`` and ``<link rel="canonical">`` (both absolute, built from the
request's Host header), a site header with the "Holdout Works" logo link and an eight-link
navigation (Home, Shop, Forum, Projects, Feeds, People, Help, About), the page content in
``<main>``, and a footer of three short paragraphs with company links. All links are
root-relative. Unless stated otherwise og:title equals the title and og:url and the
canonical are the page's own URL. Unknown paths and malformed parameters answer 404.

Legit sections
--------------

Home, About, Help
    ``/`` introduces the company and links every section (and the site-wide activity stream,
    a trap). ``/about/`` and ``/help/`` are plain text pages with their own titles; the help
    page also links the session-stamped FAQ (a trap).

Shop (``/shop/``)
    A catalogue of 150 products over a real pager of 15 listing pages: ``/shop/`` is page 1,
    ``/shop/?page=2`` … ``/shop/?page=15`` the others, 10 products each. Every listing page
    is titled "Shop | Holdout Works" (no page number) with a self canonical. The pager shows
    "« Prev", the first page, a window of ±2 numbers, the (correct) last page, "Next »" and a
    "Jump +10" link to ``?page=N+10``. Product pages ``/shop/product/<id>`` (ids of 4–6
    digits, not consecutive) all carry the CMS default title "Product | Holdout Works" and
    description "Quality products from Holdout Works."; og:url and canonical are the
    product's own URL. The body is only an ``<h1>Product XX-12345</h1>`` code, a
    ``<p>Price 47.99 EUR</p>`` line (prices repeat between products), an availability line
    from a handful of variants, and "Related products": three links to other products.

Forum (``/forum/``)
    The index links one long thread ``/forum/thread/8812``, 150 pages of 8 distinct posts
    (``?page=2`` … ``?page=150``; page 1 is the bare URL). All pages share the title
    "Re: Holdout 2.0 release discussion | Holdout Forum", description and og:title; og:url is
    the thread's first page for every page, the canonical is the page itself. No
    ``rel=prev/next``; the pager is "« Prev", 1, a ±2 window, 150, "Next »". Page 151+: 404.

Feeds (``/feeds/``)
    The index links two cursor feeds. ``/feeds/releases`` shows 10 release notes and an
    "Older" link to ``/feeds/releases?cursor=<12-char token>``; four pages of distinct notes,
    the fourth without "Older". Both feeds title every page "Feed | Holdout Works" with one
    shared description; og:url is the feed's bare URL, the canonical is the page itself.
    ``/feeds/events`` and its first older page hold 20 distinct events and are legit; what
    follows is trap family "trap-feed".

Projects (``/projects/``)
    A tracker for three projects, "holdout", "widgets" and "gauge". Each has an overview
    ``/projects/<p>/``, an issue list ``/projects/<p>/issues`` (all 20 issues of the project,
    newest first), 20 issue pages ``/projects/<p>/issues/<id>`` titled
    "Issue #<id>: <summary> - <Project>", a code browser at ``/projects/<p>/repository/``
    whose directories and files live under ``/projects/<p>/repository/entry/<path>``
    (directories end in ``/``; files show their code in a ``<pre>``, titled
    "<path> - <Project> - Holdout Works"), a history page ``/projects/<p>/repository/revisions``
    and 12 changesets ``/projects/<p>/repository/revisions/<sha7>`` (message, author, date and
    changed files). "holdout" has ``src/holdout/`` with ten modules and a ``tests/`` directory
    with three test files; "gauge" repeats its name in ``lib/gauge/gauge/core.py``.

People (``/people/``)
    A directory of 20 members, each with a profile ``/people/<username>`` (own title) that
    lists the member's projects, reported issues and a link to the activity stream (a trap).

Trap families
-------------

"activity"
    ``/people/<username>/activity?from=YYYY-MM-DD`` and the site-wide ``/activity?from=…``:
    "Activity of <name> from <date> back 30 days", usually "No activity in this period" or the
    same two or three recent entries again, and a "« Previous 30 days" link to the date 30
    days earlier, with no lower bound (years before 1 are written ``0000``, ``-0001`` …).
    One title per stream: "Activity - <Name> | Holdout Works" / "Activity | Holdout Works".

"calendar"
    ``/projects/<p>/calendar?month=M&year=Y``, also spelled ``?set_filter=1&month=M&year=Y``
    and ``?query_id=3&month=M&year=Y``; the overview links all three for the current month
    (May 2024), and every calendar keeps its spelling in its previous/next-month links.
    Months go on forever both ways. Titled "Calendar - <Project>"; the month grid shows one or
    two issues in May 2024 and nothing in any other month.

"issue-queries"
    ``/projects/<p>/issues?sort=<col>&status=<s>&per_page=<n>&page=<k>`` (parameters always
    in that order): every list links the five sort columns ascending and descending
    (``sort=id`` / ``sort=id:desc``), the statuses open/closed/all, the page sizes 25/50/100,
    and a pager whose "Next »" is always there; past the end the list says "No issues found".
    Every issue-list URL with a query string belongs to this family.

"trap-feed"
    ``/feeds/events?cursor=<token>`` past the first older page: each page has an "Older"
    link with a fresh token derived from its own, forever, and shows "No older events" with
    the same two events again.

"pager-past-end"
    ``/shop/?page=N`` for N > 15, reached through "Jump +10": answers 200 with page 15's
    products under the same "Shop | Holdout Works" title, and links further jumps.

"session"
    ``/help/;jsessionid=<32 hex>/faq``: the same FAQ on every page, whose links carry two fresh
    session ids each (so the space grows without end).
"""

from __future__ import annotations

import base64
import calendar
import contextlib
import datetime as dt
import functools
import hashlib
import html
import http.server
import math
import random
import re
import sys
import threading
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import dataclass

SITE = "Holdout Works"
TODAY = dt.date(2024, 5, 14)
FAMILIES: tuple[str, ...] = ("activity", "calendar", "issue-queries", "trap-feed",
                             "pager-past-end", "session")

NAV = (("/", "Home"), ("/shop/", "Shop"), ("/forum/", "Forum"), ("/projects/", "Projects"),
       ("/feeds/", "Feeds"), ("/people/", "People"), ("/help/", "Help"), ("/about/", "About"))

SHOP_PAGES = 15
SHOP_PER_PAGE = 10
N_PRODUCTS = SHOP_PAGES * SHOP_PER_PAGE
THREAD_ID = 8812
THREAD_PAGES = 150
POSTS_PER_PAGE = 8
THREAD_TITLE = "Re: Holdout 2.0 release discussion"
RELEASE_PAGES = 4
FEED_PER_PAGE = 10
FEED_DESCRIPTION = "The latest news and updates from Holdout Works."
ISSUES_PER_PROJECT = 20
REVS_PER_PROJECT = 12
SORT_COLUMNS = ("id", "tracker", "status", "subject", "updated")
STATUSES = ("open", "closed", "all")
PER_PAGES = ("25", "50", "100")

PROJECTS: dict[str, tuple[str, str]] = {
    "holdout": ("Holdout", "The Holdout job runner: schedules, stores and reports measurement "
                           "jobs across a fleet of gauges."),
    "widgets": ("Widgets", "A small library of dashboard widgets used by the Holdout web UI."),
    "gauge": ("Gauge", "Drivers and unit conversions for the Holdout hardware gauges."),
}
HOLDOUT_MODULES = ("__init__", "cli", "config", "engine", "storage", "network", "scheduler",
                   "report", "utils", "plugins")
TREES: dict[str, tuple[str, ...]] = {
    "holdout": ("README.md", "src/", "src/holdout/",
                *(f"src/holdout/{m}.py" for m in HOLDOUT_MODULES), "src/holdout/tests/",
                *(f"src/holdout/tests/test_{m}.py" for m in ("config", "engine", "storage"))),
    "widgets": ("README.md", "docs/", "docs/index.md", "widgets/", "widgets/__init__.py",
                "widgets/button.py", "widgets/slider.py"),
    "gauge": ("README.md", "lib/", "lib/gauge/", "lib/gauge/setup.py", "lib/gauge/gauge/",
              "lib/gauge/gauge/core.py", "lib/gauge/gauge/units.py"),
}

FIRST = ("Anna", "Bernd", "Carla", "Dieter", "Elif", "Felix", "Greta", "Hakan", "Ines",
         "Jonas", "Katrin", "Lars", "Mira", "Nils", "Olga", "Paul", "Rosa", "Sven", "Tanja",
         "Uwe")
LAST = ("Koch", "Brandt", "Wolf", "Yilmaz", "Hartmann", "Lehmann", "Krause", "Vogel",
        "Schulz", "Peters", "Roth", "Berger", "Kaiser", "Frank", "Seidel", "Haas", "Jung",
        "Ludwig", "Otto", "Kuhn")
ROLES = ("Developer", "Support engineer", "Product manager", "Hardware engineer", "Tester",
         "Technical writer")
GUESTS = ("gaugefan42", "m.rossi", "lab_tech", "oldtimer", "jz", "quietbyte", "sensorguy")

OPENERS = ("After upgrading to 2.0", "On our staging box", "Since the last nightly",
           "With the default settings", "On a fresh install", "In our lab setup",
           "Running under Windows", "Behind our corporate proxy", "With twelve gauges attached",
           "After the migration script", "On the Raspberry Pi build", "In the Docker image")
THINGS = ("the scheduler", "the storage backend", "the CLI", "the report generator",
          "the plugin loader", "config parsing", "the network layer", "the web dashboard",
          "the export to CSV", "the unit converter", "the retry logic", "the calibration step",
          "the job queue", "the log rotation")
VERBS = ("crashes when", "slows down noticeably when", "works fine even when",
         "refuses to start if", "logs a warning whenever", "hangs for a minute when",
         "silently drops data when", "uses far more memory when", "behaves differently when",
         "times out when", "reports wrong totals when", "restarts itself when")
CONDITIONS = ("the config file has comments", "more than fifty jobs are queued",
              "IPv6 is disabled", "the disk is almost full", "two gauges share a port",
              "the clock jumps at daylight saving time", "reports are larger than 10 MB",
              "the database lives on NFS", "a plugin raises on import",
              "the locale is set to German", "jobs are scheduled at midnight",
              "TLS verification is turned off", "the host name has an underscore")
FOLLOWUPS = ("Has anyone else seen this?", "Thanks for the great release!",
             "I will try the patch from the issue tracker.", "Downgrading fixed it for us.",
             "Logs are attached below.", "Same here, on two machines.",
             "Setting the timeout higher is a workaround.", "Any news on a point release?",
             "The changelog does not mention it.", "Confirmed, see my earlier post.")
ACTIONS = ("Fixed", "Improved", "Rewrote", "Sped up", "Documented", "Hardened", "Simplified",
           "Added options for")
CODE_VERBS = ("load", "save", "parse", "render", "check", "merge", "split", "open", "close",
              "resolve", "convert", "schedule")
CODE_NOUNS = ("config", "job", "gauge", "report", "reading", "queue", "plugin", "unit",
              "record", "batch", "window", "channel")
FAQ = (("How do I reset my password?", "Use the link on the login page; the mail arrives "
        "within five minutes."),
       ("Where do I find invoices?", "Invoices are attached to the order confirmation mail."),
       ("Which gauges does Holdout support?", "All Holdout Works gauges from series 2 on."),
       ("Can I return a product?", "Yes, within 30 days, unused and in its original box."),
       ("How do I report a bug?", "Open an issue in the project tracker under Projects."))


# --------------------------------------------------------------------------- helpers


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _a(href: str, text: str, rel: str | None = None) -> str:
    extra = f' rel="{_e(rel)}"' if rel else ""
    return f'<a href="{_e(href)}"{extra}>{_e(text)}</a>'


def _ul(items: list[str]) -> str:
    return "<ul>" + "".join(f"<li>{i}</li>" for i in items) + "</ul>"


def _rng(*key: object) -> random.Random:
    return random.Random("holdout-works/" + "/".join(str(k) for k in key))


def _token(*key: object) -> str:
    digest = hashlib.sha256("/".join(str(k) for k in key).encode()).digest()
    return base64.urlsafe_b64encode(digest).decode()[:12]


def _sentence(rng: random.Random) -> str:
    return (f"{rng.choice(OPENERS)}, {rng.choice(THINGS)} {rng.choice(VERBS)} "
            f"{rng.choice(CONDITIONS)}.")


def _pager(links: list[tuple[str | None, str]]) -> str:
    parts = [_a(href, text) if href else f"<span>{_e(text)}</span>" for href, text in links]
    return '<nav class="pager">' + " ".join(parts) + "</nav>"


# Dates may run past year 1 (activity streams have no lower bound): dates are kept as
# (year, month, day) and shifted inside a 400-year Gregorian cycle, which repeats exactly.


def _cycle_year(year: int) -> tuple[int, int]:
    k = (year - 2000) // 400
    return year - 400 * k, 400 * k


def _fmt_day(y: int, m: int, d: int) -> str:
    return f"{y:04d}-{m:02d}-{d:02d}" if y >= 0 else f"-{-y:04d}-{m:02d}-{d:02d}"


def _parse_day(text: str) -> tuple[int, int, int] | None:
    match = re.fullmatch(r"(-?\d{4,7})-(\d{2})-(\d{2})", text)
    if not match:
        return None
    y, m, d = (int(g) for g in match.groups())
    try:
        dt.date(_cycle_year(y)[0], m, d)
    except ValueError:
        return None
    return y, m, d


def _shift_day(day: tuple[int, int, int], delta: int) -> tuple[int, int, int]:
    base, offset = _cycle_year(day[0])
    moved = dt.date(base, day[1], day[2]) + dt.timedelta(days=delta)
    return moved.year + offset, moved.month, moved.day


# --------------------------------------------------------------------------- data


@dataclass(frozen=True)
class _Product:
    pid: int
    code: str
    price: str
    availability: str
    related: tuple[int, ...]  # indexes into _products()


@functools.cache
def _products() -> tuple[_Product, ...]:
    rng = _rng("products")
    ids = rng.sample(range(1000, 1_000_000), N_PRODUCTS)
    letters = "ABCDEFGHJKLMNPRSTUVWXZ"
    codes: list[str] = []
    while len(codes) < N_PRODUCTS:
        code = f"{rng.choice(letters)}{rng.choice(letters)}-{rng.randrange(100000):05d}"
        if code not in codes:
            codes.append(code)
    availability = ("In stock", "In stock", "In stock", "Ships in 3 days", "Ships in 1-2 weeks",
                    "Only a few left")
    out = []
    for i in range(N_PRODUCTS):
        price = f"{rng.randrange(3, 120)}.{rng.choice(('49', '90', '95', '99'))}"
        related = tuple(rng.sample([j for j in range(N_PRODUCTS) if j != i], 3))
        out.append(_Product(ids[i], codes[i], price, rng.choice(availability), related))
    return tuple(out)


@functools.cache
def _product_index() -> dict[int, int]:
    return {p.pid: i for i, p in enumerate(_products())}


@dataclass(frozen=True)
class _Person:
    username: str
    name: str
    role: str
    joined: dt.date


@functools.cache
def _people() -> tuple[_Person, ...]:
    rng = _rng("people")
    out = []
    for i, first in enumerate(FIRST):
        last = LAST[(i * 7) % len(LAST)]
        joined = dt.date(2015, 1, 1) + dt.timedelta(days=rng.randrange(3000))
        out.append(_Person(f"{first[0]}{last}".lower(), f"{first} {last}", rng.choice(ROLES),
                           joined))
    return tuple(out)


@functools.cache
def _person_map() -> dict[str, _Person]:
    return {p.username: p for p in _people()}


@dataclass(frozen=True)
class _Issue:
    iid: int
    project: str
    tracker: str
    status: str
    subject: str
    author: str
    updated: dt.date
    text: str

    @property
    def is_open(self) -> bool:
        return self.status in ("New", "In Progress", "Feedback")


@functools.cache
def _issues() -> tuple[_Issue, ...]:
    rng = _rng("issues")
    ids = sorted(rng.sample(range(1100, 4800), ISSUES_PER_PROJECT * len(PROJECTS)))
    owners = [p for p in PROJECTS for _ in range(ISSUES_PER_PROJECT)]
    rng.shuffle(owners)
    subjects: set[str] = set()
    out = []
    for iid, project in zip(ids, owners, strict=True):
        while True:
            subject = f"{rng.choice(THINGS)} {rng.choice(VERBS)} {rng.choice(CONDITIONS)}"
            subject = subject[0].upper() + subject[1:]
            if subject not in subjects:
                subjects.add(subject)
                break
        text = " ".join([_sentence(rng), _sentence(rng), rng.choice(FOLLOWUPS)])
        updated = TODAY - dt.timedelta(days=rng.randrange(400))
        status = rng.choice(("New", "In Progress", "Feedback", "Resolved", "Closed", "Rejected"))
        out.append(_Issue(iid, project, rng.choice(("Bug", "Bug", "Feature", "Support")),
                          status, subject, rng.choice(_people()).username, updated, text))
    return tuple(out)


def _project_issues(project: str) -> list[_Issue]:
    return [i for i in _issues() if i.project == project]


@dataclass(frozen=True)
class _Rev:
    sha: str
    project: str
    number: int
    message: str
    author: str
    when: dt.date
    files: tuple[tuple[str, str], ...]  # (action, path)


@functools.cache
def _revisions(project: str) -> tuple[_Rev, ...]:
    """The project's changesets, oldest first."""
    rng = _rng("revisions", project)
    files = [p for p in TREES[project] if not p.endswith("/")]
    issues = _project_issues(project)
    when = TODAY - dt.timedelta(days=200)
    out: list[_Rev] = []
    for n in range(1, REVS_PER_PROJECT + 1):
        sha = hashlib.sha1(f"{project}:{n}".encode()).hexdigest()[:7]
        if n == 1:
            message, changed = "Initial import", tuple(("A", f) for f in files)
        else:
            thing = rng.choice(THINGS).removeprefix("the ")
            message = (f"{rng.choice(ACTIONS)} {thing} when {rng.choice(CONDITIONS)} "
                       f"(refs #{rng.choice(issues).iid})")
            changed = tuple(("M", f) for f in sorted(rng.sample(files, rng.randint(1, 3))))
        when += dt.timedelta(days=rng.randint(3, 20))
        out.append(_Rev(sha, project, n, message, rng.choice(_people()).username, when,
                        changed))
    return tuple(out)


def _post_text(k: int) -> tuple[str, str]:
    rng = _rng("post", k)
    author = rng.choice([p.username for p in _people()] + list(GUESTS))
    sentences = [_sentence(rng) for _ in range(rng.randint(1, 3))] + [rng.choice(FOLLOWUPS)]
    return author, " ".join(sentences)


# --------------------------------------------------------------------------- page frame


@dataclass(frozen=True)
class _Req:
    origin: str  # "http://host:port"
    target: str  # path and query as requested

    @property
    def url(self) -> str:
        return self.origin + self.target


def _page(req: _Req, title: str, main: str, *, description: str, og_title: str | None = None,
          og_url: str | None = None, canonical: str | None = None) -> str:
    nav = "".join(f"<li>{_a(href, text)}</li>" for href, text in NAV)
    og = req.origin + og_url if og_url else req.url
    canon = req.origin + canonical if canonical else req.url
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{_e(title)}</title>\n"
        f'<meta name="description" content="{_e(description)}">\n'
        f'<meta property="og:title" content="{_e(og_title or title)}">\n'
        f'<meta property="og:url" content="{_e(og)}">\n'
        f'<meta property="og:site_name" content="{SITE}">\n'
        f'<link rel="canonical" href="{_e(canon)}">\n'
        "<style>body{font-family:sans-serif;margin:0 auto;max-width:60em}"
        "header nav li,footer li{display:inline;margin-right:1em}</style>\n"
        "</head>\n<body>\n"
        f'<header class="site-header"><a class="logo" href="/">{SITE}</a>\n'
        f'<nav class="main-nav"><ul>{nav}</ul></nav></header>\n'
        f"<main>\n{main}\n</main>\n"
        '<footer class="site-footer">\n'
        "<p>Holdout Works builds measuring gauges and the open-source software that runs them. "
        "Our workshop and offices are in Kassel, where we have been since 2009.</p>\n"
        "<p>Orders ship from our warehouse within two working days; questions about an order "
        f"go to the support team via the {_a('/help/', 'help pages')}.</p>\n"
        "<p>&copy; 2024 Holdout Works GmbH. Built with an off-the-shelf CMS.</p>\n"
        f"<ul>{''.join(f'<li>{_a(h, t)}</li>' for h, t in _FOOTER_LINKS)}</ul>\n"
        "</footer>\n</body>\n</html>\n"
    )


_FOOTER_LINKS = (("/about/", "About us"), ("/help/", "Help"), ("/feeds/", "Feeds"),
                 ("/people/", "Team"), ("/projects/", "Open source"))


# --------------------------------------------------------------------------- plain pages


def _home(req: _Req) -> str:
    featured = [_products()[i] for i in (0, 37, 74, 111)]
    main = (
        "<h1>Welcome to Holdout Works</h1>\n"
        "<p>We make precise, robust measuring gauges and the Holdout software that collects, "
        "stores and reports their readings.</p>\n"
        "<h2>Explore</h2>\n"
        + _ul([_a("/shop/", "Shop our catalogue"), _a("/forum/", "Community forum"),
               _a("/projects/", "Open-source projects"), _a("/feeds/", "Release and event feeds"),
               _a("/people/", "Meet the team"),
               _a(f"/activity?from={TODAY.isoformat()}", "Recent activity"),
               _a("/help/", "Help and support"), _a("/about/", "About the company")])
        + "\n<h2>Featured products</h2>\n"
        + _ul([_a(f"/shop/product/{p.pid}", f"Product {p.code}") for p in featured])
    )
    return _page(req, "Holdout Works - Measuring gauges and software", main,
                 description="Holdout Works builds measuring gauges and open-source software.")


def _about(req: _Req) -> str:
    main = (
        "<h1>About Holdout Works</h1>\n"
        "<p>Holdout Works started in 2009 as a two-person workshop repairing laboratory "
        "gauges. Today twenty people design, build and support our own gauge series.</p>\n"
        "<p>Our software, Holdout, is developed in the open; see the "
        f"{_a('/projects/', 'projects')} page for the tracker and the code.</p>\n"
        f"<p>Want to know who we are? Visit the {_a('/people/', 'team directory')}.</p>"
    )
    return _page(req, "About us | Holdout Works", main,
                 description="The story and the team behind Holdout Works.")


def _help(req: _Req) -> str:
    sid = hashlib.md5(b"holdout-works/help").hexdigest()
    main = (
        "<h1>Help and support</h1>\n"
        "<p>Most questions are answered in our frequently asked questions.</p>\n"
        f"<p>{_a(f'/help/;jsessionid={sid}/faq', 'Read the FAQ')}</p>\n"
        "<p>For problems with the Holdout software, please open an issue in the "
        f"{_a('/projects/holdout/issues', 'Holdout issue tracker')} or ask in the "
        f"{_a('/forum/', 'forum')}.</p>\n"
        "<p>Shop orders: write to the address on your order confirmation.</p>"
    )
    return _page(req, "Help | Holdout Works", main,
                 description="Support, frequently asked questions and contact options.")


def _faq(req: _Req, sid: str) -> str:
    fresh = [hashlib.md5(f"{sid}/{k}".encode()).hexdigest() for k in ("top", "more")]
    items = "".join(f"<dt>{_e(q)}</dt><dd>{_e(a)}</dd>" for q, a in FAQ)
    main = (
        f"<h1>Frequently asked questions</h1>\n<dl>{items}</dl>\n"
        f"<p>{_a(f'/help/;jsessionid={fresh[0]}/faq', 'Back to the top')} | "
        f"{_a(f'/help/;jsessionid={fresh[1]}/faq', 'More questions')} | "
        f"{_a('/help/', 'Help overview')}</p>"
    )
    return _page(req, "FAQ | Holdout Works", main,
                 description="Frequently asked questions about Holdout Works.")


# --------------------------------------------------------------------------- shop


def _shop_page_href(n: int) -> str:
    return "/shop/" if n == 1 else f"/shop/?page={n}"


def _shop_listing(req: _Req, n: int) -> str:
    shown = min(n, SHOP_PAGES)
    start = (shown - 1) * SHOP_PER_PAGE
    items = [f"{_a(f'/shop/product/{p.pid}', f'Product {p.code}')} {p.price} EUR"
             for p in _products()[start:start + SHOP_PER_PAGE]]
    links: list[tuple[str | None, str]] = []
    if n > 1:
        links.append((_shop_page_href(n - 1), "« Prev"))
    window = [k for k in range(n - 2, n + 3) if 1 < k < SHOP_PAGES]
    for k in [1, *window, SHOP_PAGES]:
        links.append((None if k == n else _shop_page_href(k), str(k)))
    if n < SHOP_PAGES:
        links.append((_shop_page_href(n + 1), "Next »"))
    links.append((_shop_page_href(n + 10), "Jump +10"))
    main = ("<h1>Shop</h1>\n<p>All products of the Holdout Works catalogue.</p>\n"
            f'<ul class="products">{"".join(f"<li>{i}</li>" for i in items)}</ul>\n'
            + _pager(links))
    return _page(req, "Shop | Holdout Works", main,
                 description="Browse the Holdout Works product catalogue.")


def _product(req: _Req, index: int) -> str:
    p = _products()[index]
    related = [_products()[j] for j in p.related]
    main = (f"<h1>Product {p.code}</h1>\n<p>Price {p.price} EUR</p>\n"
            f'<p class="availability">{p.availability}</p>\n<h2>Related products</h2>\n'
            + _ul([_a(f"/shop/product/{r.pid}", f"Product {r.code}") for r in related]))
    return _page(req, "Product | Holdout Works", main,
                 description="Quality products from Holdout Works.")


# --------------------------------------------------------------------------- forum


def _thread_href(n: int) -> str:
    base = f"/forum/thread/{THREAD_ID}"
    return base if n == 1 else f"{base}?page={n}"


def _forum_index(req: _Req) -> str:
    last = _thread_href(THREAD_PAGES)
    main = (
        "<h1>Holdout Forum</h1>\n<p>Discussions about Holdout Works products and software.</p>\n"
        '<table class="threads"><tr><th>Topic</th><th>Replies</th><th>Last post</th></tr>\n'
        f"<tr><td>{_a(_thread_href(1), THREAD_TITLE)}</td>"
        f"<td>{THREAD_PAGES * POSTS_PER_PAGE - 1}</td><td>{_a(last, 'Last page')}</td></tr>\n"
        "</table>"
    )
    return _page(req, "Holdout Forum", main,
                 description="Community forum of Holdout Works users.")


def _thread(req: _Req, n: int) -> str:
    posts = []
    users = _person_map()
    for i in range(POSTS_PER_PAGE):
        k = (n - 1) * POSTS_PER_PAGE + i + 1
        author, text = _post_text(k)
        who = _a(f"/people/{author}", users[author].name) if author in users else _e(author)
        day = dt.date(2023, 6, 1) + dt.timedelta(days=k // 4)
        posts.append(f'<article class="post" id="post-{k}"><header>#{k} by {who} on '
                     f"{day.isoformat()}</header><p>{_e(text)}</p></article>")
    links: list[tuple[str | None, str]] = []
    if n > 1:
        links.append((_thread_href(n - 1), "« Prev"))
    window = [k for k in range(n - 2, n + 3) if 1 < k < THREAD_PAGES]
    for k in [1, *window, THREAD_PAGES]:
        links.append((None if k == n else _thread_href(k), str(k)))
    if n < THREAD_PAGES:
        links.append((_thread_href(n + 1), "Next »"))
    main = (f"<h1>{_e(THREAD_TITLE)}</h1>\n<p>{_a('/forum/', 'Forum index')}</p>\n"
            + "\n".join(posts) + "\n" + _pager(links))
    return _page(req, f"{THREAD_TITLE} | Holdout Forum", main,
                 description="Discussion of the Holdout 2.0 release in the Holdout Forum.",
                 og_url=_thread_href(1))


# --------------------------------------------------------------------------- feeds


def _feeds_index(req: _Req) -> str:
    main = ("<h1>Feeds</h1>\n<p>Follow what happens at Holdout Works.</p>\n"
            + _ul([_a("/feeds/releases", "Software releases"),
                   _a("/feeds/events", "Build and community events")]))
    return _page(req, "Feeds | Holdout Works", main,
                 description="Release notes and event feeds of Holdout Works.")


def _release_note(k: int) -> str:
    rng = _rng("release", k)
    minor, patch = divmod(200 - k, 10)
    return (f"Holdout 2.{minor}.{patch}: {rng.choice(ACTIONS)} "
            f"{rng.choice(THINGS).removeprefix('the ')}; {_sentence(rng)}")


def _event(k: int) -> str:
    rng = _rng("event", k)
    who = rng.choice(_people()).name
    kind = rng.randrange(3)
    if kind == 0:
        return (f"Build #{9000 - k} of {rng.choice(('main', 'release-2.0', 'nightly'))} "
                f"{rng.choice(('passed', 'failed'))} in {rng.randint(3, 40)} minutes.")
    if kind == 1:
        return f"{who} joined the {rng.choice([v[0] for v in PROJECTS.values()])} project."
    return f"{who} spoke at meetup #{200 - k}: {rng.choice(THINGS)} in practice."


def _feed_frame(req: _Req, feed: str, heading: str, entries: list[str],
                older: str | None, extra: str = "") -> str:
    items = "".join(f'<li class="entry">{_e(t)}</li>' for t in entries)
    links: list[tuple[str | None, str]] = []
    if req.target != f"/feeds/{feed}":
        links.append((f"/feeds/{feed}", "Newest"))
    if older:
        links.append((f"/feeds/{feed}?cursor={older}", "Older"))
    main = f"<h1>{heading}</h1>\n{extra}<ul>{items}</ul>\n" + _pager(links)
    return _page(req, "Feed | Holdout Works", main, description=FEED_DESCRIPTION,
                 og_url=f"/feeds/{feed}")


def _releases(req: _Req, n: int) -> str:
    notes = [_release_note((n - 1) * FEED_PER_PAGE + i) for i in range(FEED_PER_PAGE)]
    older = _token("releases", n + 1) if n < RELEASE_PAGES else None
    return _feed_frame(req, "releases", "Releases", notes, older)


def _events(req: _Req, n: int, cursor: str | None) -> str:
    if n <= 2:
        entries = [_event((n - 1) * FEED_PER_PAGE + i) for i in range(FEED_PER_PAGE)]
        older = _token("events", 2) if n == 1 else _token("events-next", cursor)
        return _feed_frame(req, "events", "Events", entries, older)
    return _feed_frame(req, "events", "Events", [_event(0), _event(1)],
                       _token("events-next", cursor), "<p>No older events.</p>\n")


# --------------------------------------------------------------------------- people, activity


def _people_index(req: _Req) -> str:
    rows = [f"{_a(f'/people/{p.username}', p.name)} - {p.role}" for p in _people()]
    main = ("<h1>People</h1>\n<p>The Holdout Works team.</p>\n" + _ul(rows)
            + f"\n<p>{_a(f'/activity?from={TODAY.isoformat()}', 'Activity of everyone')}</p>")
    return _page(req, "People | Holdout Works", main,
                 description="Members of the Holdout Works team.")


def _profile(req: _Req, person: _Person) -> str:
    reported = [i for i in _issues() if i.author == person.username][:5]
    projects = sorted({i.project for i in _issues() if i.author == person.username})
    stream = f"/people/{person.username}/activity?from={TODAY.isoformat()}"
    main = (
        f"<h1>{_e(person.name)}</h1>\n<p>{_e(person.role)}, member since "
        f"{person.joined.isoformat()}.</p>\n<h2>Projects</h2>\n"
        + _ul([_a(f"/projects/{p}/", PROJECTS[p][0]) for p in projects])
        + "\n<h2>Reported issues</h2>\n"
        + _ul([_a(f"/projects/{i.project}/issues/{i.iid}", f"#{i.iid}: {i.subject}")
               for i in reported])
        + f"\n<p>{_a(stream, 'Activity')}</p>"
    )
    return _page(req, f"{person.name} | Holdout Works", main,
                 description=f"Profile of {person.name}, {person.role} at Holdout Works.")


def _recent_entries(username: str | None) -> list[str]:
    rng = _rng("recent", username)
    project = rng.choice(list(PROJECTS))
    issue = rng.choice(_project_issues(project))
    rev = rng.choice(_revisions(project))
    entries = [
        f"{(TODAY - dt.timedelta(days=2)).isoformat()} commented on "
        + _a(f"/projects/{project}/issues/{issue.iid}", f"Issue #{issue.iid}"),
        f"{(TODAY - dt.timedelta(days=9)).isoformat()} committed "
        + _a(f"/projects/{project}/repository/revisions/{rev.sha}", rev.sha),
    ]
    if rng.random() < 0.5:
        entries.append(f"{(TODAY - dt.timedelta(days=17)).isoformat()} posted in "
                       + _a(_thread_href(rng.randint(1, THREAD_PAGES)), THREAD_TITLE))
    return entries


def _activity(req: _Req, person: _Person | None, day: tuple[int, int, int]) -> str:
    who = person.name if person else "everyone"
    stamp = _fmt_day(*day)
    current = day == (TODAY.year, TODAY.month, TODAY.day)
    if current or _rng("activity-repeat", who, stamp).random() < 0.3:
        body = _ul(_recent_entries(person.username if person else None))
    else:
        body = "<p>No activity in this period.</p>"
    prefix = f"/people/{person.username}/activity" if person else "/activity"
    prev = f"{prefix}?from={_fmt_day(*_shift_day(day, -30))}"
    main = (f"<h1>Activity of {_e(who)} from {stamp} back 30 days</h1>\n{body}\n"
            + _pager([(prev, "« Previous 30 days")]))
    title = f"Activity - {person.name} | {SITE}" if person else f"Activity | {SITE}"
    return _page(req, title, main, description=f"Recent activity of {who} at Holdout Works.")


# --------------------------------------------------------------------------- projects


def _tabs(project: str) -> str:
    base = f"/projects/{project}"
    return '<nav class="tabs">' + " | ".join([
        _a(f"{base}/", "Overview"), _a(f"{base}/issues", "Issues"),
        _a(f"{base}/repository/", "Repository"), _a(f"{base}/repository/revisions", "History"),
    ]) + "</nav>\n"


def _projects_index(req: _Req) -> str:
    rows = [f"{_a(f'/projects/{p}/', name)}: {_e(text)}" for p, (name, text) in PROJECTS.items()]
    main = "<h1>Projects</h1>\n<p>Open-source software by Holdout Works.</p>\n" + _ul(rows)
    return _page(req, "Projects | Holdout Works", main,
                 description="Open-source projects of Holdout Works.")


def _overview(req: _Req, project: str) -> str:
    name, text = PROJECTS[project]
    m, y = TODAY.month, TODAY.year
    cal = f"/projects/{project}/calendar"
    latest = sorted(_project_issues(project), key=lambda i: -i.iid)[:5]
    main = (
        f"<h1>{_e(name)}</h1>\n{_tabs(project)}<p>{_e(text)}</p>\n<h2>Latest issues</h2>\n"
        + _ul([_a(f"/projects/{project}/issues/{i.iid}", f"#{i.iid}: {i.subject}")
               for i in latest])
        + "\n<h2>Calendar</h2>\n"
        + _ul([_a(f"{cal}?month={m}&year={y}", "This month"),
               _a(f"{cal}?set_filter=1&month={m}&year={y}", "This month (all trackers)"),
               _a(f"{cal}?query_id=3&month={m}&year={y}", "This month (my saved query)")])
    )
    return _page(req, f"{name} - Overview | Holdout Works", main, description=text)


def _issue(req: _Req, issue: _Issue) -> str:
    name = PROJECTS[issue.project][0]
    author = _person_map()[issue.author]
    revs = [r for r in _revisions(issue.project) if f"#{issue.iid})" in r.message]
    main = (
        f"<h1>{_e(issue.tracker)} #{issue.iid}: {_e(issue.subject)}</h1>\n{_tabs(issue.project)}"
        f"<table class=\"attributes\"><tr><th>Status</th><td>{issue.status}</td></tr>"
        f"<tr><th>Author</th><td>{_a(f'/people/{author.username}', author.name)}</td></tr>"
        f"<tr><th>Updated</th><td>{issue.updated.isoformat()}</td></tr></table>\n"
        f"<p>{_e(issue.text)}</p>\n"
        + ("<h2>Associated revisions</h2>\n"
           + _ul([_a(f"/projects/{issue.project}/repository/revisions/{r.sha}", r.sha)
                  for r in revs]) if revs else "")
    )
    return _page(req, f"Issue #{issue.iid}: {issue.subject} - {name}", main,
                 description=issue.text.split(". ")[0] + ".")


def _issues_href(project: str, sort: str, status: str, per_page: str, page: int) -> str:
    return (f"/projects/{project}/issues?sort={sort}&status={status}&per_page={per_page}"
            f"&page={page}")


def _issue_list(req: _Req, project: str, sort: str = "id:desc", status: str = "all",
                per_page: str = "25", page: int = 1) -> str:
    name = PROJECTS[project][0]
    col, _, order = sort.partition(":")
    rows = [i for i in _project_issues(project)
            if status == "all" or i.is_open == (status == "open")]
    rows.sort(key=lambda i: (getattr(i, "iid" if col == "id" else col), i.iid),
              reverse=order == "desc")
    size = int(per_page)
    shown = rows[(page - 1) * size:page * size]
    head = "".join(
        f"<th>{c} {_a(_issues_href(project, c, status, per_page, 1), '▲')}"
        f"{_a(_issues_href(project, c + ':desc', status, per_page, 1), '▼')}</th>"
        for c in SORT_COLUMNS)
    body = "".join(
        f"<tr><td>{_a(f'/projects/{project}/issues/{i.iid}', f'#{i.iid}')}</td>"
        f"<td>{i.tracker}</td><td>{i.status}</td><td>{_e(i.subject)}</td>"
        f"<td>{i.updated.isoformat()}</td></tr>" for i in shown)
    table = (f'<table class="issues"><tr>{head}</tr>{body}</table>' if shown
             else "<p>No issues found.</p>")
    filters = ("<p>Status: " + " ".join(_a(_issues_href(project, sort, s, per_page, 1), s)
                                        for s in STATUSES)
               + " | Per page: " + " ".join(_a(_issues_href(project, sort, status, n, 1), n)
                                            for n in PER_PAGES) + "</p>\n")
    last = max(1, math.ceil(len(rows) / size))
    links: list[tuple[str | None, str]] = []
    if page > 1:
        links.append((_issues_href(project, sort, status, per_page, page - 1), "« Prev"))
    for k in range(1, last + 1):
        links.append((None if k == page else _issues_href(project, sort, status, per_page, k),
                      str(k)))
    links.append((_issues_href(project, sort, status, per_page, page + 1), "Next »"))
    main = f"<h1>Issues</h1>\n{_tabs(project)}{filters}{table}\n" + _pager(links)
    return _page(req, f"Issues - {name}", main,
                 description=f"Issues of the {name} project at Holdout Works.")


def _calendar(req: _Req, project: str, month: int, year: int, style: str) -> str:
    name = PROJECTS[project][0]
    prefix = {"plain": "", "set_filter": "set_filter=1&", "query_id": "query_id=3&"}[style]

    def href(m: int, y: int) -> str:
        return f"/projects/{project}/calendar?{prefix}month={m}&year={y}"

    cyc = _cycle_year(year)[0]
    first_weekday, days = calendar.monthrange(cyc, month)
    marks: dict[int, str] = {}
    if (month, year) == (TODAY.month, TODAY.year):
        issues = _project_issues(project)[:1 if project == "widgets" else 2]
        for day, issue in zip((6, 21), issues, strict=False):
            marks[day] = _a(f"/projects/{project}/issues/{issue.iid}", f"#{issue.iid}")
    cells = [""] * first_weekday + [f"{d} {marks.get(d, '')}".strip() for d in range(1, days + 1)]
    cells += [""] * (-len(cells) % 7)
    weeks = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in cells[w:w + 7]) + "</tr>"
                    for w in range(0, len(cells), 7))
    head = "".join(f"<th>{d}</th>" for d in ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"))
    prev_m, prev_y = (12, year - 1) if month == 1 else (month - 1, year)
    next_m, next_y = (1, year + 1) if month == 12 else (month + 1, year)
    main = (f"<h1>Calendar: {calendar.month_name[month]} {year}</h1>\n{_tabs(project)}"
            f'<table class="calendar"><tr>{head}</tr>{weeks}</table>\n'
            + _pager([(href(prev_m, prev_y), "« Previous month"),
                      (href(next_m, next_y), "Next month »")]))
    return _page(req, f"Calendar - {name}", main,
                 description=f"Calendar of the {name} project.")


# --------------------------------------------------------------------------- repository


def _children(project: str, directory: str) -> list[str]:
    out = []
    for path in TREES[project]:
        if path.startswith(directory) and path != directory:
            rest = path[len(directory):].rstrip("/")
            if "/" not in rest:
                out.append(path)
    return out


def _entry_href(project: str, path: str) -> str:
    return f"/projects/{project}/repository/entry/{path}"


def _file_lines(project: str, path: str) -> list[str]:
    rng = _rng("file", project, path)
    stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    if path.endswith(".md"):
        name = PROJECTS[project][0]
        return [f"# {name if stem == 'README' else stem.title()}", "", PROJECTS[project][1], "",
                "## Usage", "", *(_sentence(rng) for _ in range(rng.randint(2, 4))), "",
                "See the issue tracker for known problems."]
    imports = sorted(rng.sample(["json", "logging", "os", "pathlib", "re", "time",
                                 "dataclasses", "itertools"], 3))
    lines = [f'"""The {stem} module of {PROJECTS[project][0]}."""', "",
             "from __future__ import annotations", "", *(f"import {m}" for m in imports), ""]
    for _ in range(rng.randint(2, 5)):
        verb, noun = rng.choice(CODE_VERBS), rng.choice(CODE_NOUNS)
        fn = f"test_{verb}_{noun}" if stem.startswith("test_") else f"{verb}_{noun}"
        args = "" if stem.startswith("test_") else ", ".join(rng.sample(CODE_NOUNS, 2))
        lines += ["", f"def {fn}({args}):", f'    """{verb.title()} the {noun}."""']
        for step in range(rng.randint(1, 4)):
            lines.append(f"    {rng.choice(CODE_NOUNS)}_{step} = {rng.choice(CODE_VERBS)}"
                         f"_{rng.choice(CODE_NOUNS)}({rng.randint(0, 99)})")
        lines.append(f"    return {rng.choice(CODE_NOUNS)}_0")
    return lines


def _crumbs(project: str, path: str) -> str:
    parts = [_a(f"/projects/{project}/repository/", PROJECTS[project][0])]
    acc = ""
    for piece in path.rstrip("/").split("/")[:-1]:
        acc += piece + "/"
        parts.append(_a(_entry_href(project, acc), piece))
    parts.append(_e(path.rstrip("/").rsplit("/", 1)[-1]))
    return '<p class="breadcrumbs">' + " / ".join(parts) + "</p>\n"


def _listing(project: str, directory: str) -> str:
    revs = _revisions(project)
    rows = []
    for path in _children(project, directory):
        touched = [r for r in revs if any(p.startswith(path) for _, p in r.files)]
        last = touched[-1] if touched else revs[0]
        label = path[len(directory):]
        rows.append(f"<tr><td>{_a(_entry_href(project, path), label)}</td><td>"
                    f"{_a(f'/projects/{project}/repository/revisions/{last.sha}', last.sha)}"
                    f"</td><td>{_e(last.message)}</td></tr>")
    return f'<table class="entries">{"".join(rows)}</table>'


def _repo_root(req: _Req, project: str) -> str:
    name = PROJECTS[project][0]
    main = (f"<h1>Repository</h1>\n{_tabs(project)}<p>Newest revision: "
            f"{_revisions(project)[-1].sha}</p>\n" + _listing(project, ""))
    return _page(req, f"Repository - {name} - {SITE}", main,
                 description=f"Browse the source code of {name}.")


def _entry(req: _Req, project: str, path: str) -> str:
    name = PROJECTS[project][0]
    if path.endswith("/"):
        content = _listing(project, path)
    else:
        touched = [r for r in _revisions(project) if any(p == path for _, p in r.files)]
        code = "\n".join(html.escape(ln, quote=False) for ln in _file_lines(project, path))
        content = (f"<pre><code>{code}"
                   + "</code></pre>\n<h2>History</h2>\n"
                   + _ul([_a(f"/projects/{project}/repository/revisions/{r.sha}",
                             f"{r.sha}: {r.message}") for r in reversed(touched)]))
    main = f"<h1>{_e(path)}</h1>\n{_tabs(project)}{_crumbs(project, path)}{content}"
    return _page(req, f"{path} - {name} - {SITE}", main,
                 description=f"{path} in the {name} repository.")


def _history(req: _Req, project: str) -> str:
    name = PROJECTS[project][0]
    rows = [f"{_a(f'/projects/{project}/repository/revisions/{r.sha}', r.sha)} "
            f"{r.when.isoformat()} {_e(_person_map()[r.author].name)}: {_e(r.message)}"
            for r in reversed(_revisions(project))]
    main = f"<h1>History</h1>\n{_tabs(project)}" + _ul(rows)
    return _page(req, f"History - {name} - {SITE}", main,
                 description=f"All revisions of the {name} repository.")


def _changeset(req: _Req, rev: _Rev) -> str:
    name = PROJECTS[rev.project][0]
    author = _person_map()[rev.author]
    message = re.sub(r"#(\d+)", lambda m: _a(f"/projects/{rev.project}/issues/{m[1]}", m[0]),
                     _e(rev.message))
    revs = _revisions(rev.project)
    parent = ""
    if rev.number > 1:
        sha = revs[rev.number - 2].sha
        href = f"/projects/{rev.project}/repository/revisions/{sha}"
        parent = f"<p>Parent: {_a(href, sha)}</p>\n"
    main = (f"<h1>Revision {rev.sha}</h1>\n{_tabs(rev.project)}<p>{message}</p>\n"
            f"<p>By {_a(f'/people/{author.username}', author.name)} on "
            f"{rev.when.isoformat()}</p>\n{parent}<h2>Files</h2>\n"
            + _ul([f"{action} {_a(_entry_href(rev.project, path), path)}"
                   for action, path in rev.files]))
    return _page(req, f"Revision {rev.sha} - {name} - {SITE}", main, description=rev.message)


# --------------------------------------------------------------------------- routing

_Render = Callable[[_Req], str]
_Route = tuple[str | None, _Render]


def _route(path: str, params: dict[str, str]) -> _Route | None:
    """(trap family or None, renderer) for a request, or None for a 404."""
    p = functools.partial
    simple: dict[str, _Render] = {
        "/": _home, "/about/": _about, "/help/": _help, "/forum/": _forum_index,
        "/feeds/": _feeds_index, "/people/": _people_index, "/projects/": _projects_index}
    if path in simple:
        return None, simple[path]
    if path == "/shop/":
        n = _int(params.get("page", "1"))
        if n is None:
            return None
        return ("pager-past-end" if n > SHOP_PAGES else None), p(_shop_listing, n=n)
    if m := re.fullmatch(r"/shop/product/(\d+)", path):
        index = _product_index().get(int(m[1]))
        return None if index is None else (None, p(_product, index=index))
    if path == f"/forum/thread/{THREAD_ID}":
        n = _int(params.get("page", "1"))
        return None if n is None or n > THREAD_PAGES else (None, p(_thread, n=n))
    if path == "/feeds/releases":
        cursor = params.get("cursor")
        pages = {_token("releases", k): k for k in range(2, RELEASE_PAGES + 1)}
        n = 1 if cursor is None else pages.get(cursor)
        return None if n is None else (None, p(_releases, n=n))
    if path == "/feeds/events":
        cursor = params.get("cursor")
        if cursor is None or cursor == _token("events", 2):
            return None, p(_events, n=1 if cursor is None else 2, cursor=cursor)
        if re.fullmatch(r"[A-Za-z0-9_-]{12}", cursor):
            return "trap-feed", p(_events, n=3, cursor=cursor)
        return None
    if re.fullmatch(r"/help/;jsessionid=[0-9a-f]{32}/faq", path):
        return "session", p(_faq, sid=path.split("=")[1][:32])
    stream = re.fullmatch(r"/people/([a-z]+)/activity", path)
    if path == "/activity" or stream:
        person = _person_map().get(stream[1]) if stream else None
        day = _parse_day(params.get("from", TODAY.isoformat()))
        if day is None or (stream and person is None):
            return None
        return "activity", p(_activity, person=person, day=day)
    if m := re.fullmatch(r"/people/([a-z]+)", path):
        person = _person_map().get(m[1])
        return None if person is None else (None, p(_profile, person=person))
    if (m := re.fullmatch(r"/projects/([a-z]+)/(.*)", path)) and m[1] in PROJECTS:
        return _project_route(m[1], "/" + m[2], params)
    return None


def _int(text: str) -> int | None:
    return int(text) if re.fullmatch(r"[1-9]\d{0,8}", text) else None


def _project_route(project: str, rest: str, params: dict[str, str]) -> _Route | None:
    p = functools.partial
    if rest == "/":
        return None, p(_overview, project=project)
    if rest == "/issues":
        if not params:
            return None, p(_issue_list, project=project)
        sort, status = params.get("sort", "id:desc"), params.get("status", "all")
        per_page, page = params.get("per_page", "25"), _int(params.get("page", "1"))
        col, _, order = sort.partition(":")
        if (col not in SORT_COLUMNS or order not in ("", "desc") or status not in STATUSES
                or per_page not in PER_PAGES or page is None):
            return None
        return "issue-queries", p(_issue_list, project=project, sort=sort, status=status,
                                  per_page=per_page, page=page)
    if m := re.fullmatch(r"/issues/(\d+)", rest):
        issue = next((i for i in _project_issues(project) if i.iid == int(m[1])), None)
        return None if issue is None else (None, p(_issue, issue=issue))
    if rest == "/calendar":
        month, year = params.get("month", str(TODAY.month)), params.get("year", str(TODAY.year))
        if not re.fullmatch(r"1[0-2]|[1-9]", month) or not re.fullmatch(r"-?\d{1,6}", year):
            return None
        style = ("set_filter" if "set_filter" in params
                 else "query_id" if "query_id" in params else "plain")
        return "calendar", p(_calendar, project=project, month=int(month), year=int(year),
                             style=style)
    if rest == "/repository/":
        return None, p(_repo_root, project=project)
    if rest.startswith("/repository/entry/"):
        entry = rest.removeprefix("/repository/entry/")
        return (None, p(_entry, project=project, path=entry)) if entry in TREES[project] else None
    if rest == "/repository/revisions":
        return None, p(_history, project=project)
    if m := re.fullmatch(r"/repository/revisions/([0-9a-f]{7})", rest):
        rev = next((r for r in _revisions(project) if r.sha == m[1]), None)
        return None if rev is None else (None, p(_changeset, rev=rev))
    return None


def _split(url: str) -> tuple[str, dict[str, str]]:
    split = urllib.parse.urlsplit(url)
    params: dict[str, str] = {}
    for key, value in urllib.parse.parse_qsl(split.query, keep_blank_values=True):
        params.setdefault(key, value)
    return urllib.parse.unquote(split.path) or "/", params


# --------------------------------------------------------------------------- public interface


def _legit_paths() -> list[str]:
    paths = ["/", "/about/", "/help/", "/forum/", "/feeds/", "/people/", "/projects/"]
    paths += [_shop_page_href(n) for n in range(1, SHOP_PAGES + 1)]
    paths += [f"/shop/product/{p.pid}" for p in _products()]
    paths += [_thread_href(n) for n in range(1, THREAD_PAGES + 1)]
    paths += ["/feeds/releases"]
    paths += [f"/feeds/releases?cursor={_token('releases', n)}"
              for n in range(2, RELEASE_PAGES + 1)]
    paths += ["/feeds/events", f"/feeds/events?cursor={_token('events', 2)}"]
    for project in PROJECTS:
        base = f"/projects/{project}"
        paths += [f"{base}/", f"{base}/issues", f"{base}/repository/",
                  f"{base}/repository/revisions"]
        paths += [f"{base}/issues/{i.iid}" for i in _project_issues(project)]
        paths += [_entry_href(project, e) for e in TREES[project]]
        paths += [f"{base}/repository/revisions/{r.sha}" for r in _revisions(project)]
    paths += [f"/people/{p.username}" for p in _people()]
    return paths


def legit_urls(base: str) -> set[str]:
    """Every legit page (HTML, status 200) of the site at ``base``, spelled as linked."""
    return {base.rstrip("/") + path for path in _legit_paths()}


def family(url: str) -> str | None:
    """The trap family of ``url`` (absolute or root-relative), or None for legit pages and
    for URLs the site answers with 404."""
    route = _route(*_split(url))
    return None if route is None else route[0]


def render(method: str, target: str, host: str) -> tuple[int, bytes]:
    """Status and HTML body of a request for ``target`` (path and query) on ``host``."""
    split = urllib.parse.urlsplit(target)
    target = split.path + (f"?{split.query}" if split.query else "")
    req = _Req(f"http://{host}", target)
    route = _route(*_split(target)) if method in ("GET", "HEAD") else None
    if route is None:
        main = ("<h1>Page not found</h1>\n<p>The page you asked for does not exist. Try the "
                f"{_a('/', 'home page')}.</p>")
        body = _page(req, f"Page not found | {SITE}", main, description="Page not found.")
        return 404, body.encode()
    return 200, route[1](req).encode()


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def _respond(self) -> None:
        host = self.headers.get("Host") or f"127.0.0.1:{self.server.server_address[1]}"
        status, body = render(self.command, self.path, host)
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    do_GET = do_HEAD = do_POST = _respond

    def log_message(self, format: str, *args: object) -> None:
        pass


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True


@contextlib.contextmanager
def serve() -> Iterator[str]:
    """Run the site on 127.0.0.1 on a free port; yields the base URL (ending in ``/``)."""
    server = _Server(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, name="holdout-site", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


if __name__ == "__main__":
    with serve() as base_url:
        print(f"Holdout Works is served at {base_url} (Ctrl-C to stop)", flush=True)
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            sys.exit(0)
