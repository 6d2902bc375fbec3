#!/usr/bin/env python3
"""Independent benchmark corpus: a synthetic mid-size company website.

This module renders a fictional company site (shop + news + docs + community +
careers + events) the way a typical CMS would, using ~25 page templates that all
share one site chrome.  Each output line is one page with its ground-truth
``label`` (the template that rendered it), so a page-template clustering tool can
be scored against it.

It was written independently of the clustering tool: the author did not read the
clustering code, its tests, its docs or the other benchmark corpora.  The
markup only tries to imitate how real websites behave (shared chrome, content
derived ids, optional blocks, third-party CSS on a random share of pages, ...).

Usage::

    python corpora/template_site.py OUT.jsonl [--pages 10000] [--seed 11]

Standard library only; deterministic for a given seed.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from html import escape

HOST = "www.northwind-supply.test"
ORIGIN = f"https://{HOST}"
STATIC = "https://static.northwind-supply.test"
CONSENT_CSS = "https://cdn.consentkit.test/banner/v2.4/consent.min.css"
ARIA_CUR = ' aria-current="page"'
REVIEW_CSS = "https://widget.trustreviews.test/v3/widget.css?locale=en-GB"

# fmt: off
WORDS = [
    "adjustable", "anchor", "angle", "assembly", "battery", "bearing", "bench", "blade", "bolt",
    "bracket", "cable", "cabinet", "clamp", "coating", "compact", "cordless", "coupling", "cutter",
    "drill", "durable", "edge", "fast", "finish", "fitting", "frame", "garden", "grip", "handle",
    "heavy", "hinge", "hook", "install", "joint", "kit", "ladder", "lever", "light", "lock",
    "magnetic", "measure", "metal", "mount", "nail", "nozzle", "outdoor", "panel", "pipe", "plate",
    "power", "precision", "pressure", "pump", "rail", "ratchet", "repair", "rivet", "saw", "screw",
    "seal", "set", "shelf", "socket", "spring", "steel", "storage", "strap", "tape", "thread",
    "tool", "torque", "valve", "wall", "washer", "weather", "wire", "wood", "workshop", "wrench",
    "zinc", "the", "a", "of", "and", "to", "in", "for", "with", "on", "our", "your", "new", "how",
    "why", "we", "you", "it", "is", "are", "was", "will", "can", "more", "team", "customers",
    "release", "update", "support", "service", "data", "configure", "server", "client", "request",
    "response", "module", "plugin", "version", "option", "default", "error", "value", "file",
    "path", "build", "deploy", "network", "sync", "account", "order", "shipping", "delivery",
    "return", "warranty", "payment", "invoice", "price", "offer", "season", "quality", "guide",
    "tips", "project", "home", "energy", "community", "forum", "question", "answer", "thanks",
    "problem", "solution", "works", "after", "before", "again", "still", "really", "maybe",
    "should", "would", "could", "think", "know", "need", "want", "use", "using", "used",
]
FIRST = [
    "Anna", "Ben", "Carla", "David", "Elif", "Farid", "Greta", "Hugo", "Ines", "Jonas", "Kira",
    "Leon", "Mara", "Nils", "Olga", "Pavel", "Rosa", "Sven", "Tara", "Umut", "Vera", "Wim", "Yara",
    "Zoe",
]
LAST = [
    "Adler", "Berg", "Costa", "Dietz", "Engel", "Fischer", "Garcia", "Hahn", "Ivanova", "Jung",
    "Keller", "Lind", "Moreau", "Novak", "Ortiz", "Peters", "Quinn", "Ruiz", "Schmidt", "Tanaka",
    "Ueda", "Vogel", "Weber", "Young",
]
CITIES = [
    "Berlin", "Hamburg", "Munich", "Vienna", "Zurich", "Amsterdam", "Lyon", "Leeds", "Porto",
    "Remote",
]
# fmt: on
WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
COLOURS = ["Black", "White", "Red", "Blue", "Green", "Graphite", "Sand", "Orange"]
TEMPLATE_SECTION = {
    "home": None,
    "product_detail": "shop",
    "product_category": "shop",
    "product_compare": "shop",
    "cart": "shop",
    "search_results": None,
    "news_article": "news",
    "news_list": "news",
    "tag_page": "news",
    "author_profile": "news",
    "press_release": "news",
    "job_listing": "careers",
    "job_detail": "careers",
    "event_detail": "events",
    "event_calendar": "events",
    "faq": "help",
    "docs_article": "docs",
    "docs_index": "docs",
    "forum_thread": "community",
    "forum_index": "community",
    "user_profile": "community",
    "campaign_landing": None,
    "contact": "help",
    "legal": None,
    "not_found": None,
}
# Share of the variable part of the site per template (fixed-size ones below).
MIX = {
    "product_detail": 0.26,
    "forum_thread": 0.15,
    "news_article": 0.12,
    "docs_article": 0.09,
    "user_profile": 0.07,
    "product_category": 0.04,
    "search_results": 0.03,
    "tag_page": 0.03,
    "event_detail": 0.02,
    "job_detail": 0.015,
    "news_list": 0.015,
    "press_release": 0.012,
    "product_compare": 0.008,
    "author_profile": 0.006,
    "forum_index": 0.004,
    "campaign_landing": 0.004,
    "docs_index": 0.003,
    "not_found": 0.003,
    "faq": 0.0025,
    "event_calendar": 0.0015,
}
FIXED = {"home": 1, "cart": 2, "contact": 3, "legal": 12, "job_listing": 5}
LEGAL_PATHS = [
    ("/legal/privacy/", "Privacy Policy"),
    ("/legal/terms/", "Terms and Conditions"),
    ("/legal/imprint/", "Imprint"),
    ("/legal/cookies/", "Cookie Policy"),
    ("/legal/returns/", "Returns Policy"),
    ("/about/", "About Northwind"),
    ("/about/history/", "Our History"),
    ("/about/sustainability/", "Sustainability"),
    ("/accessibility/", "Accessibility Statement"),
    ("/legal/shipping/", "Shipping Information"),
    ("/about/leadership/", "Leadership Team"),
    ("/legal/warranty/", "Warranty Terms"),
]

# Docs navigation: (title, children) nodes of varying depth.
DocTree = list[tuple[str, "DocTree"]]


def slugify(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"


class Ids:
    """Per-page slug registry: duplicate headings get -1, -2 like Markdown renderers."""

    def __init__(self) -> None:
        self.seen: dict[str, int] = {}

    def __call__(self, text: str) -> str:
        base = slugify(text)
        n = self.seen.get(base, 0)
        self.seen[base] = n + 1
        return base if n == 0 else f"{base}-{n}"


def words(r: random.Random, a: int, b: int) -> str:
    return " ".join(r.choices(WORDS, k=r.randint(a, b)))


def title(r: random.Random, a: int = 3, b: int = 7) -> str:
    return " ".join(
        w.capitalize() if i == 0 or len(w) > 3 else w
        for i, w in enumerate(r.choices(WORDS, k=r.randint(a, b)))
    )


def sentence(r: random.Random) -> str:
    return words(r, 6, 18).capitalize() + r.choice(".....?!")


def para(r: random.Random, a: int = 2, b: int = 5) -> str:
    return " ".join(sentence(r) for _ in range(r.randint(a, b)))


def person(r: random.Random) -> str:
    return f"{r.choice(FIRST)} {r.choice(LAST)}"


def date(r: random.Random, y0: int = 2018, y1: int = 2025) -> dt.date:
    start = dt.date(y0, 1, 1).toordinal()
    return dt.date.fromordinal(r.randint(start, dt.date(y1, 6, 30).toordinal()))


def price(r: random.Random) -> str:
    return f"€{r.randint(3, 900)}.{r.choice(['00', '49', '90', '95', '99'])}"


def img(src: str, alt: str, cls: str = "", w: int = 600, h: int = 400, lazy: bool = True) -> str:
    c = f' class="{cls}"' if cls else ""
    lz = ' loading="lazy" decoding="async"' if lazy else ""
    return (
        f'<img{c} src="{src}?w={w}" srcset="{src}?w={w} 1x, {src}?w={w * 2} 2x" '
        f'width="{w}" height="{h}" alt="{escape(alt)}"{lz}>'
    )


@dataclass
class Out:
    path: str
    title: str
    crumbs: list[tuple[str, str]]
    main: str
    body_class: str = ""
    sheets: list[str] = field(default_factory=list)  # first-party section css (paths or URLs)
    main_sheets: list[str] = field(default_factory=list)  # css injected inside <main> by widgets
    fonts: list[str] = field(default_factory=lambda: ["Inter:wght@400;600;700"])
    main_class: str = ""


class Site:
    def __init__(self, seed: int) -> None:
        r = random.Random(f"site/{seed}")
        self.seed = seed
        self.build = f"{r.getrandbits(32):08x}"
        self.old_build = f"{r.getrandbits(32):08x}"
        self.cats = {
            slugify(n): (n, [title(r, 1, 2) for _ in range(r.randint(3, 7))])
            for n in [
                "Power Tools",
                "Hand Tools",
                "Garden",
                "Fasteners",
                "Storage",
                "Plumbing",
                "Electrical",
                "Safety Gear",
            ]
        }
        self.tags = sorted({title(r, 1, 2) for _ in range(160)})
        self.authors = sorted({person(r) for _ in range(45)})
        self.forum_cats = [
            "General",
            "Show and Tell",
            "Troubleshooting",
            "Feature Requests",
            "Woodworking",
            "Garden Projects",
            "Electronics",
            "Marketplace",
            "Announcements",
            "Off Topic",
        ]
        # product -> (versions, nav tree of varying depth)
        self.doc_products: dict[str, tuple[list[str], DocTree]] = {}
        for prod in ["nw-connect", "toolhub", "smartlock-api", "fleet-manager"]:
            major = r.randint(1, 4)
            self.doc_products[prod] = (
                ["latest"] + [f"{major}.{v}" for v in range(r.randint(1, 4), 0, -1)],
                [
                    (title(r, 1, 3), self._doc_tree(r, r.choice([1, 2, 2, 3])))
                    for _ in range(r.randint(5, 9))
                ],
            )
        self.used: set[str] = set()
        self._uid = 0

    def uid(self, r: random.Random) -> int:
        """Database-style ids (comments, posts, reviews): increasing, unique within a page."""
        self._uid += r.randint(1, 97)
        return self._uid

    def _doc_tree(self, r: random.Random, depth: int) -> DocTree:
        return [
            (title(r, 1, 4), self._doc_tree(r, depth - 1) if depth > 1 and r.random() < 0.3 else [])
            for _ in range(r.randint(2, 8))
        ]

    def unique(self, make: Callable[[], str]) -> str:
        """Draw URLs until an unused one comes up (real sites never serve two pages at one URL)."""
        p = make()
        for n in range(2, 10_000):
            if p not in self.used:
                break
            p = (
                make()
                if n < 30
                else p.split("?")[0].rstrip("/")
                + f"-{n}"
                + ("/" if p.split("?")[0].endswith("/") else "")
            )
        self.used.add(p)
        return p

    # ------------------------------------------------------------------ chrome
    def nav(self, r: random.Random, section: str | None) -> str:
        items = [
            ("shop", "Shop", "/shop/"),
            ("news", "News", "/news/"),
            ("docs", "Docs", "/docs/"),
            ("community", "Community", "/community/"),
            ("events", "Events", "/events/"),
            ("careers", "Careers", "/careers/"),
            ("help", "Help", "/help/faq/"),
        ]
        out = ['<nav class="main-nav" id="main-nav" aria-label="Main"><ul class="main-nav__list">']
        for key, label, href in items:
            active = key == section
            cls = (
                "main-nav__item"
                + (" main-nav__item--has-children" if key == "shop" else "")
                + (" is-active" if active else "")
            )
            cur = ' aria-current="page"' if active else ""
            out.append(
                f'<li class="{cls}"><a class="main-nav__link" href="{href}"{cur}>{label}</a>'
            )
            if key == "shop":
                out.append('<div class="mega-menu" hidden><div class="mega-menu__grid">')
                for slug, (name, subs) in self.cats.items():
                    out.append(
                        '<div class="mega-menu__col"><a class="mega-menu__heading" '
                        f'href="/shop/{slug}/">{name}</a><ul>'
                    )
                    out.extend(
                        f'<li><a href="/shop/{slug}/{slugify(s)}/">{s}</a></li>' for s in subs
                    )
                    out.append("</ul></div>")
                out.append("</div></div>")
            out.append("</li>")
        out.append("</ul></nav>")
        return "".join(out)

    def header(self, r: random.Random, section: str | None, logged_in: bool) -> str:
        bar = ""
        if r.random() < 0.3:
            bar = (
                '<div class="announcement-bar" role="region" aria-label="Announcement"><p>'
                + escape(
                    r.choice(
                        [
                            "Free shipping on orders over €50",
                            "Spring sale: up to 30% off power tools",
                            "Community meetup in Berlin – register now",
                        ]
                    )
                )
                + '</p><button class="announcement-bar__close" aria-label="Close">×</button></div>'
            )
        cart_n = r.choice([0, 0, 0, 1, 2, 3, 5])
        badge = f'<span class="badge badge--count">{cart_n}</span>' if cart_n else ""
        acct = (
            f'<a class="site-header__account" href="/account/">Hi, {r.choice(FIRST)}</a>'
            if logged_in
            else '<a class="site-header__account" href="/account/login/">Sign in</a>'
        )
        return (
            f'<a class="skip-link visually-hidden-focusable" href="#main">Skip to content</a>{bar}'
            '<header class="site-header" role="banner"><div class="container d-flex '
            'align-items-center justify-content-between">'
            '<a class="site-header__logo" href="/" rel="home">'
            '<img src="/assets/img/logo.svg" width="168" height="40" alt="Northwind Supply">'
            "</a>"
            '<button class="nav-toggle d-lg-none" aria-controls="main-nav" '
            'aria-expanded="false"><span class="visually-hidden">Menu</span></button>'
            + self.nav(r, section)
            + '<form class="site-search" action="/search" method="get" role="search">'
            '<label class="visually-hidden" for="q">Search</label>'
            '<input id="q" name="q" type="search" placeholder="Search products, articles, '
            'docs…" autocomplete="off"><button type="submit" class="btn btn--icon">'
            "Search</button></form>"
            f'<div class="site-header__actions">{acct}<a class="site-header__cart cart-link" '
            f'href="/cart">Cart{badge}</a></div></div></header>'
        )

    def breadcrumb(self, crumbs: list[tuple[str, str]]) -> str:
        full, li = [("Home", "/"), *crumbs], []
        for i, (n, h) in enumerate(full, 1):
            last = i == len(full)
            inner = (
                f'<span itemprop="name">{escape(n)}</span>'
                if last
                else f'<a itemprop="item" href="{h}"><span itemprop="name">{escape(n)}</span></a>'
            )
            li.append(
                f'<li class="breadcrumb__item{" breadcrumb__item--current" if last else ""}"'
                f'{ARIA_CUR if last else ""} itemprop="itemListElement" itemscope '
                f'itemtype="https://schema.org/ListItem">{inner}<meta itemprop="position" '
                f'content="{i}"></li>'
            )
        return (
            (
                '<nav class="breadcrumb container" aria-label="Breadcrumb">'
                '<ol class="breadcrumb__list" itemscope '
                f'itemtype="https://schema.org/BreadcrumbList">{"".join(li)}</ol></nav>'
            )
            if crumbs
            else ""
        )

    def footer(self, r: random.Random) -> str:
        cols = {
            "Shop": [(n, f"/shop/{s}/") for s, (n, _) in self.cats.items()],
            "Service": [
                ("Shipping", "/legal/shipping/"),
                ("Returns", "/legal/returns/"),
                ("Warranty", "/legal/warranty/"),
                ("FAQ", "/help/faq/"),
                ("Contact", "/contact/"),
                ("Order status", "/account/orders/"),
            ],
            "Company": [
                ("About us", "/about/"),
                ("History", "/about/history/"),
                ("Sustainability", "/about/sustainability/"),
                ("Careers", "/careers/"),
                ("Press", "/news/press-releases/"),
                ("Events", "/events/"),
            ],
            "Community": [
                ("Forum", "/community/"),
                ("Docs", "/docs/"),
                ("Developer API", "/docs/smartlock-api/latest/"),
                ("Blog", "/news/"),
                ("Newsletter", "#newsletter"),
            ],
        }
        out = [
            '<footer class="site-footer" role="contentinfo"><div class="container">'
            '<div class="site-footer__grid row">'
        ]
        for head, links in cols.items():
            out.append(
                '<div class="site-footer__col col-6 col-md-3"><h2 '
                f'class="site-footer__heading h6">{head}</h2><ul class="list-unstyled">'
            )
            out.extend(
                f'<li><a class="site-footer__link" href="{h}">{n}</a></li>' for n, h in links
            )
            out.append("</ul></div>")
        out.append(
            '</div><form class="footer-newsletter" action="/newsletter/subscribe" '
            'method="post"><label for="nl-footer">Get tips and offers</label>'
            '<input id="nl-footer" type="email" name="email" required>'
            '<button class="btn btn--secondary">Subscribe</button></form>'
            '<ul class="social-links list-inline">'
            + "".join(
                f'<li class="list-inline-item"><a href="https://{s}.example/northwind" '
                f'rel="noopener" aria-label="{s}"><svg class="icon icon--{s}" '
                f'aria-hidden="true"><use href="/assets/img/icons.svg#{s}"></use></svg></a>'
                "</li>"
                for s in ["facebook", "instagram", "youtube", "linkedin", "mastodon"]
            )
            + '</ul><div class="site-footer__legal d-flex flex-wrap"><p class="small">'
            '© 2025 Northwind Supply GmbH</p><ul class="list-inline small">'
            + "".join(
                f'<li class="list-inline-item"><a href="{p}">{n}</a></li>'
                for p, n in LEGAL_PATHS[:5]
            )
            + '<li class="list-inline-item"><button class="link-button js-cookie-settings">'
            "Cookie settings</button></li></ul>"
            '<select class="lang-switch form-select form-select-sm" aria-label="Language">'
            "<option selected>English</option><option>Deutsch</option><option>"
            "Français</option></select>"
            "</div></div></footer>"
        )
        return "".join(out)

    def cookie_banner(self, r: random.Random) -> str:
        if r.random() < 0.15:  # already consented / banner injected by JS only
            return ""
        return (
            '<div class="cookie-banner" id="cookie-banner" role="dialog" aria-live="polite" '
            'aria-label="Cookie consent">'
            f'<p class="cookie-banner__text">{para(r, 1, 2)} <a href="/legal/cookies/">'
            "Learn more</a></p>"
            '<div class="cookie-banner__actions"><button class="btn btn--ghost '
            'js-cookie-reject">Reject all</button>'
            '<button class="btn btn--ghost js-cookie-prefs">Preferences</button>'
            '<button class="btn btn--primary js-cookie-accept">Accept all</button></div>'
            "</div>"
        )

    def assemble(self, r: random.Random, label: str, o: Out) -> tuple[str, list[str]]:
        links: list[str] = []
        sheets: list[str] = []  # absolute URLs in document order

        def add(href: str, extra: str = "") -> None:
            absolute = href if href.startswith("http") else ORIGIN + href
            links.append(f'<link rel="stylesheet" href="{escape(href)}"{extra}>')
            sheets.append(absolute)

        consent = r.random() < 0.5
        consent_first = r.random() < 0.4
        if consent and consent_first:
            add(CONSENT_CSS)
        add(f"/assets/css/site.css?v={self.build if r.random() < 0.85 else self.old_build}")
        for s in o.sheets:
            add(s)
        if r.random() < 0.6:
            fams = "&".join(
                "family=" + f for f in o.fonts + (["Roboto+Mono"] if r.random() < 0.2 else [])
            )
            add(f"https://fonts.googleapis.com/css2?{fams}&display=swap")
        if consent and not consent_first:
            add(CONSENT_CSS)
        add("/assets/css/print.css", ' media="print"')
        main_sheets = [s if s.startswith("http") else ORIGIN + s for s in o.main_sheets]
        canonical = ORIGIN + o.path.split("?")[0]
        desc = escape(sentence(r))
        head = (
            f'<!DOCTYPE html><html lang="en" class="no-js"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(o.title)} | Northwind Supply</title>"
            f'<meta name="description" content="{desc}">'
            f'<link rel="canonical" href="{canonical}"><meta property="og:title" content="'
            f'{escape(o.title)}">'
            f'<meta property="og:url" content="{canonical}"><meta property="og:site_name" '
            'content="Northwind Supply">'
            '<link rel="preconnect" href="https://fonts.gstatic.com" crossorigin>'
            '<link rel="icon" href="/favicon.ico" sizes="any">'
            '<link rel="apple-touch-icon" href="/assets/img/apple-touch-icon.png">'
            '<link rel="manifest" href="/site.webmanifest">'
            f'<link rel="preload" as="style" href="/assets/css/site.css?v={self.build}">'
            + "".join(links)
            + "<script>"
            'document.documentElement.className=document.documentElement.className.replace("n'
            'o-js","js");'
            "window.dataLayer=window.dataLayer||[];</script><script async "
            'src="/assets/js/analytics.js"></script></head>'
        )
        logged_in = r.random() < 0.2  # WordPress-style: adds a body class on any template
        body_cls = (
            o.body_class + (" logged-in admin-bar" if logged_in and r.random() < 0.5 else "")
        ).strip()
        html = (
            head
            + (f'<body class="{body_cls}">' if body_cls else "<body>")
            + self.header(r, TEMPLATE_SECTION[label], logged_in)
            + self.breadcrumb(o.crumbs)
            + f'<main id="main" class="{("site-main " + o.main_class).strip()}" tabindex="-1">'
            + o.main
            + "</main>"
            + self.footer(r)
            + self.cookie_banner(r)
            + f'<script src="/assets/js/site.js?v={self.build}" defer></script></body></html>'
        )
        return html, sheets + main_sheets

    # -------------------------------------------------------------- components
    def product_card(self, r: random.Random, tag: str = "li") -> str:
        pid = r.randint(10000, 99999)
        slug, _ = r.choice(list(self.cats.items()))
        name = title(r, 2, 5)
        sale = r.random() < 0.2
        old = f'<s class="price price--old">{price(r)}</s>' if sale else ""
        badge = (
            '<span class="badge badge--sale">Sale</span>'
            if sale
            else ('<span class="badge badge--new">New</span>' if r.random() < 0.1 else "")
        )
        rating = (
            f'<div class="rating" data-rating="{r.randint(5, 10) / 2}">'
            '<span class="visually-hidden">Rated</span></div>'
            if r.random() < 0.7
            else ""
        )
        return (
            f'<{tag} class="product-card" data-product-id="{pid}" data-sku="NW-{pid}-'
            f'{r.choice(COLOURS)[:2].upper()}">{badge}'
            f'<a class="product-card__link" href="/shop/{slug}/{slugify(name)}-p{pid}">'
            + img(f"/media/products/{pid}-1.jpg", name, "product-card__img", 300, 300)
            + f'<h3 class="product-card__title">{escape(name)}</h3></a>'
            f'<div class="product-card__price">{old}<span class="price">{price(r)}</span>'
            f"</div>{rating}"
            f'<button class="btn btn--sm btn--primary js-add-to-cart" data-product-id="{pid}">'
            f"Add to cart</button></{tag}>"
        )

    def product_rail(self, r: random.Random, heading: str, cls: str, n: int) -> str:
        return (
            f'<section class="product-rail {cls}"><h2 class="product-rail__title">'
            f'{heading}</h2><ul class="product-rail__list list-unstyled">'
            + "".join(self.product_card(r) for _ in range(n))
            + "</ul></section>"
        )

    def teaser(self, r: random.Random, big: bool = False) -> str:
        d = date(r)
        t = title(r, 4, 10)
        pid = r.randint(1000, 30000)
        w, h = (800, 450) if big else (400, 225)
        return (
            f'<article class="teaser{" teaser--featured" if big else ""} post-{pid}">'
            f'<a class="teaser__media" href="/news/{d:%Y/%m}/{slugify(t)}/" tabindex="-1">'
            f"{img(f'/media/news/{pid}.jpg', t, 'teaser__img', w, h)}</a>"
            '<div class="teaser__body"><a class="teaser__kicker" href="/news/tag/'
            f'{slugify(r.choice(self.tags))}/">{r.choice(self.tags)}</a>'
            f'<h2 class="teaser__title"><a href="/news/{d:%Y/%m}/{slugify(t)}/">'
            f"{escape(t)}</a></h2>"
            f'<p class="teaser__excerpt">{para(r, 1, 2)}</p><div class="teaser__meta">'
            f'<time datetime="{d.isoformat()}">{d:%d %B %Y}</time>'
            ' · <a class="teaser__author" href="/news/author/'
            f'{slugify(r.choice(self.authors))}/">{r.choice(self.authors)}</a></div></div>'
            "</article>"
        )

    def pagination(self, base: str, page: int, last: int, style: str = "query") -> str:
        if last <= 1:
            return ""

        def href(p: int) -> str:
            if p == 1:
                return base
            return f"{base}?page={p}" if style == "query" else f"{base}page/{p}/"

        out = ['<nav class="pagination" aria-label="Pagination"><ul class="pagination__list">']
        if page > 1:
            out.append(
                '<li class="pagination__item pagination__item--prev">'
                f'<a rel="prev" href="{href(page - 1)}">Previous</a></li>'
            )
        for p in sorted(
            {
                1,
                max(1, page - 2),
                max(1, page - 1),
                page,
                min(last, page + 1),
                min(last, page + 2),
                last,
            }
        ):
            cur = ' aria-current="page" class="is-current"' if p == page else ""
            out.append(f'<li class="pagination__item"><a{cur} href="{href(p)}">{p}</a></li>')
        if page < last:
            out.append(
                '<li class="pagination__item pagination__item--next">'
                f'<a rel="next" href="{href(page + 1)}">Next</a></li>'
            )
        return "".join(out) + "</ul></nav>"

    def comments(self, r: random.Random, n: int, depth: int = 1) -> str:
        out = [f'<ol class="{"comment-list" if depth == 1 else "children"}">']
        for _ in range(n):
            cid = self.uid(r)
            d = date(r, 2022)
            staff = r.random() < 0.05
            kids = (
                self.comments(r, r.randint(1, 3), depth + 1)
                if depth < 4 and r.random() < 0.25
                else ""
            )
            out.append(
                f'<li id="comment-{cid}" class="comment {"bypostauthor " if staff else ""}'
                f'{"even" if cid % 2 else "odd"} depth-{depth}">'
                f'<article id="div-comment-{cid}" class="comment-body">'
                '<footer class="comment-meta"><div class="comment-author vcard">'
                f'<img class="avatar avatar-48 photo" src="/media/avatars/{cid % 300}.png" '
                f'width="48" height="48" alt="" loading="lazy"><b class="fn">{person(r)}</b>'
                "</div>"
                f'<div class="comment-metadata"><a href="#comment-{cid}">'
                f'<time datetime="{d.isoformat()}">{d:%B %d, %Y}</time></a></div></footer>'
                f'<div class="comment-content"><p>{para(r, 1, 4)}</p></div><div class="reply">'
                '<a rel="nofollow" class="comment-reply-link" href="#respond" '
                f'data-commentid="{cid}">Reply</a></div></article>{kids}</li>'
            )
        return "".join(out) + "</ol>"

    def newsletter(self, r: random.Random) -> str:
        return (
            '<aside class="newsletter-box card card--accent" id="newsletter">'
            '<h2 class="newsletter-box__title">Workshop tips in your inbox</h2>'
            f'<p>{sentence(r)}</p><form class="newsletter-box__form d-flex gap-2" '
            'action="/newsletter/subscribe" method="post">'
            '<input type="email" name="email" class="form-control" '
            'placeholder="you@example.com" required><button class="btn btn--primary">'
            "Sign up</button></form></aside>"
        )

    def promo(self, r: random.Random) -> str:
        code = "".join(r.choices("ABCDEFGHJKLMNPQRSTUVWXYZ", k=6))
        return (
            f'<div class="promo-banner promo-banner--{r.choice(["dark", "light", "brand"])}" '
            f'data-promo-id="{r.randint(100, 999)}">'
            f'<p class="promo-banner__text">{title(r, 3, 6)} – use code <strong>'
            f'{code}</strong></p><a class="btn btn--light" href="/shop/?promo={code}">'
            "Shop now</a></div>"
        )

    def video(self, r: random.Random) -> str:
        vid = "".join(
            r.choices("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ0123456789_-", k=11)
        )
        return (
            '<figure class="video-embed ratio ratio-16x9"><iframe '
            f'src="https://www.youtube-nocookie.com/embed/{vid}" title="{escape(title(r))}" '
            'loading="lazy" allow="accelerometer; encrypted-media; picture-in-picture" '
            "allowfullscreen></iframe>"
            f"<figcaption>{sentence(r)}</figcaption></figure>"
        )

    def gallery(self, r: random.Random, n: int) -> str:
        return (
            '<div class="gallery gallery--columns-3">'
            + "".join(
                '<figure class="gallery__item">'
                + img(
                    f"/media/gallery/{r.randint(1, 9999)}.jpg",
                    words(r, 2, 5),
                    "gallery__img",
                    400,
                    300,
                )
                + "</figure>"
                for _ in range(n)
            )
            + "</div>"
        )

    def author_box(self, r: random.Random, name: str) -> str:
        return (
            '<aside class="author-box"><img class="author-box__avatar" src="/media/authors/'
            f'{slugify(name)}.jpg" width="96" height="96" alt="">'
            f'<div><h2 class="author-box__name"><a href="/news/author/{slugify(name)}/">'
            f"{name}</a></h2><p>{para(r, 1, 2)}</p></div></aside>"
        )

    def prose(
        self, r: random.Random, ids: Ids, n_sections: int, level: int = 2
    ) -> list[tuple[str, str]]:
        """Markdown-ish body: returns (heading, html) per section with slug ids."""
        out = []
        for _ in range(n_sections):
            h = title(r, 2, 6)
            hid = ids(h)
            parts = [f'<h{level} id="{hid}">{escape(h)}</h{level}>']
            for _ in range(r.randint(1, 4)):
                x = r.random()
                if x < 0.6:
                    parts.append(f"<p>{para(r)}</p>")
                elif x < 0.75:
                    parts.append(
                        "<ul>"
                        + "".join(f"<li>{words(r, 3, 12)}</li>" for _ in range(r.randint(2, 7)))
                        + "</ul>"
                    )
                elif x < 0.85:
                    parts.append(
                        f'<blockquote class="wp-block-quote"><p>{sentence(r)}</p><cite>'
                        f"{person(r)}</cite></blockquote>"
                    )
                else:
                    pic = img(
                        f"/media/uploads/{r.randint(1, 99999)}.jpg", words(r, 2, 4), "", 1024, 576
                    )
                    parts.append(
                        f'<figure class="wp-block-image size-large">{pic}<figcaption>'
                        f"{sentence(r)}</figcaption></figure>"
                    )
            out.append((h, "".join(parts)))
        return out

    # --------------------------------------------------------------- templates
    def t_home(self, r: random.Random, k: int) -> Out:
        slides = "".join(
            f'<div class="hero-carousel__slide{" is-active" if i == 0 else ""}">'
            + img(f"/media/hero/{r.randint(1, 99)}.jpg", "", "hero-carousel__img", 1600, 600, i > 0)
            + f'<div class="hero-carousel__caption"><h2>{title(r)}</h2>'
            f'<a class="btn btn--primary btn--lg" href="/lp/{slugify(title(r, 2, 3))}/">'
            "Discover</a></div></div>"
            for i in range(r.randint(3, 6))
        )
        tiles = "".join(
            f'<li class="category-tile"><a href="/shop/{s}/">'
            f"{img(f'/media/cats/{s}.jpg', n, 'category-tile__img', 300, 300)}<span>{n}</span>"
            "</a></li>"
            for s, (n, _) in self.cats.items()
        )
        main = (
            '<section class="hero-carousel js-carousel" aria-roledescription="carousel">'
            f"{slides}</section>"
            '<section class="home-categories container"><h2 class="section-title">'
            f'Shop by category</h2><ul class="category-tiles list-unstyled">{tiles}</ul>'
            "</section>"
            + self.product_rail(r, "Bestsellers", "container", 8)
            + '<section class="home-news container"><h2 class="section-title">'
            'From the blog</h2><div class="teaser-grid">'
            + "".join(self.teaser(r) for _ in range(4))
            + "</div></section>"
            + self.newsletter(r)
        )
        return Out(
            "/", "Tools and hardware for every project", [], main, "home page-template-front-page"
        )

    def t_product_detail(self, r: random.Random, k: int) -> Out:
        slug, (cname, subs) = r.choice(list(self.cats.items()))
        sub = r.choice(subs)
        name = title(r, 2, 6)
        pid = 10000 + k * 7 + r.randint(0, 6)

        def mk() -> str:
            base = f"/shop/{slug}/{slugify(sub)}/" if r.random() < 0.8 else f"/shop/{slug}/"
            q = (
                ""
                if r.random() < 0.92
                else r.choice(["?variant=" + r.choice(COLOURS).lower(), "?ref=home-bestsellers"])
            )
            return f"{base}{slugify(name)}-p{pid}{q}"

        path = self.unique(mk)
        ids = Ids()
        thumbs = r.randint(1, 9)
        gal = "".join(
            img(
                f"/media/products/{pid}-{i}.jpg",
                name,
                "product__img" + (" is-active" if i == 1 else ""),
                800,
                800,
                i > 1,
            )
            for i in range(1, thumbs + 1)
        )
        variants = ""
        for g in r.sample(["Colour", "Size", "Voltage", "Length", "Pack size"], r.randint(0, 3)):
            opts = "".join(
                f'<label class="variant-picker__option"><input type="radio" name="{slugify(g)}'
                f'" value="{slugify(v)}"{" checked" if i == 0 else ""}><span>{v}</span>'
                "</label>"
                for i, v in enumerate(
                    r.sample(
                        COLOURS if g == "Colour" else [f"{x} {g[:1]}" for x in range(1, 12)],
                        r.randint(2, 6),
                    )
                )
            )
            variants += (
                '<fieldset class="variant-picker"><legend class="variant-picker__label">'
                f"{g}</legend>{opts}</fieldset>"
            )
        stock = r.choice(
            [
                '<p class="stock stock--in">In stock</p>',
                f'<p class="stock stock--low">Only {r.randint(1, 5)} left</p>',
                '<p class="stock stock--out">Out of stock</p>',
                "",
            ]
        )
        specs = "".join(
            f'<tr><th scope="row">{title(r, 1, 3)}</th><td>{words(r, 1, 5)}</td></tr>'
            for _ in range(r.randint(3, 30))
        )
        tabs = [
            (
                "Description",
                '<div class="rte">'
                f"{''.join(f'<p>{para(r)}</p>' for _ in range(r.randint(1, 6)))}</div>",
            ),
            (
                "Specifications",
                f'<table class="spec-table table table-sm"><tbody>{specs}</tbody></table>',
            ),
        ]
        main_sheets: list[str] = []
        if r.random() < 0.4:
            main_sheets.append(REVIEW_CSS)
            tabs.append(
                (
                    "Reviews",
                    f'<link rel="stylesheet" href="{escape(REVIEW_CSS)}">'
                    f'<div class="tr-widget" data-tr-product="{pid}" data-tr-theme="light">'
                    "<noscript>Enable JavaScript to see reviews.</noscript></div>",
                )
            )
        elif r.random() < 0.6:
            n = r.randint(0, 50)
            revs = "".join(
                f'<li class="review" id="review-{self.uid(r)}"><div class="rating" '
                f'data-rating="{r.randint(1, 5)}"></div><h3 class="review__title">'
                f"{title(r, 2, 5)}</h3>"
                f'<p class="review__meta">{person(r)} · {date(r, 2021):%d.%m.%Y}</p><p>'
                f"{para(r, 1, 3)}</p></li>"
                for _ in range(n)
            )
            tabs.append(
                (
                    "Reviews",
                    f'<p class="reviews__summary">{n} reviews</p><ol class="review-list '
                    f'list-unstyled">{revs}</ol>'
                    if n
                    else '<p class="reviews__empty">Be the first to review this product.</p>',
                )
            )
        if r.random() < 0.15:
            tabs.append(
                (
                    "Questions & Answers",
                    "".join(
                        f'<details class="qa"><summary>{sentence(r)}</summary><p>'
                        f"{para(r, 1, 2)}</p></details>"
                        for _ in range(r.randint(1, 8))
                    ),
                )
            )
        tabnav = "".join(
            f'<button class="product-tabs__tab{" is-active" if i == 0 else ""}" role="tab" '
            f'aria-controls="{slugify(t)}">{escape(t)}</button>'
            for i, (t, _) in enumerate(tabs)
        )
        panels = "".join(
            f'<section class="product-tabs__panel" id="{ids(t)}" role="tabpanel">'
            f'<h2 class="visually-hidden">{escape(t)}</h2>{b}</section>'
            for t, b in tabs
        )
        extras = [
            self.video(r) if r.random() < 0.2 else "",
            self.product_rail(r, "Related products", "related-products", r.randint(4, 12))
            if r.random() < 0.6
            else "",
            self.promo(r) if r.random() < 0.25 else "",
            self.product_rail(r, "Recently viewed", "recently-viewed", r.randint(1, 6))
            if r.random() < 0.2
            else "",
        ]
        gallery = f'<div class="product__gallery col-md-7 js-gallery">{gal}</div>'
        # A/B test: 12% of visits get the "v2" layout with the gallery after the summary
        ab = r.random() < 0.12
        ld = json.dumps(
            {
                "@context": "https://schema.org",
                "@type": "Product",
                "name": name,
                "sku": f"NW-{pid}",
                "brand": {"@type": "Brand", "name": title(r, 1, 1)},
            }
        )
        main = (
            f'<div class="product container{" product--v2" if ab else ""}" data-product-id="'
            f'{pid}" data-sku="NW-{pid}" data-ab="{"b" if ab else "a"}" itemscope '
            'itemtype="https://schema.org/Product">'
            f'<script type="application/ld+json">{ld}</script><div class="row">'
            f"{'' if ab else gallery}"
            '<div class="product__summary col-md-5"><h1 class="product__title" '
            f'itemprop="name">{escape(name)}</h1>'
            '<p class="product__price" itemprop="offers" itemscope '
            'itemtype="https://schema.org/Offer"><span class="price" itemprop="price">'
            f"{price(r)}</span></p>{stock}"
            '<form class="cart-form" action="/cart/add" method="post">'
            f'<input type="hidden" name="product_id" value="{pid}">{variants}'
            '<div class="cart-form__row d-flex"><input class="form-control qty" '
            'type="number" name="qty" value="1" min="1"><button class="btn btn--primary '
            'btn--lg js-add-to-cart">Add to cart</button></div></form>'
            '<ul class="product__usp list-unstyled"><li>Free delivery from €50</li><li>'
            "30 day returns</li><li>3 year warranty</li></ul></div>"
            f"{gallery if ab else ''}</div>"
            f'<div class="product-tabs" role="tablist">{tabnav}</div>{panels}</div>'
            + "".join(extras)
        )
        crumbs = [
            ("Shop", "/shop/"),
            (cname, f"/shop/{slug}/"),
            (sub, f"/shop/{slug}/{slugify(sub)}/"),
            (name, ""),
        ]
        return Out(
            path,
            name,
            crumbs,
            main,
            "product-template-default single-product woocommerce",
            ["/assets/css/shop.css"],
            main_sheets,
        )

    def t_product_category(self, r: random.Random, k: int) -> Out:
        slug, (cname, subs) = r.choice(list(self.cats.items()))
        sub = r.choice(subs) if r.random() < 0.7 else None
        page = r.choice([1, 1, 1, 2, 3, r.randint(2, 12)])

        def mk() -> str:
            base = f"/shop/{slug}/" + (f"{slugify(sub)}/" if sub else "")
            q = (
                f"?page={page}"
                if page > 1
                else r.choice(
                    [
                        "",
                        "",
                        "",
                        "?sort=price-asc",
                        f"?brand={slugify(title(r, 1, 1))}",
                        "?in_stock=1&sort=rating",
                    ]
                )
            )
            return base + q

        path = self.unique(mk)
        name = sub or cname
        facets = "".join(
            f'<details class="facet" open><summary class="facet__title">{f}</summary>'
            '<ul class="facet__list list-unstyled">'
            + "".join(
                f'<li><label><input type="checkbox" name="{slugify(f)}" value="{slugify(v)}">'
                f' {v} <span class="facet__count">({r.randint(1, 80)})</span></label></li>'
                for v in dict.fromkeys(title(r, 1, 2) for _ in range(r.randint(2, 15)))
            )
            + "</ul></details>"
            for f in r.sample(
                ["Brand", "Price", "Colour", "Power source", "Material", "Rating", "Availability"],
                r.randint(2, 6),
            )
        )
        n = r.choice([0, r.randint(1, 48), 24, 24, 48])
        grid = [self.product_card(r) for _ in range(n)]
        if n > 6 and r.random() < 0.3:
            grid.insert(r.randint(2, 6), f'<li class="product-grid__promo">{self.promo(r)}</li>')
        desc = (
            '<div class="category-intro rte">'
            f"{''.join(f'<p>{para(r)}</p>' for _ in range(r.randint(1, 3)))}</div>"
            if r.random() < 0.5
            else ""
        )
        chips = (
            (
                '<ul class="subcategory-chips list-inline">'
                + "".join(
                    f'<li class="list-inline-item"><a class="chip" href="/shop/{slug}/'
                    f'{slugify(s)}/">{s}</a></li>'
                    for s in subs
                )
                + "</ul>"
            )
            if not sub
            else ""
        )
        body = (
            f'<ul class="product-grid list-unstyled">{"".join(grid)}</ul>'
            if n
            else '<p class="no-results alert alert-info">No products match your selection.</p>'
        )
        main = (
            '<div class="container"><header class="plp-header"><h1 class="plp-header__title">'
            f"{escape(name)}</h1>{desc}{chips}</header>"
            f'<div class="plp row"><aside class="facets col-lg-3">{facets}</aside>'
            '<div class="col-lg-9"><div class="plp-toolbar d-flex">'
            f'<p class="plp-toolbar__count">{n + (page - 1) * 24} products</p>'
            '<select class="form-select" name="sort"><option>Relevance</option><option>'
            "Price: low to high</option><option>Price: high to low</option><option>"
            "Rating</option></select></div>"
            f"{body}"
            f"{self.pagination(path.split('?')[0], page, max(page, r.randint(page, page + 8)))}"
            "</div></div></div>"
        )
        crumbs = [("Shop", "/shop/"), (cname, f"/shop/{slug}/")] + ([(sub, "")] if sub else [])
        return Out(
            path,
            name + (f" – Page {page}" if page > 1 else ""),
            crumbs,
            main,
            f"archive tax-product_cat term-{slugify(name)} woocommerce",
            ["/assets/css/shop.css"],
        )

    def t_product_compare(self, r: random.Random, k: int) -> Out:
        pids = [r.randint(10000, 99999) for _ in range(r.randint(2, 4))]
        path = self.unique(
            lambda: (
                "/shop/compare?ids="
                + "%2C".join(map(str, pids))
                + ("" if r.random() < 0.8 else f"&cat={r.choice(list(self.cats))}")
            )
        )
        head = "".join(
            f'<th scope="col" data-product-id="{p}"><a href="/shop/p/{p}">'
            f"{img(f'/media/products/{p}-1.jpg', '', '', 150, 150)}<span>"
            f'{title(r, 2, 4)}</span></a><span class="price">{price(r)}</span></th>'
            for p in pids
        )
        rows = "".join(
            f'<tr><th scope="row">{title(r, 1, 3)}</th>'
            + "".join(f"<td>{words(r, 1, 3)}</td>" for _ in pids)
            + "</tr>"
            for _ in range(r.randint(5, 35))
        )
        main = (
            '<div class="container"><h1>Compare products</h1><div class="table-responsive">'
            f'<table class="compare-table table"><thead><tr><td></td>{head}</tr></thead><tbody>'
            f"{rows}</tbody></table></div></div>"
        )
        return Out(
            path,
            "Compare products",
            [("Shop", "/shop/"), ("Compare", "")],
            main,
            "",
            ["/assets/css/shop.css"],
        )

    def t_cart(self, r: random.Random, k: int) -> Out:
        path = ["/cart", "/cart?coupon=WELCOME10"][k % 2]
        n = r.randint(0, 8)
        rows = "".join(
            f'<tr class="cart-item" data-product-id="{r.randint(10000, 99999)}"><td>'
            f"{img(f'/media/products/{r.randint(1, 999)}-1.jpg', '', '', 80, 80)}</td><td>"
            f"{title(r, 2, 5)}</td>"
            f'<td><input class="form-control qty" type="number" value="{r.randint(1, 4)}">'
            f'</td><td class="price">{price(r)}</td><td><button class="btn btn--link '
            'js-remove">Remove</button></td></tr>'
            for _ in range(n)
        )
        body = (
            f'<table class="cart-table table"><tbody>{rows}</tbody></table>'
            f'<div class="cart-totals card"><p>Subtotal <span class="price">{price(r)}</span>'
            '</p><a class="btn btn--primary btn--lg" href="/checkout/">Checkout</a></div>'
            if n
            else '<div class="cart-empty"><p>Your cart is empty.</p>'
            '<a class="btn btn--primary" href="/shop/">Continue shopping</a></div>'
        )
        return Out(
            path,
            "Cart",
            [],
            f'<div class="container"><h1>Your cart</h1>{body}</div>'
            + self.product_rail(r, "You might also like", "cross-sell", 4),
            "woocommerce-cart woocommerce-page",
            ["/assets/css/shop.css"],
        )

    def t_search_results(self, r: random.Random, k: int) -> Out:
        q = words(r, 1, 3)
        page = r.choice([1, 1, 1, 2, 3])
        path = self.unique(
            lambda: (
                f"/search?q={q.replace(' ', '+')}"
                + (f"&page={page}" if page > 1 else "")
                + r.choice(["", "", "&type=products", "&type=docs"])
            )
        )
        n = r.choice([0, r.randint(1, 20), 20])
        res = []
        for _ in range(n):
            kind = r.choice(["Product", "Article", "Docs", "Forum"])
            res.append(
                f'<li class="search-result search-result--{kind.lower()}">'
                f'<span class="search-result__type badge">{kind}</span>'
                f'<h2 class="search-result__title"><a href="/{slugify(title(r))}">'
                f"{title(r)}</a></h2>"
                f'<p class="search-result__snippet">{words(r, 8, 20)} <mark>{escape(q)}</mark>'
                f" {words(r, 5, 15)}</p></li>"
            )
        body = (
            f'<ol class="search-results list-unstyled">{"".join(res)}</ol>'
            if n
            else f'<div class="search-empty"><p>No results for “{escape(q)}”.</p><p>'
            f'Did you mean <a href="/search?q={escape(title(r, 1, 1))}">{title(r, 1, 1)}</a>'
            "?</p></div>"
        )
        main = (
            '<div class="container"><h1 class="search-title">'
            f'Search results for “{escape(q)}”</h1><ul class="search-tabs nav nav-tabs">'
            + "".join(
                '<li class="nav-item"><a class="nav-link" href="/search?q='
                f'{q.replace(" ", "+")}&type={t.lower()}">{t}</a></li>'
                for t in ["All", "Products", "Articles", "Docs", "Forum"]
            )
            + f"</ul>{body}{self.pagination('/search', page, page + r.randint(0, 5))}</div>"
        )
        return Out(
            path,
            f"Search: {q}",
            [("Search", "")],
            main,
            "search search-results" if n else "search search-no-results",
        )

    def t_news_article(self, r: random.Random, k: int, press: bool = False) -> Out:
        d = date(r)
        t = title(r, 5, 12)
        pid = r.randint(1000, 60000)
        if press:
            path = self.unique(
                lambda: (
                    f"/news/press-releases/{d:%Y}/{slugify(t)}/"
                    if r.random() < 0.7
                    else f"/press/{slugify(t)}/"
                )
            )
        else:
            path = self.unique(
                lambda: (
                    f"/news/{d:%Y/%m}/{slugify(t)}/"
                    + ("?utm_source=newsletter&utm_medium=email" if r.random() < 0.05 else "")
                )
            )
        ids = Ids()
        author = r.choice(self.authors)
        tags = r.sample(self.tags, r.randint(0, 6))
        secs = self.prose(r, ids, r.randint(2, 8) if not press else r.randint(0, 3))
        lead = f'<p class="lead">{para(r, 2, 3)}</p>'
        if press:
            lead = (
                f'<p class="press-dateline"><strong>{r.choice(CITIES).upper()}, {d:%B %d, %Y}'
                f"</strong> — {para(r, 2, 3)}</p>"
            )
            dl = "".join(
                f'<li><a href="/media/press/{slugify(title(r, 2, 3))}.{e}" download>'
                f"{title(r, 2, 4)} ({e.upper()}, {r.randint(1, 20)} MB)</a></li>"
                for e in r.choices(["pdf", "zip", "jpg"], k=r.randint(0, 6))
            )
            tail = (
                '<section class="press-boilerplate" id="about-northwind-supply"><h2>'
                f"About Northwind Supply</h2><p>{para(r, 3, 4)}</p></section>"
                '<section class="press-contact" id="media-contact"><h2>Media contact</h2><p>'
                f"{person(r)}<br>press@northwind-supply.test<br>"
                f"+49 30 {r.randint(1000000, 9999999)}</p></section>"
                + (
                    f'<section class="press-downloads"><h2>Downloads</h2><ul>{dl}</ul></section>'
                    if dl
                    else ""
                )
                + '<p class="press-end">###</p>'
            )
        else:
            tail = ""
        thumb = (
            '<figure class="post-thumbnail">'
            f"{img(f'/media/news/{pid}.jpg', t, 'wp-post-image', 1200, 630, False)}</figure>"
            if r.random() < 0.8
            else ""
        )
        share = (
            '<div class="share-buttons">'
            + "".join(
                f'<a class="share-buttons__link share-buttons__link--{s}" href="https://{s}'
                f'.example/share?u={ORIGIN}{path}" rel="noopener">{s}</a>'
                for s in ["x", "facebook", "linkedin", "email"]
            )
            + "</div>"
        )
        taglist = (
            (
                '<ul class="tag-list list-inline">'
                + "".join(
                    f'<li class="list-inline-item"><a rel="tag" href="/news/tag/{slugify(x)}'
                    f'/">{x}</a></li>'
                    for x in tags
                )
                + "</ul>"
            )
            if tags
            else ""
        )
        mid = [s for _, s in secs]
        if not press and r.random() < 0.2:
            mid.insert(r.randint(0, len(mid)), self.video(r))
        if not press and r.random() < 0.15:
            mid.insert(r.randint(0, len(mid)), self.gallery(r, r.randint(3, 12)))
        cls = (
            f"post-{pid} {'press_release type-press_release' if press else 'post type-post'} "
            "status-publish format-standard"
            + (" has-post-thumbnail" if thumb else "")
            + "".join(f" tag-{slugify(x)}" for x in tags)
        )
        main = (
            f'<div class="container container--narrow"><article id="post-{pid}" class="{cls}">'
            f'<header class="entry-header"><h1 class="entry-title">{escape(t)}</h1>'
            '<div class="entry-meta"><span class="byline">by <a class="url fn n" '
            f'href="/news/author/{slugify(author)}/">{author}</a></span>'
            f' <time class="entry-date published" datetime="{d.isoformat()}T09:00:00+02:00">'
            f"{d:%B %d, %Y}</time>"
            f' <span class="reading-time">{r.randint(2, 14)} min read</span></div></header>'
            f'{thumb}<div class="entry-content">{lead}{"".join(mid)}{tail}</div>'
            f'<footer class="entry-footer">{taglist}{share}</footer></article>'
        )
        if not press:
            if r.random() < 0.5:
                main += self.author_box(r, author)
            if r.random() < 0.5:
                main += (
                    '<section class="related-posts"><h2>Related articles</h2>'
                    '<div class="teaser-grid">'
                    + "".join(self.teaser(r) for _ in range(r.randint(2, 4)))
                    + "</div></section>"
                )
            if r.random() < 0.35:
                main += self.newsletter(r)
            if r.random() < 0.6:
                n = r.choice([0, r.randint(1, 5), r.randint(1, 20)])
                main += (
                    '<section id="comments" class="comments-area"><h2 class="comments-title">'
                    f"{n} comments</h2>{self.comments(r, n) if n else ''}"
                    '<div id="respond" class="comment-respond"><h3 id="reply-title">'
                    'Leave a reply</h3><form action="/wp-comments-post.php" method="post" '
                    'id="commentform"><textarea id="comment" name="comment" rows="6">'
                    "</textarea>"
                    '<p class="form-submit"><input name="submit" type="submit" '
                    'class="submit" value="Post comment"></p></form></div></section>'
                )
        main += "</div>"
        crumbs = (
            [("News", "/news/")]
            + (
                [("Press releases", "/news/press-releases/")]
                if press
                else [(d.strftime("%Y"), f"/news/{d:%Y}/")]
            )
            + [(t, "")]
        )
        sheets = ["/assets/css/news.css"] + (["/assets/css/press.css"] if press else [])
        return Out(
            path,
            t,
            crumbs,
            main,
            f"single single-post postid-{pid}"
            + (" single-format-standard" if r.random() < 0.5 else ""),
            sheets,
            fonts=["Inter:wght@400;600;700", "Merriweather:ital,wght@0,400;1,400"],
        )

    def t_press_release(self, r: random.Random, k: int) -> Out:
        return self.t_news_article(r, k, press=True)

    def listing(
        self, r: random.Random, base: str, page: int, last: int, header: str, n: int, style: str
    ) -> str:
        items = [self.teaser(r, big=(i == 0 and page == 1 and r.random() < 0.5)) for i in range(n)]
        if n > 4 and r.random() < 0.3:
            items.insert(r.randint(2, n - 1), self.newsletter(r))
        body = (
            f'<div class="teaser-list">{"".join(items)}</div>'
            if n
            else '<p class="no-posts">Nothing found.</p>'
        )
        return (
            f'<div class="container">{header}{body}{self.pagination(base, page, last, style)}</div>'
        )

    def t_news_list(self, r: random.Random, k: int) -> Out:
        kind = r.choice(["main", "main", "year", "category"])
        base = {
            "main": "/news/",
            "year": f"/news/{r.randint(2016, 2025)}/",
            "category": "/news/category/"
            f"{slugify(r.choice(['Company', 'Product news', 'How-to', 'Community', 'Events']))}"
            "/",
        }[kind]
        last = r.randint(3, 60)
        page = 1 if r.random() < 0.1 else r.randint(1, last)
        style = "query" if r.random() < 0.3 else "path"
        path = self.unique(
            lambda: (
                base
                if page == 1
                else (f"{base}?page={page}" if style == "query" else f"{base}page/{page}/")
            )
        )
        name = {"main": "News", "year": f"Archive {base[6:10]}", "category": "Category"}[kind]
        n = 12 if page < last else r.randint(1, 12)
        hdr = f'<header class="archive-header"><h1 class="archive-title">{name}</h1></header>'
        return Out(
            path,
            name + (f" – Page {page}" if page > 1 else ""),
            [("News", "/news/")] if kind != "main" else [("News", "")],
            self.listing(r, base, page, last, hdr, n, style),
            "blog archive" + (" paged" if page > 1 else ""),
            ["/assets/css/news.css"],
        )

    def t_tag_page(self, r: random.Random, k: int) -> Out:
        tag = r.choice(self.tags)
        page = 1 if r.random() < 0.7 else r.randint(2, 6)
        path = self.unique(
            lambda: f"/news/tag/{slugify(tag)}/" + (f"page/{page}/" if page > 1 else "")
        )
        desc = (
            f'<div class="archive-description"><p>{para(r, 1, 3)}</p></div>'
            if r.random() < 0.3
            else ""
        )
        hdr = (
            '<header class="archive-header"><h1 class="archive-title">Tag: <span>'
            f"{escape(tag)}</span></h1>{desc}</header>"
        )
        return Out(
            path,
            f"{tag} Archives",
            [("News", "/news/"), (tag, "")],
            self.listing(
                r,
                f"/news/tag/{slugify(tag)}/",
                page,
                page + r.randint(0, 3),
                hdr,
                r.randint(1, 30),
                "path",
            ),
            f"archive tag tag-{slugify(tag)}" + (" paged" if page > 1 else ""),
            ["/assets/css/news.css"],
        )

    def t_author_profile(self, r: random.Random, k: int) -> Out:
        a = r.choice(self.authors)
        page = 1 if r.random() < 0.6 else r.randint(2, 9)
        path = self.unique(
            lambda: f"/news/author/{slugify(a)}/" + (f"page/{page}/" if page > 1 else "")
        )
        social = "".join(
            f'<li><a href="https://{s}.example/{slugify(a)}" rel="me">{s}</a></li>'
            for s in r.sample(["mastodon", "linkedin", "github", "instagram"], r.randint(0, 4))
        )
        hdr = (
            '<header class="author-header card"><img class="author-header__avatar" '
            f'src="/media/authors/{slugify(a)}.jpg" width="160" height="160" alt="">'
            f'<div><h1 class="author-header__name">{a}</h1><p class="author-header__role">'
            f'{title(r, 1, 3)}</p><p>{para(r, 1, 4)}</p><ul class="author-header__social '
            f'list-inline">{social}</ul></div></header>'
        )
        return Out(
            path,
            a,
            [("News", "/news/"), ("Authors", "/news/authors/"), (a, "")],
            self.listing(
                r,
                f"/news/author/{slugify(a)}/",
                page,
                page + r.randint(0, 4),
                hdr,
                r.randint(0, 20),
                "path",
            ),
            f"archive author author-{slugify(a)}",
            ["/assets/css/news.css"],
        )

    def t_job_listing(self, r: random.Random, k: int) -> Out:
        path = [
            "/careers/",
            "/careers/?department=engineering",
            "/careers/?location=berlin",
            "/careers/teams/sales/",
            "/careers/students/",
        ][k % 5]
        groups = []
        for dep in r.sample(
            [
                "Engineering",
                "Sales",
                "Marketing",
                "Operations",
                "Customer Service",
                "Finance",
                "Logistics",
            ],
            r.randint(1, 6),
        ):
            rows = "".join(
                f'<tr><td><a href="/careers/jobs/{r.randint(1000, 9999)}-'
                f'{slugify(title(r, 2, 4))}/">{title(r, 2, 4)}</a></td><td>'
                f"{r.choice(CITIES)}</td><td>"
                f"{r.choice(['Full-time', 'Part-time', 'Internship'])}</td></tr>"
                for _ in range(r.randint(0, 12))
            )
            groups.append(
                f'<section class="job-group" id="{slugify(dep)}"><h2>{dep}</h2>'
                f'<table class="job-table table"><tbody>{rows}</tbody></table></section>'
            )
        filt = (
            '<form class="job-filters d-flex" method="get"><select name="department" '
            'class="form-select"><option value="">All departments</option></select>'
            '<select name="location" class="form-select"><option value="">All locations</option>'
            '</select><button class="btn btn--secondary">Filter</button></form>'
        )
        main = (
            '<div class="container"><h1>Careers at Northwind</h1><p class="lead">'
            f"{para(r, 1, 2)}</p>{filt}{''.join(groups)}</div>"
        )
        return Out(
            path, "Careers", [("Careers", "")] if k else [], main, "", ["/assets/css/careers.css"]
        )

    def t_job_detail(self, r: random.Random, k: int) -> Out:
        t = title(r, 2, 5)
        jid = 1000 + k
        path = self.unique(
            lambda: (
                f"/careers/jobs/{jid}-{slugify(t)}/"
                + (f"?gh_src={r.getrandbits(24):x}" if r.random() < 0.2 else "")
            )
        )
        city = r.choice(CITIES)
        secs = "".join(
            f'<section class="job-section" id="{slugify(h)}"><h2>{h}</h2>'
            + (
                f"<p>{para(r)}</p>"
                if h in ("About the role", "About us")
                else "<ul>"
                + "".join(f"<li>{words(r, 4, 14)}</li>" for _ in range(r.randint(2, 12)))
                + "</ul>"
            )
            + "</section>"
            for h in [
                "About the role",
                "What you will do",
                "What you bring",
                "Nice to have",
                "What we offer",
                "About us",
            ]
            if h not in ("Nice to have",) or r.random() < 0.5
        )
        ld = json.dumps(
            {
                "@context": "https://schema.org",
                "@type": "JobPosting",
                "title": t,
                "datePosted": date(r, 2024).isoformat(),
                "jobLocation": {"@type": "Place", "address": city},
            }
        )
        main = (
            '<div class="container"><article class="job"><header class="job__header"><h1>'
            f'{escape(t)}</h1><ul class="job__meta list-inline"><li>{city}</li><li>'
            f"{r.choice(['Full-time', 'Part-time'])}</li><li>"
            f"{r.choice(['Engineering', 'Sales', 'Operations'])}</li></ul></header>"
            f'{secs}<a class="btn btn--primary btn--lg" '
            f'href="https://jobs.example-ats.test/northwind/{jid}/apply">Apply now</a>'
            f'</article><script type="application/ld+json">{ld}</script></div>'
        )
        return Out(
            path,
            f"{t} ({city})",
            [("Careers", "/careers/"), (t, "")],
            main,
            "",
            ["/assets/css/careers.css"],
        )

    def t_event_detail(self, r: random.Random, k: int) -> Out:
        d = date(r, 2021, 2026)
        t = title(r, 2, 6)
        path = self.unique(lambda: f"/events/{d:%Y}/{slugify(t)}/")
        agenda = "".join(
            f"<tr><td>{9 + i}:00</td><td>{title(r)}</td><td>{person(r)}</td></tr>"
            for i in range(r.randint(0, 12))
        )
        speakers = "".join(
            f'<li class="speaker"><img src="/media/speakers/{r.randint(1, 500)}.jpg" '
            f'width="120" height="120" alt="" loading="lazy"><h3>{person(r)}</h3><p>'
            f"{title(r, 1, 3)}</p></li>"
            for _ in range(r.randint(0, 12))
        )
        parts = [
            '<div class="event__description">'
            f"{''.join(f'<p>{para(r)}</p>' for _ in range(r.randint(1, 4)))}</div>"
        ]
        if agenda:
            parts.append(
                '<section id="agenda"><h2>Agenda</h2><table class="agenda table">'
                f"{agenda}</table></section>"
            )
        if speakers:
            parts.append(
                '<section id="speakers"><h2>Speakers</h2><ul class="speaker-grid '
                f'list-unstyled">{speakers}</ul></section>'
            )
        if r.random() < 0.5:
            parts.append(
                '<div class="event__map"><iframe src="https://maps.example.test/embed?q='
                f'{r.choice(CITIES)}" loading="lazy" title="Map"></iframe></div>'
            )
        parts.append(
            '<form class="event-register" action="/events/register" method="post">'
            '<input type="email" name="email" required><button class="btn btn--primary">'
            "Register</button></form>"
            if d.year >= 2025
            else '<p class="event__past alert">This event has ended.</p>'
        )
        main = (
            '<div class="container"><article class="event"><header class="event__header">'
            f"{img(f'/media/events/{r.randint(1, 400)}.jpg', t, 'event__hero', 1200, 400, False)}"
            f"<h1>{escape(t)}</h1>"
            f'<p class="event__when"><time datetime="{d.isoformat()}">{d:%A, %d %B %Y}</time>'
            f" · {r.choice(CITIES)}</p></header>{''.join(parts)}</article></div>"
        )
        return Out(
            path,
            t,
            [("Events", "/events/"), (t, "")],
            main,
            "events single-event",
            ["/assets/css/events.css"],
        )

    def t_event_calendar(self, r: random.Random, k: int) -> Out:
        y, m = r.randint(2022, 2026), r.randint(1, 12)
        path = self.unique(
            lambda: (
                "/events/"
                if k == 0
                else f"/events/{y}/{m:02d}/" + ("?view=list" if r.random() < 0.3 else "")
            )
        )
        first = dt.date(y, m, 1)
        cells = []
        for i in range(42):
            day = first + dt.timedelta(days=i - first.weekday())
            ev = "".join(
                f'<a class="cal-event" href="/events/{y}/{slugify(title(r, 2, 4))}/">'
                f"{title(r, 2, 4)}</a>"
                for _ in range(r.choice([0, 0, 0, 1, 2]))
            )
            cells.append(
                f'<td class="cal-day{" cal-day--other" if day.month != m else ""}">'
                f'<span class="cal-day__num">{day.day}</span>{ev}</td>'
                + ("</tr><tr>" if i % 7 == 6 and i < 41 else "")
            )
        main = (
            f'<div class="container"><h1>Events – {first:%B %Y}</h1><nav class="cal-nav">'
            f'<a href="/events/{y}/{max(1, m - 1):02d}/">Previous</a>'
            f'<a href="/events/{y}/{min(12, m + 1):02d}/">Next</a></nav>'
            f'<table class="calendar"><thead><tr>{"".join(f"<th>{d}</th>" for d in WEEKDAYS)}'
            f"</tr></thead><tbody><tr>{''.join(cells)}</tr></tbody></table></div>"
        )
        return Out(
            path,
            f"Events {first:%B %Y}",
            [("Events", "")],
            main,
            "events",
            ["/assets/css/events.css"],
        )

    def t_faq(self, r: random.Random, k: int) -> Out:
        topic = r.choice(
            [
                "Orders",
                "Shipping",
                "Returns",
                "Payment",
                "Warranty",
                "Account",
                "Products",
                "Smart devices",
                "Business customers",
            ]
        )
        path = self.unique(
            lambda: (
                "/help/faq/"
                if k == 0
                else f"/help/faq/{slugify(topic)}/"
                + ("" if r.random() < 0.8 else f"?q={slugify(words(r, 1, 1))}")
            )
        )
        ids = Ids()
        qs = "".join(
            f'<details class="faq-item" id="{ids(q)}"><summary class="faq-item__q">'
            f'{escape(q)}</summary><div class="faq-item__a"><p>{para(r, 1, 4)}</p></div>'
            "</details>"
            for q in (sentence(r).rstrip(".!") + "?" for _ in range(r.randint(3, 40)))
        )
        main = (
            '<div class="container container--narrow"><h1>Frequently asked questions'
            f'{": " + topic if k else ""}</h1><div class="faq-list">{qs}</div><p class="faq-more">'
            'Still stuck? <a href="/contact/support/">Contact support</a>.</p></div>'
        )
        return Out(
            path,
            f"FAQ {topic}",
            [("Help", "/help/faq/"), (topic, "")],
            main,
            f"page page-id-{200 + k} page-template-faq",
            ["/assets/css/help.css"],
        )

    def doc_sidebar(self, prod: str, ver: str, current: str) -> str:
        def walk(nodes: DocTree, prefix: str, lvl: int) -> str:
            out = [f'<ul class="toctree-l{lvl}">']
            for name, kids in nodes:
                href = f"{prefix}{slugify(name)}/"
                cur = " current" if slugify(name) == current else ""
                out.append(
                    f'<li class="toctree-l{lvl}{cur}"><a class="reference internal{cur}" '
                    f'href="{href}">{escape(name)}</a>'
                    f"{walk(kids, href, lvl + 1) if kids else ''}</li>"
                )
            return "".join(out) + "</ul>"

        vers, tree = self.doc_products[prod]
        sel = "".join(f"<option{' selected' if v == ver else ''}>{v}</option>" for v in vers)
        return (
            f'<aside class="docs-sidebar"><div class="docs-sidebar__product">{prod}</div>'
            f'<select class="docs-version form-select" aria-label="Version">{sel}</select>'
            '<nav class="docs-nav" aria-label="Documentation">'
            f"{walk(tree, f'/docs/{prod}/{ver}/', 1)}</nav></aside>"
        )

    def t_docs_article(self, r: random.Random, k: int) -> Out:
        prod = r.choice(list(self.doc_products))
        vers, tree = self.doc_products[prod]
        ver = r.choice(vers)
        sec, kids = r.choice(tree)
        leaf = r.choice(kids)[0] if kids else title(r, 2, 4)
        t = leaf if r.random() < 0.5 else title(r, 2, 6)
        sphinx = prod == "fleet-manager"
        path = self.unique(
            lambda: (
                f"/docs/{prod}/{ver}/{slugify(sec)}/{slugify(t)}"
                + (".html" if sphinx else "/")
                + ("?highlight=" + r.choice(WORDS) if sphinx and r.random() < 0.1 else "")
            )
        )
        ids = Ids()
        toc, body = [], []

        def block() -> str:
            x = r.random()
            if x < 0.5:
                return f"<p>{para(r)}</p>"
            if x < 0.7:
                lines = "\n".join(
                    f'<span class="n">{r.choice(WORDS)}</span><span class="o">=</span>'
                    f'<span class="s2">"{r.choice(WORDS)}"</span>'
                    for _ in range(r.randint(2, 14))
                )
                return (
                    f'<div class="highlight-{r.choice(["python", "bash", "yaml", "json"])} '
                    f'notranslate"><div class="highlight"><pre><span></span>{lines}</pre></div>'
                    "</div>"
                )
            if x < 0.8:
                kind = r.choice(["note", "warning", "tip", "important"])
                return (
                    f'<div class="admonition {kind}"><p class="admonition-title">'
                    f"{kind.capitalize()}</p><p>{para(r, 1, 2)}</p></div>"
                )
            if x < 0.9:
                rows = "".join(
                    f"<tr><td><code>{slugify(words(r, 1, 2))}</code></td><td>"
                    f"{r.choice(['string', 'int', 'bool', 'list'])}</td><td>{sentence(r)}</td>"
                    "</tr>"
                    for _ in range(r.randint(2, 12))
                )
                return (
                    '<table class="docutils align-default"><thead><tr><th>Option</th><th>'
                    f"Type</th><th>Description</th></tr></thead><tbody>{rows}</tbody></table>"
                )
            return (
                "<ol>"
                + "".join(f"<li><p>{sentence(r)}</p></li>" for _ in range(r.randint(2, 8)))
                + "</ol>"
            )

        budget = [r.randint(4, 24)]  # sections per page

        def section(lvl: int, maxlvl: int) -> tuple[str, str]:
            budget[0] -= 1
            h = title(r, 2, 6)
            sid = ids(h)
            inner = "".join(block() for _ in range(r.randint(1, 4)))
            subs = (
                [section(lvl + 1, maxlvl) for _ in range(r.randint(0, 3)) if budget[0] > 0]
                if lvl < maxlvl
                else []
            )
            sub_toc = f"<ul>{''.join(s[0] for s in subs)}</ul>" if subs else ""
            return (
                f'<li><a class="reference internal" href="#{sid}">{escape(h)}</a>{sub_toc}</li>',
                f'<section id="{sid}"><h{lvl}>{escape(h)}<a class="headerlink" href="#{sid}" '
                f'title="Link to this heading">¶</a></h{lvl}>{inner}'
                f"{''.join(s[1] for s in subs)}</section>",
            )

        maxlvl = r.choice([2, 3, 3, 4])
        while budget[0] > 0:
            a, b = section(2, maxlvl)
            toc.append(a)
            body.append(b)
        toc_html = (
            '<nav class="docs-toc" aria-label="On this page"><p class="docs-toc__title">'
            f"On this page</p><ul>{''.join(toc)}</ul></nav>"
            if len(toc) > 1 or r.random() < 0.3
            else ""
        )
        pn = (
            '<nav class="docs-prevnext"><a class="docs-prevnext__prev" rel="prev" href="../'
            f'{slugify(title(r, 2, 3))}/">{title(r, 2, 4)}</a><a class="docs-prevnext__next" '
            f'rel="next" href="../{slugify(title(r, 2, 3))}/">{title(r, 2, 4)}</a></nav>'
        )
        banner = (
            '<div class="docs-version-warning admonition warning"><p>'
            f'You are reading docs for {ver}. <a href="/docs/{prod}/latest/">'
            "Switch to latest</a>.</p></div>"
            if ver != "latest"
            else ""
        )
        main = (
            f'<div class="docs-layout">{self.doc_sidebar(prod, ver, slugify(sec))}<div '
            f'class="docs-content" role="main">{banner}'
            '<article class="document" itemscope itemtype="http://schema.org/Article">'
            f'<section id="{ids(t)}"><h1>{escape(t)}<a class="headerlink" href="#{slugify(t)}'
            '">¶</a></h1>'
            f'<p class="lead">{para(r, 1, 2)}</p>{"".join(body)}</section></article>'
            f'{pn}<p class="docs-edit"><a href="https://git.example.test/northwind/{prod}'
            f'-docs/edit/main/{slugify(sec)}/{slugify(t)}.md">Edit this page</a></p></div>'
            f"{toc_html}</div>"
        )
        sheets = (
            [
                f"{STATIC}/docs/_static/pygments.css",
                f"{STATIC}/docs/_static/docs.css?v={self.build[:6]}",
            ]
            if sphinx
            else ["/assets/css/docs.css"]
        )
        return Out(
            path,
            f"{t} — {prod} {ver}",
            [
                ("Docs", "/docs/"),
                (prod, f"/docs/{prod}/"),
                (sec, f"/docs/{prod}/{ver}/{slugify(sec)}/"),
                (t, ""),
            ],
            main,
            "",
            sheets,
            fonts=["Inter:wght@400;600", "Fira+Code"],
            main_class="site-main--full",
        )

    def t_docs_index(self, r: random.Random, k: int) -> Out:
        prod = r.choice(list(self.doc_products))
        vers, tree = self.doc_products[prod]
        ver = r.choice(vers)
        lvl = r.choice([0, 1, 2, 2, 3]) if k else 0
        sec = r.choice(tree)
        path = self.unique(
            lambda: [
                "/docs/",
                f"/docs/{prod}/",
                f"/docs/{prod}/{ver}/",
                f"/docs/{prod}/{ver}/{slugify(sec[0])}/",
            ][lvl]
        )
        if lvl == 0:
            cards = "".join(
                f'<li class="card docs-card"><a href="/docs/{p}/"><h2 class="h5">{p}</h2><p>'
                f"{sentence(r)}</p></a></li>"
                for p in self.doc_products
            )
            main = (
                '<div class="container"><h1>Documentation</h1><ul class="docs-cards '
                f'list-unstyled">{cards}</ul></div>'
            )
        else:
            nodes = tree if lvl < 3 else sec[1] or [(title(r, 2, 3), [])]
            cards = "".join(
                f'<section class="docs-index__section" id="{slugify(n)}"><h2>'
                f'<a href="{slugify(n)}/">{escape(n)}</a></h2><p>{sentence(r)}</p><ul>'
                + "".join(
                    f'<li><a href="{slugify(n)}/{slugify(c)}/">{escape(c)}</a></li>'
                    for c, _ in kids
                )
                + "</ul></section>"
                for n, kids in nodes
            )
            main = (
                f'<div class="docs-layout">{self.doc_sidebar(prod, ver, "")}<div '
                f'class="docs-content"><h1>{prod} {ver}</h1>{cards}</div></div>'
            )
        return Out(
            path,
            f"{prod} documentation",
            [("Docs", "/docs/")] + ([(prod, "")] if lvl else []),
            main,
            "",
            ["/assets/css/docs.css"],
            fonts=["Inter:wght@400;600"],
        )

    def post(self, r: random.Random, no: int, depth: int) -> str:
        pid = self.uid(r)
        user = f"{r.choice(FIRST).lower()}_{r.choice(WORDS)}{r.randint(1, 99)}"
        d = date(r, 2020)
        badge = (
            f'<span class="user-badge user-badge--{r.choice(["staff", "moderator", "expert"])}'
            f'">{r.choice(["Staff", "Moderator", "Expert"])}</span>'
            if r.random() < 0.1
            else ""
        )
        body = [f"<p>{para(r, 1, 4)}</p>" for _ in range(r.randint(1, 3))]
        if r.random() < 0.15:
            body.insert(
                0,
                f'<aside class="quote" data-username="{r.choice(FIRST).lower()}" data-post="'
                f'{r.randint(1, no + 1)}"><blockquote><p>{sentence(r)}</p></blockquote>'
                "</aside>",
            )
        if r.random() < 0.1:
            body.append(f'<pre><code class="lang-auto">{escape(words(r, 5, 30))}</code></pre>')
        react = (
            '<div class="post-reactions"><button class="reaction" data-reaction="heart">'
            f"❤ {r.randint(1, 40)}</button></div>"
            if r.random() < 0.4
            else ""
        )
        replies = (
            (
                '<div class="post-replies">'
                + "".join(self.post(r, no, depth + 1) for _ in range(r.randint(1, 3)))
                + "</div>"
            )
            if depth < 4 and r.random() < 0.2
            else ""
        )
        return (
            f'<article class="topic-post{" topic-post--reply" if depth else ""}" id="post-'
            f'{pid}" data-post-number="{no}" data-user-id="{r.randint(1, 90000)}">'
            f'<div class="topic-post__avatar"><a href="/community/u/{user}/">'
            f'<img src="/community/user_avatar/{user}/48.png" width="48" height="48" alt="" '
            'loading="lazy"></a></div>'
            '<div class="topic-post__body"><header class="topic-post__meta">'
            f'<a class="username" href="/community/u/{user}/">{user}</a>'
            f'{badge}<time datetime="{d.isoformat()}">{d:%b %d, %Y}</time></header>'
            f'<div class="cooked">{"".join(body)}</div>{react}<button class="btn btn--link '
            f'reply-btn">Reply</button></div>{replies}</article>'
        )

    def t_forum_thread(self, r: random.Random, k: int) -> Out:
        t = sentence(r).rstrip(".!?") + r.choice(["", "?", ""])
        tid = 1000 + k * 3
        page = 1 if r.random() < 0.9 else r.randint(2, 5)
        path = self.unique(
            lambda: (
                f"/community/t/{slugify(t)[:60].strip('-')}/{tid}"
                + (
                    f"?page={page}"
                    if page > 1
                    else (f"/{r.randint(2, 40)}" if r.random() < 0.05 else "")
                )
            )
        )
        cat = r.choice(self.forum_cats)
        solved_html = ' <span class="badge badge--solved">Solved</span>' if r.random() < 0.3 else ""
        posts = "".join(
            self.post(r, i + 1, 0) for i in range(r.choice([1, r.randint(1, 8), r.randint(2, 20)]))
        )
        tags = "".join(
            f'<a class="discourse-tag" href="/community/tag/{slugify(x)}">{x}</a>'
            for x in r.sample(self.tags, r.randint(0, 4))
        )
        pager = (
            self.pagination(path.split("?")[0], page, page + r.randint(0, 2)) if page > 1 else ""
        )
        main = (
            f'<div class="container"><div class="topic" data-topic-id="{tid}">'
            '<header class="topic__header"><h1 class="topic__title">'
            f"{escape(t)}{solved_html}</h1>"
            '<div class="topic__category"><a class="badge-category" href="/community/c/'
            f'{slugify(cat)}/">{cat}</a>{tags}</div></header><div class="topic__posts">'
            f"{posts}</div>"
            f'{pager}<div class="topic__footer"><a class="btn btn--primary" '
            'href="/community/login">Log in to reply</a></div></div></div>'
        )
        return Out(
            path,
            t,
            [("Community", "/community/"), (cat, f"/community/c/{slugify(cat)}/"), (t, "")],
            main,
            "community" + (" archetype-regular" if r.random() < 0.5 else ""),
            ["/assets/css/community.css"],
        )

    def t_forum_index(self, r: random.Random, k: int) -> Out:
        cat = r.choice(self.forum_cats)
        path = self.unique(
            lambda: (
                "/community/"
                if k == 0
                else r.choice(
                    [
                        f"/community/c/{slugify(cat)}/",
                        f"/community/c/{slugify(cat)}/?page={r.randint(2, 30)}",
                        "/community/latest",
                        "/community/top?period=" + r.choice(["weekly", "monthly", "yearly"]),
                    ]
                )
            )
        )

        def avatars(r: random.Random) -> str:
            return "".join(
                f'<img src="/community/user_avatar/u{r.randint(1, 999)}/24.png" width="24" '
                'height="24" alt="">'
                for _ in range(r.randint(1, 5))
            )

        rows = "".join(
            f'<tr class="topic-list-item{" pinned" if i < 2 and r.random() < 0.5 else ""}">'
            f'<td class="main-link"><a class="title" href="/community/t/{slugify(title(r))}/'
            f'{r.randint(1000, 40000)}">{title(r, 3, 9)}</a></td>'
            f'<td class="posters">{avatars(r)}</td><td class="num replies">'
            f'{r.randint(0, 300)}</td><td class="num views">{r.randint(10, 90000)}</td></tr>'
            for i in range(r.randint(0, 50))
        )
        cats = "".join(
            f'<li><a href="/community/c/{slugify(c)}/">{c}</a></li>' for c in self.forum_cats
        )
        main = (
            '<div class="container"><div class="row"><aside class="col-lg-3 community-cats">'
            f'<ul class="list-unstyled">{cats}</ul></aside><div class="col-lg-9"><h1>'
            f"{cat if '/c/' in path else 'Community'}</h1>"
            '<table class="topic-list table"><thead><tr><th>Topic</th><th></th><th>'
            f"Replies</th><th>Views</th></tr></thead><tbody>{rows}</tbody></table></div></div>"
            "</div>"
        )
        return Out(
            path, "Community", [("Community", "")], main, "community", ["/assets/css/community.css"]
        )

    def t_user_profile(self, r: random.Random, k: int) -> Out:
        user = f"{r.choice(FIRST).lower()}_{r.choice(WORDS)}{k}"
        tab = r.choice(["", "", "", "activity", "summary", "badges"])
        path = self.unique(lambda: f"/community/u/{user}/" + (f"{tab}" if tab else ""))
        stats = "".join(
            f'<li class="user-stat"><span class="user-stat__value">{r.randint(0, 5000)}</span>'
            f'<span class="user-stat__label">{s}</span></li>'
            for s in ["days visited", "topics", "posts", "likes received"]
        )
        badges = "".join(
            f'<li class="user-badge user-badge--{r.choice(["bronze", "silver", "gold"])}">'
            f"{title(r, 1, 2)}</li>"
            for _ in range(r.randint(0, 15))
        )
        act = "".join(
            f'<li class="user-activity__item"><a href="/community/t/{slugify(title(r))}/'
            f'{r.randint(1000, 40000)}">{title(r, 3, 8)}</a><p>{words(r, 5, 25)}</p></li>'
            for _ in range(r.randint(0, 30))
        )
        bio = f'<div class="user-bio"><p>{para(r, 1, 3)}</p></div>' if r.random() < 0.4 else ""
        main = (
            '<div class="container"><section class="user-card">'
            f'<img class="user-card__avatar" src="/community/user_avatar/{user}/240.png" '
            f'width="120" height="120" alt=""><h1 class="user-card__name">{user}</h1>'
            f'<p class="user-card__joined">Joined {date(r):%b %Y}</p>{bio}</section>'
            f'<ul class="user-stats list-inline">{stats}</ul><ul class="user-badges '
            f'list-inline">{badges}</ul>'
            '<section class="user-activity"><h2>Recent activity</h2>'
            f'<ul class="list-unstyled">{act}</ul></section></div>'
        )
        return Out(
            path,
            user,
            [("Community", "/community/"), (user, "")],
            main,
            "community user-page",
            ["/assets/css/community.css"],
        )

    def t_campaign_landing(self, r: random.Random, k: int) -> Out:
        name = title(r, 2, 4)
        slug = slugify(name)
        path = self.unique(
            lambda: (
                (f"/lp/{slug}/" if r.random() < 0.7 else f"/{slug}")
                + (
                    "?utm_source="
                    + r.choice(["google", "meta", "newsletter"])
                    + "&utm_campaign="
                    + slug
                    if r.random() < 0.25
                    else ""
                )
            )
        )
        hero = (
            f'<section class="lp-hero lp-hero--{r.choice(["left", "center", "split"])}" '
            f'style="--lp-accent:#{r.getrandbits(24):06x}">'
            f"{img(f'/media/lp/{slug}.jpg', name, 'lp-hero__img', 1600, 700, False)}"
            f'<div class="lp-hero__copy"><h1>{escape(name)}</h1><p>{sentence(r)}</p>'
            f'<a class="btn btn--primary btn--xl" href="/shop/?campaign={slug}">'
            "Shop the offer</a></div></section>"
        )
        blocks: dict[str, Callable[[], str]] = {
            "countdown": lambda: (
                f'<section class="lp-countdown" data-ends="{date(r, 2025, 2026).isoformat()}'
                'T23:59:59Z"><h2>Offer ends in</h2><div class="lp-countdown__clock '
                'js-countdown"></div></section>'
            ),
            "features": lambda: (
                '<section class="lp-features"><div class="row">'
                + "".join(
                    '<div class="col-md-4 lp-feature"><svg class="icon" aria-hidden="true">'
                    f'<use href="/assets/img/icons.svg#{r.choice(WORDS)}"></use></svg><h3>'
                    f"{title(r, 2, 4)}</h3><p>{sentence(r)}</p></div>"
                    for _ in range(r.randint(2, 9))
                )
                + "</div></section>"
            ),
            "testimonials": lambda: (
                '<section class="lp-testimonials js-slider">'
                + "".join(
                    f'<blockquote class="lp-testimonial"><p>{para(r, 1, 2)}</p><footer>'
                    f"{person(r)}, {r.choice(CITIES)}</footer></blockquote>"
                    for _ in range(r.randint(1, 6))
                )
                + "</section>"
            ),
            "pricing": lambda: (
                '<section class="lp-pricing"><div class="row">'
                + "".join(
                    f'<div class="col lp-plan{" lp-plan--featured" if i == 1 else ""}"><h3>'
                    f'{title(r, 1, 2)}</h3><p class="lp-plan__price">{price(r)}</p><ul>'
                    + "".join(f"<li>{words(r, 2, 6)}</li>" for _ in range(r.randint(3, 8)))
                    + "</ul></div>"
                    for i in range(r.randint(2, 4))
                )
                + "</div></section>"
            ),
            "products": lambda: self.product_rail(
                r, title(r, 2, 4), "lp-products", r.randint(3, 12)
            ),
            "video": lambda: self.video(r),
            "faq": lambda: (
                '<section class="lp-faq"><h2>Questions?</h2>'
                + "".join(
                    f"<details><summary>{sentence(r)}</summary><p>{para(r, 1, 2)}</p></details>"
                    for _ in range(r.randint(2, 8))
                )
                + "</section>"
            ),
            "newsletter": lambda: self.newsletter(r),
            "logos": lambda: (
                '<section class="lp-logos"><ul class="list-inline">'
                + "".join(
                    f'<li class="list-inline-item"><img src="/media/logos/{r.randint(1, 80)}'
                    '.svg" height="40" alt=""></li>'
                    for _ in range(r.randint(4, 12))
                )
                + "</ul></section>"
            ),
            "cta": lambda: (
                f'<section class="lp-cta"><h2>{title(r, 3, 6)}</h2>'
                f'<a class="btn btn--light btn--xl" href="/shop/">{title(r, 1, 3)}</a>'
                "</section>"
            ),
            "gallery": lambda: self.gallery(r, r.randint(3, 9)),
            "text": lambda: (
                f'<section class="lp-text rte"><h2 id="{slugify(t := title(r, 2, 5))}">'
                f"{escape(t)}</h2>"
                + "".join(f"<p>{para(r)}</p>" for _ in range(r.randint(1, 4)))
                + "</section>"
            ),
        }
        chosen = r.sample(list(blocks), r.randint(3, 8))
        parts = [blocks[b]() for b in chosen]
        if r.random() < 0.7:
            parts.insert(0, hero)
        else:
            parts.insert(r.randint(0, len(parts)), hero)
        return Out(
            path,
            name,
            [],
            "".join(parts),
            "page-template-landing" if r.random() < 0.8 else f"page page-id-{900 + k}",
            ["/assets/css/landing.css", f"/assets/css/campaigns/{slug}.css"],
            fonts=[
                "Inter:wght@400;800",
                r.choice(["Bebas+Neue", "Oswald:wght@600", "Playfair+Display"]),
            ],
            main_class="site-main--flush",
        )

    def static_page(self, r: random.Random, k: int, path: str, name: str, n: int) -> str:
        ids = Ids()
        secs = self.prose(r, ids, n)
        toc = (
            (
                '<nav class="page-toc"><ol>'
                + "".join(f'<li><a href="#{slugify(h)}">{escape(h)}</a></li>' for h, _ in secs)
                + "</ol></nav>"
            )
            if n > 4 and r.random() < 0.6
            else ""
        )
        return (
            f'<div class="container container--narrow"><article id="post-{100 + k}" '
            'class="page type-page status-publish"><header class="entry-header">'
            f'<h1 class="entry-title">{escape(name)}</h1></header>'
            f'<div class="entry-content">{toc}{"".join(s for _, s in secs)}</div></article></div>'
        )

    def t_legal(self, r: random.Random, k: int) -> Out:
        path, name = LEGAL_PATHS[k % len(LEGAL_PATHS)]
        self.used.add(path)
        crumbs = (
            [
                (
                    "Legal" if path.startswith("/legal/") else "About",
                    path[: path.index("/", 1) + 1],
                ),
                (name, ""),
            ]
            if path.count("/") > 2
            else [(name, "")]
        )
        return Out(
            path,
            name,
            crumbs,
            self.static_page(r, k, path, name, r.randint(3, 14)),
            f"page page-id-{100 + k} page-template-default",
        )

    def t_contact(self, r: random.Random, k: int) -> Out:
        path, name = [
            ("/contact/", "Contact us"),
            ("/contact/sales/", "Contact sales"),
            ("/contact/support/", "Customer support"),
        ][k % 3]
        self.used.add(path)
        fields = "".join(
            f'<div class="mb-3"><label class="form-label" for="f-{slugify(f)}">{f}</label>'
            f'<input class="form-control" id="f-{slugify(f)}" name="{slugify(f)}"></div>'
            for f in ["Name", "Email", "Company", "Phone", "Order number"][: r.randint(2, 5)]
        )
        offices = "".join(
            f'<li class="office"><h3>{c}</h3><address>{title(r, 1, 2)}str. {r.randint(1, 200)}'
            f"<br>{r.randint(10000, 99999)} {c}</address></li>"
            for c in r.sample(CITIES[:-1], r.randint(1, 5))
        )
        main = (
            f'<div class="container"><div class="entry-content"><h1>{name}</h1><p>'
            f'{para(r, 1, 2)}</p><form class="contact-form wpcf7-form" action="/contact/send" '
            f'method="post">{fields}'
            '<div class="mb-3"><label class="form-label" for="f-message">Message</label>'
            '<textarea class="form-control" id="f-message" name="message" rows="6">'
            "</textarea></div>"
            '<button class="btn btn--primary">Send</button></form>'
            f'<ul class="offices list-unstyled">{offices}</ul></div></div>'
        )
        return Out(
            path,
            name,
            [("Contact", "/contact/"), (name, "")] if k else [(name, "")],
            main,
            f"page page-id-{50 + k} page-template-default",
        )

    def t_not_found(self, r: random.Random, k: int) -> Out:
        path = self.unique(
            lambda: (
                r.choice(
                    [
                        "/shop/" + r.choice(list(self.cats)) + "/",
                        "/news/2017/",
                        "/docs/toolhub/0.9/",
                        "/old-shop/",
                        "/community/t/",
                        "/",
                        "/wp-content/uploads/",
                    ]
                )
                + slugify(words(r, 1, 4))
                + r.choice(["", "/", ".html", ".php", "/?ref=old"])
            )
        )
        sugg = "".join(
            f'<li><a href="/shop/{s}/">{n}</a></li>'
            for s, (n, _) in r.sample(list(self.cats.items()), 4)
        )
        main = (
            '<div class="container error-page"><h1 class="error-page__title">'
            "Page not found</h1><p>Sorry, we could not find that page. It may have moved.</p>"
            '<form action="/search" class="error-page__search">'
            '<input type="search" name="q" class="form-control">'
            '<button class="btn btn--primary">Search</button></form>'
            f'<h2>Popular categories</h2><ul class="error-page__links">{sugg}</ul></div>'
        )
        return Out(path, "Page not found", [], main, "error404")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--pages", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=11)
    a = ap.parse_args(argv)
    t0 = time.perf_counter()
    site = Site(a.seed)
    fixed = {t: n for t, n in FIXED.items()}
    rest = max(0, a.pages - sum(fixed.values()))
    tot = sum(MIX.values())
    counts = {t: max(1, round(w / tot * rest)) for t, w in MIX.items()}
    counts["product_detail"] += rest - sum(counts.values())
    counts.update(fixed)
    order = [(t, k) for t, n in counts.items() for k in range(n) if t != "home"]
    random.Random(f"order/{a.seed}").shuffle(order)
    order = [("home", 0), *order][: a.pages]
    hist: dict[str, int] = {}
    with open(a.out, "w", encoding="utf-8") as fh:
        for label, k in order:
            for attempt in range(20):  # re-draw the rare page that would exceed the 60 KB budget
                r = random.Random(f"{a.seed}/{label}/{k}/{attempt}")
                site._uid = r.randint(10_000, 900_000)
                o: Out = getattr(site, "t_" + label)(r, k)
                html, sheets = site.assemble(r, label, o)
                if len(html.encode()) <= 60_000:
                    break
                site.used.discard(o.path)
            url = ORIGIN + o.path
            segs = [s for s in o.path.split("?")[0].split("/") if s]
            fh.write(
                json.dumps(
                    {
                        "id": url,
                        "html": html,
                        "paths": segs,
                        "stylesheetHrefs": sheets,
                        "host": HOST,
                        "label": label,
                    },
                    ensure_ascii=False,
                )
                + "\n"
            )
            hist[label] = hist.get(label, 0) + 1
    print(
        f"wrote {len(order)} pages to {a.out} in {time.perf_counter() - t0:.1f}s", file=sys.stderr
    )
    for t, n in sorted(hist.items(), key=lambda x: -x[1]):
        print(f"{n:6d}  {t}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
