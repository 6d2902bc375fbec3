"""Hand-built format-0.13 databases: rows written in SQL as upstream's writer lays them out
(docs/archive-format.md, "Format 0.13"), independently of our converter.

``Db13`` takes a schema flavour (``newest`` or ``0.17``) and optional ``ALTER``-free
variants (an older 0.13 archive that no writer reopened lacks the self-healing columns:
``drop`` lists ``table.column`` to leave out). Helpers add a URL, a text, a page with
its meta, anchors, headers; :meth:`Db13.tar` packs it as a ``.nitpicker`` file.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
import tarfile
from pathlib import Path
from typing import Any

from nitpicker_query.format.v013_schema import SCHEMA_DDL

SCHEMAS = Path(__file__).parent / "data" / "format-0.13"


def _schema(flavour: str, drop: tuple[str, ...]) -> list[str]:
    """The statements of a flavour: the newest is the project's own definition
    (format013_schema.SCHEMA_DDL, what the converter writes); the 0.16–0.18 era's is
    kept as upstream's sqlite_master text in tests/data."""
    if flavour == "newest":
        statements = list(SCHEMA_DDL)
    else:
        text = (SCHEMAS / f"schema-{flavour}.sql").read_text()
        statements = [s.strip() for s in text.split(";\n") if s.strip()]
    out = []
    for s in statements:
        if s.startswith("CREATE TABLE sqlite_sequence"):
            continue
        for item in drop:
            table, column = item.split(".")
            if re.match(rf"CREATE TABLE `?{table}`? ", s):
                s = re.sub(rf",?\s*`?{column}`?\s+(INTEGER|BLOB|blob|TEXT)[^,\n]*(?=[,\n)])",
                           "", s, count=1)
            if re.match(rf"CREATE INDEX \S+ ON {table}\({column}\)", s):
                s = ""
        if s:
            out.append(s.rstrip(";"))
    return out


def sha(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8")).digest()


class Db13:
    def __init__(self, directory: Path, *, flavour: str = "newest",
                 drop: tuple[str, ...] = (), version: str = "0.13.0",
                 base: str = "https://site.test") -> None:
        self.dir = directory
        directory.mkdir(parents=True, exist_ok=True)
        self.conn = sqlite3.connect(directory / "db.sqlite")
        for statement in _schema(flavour, drop):
            self.conn.execute(statement)
        self.conn.execute("INSERT INTO info (version, name, baseUrl, roots) VALUES "
                          "(?, 'hand-built', ?, ?)", (version, base + "/", f'["{base}/"]'))
        self._types: dict[str, int] = {}

    def url(self, url: str) -> int:
        row = self.conn.execute("SELECT id FROM url_refs WHERE url = ?", (url,)).fetchone()
        if row:
            return int(row[0])
        return int(self.conn.execute("INSERT INTO url_refs (url) VALUES (?)",
                                     (url,)).lastrowid or 0)

    def text(self, text: str | None) -> int | None:
        if not text:
            return None  # upstream never stores an empty text
        row = self.conn.execute("SELECT id FROM text_refs WHERE hash = ? AND text = ?",
                                (sha(text), text)).fetchone()
        if row:
            return int(row[0])
        return int(self.conn.execute("INSERT INTO text_refs (hash, text) VALUES (?, ?)",
                                     (sha(text), text)).lastrowid or 0)

    def content_type(self, raw: str, category: str) -> int:
        if raw not in self._types:
            self._types[raw] = int(self.conn.execute(
                "INSERT INTO content_type_refs (raw, normalized, category) VALUES (?, ?, ?)",
                (raw, raw, category)).lastrowid or 0)
        return self._types[raw]

    def headers(self, headers: list[tuple[str, str]]) -> int:
        """A header set from (name, value) pairs in the order received."""
        canon = "\n".join(f"{n}/{i}={v}" for i, (n, v) in enumerate(headers))
        set_id = int(self.conn.execute(
            "INSERT INTO header_sets (raw_json_hash, raw_hash, stable_hash, entry_count, "
            "stable_entry_count) VALUES (?, ?, ?, ?, ?)",
            (sha("json" + canon), sha(canon), sha(canon), len(headers), len(headers))
        ).lastrowid or 0)
        seen: dict[str, int] = {}
        for name, value in headers:
            name_row = self.conn.execute("SELECT id FROM header_name_refs WHERE name = ?",
                                         (name,)).fetchone()
            name_id = int(name_row[0]) if name_row else int(self.conn.execute(
                "INSERT INTO header_name_refs (name) VALUES (?)", (name,)).lastrowid or 0)
            value_id = int(self.conn.execute(
                "INSERT OR IGNORE INTO header_value_refs (hash, value) VALUES (?, ?)",
                (sha(value), value)).lastrowid or 0) or int(self.conn.execute(
                    "SELECT id FROM header_value_refs WHERE value = ?", (value,)).fetchone()[0])
            seen[name] = seen.get(name, 0) + 1
            self.conn.execute("INSERT INTO header_set_entries VALUES (?, ?, ?, ?, 0)",
                              (set_id, name_id, seen[name], value_id))
        flags = [int(n in seen) for n in (
            "content-security-policy", "x-frame-options", "x-content-type-options",
            "strict-transport-security", "referrer-policy", "permissions-policy",
            "set-cookie")]
        self.conn.execute("INSERT INTO header_flags VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL)",
                          (set_id, *flags))
        return set_id

    def item(self, url: str, **columns: Any) -> int:
        """A ``content_items`` row; defaults are a placeholder (never fetched)."""
        row: dict[str, Any] = {"url_id": self.url(url), "is_external": 0, "scraped": 0,
                               "is_target": 0, **columns}
        names = ", ".join(row)
        marks = ", ".join("?" for _ in row)
        return int(self.conn.execute(f"INSERT INTO content_items ({names}) VALUES ({marks})",
                                     list(row.values())).lastrowid or 0)

    def page(self, url: str, title: str | None = None, *, status: int = 200,
             headers: list[tuple[str, str]] | None = None, order: int | None = None,
             meta: dict[str, Any] | None = None, **columns: Any) -> int:
        """A scraped HTML page with its ``page_meta`` row."""
        page_id = self.item(
            url, scraped=1, is_target=1, status=status, status_text="OK",
            content_type_id=self.content_type("text/html", "html"),
            header_set_id=self.headers(headers) if headers else None,
            first_crawled_at=1_700_000_000_000, last_crawled_at=1_700_000_000_000,
            crawl_order=order, is_skipped=0, **columns)
        row = {"page_id": page_id, "title_text_id": self.text(title), **(meta or {})}
        names = ", ".join(row)
        marks = ", ".join("?" for _ in row)
        self.conn.execute(f"INSERT INTO page_meta ({names}) VALUES ({marks})",
                          list(row.values()))
        return page_id

    def anchor(self, page: int, target: int, count: int = 1, text: str | None = None) -> None:
        self.conn.execute("INSERT INTO anchor_edges (page_id, href_page_id, count, "
                          "first_text_id) VALUES (?, ?, ?, ?)",
                          (page, target, count, self.text(text)))

    def tar(self, out: Path) -> Path:
        """Commit, close and pack as ``out`` (a ``.nitpicker`` file)."""
        self.conn.commit()
        self.conn.close()
        with tarfile.open(out, "w") as tf:
            tf.add(self.dir, arcname=self.dir.name, recursive=False)
            tf.add(self.dir / "db.sqlite", arcname=f"{self.dir.name}/db.sqlite")
        return out


def as_both_formats_say_it(value: Any) -> Any:
    """An answer as both formats can say it, for comparing a 0.10 archive with its 0.13
    conversion (docs/archive-format.md, "Format 0.13"): ``''`` and null are one and
    left out (0.13 stores no empty text; MCP leaves nulls out anyway), and of a page's
    links to one target only the first keeps its text (0.13 keeps one row per pair), and
    an image's alt attribute missing or empty is ``unknown`` (0.13 keeps neither the tag
    nor an empty text: ``nitpicker_query.queries.list_images.ALT_STATE``)."""
    if isinstance(value, dict):
        if value.get("altState") in ("missing", "empty"):
            value = {**value, "altState": "unknown"}
        if isinstance(value.get("outboundLinks"), list):
            seen: set[Any] = set()
            links = []
            for link in value["outboundLinks"]:
                repeat = link.get("url") in seen
                seen.add(link.get("url"))
                links.append({k: v for k, v in link.items() if k != "textContent"}
                             if repeat else link)
            value = {**value, "outboundLinks": links}
        return {k: as_both_formats_say_it(v) for k, v in value.items()
                if v is not None and v != ""}
    if isinstance(value, list):
        if all(isinstance(v, dict) and "sourceUrl" in v and "destUrl" in v for v in value):
            # anchors listed one per link (links --type all): the same rule per pair
            pairs: set[Any] = set()
            kept = []
            for v in value:
                pair = (v["sourceUrl"], v["destUrl"])
                kept.append({k: x for k, x in v.items() if k != "textContent"}
                            if pair in pairs else v)
                pairs.add(pair)
            value = kept
        return [as_both_formats_say_it(v) for v in value]
    return value
