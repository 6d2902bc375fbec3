"""``get_violations``: what the analyze plugins found — ours (``nitpicker-crawl analyze``)
or upstream's (axe, markuplint, textlint)."""

from __future__ import annotations

from typing import Any

from ..archive import Archive, opened
from ..paging import check_choice, check_paging, envelope

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
    Items: ``url, validator, severity, rule, message, code, line, col``. An archive that
    was never analysed answers an empty list.

    Upstream: ``get-violations.ts``.
    """
    limit, offset = check_paging(limit, offset)
    check_choice("sort_by", sort_by, tuple(SORTS))
    check_choice("sort_order", sort_order, ("asc", "desc"))
    direction = "DESC" if sort_order == "desc" else "ASC"
    order = f"{SORTS[sort_by]} {direction}, p.url {direction}, v.id"
    with opened(archive) as a:
        if not (a.has_table("analysis_violations") and a.has_table("analysis_text_refs")):
            return envelope([], 0, limit, offset)
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
    return envelope([dict(zip(keys, r, strict=True)) for r in rows], total, limit, offset)
