"""``list_unused_resources``: the site's files no page loads.

A rendered crawl records every sub-resource each page loaded (``resources`` and
``resources-referrers``). What *could* be loaded but is not has to be found another way;
here that is the site's inventory: a sitemap or ``--list`` URL whose answer is a
stylesheet, script, image, font, audio or video file is stored as a resource labelled
``inventory-seed`` (not as a page), and a page that loads it gives it a referrer. An
unused resource is an internal resource without a referrer: an inventory file no page
loads, or (in an archive rewritten later) a file whose last referrer is gone — the
``source`` column tells them apart. Candidates for deletion from the server.

A ``--no-render`` crawl records no page's loads: every file would look unused, so an
archive without any referrer raises :class:`~nitpicker_query.exceptions.NotRecorded`.

Upstream: ``list-unused-resources.ts`` (0.11), whose inventory is ``crawl --inventory``.
"""

from __future__ import annotations

from typing import Any

from ..archive.opening import Archive, opened
from ..exceptions import NotRecorded
from .paging import check_paging, envelope


def list_unused_resources(archive: Archive | str, *, limit: int = 100,
                          offset: int = 0) -> dict[str, Any]:
    """Which of the site's files (stylesheets, scripts, images, fonts, media) does no page
    load? Items ``{url, status, contentType, contentLength, source}`` in URL order;
    ``source`` is ``inventory-seed`` for a file the sitemaps or the ``--list`` named."""
    limit, offset = check_paging(limit, offset)
    with opened(archive) as a:
        if not a.has_table("resources"):
            return envelope([], 0, limit, offset)
        referrers = a.has_table("resources-referrers") and a.execute(
            'SELECT 1 FROM "resources-referrers" LIMIT 1').fetchone() is not None
        if not referrers:
            raise NotRecorded(
                f"{a.path.name} records no resource any page loaded (a --no-render crawl, "
                "or pages that load nothing): which files are unused cannot be told; crawl "
                "with rendering (the default) to find out")
        source = "r.source" if "source" in a.columns("resources") else "'crawled'"
        base = ('FROM resources r WHERE r.isExternal = 0 AND NOT EXISTS (SELECT 1 FROM '
                '"resources-referrers" x WHERE x.resourceId = r.id)')
        total = a.count(f"SELECT count(*) {base}")
        rows = a.execute(
            f"SELECT r.url, r.status, r.contentType, r.contentLength, {source} AS source "
            f"{base} ORDER BY r.url LIMIT ? OFFSET ?", (limit, offset)).fetchall()
    items = [{"url": r["url"], "status": r["status"], "contentType": r["contentType"],
              "contentLength": r["contentLength"], "source": r["source"]} for r in rows]
    return envelope(items, total, limit, offset)
