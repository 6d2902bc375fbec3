"""A format-0.10 database rewritten as format 0.13.0 (``nitpicker-crawl convert --to 0.13``).

The new database is built by bulk SQL inside it: the 0.10 file is attached read-only as
``src`` and each 0.13 table is filled by one ``INSERT … SELECT``, in one transaction with
the journal off (a failed build is thrown away whole, never reused). Python runs only
where a value must be computed (:mod:`nitpicker_crawl.archive.refs013`): URL decomposition,
hashes, header sets, zstd payloads and the body hash of each stored HTML document,
each once per distinct value; temporary lookup tables map a 0.10 value to its new id.

Ids are kept: ``content_items.id`` = ``pages.id``, ``image_items.id`` = ``images.id``,
``resource_items.id`` = ``resources.id``; every table that pointed at a page still does.
What 0.13 cannot hold (anchor instances past the first of a pair, image ``sourceCode``,
long ``data:`` URIs as meta URLs …) is counted into the report, never dropped silently.
The mapping is docs/archive-format.md, "Format 0.13 as we write it".
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from nitpicker_query.archive.html_codec import DECODE_LIMIT
from nitpicker_query.format.v013_schema import (
    CONTENT_ITEM_COLUMNS,
    FORMAT_VERSION,
    IMAGE_COLUMNS,
    MAIN_CONTENT_COLUMNS,
    MAIN_CONTENT_TABLES,
    PAGE_META_PLAIN,
    PAGE_META_TEXTS,
    PAGE_META_URLS,
    PAGE_SIZE,
    RESOURCE_COLUMNS,
    UNKNOWN_DOM_PATH,
    WRITER_DDL,
)
from nitpicker_query.keys.page_keys import shape_key

from ..traps import capmarks
from . import refs013, to013_work

BATCH = 5000
"""Rows per ``executemany`` when Python computes the values."""

Say = Callable[[str], None]

_HTML_TYPES = to013_work.HTML_TYPES
_HREF_INDEX = "idx_anchor_edges_href"


def _quoted(column: str) -> str:
    return '"' + column.replace('"', '""') + '"'


def _long_data(expr: str) -> str:
    """SQL: ``expr`` is a ``data:`` URI too long for ``url_refs``
    (:func:`nitpicker_crawl.archive.refs013.is_blob_url`)."""
    return (f"(length({expr}) > {refs013.DATA_URI_URL_REFS_LIMIT} AND "
            f"lower(substr({expr}, 1, 5)) = 'data:')")

_DEFAULTED = frozenset({"robots_noindex", "robots_nofollow", "robots_noarchive",
                        "robots_noimageindex", "formatDetection_telephone", "tag_count",
                        "jsonld_count", "tags_providers_csv"})
"""Meta columns the writer fills with a default (0, ``''``) on every row: not a sign
that a redirect source or a skipped URL carries meta."""


@dataclass
class Report:
    """What a conversion did and what it could not carry over (printed on stderr)."""

    version: str = ""
    counts: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)   # not carried over
    moved: list[str] = field(default_factory=list)   # carried over in another form


class _Build:
    """One conversion: the new database ``conn`` with the 0.10 one attached as ``src``."""

    def __init__(self, conn: sqlite3.Connection, report: Report, say: Say) -> None:
        self.conn = conn
        self.report = report
        self.say = say
        self.src_tables = {str(r[0]) for r in conn.execute(
            "SELECT name FROM src.sqlite_master WHERE type = 'table'")}
        self._columns: dict[str, list[str]] = {}

    # ------------------------------------------------------------------ helpers

    def cols(self, table: str) -> list[str]:
        """The columns ``src.<table>`` has (none when it is absent)."""
        if table not in self._columns:
            self._columns[table] = [str(r[1]) for r in self.conn.execute(
                f'PRAGMA src.table_info("{table}")')] if table in self.src_tables else []
        return self._columns[table]

    def col(self, table: str, column: str, alias: str) -> str:
        """``alias."column"`` when the 0.10 table has it, else NULL (older 0.10 builds
        lack a few meta columns)."""
        return f'{alias}."{column}"' if column in self.cols(table) else "NULL"

    def scalar(self, sql: str, args: Sequence[Any] = ()) -> int:
        row = self.conn.execute(sql, args).fetchone()
        return int(row[0] or 0) if row else 0

    def run(self, sql: str, args: Sequence[Any] = ()) -> None:
        self.conn.execute(sql, args)

    def copy(self, table: str, target: str, pairs: Iterable[tuple[str, str]],
             order: str = "rowid") -> int:
        """``INSERT INTO target SELECT`` the columns both have, in ``order``."""
        if table not in self.src_tables:
            return 0
        have = set(self.cols(table))
        shared = [(old, new) for old, new in pairs if old in have]
        names = ", ".join(f'"{new}"' for _, new in shared)
        values = ", ".join(f's."{old}"' for old, _ in shared)
        cur = self.conn.execute(f'INSERT INTO "{target}" ({names}) SELECT {values} '
                                f'FROM src."{table}" s ORDER BY s.{order}')
        return cur.rowcount

    def unmapped(self, table: str, known: Iterable[str]) -> None:
        """Columns of ``src.<table>`` with values and no place in 0.13: listed."""
        known = set(known)
        for column in self.cols(table):
            if column in known:
                continue
            n = self.scalar(f'SELECT count(*) FROM src."{table}" WHERE "{column}" IS NOT '
                            f"NULL AND \"{column}\" != ''")
            if n:
                self.report.notes.append(f"{table}.{column} ({n} values) has no column in "
                                         "format 0.13: not carried over")

    # ------------------------------------------------------------------ steps

    def info(self, name: str) -> None:
        """``info``: the crawl's settings as they were; version and name are the new
        archive's."""
        new = [str(r[1]) for r in self.conn.execute("PRAGMA main.table_info(info)")]
        shared = [c for c in self.cols("info") if c in new and c not in ("id", "version",
                                                                          "name")]
        names = ", ".join(f'"{c}"' for c in shared)
        self.run(f"INSERT INTO info (id, version, name{', ' if shared else ''}{names}) "
                 f"SELECT 1, ?, ?{', ' if shared else ''}{names} FROM src.info "
                 "ORDER BY id LIMIT 1", (FORMAT_VERSION, name))
        self.unmapped("info", [*new, "id"])

    def meta_where(self) -> str:
        """Which ``pages`` rows (alias ``p``) get a ``page_meta`` row: every fetched row
        that is not a redirect source or a skipped URL (upstream's insertPage), plus those
        that carry meta anyway — ``meta_extras`` (``redirectTo`` of a hop, ``capEvent`` of
        a refused URL) or a meta value — which 0.13 has no other place for."""
        carried = [f"coalesce({self.col('pages', old, 'p')}, '') != ''"
                   for old, _ in (*PAGE_META_TEXTS, *PAGE_META_URLS, *PAGE_META_PLAIN)
                   if old not in _DEFAULTED]
        extras = self.col("pages", "meta_extras", "p")
        carried.append(f"coalesce({extras}, '') NOT IN ('', '{{}}')")
        return (f"p.scraped = 1 AND ((p.redirectDestId IS NULL AND coalesce(p.isSkipped, 0) "
                f"= 0) OR {' OR '.join(carried)})")

    def url_sources(self) -> list[str]:
        """The statements selecting (as ``v``) every URL ``url_refs`` holds: pages, their
        meta URLs, image and resource URLs — not the long ``data:`` URIs (``blob_refs``
        takes those of images and resources; a meta URL has no place for one)."""
        sources = ["SELECT url AS v FROM src.pages"]
        sources += [f'SELECT p."{old}" AS v FROM src.pages p WHERE {self.meta_where()} '
                    f'AND NOT {_long_data(f"p.{_quoted(old)}")}'
                    for old, _ in PAGE_META_URLS if old in self.cols("pages")]
        sources += [f"SELECT v FROM ({sql}) WHERE NOT {_long_data('v')}"
                    for sql in self.blob_sources()]
        if "console_log_items" in self.src_tables:   # a script's URL (not "debugger://…")
            sources.append("SELECT loc_url AS v FROM src.console_log_items WHERE "
                           "lower(substr(loc_url, 1, 4)) = 'http'")
        return sources

    def blob_sources(self) -> list[str]:
        """The statements selecting (as ``v``) the URLs that may be long ``data:`` URIs."""
        sources = []
        if "images" in self.src_tables:
            sources += ["SELECT src AS v FROM src.images",
                        "SELECT currentSrc AS v FROM src.images"]
        if "resources" in self.src_tables:
            sources.append("SELECT url AS v FROM src.resources")
        return sources

    def lookups(self) -> None:
        """Temporary tables: the rows that get ``page_meta``, and the link pairs."""
        self.run("CREATE TEMP TABLE _meta (id INTEGER PRIMARY KEY)")
        self.run(f"INSERT INTO temp._meta SELECT p.id FROM src.pages p WHERE "
                 f"{self.meta_where()}")
        self.run("CREATE TEMP TABLE _edges (first INTEGER PRIMARY KEY, page_id INTEGER, "
                 "href_id INTEGER, n INTEGER)")
        if "anchors" in self.src_tables:
            self.say("links…")
            self.run("INSERT INTO temp._edges SELECT min(id), pageId, hrefId, count(*) "
                     "FROM src.anchors GROUP BY pageId, hrefId")

    def texts(self) -> None:
        """``text_refs``: every non-empty text once (an empty text is no row: NULL id)."""
        self.say("texts…")
        self.run("CREATE TEMP TABLE _t (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE)")
        sources = [f'SELECT p."{old}" AS v FROM src.pages p JOIN temp._meta m ON m.id = p.id'
                   for old, _ in PAGE_META_TEXTS if old in self.cols("pages")]
        if "anchors" in self.src_tables:
            sources.append("SELECT a.textContent AS v FROM temp._edges e JOIN src.anchors a "
                           "ON a.id = e.first")
        if "images" in self.src_tables:
            sources.append("SELECT alt AS v FROM src.images")
        if "console_log_items" in self.src_tables:
            sources += ["SELECT text AS v FROM src.console_log_items",
                        "SELECT stack AS v FROM src.console_log_items"]
        self.run("INSERT INTO temp._t (text) VALUES (?)", (UNKNOWN_DOM_PATH,))
        for sql in sources:
            self.run(f"INSERT OR IGNORE INTO temp._t (text) SELECT v FROM ({sql}) "
                     "WHERE v IS NOT NULL AND v != ''")
        self.run("INSERT INTO text_refs (id, hash, text) SELECT id, np_sha256(text), text "
                 "FROM temp._t ORDER BY id")

    def urls(self, jobs: to013_work.Jobs) -> None:
        """``url_refs`` (every URL once, decomposed by the URL job) and ``blob_refs`` (long
        ``data:`` URIs of images and resources, decoded)."""
        limit = refs013.DATA_URI_URL_REFS_LIMIT
        for old, _ in PAGE_META_URLS:
            if old not in self.cols("pages"):
                continue
            dropped = self.scalar(f"SELECT count(*) FROM src.pages p WHERE "
                                  f"{self.meta_where()} AND {_long_data(f'p.{_quoted(old)}')}")
            if dropped:
                self.report.notes.append(
                    f"pages.{old}: {dropped} data: URI(s) over {limit} characters (0.13 "
                    "keeps a meta URL only as a URL, and upstream drops these): not "
                    "carried over")
        self.say("URLs…")
        jobs.urls()
        self.run("ATTACH DATABASE ? AS wu", (jobs.urls_db.absolute().as_uri() + "?mode=ro",))
        self.run("INSERT INTO url_refs (url, scheme, host, port, path, query_hash, fragment) "
                 "SELECT url, scheme, host, port, path, query_hash, fragment FROM wu.u")
        self.run("CREATE TEMP TABLE _b (url TEXT PRIMARY KEY, id INTEGER) WITHOUT ROWID")
        for sql in self.blob_sources():
            for (url,) in self.conn.execute(f"SELECT DISTINCT v FROM ({sql}) WHERE "
                                            f"{_long_data('v')}").fetchall():
                self._blob(str(url))

    def _blob(self, url: str) -> None:
        if self.conn.execute("SELECT 1 FROM temp._b WHERE url = ?", (url,)).fetchone():
            return
        p = refs013.payload(refs013.data_uri_bytes(url))
        self.run("INSERT OR IGNORE INTO blob_refs (hash, body, codec, size_raw, size_stored) "
                 "VALUES (?, ?, ?, ?, ?)", (p.hash, p.body, p.codec, p.size_raw, p.size_stored))
        self.run("INSERT INTO temp._b SELECT ?, id FROM blob_refs WHERE hash = ?",
                 (url, p.hash))

    def content_types(self) -> None:
        """``content_type_refs``: each stored content type once, with its category."""
        self.run("CREATE TEMP TABLE _ct (value TEXT PRIMARY KEY, id INTEGER) WITHOUT ROWID")
        sql = "SELECT contentType AS v FROM src.pages"
        if "resources" in self.src_tables:
            sql += " UNION SELECT contentType FROM src.resources"
        for (value,) in self.conn.execute(f"SELECT v FROM ({sql}) WHERE v IS NOT NULL"
                                          ).fetchall():
            ref = refs013.content_type_ref(str(value))
            if ref is None:
                continue
            self.run("INSERT OR IGNORE INTO content_type_refs (raw, normalized, category) "
                     "VALUES (?, ?, ?)", ref)
            self.run("INSERT INTO temp._ct SELECT ?, id FROM content_type_refs WHERE raw = ?",
                     (value, ref[0]))

    def headers(self) -> None:
        """``header_*``: each distinct ``responseHeaders`` object decomposed once."""
        self.say("response headers…")
        self.run("CREATE TEMP TABLE _h (json TEXT PRIMARY KEY, id INTEGER) WITHOUT ROWID")
        sql = "SELECT responseHeaders AS v FROM src.pages"
        if "resources" in self.src_tables and "responseHeaders" in self.cols("resources"):
            sql += " UNION SELECT responseHeaders FROM src.resources"
        sets: dict[bytes, int] = {}
        names: dict[str, int] = {}
        values: dict[str, int] = {}
        not_json = dropped = 0
        cursor = self.conn.execute(f"SELECT v FROM ({sql}) WHERE v IS NOT NULL")
        mapping: list[tuple[str, int]] = []
        while batch := cursor.fetchmany(BATCH):
            for (text,) in batch:
                try:
                    headers = json.loads(text) if isinstance(text, str) else None
                except ValueError:
                    headers = None
                if not isinstance(headers, dict):
                    not_json += text not in ("", "null")
                    continue
                hs, lost = refs013.header_set(headers)
                dropped += lost
                set_id = sets.get(hs.raw_hash)
                if set_id is None:
                    set_id = self._header_set(hs, names, values)
                    sets[hs.raw_hash] = set_id
                mapping.append((text, set_id))
        self.conn.executemany("INSERT INTO temp._h VALUES (?, ?)", mapping)
        if not_json:
            self.report.notes.append(f"{not_json} responseHeaders value(s) that are not a "
                                     "JSON object: not carried over")
        if dropped:
            self.report.notes.append(f"{dropped} response header value(s) that are not text "
                                     "(null, an object): not carried over")

    def _header_set(self, hs: refs013.HeaderSet, names: dict[str, int],
                    values: dict[str, int]) -> int:
        cur = self.conn.execute(
            "INSERT INTO header_sets (raw_json_hash, raw_hash, stable_hash, volatile_hash, "
            "entry_count, stable_entry_count) VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (raw_json_hash) DO UPDATE SET raw_json_hash = raw_json_hash "
            "RETURNING id", (hs.raw_json_hash, hs.raw_hash, hs.stable_hash, hs.volatile_hash,
                             len(hs.entries), hs.stable_entry_count))
        set_id = int(cur.fetchone()[0])
        rows = []
        for name, occurrence, value, volatile in hs.entries:
            name_id = names.get(name)
            if name_id is None:
                name_id = names[name] = int(self.conn.execute(
                    "INSERT INTO header_name_refs (name) VALUES (?) RETURNING id",
                    (name,)).fetchone()[0])
            value_id = values.get(value)
            if value_id is None:
                value_id = values[value] = int(self.conn.execute(
                    "INSERT INTO header_value_refs (hash, value) VALUES (?, ?) RETURNING id",
                    (refs013.sha256(value), value)).fetchone()[0])
            rows.append((set_id, name_id, occurrence, value_id, int(volatile)))
        self.conn.executemany("INSERT OR IGNORE INTO header_set_entries VALUES (?, ?, ?, ?, ?)",
                              rows)
        self.run("INSERT OR IGNORE INTO header_flags VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 (set_id, *hs.flags, hs.cache_policy))
        return set_id

    def extras(self) -> None:
        """``json_refs``: each page's ``meta_extras`` as upstream stores it (zstd; ``{}``
        when empty), one row per distinct payload."""
        self.run("CREATE TEMP TABLE _j (extras TEXT PRIMARY KEY, id INTEGER) WITHOUT ROWID")
        extras = self.col("pages", "meta_extras", "p")
        rows = self.conn.execute(f"SELECT DISTINCT coalesce({extras}, '') FROM src.pages p "
                                 "JOIN temp._meta m ON m.id = p.id").fetchall()
        broken = 0
        mapping = []
        for (text,) in rows:
            try:
                value = json.loads(text) if text else {}
            except ValueError:
                value = None
            if not isinstance(value, dict):
                broken += 1
                value = {}
            p = refs013.payload(refs013.js_json(value).encode("utf-8", "surrogatepass"))
            self.run("INSERT OR IGNORE INTO json_refs (hash, json_text, codec, size_raw, "
                     "size_stored) VALUES (?, ?, ?, ?, ?)",
                     (p.hash, p.body, p.codec, p.size_raw, p.size_stored))
            mapping.append((text, p.hash))
        self.conn.executemany("INSERT INTO temp._j SELECT ?, id FROM json_refs WHERE hash = ?",
                              mapping)
        if broken:
            self.report.notes.append(f"{broken} meta_extras value(s) that are not a JSON "
                                     "object: stored as {}")

    def body_hashes(self, jobs: to013_work.Jobs) -> None:
        """Upstream's ``body_hash`` of each stored HTML document of an HTML page, from the
        body-hash job, into ``_bh``."""
        self.say("body hashes…")
        rows, too_large = jobs.bodies()
        self.run("CREATE TEMP TABLE _bh (hash BLOB PRIMARY KEY, body_hash BLOB) WITHOUT ROWID")
        self.conn.executemany("INSERT OR IGNORE INTO temp._bh VALUES (?, ?)", rows)
        if too_large:
            self.report.notes.append(f"{too_large} HTML document(s) over "
                                     f"{DECODE_LIMIT >> 20} MiB: no body_hash")

    def redirects(self) -> None:
        """Each redirect source's final page (chains flattened; our writer stores them
        flat already, upstream 0.10 archives too — a loop keeps its first hop)."""
        self.run("CREATE TEMP TABLE _r (id INTEGER PRIMARY KEY, dest INTEGER)")
        self.run(
            "WITH RECURSIVE hop(id, dest, depth) AS (SELECT id, redirectDestId, 1 FROM "
            "src.pages WHERE redirectDestId IS NOT NULL UNION ALL SELECT h.id, "
            "p.redirectDestId, h.depth + 1 FROM hop h JOIN src.pages p ON p.id = h.dest "
            "WHERE p.redirectDestId IS NOT NULL AND h.depth < 64) "
            "INSERT INTO temp._r SELECT id, dest FROM hop h WHERE NOT EXISTS (SELECT 1 FROM "
            "src.pages p WHERE p.id = h.dest AND p.redirectDestId IS NOT NULL)")
        loops = self.scalar("SELECT count(*) FROM src.pages WHERE redirectDestId IS NOT NULL "
                            "AND id NOT IN (SELECT id FROM temp._r)")
        if loops:
            self.run("INSERT INTO temp._r SELECT id, redirectDestId FROM src.pages WHERE "
                     "redirectDestId IS NOT NULL AND id NOT IN (SELECT id FROM temp._r)")
            self.report.notes.append(f"{loops} redirect source(s) in a loop: kept pointing "
                                     "at their first hop")

    def content_items(self, metadata_only_all: bool) -> None:
        """``content_items``: one row per ``pages`` row, same id."""
        self.say("pages…")
        direct = dict(CONTENT_ITEM_COLUMNS)
        select = {
            "id": "p.id", "url_id": "u.id",
            "is_external": f"coalesce({self.col('pages', 'isExternal', 'p')}, 0)",
            "scraped": "coalesce(p.scraped, 0)",
            "is_target": f"coalesce({self.col('pages', 'isTarget', 'p')}, 0)",
            "is_metadata_only": f"CASE WHEN {int(metadata_only_all)} OR "
                                "coalesce(p.isExternal, 0) = 1 THEN 1 ELSE 0 END",
            # a redirect source keeps the status it has, even none: upstream's writer
            # stamps 301 on one without, but a stamp would not convert back (0.10 → 0.13
            # → 0.10 must give the same rows) and upstream's readers find redirects by
            # redirect_dest_id, not by status
            "status": "p.status",
            "content_type_id": "ct.id", "header_set_id": "h.id", "redirect_dest_id": "r.dest",
            "source": f"coalesce({self.col('pages', 'source', 'p')}, 'crawled')",
        }
        for old, new in direct.items():
            select.setdefault(new, self.col("pages", old, "p"))
        names = ", ".join(select)
        self.run(f"INSERT INTO content_items ({names}) SELECT {', '.join(select.values())} "
                 "FROM src.pages p JOIN url_refs u ON u.url = p.url "
                 "LEFT JOIN temp._r r ON r.id = p.id "
                 "LEFT JOIN temp._ct ct ON ct.value = p.contentType "
                 "LEFT JOIN temp._h h ON h.json = p.responseHeaders ORDER BY p.id")
        unknown_side = self.scalar("SELECT count(*) FROM src.pages WHERE isExternal IS NULL")
        if unknown_side:
            self.report.moved.append(f"{unknown_side} row(s) with isExternal unknown (NULL): "
                                     "is_external 0, as format 0.13 requires a value")

    def page_meta(self) -> None:
        """``page_meta``: the meta of each row of ``_meta``, texts and URLs as ids."""
        select = {"page_id": "p.id"}
        joins = []
        for old, new in PAGE_META_PLAIN:
            select[new] = self.col("pages", old, "p")
        for k, (old, new) in enumerate(PAGE_META_TEXTS):
            if old in self.cols("pages"):
                select[new] = f"t{k}.id"
                joins.append(f'LEFT JOIN temp._t t{k} ON t{k}.text = p."{old}"')
        for k, (old, new) in enumerate(PAGE_META_URLS):
            if old in self.cols("pages"):
                select[new] = f"u{k}.id"
                joins.append(f'LEFT JOIN url_refs u{k} ON u{k}.url = p."{old}"')
        extras = self.col("pages", "meta_extras", "p")
        select["meta_extras_json_id"] = "j.id"
        joins.append(f"LEFT JOIN temp._j j ON j.extras = coalesce({extras}, '')")
        if "page_html_ref" in self.src_tables:
            types = ", ".join(f"'{t}'" for t in _HTML_TYPES)
            select["body_hash"] = (f"CASE WHEN p.contentType IS NULL OR lower(p.contentType) "
                                   f"IN ({types}) THEN bh.body_hash END")
            joins += ["LEFT JOIN src.page_html_ref hr ON hr.page_id = p.id",
                      "LEFT JOIN temp._bh bh ON bh.hash = hr.hash"]
        if "page_main_contents" in self.src_tables:   # our 0.10 table, 0.13's columns
            have = set(self.cols("page_main_contents"))
            for column, _type in MAIN_CONTENT_COLUMNS:
                if column in have:
                    select[column] = f'mc."{column}"'
            joins.append("LEFT JOIN src.page_main_contents mc ON mc.page_id = p.id")
        self.run(f"INSERT INTO page_meta ({', '.join(select)}) SELECT "
                 f"{', '.join(select.values())} FROM temp._meta m JOIN src.pages p ON "
                 f"p.id = m.id {' '.join(joins)} ORDER BY p.id")

    def anchors(self) -> None:
        """``anchor_edges``: one row per (page, target) pair, counted; the first
        instance's fragment and text."""
        if "anchors" not in self.src_tables:
            return
        self.say("links…")
        # the index on link targets is built after the rows (the same statement): kept up
        # row by row it costs twice as much, its keys arriving in no order
        index = self.conn.execute("SELECT sql FROM sqlite_master WHERE name = ?",
                                  (_HREF_INDEX,)).fetchone()[0]
        self.run(f"DROP INDEX {_HREF_INDEX}")
        self.run("INSERT INTO anchor_edges (page_id, href_page_id, count, first_hash, "
                 "first_text_id) SELECT e.page_id, e.href_id, e.n, nullif(a.hash, ''), t.id "
                 "FROM temp._edges e JOIN src.anchors a ON a.id = e.first "
                 "LEFT JOIN temp._t t ON t.text = a.textContent ORDER BY e.first")
        self.run(index)
        total = self.scalar("SELECT count(*) FROM src.anchors")
        edges = self.scalar("SELECT count(*) FROM temp._edges")
        if total > edges:
            # pairs whose repeats do not all say what the first link says
            varied = self.scalar(
                "SELECT count(*) FROM temp._edges e JOIN src.anchors f ON f.id = e.first "
                "WHERE e.n > 1 AND EXISTS (SELECT 1 FROM src.anchors a WHERE a.pageId = "
                "e.page_id AND a.hrefId = e.href_id AND (coalesce(a.textContent, '') != "
                "coalesce(f.textContent, '') OR coalesce(a.hash, '') != coalesce(f.hash, '')))")
            self.report.notes.append(
                f"{total - edges} link(s) repeating an earlier link of the same page to the "
                "same target: counted in anchor_edges.count, their own text and fragment "
                f"not kept (in {varied} of {edges} pairs a repeat's text or fragment "
                "differed from the first link's)")
        self.unmapped("anchors", ["id", "pageId", "hrefId", "hash", "textContent"])

    def resources(self) -> None:
        """``resource_items`` (same ids) and ``resource_ref_edges``."""
        if "resources" not in self.src_tables:
            return
        select = {new: self.col("resources", old, "s") for old, new in RESOURCE_COLUMNS}
        select["is_external"] = f"coalesce({select['is_external']}, 0)"
        select["source"] = f"coalesce({select['source']}, 'crawled')"
        select.update({"url_id": "u.id", "url_blob_id": "b.id", "content_type_id": "ct.id",
                       "header_set_id": "h.id"})
        headers = self.col("resources", "responseHeaders", "s")
        self.run(f"INSERT INTO resource_items ({', '.join(select)}) SELECT "
                 f"{', '.join(select.values())} FROM src.resources s "
                 "LEFT JOIN url_refs u ON u.url = s.url LEFT JOIN temp._b b ON b.url = s.url "
                 "LEFT JOIN temp._ct ct ON ct.value = s.contentType "
                 f"LEFT JOIN temp._h h ON h.json = {headers} ORDER BY s.id")
        self.unmapped("resources", [*(o for o, _ in RESOURCE_COLUMNS), "url", "contentType",
                                    "responseHeaders"])
        if "resources-referrers" in self.src_tables:
            self.run('INSERT INTO resource_ref_edges (resource_id, page_id, count) SELECT '
                     'resourceId, pageId, count(*) FROM src."resources-referrers" '
                     "GROUP BY resourceId, pageId")

    def images(self) -> None:
        """``image_items`` (same ids); the DOM path is upstream's ``img[unknown]``."""
        if "images" not in self.src_tables:
            return
        self.say("images…")
        select = {new: self.col("images", old, "s") for old, new in IMAGE_COLUMNS}
        select.update({"src_url_id": "u1.id", "current_src_url_id": "u2.id",
                       "src_blob_id": "b1.id", "current_src_blob_id": "b2.id",
                       "alt_text_id": "t.id", "dom_path_text_id": "(SELECT id FROM temp._t "
                       f"WHERE text = '{UNKNOWN_DOM_PATH}')"})
        self.run(f"INSERT INTO image_items ({', '.join(select)}) SELECT "
                 f"{', '.join(select.values())} FROM src.images s "
                 "LEFT JOIN url_refs u1 ON u1.url = s.src "
                 "LEFT JOIN url_refs u2 ON u2.url = s.currentSrc "
                 "LEFT JOIN temp._b b1 ON b1.url = s.src "
                 "LEFT JOIN temp._b b2 ON b2.url = s.currentSrc "
                 "LEFT JOIN temp._t t ON t.text = s.alt ORDER BY s.id")
        code = self.scalar("SELECT count(*) FROM src.images WHERE sourceCode IS NOT NULL AND "
                           "sourceCode != ''") if "sourceCode" in self.cols("images") else 0
        if code:
            self.report.notes.append(f"images.sourceCode ({code} values: each image's HTML) "
                                     "has no place in format 0.13 (image_items keeps a DOM "
                                     f"path, here '{UNKNOWN_DOM_PATH}'): not carried over")
        self.unmapped("images", [*(o for o, _ in IMAGE_COLUMNS), "src", "currentSrc", "alt",
                                 "sourceCode"])

    def technologies(self) -> None:
        """``page_tags`` → ``technology_signals`` (one per row, ``wappalyzer``) and
        ``page_technologies`` (one per page and technology)."""
        if "page_tags" not in self.src_tables:
            return
        weight = ("max(0, min(100, coalesce(CAST(s.confidence AS INTEGER), 100)))"
                  if "confidence" in self.cols("page_tags") else "100")
        parts = [f"'{c}', {self.col('page_tags', c, 's')}" for c in ("externalId",)]
        parts += [f"'{c}', CASE WHEN json_valid({self.col('page_tags', c, 's')}) THEN "
                  f"json({self.col('page_tags', c, 's')}) END" for c in ("categories", "sources")]
        evidence = f"json_object({', '.join(parts)})"
        self.run("INSERT INTO technology_signals (id, pageId, technology, signalType, evidence, "
                 f"weight) SELECT s.id, s.pageId, s.provider, 'wappalyzer', {evidence}, "
                 f"{weight} FROM src.page_tags s ORDER BY s.id")
        self.run("INSERT INTO page_technologies (pageId, technology, category, version, "
                 "confidence, signalCount) SELECT g.pageId, g.technology, "
                 f"{self.col('page_tags', 'category', 's')}, "
                 f"{self.col('page_tags', 'version', 's')}, g.weight, 1 FROM (SELECT pageId, "
                 "technology, min(id) AS first, max(weight) AS weight FROM technology_signals "
                 "GROUP BY pageId, technology) g JOIN src.page_tags s ON s.id = g.first "
                 "ORDER BY g.first")
        rows = self.scalar("SELECT count(*) FROM src.page_tags")
        techs = self.scalar("SELECT count(*) FROM page_technologies")
        self.report.moved.append(
            f"page_tags ({rows} rows) → technology_signals (one each: its externalId, "
            f"categories and sources in evidence as JSON) and page_technologies ({techs}: one "
            "per page and technology, confidence the highest weight)")

    def adjuncts(self) -> None:
        """Tables whose rows 0.13 keeps as they are (FKs now to ``content_items``)."""
        for table, target in (("page_jsonld", "page_jsonld"), ("page_errors", "page_errors"),
                              ("crawl_errors", "crawl_errors"),
                              ("inventory_runs", "list_reconcile_runs"),
                              ("dedupe_cap_events", "dedupe_cap_events"),
                              ("page_signatures", "page_signatures"),
                              ("crawl_runs", "crawl_runs"),
                              ("network_outages", "network_outages"),
                              ("browser_outages", "browser_outages")):
            new = [str(r[1]) for r in self.conn.execute(f'PRAGMA main.table_info("{target}")')]
            n = self.copy(table, target, [(c, c) for c in new])
            if n:
                self.report.counts[target] = n
            self.unmapped(table, new)
        for table, key in (("page_templates", "page_id"),
                           ("page_template_clusters", "template_key"),
                           ("page_template_labels", "template_key")):
            new = [str(r[1]) for r in self.conn.execute(f'PRAGMA main.table_info("{table}")')]
            n = self.copy(table, table, [(c, c) for c in new], order=key)  # WITHOUT ROWID
            if n:
                self.report.counts[table] = n
        if {"page_html_blobs", "page_html_ref"} <= self.src_tables:
            self.say("HTML snapshots…")
            self.copy("page_html_blobs", "page_html_blobs",
                      [(c, c) for c in ("hash", "body", "codec", "size_raw", "size_stored")],
                      order="hash")
            self.copy("page_html_ref", "page_html_ref", [("page_id", "page_id"),
                                                          ("hash", "hash")], order="page_id")


    def main_contents(self) -> None:
        """The nine main-content inventories, row for row (their region and counts went
        into ``page_meta``)."""
        for table in MAIN_CONTENT_TABLES:
            if table in self.src_tables:
                n = self.copy(table, table, [(c, c) for c in self.cols(table)])
                if n:
                    self.report.counts[table] = n

    def console_logs(self) -> None:
        """``console_log_items`` with their texts and source URL through the ref tables, as
        upstream keeps them (after ``url_refs``), and ``page_console_logs`` as they are."""
        if {"console_log_items", "page_console_logs"} <= self.src_tables:
            self.run("INSERT INTO console_log_items (id, hash, type, text_id, loc_url_id, "
                     "loc_line, loc_column, stack_text_id) SELECT c.id, c.hash, c.type, "
                     "t1.id, u.id, c.loc_line, c.loc_column, t2.id FROM src.console_log_items c "
                     "LEFT JOIN text_refs t1 ON t1.hash = np_sha256(coalesce(c.text, '')) "
                     "AND t1.text = c.text LEFT JOIN url_refs u ON u.url = c.loc_url "
                     "LEFT JOIN text_refs t2 ON t2.hash = np_sha256(coalesce(c.stack, '')) AND "
                     "t2.text = c.stack ORDER BY c.id")
            n = self.copy("page_console_logs", "page_console_logs",
                          [(c, c) for c in ("id", "pageId", "consoleLogId", "ts")])
            if n:
                self.report.counts["page_console_logs"] = n


OWN_TABLES = frozenset({
    "info", "pages", "anchors", "images", "resources", "resources-referrers", "page_tags",
    "page_jsonld", "page_errors", "crawl_errors", "page_html_blobs", "page_html_ref",
    "inventory_runs", "dedupe_cap_events", "page_signatures", "crawl_runs",
    "page_body_hashes", "page_templates", "page_template_clusters", "page_template_labels",
    "network_outages", "browser_outages", "console_log_items", "page_console_logs",
    "sqlite_sequence", "page_main_contents", *MAIN_CONTENT_TABLES})
"""The 0.10 tables the conversion reads (``page_body_hashes``: the hashes are computed again
from the stored HTML, the same values); any other table is listed as not carried over."""


def convert(source_db: Path, output_db: Path, *, name: str, version: str,
            scratch: Path, say: Say = lambda _line: None) -> Report:
    """Write ``output_db`` (format 0.13.0) from the format-0.10 database ``source_db``.

    ``source_db`` is opened read-only and never written; ``output_db`` must not exist;
    ``scratch`` is a directory for the jobs' files (:mod:`nitpicker_crawl.archive.to013_work`),
    the caller's to remove. Raises :class:`sqlite3.Error` when the source cannot be read
    and :class:`CountMismatch` when the rows written do not add up (the caller throws
    the output away).
    """
    report = Report(version=version)
    conn = sqlite3.connect(output_db, isolation_level=None, uri=True)
    jobs: to013_work.Jobs | None = None
    completed = False
    try:
        conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")
        conn.execute("PRAGMA journal_mode = OFF")
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute("PRAGMA cache_size = -131072")
        conn.execute("PRAGMA temp.cache_size = -131072")  # the lookup tables'
        conn.execute("ATTACH DATABASE ? AS src", (source_db.absolute().as_uri() + "?mode=ro",))
        conn.create_function("np_sha256", 1, refs013.sha256, deterministic=True)
        conn.create_function("np_shape_key", 1, shape_key, deterministic=True)
        b = _Build(conn, report, say)
        if not {"info", "pages"} <= b.src_tables:
            raise sqlite3.DatabaseError("no info or pages table")
        pages = b.scalar("SELECT count(*) FROM src.pages")
        jobs = to013_work.Jobs(source_db, scratch, b.url_sources(), pages)
        conn.execute("BEGIN")
        for statement in WRITER_DDL:
            conn.execute(statement)
        recursive = b.scalar("SELECT coalesce(recursive, 1) FROM src.info ORDER BY id LIMIT 1"
                             ) if "recursive" in b.cols("info") else 1
        # first what needs neither job (they run meanwhile), then what needs the URLs,
        # then page_meta, which needs the body hashes
        b.info(name)
        b.lookups()
        b.texts()
        b.content_types()
        b.headers()
        b.extras()
        b.redirects()
        b.anchors()
        b.technologies()
        b.adjuncts()
        b.urls(jobs)
        b.content_items(metadata_only_all=not recursive)
        b.resources()
        b.images()
        b.body_hashes(jobs)
        b.page_meta()
        b.console_logs()
        b.main_contents()
        b.unmapped("pages", [*(o for o, _ in CONTENT_ITEM_COLUMNS),
                             *(o for o, _ in PAGE_META_PLAIN), *(o for o, _ in PAGE_META_TEXTS),
                             *(o for o, _ in PAGE_META_URLS), "url", "contentType",
                             "responseHeaders", "meta_extras"])
        for table in sorted(b.src_tables - OWN_TABLES):
            rows = b.scalar(f'SELECT count(*) FROM src."{table}"')
            report.notes.append(f"table {table} ({rows} rows) has no place in format 0.13 as "
                                "we write it: not carried over")
        say("cap events…")
        marked = capmarks.mark(conn, source_db)
        if marked:
            report.moved.append(f"{marked} page(s) marked with the cap event that refused or "
                                "captured them (content_items.dedupe_cap_event_id)")
        _check(b, report)
        conn.execute("COMMIT")
        for schema in ("src", "wu"):  # not inside the transaction: SQLite refuses
            conn.execute(f"DETACH DATABASE {schema}")
        conn.execute("PRAGMA main.journal_mode = WAL")  # as upstream's archives are
        completed = True
    finally:
        if jobs is not None:
            jobs.close(completed=completed)
        conn.close()
    return report


_CHECKS = (
    ("pages", "content_items", "SELECT count(*) FROM src.pages",
     "SELECT count(*) FROM content_items"),
    ("anchors", "anchor_edges", "SELECT count(*) FROM src.anchors",
     "SELECT coalesce(sum(count), 0) FROM anchor_edges"),
    ("images", "image_items", "SELECT count(*) FROM src.images",
     "SELECT count(*) FROM image_items"),
    ("resources", "resource_items", "SELECT count(*) FROM src.resources",
     "SELECT count(*) FROM resource_items"),
    ("resources-referrers", "resource_ref_edges",
     'SELECT count(*) FROM src."resources-referrers"',
     "SELECT coalesce(sum(count), 0) FROM resource_ref_edges"),
)


class CountMismatch(Exception):
    """The rows written do not add up to the rows read (a bug, or rows pointing nowhere)."""


def _check(b: _Build, report: Report) -> None:
    """Every page, link instance, image, resource and referrer is accounted for."""
    for table, target, before_sql, after_sql in _CHECKS:
        if table not in b.src_tables:
            continue
        before, after = b.scalar(before_sql), b.scalar(after_sql)
        if before != after:
            raise CountMismatch(f"{table}: {before} rows in the 0.10 archive but {after} "
                                f"accounted for in {target}")
        report.counts[table] = before
