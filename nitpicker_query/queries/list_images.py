"""``list_images``: images on the crawled pages, with alt and size problems."""

from __future__ import annotations

from typing import Any

from ..archive.opening import Archive, opened
from ._common import as_bool
from .paging import check_choice, check_int, check_paging, envelope

SORT_COLUMNS = {"pageUrl": "p.url", "src": "i.src", "alt": "i.alt", "width": "i.width",
                "height": "i.height"}
"""Item key → column an image list can be sorted by."""


ALT_STATE = ("CASE WHEN i.alt <> '' THEN 'text' "
             "WHEN (' ' || i.sourceCode) LIKE '% alt=%' OR (' ' || i.sourceCode) LIKE '% alt>%' "
             "OR (' ' || i.sourceCode) LIKE '% alt %' OR (' ' || i.sourceCode) LIKE '% alt/>%' "
             "THEN 'empty' "
             "WHEN i.sourceCode LIKE '<img%>' THEN 'missing' ELSE 'unknown' END")
"""An image's alt attribute, as its stored tag says: ``text``; ``empty`` (``alt=""``: a
decorative image, as WCAG H67 asks — not a fault); ``missing`` (the whole tag is kept and
has no alt); ``unknown`` (neither the tag nor an alt text is kept: upstream's 0.13
archives store an empty alt and a missing one alike). The tag decides, not the ``alt``
column: upstream's 0.10 crawler wrote ``""`` for both, and a valueless ``<img alt>``
was read as missing."""


def list_images(
    archive: Archive | str,
    *,
    missing_alt: bool = False,
    empty_alt: bool = False,
    missing_dimensions: bool = False,
    oversized_threshold: int | None = None,
    url_pattern: str | None = None,
    sort_by: str | None = None,
    sort_order: str = "asc",
    limit: int = 100,
    offset: int = 0,
) -> dict[str, Any]:
    """Which images lack the alt attribute, have an empty one, have no rendered size, or
    are oversized?

    Args:
        missing_alt: no alt attribute (``altState`` ``missing``, or ``unknown`` where the
            archive cannot tell: :data:`ALT_STATE`); ``alt=""`` is not missing.
        empty_alt: ``alt=""``: decorative images, to review, not faults.
        missing_dimensions: rendered width or height is 0 — of rendered pages only: a
            ``--no-render`` crawl measured nothing (its answer carries a ``note``).
        oversized_threshold: intrinsic width or height above this many pixels.
        url_pattern: SQL LIKE pattern on the image ``src``.

    One item per image per scanned viewport, ordered by page URL then document order:
    ``{pageUrl, src, alt, altState, width, height, naturalWidth, naturalHeight, isLazy}``.

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
        where.append(f"({ALT_STATE}) IN ('missing', 'unknown')")
    if empty_alt:
        where.append(f"({ALT_STATE}) = 'empty'")
    if missing_dimensions:   # a rendered image has the viewport it was measured in
        where.append("(i.width = 0 OR i.height = 0) AND i.viewportWidth > 0")
    if oversized_threshold is not None:
        check_int("oversized_threshold", oversized_threshold, minimum=0)
        where.append("(i.naturalWidth > ? OR i.naturalHeight > ?)")
        params.extend([oversized_threshold, oversized_threshold])
    if url_pattern is not None:
        where.append("i.src LIKE ?")
        params.append(url_pattern)
    clause = ("WHERE " + " AND ".join(where)) if where else ""
    extra: dict[str, Any] = {}
    with opened(archive) as a:
        if missing_dimensions and not a.count(
                "SELECT count(*) FROM (SELECT 1 FROM images WHERE viewportWidth > 0 LIMIT 1)"):
            extra["note"] = ("no image of this archive was rendered (a --no-render crawl): "
                             "their sizes were never measured, so none is listed")
        total = a.count(f"SELECT count(*) FROM images i {clause}", params)
        rows = a.execute(
            f"SELECT p.url AS pageUrl, i.src, i.alt, {ALT_STATE} AS altState, "
            "i.width, i.height, i.naturalWidth, "
            f"i.naturalHeight, i.isLazy FROM images i JOIN pages p ON p.id = i.pageId {clause} "
            f"ORDER BY {order}p.url, i.id LIMIT ? OFFSET ?",
            [*params, limit, offset],
        ).fetchall()
    items = [
        {"pageUrl": r["pageUrl"], "src": r["src"], "alt": r["alt"], "altState": r["altState"],
         "width": r["width"],
         "height": r["height"], "naturalWidth": r["naturalWidth"],
         "naturalHeight": r["naturalHeight"], "isLazy": as_bool(r["isLazy"])}
        for r in rows
    ]
    return envelope(items, total, limit, offset, **extra)
