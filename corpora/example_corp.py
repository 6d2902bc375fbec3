"""An independently written test website for crawler-trap handling: "Example Corp".

The site was written from a description of how real sites behave, without knowledge of how
the crawler under test decides what a trap is. It mixes large but finite *legit* sections,
which a complete crawl must fetch entirely, with *trap* families, URL spaces that generate new
pages forever. Everything is generated on request by plain string building, deterministically
(every page seeds its own ``random.Random`` with its URL), and nothing big is cached.

Every page is a full HTML document: a ``<title>``, ``<meta name="description">``,
``og:title``, ``og:url`` and ``<link rel="canonical">``; a site-wide header with a logo
(inline SVG, no image request) and a ten-link navigation (Home, Shop, Catalog, Forum, Guides,
News, Repository, About, Help, Contact); and a footer with a few paragraphs and company links.
The shop, the forum and the news carry a sidebar. Home, shop, guides, news and the company
pages wrap their content in ``<main>``; the catalog, the forum and the repository use a plain
``<div id="content">`` instead. All links are root-relative (``/shop/?page=2``); canonical and
og:url are absolute, built from the request's Host header.

Legit sections
--------------

Home and company pages
    ``/`` links the entry point of every section; ``/about/``, ``/careers/``, ``/contact/``,
    ``/help/``, ``/privacy/`` and ``/terms/`` are plain text pages linked from the navigation
    and the footer.

Shop (``/shop/``)
    A catalogue of 720 distinct products over a real pager of 60 pages: ``/shop/`` is page 1,
    ``/shop/?page=2`` … ``/shop/?page=60`` the others, each listing 12 products of its own.
    Titles are "Shop – Page N", each page has ``rel=prev``/``rel=next`` link elements and a
    self canonical; the pager shows first/last, a window of numbers and previous/next links
    (page 1 is always spelled ``/shop/``). Each product, ``/shop/item/<slug>``, has a name
    built from word lists (sometimes with a model number), a price, a specification table, a
    link back to its listing page and four related products. Beyond page 60 the shop answers
    404.

Forum (``/forum/``)
    An index of 5 threads, ``/forum/thread-<id>/``, each with 15 pages of 10 different posts
    (``?p=2`` … ``?p=15``; page 1 is the bare thread URL). All pages of one thread share the
    same title, description and og:title, with no page number in them and no
    ``rel=prev``/``rel=next``; the canonical is the page's own URL. The pager is the numbered
    links 1..15; the index shows a mini pager per thread. Past page 15: 404.

Guides (``/guides/``)
    40 articles listed 20 per page. The list pages ``/guides/``, ``/guides/?start=0`` (what
    the pager's "1" links to: the same list as ``/guides/``) and ``/guides/?start=20`` all
    carry the same generic title and description, "Guides | Example Corp", with og:url and
    canonical equal to the page itself. Each article ``/guides/<slug>`` has its own title,
    steps and related guides.

News (``/news/``)
    An index of 40 articles, ``/news/<slug>``, each with a sidebar of the latest news and a
    "Share" box of three same-site links ``?ref=<6 hex>&utm_source=twitter|facebook|mail``
    (trap 2 below). Five articles also link ``/news/<slug>?view=print``, a printer-friendly
    page with different content (the article *and* its reader comments), its own title
    "Print: …" and a self canonical; those five print pages are legit.

Repository overview and HEAD views (``/repo/``)
    A small Trac-like repository browser over a deterministic history: 6 directories
    (``docs``, ``scripts``, ``src``, ``src/core``, ``src/net``, ``tests``), 20 files and 40
    revisions; revisions 1-10 add the files, later ones modify 1–3 files each. Legit are the
    overview ``/repo/``; the browser at HEAD, ``/repo/browser/`` and ``/repo/browser/<path>``
    (7 directories counting the root, with a trailing slash, and 20 files); the 40
    changesets ``/repo/changeset/<rev>`` (message, author, date and the changed files,
    with previous/next changeset); and the global log ``/repo/log/`` and
    ``/repo/log/?page=2`` (20 revisions each). The HEAD directory listing links its sort
    orders and the revision log.

Traps (families)
----------------

``pager-past-end``
    ``/catalog/`` has 8 real pages of 10 parts (``/catalog/?page=2`` … ``?page=8`` and 80
    legit part pages ``/catalog/part/<sku>``). Page 8 links "Next" to ``?page=9`` as a real
    site does, and for any N > 8 the server answers 200 with exactly page 8's parts again,
    but with a fresh title "Catalog - Page N", ``rel=prev`` to N-1, ``rel=next`` to N+1, a
    canonical and og:url of its own, and pager links to N+1 and N+2. Only N > 8 is the trap.

``share-variant``
    ``/news/<slug>?ref=<hex>&utm_source=<s>`` returns the article's content and meta
    unchanged, with canonical and og:url pointing to the clean ``/news/<slug>``; its share
    box links the two *other* sources, each with a fresh ``ref`` seeded by the variant's own
    URL, so every variant leads to two new ones.

``repo-views``
    Everything in the repository beyond the HEAD views. ``/repo/browser/<path>?rev=<r>``
    shows a file or directory as of any revision; a file view has ``<link rel=prev>`` and
    ``<link rel=next>`` to the previous and next revision that changed the file and a
    "View at revision r" link for every revision in its history. Directory listings are
    sortable with ``?order=name|size|date&desc=0|1`` (the same entries re-ordered), and a
    sorted listing propagates its sort keys into its entry links, which become
    ``?rev=<r>&order=…&desc=…`` (file views keep propagating them). Each changeset links
    ``/repo/changeset/<rev>/<path>`` for every changed file (the changeset restricted to one
    path, with a distinct title and previous/next change of that path).
    ``/repo/log/<path>?rev=<r>`` is the revision log of a path as of revision r, linking
    every listed revision's browser view and changeset-of-path (``/repo/log/?rev=<r>`` the
    same for the root). ``/repo/timeline?from=<date>`` shows one day's changesets — usually
    "No events" — with a "Previous day" link going back one day at a time, forever.

Use::

    with serve() as base:          # base = "http://127.0.0.1:<port>/"
        crawl(base)
    legit_urls(base)               # every URL a complete crawl must fetch
    family(url)                    # trap family name or None

``python -m corpora.example_corp`` runs a quick self-check.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import html
import http.server
import random
import re
import threading
import unicodedata
import urllib.parse
from collections.abc import Iterator, Mapping

__all__ = [
    "HUB_URLS",
    "TRAP_FAMILIES",
    "IndependentSite",
    "family",
    "hub_urls",
    "legit_urls",
    "serve",
]

TRAP_FAMILIES: list[str] = ["pager-past-end", "share-variant", "repo-views"]

#: Legit hub pages (root-relative); join them with the base URL (see ``hub_urls``).
HUB_URLS: list[str] = ["/repo/browser/", "/repo/log/", "/shop/", "/forum/"]

SITE = "Example Corp"
SHOP_PAGES, SHOP_PER_PAGE = 60, 12
CATALOG_PAGES, CATALOG_PER_PAGE = 8, 10
FORUM_PAGES, FORUM_PER_PAGE = 15, 10
GUIDES_PER_PAGE = 20
LOG_PER_PAGE = 20
SHARE_SOURCES = ("twitter", "facebook", "mail")

Response = tuple[int, dict[str, str], bytes]

# --------------------------------------------------------------------------- word lists

ADJECTIVES = [
    "sturdy", "compact", "weathered", "polished", "brushed", "rustic", "minimal", "classic",
    "foldable", "modular", "vintage", "lightweight", "heavy-duty", "slim", "oversized",
    "handcrafted", "matte", "glossy", "ergonomic", "portable", "cordless", "quiet", "bright",
    "waterproof", "insulated", "adjustable", "stackable", "reversible", "nordic", "urban",
]
MATERIALS = [
    "oak", "walnut", "bamboo", "steel", "aluminium", "copper", "brass", "linen", "wool",
    "leather", "ceramic", "glass", "cork", "marble", "birch", "cotton", "felt", "slate",
    "teak", "concrete",
]
PRODUCTS = [
    "desk lamp", "side table", "bookshelf", "kettle", "backpack", "water bottle",
    "cutting board", "throw blanket", "wall clock", "plant pot", "notebook", "coffee grinder",
    "stool", "floor rug", "picture frame", "serving tray", "pen holder", "laundry basket",
    "bread bin", "monitor stand", "bike rack", "tool box", "umbrella stand", "candle holder",
    "spice rack", "coat hook", "storage box", "bench", "planter", "mirror",
]
COLOURS = [
    "charcoal", "sand", "forest green", "navy", "terracotta", "ivory", "slate grey", "ochre",
    "burgundy", "sky blue", "natural", "black",
]
CITIES = [
    "Rotterdam", "Lyon", "Porto", "Gdańsk", "Leeds", "Tampere", "Bilbao", "Graz", "Aarhus",
    "Bologna", "Ghent", "Brno", "Cork", "Malmö", "Ljubljana", "Tallinn",
]
FIRST_NAMES = [
    "Anna", "Bram", "Chloé", "Dario", "Elif", "Finn", "Greta", "Hugo", "Ines", "Jonas",
    "Katja", "Luca", "Maren", "Nils", "Olga", "Pavel", "Rosa", "Sami", "Tess", "Viktor",
]
LAST_NAMES = [
    "Jansen", "Moreau", "Silva", "Kowalski", "Hughes", "Virtanen", "Etxeberria", "Huber",
    "Nielsen", "Ricci", "Peeters", "Novák", "Murphy", "Lindqvist", "Kovač", "Tamm",
]
USER_PARTS_A = [
    "oak", "river", "maple", "quiet", "north", "tiny", "iron", "amber", "cedar", "blue",
    "happy", "old", "lazy", "swift", "paper", "stone",
]
USER_PARTS_B = [
    "fox", "maker", "owl", "carpenter", "tinker", "dad", "garden", "crafter", "smith",
    "reader", "wolf", "builder", "baker", "potter", "rider", "hiker",
]

SUBJECTS = [
    "Our team", "The new release", "This model", "The average customer", "The workshop in {city}",
    "A small change", "The updated design", "Every unit", "The support desk", "Our partner network",
    "The {material} finish", "A {adj} frame",
]
VERBS = [
    "improves", "simplifies", "replaces", "extends", "reduces", "keeps", "balances",
    "protects", "supports", "combines", "rethinks", "doubles",
]
OBJECTS = [
    "the daily routine", "the assembly time", "energy use", "the overall weight",
    "long-term durability", "the noise level", "cable clutter", "the setup process",
    "maintenance costs", "the original finish", "the packaging waste", "the delivery time",
]
TAILS = [
    "without extra tools", "in most rooms", "even after years of use",
    "for a fraction of the price", "compared to last year", "according to early feedback",
    "when used as intended", "across all sizes", "in colder climates", "with minimal effort",
    "in small apartments", "on uneven floors",
]
OPENERS = ["", "", "", "In practice, ", "However, ", "As a result, ", "For example, ",
           "Meanwhile, ", "In short, ", "Honestly, ", "Over time, "]
EXTRA_SENTENCES = [
    "About {n} percent of the people we asked said {object} mattered most.",
    "We tested {n} units in {city} over the winter.",
    "The {colour} version sold out within {n} days.",
    "It ships flat-packed in a {material}-free box.",
    "Replacement parts stay available for at least {n} years.",
    "The first batch came from a small {material} workshop near {city}.",
]
FORUM_SENTENCES = [
    "I had the same problem with my {product}.",
    "Did you try tightening the {part} first?",
    "Thanks, that fixed it for me!",
    "Mine has been fine for {n} months now, for what it's worth.",
    "Support sent me a new {part} within a week.",
    "Has anyone tried a {material} replacement?",
    "Photos would help, hard to tell from the description.",
    "Same here, bought mine in {city} last spring.",
    "Could be the floor, honestly – check with a spirit level.",
    "I'd avoid oil on {material}, a soft wax works better.",
    "Following, I'm thinking of buying the {colour} one.",
    "Update: it was the {part} after all.",
]
PART_WORDS = [
    "hinge", "screw", "bracket", "drawer slide", "caster", "handle", "washer", "leg", "lid",
    "gasket", "spring", "foot",
]
PART_TYPES = [
    "hex bolt", "wing nut", "flat washer", "butt hinge", "drawer slide", "caster wheel",
    "cabinet handle", "shelf bracket", "gas spring", "rubber foot", "corner brace",
    "threaded insert", "door magnet", "cable grommet", "leveling foot",
]
PART_FINISHES = [
    "zinc-plated", "stainless", "black oxide", "brass", "nylon", "galvanised", "chrome",
    "powder-coated",
]
PART_SIZES = ["M4", "M5", "M6", "M8", "M10", "25 mm", "40 mm", "60 mm", "100 mm", "3/8 in"]
GUIDE_VERBS = ["assemble", "clean", "repair", "refinish", "wall-mount", "store", "restore",
               "level", "oil", "waterproof", "descale", "re-upholster"]
GUIDE_TOPICS = [
    "woodworking joints", "cable management", "indoor plants", "leather care",
    "small-space storage", "furniture wax", "sharpening hand tools", "choosing screws",
    "natural dyes", "home office lighting", "ceramic glazes", "linen washing",
]
ROOMS = ["the hallway", "a small kitchen", "the home office", "a kid's room", "the balcony",
         "a studio flat", "the workshop", "the garden shed"]
NEWS_ROLES = ["head of design", "chief financial officer", "head of sustainability",
              "lead engineer", "customer service director"]
SEASONS = ["spring", "summer", "autumn", "winter"]

NAV = [
    ("/", "Home", "home"),
    ("/shop/", "Shop", "shop"),
    ("/catalog/", "Catalog", "catalog"),
    ("/forum/", "Forum", "forum"),
    ("/guides/", "Guides", "guides"),
    ("/news/", "News", "news"),
    ("/repo/", "Repository", "repo"),
    ("/about/", "About", "about"),
    ("/help/", "Help", "help"),
    ("/contact/", "Contact", "contact"),
]
FOOTER_LINKS = [
    ("/about/", "About us"),
    ("/careers/", "Careers"),
    ("/contact/", "Contact"),
    ("/privacy/", "Privacy policy"),
    ("/terms/", "Terms of use"),
]
STATIC_PAGES = {
    "/about/": ("About us", "about"),
    "/careers/": ("Careers", "about"),
    "/contact/": ("Contact", "contact"),
    "/help/": ("Help and support", "help"),
    "/privacy/": ("Privacy policy", "about"),
    "/terms/": ("Terms of use", "about"),
}

CSS = (
    "body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#222}"
    ".site-header{display:flex;gap:2em;align-items:center;padding:.5em 2em;background:#f4f1ea}"
    ".site-header nav ul{display:flex;gap:1em;list-style:none;margin:0;padding:0}"
    ".layout{display:flex;gap:2em;padding:1em 2em}.layout>#content{flex:1}"
    ".sidebar{width:16em;font-size:.9em}.pager a,.pager span{margin-right:.5em}"
    ".site-footer{background:#2b2b2b;color:#ddd;padding:1em 2em}.site-footer a{color:#fff}"
    "table{border-collapse:collapse}td,th{padding:.2em .6em;text-align:left}"
)
LOGO = (
    '<svg width="32" height="32" viewBox="0 0 32 32" aria-hidden="true">'
    '<circle cx="16" cy="16" r="14" fill="#c0582b"/>'
    '<path d="M9 16h14M16 9v14" stroke="#fff" stroke-width="3"/></svg>'
)


# --------------------------------------------------------------------------- helpers


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _a(href: str, text: str, **attrs: str) -> str:
    extra = "".join(f' {k.rstrip("_").replace("_", "-")}="{_e(v)}"' for k, v in attrs.items())
    return f'<a href="{_e(href)}"{extra}>{_e(text)}</a>'


def _slugify(text: str) -> str:
    text = unicodedata.normalize("NFKD", text.lower().replace("ß", "ss"))
    text = re.sub(r"[^a-z0-9]+", "-", text.encode("ascii", "ignore").decode())
    return text.strip("-")


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _fill(template: str, rng: random.Random) -> str:
    return template.format(
        city=rng.choice(CITIES),
        material=rng.choice(MATERIALS),
        adj=rng.choice(ADJECTIVES),
        n=rng.randint(2, 90),
        object=rng.choice(OBJECTS),
        colour=rng.choice(COLOURS),
        product=rng.choice(PRODUCTS),
        part=rng.choice(PART_WORDS),
    )


def _sentence(rng: random.Random) -> str:
    if rng.random() < 0.2:
        return _fill(rng.choice(EXTRA_SENTENCES), rng)
    subject = _fill(rng.choice(SUBJECTS), rng)
    opener = rng.choice(OPENERS)
    if opener:  # every subject starts with an ordinary word: lower-case it mid-sentence
        subject = subject[0].lower() + subject[1:]
    return f"{opener}{subject} {rng.choice(VERBS)} {rng.choice(OBJECTS)} {rng.choice(TAILS)}."


def _paragraph(rng: random.Random, low: int = 3, high: int = 6) -> str:
    return " ".join(_sentence(rng) for _ in range(rng.randint(low, high)))


def _paragraphs(rng: random.Random, count: int) -> str:
    return "".join(f"<p>{_e(_paragraph(rng))}</p>" for _ in range(count))


def _person(rng: random.Random) -> str:
    return f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}"


def _username(rng: random.Random) -> str:
    name = rng.choice(USER_PARTS_A) + "_" + rng.choice(USER_PARTS_B)
    return name + (str(rng.randint(1, 99)) if rng.random() < 0.4 else "")


def _roman(n: int) -> str:
    return ["I", "II", "III", "IV", "V", "VI"][n - 1]


def _price(rng: random.Random) -> str:
    return f"€{rng.randint(9, 480)}.{rng.choice(['00', '50', '95', '99'])}"


def _first(query: Mapping[str, list[str]], key: str) -> str | None:
    values = query.get(key)
    return values[0] if values else None


def _int(text: str | None) -> int | None:
    if text is None or not re.fullmatch(r"[0-9]{1,9}", text):
        return None
    return int(text)


# --------------------------------------------------------------------------- site data


class _Data:
    """The small, fixed inventory of the site (names and slugs only; pages are generated)."""

    def __init__(self) -> None:
        self.products = self._products()
        self.product_index = {slug: i for i, (slug, _) in enumerate(self.products)}
        self.parts = self._parts()
        self.part_index = {sku: i for i, (sku, _) in enumerate(self.parts)}
        self.guides = self._guides()
        self.guide_index = {slug: i for i, (slug, _) in enumerate(self.guides)}
        self.news = self._news()
        self.news_index = {slug: i for i, (slug, _, _) in enumerate(self.news)}
        self.print_news = {self.news[i][0] for i in (1, 8, 17, 26, 35)}
        self.threads = [
            (1017, "Wobbly legs on the oak side table after moving house"),
            (1093, "Best oil for a walnut cutting board?"),
            (1128, "Coffee grinder 200 Pro makes a clicking noise"),
            (1164, "Show us your home office setups (2024 edition)"),
            (1201, "Delivery took three weeks – anyone else?"),
        ]
        self.thread_index = {tid: i for i, (tid, _) in enumerate(self.threads)}
        self.repo = _Repo()

    @staticmethod
    def _products() -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        seen: set[str] = set()
        for i in range(SHOP_PAGES * SHOP_PER_PAGE):
            rng = random.Random(f"product:{i}")
            while True:
                name = f"{rng.choice(ADJECTIVES)} {rng.choice(MATERIALS)} {rng.choice(PRODUCTS)}"
                roll = rng.random()
                if roll < 0.15:
                    name += f" {rng.choice([100, 200, 250, 300, 450, 600])}"
                elif roll < 0.22:
                    name += f" Mk {_roman(rng.randint(2, 5))}"
                elif roll < 0.27:
                    name += rng.choice([" XL", " Mini", " Pro"])
                name = _cap(name)
                slug = _slugify(name)
                if slug not in seen:
                    break
            seen.add(slug)
            out.append((slug, name))
        return out

    @staticmethod
    def _parts() -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        seen: set[str] = set()
        rng = random.Random("catalog-parts")
        while len(out) < CATALOG_PAGES * CATALOG_PER_PAGE:
            letters = "".join(rng.choice("ABCDEFGHKLMNPRSTVX") for _ in range(2))
            sku = f"{letters}-{rng.randint(1000, 9999)}"
            if sku in seen:
                continue
            seen.add(sku)
            name = (f"{_cap(rng.choice(PART_FINISHES))} {rng.choice(PART_TYPES)} "
                    f"{rng.choice(PART_SIZES)}")
            out.append((sku.lower(), f"{name} ({sku})"))
        return out

    @staticmethod
    def _guides() -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        seen: set[str] = set()
        rng = random.Random("guides")
        while len(out) < 40:
            kind = rng.randrange(5)
            product = rng.choice(PRODUCTS)
            if kind == 0:
                title = f"How to {rng.choice(GUIDE_VERBS)} a {rng.choice(MATERIALS)} {product}"
            elif kind == 1:
                title = f"{rng.randint(3, 12)} ways to make your {product} last longer"
            elif kind == 2:
                title = f"Choosing the right {product} for {rng.choice(ROOMS)}"
            elif kind == 3:
                title = f"A beginner's guide to {rng.choice(GUIDE_TOPICS)}"
            else:
                title = f"Troubleshooting a {rng.choice(['noisy', 'wobbly', 'sticky'])} {product}"
            slug = _slugify(title)
            if slug in seen:
                continue
            seen.add(slug)
            out.append((slug, title))
        return out

    @staticmethod
    def _news() -> list[tuple[str, str, dt.date]]:
        out: list[tuple[str, str, dt.date]] = []
        seen: set[str] = set()
        rng = random.Random("news")
        day = dt.date(2024, 5, 28)
        while len(out) < 40:
            kind = rng.randrange(6)
            if kind == 0:
                title = f"{SITE} opens a new showroom in {rng.choice(CITIES)}"
            elif kind == 1:
                title = (f"Quarterly results: {rng.choice(['online sales', 'exports', 'repairs'])}"
                         f" up {rng.randint(3, 40)} percent")
            elif kind == 2:
                title = f"{_person(rng)} joins {SITE} as {rng.choice(NEWS_ROLES)}"
            elif kind == 3:
                title = (f"New {rng.choice(MATERIALS)} collection arrives for "
                         f"{rng.choice(SEASONS)} {rng.choice([2023, 2024])}")
            elif kind == 4:
                title = (f"Workshop in {rng.choice(CITIES)} switches to "
                         f"{rng.choice(['solar power', 'heat pumps', 'recycled steel'])}")
            else:
                title = (f"Why our {rng.choice(PRODUCTS)} now ships in "
                         f"{rng.randint(2, 9)} colours")
            slug = _slugify(title)
            if slug in seen:
                continue
            seen.add(slug)
            out.append((slug, title, day))
            day -= dt.timedelta(days=rng.randint(1, 6))
        return out


# --------------------------------------------------------------------------- repository model

REPO_DIRS = ["docs", "scripts", "src", "src/core", "src/net", "tests"]
REPO_FILES = [
    "README.md", "LICENSE", "setup.cfg",
    "src/__init__.py", "src/main.py",
    "src/core/engine.py", "src/core/config.py",
    "docs/index.rst", "docs/install.rst",
    "src/net/client.py", "src/net/server.py",
    "tests/test_engine.py", "tests/test_client.py",
    "src/core/cache.py", "src/core/models.py",
    "scripts/build.sh", "scripts/release.py",
    "src/net/proto.py", "docs/api.rst", "tests/test_config.py",
]
COMMIT_TEMPLATES = [
    "Fix {thing} handling in {module}",
    "Add {thing} support to {module}",
    "Refactor {module} for readability",
    "Update documentation for {thing}",
    "Speed up {thing} lookups in {module}",
    "Handle empty {thing} in {module} (closes #{n})",
    "Rename {thing} helpers in {module}",
    "Tidy up {module} after review",
]
COMMIT_THINGS = ["timeout", "retry", "config", "cache key", "unicode path", "proxy",
                 "session", "header", "checksum", "logging", "plugin", "locale"]
AUTHORS = ["ajansen", "cmoreau", "dsilva", "ehughes", "kvirtanen"]


class _Repo:
    """A deterministic history of 40 revisions over 20 files in 6 directories."""

    def __init__(self) -> None:
        rng = random.Random("repo-history")
        self.changes: dict[int, list[tuple[str, str]]] = {}  # rev -> [(A|M, path)]
        self.when: dict[int, dt.datetime] = {}
        self.author: dict[int, str] = {}
        self.message: dict[int, str] = {}
        self.history: dict[str, list[int]] = {path: [] for path in REPO_FILES}
        pending = list(REPO_FILES)
        existing: list[str] = []
        moment = dt.datetime(2023, 3, 6, 9, 12)
        for rev in range(1, 41):
            if rev == 1:
                changes = [("A", pending.pop(0)) for _ in range(3)]
            elif pending:
                changes = [("A", pending.pop(0)) for _ in range(min(2, len(pending)))]
                if len(changes) == 1:
                    changes.append(("M", rng.choice(existing)))
            else:
                changes = [("M", p) for p in rng.sample(existing, rng.randint(1, 3))]
            for kind, path in changes:
                if kind == "A":
                    existing.append(path)
                self.history[path].append(rev)
            self.changes[rev] = changes
            moment += dt.timedelta(days=rng.randint(1, 9), minutes=rng.randint(-300, 300))
            self.when[rev] = moment
            self.author[rev] = rng.choice(AUTHORS)
            module = changes[0][1].rsplit("/", 1)[-1]
            self.message[rev] = "Initial import" if rev == 1 else rng.choice(
                COMMIT_TEMPLATES).format(thing=rng.choice(COMMIT_THINGS), module=module,
                                         n=rng.randint(10, 240))
        self.head = 40
        self.head_date = self.when[self.head].date()

    # ---- structure

    def is_dir(self, path: str) -> bool:
        return path == "" or path in REPO_DIRS

    def is_file(self, path: str) -> bool:
        return path in self.history

    def files_under(self, path: str) -> list[str]:
        if self.is_file(path):
            return [path]
        prefix = path + "/" if path else ""
        return [f for f in REPO_FILES if f.startswith(prefix)]

    def path_history(self, path: str) -> list[int]:
        revs = {r for f in self.files_under(path) for r in self.history[f]}
        return sorted(revs)

    def exists(self, path: str, rev: int) -> bool:
        hist = self.path_history(path)
        return path == "" or (bool(hist) and hist[0] <= rev)

    def last_change(self, path: str, rev: int) -> int:
        return max(r for r in self.path_history(path) if r <= rev)

    def children(self, path: str, rev: int) -> list[tuple[str, bool]]:
        """(child path, is_dir) existing at rev, directly below the directory path."""
        prefix = path + "/" if path else ""
        out = [(d, True) for d in REPO_DIRS
               if d.startswith(prefix) and "/" not in d[len(prefix):] and self.exists(d, rev)]
        out += [(f, False) for f in REPO_FILES
                if f.startswith(prefix) and "/" not in f[len(prefix):] and self.exists(f, rev)]
        return out

    # ---- content

    @staticmethod
    def block(path: str, rev: int) -> list[str]:
        rng = random.Random(f"blob:{path}:{rev}")
        ext = path.rsplit(".", 1)[-1] if "." in path else ""
        thing = rng.choice(COMMIT_THINGS).replace(" ", "_")
        verb, gerund = rng.choice([("load", "Loading"), ("parse", "Parsing"), ("build", "Building"),
                                   ("check", "Checking"), ("reset", "Resetting"),
                                   ("merge", "Merging"), ("fetch", "Fetching")])
        if ext == "py":
            return [
                "",
                f"def {verb}_{thing}(value, *, strict=False):",
                f'    """{_cap(verb)} the {thing.replace("_", " ")} (added in r{rev})."""',
                "    if value is None:",
                f"        raise ValueError('missing {thing}')" if rng.random() < 0.5
                else "        return None",
                f"    return _{thing}_table.get(value, {rng.randint(0, 64)})",
            ]
        if ext in ("md", "rst"):
            title = f"{gerund} the {thing.replace('_', ' ')}"
            underline = "-" * len(title) if ext == "rst" else ""
            head = [f"## {title}"] if ext == "md" else [title, underline]
            return ["", *head, "", _sentence(rng), _sentence(rng)]
        if ext == "sh":
            return ["", f"# {verb} step (r{rev})", f"echo '{gerund.lower()} {thing}'",
                    f"./scripts/{verb}.sh --{thing.replace('_', '-')} || exit 1"]
        if ext == "cfg":
            return ["", f"[{thing}]", f"{verb} = {rng.choice(['true', 'false'])}",
                    f"limit = {rng.randint(1, 500)}"]
        return ["", _sentence(rng), _sentence(rng)]

    def content(self, path: str, rev: int) -> list[str]:
        lines: list[str] = []
        for r in self.history[path]:
            if r <= rev:
                lines.extend(self.block(path, r))
        return lines[1:]

    def size(self, path: str, rev: int) -> int:
        if not self.is_file(path):
            return 0
        return sum(len(line.encode()) + 1 for line in self.content(path, rev))


@functools.cache
def _data() -> _Data:
    return _Data()


# --------------------------------------------------------------------------- URL sets


def _join(base: str, path: str) -> str:
    return base.rstrip("/") + path


def _legit_paths() -> list[str]:
    d = _data()
    paths = ["/", *STATIC_PAGES]
    paths += ["/shop/"] + [f"/shop/?page={n}" for n in range(2, SHOP_PAGES + 1)]
    paths += [f"/shop/item/{slug}" for slug, _ in d.products]
    paths += ["/catalog/"] + [f"/catalog/?page={n}" for n in range(2, CATALOG_PAGES + 1)]
    paths += [f"/catalog/part/{sku}" for sku, _ in d.parts]
    paths += ["/forum/"]
    for tid, _ in d.threads:
        paths += [f"/forum/thread-{tid}/"]
        paths += [f"/forum/thread-{tid}/?p={n}" for n in range(2, FORUM_PAGES + 1)]
    paths += ["/guides/", "/guides/?start=0", "/guides/?start=20"]
    paths += [f"/guides/{slug}" for slug, _ in d.guides]
    paths += ["/news/"] + [f"/news/{slug}" for slug, _, _ in d.news]
    paths += [f"/news/{slug}?view=print" for slug, _, _ in d.news if slug in d.print_news]
    paths += ["/repo/", "/repo/browser/"]
    paths += [f"/repo/browser/{p}/" for p in REPO_DIRS]
    paths += [f"/repo/browser/{p}" for p in REPO_FILES]
    paths += [f"/repo/changeset/{r}" for r in range(1, 41)]
    paths += ["/repo/log/", "/repo/log/?page=2"]
    return paths


def legit_urls(base: str) -> set[str]:
    """Every page a complete crawl of the site at ``base`` must fetch, spelled as linked."""
    return {_join(base, p) for p in _legit_paths()}


def hub_urls(base: str) -> list[str]:
    return [_join(base, p) for p in HUB_URLS]


def family(url: str) -> str | None:
    """The trap family of ``url`` (absolute or root-relative), or None for a legit page."""
    split = urllib.parse.urlsplit(url)
    path = urllib.parse.unquote(split.path) or "/"
    query = urllib.parse.parse_qs(split.query, keep_blank_values=True)
    if path == "/catalog/":
        page = _int(_first(query, "page"))
        return "pager-past-end" if page is not None and page > CATALOG_PAGES else None
    if path.startswith("/news/") and len(path) > len("/news/"):
        return "share-variant" if "ref" in query or "utm_source" in query else None
    if path.startswith("/repo/browser/"):
        return "repo-views" if split.query else None
    if path.startswith("/repo/changeset/"):
        rest = path[len("/repo/changeset/"):].strip("/")
        return "repo-views" if "/" in rest else None
    if path.startswith("/repo/log/"):
        if path != "/repo/log/" or "rev" in query:
            return "repo-views"
        return None
    if path.startswith("/repo/timeline"):
        return "repo-views"
    return None


# --------------------------------------------------------------------------- the site


class _Ctx:
    def __init__(self, origin: str, target: str, path: str, query: dict[str, list[str]]):
        self.origin = origin
        self.target = target
        self.path = path
        self.query = query

    def abs(self, path: str) -> str:
        return self.origin + path


class IndependentSite:
    """The Example Corp test site; ``handle`` answers one request, ``serve`` runs it."""

    def __init__(self, origin: str = "http://127.0.0.1") -> None:
        self.origin = origin.rstrip("/")
        self.data = _data()

    # ---- public API

    legit_urls = staticmethod(legit_urls)
    family = staticmethod(family)

    def handle(
        self, method: str, target: str, headers: Mapping[str, str] | None = None
    ) -> Response:
        method = method.upper()
        origin = self.origin
        if headers:
            host = next((v for k, v in headers.items() if k.lower() == "host"), None)
            if host:
                origin = f"http://{host}"
        if method not in ("GET", "HEAD"):
            return 405, {"Allow": "GET, HEAD", "Content-Type": "text/plain",
                         "Content-Length": "0"}, b""
        split = urllib.parse.urlsplit(target)
        path = urllib.parse.unquote(split.path) or "/"
        query = urllib.parse.parse_qs(split.query, keep_blank_values=True)
        ctx = _Ctx(origin, target, path, query)
        try:
            status, headers_out, body = self._route(ctx)
        except _NotFound as exc:
            status, headers_out, body = 404, {}, self._error(ctx, 404, exc.detail)
        except _BadRequest as exc:
            status, headers_out, body = 400, {}, self._error(ctx, 400, exc.detail)
        headers_out.setdefault("Content-Type", "text/html; charset=utf-8")
        headers_out["Content-Length"] = str(len(body))
        return status, headers_out, b"" if method == "HEAD" else body

    @contextlib.contextmanager
    def serve(self) -> Iterator[str]:
        """Run the site on 127.0.0.1 on a free port; yields the base URL (ending in /)."""
        server = _Server(("127.0.0.1", 0), self)
        thread = threading.Thread(target=server.serve_forever, name="independent-site",
                                  daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{server.server_address[1]}/"
        finally:
            server.shutdown()
            server.server_close()
            thread.join(timeout=5)

    # ---- routing

    def _route(self, ctx: _Ctx) -> tuple[int, dict[str, str], bytes]:
        path = ctx.path
        if path == "/robots.txt":
            return 200, {"Content-Type": "text/plain; charset=utf-8"}, \
                b"User-agent: *\nDisallow:\n"
        if path == "/":
            return self._ok(self._home(ctx))
        if path in STATIC_PAGES:
            return self._ok(self._static(ctx))
        for prefix in ("/shop", "/catalog", "/forum", "/guides", "/news", "/repo",
                       "/repo/browser", "/repo/log", *(p.rstrip("/") for p in STATIC_PAGES)):
            if path == prefix:
                return self._redirect(ctx, prefix + "/")
        if m := re.fullmatch(r"/forum/thread-(\d+)", path):
            return self._redirect(ctx, f"/forum/thread-{m.group(1)}/")
        if path == "/shop/":
            return self._ok(self._shop(ctx))
        if path.startswith("/shop/item/"):
            return self._ok(self._product(ctx, path[len("/shop/item/"):]))
        if path == "/catalog/":
            return self._ok(self._catalog(ctx))
        if path.startswith("/catalog/part/"):
            return self._ok(self._part(ctx, path[len("/catalog/part/"):]))
        if path == "/forum/":
            return self._ok(self._forum_index(ctx))
        if m := re.fullmatch(r"/forum/thread-(\d+)/", path):
            return self._ok(self._thread(ctx, int(m.group(1))))
        if path == "/guides/":
            return self._ok(self._guides(ctx))
        if path.startswith("/guides/"):
            return self._ok(self._guide(ctx, path[len("/guides/"):]))
        if path == "/news/":
            return self._ok(self._news_index(ctx))
        if path.startswith("/news/"):
            return self._ok(self._article(ctx, path[len("/news/"):]))
        if path == "/repo/":
            return self._ok(self._repo_home(ctx))
        if path.startswith("/repo/browser/"):
            return self._repo_browser(ctx, path[len("/repo/browser/"):])
        if path.startswith("/repo/changeset/"):
            return self._ok(self._changeset(ctx, path[len("/repo/changeset/"):]))
        if path.startswith("/repo/log/"):
            return self._ok(self._log(ctx, path[len("/repo/log/"):]))
        if path == "/repo/timeline":
            return self._ok(self._timeline(ctx))
        raise _NotFound("The page you were looking for does not exist.")

    @staticmethod
    def _ok(body: bytes) -> tuple[int, dict[str, str], bytes]:
        return 200, {}, body

    def _redirect(self, ctx: _Ctx, path: str) -> tuple[int, dict[str, str], bytes]:
        split = urllib.parse.urlsplit(ctx.target)
        location = path + (f"?{split.query}" if split.query else "")
        body = (f'<!DOCTYPE html><html><head><title>Moved</title></head><body>'
                f'<p>Moved to {_a(location, location)}.</p></body></html>').encode()
        return 301, {"Location": ctx.abs(location)}, body

    # ---- page frame

    def _page(
        self,
        ctx: _Ctx,
        *,
        title: str,
        description: str,
        canonical: str,
        content: str,
        section: str,
        og_title: str | None = None,
        og_url: str | None = None,
        rel_prev: str | None = None,
        rel_next: str | None = None,
        sidebar: str | None = None,
        main: bool = True,
        og_type: str = "website",
    ) -> bytes:
        head = [
            '<meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{_e(title)}</title>",
            f'<meta name="description" content="{_e(description)}">',
            f'<meta property="og:site_name" content="{SITE}">',
            f'<meta property="og:type" content="{og_type}">',
            f'<meta property="og:title" content="{_e(og_title or title)}">',
            f'<meta property="og:url" content="{_e(ctx.abs(og_url or canonical))}">',
            f'<link rel="canonical" href="{_e(ctx.abs(canonical))}">',
        ]
        if rel_prev:
            head.append(f'<link rel="prev" href="{_e(rel_prev)}">')
        if rel_next:
            head.append(f'<link rel="next" href="{_e(rel_next)}">')
        head.append(f"<style>{CSS}</style>")
        current = ' aria-current="page"'
        nav = "".join(
            f'<li><a href="{href}"{current if key == section else ""}>{label}</a></li>'
            for href, label, key in NAV
        )
        header = (
            f'<header class="site-header" id="top"><a class="logo" href="/">{LOGO}'
            f"<span>{SITE}</span></a>"
            f'<nav class="primary" aria-label="Main navigation"><ul>{nav}</ul></nav></header>'
        )
        links = "".join(f"<li>{_a(h, t)}</li>" for h, t in FOOTER_LINKS)
        footer = (
            '<footer class="site-footer"><div class="footer-about"><h2>About ' + SITE + "</h2>"
            "<p>Example Corp has designed and built durable furniture, tools and homeware "
            "since 1998. Everything we sell can be repaired, and we keep spare parts in stock "
            "for at least ten years after a product leaves the catalogue.</p>"
            "<p>Our workshops in Rotterdam and Porto employ 140 people. We publish our "
            "supplier list and our yearly environmental report on the about page.</p>"
            "<p>Customer service: Monday to Friday, 8:00–18:00 CET.</p></div>"
            f'<nav class="footer-links" aria-label="Company"><h2>Company</h2><ul>{links}</ul>'
            "</nav>"
            '<p class="legal">© 2024 Example Corp B.V. All rights reserved. '
            '<a href="#top">Back to top</a></p></footer>'
        )
        tag = "main" if main else "div"
        aside = f'<aside class="sidebar">{sidebar}</aside>' if sidebar else ""
        layout = "layout with-sidebar" if sidebar else "layout"
        doc = (
            '<!DOCTYPE html>\n<html lang="en"><head>' + "".join(head) + "</head>"
            f'<body class="section-{section}"><a class="skip" href="#content">Skip to content'
            f"</a>{header}"
            f'<div class="{layout}"><{tag} id="content">{content}</{tag}>{aside}</div>'
            f"{footer}</body></html>\n"
        )
        return doc.encode()

    def _error(self, ctx: _Ctx, status: int, detail: str) -> bytes:
        title = "Page not found" if status == 404 else "Bad request"
        return self._page(
            ctx, title=f"{title} | {SITE}", description=detail, canonical=ctx.target,
            section="", content=f"<h1>{title}</h1><p>{_e(detail)}</p>"
            f'<p>{_a("/", "Go to the home page")} or {_a("/help/", "visit our help pages")}.</p>',
        )

    @staticmethod
    def _pager(links: list[tuple[str | None, str]]) -> str:
        parts = [
            f'<span aria-current="page">{_e(t)}</span>' if h is None
            else f'<span class="gap">{_e(t)}</span>' if h == "" else _a(h, t)
            for h, t in links
        ]
        return f'<nav class="pager" aria-label="Pagination">{"".join(parts)}</nav>'

    # ---- home and company pages

    def _home(self, ctx: _Ctx) -> bytes:
        d = self.data
        rng = random.Random("page:/")
        cards = [
            ("/shop/", "Shop", "Over 700 products for home, office and garden."),
            ("/catalog/", "Spare parts catalog", "Screws, hinges and fittings for every model."),
            ("/forum/", "Community forum", "Ask other owners, share your projects."),
            ("/guides/", "Guides", "Care, repair and assembly instructions."),
            ("/news/", "News", "What is new at Example Corp."),
            ("/repo/", "Open source", "The firmware of our smart lamps, in the open."),
        ]
        items = "".join(f"<li><h2>{_a(h, t)}</h2><p>{_e(s)}</p></li>" for h, t, s in cards)
        slug, title, _ = d.news[0]
        content = (
            f"<h1>Welcome to {SITE}</h1><p>{_e(_paragraph(rng))}</p>"
            f'<ul class="cards">{items}</ul>'
            f"<h2>Latest news</h2><p>{_a('/news/' + slug, title)}</p>"
        )
        return self._page(ctx, title=f"{SITE} – Furniture, tools and homeware",
                          description="Durable, repairable furniture, tools and homeware "
                          "designed in Rotterdam.", canonical="/", content=content,
                          section="home")

    def _static(self, ctx: _Ctx) -> bytes:
        title, section = STATIC_PAGES[ctx.path]
        rng = random.Random(f"page:{ctx.path}")
        body = f"<h1>{_e(title)}</h1>" + _paragraphs(rng, rng.randint(3, 5))
        if ctx.path == "/contact/":
            body += ('<p>Write to <a href="mailto:service@example.com">service@example.com</a>'
                     " or call +31 10 555 0199.</p>")
        if ctx.path == "/help/":
            body += (f"<p>Most questions are answered in our {_a('/guides/', 'guides')}; "
                     f"owners help each other in the {_a('/forum/', 'forum')}.</p>")
        return self._page(ctx, title=f"{title} | {SITE}",
                          description=f"{title} – {SITE}.", canonical=ctx.path,
                          content=body, section=section)

    # ---- shop

    def _shop_page_url(self, n: int) -> str:
        return "/shop/" if n == 1 else f"/shop/?page={n}"

    def _shop_sidebar(self, seed: str) -> str:
        rng = random.Random(f"shop-sidebar:{seed}")
        picks = rng.sample(range(len(self.data.products)), 5)
        items = "".join(
            f"<li>{_a('/shop/item/' + self.data.products[i][0], self.data.products[i][1])}</li>"
            for i in picks
        )
        return (
            f"<h2>Customer favourites</h2><ul>{items}</ul>"
            "<h2>Delivery</h2><p>Free delivery in the Benelux from €50. Most orders ship "
            "within two working days.</p>"
            f"<p>{_a('/help/', 'Questions about your order?')}</p>"
        )

    def _shop(self, ctx: _Ctx) -> bytes:
        raw = _first(ctx.query, "page")
        n = 1 if raw is None else _int(raw)
        if n is None or not 1 <= n <= SHOP_PAGES:
            raise _NotFound("This page of the shop does not exist.")
        products = self.data.products[(n - 1) * SHOP_PER_PAGE:n * SHOP_PER_PAGE]
        cards = []
        for slug, name in products:
            rng = random.Random(f"product-page:{slug}")
            cards.append(
                f'<li class="product">{_a("/shop/item/" + slug, name)}'
                f'<span class="price">{_price(rng)}</span>'
                f"<p>{_e(_sentence(rng))}</p></li>"
            )
        links: list[tuple[str | None, str]] = []
        if n > 1:
            links.append((self._shop_page_url(n - 1), "‹ Previous"))
        window = sorted({1, SHOP_PAGES, *range(max(1, n - 2), min(SHOP_PAGES, n + 2) + 1)})
        last = 0
        for k in window:
            if k - last > 1:
                links.append(("", "…"))
            links.append((None if k == n else self._shop_page_url(k), str(k)))
            last = k
        if n < SHOP_PAGES:
            links.append((self._shop_page_url(n + 1), "Next ›"))
        pager = self._pager(links)
        content = (
            f"<h1>Shop</h1><p>Page {n} of {SHOP_PAGES} – {len(self.data.products)} products, "
            f"sorted by popularity.</p><ul class=\"products\">{''.join(cards)}</ul>{pager}"
        )
        url = self._shop_page_url(n)
        return self._page(
            ctx, title=f"Shop – Page {n}", canonical=url, section="shop", content=content,
            description=f"Browse the {SITE} shop: furniture, tools and homeware (page {n}).",
            rel_prev=self._shop_page_url(n - 1) if n > 1 else None,
            rel_next=self._shop_page_url(n + 1) if n < SHOP_PAGES else None,
            sidebar=self._shop_sidebar(url),
        )

    def _product(self, ctx: _Ctx, slug: str) -> bytes:
        i = self.data.product_index.get(slug)
        if i is None:
            raise _NotFound("We could not find this product.")
        _, name = self.data.products[i]
        rng = random.Random(f"product-page:{slug}")
        price = _price(rng)
        summary = _sentence(rng)
        listing = self._shop_page_url(i // SHOP_PER_PAGE + 1)
        specs = [
            ("Colour", rng.choice(COLOURS)),
            ("Width", f"{rng.randint(10, 180)} cm"),
            ("Weight", f"{rng.randint(2, 400) / 10:.1f} kg"),
            ("Article number", f"EC-{rng.randint(100000, 999999)}"),
            ("Warranty", f"{rng.choice([2, 3, 5, 10])} years"),
        ]
        rows = "".join(f"<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in specs)
        related = rng.sample([j for j in range(len(self.data.products)) if j != i], 4)
        rel = "".join(
            f"<li>{_a('/shop/item/' + self.data.products[j][0], self.data.products[j][1])}</li>"
            for j in related
        )
        content = (
            f'<nav class="breadcrumbs">{_a("/", "Home")} › {_a(listing, "Shop")} › '
            f"{_e(name)}</nav><h1>{_e(name)}</h1><p class=\"price\">{price}</p>"
            f"<p class=\"lead\">{_e(summary)}</p>{_paragraphs(rng, 2)}"
            f"<table class=\"specs\">{rows}</table>"
            f"<p>{_a(listing, 'Back to the shop')}</p>"
            f"<h2>You may also like</h2><ul>{rel}</ul>"
        )
        return self._page(
            ctx, title=f"{name} – Shop | {SITE}", description=f"{name}: {summary}",
            canonical=f"/shop/item/{slug}", section="shop", content=content,
            og_type="product",
        )

    # ---- catalog (trap: pager past its end)

    def _catalog_url(self, n: int) -> str:
        return "/catalog/" if n == 1 else f"/catalog/?page={n}"

    def _catalog(self, ctx: _Ctx) -> bytes:
        raw = _first(ctx.query, "page")
        n = 1 if raw is None else _int(raw)
        if n is None or n < 1:
            raise _NotFound("This page of the catalog does not exist.")
        shown = min(n, CATALOG_PAGES)  # past the end: the last page's parts again
        parts = self.data.parts[(shown - 1) * CATALOG_PER_PAGE:shown * CATALOG_PER_PAGE]
        rows = []
        for sku, name in parts:
            rng = random.Random(f"part:{sku}")
            rows.append(
                f"<tr><td>{_a('/catalog/part/' + sku, name)}</td>"
                f"<td>{rng.choice([10, 25, 50, 100])} pcs</td><td>{_price(rng)}</td></tr>"
            )
        links: list[tuple[str | None, str]] = []
        if n <= CATALOG_PAGES:
            if n > 1:
                links.append((self._catalog_url(n - 1), "« Previous"))
            links += [(None if k == n else self._catalog_url(k), str(k))
                      for k in range(1, CATALOG_PAGES + 1)]
        else:
            links += [(self._catalog_url(1), "First"), (self._catalog_url(n - 1), "« Previous"),
                      (None, str(n)), (self._catalog_url(n + 1), str(n + 1)),
                      (self._catalog_url(n + 2), str(n + 2))]
        links.append((self._catalog_url(n + 1), "Next »"))
        content = (
            f"<h1>Spare parts catalog</h1><p>Page {n}. Prices per pack, excluding VAT.</p>"
            f"<table><thead><tr><th>Part</th><th>Pack</th><th>Price</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>{self._pager(links)}"
        )
        url = self._catalog_url(n)
        return self._page(
            ctx, title=f"Catalog - Page {n}", canonical=url, section="catalog",
            description=f"Spare parts and fittings for {SITE} products – page {n}.",
            content=content, main=False,
            rel_prev=self._catalog_url(n - 1) if n > 1 else None,
            rel_next=self._catalog_url(n + 1),
        )

    def _part(self, ctx: _Ctx, sku: str) -> bytes:
        i = self.data.part_index.get(sku)
        if i is None:
            raise _NotFound("Unknown part number.")
        _, name = self.data.parts[i]
        rng = random.Random(f"part:{sku}")
        pack, price = rng.choice([10, 25, 50, 100]), _price(rng)
        listing = self._catalog_url(i // CATALOG_PER_PAGE + 1)
        fits = ", ".join(_cap(rng.choice(PRODUCTS)) for _ in range(3))
        others = rng.sample([j for j in range(len(self.data.parts)) if j != i], 3)
        compat = "".join(
            f"<li>{_a('/catalog/part/' + self.data.parts[j][0], self.data.parts[j][1])}</li>"
            for j in others
        )
        content = (
            f"<h1>{_e(name)}</h1><p>Pack of {pack}: {price}. Fits: {_e(fits)}.</p>"
            f"<p>{_e(_paragraph(rng, 2, 3))}</p><h2>Often ordered with</h2><ul>{compat}</ul>"
            f"<p>{_a(listing, 'Back to the catalog')}</p>"
        )
        return self._page(
            ctx, title=f"{name} | Spare parts | {SITE}", canonical=f"/catalog/part/{sku}",
            description=f"{name}, pack of {pack}. Fits {fits}.", section="catalog",
            content=content, main=False,
        )

    # ---- forum

    def _thread_url(self, tid: int, p: int) -> str:
        return f"/forum/thread-{tid}/" if p == 1 else f"/forum/thread-{tid}/?p={p}"

    def _forum_sidebar(self, current: int | None) -> str:
        others = "".join(
            f"<li>{_a(self._thread_url(tid, 1), title)}</li>"
            for tid, title in self.data.threads if tid != current
        )
        return (
            "<h2>Forum rules</h2><p>Be kind, stay on topic, and no advertising. Moderators "
            "may remove posts that break the rules.</p>"
            f"<h2>Other threads</h2><ul>{others}</ul>"
            "<h2>Top contributors</h2><p>oak_maker, river_tinker, cedar_smith</p>"
        )

    def _forum_index(self, ctx: _Ctx) -> bytes:
        rows = []
        for tid, title in self.data.threads:
            rng = random.Random(f"thread:{tid}")
            mini = " ".join(_a(self._thread_url(tid, p), str(p)) for p in (1, 2, 3))
            mini += " … " + _a(self._thread_url(tid, FORUM_PAGES), str(FORUM_PAGES))
            rows.append(
                f"<tr><td>{_a(self._thread_url(tid, 1), title)}<br><small>{mini}</small></td>"
                f"<td>{_e(_username(rng))}</td><td>{FORUM_PAGES * FORUM_PER_PAGE - 1}</td></tr>"
            )
        content = (
            "<h1>Community forum</h1><p>Owners helping owners. Sign in to post.</p>"
            "<table><thead><tr><th>Thread</th><th>Started by</th><th>Replies</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>"
        )
        return self._page(ctx, title=f"Community forum | {SITE}",
                          description="Questions, answers and projects from the community.",
                          canonical="/forum/", section="forum", content=content, main=False,
                          sidebar=self._forum_sidebar(None))

    def _thread(self, ctx: _Ctx, tid: int) -> bytes:
        i = self.data.thread_index.get(tid)
        if i is None:
            raise _NotFound("This thread does not exist or was removed.")
        raw = _first(ctx.query, "p")
        p = 1 if raw is None else _int(raw)
        if p is None or not 1 <= p <= FORUM_PAGES:
            raise _NotFound("This page of the thread does not exist.")
        _, title = self.data.threads[i]
        opener = random.Random(f"thread:{tid}")
        op_name = _username(opener)
        start = dt.datetime(2024, 1, 8, 7, 30) + dt.timedelta(days=11 * i)
        posts = []
        for j in range(FORUM_PER_PAGE):
            number = (p - 1) * FORUM_PER_PAGE + j + 1
            rng = random.Random(f"post:{tid}:{number}")
            author = op_name if number == 1 or rng.random() < 0.12 else _username(rng)
            when = start + dt.timedelta(hours=number * 5 + rng.randint(0, 4),
                                        minutes=rng.randint(0, 59))
            sentences = [_fill(rng.choice(FORUM_SENTENCES), rng)
                         for _ in range(rng.randint(1, 3))]
            if rng.random() < 0.5:
                sentences.append(_sentence(rng))
            pid = tid * 1000 + number
            posts.append(
                f'<article class="post" id="post-{pid}"><header><strong>{_e(author)}</strong> '
                f'<time datetime="{when:%Y-%m-%dT%H:%M}">{when:%d %b %Y, %H:%M}</time> '
                f'<a href="#post-{pid}">#{number}</a></header>'
                f"<p>{_e(' '.join(sentences))}</p></article>"
            )
        links = [(None if k == p else self._thread_url(tid, k), str(k))
                 for k in range(1, FORUM_PAGES + 1)]
        content = (
            f'<nav class="breadcrumbs">{_a("/forum/", "Forum")} › Support</nav>'
            f"<h1>{_e(title)}</h1>{self._pager(links)}{''.join(posts)}{self._pager(links)}"
        )
        return self._page(
            ctx, title=f"{title} – Community forum | {SITE}",
            description=f"Discussion in the {SITE} community forum: {title}",
            canonical=self._thread_url(tid, p), section="forum", content=content,
            main=False, sidebar=self._forum_sidebar(tid), og_type="article",
        )

    # ---- guides

    def _guides(self, ctx: _Ctx) -> bytes:
        raw = _first(ctx.query, "start")
        start = 0 if raw is None else _int(raw)
        total = len(self.data.guides)
        if start is None or start % GUIDES_PER_PAGE or start >= total:
            raise _NotFound("There are no guides here.")
        items = []
        for slug, title in self.data.guides[start:start + GUIDES_PER_PAGE]:
            rng = random.Random(f"guide:{slug}")
            items.append(f"<li>{_a('/guides/' + slug, title)}<p>{_e(_sentence(rng))}</p></li>")
        links = [(None if s == start else f"/guides/?start={s}", str(s // GUIDES_PER_PAGE + 1))
                 for s in range(0, total, GUIDES_PER_PAGE)]
        if start + GUIDES_PER_PAGE < total:
            links.append((f"/guides/?start={start + GUIDES_PER_PAGE}", "Next"))
        content = (
            "<h1>Guides</h1><p>Step-by-step help for assembling, caring for and repairing "
            f"your products.</p><ol class=\"guides\">{''.join(items)}</ol>{self._pager(links)}"
        )
        own = ctx.path + (f"?start={raw}" if raw is not None else "")
        return self._page(ctx, title=f"Guides | {SITE}",
                          description="Care, repair and assembly guides from Example Corp.",
                          canonical=own, section="guides", content=content)

    def _guide(self, ctx: _Ctx, slug: str) -> bytes:
        i = self.data.guide_index.get(slug)
        if i is None:
            raise _NotFound("We could not find this guide.")
        _, title = self.data.guides[i]
        rng = random.Random(f"guide:{slug}")
        lead = _sentence(rng)
        steps = "".join(f"<li>{_e(_paragraph(rng, 1, 2))}</li>" for _ in range(rng.randint(4, 7)))
        related = rng.sample([j for j in range(len(self.data.guides)) if j != i], 3)
        rel = "".join(
            f"<li>{_a('/guides/' + self.data.guides[j][0], self.data.guides[j][1])}</li>"
            for j in related
        )
        content = (
            f"<article><h1>{_e(title)}</h1><p class=\"lead\">{_e(lead)}</p>"
            f"<p>You will need about {rng.randint(10, 90)} minutes.</p><ol>{steps}</ol>"
            f"</article><h2>Related guides</h2><ul>{rel}</ul>"
            f"<p>{_a('/guides/', 'All guides')}</p>"
        )
        return self._page(ctx, title=f"{title} | {SITE}", description=lead,
                          canonical=f"/guides/{slug}", section="guides", content=content,
                          og_type="article")

    # ---- news (trap: share variants)

    def _news_sidebar(self) -> str:
        latest = "".join(f"<li>{_a('/news/' + s, t)}</li>" for s, t, _ in self.data.news[:5])
        return (f"<h2>Latest news</h2><ul>{latest}</ul><h2>Newsletter</h2>"
                "<p>One e-mail a month with new products and workshop stories.</p>")

    def _news_index(self, ctx: _Ctx) -> bytes:
        items = "".join(
            f'<li><time datetime="{day}">{day:%d %B %Y}</time> {_a("/news/" + s, t)}</li>'
            for s, t, day in self.data.news
        )
        return self._page(ctx, title=f"News | {SITE}", canonical="/news/", section="news",
                          description=f"Company news and press releases from {SITE}.",
                          content=f"<h1>News</h1><ul class=\"news\">{items}</ul>",
                          sidebar=self._news_sidebar())

    @staticmethod
    def _ref(seed: str) -> str:
        return f"{random.Random(seed).getrandbits(24):06x}"

    def _article(self, ctx: _Ctx, slug: str) -> bytes:
        i = self.data.news_index.get(slug)
        if i is None:
            raise _NotFound("This article does not exist.")
        _, title, day = self.data.news[i]
        clean = f"/news/{slug}"
        source = _first(ctx.query, "utm_source")
        variant = "ref" in ctx.query or source is not None
        printable = slug in self.data.print_news
        if not variant and _first(ctx.query, "view") == "print":
            if not printable:
                raise _NotFound("There is no printer-friendly version of this article.")
            return self._print(ctx, slug)
        rng = random.Random(f"article:{slug}")
        lead = _sentence(rng)
        byline = _person(rng)
        body = _paragraphs(rng, rng.randint(4, 6))
        labels = {"twitter": "Share on Twitter", "facebook": "Share on Facebook",
                  "mail": "Send by e-mail"}
        sources = [s for s in SHARE_SOURCES if s != source] if variant else list(SHARE_SOURCES)
        if len(sources) == 3 and variant:
            sources = sources[:2]
        share = "".join(
            "<li>" + _a(f"{clean}?ref={self._ref(f'share:{ctx.target}:{s}')}&utm_source={s}",
                        labels[s], rel="nofollow" if s == "mail" else "noopener") + "</li>"
            for s in sources
        )
        print_link = (f"<p>{_a(clean + '?view=print', 'Printer-friendly version with comments')}"
                      "</p>" if printable else "")
        related = [j for j in (i - 1, i + 1, i + 2) if 0 <= j < len(self.data.news)]
        rel = "".join(f"<li>{_a('/news/' + self.data.news[j][0], self.data.news[j][1])}</li>"
                      for j in related)
        content = (
            f'<article><h1>{_e(title)}</h1><p class="byline">By {_e(byline)}, '
            f'<time datetime="{day}">{day:%d %B %Y}</time></p>'
            f'<p class="lead">{_e(lead)}</p>{body}</article>{print_link}'
            f'<section class="share"><h2>Share</h2><ul>{share}</ul></section>'
            f"<h2>More news</h2><ul>{rel}</ul><p>{_a('/news/', 'All news')}</p>"
        )
        return self._page(ctx, title=f"{title} | {SITE}", description=lead, canonical=clean,
                          section="news", content=content, sidebar=self._news_sidebar(),
                          og_type="article")

    def _print(self, ctx: _Ctx, slug: str) -> bytes:
        i = self.data.news_index[slug]
        _, title, day = self.data.news[i]
        rng = random.Random(f"article:{slug}")
        lead = _sentence(rng)
        byline = _person(rng)
        body = _paragraphs(rng, rng.randint(4, 6))
        crng = random.Random(f"comments:{slug}")
        comments = "".join(
            f"<li><strong>{_e(_username(crng))}</strong>: "
            f"{_e(' '.join(_fill(crng.choice(FORUM_SENTENCES), crng) for _ in range(2)))}</li>"
            for _ in range(crng.randint(4, 9))
        )
        own = f"/news/{slug}?view=print"
        content = (
            f'<article class="print"><h1>{_e(title)}</h1><p>By {_e(byline)}, {day:%d %B %Y}'
            f"</p><p>{_e(lead)}</p>{body}</article>"
            f'<section class="comments"><h2>Comments</h2><ol>{comments}</ol></section>'
            f"<p>{_a('/news/' + slug, 'Back to the article')}</p>"
        )
        return self._page(ctx, title=f"Print: {title} | {SITE}",
                          description=f"Printer-friendly version with comments: {title}",
                          canonical=own, section="news", content=content)

    # ---- repository (trap: repo views)

    def _repo_frame(self, ctx: _Ctx, *, title: str, description: str, content: str) -> bytes:
        return self._page(ctx, title=f"{title} – lumen-firmware | {SITE}",
                          description=description, canonical=ctx.target, section="repo",
                          content=self._repo_nav() + content, main=False)

    @staticmethod
    def _browser_url(path: str, is_dir: bool, params: dict[str, str] | None = None) -> str:
        url = "/repo/browser/" + path + ("/" if is_dir and path else "")
        return url + ("?" + urllib.parse.urlencode(params) if params else "")

    def _repo_home(self, ctx: _Ctx) -> bytes:
        repo = self.data.repo
        recent = "".join(
            f"<li>{_a(f'/repo/changeset/{r}', f'[{r}]')} {_e(repo.message[r])} "
            f"<small>by {repo.author[r]}</small></li>"
            for r in range(repo.head, repo.head - 5, -1)
        )
        content = (
            "<h1>lumen-firmware</h1><p>The firmware of our smart desk lamps, published under "
            "the MIT licence. Patches welcome.</p>"
            f"<ul><li>{_a('/repo/browser/', 'Browse the source')}</li>"
            f"<li>{_a('/repo/log/', 'Revision log')}</li>"
            f"<li>{_a(f'/repo/timeline?from={repo.head_date}', 'Timeline')}</li></ul>"
            f"<h2>Recent changes</h2><ul>{recent}</ul>"
        )
        return self._repo_frame(ctx, title="Overview", content=content,
                                description="Source code of the lumen desk lamp firmware.")

    def _parse_rev(self, ctx: _Ctx) -> int | None:
        raw = _first(ctx.query, "rev")
        if raw is None:
            return None
        rev = _int(raw)
        if rev is None or not 1 <= rev <= self.data.repo.head:
            raise _NotFound(f"No changeset {raw} in the repository.")
        return rev

    def _repo_browser(self, ctx: _Ctx, rest: str) -> tuple[int, dict[str, str], bytes]:
        repo = self.data.repo
        path = rest.strip("/")
        if not (repo.is_dir(path) or repo.is_file(path)):
            raise _NotFound(f"No node /{path} in the repository.")
        if repo.is_dir(path) and path and not rest.endswith("/"):
            return self._redirect(ctx, f"/repo/browser/{path}/")
        if repo.is_file(path) and rest.endswith("/"):
            raise _NotFound(f"/{path} is a file, not a directory.")
        rev = self._parse_rev(ctx)
        order = _first(ctx.query, "order")
        desc = _first(ctx.query, "desc")
        if order is not None and order not in ("name", "size", "date"):
            raise _BadRequest("Unknown sort order.")
        if desc is not None and desc not in ("0", "1"):
            raise _BadRequest("Invalid sort direction.")
        at = repo.head if rev is None else rev
        if not repo.exists(path, at):
            raise _NotFound(f"No node /{path} at revision {at}.")
        sort = {"order": order, "desc": desc or "0"} if order else {}
        if repo.is_dir(path):
            return self._ok(self._dir_view(ctx, path, rev, sort))
        return self._ok(self._file_view(ctx, path, rev, sort))

    def _crumbs(self, path: str, params: dict[str, str]) -> str:
        parts = [_a(self._browser_url("", True, params), "root")]
        segments = path.split("/") if path else []
        for k in range(len(segments)):
            sub = "/".join(segments[:k + 1])
            if k == len(segments) - 1:
                parts.append(_e(segments[k]))
            else:
                parts.append(_a(self._browser_url(sub, True, params), segments[k]))
        return '<nav class="breadcrumbs">' + " / ".join(parts) + "</nav>"

    def _age(self, rev: int) -> str:
        days = (self.data.repo.head_date - self.data.repo.when[rev].date()).days
        if days < 14:
            return f"{days} days"
        return f"{days // 7} weeks" if days < 90 else f"{days // 30} months"

    def _dir_view(self, ctx: _Ctx, path: str, rev: int | None,
                  sort: dict[str, str]) -> bytes:
        repo = self.data.repo
        at = repo.head if rev is None else rev
        entries = repo.children(path, at)
        order = sort.get("order", "name")
        desc = sort.get("desc") == "1"
        if order == "size":
            entries.sort(key=lambda e: (repo.size(e[0], at), e[0]))
        elif order == "date":
            entries.sort(key=lambda e: (repo.last_change(e[0], at), e[0]))
        else:
            entries.sort(key=lambda e: (not e[1], e[0]))
        if desc:
            entries.reverse()
        base = {} if rev is None else {"rev": str(rev)}
        # links inside a sorted listing carry the revision and the sort keys
        entry_params = ({"rev": str(at), **sort} if sort else dict(base))
        rows = []
        if path:
            parent = path.rsplit("/", 1)[0] if "/" in path else ""
            rows.append(f"<tr><td>{_a(self._browser_url(parent, True, entry_params), '../')}"
                        "</td><td></td><td></td><td></td><td></td></tr>")
        for child, is_dir in entries:
            last = repo.last_change(child, at)
            name = child.rsplit("/", 1)[-1] + ("/" if is_dir else "")
            size = "" if is_dir else f"{repo.size(child, at)} bytes"
            rows.append(
                f"<tr><td>{_a(self._browser_url(child, is_dir, entry_params), name)}</td>"
                f"<td>{size}</td><td>{_a(f'/repo/changeset/{last}', str(last))}</td>"
                f"<td>{self._age(last)}</td><td>{_e(repo.message[last])}</td></tr>"
            )
        heads = []
        for key, label in (("name", "Name"), ("size", "Size"), ("date", "Age")):
            toggle = "1" if key == order and not desc else "0"
            href = self._browser_url(path, True, {**base, "order": key, "desc": toggle})
            heads.append(f"<th>{_a(href, label)}</th>")
        heads.insert(2, "<th>Rev</th>")
        heads.append("<th>Last change</th>")
        log = ("/repo/log/" if not path and rev is None else
               f"/repo/log/{path}{'/' if path else ''}?rev={at}")
        shown = f"/{path}" if path else "/"
        where = "" if rev is None else f" @ {rev}"
        content = (
            f"{self._crumbs(path, base)}<h1>{_e(shown)}{where}</h1>"
            f"<table class=\"listing\"><thead><tr>{''.join(heads)}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>"
            f"<p>{_a(log, 'Revision log')}</p>"
        )
        return self._repo_frame(
            ctx, title=f"{shown}{where}", content=content,
            description=f"Contents of {shown} in lumen-firmware{where or ' at HEAD'}.",
        )

    def _file_view(self, ctx: _Ctx, path: str, rev: int | None,
                   sort: dict[str, str]) -> bytes:
        repo = self.data.repo
        at = repo.head if rev is None else rev
        last = repo.last_change(path, at)
        hist = repo.history[path]
        pos = hist.index(last)
        base = {} if rev is None else {"rev": str(rev)}

        def at_rev(r: int) -> str:
            return self._browser_url(path, False, {"rev": str(r), **sort})

        prev_url = at_rev(hist[pos - 1]) if pos > 0 else None
        next_url = at_rev(hist[pos + 1]) if pos + 1 < len(hist) else None
        lines = repo.content(path, at)
        code = "".join(f'<tr id="L{n}"><th><a href="#L{n}">{n}</a></th><td><code>{_e(line)}'
                       f"</code></td></tr>" for n, line in enumerate(lines, 1))
        revisions = " ".join(_a(at_rev(r), f"View at revision {r}") for r in reversed(hist))
        where = "" if rev is None else f" @ {rev}"
        content = (
            f"{self._crumbs(path, {**base, **sort} if sort else base)}"
            f"<h1>{_e(path)}{where}</h1>"
            f"<p>Last change on this file was {_a(f'/repo/changeset/{last}', str(last))} by "
            f"{repo.author[last]}, {self._age(last)} ago: {_e(repo.message[last])} "
            f"({_a(f'/repo/changeset/{last}/{path}', 'diff')})</p>"
            f"<p>{_a(f'/repo/log/{path}?rev={at}', 'Revision log')}"
            + (f" | {_a(prev_url, 'Previous revision')}" if prev_url else "")
            + (f" | {_a(next_url, 'Next revision')}" if next_url else "")
            + f"</p><table class=\"code\">{code}</table>"
            f'<p class="history">{revisions}</p>'
        )
        return self._page(
            ctx, title=f"{path}{where} – lumen-firmware | {SITE}",
            description=f"Source of {path} in lumen-firmware{where or ' at HEAD'}.",
            canonical=ctx.target, section="repo", main=False,
            content=self._repo_nav() + content, rel_prev=prev_url, rel_next=next_url,
        )

    def _repo_nav(self) -> str:
        head_date = self.data.repo.head_date
        return (
            '<nav class="repo-nav" aria-label="Repository">'
            f"{_a('/repo/', 'Overview')} | {_a('/repo/browser/', 'Browse source')} | "
            f"{_a('/repo/log/', 'View log')} | "
            f"{_a(f'/repo/timeline?from={head_date}', 'Timeline')}</nav>"
        )

    def _diff(self, path: str, rev: int) -> str:
        repo = self.data.repo
        hist = repo.history[path]
        before = repo.content(path, hist[hist.index(rev) - 1]) if hist[0] != rev else []
        added = repo.block(path, rev)[0 if before else 1:]
        ctx_lines = [f"  {line}" for line in before[-2:]]
        plus = [f"+ {line}" for line in added]
        return f"<h3>{_e(path)}</h3><pre class=\"diff\">{_e(chr(10).join(ctx_lines + plus))}</pre>"

    def _changeset(self, ctx: _Ctx, rest: str) -> bytes:
        repo = self.data.repo
        rev_text, _, path = rest.partition("/")
        rev = _int(rev_text)
        if rev is None or not 1 <= rev <= repo.head:
            raise _NotFound(f"No changeset {rev_text} in the repository.")
        path = path.strip("/")
        when = repo.when[rev]
        timeline = f"/repo/timeline?from={when.date()}"
        header = (
            f"<dl><dt>Timestamp</dt><dd>{when:%Y-%m-%d %H:%M} "
            f"({_a(timeline, 'see timeline')})</dd><dt>Author</dt><dd>{repo.author[rev]}</dd>"
            f"<dt>Message</dt><dd>{_e(repo.message[rev])}</dd></dl>"
        )
        if not path:
            items = "".join(
                f"<li>{'Added' if kind == 'A' else 'Modified'} "
                f"{_a(self._browser_url(p, False, {'rev': str(rev)}), p)} "
                f"({_a(f'/repo/changeset/{rev}/{p}', 'diff')})</li>"
                for kind, p in repo.changes[rev]
            )
            nav = []
            if rev > 1:
                nav.append(_a(f"/repo/changeset/{rev - 1}", "← Previous changeset"))
            if rev < repo.head:
                nav.append(_a(f"/repo/changeset/{rev + 1}", "Next changeset →"))
            diffs = "".join(self._diff(p, rev) for _, p in repo.changes[rev])
            content = (f"<h1>Changeset {rev}</h1>{header}<h2>Files</h2><ul>{items}</ul>"
                       f"{diffs}<p>{' | '.join(nav)}</p>")
            return self._repo_frame(
                ctx, title=f"Changeset {rev}", content=content,
                description=f"Changeset {rev} by {repo.author[rev]}: {repo.message[rev]}",
            )
        if not (repo.is_file(path) or repo.is_dir(path)) or not repo.exists(path, rev):
            raise _NotFound(f"No node /{path} at revision {rev}.")
        files = [p for _, p in repo.changes[rev] if p in repo.files_under(path)]
        is_dir = repo.is_dir(path)
        hist = repo.path_history(path)
        earlier = [r for r in hist if r < rev]
        later = [r for r in hist if r > rev]
        nav = []
        if earlier:
            nav.append(_a(f"/repo/changeset/{earlier[-1]}/{path}", "← Previous change"))
        if later:
            nav.append(_a(f"/repo/changeset/{later[0]}/{path}", "Next change →"))
        diffs = "".join(self._diff(p, rev) for p in files) or "<p>No changes to this path.</p>"
        log = f"/repo/log/{path}{'/' if is_dir else ''}?rev={rev}"
        content = (
            f"<h1>Changeset {rev} for /{_e(path)}</h1>{header}{diffs}"
            f"<p>{_a(f'/repo/changeset/{rev}', 'View the full changeset')} | "
            f"{_a(self._browser_url(path, is_dir, {'rev': str(rev)}), 'Browse at this revision')}"
            f" | {_a(log, 'Revision log')}"
            f"</p><p>{' | '.join(nav)}</p>"
        )
        return self._repo_frame(ctx, title=f"Changeset {rev} for /{path}", content=content,
                                description=f"Changes to /{path} in changeset {rev}.")

    def _log_entry(self, rev: int, path: str, is_dir: bool) -> str:
        repo = self.data.repo
        if path:
            links = (f"{_a(self._browser_url(path, is_dir, {'rev': str(rev)}), f'@{rev}')} "
                     f"{_a(f'/repo/changeset/{rev}/{path}', 'diff')}")
        else:
            links = _a(self._browser_url("", True, {"rev": str(rev)}), f"@{rev}")
        return (
            f"<tr><td>{_a(f'/repo/changeset/{rev}', f'[{rev}]')}</td><td>{links}</td>"
            f"<td>{repo.when[rev]:%Y-%m-%d}</td><td>{repo.author[rev]}</td>"
            f"<td>{_e(repo.message[rev])}</td></tr>"
        )

    def _log(self, ctx: _Ctx, rest: str) -> bytes:
        repo = self.data.repo
        path = rest.strip("/")
        if not (repo.is_dir(path) or repo.is_file(path)):
            raise _NotFound(f"No node /{path} in the repository.")
        is_dir = repo.is_dir(path)
        rev = self._parse_rev(ctx)
        at = repo.head if rev is None else rev
        if not repo.exists(path, at):
            raise _NotFound(f"No node /{path} at revision {at}.")
        revs = [r for r in reversed(repo.path_history(path) if path else range(1, 41)) if r <= at]
        pager = ""
        if not path and rev is None:  # the global log: two legit pages
            raw = _first(ctx.query, "page")
            page = 1 if raw is None else _int(raw)
            pages = -(-len(revs) // LOG_PER_PAGE)
            if page is None or not 1 <= page <= pages:
                raise _NotFound("No such page of the log.")
            revs = revs[(page - 1) * LOG_PER_PAGE:page * LOG_PER_PAGE]
            links: list[tuple[str | None, str]] = []
            if page > 1:
                links.append(("/repo/log/" if page == 2 else f"/repo/log/?page={page - 1}",
                              "← Newer revisions"))
            if page < pages:
                links.append((f"/repo/log/?page={page + 1}", "Older revisions →"))
            pager = self._pager(links)
        elif len(revs) > LOG_PER_PAGE:
            older = revs[LOG_PER_PAGE]
            revs = revs[:LOG_PER_PAGE]
            pager = self._pager([(f"/repo/log/{path}{'/' if is_dir and path else ''}"
                                  f"?rev={older}", "Older revisions →")])
        rows = "".join(self._log_entry(r, path, is_dir) for r in revs)
        shown = f"/{path}" if path else "/"
        where = "" if rev is None else f" @ {rev}"
        content = (
            f"<h1>Revision log of {_e(shown)}{where}</h1>"
            "<table><thead><tr><th>Rev</th><th>Browse</th><th>Date</th><th>Author</th>"
            f"<th>Message</th></tr></thead><tbody>{rows}</tbody></table>{pager}"
        )
        return self._repo_frame(ctx, title=f"Log of {shown}{where}", content=content,
                                description=f"Revision history of {shown} in lumen-firmware.")

    def _timeline(self, ctx: _Ctx) -> bytes:
        repo = self.data.repo
        raw = _first(ctx.query, "from")
        try:
            day = repo.head_date if raw is None else dt.date.fromisoformat(raw)
        except ValueError:
            raise _BadRequest("Invalid date: use YYYY-MM-DD.") from None
        events = [r for r in range(1, repo.head + 1) if repo.when[r].date() == day]
        if events:
            items = "".join(
                f"<li>{repo.when[r]:%H:%M} {_a(f'/repo/changeset/{r}', f'Changeset [{r}]')} "
                f"by {repo.author[r]}: {_e(repo.message[r])}</li>" for r in events
            )
            listing = f"<ul>{items}</ul>"
        else:
            listing = "<p>No events.</p>"
        links: list[tuple[str | None, str]] = []
        if day > dt.date.min:
            links.append((f"/repo/timeline?from={day - dt.timedelta(days=1)}", "← Previous day"))
        if day < repo.head_date:
            links.append((f"/repo/timeline?from={day + dt.timedelta(days=1)}", "Next day →"))
        content = f"<h1>Timeline: {day:%A %d %B %Y}</h1>{listing}{self._pager(links)}"
        return self._repo_frame(ctx, title=f"Timeline {day}", content=content,
                                description=f"Repository events on {day}.")


class _NotFound(Exception):
    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class _BadRequest(_NotFound):
    pass


# --------------------------------------------------------------------------- HTTP server


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def _respond(self) -> None:
        status, headers, body = self.server.site.handle(self.command, self.path,
                                                        dict(self.headers.items()))
        self.send_response(status)
        for key, value in headers.items():
            self.send_header(key, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    do_GET = do_HEAD = do_POST = _respond

    def log_message(self, format: str, *args: object) -> None:
        pass


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int], site: IndependentSite) -> None:
        super().__init__(address, _Handler)
        self.site = site


@contextlib.contextmanager
def serve(site: IndependentSite | None = None) -> Iterator[str]:
    """Run ``site`` (a new IndependentSite by default); yields the base URL ending in ``/``."""
    with (site or IndependentSite()).serve() as base:
        yield base


# --------------------------------------------------------------------------- self-check


def _links(body: bytes) -> list[str]:
    text = body.decode()
    out = re.findall(r'<(?:a|link)\b[^>]*?\bhref="([^"]*)"', text)
    out += re.findall(r'<meta property="og:url" content="([^"]*)"', text)
    return [html.unescape(h) for h in out]


def _self_check() -> None:  # pragma: no cover - manual tool
    import time
    import urllib.request

    site = IndependentSite()
    with site.serve() as base:
        legit = legit_urls(base)
        origin = base.rstrip("/")
        started = time.perf_counter()
        # 1. every legit URL answers 200, and a crawl restricted to legit pages finds them all
        seen: set[str] = set()
        queue = [base]
        stray: set[str] = set()
        trap_samples: dict[str, list[str]] = {f: [] for f in TRAP_FAMILIES}
        while queue:
            url = queue.pop()
            if url in seen:
                continue
            seen.add(url)
            status, _, body = site.handle("GET", url[len(origin):], {"Host": base[7:-1]})
            assert status == 200, (status, url)
            for href in _links(body):
                if href.startswith(("mailto:", "#")):
                    continue
                full = urllib.parse.urljoin(url, href).split("#")[0]
                fam = family(full)
                if fam is None:
                    if full not in legit:
                        stray.add(full)
                    queue.append(full)
                elif len(trap_samples[fam]) < 400:
                    trap_samples[fam].append(full)
        assert not stray, sorted(stray)[:10]
        assert seen == legit, sorted(legit - seen)[:10]
        print(f"legit crawl: {len(seen)} pages in {time.perf_counter() - started:.2f}s")
        # 2. a bounded walk through the trap space: every trap page answers 200, links only
        #    legit URLs or trap URLs, and keeps producing members never seen before
        host = {"Host": base[7:-1]}
        fetched: dict[str, int] = dict.fromkeys(TRAP_FAMILIES, 0)
        fresh: dict[str, int] = dict.fromkeys(TRAP_FAMILIES, 0)
        known = {u for urls in trap_samples.values() for u in urls}
        frontier = [u for urls in trap_samples.values() for u in urls]
        started = time.perf_counter()
        while frontier and sum(fetched.values()) < 3000:
            url = frontier.pop(0)
            fam = family(url)
            assert fam is not None
            fetched[fam] += 1
            status, _, body = site.handle("GET", url[len(origin):], host)
            assert status == 200, (status, url)
            for href in _links(body):
                if href.startswith(("mailto:", "#")):
                    continue
                full = urllib.parse.urljoin(url, href).split("#")[0]
                other = family(full)
                assert other is not None or full in legit, (url, full)
                if other is not None and full not in known:
                    known.add(full)
                    frontier.append(full)
                    fresh[other] += 1
        spent = time.perf_counter() - started
        print(f"trap walk: {sum(fetched.values())} pages in {spent:.2f}s")
        for fam in TRAP_FAMILIES:
            print(f"  {fam}: fetched {fetched[fam]}, discovered {fresh[fam]} new members")
        # 3. a few real HTTP fetches
        samples = [
            "", "shop/", "shop/?page=60", f"shop/item/{site.data.products[719][0]}",
            "catalog/?page=8", "catalog/?page=9", "catalog/?page=1234", "forum/thread-1093/?p=7",
            "guides/?start=20", f"news/{site.data.news[1][0]}",
            f"news/{site.data.news[1][0]}?view=print",
            f"news/{site.data.news[1][0]}?ref=abc123&utm_source=twitter", "repo/browser/",
            "repo/browser/src/core/?order=size&desc=1", "repo/browser/src/core/engine.py?rev=30",
            "repo/changeset/17", "repo/changeset/17/README.md", "repo/log/?page=2",
            "repo/log/src/?rev=25", "repo/timeline?from=2021-02-03", "shop/?page=61", "shop",
        ]
        for rel in samples:
            url = base + rel
            try:
                with urllib.request.urlopen(url) as resp:
                    status, body = resp.status, resp.read()
            except urllib.error.HTTPError as exc:
                status, body = exc.code, exc.read()
            title = re.search(r"<title>(.*?)</title>", body.decode())
            name = html.unescape(title.group(1)) if title else "-"
            print(f"{status} {family(url) or 'legit':15} {rel or '/':48} {name[:60]}")
    checks = {
        "/catalog/?page=8": None, "/catalog/?page=9": "pager-past-end",
        "/news/x?ref=1&utm_source=mail": "share-variant", "/news/x?view=print": None,
        "/repo/browser/src/": None, "/repo/browser/src/?order=name&desc=1": "repo-views",
        "/repo/log/?page=2": None, "/repo/log/?rev=3": "repo-views",
        "/repo/log/src/?rev=3": "repo-views", "/repo/changeset/3": None,
        "/repo/changeset/3/README.md": "repo-views", "/repo/timeline?from=2020-01-01":
        "repo-views", "/shop/?page=60": None, "/forum/thread-1017/?p=15": None,
    }
    for url, expected in checks.items():
        assert family(url) == expected, (url, family(url), expected)
    counts: dict[str, int] = {}
    for p in _legit_paths():
        key = p.split("/")[1] or "home"
        counts[key] = counts.get(key, 0) + 1
    print("legit URLs per section:", counts, "total", sum(counts.values()))


if __name__ == "__main__":
    _self_check()
