"""``get_page_jsonld`` and ``get_page_jsonld_overview``: one page's JSON-LD entries."""

from __future__ import annotations

import json
from typing import Any

from ..archive.opening import Archive, opened

SLIM_DEPTH = 3
"""Levels of a JSON-LD entry ``slim`` keeps; deeper values become ``"…"``. A product page
can hold fifty schemas of 50 KB each; the first levels say what each one is."""


def _entries(a: Archive, url: str) -> list[Any] | None:
    """The page's rows (``kind, type, raw, parsed, parseError, bytes``), or None when the
    URL is not in the archive."""
    row = a.execute("SELECT id FROM pages WHERE url = ? LIMIT 1", (url,)).fetchone()
    if row is None:
        return None
    if not a.has_table("page_jsonld"):
        return []
    columns = a.select_list("page_jsonld", "j", ("kind", "type", "raw", "parsed",
                                                 "parseError"))
    return a.rows(f"SELECT {columns}, length(CAST(j.raw AS BLOB)) FROM page_jsonld j "
                  "WHERE j.pageId = ? ORDER BY j.id", (row[0],))


def _overview(entry: tuple[Any, ...]) -> dict[str, Any]:
    kind, type_, _, _, error, size = entry
    return {"kind": kind, "type": type_, "rawByteSize": size or 0, "parseError": error}


def get_page_jsonld_overview(archive: Archive | str, *, url: str) -> dict[str, Any] | None:
    """What JSON-LD (and speculation rules) does this page carry, and how big is it?

    One entry per ``<script type="application/ld+json">`` or ``speculationrules``:
    ``kind``, top-level ``type``, ``rawByteSize`` (UTF-8 bytes of the script text) and
    ``parseError`` (null when it parsed). ``totalRawBytes`` sums them — check it before
    asking ``get_page_jsonld`` for everything. None when the URL is not in the archive.

    Upstream: ``get-page-jsonld-overview.ts``.
    """
    with opened(archive) as a:
        rows = _entries(a, url)
    if rows is None:
        return None
    entries = [_overview(r) for r in rows]
    return {"url": url, "count": len(entries),
            "totalRawBytes": sum(e["rawByteSize"] for e in entries), "entries": entries}


def get_page_jsonld(archive: Archive | str, *, url: str, full: bool = False
                    ) -> dict[str, Any] | None:
    """This page's JSON-LD entries, parsed.

    Slim by default: each entry's ``data`` is the parsed JSON without ``@context`` and
    cut below ``SLIM_DEPTH`` levels (deeper values read ``"…"``), enough to see each
    schema's type, name and main fields. ``full`` adds ``raw`` (the script text as
    stored) and gives ``data`` whole. An entry that did not parse has ``data: null`` and
    its ``parseError``. None when the URL is not in the archive.

    Upstream: ``get-page-jsonld.ts`` (``slim`` there omitted the payload altogether).
    """
    with opened(archive) as a:
        rows = _entries(a, url)
    if rows is None:
        return None
    entries = []
    for row in rows:
        entry = _overview(row)
        data = _parsed(row[3], row[2])
        entry["data"] = data if full else _slim(data, SLIM_DEPTH)
        if full:
            entry["raw"] = row[2]
        entries.append(entry)
    return {"url": url, "count": len(entries), "full": bool(full), "entries": entries}


def _parsed(parsed: Any, raw: Any) -> Any:
    for text in (parsed, raw):
        if isinstance(text, str | bytes):
            try:
                return json.loads(text)
            except (ValueError, RecursionError):
                continue
    return None


def _slim(value: Any, depth: int) -> Any:
    if isinstance(value, dict):
        if depth <= 0:
            return "…"
        return {k: _slim(v, depth - 1) for k, v in value.items() if k != "@context"}
    if isinstance(value, list):
        if depth <= 0:
            return "…"
        return [_slim(v, depth - 1) for v in value]
    return value
