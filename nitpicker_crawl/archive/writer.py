"""``ArchiveWriter``: the one owner of a write connection to an archive.

Only this class creates tables, runs migrations and writes rows; readers never do
(DESIGN.md §2). It works on a *working directory* (``._nitpicker-<name>`` holding
``db.sqlite`` in WAL mode, locked with ``<dir>.lock/pid.txt``) and turns it into a
``.nitpicker`` tar on :meth:`ArchiveWriter.close`. A crash leaves the working directory:
it is a readable "stub" and can be resumed.

Row conventions it enforces (docs/archive-format.md), because query results depend on
them: skipped URLs are ``scraped = 1, isSkipped = 1`` with no status; redirects are
pre-flattened (every source of a chain points at the final page, and a source loses
its anchors and images); anchors and images are replaced, not appended, on a re-scrape
with a non-empty list; every anchor target has a ``pages`` row.

Not thread-safe by design: the crawler feeds it from a single writer task.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shlex
import shutil
import sqlite3
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from nitpicker_query.archive import locks, tarball
from nitpicker_query.archive.html_codec import encode_html
from nitpicker_query.archive.opening import classify
from nitpicker_query.exceptions import (
    ArchiveNotFound,
    NitpickerError,
    NotAnArchive,
    UnsupportedFormat,
)
from nitpicker_query.format.v010 import (
    BROWSER_OUTAGES_DDL,
    CONSOLE_LOGS_DDL,
    CRAWL_RUNS_DDL,
    DEDUPE_CAP_EVENTS_COLUMNS,
    DEDUPE_CAP_EVENTS_INDEX,
    FIRST_013,
    FORMAT_VERSION,
    NETWORK_OUTAGES_DDL,
    PAGE_BODY_HASHES_DDL,
    PAGE_SIGNATURES_DDL,
    SCHEMA_DDL,
    check_version,
    dedupe_cap_events_ddl,
    parse_version,
)
from nitpicker_query.format.v013_schema import (
    MAIN_CONTENT_COLUMNS,
    MAIN_CONTENT_DDL_010,
    MAIN_CONTENT_TABLES,
)

from .tarball import write_tar

PageFields = Mapping[str, Any]
"""Column → value for a ``pages`` row; keys are the 0.10 column names (``og_title``…)."""

_INFO_DEFAULTS: dict[str, Any] = {
    "recursive": True, "interval": 0, "image": True, "fetchExternal": True, "parallels": 4,
    "excludes": [], "excludeKeywords": [], "excludeUrls": [], "maxExcludedDepth": 0,
    "retry": 3, "fromList": False, "disableQueries": False, "userAgent": None,
    "ignoreRobots": False,
}
_JSON_INFO = {"roots", "excludes", "excludeKeywords", "excludeUrls"}


class UnfinishedCrawl(NitpickerError):
    """An interrupted crawl's working directory is where a new one would go."""

    def __init__(self, workdir: Path) -> None:
        super().__init__(f"an interrupted crawl is in {workdir}: continue it with --resume "
                         f"{workdir}, or remove that directory to start over")
        self.workdir = workdir


def now_ms() -> int:
    return int(time.time() * 1000)


def natural_key(url: str) -> tuple[Any, ...]:
    """Sort key that orders ``/p/2`` before ``/p/10`` (the ``order`` column)."""
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", url))


class ArchiveWriter:
    """Create or resume an archive, write rows, then :meth:`close` into a tar.

    Use :meth:`create` for a new crawl and :meth:`resume` to continue a stub directory
    or an existing ``.nitpicker`` file. Writes are batched in one transaction until
    :meth:`commit`; the crawler commits after each page so a ``kill -9`` loses at most
    the pages in flight.
    """

    def __init__(self, workdir: Path, output: Path, name: str) -> None:
        self.workdir = workdir
        self.output = output
        self.name = name
        self.db_path = workdir / "db.sqlite"
        self._ids: dict[str, int] = {}
        self._closed = False
        self.extracted = False  # the workdir is a copy of a .nitpicker file (resume)
        # One writer at a time, but not always the creating thread: the crawler hands
        # every write to its single writer thread.
        self.conn = sqlite3.connect(self.db_path, isolation_level=None, check_same_thread=False)
        self.conn.execute("PRAGMA foreign_keys = ON")
        self.conn.execute("PRAGMA wal_autocheckpoint = 1000")
        self.conn.execute("PRAGMA cache_size = -65536")
        self.conn.execute("PRAGMA mmap_size = 268435456")
        # WAL + NORMAL: a commit survives a crash of this process (kill -9), and costs no
        # fsync; only a power loss can lose the last commits.
        self.conn.execute("PRAGMA synchronous = NORMAL")
        self._in_tx = False
        # URL → upstream's ``source`` label for rows that are not ``crawled``
        # (``inventory-seed``, ``inventory-discovered``: docs/archive-format.md); the
        # crawler fills it before it queues such a URL
        self.sources: dict[str, str] = {}

    # ------------------------------------------------------------------ opening

    @staticmethod
    def default_workdir(output: Path) -> Path:
        """``<output's directory>/._nitpicker-<name>``: beside the archive it becomes, so
        two crawls to ``a/site.nitpicker`` and ``b/site.nitpicker`` never share one."""
        return output.parent / f"._nitpicker-{_name_of(output)}"

    @staticmethod
    def output_of(workdir: Path) -> Path:
        """The archive a working directory becomes (``a/._nitpicker-s`` → ``a/s.nitpicker``)."""
        return workdir.parent / f"{workdir.name.removeprefix('._nitpicker-')}.nitpicker"

    @classmethod
    def create(
        cls,
        output: str | os.PathLike[str],
        *,
        roots: list[str],
        workdir: str | os.PathLike[str] | None = None,
        **info: Any,
    ) -> ArchiveWriter:
        """Start a new archive for ``output`` with the given ``info`` settings.

        ``info`` keys are ``info`` column names (``interval``, ``excludes``, …);
        missing ones take the defaults of a plain crawl. A working directory left by an
        interrupted crawl is work: it is refused (:class:`UnfinishedCrawl`), never
        replaced; the caller removes it first when the user said so.
        """
        out = Path(output).absolute()
        name = _name_of(out)
        wd = Path(workdir).absolute() if workdir else cls.default_workdir(out)
        locks.acquire(wd)
        try:
            if (wd / "db.sqlite").exists():
                raise UnfinishedCrawl(wd)
            if wd.exists():
                shutil.rmtree(wd)
            wd.mkdir(parents=True)
            writer = cls(wd, out, name)
        except BaseException:
            locks.release(wd)
            raise
        writer.conn.execute("PRAGMA page_size = 16384")
        writer.conn.execute("PRAGMA journal_mode = WAL")
        writer._begin()
        for statement in SCHEMA_DDL:
            writer.conn.execute(statement)
        writer._migrate()
        values = {**_INFO_DEFAULTS, **info, "version": FORMAT_VERSION, "name": name,
                  "baseUrl": roots[0] if roots else None, "roots": roots}
        unknown = set(values) - set(writer._columns("info"))
        if unknown:
            writer.discard()
            raise ValueError(f"unknown info fields: {sorted(unknown)}")
        writer._insert("info", values)
        writer.commit()
        return writer

    @classmethod
    def resume(
        cls,
        source: str | os.PathLike[str],
        *,
        output: str | os.PathLike[str] | None = None,
        workdir: str | os.PathLike[str] | None = None,
    ) -> ArchiveWriter:
        """Reopen a working directory in place, or extract a ``.nitpicker`` file, for writing.

        The source is classified and refused exactly as the readers refuse it (a ``.tar``,
        a directory without ``db.sqlite``, a wrong version), and a refused file leaves
        nothing behind. Runs our idempotent migrations; ``info.version`` is never
        rewritten. The archive is written back where it came from: to the file itself,
        or for a working directory to the file it was becoming
        (:meth:`output_of`), unless ``output`` says otherwise.
        """
        src = Path(source).absolute()
        left = cls.default_workdir(src)
        if not src.exists() and (left / "db.sqlite").exists():
            # the crawl of that file stopped before writing it: its work is there
            raise ArchiveNotFound(f"{src.name} was never written: its crawl stopped first "
                                  f"and left its work in {left.name}; continue it with "
                                  f"--resume {shlex.quote(os.path.relpath(left))}", src)
        mode = classify(src)
        if mode == "stub":
            wd = src
            out = Path(output).absolute() if output else cls.output_of(src)
            locks.acquire(wd)
        else:
            out = Path(output).absolute() if output else src
            wd = Path(workdir).absolute() if workdir else cls.default_workdir(out)
            locks.acquire(wd)
            if (wd / "db.sqlite").exists():  # the only copy of that work: never replaced
                locks.release(wd)
                raise UnfinishedCrawl(wd)
            staging = wd.with_name(wd.name + ".staging")
            try:
                shutil.rmtree(wd, ignore_errors=True)
                shutil.rmtree(staging, ignore_errors=True)
                inner = tarball.extract(src, staging, only=None)
                (staging / inner).rename(wd)
            except BaseException:
                shutil.rmtree(wd, ignore_errors=True)
                locks.release(wd)
                raise
            finally:
                shutil.rmtree(staging, ignore_errors=True)
        try:
            conn = sqlite3.connect(wd / "db.sqlite")
            try:
                row = conn.execute("SELECT version, name FROM info ORDER BY id LIMIT 1").fetchone()
            except sqlite3.DatabaseError as exc:
                raise NotAnArchive(f"Not a Nitpicker archive database: {src.name}", src) from exc
            finally:
                conn.close()
            check_version(row[0] if row else None, str(src))
            if parse_version(str(row[0])) >= FIRST_013:  # check_version let it through
                stem = shlex.quote(src.name)
                raise UnsupportedFormat(
                    f"Archive uses Nitpicker format {row[0]}; --resume continues crawls in "
                    f"format 0.10 only. Convert it first: nitpicker-crawl convert {stem} "
                    "--to 0.10 -o OUT.nitpicker", found=str(row[0]), supported="0.10.x",
                    reason="too-new", path=str(src))
            writer = cls(wd, out, _name_of(out))
            writer.extracted = mode != "stub"
        except BaseException:
            if mode != "stub":
                shutil.rmtree(wd, ignore_errors=True)
            locks.release(wd)
            raise
        writer.conn.execute("PRAGMA journal_mode = WAL")
        writer._begin()
        writer._migrate()
        writer.commit()
        return writer

    def _migrate(self) -> None:
        """Our additive tables (docs/archive-format.md); idempotent, writer-only."""
        self.conn.execute(dedupe_cap_events_ddl())
        have = set(self._columns("dedupe_cap_events"))
        for name, decl in DEDUPE_CAP_EVENTS_COLUMNS:
            if name not in have:
                if "not null" in decl:
                    decl = decl + " default ''"
                self.conn.execute(f"ALTER TABLE `dedupe_cap_events` ADD COLUMN `{name}` {decl}")
        self.conn.execute(DEDUPE_CAP_EVENTS_INDEX)
        for statement in (*PAGE_SIGNATURES_DDL, *PAGE_BODY_HASHES_DDL):
            self.conn.execute(statement)
        self.conn.execute(CRAWL_RUNS_DDL)
        self.conn.execute(NETWORK_OUTAGES_DDL)
        self.conn.execute(BROWSER_OUTAGES_DDL)
        for statement in (*CONSOLE_LOGS_DDL, *MAIN_CONTENT_DDL_010):
            self.conn.execute(statement)

    # ------------------------------------------------------------------ helpers

    def _columns(self, table: str) -> tuple[str, ...]:
        return tuple(r[1] for r in self.conn.execute(f'PRAGMA table_info("{table}")'))

    def columns(self, table: str) -> tuple[str, ...]:
        """The columns ``table`` has in this archive."""
        return self._columns(table)

    def _begin(self) -> None:
        if not self._in_tx:
            self.conn.execute("BEGIN")
            self._in_tx = True

    def commit(self) -> None:
        """Make everything written so far durable (one WAL commit)."""
        if self._in_tx:
            self.conn.execute("COMMIT")
            self._in_tx = False

    def rollback(self) -> None:
        """Undo everything written since the last commit (a page whose rows could not all
        be written leaves none). Ids cached meanwhile may name rows that are gone: the
        cache is cleared and refilled from the database as URLs come up again."""
        if self._in_tx:
            with contextlib.suppress(sqlite3.Error):
                self.conn.execute("ROLLBACK")
            self._in_tx = False
        self._ids.clear()

    def _insert(self, table: str, values: Mapping[str, Any]) -> int:
        self._begin()
        cols = list(values)
        placeholders = ", ".join("?" for _ in cols)
        names = ", ".join(f'"{c}"' for c in cols)
        cur = self.conn.execute(
            f'INSERT INTO "{table}" ({names}) VALUES ({placeholders})',
            [_to_sql(values[c], c in _JSON_INFO or table != "info") for c in cols],
        )
        return int(cur.lastrowid or 0)

    @property
    def page_columns(self) -> frozenset[str]:
        cols = getattr(self, "_page_cols", None)
        if cols is None:
            cols = frozenset(self._columns("pages"))
            self._page_cols = cols
        return cols

    # ------------------------------------------------------------------ pages

    def page_id(self, url: str, *, is_external: bool | None = None) -> int:
        """The id of ``url``'s row, creating an unfetched placeholder if there is none."""
        pid = self._ids.get(url)
        if pid is not None:
            return pid
        row = self.conn.execute("SELECT id FROM pages WHERE url = ?", (url,)).fetchone()
        if row is not None:
            self._ids[url] = row[0]
            return int(row[0])
        self._begin()
        external = None if is_external is None else int(is_external)
        source = self.sources.get(url)
        cur = self.conn.execute(
            "INSERT INTO pages (url, scraped, isTarget, isExternal, source) "
            "VALUES (?, 0, 0, ?, ?)", (url, external, source)) \
            if source is not None else self.conn.execute(
            "INSERT INTO pages (url, scraped, isTarget, isExternal) VALUES (?, 0, 0, ?)",
            (url, external))
        pid = int(cur.lastrowid or 0)
        self._ids[url] = pid
        return pid

    def save_page(self, url: str, fields: PageFields | None = None, **kw: Any) -> int:
        """Insert or update ``url``'s row with ``fields``; return its id.

        ``scraped`` defaults to 1, ``isTarget`` to ``not isExternal``, and the tag/JSON-LD
        counts to zero (call :meth:`replace_tags` / :meth:`replace_jsonld` after).
        ``firstCrawledAt`` is kept from an earlier scrape; ``lastCrawledAt`` is set to
        now unless given. ``meta_extras`` and ``responseHeaders`` may be dicts.
        """
        values: dict[str, Any] = {**(fields or {}), **kw}
        unknown = set(values) - self.page_columns
        if unknown:
            raise ValueError(f"unknown pages columns: {sorted(unknown)}")
        values.setdefault("scraped", 1)
        values.setdefault("isTarget", 0 if values.get("isExternal") else 1)
        if url in self.sources:
            values.setdefault("source", self.sources[url])
        if not values.get("isSkipped"):
            # a URL fetched after all (a soft-cap suspect released, a retry) is no skip
            values.setdefault("skipReason", None)
            # denormalised counts start at zero; replace_tags / replace_jsonld update them
            values.setdefault("tag_count", 0)
            values.setdefault("jsonld_count", 0)
            values.setdefault("tags_providers_csv", "")
        stamp = now_ms()
        values.setdefault("firstCrawledAt", stamp)
        values.setdefault("lastCrawledAt", stamp)
        values["url"] = url
        cols = list(values)
        updates = ", ".join(
            f'"{c}" = COALESCE(pages."{c}", excluded."{c}")' if c == "firstCrawledAt"
            else f'"{c}" = excluded."{c}"'
            for c in cols if c != "url"
        )
        self._begin()
        row = self.conn.execute(
            f"INSERT INTO pages ({', '.join(f'{chr(34)}{c}{chr(34)}' for c in cols)}) "
            f"VALUES ({', '.join('?' for _ in cols)}) "
            f"ON CONFLICT(url) DO UPDATE SET {updates} RETURNING id",
            [_to_sql(values[c], True) for c in cols],
        ).fetchone()
        pid = int(row[0])
        self._ids[url] = pid
        return pid

    def copy_rows(self, table: str, rows: Sequence[Mapping[str, Any]]) -> None:
        """Insert rows as they are, ids included (``nitpicker-crawl upgrade`` carrying an
        older archive over). Foreign keys are checked at commit, not per row; a
        reference to a row that is not there fails the commit."""
        if not rows:
            return
        self._begin()
        self.conn.execute("PRAGMA defer_foreign_keys = ON")
        by_columns: dict[tuple[str, ...], list[list[Any]]] = {}
        for row in rows:
            by_columns.setdefault(tuple(row), []).append(
                [_to_sql(v, True) for v in row.values()])
        for cols, values in by_columns.items():
            names = ", ".join(f'"{c}"' for c in cols)
            self.conn.executemany(
                f'INSERT INTO "{table}" ({names}) VALUES ({", ".join("?" for _ in cols)})',
                values)

    def set_redirects(self, pairs: Iterable[tuple[int, int]]) -> None:
        """``(page id, redirect target id)`` pairs, set after every page exists."""
        self._begin()
        self.conn.executemany("UPDATE pages SET redirectDestId = ? WHERE id = ?",
                              [(dest, pid) for pid, dest in pairs])

    def _extras(self, page_id: int) -> dict[str, Any]:
        """The page's ``meta_extras`` as stored (an object; anything else reads as ``{}``)."""
        row = self.conn.execute("SELECT meta_extras FROM pages WHERE id = ?",
                                (page_id,)).fetchone()
        try:
            current = json.loads(row[0]) if row and row[0] else {}
        except ValueError:
            current = {}
        return current if isinstance(current, dict) else {}

    def update_page(self, page_id: int, fields: Mapping[str, Any], *,
                    extras: Mapping[str, Any] | None = None) -> None:
        """Set some columns of a page; ``extras`` are merged into its ``meta_extras``."""
        values = dict(fields)
        unknown = set(values) - self.page_columns
        if unknown:
            raise ValueError(f"unknown pages columns: {sorted(unknown)}")
        self._begin()
        if extras:
            values["meta_extras"] = {**extras, **self._extras(page_id)}
        if not values:
            return
        assignments = ", ".join(f'"{c}" = ?' for c in values)
        self.conn.execute(f"UPDATE pages SET {assignments} WHERE id = ?",
                          [*(_to_sql(v, True) for v in values.values()), page_id])

    def skip_page(self, url: str, reason: str, *, is_external: bool = False,
                  cap_event: int | None = None) -> int:
        """Record a URL seen but deliberately not fetched (robots.txt, exclude, dedupe-cap).

        ``cap_event``: the ``dedupe_cap_events`` id whose cap refused it, kept as
        ``meta_extras.capEvent`` (``skipReason`` stays upstream's ``dedupe-cap``)."""
        extras = {"meta_extras": {"capEvent": cap_event}} if cap_event is not None else {}
        return self.save_page(url, scraped=1, isTarget=0 if is_external else 1,
                              isExternal=int(is_external), isSkipped=1, skipReason=reason,
                              status=None, contentType=None, **extras)

    def record_redirect(self, sources: Sequence[str | tuple[str, int | None]],
                        dest_id: int, *, is_external: Callable[[str], bool] | None = None
                        ) -> None:
        """Point every source of a redirect chain at its final page (pre-flattened).

        Rows that already pointed at one of the sources are re-pointed too, so
        ``redirectDestId`` is always one hop to a non-redirect row. A source loses its
        anchors and images; a hop to itself is ignored. A source given as ``(url,
        status)`` — a hop the crawler followed — also keeps the status it answered and
        the URL it pointed at (``meta_extras.redirectTo``), so a reader can show the
        chain hop by hop (``redirectDestId`` alone only names its end). ``is_external``
        says where each hop is (a hop met only in the chain has no row before it: its
        ``isExternal`` would stay unset, and a list of the site's pages would miss it).
        """
        hops = [(s, None) if isinstance(s, str) else s for s in sources]
        final = self.conn.execute("SELECT url FROM pages WHERE id = ?", (dest_id,)).fetchone()
        for index, (url, status) in enumerate(hops):
            external = None if is_external is None else is_external(url)
            sid = self.page_id(url, is_external=external)
            if sid == dest_id:
                continue
            self._begin()
            if external is not None:
                self.conn.execute("UPDATE pages SET isExternal = ? WHERE id = ? AND "
                                  "isExternal IS NULL", (int(external), sid))
            self.conn.execute(
                "UPDATE pages SET redirectDestId = ?, scraped = 1 WHERE id = ?", (dest_id, sid)
            )
            if status is not None:
                target = hops[index + 1][0] if index + 1 < len(hops) else (
                    final[0] if final else None)
                extras = {**self._extras(sid), "redirectTo": target}
                self.conn.execute("UPDATE pages SET status = ?, meta_extras = ? WHERE id = ?",
                                  (status, json.dumps(extras, ensure_ascii=False), sid))
            self.conn.execute(
                "UPDATE pages SET redirectDestId = ? WHERE redirectDestId = ?", (dest_id, sid)
            )
            self.conn.execute("DELETE FROM anchors WHERE pageId = ?", (sid,))
            self.conn.execute("DELETE FROM images WHERE pageId = ?", (sid,))

    def replace_anchors(
        self, page_id: int, anchors: Iterable[tuple[str, str | None, str | None]],
        *, is_external: Callable[[str], bool] | None = None,
    ) -> None:
        """Store the page's ``(url, hash, text)`` anchors in document order.

        A non-empty list replaces earlier rows; an empty one keeps them (upstream rule:
        a failed re-scrape must not erase the link graph). ``is_external`` marks the
        placeholder rows created for targets not seen before.
        """
        rows = [(page_id, self.page_id(u, is_external=is_external(u) if is_external else None),
                 h, t) for u, h, t in anchors]
        if not rows:
            return
        self._begin()
        self.conn.execute("DELETE FROM anchors WHERE pageId = ?", (page_id,))
        self.conn.executemany(
            "INSERT INTO anchors (pageId, hrefId, hash, textContent) VALUES (?, ?, ?, ?)", rows
        )

    def replace_images(self, page_id: int, images: Iterable[Mapping[str, Any]]) -> None:
        """Store the page's images (``src, alt, width, height, naturalWidth, …``)."""
        rows = [
            (page_id, i.get("src"), i.get("currentSrc"), i.get("alt"), i.get("width", 0),
             i.get("height", 0), i.get("naturalWidth", 0), i.get("naturalHeight", 0),
             int(bool(i.get("isLazy"))), i.get("viewportWidth", 0), i.get("sourceCode"))
            for i in images
        ]
        if not rows:
            return
        self._begin()
        self.conn.execute("DELETE FROM images WHERE pageId = ?", (page_id,))
        self.conn.executemany(
            "INSERT INTO images (pageId, src, currentSrc, alt, width, height, naturalWidth, "
            "naturalHeight, isLazy, viewportWidth, sourceCode) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows,
        )

    def save_html(self, page_id: int, html: str, codec: str = "zstd") -> None:
        """Store the page's HTML snapshot, content-addressed (identical bodies share a row)."""
        if not html:
            return
        enc = encode_html(html, codec)
        self._begin()
        self.conn.execute(
            "INSERT OR IGNORE INTO page_html_blobs (hash, body, codec, size_raw, size_stored) "
            "VALUES (?, ?, ?, ?, ?)", (enc.hash, enc.body, enc.codec, enc.size_raw,
                                       enc.size_stored),
        )
        self.conn.execute(
            "INSERT OR REPLACE INTO page_html_ref (page_id, hash) VALUES (?, ?)",
            (page_id, enc.hash),
        )

    def add_inventory_run(self, *, label: str, sha256: str | None, total: int,
                          new_pages: int, scope_skipped: int, notes: Mapping[str, Any],
                          new_resources: int = 0) -> None:
        """One row of upstream's ``inventory_runs`` audit table (the columns it has)."""
        have = set(self._columns("inventory_runs"))
        if not have:
            return
        values = {"ran_at": datetime.now(UTC).isoformat(timespec="seconds"),
                  "list_label": label, "source_file_sha256": sha256, "total_lines": total,
                  "new_pages": new_pages, "new_resources": new_resources,
                  "scope_skipped": scope_skipped, "notes": json.dumps(notes, ensure_ascii=False)}
        self._insert("inventory_runs", {k: v for k, v in values.items() if k in have})

    def add_network_outage(self, *, started_at: int, detected_at: int, ended_at: int | None,
                           probe_host: str, trigger_error_count: int,
                           trigger_host_count: int) -> None:
        """One window of a network outage (``network_outages``, upstream's columns)."""
        self._insert("network_outages", {
            "started_at": started_at, "detected_at": detected_at, "ended_at": ended_at,
            "probe_host": probe_host, "trigger_error_count": trigger_error_count,
            "trigger_host_count": trigger_host_count})

    def add_browser_outage(self, *, endpoint: str, started_at: int, ended_at: int | None,
                           pages_moved: int, reason: str) -> None:
        """One loss of a lent browser (``browser_outages``, ours)."""
        self._insert("browser_outages", {
            "endpoint": endpoint, "started_at": started_at, "ended_at": ended_at,
            "pages_moved": pages_moved, "reason": reason})

    def replace_console_logs(self, page_id: int, entries: Sequence[Mapping[str, Any]]
                             ) -> None:
        """The page's console messages, in order (a page crawled again loses its old
        ones); each distinct message stored once, by the hash of all its fields."""
        self._begin()
        self.conn.execute("DELETE FROM page_console_logs WHERE pageId = ?", (page_id,))
        for e in entries:
            fields = (e.get("type") or "log", e.get("text"), e.get("url"), e.get("line"),
                      e.get("column"), e.get("stack"))
            digest = hashlib.sha256(json.dumps(fields, ensure_ascii=False).encode()).digest()
            self.conn.execute(
                "INSERT OR IGNORE INTO console_log_items (hash, type, text, loc_url, "
                "loc_line, loc_column, stack) VALUES (?, ?, ?, ?, ?, ?, ?)", (digest, *fields))
            self.conn.execute(
                "INSERT INTO page_console_logs (pageId, consoleLogId, ts) SELECT ?, id, ? "
                "FROM console_log_items WHERE hash = ?", (page_id, e.get("ts") or 0, digest))

    def replace_main_contents(self, page_id: int, columns: Mapping[str, Any],
                              items: Mapping[str, Sequence[Mapping[str, Any]]]) -> None:
        """The page's main region (``page_main_contents``: the ``main_content_*`` values)
        and its inventories (``page_main_content_<kind>``), replacing an earlier visit's."""
        self._begin()
        earlier = self.conn.execute("DELETE FROM page_main_contents WHERE page_id = ?",
                                    (page_id,)).rowcount
        self.conn.execute(_MAIN_CONTENTS_INSERT,
                          (page_id, *(columns.get(c) for c, _ in MAIN_CONTENT_COLUMNS)))
        for table in MAIN_CONTENT_TABLES:
            if earlier:   # the inventories are written with their summary row, or not
                self.conn.execute(f"DELETE FROM `{table}` WHERE pageId = ?", (page_id,))
            rows = items.get(table.removeprefix("page_main_content_")) or ()
            if rows:
                keys = tuple(rows[0])
                sql = _INVENTORY_INSERTS.get((table, keys))
                if sql is None:
                    sql = _INVENTORY_INSERTS[(table, keys)] = (
                        f"INSERT INTO `{table}` (`pageId`, "
                        f"{', '.join(f'`{c}`' for c in keys)}) VALUES "
                        f"({', '.join('?' * (len(keys) + 1))})")
                self.conn.executemany(sql, [(page_id, *r.values()) for r in rows])

    def set_source(self, url: str, source: str) -> None:
        """Relabel ``url``'s row (an inventory URL a crawled page turned out to link to)."""
        self._begin()
        self.conn.execute("UPDATE pages SET source = ? WHERE url = ?", (source, url))

    def inventory_seeds(self) -> tuple[int, int]:
        """(pages, files) the archive holds labelled ``inventory-seed``: inventory URLs
        no crawled page links to, this run's and any earlier run's of a ``--resume``."""
        counts = []
        for table in ("pages", "resources"):
            has = "source" in self.columns(table)
            counts.append(int(self.conn.execute(
                f"SELECT count(*) FROM {table} WHERE source = 'inventory-seed'"
            ).fetchone()[0]) if has else 0)
        return counts[0], counts[1]

    def save_body_hash(self, page_id: int, digest: bytes) -> None:
        """The page's body hash (``page_body_hashes``), replacing the one of an earlier
        visit: the hash always describes the HTML stored now."""
        self._begin()
        self.conn.execute("INSERT OR REPLACE INTO page_body_hashes (page_id, body_hash) "
                          "VALUES (?, ?)", (page_id, digest))

    def replace_tags(self, page_id: int, tags: Iterable[Mapping[str, Any]]) -> None:
        """Store technology detections and the page's denormalised tag columns."""
        rows = list(tags)
        self._begin()
        self.conn.execute("DELETE FROM page_tags WHERE pageId = ?", (page_id,))
        self.conn.executemany(
            "INSERT INTO page_tags (pageId, provider, category, externalId, version, "
            "confidence, categories, sources) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(page_id, t["provider"], t.get("category"), t.get("externalId"), t.get("version"),
              t.get("confidence"), _to_sql(t.get("categories"), True),
              _to_sql(t.get("sources"), True)) for t in rows])
        providers = sorted({str(t["provider"]) for t in rows})
        self.conn.execute(
            "UPDATE pages SET tag_count = ?, tags_providers_csv = ? WHERE id = ?",
            (len(rows), ",".join(providers), page_id),
        )

    def replace_jsonld(self, page_id: int, entries: Iterable[Mapping[str, Any]]) -> None:
        """Store JSON-LD / speculation-rules scripts and the page's ``jsonld_count``."""
        rows = list(entries)
        self._begin()
        self.conn.execute("DELETE FROM page_jsonld WHERE pageId = ?", (page_id,))
        for e in rows:
            self._insert("page_jsonld", {"pageId": page_id, **e})
        self.conn.execute("UPDATE pages SET jsonld_count = ? WHERE id = ?", (len(rows), page_id))

    def save_resource(self, url: str, **fields: Any) -> int:
        """Insert or update a sub-resource row; return its id."""
        fields["url"] = url
        cols = list(fields)
        updates = ", ".join(f'"{c}" = excluded."{c}"' for c in cols if c != "url")
        self._begin()
        row = self.conn.execute(
            f"INSERT INTO resources ({', '.join(chr(34) + c + chr(34) for c in cols)}) "
            f"VALUES ({', '.join('?' for _ in cols)}) ON CONFLICT(url) DO "
            + (f"UPDATE SET {updates}" if updates else "UPDATE SET url = url")
            + " RETURNING id",
            [_to_sql(fields[c], True) for c in cols],
        ).fetchone()
        return int(row[0])

    def resource_urls(self, urls: Sequence[str]) -> set[str]:
        """Which of ``urls`` have a ``resources`` row."""
        found: set[str] = set()
        for i in range(0, len(urls), 500):
            chunk = urls[i:i + 500]
            found.update(r[0] for r in self.conn.execute(
                f"SELECT url FROM resources WHERE url IN ({', '.join('?' * len(chunk))})",
                chunk))
        return found

    def forget_queued(self, url: str) -> None:
        """Remove ``url``'s unfetched placeholder row (it turned out to be a resource),
        unless something points at it: a link or a redirect keeps it a page."""
        self._begin()
        self.conn.execute(
            "DELETE FROM pages WHERE url = ? AND scraped = 0 AND NOT EXISTS (SELECT 1 FROM "
            "anchors WHERE hrefId = pages.id) AND NOT EXISTS (SELECT 1 FROM pages p2 WHERE "
            "p2.redirectDestId = pages.id)", (url,))
        self._ids.pop(url, None)

    def add_referrer(self, resource_id: int, page_id: int) -> None:
        self._begin()
        self.conn.execute(
            'INSERT OR IGNORE INTO "resources-referrers" (resourceId, pageId) VALUES (?, ?)',
            (resource_id, page_id),
        )

    def add_page_error(self, page_id: int, phase: str, message: str) -> None:
        self._insert("page_errors", {"pageId": page_id, "phase": phase, "message": message,
                                     "createdAt": now_ms()})

    def add_crawl_error(self, url: str | None, message: str, *, is_external: bool = False) -> None:
        self._insert("crawl_errors", {"url": url, "isExternal": int(is_external),
                                      "message": message, "createdAt": now_ms()})

    def add_dedupe_cap_event(self, **values: Any) -> int:
        """Insert one soft-cap audit row (docs/archive-format.md column names)."""
        values.setdefault("detected_at", now_ms())
        return self._insert("dedupe_cap_events", values)

    _DEFERRED = ("FROM pages WHERE isSkipped = 1 AND skipReason = 'dedupe-cap' "
                 "AND json_valid(meta_extras)")

    def deferred_urls(self) -> dict[int, list[str]]:
        """The URLs each cap event's gate holds back (its skipped rows), in the order they
        were met: what a released shape queues again, what probes are taken from."""
        found: dict[int, list[str]] = {}
        for event_id, url in self.conn.execute(
                f"SELECT json_extract(meta_extras, '$.capEvent'), url {self._DEFERRED} "
                "ORDER BY id"):
            if isinstance(event_id, int):
                found.setdefault(event_id, []).append(url)
        return found

    def path_samples(self, path: str, limit: int) -> list[tuple[str, bytes, str]]:
        """The latest ``limit`` crawled pages of a path shape (``example.com/feed``, any
        query): URL, stored HTML and codec — what a probe is compared with when the crawl
        no longer remembers the path (a ``--resume``)."""
        return [(r[0], r[1], r[2]) for r in self.conn.execute(
            "SELECT p.url, b.body, b.codec FROM page_signatures s "
            "JOIN pages p ON p.id = s.page_id JOIN page_html_ref r ON r.page_id = p.id "
            "JOIN page_html_blobs b ON b.hash = r.hash "
            "WHERE s.shape_key = ? OR substr(s.shape_key, 1, ?) = ? "
            "ORDER BY p.id DESC LIMIT ?", (path, len(path) + 1, path + "?", limit))]

    def set_cap_outcomes(self, evidence: dict[int, dict[str, Any]]) -> int:
        """At an orderly stop: each event's ``rejected_count`` is the URLs its gate left
        skipped in the archive (every run of a ``--resume`` included; a released suspect's
        URLs fetched after all are not refused), and ``evidence`` (the verdict and its
        probe rounds, :mod:`nitpicker_crawl.traps.deferral`) is merged into its ``signals``.
        Returns the URLs refused in all."""
        counts = dict(self.conn.execute(
            f"SELECT json_extract(meta_extras, '$.capEvent'), count(*) {self._DEFERRED} "
            "GROUP BY 1").fetchall())
        self._begin()
        for (event_id, signals) in self.conn.execute(
                "SELECT id, signals FROM dedupe_cap_events").fetchall():
            update = evidence.get(event_id)
            if update:
                try:
                    stored = json.loads(signals) if signals else {}
                except ValueError:
                    stored = {}
                stored = {**(stored if isinstance(stored, dict) else {}), **update}
                self.conn.execute("UPDATE dedupe_cap_events SET signals = ? WHERE id = ?",
                                  (json.dumps(stored, ensure_ascii=False), event_id))
            self.conn.execute("UPDATE dedupe_cap_events SET rejected_count = ? WHERE id = ?",
                              (counts.get(event_id, 0), event_id))
        self.commit()
        return sum(counts.values())

    def cap_events(self) -> list[tuple[int, str, set[str], dict[str, str | None] | None,
                                       dict[str, Any]]]:
        """``(id, signature, shape keys, query values, signals)`` of every recorded cap (for
        resume).

        Shapes and query values come from the event's ``signals`` JSON when it has them
        (events written by this version), else from ``page_signatures`` (older ones).
        """
        result = []
        for event_id, signature, shape, signals, threshold in self.conn.execute(
                "SELECT id, signature, shape_key, signals, effective_threshold "
                "FROM dedupe_cap_events ORDER BY id").fetchall():
            try:
                stored = json.loads(signals) if signals else {}
            except ValueError:
                stored = {}
            stored = stored if isinstance(stored, dict) else {}
            if isinstance(threshold, int):
                stored["effectiveThreshold"] = threshold
            shapes = {shape} | {r[0] for r in self.conn.execute(
                "SELECT DISTINCT shape_key FROM page_signatures WHERE signature = ? "
                "OR shape_signature = ?", (signature, signature))}
            shapes.update(s for s in stored.get("shapes", ()) if isinstance(s, str))
            qvals = stored.get("queryValues")
            if isinstance(qvals, dict):
                qvals = {str(k): (str(v) if v is not None else None) for k, v in qvals.items()}
            else:
                qvals = None
            result.append((event_id, signature, shapes, qvals, stored))
        return result

    def save_page_signature(self, page_id: int, *, signature: str, shape_signature: str,
                            parent_key: str, shape_key: str) -> None:
        self._begin()
        self.conn.execute(
            "INSERT OR REPLACE INTO page_signatures (page_id, signature, shape_signature, "
            "parent_key, shape_key) VALUES (?, ?, ?, ?, ?)",
            (page_id, signature, shape_signature, parent_key, shape_key),
        )

    def assign_order(self) -> None:
        """Fill ``pages.order`` with the natural sort position of every URL."""
        urls = self.conn.execute("SELECT id, url FROM pages").fetchall()
        urls.sort(key=lambda r: natural_key(r[1]))
        self._begin()
        self.conn.executemany('UPDATE pages SET "order" = ? WHERE id = ?',
                              [(i, r[0]) for i, r in enumerate(urls)])

    # ------------------------------------------------------------------ closing

    # ------------------------------------------------------------------ run log

    def start_run(self, options_json: str) -> int:
        """Open this run's ``crawl_runs`` row with the options it runs with."""
        self._run_id = self._insert("crawl_runs", {"startedAt": now_ms(),
                                                   "options": options_json})
        self.commit()
        return self._run_id

    def end_run(self, stop_reason: str, *, urls_done: int, pages_saved: int) -> None:
        """Record how this run stopped (``complete``, ``max-pages``, ``interrupted``)."""
        run_id = getattr(self, "_run_id", None)
        if run_id is None or self._closed:
            return
        self._begin()
        self.conn.execute(
            "UPDATE crawl_runs SET endedAt = ?, stopReason = ?, urlsDone = ?, "
            "pagesSaved = ? WHERE id = ?",
            (now_ms(), stop_reason, urls_done, pages_saved, run_id))
        self.commit()

    def last_options(self) -> str | None:
        """The options JSON of the latest run, or None (an archive without a run log)."""
        row = self.conn.execute(
            "SELECT options FROM crawl_runs ORDER BY id DESC LIMIT 1").fetchone()
        return str(row[0]) if row and row[0] is not None else None

    def set_roots(self, roots: list[str]) -> None:
        """Record start URLs added on a resume (``info.roots``)."""
        self._begin()
        self.conn.execute("UPDATE info SET roots = ?", (json.dumps(roots),))
        self.commit()

    def update_info(self, values: Mapping[str, Any]) -> None:
        """Set upstream's option columns of ``info`` to a resumed run's options, so that
        upstream's readers see what the archive was last crawled with."""
        have = set(self._columns("info"))
        known = {k: v for k, v in values.items() if k in have}
        if not known:
            return
        self._begin()
        assignments = ", ".join(f'"{k}" = ?' for k in known)
        self.conn.execute(f"UPDATE info SET {assignments}",
                          [_to_sql(v, k in _JSON_INFO) for k, v in known.items()])
        self.commit()

    def fetched_internal(self) -> int:
        """URLs of the site that got an HTTP answer (fetched, not skipped, not failed)."""
        return int(self.conn.execute(
            "SELECT count(*) FROM pages WHERE scraped = 1 AND isExternal = 0 AND "
            "(isSkipped = 0 OR isSkipped IS NULL) AND status > 0").fetchone()[0])

    def info(self) -> dict[str, Any]:
        """The ``info`` row as a dict."""
        cur = self.conn.execute("SELECT * FROM info ORDER BY id LIMIT 1")
        row = cur.fetchone()
        return dict(zip([d[0] for d in cur.description], row, strict=True)) if row else {}

    def close(self, *, assign_order: bool = True) -> Path:
        """Finish: natural order, checkpoint, close, tar atomically, remove the workdir.

        Returns the archive path. Idempotent.
        """
        if self._closed:
            return self.output
        if assign_order:
            self.assign_order()
        self.commit()
        self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self.conn.close()
        self._closed = True
        try:
            write_tar(self.workdir, self.output, self.name)
        except BaseException:
            locks.release(self.workdir)
            raise
        shutil.rmtree(self.workdir, ignore_errors=True)
        locks.release(self.workdir)
        return self.output

    def abandon(self) -> None:
        """Commit and close without tarring: the working directory stays as a stub."""
        if self._closed:
            return
        with contextlib.suppress(sqlite3.Error):
            self.commit()
            self.conn.close()
        self._closed = True
        locks.release(self.workdir)

    def give_up(self) -> None:
        """Stop without writing: the copy of a resumed file is removed (the file still
        holds everything), a working directory stays (it is the only copy)."""
        if self.extracted:
            self.discard()
        else:
            self.abandon()

    def discard(self) -> None:
        """Close and delete the working directory: for a crawl that never got going."""
        self.abandon()
        shutil.rmtree(self.workdir, ignore_errors=True)

    def __enter__(self) -> ArchiveWriter:
        return self

    def __exit__(self, exc_type: object, *exc: object) -> None:
        if exc_type is None:
            self.close()
        else:
            self.abandon()


def _name_of(path: Path) -> str:
    name = path.name
    return name[: -len(".nitpicker")] if name.endswith(".nitpicker") else name


_MAIN_CONTENTS_INSERT = (
    f"INSERT INTO page_main_contents (page_id, "
    f"{', '.join(c for c, _ in MAIN_CONTENT_COLUMNS)}) VALUES "
    f"({', '.join('?' * (len(MAIN_CONTENT_COLUMNS) + 1))})")
_INVENTORY_INSERTS: dict[tuple[str, tuple[str, ...]], str] = {}
"""Statements of the main-content inventories, by table and columns (built once)."""


def _to_sql(value: Any, json_ok: bool) -> Any:
    """Python value → SQLite value: bools as 0/1, dicts/lists as JSON text."""
    if isinstance(value, bool):
        return int(value)
    if json_ok and isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return value
