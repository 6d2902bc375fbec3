"""``list_resources``: sub-resources (CSS, JS, images, fonts) the pages loaded."""

from __future__ import annotations

from typing import Any

from ..archive.opening import Archive, opened
from ._common import as_bool, blank_to_none, like_literal
from .paging import check_choice, check_paging, envelope

SORT_COLUMNS = {"url": "url", "status": "status", "contentType": "contentType",
                "contentLength": "contentLength"}


def list_resources(
    archive: Archive | str,
    *,
    content_type: str | None = None,
    is_external: bool | None = None,
    url_pattern: str | None = None,
    sort_by: str = "url",
    sort_order: str = "asc",
    limit: int = 100,
    offset: int = 0,
) -> dict[str, Any]:
    """Which sub-resources did the crawled pages load, and from where?

    Args:
        content_type: a prefix of the stored MIME type (``image/``, ``text/css``).
        is_external: True only third-party, False only own, None both.
        url_pattern: SQL LIKE pattern on the resource URL, used as given.
        sort_by: ``url`` | ``status`` | ``contentType`` | ``contentLength`` (ties by URL).

    Items ``{url, status, statusText, contentType, contentLength, isExternal, compress,
    cdn, referrerCount}``; ``referrerCount`` is how many pages loaded it (see
    ``get_resource_referrers`` for which).

    Upstream: ``list-resources.ts``.
    """
    limit, offset = check_paging(limit, offset)
    check_choice("sort_by", sort_by, SORT_COLUMNS)
    check_choice("sort_order", sort_order, ("asc", "desc"))
    where: list[str] = []
    params: list[Any] = []
    if content_type is not None:
        where.append("r.contentType LIKE ? ESCAPE '\\'")
        params.append(like_literal(content_type) + "%")
    if is_external is not None:
        where.append("r.isExternal = ?")
        params.append(1 if is_external else 0)
    if url_pattern is not None:
        where.append("r.url LIKE ?")
        params.append(url_pattern)
    clause = ("WHERE " + " AND ".join(where)) if where else ""
    order = "DESC" if sort_order == "desc" else "ASC"
    order_by = f"r.{SORT_COLUMNS[sort_by]} {order}" + (", r.url" if sort_by != "url" else "")
    extra: dict[str, Any] = {}
    with opened(archive) as a:
        total = a.count(f"SELECT count(*) FROM resources r {clause}", params)
        if total == 0 and not (a.has_table("resources-referrers") and a.count(
                'SELECT count(*) FROM (SELECT 1 FROM "resources-referrers" LIMIT 1)')):
            # empty because nothing was recorded, not because the pages load nothing
            extra["note"] = ("no page of this archive recorded loading anything: a "
                             "--no-render crawl reads the HTML only (crawl with rendering, "
                             "the default, to list the stylesheets, scripts, images and "
                             "fonts the pages load), or the pages load nothing")
        rows = a.execute(
            "SELECT r.url, r.status, r.statusText, r.contentType, r.contentLength, "
            "r.isExternal, r.compress, r.cdn, (SELECT count(*) FROM \"resources-referrers\" rr "
            f"WHERE rr.resourceId = r.id) AS referrerCount FROM resources r {clause} "
            f"ORDER BY {order_by} LIMIT ? OFFSET ?",
            [*params, limit, offset],
        ).fetchall()
    items = [
        {"url": r["url"], "status": r["status"], "statusText": r["statusText"],
         "contentType": r["contentType"], "contentLength": r["contentLength"],
         "isExternal": as_bool(r["isExternal"]), "compress": blank_to_none(r["compress"]),
         "cdn": blank_to_none(r["cdn"]), "referrerCount": r["referrerCount"]}
        for r in rows
    ]
    return envelope(items, total, limit, offset, **extra)
