"""Technology tags (``page_tags``): pages by tag, their count, the inventory, one page's.

A tag row is one detection on one page: ``provider`` (Google Tag Manager, WordPress,
jQuery …), ``category``, ``externalId`` (a container or property id such as
``GTM-XXXX`` / ``G-XXXX``, when the technology has one), ``version``, ``confidence``,
``categories`` and ``sources`` (JSON arrays). Archives without the table answer empty.
"""

from __future__ import annotations

from typing import Any

from ..archive.opening import Archive, opened
from ..format.v010 import NOT_SKIPPED, loose_page
from ._common import json_list
from .list_pages import ITEM_COLUMNS, page_item
from .paging import check_paging, envelope


def _where(provider: str, external_id: str | None) -> tuple[str, list[Any]]:
    """SQL and parameters of "a page (as ``list_pages``) with this tag"."""
    match = "EXISTS (SELECT 1 FROM page_tags t WHERE t.pageId = p.id AND t.provider = ?"
    if external_id is not None:
        match += " AND t.externalId = ?"
    match += ")"
    params: list[Any] = [provider] + ([external_id] if external_id is not None else [])
    pages = f"{loose_page('p')} AND {NOT_SKIPPED.replace('isSkipped', 'p.isSkipped')}"
    return f"{pages} AND {match}", params


def list_pages_by_tag(archive: Archive | str, *, provider: str,
                      external_id: str | None = None, limit: int = 100,
                      offset: int = 0) -> dict[str, Any]:
    """Which pages use this technology (and, with ``external_id``, this container or
    property id)? Items as ``list_pages``'s, by URL, paged; names match exactly.

    Upstream: ``list-pages-by-tag.ts``.
    """
    limit, offset = check_paging(limit, offset)
    extra = {"provider": provider, "externalId": external_id}
    with opened(archive) as a:
        if not a.has_table("page_tags"):
            return envelope([], 0, limit, offset, **extra)
        where, params = _where(provider, external_id)
        total = a.count(f"SELECT count(*) FROM pages p WHERE {where}", params)
        columns = a.select_list("pages", "p", ITEM_COLUMNS)
        rows = a.rows(f"SELECT {columns} FROM pages p WHERE {where} ORDER BY p.url "
                      "LIMIT ? OFFSET ?", [*params, limit, offset])
    return envelope([page_item(r) for r in rows], total, limit, offset, **extra)


def count_pages_by_tag(archive: Archive | str, *, provider: str,
                       external_id: str | None = None) -> dict[str, Any]:
    """How many pages use this technology (or id)? ``{provider, externalId, pageCount}``:
    the total of ``list_pages_by_tag`` without the list.

    Upstream: ``count-pages-by-tag.ts``.
    """
    result: dict[str, Any] = {"provider": provider, "externalId": external_id,
                              "pageCount": 0}
    with opened(archive) as a:
        if a.has_table("page_tags"):
            where, params = _where(provider, external_id)
            result["pageCount"] = a.count(f"SELECT count(*) FROM pages p WHERE {where}",
                                          params)
    return result


def get_tag_inventory(archive: Archive | str, *, limit: int = 100,
                      offset: int = 0) -> dict[str, Any]:
    """What technologies does the site use? One item per provider: ``pageCount``
    (distinct pages), ``category``, ``categories`` (every one seen), ``versions`` and
    ``externalIds`` (distinct, sorted), most used first, then by name; paged.

    Upstream: ``get-tag-inventory.ts``.
    """
    limit, offset = check_paging(limit, offset)
    with opened(archive) as a:
        if not a.has_table("page_tags"):
            return envelope([], 0, limit, offset)
        total = a.count("SELECT count(DISTINCT provider) FROM page_tags")
        providers = a.rows(
            "SELECT provider, count(DISTINCT pageId) AS n, min(category) FROM page_tags "
            "GROUP BY provider ORDER BY n DESC, provider LIMIT ? OFFSET ?", (limit, offset))
        names = [p for p, _, _ in providers]
        details: dict[Any, list[tuple[Any, ...]]] = {}
        if names:
            marks = ",".join("?" for _ in names)
            for provider, *rest in a.rows(
                    "SELECT DISTINCT provider, version, externalId, categories FROM "
                    f"page_tags WHERE provider IN ({marks})", names):
                details.setdefault(provider, []).append(tuple(rest))
        items = []
        for provider, pages, category in providers:
            rows = details.get(provider, [])
            items.append({
                "provider": provider, "pageCount": pages, "category": category,
                "categories": sorted({str(c) for r in rows for c in json_list(r[2])}),
                "versions": sorted({str(r[0]) for r in rows if r[0] is not None}),
                "externalIds": sorted({str(r[1]) for r in rows if r[1] is not None}),
            })
    return envelope(items, total, limit, offset)


def get_page_tags(archive: Archive | str, *, url: str) -> dict[str, Any] | None:
    """The technologies detected on one page: one item per provider × id, with category,
    version, confidence, categories and sources (the evidence). None when the URL is
    not in the archive.

    Upstream: ``get-page-tags.ts``.
    """
    with opened(archive) as a:
        row = a.execute("SELECT id FROM pages WHERE url = ? LIMIT 1", (url,)).fetchone()
        if row is None:
            return None
        rows = a.rows(
            "SELECT provider, category, externalId, version, confidence, categories, "
            "sources FROM page_tags WHERE pageId = ? ORDER BY provider, externalId, id",
            (row[0],)) if a.has_table("page_tags") else []
    tags = [{"provider": p, "category": c, "externalId": e, "version": v,
             "confidence": conf, "categories": json_list(cats), "sources": json_list(src)}
            for p, c, e, v, conf, cats, src in rows]
    return {"url": url, "count": len(tags), "tags": tags}
