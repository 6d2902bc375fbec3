"""``get_violations``: what upstream's analyze plugins (axe, markuplint, textlint) found."""

from __future__ import annotations

from typing import Any

from ..archive import Archive, opened
from ..paging import check_choice, check_paging, envelope

SORTS = {"url": "p.url, v.id", "validator": "v.validator, p.url, v.id",
         "severity": "v.severity, p.url, v.id", "rule": "v.rule, p.url, v.id"}
"""Orders of the list; every one ends in the page URL and the row id, so pages are stable."""


def get_violations(archive: Archive | str, *, validator: str | None = None,
                   severity: str | None = None, rule: str | None = None,
                   url_pattern: str | None = None, sort: str = "url", limit: int = 100,
                   offset: int = 0) -> dict[str, Any]:
    """Which problems did the analyze plugins report, on which pages?

    Upstream's ``nitpicker analyze`` stores one ``analysis_violations`` row per finding
    (validator, severity, rule, message and code through ``analysis_text_refs``, and in
    later archives line and column). Filters match exactly, ``url_pattern`` as SQL LIKE
    on the page URL. Items: ``url, validator, severity, rule, message, code, line,
    col``. An archive that was never analysed answers an empty list.

    Upstream: ``get-violations.ts``.
    """
    limit, offset = check_paging(limit, offset)
    check_choice("sort", sort, tuple(SORTS))
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
        clause = " AND ".join(where)
        joins = ("FROM analysis_violations v JOIN pages p ON p.id = v.page_id "
                 "LEFT JOIN analysis_text_refs m ON m.id = v.message_text_id "
                 "LEFT JOIN analysis_text_refs c ON c.id = v.code_text_id")
        total = a.count(f"SELECT count(*) {joins} WHERE {clause}", params)
        position = a.select_list("analysis_violations", "v", ("line", "col"))
        rows = a.rows(f"SELECT p.url, v.validator, v.severity, v.rule, m.text, c.text, "
                      f"{position} {joins} WHERE {clause} ORDER BY {SORTS[sort]} "
                      "LIMIT ? OFFSET ?", [*params, limit, offset])
    keys = ("url", "validator", "severity", "rule", "message", "code", "line", "col")
    return envelope([dict(zip(keys, r, strict=True)) for r in rows], total, limit, offset)
