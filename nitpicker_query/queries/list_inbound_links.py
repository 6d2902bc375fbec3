"""``list_inbound_links``: every page linking to one URL, paged."""

from __future__ import annotations

from typing import Any

from ..archive.opening import Archive, opened
from .get_page_detail import inbound_links
from .paging import MAX_LIMIT, check_int, envelope


def list_inbound_links(archive: Archive | str, *, url: str, limit: int = 100,
                       offset: int = 0) -> dict[str, Any] | None:
    """Which pages link to this exact URL? One item per referring page, paged.

    The same rule as ``get_page_detail``'s bounded ``inboundLinks``: links to a URL that
    redirects here count (redirects are resolved), a page linking several times counts
    once (its first anchor's text is shown), ordered by the referring page's URL.
    ``limit 0`` returns only the ``total`` — how many pages link here — with no items.
    None when the URL is not in the archive.

    Returns:
        ``{url, items: [{url, textContent}], total, limit, offset, nextOffset}``.

    Upstream: ``list-inbound-links.ts`` (a cursor there, ``offset`` like every list here).
    """
    limit = check_int("limit", limit, minimum=0, maximum=MAX_LIMIT)
    offset = check_int("offset", offset, minimum=0)
    with opened(archive) as a:
        row = a.execute("SELECT id FROM pages WHERE url = ? LIMIT 1", (url,)).fetchone()
        if row is None:
            return None
        items, total = inbound_links(a, row[0], limit, offset)
    result = envelope(items, total, limit, offset, url=url)
    if limit == 0:
        result["nextOffset"] = None
    return result
