"""``list_browser_outages``: when a lent browser (``--browser-endpoint``) was lost."""

from __future__ import annotations

from typing import Any

from ..archive.opening import Archive, opened
from .paging import check_paging, envelope


def browser_outage_totals(a: Archive) -> dict[str, int] | None:
    """``{losses, pagesMoved, downAtEnd}`` for the summary; None without the table (a crawl
    before lent browsers, or upstream's)."""
    if not a.has_table("browser_outages"):
        return None
    losses, moved, open_ = a.execute(
        "SELECT count(*), coalesce(sum(pages_moved), 0), "
        "coalesce(sum(ended_at IS NULL), 0) FROM browser_outages").fetchone()
    return {"losses": int(losses), "pagesMoved": int(moved), "downAtEnd": int(open_)}


def list_browser_outages(archive: Archive | str, *, limit: int = 100,
                         offset: int = 0) -> dict[str, Any]:
    """When was a browser the crawl rendered with on another machine lost, and for how
    long?

    One item per loss, oldest first: ``endpoint`` (scheme, host and port as the crawl's
    progress named it: never a path or token), ``startedAt`` and ``endedAt`` (epoch ms;
    ``endedAt`` null: it was still down when the crawl ended), ``seconds`` down (null
    while open), ``pagesMoved`` (pages rendering on it when it was lost, rendered again
    on another browser: none is lost with it) and ``reason`` (the error that said so).
    A loss explains a slower stretch of the crawl, not failed pages. An archive without
    the table (upstream's, ours before lent browsers) answers no item."""
    limit, offset = check_paging(limit, offset)
    with opened(archive) as a:
        if not a.has_table("browser_outages"):
            return envelope([], 0, limit, offset)
        total = a.count("SELECT count(*) FROM browser_outages")
        rows = a.rows("SELECT id, endpoint, started_at, ended_at, pages_moved, reason "
                      "FROM browser_outages ORDER BY started_at, id LIMIT ? OFFSET ?",
                      (limit, offset))
    items = [{"id": oid, "endpoint": _text(endpoint), "startedAt": started, "endedAt": ended,
              "seconds": round((ended - started) / 1000, 1)
              if isinstance(ended, int) and isinstance(started, int) else None,
              "pagesMoved": moved, "reason": _text(reason)}
             for oid, endpoint, started, ended, moved, reason in rows]
    return envelope(items, total, limit, offset)


def _text(value: Any) -> Any:
    """An archive's text as we wrote it at most (a stranger's may be any size)."""
    return value[:TEXT_LIMIT] if isinstance(value, str) else value


TEXT_LIMIT = 500
"""Characters of an endpoint or a reason shown: ours are at most 255 and 200."""
