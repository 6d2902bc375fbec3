"""The 18 categories: worked examples, and the classifier agreeing with the SQL filter."""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nitpicker_query.format.content_types import CATEGORIES, category_sql, classify_content_type

EXAMPLES = [
    ("text/html; charset=utf-8", "html"),
    ("application/xhtml+xml", "html"),        # listed under html, before +xml
    ("image/svg+xml", "image"),               # image/ prefix comes before +xml
    ("text/calendar+xml", "xml"),             # +xml suffix comes before text/
    ("text/x-foo+json", "json"),
    ("application/ld+json", "json"),
    ("text/yaml", "json"),
    ("application/pdf", "pdf"),
    ("text/tab-separated-values", "csv"),
    ("application/vnd.ms-excel", "excel"),
    ("font/woff2", "font"),
    ("application/font-woff", "font"),
    ("text/css", "css"),
    ("application/javascript", "javascript"),
    ("application/octet-stream", "archive"),
    ("text/plain", "text"),
    ("video/mp4", "video"),
    ("audio/ogg", "audio"),
    ("application/x-unknown", "other"),
    ("", "unknown"),
    (None, "unknown"),
]


@pytest.mark.parametrize(("mime", "category"), EXAMPLES)
def test_worked_examples(mime: str | None, category: str) -> None:
    assert classify_content_type(mime) == category


def test_there_are_18_categories() -> None:
    assert len(CATEGORIES) == 18 and len(set(CATEGORIES)) == 18


_KNOWN = [m for m, _ in EXAMPLES if m] + ["text/csv", "application/zip", "image/png",
                                          "application/xml", "text/javascript"]
_mimes = st.one_of(
    st.sampled_from(_KNOWN).map(lambda m: m.split(";")[0]),
    st.builds(lambda a, b, s: f"{a}/{b}{s}",
              st.sampled_from(["text", "image", "application", "font", "audio", "x"]),
              st.text(alphabet="abcdefghij-.", min_size=1, max_size=8),
              st.sampled_from(["", "+xml", "+json", "+yaml"])),
    st.none(), st.just(""),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_mimes, min_size=1, max_size=25))
def test_sql_filter_agrees_with_classifier(mimes: list[str | None]) -> None:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE pages (id INTEGER PRIMARY KEY, contentType TEXT)")
    conn.executemany("INSERT INTO pages (contentType) VALUES (?)", [(m,) for m in mimes])
    for category in CATEGORIES:
        sql, params = category_sql(category)
        got = sorted(r[0] for r in conn.execute(f"SELECT id FROM pages WHERE {sql}", params))
        want = [i + 1 for i, m in enumerate(mimes) if classify_content_type(m) == category]
        assert got == want, category
