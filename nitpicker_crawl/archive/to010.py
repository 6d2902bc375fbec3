"""A format-0.13 database rewritten as format 0.10.0 (``nitpicker-crawl convert --to 0.10``).

Read through the views our readers open 0.13 with (:mod:`nitpicker_query.format.v013`:
``pages``, ``anchors``, ``images``, ``resources``, ``resources-referrers``, ``page_tags``
with the 0.10 columns, as TEMP views over the attached 0.13 database), so a 0.13 value
means in the 0.10 archive exactly what every query already reads it as: an anchor pair
counted *n* times becomes *n* rows, headers a JSON object again, texts and URLs their
values. The new database is created with the 0.10 DDL
(:data:`nitpicker_query.format.v010.SCHEMA_DDL` and our tables) and filled by
``INSERT … SELECT`` from the views and from the tables both formats share, in one
transaction. Ids of pages, images and resources are kept.

What 0.10 has no place for is counted into the report: alias pointers (an alias row
is a page of its own, as in a 0.10 crawl), cap-event marks on rows other than refused
URLs, ``data:`` blobs, DOM paths, main-content and console tables, body hashes
(derivable from the HTML), and any table or column the views do not read.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from nitpicker_query import open_archive
from nitpicker_query.exceptions import NotAnArchive
from nitpicker_query.format import v013
from nitpicker_query.format.v010 import (
    BROWSER_OUTAGES_DDL,
    CONSOLE_LOGS_DDL,
    CRAWL_RUNS_DDL,
    DEDUPE_CAP_EVENTS_INDEX,
    FORMAT_VERSION,
    NETWORK_OUTAGES_DDL,
    PAGE_BODY_HASHES_DDL,
    PAGE_SIGNATURES_DDL,
    PAGE_TEMPLATE_TABLES,
    PAGE_TEMPLATES_DDL,
    SCHEMA_DDL,
    dedupe_cap_events_ddl,
)
from nitpicker_query.format.v013_schema import (
    CONTENT_ITEM_COLUMNS,
    MAIN_CONTENT_COLUMNS,
    MAIN_CONTENT_DDL_010,
    MAIN_CONTENT_TABLES,
    PAGE_META_PLAIN,
    PAGE_META_TEXTS,
    PAGE_META_URLS,
    UNKNOWN_DOM_PATH,
)

from .to013 import CountMismatch, Report

Say = Callable[[str], None]

SHARED_TABLES = ("page_jsonld", "page_errors", "crawl_errors", "page_html_blobs",
                 "page_html_ref", "dedupe_cap_events", "page_signatures", "crawl_runs",
                 "network_outages", "browser_outages",
                 *PAGE_TEMPLATE_TABLES, *MAIN_CONTENT_TABLES)
"""Tables with the same name and meaning in both formats, copied column for column."""

READ_013 = frozenset({
    "info", "content_items", "url_refs", "content_type_refs", "text_refs", "json_refs",
    "blob_refs", "page_meta", "header_sets", "header_set_entries", "header_name_refs",
    "header_value_refs", "header_flags", "anchor_edges", "resource_items",
    "resource_ref_edges", "image_items", "page_technologies", "technology_signals",
    "page_tags", "list_reconcile_runs", "inventory_runs", "analysis_violations",
    "analysis_text_refs", "sqlite_sequence", "console_log_items", "page_console_logs",
    *SHARED_TABLES})
"""The 0.13 tables whose rows reach the 0.10 archive (through the views or as they are);
rows of any other table are listed as not carried over."""

ANALYSIS_TABLES = ("analysis_text_refs", "analysis_violations")
"""0.16–0.18-era tables our 0.10 readers also read (``violations``): kept, their foreign
keys pointed back at ``pages``."""


def convert(source_dir: Path, output_db: Path, *, name: str, version: str,
            say: Say = lambda _line: None) -> Report:
    """Write ``output_db`` (format 0.10.0) from the format-0.13 database in ``source_dir``.

    The source is checked as the readers check it (:func:`nitpicker_query.open_archive`:
    a view or a virtual table where a 0.13 table belongs is refused) and then attached
    read-only. Raises :class:`sqlite3.Error` or
    :class:`~nitpicker_query.exceptions.NitpickerError` on a database that cannot be read.
    """
    with open_archive(source_dir) as a:
        if getattr(a, "format", "0.10") != "0.13":
            raise NotAnArchive(f"not a format-0.13 database: {source_dir.name}")
    report = Report(version=version)
    conn = sqlite3.connect(output_db, isolation_level=None, uri=True)
    try:
        conn.execute("PRAGMA page_size = 16384")
        conn.execute("PRAGMA journal_mode = OFF")
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute("PRAGMA cache_size = -131072")
        uri = (source_dir / "db.sqlite").absolute().as_uri() + "?mode=ro"
        conn.execute("ATTACH DATABASE ? AS src", (uri,))
        conn.execute("BEGIN")
        for statement in (*SCHEMA_DDL, dedupe_cap_events_ddl(), DEDUPE_CAP_EVENTS_INDEX,
                          *PAGE_SIGNATURES_DDL, *PAGE_BODY_HASHES_DDL, CRAWL_RUNS_DDL,
                          NETWORK_OUTAGES_DDL, BROWSER_OUTAGES_DDL, *CONSOLE_LOGS_DDL,
                          *MAIN_CONTENT_DDL_010):
            conn.execute(statement)
        source_tables = {r[0] for r in conn.execute("SELECT name FROM src.sqlite_master")}
        if "page_templates" in source_tables:  # stored templates (absent means not computed)
            for statement in PAGE_TEMPLATES_DDL:
                conn.execute(statement)
        b = _Build(conn, report, say)
        views = v013.present(conn, frozenset(b.src_tables))
        b.info(name)
        b.pages()
        b.links_and_files(views)
        b.shared()
        b.leftovers()
        b.check()
        conn.execute("COMMIT")
        conn.execute("DETACH DATABASE src")
        conn.execute("PRAGMA main.journal_mode = WAL")  # as our writer leaves its archives
    finally:
        conn.close()
    return report


class _Build:
    """One conversion: the new 0.10 database ``conn`` (main), the 0.13 one attached as
    ``src``, and the 0.10-shaped views over it in ``temp``."""

    def __init__(self, conn: sqlite3.Connection, report: Report, say: Say) -> None:
        self.conn = conn
        self.report = report
        self.say = say
        self.src_tables = {str(r[0]) for r in conn.execute(
            "SELECT name FROM src.sqlite_master WHERE type = 'table'")}

    def cols(self, schema: str, table: str) -> list[str]:
        return [str(r[1]) for r in self.conn.execute(f'PRAGMA {schema}.table_info("{table}")')]

    def scalar(self, sql: str, args: Sequence[Any] = ()) -> int:
        row = self.conn.execute(sql, args).fetchone()
        return int(row[0] or 0) if row else 0

    def copy(self, source: str, target: str, *, exprs: dict[str, str] | None = None,
             where: str = "", order: str = "") -> int:
        """``INSERT INTO main.target SELECT`` the columns both have (``exprs`` replace a
        column's value by an expression over the source row ``s``)."""
        schema, _, table = source.partition(".")
        have = set(self.cols(schema, table.strip('"')))
        exprs = exprs or {}
        names = [c for c in self.cols("main", target) if c in have or c in exprs]
        values = ", ".join(exprs.get(c, f's."{c}"') for c in names)
        quoted = ", ".join(f'"{c}"' for c in names)
        sql = (f'INSERT INTO main."{target}" ({quoted}) SELECT {values} FROM {source} s '
               f"{where} {order}")
        return self.conn.execute(sql).rowcount

    def note(self, text: str) -> None:
        self.report.notes.append(text)

    def info(self, name: str) -> None:
        """``info``: the crawl's settings; version and name are the new archive's."""
        self.copy("src.info", "info", exprs={"id": "1", "version": f"'{FORMAT_VERSION}'",
                                              "name": _literal(name)},
                  order="ORDER BY s.id LIMIT 1")
        kept = set(self.cols("main", "info"))
        for column in self.cols("src", "info"):
            if column in kept:
                continue
            n = self.scalar(f'SELECT count(*) FROM src.info WHERE "{column}" IS NOT NULL AND '
                            f"\"{column}\" NOT IN ('', '[]', '{{}}')")
            if n:
                self.note(f"info.{column} has no column in format 0.10: not carried over")

    def pages(self) -> None:
        """``pages`` from the view; a refused URL's cap event back in ``meta_extras``."""
        self.say("pages…")
        extras = "coalesce(s.meta_extras, '{}')"
        self.copy("temp.pages", "pages", order="ORDER BY s.id", exprs={"meta_extras": (
            f"CASE WHEN s.dedupeCapEventId IS NOT NULL AND s.skipReason = 'dedupe-cap' AND "
            f"json_valid({extras}) AND json_extract({extras}, '$.capEvent') IS NULL THEN "
            f"json_set({extras}, '$.capEvent', s.dedupeCapEventId) ELSE s.meta_extras END")})
        ci = set(self.cols("src", "content_items"))
        if "alias_of_id" in ci:
            n = self.scalar("SELECT count(*) FROM src.content_items WHERE alias_of_id IS NOT "
                            "NULL AND redirect_dest_id IS NULL")
            if n:
                self.note(f"{n} alias row(s) (content_items.alias_of_id: the same document "
                          "under another URL) are pages of their own, as a 0.10 crawl stores "
                          "them: the page they duplicate is not carried over")
        if "dedupe_cap_event_id" in ci:
            n = self.scalar("SELECT count(*) FROM src.content_items WHERE dedupe_cap_event_id "
                            "IS NOT NULL AND coalesce(skip_reason, '') != 'dedupe-cap'")
            if n:
                self.note(f"{n} row(s) marked with a cap event (content_items."
                          "dedupe_cap_event_id) that are not refused URLs: format 0.10 marks "
                          "only those (meta_extras.capEvent)")
        read = {*(new for _, new in CONTENT_ITEM_COLUMNS), "url_id", "content_type_id",
                "header_set_id", "alias_of_id", "dedupe_cap_event_id", "is_metadata_only"}
        self._unread("content_items", read)
        read = {"page_id", *(n for _, n in PAGE_META_PLAIN), *(n for _, n in PAGE_META_TEXTS),
                *(n for _, n in PAGE_META_URLS), "meta_extras_json_id"}
        if "body_hash" in self.cols("src", "page_meta"):  # our page_body_hashes
            self.conn.execute("INSERT INTO main.page_body_hashes (page_id, body_hash) "
                              "SELECT page_id, body_hash FROM src.page_meta "
                              "WHERE body_hash IS NOT NULL ORDER BY page_id")
        main = [c for c, _ in MAIN_CONTENT_COLUMNS if c in self.cols("src", "page_meta")]
        if "main_content_word_count" in main:   # our page_main_contents, the same columns
            names = ", ".join(f'"{c}"' for c in main)
            self.conn.execute(f"INSERT INTO main.page_main_contents (page_id, {names}) "
                              f"SELECT page_id, {names} FROM src.page_meta WHERE "
                              "main_content_word_count IS NOT NULL ORDER BY page_id")
        self._unread("page_meta", read | {"body_hash", *main})

    def links_and_files(self, views: frozenset[str]) -> None:
        """``anchors``, ``images``, ``resources``, referrers and ``page_tags``."""
        self.say("links…")
        if "anchors" in views:
            self.copy("temp.anchors", "anchors", exprs={"id": "NULL"}, order="ORDER BY s.id")
            over = self.scalar(f"SELECT coalesce(sum(count - {v013.MAX_ANCHOR_INSTANCES}), "
                               f"0) FROM src.anchor_edges WHERE count > "
                               f"{v013.MAX_ANCHOR_INSTANCES}")
            if over:
                self.note(f"{over} link instance(s) past {v013.MAX_ANCHOR_INSTANCES} of "
                          "one pair (anchor_edges.count): not carried over")
        if "images" in views:
            self.say("images…")
            self.copy("temp.images", "images", order="ORDER BY s.id", exprs={
                c: f"coalesce(s.{c}, 0)" for c in ("width", "height", "naturalWidth",
                                                    "naturalHeight", "viewportWidth")})
            blobs = self.scalar("SELECT count(*) FROM src.image_items WHERE src_blob_id IS NOT "
                                "NULL OR current_src_blob_id IS NOT NULL")
            if blobs:
                self.note(f"{blobs} image(s) whose src is a data: URI kept in blob_refs: src "
                          "not carried over")
            paths = self.scalar("SELECT count(*) FROM src.image_items ii JOIN src.text_refs t "
                                "ON t.id = ii.dom_path_text_id WHERE t.text != ? AND t.text "
                                "NOT LIKE 'unknown/%'", (UNKNOWN_DOM_PATH,))
            if paths:
                self.note(f"{paths} image DOM path(s) (image_items.dom_path_text_id) have no "
                          "column in format 0.10: not carried over")
        if "resources" in views:
            self.copy("temp.resources", "resources", order="ORDER BY s.id")
            blobs = self.scalar("SELECT count(*) FROM src.resource_items WHERE url_id IS NULL")
            if blobs:
                self.note(f"{blobs} resource(s) whose URL is a data: URI kept in blob_refs: "
                          "not carried over")
        if "resources-referrers" in views:
            self.copy('temp."resources-referrers"', "resources-referrers",
                      exprs={"id": "NULL"}, where="WHERE s.resourceId IN (SELECT id FROM "
                      "main.resources)")
            repeats = self.scalar("SELECT coalesce(sum(count - 1), 0) FROM "
                                  "src.resource_ref_edges WHERE count > 1")
            if repeats:
                self.report.moved.append(f"resource_ref_edges.count: {repeats} repeat(s) of a "
                                         "(resource, page) pair, one row each in format 0.10")
        if "page_tags" in self.src_tables:
            self.copy("src.page_tags", "page_tags", order="ORDER BY s.id")
        elif "page_tags" in views:
            # new ids: the view numbers a technology of upstream's crawler negatively
            self.copy("temp.page_tags", "page_tags", exprs={"id": "NULL"},
                      order="ORDER BY s.pageId, abs(s.id)")
            self.report.moved.append(
                "technologies (page_technologies, technology_signals) → page_tags as the "
                "readers read them: a tag row our converter wrote comes back whole, a "
                "technology of upstream's crawler is one row without a container id")

    def shared(self) -> None:
        """The tables both formats have, and the 0.13 names of ours."""
        for table in SHARED_TABLES:
            if table in self.src_tables:
                if table == "dedupe_cap_events":
                    # upstream's own events lack our columns; 0.10 says NOT NULL
                    have = self.cols("src", table)
                    exprs: dict[str, str] = {
                        c: f"coalesce(s.{c}, '')" if c in have else "''"
                        for c in ("signature", "parent_path")}
                    n = self.copy(f"src.{table}", table, exprs=exprs)
                else:
                    n = self.copy(f"src.{table}", table)
                if n and table not in ("page_html_blobs", "page_html_ref"):
                    self.report.counts[table] = n
                self._unread(table, set(self.cols("main", table)))
        if {"console_log_items", "page_console_logs"} <= self.src_tables:
            cols = set(self.cols("src", "console_log_items"))

            def ref(table: str, column: str, key: str) -> str:
                return (f"(SELECT {column} FROM src.{table} WHERE id = s.{key})"
                        if key in cols else "NULL")
            self.conn.execute(
                "INSERT INTO console_log_items (id, hash, type, text, loc_url, loc_line, "
                "loc_column, stack) SELECT s.id, s.hash, s.type, "
                f"{ref('text_refs', 'text', 'text_id')}, "
                f"{ref('url_refs', 'url', 'loc_url_id')}, s.loc_line, s.loc_column, "
                f"{ref('text_refs', 'text', 'stack_text_id')} "
                "FROM src.console_log_items s ORDER BY s.id")
            n = self.copy("src.page_console_logs", "page_console_logs")
            if n:
                self.report.counts["page_console_logs"] = n
        runs = "list_reconcile_runs" if "list_reconcile_runs" in self.src_tables else (
            "inventory_runs" if "inventory_runs" in self.src_tables else None)
        if runs is not None:
            self.copy(f"src.{runs}", "inventory_runs", order="ORDER BY s.id")
            self._unread(runs, set(self.cols("main", "inventory_runs")))
        for table in ANALYSIS_TABLES:
            if table not in self.src_tables:
                continue
            for (sql,) in self.conn.execute(
                    "SELECT sql FROM src.sqlite_master WHERE tbl_name = ? AND sql IS NOT NULL "
                    "ORDER BY type DESC", (table,)).fetchall():
                self.conn.execute(str(sql).replace("content_items", "pages"))
            self.copy(f"src.{table}", table)

    def leftovers(self) -> None:
        """Every other 0.13 table with rows is listed (console logs, main content …)."""
        for table in sorted(self.src_tables - READ_013):
            n = self.scalar(f'SELECT count(*) FROM src."{table}"')
            if n:
                self.note(f"table {table} ({n} rows) has no place in format 0.10: not "
                          "carried over")

    def _unread(self, table: str, read: set[str]) -> None:
        for column in self.cols("src", table):
            if column in read:
                continue
            n = self.scalar(f'SELECT count(*) FROM src."{table}" WHERE "{column}" IS NOT NULL')
            if n:
                self.note(f"{table}.{column} ({n} values) has no column in format 0.10: not "
                          "carried over")

    def check(self) -> None:
        """Every row of the 0.13 tables the views read is in the 0.10 archive."""
        checks = [("content_items", "pages", "SELECT count(*) FROM src.content_items",
                   "SELECT count(*) FROM main.pages")]
        if "anchor_edges" in self.src_tables:
            checks.append(("anchor_edges", "anchors",
                           f"SELECT coalesce(sum(min(count, {v013.MAX_ANCHOR_INSTANCES})), "
                           "0) FROM src.anchor_edges", "SELECT count(*) FROM main.anchors"))
        if "image_items" in self.src_tables:
            checks.append(("image_items", "images", "SELECT count(*) FROM src.image_items",
                           "SELECT count(*) FROM main.images"))
        if "resource_items" in self.src_tables:
            checks.append(("resource_items", "resources", "SELECT count(*) FROM "
                           "src.resource_items WHERE url_id IS NOT NULL",
                           "SELECT count(*) FROM main.resources"))
        for source, target, before_sql, after_sql in checks:
            before, after = self.scalar(before_sql), self.scalar(after_sql)
            if before != after:
                raise CountMismatch(f"{source}: {before} rows in the 0.13 archive but {after} "
                                    f"written to {target}")
            self.report.counts[target] = after


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"
