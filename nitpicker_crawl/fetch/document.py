"""What a fetched document says, raw: the one shape both the renderer (JavaScript in
Chromium) and the no-render parser (selectolax) produce, attribute values as written, so
:func:`nitpicker_crawl.extract.extraction.page_fields` maps both crawl modes alike."""

from __future__ import annotations

from typing import Any, TypedDict


class RawDocument(TypedDict, total=False):
    title: str | None
    lang: str | None
    dir: str | None
    charset: str | None
    baseHref: str | None
    metas: list[dict[str, str | None]]   # name, property, httpEquiv, charset, content
    links: list[dict[str, str | None]]   # rel, href, hreflang, sizes
    anchors: list[dict[str, str | None]]  # href, text, rel
    images: list[dict[str, Any]]
    jsonld: list[dict[str, str | None]]  # type, text
    scripts: list[dict[str, str | None]]  # src, text (inline only): what a browser runs
    html: str
