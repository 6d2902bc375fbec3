"""``--no-render``: a document's raw description from its HTML, without a browser.

Produces the same :class:`~nitpicker_crawl.fetch.document.RawDocument` the renderer's
JavaScript does (attribute values as written), from a real HTML5 parser (lexbor via
selectolax), so both modes go through one mapping. What scripts would add is not seen.
"""

from __future__ import annotations

from typing import Any

from selectolax.lexbor import LexborHTMLParser

from page_cluster.nesting import parse_html

from ..fetch.document import RawDocument

_SCRIPT_TYPES = frozenset({"", "text/javascript", "application/javascript", "module",
                           "text/ecmascript", "application/ecmascript"})
"""``<script type>`` values a browser runs (the others are data: JSON-LD, templates)."""


def _present(attributes: Any, name: str) -> str | None:
    """An attribute's value, ``""`` when it is there without one (``<img alt>``: an empty
    alt, as a browser reads it), None when it is not there."""
    if name not in attributes:
        return None
    return attributes.get(name) or ""


def parse(html: str) -> RawDocument:
    return parse_tree(html)[0]


def parse_tree(html: str) -> tuple[RawDocument, LexborHTMLParser]:
    """The raw description and the parsed tree (technology detection reuses it)."""
    tree = parse_html(html)
    root = tree.css_first("html")
    title = tree.css_first("title")
    base = tree.css_first("base[href]")
    meta_charset = tree.css_first("meta[charset]")
    metas = [
        {"name": m.attributes.get("name"), "property": m.attributes.get("property"),
         "httpEquiv": m.attributes.get("http-equiv"), "charset": m.attributes.get("charset"),
         "content": m.attributes.get("content")}
        for m in tree.css("meta")
    ]
    links = [
        {"rel": link.attributes.get("rel"), "href": link.attributes.get("href"),
         "hreflang": link.attributes.get("hreflang"), "sizes": link.attributes.get("sizes")}
        for link in tree.css("link[href]")
    ]
    anchors = [{"href": a.attributes.get("href"), "text": a.text(deep=True),
                "rel": a.attributes.get("rel")}
               for a in tree.css("a[href], area[href]")]
    images: list[dict[str, Any]] = [
        {"src": img.attributes.get("src"), "alt": _present(img.attributes, "alt"),
         "width": img.attributes.get("width"), "height": img.attributes.get("height"),
         "naturalWidth": 0, "naturalHeight": 0,
         "isLazy": (img.attributes.get("loading") or "").lower() == "lazy",
         "viewportWidth": 0, "sourceCode": img.html}
        for img in tree.css("img")
    ]
    scripts: list[dict[str, str | None]] = [
        {"type": (s.attributes.get("type") or "").lower(), "text": s.text(deep=True)}
               for s in tree.css('script[type="application/ld+json"], '
                                 'script[type="speculationrules"]')]
    programs = [
        {"src": s.attributes.get("src"), "text": None if s.attributes.get("src") else s.text()}
        for s in tree.css("script")
        if (s.attributes.get("type") or "").lower() in _SCRIPT_TYPES]
    raw: RawDocument = {
        "title": title.text(deep=True) if title is not None else None,
        "lang": root.attributes.get("lang") if root is not None else None,
        "dir": root.attributes.get("dir") if root is not None else None,
        "charset": meta_charset.attributes.get("charset") if meta_charset else None,
        "baseHref": base.attributes.get("href") if base is not None else None,
        "metas": metas, "links": links, "anchors": anchors, "images": images,
        "jsonld": scripts, "scripts": programs, "html": html,
    }
    return raw, tree
