"""``list_dedupe_cap_events``: the soft cap's audit log."""

from __future__ import annotations

from typing import Any

from ..archive.opening import Archive, opened
from ..format.v010 import strict_page
from ..keys.page_keys import view_of
from ._common import json_object
from .clusters import members_of
from .paging import check_choice, check_int, check_paging, envelope

_COLUMNS = ("id", "shape_key", "sample_url", "body_hash", "effective_threshold",
            "observed_count", "detected_at", "rejected_count", "signature", "parent_path",
            "title", "description", "og_title", "og_url", "trap_score", "signals")


def captured_counts(a: Archive, signatures: list[str]) -> dict[str, int]:
    """Rendered internal pages per signature: an event's signature may be either kind, or
    both at once — the parent signature of ``/timeline?from=N`` pages is the shape
    signature of the bare ``/timeline`` (one key, one counter, keys.py), so the two
    groups are united."""
    if not signatures:
        return {}
    by_parent = members_of(a, "signature", signatures)
    by_shape = members_of(a, "shape", signatures)
    return {sig: len({m.url for m in by_parent[sig]} | {m.url for m in by_shape[sig]})
            for sig in signatures}


def _shape_captured(a: Archive, row: dict[str, Any], signals: dict[str, Any]) -> int:
    """Pages of a ``repeat`` cap (its URL shape), a ``declared`` cap (its shapes and meta),
    a ``copy`` cap (its shapes) or a ``view`` cap (:func:`_view_captured`).

    Those clusters are not keyed by a page signature, so they are counted from the stored
    shape keys; an archive without ``page_signatures`` answers 0.
    """
    if not a.has_table("page_signatures"):
        return 0
    if signals.get("key") == "view":
        return _view_captured(a, signals)
    if signals.get("key") == "repeat":
        return a.count(f"SELECT count(*) FROM page_signatures ps JOIN pages p ON p.id = "
                       f"ps.page_id WHERE {strict_page('p')} AND ps.shape_key = ?",
                       (row["shape_key"],))
    shapes = [s for s in signals.get("shapes") or [row["shape_key"]] if isinstance(s, str)]
    marks = ",".join("?" for _ in shapes)
    if signals.get("key") == "copy":  # copies of many pages: each one's meta is its own
        return a.count(f"SELECT count(*) FROM page_signatures ps JOIN pages p ON p.id = "
                       f"ps.page_id WHERE {strict_page('p')} AND ps.shape_key IN ({marks})",
                       tuple(shapes))
    meta = [row.get(c) or "" for c in ("title", "description", "og_title", "og_url")]
    return a.count(f"SELECT count(*) FROM page_signatures ps JOIN pages p ON p.id = "
                   f"ps.page_id WHERE {strict_page('p')} AND ps.shape_key IN ({marks}) AND "
                   "coalesce(p.title, '') = ? AND coalesce(p.description, '') = ? AND "
                   "coalesce(p.og_title, '') = ? AND coalesce(p.og_url, '') = ?",
                   (*shapes, *meta))


def _view_captured(a: Archive, signals: dict[str, Any]) -> int:
    """Pages of a ``view`` cap: the archived pages that are that view of any entity (its
    prefix, and its query keys or its trailing path:
    :func:`nitpicker_query.keys.page_keys.view_of`)."""
    prefix = signals.get("view")
    if not isinstance(prefix, str):
        return 0
    listed = signals.get("viewKeys")
    need = frozenset(str(k) for k in listed) if isinstance(listed, list) else None
    like = prefix.replace("{n}", "%").removesuffix("/*").replace("_", "\\_") + "%"
    count = 0
    for (url,) in a.rows(f"SELECT p.url FROM page_signatures ps JOIN pages p ON p.id = "
                         f"ps.page_id WHERE {strict_page('p')} AND ps.shape_key LIKE ? "
                         "ESCAPE '\\'", (like,)):
        view = view_of(str(url))
        if view.prefix != prefix:
            continue
        if need is None:
            count += view.keys is None
        else:
            count += view.keys is not None and need <= view.keys
    return count


def event_item(row: dict[str, Any], captured: int, archived: bool) -> dict[str, Any]:
    body = row.get("body_hash")
    signals = json_object(row.get("signals")) if row.get("signals") is not None else None
    return {
        "id": row["id"], "shapeKey": row["shape_key"], "sampleUrl": row["sample_url"],
        "bodyHash": bytes(body).hex() if isinstance(body, bytes | memoryview) else body,
        "effectiveThreshold": row["effective_threshold"],
        "observedCount": row["observed_count"], "detectedAt": row["detected_at"],
        "rejectedCount": row["rejected_count"], "capturedPageCount": captured,
        "sampleUrlArchived": archived, "signature": row.get("signature"),
        "parentPath": row.get("parent_path"), "title": row.get("title"),
        "description": row.get("description"), "ogTitle": row.get("og_title"),
        "ogUrl": row.get("og_url"), "trapScore": row.get("trap_score"),
        "signals": signals if signals else None,
    }


def events_by_signature(a: Archive, signatures: list[str]) -> dict[str, dict[str, Any]]:
    """The event item (lowest id) for each of ``signatures`` that has one."""
    if not a.has_table("dedupe_cap_events") or not signatures or (
            "signature" not in a.columns("dedupe_cap_events")):
        return {}
    marks = ",".join("?" for _ in signatures)
    rows = a.execute(f"SELECT {a.select_list('dedupe_cap_events', 'e', _COLUMNS)} FROM "
                     f"dedupe_cap_events e WHERE e.signature IN ({marks}) ORDER BY e.id",
                     signatures).fetchall()
    return _items(a, [dict(zip(_COLUMNS, r, strict=True)) for r in rows], first_only=True)


def event_ids_by_signature(a: Archive, signatures: list[str]) -> dict[str, int]:
    """The id of the event (lowest) for each of ``signatures`` that has one: what a
    caller that only links to events needs, without building their items."""
    if not a.has_table("dedupe_cap_events") or not signatures or (
            "signature" not in a.columns("dedupe_cap_events")):
        return {}
    ids: dict[str, int] = {}
    for start in range(0, len(signatures), 500):
        chunk = signatures[start:start + 500]
        marks = ",".join("?" for _ in chunk)
        ids.update((str(sig), int(i)) for sig, i in a.rows(
            f"SELECT signature, min(id) FROM dedupe_cap_events WHERE signature IN ({marks}) "
            "GROUP BY signature", chunk))
    return ids


def _items(a: Archive, rows: list[dict[str, Any]], *, first_only: bool = False
           ) -> dict[str, dict[str, Any]]:
    captured = captured_counts(a, [r["signature"] for r in rows if r.get("signature")])
    result: dict[str, dict[str, Any]] = {}
    for r in rows:
        key = r.get("signature") or str(r["id"])
        if first_only and key in result:
            continue
        archived = a.execute("SELECT 1 FROM pages WHERE url = ? AND scraped = 1",
                             (r["sample_url"],)).fetchone() is not None
        count = captured.get(r.get("signature") or "", 0)
        signals = json_object(r.get("signals")) if r.get("signals") is not None else None
        if isinstance(signals, dict) and signals.get("key") in ("repeat", "declared", "copy",
                                                                 "view"):
            count = _shape_captured(a, r, signals)
        elif r.get("signature") is None and "dedupeCapEventId" in a.columns("pages"):
            # an event of upstream's own crawler (format 0.13): the rows it marked
            count = a.count("SELECT count(*) FROM pages WHERE dedupeCapEventId = ?",
                            (r["id"],))
        result[key if first_only else str(r["id"])] = event_item(r, count, archived)
    return result


SORT_COLUMNS = {"detectedAt": "e.detected_at", "observedCount": "e.observed_count",
                "rejectedCount": "e.rejected_count",
                "effectiveThreshold": "e.effective_threshold", "shapeKey": "e.shape_key"}
"""Item key → column an event list can be sorted by (ties newest first)."""


def list_dedupe_cap_events(archive: Archive | str, *, event: int | None = None,
                           sort_by: str | None = None, sort_order: str = "asc",
                           limit: int = 100, offset: int = 0) -> dict[str, Any]:
    """Which clusters did the crawl's soft cap stop, and how many URLs did each refuse?

    One item per cap, newest first: ``shapeKey`` (the URL shape that was gated, e.g.
    ``example.com/list/date/{n}/``), ``sampleUrl`` (the page that tipped it),
    ``effectiveThreshold`` and ``observedCount``, ``rejectedCount`` (distinct URLs
    refused because of it; null when the crawl crashed before counting), the meta values
    that defined the cluster, ``signals`` (which trap/legit signals held) and
    ``trapScore``; ``capturedPageCount`` is how many archived pages the cluster holds
    (pages carrying the signature; for ``signals.key`` ``repeat`` the pages of the URL
    shape, for ``declared`` the pages of its shapes with its meta) and
    ``sampleUrlArchived`` whether the sample page was stored. An archive without the
    table (upstream's, or written without the cap) answers an empty list.

    ``event``: only the event with this id (what a refused URL's page detail names as
    ``dedupeCapEventId``, and ``list_pages``'s ``cap_event`` takes).
    ``sort_by`` (None: newest first) sorts by ``detectedAt``, ``observedCount``,
    ``rejectedCount``, ``effectiveThreshold`` or ``shapeKey``, ``sort_order`` asc|desc,
    ties newest first (an unknown rejected count, null, sorts lowest).

    Upstream: ``list-dedupe-cap-events.ts`` (format 0.13, snake_case keys).
    """
    limit, offset = check_paging(limit, offset)
    order = ""
    if sort_by is not None:
        check_choice("sort_by", sort_by, SORT_COLUMNS)
        check_choice("sort_order", sort_order, ("asc", "desc"))
        order = f"{SORT_COLUMNS[sort_by]} {'DESC' if sort_order == 'desc' else 'ASC'}, "
    with opened(archive) as a:
        if not a.has_table("dedupe_cap_events"):
            return envelope([], 0, limit, offset)
        where, args = ("WHERE e.id = ? ", [check_int("event", event)]) \
            if event is not None else ("", [])
        total = a.count(f"SELECT count(*) FROM dedupe_cap_events e {where}", args)
        rows = a.execute(
            f"SELECT {a.select_list('dedupe_cap_events', 'e', _COLUMNS)} FROM "
            f"dedupe_cap_events e {where}ORDER BY {order}e.detected_at DESC, e.id DESC "
            "LIMIT ? OFFSET ?", (*args, limit, offset)).fetchall()
        items = list(_items(a, [dict(zip(_COLUMNS, r, strict=True)) for r in rows]).values())
    return envelope(items, total, limit, offset)
