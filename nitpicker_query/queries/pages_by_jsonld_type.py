"""``list_pages_by_jsonld_type`` and ``count_pages_by_jsonld_type``."""

from __future__ import annotations

from typing import Any

from ..archive.opening import Archive, opened
from ..format.v010 import NOT_SKIPPED, loose_page
from .list_pages import ITEM_COLUMNS, page_item
from .paging import check_paging, envelope

_MATCH = "EXISTS (SELECT 1 FROM page_jsonld j WHERE j.pageId = p.id AND j.type = ?)"


def _where() -> str:
    return f"{loose_page('p')} AND {NOT_SKIPPED.replace('isSkipped', 'p.isSkipped')} " \
           f"AND {_MATCH}"


def list_pages_by_jsonld_type(archive: Archive | str, *, type: str, limit: int = 100,
                              offset: int = 0) -> dict[str, Any]:
    """Which pages carry a JSON-LD entry of this top-level ``@type`` (``Product``,
    ``BreadcrumbList``, ``FAQPage``)? Items as ``list_pages``'s, by URL, paged; the type
    matches exactly. Check ``count_pages_by_jsonld_type`` first on a large site.

    Upstream: ``list-pages-by-jsonld-type.ts``.
    """
    limit, offset = check_paging(limit, offset)
    with opened(archive) as a:
        if not a.has_table("page_jsonld"):
            return envelope([], 0, limit, offset, type=type)
        total = a.count(f"SELECT count(*) FROM pages p WHERE {_where()}", (type,))
        columns = a.select_list("pages", "p", ITEM_COLUMNS)
        rows = a.rows(f"SELECT {columns} FROM pages p "
                      f"WHERE {_where()} ORDER BY p.url LIMIT ? OFFSET ?",
                      (type, limit, offset))
    return envelope([page_item(r) for r in rows], total, limit, offset, type=type)


def count_pages_by_jsonld_type(archive: Archive | str, *, type: str) -> dict[str, Any]:
    """How many pages carry a JSON-LD entry of this ``@type``? ``{type, pageCount}``: the
    ``total`` of ``list_pages_by_jsonld_type``, without the list.

    Upstream: ``count-pages-by-jsonld-type.ts``.
    """
    with opened(archive) as a:
        if not a.has_table("page_jsonld"):
            return {"type": type, "pageCount": 0}
        count = a.count(f"SELECT count(*) FROM pages p WHERE {_where()}", (type,))
    return {"type": type, "pageCount": count}
