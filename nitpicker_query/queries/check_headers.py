"""``check_headers``: security headers of every rendered internal page."""

from __future__ import annotations

from typing import Any

from ..archive.opening import Archive, opened
from ..format.v010 import strict_page
from .paging import check_choice, check_paging, envelope

HEADERS = (
    ("hasCSP", "content-security-policy"),
    ("hasXFrameOptions", "x-frame-options"),
    ("hasXContentTypeOptions", "x-content-type-options"),
    ("hasHSTS", "strict-transport-security"),
)


def has_header(header: str) -> str:
    """SQL: 1 or 0 for a page whose response headers are stored, NULL for one with none
    (a URL never fetched — skipped, failed — or headers that are not a JSON object): "no
    CSP" would be a finding about a response nobody saw. json_each on malformed JSON
    raises; the CASE keeps it from ever seeing such text."""
    return (
        "CASE WHEN json_valid(p.responseHeaders) AND json_type(p.responseHeaders) = "
        "'object' THEN EXISTS (SELECT 1 FROM "
        f"json_each(p.responseHeaders) h WHERE lower(h.key) = '{header}') END"
    )


def flag(value: Any) -> bool | None:
    """A :func:`has_header` value as JSON: true, false, or null (no headers stored)."""
    return None if value is None else bool(value)


def header_flag(key: str, header: str) -> str:
    """SQL for one item flag: :func:`has_header`, and HSTS only where it can be obeyed —
    a browser ignores the header over plain HTTP (RFC 6797, 8.1), so an ``http://`` page
    neither has nor misses it: null."""
    sql = has_header(header)
    return f"CASE WHEN p.url LIKE 'https:%' THEN {sql} END" if key == "hasHSTS" else sql


SORT_KEYS = ("url", *(key for key, _ in HEADERS))
"""What a header list can be sorted by: the URL, or a flag (missing first, ascending)."""


def check_headers(
    archive: Archive | str, *, missing_only: bool = False, sort_by: str | None = None,
    sort_order: str = "asc", limit: int = 100, offset: int = 0
) -> dict[str, Any]:
    """Which pages lack CSP, X-Frame-Options, X-Content-Type-Options or HSTS?

    Over rendered internal HTML pages ordered by URL; header names compare
    case-insensitively. Items ``{url, hasCSP, hasXFrameOptions, hasXContentTypeOptions,
    hasHSTS}``, each null for a page with no response headers stored (never fetched);
    ``hasHSTS`` null too on an ``http://`` page, where browsers ignore it.
    ``missing_only`` keeps pages missing at least one of the four (a page with none
    stored is not known to miss any).

    ``sort_by`` (None: by URL) sorts by ``url`` or one flag (ascending: pages without
    the header first, then those with no headers stored last), ties by URL.

    Upstream: ``check-headers.ts`` filtered ``missingOnly`` *after* paging, so pages came
    back short and ``total`` counted every page. Ours filters before paging: ``total``
    is the number of pages that match.
    """
    limit, offset = check_paging(limit, offset)
    order = ""
    if sort_by is not None:
        check_choice("sort_by", sort_by, SORT_KEYS)
        check_choice("sort_order", sort_order, ("asc", "desc"))
        direction = "DESC" if sort_order == "desc" else "ASC"
        if sort_by != "url":  # a flag: NULL (nothing stored) after both values
            order = f"{sort_by} IS NULL, {sort_by} {direction}, "
        elif direction == "DESC":
            order = "url DESC, "
    flags = ", ".join(f"{header_flag(key, h)} AS {key}" for key, h in HEADERS)
    inner = f"SELECT p.url, {flags} FROM pages p WHERE {strict_page('p', url_order=True)}"
    where = ""
    if missing_only:
        where = "WHERE NOT (" + " AND ".join(key for key, _ in HEADERS) + ")"  # NULL: out
    with opened(archive) as a:
        total = a.count(f"SELECT count(*) FROM ({inner}) {where}")
        rows = a.execute(
            f"SELECT * FROM ({inner}) {where} ORDER BY {order}url LIMIT ? OFFSET ?",
            (limit, offset)
        ).fetchall()
    items = [{"url": r["url"], **{key: flag(r[key]) for key, _ in HEADERS}} for r in rows]
    return envelope(items, total, limit, offset)
