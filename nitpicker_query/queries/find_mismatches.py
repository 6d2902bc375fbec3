"""``find_mismatches``: pages whose canonical or og:* disagree with the page."""

from __future__ import annotations

from typing import Any

from ..archive.opening import Archive, opened
from ..format.v010 import strict_page
from .paging import check_choice, check_paging, envelope

# type → (actual column, expected column, extra condition)
TYPES: dict[str, tuple[str, str]] = {
    "canonical": ("url", "canonical"),
    "og:title": ("og_title", "title"),
    "og:description": ("og_description", "description"),
}


def find_mismatches(
    archive: Archive | str, *, type: str, limit: int = 100, offset: int = 0
) -> dict[str, Any]:
    """Which pages have a canonical, og:title or og:description that does not match?

    Over rendered internal HTML pages, ordered by URL:

    - ``canonical``: a non-empty ``<link rel=canonical>`` different from the page URL
      (``actual`` = the page URL, ``expected`` = the canonical);
    - ``og:title``: og:title and title both non-empty and different
      (``actual`` = og:title, ``expected`` = title);
    - ``og:description``: the same with og:description and description.

    Plain string comparison: the writer stored absolute URLs. Items
    ``{url, type, actual, expected}``.

    Upstream: ``find-mismatches.ts``.
    """
    check_choice("type", type, TYPES)
    limit, offset = check_paging(limit, offset)
    select, where = mismatch_sql(type)
    with opened(archive) as a:
        total = a.count(f"SELECT count(*) FROM pages p WHERE {where}")
        rows = a.execute(f"{select} LIMIT ? OFFSET ?", (limit, offset)).fetchall()
    items = [{"url": r["url"], "type": type, "actual": r["actual"], "expected": r["expected"]}
             for r in rows]
    return envelope(items, total, limit, offset)


def mismatch_sql(type: str) -> tuple[str, str]:
    """(the statement listing ``type``'s mismatches as ``url, actual, expected`` in URL
    order, its WHERE clause over ``pages p``): one definition for the query's pages and
    the report's stream of all of them."""
    actual, expected = TYPES[type]
    cond = f"p.{expected} IS NOT NULL AND p.{expected} != '' AND p.{actual} != p.{expected}"
    if actual != "url":
        cond += f" AND p.{actual} IS NOT NULL AND p.{actual} != ''"
    where = f"{strict_page('p', url_order=True)} AND {cond}"
    return (f"SELECT p.url, p.{actual} AS actual, p.{expected} AS expected FROM pages p "
            f"WHERE {where} ORDER BY p.url"), where
