"""An independently written test website served in two versions: "Fernhill Instruments".

The site was written from a description of how a small company site changes over one
release, without reading the code that compares two crawls. The same site is served as
``"old"`` (before the release) and ``"new"`` (after it); the two differ by a known list of
edits (``EDITS``) and are otherwise byte-identical: same pages, same text, same links, same
headers. Everything is built by plain string building from fixed word lists and per-page
``random.Random(path)`` seeds, so every run gives the same bytes; nothing is fetched from
anywhere but 127.0.0.1.

Fernhill Instruments makes environmental sensors. Every page is a full HTML document with a
``<title>``, ``<meta name="description">``, one ``<h1>``, an absolute ``<link
rel="canonical">`` (the page itself unless an edit says otherwise), ``og:title``, ``og:url``
(absolute, always the page itself), a stylesheet link to ``/site.css``, a shared header
navigation (Home, Products, Blog, Docs, About, Contact) and a shared footer (About, Careers,
Contact, Privacy, Terms, and two plain ``<a href>`` links to made-up external hosts,
``https://partner.example/`` and ``https://community.example/forum``, never fetched). All
internal links are root-relative; canonical, og:url, JSON-LD ``url`` and ``Location`` are
absolute, built from the request's Host header. JSON-LD ``@context`` is the usual
``"https://schema.org"`` string (not a reference anything fetches).

Pages (68 in "old")
-------------------

``/``
    Home: Organization JSON-LD, three featured products, the three latest posts and a
    "get started" link to ``/docs/getting-started/installation``.
``/about``, ``/contact``, ``/careers``, ``/privacy``, ``/terms``
    Company pages; ``/about`` carries Organization JSON-LD.
``/products/`` and 16 products ``/products/<slug>``
    Each product has a specification table, two related products and a link to the
    installation guide; four carry Product JSON-LD.
``/blog/``, ``/blog/page/2`` and 24 posts ``/blog/<slug>``
    Twelve posts per list page (``rel=prev``/``rel=next`` between the two); each post links
    two related posts of its own list page and sometimes a product; the four newest carry
    Article JSON-LD.
``/docs/``, three sections ``/docs/<section>/`` and five pages in each
    Each page links its breadcrumbs and one or two "see also" pages of its section, except
    ``/docs/reference/csv-export``, which links a blog post instead (so that its depth edit
    moves no other page).

Headers: every response has ``Cache-Control`` (home ``public, max-age=300``, products and
company pages ``public, max-age=3600``, blog ``public, max-age=600``, docs ``public,
max-age=86400``, errors ``no-store``) and a fixed ``Date`` (so headers are deterministic
too). ``X-Content-Type-Options: nosniff`` is on every HTML page but the blog's;
``Strict-Transport-Security`` on home, products and company pages; ``Referrer-Policy`` on
docs. ``/robots.txt`` allows everything; ``/site.css`` is a small stylesheet. Anything else
answers a small 404 page.

The edits, old → new (nineteen pages, one kind each; ``EDITS`` holds them as data)
---------------------------------------------------------------------------------

- ``/products/gale-wind`` title: "Gale Wind Anemometer | Fernhill Instruments" → "Gale Wind
  Anemometer and Vane | Fernhill Instruments" (h1, og:title unchanged).
- ``/products/heron-rain`` meta description rewritten.
- ``/products/cedar-co2`` h1: "Cedar CO2" → "Cedar CO2 Sensor (NDIR)".
- ``/products/aster-hub-mini`` canonical: itself → ``/products/aster-hub``.
- ``/products/kestrel-uv`` og:title: "Kestrel UV" → "Kestrel UV: the UV index sensor for
  the field".
- ``/blog/spring-sale-2023`` gains ``<meta name="robots" content="noindex">``.
- ``/about`` body text rewritten, over four times longer: 68 → 297 words of text inside
  ``<main>`` (same links, same metadata).
- ``/blog/customer-story-vineyard`` gains one link, to ``/products/dune-soil``.
- ``/blog/field-notes-peat-bog`` JSON-LD top-level ``@type``: Article → BlogPosting.
- ``/careers`` header ``Cache-Control``: ``public, max-age=3600`` → ``no-cache``.
- ``/contact`` gains the header ``X-Frame-Options: DENY``.
- ``/blog/winter-offsite-2022`` answers 404 (its links stay on ``/blog/page/2`` and two
  posts, which are byte-identical but now point at a 404).
- ``/products/ivy-leaf`` answers 410 (still linked from ``/products/``).
- ``/products/birch-t1`` answers 301 to ``/products/birch-t2`` (still linked from
  ``/products/``).
- ``/products/moss-relay`` still answers 200, byte-identical, but ``/products/`` (its only
  linker) no longer links it: a complete crawl of "new" never finds it.
- ``/docs/guides/webhooks`` is a new page, linked only from ``/docs/guides/``.
- ``/docs/reference/api`` gains a broken link to ``/docs/reference/rate-limits`` (404 in
  both versions, never existed).
- ``/docs/getting-started/first-reading`` fixes its broken link: "old" links the typo
  ``/docs/getting-started/instalation`` (404), "new" links
  ``/docs/getting-started/installation`` (200).
- ``/docs/reference/csv-export`` depth 3 → 1: the home page gains a link to it; the page
  itself is byte-identical.

Pages changed only as the consequence of an edit (``INHERENT``): ``/`` (the depth edit's
new link), ``/products/`` (drops the link to the unlinked page), ``/docs/guides/`` (links
the added page). Every other page present in both versions is byte-identical when both are
served on the same port (across ports only the absolute URLs differ), and so are the
headers, ``/robots.txt`` and ``/site.css``.

Truth
-----

``EDITS`` (or ``truth()``, a copy): one dict per edit with ``path`` and ``kind`` and the
observable old and new values. ``PATHS_OLD`` / ``PATHS_NEW``: every HTML page answering 200
that a crawl following ``<a href>`` links from ``/`` reaches (68 and 65 pages).
``STATUS_OLD`` / ``STATUS_NEW``: every internal path such a crawl requests (its pages, broken
link targets, the redirect) with the status it answers; ``/robots.txt`` and ``/site.css`` are
in neither. Depth is ``<a href>`` hops from ``/`` (a redirect adds no hop). ``INHERENT``:
the pages above changed only as a consequence, with the reason. ``respond(version, path,
host)`` answers one request in-process.

Use::

    with serve("old") as base:     # base = "http://127.0.0.1:<port>/"
        crawl(base)
    port = int(base.rstrip("/").rsplit(":", 1)[1])
    with serve("new", port=port) as base:   # same port: unchanged pages are the same bytes
        crawl(base)

``python -m corpora.edited_site old`` serves one version until interrupted;
``python -m corpora.edited_site --check`` fetches both versions over HTTP and checks the
statuses, the crawl sets, every edit and the byte-identity of everything else.
"""

from __future__ import annotations

import contextlib
import dataclasses
import html
import http.server
import json
import random
import threading
from collections.abc import Iterator
from typing import Any

__all__ = [
    "EDITS",
    "INHERENT",
    "PATHS_NEW",
    "PATHS_OLD",
    "STATUS_NEW",
    "STATUS_OLD",
    "VERSIONS",
    "respond",
    "serve",
    "truth",
]

VERSIONS = ("old", "new")
SITE = "Fernhill Instruments"
DATE = "Tue, 12 Nov 2024 09:00:00 GMT"
EXTERNAL = ("https://partner.example/", "https://community.example/forum")

Response = tuple[int, list[tuple[str, str]], bytes]

# --------------------------------------------------------------------------- the truth

EDITS: list[dict[str, Any]] = [
    {"path": "/products/gale-wind", "kind": "title",
     "old": "Gale Wind Anemometer | Fernhill Instruments",
     "new": "Gale Wind Anemometer and Vane | Fernhill Instruments"},
    {"path": "/products/heron-rain", "kind": "description",
     "old": "The Heron Rain Gauge is a rain gauge for long-term field monitoring: it measures "
            "rainfall in 0.2 mm steps. Specifications, prices and documentation.",
     "new": "Heron Rain Gauge: tipping-bucket rainfall measurement to 0.2 mm, now with a "
            "heated funnel for snow and sleet. Order online or ask for a quote."},
    {"path": "/products/cedar-co2", "kind": "h1",
     "old": "Cedar CO2", "new": "Cedar CO2 Sensor (NDIR)"},
    {"path": "/products/aster-hub-mini", "kind": "canonical",
     "old": "/products/aster-hub-mini", "new": "/products/aster-hub"},
    {"path": "/products/kestrel-uv", "kind": "og_title",
     "old": "Kestrel UV", "new": "Kestrel UV: the UV index sensor for the field"},
    {"path": "/blog/spring-sale-2023", "kind": "noindex", "old": None, "new": "noindex"},
    {"path": "/about", "kind": "content", "old_words": 68, "new_words": 297,
     "note": "words of the text inside <main>, split on whitespace"},
    {"path": "/blog/customer-story-vineyard", "kind": "outlink_added",
     "target": "/products/dune-soil"},
    {"path": "/blog/field-notes-peat-bog", "kind": "jsonld_type",
     "old": "Article", "new": "BlogPosting"},
    {"path": "/careers", "kind": "header", "header": "Cache-Control",
     "old": "public, max-age=3600", "new": "no-cache"},
    {"path": "/contact", "kind": "header", "header": "X-Frame-Options",
     "old": None, "new": "DENY"},
    {"path": "/blog/winter-offsite-2022", "kind": "status_404", "old": 200, "new": 404,
     "linked_from": ["/blog/page/2", "/blog/rain-gauge-maintenance",
                     "/blog/ten-years-of-fernhill"]},
    {"path": "/products/ivy-leaf", "kind": "status_410", "old": 200, "new": 410,
     "linked_from": ["/products/"]},
    {"path": "/products/birch-t1", "kind": "redirect", "old": 200, "new": 301,
     "target": "/products/birch-t2", "linked_from": ["/products/"]},
    {"path": "/products/moss-relay", "kind": "unlinked", "status": 200,
     "linked_from_old": ["/products/"], "linked_from_new": []},
    {"path": "/docs/guides/webhooks", "kind": "added", "old": 404, "new": 200,
     "linked_from": "/docs/guides/"},
    {"path": "/docs/reference/api", "kind": "broken_link_added",
     "target": "/docs/reference/rate-limits", "status": 404},
    {"path": "/docs/getting-started/first-reading", "kind": "broken_link_fixed",
     "old": "/docs/getting-started/instalation", "new": "/docs/getting-started/installation",
     "old_status": 404, "new_status": 200},
    {"path": "/docs/reference/csv-export", "kind": "depth", "old": 3, "new": 1, "via": "/"},
]

#: Pages whose bytes change only as a consequence of another page's edit.
INHERENT: dict[str, str] = {
    "/": "gains a link to /docs/reference/csv-export (the depth edit)",
    "/products/": "no longer links /products/moss-relay (the unlinked edit)",
    "/docs/guides/": "links the new page /docs/guides/webhooks (the added edit)",
}

# --------------------------------------------------------------------------- content data

PRODUCTS = [
    # slug, name, kind, feature, price (EUR), battery, range
    ("aster-hub", "Aster Hub", "gateway", "collects readings from up to 64 sensors",
     349, "five years", "2 km"),
    ("aster-hub-mini", "Aster Hub Mini", "gateway", "collects readings from up to 16 sensors",
     219, "four years", "800 m"),
    ("birch-t1", "Birch T1", "temperature logger", "logs air temperature to 0.2 °C",
     79, "three years", "1 km"),
    ("birch-t2", "Birch T2", "temperature logger",
     "logs air and surface temperature to 0.1 °C", 99, "five years", "1.5 km"),
    ("cedar-h", "Cedar H", "humidity sensor", "measures relative humidity to 2 %",
     89, "four years", "1.5 km"),
    ("cedar-co2", "Cedar CO2", "carbon dioxide sensor", "measures CO2 from 400 to 5000 ppm",
     189, "two years", "1 km"),
    ("dune-soil", "Dune Soil Probe", "soil moisture probe",
     "measures soil moisture at three depths", 149, "four years", "1 km"),
    ("elm-flow", "Elm Flow", "water flow meter", "counts flow in pipes from 15 to 50 mm",
     169, "three years", "1 km"),
    ("fjord-tide", "Fjord Tide", "water level sensor",
     "measures water level by ultrasound to 5 mm", 259, "three years", "2 km"),
    ("gale-wind", "Gale Wind Anemometer", "anemometer",
     "measures wind speed and gusts every second", 229, "three years", "2 km"),
    ("heron-rain", "Heron Rain Gauge", "rain gauge", "measures rainfall in 0.2 mm steps",
     139, "five years", "2 km"),
    ("ivy-leaf", "Ivy Leaf Wetness Sensor", "leaf wetness sensor",
     "reports how long leaves stay wet", 119, "three years", "1 km"),
    ("juniper-pm", "Juniper PM", "particulate matter sensor",
     "counts PM1, PM2.5 and PM10 particles", 199, "two years", "1 km"),
    ("kestrel-uv", "Kestrel UV", "UV index sensor", "reports the UV index every minute",
     129, "four years", "1.5 km"),
    ("lumen-lux", "Lumen Lux", "light sensor", "measures light from 0.1 to 100,000 lux",
     99, "four years", "1.5 km"),
    ("moss-relay", "Moss Relay", "relay module",
     "switches pumps and fans when a reading crosses a threshold", 69, "mains powered",
     "1 km"),
]
PRODUCT = {p[0]: p for p in PRODUCTS}
FEATURED = ("aster-hub", "cedar-h", "juniper-pm")
PRODUCT_JSONLD = ("aster-hub", "birch-t2", "cedar-h", "elm-flow")
#: Products never offered as "related": the ones an edit removes or hides.
NOT_RELATED = ("birch-t1", "ivy-leaf", "moss-relay")

POSTS = [
    # slug, title, topic, product linked from the post (or None)
    ("aster-hub-firmware-3", "Aster Hub firmware 3.0 is out", "firmware", "aster-hub"),
    ("field-notes-peat-bog", "Field notes: a winter on a peat bog", "fieldwork",
     "fjord-tide"),
    ("solar-kits-shipping", "Solar kits are shipping", "power", None),
    ("customer-story-vineyard", "Customer story: a vineyard in the Douro valley",
     "customers", "cedar-h"),
    ("calibration-service", "Our new calibration service", "calibration", None),
    ("measuring-urban-heat", "Measuring urban heat islands on a budget", "fieldwork",
     "birch-t2"),
    ("why-ndir", "Why we chose NDIR for the Cedar CO2", "engineering", "cedar-co2"),
    ("school-weather-network", "A weather network run by schoolchildren", "customers",
     "gale-wind"),
    ("battery-life-myths", "Five myths about sensor battery life", "power", None),
    ("open-data-export", "Your data, your files: better CSV export", "software", None),
    ("radio-range-tests", "How far does the radio really reach?", "engineering",
     "aster-hub"),
    ("flood-warning-pilot", "A flood warning pilot with a river trust", "customers",
     "fjord-tide"),
    ("new-workshop", "We moved into a bigger workshop", "company", None),
    ("greenhouse-guide", "Monitoring a greenhouse: what to measure first", "fieldwork",
     "lumen-lux"),
    ("dust-season", "Dust season: particulate readings explained", "science", "juniper-pm"),
    ("hiring-firmware-engineer", "We are hiring a firmware engineer", "company", None),
    ("frost-alerts", "Frost alerts for orchards", "customers", None),
    ("uv-and-skin", "What the UV index does and does not tell you", "science",
     "kestrel-uv"),
    ("rain-gauge-maintenance", "Keeping a rain gauge honest", "fieldwork", "heron-rain"),
    ("api-v2-beta", "API v2 enters public beta", "software", None),
    ("spring-sale-2023", "Spring sale: 15% off starter kits", "company", None),
    ("soil-moisture-basics", "Soil moisture basics for growers", "science", "dune-soil"),
    ("ten-years-of-fernhill", "Ten years of Fernhill Instruments", "company", None),
    ("winter-offsite-2022", "Notes from our winter offsite", "company", None),
]
POSTS_PER_PAGE = 12
AUTHORS = ["Maren Lindqvist", "Tomás Etxeberria", "Ines Peeters", "Jonas Huber",
           "Rosa Kowalski", "Finn Murphy"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]

DOCS = {
    # section: (title, intro, [(slug, title, see-also slugs in the section)])
    "getting-started": ("Getting started", "Unpack, install and take your first reading.", [
        ("installation", "Installing the Aster Hub", ["wiring"]),
        ("first-reading", "Taking your first reading", ["calibration"]),
        ("wiring", "Wiring sensors to the hub", ["installation"]),
        ("calibration", "Calibrating a sensor in the field", ["troubleshooting"]),
        ("troubleshooting", "Troubleshooting a silent sensor", ["first-reading"]),
    ]),
    "guides": ("Guides", "Longer walk-throughs for common monitoring setups.", [
        ("dashboards", "Building a dashboard", ["alerts"]),
        ("alerts", "Setting up alerts", ["dashboards", "multi-site"]),
        ("solar-power", "Running a station on solar power", ["data-retention"]),
        ("data-retention", "Choosing a data retention policy", ["dashboards"]),
        ("multi-site", "Managing several sites", ["alerts"]),
    ]),
    "reference": ("Reference", "Exact formats, limits and codes.", [
        ("api", "HTTP API reference", ["config-file"]),
        ("csv-export", "CSV export format", []),  # links the blog post instead
        ("config-file", "Hub configuration file", ["error-codes"]),
        ("error-codes", "Error codes", ["firmware"]),
        ("firmware", "Firmware versions and updates", ["config-file"]),
    ]),
}
NEW_DOC = ("guides", "webhooks", "Sending readings to a webhook", ["alerts"])

CITIES = ["Rotterdam", "Lyon", "Porto", "Leeds", "Tampere", "Bilbao", "Graz", "Aarhus",
          "Ghent", "Brno", "Cork", "Tallinn"]
PLACES = ["the Scottish Highlands", "the Po delta", "Flemish greenhouses", "alpine meadows",
          "city parks in Lyon", "Danish farms", "Basque orchards", "the Wadden coast"]
USES = ["spot frost before it reaches the buds", "keep irrigation honest",
        "document a restoration project", "warn neighbours before a river rises",
        "compare two growing seasons", "check that a ventilation fix worked"]

PRODUCT_SENTENCES = [
    "The {name} {feature}.",
    "It runs for {battery} on two lithium cells, or indefinitely from the optional solar "
    "kit.",
    "Readings reach an Aster Hub up to {range} away, even through light woodland.",
    "The enclosure is rated IP67 and works from minus thirty to plus sixty degrees.",
    "Every {kind} is calibrated in our workshop in {city} before it ships, and its "
    "certificate is filed under the serial number.",
    "Field teams in {place} use it to {use}.",
    "Brackets for poles, walls and fence posts come in the box.",
    "Firmware updates arrive over the air, so a unit installed today keeps improving without "
    "a site visit.",
    "When a reading looks implausible the {name} flags it instead of passing it on "
    "silently.",
    "Data can be exported as CSV or read live through the HTTP API.",
    "Setting it up takes about ten minutes, most of which is choosing where to put it.",
    "A status light blinks green once a minute while everything is well.",
    "Spare parts stay available for at least eight years after a model is discontinued.",
    "We test every batch for a week in a climate chamber before it leaves the building.",
]
BLOG_SENTENCES = [
    "This post is about {topic}, something customers ask us about every week.",
    "We spent most of the last month on {topic}, and the results surprised us.",
    "The short version: small changes in {topic} add up over a season.",
    "Our colleagues in {city} ran the first tests, in the rain as usual.",
    "Teams working in {place} told us what they needed, and we listened.",
    "Not everything went to plan, and we will say where it did not.",
    "The numbers below come from forty stations that have run for over a year.",
    "If you run a station yourself, the checklist at the end is for you.",
    "Several of you wrote in after the last post, and this is partly an answer.",
    "A good measurement is a boring one: it arrives on time and means what it says.",
    "We will keep writing about {topic} as the work goes on.",
    "Questions are welcome on the community forum, where the engineers read along.",
    "Most of the effort went into the parts nobody sees, which is normal for us.",
    "We would rather ship something small that works than something large that might.",
    "The same lesson keeps coming back: measure first, then decide.",
]
DOC_SENTENCES = [
    "This page explains {topic} step by step.",
    "You need a hub with firmware 2.4 or later and an account on the dashboard.",
    "Each step takes a few minutes; the whole procedure rarely takes more than half an hour.",
    "If a step fails, note the error code shown on the dashboard before trying again.",
    "Settings changed here apply to every sensor paired with the hub.",
    "The defaults suit most sites, so change them only when you have a reason to.",
    "Changes are stored on the hub and survive a restart or a flat battery.",
    "All times are stored in UTC and shown in the time zone of the site.",
    "A sensor that misses three readings in a row is marked as silent.",
    "Values outside a sensor's range are kept but flagged, never silently dropped.",
    "The same options are available through the HTTP API for scripted setups.",
    "Write down the serial number of each sensor before mounting it out of reach.",
    "When in doubt, restart the hub: it keeps its configuration and its buffered readings.",
]

ABOUT_OLD = [
    "Fernhill Instruments builds sensors for people who measure the outdoors: growers, "
    "water boards, researchers and schools.",
    "We started in 2014 in a shed behind a greenhouse and now employ twenty-six people in "
    "Ghent.",
    "Everything we sell is designed, assembled and calibrated in our own workshop.",
    "We answer support questions ourselves, usually on the same day.",
]
ABOUT_NEW = [
    "Fernhill Instruments builds sensors for people who measure the outdoors: growers who "
    "want to know when frost is coming, water boards who watch rivers and reservoirs, "
    "researchers who leave stations on a hillside for years, and schools that run their own "
    "weather networks.",
    "The company started in 2014 in a shed behind a greenhouse near Ghent. Our founders were "
    "tired of loggers that lost a season of data to a flat battery or a cracked seal, and "
    "built the first Birch temperature logger to prove it could be done better. Ten years "
    "later twenty-six people work in our workshop and office, and several thousand stations "
    "report to an Aster Hub every minute of the day.",
    "Everything we sell is designed, assembled and calibrated under one roof. Every sensor "
    "spends a week in a climate chamber before it ships, and every calibration certificate "
    "is kept with the serial number, so you can look it up years later when an auditor "
    "asks.",
    "We care about repairs as much as sales. Spare parts stay available for at least eight "
    "years after a model is discontinued, firmware updates are free for the life of a "
    "product, and the file formats our hubs write are documented in full so your data never "
    "depends on us.",
    "Support is answered by the people who build the products, usually on the same working "
    "day. If a question comes up often, it becomes a page in the documentation or a post on "
    "the blog.",
    "We work with distribution partners across Europe and sell directly everywhere else. "
    "If you would like to work with us, the careers page lists our open positions, and the "
    "contact page tells you how to reach the right person.",
]


# --------------------------------------------------------------------------- the model


@dataclasses.dataclass(frozen=True)
class Page:
    path: str
    title: str
    description: str
    h1: str
    og_title: str
    og_type: str
    main: str  # HTML inside <main>, after the <h1>; root-relative links only
    headers: tuple[tuple[str, str], ...]
    canonical: str = ""  # path; "" means the page itself
    robots: str | None = None
    jsonld: dict[str, Any] | None = None
    crumbs: tuple[tuple[str, str], ...] = ()
    head_links: tuple[tuple[str, str], ...] = ()  # (rel, path)


def _esc(text: str) -> str:
    return html.escape(text, quote=True)


def _a(path: str, text: str) -> str:
    return f'<a href="{_esc(path)}">{_esc(text)}</a>'


def _ul(items: list[tuple[str, str]], cls: str) -> str:
    rows = "".join(f"<li>{_a(p, t)}</li>\n" for p, t in items)
    return f'<ul class="{cls}">\n{rows}</ul>\n'


def _paras(texts: list[str]) -> str:
    return "".join(f"<p>{_esc(t)}</p>\n" for t in texts)


def _generated(seed: str, pool: list[str], shape: tuple[int, ...], **fmt: str) -> list[str]:
    """Paragraphs of sentences drawn from ``pool``; ``shape`` is sentences per paragraph."""
    rng = random.Random(seed)
    fmt.setdefault("city", rng.choice(CITIES))
    fmt.setdefault("place", rng.choice(PLACES))
    fmt.setdefault("use", rng.choice(USES))
    picked = rng.sample(pool, sum(shape))
    out, i = [], 0
    for n in shape:
        out.append(" ".join(s.format(**fmt) for s in picked[i:i + n]))
        i += n
    return out


def _headers(section: str) -> tuple[tuple[str, str], ...]:
    cache = {"home": "public, max-age=300", "products": "public, max-age=3600",
             "company": "public, max-age=3600", "blog": "public, max-age=600",
             "docs": "public, max-age=86400"}[section]
    out = [("Cache-Control", cache)]
    if section != "blog":
        out.append(("X-Content-Type-Options", "nosniff"))
    if section in ("home", "products", "company"):
        out.append(("Strict-Transport-Security", "max-age=31536000; includeSubDomains"))
    if section == "docs":
        out.append(("Referrer-Policy", "strict-origin-when-cross-origin"))
    return tuple(out)


def _post_date(index: int) -> tuple[str, str]:
    """ISO date and display date of post ``index`` (0 = newest, one post a month)."""
    month0 = 2024 * 12 + 10 - index  # November 2024 downwards
    year, month = divmod(month0, 12)
    day = 3 + (index * 7) % 24
    return f"{year}-{month + 1:02d}-{day:02d}", f"{day} {MONTHS[month]} {year}"


def _doc_title(section: str, slug: str) -> str:
    if (section, slug) == NEW_DOC[:2]:
        return NEW_DOC[2]
    return next(t for s, t, _ in DOCS[section][2] if s == slug)


def _home(version: str) -> Page:
    featured = [(f"/products/{s}", PRODUCT[s][1]) for s in FEATURED]
    latest = [(f"/blog/{p[0]}", p[1]) for p in POSTS[:3]]
    start = [("/docs/getting-started/installation", "Install your first hub")]
    if version == "new":
        start.append(("/docs/reference/csv-export", "Export your readings as CSV"))
    main = _paras([
        "Fernhill Instruments makes rugged, low-power sensors for temperature, humidity, "
        "soil, water and air quality, and the hubs that collect their readings.",
        "Our stations run for years on a pair of batteries and report every minute, from "
        "vineyards and greenhouses to river banks and school roofs.",
    ])
    main += "<h2>Featured products</h2>\n" + _ul(featured, "featured")
    main += "<h2>From the blog</h2>\n" + _ul(latest, "latest")
    main += "<h2>Get started</h2>\n" + _ul(start, "start")
    return Page(
        path="/", title=f"{SITE} | Environmental sensors that last",
        description="Fernhill Instruments makes rugged, low-power environmental sensors and "
                    "hubs for growers, water boards, researchers and schools.",
        h1="Sensors for the outdoors", og_title=SITE, og_type="website", main=main,
        headers=_headers("home"),
        jsonld={"@context": "https://schema.org", "@type": "Organization", "name": SITE,
                "url": "{base}/", "foundingDate": "2014"},
    )


def _company(version: str) -> list[Page]:
    about_text = ABOUT_NEW if version == "new" else ABOUT_OLD
    about_main = _paras(about_text) + _ul(
        [("/careers", "Work with us"), ("/contact", "Contact us"),
         ("/blog/ten-years-of-fernhill", "Ten years of Fernhill Instruments")], "more")
    contact_main = _paras([
        "Write to hello@fernhill.example or call +32 9 000 00 00 on working days between "
        "nine and five.",
        "Our workshop is at Fabrieksstraat 12, Ghent. Visits are welcome by appointment.",
        "For technical questions, the documentation and the troubleshooting guide answer "
        "most of them faster than we can.",
    ]) + _ul([("/docs/getting-started/troubleshooting", "Troubleshooting a silent sensor"),
              ("/about", "About us")], "more")
    careers_main = _paras(_generated("/careers", BLOG_SENTENCES, (3, 3),
                                     topic="working at Fernhill")) + _paras([
        "We are currently looking for a firmware engineer and a field technician.",
    ]) + _ul([("/blog/hiring-firmware-engineer", "We are hiring a firmware engineer"),
              ("/about", "About us")], "more")
    privacy_main = _paras([
        "We collect only what we need to deliver your orders and run your hubs.",
        "Sensor readings belong to you. We store them in data centres in the European "
        "Union and never sell or share them.",
        "You can export or delete your data at any time from the dashboard.",
    ]) + _ul([("/terms", "Terms of sale")], "more")
    terms_main = _paras([
        "These terms apply to every order placed with Fernhill Instruments.",
        "Products come with a three-year warranty covering defects in materials and "
        "workmanship; batteries are covered for one year.",
        "You may return unused products within thirty days for a full refund.",
    ]) + _ul([("/privacy", "Privacy notice")], "more")
    headers = _headers("company")
    careers_headers = headers
    contact_headers = headers
    if version == "new":
        careers_headers = (("Cache-Control", "no-cache"), *headers[1:])
        contact_headers = (*headers, ("X-Frame-Options", "DENY"))
    return [
        Page("/about", f"About us | {SITE}",
             "Who we are: a sensor maker founded in 2014 in Ghent, designing, assembling "
             "and calibrating everything in our own workshop.",
             "About Fernhill Instruments", "About Fernhill Instruments", "website",
             about_main, headers,
             jsonld={"@context": "https://schema.org", "@type": "Organization", "name": SITE,
                     "url": "{base}/", "address": "Fabrieksstraat 12, Ghent, Belgium"}),
        Page("/contact", f"Contact | {SITE}",
             "How to reach Fernhill Instruments: email, phone and our workshop address.",
             "Contact us", "Contact Fernhill Instruments", "website", contact_main,
             contact_headers),
        Page("/careers", f"Careers | {SITE}",
             "Open positions at Fernhill Instruments and what it is like to work with us.",
             "Careers", "Careers at Fernhill Instruments", "website", careers_main,
             careers_headers),
        Page("/privacy", f"Privacy notice | {SITE}",
             "How Fernhill Instruments handles your personal data and your sensor readings.",
             "Privacy notice", "Privacy notice", "website", privacy_main, headers),
        Page("/terms", f"Terms of sale | {SITE}",
             "Warranty, returns and the terms that apply to orders from Fernhill "
             "Instruments.", "Terms of sale", "Terms of sale", "website", terms_main,
             headers),
    ]


def _related_products(slug: str) -> list[str]:
    pool = [p[0] for p in PRODUCTS if p[0] not in NOT_RELATED]
    if slug in pool:
        i = pool.index(slug)
        return [pool[(i + 1) % len(pool)], pool[(i + 3) % len(pool)]]
    return pool[:2]


def _products(version: str) -> list[Page]:
    listed = [(f"/products/{p[0]}", p[1]) for p in PRODUCTS
              if not (version == "new" and p[0] == "moss-relay")]
    index = Page(
        "/products/", f"Products | {SITE}",
        "All Fernhill sensors and hubs: temperature, humidity, CO2, soil, water, wind, rain "
        "and light, with prices and specifications.",
        "Products", "Fernhill products", "website",
        _paras(["Every sensor pairs with an Aster Hub and runs for years on batteries.",
                "Prices include VAT and shipping within the European Union."])
        + _ul(listed, "product-list"),
        _headers("products"), crumbs=(("/", "Home"),))
    pages = [index]
    for i, (slug, name, kind, feature, price, battery, reach) in enumerate(PRODUCTS):
        path = f"/products/{slug}"
        fmt = {"name": name, "kind": kind, "feature": feature, "battery": battery,
               "range": reach}
        text = _generated(path, PRODUCT_SENTENCES, (3, 4, 3), **fmt)
        spec = (
            '<table class="spec">\n'
            f"<tr><th>Measures</th><td>{_esc(feature)}</td></tr>\n"
            f"<tr><th>Battery life</th><td>{_esc(battery)}</td></tr>\n"
            f"<tr><th>Radio range</th><td>{_esc(reach)}</td></tr>\n"
            f"<tr><th>Article number</th><td>FH-{1001 + i}</td></tr>\n"
            f"<tr><th>Price</th><td>€{price}</td></tr>\n"
            "</table>\n")
        related = [(f"/products/{r}", PRODUCT[r][1]) for r in _related_products(slug)]
        main = (_paras(text[:1]) + spec + _paras(text[1:])
                + "<h2>Documentation</h2>\n"
                + _ul([("/docs/getting-started/installation", "Installing the Aster Hub")],
                      "docs")
                + "<h2>Related products</h2>\n" + _ul(related, "related"))
        title, description = f"{name} | {SITE}", (
            f"The {name} is a {kind} for long-term field monitoring: it {feature}. "
            "Specifications, prices and documentation.")
        h1, og_title, canonical = name, name, ""
        if version == "new":
            if slug == "gale-wind":
                title = f"Gale Wind Anemometer and Vane | {SITE}"
            elif slug == "heron-rain":
                description = ("Heron Rain Gauge: tipping-bucket rainfall measurement to "
                               "0.2 mm, now with a heated funnel for snow and sleet. Order "
                               "online or ask for a quote.")
            elif slug == "cedar-co2":
                h1 = "Cedar CO2 Sensor (NDIR)"
            elif slug == "kestrel-uv":
                og_title = "Kestrel UV: the UV index sensor for the field"
            elif slug == "aster-hub-mini":
                canonical = "/products/aster-hub"
        jsonld = None
        if slug in PRODUCT_JSONLD:
            jsonld = {"@context": "https://schema.org", "@type": "Product", "name": name,
                      "sku": f"FH-{1001 + i}", "url": "{base}" + path,
                      "brand": {"@type": "Brand", "name": SITE},
                      "offers": {"@type": "Offer", "price": f"{price}.00",
                                 "priceCurrency": "EUR"}}
        pages.append(Page(path, title, description, h1, og_title, "product", main,
                          _headers("products"), canonical=canonical, jsonld=jsonld,
                          crumbs=(("/", "Home"), ("/products/", "Products"))))
    return pages


def _blog(version: str) -> list[Page]:
    pages = []
    groups = [POSTS[i:i + POSTS_PER_PAGE] for i in range(0, len(POSTS), POSTS_PER_PAGE)]
    for n, group in enumerate(groups, start=1):
        path = "/blog/" if n == 1 else f"/blog/page/{n}"
        items = "".join(
            f"<li>{_a('/blog/' + p[0], p[1])} <time datetime=\"{_post_date(POSTS.index(p))[0]}"
            f"\">{_post_date(POSTS.index(p))[1]}</time></li>\n" for p in group)
        head, pager = [], []
        if n > 1:
            prev = "/blog/" if n == 2 else f"/blog/page/{n - 1}"
            head.append(("prev", prev))
            pager.append((prev, "Newer posts"))
        if n < len(groups):
            head.append(("next", f"/blog/page/{n + 1}"))
            pager.append((f"/blog/page/{n + 1}", "Older posts"))
        suffix = "" if n == 1 else f" (page {n})"
        pages.append(Page(
            path, f"Blog{suffix} | {SITE}",
            "News, field notes and customer stories from Fernhill Instruments"
            + (f", page {n}." if n > 1 else "."),
            "Blog" if n == 1 else f"Blog, page {n}", f"Fernhill blog{suffix}", "website",
            f'<ul class="posts">\n{items}</ul>\n' + _ul(pager, "pager"), _headers("blog"),
            crumbs=(("/", "Home"),), head_links=tuple(head)))
        for j, (slug, title, topic, product) in enumerate(group):
            index = POSTS.index((slug, title, topic, product))
            post_path = f"/blog/{slug}"
            iso, shown = _post_date(index)
            author = AUTHORS[index % len(AUTHORS)]
            text = _generated(post_path, BLOG_SENTENCES, (3, 3, 2, 2), topic=topic)
            links: list[tuple[str, str]] = []
            if product:
                links.append((f"/products/{product}", PRODUCT[product][1]))
            if version == "new" and slug == "customer-story-vineyard":
                links.append(("/products/dune-soil", PRODUCT["dune-soil"][1]))
            related = [group[(j + 1) % len(group)], group[(j + 5) % len(group)]]
            main = (f'<p class="byline">By {_esc(author)}, '
                    f'<time datetime="{iso}">{shown}</time></p>\n' + _paras(text))
            if links:
                main += "<h2>Products in this post</h2>\n" + _ul(links, "products")
            main += "<h2>Related posts</h2>\n" + _ul(
                [(f"/blog/{r[0]}", r[1]) for r in related], "related")
            jsonld = None
            if index < 4:
                kind = "Article"
                if version == "new" and slug == "field-notes-peat-bog":
                    kind = "BlogPosting"
                jsonld = {"@context": "https://schema.org", "@type": kind,
                          "headline": title, "datePublished": iso,
                          "author": {"@type": "Person", "name": author},
                          "url": "{base}" + post_path}
            robots = "noindex" if version == "new" and slug == "spring-sale-2023" else None
            pages.append(Page(
                post_path, f"{title} | {SITE}",
                f"{title}. A post from the Fernhill Instruments blog about {topic}, "
                f"published {shown}.",
                title, title, "article", main, _headers("blog"), robots=robots,
                jsonld=jsonld, crumbs=(("/", "Home"), (path, "Blog"))))
    return pages


def _docs(version: str) -> list[Page]:
    sections = [(f"/docs/{s}/", t) for s, (t, _, _) in DOCS.items()]
    pages = [Page(
        "/docs/", f"Documentation | {SITE}",
        "Documentation for Fernhill sensors and hubs: getting started, guides and reference.",
        "Documentation", "Fernhill documentation", "website",
        _paras(["Start with the getting started section if you have just unpacked a hub.",
                "The guides cover longer setups; the reference lists exact formats and "
                "codes."]) + _ul(sections, "sections"),
        _headers("docs"), crumbs=(("/", "Home"),))]
    for section, (stitle, intro, entries) in DOCS.items():
        spath = f"/docs/{section}/"
        listed = [(f"{spath}{slug}", title) for slug, title, _ in entries]
        if version == "new" and section == NEW_DOC[0]:
            listed.append((f"{spath}{NEW_DOC[1]}", NEW_DOC[2]))
        pages.append(Page(
            spath, f"{stitle} | Documentation | {SITE}",
            f"{stitle}: {intro}", stitle, f"{stitle} – Fernhill documentation", "website",
            _paras([intro]) + _ul(listed, "pages"), _headers("docs"),
            crumbs=(("/", "Home"), ("/docs/", "Documentation"))))
        todo = list(entries)
        if version == "new" and section == NEW_DOC[0]:
            todo.append(NEW_DOC[1:])
        for slug, title, see_also in todo:
            path = f"{spath}{slug}"
            text = _generated(path, DOC_SENTENCES, (3, 3, 2), topic=title.lower())
            main = _paras(text[:1])
            if slug == "first-reading":
                target = ("/docs/getting-started/installation" if version == "new"
                          else "/docs/getting-started/instalation")
                main += (f'<p>If the hub is not installed yet, follow '
                         f'{_a(target, "the installation guide")} first.</p>\n')
            if slug in ("api", "config-file", "csv-export"):
                main += ('<pre><code>timestamp,sensor,value,unit\n'
                         '2024-11-01T00:00:00Z,FH-1004,7.4,degC</code></pre>\n')
            main += _paras(text[1:])
            more = [(f"{spath}{s}", _doc_title(section, s)) for s in see_also]
            if slug == "csv-export":  # no deeper page: its depth edit moves nothing else
                more.append(("/blog/open-data-export", "Your data, your files: better CSV "
                             "export"))
            if slug == NEW_DOC[1]:
                more.append(("/docs/reference/api", "HTTP API reference"))
            if version == "new" and slug == "api":
                more.append(("/docs/reference/rate-limits", "Rate limits"))
            main += "<h2>See also</h2>\n" + _ul(more, "see-also")
            pages.append(Page(
                path, f"{title} | Documentation | {SITE}",
                f"{title}. {text[0].split('. ')[0].rstrip('.')}. Part of the Fernhill "
                f"{stitle.lower()} documentation.",
                title, title, "article", main, _headers("docs"),
                crumbs=(("/", "Home"), ("/docs/", "Documentation"), (spath, stitle))))
    return pages


def _build(version: str) -> dict[str, Page]:
    pages = [_home(version), *_company(version), *_products(version), *_blog(version),
             *_docs(version)]
    return {p.path: p for p in pages}


# --------------------------------------------------------------------------- rendering

NAV = [("/", "Home"), ("/products/", "Products"), ("/blog/", "Blog"), ("/docs/", "Docs"),
       ("/about", "About"), ("/contact", "Contact")]
FOOTER = [("/about", "About"), ("/careers", "Careers"), ("/contact", "Contact"),
          ("/privacy", "Privacy"), ("/terms", "Terms")]

CSS = """\
body { margin: 0; font-family: system-ui, sans-serif; color: #1d2a22; line-height: 1.5; }
.site-header, footer { background: #24492f; color: #f2f5ef; padding: 0.8rem 2rem; }
.site-header a, footer a { color: #f2f5ef; }
.site-header nav ul { display: flex; gap: 1.2rem; list-style: none; padding: 0; }
.logo { font-weight: bold; font-size: 1.3rem; text-decoration: none; }
main { max-width: 46rem; margin: 0 auto; padding: 1rem 2rem 3rem; }
.breadcrumb ol { display: flex; gap: 0.5rem; list-style: none; padding: 0; font-size: 0.9rem; }
table.spec th { text-align: left; padding-right: 1rem; }
pre { background: #eef2ec; padding: 0.8rem; overflow-x: auto; }
footer ul { list-style: none; padding: 0; display: flex; gap: 1rem; flex-wrap: wrap; }
"""
ROBOTS = "User-agent: *\nAllow: /\n"


def _render(page: Page, base: str) -> bytes:
    """``base`` is the origin without a trailing slash, e.g. ``http://127.0.0.1:8000``."""
    canonical = base + (page.canonical or page.path)
    head = [
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_esc(page.title)}</title>",
        f'<meta name="description" content="{_esc(page.description)}">',
    ]
    if page.robots:
        head.append(f'<meta name="robots" content="{_esc(page.robots)}">')
    head += [
        f'<link rel="canonical" href="{_esc(canonical)}">',
        f'<meta property="og:type" content="{page.og_type}">',
        f'<meta property="og:title" content="{_esc(page.og_title)}">',
        f'<meta property="og:url" content="{_esc(base + page.path)}">',
        f'<meta property="og:site_name" content="{SITE}">',
        '<link rel="stylesheet" href="/site.css">',
    ]
    head += [f'<link rel="{rel}" href="{_esc(href)}">' for rel, href in page.head_links]
    if page.jsonld is not None:
        data = json.dumps(page.jsonld, indent=2).replace("{base}", base)
        head.append(f'<script type="application/ld+json">\n{data}\n</script>')
    nav = "".join(f"<li>{_a(p, t)}</li>" for p, t in NAV)
    crumbs = ""
    if page.crumbs:
        items = "".join(f"<li>{_a(p, t)}</li>" for p, t in page.crumbs)
        crumbs = f'<nav class="breadcrumb" aria-label="Breadcrumb"><ol>{items}</ol></nav>\n'
    company = "".join(f"<li>{_a(p, t)}</li>" for p, t in FOOTER)
    elsewhere = (f'<li>{_a(EXTERNAL[0], "Our distribution partner")}</li>'
                 f'<li>{_a(EXTERNAL[1], "Community forum")}</li>')
    doc = (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n' + "\n".join(head) + "\n</head>\n<body>\n"
        f'<header class="site-header"><a class="logo" href="/">{SITE}</a>\n'
        f'<nav aria-label="Main"><ul>{nav}</ul></nav>\n</header>\n'
        f"<main>\n{crumbs}<h1>{_esc(page.h1)}</h1>\n{page.main}</main>\n"
        "<footer>\n"
        f'<nav aria-label="Company"><ul>{company}</ul></nav>\n'
        f"<ul>{elsewhere}</ul>\n"
        f"<p>© 2024 {SITE}, Fabrieksstraat 12, Ghent, Belgium.</p>\n"
        "</footer>\n</body>\n</html>\n")
    return doc.encode("utf-8")


def _error_page(status: int, base: str) -> bytes:
    title = "Page not found" if status == 404 else "Page removed"
    text = ("The page you asked for does not exist." if status == 404
            else "This product has been discontinued and its page removed for good.")
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>{title} | {SITE}</title>\n'
        '<meta name="robots" content="noindex">\n</head>\n<body>\n'
        f"<h1>{title}</h1>\n<p>{text}</p>\n<p>{_a('/', 'Back to the home page')}</p>\n"
        "</body>\n</html>\n").encode()


_PAGES = {v: _build(v) for v in VERSIONS}
#: In "new": removed pages and their status (410 Gone, 404) or redirect target.
_GONE_NEW = {"/blog/winter-offsite-2022": 404, "/products/ivy-leaf": 410}
_MOVED_NEW = {"/products/birch-t1": "/products/birch-t2"}
for _path in (*_GONE_NEW, *_MOVED_NEW):
    del _PAGES["new"][_path]


def respond(version: str, path: str, host: str = "127.0.0.1") -> Response:
    """Status, headers and body of ``GET path`` (query ignored) on ``version``."""
    if version not in VERSIONS:
        raise ValueError(f"version must be one of {VERSIONS}, not {version!r}")
    base = f"http://{host}"
    path = path.split("?", 1)[0].split("#", 1)[0] or "/"
    if path == "/robots.txt":
        return 200, [("Content-Type", "text/plain; charset=utf-8"),
                     ("Cache-Control", "public, max-age=86400")], ROBOTS.encode()
    if path == "/site.css":
        return 200, [("Content-Type", "text/css; charset=utf-8"),
                     ("Cache-Control", "public, max-age=86400"),
                     ("X-Content-Type-Options", "nosniff")], CSS.encode()
    page = _PAGES[version].get(path)
    if page is not None:
        return 200, [("Content-Type", "text/html; charset=utf-8"), *page.headers], \
            _render(page, base)
    if version == "new" and path in _MOVED_NEW:
        target = base + _MOVED_NEW[path]
        body = (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
                f"<title>Moved</title></head><body><p>Moved to {_a(target, target)}.</p>"
                "</body></html>\n").encode()
        return 301, [("Content-Type", "text/html; charset=utf-8"), ("Location", target),
                     ("Cache-Control", "public, max-age=3600")], body
    status = _GONE_NEW.get(path, 404) if version == "new" else 404
    return status, [("Content-Type", "text/html; charset=utf-8"),
                    ("Cache-Control", "no-store")], _error_page(status, base)


# --------------------------------------------------------------------------- crawl truth

#: Every HTML page answering 200 that a crawl from "/" following <a href> reaches.
PATHS_OLD: list[str] = sorted(_PAGES["old"])
PATHS_NEW: list[str] = sorted(p for p in _PAGES["new"] if p != "/products/moss-relay")
#: Every internal path such a crawl requests, with its status.
STATUS_OLD: dict[str, int] = {**dict.fromkeys(PATHS_OLD, 200),
                              "/docs/getting-started/instalation": 404}
STATUS_NEW: dict[str, int] = {**dict.fromkeys(PATHS_NEW, 200), **_GONE_NEW,
                              "/products/birch-t1": 301,
                              "/docs/reference/rate-limits": 404}


def truth() -> list[dict[str, Any]]:
    """A deep copy of ``EDITS``."""
    return [json.loads(json.dumps(edit)) for edit in EDITS]


# --------------------------------------------------------------------------- serving


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def _respond(self, send_body: bool) -> None:
        host = self.headers.get("Host") or f"127.0.0.1:{self.server.server_address[1]}"
        status, headers, body = respond(self.server.version, self.path, host)
        self.send_response(status)
        for key, value in headers:
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if send_body:
            self.wfile.write(body)

    def do_GET(self) -> None:
        self._respond(True)

    def do_HEAD(self) -> None:
        self._respond(False)

    def version_string(self) -> str:
        return "fernhill-web/2.3"

    def date_time_string(self, timestamp: float | None = None) -> str:
        return DATE

    def log_message(self, format: str, *args: object) -> None:
        pass


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int], version: str) -> None:
        super().__init__(address, _Handler)
        self.version = version


@contextlib.contextmanager
def serve(version: str, port: int = 0) -> Iterator[str]:
    """Serve ``version`` ("old" or "new") on 127.0.0.1 (a free port unless ``port``);
    yields the base URL, ending in ``/``."""
    if version not in VERSIONS:
        raise ValueError(f"version must be one of {VERSIONS}, not {version!r}")
    server = _Server(("127.0.0.1", port), version)
    thread = threading.Thread(target=server.serve_forever, name=f"edited-site-{version}",
                              daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


# --------------------------------------------------------------------------- self-check


class _Doc:
    """What the self-check reads from one HTML page (parsed with ``html.parser``)."""

    def __init__(self, body: bytes) -> None:
        from html.parser import HTMLParser

        self.title = ""
        self.meta: dict[str, list[str]] = {}
        self.rel: dict[str, list[str]] = {}
        self.hrefs: list[str] = []  # <a href>, in order
        self.h1: list[str] = []
        self.jsonld: list[str] = []
        self.main_text: list[str] = []
        self.srcs: list[str] = []
        doc = self
        stack: list[str] = []

        class Parser(HTMLParser):
            def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
                a = {k: v or "" for k, v in attrs}
                if "src" in a:
                    doc.srcs.append(a["src"])
                if tag == "meta" and ("name" in a or "property" in a):
                    key = a.get("name") or a.get("property") or ""
                    doc.meta.setdefault(key, []).append(a.get("content", ""))
                elif tag == "link":
                    doc.rel.setdefault(a.get("rel", ""), []).append(a.get("href", ""))
                elif tag == "a":
                    doc.hrefs.append(a.get("href", ""))
                if tag == "h1":
                    doc.h1.append("")
                if tag == "script" and a.get("type") == "application/ld+json":
                    doc.jsonld.append("")
                if tag not in ("meta", "link", "br", "img", "input"):
                    stack.append(tag)

            def handle_endtag(self, tag: str) -> None:
                if tag in stack:
                    while stack.pop() != tag:
                        pass

            def handle_data(self, data: str) -> None:
                if "title" in stack:
                    doc.title += data
                if "h1" in stack:
                    doc.h1[-1] += data
                if "script" in stack and doc.jsonld:
                    doc.jsonld[-1] += data
                if "main" in stack:
                    doc.main_text.append(data)

        Parser(convert_charrefs=True).feed(body.decode("utf-8"))

    def one(self, key: str) -> str | None:
        values = self.meta.get(key, [])
        assert len(values) <= 1, (key, values)
        return values[0] if values else None

    def words(self) -> int:
        return len(" ".join(self.main_text).split())

    def jsonld_types(self) -> list[str]:
        return [json.loads(text)["@type"] for text in self.jsonld]


def _summary(doc: _Doc, headers: dict[str, str], base: str, path: str) -> dict[str, Any]:
    def rel_path(url: str) -> str:
        return url[len(base):] if url.startswith(base) else url

    return {
        "title": doc.title, "description": doc.one("description"), "h1": doc.h1,
        "canonical": [rel_path(u) for u in doc.rel.get("canonical", [])],
        "og_title": doc.one("og:title"), "og_url": rel_path(doc.one("og:url") or ""),
        "robots": doc.one("robots"), "jsonld_types": doc.jsonld_types(),
        "links": [_urljoin_path(base, path, h) for h in doc.hrefs], "words": doc.words(),
        "headers": {k: v for k, v in headers.items() if k != "Content-Length"},
    }


def _urljoin_path(base: str, path: str, href: str) -> str:
    """``href`` on page ``path``, as a root-relative path if internal, else as given."""
    import urllib.parse

    full = urllib.parse.urljoin(base + path, href)
    split = urllib.parse.urlsplit(full)
    if f"{split.scheme}://{split.netloc}" != base:
        return full
    return split.path or "/"


def _one_added(old: object, new: object, target: str) -> bool:
    """Whether ``new`` is ``old`` with ``target`` inserted once, somewhere."""
    assert isinstance(old, list) and isinstance(new, list)
    return any(new[i] == target and new[:i] + new[i + 1:] == old for i in range(len(new)))


def _fetch(url: str, method: str = "GET") -> tuple[int, dict[str, str], bytes]:
    import urllib.error
    import urllib.request

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: object, **kwargs: object) -> None:
            return None

    # no proxies: every request goes straight to 127.0.0.1
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}), NoRedirect)
    request = urllib.request.Request(url, method=method)
    try:
        with opener.open(request, timeout=10) as resp:
            return resp.status, dict(resp.headers.items()), resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers.items()), exc.read()


class _Crawl:
    """A breadth-first crawl from ``/`` following ``<a href>`` links and redirects."""

    def __init__(self, base: str) -> None:
        import collections

        self.base = base  # origin, no trailing slash
        self.resp: dict[str, tuple[int, dict[str, str], bytes]] = {}
        self.depth: dict[str, int] = {"/": 0}
        self.links: dict[str, list[str]] = {}
        queue = collections.deque(["/"])
        while queue:
            path = queue.popleft()
            if path in self.resp:
                continue
            status, headers, body = self.resp[path] = _fetch(base + path)
            found: list[str] = []
            if status == 200 and headers["Content-Type"].startswith("text/html"):
                found = [_urljoin_path(base, path, h) for h in _Doc(body).hrefs]
                self.links[path] = [f for f in found if f.startswith("/")]
            elif status in (301, 302, 303, 307, 308):
                target = _urljoin_path(base, path, headers["Location"])
                if target.startswith("/") and target not in self.depth:
                    self.depth[target] = self.depth[path]
                    queue.appendleft(target)
            for link in self.links.get(path, []):
                if link not in self.depth:
                    self.depth[link] = self.depth[path] + 1
                    queue.append(link)

    def status(self) -> dict[str, int]:
        return {p: r[0] for p, r in self.resp.items()}

    def pages(self) -> list[str]:
        return sorted(p for p, (s, h, _) in self.resp.items()
                      if s == 200 and h["Content-Type"].startswith("text/html"))

    def linked_from(self, target: str) -> list[str]:
        return sorted(p for p, links in self.links.items() if target in links)


#: For each kind of edit on a page answering 200 in both versions: the summary fields that
#: may change (word counts count the h1 and link text inside <main>).
_DIFF = {
    "title": {"title"}, "description": {"description"}, "h1": {"h1", "words"},
    "canonical": {"canonical"}, "og_title": {"og_title"}, "noindex": {"robots"},
    "content": {"words"}, "outlink_added": {"links", "words"},
    "jsonld_type": {"jsonld_types"}, "header": {"headers"},
    "broken_link_added": {"links", "words"}, "broken_link_fixed": {"links"},
    "depth": set(), "unlinked": set(), "inherent": {"links", "words"},
}


def _check() -> None:  # pragma: no cover - manual tool
    import time

    started = time.perf_counter()
    crawls: dict[str, _Crawl] = {}
    extra: dict[str, dict[str, tuple[int, dict[str, str], bytes]]] = {}
    bases: dict[str, str] = {}
    others = ["/products/moss-relay", "/robots.txt", "/site.css", "/no/such/page",
              "/docs/guides/webhooks", "/docs/reference/rate-limits",
              "/docs/getting-started/instalation", "/favicon.ico"]
    port = 0
    for version in VERSIONS:
        try:
            context = serve(version, port)
            base_url = context.__enter__()
        except OSError:  # the old port was taken meanwhile: compare modulo the origin
            context = serve(version)
            base_url = context.__enter__()
        try:
            origin = bases[version] = base_url.rstrip("/")
            port = int(origin.rsplit(":", 1)[1])
            crawl = crawls[version] = _Crawl(origin)
            extra[version] = {p: _fetch(origin + p) for p in others}
            head = _fetch(origin + "/products/", "HEAD")
            assert head[0] == 200 and head[2] == b"", head[:2]
            assert head[1]["Content-Length"] == str(len(crawl.resp["/products/"][2]))
            # determinism: the in-process answer is the same bytes as the HTTP one
            for path, (status, headers, body) in crawl.resp.items():
                again = respond(version, path, origin[len("http://"):])
                assert again[0] == status and again[2] == body, path
                assert headers["Date"] == DATE, headers
        finally:
            context.__exit__(None, None, None)
    same_port = bases["old"] == bases["new"]
    print(f"served old at {bases['old']}/, new at {bases['new']}/ "
          f"({'same port' if same_port else 'different ports'}); "
          f"fetched in {time.perf_counter() - started:.2f}s")

    # 1. crawl completeness: statuses and pages of each version are the declared ones
    for version, want_status, want_pages in (("old", STATUS_OLD, PATHS_OLD),
                                             ("new", STATUS_NEW, PATHS_NEW)):
        crawl = crawls[version]
        got = crawl.status()
        assert got == want_status, (version, sorted(set(got.items()) ^ set(want_status.items())))
        assert crawl.pages() == want_pages, version
        print(f"{version}: crawl requests {len(got)} paths, {len(crawl.pages())} pages "
              f"answer 200; max depth {max(crawl.depth[p] for p in crawl.pages())}")

    # 2. every page is a full document; no reference to another host but the two <a> links
    import re

    for version, crawl in crawls.items():
        base = bases[version]
        for path in crawl.pages():
            status, headers, body = crawl.resp[path]
            doc = _Doc(body)
            assert headers["Content-Type"] == "text/html; charset=utf-8", path
            assert headers.get("Cache-Control"), path
            assert doc.title and doc.one("description") and doc.one("og:title"), path
            assert len(doc.h1) == 1, (path, doc.h1)
            assert len(doc.rel["canonical"]) == 1, path
            assert doc.rel["canonical"][0].startswith(base + "/"), path
            assert doc.one("og:url") == base + path, path
            assert not doc.srcs, (path, doc.srcs)
            text = body.decode()
            for url in re.findall(r"https?://[^\s\"'<>]+", text):
                if url.startswith(base + "/") or url == base:
                    continue
                if url == "https://schema.org":
                    assert '"@context": "https://schema.org"' in text
                    continue
                assert url in EXTERNAL and f'<a href="{url}">' in text, (path, url)

    # 3. the edits
    def summary(version: str, path: str) -> dict[str, Any]:
        status, headers, body = _get(version, path)
        assert status == 200, (version, path, status)
        return _summary(_Doc(body), headers, bases[version], path)

    def _get(version: str, path: str) -> tuple[int, dict[str, str], bytes]:
        return crawls[version].resp.get(path) or extra[version][path]

    def diff(path: str) -> dict[str, tuple[Any, Any]]:
        old, new = summary("old", path), summary("new", path)
        return {k: (old[k], new[k]) for k in old if old[k] != new[k]}

    depth_old, depth_new = crawls["old"].depth, crawls["new"].depth
    edited = {e["path"] for e in EDITS}
    assert len(edited) == len(EDITS), "one edit per page"
    for edit in EDITS:
        path, kind = edit["path"], edit["kind"]
        if kind in _DIFF:
            changes = diff(path)
            assert set(changes) <= _DIFF[kind], (path, kind, changes)
            assert kind in ("depth", "unlinked") or changes, (path, kind)
        old_value: Any
        new_value: Any
        if kind in ("title", "description", "h1", "og_title", "canonical", "noindex"):
            field = {"noindex": "robots"}.get(kind, kind)
            old_value, new_value = changes.get(field, (None, None))
            if kind == "h1":
                old_value, new_value = old_value[0], new_value[0]
            if kind == "canonical":
                old_value, new_value = old_value[0], new_value[0]
                assert new_value in PATHS_NEW, new_value
            assert (old_value, new_value) == (edit["old"], edit["new"]), (path, changes)
        elif kind == "content":
            old_value, new_value = changes["words"]
            assert (old_value, new_value) == (edit["old_words"], edit["new_words"]), changes
            assert new_value > 1.5 * old_value
        elif kind == "outlink_added":
            old_links, new_links = changes["links"]
            assert _one_added(old_links, new_links, edit["target"]), changes
            assert edit["target"] in PATHS_OLD and edit["target"] in PATHS_NEW
            assert depth_old[edit["target"]] == depth_new[edit["target"]]
            old_value, new_value = len(old_links), len(new_links)
        elif kind == "jsonld_type":
            old_value, new_value = (changes["jsonld_types"][0][0],
                                    changes["jsonld_types"][1][0])
            assert (old_value, new_value) == (edit["old"], edit["new"]), changes
        elif kind == "header":
            old_h, new_h = changes["headers"]
            old_value = old_h.get(edit["header"])
            new_value = new_h.get(edit["header"])
            assert (old_value, new_value) == (edit["old"], edit["new"]), changes
            rest_old = {k: v for k, v in old_h.items() if k != edit["header"]}
            rest_new = {k: v for k, v in new_h.items() if k != edit["header"]}
            assert rest_old == rest_new, changes
        elif kind in ("status_404", "status_410", "redirect"):
            old_value, new_value = _get("old", path)[0], _get("new", path)[0]
            assert (old_value, new_value) == (edit["old"], edit["new"]), path
            assert crawls["new"].linked_from(path) == edit["linked_from"], (
                path, crawls["new"].linked_from(path))
            assert crawls["old"].linked_from(path) == edit["linked_from"], path
            if kind == "redirect":
                location = _get("new", path)[1]["Location"]
                assert location == bases["new"] + edit["target"], location
                assert edit["target"] in PATHS_NEW
                new_value = f"301 → {edit['target']}"
        elif kind == "unlinked":
            assert _get("new", path)[0] == 200 and path not in PATHS_NEW
            assert crawls["old"].linked_from(path) == edit["linked_from_old"]
            assert crawls["new"].linked_from(path) == edit["linked_from_new"] == []
            old_value, new_value = "linked", "orphan (200)"
        elif kind == "added":
            old_value, new_value = _get("old", path)[0], _get("new", path)[0]
            assert (old_value, new_value) == (edit["old"], edit["new"]), path
            assert crawls["new"].linked_from(path) == [edit["linked_from"]]
            assert path in PATHS_NEW and path not in PATHS_OLD
        elif kind == "broken_link_added":
            old_links, new_links = changes["links"]
            assert _one_added(old_links, new_links, edit["target"]), changes
            assert _get("old", edit["target"])[0] == _get("new", edit["target"])[0] == 404
            assert edit["target"] not in STATUS_OLD
            old_value, new_value = "-", edit["target"]
        elif kind == "broken_link_fixed":
            old_links, new_links = changes["links"]
            swapped = [edit["new"] if link == edit["old"] else link
                       for link in old_links]
            assert swapped == new_links and edit["old"] in old_links, changes
            assert _get("old", edit["old"])[0] == edit["old_status"] == 404
            assert _get("new", edit["new"])[0] == edit["new_status"] == 200
            old_value, new_value = edit["old"], edit["new"]
        elif kind == "depth":
            old_value, new_value = depth_old[path], depth_new[path]
            assert (old_value, new_value) == (edit["old"], edit["new"]), path
            assert path in crawls["new"].links[edit["via"]]
            assert path not in crawls["old"].links[edit["via"]]
        else:
            raise AssertionError(f"unknown kind {kind}")
        extra_text = f" ({edit['header']})" if kind == "header" else ""
        print(f"  ok {kind:18} {path:38} {old_value!r} → {new_value!r}{extra_text}")

    # 4. depth: only the declared page moves among the pages both crawls reach
    moved = sorted(p for p in set(PATHS_OLD) & set(PATHS_NEW) if depth_old[p] != depth_new[p])
    assert moved == [e["path"] for e in EDITS if e["kind"] == "depth"], moved

    # 5. the consequences: inherent pages change only their links; the rest is identical
    for path in INHERENT:
        assert set(diff(path)) == _DIFF["inherent"], (path, diff(path))
    everything = sorted(set(STATUS_OLD) | set(STATUS_NEW) | set(others))
    identical = 0
    for path in everything:
        old, new = _get("old", path), _get("new", path)
        same = (old[0] == new[0] and old[1] == new[1]
                and old[2].replace(bases["old"].encode(), b"{base}")
                == new[2].replace(bases["new"].encode(), b"{base}"))
        if path in INHERENT or (path in edited and path not in (
                "/products/moss-relay", "/docs/reference/csv-export")):
            assert not same, path
        else:
            assert same, path
            identical += 1
    print(f"inherent changes: {', '.join(INHERENT)}; "
          f"{identical} of {len(everything)} paths answer identical bytes and headers"
          + ("" if same_port else " (modulo the origin)"))
    print("all checks passed")


if __name__ == "__main__":  # pragma: no cover - manual tool
    import sys

    args = sys.argv[1:]
    if args == ["--check"]:
        _check()
    elif len(args) in (1, 2) and args[0] in VERSIONS:
        with serve(args[0], int(args[1]) if len(args) == 2 else 0) as url:
            print(f"serving {args[0]!r} at {url} (Ctrl-C to stop)")
            with contextlib.suppress(KeyboardInterrupt):
                threading.Event().wait()
    else:
        print("usage: python -m corpora.edited_site {old|new} [port] | --check")
        sys.exit(2)
