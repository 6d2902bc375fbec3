#!/usr/bin/env python3
"""A small multi-CMS web site with ground truth for main-content and unused-file audits.

    python corpora/multi_cms.py            # serve it, print the base URL, wait for ^C
    python corpora/multi_cms.py --dump     # print the ground truth as JSON and exit

``Site(seed)`` is a context manager that serves, on a free port of 127.0.0.1, about seventy
HTML pages in eleven "sections", each rendered the way one real product marks up its pages
(written from memory of their output, not from their source):

==================== ============================ =========================================
template             section                      main content element (``truth.main``)
==================== ============================ =========================================
wordpress-classic    ``/blog/`` (Twenty Seventeen) ``main#main.site-main`` inside
                                                  ``#primary.content-area``; the widget
                                                  sidebar ``aside#secondary`` is a sibling
wordpress-block      ``/news/`` (Twenty Twenty-   ``main.wp-block-group`` between the
                     Four)                        header and footer template parts
mediawiki-vector     ``/wiki/`` (Vector legacy)   ``div#content.mw-body[role=main]``
sphinx-alabaster     ``/docs/``                   ``div.body[role=main]``
drupal-olivero       ``/community/``              ``main.site-main[role=main]`` (``#main``
                                                  wraps main *and* sidebar, and
                                                  ``a#main-content`` is an empty anchor)
bootstrap-columns    ``/product/``                ``div.col-md-8`` (no main, no role=main)
hugo-papermod        ``/journal/``                ``main.main``
jekyll-minima        ``/notes/``                  ``main.page-content``
japanese-corporate   ``/jp/``                     ``div#main`` inside ``div#contents``
                                                  (which also holds the ``#side`` column)
agency-cookie-trap   ``/studio/``                 ``div#page-body[role=main]``; a cookie
                                                  banner and a search modal, both with a
                                                  ``div.content``, come first in the body
app-shell            ``/shop/``                   ``main#main-view.app-main`` inside
                                                  ``div#app`` full of custom elements
site-index           ``/``                        ``main#index`` (links every page)
==================== ============================ =========================================

Every page is built as a tree of ``El`` nodes (tag, attributes, children) that is valid HTML
as written, so a browser's DOM has the same shape; the HTML is rendered from that tree and
the truth is computed from the same tree (never by re-parsing). Outside the main element
the templates carry decoys of every counted kind: headings in widgets and footers, logos,
search and newsletter buttons, a calendar table, a sidebar video, custom elements.

Truth per page (``truth["pages"][absolute url]``), all counted *inside* the main element:

- ``main``: ``{"tag", "id", "classes"}`` of the element an editor would call the page's
  content; the (tag, id, classes ⊆ class list) triple matches exactly one element.
- ``headings``: ``[level, text]`` in document order; text is the heading's text content
  (script/style excluded), whitespace collapsed — Sphinx's ``¶`` permalink is part of it.
- ``images``: ``[absolute src, alt or None]`` for every ``<img>`` and ``<input
  type=image>`` in document order (``alt=""`` stays ``""``).
- ``tables``: per ``<table>`` in document order (nested ones included): ``rows`` = all
  ``<tr>`` descendants (a nested table's rows count for its outer table too), ``cols`` =
  ``<td>``/``<th>`` children of the first ``<tr>``, ``thead``/``tfoot`` present,
  ``merged`` = a cell with colspan or rowspan > 1.
- ``buttons``: ``<button>``, ``<input type=submit|button|reset>`` and any element with
  ``role="button"`` (hidden or disabled ones too; ``<input type=image>`` is an image, and a
  link styled as a button without the role is not a button).
- ``iframes``/``videos``/``audios``/``canvases``: element counts.
- ``custom_elements``: tag names containing a hyphen, one entry per element, document order.
- ``text_chars``: non-whitespace characters of all text nodes under the main element except
  inside ``<script>``/``<style>`` (screen-reader-only text is counted: it is rendered, only
  clipped; no text under the main element is ever ``display:none``; input values and alt
  texts are attributes, not text, and are not counted).

Files (``truth["files"]``): ``used`` are static files a browser requests while rendering
some page — stylesheets, scripts, ``<img>``/``<input type=image>`` sources, video posters,
and ``url()`` references (background image, ``@font-face`` font) inside a used stylesheet.
``unused`` are the other static files: they exist and are listed in the sitemap, but are
referenced only from an HTML comment, an IE conditional comment or an unused stylesheet,
or not at all. Media files (played with ``preload="none"``, so never fetched on render)
and the one linked PDF are in neither list and not in the sitemap. No URL carries a query
string. ``/robots.txt`` names ``/sitemap.xml``, which lists every page and every used and
unused file. Unknown paths answer 404 with an HTML body.

Standard library only; deterministic for a given seed (apart from the port).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import re
import struct
import sys
import threading
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from html import escape
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, TypeAlias
from urllib.parse import urljoin, urlsplit

# --------------------------------------------------------------------------- element trees


class Comment(str):
    """An HTML comment (its text is never part of the page's text)."""


@dataclass(eq=False)
class El:
    """One element: tag, attributes (``None`` value = boolean attribute) and children."""

    tag: str
    attrs: dict[str, str | None] = field(default_factory=dict)
    kids: list[El | str] = field(default_factory=list)

    @property
    def classes(self) -> list[str]:
        return (self.attrs.get("class") or "").split()


Kid: TypeAlias = "El | str | Sequence[Kid] | None"
AttrValue: TypeAlias = "str | int | bool | None"

SPEC = re.compile(r"([#.])([^#.]+)")
VOID = frozenset(
    {
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr",
    }
)
RAW_TEXT = frozenset({"script", "style"})
# children of these are put on lines of their own (whitespace only, never inside phrasing)
BLOCK = frozenset(
    {
        "html", "head", "body", "div", "section", "main", "article", "aside", "header",
        "footer", "nav", "ul", "ol", "dl", "table", "thead", "tbody", "tfoot", "tr", "form",
        "figure", "details", "search", "fieldset",
    }
)


def _flatten(kids: Sequence[Kid], out: list[El | str]) -> None:
    for kid in kids:
        if kid is None or kid == "":
            continue
        if isinstance(kid, El | str):
            out.append(kid)
        else:
            _flatten(kid, out)


def h(spec: str, *kids: Kid, **attrs: AttrValue) -> El:
    """Build an element: ``h("div#id.cls1.cls2", child, ..., data_x="1", class_="more")``.

    Keyword names lose a trailing underscore and have ``_`` turned into ``-``; ``True`` makes
    a boolean attribute, ``False``/``None`` leaves the attribute out.
    """
    tag = re.split(r"[#.]", spec, maxsplit=1)[0]
    ident = None
    classes: list[str] = []
    for mark, value in SPEC.findall(spec[len(tag) :]):
        if mark == "#":
            ident = value
        else:
            classes.append(value)
    extra = attrs.pop("class_", None)
    if isinstance(extra, str) and extra:
        classes.extend(extra.split())
    out: dict[str, str | None] = {}
    if ident:
        out["id"] = ident
    if classes:
        out["class"] = " ".join(classes)
    for name, value in attrs.items():
        if value is None or value is False:
            continue
        key = name.rstrip("_").replace("_", "-")
        out[key] = None if value is True else str(value)
    el = El(tag, out)
    _flatten(kids, el.kids)
    return el


def render(node: El | str, out: list[str], parent: str = "") -> None:
    """Append the HTML of ``node`` to ``out``."""
    if isinstance(node, Comment):
        out.append(f"<!--{node}-->")
        return
    if isinstance(node, str):
        out.append(node if parent in RAW_TEXT else escape(node, quote=False))
        return
    attrs = "".join(f" {k}" if v is None else f' {k}="{escape(v)}"' for k, v in node.attrs.items())
    out.append(f"<{node.tag}{attrs}>")
    if node.tag in VOID:
        return
    sep = "\n" if node.tag in BLOCK else ""
    for kid in node.kids:
        out.append(sep)
        render(kid, out, node.tag)
    out.append(f"{sep}</{node.tag}>")


def to_html(doc: El) -> str:
    out = ["<!DOCTYPE html>\n"]
    render(doc, out)
    out.append("\n")
    return "".join(out)


def walk(el: El) -> Iterator[El]:
    """``el`` and its element descendants in document order."""
    yield el
    for kid in el.kids:
        if isinstance(kid, El):
            yield from walk(kid)


def text_content(el: El) -> str:
    """Concatenated text nodes under ``el``, skipping comments and script/style contents."""
    parts: list[str] = []

    def go(node: El) -> None:
        for kid in node.kids:
            if isinstance(kid, El):
                if kid.tag not in RAW_TEXT:
                    go(kid)
            elif not isinstance(kid, Comment):
                parts.append(kid)

    go(el)
    return "".join(parts)


# --------------------------------------------------------------------------- static files

PNG_SIG = b"\x89PNG\r\n\x1a\n"


def png(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """A valid, single-colour PNG."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    row = b"\x00" + bytes(rgb) * width
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        PNG_SIG
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(row * height))
        + chunk(b"IEND", b"")
    )


GIF = (
    b"GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00"
    b",\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"
)


def svg(label: str, colour: str) -> bytes:
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60" viewBox="0 0 120 60">'
        f'<rect width="120" height="60" fill="{colour}"/><text x="8" y="36" font-size="14">'
        f"{label}</text></svg>\n"
    ).encode()


SITE_CSS = """\
@font-face {
  font-family: "Inter";
  src: url("/fonts/inter-var.woff2") format("woff2");
  font-display: swap;
}
body {
  margin: 0;
  font-family: "Inter", system-ui, sans-serif;
  color: #1d1d1f;
  background: #fbfaf7 url("../img/bg-pattern.png") repeat-x;
}
img, video, canvas, iframe { max-width: 100%; }
.screen-reader-text, .visually-hidden, .sr-only {
  position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
}
.modal[aria-hidden="true"] { display: none; }
table { border-collapse: collapse; }
td, th { border: 1px solid #ccc; padding: .25em .5em; }
"""

TWENTYSEVENTEEN_CSS = """\
/*
Theme Name: Twenty Seventeen
Version: 3.6
*/
body { margin: 0; font-family: "Libre Franklin", "Helvetica Neue", helvetica, arial, sans-serif; }
.screen-reader-text { clip: rect(1px, 1px, 1px, 1px); height: 1px; overflow: hidden;
  position: absolute !important; width: 1px; word-wrap: normal !important; }
.site-content { padding: 2.5em 0 0; }
.has-sidebar #primary { float: left; width: 58%; }
.has-sidebar #secondary { float: right; padding-top: 0; width: 36%; }
.wp-calendar-table td, .wp-calendar-table th { text-align: center; }
"""

OLD_SITE_CSS = """\
/* 2019 design, replaced by site.css */
body { font-family: Georgia, serif; background: url(/images/old-bg.png) repeat; }
#header { height: 120px; }
"""

IE8_HTML5_JS = "/* html5shiv 3.7.3 for IE < 9 (never loaded by current browsers) */\n"
SITE_JS = 'document.documentElement.classList.add("js");\n'
GLOBAL_JS = '(function () { document.documentElement.classList.add("twentyseventeen-js"); })();\n'
LEGACY_JS = "var _gaq = _gaq || []; _gaq.push(['_trackPageview']); // orphaned since 2021\n"

PDF = (
    b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n"
    b"2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n"
    b"3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\n"
    b"trailer<</Root 1 0 R>>\n%%EOF\n"
)

MP4 = b"\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom" + bytes(64)
MP3 = b"ID3\x03\x00\x00\x00\x00\x00\x00\xff\xfb\x90\x00" + bytes(96)

CTYPES = {
    "css": "text/css; charset=utf-8",
    "js": "text/javascript; charset=utf-8",
    "png": "image/png",
    "gif": "image/gif",
    "svg": "image/svg+xml",
    "woff2": "font/woff2",
    "mp4": "video/mp4",
    "mp3": "audio/mpeg",
    "pdf": "application/pdf",
}

# role: "asset" files are used or unused; "media" and "document" are neither
STATIC: dict[str, tuple[str, bytes]] = {
    "/assets/css/site.css": ("asset", SITE_CSS.encode()),
    "/assets/css/old-site.css": ("asset", OLD_SITE_CSS.encode()),
    "/assets/js/site.js": ("asset", SITE_JS.encode()),
    "/assets/js/legacy-analytics.js": ("asset", LEGACY_JS.encode()),
    "/assets/img/bg-pattern.png": ("asset", png(8, 8, (240, 236, 228))),
    "/assets/img/poster.png": ("asset", png(32, 18, (30, 60, 90))),
    "/fonts/inter-var.woff2": ("asset", b"wOF2\x00\x01\x00\x00" + bytes(56)),
    "/fonts/legacy-serif.woff2": ("asset", b"wOF2\x00\x01\x00\x00" + bytes(40)),
    "/images/team.gif": ("asset", GIF),
    "/images/diagram.svg": ("asset", svg("diagram", "#cde")),
    "/images/product.png": ("asset", png(24, 16, (200, 80, 40))),
    "/images/old-bg.png": ("asset", png(8, 8, (90, 90, 90))),
    "/images/banner-2019.gif": ("asset", GIF),
    "/wp-content/themes/twentyseventeen/style.css": ("asset", TWENTYSEVENTEEN_CSS.encode()),
    "/wp-content/themes/twentyseventeen/assets/js/global.js": ("asset", GLOBAL_JS.encode()),
    "/wp-content/themes/twentyseventeen/assets/js/html5.js": ("asset", IE8_HTML5_JS.encode()),
    "/wp-content/uploads/2024/03/harbour-view.png": ("asset", png(40, 27, (60, 120, 170))),
    "/wp-content/uploads/2024/03/harbour-view-300x200.png": ("asset", png(30, 20, (60, 120, 170))),
    "/wp-content/uploads/2024/03/cropped-logo.png": ("asset", png(20, 20, (20, 40, 80))),
    "/wp-content/uploads/2019/08/logo-old.png": ("asset", png(20, 20, (120, 20, 20))),
    "/media/intro.mp4": ("media", MP4),
    "/media/podcast-01.mp3": ("media", MP3),
    "/wp-content/uploads/2023/11/annual-report-2023.pdf": ("document", PDF),
}
EXPECTED_UNUSED = frozenset(
    {
        "/assets/css/old-site.css",  # only in an HTML comment (Japanese pages)
        "/images/old-bg.png",  # only in old-site.css
        "/assets/js/legacy-analytics.js",  # orphaned
        "/fonts/legacy-serif.woff2",  # nobody references it
        "/images/banner-2019.gif",  # only in an HTML comment (agency pages)
        "/wp-content/themes/twentyseventeen/assets/js/html5.js",  # IE conditional comment
        "/wp-content/uploads/2024/03/harbour-view-300x200.png",  # WordPress thumbnail size
        "/wp-content/uploads/2019/08/logo-old.png",  # replaced logo
    }
)
IMAGES = {
    "harbour": "/wp-content/uploads/2024/03/harbour-view.png",
    "logo": "/wp-content/uploads/2024/03/cropped-logo.png",
    "team": "/images/team.gif",
    "diagram": "/images/diagram.svg",
    "product": "/images/product.png",
    "poster": "/assets/img/poster.png",
}
VIDEO = "/media/intro.mp4"
AUDIO = "/media/podcast-01.mp3"
PDF_PATH = "/wp-content/uploads/2023/11/annual-report-2023.pdf"
SITE_CSS_PATH = "/assets/css/site.css"
SITE_JS_PATH = "/assets/js/site.js"

# --------------------------------------------------------------------------- text

WORDS = (
    "harbour", "tide", "ferry", "quay", "lantern", "pier", "crane", "cargo", "anchor", "beacon",
    "channel", "dock", "estuary", "gull", "jetty", "keel", "lighthouse", "mooring", "net",
    "oar", "pilot", "rope", "sail", "salt", "shore", "signal", "slipway", "tug", "vessel",
    "warehouse", "wharf", "winch", "bridge", "canal", "lock", "tower", "market", "square",
    "festival", "river", "route", "timetable", "ticket", "season", "evening", "morning",
    "winter", "summer", "garden", "museum", "archive", "library", "map", "survey", "storm",
    "repair", "paint", "timber", "stone", "iron", "brick", "restoration", "volunteer",
    "visitor", "resident", "council", "plan", "budget", "report", "history", "guide", "walk",
    "tour",
)
JP_PHRASES = (
    "当社は", "創業以来", "地域社会との共生を大切にし", "高品質な製品づくりに",
    "取り組んでまいりました", "お客様のご要望にお応えするため",
    "技術開発を継続的に進めております", "環境保全と安全を第一に考え",
    "品質管理体制を強化しています", "港湾設備の設計から施工まで", "一貫した体制で", "全国の拠点で",
    "サービスを提供しております", "今後とも変わらぬご愛顧を", "賜りますようお願い申し上げます",
    "社員一人ひとりが", "責任を持って", "持続可能な社会の実現に向けて", "積極的に取り組みます",
)
JP_TITLES = (
    "事業概要", "沿革", "企業理念", "代表挨拶", "拠点一覧", "製品情報", "品質方針",
    "環境への取り組み",
    "安全衛生", "研究開発", "主要取引先", "今後の展望", "お客様の声", "技術紹介", "設備一覧",
)


class Ids:
    """Unique, slug-like ids for one page."""

    def __init__(self) -> None:
        self.seen: set[str] = set()

    def __call__(self, text: str, sep: str = "-") -> str:
        base = re.sub(r"[^A-Za-z0-9]+", sep, text).strip(sep) or "section"
        slug, n = base, 1
        while slug in self.seen:
            n += 1
            slug = f"{base}{sep}{n}"
        self.seen.add(slug)
        return slug


def title_case(words: Sequence[str]) -> str:
    return " ".join(w.capitalize() for w in words)


# --------------------------------------------------------------------------- site plan


@dataclass
class Page:
    """One HTML page of the plan."""

    template: str
    path: str
    title: str
    index: int  # position within its section
    kind: str = "post"
    doc: El | None = None
    main: El | None = None


@dataclass
class Build:
    """Everything a template needs: the origin and the planned pages."""

    origin: str  # "http://127.0.0.1:PORT" (no trailing slash)
    pages: list[Page]

    def section(self, template: str) -> list[Page]:
        return [p for p in self.pages if p.template == template]

    def url(self, path: str) -> str:
        return self.origin + path


# --------------------------------------------------------------------------- content kits


class Kit:
    """How one product marks up the pieces of a page body; subclasses override the pieces.

    ``compose`` asks a kit for headings, paragraphs and a seed-controlled mix of images,
    tables, buttons, iframes, media, canvases, custom elements, forms and inline scripts.
    """

    custom_tags: tuple[str, ...] = ()
    image_keys: tuple[str, ...] = ("team", "diagram", "product", "harbour")

    def __init__(self, b: Build, page: Page, r: random.Random) -> None:
        self.b, self.page, self.r = b, page, r
        self.ids = Ids()
        self.n = 0

    # -- links and sources
    def src(self, path: str) -> str:
        return path

    def href(self, page: Page) -> str:
        return page.path

    def sibling(self) -> Page:
        others = [p for p in self.b.section(self.page.template) if p is not self.page]
        return self.r.choice(others or [self.page])

    # -- text
    def words(self, a: int, b: int) -> str:
        return " ".join(self.r.choice(WORDS) for _ in range(self.r.randint(a, b)))

    def sentence(self) -> str:
        s = self.words(7, 15)
        return s[0].upper() + s[1:] + "."

    def title(self) -> str:
        return title_case(self.words(2, 4).split())

    def inline(self) -> list[Kid]:
        r = self.r
        kids: list[Kid] = [" ".join(self.sentence() for _ in range(r.randint(1, 3)))]
        roll = r.random()
        if roll < 0.3:
            sib = self.sibling()
            kids += [" See ", h("a", sib.title, href=self.href(sib)), "."]
        elif roll < 0.5:
            kids += [" ", h("strong", self.words(2, 4)), " ", self.sentence()]
        elif roll < 0.6:
            kids += [" ", h("em", self.words(1, 3)), " ", self.sentence()]
        return kids

    def para(self) -> El:
        return h("p", self.inline())

    # -- pieces
    def heading(self, level: int, text: str) -> El:
        return h(f"h{level}", text, id=self.ids(text.lower()))

    def alt(self) -> str | bool:
        """Alt text, ``""`` (decorative) or ``False`` (attribute absent)."""
        roll = self.r.random()
        if roll < 0.6:
            return self.words(2, 5).capitalize()
        return "" if roll < 0.8 else False

    def img(self, key: str | None = None, **attrs: AttrValue) -> El:
        key = key or self.r.choice(self.image_keys)
        alt = self.alt()
        el = h("img", src=self.src(IMAGES[key]), **attrs)
        if alt is not False:
            el.attrs["alt"] = str(alt)
        if self.r.random() < 0.5:
            el.attrs.update(width="600", height="400")
        return el

    def figure(self, img: El, caption: str | None) -> El:
        return h("figure", img, h("figcaption", caption) if caption else None)

    def image(self) -> El:
        r = self.r
        if r.random() < 0.25:
            return h("p", self.sentence(), " ", self.img(), " ", self.sentence())
        return self.figure(self.img(), self.sentence() if r.random() < 0.6 else None)

    def cell(self, tag: str, text: str, **attrs: AttrValue) -> El:
        return h(tag, text, **attrs)

    def table_el(self, nested_ok: bool = True) -> El:
        r = self.r
        ncols, nrows = r.randint(2, 5), r.randint(2, 5)
        # a nested table is plain, so its outer table's thead/tfoot/merged stay unambiguous
        thead = nested_ok and r.random() < 0.6
        tfoot = nested_ok and r.random() < 0.3
        merge = r.choice(["", "", "col", "row"]) if ncols > 2 and nested_ok else ""
        head = [self.cell("th", title_case(self.words(1, 2).split()), scope="col")
                for _ in range(ncols)]
        body: list[El] = []
        skip_first = False
        merge_at = r.randrange(nrows - 1) if merge else -1
        nest_at = r.randrange(1, nrows) if nested_ok and r.random() < 0.15 else -1
        for i in range(nrows):
            cells: list[El] = []
            width = ncols - (1 if skip_first else 0)
            skip_first = False
            for c in range(width):
                text = str(r.randint(1, 999)) if c else title_case(self.words(1, 2).split())
                attrs: dict[str, AttrValue] = {}
                if i == merge_at and c == 0 and merge == "row":
                    attrs["rowspan"] = 2
                    skip_first = True
                if i == merge_at and c == 0 and merge == "col":
                    attrs["colspan"] = 2
                cell = self.cell("th" if c == 0 and r.random() < 0.3 else "td", text, **attrs)
                if i == nest_at and c == width - 1:
                    cell = h("td", self.table_el(nested_ok=False))
                cells.append(cell)
            if i == merge_at and merge == "col":
                cells.pop()
            body.append(h("tr", cells))
        foot = h("tr", [h("td", str(r.randint(100, 9999))) for _ in range(ncols)])
        return h(
            "table",
            h("caption", self.words(2, 4).capitalize()) if nested_ok and r.random() < 0.3 else None,
            h("thead", h("tr", head)) if thead else None,
            h("tbody", body),
            h("tfoot", foot) if tfoot else None,
            class_=self.table_class(),
        )

    def table_class(self) -> str:
        return ""

    def table(self) -> El:
        return h("div.table-wrap", self.table_el())

    def button_variants(self) -> El:
        r = self.r
        label = self.words(1, 2).capitalize()
        return [
            h("button", label, type_="button"),
            h("button", label),
            h("button", label, type_="submit", disabled=True),
            h("input", type_="submit", value=label),
            h("input", type_="button", value=label),
            h("input", type_="reset", value="Reset"),
            h("a.btn", label, href=self.href(self.sibling()), role="button"),
            h("span.toggle", label, role="button", tabindex="0"),
            h(
                "button.share",
                h("svg", h("path", d="M4 8h8"), aria_hidden="true", width="16", height="16"),
                label,
                type_="button",
            ),
        ][r.randrange(9)]

    def buttons(self) -> El:
        return h("p.actions", [self.button_variants() for _ in range(self.r.randint(1, 3))])

    def iframe_src(self) -> str:
        if self.r.random() < 0.7:
            return "about:blank"
        return self.href(self.b.section("sphinx-alabaster")[0])

    def iframe(self) -> El:
        return h(
            "iframe",
            src=self.iframe_src(),
            title=self.words(2, 3).capitalize(),
            width="560",
            height="315",
        )

    def video_el(self) -> El:
        r = self.r
        sizes: dict[str, AttrValue] = {"width": "640", "height": "360"} if r.random() < 0.5 else {}
        poster = self.src(IMAGES["poster"]) if r.random() < 0.6 else None
        if r.random() < 0.5:
            return h("video", controls=True, preload="none", poster=poster, src=self.src(VIDEO),
                     **sizes)
        return h(
            "video",
            h("source", src=self.src(VIDEO), type_="video/mp4"),
            controls=True,
            preload="none",
            poster=poster,
            **sizes,
        )

    def video(self) -> El:
        return h("figure.video", self.video_el())

    def audio(self) -> El:
        if self.r.random() < 0.5:
            return h("audio", controls=True, preload="none", src=self.src(AUDIO))
        return h(
            "audio",
            h("source", src=self.src(AUDIO), type_="audio/mpeg"),
            controls=True,
            preload="none",
        )

    def canvas(self) -> El:
        self.n += 1
        if self.r.random() < 0.5:
            return h(f"canvas#chart-{self.n}.chart", width="400", height="200",
                     aria_label="Chart")
        return h("canvas.sparkline")

    def custom(self) -> El:
        tag = self.r.choice(self.custom_tags)
        self.n += 1
        if tag == "lite-youtube":
            return h(tag, videoid=f"vid{self.n:04d}", playlabel=f"Play: {self.title()}")
        attrs: dict[str, AttrValue] = {}
        if self.r.random() < 0.4:
            attrs["id"] = f"{tag}-{self.n}"
        if self.r.random() < 0.5:
            attrs["class_"] = tag.split("-")[0]
        return h(tag, h("p", self.sentence()) if self.r.random() < 0.6 else None, **attrs)

    def form(self) -> El:
        r = self.r
        self.n += 1
        n = self.n
        return h(
            f"form#form-{n}.contact-form",
            h("p", h("label", "Name", for_=f"name-{n}"), " ",
              h("input", type_="text", id=f"name-{n}", name="name")),
            h("p", h("label", "Email", for_=f"email-{n}"), " ",
              h("input", type_="email", id=f"email-{n}", name="email")),
            h("p", h("label", "Message", for_=f"msg-{n}"), " ",
              h("textarea", id=f"msg-{n}", name="message", rows="4")),
            h("p", [self.button_variants() for _ in range(r.randint(1, 2))],
              h("input", type_="image", src=self.src(IMAGES["product"]), alt="Send")
              if r.random() < 0.4 else None),
            action=self.page.path,
            method="post",
        )

    def script(self) -> El:
        if self.r.random() < 0.5:
            return h("script", 'window.dataLayer = window.dataLayer || [];')
        return h("style", ".is-layout-flex{display:flex;gap:.5em;flex-wrap:wrap}")

    def block(self, feature: str) -> El:
        method: Callable[[], El] = getattr(self, feature)
        return method()


FEATURES = {
    "image": 0.5,
    "table": 0.3,
    "buttons": 0.35,
    "iframe": 0.15,
    "video": 0.15,
    "audio": 0.1,
    "canvas": 0.12,
    "custom": 0.3,
    "form": 0.1,
    "script": 0.12,
}


def compose(kit: Kit, level: int, sections: int) -> list[Kid]:
    """A body: a lead paragraph, then sections with headings, text and random features."""
    r = kit.r
    out: list[Kid] = [kit.para()]
    for _ in range(sections):
        out += [kit.heading(level, kit.title()), kit.para()]
        depth = level
        while depth < 6 and r.random() < 0.4:
            depth += 1
            out += [kit.heading(depth, kit.title()), kit.para()]
        for feature, p in FEATURES.items():
            if feature == "custom" and not kit.custom_tags:
                continue
            if r.random() < p:
                out.append(kit.block(feature))
    return out


def nav_list(b: Build, page: Page, href: Callable[[Page], str], **attrs: AttrValue) -> El:
    return h(
        "ul",
        [h("li", h("a", p.title, href=href(p))) for p in b.section(page.template)],
        **attrs,
    )


def html_doc(title: str, head: Sequence[Kid], body: El, lang: str = "en") -> El:
    return h(
        "html",
        h(
            "head",
            h("meta", charset="utf-8"),
            h("meta", name="viewport", content="width=device-width, initial-scale=1"),
            h("title", title),
            head,
        ),
        body,
        lang=lang,
    )


def site_assets(prefix: str = "") -> list[El]:
    return [
        h("link", rel="stylesheet", href=prefix + SITE_CSS_PATH if prefix else SITE_CSS_PATH),
        h("script", src=prefix + SITE_JS_PATH if prefix else SITE_JS_PATH, defer=True),
    ]


Rendered: TypeAlias = "tuple[El, El]"
DATES = ("March 3, 2024", "January 19, 2024", "November 8, 2023", "July 22, 2023")

# --------------------------------------------------------------------------- WordPress


class WordPressKit(Kit):
    custom_tags = ("lite-youtube",)
    image_keys = ("harbour", "harbour", "team", "diagram")

    def src(self, path: str) -> str:
        return self.b.url(path)  # WordPress writes absolute URLs

    def href(self, page: Page) -> str:
        return self.b.url(page.path)

    def heading(self, level: int, text: str) -> El:
        return h(f"h{level}.wp-block-heading", text, id=self.ids(text.lower()))

    def img(self, key: str | None = None, **attrs: AttrValue) -> El:
        self.n += 1
        cls = f"{attrs.pop('class_', None) or ''} wp-image-{40 + self.n}".strip()
        return super().img(key, decoding="async", class_=cls, **attrs)

    def figure(self, img: El, caption: str | None) -> El:
        cap = h("figcaption.wp-element-caption", caption) if caption else None
        return h("figure.wp-block-image.size-large", img, cap)

    def table(self) -> El:
        cap = h("figcaption.wp-element-caption", self.sentence()) if self.r.random() < 0.3 else None
        return h("figure.wp-block-table", self.table_el(), cap)

    def table_class(self) -> str:
        return "has-fixed-layout"

    def buttons(self) -> El:
        if self.r.random() < 0.5:  # the Buttons block renders links, not buttons
            return h(
                "div.wp-block-buttons.is-layout-flex.wp-block-buttons-is-layout-flex",
                h("div.wp-block-button", h("a.wp-block-button__link.wp-element-button",
                  self.words(1, 3).capitalize(), href=self.href(self.sibling()))),
            )
        return super().buttons()

    def iframe(self) -> El:
        return h(
            "figure.wp-block-embed.is-type-rich.wp-block-embed-map",
            h("div.wp-block-embed__wrapper", super().iframe()),
        )

    def video(self) -> El:
        return h("figure.wp-block-video", self.video_el())

    def audio(self) -> El:
        return h("figure.wp-block-audio", super().audio())


def wp_article(kit: WordPressKit, page: Page, pid: int, block_theme: bool) -> list[Kid]:
    r, b = kit.r, kit.b
    post = page.kind == "post"
    date = DATES[page.index % len(DATES)]
    body = compose(kit, 2, r.randint(2, 3))
    if page.index == 0 and not block_theme:
        body.insert(1, h("p", "Our ", h("a", "annual report 2023 (PDF)", href=b.url(PDF_PATH)),
                         " is available for download."))
    if block_theme:
        return [
            h("h1.has-text-align-center.wp-block-post-title", page.title),
            h("div.wp-block-post-date", h("time", date, datetime="2024-03-03T09:00:00+00:00")),
            h("figure.alignwide.wp-block-post-featured-image",
              kit.img("harbour", class_="attachment-post-thumbnail wp-post-image")),
            h("div.entry-content.alignfull.wp-block-post-content.has-global-padding"
              ".is-layout-constrained.wp-block-post-content-is-layout-constrained", body),
        ]
    meta = h(
        "div.entry-meta",
        h("span.posted-on", h("span.screen-reader-text", "Posted on"), " ",
          h("a", h("time.entry-date.published", date, datetime="2024-03-03T09:00:00+00:00"),
            href=b.url(page.path), rel="bookmark")),
    )
    cls = f"post-{pid} {'post' if post else 'page'} type-{'post' if post else 'page'} "
    return [
        h(
            f"article#post-{pid}",
            h("header.entry-header", meta if post else None, h("h1.entry-title", page.title)),
            h("div.entry-content", body),
            h("footer.entry-footer", h("span.cat-tags-links", h("span.cat-links",
              h("span.screen-reader-text", "Categories"), h("a", "News", href=b.url("/blog/"),
              rel="category tag")))) if post else None,
            class_=cls + "status-publish format-standard hentry category-news",
        )
    ]


def wp_comments(kit: Kit, reply_tag: str) -> El:
    return h(
        "div#comments.comments-area",
        h(
            "div#respond.comment-respond",
            h(f"{reply_tag}#reply-title.comment-reply-title", "Leave a Reply"),
            h(
                "form#commentform.comment-form",
                h("p.comment-notes", h("span#email-notes", "Your email address will not be "
                  "published."), " ", h("span.required-field-message",
                  "Required fields are marked *")),
                h("p.comment-form-comment", h("label", "Comment *", for_="comment"), " ",
                  h("textarea#comment", name="comment", cols="45", rows="8", required=True)),
                h("p.comment-form-author", h("label", "Name *", for_="author"), " ",
                  h("input#author", name="author", type_="text", size="30", required=True)),
                h("p.comment-form-email", h("label", "Email *", for_="email"), " ",
                  h("input#email", name="email", type_="email", size="30", required=True)),
                h("p.comment-form-cookies-consent", h("input#wp-comment-cookies-consent",
                  name="wp-comment-cookies-consent", type_="checkbox", value="yes"), " ",
                  h("label", "Save my name and email in this browser for the next time I "
                    "comment.", for_="wp-comment-cookies-consent")),
                h("p.form-submit", h("input#submit.submit", name="submit", type_="submit",
                  value="Post Comment"), h("input#comment_post_ID", type_="hidden",
                  name="comment_post_ID", value="42")),
                action=kit.page.path,
                method="post",
                novalidate=True,
            ),
        ),
    )


def search_icon() -> El:
    return h("svg.icon.icon-search", h("use", href="#icon-search"), aria_hidden="true", role="img")


def wordpress_classic(b: Build, page: Page, r: random.Random) -> Rendered:
    kit = WordPressKit(b, page, r)
    pid = 100 + page.index * 7
    url = b.url
    content: list[Kid] = wp_article(kit, page, pid, block_theme=False)
    if page.kind == "post":
        sib = kit.sibling()
        content += [
            h("nav.navigation.post-navigation", h("h2.screen-reader-text", "Post navigation"),
              h("div.nav-links", h("div.nav-previous", h("a", h("span.screen-reader-text",
                "Previous Post"), h("span.nav-subtitle", "Previous"), " ",
                h("span.nav-title", sib.title), href=url(sib.path), rel="prev"))),
              aria_label="Posts"),
            wp_comments(kit, "h3"),
        ]
    main = h("main#main.site-main", content)
    days = [h("td", str(d)) for d in range(1, 8)]
    sidebar = h(
        "aside#secondary.widget-area",
        h("section#search-2.widget.widget_search", h("form.search-form", h("label",
          h("span.screen-reader-text", "Search for:"), for_="search-form-1"),
          h("input#search-form-1.search-field", type_="search", placeholder="Search …", name="s"),
          h("button.search-submit", search_icon(), h("span.screen-reader-text", "Search"),
            type_="submit"), role="search", method="get", action=url("/blog/"))),
        h("section#recent-posts-2.widget.widget_recent_entries", h("h2.widget-title",
          "Recent Posts"), h("nav", nav_list(b, page, lambda p: url(p.path)),
          aria_label="Recent Posts")),
        h("section#calendar-2.widget.widget_calendar", h("h2.widget-title", "Calendar"),
          h("div#calendar_wrap.calendar_wrap", h("table#wp-calendar.wp-calendar-table",
            h("caption", "March 2024"),
            h("thead", h("tr", [h("th", d, scope="col") for d in "MTWTFSS"])),
            h("tbody", h("tr", days))))),
        h("section#media_image-3.widget.widget_media_image", h("h2.widget-title", "Find us"),
          h("img.image.wp-image-7.attachment-medium.size-medium", width="300", height="200",
            src=url(IMAGES["harbour"]), alt="")),
        aria_label="Blog Sidebar",
    )
    header = h(
        "header#masthead.site-header",
        h("div.custom-header", h("div.custom-header-media", h("div#wp-custom-header"
          ".wp-custom-header", h("img", src=url(IMAGES["harbour"]), width="2000",
          height="1200", alt="")))),
        h("div.site-branding", h("div.wrap", h("a.custom-logo-link", h("img.custom-logo",
          src=url(IMAGES["logo"]), alt="Harbour Notes", width="250", height="250"),
          href=url("/blog/"), rel="home"), h("div.site-branding-text", h("p.site-title",
          h("a", "Harbour Notes", href=url("/blog/"), rel="home")),
          h("p.site-description", "Stories from the old port")))),
        h("div.navigation-top", h("div.wrap", h("nav#site-navigation.main-navigation",
          h("button.menu-toggle", h("svg.icon.icon-bars", h("use", href="#icon-bars"),
            aria_hidden="true", role="img"), "Menu", aria_controls="top-menu",
            aria_expanded="false"),
          h("div.menu-top-container", h("ul#top-menu.menu",
            h("li", h("a", "Home", href=url("/"))),
            h("li", h("a", "Blog", href=url("/blog/"))))),
          aria_label="Top Menu"))),
    )
    footer = h(
        "footer#colophon.site-footer",
        h("div.wrap", h("aside.widget-area", h("div.widget-column.footer-widget-1",
          h("section#text-2.widget.widget_text", h("h2.widget-title", "About This Site"),
            h("div.textwidget", h("p", kit.sentence())))), aria_label="Footer"),
          h("div.site-info", h("a.privacy-policy-link", "Privacy Policy",
            href=url(b.section("wordpress-classic")[-1].path)), " ",
            h("span.imprint", "Proudly powered by WordPress"))),
    )
    body = h(
        "body",
        h("div#page.site",
          h("a.skip-link.screen-reader-text", "Skip to content", href="#content"),
          header,
          h("div.site-content-contain",
            h("div#content.site-content", h("div.wrap", h("div#primary.content-area", main),
                                             sidebar)),
            footer)),
        h("script", src=url("/wp-content/themes/twentyseventeen/assets/js/global.js")),
        class_=("single single-post postid-" if page.kind == "post" else "page-template-default "
                "page page-id-") + f"{pid} has-sidebar colors-light",
    )
    head: list[Kid] = [
        h("link#twentyseventeen-style-css", rel="stylesheet", media="all",
          href=url("/wp-content/themes/twentyseventeen/style.css")),
        Comment('[if lt IE 9]>\n<script src="' + url("/wp-content/themes/twentyseventeen/"
                "assets/js/html5.js") + '"></script>\n<![endif]'),
        h("meta", name="generator", content="WordPress 6.5.2"),
    ]
    return html_doc(f"{page.title} – Harbour Notes", head, body, "en-US"), main


def wordpress_block(b: Build, page: Page, r: random.Random) -> Rendered:
    kit = WordPressKit(b, page, r)
    url = b.url
    pid = 300 + page.index * 5
    main = h(
        "main.wp-block-group.is-layout-flow.wp-block-group-is-layout-flow",
        h("div.wp-block-group.has-global-padding.is-layout-constrained",
          wp_article(kit, page, pid, block_theme=True)),
        h("div.wp-block-group.alignwide.has-global-padding.is-layout-constrained",
          h("h2.wp-block-heading", "Comments"), wp_comments(kit, "h3")) if r.random() < 0.6
        else None,
        style="margin-top:0",
    )
    menu = [h("li.wp-block-navigation-item", h("a.wp-block-navigation-item__content", p.title,
              href=url(p.path))) for p in b.section(page.template)[:4]]
    header = h(
        "header.wp-block-template-part",
        h("div.wp-block-group.alignwide.is-content-justification-space-between.is-layout-flex",
          h("div.wp-block-group.is-layout-flex",
            h("div.wp-block-site-logo", h("a.custom-logo-link", h("img.custom-logo",
              src=url(IMAGES["logo"]), alt="Quayside News", width="48", height="48"),
              href=url("/news/"), rel="home")),
            h("p.wp-block-site-title", h("a", "Quayside News", href=url("/news/"), rel="home"))),
          h("nav.is-responsive.items-justified-right.wp-block-navigation.is-layout-flex",
            h("button.wp-block-navigation__responsive-container-open", h("svg", h("path",
              d="M5 5v1.5h14V5H5z"), width="24", height="24", aria_hidden="true"),
              aria_haspopup="dialog", aria_label="Open menu"),
            h("div#modal-1.wp-block-navigation__responsive-container",
              h("div.wp-block-navigation__responsive-close", h(
                "div.wp-block-navigation__responsive-dialog",
                h("button.wp-block-navigation__responsive-container-close", "×",
                  aria_label="Close menu"),
                h("div#modal-1-content.wp-block-navigation__responsive-container-content",
                  h("ul.wp-block-navigation__container", menu))), tabindex="-1")),
            aria_label="Main")),
    )
    footer = h(
        "footer.wp-block-template-part",
        h("div.wp-block-group.has-global-padding.is-layout-constrained",
          h("div.wp-block-columns.alignwide.is-layout-flex",
            [h("div.wp-block-column", h("h2.wp-block-heading.has-medium-font-size", t),
               h("ul.wp-block-list", h("li", kit.words(1, 2).capitalize())))
             for t in ("About", "Privacy", "Social")]),
          h("p.has-small-font-size", "Designed with WordPress")),
    )
    body = h(
        "body",
        h("div.wp-site-blocks", header, main, footer),
        class_=f"post-template-default single single-post postid-{pid} wp-embed-responsive",
    )
    head: list[Kid] = [
        h("style#global-styles-inline-css", ":root{--wp--preset--color--base:#f9f9f9;}"),
        site_assets(),
        h("meta", name="generator", content="WordPress 6.5.2"),
    ]
    return html_doc(f"{page.title} – Quayside News", head, body, "en-US"), main


# --------------------------------------------------------------------------- MediaWiki


class MediaWikiKit(Kit):
    image_keys = ("diagram", "team", "product")

    def heading(self, level: int, text: str) -> El:
        return h(f"h{level}", h("span.mw-headline", text, id=self.ids(text, "_")))

    def figure(self, img: El, caption: str | None) -> El:
        link = h("a.image", img, href=img.attrs["src"])
        img.attrs["class"] = "thumbimage"
        return h(
            "div.thumb.tright",
            h("div.thumbinner", link, h("div.thumbcaption", caption or ""), style="width:222px;"),
        )

    def table_class(self) -> str:
        return "wikitable"

    def table(self) -> El:
        return self.table_el()

    def buttons(self) -> El:
        return h("div.mw-ui-button-group", [self.button_variants() for _ in range(2)])

    def video(self) -> El:
        v = self.video_el()
        v.attrs["class"] = "mw-file-element"
        return h("figure.mw-default-size", h("span", v), h("figcaption", self.sentence()),
                 typeof="mw:File/Thumb")


def mediawiki(b: Build, page: Page, r: random.Random) -> Rendered:
    kit = MediaWikiKit(b, page, r)
    parts = compose(kit, 2, r.randint(2, 4))
    lead, rest = parts[:1], parts[1:]
    heads = [el for el in rest if isinstance(el, El) and el.tag in ("h2", "h3", "h4", "h5", "h6")]
    toc_items = [
        h("li", h("a", h("span.tocnumber", str(i + 1)), " ", h("span.toctext", text_content(e)),
                  href=f"#{e.kids[0].attrs['id']}"), class_=f"toclevel-{int(e.tag[1]) - 1}")
        for i, e in enumerate(heads) if isinstance(e.kids[0], El)
    ]
    toc = h(
        "div#toc.toc",
        h("input#toctogglecheckbox.toctogglecheckbox", type_="checkbox", role="button",
          style="display:none"),
        h("div.toctitle", h("h2#mw-toc-heading", "Contents"), h("span.toctogglespan",
          h("label.toctogglelabel", for_="toctogglecheckbox")), lang="en", dir="ltr"),
        h("ul", toc_items),
        role="navigation",
        aria_labelledby="mw-toc-heading",
    )
    wiki = b.section(page.template)
    main = h(
        "div#content.mw-body",
        h("a#top"),
        h("div#siteNotice"),
        h("div.mw-indicators"),
        h("h1#firstHeading.firstHeading.mw-first-heading",
          h("span.mw-page-title-main", page.title)),
        h("div#bodyContent.vector-body",
          h("div#contentSub", h("div#mw-content-subtitle")),
          h("div#mw-content-text.mw-body-content", h("div.mw-content-ltr.mw-parser-output",
            lead, toc if len(heads) >= 3 else None, rest, lang="en", dir="ltr")),
          h("div#catlinks.catlinks", h("div#mw-normal-catlinks.mw-normal-catlinks",
            h("a", "Category", href=wiki[0].path), ": ",
            h("ul", h("li", h("a", "Harbour", href=wiki[0].path)))), data_mw="interface"),
          h("div.visualClear")),
        role="main",
    )

    def portlet(ident: str, label: str, items: Sequence[El]) -> El:
        return h(
            f"nav#{ident}.vector-menu.mw-portlet.vector-menu-portal.portal",
            h(f"h3#{ident}-label.vector-menu-heading", h("span", label)),
            h("div.vector-menu-content", h("ul.vector-menu-content-list", items)),
            aria_labelledby=f"{ident}-label",
        )

    links = [h("li", h("a", p.title, href=p.path)) for p in wiki]
    navigation = h(
        "div#mw-navigation",
        h("h2", "Navigation menu"),
        h("div#mw-head",
          portlet("p-personal", "Personal tools", [h("li#pt-login", h("a", "Log in", href="#"))]),
          h("div#left-navigation", portlet("p-namespaces", "Namespaces", [
            h("li#ca-nstab-main.selected", h("a", "Page", href=page.path)),
            h("li#ca-talk", h("a", "Discussion", href="#"))])),
          h("div#right-navigation", h("div#p-search.vector-search-box", h("h3", "Search"),
            h("form#searchform.vector-search-box-form", h("div#simpleSearch",
              h("input#searchInput.vector-search-box-input", type_="search", name="search",
                placeholder="Search Harbour Wiki"),
              h("input", type_="hidden", value="Special:Search", name="title"),
              h("input#mw-searchButton.searchButton.mw-fallbackSearchButton", type_="submit",
                name="fulltext", value="Search"),
              h("input#searchButton.searchButton", type_="submit", name="go", value="Go")),
              action="/wiki/" + wiki[0].path.rsplit("/", 1)[1]), role="search"))),
        h("div#mw-panel",
          h("div#p-logo", h("a.mw-wiki-logo", href=wiki[0].path, title="Visit the main page"),
            role="banner"),
          portlet("p-navigation", "Navigation", links[:4]),
          portlet("p-tb", "Tools", links[4:] or links[:1])),
    )
    footer = h(
        "footer#footer.mw-footer",
        h("ul#footer-info", h("li#footer-info-lastmod", f"This page was last edited on "
          f"{DATES[page.index % 4]}, at 10:{page.index:02d}.")),
        h("ul#footer-places", h("li#footer-places-about", h("a", "About Harbour Wiki",
          href=wiki[0].path))),
        role="contentinfo",
    )
    slug = page.path.rsplit("/", 1)[1]
    body = h(
        "body",
        h("div#mw-page-base.noprint"),
        h("div#mw-head-base.noprint"),
        main,
        h("div#mw-data-after-content"),
        navigation,
        footer,
        class_=f"mediawiki ltr sitedir-ltr ns-0 ns-subject page-{slug} skin-vector "
        "action-view skin-vector-legacy",
    )
    head: list[Kid] = [h("meta", name="generator", content="MediaWiki 1.39.7"), site_assets()]
    return html_doc(f"{page.title} - Harbour Wiki", head, body), main


# --------------------------------------------------------------------------- Sphinx


class SphinxKit(Kit):
    image_keys = ("diagram", "diagram", "product")

    def src(self, path: str) -> str:
        return ".." + path  # pages live in /docs/

    def href(self, page: Page) -> str:
        return page.path.rsplit("/", 1)[1]

    def heading(self, level: int, text: str) -> El:
        return h(f"h{level}", text, h("a.headerlink", "¶", href="#" + self.ids(text.lower()),
                                      title="Link to this heading"))

    def figure(self, img: El, caption: str | None) -> El:
        self.n += 1
        cap = h("figcaption", h("p", h("span.caption-text", caption), h("a.headerlink", "¶",
                href=f"#id{self.n}", title="Link to this image"))) if caption else None
        return h(f"figure#id{self.n}.align-default", img, cap)

    def cell(self, tag: str, text: str, **attrs: AttrValue) -> El:
        return h(tag, h("p", text), class_="head" if tag == "th" else None, **attrs)

    def table_class(self) -> str:
        return "docutils align-default"

    def table(self) -> El:
        return self.table_el()

    def buttons(self) -> El:
        return h("div.highlight-python.notranslate", h("div.highlight", h("pre", h("span"),
                 "import harbourlib\nharbourlib.open()")))


def sphinx(b: Build, page: Page, r: random.Random) -> Rendered:
    kit = SphinxKit(b, page, r)
    anchor = kit.ids(page.title.lower())
    parts = compose(kit, 2, r.randint(2, 3))
    if r.random() < 0.6:
        parts.insert(1, h("div.admonition.note", h("p.admonition-title", "Note"), kit.para()))
    main = h(
        "div.body",
        h(f"section#{anchor}", h("h1", page.title, h("a.headerlink", "¶", href="#" + anchor,
          title="Link to this heading")), parts),
        role="main",
    )
    docs = b.section(page.template)
    toctree = h("ul.current", [h("li.toctree-l1", h("a.reference.internal", p.title,
                href=kit.href(p))) for p in docs[1:]])
    sidebar = h(
        "div.sphinxsidebar",
        h("div.sphinxsidebarwrapper",
          h("p.logo", h("a", h("img.logo", src="../images/diagram.svg", alt="Logo"),
            href="index.html")),
          h("h1.logo", h("a", "Harbourlib", href="index.html")),
          h("h3", "Navigation"),
          toctree,
          h("div.relations", h("h3", "Related Topics"), h("ul", h("li", h("a",
            "Documentation overview", href="index.html")))),
          h("search#searchbox", h("h3#searchlabel", "Quick search"), h("div.searchformwrapper",
            h("form.search", h("input", type_="text", name="q", aria_labelledby="searchlabel",
              autocomplete="off"), h("input", type_="submit", value="Go"),
              action="index.html", method="get")), role="search")),
        role="navigation",
        aria_label="main navigation",
    )
    body = h(
        "body",
        h("div.document", h("div.documentwrapper", h("div.bodywrapper", main)), sidebar,
          h("div.clearer")),
        h("div.footer", "©2024, Harbour Team. | Powered by Sphinx 7.2.6 & Alabaster 0.7.16"),
    )
    head: list[Kid] = [h("link", rel="stylesheet", href="../assets/css/site.css", type_="text/css"),
            h("script", src="../assets/js/site.js")]
    return html_doc(f"{page.title} — Harbourlib 2.1 documentation", head, body), main


# --------------------------------------------------------------------------- Drupal


class DrupalKit(Kit):
    def figure(self, img: El, caption: str | None) -> El:
        return h("div.field.field--name-field-image.field--type-image", img,
                 h("div.field__caption", caption) if caption else None)


def drupal(b: Build, page: Page, r: random.Random) -> Rendered:
    kit = DrupalKit(b, page, r)
    nid = 10 + page.index * 3
    comments = h(
        "section.comments",
        h("h2.comments__title", "Comments"),
        h("h3.add-comment__heading", "Add new comment"),
        h("form#comment-form.comment-comment-form.comment-form",
          h("div.form-item", h("label.form-item__label", "Comment", for_="edit-comment-body"),
            h("textarea#edit-comment-body.form-element", name="comment_body", rows="5")),
          h("div.form-actions", h("input#edit-submit.button.button--primary.form-submit",
            type_="submit", value="Save"), h("input#edit-preview.button.form-submit",
            type_="submit", value="Preview")), action=page.path, method="post"),
        data_drupal_selector="comments",
    )
    main = h(
        "main.site-main",
        h("div.region.region--content-above.grid-full.layout--pass--content-medium",
          h("div#block-olivero-page-title.block.block-core.block-page-title-block",
            h("h1.title.page-title", h("span.field.field--name-title", page.title)))),
        h("div.region.region--content.grid-full.layout--pass--content-medium",
          h("div.hidden.messages-list", data_drupal_messages_fallback=True),
          h("div#block-olivero-content.block.block-system.block-system-main-block",
            h("div.block__content", h("article.node.node--type-article.node--view-mode-full",
              h("header", h("div.node__meta", h("span", "By ", h("span.field--name-uid",
                "harbourmaster")), " ", h("span", DATES[page.index % 4]))),
              h("div.node__content",
                h("div.text-content.clearfix.field.field--name-body.field__item",
                  compose(kit, 2, r.randint(2, 3))),
                comments if r.random() < 0.6 else None),
              data_history_node_id=str(nid))))),
        role="main",
    )
    links = [h("li.primary-nav__menu-item", h("a.primary-nav__menu-link", h(
        "span.primary-nav__menu-link-inner", p.title), href=p.path))
        for p in b.section(page.template)]
    header = h(
        "header#header.site-header",
        h("div.site-header__fixable",
          h("div.site-header__initial", h("button.sticky-header-toggle", h(
            "span.sticky-header-toggle__icon", h("span"), h("span"), h("span")),
            role="switch", aria_label="Sticky header", aria_checked="false")),
          h("div#site-header__inner.site-header__inner", h(
            "div.container.site-header__inner__container",
            h("div#block-olivero-site-branding.site-branding", h("div.site-branding__inner",
              h("a.site-branding__logo", h("img", src=IMAGES["team"], alt="Home"), href="/",
                rel="home"),
              h("div.site-branding__text", h("div.site-branding__name", h("a",
                "Harbour Community", href=b.section(page.template)[0].path))))),
            h("div.mobile-buttons", h("button.mobile-nav-button", h(
              "span.mobile-nav-button__label", "Menu"), aria_label="Main Menu",
              aria_controls="header-nav", aria_expanded="false")),
            h("div#header-nav.header-nav",
              h("div#block-olivero-search-form-narrow.search-block-form.block", h("div.content",
                h("form#search-block-form.search-form.search-block-form",
                  h("label.form-item__label.visually-hidden", "Search", for_="edit-keys"),
                  h("input#edit-keys.form-search", type_="search", name="keys",
                    placeholder="Search by keyword or phrase."),
                  h("input#edit-submit--2.button--primary.search-form__submit.form-submit",
                    type_="submit", value="Search"),
                  action=page.path, method="get")), role="search"),
              h("nav#block-olivero-main-menu.primary-nav.block.block-menu",
                h("h2#block-olivero-main-menu-menu.visually-hidden.block__title",
                  "Main navigation"),
                h("ul.menu.primary-nav__menu", links),
                aria_labelledby="block-olivero-main-menu-menu"))))),
        role="banner",
    )
    sidebar = h(
        "div.region.region--sidebar",
        h("div#block-featured-video.block", h("h2.block__title", "Featured video"),
          h("video", controls=True, preload="none", poster=IMAGES["poster"], src=VIDEO,
            width="320", height="180")),
        h("div#block-recent.block.block-views", h("h2.block__title", "Recent content"),
          h("ul", links[:3])),
        h("div#block-tags.block", h("h2.block__title", "Tags"), h("p", kit.words(3, 6))),
    )
    footer = h(
        "footer.site-footer",
        h("div.site-footer__inner.container", h("div.region.region--footer-bottom",
          h("div#block-olivero-powered.block.block-system-powered-by-block",
            h("span", "Powered by Drupal")))),
    )
    body = h(
        "body",
        h("a.visually-hidden.focusable.skip-link", "Skip to main content", href="#main-content"),
        h("div.dialog-off-canvas-main-canvas", h("div#page-wrapper.page-wrapper", h("div#page",
          header,
          h("div#main-wrapper.layout-main-wrapper.layout-container", h("div#main.layout-main",
            h("div.main-content", h("a#main-content", tabindex="-1"), h(
              "div.sidebar-grid.grid-full", main, sidebar)))),
          footer)), data_off_canvas_main_canvas=True),
        class_="path-node page-node-type-article",
    )
    head: list[Kid] = [h("meta", name="Generator", content="Drupal 10 (https://www.drupal.org)"),
            site_assets()]
    return html_doc(f"{page.title} | Harbour Community", head, body), main


# --------------------------------------------------------------------------- Bootstrap


class BootstrapKit(Kit):
    custom_tags = ("pricing-toggle", "animated-counter")

    def figure(self, img: El, caption: str | None) -> El:
        img.attrs["class"] = "figure-img img-fluid rounded"
        cap = h("figcaption.figure-caption", caption) if caption else None
        return h("figure.figure", img, cap)

    def table_class(self) -> str:
        return "table table-striped"

    def table(self) -> El:
        return h("div.table-responsive", self.table_el())

    def button_variants(self) -> El:
        el = super().button_variants()
        el.attrs["class"] = " ".join(dict.fromkeys([*el.classes, "btn", "btn-primary"]))
        return el


def bootstrap(b: Build, page: Page, r: random.Random) -> Rendered:
    kit = BootstrapKit(b, page, r)
    main = h(
        "div.col-md-8",
        h("h1.pb-4.mb-4.fst-italic.border-bottom", page.title),
        h("article.blog-post", h("p.blog-post-meta", DATES[page.index % 4], " by ",
          h("a", "Mark", href=page.path)), compose(kit, 2, r.randint(2, 3))),
        h("nav.blog-pagination", h("a.btn.btn-outline-primary.rounded-pill", "Older",
          href=kit.href(kit.sibling())), aria_label="Pagination"),
    )
    recent = [
        h("li", h("a.d-flex.gap-3.py-3.link-body-emphasis.text-decoration-none",
          h("img.bd-placeholder-img", src=IMAGES["team"], alt="", width="96", height="96"),
          h("div.col-lg-8", h("h6.mb-0", p.title), h("small.text-body-secondary",
            DATES[i % 4])), href=p.path))
        for i, p in enumerate(b.section(page.template)[:3])
    ]
    aside = h(
        "div.col-md-4",
        h("div.position-sticky", h("div.p-4.mb-3.bg-body-tertiary.rounded", h("h4.fst-italic",
          "About"), h("p.mb-0", kit.sentence())),
          h("div", h("h4.fst-italic", "Recent posts"), h("ul.list-unstyled", recent)),
          h("div.p-4", h("h4.fst-italic", "Newsletter"), h("form", h("input.form-control",
            type_="email", placeholder="you@example.com"), h("button.btn.btn-dark", "Subscribe",
            type_="submit"), action=page.path)), style="top: 2rem;"),
    )
    nav = h(
        "nav.navbar.navbar-expand-lg.navbar-dark.bg-dark",
        h("div.container",
          h("a.navbar-brand", h("img", src=IMAGES["product"], alt="Acme", width="30",
            height="24"), " Acme", href=b.section(page.template)[0].path),
          h("button.navbar-toggler", h("span.navbar-toggler-icon"), type_="button",
            data_bs_toggle="collapse", data_bs_target="#navbarNav", aria_label="Toggle navigation"),
          h("div#navbarNav.collapse.navbar-collapse",
            h("ul.navbar-nav.ms-auto", [h("li.nav-item", h("a.nav-link", p.title, href=p.path))
                                        for p in b.section(page.template)]),
            h("form.d-flex", h("input.form-control.me-2", type_="search", placeholder="Search",
              aria_label="Search"), h("button.btn.btn-outline-success", "Search",
              type_="submit"), role="search", action=page.path))),
    )
    footer = h(
        "footer.py-5.text-center.text-body-secondary.bg-body-tertiary",
        h("h5", "Acme Widgets Ltd."),
        h("p", "Blog template built for Bootstrap."),
        h("p.mb-0", h("a", "Back to top", href="#")),
    )
    body = h(
        "body",
        nav,
        h("div.container.py-5", h("div.row.g-5", main, aside)),
        footer,
        h("script", src=SITE_JS_PATH),
    )
    head: list[Kid] = [h("link", rel="stylesheet", href=SITE_CSS_PATH)]
    return html_doc(f"{page.title} · Acme", head, body), main


# --------------------------------------------------------------------------- Hugo, Jekyll


class StaticGenKit(Kit):
    custom_tags = ("lite-youtube",)

    def script(self) -> El:
        return h("script", '{"@context":"https://schema.org","@type":"BlogPosting"}',
                 type_="application/ld+json")


def hugo(b: Build, page: Page, r: random.Random) -> Rendered:
    kit = StaticGenKit(b, page, r)
    parts = compose(kit, 2, r.randint(2, 4))
    heads = [e for e in parts if isinstance(e, El) and e.tag in ("h2", "h3")]
    toc = h(
        "div.toc",
        h("details", h("summary", h("span.details", "Table of Contents"), accesskey="c"),
          h("div.inner", h("ul", [h("li", h("a", text_content(e), href=f"#{e.attrs['id']}"))
                                  for e in heads])), open=True),
    ) if len(heads) >= 3 else None
    posts = b.section(page.template)
    sib = kit.sibling()
    main = h(
        "main.main",
        h("article.post-single",
          h("header.post-header",
            h("div.breadcrumbs", h("a", "Home", href=posts[0].path), " » ",
              h("a", "Posts", href=posts[0].path)),
            h("h1.post-title.entry-hint-parent", page.title),
            h("div.post-meta", h("span", DATES[page.index % 4], title="2024-01-02"), " · ",
              f"{r.randint(2, 9)} min")),
          toc,
          h("div.post-content", parts),
          h("footer.post-footer",
            h("ul.post-tags", h("li", h("a", kit.words(1, 1), href=posts[0].path))),
            h("nav.paginav", h("a.prev", h("span.title", "« Prev"), h("br"),
              h("span", sib.title), href=sib.path)))),
    )
    header = h(
        "header.header",
        h("nav.nav",
          h("div.logo", h("a", "Journal", href=posts[0].path, accesskey="h"),
            h("div.logo-switches", h("button#theme-toggle", h("svg#moon", h("path",
              d="M21 12.79A9 9 0 1 1 11.21 3"), width="24", height="18"), accesskey="t",
              title="(Alt + T)"))),
          h("ul#menu", [h("li", h("a", h("span", p.title), href=p.path)) for p in posts[:4]])),
    )
    body = h(
        "body#top",
        h("script", 'if (localStorage.getItem("pref-theme") === "dark") '
          '{ document.body.classList.add("dark") }'),
        header,
        main,
        h("footer.footer", h("span", "© 2024 ", h("a", "Journal", href=posts[0].path)), " · ",
          h("span", "Powered by Hugo & PaperMod")),
        h("a#top-link.top-link", h("svg", h("path", d="M12 6H0l6-6z"), viewBox="0 0 12 6"),
          href="#top", aria_label="go to top"),
    )
    head: list[Kid] = [h("meta", name="generator", content="Hugo 0.125.4"), site_assets()]
    return html_doc(f"{page.title} | Journal", head, body), main


def jekyll(b: Build, page: Page, r: random.Random) -> Rendered:
    kit = StaticGenKit(b, page, r)
    notes = b.section(page.template)
    main = h(
        "main.page-content",
        h("div.wrapper", h("article.post.h-entry",
          h("header.post-header", h("h1.post-title.p-name", page.title, itemprop="name headline"),
            h("p.post-meta", h("time.dt-published", DATES[page.index % 4],
              datetime="2024-03-03T00:00:00+00:00", itemprop="datePublished"))),
          h("div.post-content.e-content", compose(kit, 2, r.randint(2, 3)),
            itemprop="articleBody"),
          h("a.u-url", href=page.path, hidden=True), itemscope=True)),
        aria_label="Content",
    )
    header = h(
        "header.site-header",
        h("div.wrapper", h("a.site-title", "Field Notes", rel="author", href=notes[0].path),
          h("nav.site-nav", h("input#nav-trigger.nav-trigger", type_="checkbox"),
            h("label", h("span.menu-icon", h("svg", h("path", d="M0 0h18v2H0z"),
              viewBox="0 0 18 15", width="18px", height="15px")), for_="nav-trigger"),
            h("div.trigger", [h("a.page-link", p.title, href=p.path) for p in notes[:3]]))),
        role="banner",
    )
    footer = h(
        "footer.site-footer.h-card",
        h("div.wrapper", h("h2.footer-heading", "Field Notes"), h("div.footer-col-wrapper",
          h("div.footer-col.footer-col-1", h("ul.contact-list", h("li.p-name", "Ada Quay"))),
          h("div.footer-col.footer-col-3", h("p", kit.sentence())))),
    )
    body = h("body", header, main, footer)
    head: list[Kid] = [h("link", rel="stylesheet", href=SITE_CSS_PATH)]
    return html_doc(f"{page.title} | Field Notes", head, body), main


# --------------------------------------------------------------------------- Japanese


class JapaneseKit(Kit):
    image_keys = ("product", "team", "diagram")

    def sentence(self) -> str:
        return "".join(self.r.sample(JP_PHRASES, self.r.randint(2, 4))) + "。"

    def words(self, a: int, b: int) -> str:
        return "".join(self.r.sample(JP_PHRASES, max(1, min(a, 2))))

    def title(self) -> str:
        return self.r.choice(JP_TITLES)

    def inline(self) -> list[Kid]:
        return ["".join(self.sentence() for _ in range(self.r.randint(2, 4)))]

    def alt(self) -> str | bool:
        roll = self.r.random()
        return self.r.choice(JP_TITLES) if roll < 0.6 else ("" if roll < 0.8 else False)

    def heading(self, level: int, text: str) -> El:
        return h(f"h{level}", text, class_=f"ttl0{level - 2}")

    def figure(self, img: El, caption: str | None) -> El:
        return h("div.photo", img, h("p.caption", caption) if caption else None)

    def table_class(self) -> str:
        return "tbl01"

    def table(self) -> El:
        if self.r.random() < 0.5:
            return self.table_el()
        rows = [("商号", "株式会社みなと工業"), ("設立", "1968年4月"), ("資本金", "9,800万円"),
                ("代表者", "代表取締役社長 港 太郎"), ("従業員数", f"{self.r.randint(80, 900)}名")]
        return h("table.tbl01.company", h("tbody", [h("tr", h("th", k), h("td", v))
                                                   for k, v in rows]))

    def buttons(self) -> El:
        return h("p.btn", h("a", "詳しくはこちら", href=self.href(self.sibling()), role="button"),
                 " ", h("button", "資料請求", type_="button"))


def japanese(b: Build, page: Page, r: random.Random) -> Rendered:
    kit = JapaneseKit(b, page, r)
    jp = b.section(page.template)
    main = h("div#main", compose(kit, 3, r.randint(2, 4)))
    gnav = h("nav#gNavi", h("ul", [h("li", h("a", p.title, href=p.path)) for p in jp]))
    header = h(
        "header#header",
        h("div.inner",
          h("h1.logo", h("a", h("img", src=IMAGES["product"], alt="株式会社みなと工業",
            width="240", height="48"), href=jp[0].path)),
          h("div.hNavi", h("ul", h("li", h("a", "お問い合わせ", href=jp[-1].path))),
            h("form.hSearch", h("input", type_="text", name="q", placeholder="サイト内検索"),
              h("input", type_="image", src=IMAGES["diagram"], alt="検索"), action=page.path))),
        gnav,
    )
    side = h(
        "div#side",
        h("div.sideNavi", h("h3", "会社案内"), h("ul", [h("li", h("a", p.title, href=p.path))
                                                      for p in jp])),
        h("div.bnr", h("a", h("img", src=IMAGES["team"], alt="採用情報"), href=jp[0].path)),
        h("div.bnr", h("h4", "お問い合わせ"), h("p", "受付時間 平日9:00〜17:00"),
          h("button", "お問い合わせフォーム", type_="button")),
    )
    body = h(
        "body.lower",
        h("div#wrapper",
          header,
          h("div#pageTitle", h("div.inner", h("h2", page.title, h("span",
            page.path.strip("/").split("/")[-1].upper())))),
          h("div#pankuzu", h("ul", h("li", h("a", "ホーム", href=jp[0].path)),
            h("li", page.title))),
          h("div#contents.clearfix", main, side),
          h("p#pagetop", h("a", "ページトップへ", href="#wrapper")),
          h("footer#footer", h("div.fNavi", h("ul", [h("li", h("a", p.title, href=p.path))
                                                    for p in jp[:4]])),
            h("address", "〒105-0000 東京都港区海岸1-2-3"),
            h("p.copyright", h("small", "Copyright © 2024 Minato Kogyo Co., Ltd.")))),
    )
    head: list[Kid] = [
        site_assets(),
        Comment(' <link rel="stylesheet" href="/assets/css/old-site.css"> '),
        h("meta", name="description", content="株式会社みなと工業の公式サイトです。"),
    ]
    return html_doc(f"{page.title}｜株式会社みなと工業", head, body, "ja"), main


# --------------------------------------------------------------------------- agency


class AgencyKit(Kit):
    custom_tags = ("animated-counter", "testimonial-slider", "logo-marquee")

    def table(self) -> El:
        return h("div.section", h("div.container", self.table_el()))


def agency(b: Build, page: Page, r: random.Random) -> Rendered:
    kit = AgencyKit(b, page, r)
    studio = b.section(page.template)
    cards = [
        h("div.card", h("div.content", h("h3.card-title", kit.title()), h("p", kit.sentence())))
        for _ in range(r.randint(2, 3))
    ]
    main = h(
        "div#page-body.page-body",
        h("section.page-hero", h("div.container", h("h1", page.title),
          h("p.lead", kit.sentence()))),
        h("section.section.services", h("div.container.cards", cards)),
        h("section.section", h("div.container", compose(kit, 2, r.randint(1, 3)))),
        role="main",
    )
    cookie = h(
        "div#cookie-banner.cookie-banner",
        h("div.content", h("h2.cookie-title", "We use cookies"), h("p", "We use cookies to "
          "improve your experience and to measure traffic."),
          h("div.actions", h("button.btn.btn-accept", "Accept all", type_="button"),
            h("button.btn.btn-settings", "Settings", type_="button"))),
        role="dialog",
        aria_label="Cookie consent",
    )
    modal = h(
        "div#search-modal.modal",
        h("div.modal-dialog", h("div.content", h("h2", "Search the site"),
          h("form", h("input", type_="search", name="q", aria_label="Search"),
            h("button", "Search", type_="submit"), action=page.path),
          h("button.modal-close", "×", type_="button", aria_label="Close"))),
        aria_hidden="true",
    )
    header = h(
        "header.site-header",
        h("a.logo", h("img", src=IMAGES["diagram"], alt="North Pier Studio"),
          href=studio[0].path),
        h("nav.main-nav", h("ul", [h("li", h("a", p.title, href=p.path)) for p in studio])),
        h("button.search-toggle", "Search", type_="button", aria_controls="search-modal"),
        h("a.btn.btn-cta", "Get a quote", href=studio[-1].path, role="button"),
    )
    footer = h(
        "footer.site-footer",
        h("div.footer-col", h("h3", "Studio"), h("p", kit.sentence())),
        h("div.footer-col", h("h3", "Newsletter"), h("form", h("input", type_="email",
          name="email"), h("input", type_="submit", value="Sign up"), action=page.path)),
        h("div.footer-col", h("h3", "Follow"), h("img", src=IMAGES["team"], alt="Instagram",
          width="24", height="24")),
        h("logo-marquee.partners", h("span", "Partners")),
    )
    body = h(
        "body.page",
        cookie,
        modal,
        header,
        main,
        Comment(' <img src="/images/banner-2019.gif" alt="Summer offer 2019"> '),
        footer,
    )
    return html_doc(f"{page.title} — North Pier Studio", site_assets(), body), main


# --------------------------------------------------------------------------- app shell


class ShopKit(Kit):
    custom_tags = ("product-card", "price-tag", "rating-stars", "review-item", "size-picker")
    image_keys = ("product", "team")

    def custom(self) -> El:
        tag = self.r.choice(self.custom_tags)
        self.n += 1
        if tag == "product-card":
            return h(
                f"product-card#pc-{self.n}.product-card",
                self.img("product"),
                h("h3", self.title()),
                h("price-tag", f"€ {self.r.randint(5, 300)}.00", currency="EUR"),
                h("button.add-to-cart", "Add to cart", type_="button"),
            )
        if tag == "review-item":
            return h("review-item", h("h4", self.title()), h("p", self.sentence()),
                     h("rating-stars", value=str(self.r.randint(1, 5))))
        return super().custom()


def app_shell(b: Build, page: Page, r: random.Random) -> Rendered:
    kit = ShopKit(b, page, r)
    shop = b.section(page.template)
    main = h(
        "main#main-view.app-main",
        h("breadcrumb-trail", h("a", "Shop", href=shop[0].path), " / ", page.title),
        h("product-gallery", kit.img("product")),
        h("product-card#product-main.product-card.featured",
          h("h1", page.title),
          h("price-tag", f"€ {r.randint(10, 400)}.00", currency="EUR"),
          h("rating-stars", value=str(r.randint(1, 5))),
          h("size-picker", h("button", "S", type_="button"), h("button", "M", type_="button"),
            h("button", "L", type_="button", disabled=True)),
          h("div.add-to-cart", "Add to cart", role="button", tabindex="0")),
        h("section.details", compose(kit, 2, r.randint(1, 3))),
        data_route="product",
    )
    rail = h(
        "recommendation-rail",
        h("h2", "You may also like"),
        [h("product-card.product-card", h("img", src=IMAGES["product"], alt=p.title),
           h("h3", h("a", p.title, href=p.path)), h("button", "Add", type_="button"))
         for p in shop[:3] if p is not page],
    )
    body = h(
        "body",
        h("div#app",
          h("site-header.site-header",
            h("a.brand", h("img", src=IMAGES["product"], alt="Shopfront"), href=shop[0].path),
            h("nav-menu", [h("a", p.title, href=p.path) for p in shop]),
            h("search-box", h("form", h("input", type_="search", name="q", aria_label="Search"),
              h("button", "Search", type_="submit"), action=page.path)),
            h("cart-button", h("button", "Cart (2)", type_="button", aria_label="Cart"))),
          main,
          rail,
          h("site-footer", h("h2", "Shopfront"), h("p", "Free returns within 30 days.")),
          data_v_app=""),
        h("script", src=SITE_JS_PATH, type_="module"),
    )
    head: list[Kid] = [h("link", rel="stylesheet", href=SITE_CSS_PATH)]
    return html_doc(f"{page.title} – Shopfront", head, body), main


# --------------------------------------------------------------------------- home


def home(b: Build, page: Page, r: random.Random) -> Rendered:
    groups = [(t, label) for t, (label, *_rest) in TEMPLATES.items()]
    main = h(
        "main#index.index",
        h("h1", "Harbour Group websites"),
        h("p", "Every site of the group, one section each."),
        [h("section", h("h2", label), h("ul", [h("li", h("a", p.title, href=p.path))
                                              for p in b.section(t)])) for t, label in groups],
    )
    body = h(
        "body",
        h("header.top", h("img", src=IMAGES["logo"], alt="Harbour Group"),
          h("h2", "Harbour Group"), h("button", "Menu", type_="button")),
        main,
        h("footer", h("h3", "Contact"), h("p", "Harbour Group, Pier 1.")),
    )
    return html_doc("Harbour Group", site_assets(), body), main


# --------------------------------------------------------------------------- plan

PathMaker = Callable[[random.Random, int, str], str]
Renderer = Callable[[Build, Page, random.Random], Rendered]


def slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


JP_PATHS = ("company", "business", "history", "products", "recruit", "contact", "csr")

# template -> (section label, number of pages, URL maker, renderer)
TEMPLATES: dict[str, tuple[str, int, PathMaker, Renderer]] = {
    "wordpress-classic": ("Harbour Notes (blog)", 8,
                          lambda r, i, t: f"/blog/2024/{i % 12 + 1:02d}/{slug(t)}/",
                          wordpress_classic),
    "wordpress-block": ("Quayside News", 6, lambda r, i, t: f"/news/{slug(t)}/", wordpress_block),
    "mediawiki-vector": ("Harbour Wiki", 7, lambda r, i, t: "/wiki/" + t.replace(" ", "_"),
                         mediawiki),
    "sphinx-alabaster": ("Harbourlib documentation", 6,
                         lambda r, i, t: "/docs/index.html" if i == 0
                         else f"/docs/{slug(t)}.html", sphinx),
    "drupal-olivero": ("Harbour Community", 6, lambda r, i, t: f"/community/node/{10 + i * 3}",
                       drupal),
    "bootstrap-columns": ("Acme product blog", 6, lambda r, i, t: f"/product/{slug(t)}.html",
                          bootstrap),
    "hugo-papermod": ("Journal", 6, lambda r, i, t: f"/journal/posts/{slug(t)}/", hugo),
    "jekyll-minima": ("Field Notes", 5,
                      lambda r, i, t: f"/notes/2023/{i + 3:02d}/{10 + i}/{slug(t)}.html", jekyll),
    "japanese-corporate": ("株式会社みなと工業", 7, lambda r, i, t: f"/jp/{JP_PATHS[i]}/",
                           japanese),
    "agency-cookie-trap": ("North Pier Studio", 5, lambda r, i, t: f"/studio/{slug(t)}/", agency),
    "app-shell": ("Shopfront", 6, lambda r, i, t: f"/shop/p/{slug(t)}", app_shell),
}
JP_PAGE_TITLES = (
    "会社概要", "事業内容", "沿革", "製品情報", "採用情報", "お問い合わせ", "環境への取り組み",
)


def plan(seed: int) -> list[Page]:
    """The pages, their URLs and titles (deterministic for the seed)."""
    r = random.Random(f"{seed}:plan")
    pages = [Page("site-index", "/", "Harbour Group", 0, "index")]
    seen: set[str] = set()
    for template, (_label, count, make_path, _render) in TEMPLATES.items():
        for i in range(count):
            if template == "japanese-corporate":
                title = JP_PAGE_TITLES[i]
            else:
                while True:
                    title = title_case([r.choice(WORDS) for _ in range(r.randint(2, 4))])
                    if title not in seen:
                        break
                seen.add(title)
            kind = "page" if template == "wordpress-classic" and i == count - 1 else "post"
            pages.append(Page(template, make_path(r, i, title), title, i, kind))
    return pages


# --------------------------------------------------------------------------- truth


def is_button(el: El) -> bool:
    if el.tag == "button":
        return True
    if el.tag == "input" and (el.attrs.get("type") or "").lower() in {"submit", "button", "reset"}:
        return True
    return el.attrs.get("role") == "button"


def table_info(table: El) -> dict[str, Any]:
    inside = list(walk(table))[1:]
    rows = [e for e in inside if e.tag == "tr"]
    first = [k for k in rows[0].kids if isinstance(k, El) and k.tag in ("td", "th")]

    def span(e: El, name: str) -> int:
        return int(e.attrs.get(name) or 1)

    return {
        "rows": len(rows),
        "cols": len(first),
        "thead": any(e.tag == "thead" for e in inside),
        "tfoot": any(e.tag == "tfoot" for e in inside),
        "merged": any(e.tag in ("td", "th") and max(span(e, "colspan"), span(e, "rowspan")) > 1
                      for e in inside),
    }


def describe(page_url: str, main: El) -> dict[str, Any]:
    """The truth of one page, computed from its main element's tree."""
    els = list(walk(main))
    headings = [[int(e.tag[1]), " ".join(text_content(e).split())]
                for e in els if re.fullmatch(r"h[1-6]", e.tag)]
    images = [
        [urljoin(page_url, e.attrs["src"] or ""), e.attrs.get("alt")]
        for e in els
        if e.tag == "img" or (e.tag == "input" and e.attrs.get("type") == "image")
    ]
    return {
        "headings": headings,
        "images": images,
        "tables": [table_info(e) for e in els if e.tag == "table"],
        "buttons": sum(is_button(e) for e in els),
        "iframes": sum(e.tag == "iframe" for e in els),
        "videos": sum(e.tag == "video" for e in els),
        "audios": sum(e.tag == "audio" for e in els),
        "canvases": sum(e.tag == "canvas" for e in els),
        "custom_elements": [e.tag for e in els if "-" in e.tag],
        "text_chars": sum(not c.isspace() for c in text_content(main)),
    }


def identify(doc: El, main: El) -> dict[str, Any]:
    """``{"tag", "id", "classes"}`` of ``main``; checks that it names exactly one element."""
    ident = main.attrs.get("id")
    classes = main.classes
    matches = [
        e
        for e in walk(doc)
        if e.tag == main.tag
        and (ident is None or e.attrs.get("id") == ident)
        and set(classes) <= set(e.classes)
    ]
    if matches != [main] or not (ident or classes):
        raise AssertionError(f"main element <{main.tag}> is not uniquely named")
    for e in walk(main):  # no text that a browser would not render
        hidden = "hidden" in e.attrs or "display:none" in (e.attrs.get("style") or "")
        if (hidden and text_content(e).strip()) or e.tag in ("noscript", "template", "select"):
            raise AssertionError(f"hidden text under main: <{e.tag}>")
    return {"tag": main.tag, "id": ident, "classes": classes}


def loaded_urls(page_url: str, doc: El) -> set[str]:
    """URLs a browser fetches for subresources when rendering the page (not CSS-referenced)."""
    out: set[str] = set()
    for e in walk(doc):
        a = e.attrs
        value = None
        if e.tag == "link" and "stylesheet" in (a.get("rel") or "").split():
            value = a.get("href")
        elif e.tag in ("script", "img") or (e.tag == "input" and a.get("type") == "image"):
            value = a.get("src")
        if e.tag == "video" and a.get("poster"):
            out.add(urljoin(page_url, a["poster"] or ""))
        if value:
            out.add(urljoin(page_url, value))
    return out


CSS_URL = re.compile(r"url\(\s*['\"]?([^'\")]+)['\"]?\s*\)")


# --------------------------------------------------------------------------- server


class Site:
    """The site, served on 127.0.0.1 while the context is open; see the module docstring."""

    def __init__(self, seed: int = 11, port: int = 0) -> None:
        self.seed = seed
        self.port = port
        self.url = ""
        self.truth: dict[str, Any] = {}
        self.routes: dict[str, tuple[str, bytes]] = {}
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    def __enter__(self) -> Site:
        routes = self.routes

        class Handler(BaseHTTPRequestHandler):
            server_version = "HarbourHTTP/1.0"

            def _answer(self, body: bool) -> None:
                path = urlsplit(self.path).path
                found = routes.get(path)
                if found is None:
                    ctype, data, status = "text/html; charset=utf-8", NOT_FOUND, 404
                else:
                    (ctype, data), status = found, 200
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                if body:
                    self.wfile.write(data)

            def do_GET(self) -> None:
                self._answer(True)

            def do_HEAD(self) -> None:
                self._answer(False)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self._server.daemon_threads = True
        port = self._server.server_address[1]
        self.url = f"http://127.0.0.1:{port}/"
        self._build(f"http://127.0.0.1:{port}")
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join()

    def _build(self, origin: str) -> None:
        b = Build(origin, plan(self.seed))
        pages: dict[str, Any] = {}
        loaded: set[str] = set()
        for page in b.pages:
            render_page = home if page.template == "site-index" else TEMPLATES[page.template][3]
            r = random.Random(f"{self.seed}:{page.template}:{page.index}")
            doc, main = render_page(b, page, r)
            page_url = b.url(page.path)
            pages[page_url] = {"template": page.template, "main": identify(doc, main)}
            pages[page_url].update(describe(page_url, main))
            loaded |= loaded_urls(page_url, doc)
            self.routes[page.path] = ("text/html; charset=utf-8", to_html(doc).encode())
        # stylesheets pull in their url() references (fonts, background images)
        todo = [u for u in loaded if u.endswith(".css")]
        while todo:
            css_url = todo.pop()
            css = STATIC[urlsplit(css_url).path][1].decode()
            for ref in CSS_URL.findall(css):
                full = urljoin(css_url, ref)
                if full not in loaded:
                    loaded.add(full)
                    if full.endswith(".css"):
                        todo.append(full)
        assets = {p for p, (role, _) in STATIC.items() if role == "asset"}
        used = {urlsplit(u).path for u in loaded if u.startswith(origin + "/")}
        if not used <= assets:
            raise AssertionError(f"pages load files that are not assets: {used - assets}")
        unused = assets - used
        if unused != EXPECTED_UNUSED:
            raise AssertionError(f"unexpected unused files: {unused ^ EXPECTED_UNUSED}")
        for path, (_role, data) in STATIC.items():
            self.routes[path] = (CTYPES[path.rsplit(".", 1)[1]], data)
        listed = [b.url(p.path) for p in b.pages] + [b.url(p) for p in sorted(assets)]
        sitemap = "".join(f"  <url><loc>{escape(u)}</loc></url>\n" for u in listed)
        self.routes["/sitemap.xml"] = (
            "application/xml",
            ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/'
             f'schemas/sitemap/0.9">\n{sitemap}</urlset>\n').encode(),
        )
        self.routes["/robots.txt"] = (
            "text/plain; charset=utf-8",
            f"User-agent: *\nAllow: /\n\nSitemap: {origin}/sitemap.xml\n".encode(),
        )
        self.truth = {
            "pages": pages,
            "files": {
                "used": [b.url(p) for p in sorted(used)],
                "unused": [b.url(p) for p in sorted(unused)],
            },
        }


NOT_FOUND = (
    b"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>404 Not Found"
    b"</title></head><body><h1>Not Found</h1><p>The requested URL was not found on this server."
    b"</p><p><a href=\"/\">Home</a></p></body></html>\n"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--port", type=int, default=0, help="port to serve on (default: free)")
    parser.add_argument("--dump", action="store_true", help="print the truth as JSON and exit")
    args = parser.parse_args()
    with Site(args.seed, args.port) as site:
        if args.dump:
            try:
                json.dump(site.truth, sys.stdout, ensure_ascii=False, indent=1)
                sys.stdout.write("\n")
                sys.stdout.flush()
            except BrokenPipeError:
                sys.stderr.close()  # e.g. piped into head
            return
        print(site.url, flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            threading.Event().wait()


if __name__ == "__main__":
    main()
