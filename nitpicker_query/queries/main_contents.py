"""``get_page_main_contents``: a page's main region and what it holds.

The crawler reads each HTML page's main region — ``<main>``, ``role="main"``, the usual
ids and classes (``#content`` …) or the crawl's ``--main-content-selector`` — and records
its length (characters other than whitespace, which also measures Japanese) and nine
inventories in document order: headings, images, tables, buttons, iframes, videos,
audios, canvases and custom elements (nitpicker_crawl/extract/main_contents.py). Format 0.13 keeps
the region and its counts in ``page_meta``'s ``main_content_*`` columns; our 0.10
archives in ``page_main_contents`` under the same names; the nine
``page_main_content_*`` tables are the same in both.

An archive written without them (upstream's 0.10 crawler, an earlier nitpicker-crawl,
``--no-main-contents``) raises :class:`~nitpicker_query.exceptions.NotRecorded` rather
than answering "no headings".

Upstream: ``get-page-main-contents.ts`` (0.14).
"""

from __future__ import annotations

import json
from typing import Any

from ..archive.opening import Archive, opened
from ..exceptions import NotRecorded
from ..format.v013_schema import MAIN_CONTENT_TABLES

LISTS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("headings", "page_main_content_headings", ("text", "level")),
    ("images", "page_main_content_images", ("src", "alt")),
    ("tables", "page_main_content_tables",
     ("rows", "cols", "hasHeader", "hasFooter", "hasMergedCell")),
    ("buttons", "page_main_content_buttons", ("nodeName", "role", "type", "text", "disabled")),
    ("iframes", "page_main_content_iframes", ("src", "title", "width", "height")),
    ("videos", "page_main_content_videos", ("src", "poster", "width", "height")),
    ("audios", "page_main_content_audios", ("src",)),
    ("canvases", "page_main_content_canvases", ("width", "height")),
    ("customElements", "page_main_content_custom_elements",
     ("nodeName", "elementId", "classList")),
)
"""Result key, table and columns of each inventory, in upstream's order."""

COUNTS = {"headings": "heading", "images": "image", "tables": "table", "buttons": "button",
          "iframes": "iframe", "videos": "video", "audios": "audio", "canvases": "canvas",
          "customElements": "custom_element"}
"""Result key → the ``main_content_<name>_count`` column."""

_FLAGS = {"hasHeader", "hasFooter", "hasMergedCell", "disabled"}

assert {t for _, t, _ in LISTS} == set(MAIN_CONTENT_TABLES)


def main_content_table(a: Archive) -> str | None:
    """Where the region and its counts are: ``page_meta`` (0.13) or ours (0.10)."""
    if a.format == "0.13" and "main_content_word_count" in a.columns("page_meta"):
        return "page_meta"
    if a.format != "0.13" and a.has_table("page_main_contents"):
        return "page_main_contents"
    return None


def _none_recorded(a: Archive) -> NotRecorded:
    return NotRecorded(
        f"{a.path.name} records no main-content inventory (written by upstream's 0.10 "
        "crawler, by an earlier nitpicker-crawl, or crawled with --no-main-contents): "
        "crawl the site again to get it")


def _json_list(text: Any) -> list[Any]:
    try:
        value = json.loads(text) if isinstance(text, str) else []
    except ValueError:
        return []
    return value if isinstance(value, list) else []


def get_page_main_contents(archive: Archive | str, *, url: str) -> dict[str, Any] | None:
    """Where is one page's main content, how long is it, and what is in it?

    ``{url, region: {nodeName, id, role, selector, classList} | null, wordCount,
    bodyWordCount, counts: {headings, images, …}, headings: [{order, text, level}],
    images: [{order, src, alt}], tables: [{order, rows, cols, hasHeader, hasFooter,
    hasMergedCell}], buttons, iframes, videos, audios, canvases, customElements}``.
    ``region`` null: the page has no main region (no ``<main>``, ``role=main`` or usual
    id/class) and its counts are 0. ``wordCount`` counts the region's characters other
    than whitespace; ``bodyWordCount`` the whole body's. Lists hold at most 500 elements
    of a kind; ``counts`` are exact. None when the URL is not in the archive; a page
    read without an inventory (not an HTML page of the site, or failed) is an error
    saying so."""
    with opened(archive) as a:
        page = a.execute("SELECT id, status, contentType FROM pages WHERE url = ?",
                         (url,)).fetchone()
        if page is None:
            return None
        table = main_content_table(a)
        if table is None:
            raise _none_recorded(a)
        row = a.execute(f"SELECT * FROM {table} WHERE page_id = ? AND "
                        "main_content_word_count IS NOT NULL", (page["id"],)).fetchone()
        if row is None:
            if a.execute(f"SELECT 1 FROM {table} WHERE main_content_word_count IS NOT "
                         "NULL LIMIT 1").fetchone() is None:
                raise _none_recorded(a)
            raise NotRecorded(
                f"{url} has no main-content inventory: only the site's HTML pages are read "
                f"(this one: status {page['status']}, content type "
                f"{page['contentType'] or 'unknown'})")
        lists: dict[str, list[dict[str, Any]]] = {}
        for key, name, columns in LISTS:
            if not a.has_table(name):
                lists[key] = []
                continue
            cols = ", ".join(f"`{c}`" for c in ("order", *columns))
            lists[key] = [
                {c: (bool(r[c]) if c in _FLAGS else _json_list(r[c]) if c == "classList"
                     else r[c]) for c in ("order", *columns)}
                for r in a.execute(f"SELECT {cols} FROM `{name}` WHERE pageId = ? "
                                   "ORDER BY `order`, id", (page["id"],))]
    region = None if row["main_content_node_name"] is None else {
        "nodeName": row["main_content_node_name"], "id": row["main_content_id"],
        "role": row["main_content_role"], "selector": row["main_content_selector"],
        "classList": _json_list(row["main_content_class_list"])}
    names = set(row.keys())   # an older 0.13 build has no custom-element count
    counts = {key: row[f"main_content_{col}_count"] or 0 if f"main_content_{col}_count"
              in names else len(lists[key]) for key, col in COUNTS.items()}
    return {"url": url, "region": region, "wordCount": row["main_content_word_count"],
            "bodyWordCount": row["main_content_body_word_count"], "counts": counts, **lists}
