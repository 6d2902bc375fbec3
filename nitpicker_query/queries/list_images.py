"""``list_images``: images on the crawled pages, with alt and size problems."""

from __future__ import annotations

from typing import Any

from ..archive import Archive, opened
from ..paging import check_choice, check_int, check_paging, envelope
from ._common import as_bool

SORT_COLUMNS = {"pageUrl": "p.url", "src": "i.src", "alt": "i.alt", "width": "i.width",
                "height": "i.height"}
"""Item key → column an image list can be sorted by."""


def list_images(
    archive: Archive | str,
    *,
    missing_alt: bool = False,
    missing_dimensions: bool = False,
    oversized_threshold: int | None = None,
    url_pattern: str | None = None,
    sort_by: str | None = None,
    sort_order: str = "asc",
    limit: int = 100,
    offset: int = 0,
) -> dict[str, Any]:
    """Which images lack alt text, have no rendered size, or are oversized?

    Args:
        missing_alt: alt attribute missing or empty.
        missing_dimensions: rendered width or height is 0.
        oversized_threshold: intrinsic width or height above this many pixels.
        url_pattern: SQL LIKE pattern on the image ``src``.

    One item per image per scanned viewport, ordered by page URL then document order:
    ``{pageUrl, src, alt, width, height, naturalWidth, naturalHeight, isLazy}``.

    ``sort_by`` (None: that order) sorts by ``pageUrl``, ``src``, ``alt``, ``width`` or
    ``height`` instead, ``sort_order`` asc|desc, ties in that order.

    Upstream: ``list-images.ts``.
    """
    limit, offset = check_paging(limit, offset)
    order = ""
    if sort_by is not None:
        check_choice("sort_by", sort_by, SORT_COLUMNS)
        check_choice("sort_order", sort_order, ("asc", "desc"))
        order = f"{SORT_COLUMNS[sort_by]} {'DESC' if sort_order == 'desc' else 'ASC'}, "
    where: list[str] = []
    params: list[Any] = []
    if missing_alt:
        where.append("(i.alt IS NULL OR i.alt = '')")
    if missing_dimensions:
        where.append("(i.width = 0 OR i.height = 0)")
    if oversized_threshold is not None:
        check_int("oversized_threshold", oversized_threshold, minimum=0)
        where.append("(i.naturalWidth > ? OR i.naturalHeight > ?)")
        params.extend([oversized_threshold, oversized_threshold])
    if url_pattern is not None:
        where.append("i.src LIKE ?")
        params.append(url_pattern)
    clause = ("WHERE " + " AND ".join(where)) if where else ""
    with opened(archive) as a:
        total = a.count(f"SELECT count(*) FROM images i {clause}", params)
        rows = a.execute(
            "SELECT p.url AS pageUrl, i.src, i.alt, i.width, i.height, i.naturalWidth, "
            f"i.naturalHeight, i.isLazy FROM images i JOIN pages p ON p.id = i.pageId {clause} "
            f"ORDER BY {order}p.url, i.id LIMIT ? OFFSET ?",
            [*params, limit, offset],
        ).fetchall()
    items = [
        {"pageUrl": r["pageUrl"], "src": r["src"], "alt": r["alt"], "width": r["width"],
         "height": r["height"], "naturalWidth": r["naturalWidth"],
         "naturalHeight": r["naturalHeight"], "isLazy": as_bool(r["isLazy"])}
        for r in rows
    ]
    return envelope(items, total, limit, offset)
