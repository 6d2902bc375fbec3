#!/usr/bin/env python3
"""A labelled synthetic website: "NSIP", a publisher and membership organisation.

The Northfield Society of Information Professionals (``https://www.nsip.org``) is the kind
of mid-size site a professional association runs on one CMS: a magazine (*Signal*: articles
in sections and sub-sections, tag and author archives, monthly issues, a podcast), the
association itself (membership plans, about pages, a members' directory with thousands of
profiles), an online course catalogue, an events and conference section, a careers centre
(job board with application forms) and a help centre. Every page is rendered the way a real
WordPress-style CMS with plugins renders it, with one shared site chrome, and labelled with
the page template that rendered it (25 templates; ``TEMPLATES`` lists them).

This generator was written by a helper from a description of how real sites behave,
without reading the clustering code, its tests, its docs or the other corpora.

    python corpora/publisher_site.py OUT.jsonl [--pages 10000] [--seed 5]

Output: JSON Lines, one page per line, with exactly the keys ``id`` (absolute URL, query
included), ``html`` (the full document), ``paths`` (URL path segments, query removed, empty
ones dropped), ``stylesheetHrefs`` (absolute hrefs of every ``<link rel=stylesheet>`` in
document order, head and body), ``host`` and ``label`` (the template). The home page comes
first; the rest follow in a seeded shuffled order, like a crawl. The same seed and page
count give the same bytes. A per-label histogram goes to stderr.

What makes it hard, as real sites are:

- shared header, primary navigation (the active item marked with ``current-menu-item`` and
  ``aria-current="page"`` on a section's landing page, ``current-menu-ancestor`` deeper
  in), footer with a newsletter form, and a breadcrumb 2 to 5 levels deep;
- third-party CSS and scripts on a random share of pages (Klaro consent banner, a live-chat
  widget, lite-youtube for video embeds, a Google Analytics tag), first-party stylesheets
  versioned ``?v=<hash>`` that differ per section and per deploy ("epoch": pages fetched
  across three deploys), WordPress ``?ver=`` core styles, plugin styles only where the
  plugin is used (forms, pagination), a late-enqueued stylesheet in the body;
- content-derived ids and classes (``post-1234``, ``tag-<slug>``, ``category-<slug>``,
  ``member-jane-doe``, ``course-<slug>``, ``comment-5678``, ``wp-block-*``), inline styles;
- optional blocks (hero, author box, related items, comments 0..40 with replies, paywall,
  FAQ, reviews, video, tables) and shuffled sidebar widgets; pagination only when needed;
- A/B variants inside one template: articles with or without a hero image, section
  archives with grid or list cards, the directory as cards or a table, course pages with
  the enrol box above or beside the syllabus, job ads with or without an employer logo;
- look-alike pairs of different templates: course-catalogue / event-list, member-profile /
  author-profile, job-detail / event-detail, job-detail / job-apply, section-index /
  tag-archive, article / podcast-episode, about / legal-page, help-article / help-category;
- lists from 1 to 60 items, short and long articles, tables, search / login / newsletter /
  contact / application / feedback forms;
- a few templates with a handful of pages (home, about, contact, not-found, search-results,
  login, legal-page, membership-plans, help-category) and a few with thousands (article,
  member-profile, course-detail, job-detail); the page mix scales with ``--pages`` while the
  small templates stay small (the output has exactly ``--pages`` pages from about 300 up; below
that the fixed pages and one-page minimums make it a little more). Every page is under
60,000 bytes of HTML.
"""

import argparse
import hashlib
import html
import json
import math
import random
import sys
import time
import unicodedata
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import partial
from urllib.parse import quote_plus, urljoin, urlsplit

HOST = "www.nsip.org"
ORIGIN = f"https://{HOST}"
SITE_NAME = "Northfield Society of Information Professionals"
MAX_BYTES = 60_000
TODAY = date(2025, 6, 12)

TEMPLATES = [
    "home", "about", "contact", "not-found", "search-results", "login", "legal-page",
    "membership-plans", "article", "section-index", "tag-archive", "author-profile",
    "issue-toc", "podcast-episode", "member-profile", "member-directory", "course-detail",
    "course-catalogue", "event-detail", "event-list", "job-detail", "job-list", "job-apply",
    "help-article", "help-category",
]

# --------------------------------------------------------------------------- word banks

FIRST = [
    "Jane", "Amir", "Sofia", "Liam", "Chen", "Priya", "Olu", "Marta", "Tomás", "Zoë",
    "Kwame", "Hannah", "Yuki", "Mateo", "Aisha", "Grace", "Noah", "Elena", "Ravi", "Ingrid",
    "Łukasz", "Fatima", "Owen", "Mei", "Samuel", "Chloé", "Dmitri", "Leila", "Pablo",
    "Freya", "Hugo", "Nadia", "Isaac", "Anouk", "Tariq", "Ruth", "Björn", "Carmen", "Felix",
    "Imani", "George", "Saoirse", "Arjun", "Beatriz", "Kofi", "Lena", "Rhys", "Siobhan",
    "Tobias", "Ursula", "Victor", "Wen", "Yasmin", "Zain", "Alice", "Bruno", "Clara",
    "Declan", "Esme", "Farah",
]
LAST = [
    "Doe", "Okafor", "Lindqvist", "Patel", "Nakamura", "García", "Müller", "O'Brien",
    "Kowalski", "Haddad", "Nguyen", "Smith", "Adeyemi", "Rossi", "Fischer", "Chen",
    "Bergström", "Mensah", "Dubois", "Kaur", "Silva", "Novak", "Walsh", "Ibrahim", "Jensen",
    "Moreau", "Tanaka", "Costa", "Hughes", "Yilmaz", "Andersen", "Reyes", "Baptiste",
    "Sato", "Varga", "Khan", "Murphy", "Eriksen", "Lopez", "Abara", "Ferguson", "Holt",
    "Iqbal", "Jovanović", "Keane", "Larsen", "McAllister", "Nilsson", "Osei", "Pereira",
    "Quinn", "Ramos", "Schmidt", "Thorne", "Upton", "Vance", "Whitaker", "Xu", "Young",
    "Zielinski",
]
TOPICS = [
    "metadata", "records management", "digital preservation", "taxonomy design",
    "enterprise search", "knowledge graphs", "open data", "archives", "information governance",
    "data ethics", "cataloguing", "AI assistants", "privacy", "retention schedules",
    "content strategy", "accessibility", "research data", "library systems", "e-discovery",
    "document workflows", "data quality", "information security", "web archiving",
    "controlled vocabularies", "digital transformation",
]
ORGS = [
    "Harbourside Council", "the Fenwick Trust", "Northgate University", "Caldera Insurance",
    "the National Maritime Archive", "Brightwater Health", "Kestrel Legal LLP",
    "Oakhurst Museums", "Lumen Bank", "the Wexford Foundation", "Tidewell Water",
    "Pembroke College", "Atlas Engineering", "Greyfriars Library", "Mercia Police",
    "Sundial Pharma", "the Royal Institute of Surveyors", "Cobalt Energy", "Parkway NHS Trust",
    "Quillon Publishing", "Redgate Logistics", "Silverline Rail", "Thornbury Schools",
    "Vantage Telecom", "Willow Housing", "Arden Analytics", "Beacon Charity",
    "the Civic Records Office", "Delta Aerospace", "Elmstead County Council",
]
CITIES = [
    ("London", "london"), ("Manchester", "north-west"), ("Liverpool", "north-west"),
    ("Edinburgh", "scotland"), ("Glasgow", "scotland"), ("Cardiff", "wales"),
    ("Swansea", "wales"), ("Birmingham", "midlands"), ("Nottingham", "midlands"),
    ("Brighton", "south-east"), ("Reading", "south-east"), ("Leeds", "yorkshire"),
    ("Sheffield", "yorkshire"), ("Belfast", "northern-ireland"), ("Dublin", "international"),
    ("Amsterdam", "international"), ("Toronto", "international"), ("Bristol", "south-west"),
    ("Exeter", "south-west"), ("Cambridge", "east"), ("Norwich", "east"), ("Remote", "remote"),
]
REGIONS = [
    ("london", "London"), ("north-west", "North West"), ("scotland", "Scotland"),
    ("wales", "Wales"), ("midlands", "Midlands"), ("south-east", "South East"),
    ("yorkshire", "Yorkshire"), ("northern-ireland", "Northern Ireland"),
    ("south-west", "South West"), ("east", "East of England"),
    ("international", "International"), ("remote", "Remote"),
]
SUBJ = [
    "Most organisations", "Our members", "The working group", "Practitioners", "Small teams",
    "Public bodies", "Researchers", "The new standard", "Every project", "Senior leaders",
    "Archivists", "Consultants we spoke to", "The survey", "Vendors", "Records teams",
    "Data stewards", "Librarians", "Regulators", "Auditors", "Students",
]
VERB = [
    "underestimate", "are rethinking", "depend on", "have struggled with", "now prioritise",
    "rarely document", "want clearer guidance on", "are investing in", "report gaps in",
    "benefit from", "are automating", "still argue about", "measure", "quietly abandon",
    "cannot ignore", "have redesigned",
]
TAIL = [
    "", " according to our latest survey", ", especially after a migration",
    " when budgets are tight", ", which is rarely discussed", " in regulated sectors",
    " over the long term", ", as several case studies show", " without extra staff",
    " before the next audit", ", and the results are instructive", " across departments",
]
TITLE_PATTERNS = [
    "Why {t} matters more than ever", "{T}: a practical guide", "What we learned from {t}",
    "The hidden cost of {t}", "Ten questions about {t}", "How {o} rebuilt its {t}",
    "Inside the {t} team at {o}", "Rethinking {t} for small teams", "{T} and {u}: where next?",
    "A beginner's guide to {t}", "Is {t} broken?", "{T} in the age of AI",
    "Five myths about {t}", "Getting {t} past the board", "Lessons from a decade of {t}",
    "The case for boring {t}", "When {t} meets {u}", "Measuring the value of {t}",
]

MAG_SECTIONS = [
    ("features", "Features", 14), ("practice", "Practice", 22), ("opinion", "Opinion", 12),
    ("news", "News", 24), ("reviews", "Reviews", 8), ("case-studies", "Case studies", 12),
    ("careers-advice", "Careers advice", 8),
]
MAG_SUBSECTIONS = {
    "practice": [("records", "Records"), ("data", "Data"), ("search", "Search & discovery")],
    "news": [("sector", "Sector news"), ("society", "Society news")],
}
COURSE_CATS = [
    ("records-management", "Records management", 18),
    ("data-governance", "Data governance", 16),
    ("digital-preservation", "Digital preservation", 10),
    ("information-law", "Information law", 12),
    ("leadership", "Leadership", 9), ("search-and-discovery", "Search & discovery", 8),
    ("ai-and-automation", "AI & automation", 14), ("cataloguing", "Cataloguing", 7),
]
EVENT_CATS = [
    ("conference", "Conference", 4), ("webinar", "Webinar", 30), ("workshop", "Workshop", 18),
    ("networking", "Networking", 16), ("awards", "Awards", 2), ("regional-meetup", "Meetup", 20),
]
JOB_CATS = [
    ("records-archives", "Records & archives", 22), ("data-analytics", "Data & analytics", 20),
    ("library", "Library", 16), ("knowledge-management", "Knowledge management", 12),
    ("compliance", "Compliance & privacy", 16), ("digital", "Digital & content", 14),
]
JOB_TITLES = [
    "Records Manager", "Senior Data Governance Analyst", "Digital Archivist",
    "Knowledge Manager", "Information Governance Officer", "Metadata Librarian",
    "Head of Information Management", "Data Protection Officer", "Systems Librarian",
    "Collections Information Officer", "E-discovery Specialist", "Research Data Manager",
    "Content Strategist", "Taxonomist", "Information Assistant", "Archives Trainee",
]
HELP_CATS = [
    (360001, "membership", "Membership & renewals", ["Joining", "Renewing", "Grades"]),
    (360002, "events-bookings", "Events & bookings", ["Booking", "Cancellations"]),
    (360003, "learning-platform", "Learning platform", ["Getting started", "Certificates",
                                                         "Technical problems"]),
    (360004, "your-account", "Your account", ["Logging in", "Profile", "Privacy"]),
    (360005, "payments", "Payments & invoices", ["Invoices", "Refunds"]),
    (360006, "magazine", "Magazine & subscriptions", ["Print edition", "Digital access"]),
    (360007, "careers-centre", "Careers centre", ["Job seekers", "Employers"]),
]
HELP_VERBS = ["update", "find", "download", "change", "cancel", "renew", "reset", "share",
              "transfer", "print", "verify", "recover"]
HELP_OBJS = ["my invoice", "my password", "my certificate", "my booking", "my CPD record",
             "my directory listing", "my membership card", "my email address", "a receipt",
             "my course progress", "my job alert", "the digital edition", "my payment card",
             "my badge"]
NAV = [
    ("magazine", "Magazine", "/magazine/"),
    ("membership", "Membership", "/membership/"),
    ("learn", "Learning", "/learn/"),
    ("events", "Events", "/events/"),
    ("jobs", "Careers", "/jobs/"),
    ("directory", "Directory", "/directory/"),
    ("help", "Help", "/help/"),
]
GRADES = [("student", "Student"), ("associate", "Associate"), ("member", "Member"),
          ("chartered", "Chartered Member"), ("fellow", "Fellow")]

# --------------------------------------------------------------------------- helpers

_TRANSLIT = str.maketrans({"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "ß": "ss", "'": ""})


def esc(text: str) -> str:
    """HTML-escape text and attribute values."""
    return html.escape(text, quote=True)


def wp_url(href: str) -> str:
    """Escape a URL the way WordPress's esc_url does: ``&`` becomes ``&#038;``."""
    return esc(href).replace("&amp;", "&#038;")


def slugify(text: str) -> str:
    """ASCII slug as sanitize_title makes it."""
    text = unicodedata.normalize("NFKD", text.translate(_TRANSLIT))
    text = text.encode("ascii", "ignore").decode().lower()
    out = []
    for ch in text:
        out.append(ch if ch.isalnum() else "-")
    return "-".join(part for part in "".join(out).split("-") if part)


def vhash(*parts: object) -> str:
    """Short content hash used as a cache-busting version."""
    return hashlib.sha1(":".join(map(str, parts)).encode()).hexdigest()[:10]


def split_counts(total: int, weights: list[int]) -> list[int]:
    """Largest-remainder split of total by weights (deterministic)."""
    wsum = sum(weights)
    raw = [total * w / wsum for w in weights]
    base = [int(r) for r in raw]
    order = sorted(range(len(weights)), key=lambda i: (base[i] - raw[i], i))
    for i in order[: total - sum(base)]:
        base[i] += 1
    return base


def fmt_date(d: date) -> str:
    """'12 March 2024'."""
    return f"{d.day} {d.strftime('%B')} {d.year}"


def sentence(rng: random.Random) -> str:
    """One generated sentence."""
    topic = rng.choice(TOPICS)
    return f"{rng.choice(SUBJ)} {rng.choice(VERB)} {topic}{rng.choice(TAIL)}."


def para_text(rng: random.Random, lo: int = 3, hi: int = 6) -> str:
    """A paragraph of generated sentences."""
    return " ".join(sentence(rng) for _ in range(rng.randint(lo, hi)))


def paras(rng: random.Random, n: int, cls: str = "") -> str:
    """n ``<p>`` elements."""
    attr = f' class="{cls}"' if cls else ""
    return "".join(f"<p{attr}>{esc(para_text(rng))}</p>" for _ in range(n))


def make_title(rng: random.Random) -> str:
    """A magazine-style headline."""
    t, u = rng.sample(TOPICS, 2)
    s = rng.choice(TITLE_PATTERNS).format(t=t, T=t[0].upper() + t[1:], u=u, o=rng.choice(ORGS))
    return s[0].upper() + s[1:]


def img(src: str, alt: str, w: int, h: int, cls: str = "", lazy: bool = True) -> str:
    """An ``<img>`` with WordPress-like attributes."""
    c = f' class="{cls}"' if cls else ""
    loading = ' loading="lazy"' if lazy else ""
    return (f'<img width="{w}" height="{h}" src="{esc(src)}"{c} alt="{esc(alt)}"'
            f' decoding="async"{loading}>')


def upload(d: date, slug: str, w: int, h: int, ext: str = "jpg") -> str:
    """A path under wp-content/uploads."""
    return f"/wp-content/uploads/{d.year}/{d.month:02d}/{slug[:40]}-{w}x{h}.{ext}"


def avatar(slug: str, size: int) -> str:
    """A gravatar-like avatar URL."""
    return f"https://secure.gravatar.com/avatar/{vhash(slug)}{vhash(slug, 2)}?s={size}&d=mm&r=g"


def link(href: str, text: str, cls: str = "", rel: str = "") -> str:
    """An ``<a>``."""
    c = f' class="{cls}"' if cls else ""
    r = f' rel="{rel}"' if rel else ""
    return f'<a href="{esc(href)}"{c}{r}>{esc(text)}</a>'


def pagination(base: str, page: int, pages: int, label: str = "Posts",
               query: str = "") -> str:
    """WordPress paginate_links output; empty when there is one page."""
    if pages <= 1:
        return ""

    def href(n: int) -> str:
        return (base if n == 1 else f"{base}page/{n}/") + query

    items: list[str] = []
    if page > 1:
        items.append(f'<a class="prev page-numbers" href="{esc(href(page - 1))}">« Previous</a>')
    shown = sorted({1, 2, pages - 1, pages, page - 1, page, page + 1} & set(range(1, pages + 1)))
    last = 0
    for n in shown:
        if n - last > 1:
            items.append('<span class="page-numbers dots">…</span>')
        if n == page:
            items.append(f'<span aria-current="page" class="page-numbers current">{n}</span>')
        else:
            items.append(f'<a class="page-numbers" href="{esc(href(n))}">{n}</a>')
        last = n
    if page < pages:
        items.append(f'<a class="next page-numbers" href="{esc(href(page + 1))}">Next »</a>')
    return (f'<nav class="navigation pagination" aria-label="{label}">'
            f'<h2 class="screen-reader-text">{label} navigation</h2>'
            f'<div class="nav-links">{"".join(items)}</div></nav>')


def search_form(action: str, q: str = "", cls: str = "search-form", extra: str = "") -> str:
    """A GET search form."""
    return (f'<form role="search" method="get" class="{cls}" action="{action}">'
            f'<label><span class="screen-reader-text">Search for:</span>'
            f'<input type="search" class="search-field" placeholder="Search …" '
            f'value="{esc(q)}" name="q"></label>{extra}'
            f'<button type="submit" class="search-submit">Search</button></form>')


def newsletter_form(rng: random.Random, where: str) -> str:
    """A Mailchimp-style newsletter signup form."""
    fid = f"mc-embedded-subscribe-form-{where}"
    return (f'<div id="mc_embed_signup_{where}" class="newsletter-signup">'
            f'<form action="https://nsip.us21.list-manage.com/subscribe/post?u=a1b2c3&amp;'
            f'id=9f8e7d" method="post" id="{fid}" name="{fid}" class="validate" '
            f'target="_blank"><label for="mce-EMAIL-{where}">Email address</label>'
            f'<input type="email" value="" name="EMAIL" class="required email" '
            f'id="mce-EMAIL-{where}" required>'
            f'<div style="position:absolute;left:-5000px" aria-hidden="true">'
            f'<input type="text" name="b_a1b2c3_9f8e7d" tabindex="-1" value=""></div>'
            f'<input type="submit" value="Subscribe" name="subscribe" class="button"></form>'
            f'</div>')


def login_form(redirect: str, form_id: str = "loginform") -> str:
    """wp_login_form() output."""
    return (f'<form name="{form_id}" id="{form_id}" action="/wp-login.php" method="post">'
            f'<p class="login-username"><label for="user_login">Email or membership number'
            f'</label><input type="text" name="log" id="user_login" autocomplete="username" '
            f'class="input" value="" size="20"></p>'
            f'<p class="login-password"><label for="user_pass">Password</label>'
            f'<input type="password" name="pwd" id="user_pass" '
            f'autocomplete="current-password" spellcheck="false" class="input" value="" '
            f'size="20"></p><p class="login-remember"><label><input name="rememberme" '
            f'type="checkbox" id="rememberme" value="forever"> Remember me</label></p>'
            f'<p class="login-submit"><input type="submit" name="wp-submit" id="wp-submit" '
            f'class="button button-primary" value="Log in">'
            f'<input type="hidden" name="redirect_to" value="{esc(redirect)}"></p></form>')


def cf7_form(form_id: int, page_id: int, fields: list[tuple[str, str, str]],
             submit: str) -> str:
    """Contact Form 7 markup; fields are (name, label, type)."""
    rows = []
    for name, label, kind in fields:
        if kind == "textarea":
            ctl = (f'<textarea cols="40" rows="8" class="wpcf7-form-control wpcf7-textarea" '
                   f'name="{name}"></textarea>')
        elif kind == "select":
            opts = "".join(f"<option>{esc(o)}</option>" for o in
                           ("General enquiry", "Membership", "Events", "Media", "Other"))
            ctl = f'<select class="wpcf7-form-control wpcf7-select" name="{name}">{opts}</select>'
        elif kind == "file":
            ctl = (f'<input size="40" class="wpcf7-form-control wpcf7-file" '
                   f'accept=".pdf,.doc,.docx" type="file" name="{name}">')
        elif kind == "checkbox":
            ctl = (f'<span class="wpcf7-list-item first last"><input type="checkbox" '
                   f'name="{name}" value="1"><span class="wpcf7-list-item-label">'
                   f'{esc(label)}</span></span>')
            rows.append(f'<p><span class="wpcf7-form-control-wrap" data-name="{name}">'
                        f'{ctl}</span></p>')
            continue
        else:
            ctl = (f'<input size="40" class="wpcf7-form-control wpcf7-{kind}" '
                   f'aria-required="true" value="" type="{kind}" name="{name}">')
        rows.append(f'<p><label>{esc(label)}<br><span class="wpcf7-form-control-wrap" '
                    f'data-name="{name}">{ctl}</span></label></p>')
    uid = f"wpcf7-f{form_id}-p{page_id}-o1"
    return (f'<div class="wpcf7 no-js" id="{uid}" lang="en-GB" dir="ltr">'
            f'<form action="#{uid}" method="post" class="wpcf7-form init" novalidate '
            f'data-status="init"><div style="display:none">'
            f'<input type="hidden" name="_wpcf7" value="{form_id}">'
            f'<input type="hidden" name="_wpcf7_unit_tag" value="{uid}"></div>'
            f'{"".join(rows)}<p><input class="wpcf7-form-control wpcf7-submit has-spinner" '
            f'type="submit" value="{esc(submit)}"></p>'
            f'<div class="wpcf7-response-output" aria-hidden="true"></div></form></div>')


def video_embed(rng: random.Random, title: str) -> str:
    """A WordPress YouTube embed block."""
    vid = "".join(rng.choice("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ0123456789_-")
                  for _ in range(11))
    return ('<figure class="wp-block-embed is-type-video is-provider-youtube '
            'wp-block-embed-youtube wp-embed-aspect-16-9 wp-has-aspect-ratio">'
            '<div class="wp-block-embed__wrapper">'
            f'<lite-youtube videoid="{vid}" playlabel="{esc(title)}" '
            f'style="background-image:url(\'https://i.ytimg.com/vi/{vid}/hqdefault.jpg\')">'
            f'<a href="https://www.youtube.com/watch?v={vid}" class="lty-playbtn" '
            f'title="Play video"><span class="lyt-visually-hidden">{esc(title)}</span></a>'
            '</lite-youtube></div></figure>')


def data_table(rng: random.Random, caption: str, cols: list[str], rows: int,
               striped: bool = True) -> str:
    """A wp-block-table with generated cells."""
    head = "".join(f"<th>{esc(c)}</th>" for c in cols)
    body = []
    for _ in range(rows):
        cells = [rng.choice(TOPICS).capitalize()]
        for _ in cols[1:]:
            cells.append(rng.choice([f"{rng.randint(1, 99)}%", str(rng.randint(1, 400)),
                                     rng.choice(["Yes", "No", "Partly", "n/a"])]))
        body.append("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in cells) + "</tr>")
    style = " is-style-stripes" if striped else ""
    return (f'<figure class="wp-block-table{style}"><table class="has-fixed-layout">'
            f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
            f'<figcaption class="wp-element-caption">{esc(caption)}</figcaption></figure>')


def faq_block(rng: random.Random, n: int, block_id: str) -> str:
    """A details/summary FAQ list (Yoast FAQ-block style)."""
    items = []
    for i in range(n):
        q = f"{rng.choice(['Can I', 'How do I', 'Do I need to', 'When should I'])} " \
            f"{rng.choice(HELP_VERBS)} {rng.choice(HELP_OBJS)}?"
        items.append(f'<details class="faq-item" id="faq-{block_id}-{i}"><summary>{esc(q)}'
                     f"</summary><p>{esc(para_text(rng, 1, 3))}</p></details>")
    return f'<div class="schema-faq wp-block-yoast-faq-block">{"".join(items)}</div>'


# --------------------------------------------------------------------------- entities


@dataclass
class Person:
    """A member of the society (and sometimes a magazine author)."""

    pid: int
    first: str
    last: str
    grade: str
    job: str
    org: str
    city: str
    region: str
    since: int
    expertise: list[str]

    @property
    def name(self) -> str:
        return f"{self.first} {self.last}"

    @property
    def slug(self) -> str:
        return slugify(self.name)

    @property
    def url(self) -> str:
        return f"/directory/members/{self.slug}-{self.pid}/"


@dataclass
class Author:
    """A magazine contributor."""

    person: Person
    role: str
    nicename: str = ""
    articles: list["Article"] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"/magazine/author/{self.nicename or self.person.slug}/"


@dataclass
class Article:
    """A magazine post."""

    pid: int
    title: str
    slug: str
    section: str
    sub: str
    author: Author
    tags: list[str]
    day: date
    members_only: bool

    @property
    def url(self) -> str:
        return f"/magazine/{self.day.year}/{self.day.month:02d}/{self.slug}/"


@dataclass
class Course:
    """A course in the learning catalogue."""

    cid: int
    title: str
    slug: str
    cat: str
    level: str
    fmt: str
    hours: int
    price: int
    rating: float
    reviews: int
    instructors: list[Person]
    start: date

    @property
    def url(self) -> str:
        return f"/learn/courses/{self.slug}/"


@dataclass
class Event:
    """An event or conference."""

    eid: int
    title: str
    slug: str
    cat: str
    day: date
    city: str
    venue: str
    price: int
    speakers: list[Person]

    @property
    def url(self) -> str:
        return f"/events/{self.day.year}/{self.slug}/"


@dataclass
class Job:
    """A job advertisement."""

    jid: int
    title: str
    slug: str
    cat: str
    employer: str
    city: str
    salary: str
    contract: str
    posted: date
    closing: date
    on_site_apply: bool

    @property
    def url(self) -> str:
        return f"/jobs/{self.jid}-{self.slug}/"


@dataclass
class HelpArticle:
    """A help-centre article."""

    hid: int
    title: str
    slug: str
    cat: int
    section: str
    updated: date

    @property
    def url(self) -> str:
        return f"/help/articles/{self.hid}-{self.slug}/"


@dataclass
class Episode:
    """A podcast episode."""

    num: int
    title: str
    slug: str
    day: date
    guests: list[Person]
    pid: int

    @property
    def url(self) -> str:
        return f"/magazine/podcast/{self.num}-{self.slug}/"


@dataclass
class Page:
    """What a template hands to the site chrome."""

    title: str
    nav: str
    crumbs: list[tuple[str, str]]
    body_class: str
    main: str
    sidebar: str = ""
    css: list[tuple[str, str]] = field(default_factory=list)
    inline_css: str = ""
    video: bool = False
    forms: bool = False
    paged: bool = False
    robots: str = ""
    og_type: str = "website"
    description: str = ""
    wide: bool = False


# --------------------------------------------------------------------------- the plan


FIXED = {
    "home": 1, "about": 3, "contact": 1, "not-found": 4, "search-results": 6, "login": 2,
    "legal-page": 4, "membership-plans": 2, "help-category": 1 + len(HELP_CATS),
}
PER_SECTION = 12
PER_ROOT = 20
PER_DIR = 24
PER_COURSE = 18
PER_EVENT = 10
PER_JOB = 20


def entity_counts(n: int, articles: int) -> dict[str, int]:
    """Counts of the content-bearing templates for a target of n pages."""
    members = max(2, round(n * 0.2))
    jobs = max(2, round(n * 0.118))
    return {
        "article": articles,
        "member-profile": members,
        "course-detail": max(2, round(n * 0.11)),
        "job-detail": jobs,
        "event-detail": max(3, round(n * 0.045)),
        "help-article": max(2, round(n * 0.044)),
        "podcast-episode": max(1, round(n * 0.014)),
        "job-apply": min(jobs, max(1, round(n * 0.024))),
        "issue-toc": min(120, max(1, round(n * 0.006))),
        "author-profile": min(150, max(2, round(n * 0.008))),
        "tag-archive": max(1, round(n * 0.025)),
    }


def article_split(articles: int) -> tuple[list[int], dict[str, list[int]]]:
    """Articles per section, and per sub-section of sections that have them."""
    per = split_counts(articles, [w for _, _, w in MAG_SECTIONS])
    subs: dict[str, list[int]] = {}
    for (key, _, _), cnt in zip(MAG_SECTIONS, per, strict=True):
        if key in MAG_SUBSECTIONS:
            in_subs = cnt * 2 // 3
            subs[key] = split_counts(in_subs, [1] * len(MAG_SUBSECTIONS[key]))
    return per, subs


def past_upcoming(events: int) -> tuple[int, int]:
    """Events in the past and upcoming."""
    upcoming = max(1, round(events * 0.3))
    return events - upcoming, upcoming


def list_counts(c: dict[str, int]) -> dict[str, int]:
    """Pages of the list templates, derived from the entity counts."""
    per, subs = article_split(c["article"])
    sect = max(1, math.ceil(c["article"] / PER_ROOT))
    sect += sum(max(1, math.ceil(k / PER_SECTION)) for k in per)
    sect += sum(max(1, math.ceil(k / PER_SECTION)) for v in subs.values() for k in v)
    members = c["member-profile"]
    dir_pages = max(1, math.ceil(members / PER_DIR))
    directory = dir_pages + len(REGIONS) + min(3, dir_pages)
    courses = c["course-detail"]
    cat = split_counts(courses, [w for _, _, w in COURSE_CATS])
    catalogue = max(1, math.ceil(courses / PER_COURSE))
    catalogue += sum(max(1, math.ceil(k / PER_COURSE)) for k in cat)
    past, upcoming = past_upcoming(c["event-detail"])
    ev_cat = split_counts(c["event-detail"], [w for _, _, w in EVENT_CATS])
    events = max(1, math.ceil(upcoming / PER_EVENT)) + max(1, math.ceil(past / PER_EVENT))
    events += sum(1 for k in ev_cat if k)
    jcat = split_counts(c["job-detail"], [w for _, _, w in JOB_CATS])
    jobs = max(1, math.ceil(c["job-detail"] / PER_JOB)) + sum(1 for k in jcat if k)
    return {"section-index": sect, "member-directory": directory,
            "course-catalogue": catalogue, "event-list": events, "job-list": jobs}


def plan(n: int) -> dict[str, int]:
    """Pages per template for a target of n pages; the article count absorbs the rest."""

    def total(articles: int) -> tuple[int, dict[str, int]]:
        c = entity_counts(n, articles)
        allc = {**FIXED, **c, **list_counts(c)}
        return sum(allc.values()), allc

    lo, hi = 1, max(1, n)
    while lo < hi:  # largest article count whose total stays within n
        mid = (lo + hi + 1) // 2
        if total(mid)[0] <= n:
            lo = mid
        else:
            hi = mid - 1
    tot, allc = total(lo)
    if tot < n:
        allc["tag-archive"] += n - tot  # the tag archive takes the last few pages
    return allc


# --------------------------------------------------------------------------- the site data


class Site:
    """All entities of the site, generated from one seed."""

    def __init__(self, seed: int, counts: dict[str, int]) -> None:
        rng = random.Random(f"site:{seed}")
        self.seed = seed
        self.counts = counts
        self.people = self._people(rng, counts["member-profile"])
        self.tags = self._tags(rng, counts["tag-archive"])
        self.authors = [
            Author(p, rng.choice(["Contributing editor", "Staff writer", "Columnist",
                                  "Guest contributor", "Features editor", "News editor"]))
            for p in rng.sample(self.people, min(len(self.people), counts["author-profile"]))
        ]
        nicenames: Counter[str] = Counter()
        for au in self.authors:  # user_nicename is unique: a second Jane Doe is jane-doe-2
            nicenames[au.person.slug] += 1
            k = nicenames[au.person.slug]
            au.nicename = au.person.slug if k == 1 else f"{au.person.slug}-{k}"
        self.articles = self._articles(rng, counts["article"])
        self.by_section: dict[str, list[Article]] = {}
        self.by_sub: dict[tuple[str, str], list[Article]] = {}
        self.by_tag: dict[str, list[Article]] = {t: [] for t, _ in self.tags}
        for a in self.articles:
            self.by_section.setdefault(a.section, []).append(a)
            if a.sub:
                self.by_sub.setdefault((a.section, a.sub), []).append(a)
            for t in a.tags:
                self.by_tag[t].append(a)
            a.author.articles.append(a)
        self.tag_names = dict(self.tags)
        self.latest = sorted(self.articles, key=lambda a: (a.day, a.pid), reverse=True)
        self.courses = self._courses(rng, counts["course-detail"])
        self.events = self._events(rng, counts["event-detail"])
        self.jobs = self._jobs(rng, counts["job-detail"], counts["job-apply"])
        self.help = self._help(rng, counts["help-article"])
        self.episodes = self._episodes(rng, counts["podcast-episode"])
        self.issues = self._issues(counts["issue-toc"])

    # ---- generation of each entity kind

    def _people(self, rng: random.Random, n: int) -> list[Person]:
        out = []
        ids = rng.sample(range(1000, 99999), n)
        for pid in ids:
            city, region = rng.choice(CITIES)
            out.append(Person(
                pid, rng.choice(FIRST), rng.choice(LAST),
                rng.choices([g for g, _ in GRADES], weights=[2, 4, 8, 4, 1])[0],
                rng.choice(JOB_TITLES), rng.choice(ORGS), city, region,
                rng.randint(1988, 2025), rng.sample(TOPICS, rng.randint(1, 5))))
        return out

    def _tags(self, rng: random.Random, n: int) -> list[tuple[str, str]]:
        pool = list(TOPICS)
        extra = ["GDPR", "SharePoint", "ISO 15489", "Dublin Core", "linked data", "FOI",
                 "M365", "machine learning", "careers", "conference", "leadership",
                 "budgets", "procurement", "retention", "email", "social media", "museums",
                 "higher education", "local government", "health records", "legal sector"]
        pool += extra
        out: list[tuple[str, str]] = []
        seen: set[str] = set()
        i = 0
        while len(out) < n:
            base = pool[i % len(pool)]
            qualifiers = ["tools", "policy", "skills", "research", "case study", "ethics",
                          "standards", "costs"]
            name = base if i < len(pool) else f"{base} {rng.choice(qualifiers)}"
            i += 1
            slug = slugify(name)
            if slug in seen:
                slug = f"{slug}-{len(seen)}"
                name = f"{name} ({len(seen)})"
            seen.add(slug)
            out.append((slug, name))
        return out

    def _articles(self, rng: random.Random, n: int) -> list[Article]:
        per, subs = article_split(n)
        slots: list[tuple[str, str]] = []
        for (key, _, _), cnt in zip(MAG_SECTIONS, per, strict=True):
            sub_counts = subs.get(key, [])
            subs_here = MAG_SUBSECTIONS.get(key, [])
            for (skey, _), k in zip(subs_here, sub_counts, strict=True):
                slots += [(key, skey)] * k
            slots += [(key, "")] * (cnt - sum(sub_counts))
        rng.shuffle(slots)
        ids = rng.sample(range(1200, 60000), n)
        tag_weights = [1 / (i + 1) ** 0.9 for i in range(len(self.tags))]
        tag_keys = [t for t, _ in self.tags]
        # staff writers publish weekly, guest contributors once or twice
        author_weights = [1 / (i + 1) ** 1.2 for i in range(len(self.authors))]
        used: set[str] = set()
        out = []
        span = (TODAY - date(2018, 1, 1)).days
        for pid, (sect, sub) in zip(ids, slots, strict=True):
            title = make_title(rng)
            slug = slugify(title)
            while slug in used:
                slug = f"{slug}-2" if not slug[-1].isdigit() else slug + "2"
            used.add(slug)
            k = min(len(tag_keys), rng.randint(1, 4))
            tags: list[str] = []
            while len(tags) < k:
                t = rng.choices(tag_keys, weights=tag_weights)[0]
                if t not in tags:
                    tags.append(t)
            author = rng.choices(self.authors, weights=author_weights)[0]
            out.append(Article(pid, title, slug, sect, sub, author, tags,
                               TODAY - timedelta(days=rng.randint(0, span)),
                               rng.random() < 0.18))
        # every tag archive lists at least one post
        used_tags = Counter(t for a in out for t in a.tags)
        for i, t in enumerate(k for k in tag_keys if not used_tags[k]):
            if out:
                out[(i * 7919) % len(out)].tags.append(t)
        return out

    def _courses(self, rng: random.Random, n: int) -> list[Course]:
        cats = split_counts(n, [w for _, _, w in COURSE_CATS])
        slots = [key for (key, _, _), k in zip(COURSE_CATS, cats, strict=True) for _ in range(k)]
        used: set[str] = set()
        out = []
        for i, cat in enumerate(slots):
            topic = rng.choice(TOPICS)
            form = rng.choice(["Foundations of {t}", "Advanced {t}", "Certificate in {t}",
                               "Practical {t}", "{T} for managers", "{T} masterclass",
                               "Introduction to {t}", "{T}: the essentials",
                               "Diploma in {t}", "{T} bootcamp"])
            title = form.format(t=topic, T=topic[0].upper() + topic[1:])
            slug = slugify(title)
            if slug in used:
                slug = f"{slug}-{i}"
            used.add(slug)
            out.append(Course(
                3000 + i, title, slug, cat,
                rng.choice(["Beginner", "Intermediate", "Advanced"]),
                rng.choice(["Online, self-paced", "Live online", "Classroom", "Blended"]),
                rng.choice([2, 3, 6, 7, 12, 14, 21, 30, 40]),
                rng.choice([0, 45, 95, 150, 295, 450, 795, 1250]),
                round(rng.uniform(3.4, 5.0), 1), rng.choice([0, 0, 2, 5, 14, 37, 120]),
                rng.sample(self.people, min(len(self.people), rng.randint(1, 3))),
                TODAY + timedelta(days=rng.randint(-30, 240))))
        rng.shuffle(out)
        return out

    def _events(self, rng: random.Random, n: int) -> list[Event]:
        cats = split_counts(n, [w for _, _, w in EVENT_CATS])
        slots = [key for (key, _, _), k in zip(EVENT_CATS, cats, strict=True) for _ in range(k)]
        rng.shuffle(slots)
        past, _ = past_upcoming(n)
        used: set[str] = set()
        out = []
        for i, cat in enumerate(slots):
            if i < past:
                day = TODAY - timedelta(days=rng.randint(1, 6 * 365))
            else:
                day = TODAY + timedelta(days=rng.randint(1, 300))
            topic = rng.choice(TOPICS)
            city, _region = rng.choice(CITIES[:-1])
            title = {
                "conference": f"NSIP Annual Conference {day.year}" if i % 3 else
                f"{topic.capitalize()} Summit {day.year}",
                "webinar": f"Webinar: {make_title(rng)}",
                "workshop": f"Workshop: {topic} in practice",
                "networking": f"{city} members' networking evening",
                "awards": f"Information Awards {day.year}",
                "regional-meetup": f"{city} meetup: {topic}",
            }[cat]
            slug = slugify(title)
            while slug in used:
                slug = f"{slugify(title)}-{day.month:02d}-{day.day:02d}-{i}"
            used.add(slug)
            venue = "Online" if cat == "webinar" else rng.choice(
                ["The Guildhall", "Conference Centre", "Central Library", "Hotel Metropole",
                 "University Campus", "The Exchange", "Innovation Hub"])
            out.append(Event(7000 + i, title, slug, cat, day, city, venue,
                             rng.choice([0, 0, 15, 25, 60, 145, 395]),
                             rng.sample(self.people, min(len(self.people),
                                                         rng.randint(0, 8)))))
        return out

    def _jobs(self, rng: random.Random, n: int, apply: int) -> list[Job]:
        cats = split_counts(n, [w for _, _, w in JOB_CATS])
        slots = [key for (key, _, _), k in zip(JOB_CATS, cats, strict=True) for _ in range(k)]
        rng.shuffle(slots)
        ids = sorted(rng.sample(range(20000, 99999), n), reverse=True)
        on_site = set(rng.sample(range(n), apply))
        out = []
        for i, (jid, cat) in enumerate(zip(ids, slots, strict=True)):
            title = rng.choice(JOB_TITLES)
            city, _region = rng.choice(CITIES)
            posted = TODAY - timedelta(days=rng.randint(0, 120))
            lo = rng.randrange(24, 70) * 1000
            salary = rng.choice([f"£{lo:,} – £{lo + rng.randrange(3, 15) * 1000:,}",
                                 "Competitive", f"£{lo // 1000 * 5}–£{lo // 1000 * 6} per day"])
            out.append(Job(jid, title, slugify(f"{title} {city}"), cat, rng.choice(ORGS),
                           city, salary, rng.choice(["Permanent", "Fixed term", "Contract",
                                                     "Part time", "Internship"]),
                           posted, posted + timedelta(days=rng.randint(14, 60)),
                           i in on_site))
        return out

    def _help(self, rng: random.Random, n: int) -> list[HelpArticle]:
        out = []
        for i in range(n):
            cat = HELP_CATS[i % len(HELP_CATS)]
            verb, obj = rng.choice(HELP_VERBS), rng.choice(HELP_OBJS)
            title = rng.choice([f"How do I {verb} {obj}?", f"Why can't I {verb} {obj}?",
                                f"Can I {verb} {obj} online?",
                                f"{obj[0].upper() + obj[1:]}: troubleshooting"])
            out.append(HelpArticle(360040000000 + i * 7919, title, slugify(title), cat[0],
                                   rng.choice(cat[3]),
                                   TODAY - timedelta(days=rng.randint(0, 900))))
        return out

    def _episodes(self, rng: random.Random, n: int) -> list[Episode]:
        out = []
        for i in range(n):
            title = make_title(rng)
            out.append(Episode(i + 1, title, slugify(title)[:60].strip("-"),
                               TODAY - timedelta(days=14 * (n - i)),
                               rng.sample(self.people, min(len(self.people), rng.randint(1, 3))),
                               80000 + i))
        return out

    def _issues(self, n: int) -> list[date]:
        out = []
        y, m = TODAY.year, TODAY.month
        for _ in range(n):
            out.append(date(y, m, 1))
            y, m = (y, m - 1) if m > 1 else (y - 1, 12)
        return out

    # ---- lookups

    def section_name(self, key: str) -> str:
        return next(name for k, name, _ in MAG_SECTIONS if k == key)

    def sub_name(self, sect: str, sub: str) -> str:
        return next(name for k, name in MAG_SUBSECTIONS[sect] if k == sub)

    def region_name(self, key: str) -> str:
        return next(name for k, name in REGIONS if k == key)


# --------------------------------------------------------------------------- chrome


def nav_html(site: Site, nav: str, path: str) -> str:
    """The primary menu with the active item marked."""
    subs: dict[str, list[tuple[str, str]]] = {
        "magazine": [(f"/magazine/{k}/", n) for k, n, _ in MAG_SECTIONS]
        + [("/magazine/podcast/", "Podcast"), ("/magazine/issues/", "Back issues")],
        "membership": [("/membership/", "Individual membership"),
                       ("/membership/corporate/", "Corporate membership"),
                       ("/login/", "Member login")],
        "learn": [(f"/learn/category/{k}/", n) for k, n, _ in COURSE_CATS[:5]],
        "events": [("/events/", "Upcoming events"), ("/events/past/", "Past events")],
        "jobs": [("/jobs/", "Browse jobs"), ("/contact/", "Advertise a job")],
    }
    items = []
    for i, (key, label, href) in enumerate(NAV):
        cls = ["menu-item", "menu-item-type-post_type", "menu-item-object-page",
               f"menu-item-{101 + i}"]
        aria = ""
        if key == nav:
            if path == href:
                cls += ["current-menu-item", "current_page_item"]
                aria = ' aria-current="page"'
            else:
                cls += ["current-menu-ancestor", "current-menu-parent"]
        sub = ""
        if key in subs:
            cls.append("menu-item-has-children")
            lis = []
            for j, (shref, sname) in enumerate(subs[key]):
                scls = f"menu-item menu-item-type-taxonomy menu-item-{201 + 10 * i + j}"
                saria = ""
                if shref == path and shref != href:
                    scls += " current-menu-item"
                    saria = ' aria-current="page"'
                lis.append(f'<li id="menu-item-{201 + 10 * i + j}" class="{scls}">'
                           f'<a href="{shref}"{saria}>{esc(sname)}</a></li>')
            sub = f'<ul class="sub-menu">{"".join(lis)}</ul>'
        items.append(f'<li id="menu-item-{101 + i}" class="{" ".join(cls)}">'
                     f'<a href="{href}"{aria}>{label}</a>{sub}</li>')
    return (f'<nav id="site-navigation" class="main-navigation" aria-label="Primary menu">'
            f'<button class="menu-toggle" aria-controls="primary-menu" aria-expanded="false">'
            f'<span class="screen-reader-text">Menu</span></button>'
            f'<ul id="primary-menu" class="menu nav-menu">{"".join(items)}</ul></nav>')


def crumbs_html(crumbs: list[tuple[str, str]]) -> str:
    """Yoast-like breadcrumb trail; the last crumb is the current page."""
    if not crumbs:
        return ""
    lis = []
    for i, (text, href) in enumerate(crumbs):
        if i == len(crumbs) - 1:
            lis.append(f'<li class="breadcrumb_last" aria-current="page">{esc(text)}</li>')
        else:
            lis.append(f'<li><a href="{esc(href)}">{esc(text)}</a></li>')
    return (f'<nav class="breadcrumbs container" aria-label="Breadcrumb">'
            f'<ol>{"".join(lis)}</ol></nav>')


def footer_html(rng: random.Random) -> str:
    """The shared footer."""
    quick = "".join(f'<li class="menu-item"><a href="{h}">{t}</a></li>' for h, t in [
        ("/about/", "About us"), ("/about/governance/", "Governance"),
        ("/magazine/", "Signal magazine"), ("/learn/", "Courses"), ("/events/", "Events"),
        ("/jobs/", "Careers centre"), ("/contact/", "Contact")])
    members = "".join(f'<li class="menu-item"><a href="{h}">{t}</a></li>' for h, t in [
        ("/membership/", "Join"), ("/login/", "Log in"), ("/directory/", "Find a member"),
        ("/help/", "Help centre")])
    social = "".join(
        f'<li class="social-{k}"><a href="{h}" rel="noopener" target="_blank">'
        f'<svg class="icon icon-{k}" aria-hidden="true" width="20" height="20">'
        f'<use href="#icon-{k}"></use></svg><span class="screen-reader-text">{t}</span>'
        f"</a></li>"
        for k, h, t in [("linkedin", "https://www.linkedin.com/company/nsip", "LinkedIn"),
                        ("mastodon", "https://mastodon.social/@nsip", "Mastodon"),
                        ("youtube", "https://www.youtube.com/@nsiporg", "YouTube"),
                        ("bluesky", "https://bsky.app/profile/nsip.org", "Bluesky")])
    legal = "".join(f'<li><a href="{h}">{t}</a></li>' for h, t in [
        ("/privacy-policy/", "Privacy"), ("/terms/", "Terms of use"),
        ("/cookie-policy/", "Cookies"), ("/accessibility/", "Accessibility")])
    return (
        '<footer id="colophon" class="site-footer"><div class="footer-widgets container">'
        '<section class="footer-col widget widget_text"><h2 class="widget-title">About NSIP'
        '</h2><div class="textwidget"><p>The Northfield Society of Information Professionals'
        " supports people who manage information, records and knowledge, through "
        "membership, learning and events.</p></div></section>"
        '<section class="footer-col widget widget_nav_menu"><h2 class="widget-title">'
        f'Quick links</h2><ul class="menu">{quick}</ul></section>'
        '<section class="footer-col widget widget_nav_menu"><h2 class="widget-title">'
        f'Members</h2><ul class="menu">{members}</ul></section>'
        '<section class="footer-col widget widget_newsletter"><h2 class="widget-title">'
        f"Get the Signal newsletter</h2>{newsletter_form(rng, 'footer')}</section></div>"
        f'<div class="site-info container"><ul class="social-links">{social}</ul>'
        f'<ul class="legal-menu">{legal}</ul><p class="copyright">© {TODAY.year} '
        f"{SITE_NAME}. Registered charity no. 1092834. Registered office: 14 Quay Street, "
        "Bristol BS1 4DB.</p></div></footer>")


GLOBAL_STYLES = (
    "body{--wp--preset--color--black:#000;--wp--preset--color--white:#fff;"
    "--wp--preset--color--brand:#0b4f6c;--wp--preset--color--accent:#e4572e;"
    "--wp--preset--font-size--small:13px;--wp--preset--font-size--large:36px;"
    "--wp--preset--spacing--40:1.5rem}.has-brand-color{color:var(--wp--preset--color--brand)"
    " !important}.has-accent-background-color{background-color:"
    "var(--wp--preset--color--accent) !important}"
)
SECTION_CSS = {"magazine": "magazine", "membership": "membership", "learn": "learning",
               "events": "events", "jobs": "careers", "directory": "directory",
               "help": "helpcentre", "": "pages"}


def render_document(site: Site, url: str, p: Page, rng: random.Random) -> tuple[str, list[str]]:
    """Wrap a template's output in the site chrome; return the HTML and stylesheet hrefs."""
    path = urlsplit(url).path
    epoch = rng.choices([0, 1, 2], weights=[3, 5, 2])[0]
    consent = rng.random() < 0.55
    chat = rng.random() < (0.45 if p.nav in ("help", "learn", "membership") else 0.15)
    analytics = rng.random() < 0.85
    hotjar = rng.random() < 0.2
    hrefs: list[str] = []

    def css(href: str, id_: str, media: str = "all", onload: bool = False) -> str:
        hrefs.append(urljoin(url, href))
        extra = " onload=\"this.media='all'\"" if onload else ""
        return (f"<link rel='stylesheet' id='{id_}-css' href='{wp_url(href)}' "
                f"media='{media}'{extra} />")

    wpver = ["6.4.3", "6.5.2", "6.5.3"][epoch]
    head = [
        '<meta charset="UTF-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(p.title)} – {'Signal' if p.nav == 'magazine' else 'NSIP'}</title>",
    ]
    if p.robots:
        head.append(f'<meta name="robots" content="{p.robots}">')
    if p.description:
        head.append(f'<meta name="description" content="{esc(p.description)}">')
    if not p.robots:
        head.append(f'<link rel="canonical" href="{esc(url.split("?")[0])}">')
    head += [
        f'<meta property="og:type" content="{p.og_type}">',
        f'<meta property="og:title" content="{esc(p.title)}">',
        f'<meta property="og:url" content="{esc(url)}">',
        '<meta property="og:site_name" content="NSIP">',
        "<link rel='dns-prefetch' href='//fonts.googleapis.com' />",
        '<link rel="preconnect" href="https://fonts.gstatic.com" crossorigin>',
        '<link rel="alternate" type="application/rss+xml" title="NSIP » Feed" '
        'href="https://www.nsip.org/feed/">',
    ]
    if consent:
        head.append(css("https://cdn.kiprotect.com/klaro/v0.7.22/klaro.min.css", "klaro"))
        head.append('<script defer type="application/javascript" '
                    'src="/wp-content/plugins/klaro/config.js?ver=1.4"></script>'
                    '<script defer data-config="klaroConfig" '
                    'src="https://cdn.kiprotect.com/klaro/v0.7.22/klaro.js"></script>')
    head.append(css("https://fonts.googleapis.com/css2?family=Source+Sans+3:wght@400;600;700"
                    "&display=swap", "nsip-fonts"))
    head.append(css(f"/wp-includes/css/dist/block-library/style.min.css?ver={wpver}",
                    "wp-block-library"))
    head.append(f"<style id='global-styles-inline-css'>{GLOBAL_STYLES}</style>")
    if p.forms:
        head.append(css("/wp-content/plugins/contact-form-7/includes/css/styles.css?ver=5.9.3",
                        "contact-form-7"))
    if p.paged:
        head.append(css("/wp-content/plugins/wp-pagenavi/pagenavi-css.css?ver=2.70",
                        "wp-pagenavi"))
    head.append(css(f"/wp-content/themes/nsip/assets/css/site.css?v={vhash('site', epoch)}",
                    "nsip-site"))
    sect = SECTION_CSS.get(p.nav, "pages")
    sect_v = vhash(sect, epoch if sect in ("magazine", "learning", "careers") else epoch // 2)
    head.append(css(f"/wp-content/themes/nsip/assets/css/{sect}.css?v={sect_v}",
                    f"nsip-{sect}"))
    for href, id_ in p.css:
        head.append(css(href, id_))
    if p.og_type == "article":
        head.append(css(f"/wp-content/themes/nsip/assets/css/print.css?v={vhash('p', epoch)}",
                        "nsip-print", media="print"))
    if p.video:
        head.append(css("//cdn.jsdelivr.net/npm/lite-youtube-embed@0.3.2/src/"
                        "lite-yt-embed.min.css", "lite-youtube"))
    if p.inline_css:
        head.append(f"<style id='nsip-inline-css'>{p.inline_css}</style>")
    if analytics:
        head.append('<script async src="https://www.googletagmanager.com/gtag/js?'
                    'id=G-8XK2Q1LMNZ"></script><script>window.dataLayer=window.dataLayer'
                    "||[];function gtag(){dataLayer.push(arguments);}gtag('js',new Date());"
                    f"gtag('config','G-8XK2Q1LMNZ',{{'content_group':'{sect}'}});</script>")
    if hotjar:
        head.append("<script>(function(h,o,t,j,a,r){h.hj=h.hj||function(){(h.hj.q=h.hj.q||"
                    "[]).push(arguments)};h._hjSettings={hjid:3412897,hjsv:6};})(window,"
                    "document,'https://static.hotjar.com/c/hotjar-','.js?sv=');</script>")

    body_cls = f"{p.body_class} wp-embed-responsive nsip-theme"
    if p.sidebar:
        body_cls += " has-sidebar"
    if consent:
        body_cls += " klaro-active"
    container_cls = "content-area" + (" content-area--wide" if p.wide else "")
    sidebar = (f'<aside id="secondary" class="widget-area" aria-label="Sidebar">'
               f"{p.sidebar}</aside>") if p.sidebar else ""
    body = [
        f'<body class="{body_cls}">',
        '<a class="skip-link screen-reader-text" href="#content">Skip to content</a>',
        '<div id="page" class="site">',
        '<div class="utility-bar"><div class="container"><ul class="utility-nav">'
        '<li><a href="/login/">Member login</a></li><li><a href="/membership/" '
        'class="button button--small">Join NSIP</a></li><li><a href="/help/">Help</a></li>'
        "</ul></div></div>",
        '<header id="masthead" class="site-header"><div class="container site-header__inner">'
        '<div class="site-branding"><a href="/" class="custom-logo-link" rel="home">'
        + img("/wp-content/uploads/2021/03/nsip-logo.svg", SITE_NAME, 220, 48,
              "custom-logo", lazy=False)
        + "</a></div>" + nav_html(site, p.nav, path)
        + search_form("/search/", cls="search-form header-search") + "</div></header>",
        f'<div id="content" class="site-content">{crumbs_html(p.crumbs)}',
        f'<div class="container {container_cls}"><main id="main" class="site-main">{p.main}'
        f"</main>{sidebar}</div></div>",
        footer_html(rng),
        "</div>",
    ]
    if chat:
        body.append(css("https://cdn.livechatinc.com/widget/static/css/widget.css?v=2.41",
                        "livechat-widget"))
        body.append('<div id="chat-widget-container" style="opacity:1;visibility:visible;'
                    'z-index:2147483639;position:fixed;bottom:0;right:0;width:84px;'
                    'height:84px"></div><script>window.__lc={license:15902341};</script>'
                    '<script async src="https://cdn.livechatinc.com/tracking.js"></script>')
    if consent:
        body.append('<div id="klaro"><div class="klaro"><div class="cookie-notice" '
                    'role="dialog" aria-label="Cookie consent"><div class="cn-body"><p>We use '
                    "cookies for analytics and embedded media. <a href=\"/cookie-policy/\">"
                    'Learn more</a></p><div class="cn-ok"><button class="cm-btn cm-btn-success"'
                    ' type="button">Accept all</button><button class="cm-btn cm-btn-danger" '
                    'type="button">Decline</button></div></div></div></div></div>')
    body.append("<script src='/wp-includes/js/jquery/jquery.min.js?ver=3.7.1' "
                "id='jquery-core-js'></script>")
    body.append(f"<script src='/wp-content/themes/nsip/assets/js/site.js?v="
                f"{vhash('js', epoch)}' id='nsip-site-js' defer></script>")
    if p.forms:
        body.append("<script src='/wp-content/plugins/contact-form-7/includes/js/index.js?"
                    "ver=5.9.3' id='contact-form-7-js'></script>")
    if p.video:
        body.append('<script type="module" src="https://cdn.jsdelivr.net/npm/'
                    'lite-youtube-embed@0.3.2/src/lite-yt-embed.min.js"></script>')
    body.append("</body>")
    doc = ("<!DOCTYPE html>\n<html lang=\"en-GB\" class=\"no-js\">\n<head>\n"
           + "\n".join(head) + "\n</head>\n" + "\n".join(body) + "\n</html>\n")
    return doc, hrefs


# --------------------------------------------------------------------------- shared blocks


def article_card(a: Article, site: Site, rng: random.Random, style: str,
                 heading: str = "h2") -> str:
    """A post card: 'grid' (image above), 'list' (media object) or 'compact' (no image)."""
    cat = site.section_name(a.section)
    time_ = f'<time datetime="{a.day.isoformat()}">{fmt_date(a.day)}</time>'
    title = (f'<{heading} class="entry-title"><a href="{a.url}" rel="bookmark">'
             f"{esc(a.title)}</a></{heading}>")
    classes = (f"post-{a.pid} post type-post status-publish format-standard "
               f"category-{a.section}" + "".join(f" tag-{t}" for t in a.tags[:3]))
    if style == "compact":
        return (f'<li class="{classes} archive-item"><span class="cat-label">{esc(cat)}'
                f"</span> {title}{time_}</li>")
    thumb = img(upload(a.day, a.slug, 400, 250), "", 400, 250,
                "attachment-card size-card wp-post-image")
    excerpt = f'<div class="entry-summary"><p>{esc(sentence(rng))}</p></div>'
    lock = '<span class="badge badge--members">Members</span>' if a.members_only else ""
    if style == "grid":
        return (f'<article id="post-{a.pid}" class="{classes} card card--grid">'
                f'<a class="card__media" href="{a.url}" tabindex="-1">{thumb}</a>'
                f'<div class="card__body"><span class="cat-label">{esc(cat)}</span>{lock}'
                f"{title}{excerpt}<footer class=\"entry-meta\">{time_} · "
                f'{link(a.author.url, a.author.person.name, "author")}</footer></div></article>')
    return (f'<article id="post-{a.pid}" class="{classes} card card--list media">'
            f'<div class="media__body">{title}<div class="entry-meta">{time_} · by '
            f'{link(a.author.url, a.author.person.name, "author")}{lock}</div>{excerpt}</div>'
            f'<a class="media__figure" href="{a.url}" tabindex="-1">{thumb}</a></article>')


def widget(kind: str, site: Site, rng: random.Random) -> str:
    """One sidebar widget."""
    if kind == "popular":
        items = "".join(f"<li>{link(a.url, a.title)}</li>"
                        for a in rng.sample(site.articles, min(5, len(site.articles))))
        return (f'<section id="nsip-popular-2" class="widget widget_popular_posts">'
                f'<h2 class="widget-title">Most read</h2><ol>{items}</ol></section>')
    if kind == "newsletter":
        return (f'<section id="nsip-newsletter-3" class="widget widget_newsletter">'
                f'<h2 class="widget-title">Newsletter</h2>'
                f"<p>{esc(sentence(rng))}</p>{newsletter_form(rng, 'sidebar')}</section>")
    if kind == "events":
        ups = [e for e in site.events if e.day > TODAY][:30]
        picks = rng.sample(ups, min(3, len(ups)))
        items = "".join(f'<li>{link(e.url, e.title)}<span class="date">{fmt_date(e.day)}'
                        f"</span></li>" for e in picks)
        return (f'<section id="nsip-events-4" class="widget widget_upcoming_events">'
                f'<h2 class="widget-title">Upcoming events</h2><ul>{items}</ul></section>')
    if kind == "ad":
        n = rng.randint(1, 6)
        return (f'<section id="custom_html-{n}" class="widget_text widget widget_custom_html">'
                f'<div class="textwidget custom-html-widget"><a href="/learn/" class="promo"'
                f' style="background:#0b4f6c;color:#fff;display:block;padding:1rem">'
                f"Save 20% on courses this month</a></div></section>")
    if kind == "tags":
        tags = rng.sample(site.tags, min(len(site.tags), rng.randint(8, 20)))
        items = "".join(
            f'<a href="/magazine/tag/{t}/" class="tag-cloud-link tag-link-{i + 40}" '
            f'style="font-size:{rng.choice([8, 10, 12.3, 14, 16.5, 22])}pt">{esc(n)}</a>'
            for i, (t, n) in enumerate(tags))
        return (f'<section id="tag_cloud-2" class="widget widget_tag_cloud"><h2 '
                f'class="widget-title">Topics</h2><div class="tagcloud">{items}</div></section>')
    if kind == "jobs":
        jobs = rng.sample(site.jobs, min(4, len(site.jobs)))
        items = "".join(f"<li>{link(j.url, j.title)} <span>{esc(j.employer)}</span></li>"
                        for j in jobs)
        return (f'<section id="nsip-jobs-2" class="widget widget_latest_jobs">'
                f'<h2 class="widget-title">Latest jobs</h2><ul>{items}</ul></section>')
    # search
    return (f'<section id="search-2" class="widget widget_search">'
            f'{search_form("/search/", cls="search-form")}</section>')


def sidebar(site: Site, rng: random.Random, pool: list[str], lo: int = 2,
            hi: int = 4) -> str:
    """A random subset of widgets in random order."""
    kinds = rng.sample(pool, min(len(pool), rng.randint(lo, hi)))
    return "".join(widget(k, site, rng) for k in kinds)


def share_links(url: str, title: str) -> str:
    """Social share buttons."""
    u = quote_plus(ORIGIN + url)
    t = quote_plus(title)
    return (f'<div class="share-buttons"><span>Share</span>'
            f'<a class="share share--linkedin" href="https://www.linkedin.com/sharing/'
            f'share-offsite/?url={u}" target="_blank" rel="noopener">LinkedIn</a>'
            f'<a class="share share--bluesky" href="https://bsky.app/intent/compose?text={t}'
            f'%20{u}" target="_blank" rel="noopener">Bluesky</a>'
            f'<a class="share share--email" href="mailto:?subject={t}&amp;body={u}">Email</a>'
            f"</div>")


def comments_block(rng: random.Random, pid: int, n: int, open_: bool) -> str:
    """WordPress comment list (with replies) and comment form."""
    parts = ['<div id="comments" class="comments-area">']
    if n:
        parts.append(f'<h2 class="comments-title">{n} '
                     f"{'comment' if n == 1 else 'comments'}</h2><ol class=\"comment-list\">")
        cid = pid * 3 + 100000
        made = 0
        while made < n:
            cid += rng.randint(1, 40)
            name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
            d = TODAY - timedelta(days=rng.randint(0, 700))
            parity = "even" if made % 2 == 0 else "odd"
            replies = min(n - made - 1, rng.choice([0, 0, 0, 1, 2]))
            kids = ""
            if replies:
                kid_items = []
                for _ in range(replies):
                    cid += 1
                    kid_items.append(
                        f'<li id="comment-{cid}" class="comment byuser depth-2">'
                        f'<article id="div-comment-{cid}" class="comment-body"><footer '
                        f'class="comment-meta"><b class="fn">{esc(rng.choice(FIRST))}</b></footer>'
                        f'<div class="comment-content"><p>{esc(sentence(rng))}</p></div>'
                        f"</article></li>")
                kids = f'<ol class="children">{"".join(kid_items)}</ol>'
            parts.append(
                f'<li id="comment-{cid}" class="comment {parity} thread-{parity} depth-1'
                f'{" parent" if kids else ""}"><article id="div-comment-{cid}" '
                f'class="comment-body"><footer class="comment-meta"><div class="comment-author '
                f'vcard">{img(avatar(name, 48), "", 48, 48, "avatar avatar-48 photo")}'
                f'<b class="fn">{esc(name)}</b></div><div class="comment-metadata">'
                f'<a href="#comment-{cid}"><time datetime="{d.isoformat()}">{fmt_date(d)}'
                f'</time></a></div></footer><div class="comment-content">'
                f"<p>{esc(para_text(rng, 1, 3))}</p></div><div class=\"reply\">"
                f'<a rel="nofollow" class="comment-reply-link" href="#comment-{cid}">Reply</a>'
                f"</div></article>{kids}</li>")
            made += 1 + replies
        parts.append("</ol>")
    if open_:
        parts.append(
            f'<div id="respond" class="comment-respond"><h3 id="reply-title" '
            f'class="comment-reply-title">Leave a comment</h3><form action="/wp-comments-post'
            f'.php" method="post" id="commentform" class="comment-form"><p class="comment-form'
            f'-comment"><label for="comment">Comment</label><textarea id="comment" '
            f'name="comment" cols="45" rows="6" required></textarea></p>'
            f'<p class="form-submit"><input name="submit" type="submit" id="submit" '
            f'class="submit" value="Post comment"><input type="hidden" name="comment_post_ID"'
            f' value="{pid}" id="comment_post_ID"></p></form></div>')
    else:
        parts.append('<p class="no-comments">Comments are closed.</p>')
    parts.append("</div>")
    return "".join(parts)


def wp_body(rng: random.Random, n: int, title: str, video: bool, table: bool,
            cut: int = 0) -> str:
    """Block-editor post content with headings, images, quotes, lists, optional table/video."""
    blocks: list[str] = []
    first_cls = ' class="has-drop-cap"' if rng.random() < 0.3 else ""
    blocks.append(f"<p{first_cls}>{esc(para_text(rng, 4, 7))}</p>")
    extras = ["h2", "image", "quote", "list", "group", "pullquote"]
    if video:
        extras.append("video")
    if table:
        extras.append("table")
    todo = list(extras)
    for i in range(1, n):
        if cut and i == cut:
            break
        if rng.random() < 0.35 and todo:
            kind = todo.pop(rng.randrange(len(todo))) if rng.random() < 0.7 else rng.choice(
                ["h2", "image", "list"])
            if kind == "h2":
                h = rng.choice(TOPICS).capitalize()
                blocks.append(f'<h2 class="wp-block-heading" id="{slugify(h)}">{esc(h)}</h2>')
            elif kind == "image":
                mid = rng.randint(4000, 90000)
                w = rng.choice([640, 768, 1024])
                blocks.append(
                    f'<figure class="wp-block-image size-large"><img src="/wp-content/uploads/'
                    f'2024/0{rng.randint(1, 9)}/figure-{mid}-{w}x{w * 9 // 16}.jpg" alt="" '
                    f'class="wp-image-{mid}" style="aspect-ratio:16/9;object-fit:cover" '
                    f'loading="lazy"><figcaption class="wp-element-caption">'
                    f"{esc(sentence(rng))}</figcaption></figure>")
            elif kind == "quote":
                blocks.append(f'<blockquote class="wp-block-quote"><p>{esc(sentence(rng))}</p>'
                              f"<cite>{esc(rng.choice(FIRST))} {esc(rng.choice(LAST))}</cite>"
                              f"</blockquote>")
            elif kind == "pullquote":
                blocks.append(f'<figure class="wp-block-pullquote has-border-color" '
                              f'style="border-top-width:4px;border-color:#e4572e"><blockquote>'
                              f"<p>{esc(sentence(rng))}</p></blockquote></figure>")
            elif kind == "list":
                items = "".join(f"<li>{esc(sentence(rng))}</li>"
                                for _ in range(rng.randint(3, 7)))
                blocks.append(f'<ul class="wp-block-list">{items}</ul>')
            elif kind == "group":
                blocks.append(f'<div class="wp-block-group has-background is-layout-flow" '
                              f'style="background-color:#f3f0ea;padding:1.5rem">'
                              f'<h3 class="wp-block-heading">Key takeaways</h3>'
                              f'<p>{esc(para_text(rng, 2, 3))}</p></div>')
            elif kind == "video":
                blocks.append(video_embed(rng, title))
            elif kind == "table":
                blocks.append(data_table(rng, "Source: NSIP members' survey",
                                         ["Area", "2023", "2024", "Change"], rng.randint(3, 9)))
        blocks.append(f"<p>{esc(para_text(rng))}</p>")
    return "".join(blocks)


# --------------------------------------------------------------------------- templates


def t_home(site: Site, rng: random.Random) -> Page:
    """The front page."""
    feat = site.latest[:4]
    slides = "".join(
        f'<div class="hero-slide{" is-active" if i == 0 else ""}" style="background-image:'
        f"url('{upload(a.day, a.slug, 1600, 700)}')\"><div class=\"hero-slide__text\">"
        f'<span class="cat-label">{esc(site.section_name(a.section))}</span>'
        f"<h2>{link(a.url, a.title)}</h2></div></div>" for i, a in enumerate(feat))
    latest = "".join(article_card(a, site, rng, "grid", "h3") for a in site.latest[4:10])
    ups = [e for e in site.events if e.day > TODAY][:3]
    events = "".join(f'<li class="event-teaser"><span class="date-badge">'
                     f'{e.day.day}<small>{e.day.strftime("%b")}</small></span>'
                     f"{link(e.url, e.title)}</li>" for e in ups)
    courses = "".join(f'<li class="course-teaser">{link(c.url, c.title)} '
                      f"<span>{esc(c.fmt)}</span></li>" for c in site.courses[:4])
    jobs = "".join(f"<li>{link(j.url, j.title)} – {esc(j.employer)}</li>"
                   for j in site.jobs[:5])
    main = (
        f'<section class="hero-carousel" aria-roledescription="carousel">{slides}</section>'
        f'<section class="home-latest"><h2 class="section-title">Latest from Signal</h2>'
        f'<div class="cards cards--grid">{latest}</div></section>'
        f'<div class="home-columns"><section class="home-events"><h2>Upcoming events</h2>'
        f'<ul>{events}</ul><a href="/events/" class="more">All events</a></section>'
        f'<section class="home-courses"><h2>Featured courses</h2><ul>{courses}</ul></section>'
        f'<section class="home-jobs"><h2>Latest jobs</h2><ul>{jobs}</ul></section></div>'
        f'<section class="cta-band" style="background:#0b4f6c;color:#fff"><h2>Join 9,000 '
        f"information professionals</h2><p>{esc(sentence(rng))}</p>"
        f'<a href="/membership/" class="button">Become a member</a></section>')
    return Page("Home", "", [], "home page-template page-template-front-page page-id-2",
                main, wide=True, description="Membership, learning and events for "
                "information professionals.")


ABOUT_PAGES = [("/about/", "About us", 12), ("/about/history/", "Our history", 14),
               ("/about/governance/", "Governance", 16)]


def t_about(site: Site, rng: random.Random, path: str, title: str, pid: int) -> Page:
    """About pages: a block-editor page with columns, an image, a team grid or a table."""
    parts = [f'<article id="post-{pid}" class="post-{pid} page type-page status-publish '
             f'hentry"><header class="entry-header"><h1 class="entry-title">{esc(title)}'
             f'</h1></header><div class="entry-content">']
    parts.append(paras(rng, rng.randint(2, 4)))
    if path == "/about/":
        cols = "".join(f'<div class="wp-block-column"><h3 class="wp-block-heading">{h}</h3>'
                       f"<p>{esc(sentence(rng))}</p></div>"
                       for h in ("Membership", "Learning", "Advocacy"))
        parts.append(f'<div class="wp-block-columns is-layout-flex">{cols}</div>')
        team = "".join(f'<figure class="team-member">{img(avatar(p.slug, 160), p.name, 160, 160)}'
                       f"<figcaption><strong>{esc(p.name)}</strong><br>{esc(p.job)}"
                       f"</figcaption></figure>" for p in site.people[:8])
        parts.append(f'<h2 class="wp-block-heading">Our staff</h2><div class="team-grid">'
                     f"{team}</div>")
    elif path == "/about/history/":
        for year in range(1962, 2025, rng.choice([7, 9, 11])):
            parts.append(f'<h3 class="wp-block-heading timeline-year">{year}</h3>'
                         f"<p>{esc(para_text(rng, 1, 3))}</p>")
    else:
        parts.append(data_table(rng, "Board attendance", ["Trustee", "Meetings", "Attended",
                                                          "Committee"], 10, striped=False))
        parts.append(paras(rng, 3))
    parts.append("</div></article>")
    crumbs = [("Home", "/"), ("About us", "/about/")]
    if path != "/about/":
        crumbs.append((title, ""))
    else:
        crumbs[-1] = ("About us", "")
    return Page(title, "", crumbs, f"page-template-default page page-id-{pid} "
                f"page-{slugify(title)}", "".join(parts),
                sidebar=sidebar(site, rng, ["newsletter", "events", "search"], 1, 2))


def t_legal(site: Site, rng: random.Random, path: str, title: str, pid: int) -> Page:
    """Long legal pages with a table of contents; the cookie policy has a table."""
    heads = rng.sample(["Who we are", "What we collect", "How we use your data",
                        "Legal basis", "Sharing", "Retention", "Your rights", "Cookies",
                        "Security", "Changes to this policy", "Contact us",
                        "Acceptable use", "Liability", "Governing law"],
                       rng.randint(6, 11))
    toc = "".join(f'<li><a href="#{slugify(h)}">{esc(h)}</a></li>' for h in heads)
    body = []
    for h in heads:
        body.append(f'<h2 class="wp-block-heading" id="{slugify(h)}">{esc(h)}</h2>')
        body.append(paras(rng, rng.randint(1, 4)))
        if h == "Cookies" or (path == "/cookie-policy/" and h == heads[1]):
            body.append(data_table(rng, "Cookies we set", ["Cookie", "Provider", "Expiry",
                                                            "Purpose"], rng.randint(5, 14)))
    upd = TODAY - timedelta(days=rng.randint(20, 500))
    main = (f'<article id="post-{pid}" class="post-{pid} page type-page status-publish hentry">'
            f'<header class="entry-header"><h1 class="entry-title">{esc(title)}</h1>'
            f'<p class="last-updated">Last updated {fmt_date(upd)}</p></header>'
            f'<div class="entry-content"><nav class="wp-block-table-of-contents" '
            f'aria-label="Contents"><ol>{toc}</ol></nav>{"".join(body)}</div></article>')
    return Page(title, "", [("Home", "/"), (title, "")],
                f"page-template-legal page-template-templates-legal-php page page-id-{pid}",
                main)


def t_contact(site: Site, rng: random.Random) -> Page:
    """Contact page with an address, map iframe and contact form."""
    form = cf7_form(211, 30, [("your-name", "Your name", "text"),
                              ("your-email", "Email", "email"),
                              ("your-subject", "Subject", "select"),
                              ("your-message", "Message", "textarea"),
                              ("acceptance", "I agree to the privacy policy", "checkbox")],
                    "Send message")
    main = ('<article id="post-30" class="post-30 page type-page status-publish hentry">'
            '<header class="entry-header"><h1 class="entry-title">Contact us</h1></header>'
            f'<div class="entry-content"><div class="wp-block-columns"><div class="wp-block-'
            f'column"><h2>Get in touch</h2>{paras(rng, 1)}<address>14 Quay Street<br>Bristol'
            '<br>BS1 4DB</address><p>Tel: <a href="tel:+441179460000">0117 946 0000</a></p>'
            '<iframe src="https://www.google.com/maps/embed?pb=!1m18!1m12!1m3!1d2486" '
            'width="600" height="300" style="border:0" allowfullscreen loading="lazy" '
            'title="Map"></iframe></div>'
            f'<div class="wp-block-column">{form}</div></div></div></article>')
    return Page("Contact us", "", [("Home", "/"), ("Contact us", "")],
                "page-template-default page page-id-30 page-contact", main, forms=True)


def t_not_found(site: Site, rng: random.Random) -> Page:
    """The 404 page."""
    popular = "".join(f"<li>{link(h, t)}</li>" for h, t in [
        ("/magazine/", "Signal magazine"), ("/learn/", "Courses"), ("/events/", "Events"),
        ("/jobs/", "Jobs"), ("/help/", "Help centre")])
    main = ('<section class="error-404 not-found"><header class="page-header">'
            '<h1 class="page-title">Sorry, we can’t find that page</h1></header>'
            f'<div class="page-content"><p>{esc(sentence(rng))} Try a search, or one of '
            f"these:</p>{search_form('/search/')}<ul class=\"popular-links\">{popular}</ul>"
            "</div></section>")
    return Page("Page not found", "", [], "error404", main, robots="noindex, follow")


SEARCHES = ["records retention", "gdpr", "taxonomy", "chartered membership", "annual conference",
            "xyzzy"]


def t_search(site: Site, rng: random.Random, q: str) -> Page:
    """Search results (0..20 on a page, paginated past 10)."""
    total = 0 if q == "xyzzy" else rng.choice([1, 3, 8, 14, 27, 63, 140])
    shown = min(total, 10)
    qs = "?q=" + quote_plus(q)
    facets = "".join(
        f'<li><label><input type="checkbox" name="type[]" value="{k}"> {n} '
        f'<span class="count">({rng.randint(0, total)})</span></label></li>'
        for k, n in [("post", "Articles"), ("course", "Courses"), ("event", "Events"),
                     ("job", "Jobs"), ("help", "Help")])
    results = []
    for _ in range(shown):
        kind = rng.choice(["article", "course", "event", "job", "help"])
        if kind == "article":
            a = rng.choice(site.articles)
            href, t, tag = a.url, a.title, "Article"
        elif kind == "course":
            c = rng.choice(site.courses)
            href, t, tag = c.url, c.title, "Course"
        elif kind == "event":
            e = rng.choice(site.events)
            href, t, tag = e.url, e.title, "Event"
        elif kind == "job":
            j = rng.choice(site.jobs)
            href, t, tag = j.url, j.title, "Job"
        else:
            h = rng.choice(site.help)
            href, t, tag = h.url, h.title, "Help"
        results.append(f'<li class="search-result search-result--{kind}"><span class="type">'
                       f"{tag}</span><h2>{link(href, t)}</h2><p>{esc(sentence(rng))}</p>"
                       f'<cite>{ORIGIN}{esc(href)}</cite></li>')
    if total:
        body = (f'<p class="result-count">Showing 1–{shown} of {total} results for '
                f"<mark>{esc(q)}</mark></p><ol class=\"search-results\">{''.join(results)}"
                f"</ol>{pagination('/search/', 1, math.ceil(total / 10), 'Results', qs)}")
    else:
        body = (f'<div class="no-results"><p>No results for <mark>{esc(q)}</mark>.</p>'
                f"<p>Check the spelling or try a broader term.</p></div>")
    main = (f'<header class="page-header"><h1 class="page-title">Search results</h1>'
            f"{search_form('/search/', q, 'search-form search-form--large')}</header>"
            f'<div class="search-layout"><aside class="search-facets"><h2>Filter by type</h2>'
            f'<form method="get" action="/search/"><ul>{facets}</ul></form></aside>'
            f'<div class="search-main">{body}</div></div>')
    cls = "search search-results" if total else "search search-no-results"
    return Page(f"You searched for {q}", "", [("Home", "/"), ("Search", "")], cls, main,
                robots="noindex, follow", paged=total > 10)


def t_login(site: Site, rng: random.Random, redirect: str) -> Page:
    """Member login."""
    main = ('<div class="login-layout"><section class="login-panel"><h1>Member login</h1>'
            + ('<p class="notice notice--info">Please log in to view that page.</p>'
               if redirect != "/" else "")
            + login_form(redirect) + '<p class="login-links"><a href="/wp-login.php?action='
            'lostpassword">Forgotten your password?</a></p></section>'
            '<section class="join-panel"><h2>Not a member yet?</h2>'
            f'<p>{esc(para_text(rng, 2, 3))}</p><a class="button" href="/membership/">Join '
            "today</a></section></div>")
    return Page("Log in", "membership", [("Home", "/"), ("Log in", "")],
                "page-template-login page page-id-44 logged-out", main,
                robots="noindex, nofollow", forms=True)


def t_membership(site: Site, rng: random.Random, path: str) -> Page:
    """Membership plans: a pricing table, benefits, FAQs and a join form."""
    corporate = path.endswith("corporate/")
    tiers = ([("Small team", 450), ("Organisation", 1200), ("Enterprise", 3400)] if corporate
             else [(n, p) for (_, n), p in zip(GRADES, [25, 95, 160, 210, 260], strict=True)])
    cols = []
    for i, (name, price) in enumerate(tiers):
        perks = "".join(f"<li>{esc(sentence(rng))}</li>" for _ in range(rng.randint(3, 6)))
        hl = " plan--featured" if i == len(tiers) // 2 else ""
        cols.append(f'<div class="plan plan-{slugify(name)}{hl}"><h2>{esc(name)}</h2>'
                    f'<p class="price"><span class="amount">£{price}</span> per year</p>'
                    f'<ul class="plan-perks">{perks}</ul><a class="button" href="/membership/'
                    f'apply/?plan={slugify(name)}">Choose {esc(name)}</a></div>')
    title = "Corporate membership" if corporate else "Individual membership"
    form = cf7_form(305 if corporate else 304, 50, [
        ("org-name" if corporate else "your-name", "Organisation" if corporate else "Name",
         "text"), ("your-email", "Email", "email"), ("your-message", "Questions", "textarea")],
        "Request a call back")
    crumbs = [("Home", "/"), ("Membership", "/membership/")]
    if corporate:
        crumbs.append((title, ""))
    else:
        crumbs[-1] = ("Membership", "")
    main = (f'<header class="entry-header"><h1 class="entry-title">{title}</h1>'
            f'<p class="lead">{esc(para_text(rng, 1, 2))}</p></header>'
            f'<div class="pricing-table">{"".join(cols)}</div>'
            f'<h2 class="wp-block-heading">Frequently asked questions</h2>'
            f"{faq_block(rng, rng.randint(4, 9), 'membership')}"
            f"<h2 class=\"wp-block-heading\">Talk to us</h2>{form}")
    return Page(title, "membership", crumbs, f"page-template-membership page page-id-"
                f"{51 if corporate else 50}", main, forms=True, wide=True)


def t_article(site: Site, rng: random.Random, a: Article) -> Page:
    """A magazine article; A/B: with a full-width hero or with the standard header."""
    hero = rng.random() < 0.45
    long_ = rng.random() < 0.3
    n = rng.randint(14, 26) if long_ else rng.randint(3, 10)
    video = rng.random() < 0.15
    table = rng.random() < 0.2
    sect = site.section_name(a.section)
    kicker = f'<a class="cat-label" href="/magazine/{a.section}/">{esc(sect)}</a>'
    byline = (f'<div class="entry-meta"><span class="byline">By <span class="author vcard">'
              f'{link(a.author.url, a.author.person.name, "url fn n")}</span></span>'
              f'<time class="entry-date published" datetime="{a.day.isoformat()}">'
              f'{fmt_date(a.day)}</time><span class="reading-time">{max(2, n // 2)} min read'
              f"</span></div>")
    standfirst = f'<p class="standfirst">{esc(sentence(rng))}</p>'
    title = f'<h1 class="entry-title">{esc(a.title)}</h1>'
    if hero:
        header = (f'<div class="wp-block-cover alignfull post-hero" style="min-height:480px">'
                  f'<span aria-hidden="true" class="wp-block-cover__background has-background-'
                  f'dim-50 has-background-dim"></span><img class="wp-block-cover__image-background'
                  f' wp-post-image" alt="" src="{upload(a.day, a.slug, 1600, 900)}" '
                  f'style="object-position:50% {rng.randint(20, 80)}%" data-object-fit="cover">'
                  f'<div class="wp-block-cover__inner-container">{kicker}{title}{standfirst}'
                  f"</div></div><header class=\"entry-header\">{byline}</header>")
    else:
        thumb = ""
        if rng.random() < 0.6:
            thumb = (f'<figure class="post-thumbnail">'
                     f"{img(upload(a.day, a.slug, 800, 450), '', 800, 450, 'wp-post-image')}"
                     f"</figure>")
        header = f'<header class="entry-header">{kicker}{title}{standfirst}{byline}</header>{thumb}'
    cut = 3 if a.members_only else 0
    content = wp_body(rng, n, a.title, video, table, cut)
    if a.members_only:
        content += (f'<div class="paywall" id="paywall-post-{a.pid}"><h2>This article is for '
                    f"members</h2><p>{esc(sentence(rng))}</p>"
                    f'{login_form(a.url, "paywall-login")}<p><a href="/membership/">Join NSIP'
                    f"</a> to read the full article.</p></div>")
    tags = "".join(f'<a href="/magazine/tag/{t}/" rel="tag">{esc(site.tag_names[t])}</a>'
                   for t in a.tags)
    parts = [f'<article id="post-{a.pid}" class="post-{a.pid} post type-post status-publish '
             f'format-standard has-post-thumbnail hentry category-{a.section}'
             + (f" category-{a.sub}" if a.sub else "")
             + "".join(f" tag-{t}" for t in a.tags) + f'">{header}'
             f'<div class="entry-content">{content}</div><footer class="entry-footer">'
             f'<span class="tags-links">Tagged {tags}</span>{share_links(a.url, a.title)}'
             f"</footer></article>"]
    optional = []
    if rng.random() < 0.6:
        p = a.author.person
        optional.append(f'<div class="author-box">{img(avatar(p.slug, 96), "", 96, 96, "avatar")}'
                        f'<div><h2 class="author-box__name">{link(a.author.url, p.name)}</h2>'
                        f"<p>{esc(a.author.role)}. {esc(sentence(rng))}</p></div></div>")
    if rng.random() < 0.7:
        pool = site.by_section.get(a.section, [])
        rel = [r for r in rng.sample(pool, min(len(pool), 5)) if r is not a][:rng.randint(1, 4)]
        if rel:
            cards = "".join(article_card(r, site, rng, "grid", "h3") for r in rel)
            optional.append(f'<section class="related-posts"><h2>Related</h2>'
                            f'<div class="cards cards--grid">{cards}</div></section>')
    rng.shuffle(optional)
    parts += optional
    r = rng.random()
    ncom = 0 if r < 0.5 else rng.randint(1, 5) if r < 0.82 else rng.randint(6, 40)
    if not long_:
        ncom = min(ncom, 25)
    parts.append(comments_block(rng, a.pid, ncom, rng.random() < 0.7))
    crumbs = [("Home", "/"), ("Magazine", "/magazine/"), (sect, f"/magazine/{a.section}/")]
    if a.sub:
        crumbs.append((site.sub_name(a.section, a.sub), f"/magazine/{a.section}/{a.sub}/"))
    crumbs.append((a.title, ""))
    layout = "layout-hero" if hero else "layout-standard"
    return Page(a.title, "magazine", crumbs,
                f"post-template-default single single-post postid-{a.pid} "
                f"single-format-standard {layout}", "".join(parts),
                sidebar=sidebar(site, rng, ["popular", "newsletter", "events", "ad", "tags"]),
                video=video, og_type="article", description=sentence(rng),
                forms=a.members_only)


def t_section(site: Site, rng: random.Random, key: str, sub: str, page: int) -> Page:
    """Magazine archive of a section, a sub-section or all sections (key ''), paginated."""
    if not key:
        posts, per, base, name = site.latest, PER_ROOT, "/magazine/", "Signal magazine"
    elif sub:
        posts = [a for a in site.latest if a.section == key and a.sub == sub]
        per, base, name = PER_SECTION, f"/magazine/{key}/{sub}/", site.sub_name(key, sub)
    else:
        posts = [a for a in site.latest if a.section == key]
        per, base, name = PER_SECTION, f"/magazine/{key}/", site.section_name(key)
    pages = max(1, math.ceil(len(posts) / per))
    chunk = posts[(page - 1) * per: page * per]
    style = "grid" if rng.random() < 0.5 else "list"
    featured = ""
    if page == 1 and chunk and rng.random() < 0.8:
        f = chunk[0]
        chunk = chunk[1:]
        featured = (f'<div class="featured-post" style="background-image:url('
                    f"'{upload(f.day, f.slug, 1200, 600)}')\"><span class=\"cat-label\">"
                    f"Featured</span><h2>{link(f.url, f.title)}</h2>"
                    f"<p>{esc(sentence(rng))}</p></div>")
    cards = "".join(article_card(a, site, rng, style) for a in chunk)
    desc = f'<div class="archive-description"><p>{esc(para_text(rng, 1, 2))}</p></div>'
    paged = f" — page {page}" if page > 1 else ""
    main = (f'<header class="page-header"><h1 class="page-title">{esc(name)}{paged}</h1>'
            f"{desc if page == 1 else ''}</header>{featured}"
            f'<div class="cards cards--{style}">{cards}</div>'
            f"{pagination(base, page, pages)}")
    crumbs = [("Home", "/"), ("Magazine", "/magazine/")]
    if key:
        crumbs.append((site.section_name(key), f"/magazine/{key}/"))
    if sub:
        crumbs.append((name, base))
    if page > 1:
        crumbs.append((f"Page {page}", ""))
    else:
        crumbs[-1] = (crumbs[-1][0], "")
    term = sub or key
    term_id = 10 + sum(map(ord, term)) % 90
    body = "blog" if not key else f"archive category category-{term} category-{term_id}"
    if page > 1:
        body += " paged paged-" + str(page)
    return Page(name + paged, "magazine", crumbs, body, main,
                sidebar=sidebar(site, rng, ["popular", "newsletter", "tags", "ad", "search"],
                                1, 3),
                paged=pages > 1)


def t_tag(site: Site, rng: random.Random, tag: str) -> Page:
    """Tag archive: up to 60 posts in a compact list, a link to older posts when more."""
    posts = sorted(site.by_tag[tag], key=lambda a: (a.day, a.pid), reverse=True)
    shown = posts[:60]
    name = site.tag_names[tag]
    if rng.random() < 0.5 and len(shown) <= 12:
        items = ('<div class="cards cards--list">'
                 + "".join(article_card(a, site, rng, "list") for a in shown) + "</div>")
    else:
        items = ('<ul class="archive-list">'
                 + "".join(article_card(a, site, rng, "compact") for a in shown) + "</ul>")
    more = ""
    if len(posts) > 60:
        more = (f'<nav class="navigation posts-navigation" aria-label="Posts"><div '
                f'class="nav-links"><div class="nav-previous"><a href="/magazine/tag/{tag}/'
                f'page/2/">Older posts</a></div></div></nav>')
    main = (f'<header class="page-header"><h1 class="page-title">Topic: <span>{esc(name)}'
            f'</span></h1><p class="archive-count">{len(posts)} '
            f"{'article' if len(posts) == 1 else 'articles'}</p></header>{items}{more}")
    tid = 40 + [t for t, _ in site.tags].index(tag)
    return Page(name, "magazine", [("Home", "/"), ("Magazine", "/magazine/"),
                                   (f"Topic: {name}", "")],
                f"archive tag tag-{tag} tag-{tid}", main,
                sidebar=sidebar(site, rng, ["popular", "newsletter", "tags", "search"], 1, 3))


def profile_header(p: Person, role: str, extra: str, rng: random.Random) -> str:
    """The profile header shared by author and member pages."""
    return (f'<header class="profile-header">'
            f"{img(avatar(p.slug, 160), p.name, 160, 160, 'avatar avatar-160 photo', False)}"
            f'<div class="profile-header__text"><h1 class="profile-name">{esc(p.name)}</h1>'
            f'<p class="profile-role">{esc(role)}</p>{extra}</div></header>')


def t_author(site: Site, rng: random.Random, au: Author) -> Page:
    """Magazine author archive: profile header, bio, article list (look-alike of members)."""
    p = au.person
    social = ""
    if rng.random() < 0.7:
        social = (f'<ul class="profile-links"><li><a href="https://www.linkedin.com/in/'
                  f'{p.slug}" rel="me noopener">LinkedIn</a></li><li><a href="https://'
                  f'mastodon.social/@{p.slug.replace("-", "")}" rel="me">Mastodon</a></li></ul>')
    posts = sorted(au.articles, key=lambda a: a.day, reverse=True)
    shown = posts[:30]
    items = "".join(article_card(a, site, rng, "compact", "h3") for a in shown)
    more = (f'<p class="more-link">{len(posts) - 30} older articles</p>'
            if len(posts) > 30 else "")
    if not posts:
        items = "<li>No articles yet.</li>"
    main = (f'<section id="author-{au.nicename}" class="author-profile profile vcard">'
            f"{profile_header(p, au.role, social, rng)}"
            f'<div class="profile-bio"><p>{esc(para_text(rng, 2, 4))}</p></div></section>'
            f'<section class="profile-articles"><h2>Articles by {esc(p.first)}</h2>'
            f'<ul class="archive-list">{items}</ul>{more}</section>')
    return Page(f"{p.name}, author", "magazine",
                [("Home", "/"), ("Magazine", "/magazine/"), ("Authors", "/magazine/author/"),
                 (p.name, "")],
                f"archive author author-{au.nicename} author-{p.pid}", main,
                sidebar=sidebar(site, rng, ["popular", "newsletter", "search"], 0, 2),
                og_type="profile")


def t_issue(site: Site, rng: random.Random, d: date) -> Page:
    """An issue's table of contents, grouped by department."""
    slug = f"{d.year}-{d.month:02d}"
    vol = d.year - 2012
    depts = []
    count = rng.randint(8, 22)
    picks = rng.sample(site.articles, min(count, len(site.articles)))
    for key, name, _ in MAG_SECTIONS:
        inside = [a for a in picks if a.section == key]
        if not inside:
            continue
        lis = "".join(f'<li class="toc-item post-{a.pid}"><span class="toc-page">'
                      f"p.{rng.randint(4, 80)}</span>{link(a.url, a.title)}"
                      f'<span class="toc-author">{esc(a.author.person.name)}</span></li>'
                      for a in inside)
        depts.append(f'<section class="toc-department toc-{key}"><h2>{esc(name)}</h2>'
                     f"<ol>{lis}</ol></section>")
    issue_title = f"{d.strftime('%B')} {d.year}"
    cover = upload(d, "signal-cover-" + slug, 400, 560)
    main = (f'<div class="issue-header"><figure class="issue-cover">'
            f"{img(cover, 'Cover of Signal ' + issue_title, 400, 560)}"
            f'</figure><div class="issue-meta"><h1 class="page-title">Signal, {issue_title}</h1>'
            f"<p>Volume {vol}, issue {d.month}</p><p>{esc(sentence(rng))}</p>"
            f'<a class="button" href="/wp-content/uploads/issues/signal-{slug}.pdf">'
            f"Download PDF (members)</a></div></div>"
            f'<div class="issue-toc">{"".join(depts)}</div>')
    return Page(f"Signal {issue_title}", "magazine",
                [("Home", "/"), ("Magazine", "/magazine/"), ("Back issues", "/magazine/issues/"),
                 (issue_title, "")],
                f"single single-issue postid-{90000 + vol * 12 + d.month} issue-{slug}", main)


def t_podcast(site: Site, rng: random.Random, ep: Episode) -> Page:
    """A podcast episode: single-post markup, a player iframe, show notes and a transcript."""
    guests = ", ".join(link(g.url, g.name) for g in ep.guests)
    notes = "".join(f"<li>({rng.randint(0, 50):02d}:{rng.randint(0, 59):02d}) "
                    f"{esc(sentence(rng))}</li>" for _ in range(rng.randint(3, 9)))
    transcript = ""
    if rng.random() < 0.6:
        lines = []
        for _ in range(rng.randint(8, 30)):
            who = rng.choice([ep.guests[0].first, "Host"])
            lines.append(f"<p><strong>{esc(who)}:</strong> {esc(para_text(rng, 1, 3))}</p>")
        transcript = (f'<details class="transcript"><summary>Read the transcript</summary>'
                      f"{''.join(lines)}</details>")
    main = (f'<article id="post-{ep.pid}" class="post-{ep.pid} podcast type-podcast '
            f'status-publish hentry category-podcast"><header class="entry-header">'
            f'<a class="cat-label" href="/magazine/podcast/">Signal podcast</a>'
            f'<h1 class="entry-title">Episode {ep.num}: {esc(ep.title)}</h1>'
            f'<div class="entry-meta"><time datetime="{ep.day.isoformat()}">{fmt_date(ep.day)}'
            f"</time> · with {guests}</div></header>"
            f'<div class="entry-content"><div class="podcast-player"><iframe src="https://'
            f'www.buzzsprout.com/1987654/{ep.pid}?client_source=small_player&amp;iframe=true" '
            f'loading="lazy" width="100%" height="200" frameborder="0" scrolling="no" '
            f'title="Signal podcast, {esc(ep.title)}"></iframe></div>'
            f"{paras(rng, rng.randint(1, 3))}<h2>Show notes</h2><ul>{notes}</ul>{transcript}"
            f'<p class="subscribe-links">Subscribe: <a href="https://podcasts.apple.com/">'
            f'Apple Podcasts</a> · <a href="https://open.spotify.com/">Spotify</a> · '
            f'<a href="/feed/podcast/">RSS</a></p></div><footer class="entry-footer">'
            f"{share_links(ep.url, ep.title)}</footer></article>")
    if rng.random() < 0.4:
        main += comments_block(rng, ep.pid, rng.randint(0, 6), True)
    return Page(f"Episode {ep.num}: {ep.title}", "magazine",
                [("Home", "/"), ("Magazine", "/magazine/"), ("Podcast", "/magazine/podcast/"),
                 (f"Episode {ep.num}", "")],
                f"podcast-template-default single single-podcast postid-{ep.pid}", main,
                sidebar=sidebar(site, rng, ["popular", "newsletter", "ad"], 1, 2),
                og_type="article")


def t_member(site: Site, rng: random.Random, p: Person) -> Page:
    """A member's directory profile (look-alike of the author page)."""
    grade = dict(GRADES)[p.grade]
    post_nom = {"chartered": ", MNSIP", "fellow": ", FNSIP"}.get(p.grade, "")
    facts = [("Organisation", esc(p.org)), ("Location", esc(p.city)),
             ("Membership grade", esc(grade)), ("Member since", str(p.since))]
    if rng.random() < 0.5:
        facts.append(("Languages", esc(", ".join(rng.sample(
            ["English", "Welsh", "French", "German", "Polish", "Urdu", "Spanish"],
            rng.randint(1, 3))))))
    dl = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in facts)
    extra = f'<p class="profile-org">{esc(p.job)} at {esc(p.org)}</p>'
    badges = "".join(f'<span class="badge badge-{b}">{esc(b.replace("-", " ").title())}</span>'
                     for b in rng.sample(["mentor", "cpd-2024", "speaker", "volunteer",
                                          "trustee", "author"], rng.randint(0, 3)))
    if badges:
        extra += f'<div class="profile-badges">{badges}</div>'
    parts = [f'<article id="member-{p.slug}" class="member-profile profile vcard '
             f'member-level-{p.grade} region-{p.region}">'
             f"{profile_header(p, p.job + post_nom, extra, rng)}"]
    blocks = []
    if rng.random() < 0.65:
        blocks.append(f'<div class="profile-bio"><h2>About</h2>'
                      f"<p>{esc(para_text(rng, 2, 5))}</p></div>")
    tags = "".join(f'<li><a href="/directory/?expertise={slugify(t)}" class="tag '
                   f'expertise-{slugify(t)}">{esc(t)}</a></li>' for t in p.expertise)
    blocks.append(f'<div class="profile-expertise"><h2>Areas of expertise</h2>'
                  f'<ul class="tag-list">{tags}</ul></div>')
    blocks.append(f'<div class="profile-details"><h2>Details</h2><dl>{dl}</dl></div>')
    if rng.random() < 0.35:
        rows = "".join(f"<tr><td>{esc(rng.choice(TOPICS).title())} certificate</td>"
                       f"<td>{rng.randint(2000, 2025)}</td><td>NSIP</td></tr>"
                       for _ in range(rng.randint(1, 5)))
        blocks.append(f'<div class="profile-certifications"><h2>Qualifications</h2><table>'
                      f"<thead><tr><th>Qualification</th><th>Year</th><th>Awarded by</th>"
                      f"</tr></thead><tbody>{rows}</tbody></table></div>")
    if rng.random() < 0.2:
        pubs = "".join(f"<li><cite>{esc(make_title(rng))}</cite>, {rng.randint(2005, 2025)}"
                       f"</li>" for _ in range(rng.randint(1, 6)))
        blocks.append(f'<div class="profile-publications"><h2>Publications</h2><ul>{pubs}</ul>'
                      f"</div>")
    parts += blocks
    parts.append(f'<div class="profile-contact"><a class="button" href="/login/?redirect_to='
                 f'{quote_plus(p.url)}">Log in to contact {esc(p.first)}</a></div></article>')
    if rng.random() < 0.5:
        others = [o for o in rng.sample(site.people, min(8, len(site.people))) if o is not p]
        cards = "".join(f'<li class="member-card member-{o.slug}">'
                        f"{img(avatar(o.slug, 64), '', 64, 64, 'avatar')}"
                        f"{link(o.url, o.name)}<span>{esc(o.job)}</span></li>"
                        for o in others[:rng.randint(2, 6)])
        parts.append(f'<section class="related-members"><h2>Other members in '
                     f"{esc(site.region_name(p.region))}</h2><ul>{cards}</ul></section>")
    return Page(f"{p.name}{post_nom}", "directory",
                [("Home", "/"), ("Directory", "/directory/"), (p.name, "")],
                f"single single-member postid-{p.pid} member-template-default", "".join(parts),
                og_type="profile")


def t_directory(site: Site, rng: random.Random, page: int, region: str, table: bool) -> Page:
    """The members' directory: filters, member cards or a table (A/B), pagination."""
    people = sorted(site.people, key=lambda p: (p.last, p.first, p.pid))
    if region:
        people = [p for p in people if p.region == region]
    pages = max(1, math.ceil(len(people) / PER_DIR))
    chunk = people[(page - 1) * PER_DIR: page * PER_DIR]
    opts = "".join(f'<option value="{k}"{" selected" if k == region else ""}>{n}</option>'
                   for k, n in REGIONS)
    filters = (f'<form class="directory-filters" method="get" action="/directory/">'
               f'<label>Name <input type="text" name="name" value=""></label>'
               f'<label>Region <select name="region"><option value="">Any</option>{opts}'
               f'</select></label><label>Grade <select name="grade"><option value="">Any'
               f"</option>"
               + "".join(f'<option value="{k}">{n}</option>' for k, n in GRADES)
               + '</select></label><button type="submit">Filter</button></form>')
    if table:
        rows = "".join(f'<tr id="member-row-{p.pid}"><td>{link(p.url, p.name)}</td>'
                       f"<td>{esc(p.job)}</td><td>{esc(p.org)}</td><td>{esc(p.city)}</td>"
                       f"<td>{esc(dict(GRADES)[p.grade])}</td></tr>" for p in chunk)
        listing = ('<table class="directory-table"><thead><tr><th>Name</th><th>Role</th>'
                   f"<th>Organisation</th><th>Location</th><th>Grade</th></tr></thead><tbody>"
                   f"{rows}</tbody></table>")
    else:
        listing = '<ul class="member-cards">' + "".join(
            f'<li class="member-card member-{p.slug} member-level-{p.grade}">'
            f"{img(avatar(p.slug, 96), '', 96, 96, 'avatar')}<h2>{link(p.url, p.name)}</h2>"
            f'<p class="member-card__role">{esc(p.job)}</p><p class="member-card__org">'
            f"{esc(p.org)} · {esc(p.city)}</p></li>" for p in chunk) + "</ul>"
    query = f"?region={region}" if region else ("?view=table" if table else "")
    view = ('<div class="view-toggle"><a href="/directory/"'
            + (' aria-pressed="true"' if not table else "") + '>Cards</a><a href="/directory/'
            '?view=table"' + (' aria-pressed="true"' if table else "") + ">Table</a></div>")
    title = "Find a member" + (f" in {site.region_name(region)}" if region else "")
    main = (f'<header class="page-header"><h1 class="page-title">{esc(title)}</h1>'
            f"<p>{len(people):,} members</p></header>{filters}{view}{listing}"
            f"{pagination('/directory/', page, pages, 'Members', query)}")
    crumbs = [("Home", "/"), ("Directory", "" if page == 1 and not region else "/directory/")]
    if region:
        crumbs.append((site.region_name(region), ""))
    if page > 1:
        crumbs.append((f"Page {page}", ""))
    return Page(title + (f" – page {page}" if page > 1 else ""), "directory", crumbs,
                "post-type-archive post-type-archive-member archive"
                + (f" paged paged-{page}" if page > 1 else ""), main, paged=pages > 1,
                wide=True, css=[("https://cdn.jsdelivr.net/npm/choices.js@10.2.0/public/"
                                 "assets/styles/choices.min.css", "choices")])


def listing_card(kind: str, slug: str, href: str, image: str, kicker: str, title: str,
                 facts: list[tuple[str, str]], price: str, extra_cls: str) -> str:
    """The card shared by the course catalogue and the event list."""
    dl = "".join(f'<li class="card__fact card__fact--{k}">{esc(v)}</li>' for k, v in facts)
    return (f'<div class="card card--{kind} {kind}-{slug} {extra_cls}">'
            f'<a href="{esc(href)}" class="card__media" tabindex="-1">{image}</a>'
            f'<div class="card__body"><span class="card__kicker">{esc(kicker)}</span>'
            f'<h3 class="card__title"><a href="{esc(href)}">{esc(title)}</a></h3>'
            f'<ul class="card__facts">{dl}</ul><p class="card__price">{esc(price)}</p>'
            f"</div></div>")


def filters_aside(groups: list[tuple[str, str, list[tuple[str, str]]]], action: str) -> str:
    """Checkbox filter column (catalogue and event list)."""
    out = []
    for name, legend, opts in groups:
        boxes = "".join(f'<label><input type="checkbox" name="{name}[]" value="{k}"> {esc(v)}'
                        f"</label>" for k, v in opts)
        out.append(f"<fieldset><legend>{esc(legend)}</legend>{boxes}</fieldset>")
    return (f'<form class="listing-filters" method="get" action="{action}">{"".join(out)}'
            f'<button type="submit" class="button">Apply filters</button></form>')


def t_catalogue(site: Site, rng: random.Random, cat: str, page: int) -> Page:
    """Course catalogue (all, or one category), paginated (look-alike of the event list)."""
    courses = [c for c in site.courses if not cat or c.cat == cat]
    pages = max(1, math.ceil(len(courses) / PER_COURSE))
    chunk = courses[(page - 1) * PER_COURSE: page * PER_COURSE]
    cat_name = next((n for k, n, _ in COURSE_CATS if k == cat), "")
    cards = []
    for c in chunk:
        image = img(f"/wp-content/uploads/courses/{c.slug}-600x340.jpg", "", 600, 340)
        facts = [("format", c.fmt), ("duration", f"{c.hours} hours"), ("level", c.level)]
        if c.reviews:
            facts.append(("rating", f"★ {c.rating} ({c.reviews})"))
        price = "Free for members" if c.price == 0 else f"From £{c.price}"
        cn = next(n for k, n, _ in COURSE_CATS if k == c.cat)
        cards.append(listing_card("course", c.slug, c.url, image, cn, c.title, facts, price,
                                  f"level-{c.level.lower()}"))
    aside = filters_aside([
        ("format", "Format", [(slugify(f), f) for f in ("Online, self-paced", "Live online",
                                                          "Classroom", "Blended")]),
        ("level", "Level", [("beginner", "Beginner"), ("intermediate", "Intermediate"),
                            ("advanced", "Advanced")]),
        ("cpd", "CPD points", [("1-5", "1–5"), ("6-20", "6–20"), ("20+", "20+")])],
        "/learn/")
    layout = "cards--grid" if rng.random() < 0.6 else "cards--rows"
    base = f"/learn/category/{cat}/" if cat else "/learn/"
    title = cat_name or "Courses and qualifications"
    main = (f'<header class="page-header"><h1 class="page-title">{esc(title)}</h1>'
            f'<p class="listing-count">{len(courses)} courses</p></header>'
            f'<div class="listing-layout"><aside class="listing-sidebar">{aside}</aside>'
            f'<div class="listing-results"><div class="cards {layout}">{"".join(cards)}</div>'
            f"{pagination(base, page, pages, 'Courses')}</div></div>")
    crumbs = [("Home", "/"), ("Learning", "/learn/")]
    if cat:
        crumbs.append((cat_name, base))
    if page > 1:
        crumbs.append((f"Page {page}", ""))
    else:
        crumbs[-1] = (crumbs[-1][0], "")
    return Page(title + (f" – page {page}" if page > 1 else ""), "learn", crumbs,
                "archive post-type-archive post-type-archive-course"
                + (f" tax-course_category term-{cat}" if cat else ""), main, wide=True,
                paged=pages > 1)


def t_events(site: Site, rng: random.Random, which: str, page: int) -> Page:
    """Event list: upcoming, past or a category; cards like the catalogue's."""
    if which == "past":
        evs = sorted((e for e in site.events if e.day <= TODAY), key=lambda e: e.day,
                     reverse=True)
        base, title = "/events/past/", "Past events"
    elif which:
        evs = sorted((e for e in site.events if e.cat == which), key=lambda e: e.day,
                     reverse=True)
        base = f"/events/category/{which}/"
        title = next(n for k, n, _ in EVENT_CATS if k == which) + " events"
    else:
        evs = sorted((e for e in site.events if e.day > TODAY), key=lambda e: e.day)
        base, title = "/events/", "Upcoming events"
    if which and which != "past":  # a category shows its latest 40 events on one page
        pages, chunk = 1, evs[:40]
    else:
        pages = max(1, math.ceil(len(evs) / PER_EVENT))
        chunk = evs[(page - 1) * PER_EVENT: page * PER_EVENT]
    cards = []
    for e in chunk:
        image = (f'<span class="date-badge" style="background:#e4572e">{e.day.day}'
                 f'<small>{e.day.strftime("%b %Y")}</small></span>'
                 + img(f"/wp-content/uploads/events/{e.slug[:40]}-600x340.jpg", "", 600, 340))
        facts = [("date", fmt_date(e.day)), ("location", f"{e.venue}, {e.city}"
                                             if e.venue != "Online" else "Online")]
        if e.speakers:
            facts.append(("speakers", f"{len(e.speakers)} speakers"))
        price = "Free" if e.price == 0 else f"£{e.price}"
        cn = next(n for k, n, _ in EVENT_CATS if k == e.cat)
        cards.append(listing_card("event", e.slug, e.url, image, cn, e.title, facts, price,
                                  f"event-cat-{e.cat}" + (" is-past" if e.day <= TODAY else "")))
    aside = filters_aside([
        ("type", "Event type", [(k, n) for k, n, _ in EVENT_CATS]),
        ("where", "Where", [("online", "Online"), ("in-person", "In person")])], "/events/")
    date_filter = ('<div class="date-range"><label>From <input type="text" class="flatpickr" '
                   'name="from"></label><label>To <input type="text" class="flatpickr" '
                   'name="to"></label></div>')
    body = (f'<div class="cards cards--grid">{"".join(cards)}</div>' if cards else
            '<p class="no-events">There are no events to show.</p>')
    main = (f'<header class="page-header"><h1 class="page-title">{esc(title)}</h1>'
            f'<p class="listing-count">{len(evs)} events</p></header>'
            f'<div class="listing-layout"><aside class="listing-sidebar">{date_filter}{aside}'
            f'</aside><div class="listing-results">{body}'
            f"{pagination(base, page, pages, 'Events')}</div></div>")
    crumbs = [("Home", "/"), ("Events", "/events/")]
    if which:
        crumbs.append((title, base))
    if page > 1:
        crumbs.append((f"Page {page}", ""))
    else:
        crumbs[-1] = (crumbs[-1][0], "")
    return Page(title + (f" – page {page}" if page > 1 else ""), "events", crumbs,
                "archive post-type-archive post-type-archive-tribe_events tribe-events-page",
                main, wide=True, paged=pages > 1,
                css=[("https://cdn.jsdelivr.net/npm/flatpickr@4.6.13/dist/flatpickr.min.css",
                      "flatpickr")])


def key_facts(facts: list[tuple[str, str]], cta_href: str, cta: str, kind: str) -> str:
    """The key-facts box shared by event and job detail pages."""
    dl = "".join(f'<div class="key-facts__row key-facts__row--{slugify(k)}"><dt>{esc(k)}</dt>'
                 f"<dd>{v}</dd></div>" for k, v in facts)
    return (f'<aside class="key-facts key-facts--{kind}"><dl>{dl}</dl>'
            f'<a class="button button--primary" href="{esc(cta_href)}">{esc(cta)}</a></aside>')


def t_event(site: Site, rng: random.Random, e: Event) -> Page:
    """Event detail: key facts, description, agenda, speakers, map (look-alike of a job ad)."""
    past = e.day <= TODAY
    start = f"{rng.choice([9, 10, 13, 14, 18])}:{rng.choice(['00', '30'])}"
    cat = next(n for k, n, _ in EVENT_CATS if k == e.cat)
    facts = [("Date", f'<time datetime="{e.day.isoformat()}T{start}">{fmt_date(e.day)}</time>'),
             ("Time", f"{start} {'BST' if 4 <= e.day.month <= 10 else 'GMT'}"),
             ("Venue", esc(e.venue if e.venue == "Online" else f"{e.venue}, {e.city}")),
             ("Price", "Free" if e.price == 0 else f"£{e.price} (members £{e.price * 2 // 3})"),
             ("CPD", f"{rng.randint(1, 12)} points")]
    cta = ("Watch the recording", f"{e.url}#recording") if past else (
        "Book your place", f"/events/book/?event_id={e.eid}")
    blocks = [f'<div class="listing-description">{paras(rng, rng.randint(1, 5))}</div>']
    if e.cat in ("conference", "workshop") or rng.random() < 0.3:
        rows = []
        t0 = rng.randint(8, 10)
        for i in range(rng.randint(3, 12)):
            who = rng.choice(e.speakers).name if e.speakers else "NSIP team"
            rows.append(f"<tr><td>{t0 + i // 2}:{'30' if i % 2 else '00'}</td><td>"
                        f"{esc(make_title(rng))}</td><td>{esc(who)}</td></tr>")
        blocks.append(f'<section class="event-agenda"><h2>Agenda</h2><table class="agenda">'
                      f"<thead><tr><th>Time</th><th>Session</th><th>Speaker</th></tr></thead>"
                      f"<tbody>{''.join(rows)}</tbody></table></section>")
    if e.speakers:
        sp = "".join(f'<li class="speaker speaker-{s.slug}">'
                     f"{img(avatar(s.slug, 120), s.name, 120, 120, 'avatar')}"
                     f"<h3>{link(s.url, s.name)}</h3><p>{esc(s.job)}, {esc(s.org)}</p></li>"
                     for s in e.speakers)
        blocks.append(f'<section class="event-speakers"><h2>Speakers</h2>'
                      f'<ul class="speaker-grid">{sp}</ul></section>')
    if e.price and not past:
        tickets = "".join(f"<tr><td>{t}</td><td>£{e.price * m // 100}</td></tr>"
                          for t, m in [("Member", 66), ("Non-member", 100), ("Student", 30)])
        blocks.append(f'<section class="event-tickets"><h2>Tickets</h2><table><thead><tr>'
                      f"<th>Ticket</th><th>Price</th></tr></thead><tbody>{tickets}</tbody>"
                      f"</table></section>")
    video = past and rng.random() < 0.5
    if video:
        blocks.append(f'<section id="recording" class="event-recording"><h2>Recording</h2>'
                      f"{video_embed(rng, e.title)}</section>")
    if e.venue != "Online" and rng.random() < 0.6:
        blocks.append('<section class="event-map"><h2>Getting there</h2><iframe src="https://'
                      'www.openstreetmap.org/export/embed.html?bbox=-2.6%2C51.4%2C-2.5%2C51.5" '
                      'width="100%" height="280" style="border:1px solid #ccc" loading="lazy" '
                      'title="Map"></iframe></section>')
    if rng.random() < 0.5:
        rng.shuffle(blocks)
    cal = (f'<div class="add-to-calendar"><a href="/events/{e.slug}/ical/">iCal</a>'
           f'<a href="https://calendar.google.com/calendar/render?action=TEMPLATE&amp;'
           f'text={quote_plus(e.title)}">Google Calendar</a></div>')
    notice = '<p class="notice notice--past">This event has taken place.</p>' if past else ""
    main = (f'<article id="event-{e.eid}" class="listing-detail tribe_events type-tribe_events '
            f'event-{e.slug} tribe_events_cat-{e.cat}"><header class="listing-header">'
            f'<span class="listing-kicker">{esc(cat)}</span><h1 class="listing-title">'
            f"{esc(e.title)}</h1>{notice}</header>"
            f'<div class="listing-body">{key_facts(facts, cta[1], cta[0], "event")}'
            f'<div class="listing-main">{"".join(blocks)}{cal}</div></div></article>')
    others = [o for o in rng.sample(site.events, min(5, len(site.events))) if o is not e][:3]
    if others and rng.random() < 0.7:
        main += ('<section class="listing-similar"><h2>You might also like</h2><ul>'
                 + "".join(f"<li>{link(o.url, o.title)} <span>{fmt_date(o.day)}</span></li>"
                           for o in others) + "</ul></section>")
    return Page(e.title, "events", [("Home", "/"), ("Events", "/events/"),
                                    (cat, f"/events/category/{e.cat}/"), (e.title, "")],
                f"tribe_events-template-default single single-tribe_events postid-{e.eid}"
                + (" tribe-event-past" if past else ""), main, video=video,
                og_type="article", description=sentence(rng))


def job_header(j: Job, logo: bool) -> str:
    """The job title block shared by the job ad and its application page."""
    lg = img(f"/wp-content/uploads/employers/{slugify(j.employer)}-logo-120x120.png",
             j.employer, 120, 120, "employer-logo") if logo else ""
    return (f'<header class="listing-header job-header">{lg}<span class="listing-kicker">'
            f'{esc(next(n for k, n, _ in JOB_CATS if k == j.cat))}</span>'
            f'<h1 class="listing-title">{esc(j.title)}</h1><p class="job-employer">'
            f"{esc(j.employer)} · {esc(j.city)}</p></header>")


def t_job(site: Site, rng: random.Random, j: Job) -> Page:
    """Job ad: key facts, description sections, apply CTA (look-alike of the event page)."""
    expired = j.closing < TODAY
    facts = [("Salary", esc(j.salary)), ("Location", esc(j.city)),
             ("Contract", esc(j.contract)),
             ("Closing date", f'<time datetime="{j.closing.isoformat()}">'
                              f"{fmt_date(j.closing)}</time>"),
             ("Reference", f"NSIP-{j.jid}")]
    cta_href = (f"{j.url}apply/" if j.on_site_apply else
                f"https://careers.{slugify(j.employer)}.example/jobs/{j.jid}")
    sections = []
    for h in ["About the role", "Key responsibilities", "About you", "What we offer"]:
        if h == "About the role" or rng.random() < 0.8:
            if h in ("Key responsibilities", "About you"):
                lis = "".join(f"<li>{esc(sentence(rng))}</li>"
                              for _ in range(rng.randint(3, 10)))
                sections.append(f"<h3>{h}</h3><ul>{lis}</ul>")
            else:
                sections.append(f"<h3>{h}</h3>{paras(rng, rng.randint(1, 3))}")
    notice = ('<p class="notice notice--expired">This job has expired and is no longer '
              "accepting applications.</p>" if expired else "")
    logo = rng.random() < 0.5
    main = (f'<article id="job-{j.jid}" class="listing-detail job_listing type-job_listing '
            f'job-type-{slugify(j.contract)} job_listing_category-{j.cat}'
            f'{" job_position_filled" if expired else ""}">{job_header(j, logo)}{notice}'
            f'<div class="listing-body">'
            f"{key_facts(facts, cta_href, 'Apply now' if not expired else 'Closed', 'job')}"
            f'<div class="listing-main"><div class="listing-description job_description">'
            f'{"".join(sections)}</div></div></div></article>')
    if rng.random() < 0.6:
        main += (f'<section class="employer-box"><h2>About {esc(j.employer)}</h2>'
                 f"<p>{esc(para_text(rng, 1, 3))}</p></section>")
    similar = [o for o in rng.sample(site.jobs, min(6, len(site.jobs))) if o is not j]
    if similar and rng.random() < 0.75:
        main += ('<section class="listing-similar"><h2>Similar jobs</h2><ul>'
                 + "".join(f"<li>{link(o.url, o.title)} <span>{esc(o.city)}</span></li>"
                           for o in similar[:rng.randint(1, 5)]) + "</ul></section>")
    return Page(f"{j.title}, {j.employer}", "jobs",
                [("Home", "/"), ("Careers", "/jobs/"), (j.title, "")],
                f"job_listing-template-default single single-job_listing postid-{j.jid}",
                main, og_type="article", description=sentence(rng),
                css=[("/wp-content/plugins/wp-job-manager/assets/dist/css/frontend.css?ver="
                      "2.2.2", "wp-job-manager-frontend")])


def t_job_apply(site: Site, rng: random.Random, j: Job) -> Page:
    """Application form for a job (shares the job header with the ad)."""
    questions = rng.sample(["Do you have the right to work in the UK?",
                            "What is your notice period?",
                            "Are you a chartered member of NSIP?",
                            "Do you hold a full driving licence?",
                            "Where did you see this job?"], rng.randint(1, 4))
    extra = [(f"q-{i}", q, "text") for i, q in enumerate(questions)]
    form = cf7_form(400 + j.jid % 97, j.jid, [
        ("first-name", "First name", "text"), ("last-name", "Last name", "text"),
        ("your-email", "Email", "email"), ("your-phone", "Phone", "tel"),
        ("cv", "CV (PDF or Word)", "file"), ("cover-letter", "Covering letter", "textarea"),
        *extra, ("consent", "I agree that my data is shared with the employer", "checkbox")],
        "Submit application")
    summary = (f'<aside class="key-facts key-facts--job"><dl><div class="key-facts__row">'
               f"<dt>Salary</dt><dd>{esc(j.salary)}</dd></div><div class=\"key-facts__row\">"
               f"<dt>Closing date</dt><dd>{fmt_date(j.closing)}</dd></div></dl>"
               f'<a href="{j.url}">Back to the job description</a></aside>')
    main = (f'<article id="job-apply-{j.jid}" class="listing-detail job-application">'
            f"{job_header(j, rng.random() < 0.5)}<div class=\"listing-body\">{summary}"
            f'<div class="listing-main"><h2>Apply for this job</h2>'
            f"<p>{esc(sentence(rng))}</p>{form}</div></div></article>")
    return Page(f"Apply: {j.title}", "jobs",
                [("Home", "/"), ("Careers", "/jobs/"), (j.title, j.url), ("Apply", "")],
                f"page-template-job-application job-application postid-{j.jid}", main,
                forms=True, robots="noindex, follow")


def t_job_list(site: Site, rng: random.Random, cat: str, page: int) -> Page:
    """Job board results with a keyword/location search, rows of jobs, pagination."""
    jobs = [j for j in site.jobs if not cat or j.cat == cat]
    pages = max(1, math.ceil(len(jobs) / PER_JOB)) if not cat else 1
    chunk = jobs[(page - 1) * PER_JOB: page * PER_JOB]
    rows = []
    for j in chunk:
        logo = (img(f"/wp-content/uploads/employers/{slugify(j.employer)}-logo-60x60.png",
                    "", 60, 60, "company_logo") if rng.random() < 0.6 else "")
        feat = " job_position_featured" if rng.random() < 0.1 else ""
        rows.append(f'<li class="job_listing job-type-{slugify(j.contract)} post-{j.jid}{feat}"'
                    f' data-longitude="" data-latitude=""><a href="{j.url}">{logo}'
                    f'<div class="position"><h3>{esc(j.title)}</h3><div class="company">'
                    f"<strong>{esc(j.employer)}</strong></div></div>"
                    f'<div class="location">{esc(j.city)}</div><ul class="meta">'
                    f'<li class="job-type">{esc(j.contract)}</li><li class="salary">'
                    f'{esc(j.salary)}</li><li class="date"><time datetime="'
                    f'{j.posted.isoformat()}">Posted {fmt_date(j.posted)}</time></li></ul>'
                    f"</a></li>")
    cats = "".join(f'<option value="{k}"{" selected" if k == cat else ""}>{esc(n)}</option>'
                   for k, n, _ in JOB_CATS)
    search = (f'<form class="job_filters" method="get" action="/jobs/"><div class="search_jobs">'
              f'<label for="search_keywords">Keywords</label><input type="text" '
              f'name="search_keywords" id="search_keywords" placeholder="Keywords" value="">'
              f'<label for="search_location">Location</label><input type="text" '
              f'name="search_location" id="search_location" placeholder="Location" value="">'
              f'<select name="category"><option value="">Any category</option>{cats}</select>'
              f'<input type="submit" value="Search jobs"></div></form>')
    title = next((n for k, n, _ in JOB_CATS if k == cat), "") or "Jobs"
    alert = ('<div class="job-alert-cta"><a href="/jobs/alerts/">Get new jobs by email</a></div>'
             if rng.random() < 0.5 else "")
    main = (f'<header class="page-header"><h1 class="page-title">{esc(title)}</h1>'
            f'<p class="listing-count">{len(jobs)} jobs</p></header>'
            f'<div class="job_listings">{search}{alert}<ul class="job_listings">'
            f"{''.join(rows)}</ul>"
            f"{pagination('/jobs/', page, pages, 'Jobs')}</div>")
    crumbs = [("Home", "/"), ("Careers", "" if page == 1 and not cat else "/jobs/")]
    if cat:
        crumbs.append((title, ""))
    if page > 1:
        crumbs.append((f"Page {page}", ""))
    return Page(f"{title}" + (f" – page {page}" if page > 1 else ""), "jobs", crumbs,
                "page-template-jobs page page-id-70" + (f" paged paged-{page}" if page > 1
                                                         else ""), main, paged=pages > 1,
                css=[("/wp-content/plugins/wp-job-manager/assets/dist/css/frontend.css?ver="
                      "2.2.2", "wp-job-manager-frontend"),
                     ("https://cdn.jsdelivr.net/npm/select2@4.1.0-rc.0/dist/css/select2.min.css",
                      "select2")])


def t_course(site: Site, rng: random.Random, c: Course) -> Page:
    """Course page; A/B: enrol box above the syllabus or beside it."""
    cat = next(n for k, n, _ in COURSE_CATS if k == c.cat)
    stars = (f'<div class="rating" title="{c.rating} out of 5"><span class="stars" '
             f'style="width:{c.rating * 20:.0f}%"></span> {c.rating} ({c.reviews} reviews)</div>'
             if c.reviews else "")
    enrol = (f'<div class="enrol-box"><p class="price">'
             f"{'Free for members' if c.price == 0 else f'£{c.price}'}</p>"
             f'<p class="price-note">Non-members £{int(c.price * 1.4) + 25}</p>'
             f'<form class="cart" method="post" action="{c.url}"><input type="hidden" '
             f'name="add-to-cart" value="{c.cid}"><button type="submit" class="button '
             f'single_add_to_cart_button">Enrol now</button></form>'
             f'<ul class="course-facts"><li>{esc(c.fmt)}</li><li>{c.hours} hours</li>'
             f"<li>{c.level}</li><li>{max(1, c.hours // 2)} CPD points</li>"
             f"<li>Next start: {fmt_date(c.start)}</li></ul></div>")
    outcomes = "".join(f"<li>{esc(sentence(rng))}</li>" for _ in range(rng.randint(3, 8)))
    mods = []
    for i in range(rng.randint(3, 15)):
        lessons = "".join(f"<li>{esc(rng.choice(TOPICS).capitalize())}: "
                          f"{esc(rng.choice(SUBJ).lower())} and {esc(rng.choice(TOPICS))}</li>"
                          for _ in range(rng.randint(2, 6)))
        opened = " open" if i == 0 else ""
        mods.append(f'<details class="module" id="module-{c.cid}-{i + 1}"{opened}>'
                    f"<summary>Module {i + 1}: {esc(rng.choice(TOPICS).capitalize())}</summary>"
                    f"<ol>{lessons}</ol></details>")
    syllabus = f'<section class="course-syllabus"><h2>Syllabus</h2>{"".join(mods)}</section>'
    instr = "".join(f'<li class="instructor instructor-{p.slug}">'
                    f"{img(avatar(p.slug, 80), p.name, 80, 80, 'avatar')}"
                    f"<h3>{link(p.url, p.name)}</h3><p>{esc(p.job)}</p></li>"
                    for p in c.instructors)
    blocks = [f'<section class="course-overview"><h2>Overview</h2>{paras(rng, rng.randint(1, 4))}'
              f"</section>",
              f'<section class="course-outcomes"><h2>What you will learn</h2><ul>{outcomes}'
              f"</ul></section>"]
    video = rng.random() < 0.35
    if video:
        blocks.insert(1, f'<section class="course-trailer">{video_embed(rng, c.title)}</section>')
    beside = rng.random() < 0.5
    if beside:
        blocks.append(f'<div class="course-columns">{syllabus}{enrol}</div>')
    else:
        blocks.insert(0, enrol)
        blocks.append(syllabus)
    blocks.append(f'<section class="course-instructors"><h2>Your tutors</h2><ul>{instr}</ul>'
                  f"</section>")
    if c.reviews and rng.random() < 0.8:
        revs = "".join(f'<li class="review"><span class="stars" style="width:'
                       f'{rng.randint(3, 5) * 20}%"></span><p>{esc(para_text(rng, 1, 2))}</p>'
                       f"<cite>{esc(rng.choice(FIRST))}</cite></li>"
                       for _ in range(min(c.reviews, rng.randint(1, 10))))
        blocks.append(f'<section class="course-reviews"><h2>Reviews</h2><ol>{revs}</ol>'
                      f"</section>")
    if rng.random() < 0.4:
        blocks.append(f"<h2>FAQs</h2>{faq_block(rng, rng.randint(2, 6), c.slug)}")
    if rng.random() < 0.6:
        rel = [o for o in rng.sample(site.courses, min(5, len(site.courses))) if o is not c][:3]
        blocks.append('<section class="related-courses"><h2>Related courses</h2><ul>'
                      + "".join(f"<li>{link(o.url, o.title)}</li>" for o in rel)
                      + "</ul></section>")
    main = (f'<article id="course-{c.slug}" class="course course-{c.slug} type-product '
            f'product_cat-{c.cat} level-{c.level.lower()} post-{c.cid}">'
            f'<header class="course-header" style="background-image:url(\'/wp-content/uploads/'
            f"courses/{c.slug}-1600x500.jpg')\"><span class=\"listing-kicker\">{esc(cat)}</span>"
            f'<h1 class="product_title entry-title">{esc(c.title)}</h1>'
            f"<p class=\"lead\">{esc(sentence(rng))}</p>{stars}</header>"
            f'{"".join(blocks)}</article>')
    layout = "enrol-beside" if beside else "enrol-top"
    return Page(c.title, "learn", [("Home", "/"), ("Learning", "/learn/"),
                                   (cat, f"/learn/category/{c.cat}/"), (c.title, "")],
                f"product-template-default single single-product postid-{c.cid} woocommerce "
                f"woocommerce-page {layout}", main, video=video, wide=True,
                og_type="product", description=sentence(rng),
                css=[("/wp-content/plugins/woocommerce/assets/css/woocommerce.css?ver=8.7.0",
                      "woocommerce-general")])


def t_help_article(site: Site, rng: random.Random, h: HelpArticle) -> Page:
    """Help article: steps, notes, screenshot, a 'was this helpful' form, related articles."""
    cat = next(c for c in HELP_CATS if c[0] == h.cat)
    steps = "".join(f"<li>{esc(sentence(rng))}</li>" for _ in range(rng.randint(2, 9)))
    blocks = [f"<p>{esc(para_text(rng, 1, 3))}</p>", f'<ol class="steps">{steps}</ol>']
    if rng.random() < 0.5:
        blocks.append(f'<div class="callout callout--note"><p><strong>Note:</strong> '
                      f"{esc(sentence(rng))}</p></div>")
    if rng.random() < 0.4:
        blocks.append(f'<p><img src="/help/attachments/{h.hid}/screenshot.png" '
                      f'alt="Screenshot" style="max-width:100%;border:1px solid #ddd"></p>')
    if rng.random() < 0.3:
        blocks.append(paras(rng, rng.randint(1, 3)))
    siblings = [o for o in site.help if o.cat == h.cat and o is not h]
    related = rng.sample(siblings, min(len(siblings), rng.randint(0, 5)))
    rel = ("".join(f"<li>{link(o.url, o.title)}</li>" for o in related))
    main = (f'<article id="article-{h.hid}" class="article help-article">'
            f'<header class="article-header"><h1 class="article-title">{esc(h.title)}</h1>'
            f'<p class="article-meta">Updated {fmt_date(h.updated)}</p></header>'
            f'<div class="article-body">{"".join(blocks)}</div>'
            f'<footer class="article-footer"><form class="article-vote" method="post" '
            f'action="/help/articles/{h.hid}/vote/"><span>Was this article helpful?</span>'
            f'<button type="submit" name="vote" value="up">Yes</button><button type="submit" '
            f'name="vote" value="down">No</button></form></footer></article>'
            + (f'<section class="related-articles"><h2>Related articles</h2><ul>{rel}</ul>'
               f"</section>" if related else "")
            + '<div class="still-need-help"><h2>Still need help?</h2>'
            '<a class="button" href="/contact/">Contact us</a></div>')
    current = ' class="is-current"'
    nav_sections = "".join(
        f'<li{current if s == h.section else ""}>'
        f'<a href="/help/categories/{cat[0]}-{cat[1]}/#{slugify(s)}">{esc(s)}</a></li>'
        for s in cat[3])
    side = (f'<section class="widget help-nav"><h2 class="widget-title">{esc(cat[2])}</h2>'
            f"<ul>{nav_sections}</ul></section>")
    return Page(h.title, "help", [("Home", "/"), ("Help centre", "/help/"),
                                  (cat[2], f"/help/categories/{cat[0]}-{cat[1]}/"),
                                  (h.section, f"/help/categories/{cat[0]}-{cat[1]}/"
                                              f"#{slugify(h.section)}"),
                                  (h.title, "")],
                "help-center help-article-page", main, sidebar=side,
                css=[("/help/assets/help-centre.css?v=" + vhash("hc", h.hid % 2), "help-centre")])


def t_help_category(site: Site, rng: random.Random, cat_id: int) -> Page:
    """Help centre home (cat_id 0) or a category: sections with lists of article links."""
    search = search_form("/help/search/", cls="search-form help-search")
    if not cat_id:
        cats = []
        for cid, slug, name, _ in HELP_CATS:
            arts = [h for h in site.help if h.cat == cid][:5]
            lis = "".join(f"<li>{link(h.url, h.title)}</li>" for h in arts)
            cats.append(f'<section class="help-section"><h2>'
                        f'<a href="/help/categories/{cid}-{slug}/">{esc(name)}</a></h2>'
                        f"<ul class=\"article-list\">{lis}</ul></section>")
        main = (f'<div class="help-hero"><h1>How can we help?</h1>{search}</div>'
                f'<div class="help-sections">{"".join(cats)}</div>')
        return Page("Help centre", "help", [("Home", "/"), ("Help centre", "")],
                    "help-center help-home-page", main, wide=True,
                    css=[("/help/assets/help-centre.css?v=" + vhash("hc", 0), "help-centre")])
    cat = next(c for c in HELP_CATS if c[0] == cat_id)
    secs = []
    for s in cat[3]:
        arts = [h for h in site.help if h.cat == cat_id and h.section == s]
        lis = "".join(f"<li>{link(h.url, h.title)}</li>" for h in arts[:15])
        more = (f'<a class="see-all" href="/help/sections/{cat_id}{len(s)}-{slugify(s)}/">See '
                f"all {len(arts)} articles</a>" if len(arts) > 15 else "")
        secs.append(f'<section class="help-section" id="{slugify(s)}"><h2>{esc(s)}</h2>'
                    f'<ul class="article-list">{lis}</ul>{more}</section>')
    main = (f'<header class="page-header"><h1>{esc(cat[2])}</h1>'
            f"<p>{esc(sentence(rng))}</p>{search}</header>"
            f'<div class="help-sections">{"".join(secs)}</div>')
    return Page(cat[2], "help", [("Home", "/"), ("Help centre", "/help/"), (cat[2], "")],
                "help-center category-page", main,
                css=[("/help/assets/help-centre.css?v=" + vhash("hc", cat_id % 2),
                      "help-centre")])


# --------------------------------------------------------------------------- page list

Renderer = Callable[[random.Random], Page]


def page_list(site: Site) -> list[tuple[str, str, Renderer]]:
    """Every page: (path with query, label, renderer)."""
    s = site
    out: list[tuple[str, str, Renderer]] = [("/", "home", partial(t_home, s))]
    for i, (path, title, pid) in enumerate(ABOUT_PAGES):
        out.append((path, "about", partial(t_about, s, path=path, title=title, pid=pid + i)))
    out.append(("/contact/", "contact", partial(t_contact, s)))
    for path in ["/magazine/2019/03/our-new-look/", "/events/2017/annual-dinner/",
                 "/wp-content/uploads/2016/old-brochure/", "/members-area/resources/"]:
        out.append((path, "not-found", partial(t_not_found, s)))
    for q in SEARCHES:
        out.append((f"/search/?q={quote_plus(q)}", "search-results", partial(t_search, s, q=q)))
    out.append(("/login/", "login", partial(t_login, s, redirect="/")))
    out.append(("/login/?redirect_to=%2Fdirectory%2F", "login",
                partial(t_login, s, redirect="/directory/")))
    for i, (path, title) in enumerate([("/privacy-policy/", "Privacy policy"),
                                       ("/terms/", "Terms of use"),
                                       ("/cookie-policy/", "Cookie policy"),
                                       ("/accessibility/", "Accessibility statement")]):
        out.append((path, "legal-page", partial(t_legal, s, path=path, title=title,
                                                pid=20 + i)))
    for path in ("/membership/", "/membership/corporate/"):
        out.append((path, "membership-plans", partial(t_membership, s, path=path)))
    out.append(("/help/", "help-category", partial(t_help_category, s, cat_id=0)))
    for cid, slug, _, _ in HELP_CATS:
        out.append((f"/help/categories/{cid}-{slug}/", "help-category",
                    partial(t_help_category, s, cat_id=cid)))
    # magazine
    for a in s.articles:
        out.append((a.url, "article", partial(t_article, s, a=a)))

    def paged(base: str, count: int, per: int, label: str, fn: Callable[..., Page],
              **kw: object) -> None:
        for pg in range(1, max(1, math.ceil(count / per)) + 1):
            path = base if pg == 1 else f"{base}page/{pg}/"
            out.append((path, label, partial(fn, s, page=pg, **kw)))

    paged("/magazine/", len(s.articles), PER_ROOT, "section-index", t_section, key="", sub="")
    for key, _, _ in MAG_SECTIONS:
        n = len(s.by_section.get(key, []))
        paged(f"/magazine/{key}/", n, PER_SECTION, "section-index", t_section, key=key, sub="")
        for sub, _ in MAG_SUBSECTIONS.get(key, []):
            n = len(s.by_sub.get((key, sub), []))
            paged(f"/magazine/{key}/{sub}/", n, PER_SECTION, "section-index", t_section,
                  key=key, sub=sub)
    for t, _ in s.tags:
        out.append((f"/magazine/tag/{t}/", "tag-archive", partial(t_tag, s, tag=t)))
    for au in s.authors:
        out.append((au.url, "author-profile", partial(t_author, s, au=au)))
    for d in s.issues:
        out.append((f"/magazine/issues/{d.year}-{d.month:02d}/", "issue-toc",
                    partial(t_issue, s, d=d)))
    for ep in s.episodes:
        out.append((ep.url, "podcast-episode", partial(t_podcast, s, ep=ep)))
    # directory
    for p in s.people:
        out.append((p.url, "member-profile", partial(t_member, s, p=p)))
    dir_pages = max(1, math.ceil(len(s.people) / PER_DIR))
    for pg in range(1, dir_pages + 1):
        path = "/directory/" if pg == 1 else f"/directory/page/{pg}/"
        out.append((path, "member-directory",
                    partial(t_directory, s, page=pg, region="", table=False)))
    for pg in range(1, min(3, dir_pages) + 1):
        path = "/directory/" if pg == 1 else f"/directory/page/{pg}/"
        out.append((path + "?view=table", "member-directory",
                    partial(t_directory, s, page=pg, region="", table=True)))
    for key, _ in REGIONS:
        out.append((f"/directory/?region={key}", "member-directory",
                    partial(t_directory, s, page=1, region=key, table=False)))
    # learning
    for c in s.courses:
        out.append((c.url, "course-detail", partial(t_course, s, c=c)))
    paged("/learn/", len(s.courses), PER_COURSE, "course-catalogue", t_catalogue, cat="")
    for key, _, _ in COURSE_CATS:
        n = sum(1 for c in s.courses if c.cat == key)
        paged(f"/learn/category/{key}/", n, PER_COURSE, "course-catalogue", t_catalogue,
              cat=key)
    # events
    for e in s.events:
        out.append((e.url, "event-detail", partial(t_event, s, e=e)))
    past, upcoming = past_upcoming(len(s.events))
    paged("/events/", upcoming, PER_EVENT, "event-list", t_events, which="")
    paged("/events/past/", past, PER_EVENT, "event-list", t_events, which="past")
    for key, _, _ in EVENT_CATS:
        if any(e.cat == key for e in s.events):
            out.append((f"/events/category/{key}/", "event-list",
                        partial(t_events, s, which=key, page=1)))
    # jobs
    for j in s.jobs:
        out.append((j.url, "job-detail", partial(t_job, s, j=j)))
        if j.on_site_apply:
            out.append((f"{j.url}apply/", "job-apply", partial(t_job_apply, s, j=j)))
    paged("/jobs/", len(s.jobs), PER_JOB, "job-list", t_job_list, cat="")
    for key, _, _ in JOB_CATS:
        if any(j.cat == key for j in s.jobs):
            out.append((f"/jobs/?category={key}", "job-list",
                        partial(t_job_list, s, cat=key, page=1)))
    # help
    for h in s.help:
        out.append((h.url, "help-article", partial(t_help_article, s, h=h)))
    return out


def render_page(site: Site, path: str, label: str, fn: Renderer) -> dict[str, object]:
    """Render one page into its JSON record."""
    url = ORIGIN + path
    rng = random.Random(f"{site.seed}|{path}")
    page = fn(rng)
    doc, hrefs = render_document(site, url, page, rng)
    tries = 0
    while len(doc.encode()) > MAX_BYTES and tries < 20:
        # a rare oversized draw (long article with many comments): draw again
        tries += 1
        rng = random.Random(f"{site.seed}|{path}|{tries}")
        page = fn(rng)
        doc, hrefs = render_document(site, url, page, rng)
    if len(doc.encode()) > MAX_BYTES:
        raise RuntimeError(f"{url} is over {MAX_BYTES} bytes")
    parts = [seg for seg in urlsplit(url).path.split("/") if seg]
    return {"id": url, "html": doc, "paths": parts, "stylesheetHrefs": hrefs, "host": HOST,
            "label": label}


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    ap = argparse.ArgumentParser(description="Generate the labelled NSIP publisher site.")
    ap.add_argument("out", help="output JSON Lines file")
    ap.add_argument("--pages", type=int, default=10000, help="target page count")
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    counts = plan(args.pages)
    site = Site(args.seed, counts)
    pages = page_list(site)
    seen: set[str] = set()
    for path, _, _ in pages:
        if path in seen:
            raise RuntimeError(f"duplicate URL {path}")
        seen.add(path)
    head, rest = pages[0], pages[1:]
    random.Random(f"order:{args.seed}").shuffle(rest)
    hist: Counter[str] = Counter()
    total_bytes = 0
    largest = 0
    with open(args.out, "w", encoding="utf-8") as fh:
        for path, label, fn in [head, *rest]:
            rec = render_page(site, path, label, fn)
            size = len(str(rec["html"]).encode())
            total_bytes += size
            largest = max(largest, size)
            hist[label] += 1
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    elapsed = time.perf_counter() - t0
    n = sum(hist.values())
    print(f"{n} pages, {len(hist)} templates, {total_bytes / n / 1024:.1f} KB mean HTML, "
          f"{largest / 1024:.1f} KB largest, {elapsed:.1f} s", file=sys.stderr)
    for label, cnt in sorted(hist.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"{cnt:7d}  {label}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
