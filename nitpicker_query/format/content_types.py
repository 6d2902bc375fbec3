"""The 18 content-type categories: one rule table, a classifier and a SQL filter.

Both :func:`classify_content_type` (used by ``get_summary``) and
:func:`category_sql` (used by ``list_pages(content_type_category=…)``) derive from
:data:`RULES`, so "PDF: 3" in a summary is the same 3 rows a PDF filter lists
(docs/archive-format.md). Order is priority: the first rule that matches wins, which is
why ``image/svg+xml`` is ``image`` and ``text/calendar+xml`` is ``xml``.

Worked examples::

    text/html; charset=utf-8      → html
    application/xhtml+xml         → html
    image/svg+xml                 → image    (image/ prefix comes before +xml)
    text/x-foo+json               → json     (+json suffix comes before text/)
    application/octet-stream      → archive
    text/plain                    → text
    application/x-unknown         → other
    None, ""                      → unknown
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Rule:
    """One category: exact values, prefixes and suffixes, any of which matches."""

    category: str
    exact: tuple[str, ...] = ()
    prefix: tuple[str, ...] = field(default=())
    suffix: tuple[str, ...] = field(default=())

    def matches(self, mime: str) -> bool:
        return (
            mime in self.exact
            or any(mime.startswith(p) for p in self.prefix)
            or any(mime.endswith(s) for s in self.suffix)
        )


RULES: tuple[Rule, ...] = (
    Rule("html", exact=("text/html", "application/xhtml+xml")),
    Rule("pdf", exact=("application/pdf",)),
    Rule("csv", exact=("text/csv", "application/csv", "application/x-csv",
                       "text/tab-separated-values", "text/tsv")),
    Rule("word", exact=("application/msword", "application/vnd.openxmlformats-officedocument."
                        "wordprocessingml.document")),
    Rule("excel", exact=("application/vnd.ms-excel", "application/vnd.openxmlformats-"
                         "officedocument.spreadsheetml.sheet")),
    Rule("powerpoint", exact=("application/vnd.ms-powerpoint", "application/vnd.openxmlformats-"
                              "officedocument.presentationml.presentation")),
    Rule("image", prefix=("image/",)),
    Rule("audio", prefix=("audio/",)),
    Rule("video", prefix=("video/",)),
    Rule("font", exact=("application/vnd.ms-fontobject",), prefix=("font/", "application/font-")),
    Rule("css", exact=("text/css",)),
    Rule("javascript", exact=("text/javascript", "application/javascript",
                              "application/x-javascript", "application/ecmascript")),
    Rule("json", exact=("application/json", "application/yaml", "application/x-yaml",
                        "text/yaml", "text/x-yaml"), suffix=("+json", "+yaml")),
    Rule("xml", exact=("application/xml", "text/xml"), suffix=("+xml",)),
    Rule("archive", exact=("application/zip", "application/gzip", "application/x-gzip",
                           "application/x-tar", "application/x-7z-compressed",
                           "application/x-rar-compressed", "application/octet-stream")),
    Rule("text", prefix=("text/",)),
)

CATEGORIES: tuple[str, ...] = (*(r.category for r in RULES), "other", "unknown")
"""All 18 category names, in priority order."""


SUBRESOURCE_CATEGORIES = frozenset({"image", "audio", "video", "font", "css", "javascript"})
"""What a page *loads* (a sub-resource) rather than links to: a file of these found in the
site's inventory is a resource, and one no page loads is unused (``list_unused_resources``)."""


def normalize_content_type(raw: str | None) -> str | None:
    """Bare MIME: text before the first ``;``, trimmed, lower-cased; empty → None."""
    if raw is None:
        return None
    mime = str(raw).split(";", 1)[0].strip().lower()
    return mime or None


def classify_content_type(raw: str | None) -> str:
    """The category of a raw ``Content-Type`` value (see the module docstring)."""
    mime = normalize_content_type(raw)
    if mime is None:
        return "unknown"
    for rule in RULES:
        if rule.matches(mime):
            return rule.category
    return "other"


def _rule_sql(rule: Rule, column: str) -> tuple[str, list[str]]:
    parts: list[str] = []
    params: list[str] = []
    for value in rule.exact:
        parts.append(f"{column} = ?")
        params.append(value)
    for value in rule.prefix:
        parts.append(f"{column} LIKE ?")
        params.append(value + "%")
    for value in rule.suffix:
        parts.append(f"{column} LIKE ?")
        params.append("%" + value)
    return "(" + " OR ".join(parts) + ")", params


def category_sql(category: str, column: str = "contentType") -> tuple[str, list[str]]:
    """A WHERE fragment (and its parameters) selecting rows of ``category``.

    The category's matchers OR-ed, AND NOT each earlier rule, on the raw column: the SQL
    image of "first match wins". Like upstream it compares the stored value, which our
    writer keeps normalised (lower case, no parameters).
    """
    if category == "unknown":
        return f"({column} IS NULL OR {column} = '')", []
    if category not in CATEGORIES:
        raise ValueError(f"unknown content-type category {category!r}")
    clauses = [f"{column} IS NOT NULL", f"{column} != ''"]
    params: list[str] = []
    for rule in RULES:
        sql, rule_params = _rule_sql(rule, column)
        if rule.category == category:
            clauses.append(sql)
            params.extend(rule_params)
            break
        clauses.append(f"NOT {sql}")
        params.extend(rule_params)
    return "(" + " AND ".join(clauses) + ")", params
