"""Version rule and the DDL our writer creates."""

from __future__ import annotations

import sqlite3

import pytest

from nitpicker_query.format.v010 import SCHEMA_DDL, parse_version


@pytest.mark.parametrize(
    ("text", "expected"),
    [("0.10.0", (0, 10, 0)), ("0.10", (0, 10, 0)), ("0.10.0-alpha.1", (0, 10, 0)),
     ("1.2.3+build", (1, 2, 3)), ("0.9.x", (0, 9, 0)), ("garbage", (0, 0, 0))],
)
def test_parse_version(text: str, expected: tuple[int, int, int]) -> None:
    assert parse_version(text) == expected


def test_numeric_not_string_comparison() -> None:
    assert parse_version("0.9.0") < parse_version("0.10.0") < parse_version("0.13.0")


def test_ddl_builds_the_0_10_tables_with_knex_names() -> None:
    conn = sqlite3.connect(":memory:")
    for statement in SCHEMA_DDL:
        conn.execute(statement)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"info", "pages", "anchors", "images", "resources", "resources-referrers",
            "page_errors", "crawl_errors", "page_tags", "page_jsonld", "page_html_blobs",
            "page_html_ref", "inventory_runs"} <= tables
    indexes = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='index'")}
    assert {"pages_url_unique", "resources_referrers_resourceid_pageid_unique",
            "anchors_hrefid_index", "idx_pages_listfilter"} <= indexes
    pages = [r[1] for r in conn.execute("PRAGMA table_info(pages)")]
    assert pages[:4] == ["id", "url", "redirectDestId", "scraped"]
    assert pages[-5:] == ["meta_extras", "isSkipped", "skipReason", "order", "source"]
    # 11 base columns + 45 flat meta columns + 10 bookkeeping columns
    assert len(pages) == 66
