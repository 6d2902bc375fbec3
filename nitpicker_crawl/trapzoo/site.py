"""The pages of TrapZoo, one function per family. Deterministic: the same URL always
returns the same page (session ids are derived from their parent with SHA-1).

=========================  ==========================================  =============
family                     URLs                                        size
=========================  ==========================================  =============
path counter trap          /list/date/{year}/ → next year; past 2030    infinite
                           the year is ×10 per step, printed the way
                           JavaScript prints numbers (2.03e+21)
query pager trap           /search?page=N → N+1, N+2                   infinite
session trap               /catalog/?session=<hex> → two new sessions   infinite
no-signal trap             /archive/?offset=N → N+10 (no og, no         infinite
                           canonical)
legit pager                /blog/ → /blog/page/N/, 1..60, prev/next     1 + 60
colour variants            /products/shirt-<colour>/, shared meta,      40
                           og:url = canonical = self
language mirrors           /en/<slug>/, /ja/<slug>/ with hreflang       20
shared-parent pages        /index.php?title=<Article> (30) and the      30 + infinite
                           history trap …&action=history&oldid=<n>
support                    /support/ and /support/contact/: one form    3
                           with a per-URL session token (bodies equal
                           once ids are masked); /support/faq/ the
                           same template, other text: one of each
                           element the main-content inventory lists
orphans                    robots.txt names /sitemap_index.xml: a      4 + 1
                           gzip sitemap of linked pages and of
                           /orphans/lonely/, /orphans/series/{1,2}/
                           (series 2 links 3), /orphans/gone/ (404),
                           /static/old.css (no page loads it) and
                           /static/site.css (every page does);
                           its second sitemap is missing
plumbing                   redirects, 404, 500, JS-only link, robots,   small
                           console messages (an error on /js/ and
                           /slow/, a warning and an uncaught error on
                           /js/),
                           slow page, PDF, external links, a page that
                           refuses HEAD; /wedge/ (not linked) never
                           finishes loading
=========================  ==========================================  =============

With ``unbounded=True`` (``python -m nitpicker_crawl.trapzoo --unbounded``) the home page
also links twelve more infinite families built on failure classes seen on real sites:
the five of this table (the first three branching: every page links two or three new
trap URLs) and the seven content families (a pager past its end, share variants, a
repository browser: see ``TRAP_FAMILIES``):

=========================  ==========================================  =============
family                     URLs                                        size
=========================  ==========================================  =============
middle session id          /members/;sid=<hex>/{home,orders,profile}:  infinite
                           a fresh id in a *middle* segment on every
                           link, og:url = the /members/ list
relative growth            /guide/ links relative x/ and y/ from every  infinite
                           page: /guide/x/y/y/x/… in any order
superset query keys        /login?returnto=P adds keys (returntoquery,  infinite
                           lang, theme, ref, from) and new values
per-entity variants        /changes?item=<slug>&days=N (+limit, hide):  infinite
                           "Changes to <slug>", one title per entity
faceted search             /shop/search?color=…: each page adds a       infinite
                           facet or the next page
legit, beside them         /members/ (list), /items/<slug>/ (30 items,  1 + 30 + 1
                           each linking its changes), /guide/ root;
                           /changes/latest?item=… redirects into the
                           per-entity views; /nofollow/ (meta robots
                           nofollow) → /nofollow/hidden/, and a
                           rel=nofollow link → /nofollow/rel-only/
=========================  ==========================================  =============
"""

from __future__ import annotations

import collections
import gzip
import hashlib
import html
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlsplit

from .content import (
    CATALOGUE_PAGES,
    NEWS,
    REPOSITORY,
    SHELF_PAGES,
    blog_posts,
    catalogue_items,
    legit_repo_paths,
    news_article,
    news_comments,
    shelf_books,
    thread_posts,
)

COLOURS = ("red", "orange", "yellow", "green", "blue", "indigo", "violet", "black", "white",
           "grey", "navy", "teal", "olive", "maroon", "coral", "salmon", "gold", "silver",
           "beige", "ivory", "khaki", "lime", "mint", "peach", "plum", "rose", "ruby", "sand",
           "sky", "slate", "tan", "aqua", "amber", "brown", "cream", "cyan", "denim", "jade",
           "lilac", "mauve")
ARTICLES = tuple(f"Article_{i:02d}" for i in range(1, 31))
LANG_SLUGS = ("home", "about", "contact", "news", "services", "team", "careers", "faq",
              "privacy", "terms")
BLOG_PAGES = 60
SLOW_SECONDS = 1.5
HANG_SECONDS = 20.0
PDF_BYTES = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


@dataclass
class Response:
    status: int = 200
    body: bytes = b""
    content_type: str = "text/html; charset=utf-8"
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


def js_number(value: float) -> str:
    """A number as JavaScript's ``String(n)`` prints it (exponent from 1e21 on)."""
    if value < 1e21 and value == int(value):
        return str(int(value))
    mantissa, exponent = f"{value:.15e}".split("e")
    mantissa = mantissa.rstrip("0").rstrip(".")
    return f"{mantissa}e+{int(exponent)}"


LAYOUTS: dict[str, tuple[str, str, str]] = {
    "plain": ("<main>", "{link}", "</main>"),
    "news-archive": ('<main class="news"><h1 class="page-title">{title}</h1>'
                     '<ol class="news-list">', '<li class="news-item">{link}</li>',
                     '</ol></main>'),
    "search": ('<main class="search"><form class="search-form" role="search">'
               '<input class="search-input" name="q"><button class="search-submit">Go'
               '</button></form><ul class="search-results">',
               '<li class="search-result"><h2 class="result-title">{link}</h2></li>',
               '</ul></main>'),
    "catalog": ('<main class="catalog"><aside class="filters"><h2 class="filters-title">'
                'Filter</h2><ul class="filter-list"><li class="filter">All</li></ul></aside>'
                '<div class="catalog-grid">', '<div class="catalog-card">{link}</div>',
                '</div></main>'),
    "archive": ('<main class="archive"><table class="archive-table"><tbody>',
                '<tr class="archive-row"><td class="archive-cell">{link}</td></tr>',
                '</tbody></table></main>'),
    "wiki-article": ('<main class="wiki"><div id="content" class="mw-body"><h1 '
                     'class="firstHeading">{title}</h1><div class="mw-parser-output"><p>'
                     'An article.</p></div><div class="printfooter">',
                     '{link}', '</div></div></main>'),
    "wiki-history": ('<main class="wiki"><div id="content" class="mw-body"><h1 '
                     'class="firstHeading">{title}</h1><form id="mw-history-compare">'
                     '<ul id="pagehistory">', '<li class="history-row">{link}</li>',
                     '</ul></form></div></main>'),
    "blog": ('<main class="blog"><article class="post"><h1 class="entry-title">{title}</h1>'
             '<div class="entry-content"><p>A post.</p>',
             '<span class="page-link">{link}</span>', '</nav></main>'),
    "product-list": ('<main class="shop"><ul class="product-grid">',
                     '<li class="product-card">{link}</li>', '</ul></main>'),
    "product": ('<main class="shop"><div class="product"><div class="product-gallery">'
                '<div class="product-photo"></div></div><div class="product-info"><h1 '
                'class="product-title">{title}</h1><p class="price">$20</p>',
                '<p class="back">{link}</p>', '</div></div></main>'),
    "shelf": ('<main class="shelf">', '<p class="pager">{link}</p>', '</main>'),
    "thread": ('<main class="thread">', '<span class="page-link">{link}</span>', '</main>'),
    "article": ('<main class="article">', '<p class="share">{link}</p>', '</main>'),
    "doc": ('<main class="doc"><article class="doc-body"><h1 class="doc-title">{title}</h1>'
            '<ul class="doc-nav">', '<li class="doc-link">{link}</li>', '</ul></article></main>'),
}
"""Each section's body template (opening, one link, closing). Sections look different as
on a real site, so that template clusters (``nitpicker-query template-clusters``) have
templates to find; text and links stay what each family's tests expect."""


def page(title: str | None, *, description: str | None = None, og_title: str | None = None,
         og_url: str | None = None, canonical: str | None = None, links: list[str] = (),  # type: ignore[assignment]
         head: str = "", body: str = "", lang: str = "en", layout: str = "plain") -> Response:
    parts = ["<!doctype html>", f'<html lang="{lang}"><head><meta charset="utf-8">']
    if title is not None:
        parts.append(f"<title>{html.escape(title)}</title>")
    if description is not None:
        parts.append(f'<meta name="description" content="{html.escape(description)}">')
    if og_title is not None:
        parts.append(f'<meta property="og:title" content="{html.escape(og_title)}">')
    if og_url is not None:
        parts.append(f'<meta property="og:url" content="{html.escape(og_url)}">')
    if canonical is not None:
        parts.append(f'<link rel="canonical" href="{html.escape(canonical)}">')
    parts.append('<link rel="stylesheet" href="/static/site.css">')
    parts.append(head)
    parts.append("</head><body><header><a href=\"/\">TrapZoo</a></header>")
    opening, item, closing = LAYOUTS[layout]
    parts.append(opening.format(title=html.escape(title or "")))
    parts.append(body)
    parts.extend(item.format(link=f'<a href="{html.escape(href)}">{html.escape(href)}</a>')
                 for href in links)
    parts.append(closing)
    parts.append('<footer class="site-footer"><p>TrapZoo</p></footer></body></html>')
    return Response(body="\n".join(parts).encode())


GTM_ID = "GTM-TZ12345"
JQUERY_VERSION = "3.7.1"
WORDPRESS_VERSION = "6.4.2"

GTM_SNIPPET = (
    "<script>window.dataLayer = window.dataLayer || [];\n"
    "function trapzooGtm(w,d,s,l,i){w[l].push({'gtm.start':new Date().getTime(),"
    "event:'gtm.js'});var f=d.getElementsByTagName(s)[0],j=d.createElement(s),"
    "dl=l!='dataLayer'?'&l='+l:'';j.async=true;"
    "j.src='https://www.googletagmanager.com/gtm.js?id='+i+dl;"
    "f.parentNode.insertBefore(j,f);}\n"
    f"/* waits for consent: trapzooGtm(window,document,'script','dataLayer','{GTM_ID}'); */"
    "</script>")
"""Google Tag Manager's snippet, consent-gated as many sites ship it: the loader is
defined but never called, so a rendering crawler never leaves 127.0.0.1. Technology
detection reads the container id from the script text."""

WIDGET_ERROR = '<script src="/static/widget.js"></script>'
"""A shared script that logs a console error on the two pages that load it (/js/ and
/slow/): one message (same text, same source), two pages. /js/ also warns and throws an
uncaught error from its own inline script."""

WORDPRESS_HEAD = (f'<meta name="generator" content="WordPress {WORDPRESS_VERSION}">'
                  f'<script src="/static/jquery-{JQUERY_VERSION}.min.js"></script>')
"""What a WordPress blog's pages carry: the generator meta and the bundled jQuery."""


def product_jsonld(colour: str) -> str:
    """Structured data of a shirt page: a Product (with nested offers) and a breadcrumb;
    the ``black`` shirt's Product script is broken JSON, as a hand-edited template's is."""
    product = {"@context": "https://schema.org", "@type": "Product",
               "name": f"Classic shirt ({colour})", "color": colour,
               "offers": {"@type": "Offer", "price": "19.00", "priceCurrency": "EUR",
                          "seller": {"@type": "Organization",
                                     "address": {"@type": "PostalAddress",
                                                 "addressCountry": "DE"}}}}
    crumbs = {"@context": "https://schema.org", "@type": "BreadcrumbList",
              "itemListElement": [{"@type": "ListItem", "position": 1, "name": "Products",
                                   "item": "/products/"}]}
    text = json.dumps(product)
    if colour == "black":
        text = text[:-1]  # the closing brace lost
    return (f'<script type="application/ld+json">{text}</script>'
            f'<script type="application/ld+json">{json.dumps(crumbs)}</script>')


ITEMS = tuple(f"item-{w}" for w in (
    "anchor", "beacon", "cobalt", "dynamo", "ember", "falcon", "garnet", "harbor", "indigo",
    "jasper", "kestrel", "lagoon", "meadow", "nimbus", "onyx", "prairie", "quartz", "raven",
    "summit", "tundra", "umber", "vortex", "willow", "xenon", "yonder", "zephyr", "aurora",
    "bramble", "cinder", "delta"))
MEMBER_PAGES = ("home", "orders", "profile")
FACETS = {"color": ("red", "blue", "green", "black"), "size": ("s", "m", "l", "xl"),
          "brand": ("acme", "globex", "initech", "umbrella"), "sort": ("price", "new", "top")}
LOGIN_KEYS = ("returntoquery", "lang", "theme", "ref", "from")


TRAP_FAMILIES = {  # family → (SQL LIKE of its URLs, og:url points at a parent list, unbounded only)
    "path counter": ("%/list/date/_%", True, False),
    "query pager": ("%/search?page=%", True, False),
    "session": ("%/catalog/?session=%", True, False),
    "no signal": ("%/archive/?offset=%", False, False),
    "wiki history": ("%action=history%", True, False),
    "middle session id": ("%/members/;sid=%", True, True),
    "relative growth": ("%/guide/_%", False, True),
    "superset query keys": ("%/login?%", False, True),
    "per-entity variants": ("%/changes?%", False, True),
    "faceted search": ("%/shop/search?%", True, True),
    "pager past its end": ("%/shelf/?page=%", True, True),
    "share variants": ("%/news/%?ref=%", True, True),
    "revisions of files": ("%/repo/browser/%?rev=%", False, True),
    "sort orders": ("%/repo/browser/%?order=%", False, True),
    "changesets per path": ("%/repo/changeset/%/%", False, True),
    "revision logs per path": ("%/repo/log/_%", False, True),
    "timeline": ("%/repo/timeline?%", True, True),
}
"""What tests and benchmarks count as trap pages, per family."""


SITEMAP_PATHS = ("/", "/blog/", "/products/", "/orphans/lonely/", "/orphans/series/1/",
                 "/orphans/series/2/", "/orphans/gone/", "/static/site.css",
                 "/static/old.css")
"""The paths the sitemap names (``/orphans/gone/`` answers 404; every page loads
``/static/site.css``, none ``/static/old.css``)."""

A11Y_PAGES: dict[str, tuple[str, str, str]] = {
    # slug: (title, body, lang) — each page breaks the rules its slug names, and no other
    "missing-alt": ("Missing alt", '<p>Our logo:</p><img src="/static/logo.png">', "en"),
    "low-contrast": ("Low contrast", '<p style="color:#777777;background-color:#888888">'
                     "Grey on grey is hard to read.</p>", "en"),
    "unlabeled": ("Unlabeled input", '<form action="/a11y/"><input type="text" name="q">'
                  "</form>", "en"),
    "duplicate-ids": ("Duplicate ids", '<p id="intro">One.</p><p id="intro">Two.</p>', "en"),
    "html-errors": ("HTML errors", '<ul><div>Not a list item.</div></ul>'
                    '<p><a href="/a11y/" target="_blank" colour="red">Home</a></p>', "en"),
    "text": ("表記ゆれ", "<p>ＡＢＣ１２３の商品です。。ｶﾀｶﾅも使います。</p>"
             "<p>Read the the manual.</p>", "ja"),
    "scripted": ("Scripted", '<img src="/static/logo.png" id="pic"><script>document.'
                 'getElementById("pic").alt = "set by a script";</script>'
                 '<meta http-equiv="refresh" content="0; url=/a11y/">', "en"),
    "clean": ("A clean page", '<p id="first">Our pricing is simple: see pricing below.</p>'
              '<img src="/static/logo.png" alt="TrapZoo logo"><form action="/a11y/">'
              '<label for="q">Search</label><input type="text" id="q" name="q"></form>'
              "<p>That is that.</p>", "en"),
}
"""``/a11y/``: the analyze plugins' seeded pages (axe: image-alt, color-contrast, label;
vnu: the missing alt, duplicate ids, a div in a list, an unknown attribute; text:
full-width letters, half-width kana, doubled punctuation, a doubled word). ``scripted``
lacks an alt that its own script would set, and refreshes to the index at once: the
analyzers read the HTML as archived, page scripts not run. ``clean`` breaks none of the
rules, and has the keyword "pricing" twice."""

FAQ_BODY = (
    '<h2>Orders</h2><p>Questions before you buy? Read the answers first.</p>'
    '<img src="/static/faq.png" alt="How to order"><img src="/static/arrow.png">'
    '<table><thead><tr><th>Plan</th><th>Price</th><th>Support</th></tr></thead>'
    '<tbody><tr><td>Basic</td><td colspan="2">free</td></tr><tr><td>Pro</td><td>9</td>'
    '<td>mail</td></tr></tbody></table>'
    '<h3>Returns</h3><button type="button">Show more</button>'
    '<button disabled>Send</button>'
    '<iframe src="about:blank" title="Map" width="300" height="200"></iframe>'
    '<video src="/static/howto.mp4" preload="none" poster="/static/poster.png" '
    'width="640" height="360"></video><canvas width="120"></canvas>'
    '<faq-rating id="rating" class="stars big"></faq-rating>')
"""/support/faq/'s main content: one of each thing the main-content inventory lists
(two headings, two images — one without alt —, a table with a header and a merged cell,
two buttons — one disabled —, an iframe, a video, a canvas, a custom element)."""


def legit_paths(*, unbounded: bool = False) -> list[str]:
    """Every page a complete crawl must have fetched with status 200 (path and query)."""
    paths = [
        "/", *(f"/blog/page/{n}/" for n in range(1, BLOG_PAGES + 1)),
        "/products/", *(f"/products/shirt-{c}/" for c in COLOURS),
        *(f"/{lang}/{slug}/" for lang in ("en", "ja") for slug in LANG_SLUGS),
        "/index.php?title=Main_Page", *(f"/index.php?title={a}" for a in ARTICLES),
        "/support/", "/support/contact/", "/support/faq/",
        "/orphans/lonely/", *(f"/orphans/series/{n}/" for n in (1, 2, 3)),
    ]
    if unbounded:
        paths += ["/members/", "/guide/", "/items/", *(f"/items/{i}/" for i in ITEMS),
                  *(f"/shelf/?page={n}" for n in range(1, SHELF_PAGES + 1)),
                  *(f"/catalogue/?page={n}" for n in range(1, CATALOGUE_PAGES + 1)),
                  *(f"/threads/?p={n}" for n in range(1, CATALOGUE_PAGES + 1)),
                  "/news/", *(f"/news/{s}" for s in NEWS),
                  *(f"/news/{s}?view=print" for s in NEWS[:5]), *legit_repo_paths()]
    return paths


class Site:
    """Routes of one TrapZoo instance; ``external`` is the second origin's base URL;
    ``unbounded`` adds the five families of the second table (and links them)."""

    def __init__(self, external: str, *, unbounded: bool = False) -> None:
        self.external = external.rstrip("/")
        self.base = ""  # this site's own origin, set by the server (sitemaps are absolute)
        self.unbounded = unbounded
        self.hits: collections.Counter[str] = collections.Counter()  # requests per path
        # seconds every HTML answer (GET or HEAD) takes, as a CMS building each page does
        self.page_latency = 0.0

    def handle(self, method: str, target: str) -> Response:
        parts = urlsplit(target)
        path, query = parts.path, parse_qs(parts.query)
        self.hits[path] += 1
        if path == "/no-head/" and method == "HEAD":  # a framework that only routes GET
            return Response(status=405, body=b"")
        for prefix, handler in self._routes():
            if path == prefix or (prefix.endswith("/") and path.startswith(prefix)):
                return handler(path, query)
        return self.not_found()

    def _routes(self) -> list[tuple[str, Callable[[str, dict[str, list[str]]], Response]]]:
        wild: list[tuple[str, Callable[[str, dict[str, list[str]]], Response]]] = [
            ("/members/", self.members), ("/guide/", self.guide), ("/login", self.login),
            ("/items/", self.items), ("/changes/latest", self.latest),
            ("/changes", self.changes), ("/nofollow/", self.nofollow),
            ("/shop/search", self.facets), ("/shelf/", self.shelf),
            ("/catalogue/", self.catalogue), ("/threads/", self.catalogue),
            ("/news/", self.news), ("/repo/", self.repo),
        ] if self.unbounded else []
        return [*wild,
            ("/robots.txt", lambda p, q: Response(
                body=f"User-agent: *\nDisallow: /private/\n\nSitemap: {self.base}"
                     "/sitemap_index.xml\n".encode(), content_type="text/plain")),
            ("/sitemap_index.xml", self.sitemap_index),
            ("/sitemaps/", self.sitemap),
            ("/orphans/", self.orphans),
            ("/static/", self.static),
            ("/list/date/", self.date_trap),
            ("/search", self.search_trap),
            ("/catalog/", self.session_trap),
            ("/archive/", self.no_signal_trap),
            ("/blog/page/", self.blog),
            ("/blog/", lambda p, q: page("Blog", description="Our blog", links=["/blog/page/1/"])
             if p == "/blog/" else self.not_found()),
            ("/products/", self.products),
            ("/en/", self.mirror),
            ("/ja/", self.mirror),
            ("/index.php", self.wiki),
            ("/redirect/", self.redirects),
            ("/old-a", lambda p, q: self.redirect("/redirect/end", 301)),
            ("/old-b", lambda p, q: self.redirect("/redirect/end", 301)),
            ("/error", lambda p, q: Response(status=500, body=b"<h1>Server error</h1>")),
            ("/js/", self.js_page),
            ("/support/", self.support),
            ("/a11y/", self.a11y),
            ("/private/", lambda p, q: page("Private", description="Robots says no")),
            ("/slow/", self.slow),
            ("/files/report.pdf", lambda p, q: Response(body=PDF_BYTES,
                                                        content_type="application/pdf")),
            ("/links/", self.outbound),
            ("/no-head/", lambda p, q: page("No HEAD here", description="GET only")),
            ("/wedge/", lambda p, q: page("Wedged", description="Never finishes loading",
                                          head='<script src="/static/hang.js"></script>')),
            ("/", self.home),
        ]

    # ------------------------------------------------------------------ plumbing

    def not_found(self) -> Response:
        r = page("Not Found", description="No such page")
        r.status = 404
        return r

    def redirect(self, location: str, status: int) -> Response:
        return Response(status=status, headers={"Location": location}, body=b"")

    def home(self, path: str, query: dict[str, list[str]]) -> Response:
        if path != "/":
            return self.not_found()
        links = ["/list/date/", "/search?page=1", "/catalog/?session=" + _hex("root"),
                 "/archive/?offset=0", "/blog/page/1/", "/products/", "/en/home/",
                 "/ja/home/", "/index.php?title=Main_Page", "/redirect/start", "/old-a",
                 "/old-b", "/missing", "/error", "/js/", "/private/", "/slow/",
                 "/files/report.pdf", "/links/", "/no-head/", "/support/", "/about#team"]
        if self.unbounded:
            links += ["/members/", "/guide/", "/login?returnto=Home", "/items/",
                      "/shop/search?color=red", "/nofollow/", "/shelf/?page=1",
                      "/catalogue/?page=1", "/threads/?p=1", "/news/", "/repo/"]
        body = ('<img src="/static/logo.png" alt="TrapZoo logo" width="10" height="10">'
                '<img src="/static/banner.png">')
        return page("TrapZoo", description="A site of crawler traps", og_title="TrapZoo",
                    og_url="/", canonical="/", links=links, body=body, head=GTM_SNIPPET)

    def static(self, path: str, query: dict[str, list[str]]) -> Response:
        if path.endswith(".css"):
            return Response(body=b"body{margin:0}", content_type="text/css")
        if path == "/static/hang.js":  # holds a page's load event (see /wedge/)
            return Response(body=b"void 0;", content_type="application/javascript",
                            delay=HANG_SECONDS)
        if path == f"/static/jquery-{JQUERY_VERSION}.min.js":  # what fingerprints read
            body = ("window.jQuery = window.$ = function () {};"
                    f"window.jQuery.fn = window.jQuery.prototype = {{jquery: '{JQUERY_VERSION}'}};")
            return Response(body=body.encode(), content_type="application/javascript")
        if path == "/static/widget.js":   # a shared script that fails the same everywhere
            return Response(body=b"console.error('trapzoo: widget failed to load');",
                            content_type="application/javascript")
        if path.endswith(".js"):
            return Response(body=b"void 0;", content_type="application/javascript")
        if path.endswith(".png"):
            return Response(body=_PNG, content_type="image/png")
        return self.not_found()

    def redirects(self, path: str, query: dict[str, list[str]]) -> Response:
        if path == "/redirect/start":
            return self.redirect("/redirect/middle", 301)
        if path == "/redirect/middle":
            return self.redirect("/redirect/end", 302)
        if path == "/redirect/end":
            return page("Redirect target", description="Where redirects end",
                        links=["/"])
        return self.not_found()

    def js_page(self, path: str, query: dict[str, list[str]]) -> Response:
        if path == "/js/inserted/":
            return page("Inserted by JavaScript", description="Only a browser finds me")
        if path != "/js/":
            return self.not_found()
        script = ("<script>document.addEventListener('DOMContentLoaded',function(){"
                  "var a=document.createElement('a');a.href='/js/inserted/';"
                  "a.textContent='inserted';document.body.appendChild(a);});</script>")
        noisy = ("<script>console.warn('trapzoo: deprecated API used');"
                 "throw new Error('trapzoo: cart is not defined');</script>")
        return page("JavaScript page", description="Has a link only scripts add",
                    head=script + WIDGET_ERROR + noisy)

    def sitemap_index(self, path: str, query: dict[str, list[str]]) -> Response:
        locs = "".join(f"<sitemap><loc>{self.base}/sitemaps/{name}</loc></sitemap>"
                       for name in ("pages.xml.gz", "news.xml"))
        return Response(body=('<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns='
                              f'"http://www.sitemaps.org/schemas/sitemap/0.9">{locs}'
                              "</sitemapindex>").encode(), content_type="application/xml")

    def sitemap(self, path: str, query: dict[str, list[str]]) -> Response:
        """The index's first sitemap, gzip-compressed: pages the crawl reaches by links,
        the orphans, one that is gone, one of another site; its second is missing."""
        if path != "/sitemaps/pages.xml.gz":
            return self.not_found()
        urls = [f"{self.base}{p}" for p in SITEMAP_PATHS] + ["http://elsewhere.invalid/x"]
        body = "".join(f"<url><loc>{html.escape(u)}</loc></url>" for u in urls)
        xml = ('<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/'
               f'schemas/sitemap/0.9">{body}</urlset>')
        return Response(body=gzip.compress(xml.encode(), mtime=0),
                        content_type="application/gzip")

    def orphans(self, path: str, query: dict[str, list[str]]) -> Response:
        """Pages only the sitemap names: one alone (its only link goes out, to the home
        page), and a series of three whose first two link each other and the second the
        third (which the sitemap does not name: found through the series)."""
        if path == "/orphans/lonely/":
            return page("Lonely page", description="Only the sitemap knows me", links=["/"])
        series = {"/orphans/series/1/": ["/orphans/series/2/"],
                  "/orphans/series/2/": ["/orphans/series/1/", "/orphans/series/3/"],
                  "/orphans/series/3/": []}
        if path in series:
            return page(f"Old series {path.split('/')[-2]}", description="An old series",
                        links=series[path])
        return self.not_found()

    def a11y(self, path: str, query: dict[str, list[str]]) -> Response:
        """Pages for ``nitpicker-crawl analyze``, each breaking known rules: reached only
        by crawling from ``/a11y/`` (no other page links here, no sitemap names them), so
        the rest of the site and its counts are unchanged. See :data:`A11Y_PAGES`."""
        if path == "/a11y/":
            return page("Accessibility samples", description="Pages for the analyzers",
                        links=[f"/a11y/{slug}/" for slug in A11Y_PAGES])
        slug = path.removeprefix("/a11y/").strip("/")
        if slug not in A11Y_PAGES or path != f"/a11y/{slug}/":
            return self.not_found()
        title, body, lang = A11Y_PAGES[slug]
        return page(title, description=title, body=body, lang=lang)

    def support(self, path: str, query: dict[str, list[str]]) -> Response:
        """A contact form served under two URLs (``/support/`` and ``/support/contact/``),
        each with its own session token in the markup: the same body once the token is
        masked (upstream's body hash). The FAQ beside it shares the template and differs
        in its text."""
        if path not in ("/support/", "/support/contact/", "/support/faq/"):
            return self.not_found()
        token = "s1" + _hex("support" + path)   # letters and digits: a session id
        text = FAQ_BODY if path == "/support/faq/" else \
            "<p>Write to us, we answer within a day.</p>"
        return page("Support", description="Help and contact", links=[
            "/support/contact/", "/support/faq/"], body=(
            f'{text}<form method="post" action="/support/send"><input type="hidden" '
            f'name="token" value="{token}"><textarea name="message"></textarea></form>'))

    def slow(self, path: str, query: dict[str, list[str]]) -> Response:
        r = page("Slow page", description="Takes its time", head=WIDGET_ERROR)
        r.delay = SLOW_SECONDS
        return r

    def outbound(self, path: str, query: dict[str, list[str]]) -> Response:
        return page("Links out", description="Points at another origin",
                    links=[f"{self.external}/", f"{self.external}/page",
                           f"{self.external}/gone"])

    # ------------------------------------------------------------------ traps

    def date_trap(self, path: str, query: dict[str, list[str]]) -> Response:
        segment = path[len("/list/date/"):].strip("/")
        meta = {"description": "All news by date", "og_title": "News archive",
                "og_url": "/list/date/"}
        if not segment:
            return page("News archive", links=["/list/date/2020/"], layout="news-archive",
                        **meta)
        try:
            year = float(segment)
        except ValueError:
            return self.not_found()
        following = year + 1 if year < 2030 else year * 10
        return page("News archive", links=[f"/list/date/{js_number(following)}/"],
                    layout="news-archive", **meta)

    def search_trap(self, path: str, query: dict[str, list[str]]) -> Response:
        if path != "/search":
            return self.not_found()
        n = _int(query.get("page", ["1"])[0])
        return page("Search", description="Search the site", og_title="Search",
                    og_url="/search", links=[f"/search?page={n + 1}", f"/search?page={n + 2}"],
                    layout="search")

    def session_trap(self, path: str, query: dict[str, list[str]]) -> Response:
        session = query.get("session", [""])[0]
        return page("Catalog", description="Browse the catalog", og_title="Catalog",
                    og_url="/catalog/",
                    links=[f"/catalog/?session={_hex(session + 'a')}",
                           f"/catalog/?session={_hex(session + 'b')}"], layout="catalog")

    def no_signal_trap(self, path: str, query: dict[str, list[str]]) -> Response:
        n = _int(query.get("offset", ["0"])[0])
        return page("Archive", description="Everything we ever wrote",
                    links=[f"/archive/?offset={n + 10}"], layout="archive")

    def wiki(self, path: str, query: dict[str, list[str]]) -> Response:
        if path != "/index.php":
            return self.not_found()
        title = query.get("title", ["Main_Page"])[0]
        if query.get("action") == ["history"]:
            oldid = _int(query.get("oldid", ["1"])[0])
            return page("Revision history", description="Older revisions",
                        og_title="Revision history", og_url="/index.php",
                        links=[f"/index.php?title={title}&action=history&oldid={oldid + 1}"],
                        layout="wiki-history")
        if title == "Main_Page":
            return page("Wiki", description="The wiki",
                        links=[f"/index.php?title={a}" for a in ARTICLES])
        if title not in ARTICLES:
            return self.not_found()
        return page(f"{title.replace('_', ' ')} - Wiki", description=f"About {title}",
                    canonical=f"/index.php?title={title}",
                    links=[f"/index.php?title={title}&action=history&oldid=1"],
                    layout="wiki-article")

    # ------------------------------------------------------------------ unbounded families

    def members(self, path: str, query: dict[str, list[str]]) -> Response:
        if path == "/members/":
            return page("Members", description="Our members", og_title="Members",
                        og_url="/members/", canonical="/members/",
                        links=[f"/members/;sid={_hex('m')}/home"])
        parts = path[len("/members/"):].strip("/").split("/")
        if len(parts) != 2 or not parts[0].startswith(";sid=") or parts[1] not in MEMBER_PAGES:
            return self.not_found()
        sid, kind = parts[0][len(";sid="):], parts[1]
        return page(f"Members - {kind}", description="Members area", og_title="Members",
                    og_url="/members/",
                    links=[f"/members/;sid={_hex(sid + k)}/{k}" for k in MEMBER_PAGES])

    def guide(self, path: str, query: dict[str, list[str]]) -> Response:
        # every page links x/ and y/ relative to itself: the path grows in any order
        return page("Guide", description="The user guide", links=["x/", "y/"])

    def login(self, path: str, query: dict[str, list[str]]) -> Response:
        if path != "/login":
            return self.not_found()
        flat = {k: v[0] for k, v in query.items()}
        n = _int(flat.get("n", "0"))
        missing = [k for k in LOGIN_KEYS if k not in flat]
        links = []
        for step, extra in enumerate((missing[:1], [])):
            variant = {**flat, "n": str(n * 2 + step + 1)}
            variant.update({k: f"{k}{n}" for k in extra})
            links.append("/login?" + "&".join(f"{k}={v}" for k, v in variant.items()))
        return page("Log in", description="Log in to your account", og_title="Log in",
                    links=links)

    def items(self, path: str, query: dict[str, list[str]]) -> Response:
        if path == "/items/":
            return page("Items", description="Every item",
                        links=[f"/items/{i}/" for i in ITEMS],
                        body='<a href="/nofollow/rel-only/" rel="nofollow">not followed</a>')
        slug = path[len("/items/"):].strip("/")
        if slug not in ITEMS:
            return self.not_found()
        return page(f"{slug} - Items", description=f"All about {slug}",
                    canonical=f"/items/{slug}/",
                    links=["/items/", f"/changes?item={slug}&days=1"])

    def changes(self, path: str, query: dict[str, list[str]]) -> Response:
        flat = {k: v[0] for k, v in query.items()}
        slug = flat.get("item", "")
        if path != "/changes" or slug not in ITEMS:
            return self.not_found()
        days = _int(flat.get("days", "1"))
        links = [f"/changes?item={slug}&days={days + 1}",
                 f"/changes?item={slug}&days={days}&limit={50 * (days % 4 + 1)}",
                 f"/changes?item={slug}&days={days}&hidebots={days % 2}",
                 f"/changes/latest?item={slug}&from={days}"]
        return page(f"Changes to {slug}", description="Recent changes of one item",
                    links=links)

    def latest(self, path: str, query: dict[str, list[str]]) -> Response:
        """A redirect into the per-entity views (``/changes/latest`` → ``/changes?…``)."""
        slug = query.get("item", [""])[0]
        if slug not in ITEMS:
            return self.not_found()
        days = _int(query.get("from", ["0"])[0]) + 10
        return self.redirect(f"/changes?item={slug}&days={days}", 302)

    def nofollow(self, path: str, query: dict[str, list[str]]) -> Response:
        """``/nofollow/`` says nofollow in its meta robots; ``/nofollow/hidden/`` is linked
        only from there, ``/nofollow/rel-only/`` only by a ``rel=nofollow`` link (/items/)."""
        if path == "/nofollow/":
            return page("Nofollow hub", description="Links not to follow",
                        head='<meta name="robots" content="noindex, nofollow">',
                        links=["/nofollow/hidden/"])
        if path in ("/nofollow/hidden/", "/nofollow/rel-only/"):
            return page("Reached through nofollow", description=f"Only linked nofollow: {path}")
        return self.not_found()

    def facets(self, path: str, query: dict[str, list[str]]) -> Response:
        if path != "/shop/search":
            return self.not_found()
        flat = {k: v[0] for k, v in query.items()}
        links = []
        missing = [name for name in FACETS if name not in flat]
        if missing:  # the next facet, two of its values
            links += [{**flat, missing[0]: value} for value in FACETS[missing[0]][:2]]
        links.append({**flat, "page": str(_int(flat.get("page", "1")) + 1)})
        return page("Search results", description="Find what you need",
                    og_title="Shop search", og_url="/shop/search",
                    links=["/shop/search?" + "&".join(f"{k}={v}" for k, v in sorted(q.items()))
                           for q in links])

    # ------------------------------------------------------------------ content families

    def shelf(self, path: str, query: dict[str, list[str]]) -> Response:
        """A pager past its end: ``/shelf/?page=N`` has SHELF_PAGES real pages; every page
        after them answers 200 with the last page's books again, a fresh ordinal title,
        rel=prev/next and a self canonical — every legit signal, nothing new."""
        if path != "/shelf/":
            return self.not_found()
        n = max(1, _int(query.get("page", ["1"])[0]))
        shown = min(n, SHELF_PAGES)
        own = f"/shelf/?page={n}"
        books = "".join(f'<li class="book"><a href="/shelf/book/{b}">{html.escape(t)}</a>'
                        f'<p class="blurb">{html.escape(blurb)}</p></li>'
                        for b, t, blurb in shelf_books(shown))
        head = f'<link rel="next" href="/shelf/?page={n + 1}">'
        links = [f"/shelf/?page={n + 1}"]
        if n > 1:
            head += f'<link rel="prev" href="/shelf/?page={n - 1}">'
            links.insert(0, f"/shelf/?page={n - 1}")
        body = (f'<h1>Bookshelf - Page {n}</h1><ul class="books">{books}</ul>')
        return page(f"Bookshelf - Page {n}", description="Every book we stock",
                    og_title="Bookshelf", og_url=own, canonical=own, head=head,
                    body=body, links=links, layout="shelf")

    def catalogue(self, path: str, query: dict[str, list[str]]) -> Response:
        """Two real pagers of CATALOGUE_PAGES pages with different items on every page:
        ``/catalogue/?page=N`` with one generic title and og:url = canonical = self, and
        ``/threads/?p=N`` (a forum thread) with one title, no ordinal, no rel=prev/next."""
        thread = path == "/threads/"
        if path not in ("/catalogue/", "/threads/"):
            return self.not_found()
        n = _int(query.get("p" if thread else "page", ["1"])[0])
        if not 1 <= n <= CATALOGUE_PAGES:
            return self.not_found()
        key = "p" if thread else "page"
        own = f"{path}?{key}={n}"
        pager = [f"{path}?{key}={m}" for m in (n - 1, n + 1) if 1 <= m <= CATALOGUE_PAGES]
        if thread:
            posts = "".join(f'<article class="post"><h2>{html.escape(a)} wrote</h2>'
                            f'<p>{html.escape(t)}</p></article>'
                            for a, t in thread_posts(n))
            return page("Which tent for the Alps? - Forum", description="A forum thread",
                        og_title="Which tent for the Alps?", canonical=own, body=posts,
                        links=pager, layout="thread")
        items = "".join(f'<li class="ware"><h2>{html.escape(t)}</h2><p>{html.escape(d)}</p>'
                        f'</li>' for t, d in catalogue_items(n))
        return page("Catalogue | TrapZoo", description="Our catalogue",
                    og_title="Catalogue", og_url=own, canonical=own,
                    body=f'<ul class="wares">{items}</ul>', links=pager, layout="shelf")

    def news(self, path: str, query: dict[str, list[str]]) -> Response:
        """Articles with share links: ``?ref=<id>&utm_source=…`` answers the article
        itself, canonical and og:url naming the clean article, and links two fresh
        variants; ``?view=print`` is another page (comments included, its own title)."""
        slug = path[len("/news/"):].strip("/")
        if path == "/news/":
            return page("News", description="All the news", og_title="News",
                        links=[f"/news/{s}" for s in NEWS], layout="news-archive")
        if slug not in NEWS:
            return self.not_found()
        clean = f"/news/{slug}"
        flat = {k: v[0] for k, v in query.items()}
        title, paragraphs = news_article(slug)
        text = "".join(f"<p>{html.escape(p)}</p>" for p in paragraphs)
        if flat.get("view") == "print":
            comments = "".join(f"<p>{html.escape(c)}</p>" for c in news_comments(slug))
            return page(f"Print: {title}", description=f"{title}, printable",
                        canonical=f"{clean}?view=print",
                        body=f"<h1>{html.escape(title)}</h1>{text}<h2>Comments</h2>{comments}",
                        layout="plain")
        ref = flat.get("ref", "root")
        share = [f"{clean}?ref={_hex(ref + s)[:10]}&utm_source={s}"
                 for s in ("mail", "social")]
        links = share + ([f"{clean}?view=print"] if slug in NEWS[:5] else []) + ["/news/"]
        return page(title, description=paragraphs[0][:120], og_title=title,
                    og_url=clean, canonical=clean,
                    body=f"<h1>{html.escape(title)}</h1>{text}", links=links,
                    layout="article")

    def repo(self, path: str, query: dict[str, list[str]]) -> Response:
        """A small repository browser (:class:`~.content.Repository`)."""
        body = REPOSITORY.page(path, {k: v[0] for k, v in query.items()})
        return Response(body=body) if body is not None else self.not_found()

    # ------------------------------------------------------------------ legit families

    def blog(self, path: str, query: dict[str, list[str]]) -> Response:
        n = _int(path[len("/blog/page/"):].strip("/"))
        if not 1 <= n <= BLOG_PAGES:
            return self.not_found()
        head = WORDPRESS_HEAD
        links = []
        if n > 1:
            head += f'<link rel="prev" href="/blog/page/{n - 1}/">'
            links.append(f"/blog/page/{n - 1}/")
        if n < BLOG_PAGES:
            head += f'<link rel="next" href="/blog/page/{n + 1}/">'
            links.append(f"/blog/page/{n + 1}/")
        # a real blog's pages list other posts: page N shows its own five
        posts = "".join(f'<h2 class="entry-title">{html.escape(t)}</h2>'
                        for t in blog_posts(n)) + '</div></article><nav class="pagination">'
        return page(f"Blog - Page {n}", description="Our blog", og_title="Blog",
                    og_url=f"/blog/page/{n}/", links=links, head=head, layout="blog",
                    body=posts)

    def products(self, path: str, query: dict[str, list[str]]) -> Response:
        if path == "/products/":
            return page("Products", description="Everything we sell", head=GTM_SNIPPET,
                        links=[f"/products/shirt-{c}/" for c in COLOURS], layout="product-list")
        colour = path[len("/products/shirt-"):].strip("/")
        if not path.startswith("/products/shirt-") or colour not in COLOURS:
            return self.not_found()
        own = f"/products/shirt-{colour}/"
        return page("Classic shirt", description="Our classic shirt, in many colours",
                    og_title="Classic shirt", og_url=own, canonical=own,
                    links=["/products/"], head=GTM_SNIPPET + product_jsonld(colour),
                    layout="product")

    def mirror(self, path: str, query: dict[str, list[str]]) -> Response:
        lang, slug = path.strip("/").split("/", 1) if path.count("/") >= 3 else ("", "")
        if slug not in LANG_SLUGS:
            return self.not_found()
        other = "ja" if lang == "en" else "en"
        head = (f'<link rel="alternate" hreflang="{lang}" href="/{lang}/{slug}/">'
                f'<link rel="alternate" hreflang="{other}" href="/{other}/{slug}/">')
        label = "ページ" if lang == "ja" else "Page"
        return page(f"{slug.title()} ({lang}) - {label}", description=f"{slug} in {lang}",
                    lang=lang, head=head,
                    links=[f"/{lang}/{s}/" for s in LANG_SLUGS] + [f"/{other}/{slug}/"],
                    layout="doc")


class ExternalSite:
    """The second origin: a couple of pages and a 404, for metadata-only fetches."""

    def handle(self, method: str, target: str) -> Response:
        path = urlsplit(target).path
        if path == "/":
            return page("External home", description="Another site")
        if path == "/page":
            return page("External page", description="Another page")
        r = page("Gone", description="Not here")
        r.status = 404
        return r


def _hex(seed: str) -> str:
    return hashlib.sha1(seed.encode()).hexdigest()[:16]


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        return 0


_PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
)
