"""Which pages each soft-cap event refused or captured: format 0.13's
``content_items.dedupe_cap_event_id``, from what a format-0.10 archive of ours records.

Upstream marks, after a crawl, every row of a capped shape with its event (the URLs the
cap refused and the pages of the shape that were crawled), and counts an event's
``captured_page_count`` as the rows carrying its id. A 0.10 archive of ours says the same
in two places, read here as ``list_dedupe_cap_events`` reads them
(:mod:`nitpicker_query.queries.list_dedupe_cap_events`):

- **refused**: each URL the cap refused is a skipped row (``skipReason = 'dedupe-cap'``)
  whose ``meta_extras.capEvent`` names its event; archives written before that field
  credit it to the lowest event of its URL shape;
- **captured**: the archived pages of the event's cluster — the pages carrying its
  signature (as parent or shape signature), or for the caps keyed otherwise
  (``signals.key``) the pages of its URL shape (``repeat``), of its shapes (``copy``),
  of its shapes with its meta (``declared``), or the views it names (``view``).

A page that two events claim is marked with the lower id (a row holds one event); a
refused URL with the event that refused it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from nitpicker_query import open_archive
from nitpicker_query.archive.opening import Archive
from nitpicker_query.format.v010 import strict_page
from nitpicker_query.keys.page_keys import view_of
from nitpicker_query.queries._common import json_object
from nitpicker_query.queries.clusters import members_of

EVENT_COLUMNS = ("id", "shape_key", "signature", "title", "description", "og_title", "og_url",
                 "signals")


def mark(conn: sqlite3.Connection, source_db: Path) -> int:
    """Set ``content_items.dedupe_cap_event_id`` in the database being built on ``conn``
    (the 0.10 database attached as ``src``, ``np_shape_key`` registered); return how many
    rows were marked. ``source_db`` is read again through the query library."""
    tables = {str(r[0]) for r in conn.execute(
        "SELECT name FROM src.sqlite_master WHERE type = 'table'")}
    if "dedupe_cap_events" not in tables:
        return 0
    conn.execute("CREATE TEMP TABLE _marks (page_id INTEGER PRIMARY KEY, event_id INTEGER "
                 "NOT NULL)")
    page_columns = {str(r[1]) for r in conn.execute("PRAGMA src.table_info(pages)")}
    if "meta_extras" in page_columns:
        conn.execute(
            "INSERT OR IGNORE INTO temp._marks SELECT p.id, e.id FROM src.pages p "
            "JOIN src.dedupe_cap_events e ON e.id = json_extract(p.meta_extras, "
            "'$.capEvent') WHERE p.skipReason = 'dedupe-cap' AND json_valid(p.meta_extras)")
    conn.execute(
        "INSERT OR IGNORE INTO temp._marks SELECT p.id, e.id FROM src.pages p JOIN (SELECT "
        "shape_key, min(id) AS id FROM src.dedupe_cap_events GROUP BY shape_key) e "
        "ON e.shape_key = np_shape_key(p.url) WHERE p.skipReason = 'dedupe-cap'")
    with open_archive(source_db.parent) as a:
        have = set(a.columns("dedupe_cap_events"))
        select = ", ".join(c if c in have else f"NULL AS {c}" for c in EVENT_COLUMNS)
        events = a.rows(f"SELECT {select} FROM dedupe_cap_events ORDER BY id")
        for row in events:
            event = dict(zip(EVENT_COLUMNS, row, strict=True))
            conn.executemany("INSERT OR IGNORE INTO temp._marks VALUES (?, ?)",
                             [(pid, event["id"]) for pid in sorted(captured(a, event))])
    cur = conn.execute("UPDATE content_items SET dedupe_cap_event_id = m.event_id FROM "
                       "temp._marks m WHERE content_items.id = m.page_id")
    return cur.rowcount


def captured(a: Archive, event: Mapping[str, Any]) -> set[int]:
    """Ids of the archived pages of ``event``'s cluster (rendered internal HTML pages):
    the pages ``list_dedupe_cap_events`` counts as its ``capturedPageCount``."""
    signals = json_object(event.get("signals")) if event.get("signals") is not None else {}
    if signals.get("key") in ("repeat", "declared", "copy", "view"):
        return _by_shape(a, event, signals)
    signature = event.get("signature")
    if not signature:
        return set()
    sig = str(signature)
    members = members_of(a, "signature", [sig])[sig] + members_of(a, "shape", [sig])[sig]
    return {m.page_id for m in members}


def _by_shape(a: Archive, event: Mapping[str, Any], signals: dict[str, Any]) -> set[int]:
    """The pages of a cap keyed by URL shape rather than a signature, from the stored
    ``page_signatures`` (none without it)."""
    if not a.has_table("page_signatures"):
        return set()
    base = (f"SELECT p.id, p.url FROM page_signatures ps JOIN pages p ON p.id = ps.page_id "
            f"WHERE {strict_page('p')}")
    key = signals.get("key")
    if key == "view":
        return _views(a, base, signals)
    if key == "repeat":
        return {int(r[0]) for r in a.rows(f"{base} AND ps.shape_key = ?",
                                          (event["shape_key"],))}
    shapes = [s for s in signals.get("shapes") or [event["shape_key"]] if isinstance(s, str)]
    marks = ",".join("?" for _ in shapes)
    if key == "copy":
        return {int(r[0]) for r in a.rows(f"{base} AND ps.shape_key IN ({marks})", shapes)}
    meta = [event.get(c) or "" for c in ("title", "description", "og_title", "og_url")]
    return {int(r[0]) for r in a.rows(
        f"{base} AND ps.shape_key IN ({marks}) AND coalesce(p.title, '') = ? AND "
        "coalesce(p.description, '') = ? AND coalesce(p.og_title, '') = ? AND "
        "coalesce(p.og_url, '') = ?", (*shapes, *meta))}


def _views(a: Archive, base: str, signals: dict[str, Any]) -> set[int]:
    """A ``view`` cap: the pages that are that view of any entity (its prefix, and its
    query keys or its trailing path: :func:`nitpicker_query.keys.page_keys.view_of`)."""
    prefix = signals.get("view")
    if not isinstance(prefix, str):
        return set()
    listed = signals.get("viewKeys")
    need = frozenset(str(k) for k in listed) if isinstance(listed, list) else None
    like = prefix.replace("{n}", "%").removesuffix("/*").replace("_", "\\_") + "%"
    found: set[int] = set()
    for page_id, url in a.rows(f"{base} AND ps.shape_key LIKE ? ESCAPE '\\'", (like,)):
        view = view_of(str(url))
        if view.prefix != prefix:
            continue
        if (view.keys is None) if need is None else (view.keys is not None
                                                       and need <= view.keys):
            found.add(int(page_id))
    return found
