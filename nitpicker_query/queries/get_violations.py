"""``get_violations``: what the analyze plugins found — ours (``nitpicker-crawl analyze``)
or upstream's (axe, markuplint, textlint)."""

from __future__ import annotations

from typing import Any

from ..archive.opening import Archive, opened
from .paging import check_choice, check_paging, envelope

SORTS = {"url": "p.url", "validator": "v.validator", "severity": "v.severity",
         "rule": "v.rule", "message": "m.text", "code": "c.text"}
"""Orders of the list (``sort_by``); ties by page URL then row id, in the same direction
for the URL and always ascending for the id, so paging is stable."""

JOINS = ("FROM analysis_violations v JOIN pages p ON p.id = v.page_id "
         "LEFT JOIN analysis_text_refs m ON m.id = v.message_text_id "
         "LEFT JOIN analysis_text_refs c ON c.id = v.code_text_id")
"""A finding with its page, message and code (both texts kept once in
``analysis_text_refs``)."""


def get_violations(archive: Archive | str, *, validator: str | None = None,
                   severity: str | None = None, rule: str | None = None,
                   url_pattern: str | None = None, url: str | None = None,
                   sort_by: str = "url",
                   sort_order: str = "asc", limit: int = 100,
                   offset: int = 0) -> dict[str, Any]:
    """Which problems did the analyze plugins report, on which pages?

    One ``analysis_violations`` row per finding (validator, severity, rule, message and
    code through ``analysis_text_refs``, and in later archives line and column), written
    by ``nitpicker-crawl analyze`` or by upstream's ``nitpicker analyze``. Filters match
    exactly, ``url_pattern`` as SQL LIKE on the page URL, ``url`` one page exactly (ours:
    a URL's ``%`` and ``_`` are LIKE wildcards). ``sort_by`` url, validator,
    severity, rule, message or code, ``sort_order`` asc or desc (upstream's options).
    Items: ``url, validator, severity, rule, message, code, line, col``. ``analysed``:
    what was looked at — per plugin the pages it analysed (``nitpicker-crawl analyze``'s
    marks), or per validator of an upstream archive its findings' pages (it keeps no
    marks) — so an empty list of an archive never analysed (``analysed`` empty, and a
    ``note`` saying so) does not read as a clean site; nor does a ``validator`` that
    never ran.

    Upstream: ``get-violations.ts``.
    """
    limit, offset = check_paging(limit, offset)
    check_choice("sort_by", sort_by, tuple(SORTS))
    check_choice("sort_order", sort_order, ("asc", "desc"))
    direction = "DESC" if sort_order == "desc" else "ASC"
    order = f"{SORTS[sort_by]} {direction}, p.url {direction}, v.id"
    with opened(archive) as a:
        analysed = _analysed(a)
        note = _not_analysed(analysed, validator)
        extra: dict[str, Any] = {"analysed": analysed, **({"note": note} if note else {})}
        if not (a.has_table("analysis_violations") and a.has_table("analysis_text_refs")):
            return envelope([], 0, limit, offset, **extra)
        where, params = ["1 = 1"], []
        for column, value in (("v.validator", validator), ("v.severity", severity),
                              ("v.rule", rule)):
            if value is not None:
                where.append(f"{column} = ?")
                params.append(value)
        if url_pattern is not None:
            where.append("p.url LIKE ?")
            params.append(url_pattern)
        if url is not None:
            where.append("p.url = ?")
            params.append(url)
        clause = " AND ".join(where)
        total = a.count(f"SELECT count(*) {JOINS} WHERE {clause}", params)
        position = a.select_list("analysis_violations", "v", ("line", "col"))
        rows = a.rows(f"SELECT p.url, v.validator, v.severity, v.rule, m.text, c.text, "
                      f"{position} {JOINS} WHERE {clause} ORDER BY {order} "
                      "LIMIT ? OFFSET ?", [*params, limit, offset])
    keys = ("url", "validator", "severity", "rule", "message", "code", "line", "col")
    return envelope([dict(zip(keys, r, strict=True)) for r in rows], total, limit, offset,
                    **extra)


def _analysed(a: Archive) -> dict[str, int]:
    """Plugin (or validator) → pages it analysed; empty when nothing was."""
    if a.has_table("analysis_pages"):
        found = dict(a.rows("SELECT plugin, count(*) FROM analysis_pages GROUP BY plugin "
                            "ORDER BY plugin"))
        if found:
            return {str(k): int(v) for k, v in found.items()}
    if a.has_table("analysis_violations"):
        return {str(k): int(v) for k, v in a.rows(
            "SELECT validator, count(DISTINCT page_id) FROM analysis_violations "
            "GROUP BY validator ORDER BY validator")}
    return {}


def _not_analysed(analysed: dict[str, int], validator: str | None) -> str | None:
    if not analysed:
        return ("this archive was never analysed: no findings is not a clean site "
                "(nitpicker-crawl analyze ARCHIVE runs the plugins)")
    if validator is not None and validator not in analysed:
        return (f"{validator} never ran on this archive (analysed: "
                f"{', '.join(analysed)}): no findings is not a clean site")
    return None
