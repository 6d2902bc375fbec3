#!/usr/bin/env python3
"""A labelled synthetic municipal government portal for page-template clustering benchmarks.

    python corpora/municipal_site.py OUT.jsonl [--pages 10000] [--seed 3]

The site is the web portal of a fictional English district council ("Ashworth Borough
Council", ``www.ashworth.gov.uk``): services A-Z and service detail pages, council meeting
agendas and minutes, councillor profiles, planning applications with their status and the
weekly list, news releases, an events calendar and event pages, a library catalogue (book
records and search results), park and facility pages with opening hours, job vacancies,
consultations with survey forms, a community A-Z directory, document download pages, a site
search, a sitemap and error pages. Pages are rendered the way a Drupal site themed with a
GOV.UK-style design system renders them: one shared chrome (header, navigation with the
active section marked, footer), Drupal wrapper divs (``block-*``, ``field--name-*``,
``views-row-N``), ids and classes derived from content, versioned first-party CSS that
differs by section and build, aggregated ``css_*.css`` files, third-party CSS/JS on a random
share of pages, an older un-migrated layout for some pages, optional blocks in varying order,
pagination only on long lists, and look-alike templates that must keep separate labels.

Each output line is one page: ``id`` (absolute URL), ``html``, ``paths`` (URL path segments,
query removed, empty ones dropped), ``stylesheetHrefs`` (absolute hrefs of every
``<link rel=stylesheet>`` in document order), ``host`` and ``label`` (the template that
rendered the page, the ground truth). The home page comes first; the rest is shuffled. The
output is deterministic for a given ``--seed`` and ``--pages``; the per-template mix scales
with ``--pages`` while the one-off templates (home, contact, accessibility statement, sitemap,
404, site search) stay small. A per-label histogram is printed to stderr.

This file was written by a helper from a description of how real public-sector sites behave,
without reading the clustering code, its tests, its docs or the other corpora. Standard
library only.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import html
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

SITE = "Ashworth Borough Council"
HOST = "www.ashworth.gov.uk"
BASE = f"https://{HOST}"
THEME = "/themes/custom/ashworth_gds"
MAX_BYTES = 60_000

# (build id, date) of the theme: pages cached at different times carry different ?v= tokens.
BUILDS = [("r7f3a2c", "2022-11"), ("r91be04", "2023-06"), ("ra0c7d9", "2024-01"),
          ("rb55e13", "2024-05")]

FIRST = ["Jane", "Amir", "Priya", "Tom", "Grace", "Oliver", "Fatima", "David", "Sian", "Liam",
         "Chloe", "Mohammed", "Helen", "Patrick", "Aisha", "Gareth", "Ruth", "Kwame", "Megan",
         "Stuart", "Nadia", "Colin", "Beth", "Imran", "Lucy", "Graham", "Zara", "Neil",
         "Harriet", "Raj", "Eleanor", "Sam"]
LAST = ["Doe", "Khan", "Patel", "Hughes", "Okafor", "Smith", "Jones", "Williams", "Taylor",
        "Brown", "Davies", "Evans", "Wilson", "Thomas", "Roberts", "Johnson", "Walker",
        "Wright", "Robinson", "Thompson", "White", "Hall", "Green", "Lewis", "Clarke",
        "Mensah", "Ahmed", "O'Neill", "Fletcher", "Barker", "Singh", "Murray"]
WARDS = ["Abbey", "Brookside", "Castle", "Dale End", "Eastfield", "Fairholme", "Greenbank",
         "Hillcrest", "Kingsmead", "Langley", "Millbrook", "Northgate", "Oakwood", "Priory",
         "Riverside", "St Marys", "Thornley", "Upperton", "Westcliffe", "Yew Tree"]
PARTIES = ["Labour", "Conservative", "Liberal Democrat", "Green", "Independent"]
STREETS = ["High Street", "Station Road", "Church Lane", "Mill Road", "Park Avenue",
           "Victoria Road", "The Crescent", "Queens Drive", "Manor Way", "Orchard Close",
           "Bridge Street", "London Road", "Meadow View", "Chapel Row", "Elm Grove",
           "Kings Road", "Windmill Hill", "Canal Side", "Market Place", "Forge Lane"]
COMMITTEES = ["Full Council", "Cabinet", "Planning Committee", "Licensing Committee",
              "Audit and Governance Committee", "Overview and Scrutiny Committee",
              "Standards Committee", "Housing Scrutiny Panel", "Environment Scrutiny Panel",
              "Health and Wellbeing Board", "Area Committee North", "Area Committee South"]
SERVICE_CATS: dict[str, list[str]] = {
    "bins-and-recycling": ["Bin collection days", "Report a missed bin", "Order a new bin",
                           "Garden waste subscription", "Bulky waste collection",
                           "Recycling centres", "Clinical waste", "Commercial waste"],
    "council-tax": ["Pay your council tax", "Council tax bands", "Single person discount",
                    "Council tax support", "Moving home", "Set up a direct debit",
                    "Empty property charges", "Appeal your band"],
    "housing": ["Apply for social housing", "Homelessness advice", "Disabled facilities grant",
                "Report a housing disrepair", "Houses in multiple occupation",
                "Private landlord licensing", "Home energy grants"],
    "roads-and-transport": ["Report a pothole", "Blue badge parking", "Parking permits",
                            "Pay a parking fine", "Street lighting faults",
                            "Road closures", "Dropped kerbs", "Winter gritting"],
    "environment": ["Report fly-tipping", "Noise complaints", "Air quality",
                    "Pest control", "Dog fouling", "Graffiti removal", "Contaminated land"],
    "business": ["Business rates", "Food hygiene ratings", "Register a food business",
                 "Licensing", "Street trading", "Market stall hire", "Business grants"],
    "births-deaths-and-marriages": ["Register a birth", "Register a death",
                                    "Book a wedding or civil partnership",
                                    "Order a certificate", "Citizenship ceremonies"],
    "community-and-living": ["Community grants", "Volunteering", "Cost of living support",
                             "Allotments", "Register to vote", "Community safety",
                             "Hate crime reporting"],
    "health-and-social-care": ["Adult social care", "Carers support", "Meals at home",
                               "Telecare alarms", "Mental health support"],
    "schools-and-education": ["School admissions", "Free school meals", "School transport",
                              "Adult learning", "Term dates"],
}
FACILITY_TYPES: dict[str, list[str]] = {
    "parks": ["Park", "Country Park", "Recreation Ground", "Gardens", "Nature Reserve"],
    "leisure-centres": ["Leisure Centre", "Swimming Pool", "Sports Hall"],
    "community-centres": ["Community Centre", "Village Hall", "Youth Centre"],
    "libraries": ["Library", "Community Library"],
    "cemeteries": ["Cemetery", "Crematorium"],
    "car-parks": ["Car Park", "Multi-storey Car Park"],
}
TOPICS = ["budget", "recycling", "housing", "regeneration", "parks", "roads", "libraries",
          "climate", "planning", "leisure", "elections", "business", "festival", "schools",
          "transport", "heritage", "youth", "safety", "health", "town centre"]
_WORD_TEXT = (
    "council residents service local borough support community plan new scheme area "
    "public funding project town improve provide centre work year people help "
    "application information available online contact team health housing access "
    "environment develop park street road report meeting decision consultation review "
    "proposal policy impact business ward district improvement investment maintenance "
    "programme school family children adults safety waste green space facility")
WORDS = _WORD_TEXT.split()
BOOK_A = ["Silent", "Northern", "Hidden", "Last", "Broken", "Golden", "Winter", "Forgotten",
          "Little", "Secret", "Wild", "Lost", "Glass", "Burning", "Quiet", "Paper"]
BOOK_B = ["River", "Garden", "House", "Kingdom", "Island", "Letters", "Orchard", "Shore",
          "Station", "Summer", "Clocks", "Harbour", "Forest", "Daughter", "Lighthouse", "Road"]
GENRES = ["Fiction", "Crime", "Biography", "History", "Science", "Children's fiction",
          "Young adult", "Travel", "Cookery", "Local history", "Poetry", "Graphic novels"]
BRANCHES = ["Central Library", "Brookside Library", "Eastfield Library", "Langley Library",
            "Mobile Library", "Northgate Community Library", "Priory Library"]
JOB_TITLES = ["Planning Officer", "Refuse Collection Operative", "Customer Services Advisor",
              "Environmental Health Officer", "Housing Officer", "Library Assistant",
              "Parks Ranger", "Senior Accountant", "Social Worker", "ICT Support Analyst",
              "Building Control Surveyor", "Lifeguard", "Democratic Services Officer",
              "Community Safety Officer", "Licensing Officer", "Revenues Officer"]
DIRECTORIES = ["Allotment Society", "Bowls Club", "Choir", "Citizens Advice", "Food Bank",
               "Football Club", "Heritage Trust", "Men's Shed", "Parent and Toddler Group",
               "Rotary Club", "Scout Group", "Tenants Association", "Walking Group",
               "Youth Theatre", "Dementia Cafe", "Carers Network", "Cricket Club"]
NAV = [("services", "Services", "/services"), ("council", "Council and democracy", "/council"),
       ("planning", "Planning", "/planning"), ("news", "News", "/news"),
       ("events", "Events", "/events"), ("library", "Libraries", "/library"),
       ("parks", "Parks and leisure", "/parks-and-facilities"), ("jobs", "Jobs", "/jobs"),
       ("consultations", "Have your say", "/consultations")]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
LETTERS = "ABCDEFGHIJKLMNOPRSTUVWY"


def esc(s: str) -> str:
    return html.escape(s, quote=True)


def slugify(s: str) -> str:
    out = []
    for ch in s.lower():
        if ch.isalnum():
            out.append(ch)
        elif out and out[-1] != "-":
            out.append("-")
    return "".join(out).strip("-")


def digest(*parts: object, n: int = 8) -> str:
    return hashlib.sha1("/".join(map(str, parts)).encode()).hexdigest()[:n]


def person(rng: random.Random) -> str:
    return f"{rng.choice(FIRST)} {rng.choice(LAST)}"


def sentence(rng: random.Random, lo: int = 8, hi: int = 22) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(lo, hi))]
    return words[0].capitalize() + " " + " ".join(words[1:]) + "."


def para(rng: random.Random, lo: int = 2, hi: int = 5) -> str:
    return " ".join(sentence(rng) for _ in range(rng.randint(lo, hi)))


def date_str(rng: random.Random, y0: int = 2019, y1: int = 2024) -> tuple[int, int, int, str]:
    y, m, d = rng.randint(y0, y1), rng.randint(1, 12), rng.randint(1, 28)
    return y, m, d, f"{d} {MONTHS[m - 1]} {y}"


def address(rng: random.Random) -> str:
    pc = f"AS{rng.randint(1, 19)} {rng.randint(1, 9)}{rng.choice('ABDEFGHJLNPQRSTUWXYZ')}"
    return f"{rng.randint(1, 180)} {rng.choice(STREETS)}, Ashworth, {pc}"


def phone(rng: random.Random) -> str:
    return f"01632 {rng.randint(100, 999)} {rng.randint(100, 999)}"


# ---------------------------------------------------------------------------------------------
# Page model and the shared chrome
# ---------------------------------------------------------------------------------------------


@dataclass
class Page:
    label: str
    rng: random.Random
    path: str = "/"
    query: str = ""
    title: str = ""
    section: str = ""
    crumbs: list[tuple[str, str]] = field(default_factory=list)
    main: list[str] = field(default_factory=list)
    sidebar: list[str] = field(default_factory=list)
    above: list[str] = field(default_factory=list)
    body_classes: list[str] = field(default_factory=list)
    libraries: list[str] = field(default_factory=list)
    css: list[str] = field(default_factory=list)
    body_css: list[str] = field(default_factory=list)
    scripts: list[str] = field(default_factory=list)
    feedback: bool = False
    legacy: bool = False
    one_column: bool = False
    hero: str = ""
    node: int = 0
    node_type: str = ""

    def para_block(self, n_lo: int = 2, n_hi: int = 5, headings: bool = True) -> str:
        rng = self.rng
        out: list[str] = []
        for k in range(rng.randint(n_lo, n_hi)):
            if headings and k and rng.random() < 0.3:
                out.append(f"<h2>{esc(sentence(rng, 3, 6)[:-1])}</h2>")
            r = rng.random()
            if r < 0.12:
                items = "".join(f"<li>{esc(sentence(rng, 4, 10))}</li>"
                                for _ in range(rng.randint(2, 6)))
                out.append(f"<ul>{items}</ul>")
            elif r < 0.2:
                out.append(f'<p style="text-align:{rng.choice(["left", "justify"])}">'
                           f"{esc(para(rng))}</p>")
            elif r < 0.24:
                out.append(f'<p><strong>{esc(sentence(rng, 4, 9))}</strong></p>')
            else:
                out.append(f"<p>{esc(para(rng))}</p>")
        return "".join(out)


def body_field(p: Page, inner: str, name: str = "body") -> str:
    return (f'<div class="clearfix text-formatted field field--name-{name} '
            f'field--type-text-with-summary field--label-hidden field__item">{inner}</div>')


def build_for(rng: random.Random) -> tuple[str, str]:
    return BUILDS[-1] if rng.random() < 0.6 else rng.choice(BUILDS[:-1])


def add_styles(p: Page) -> None:
    rng = p.rng
    build, _ = build_for(rng)
    css: list[str] = []
    if p.legacy:
        css.append(f"/themes/legacy/ashworth2015/css/style.css?v=2015.{rng.randint(3, 4)}.2")
        css.append("/themes/legacy/ashworth2015/css/print.css?v=2015.4.2")
    elif rng.random() < 0.45:
        # Drupal CSS aggregation: the file name hashes the page's library set and build.
        libs = ",".join(sorted(set(p.libraries)))
        css.append(f"/sites/default/files/css/css_{digest(libs, build, n=22)}.css"
                   f"?delta=0&language=en&theme=ashworth_gds&include={digest(libs, n=12)}")
        if rng.random() < 0.5:
            css.append(f"/sites/default/files/css/css_{digest(build, 'print', n=22)}.css"
                       f"?delta=1&language=en&theme=ashworth_gds")
    else:
        css.append(f"{THEME}/dist/css/govuk-frontend.min.css?v=5.{rng.choice([1, 2, 4])}.0")
        css.append(f"{THEME}/dist/css/base.css?v={build}")
        sect = p.section or "home"
        css.append(f"{THEME}/dist/css/sections/{sect}.css?v={digest(sect, build, n=7)}")
        for lib in p.libraries:
            if rng.random() < 0.8:
                css.append(f"/modules/contrib/{lib}/css/{lib}.theme.css?v={build[1:5]}")
    if rng.random() < 0.2:
        css.append("https://fonts.googleapis.com/css2?family=Lato:wght@400;700&display=swap")
    if rng.random() < 0.12:
        css.append("https://cdn.jsdelivr.net/npm/cookieconsent@3/build/cookieconsent.min.css")
    if rng.random() < 0.15:
        css.append("https://assets.reciteme.com/css/recite-toolbar.css?v=4.2")
        p.scripts.append("https://api.reciteme.com/asset/js?key=7d2f9c1e5a")
    p.css = css + p.css
    if rng.random() < 0.5:
        p.scripts.append("https://www.googletagmanager.com/gtag/js?id=G-ASHW0RTH01")
    if rng.random() < 0.3:
        p.scripts.append("https://siteimproveanalytics.com/js/siteanalyze_6003514.js")
    p.scripts.append(f"/core/assets/vendor/once/once.min.js?v=1.0.{rng.randint(0, 1)}")
    p.scripts.append(f"{THEME}/dist/js/site.js?v={build}")


def link_tag(href: str, media: str = "all") -> str:
    return f'<link rel="stylesheet" media="{media}" href="{esc(href)}">'


def render_header(p: Page) -> str:
    items = []
    for key, name, href in NAV:
        active = key == p.section
        cls = "govuk-header__navigation-item"
        if active:
            cls += " govuk-header__navigation-item--active is-active"
        cur = ' aria-current="page"' if active else ""
        items.append(f'<li class="{cls}"><a class="govuk-header__link" href="{href}"{cur}>'
                     f"{esc(name)}</a></li>")
    return (
        '<header class="govuk-header" role="banner" data-module="govuk-header">'
        '<div class="govuk-header__container govuk-width-container">'
        '<div class="govuk-header__logo"><a href="/" class="govuk-header__link '
        'govuk-header__link--homepage" rel="home"><img src="/themes/custom/ashworth_gds/'
        'logo.svg" alt="Ashworth Borough Council home page" width="160" height="48"></a></div>'
        '<div class="govuk-header__content block block-search" id="block-ashworth-search">'
        '<form action="/search" method="get" class="search-form" role="search">'
        '<label for="edit-keys" class="govuk-visually-hidden">Search this site</label>'
        '<input type="search" id="edit-keys" name="keys" class="govuk-input" size="15">'
        '<button type="submit" class="govuk-button search-button">Search</button></form>'
        '</div></div>'
        '<nav aria-label="Main" class="govuk-header__navigation block block-menu '
        'navigation menu--main" id="block-ashworth-main-menu">'
        '<button type="button" class="govuk-header__menu-button govuk-js-header-toggle" '
        'aria-controls="navigation" hidden>Menu</button>'
        f'<ul id="navigation" class="govuk-header__navigation-list">{"".join(items)}</ul>'
        "</nav></header>"
    )


FOOTER = (
    '<footer class="govuk-footer" role="contentinfo"><div class="govuk-width-container">'
    '<div class="govuk-footer__navigation region region-footer">'
    '<div class="govuk-footer__section block block-menu menu--footer" id="block-footer-menu">'
    '<h2 class="govuk-footer__heading govuk-heading-m">Using this site</h2>'
    '<ul class="govuk-footer__list">'
    '<li class="govuk-footer__list-item"><a class="govuk-footer__link" '
    'href="/accessibility-statement">Accessibility statement</a></li>'
    '<li class="govuk-footer__list-item"><a class="govuk-footer__link" href="/cookies">'
    "Cookies</a></li>"
    '<li class="govuk-footer__list-item"><a class="govuk-footer__link" href="/privacy">'
    "Privacy notice</a></li>"
    '<li class="govuk-footer__list-item"><a class="govuk-footer__link" href="/sitemap">'
    "Sitemap</a></li>"
    '<li class="govuk-footer__list-item"><a class="govuk-footer__link" href="/contact-us">'
    "Contact us</a></li></ul></div>"
    '<div class="govuk-footer__section block block-block-content" id="block-footer-social">'
    '<h2 class="govuk-footer__heading govuk-heading-m">Follow us</h2>'
    '<ul class="govuk-footer__list social-links">'
    '<li><a href="https://www.facebook.com/ashworthcouncil" class="govuk-footer__link">'
    "Facebook</a></li>"
    '<li><a href="https://x.com/ashworthbc" class="govuk-footer__link">X (Twitter)</a></li>'
    '<li><a href="https://www.youtube.com/@ashworthbc" class="govuk-footer__link">YouTube</a>'
    "</li></ul></div></div>"
    '<hr class="govuk-footer__section-break"><div class="govuk-footer__meta">'
    '<p class="govuk-footer__licence-description">All content is available under the '
    '<a class="govuk-footer__link" href="https://www.nationalarchives.gov.uk/doc/open-'
    'government-licence/version/3/" rel="license">Open Government Licence v3.0</a>, '
    "except where otherwise stated</p>"
    '<p class="govuk-footer__copyright">&copy; Ashworth Borough Council, Town Hall, '
    "Market Place, Ashworth AS1 1AA</p></div></div></footer>"
)

COOKIE_BANNER = (
    '<div class="eu-cookie-compliance-banner eu-cookie-compliance-banner-info '
    'govuk-cookie-banner" role="region" aria-label="Cookies on Ashworth Borough Council" '
    'id="sliding-popup" style="bottom:0;"><div class="govuk-width-container popup-content '
    'info eu-cookie-compliance-content"><h2 class="govuk-cookie-banner__heading '
    'govuk-heading-m">Cookies on ashworth.gov.uk</h2><div id="popup-text" '
    'class="eu-cookie-compliance-message"><p class="govuk-body">We use some essential '
    "cookies to make this website work. We would like to set additional cookies to "
    "understand how you use the site and to improve our services.</p></div>"
    '<div id="popup-buttons" class="eu-cookie-compliance-buttons govuk-button-group">'
    '<button type="button" class="agree-button eu-cookie-compliance-default-button '
    'govuk-button">Accept additional cookies</button><button type="button" '
    'class="decline-button eu-cookie-compliance-default-button govuk-button">Reject '
    'additional cookies</button><a class="govuk-link" href="/cookies">View cookies</a>'
    "</div></div></div>"
)


def feedback_widget(p: Page) -> str:
    nid = p.node or int(digest(p.path, n=5), 16)
    return (
        '<div class="block block-webform block-webform-block govuk-!-margin-top-8" '
        'id="block-wasthispageuseful"><div class="page-feedback">'
        f'<form class="webform-submission-form webform-submission-page-feedback-form '
        f'webform-submission-page-feedback-node-{nid}-form" action="{esc(p.path)}" '
        'method="post" id="webform-submission-page-feedback-node-'
        f'{nid}-add-form" accept-charset="UTF-8">'
        '<fieldset class="govuk-fieldset js-form-item form-item"><legend '
        'class="govuk-fieldset__legend govuk-fieldset__legend--s">Was this page useful?'
        '</legend><div class="govuk-radios govuk-radios--inline">'
        '<div class="govuk-radios__item"><input class="govuk-radios__input" type="radio" '
        'id="edit-useful-yes" name="useful" value="yes"><label class="govuk-label '
        'govuk-radios__label" for="edit-useful-yes">Yes</label></div>'
        '<div class="govuk-radios__item"><input class="govuk-radios__input" type="radio" '
        'id="edit-useful-no" name="useful" value="no"><label class="govuk-label '
        'govuk-radios__label" for="edit-useful-no">No</label></div></div></fieldset>'
        '<div class="govuk-form-group js-form-item form-item-comments"><label '
        'class="govuk-label" for="edit-comments">How could we improve this page? (optional)'
        '</label><textarea class="govuk-textarea" id="edit-comments" name="comments" rows="3">'
        '</textarea><div class="govuk-hint">Do not include personal details. We cannot '
        "reply to feedback.</div></div>"
        '<input type="hidden" name="form_build_id" value="form-'
        f'{digest(p.path, p.rng.random(), n=32)}">'
        '<input type="hidden" name="form_id" value="webform_submission_page_feedback_add_form">'
        '<button type="submit" class="govuk-button govuk-button--secondary webform-button--'
        'submit">Send feedback</button></form></div></div>'
    )


def render_crumbs(p: Page) -> str:
    crumbs = [("Home", "/"), *p.crumbs]
    if p.legacy:
        parts = [f'<a href="{esc(h)}">{esc(t)}</a>' for t, h in crumbs]
        return ('<div id="breadcrumb" class="breadcrumb-legacy"><p>You are here: '
                + " &gt; ".join(parts) + "</p></div>")
    lis = "".join(f'<li class="govuk-breadcrumbs__list-item"><a class="govuk-breadcrumbs__link"'
                  f' href="{esc(h)}">{esc(t)}</a></li>' for t, h in crumbs)
    return ('<div class="block block-system block-system-breadcrumb-block" '
            'id="block-ashworth-breadcrumbs"><nav class="govuk-breadcrumbs" '
            f'aria-label="Breadcrumb"><ol class="govuk-breadcrumbs__list">{lis}</ol></nav></div>')


def render(p: Page) -> tuple[str, list[str]]:
    rng = p.rng
    add_styles(p)
    head_css = [link_tag(h, "print" if "print" in h else "all") for h in p.css]
    hrefs = [urljoin(BASE + p.path, h) for h in p.css]
    hrefs += [urljoin(BASE + p.path, h) for h in p.body_css]
    scripts = "".join(f'<script src="{esc(s)}" defer></script>' for s in p.scripts)
    classes = ["path-" + (p.section or "frontpage"), *p.body_classes]
    if p.node_type:
        classes.append(f"page-node-type-{p.node_type}")
        classes.append(f"page-node-{p.node}")
    if p.legacy:
        classes.append("legacy-layout")
    title = f"{p.title} | {SITE}" if p.title else SITE
    out: list[str] = [
        '<!DOCTYPE html>\n<html lang="en" dir="ltr" class="govuk-template no-js">'
        f'<head><meta charset="utf-8"><title>{esc(title)}</title>'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="Generator" content="Drupal 10 (https://www.drupal.org)">'
        f'<link rel="canonical" href="{esc(BASE + p.path)}">'
        '<link rel="icon" href="/themes/custom/ashworth_gds/favicon.ico" '
        'type="image/vnd.microsoft.icon">',
        *head_css,
        '<script>document.documentElement.className=document.documentElement.className'
        '.replace("no-js","js");</script></head>',
        f'<body class="{" ".join(classes)} govuk-template__body">',
        '<a href="#main-content" class="govuk-skip-link visually-hidden focusable skip-link">'
        "Skip to main content</a>",
    ]
    if rng.random() < 0.35:
        out.append(COOKIE_BANNER)
    out.append('<div class="dialog-off-canvas-main-canvas" data-off-canvas-main-canvas>')
    out.append(render_header(p))
    if p.hero:
        out.append(p.hero)
    out.append('<div class="govuk-width-container">')
    if not p.legacy and rng.random() < 0.25:
        out.append('<div class="govuk-phase-banner"><p class="govuk-phase-banner__content">'
                   '<strong class="govuk-tag govuk-phase-banner__content__tag">Beta</strong>'
                   '<span class="govuk-phase-banner__text">This is a new website - your '
                   '<a class="govuk-link" href="/feedback">feedback</a> will help us improve'
                   " it.</span></p></div>")
    if p.crumbs:
        out.append(render_crumbs(p))
    out.append('<main class="govuk-main-wrapper" id="main-content" role="main">')
    out.append('<div class="region region-highlighted"><div data-drupal-messages-fallback '
               'class="hidden"></div></div>')
    out.extend(p.above)
    h1 = f"<h1 class=\"govuk-heading-xl page-title\"><span class=\"field field--name-title\">" \
         f"{esc(p.title)}</span></h1>"
    art_open = (f'<article role="article" about="/node/{p.node}" class="node node--type-'
                f'{p.node_type} node--view-mode-full" id="node-{p.node}">' if p.node else
                '<div class="view-wrapper">')
    art_close = "</article>" if p.node else "</div>"
    content = art_open + "".join(p.main) + art_close
    if p.legacy:
        out.append('<div id="wrapper"><div id="container" class="clearfix">')
        out.append(f'<div id="content-main" class="column-main"><div class="content-inner">'
                   f'<h1 class="page-title">{esc(p.title)}</h1>{content}</div></div>')
        if p.sidebar:
            out.append(f'<div id="sidebar-right" class="column-side">{"".join(p.sidebar)}'
                       "</div>")
        out.append("</div></div>")
    elif p.sidebar and not p.one_column:
        out.append('<div class="govuk-grid-row"><div class="govuk-grid-column-two-thirds '
                   f'region region-content">{h1}{content}</div>'
                   '<div class="govuk-grid-column-one-third"><aside class="region '
                   f'region-sidebar-second" role="complementary">{"".join(p.sidebar)}'
                   "</aside></div></div>")
    else:
        out.append(f'<div class="govuk-grid-row"><div class="govuk-grid-column-full region '
                   f'region-content">{h1}{content}{"".join(p.sidebar)}</div></div>')
    if p.feedback:
        out.append(feedback_widget(p))
    out.append("</main></div>")
    out.append(FOOTER)
    out.append("</div>")
    for bc in p.body_css:
        out.append(link_tag(bc))
    out.append(scripts)
    out.append("</body></html>")
    return "".join(out), hrefs


# ---------------------------------------------------------------------------------------------
# Reusable blocks
# ---------------------------------------------------------------------------------------------


def sidebar_block(bid: str, heading: str, inner: str) -> str:
    return (f'<div class="block block-{bid.split("-")[0]} govuk-!-margin-bottom-6" '
            f'id="block-{bid}"><h2 class="govuk-heading-m block-title">{esc(heading)}</h2>'
            f'<div class="block-content">{inner}</div></div>')


def related_links(p: Page) -> str:
    rng = p.rng
    links = []
    for _ in range(rng.randint(1, 6)):
        cat = rng.choice(list(SERVICE_CATS))
        name = rng.choice(SERVICE_CATS[cat])
        links.append(f'<li><a class="govuk-link" href="/services/{cat}/{slugify(name)}">'
                     f"{esc(name)}</a></li>")
    return sidebar_block("views-block-related-links", "Related pages",
                         f'<ul class="govuk-list related-links">{"".join(links)}</ul>')


def attachments(p: Page, lo: int = 0, hi: int = 6) -> str:
    rng = p.rng
    n = rng.randint(lo, hi)
    if n == 0:
        return ""
    rows = []
    for k in range(n):
        ext = rng.choice(["pdf", "pdf", "pdf", "docx", "xlsx", "odt"])
        name = sentence(rng, 2, 6)[:-1]
        fid = rng.randint(1000, 99999)
        rows.append(f'<div class="field__item views-row views-row-{k + 1}"><span class="file '
                    f'file--mime-application-{ext} file--{ext}"><a href="/sites/default/files/'
                    f'{2018 + rng.randint(0, 6)}-{rng.randint(1, 12):02d}/{slugify(name)}.{ext}"'
                    f' type="application/{ext}" data-fid="{fid}">{esc(name)}</a></span> '
                    f'<span class="file-size">({ext.upper()}, {rng.randint(20, 4000)} KB)</span>'
                    "</div>")
    return ('<div class="field field--name-field-attachments field--type-file '
            'field--label-above attachments"><h2 class="field__label govuk-heading-m">'
            f'Documents</h2><div class="field__items">{"".join(rows)}</div></div>')


def map_block(p: Page, label: str) -> str:
    rng = p.rng
    lat, lon = 52.4 + rng.random() / 10, -1.6 + rng.random() / 10
    if rng.random() < 0.6:
        if "https://unpkg.com/leaflet@1.9.4/dist/leaflet.css" not in p.body_css:
            p.body_css.append("https://unpkg.com/leaflet@1.9.4/dist/leaflet.css")
            p.scripts.append("https://unpkg.com/leaflet@1.9.4/dist/leaflet.js")
        inner = (f'<div class="geolocation-map-wrapper leaflet-map" id="map-{digest(label)}" '
                 f'data-lat="{lat:.5f}" data-lng="{lon:.5f}" data-zoom="{rng.randint(13, 17)}" '
                 'style="height:320px;width:100%"></div>')
    else:
        p.scripts.append("https://maps.googleapis.com/maps/api/js?key=AIzaSyAshworthDemo00"
                         "&callback=initMap")
        inner = (f'<div class="google-map" id="gmap-{digest(label)}" data-lat="{lat:.5f}" '
                 f'data-lng="{lon:.5f}" style="height:300px"></div>')
    return ('<div class="field field--name-field-location field--type-geofield '
            f'field--label-hidden map-block">{inner}<p class="govuk-body-s">'
            f'<a class="govuk-link" href="https://www.openstreetmap.org/?mlat={lat:.4f}'
            f'&amp;mlon={lon:.4f}">View larger map</a></p></div>')


def contact_box(p: Page, team: str) -> str:
    rng = p.rng
    email = slugify(team).replace("-", "") + "@ashworth.gov.uk"
    inner = (f'<dl class="contact-details"><dt>Telephone</dt><dd>{phone(rng)}</dd>'
             f'<dt>Email</dt><dd><a href="mailto:{email}">{email}</a></dd>')
    if rng.random() < 0.5:
        inner += f"<dt>Address</dt><dd>{esc(address(rng))}</dd>"
    inner += "</dl>"
    return sidebar_block(f"contact-{slugify(team)}", f"Contact {team}", inner)


def alert(p: Page) -> str:
    return ('<div class="govuk-notification-banner block block-alert" role="region" '
            'aria-labelledby="govuk-notification-banner-title" id="block-service-alert">'
            '<div class="govuk-notification-banner__header"><h2 class="govuk-notification-'
            'banner__title" id="govuk-notification-banner-title">Important</h2></div>'
            '<div class="govuk-notification-banner__content"><p class="govuk-notification-'
            f'banner__heading">This service is changing</p><p>{esc(para(p.rng, 1, 2))}</p>'
            "</div></div>")


def video_embed(p: Page) -> str:
    vid = digest(p.path, "video", n=11)
    return ('<div class="field field--name-field-video media media--type-remote-video">'
            f'<iframe src="https://www.youtube-nocookie.com/embed/{vid}" width="560" '
            'height="315" title="Video" allowfullscreen style="border:0"></iframe></div>')


def pager(base: str, page: int, total: int, param: str = "page") -> str:
    if total <= 1:
        return ""
    sep = "&amp;" if "?" in base else "?"
    items = []
    if page > 0:
        items.append(f'<li class="pager__item pager__item--previous govuk-pagination__prev">'
                     f'<a href="{base}{sep}{param}={page - 1}" rel="prev">Previous</a></li>')
    lo, hi = max(0, page - 3), min(total, page + 4)
    for k in range(lo, hi):
        cur = ' is-active govuk-pagination__item--current" aria-current="page' if k == page \
            else ""
        items.append(f'<li class="pager__item govuk-pagination__item{cur}">'
                     f'<a href="{base}{sep}{param}={k}">{k + 1}</a></li>')
    if page < total - 1:
        items.append(f'<li class="pager__item pager__item--next govuk-pagination__next">'
                     f'<a href="{base}{sep}{param}={page + 1}" rel="next">Next</a></li>')
    return ('<nav class="pager govuk-pagination" role="navigation" aria-labelledby='
            f'"pagination-heading"><ul class="pager__items js-pager__items">{"".join(items)}'
            "</ul></nav>")


def letter_nav(base: str, current: str) -> str:
    lis = []
    for ch in LETTERS:
        if ch == current:
            lis.append(f'<li class="az-nav__item az-nav__item--current"><span>{ch}</span></li>')
        else:
            lis.append(f'<li class="az-nav__item"><a href="{base}/{ch.lower()}">{ch}</a></li>')
    return f'<nav class="az-nav" aria-label="A to Z"><ol class="az-nav__list">{"".join(lis)}' \
           "</ol></nav>"


def hours_table(p: Page, caption: str = "Opening hours") -> str:
    rng = p.rng
    rows = []
    closed = rng.choice([None, 6, 0])
    for i, day in enumerate(DAYS):
        if i == closed:
            rows.append(f'<tr class="govuk-table__row"><th scope="row" class="govuk-table__'
                        f'header">{day}</th><td class="govuk-table__cell">Closed</td></tr>')
        else:
            o, c = rng.choice([7, 8, 9, 10]), rng.choice([16, 17, 18, 20, 22])
            rows.append(f'<tr class="govuk-table__row"><th scope="row" class="govuk-table__'
                        f'header">{day}</th><td class="govuk-table__cell">{o}:00am to '
                        f"{c - 12}:00pm</td></tr>")
    style = ' style="width:100%"' if rng.random() < 0.3 else ""
    return (f'<table class="govuk-table opening-hours"{style}><caption class="govuk-table__'
            f'caption govuk-table__caption--m">{esc(caption)}</caption><tbody '
            f'class="govuk-table__body">{"".join(rows)}</tbody></table>')


def fees_table(p: Page) -> str:
    rng = p.rng
    rows = "".join(f'<tr class="govuk-table__row"><td class="govuk-table__cell">'
                   f'{esc(sentence(rng, 2, 5)[:-1])}</td><td class="govuk-table__cell '
                   f'govuk-table__cell--numeric">&pound;{rng.randint(5, 400)}.'
                   f'{rng.choice(["00", "50", "75"])}</td></tr>'
                   for _ in range(rng.randint(2, 9)))
    return ('<table class="govuk-table fees-table"><caption class="govuk-table__caption">'
            f"Fees and charges {rng.randint(2023, 2025)} to {rng.randint(2025, 2026)}</caption>"
            '<thead class="govuk-table__head"><tr class="govuk-table__row"><th scope="col" '
            'class="govuk-table__header">Item</th><th scope="col" class="govuk-table__header '
            'govuk-table__header--numeric">Fee</th></tr></thead>'
            f'<tbody class="govuk-table__body">{rows}</tbody></table>')


def taxonomy_tags(p: Page, terms: list[str]) -> str:
    items = "".join(f'<div class="field__item"><a href="/taxonomy/term/{int(digest(t, n=3), 16)}"'
                    f' class="taxonomy-term-{int(digest(t, n=3), 16)} govuk-tag" hreflang="en">'
                    f"{esc(t)}</a></div>" for t in terms)
    return ('<div class="field field--name-field-tags field--type-entity-reference '
            f'field--label-inline"><div class="field__label">Topics</div><div class="field__'
            f'items">{items}</div></div>')


def ordered_blocks(p: Page, blocks: list[str]) -> list[str]:
    out = [b for b in blocks if b]
    p.rng.shuffle(out)
    return out


# ---------------------------------------------------------------------------------------------
# Template renderers: each fills one Page
# ---------------------------------------------------------------------------------------------


def t_home(p: Page, i: int, n: int) -> None:
    rng = p.rng
    p.path, p.title, p.section = "/", "Welcome to Ashworth Borough Council", ""
    p.body_classes.append("front")
    p.hero = ('<div class="hero-banner" style="background-image:url(/sites/default/files/hero/'
              'market-place.jpg)"><div class="govuk-width-container"><h2 class="hero-banner__'
              'title">Find information and services</h2></div></div>')
    tiles = "".join(
        f'<li class="service-tile views-row views-row-{k + 1}"><h3 class="govuk-heading-s">'
        f'<a href="/services/{c}">{esc(c.replace("-", " ").capitalize())}</a></h3><p>'
        + ", ".join(esc(s) for s in SERVICE_CATS[c][:3]) + "</p></li>"
        for k, c in enumerate(SERVICE_CATS))
    news = "".join(f'<li class="views-row views-row-{k + 1}"><a href="/news/2024/0{k + 1}/'
                   f'{slugify(sentence(rng, 3, 6))}">{esc(sentence(rng, 5, 9)[:-1])}</a></li>'
                   for k in range(4))
    p.main += [f'<div class="block block-views block-views-blockservice-tiles" id="block-'
               f'top-tasks"><ul class="service-tiles">{tiles}</ul></div>',
               '<div class="block block-views block-views-blocknews-latest" id="block-views-'
               f'block-news-latest"><h2 class="govuk-heading-l">Latest news</h2><ul '
               f'class="govuk-list">{news}</ul></div>', video_embed(p)]
    p.libraries += ["views", "media"]


def t_contact(p: Page, i: int, n: int) -> None:
    p.path, p.title, p.section = "/contact-us", "Contact us", ""
    p.crumbs = []
    p.node, p.node_type = 12, "page"
    p.main += [body_field(p, p.para_block(2, 3, False)), hours_table(p, "Customer service "
               "centre opening hours"), map_block(p, "town-hall")]
    p.sidebar += [contact_box(p, "Customer Services")]
    p.feedback = True


def t_accessibility(p: Page, i: int, n: int) -> None:
    p.path, p.title, p.section = "/accessibility-statement", "Accessibility statement", ""
    p.node, p.node_type = 14, "page"
    p.crumbs = []
    sections = "".join(f"<h2>{esc(h)}</h2>{p.para_block(1, 3, False)}" for h in [
        "How accessible this website is", "Feedback and contact information",
        "Enforcement procedure", "Technical information about accessibility",
        "Non-accessible content", "What we are doing to improve accessibility"])
    p.main += [body_field(p, sections)]
    p.feedback = True


def t_sitemap(p: Page, i: int, n: int) -> None:
    p.path, p.title, p.section = "/sitemap", "Sitemap", ""
    blocks = []
    for key, name, href in NAV:
        subs = ""
        if key == "services":
            subs = "".join(f'<li><a href="/services/{c}">{esc(c.replace("-", " "))}</a></li>'
                           for c in SERVICE_CATS)
        blocks.append(f'<li class="sitemap-menu-item"><a href="{href}">{esc(name)}</a>'
                      f'<ul class="sitemap-menu-level-2">{subs}</ul></li>')
    p.main.append(f'<div class="sitemap"><ul class="sitemap-menu">{"".join(blocks)}</ul></div>')


def t_not_found(p: Page, i: int, n: int) -> None:
    rng = p.rng
    p.path = rng.choice(["/services/", "/news/", "/old-site/", "/documents/", "/"]) + \
        slugify(sentence(rng, 2, 4)) + rng.choice(["", ".aspx", ".htm", "/"])
    p.title, p.section = "Page not found", ""
    p.body_classes.append("page-404")
    p.main.append('<div class="govuk-body"><p>If you typed the web address, check it is '
                  'correct.</p><p>If you pasted the web address, check you copied the entire '
                  'address.</p><p>You can <a class="govuk-link" href="/search">search the '
                  'site</a> or browse <a class="govuk-link" href="/services">our services</a>.'
                  "</p></div>")


def search_result_list(p: Page, count: int, kind: str) -> str:
    rng = p.rng
    rows = []
    for k in range(count):
        cat = rng.choice(list(SERVICE_CATS))
        name = rng.choice(SERVICE_CATS[cat])
        rows.append(f'<li class="search-result views-row views-row-{k + 1}"><h3 class="'
                    f'govuk-heading-s search-result__title"><a href="/services/{cat}/'
                    f'{slugify(name)}">{esc(name)}</a></h3><p class="search-result__snippet">'
                    f"{esc(sentence(rng, 10, 24))}</p><p class=\"search-result__meta "
                    f'govuk-body-s">{kind}</p></li>')
    return f'<ol class="search-results govuk-list">{"".join(rows)}</ol>'


def t_site_search(p: Page, i: int, n: int) -> None:
    rng = p.rng
    q = rng.choice([*TOPICS, "bin day", "council tax", "parking permit", "jobs"])
    page = 0 if i < 4 else rng.randint(1, 4)
    p.path, p.query = "/search", f"keys={q.replace(' ', '+')}" + (f"&page={page}" if page
                                                                   else "")
    p.title, p.section = "Search results", ""
    total = rng.choice([0, 3, 12, 45, 130])
    count = min(10, max(0, total - page * 10))
    form = ('<form class="search-form search-page-form" action="/search" method="get">'
            '<div class="govuk-form-group"><label class="govuk-label" for="edit-keys--2">'
            f'Search</label><input class="govuk-input" type="search" id="edit-keys--2" '
            f'name="keys" value="{esc(q)}"></div><button class="govuk-button">Search</button>'
            "</form>")
    p.main.append(form)
    if count == 0:
        p.main.append('<div class="search-no-results"><h2>Your search yielded no results'
                      "</h2></div>")
    else:
        p.main.append(f'<p class="search-count">{total} results</p>')
        p.main.append(search_result_list(p, count, "Page"))
        p.main.append(pager(f"/search?keys={q.replace(' ', '+')}", page, (total + 9) // 10))
    p.libraries += ["search_api"]


def t_services_az(p: Page, i: int, n: int) -> None:
    rng = p.rng
    letter = LETTERS[i % len(LETTERS)]
    p.path = f"/services/a-z/{letter.lower()}"
    p.title, p.section = f"Services A to Z: {letter}", "services"
    p.crumbs = [("Services", "/services"), ("A to Z", "/services/a-z")]
    names = sorted({f"{letter}{rng.choice(WORDS)} {rng.choice(WORDS)}".capitalize()
                    for _ in range(rng.choice([1, 2, 4, 9, 18, 35, 60]))})
    rows = "".join(f'<li class="views-row views-row-{k + 1} az-list__item"><a '
                   f'href="/services/{rng.choice(list(SERVICE_CATS))}/{slugify(s)}">'
                   f"{esc(s)}</a></li>" for k, s in enumerate(names))
    p.main += [letter_nav("/services/a-z", letter),
               f'<div class="view view-services-a-z view-id-services_a_z view-display-id-'
               f'page_1"><div class="view-content"><h2 class="govuk-heading-l az-letter" '
               f'id="letter-{letter.lower()}">{letter}</h2><ul class="govuk-list az-list">{rows}'
               "</ul></div></div>"]
    p.feedback = True
    p.libraries += ["views"]


def t_directory_az(p: Page, i: int, n: int) -> None:
    rng = p.rng
    letter = LETTERS[i % len(LETTERS)]
    page = i // len(LETTERS)
    p.path = f"/directory/{letter.lower()}"
    if page:
        p.query = f"page={page}"
    p.title, p.section = f"Community directory: {letter}", "services"
    p.crumbs = [("Community directory", "/directory")]
    count = rng.choice([1, 3, 7, 15, 25]) if page == 0 else rng.randint(1, 25)
    rows = []
    for k in range(count):
        org = f"{letter}{rng.choice(WORDS)} {rng.choice(DIRECTORIES)}".title()
        extra = (f'<span class="directory-entry__phone">{phone(rng)}</span>'
                 if rng.random() < 0.6 else "")
        rows.append(f'<li class="views-row views-row-{k + 1} az-list__item directory-entry">'
                    f'<a href="/directory/entry/{slugify(org)}">{esc(org)}</a>'
                    f' {extra}</li>')
    p.main += [letter_nav("/directory", letter),
               '<div class="view view-directory-a-z view-id-directory_a_z view-display-id-'
               f'page_1"><div class="view-content"><h2 class="govuk-heading-l az-letter" '
               f'id="letter-{letter.lower()}">{letter}</h2><ul class="govuk-list az-list">'
               f'{"".join(rows)}</ul></div>'
               f"{pager(f'/directory/{letter.lower()}', page, page + 2 if page else 1)}"
               "</div>"]
    p.libraries += ["views"]


def service_name(rng: random.Random, i: int) -> tuple[str, str]:
    cats = list(SERVICE_CATS)
    cat = cats[i % len(cats)]
    base = SERVICE_CATS[cat][(i // len(cats)) % len(SERVICE_CATS[cat])]
    k = i // (len(cats) * 5)
    if k:
        base = f"{base} {rng.choice(['in', 'for', 'near', 'at'])} {rng.choice(WARDS)}"
    return cat, base


def t_service_detail(p: Page, i: int, n: int) -> None:
    rng = p.rng
    cat, name = service_name(rng, i)
    p.node, p.node_type = 20000 + i * 3, "service"
    p.legacy = rng.random() < 0.22
    p.one_column = not p.legacy and rng.random() < 0.3
    p.title, p.section = name, "services"
    catname = cat.replace("-", " ").capitalize()
    if rng.random() < 0.35:
        sub = rng.choice(["advice", "apply", "report", "pay"])
        p.path = f"/services/{cat}/{sub}/{slugify(name)}"
        p.crumbs = [("Services", "/services"), (catname, f"/services/{cat}"),
                    (sub.capitalize(), f"/services/{cat}/{sub}")]
    else:
        p.path = f"/services/{cat}/{slugify(name)}"
        p.crumbs = [("Services", "/services"), (catname, f"/services/{cat}")]
    if rng.random() < 0.12:
        p.above.append(alert(p))
    summary = f'<p class="govuk-body-l lede">{esc(sentence(rng, 10, 20))}</p>'
    main = [summary, body_field(p, p.para_block(2, 7))]
    if rng.random() < 0.4:
        main.append(fees_table(p))
    if rng.random() < 0.55:
        main.append(f'<a href="/form/{slugify(name)}" role="button" draggable="false" class='
                    '"govuk-button govuk-button--start" data-module="govuk-button">Start now'
                    "</a>")
    if rng.random() < 0.15:
        main.append(map_block(p, name))
    main.append(attachments(p, 0, 3))
    p.main += main
    p.main.append(taxonomy_tags(p, [catname, *rng.sample(TOPICS, rng.randint(0, 2))]))
    p.sidebar += ordered_blocks(p, [
        related_links(p) if rng.random() < 0.7 else "",
        contact_box(p, rng.choice(["Customer Services", catname + " team"]))
        if rng.random() < 0.6 else ""])
    p.feedback = not p.legacy
    p.libraries += ["field_group"] + (["geolocation"] if rng.random() < 0.1 else [])


def t_facility(p: Page, i: int, n: int) -> None:
    rng = p.rng
    ftype = list(FACILITY_TYPES)[i % len(FACILITY_TYPES)]
    name = f"{rng.choice(WARDS)} {rng.choice(FACILITY_TYPES[ftype])}"
    if i >= 40:
        name = f"{rng.choice(STREETS).split()[0]} {name}"
    p.node, p.node_type = 30000 + i * 2, "facility"
    p.title, p.section = name, "parks"
    p.path = f"/parks-and-facilities/{ftype}/{slugify(name)}"
    tname = ftype.replace("-", " ").capitalize()
    p.crumbs = [("Parks and leisure", "/parks-and-facilities"),
                (tname, f"/parks-and-facilities/{ftype}")]
    p.one_column = rng.random() < 0.3
    if rng.random() < 0.45:
        p.hero = ('<div class="hero-banner facility-hero" style="background-image:url(/sites/'
                  f'default/files/styles/hero/public/{slugify(name)}.jpg)"></div>')
    if rng.random() < 0.08:
        p.above.append(alert(p))
    p.main.append(f'<p class="govuk-body-l lede">{esc(sentence(rng, 10, 20))}</p>')
    p.main.append(body_field(p, p.para_block(1, 4)))
    p.main.append(hours_table(p))
    p.main.append(f'<div class="field field--name-field-address"><h2 class="govuk-heading-m">'
                  f"Address</h2><p>{esc(address(rng))}</p></div>")
    facil = rng.sample(["Toilets", "Cafe", "Parking", "Play area", "Baby changing",
                        "Accessible entrance", "Changing places toilet", "Wi-Fi", "Bike racks"],
                       rng.randint(0, 6))
    if facil:
        p.main.append('<div class="field field--name-field-amenities"><h2 class="govuk-heading'
                      '-m">Facilities</h2><ul class="govuk-list govuk-list--bullet">'
                      + "".join(f"<li>{f}</li>" for f in facil) + "</ul></div>")
    if rng.random() < 0.35:
        p.main.append(fees_table(p))
    if rng.random() < 0.7:
        p.main.append(map_block(p, name))
    p.main.append(attachments(p, 0, 2))
    p.sidebar += ordered_blocks(p, [contact_box(p, tname) if rng.random() < 0.7 else "",
                                    related_links(p) if rng.random() < 0.5 else ""])
    p.feedback = True
    p.libraries += ["geolocation", "office_hours"]


def meeting_facts(p: Page, i: int) -> tuple[str, str, int, int, int, str]:
    # Committee i % 12 meets every few weeks, counting back from December 2024.
    com = COMMITTEES[i % len(COMMITTEES)]
    rng = random.Random(f"meeting/{i % len(COMMITTEES)}")
    gap = rng.choice([14, 21, 28, 35, 42])
    day = datetime.date(2024, 12, 10) - datetime.timedelta(
        days=(i // len(COMMITTEES)) * gap + rng.randint(0, 6))
    ds = f"{day.day} {MONTHS[day.month - 1]} {day.year}"
    return com, slugify(com), day.year, day.month, day.day, ds


def meeting_common(p: Page, i: int, kind: str) -> tuple[str, int]:
    rng = p.rng
    com, cslug, y, m, d, ds = meeting_facts(p, i)
    p.section = "council"
    p.path = f"/council/meetings/{cslug}/{y}-{m:02d}-{d:02d}/{kind}"
    p.title = f"{com}, {ds}: {kind}"
    p.crumbs = [("Council and democracy", "/council"), ("Meetings", "/council/meetings"),
                (com, f"/council/meetings/{cslug}")]
    if rng.random() < 0.4:
        p.crumbs.append((str(y), f"/council/meetings/{cslug}/{y}"))
    p.node, p.node_type = 40000 + i * 2 + (kind == "minutes"), "meeting"
    start = rng.choice(["6.00pm", "7.00pm", "10.00am", "2.00pm"])
    meta = ('<dl class="govuk-summary-list meeting-details">'
            f'<div class="govuk-summary-list__row"><dt class="govuk-summary-list__key">Date'
            f'</dt><dd class="govuk-summary-list__value">{ds}</dd></div>'
            '<div class="govuk-summary-list__row"><dt class="govuk-summary-list__key">Time</dt>'
            f'<dd class="govuk-summary-list__value">{start}</dd></div>'
            '<div class="govuk-summary-list__row"><dt class="govuk-summary-list__key">Venue</dt>'
            '<dd class="govuk-summary-list__value">Council Chamber, Town Hall</dd></div>'
            '<div class="govuk-summary-list__row"><dt class="govuk-summary-list__key">Contact'
            f'</dt><dd class="govuk-summary-list__value">{esc(person(rng))}, Democratic '
            "Services</dd></div></dl>")
    p.main.append(meta)
    nitems = rng.randint(3, 18)
    return com, nitems


def agenda_items_table(p: Page, nitems: int, minutes: bool) -> str:
    rng = p.rng
    rows = []
    for k in range(nitems):
        title = rng.choice(["Apologies for absence", "Declarations of interest",
                            "Public questions", "Petitions", "Exclusion of the public"]) \
            if k < 2 else sentence(rng, 3, 8)[:-1]
        extra = ""
        if minutes:
            extra = (f'<td class="govuk-table__cell"><p class="resolution"><strong>RESOLVED'
                     f"</strong> {esc(sentence(rng, 8, 20))}</p></td>")
        else:
            docs = "".join(f'<a class="govuk-link" href="/documents/{rng.randint(1000, 99999)}'
                           f'/report">Report {k + 1}.{j + 1}</a> ' for j in
                           range(rng.randint(0, 2)))
            extra = f'<td class="govuk-table__cell">{docs}</td>'
        rows.append(f'<tr class="govuk-table__row agenda-item" id="item-{k + 1}"><td '
                    f'class="govuk-table__cell">{k + 1}.</td><td class="govuk-table__cell">'
                    f"{esc(title)}</td>{extra}</tr>")
    head = "Decision" if minutes else "Papers"
    return ('<table class="govuk-table agenda-items"><thead class="govuk-table__head"><tr '
            'class="govuk-table__row"><th class="govuk-table__header" scope="col">Item</th>'
            '<th class="govuk-table__header" scope="col">Title</th><th class="govuk-table__'
            f'header" scope="col">{head}</th></tr></thead><tbody class="govuk-table__body">'
            f'{"".join(rows)}</tbody></table>')


def t_agenda(p: Page, i: int, n: int) -> None:
    rng = p.rng
    _com, nitems = meeting_common(p, i, "agenda")
    p.main.append('<div class="meeting-status"><strong class="govuk-tag govuk-tag--blue">'
                  f'{rng.choice(["Agenda published", "Supplementary agenda", "Rescheduled"])}'
                  "</strong></div>")
    if rng.random() < 0.5:
        p.main.append('<div class="govuk-inset-text public-speaking">Members of the public can '
                      'register to speak at this meeting. <a href="/council/public-speaking">'
                      "How to register</a></div>")
    p.main.append(agenda_items_table(p, nitems, False))
    p.main.append(attachments(p, 1, 4))
    if rng.random() < 0.3:
        p.main.append(video_embed(p))
    p.sidebar.append(sidebar_block("meeting-links", "This meeting", '<ul class="govuk-list">'
                                   f'<li><a href="{p.path[:-6]}minutes">Minutes</a></li>'
                                   '<li><a href="/council/meetings/calendar">Meetings calendar'
                                   "</a></li></ul>"))
    p.libraries += ["views"]


def t_minutes(p: Page, i: int, n: int) -> None:
    rng = p.rng
    _com, nitems = meeting_common(p, i, "minutes")
    p.main.append('<div class="meeting-status"><strong class="govuk-tag govuk-tag--green">'
                  f'{rng.choice(["Minutes approved", "Draft minutes", "Minutes published"])}'
                  "</strong></div>")
    present = ", ".join(f"Cllr {person(rng)}" for _ in range(rng.randint(3, 14)))
    p.main.append(f'<div class="attendance"><h2 class="govuk-heading-m">Present</h2><p>'
                  f"{esc(present)}</p><h3 class=\"govuk-heading-s\">Apologies</h3><p>"
                  f"Cllr {esc(person(rng))}</p></div>")
    p.main.append(agenda_items_table(p, nitems, True))
    p.main.append(attachments(p, 0, 2))
    p.sidebar.append(sidebar_block("meeting-links", "This meeting", '<ul class="govuk-list">'
                                   f'<li><a href="{p.path[:-7]}agenda">Agenda</a></li>'
                                   '<li><a href="/council/meetings/calendar">Meetings calendar'
                                   "</a></li></ul>"))
    p.libraries += ["views"]


def councillor(i: int) -> tuple[str, str, str]:
    rng = random.Random(f"councillor/{i}")
    return (f"{FIRST[i % len(FIRST)]} {LAST[(i * 3 + (i // len(FIRST)) * 7) % len(LAST)]}",
            WARDS[i % len(WARDS)], PARTIES[rng.randint(0, len(PARTIES) - 1)])


def t_councillor(p: Page, i: int, n: int) -> None:
    rng = p.rng
    name, ward, party = councillor(i)
    slug = slugify(name)
    p.path, p.title, p.section = f"/council/councillors/{slug}", f"Councillor {name}", "council"
    p.crumbs = [("Council and democracy", "/council"), ("Councillors", "/council/councillors")]
    p.node, p.node_type = 50000 + i, "councillor"
    p.body_classes.append(f"councillor-{slug}")
    roles = "".join(f"<li>{esc(c)}</li>" for c in rng.sample(COMMITTEES, rng.randint(1, 5)))
    p.main.append(f'<div class="councillor-profile" id="councillor-{slug}">'
                  f'<img class="councillor-photo" src="/sites/default/files/councillors/{slug}'
                  f'.jpg" alt="{esc(name)}" width="180" height="220" style="float:right">'
                  '<dl class="govuk-summary-list"><div class="govuk-summary-list__row"><dt '
                  'class="govuk-summary-list__key">Ward</dt><dd class="govuk-summary-list__'
                  f'value"><a href="/council/wards/{slugify(ward)}">{esc(ward)}</a></dd></div>'
                  '<div class="govuk-summary-list__row"><dt class="govuk-summary-list__key">'
                  f'Party</dt><dd class="govuk-summary-list__value party-{slugify(party)}">'
                  f"{esc(party)}</dd></div>"
                  '<div class="govuk-summary-list__row"><dt class="govuk-summary-list__key">'
                  'Email</dt><dd class="govuk-summary-list__value"><a href="mailto:cllr.'
                  f'{slug}@ashworth.gov.uk">cllr.{slug}@ashworth.gov.uk</a></dd></div></dl>'
                  f'<h2 class="govuk-heading-m">Committees</h2><ul class="govuk-list">{roles}'
                  "</ul></div>")
    if rng.random() < 0.6:
        p.main.append(body_field(p, p.para_block(1, 3, False), "field-biography"))
    if rng.random() < 0.5:
        surgeries = "".join(f'<tr class="govuk-table__row"><td class="govuk-table__cell">'
                            f'{date_str(rng, 2024, 2024)[3]}</td><td class="govuk-table__cell">'
                            f"{esc(rng.choice(BRANCHES))}</td></tr>"
                            for _ in range(rng.randint(1, 4)))
        p.main.append('<table class="govuk-table surgeries"><caption class="govuk-table__'
                      f'caption">Ward surgeries</caption><tbody>{surgeries}</tbody></table>')
    p.main.append(attachments(p, 0, 2))


def t_councillor_list(p: Page, i: int, n: int) -> None:
    rng = p.rng
    p.section = "council"
    p.crumbs = [("Council and democracy", "/council")]
    if i == 0:
        p.path, p.title, members = "/council/councillors", "Your councillors", list(range(60))
    else:
        party = PARTIES[(i - 1) % len(PARTIES)]
        p.path = f"/council/councillors/party/{slugify(party)}"
        p.title = f"Councillors: {party}"
        p.crumbs.append(("Councillors", "/council/councillors"))
        members = [k for k in range(60) if councillor(k)[2] == party]
    rows = []
    for row, k in enumerate(members):
        name, ward, party = councillor(k)
        rows.append(f'<li class="views-row views-row-{row + 1} councillor-card"><a href="/'
                    f'council/councillors/{slugify(name)}">Councillor {esc(name)}</a>'
                    f'<span class="ward">{esc(ward)}</span><span class="party party-'
                    f'{slugify(party)}">{esc(party)}</span></li>')
    p.main.append('<form class="views-exposed-form" action="/council/councillors" method="get">'
                  '<label class="govuk-label" for="edit-postcode">Find your councillor by '
                  'postcode</label><input class="govuk-input govuk-input--width-10" '
                  'id="edit-postcode" name="postcode"><button class="govuk-button">Find'
                  "</button></form>")
    p.main.append(f'<ul class="councillor-list govuk-list">{"".join(rows)}</ul>')
    del rng


def planning_ref(i: int) -> tuple[str, str, str]:
    rng = random.Random(f"planning/{i}")
    yy = 14 + i % 11
    kind = rng.choice(["FUL", "FUL", "HOU", "HOU", "HOU", "LBC", "OUT", "ADV", "TPO", "PA"])
    ref = f"{yy:02d}/{(i * 37) % 99999:05d}/{kind}"
    return ref, slugify(ref.replace("/", "-")), kind


PLAN_STATUS = ["Awaiting decision", "Pending consideration", "Approved", "Refused",
               "Withdrawn", "Approved with conditions", "Appeal lodged", "Invalid"]


def t_planning(p: Page, i: int, n: int) -> None:
    rng = p.rng
    ref, slug, kind = planning_ref(i)
    addr = address(rng)
    p.section = "planning"
    p.path = f"/planning/applications/{slug}"
    p.title = f"Planning application {ref}"
    p.crumbs = [("Planning", "/planning"), ("Applications", "/planning/applications")]
    p.node, p.node_type = 60000 + i, "planning_application"
    yy = int(ref[:2])
    old = yy < 18
    status = rng.choice(PLAN_STATUS[2:] if old else PLAN_STATUS)
    p.body_classes.append(f"application-{slug}")
    facts = [("Reference", ref), ("Address", addr),
             ("Proposal", sentence(rng, 8, 25)), ("Application type", kind),
             ("Status", status), ("Received", date_str(rng, 2000 + yy, 2000 + yy)[3]),
             ("Ward", rng.choice(WARDS)), ("Case officer", person(rng))]
    if "Approved" in status or status == "Refused":
        facts.append(("Decision date", date_str(rng, 2000 + yy, 2024)[3]))
    if rng.random() < 0.5:
        facts.append(("Consultation expiry", date_str(rng, 2000 + yy, 2000 + yy)[3]))
    if old:
        # Applications from the old back-office system were migrated as a simple table.
        rows = "".join(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in facts)
        p.main.append(f'<table class="application-details legacy-table" id="application-'
                      f'{slug}" style="border-collapse:collapse">{rows}</table>')
    else:
        rows = "".join(f'<div class="govuk-summary-list__row"><dt class="govuk-summary-list__'
                       f'key">{esc(k)}</dt><dd class="govuk-summary-list__value field--name-'
                       f'field-{slugify(k)}">{esc(v)}</dd></div>' for k, v in facts)
        p.main.append(f'<div class="application-status"><strong class="govuk-tag status-'
                      f'{slugify(status)}">{esc(status)}</strong></div>'
                      f'<dl class="govuk-summary-list application-details" id="application-'
                      f'{slug}">{rows}</dl>')
    blocks = [attachments(p, 0, 12)]
    if rng.random() < 0.6:
        blocks.append(map_block(p, ref))
    if not old and status in ("Awaiting decision", "Pending consideration"):
        blocks.append(comment_form(p, "planning-comment", f"Comment on application {ref}",
                                   ["Object", "Support", "Neutral comment"]))
    p.main += ordered_blocks(p, blocks)
    if rng.random() < 0.3:
        p.sidebar.append(related_links(p))
    p.libraries += ["geolocation", "webform"]


def comment_form(p: Page, fid: str, legend: str, options: list[str]) -> str:
    rng = p.rng
    radios = "".join(f'<div class="govuk-radios__item"><input class="govuk-radios__input" '
                     f'type="radio" id="edit-stance-{slugify(o)}" name="stance" '
                     f'value="{slugify(o)}"><label class="govuk-label govuk-radios__label" '
                     f'for="edit-stance-{slugify(o)}">{esc(o)}</label></div>' for o in options)
    return (f'<div class="block block-webform" id="block-{fid}"><form class="webform-'
            f'submission-form webform-submission-{fid}-form" method="post" action="'
            f'{esc(p.path)}#comment"><h2 class="govuk-heading-m">{esc(legend)}</h2>'
            '<fieldset class="govuk-fieldset"><legend class="govuk-fieldset__legend">Your '
            f'view</legend><div class="govuk-radios">{radios}</div></fieldset>'
            '<div class="govuk-form-group"><label class="govuk-label" for="edit-name">Name'
            '</label><input class="govuk-input" id="edit-name" name="name"></div>'
            '<div class="govuk-form-group"><label class="govuk-label" for="edit-address">'
            'Address</label><input class="govuk-input" id="edit-address" name="address"></div>'
            '<div class="govuk-form-group"><label class="govuk-label" for="edit-comment">'
            'Comments</label><textarea class="govuk-textarea" id="edit-comment" '
            'name="comment" rows="6"></textarea></div><input type="hidden" name="form_build_id"'
            f' value="form-{digest(p.path, rng.random(), n=32)}"><button class="govuk-button" '
            'type="submit">Submit comment</button></form></div>')


def t_planning_list(p: Page, i: int, n: int) -> None:
    rng = p.rng
    weeks = max(1, n // 2)
    week = i % weeks
    y, w = 2024 - week // 52, 52 - week % 52
    page = i // weeks
    p.section = "planning"
    p.path = f"/planning/weekly-list/{y}/{w:02d}"
    if page:
        p.query = f"page={page}"
    p.title = f"Planning applications received: week {w}, {y}"
    p.crumbs = [("Planning", "/planning"), ("Weekly lists", "/planning/weekly-list")]
    count = rng.choice([1, 4, 9, 16, 20, 20]) if page == 0 else rng.randint(1, 20)
    rows = []
    for k in range(count):
        ref, slug, _kind = planning_ref(rng.randint(0, 5000))
        rows.append(f'<tr class="govuk-table__row views-row views-row-{k + 1}"><td class="'
                    f'govuk-table__cell"><a href="/planning/applications/{slug}">{ref}</a></td>'
                    f'<td class="govuk-table__cell">{esc(address(rng))}</td><td class="govuk-'
                    f'table__cell">{esc(sentence(rng, 5, 12))}</td><td class="govuk-table__'
                    f'cell">{esc(rng.choice(PLAN_STATUS[:2]))}</td></tr>')
    p.main.append('<form class="views-exposed-form" method="get" action="/planning/weekly-list">'
                  '<label class="govuk-label" for="edit-ward">Ward</label><select '
                  'class="govuk-select" id="edit-ward" name="ward"><option value="All">Any'
                  "</option>" + "".join(f'<option value="{slugify(wd)}">{esc(wd)}</option>'
                                        for wd in WARDS) + '</select><button class="govuk-'
                  'button govuk-button--secondary">Apply</button></form>')
    p.main.append('<table class="govuk-table views-table"><thead class="govuk-table__head"><tr>'
                  '<th class="govuk-table__header">Reference</th><th class="govuk-table__'
                  'header">Address</th><th class="govuk-table__header">Proposal</th><th '
                  f'class="govuk-table__header">Status</th></tr></thead><tbody>{"".join(rows)}'
                  "</tbody></table>")
    if page or count == 20:
        p.main.append(pager(p.path, page, page + 2))
    p.libraries += ["views"]


def t_consultation(p: Page, i: int, n: int) -> None:
    rng = p.rng
    topic = rng.choice(TOPICS)
    name = f"{rng.choice(['Draft', 'Proposed', 'Review of the', 'Future of the'])} {topic} " \
           f"{rng.choice(['strategy', 'plan', 'policy', 'changes', 'consultation'])}"
    if i >= 30:
        name += f" {2018 + i % 7}"
    p.section = "consultations"
    p.path = f"/consultations/{slugify(name)}"
    p.title = name.capitalize()
    p.crumbs = [("Have your say", "/consultations")]
    p.node, p.node_type = 70000 + i, "consultation"
    status = rng.choice(["Open", "Open", "Closed", "Closed", "Results published"])
    facts = [("Status", status), ("Opens", date_str(rng, 2018, 2024)[3]),
             ("Closes", date_str(rng, 2018, 2024)[3]),
             ("Area", rng.choice(["Borough-wide", *WARDS])), ("Lead officer", person(rng))]
    rows = "".join(f'<div class="govuk-summary-list__row"><dt class="govuk-summary-list__key">'
                   f'{esc(k)}</dt><dd class="govuk-summary-list__value field--name-field-'
                   f'{slugify(k)}">{esc(v)}</dd></div>' for k, v in facts)
    p.main.append(f'<div class="consultation-status"><strong class="govuk-tag status-'
                  f'{slugify(status)}">{esc(status)}</strong></div><dl class="govuk-summary-'
                  f'list consultation-details" id="consultation-{slugify(name)}">{rows}</dl>')
    p.main.append(body_field(p, p.para_block(1, 4)))
    blocks = [attachments(p, 0, 6)]
    if rng.random() < 0.3:
        blocks.append(map_block(p, name))
    if status == "Open":
        survey = "".join(
            f'<div class="govuk-form-group"><label class="govuk-label" for="edit-q{k}">'
            f'{esc(sentence(rng, 6, 12)[:-1])}?</label><select class="govuk-select" id="edit-'
            f'q{k}" name="q{k}"><option>Strongly agree</option><option>Agree</option><option>'
            "Disagree</option><option>Strongly disagree</option></select></div>"
            for k in range(rng.randint(2, 8)))
        blocks.append(survey_form(p, survey))
    p.main += ordered_blocks(p, blocks)
    if rng.random() < 0.5:
        p.sidebar.append(related_links(p))
    p.libraries += ["webform"]


def survey_form(p: Page, inner: str) -> str:
    return comment_form(p, "consultation-survey", "Respond to this consultation",
                        ["Individual", "Organisation"]).replace(
        '<div class="govuk-form-group"><label class="govuk-label" for="edit-name">',
        inner + '<div class="govuk-form-group"><label class="govuk-label" for="edit-name">', 1)


def news_item(i: int) -> tuple[str, int, int, int, str]:
    rng = random.Random(f"news/{i}")
    title = f"{rng.choice(TOPICS).capitalize()}: {sentence(rng, 4, 10)[:-1]}"
    y, m, d, ds = date_str(rng, 2016, 2024)
    return title, y, m, d, ds


def t_news(p: Page, i: int, n: int) -> None:
    rng = p.rng
    title, y, m, d, ds = news_item(i)
    p.section, p.title = "news", title
    p.path = f"/news/{y}/{m:02d}/{slugify(title)[:60].strip('-')}"
    p.crumbs = [("News", "/news")] + ([(str(y), f"/news/{y}")] if rng.random() < 0.5 else [])
    p.node, p.node_type = 80000 + i, "news_release"
    p.main.append(f'<div class="field field--name-field-published"><time datetime="{y}-'
                  f'{m:02d}-{d:02d}T09:00:00Z" class="govuk-body-s">Published {ds}</time></div>')
    if rng.random() < 0.5:
        p.main.append(f'<figure class="field field--name-field-image"><img src="/sites/default/'
                      f'files/styles/news/public/{y}-{m:02d}/{digest(title)}.jpg" alt="" '
                      f'width="720" height="405"><figcaption>{esc(sentence(rng, 4, 10))}'
                      "</figcaption></figure>")
    p.main.append(f'<p class="govuk-body-l lede">{esc(sentence(rng, 12, 24))}</p>')
    p.main.append(body_field(p, p.para_block(2, 8)))
    if rng.random() < 0.15:
        p.main.append(video_embed(p))
    if rng.random() < 0.6:
        p.main.append('<div class="notes-to-editors"><h2 class="govuk-heading-s">Notes to '
                      f'editors</h2><p>{esc(para(rng, 1, 2))}</p><p>Press office: {phone(rng)}'
                      "</p></div>")
    p.main.append(taxonomy_tags(p, rng.sample(TOPICS, rng.randint(1, 3))))
    if rng.random() < 0.5:
        p.sidebar.append(sidebar_block("views-block-news-latest", "Latest news", "".join(
            f'<div class="views-row views-row-{k + 1}"><a href="/news">{esc(news_item(k)[0])}'
            "</a></div>" for k in range(rng.randint(3, 5)))))
    p.libraries += ["media"]


def t_news_list(p: Page, i: int, n: int) -> None:
    rng = p.rng
    p.section, p.title = "news", "News"
    p.crumbs = []
    total_pages = max(n - 9, 1)
    if i < 9:
        year = 2016 + i
        p.path, p.title = f"/news/{year}", f"News from {year}"
        p.crumbs = [("News", "/news")]
        page, total_pages = 0, 1
    else:
        page = i - 9
        p.path = "/news"
        if page:
            p.query = f"page={page}"
    count = 10 if page < total_pages - 1 else rng.randint(1, 10)
    if i < 9:
        count = rng.randint(12, 60)
    rows = []
    for k in range(count):
        title, y, m, _d, ds = news_item(page * 10 + k + i * 3)
        rows.append(f'<div class="views-row views-row-{k + 1} news-teaser"><h2 class="govuk-'
                    f'heading-s"><a href="/news/{y}/{m:02d}/{slugify(title)[:60].strip("-")}">'
                    f'{esc(title)}</a></h2><p class="govuk-body-s"><time>{ds}</time></p><p>'
                    f"{esc(sentence(rng, 10, 20))}</p></div>")
    p.main.append('<div class="view view-news view-id-news view-display-id-page_1"><div class='
                  f'"view-content">{"".join(rows)}</div>{pager("/news", page, total_pages)}'
                  "</div>")
    p.libraries += ["views"]


def event_item(i: int) -> tuple[str, int, int, int, str]:
    rng = random.Random(f"event/{i}")
    kind = rng.choice(["Family", "Summer", "Winter", "Heritage", "Community", "Nature"])
    what = rng.choice(["fun day", "walk", "craft workshop", "concert", "market", "talk",
                       "storytime", "festival", "film night"])
    title = f"{kind} {what} at {rng.choice(WARDS)}"
    y, m, d, ds = date_str(rng, 2021, 2025)
    return title, y, m, d, ds


def t_event(p: Page, i: int, n: int) -> None:
    rng = p.rng
    title, y, m, d, ds = event_item(i)
    p.section, p.title = "events", title
    p.path = f"/events/{slugify(title)}-{y}-{m:02d}-{d:02d}"
    p.crumbs = [("Events", "/events")] + ([(f"{MONTHS[m - 1]} {y}", f"/events/{y}/{m:02d}")]
                                          if rng.random() < 0.5 else [])
    p.node, p.node_type = 90000 + i, "event"
    start = rng.choice([9, 10, 11, 13, 14, 18, 19])
    price = rng.choice(["Free", "Free", "£3 per child", "£5", "£12.50", "Pay what you can"])
    p.main.append('<dl class="govuk-summary-list event-details"><div class="govuk-summary-list'
                  '__row"><dt class="govuk-summary-list__key">Date</dt><dd class="govuk-summary'
                  f'-list__value"><time datetime="{y}-{m:02d}-{d:02d}T{start:02d}:00:00">{ds}'
                  '</time></dd></div><div class="govuk-summary-list__row"><dt class="govuk-'
                  'summary-list__key">Time</dt><dd class="govuk-summary-list__value">'
                  f"{start}:00 to {start + rng.randint(1, 4)}:00</dd></div><div class=\"govuk-"
                  'summary-list__row"><dt class="govuk-summary-list__key">Venue</dt><dd class='
                  f'"govuk-summary-list__value">{esc(rng.choice(BRANCHES + WARDS))}</dd></div>'
                  '<div class="govuk-summary-list__row"><dt class="govuk-summary-list__key">'
                  f'Price</dt><dd class="govuk-summary-list__value">{esc(price)}</dd></div>'
                  "</dl>")
    if rng.random() < 0.5:
        p.main.append(f'<figure class="field field--name-field-image"><img src="/sites/default/'
                      f'files/styles/news/public/events/{digest(title)}.jpg" alt="" '
                      'width="720" height="405"></figure>')
    p.main.append(body_field(p, p.para_block(1, 4)))
    if rng.random() < 0.6:
        p.main.append(f'<a class="govuk-button" href="https://www.eventbrite.co.uk/e/'
                      f'{digest(title, n=10)}">Book a place</a>')
    if rng.random() < 0.3:
        p.main.append(map_block(p, title))
    p.main.append(taxonomy_tags(p, rng.sample(TOPICS, rng.randint(1, 2))))
    if rng.random() < 0.4:
        p.sidebar.append(sidebar_block("views-block-events-upcoming", "More events", "".join(
            f'<div class="views-row views-row-{k + 1}"><a href="/events">{esc(event_item(k)[0])}'
            "</a></div>" for k in range(rng.randint(2, 5)))))
    p.libraries += ["smart_date"]


def t_events_calendar(p: Page, i: int, n: int) -> None:
    rng = p.rng
    y, m = 2025 - i // 12, 12 - i % 12
    p.section, p.title = "events", f"Events in {MONTHS[m - 1]} {y}"
    p.path = f"/events/{y}/{m:02d}"
    p.crumbs = [("Events", "/events")]
    count = rng.choice([1, 2, 5, 12, 24, 40, 80])
    rows = []
    for k in range(count):
        title, *_ = event_item(rng.randint(0, 2000))
        d = min(28, 1 + k * 28 // count)
        rows.append(f'<li class="views-row views-row-{k + 1} event-teaser"><time class="event-'
                    f'date">{d} {MONTHS[m - 1][:3]}</time><a href="/events/{slugify(title)}">'
                    f"{esc(title)}</a></li>")
    p.main.append('<form class="views-exposed-form" method="get" action="/events"><label '
                  'class="govuk-label" for="edit-type">Event type</label><select class="govuk-'
                  'select" id="edit-type" name="type"><option>All</option><option>Family'
                  "</option><option>Sport</option><option>Arts</option></select><button "
                  'class="govuk-button govuk-button--secondary">Filter</button></form>')
    p.main.append('<div class="view view-events-calendar"><nav class="calendar-months"><a href="'
                  f'/events/{y}/{max(1, m - 1):02d}">Previous month</a> <a href="/events/{y}/'
                  f'{min(12, m + 1):02d}">Next month</a></nav><ul class="event-list govuk-list">'
                  f'{"".join(rows)}</ul></div>')
    p.libraries += ["views", "smart_date"]


def book(i: int) -> tuple[str, str, int, str, str]:
    rng = random.Random(f"book/{i}")
    title = f"The {rng.choice(BOOK_A)} {rng.choice(BOOK_B)}"
    if rng.random() < 0.4:
        title += f": {rng.choice(['A Novel', 'A Memoir', 'Stories', 'A History'])}"
    return (title, f"{rng.choice(LAST)}, {rng.choice(FIRST)}", 1960 + rng.randint(0, 64),
            rng.choice(GENRES), f"978{rng.randint(0, 9_999_999_999):010d}")


def t_book(p: Page, i: int, n: int) -> None:
    rng = p.rng
    title, author, year, genre, isbn = book(i)
    rid = 1_000_000 + i * 13
    p.section, p.title = "library", f"{title} / {author}"
    p.path = f"/library/catalogue/record/{rid}"
    p.crumbs = [("Libraries", "/library"), ("Catalogue", "/library/catalogue")]
    if rng.random() < 0.5:
        p.crumbs.append(("Search results", "/library/catalogue/search"))
    fmt = rng.choice(["Book", "Book", "Large print", "Audiobook (CD)", "eBook", "DVD"])
    facts = [("Author", author), ("Published", f"{rng.choice(['London', 'Edinburgh', 'New York'])}"
                                               f": {rng.choice(LAST)} Press, {year}"),
             ("Format", fmt), ("ISBN", isbn), ("Subject", genre),
             ("Pages", str(rng.randint(90, 720)))]
    if rng.random() < 0.3:
        facts.append(("Series", f"{rng.choice(BOOK_B)} series, book {rng.randint(1, 9)}"))
    rows = "".join(f'<tr><th scope="row">{esc(k)}</th><td>{esc(v)}</td></tr>' for k, v in facts)
    p.main.append(f'<div class="catalogue-record" id="record-{rid}"><img class="cover" src='
                  f'"https://covers.openlibrary.org/b/isbn/{isbn}-M.jpg" alt="" width="120" '
                  f'height="180" style="float:left;margin-right:1em"><table class="govuk-table '
                  f'record-details">{rows}</table></div>')
    if rng.random() < 0.6:
        p.main.append(f'<div class="record-summary"><h2 class="govuk-heading-m">Summary</h2>'
                      f"<p>{esc(para(rng, 2, 4))}</p></div>")
    copies = []
    for br in rng.sample(BRANCHES, rng.randint(1, 6)):
        st = rng.choice(["Available", "On loan", "On loan", "In transit", "Reference only"])
        due = f" (due {date_str(rng, 2024, 2024)[3]})" if st == "On loan" else ""
        copies.append(f'<tr class="govuk-table__row"><td class="govuk-table__cell">{esc(br)}'
                      f'</td><td class="govuk-table__cell">{genre[:3].upper()} '
                      f'{author[:3].upper()}</td><td class="govuk-table__cell status-'
                      f'{slugify(st)}">{st}{due}</td></tr>')
    p.main.append('<table class="govuk-table holdings"><caption class="govuk-table__caption">'
                  'Availability</caption><thead><tr><th>Library</th><th>Shelf mark</th>'
                  f'<th>Status</th></tr></thead><tbody>{"".join(copies)}</tbody></table>')
    p.main.append(f'<form class="reserve-form" method="post" action="/library/reserve/{rid}">'
                  '<button class="govuk-button">Reserve this item</button></form>')
    if rng.random() < 0.4:
        p.sidebar.append(sidebar_block("library-more-by", "More by this author", "".join(
            f'<p><a href="/library/catalogue/record/{1_000_000 + rng.randint(0, 9999) * 13}">'
            f"{esc(book(rng.randint(0, 9999))[0])}</a></p>" for _ in range(rng.randint(1, 4)))))
    p.libraries += ["library_catalogue"]


def t_library_search(p: Page, i: int, n: int) -> None:
    rng = p.rng
    q = rng.choice(BOOK_A + BOOK_B + GENRES + LAST).lower()
    page = i % 3 if i > 20 else 0
    p.section, p.title = "library", f"Search results for \u201c{q}\u201d"
    p.path = "/library/catalogue/search"
    p.query = f"q={q.replace(' ', '+')}&page={page}&s={digest(i, n=4)}"
    p.crumbs = [("Libraries", "/library"), ("Catalogue", "/library/catalogue")]
    total = rng.choice([1, 3, 8, 20, 47, 200, 1320])
    per = rng.choice([20, 40, 80])
    count = min(per, max(1, total - page * per))
    rows = []
    for k in range(count):
        bi = rng.randint(0, 20000)
        title, author, year, genre, _ = book(bi)
        rows.append(f'<li class="search-result views-row views-row-{k + 1} record"><h3 class="'
                    f'govuk-heading-s"><a href="/library/catalogue/record/{1_000_000 + bi * 13}'
                    f'">{esc(title)}</a></h3><p class="record-author">{esc(author)}, {year}</p>'
                    f'<p class="record-format govuk-body-s">{esc(genre)}</p></li>')
    facets = "".join(f'<li><a href="?q={q}&amp;genre={slugify(g)}">{esc(g)}</a> '
                     f"({rng.randint(1, 300)})</li>" for g in rng.sample(GENRES, 5))
    p.main.append(f'<form class="catalogue-search" method="get" action="/library/catalogue/'
                  f'search"><input class="govuk-input" name="q" value="{esc(q)}"><button '
                  'class="govuk-button">Search catalogue</button></form>')
    p.main.append(f'<p class="result-count">{total} items found</p><ol class="search-results '
                  f'govuk-list catalogue-results">{"".join(rows)}</ol>')
    p.main.append(pager(f"/library/catalogue/search?q={q}", page, (total + per - 1) // per))
    p.sidebar.append(sidebar_block("facets-genre", "Refine by subject",
                                   f'<ul class="facet-list">{facets}</ul>'))
    p.libraries += ["library_catalogue"]


def job(i: int) -> tuple[str, str, str]:
    rng = random.Random(f"job/{i}")
    title = rng.choice(JOB_TITLES)
    if rng.random() < 0.3:
        title = rng.choice(["Senior ", "Trainee ", "Apprentice ", "Principal "]) + title
    ref = f"ABC{(i * 97) % 9000 + 1000}"
    return title, ref, f"/jobs/{ref.lower()}-{slugify(title)}"


def t_job(p: Page, i: int, n: int) -> None:
    rng = p.rng
    title, ref, path = job(i)
    p.section, p.title, p.path = "jobs", title, path
    p.crumbs = [("Jobs", "/jobs")]
    p.node, p.node_type = 95000 + i, "vacancy"
    grade = rng.randint(3, 12)
    sal = 21000 + grade * 2400
    facts = [("Reference", ref), ("Salary", f"£{sal:,} to £{sal + 3200:,} (Grade {grade})"),
             ("Hours", rng.choice(["37 hours per week", "18.5 hours per week", "Flexible"])),
             ("Contract", rng.choice(["Permanent", "Fixed term (12 months)", "Casual"])),
             ("Closing date", date_str(rng, 2023, 2024)[3]),
             ("Department", rng.choice(list(SERVICE_CATS)).replace("-", " ").capitalize())]
    rows = "".join(f'<div class="govuk-summary-list__row"><dt class="govuk-summary-list__key">'
                   f'{esc(k)}</dt><dd class="govuk-summary-list__value">{esc(v)}</dd></div>'
                   for k, v in facts)
    p.main.append(f'<dl class="govuk-summary-list vacancy-details">{rows}</dl>')
    p.main.append(body_field(p, p.para_block(2, 6)))
    p.main.append(attachments(p, 1, 3))
    p.main.append(f'<form class="job-application-form" method="post" action="/jobs/apply/{ref}">'
                  '<h2 class="govuk-heading-m">Apply for this job</h2><div class="govuk-form-'
                  'group"><label class="govuk-label" for="edit-email">Email address</label>'
                  '<input class="govuk-input" type="email" id="edit-email" name="email"></div>'
                  '<div class="govuk-form-group"><label class="govuk-label" for="edit-cv">Upload '
                  'your CV</label><input class="govuk-file-upload" type="file" id="edit-cv" '
                  'name="cv"></div><button class="govuk-button govuk-button--start">Apply now'
                  "</button></form>")
    if rng.random() < 0.5:
        p.sidebar.append(contact_box(p, "Human Resources"))
    p.feedback = True


def t_jobs_list(p: Page, i: int, n: int) -> None:
    rng = p.rng
    p.section, p.title, p.path = "jobs", "Current vacancies", "/jobs"
    if i:
        p.query = f"page={i}"
    count = 20 if i < n - 1 else rng.randint(1, 20)
    rows = []
    for k in range(count):
        title, ref, path = job(i * 20 + k)
        rows.append(f'<div class="views-row views-row-{k + 1} vacancy-teaser"><h2 class="govuk-'
                    f'heading-s"><a href="{path}">{esc(title)}</a></h2><p>Ref {ref}. Closing '
                    f"{date_str(rng, 2024, 2024)[3]}</p></div>")
    p.main.append('<form class="views-exposed-form" method="get" action="/jobs"><label class="'
                  'govuk-label" for="edit-kw">Keywords</label><input class="govuk-input" id="'
                  'edit-kw" name="kw"><button class="govuk-button">Search jobs</button></form>')
    p.main.append(f'<div class="view view-vacancies">{"".join(rows)}</div>')
    p.main.append(pager("/jobs", i, n))
    p.libraries += ["views"]


def t_document(p: Page, i: int, n: int) -> None:
    rng = p.rng
    name = sentence(rng, 3, 9)[:-1]
    did = 3000 + i * 7
    p.section = rng.choice(["council", "planning", "services", "council"])
    p.title = name
    p.path = f"/documents/{did}/{slugify(name)[:50].strip('-')}"
    p.crumbs = [("Documents", "/documents")]
    if rng.random() < 0.4:
        p.crumbs.insert(0, (dict((k, v) for k, v, _ in NAV)[p.section], f"/{p.section}"))
    p.node, p.node_type = did, "document"
    ext = rng.choice(["pdf", "pdf", "docx", "xlsx", "csv"])
    p.main.append(f'<div class="document-summary"><p class="govuk-body">{esc(sentence(rng))}'
                  "</p></div>")
    p.main.append(f'<div class="document-download govuk-!-margin-bottom-6"><a class="govuk-'
                  f'button" href="/sites/default/files/documents/{did}.{ext}" download>Download'
                  f' {ext.upper()} ({rng.randint(30, 9000)} KB)</a></div>')
    p.main.append('<dl class="govuk-summary-list document-meta"><div class="govuk-summary-list'
                  '__row"><dt class="govuk-summary-list__key">Published</dt><dd class="govuk-'
                  f'summary-list__value">{date_str(rng, 2012, 2024)[3]}</dd></div><div class="'
                  'govuk-summary-list__row"><dt class="govuk-summary-list__key">Owner</dt><dd '
                  f'class="govuk-summary-list__value">{esc(rng.choice(COMMITTEES))}</dd></div>'
                  "</dl>")
    if ext == "pdf" and rng.random() < 0.5:
        p.main.append('<div class="govuk-inset-text">This document may not be fully accessible.'
                      ' <a href="/contact-us">Request an accessible format</a>.</div>')
    p.main.append(attachments(p, 0, 3))
    p.feedback = True
    p.libraries += ["media", "file"]


# ---------------------------------------------------------------------------------------------
# Page mix
# ---------------------------------------------------------------------------------------------

Renderer = Callable[[Page, int, int], None]

# label -> (renderer, share of pages, minimum, maximum)
TEMPLATES: dict[str, tuple[Renderer, float, int, int]] = {
    "home": (t_home, 0.0, 1, 1),
    "contact": (t_contact, 0.0, 1, 1),
    "accessibility-statement": (t_accessibility, 0.0, 1, 1),
    "sitemap": (t_sitemap, 0.0, 1, 1),
    "not-found": (t_not_found, 0.0004, 2, 5),
    "site-search": (t_site_search, 0.0006, 3, 7),
    "services-az": (t_services_az, 0.0026, 5, len(LETTERS)),
    "directory-az": (t_directory_az, 0.004, 5, 40),
    "councillor-list": (t_councillor_list, 0.0005, 1, 6),
    "councillor-profile": (t_councillor, 0.006, 5, 60),
    "jobs-list": (t_jobs_list, 0.0008, 1, 12),
    "job-vacancy": (t_job, 0.02, 3, 100_000),
    "news-list": (t_news_list, 0.008, 2, 150),
    "news-release": (t_news, 0.12, 5, 1_000_000),
    "events-calendar": (t_events_calendar, 0.004, 2, 60),
    "event-page": (t_event, 0.06, 5, 1_000_000),
    "meeting-agenda": (t_agenda, 0.04, 5, 1_000_000),
    "meeting-minutes": (t_minutes, 0.035, 5, 1_000_000),
    "planning-application": (t_planning, 0.2, 5, 1_000_000),
    "planning-weekly-list": (t_planning_list, 0.015, 2, 1_000),
    "library-book": (t_book, 0.2, 5, 1_000_000),
    "library-search-results": (t_library_search, 0.03, 3, 1_000_000),
    "service-detail": (t_service_detail, 0.15, 5, 1_000_000),
    "facility-page": (t_facility, 0.035, 3, 1_000_000),
    "consultation": (t_consultation, 0.02, 3, 1_000_000),
    "document-download": (t_document, 0.05, 3, 1_000_000),
}


def plan_counts(total: int) -> dict[str, int]:
    counts = {lab: max(lo, min(hi, round(total * share)))
              for lab, (_, share, lo, hi) in TEMPLATES.items()}
    big = ["planning-application", "library-book", "service-detail", "news-release"]
    k = 0
    while sum(counts.values()) != total:
        lab = big[k % len(big)]
        if sum(counts.values()) < total:
            counts[lab] += 1
        elif counts[lab] > 1:
            counts[lab] -= 1
        else:
            # Very small runs: shrink the largest template, keeping one page of each.
            top = max(counts, key=lambda t: counts[t])
            if counts[top] <= 1:
                break
            counts[top] -= 1
        k += 1
    return counts


def make_page(label: str, i: int, n: int, seed: int) -> Page:
    p = Page(label=label, rng=random.Random(f"{seed}/{label}/{i}"))
    TEMPLATES[label][0](p, i, n)
    return p


def split_path(path: str) -> list[str]:
    return [s for s in urlsplit(path).path.split("/") if s]


def generate(total: int, seed: int) -> list[tuple[str, int, int]]:
    counts = plan_counts(total)
    order = [(lab, i, c) for lab, c in counts.items() if lab != "home" for i in range(c)]
    random.Random(seed).shuffle(order)
    return [("home", 0, 1), *order]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Generate the municipal portal corpus (JSONL).")
    ap.add_argument("out", help="output .jsonl path")
    ap.add_argument("--pages", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args(argv)
    t0 = time.monotonic()
    seen: set[str] = set()
    hist: Counter[str] = Counter()
    sizes: list[int] = []
    with open(args.out, "w", encoding="utf-8") as fh:
        for label, i, n in generate(args.pages, args.seed):
            p = make_page(label, i, n, args.seed)
            url = BASE + p.path + (f"?{p.query}" if p.query else "")
            k = 0
            while url in seen:
                # Drupal pathauto: a second node with the same alias gets "-0", "-1", ...
                alias = f"{p.path.rstrip('/')}-{k}"
                url = BASE + alias + (f"?{p.query}" if p.query else "")
                if url not in seen:
                    p.path = alias
                k += 1
            seen.add(url)
            doc, hrefs = render(p)
            if len(doc.encode()) > MAX_BYTES:
                raise SystemExit(f"{url}: {len(doc.encode())} bytes")
            sizes.append(len(doc.encode()))
            rec = {"id": url, "html": doc, "paths": split_path(p.path),
                   "stylesheetHrefs": hrefs, "host": HOST, "label": label}
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
            hist[label] += 1
    width = max(len(lab) for lab in hist)
    for lab, c in sorted(hist.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"{lab:<{width}}  {c:6d}", file=sys.stderr)
    print(f"{sum(hist.values())} pages, {len(hist)} labels, max {max(sizes)} bytes, "
          f"mean {sum(sizes) // len(sizes)} bytes, {time.monotonic() - t0:.1f} s",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
