"""The analyze tables: upstream's ``analysis_violations``/``analysis_text_refs`` and our
``analysis_pages`` (which page each plugin is done with, for resuming).

The two upstream tables have upstream's DDL and indexes (format 0.13's, read the same in
0.10 archives by ``get_violations``): a message or a code is stored once in
``analysis_text_refs`` (unique by SHA-256 and text) and each finding points at it; the
``*_sort_key`` columns are the URL, message and code verbatim, as upstream writes them.

``analysis_pages`` is ours (docs/archive-format.md): one row per (plugin, page) done,
with the plugin's identity (tool version and options) and the number of findings. It is
written in the same transaction as the page's findings, so a page is either done with
all its findings stored or not done at all — whatever kills the run.
"""

from __future__ import annotations

import hashlib
import sqlite3
import time
from collections import OrderedDict
from collections.abc import Iterable, Iterator

from nitpicker_query.archive.html_codec import decode_html
from nitpicker_query.format.v010 import strict_page

from .plugin import Finding, Page

DDL = (
    "CREATE TABLE IF NOT EXISTS analysis_text_refs (id integer primary key, "
    "text text not null, sha256 text not null, unique(sha256, text))",
    "CREATE TABLE IF NOT EXISTS analysis_violations (id integer primary key, "
    "page_id integer not null references pages(id), validator text not null, "
    "severity text not null, rule text not null, "
    "message_text_id integer not null references analysis_text_refs(id), "
    "code_text_id integer references analysis_text_refs(id), "
    "page_url_sort_key text not null, message_sort_key text not null, "
    "code_sort_key text not null, line integer, col integer)",
    "CREATE INDEX IF NOT EXISTS av_url_order ON analysis_violations(page_url_sort_key, id)",
    "CREATE INDEX IF NOT EXISTS av_filter_url ON analysis_violations(validator, severity, "
    "rule, page_url_sort_key, id)",
    "CREATE INDEX IF NOT EXISTS av_validator_url ON analysis_violations(validator, "
    "page_url_sort_key, id)",
    "CREATE INDEX IF NOT EXISTS av_severity_url ON analysis_violations(severity, "
    "page_url_sort_key, id)",
    "CREATE INDEX IF NOT EXISTS av_rule_url ON analysis_violations(rule, page_url_sort_key, id)",
    "CREATE INDEX IF NOT EXISTS av_message_order ON analysis_violations(message_sort_key, id)",
    "CREATE INDEX IF NOT EXISTS av_code_order ON analysis_violations(code_sort_key, id)",
    "CREATE INDEX IF NOT EXISTS av_page ON analysis_violations(page_id, id)",
    "CREATE TABLE IF NOT EXISTS analysis_pages (plugin text not null, "
    "page_id integer not null, identity text not null, findings integer not null, "
    "analysed_at integer not null, primary key (plugin, page_id)) WITHOUT ROWID",
)

TEXT_CACHE = 20_000
"""Texts whose id is remembered between findings (messages repeat across pages; codes
mostly do not): a bounded map, the unique index answers the rest."""

MAX_TEXT = 10_000
"""Characters kept of a message or a code: a page's markup can be megabytes long, and
one finding must not cost more than its page."""


def create(conn: sqlite3.Connection) -> None:
    with conn:
        for statement in DDL:
            conn.execute(statement)


class Store:
    """Writes one plugin's findings into an open archive database."""

    def __init__(self, conn: sqlite3.Connection, plugin: str, identity: str) -> None:
        self.conn = conn
        self.plugin = plugin
        self.identity = identity
        self._texts: OrderedDict[str, int] = OrderedDict()
        create(conn)

    # ---------------------------------------------------------------- reading

    def counts(self) -> tuple[int, int]:
        """(pages to analyse in all, of which already done under this identity)."""
        where = strict_page("p")
        total = self.conn.execute(
            f"SELECT count(*) FROM pages p JOIN page_html_ref r ON r.page_id = p.id "
            f"WHERE {where}").fetchone()[0]
        done = self.conn.execute(
            f"SELECT count(*) FROM analysis_pages a JOIN pages p ON p.id = a.page_id "
            f"JOIN page_html_ref r ON r.page_id = p.id "
            f"WHERE a.plugin = ? AND a.identity = ? AND {where}",
            (self.plugin, self.identity)).fetchone()[0]
        return int(total), int(done)

    def pending(self, batch: int) -> Iterator[list[Page]]:
        """Pages not yet done under this identity, ``batch`` at a time, in id order.

        Keyset paging (``id > last``): each batch is a fresh statement, so nothing stays
        open across the writes between batches, and memory holds one batch of HTML.
        """
        last = 0
        while True:
            rows = self.conn.execute(
                f"SELECT p.id, p.url, b.body, b.codec FROM pages p "
                f"JOIN page_html_ref r ON r.page_id = p.id "
                f"JOIN page_html_blobs b ON b.hash = r.hash "
                f"LEFT JOIN analysis_pages a ON a.plugin = ? AND a.page_id = p.id "
                f"WHERE {strict_page('p')} AND p.id > ? "
                f"AND (a.identity IS NULL OR a.identity <> ?) ORDER BY p.id LIMIT ?",
                (self.plugin, last, self.identity, batch)).fetchall()
            if not rows:
                return
            last = rows[-1][0]
            pages = []
            for page_id, url, body, codec in rows:
                html, _complete = decode_html(body, codec)  # a bomb is cut, not expanded
                pages.append(Page(int(page_id), str(url), html))
            yield pages

    # ---------------------------------------------------------------- writing

    def forget(self) -> None:
        """``--force``: this plugin's findings and done-marks go, so every page is redone."""
        with self.conn:
            self.conn.execute("DELETE FROM analysis_violations WHERE validator = ?",
                              (self.plugin,))
            self.conn.execute("DELETE FROM analysis_pages WHERE plugin = ?", (self.plugin,))

    def _text(self, text: str) -> int:
        known = self._texts.get(text)
        if known is not None:
            self._texts.move_to_end(text)
            return known
        digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        self.conn.execute("INSERT OR IGNORE INTO analysis_text_refs (text, sha256) "
                          "VALUES (?, ?)", (text, digest))
        found = self.conn.execute("SELECT id FROM analysis_text_refs WHERE sha256 = ? "
                                  "AND text = ?", (digest, text)).fetchone()[0]
        self._texts[text] = int(found)
        if len(self._texts) > TEXT_CACHE:
            self._texts.popitem(last=False)
        return int(found)

    def save(self, done: Iterable[tuple[Page, list[Finding]]]) -> int:
        """Store the findings of pages done, replacing what this plugin found on them
        before, and mark them done — one transaction. Returns the findings stored."""
        stored = 0
        now = int(time.time() * 1000)
        with self.conn:
            for page, findings in done:
                self.conn.execute("DELETE FROM analysis_violations WHERE page_id = ? "
                                  "AND validator = ?", (page.id, self.plugin))
                for f in findings:
                    message = clip(f.message)
                    code = clip(f.code or "")
                    self.conn.execute(
                        "INSERT INTO analysis_violations (page_id, validator, severity, rule, "
                        "message_text_id, code_text_id, page_url_sort_key, message_sort_key, "
                        "code_sort_key, line, col) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (page.id, self.plugin, f.severity, clip(f.rule, 200),
                         self._text(message), self._text(code) if code else None,
                         page.url, message, code, f.line, f.col))
                stored += len(findings)
                self.conn.execute(
                    "INSERT OR REPLACE INTO analysis_pages (plugin, page_id, identity, "
                    "findings, analysed_at) VALUES (?, ?, ?, ?, ?)",
                    (self.plugin, page.id, self.identity, len(findings), now))
        return stored


def clip(text: str, limit: int = MAX_TEXT) -> str:
    """``text`` cut to ``limit`` characters, with an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
