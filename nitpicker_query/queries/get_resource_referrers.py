"""``get_resource_referrers``: which pages loaded one resource."""

from __future__ import annotations

from typing import Any

from ..archive.opening import Archive, opened
from .paging import check_paging, envelope


def get_resource_referrers(
    archive: Archive | str, *, resource_url: str, limit: int = 100, offset: int = 0
) -> dict[str, Any] | None:
    """Which pages loaded this exact resource URL? None when the resource is unknown.

    Returns the list envelope with ``resourceUrl`` first and items ``{url}``, in the
    order the pages were first stored (page id), every referrer counted in ``total``.

    Upstream: ``get-resource-referrers.ts`` pages with a ``pageId`` cursor; ours uses the
    same offset paging as every other list.
    """
    limit, offset = check_paging(limit, offset)
    with opened(archive) as a:
        row = a.execute("SELECT id FROM resources WHERE url = ?", (resource_url,)).fetchone()
        if row is None:
            return None
        rid = row["id"]
        total = a.count('SELECT count(*) FROM "resources-referrers" WHERE resourceId = ?', (rid,))
        rows = a.execute(
            'SELECT p.url FROM "resources-referrers" rr JOIN pages p ON p.id = rr.pageId '
            "WHERE rr.resourceId = ? ORDER BY rr.pageId LIMIT ? OFFSET ?",
            (rid, limit, offset),
        ).fetchall()
    return envelope([{"url": r["url"]} for r in rows], total, limit, offset,
                    resourceUrl=resource_url)
