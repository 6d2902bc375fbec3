"""``list_network_outages``: when the crawler's network (or the whole site) was gone."""

from __future__ import annotations

from typing import Any

from ..archive.opening import Archive, opened
from .paging import check_paging, envelope


def _last_fetch(a: Archive, rows: list[tuple[Any, ...]]) -> int | None:
    """The archive's last fetch, where a window left open by a crash ends; read (a scan of
    every page) only when some window is open."""
    if all(row[1] is not None for row in rows):
        return None
    value = a.execute("SELECT max(lastCrawledAt) FROM pages").fetchone()[0]
    return int(value) if value is not None else None


def _inside(a: Archive, started: int, ended: int | None, last: int | None) -> int:
    """Failures (status -1) recorded between ``started`` and ``ended`` (an open window:
    the archive's last fetch)."""
    end = ended if ended is not None else last
    return a.count("SELECT count(*) FROM pages WHERE status = -1 AND lastCrawledAt "
                   "BETWEEN ? AND ?", (started, end if end is not None else started))


def outage_totals(a: Archive) -> dict[str, int] | None:
    """``{windows, failuresInside}`` for the summary; None without the table."""
    if not a.has_table("network_outages"):
        return None
    rows = a.rows("SELECT started_at, ended_at FROM network_outages")
    last = _last_fetch(a, rows)
    return {"windows": len(rows),
            "failuresInside": sum(_inside(a, s, e, last) for s, e in rows)}


def list_network_outages(archive: Archive | str, *, limit: int = 100,
                         offset: int = 0) -> dict[str, Any]:
    """When did nothing answer the crawl, and what did it do about it?

    One item per window the crawl paused in, oldest first: ``startedAt`` (the first
    failure of the row that set it off), ``detectedAt`` (when a probe of the site failed
    too), ``endedAt`` (when the probe answered again; for a window left open by a crash,
    the archive's last fetch), in epoch ms; ``probeHost``; ``triggerErrorCount`` and
    ``triggerHostCount`` (the failures, and their hosts, that raised it); ``failures``:
    pages whose failure (status -1) was recorded inside the window — none for a window
    the crawl came back from, since it fetches those URLs again. An archive without the
    table (upstream's before 0.15, ours before outages were recorded) answers no item.

    Upstream: ``list_network_outages`` (0.15); ``failures`` is ours."""
    limit, offset = check_paging(limit, offset)
    with opened(archive) as a:
        if not a.has_table("network_outages"):
            return envelope([], 0, limit, offset)
        total = a.count("SELECT count(*) FROM network_outages")
        rows = a.rows("SELECT id, started_at, detected_at, ended_at, probe_host, "
                      "trigger_error_count, trigger_host_count FROM network_outages "
                      "ORDER BY started_at, id LIMIT ? OFFSET ?", (limit, offset))
        last = _last_fetch(a, [(r[0], r[3]) for r in rows])
        items = []
        for oid, started, detected, ended, host, errors, hosts in rows:
            items.append({"id": oid, "startedAt": started, "detectedAt": detected,
                          "endedAt": ended if ended is not None else last,
                          "probeHost": host, "triggerErrorCount": errors,
                          "triggerHostCount": hosts,
                          "failures": _inside(a, started, ended, last)})
    return envelope(items, total, limit, offset)
