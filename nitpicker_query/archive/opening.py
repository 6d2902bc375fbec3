"""Opening archives read-only: :func:`open_archive` and :class:`Archive`.

This module is the only place in ``nitpicker_query`` (and so in ``nitpicker_mcp``) that
connects to SQLite. It classifies the input (docs/archive-format.md), extracts
``.nitpicker`` files through the cache, picks the connection mode (§2.5) and checks the
format version (§3). Every connection it hands out is read-only twice over: the URI says
``mode=ro`` or ``immutable=1``, and ``PRAGMA query_only = ON`` is set. It never creates a
table, migrates, checkpoints, runs ANALYZE, or writes beside the user's files.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import stat
import sys
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from ..exceptions import (
    ArchiveChanged,
    ArchiveNotFound,
    NotAnArchive,
    QueryTimeout,
    UnsupportedFormat,
)
from ..format import v013
from ..format.v010 import (
    FIRST_013,
    FORMAT_013_TABLES,
    FORMAT_TABLES,
    check_version,
    parse_version,
    population_page,
)
from ..keys.folding import fold
from . import cache, locks

COUNT_CACHE_SIZE = 512
DEFAULT_QUERY_TIMEOUT = 60.0
"""Seconds one SQL statement may run (``--query-timeout``): a stranger's archive can make
any query slow, and one slow call must not hold a server for ever."""
_PROGRESS_STEPS = 20_000  # SQLite VM steps between two deadline checks (~1 ms)
_CACHE_KIB = 65_536  # page cache per connection: list queries reread the same pages
_PASS_CACHE_KIB = 8_000  # ... and for one sorting pass over every page (Archive.one_pass)


def _is_nonempty(path: Path) -> bool:
    try:
        return path.stat().st_size > 0
    except OSError:
        return False


def choose_connection(
    db: Path, *, from_cache: bool, crawler_alive: bool
) -> tuple[str, Path | None]:
    """Decide how to open ``db`` read-only; return ``(uri, private copy dir or None)``.

    ========================================  =====================================
    situation                                 open with
    ========================================  =====================================
    cache copy, no WAL / empty WAL            ``immutable=1`` (no locks, no side files)
    cache copy, non-empty WAL                 ``mode=ro`` (immutable would ignore the WAL;
                                              ``-shm`` is created in *our* cache dir)
    crawl dir, crawler alive                  ``mode=ro`` (the writer appends to the WAL;
                                              its ``-wal``/``-shm`` already exist)
    crawl dir, no crawler, no/empty WAL       ``immutable=1`` (``mode=ro`` would create
                                              ``-wal``/``-shm`` beside the user's file)
    crawl dir, no crawler, non-empty WAL      copy ``db.sqlite`` + WAL to a private temp
                                              dir and open the copy ``mode=ro``: even with
                                              ``-shm`` present, ``mode=ro`` rewrites it
    ========================================  =====================================

    ``immutable=1`` ignores the WAL, so it is used only where the WAL is empty.
    """
    wal = db.with_name(db.name + "-wal")
    has_wal = _is_nonempty(wal)
    if from_cache:
        return (_uri(db, "mode=ro") if has_wal else _uri(db, "immutable=1")), None
    if crawler_alive:
        return _uri(db, "mode=ro"), None
    if not has_wal:
        return _uri(db, "immutable=1"), None
    private = Path(tempfile.mkdtemp(prefix="nitpicker-py-stub-"))
    shutil.copy2(db, private / "db.sqlite")
    shutil.copy2(wal, private / "db.sqlite-wal")
    return _uri(private / "db.sqlite", "mode=ro"), private


FD_DIR = Path("/proc/self/fd")
"""Where an open descriptor can be named (Linux): a path through it reaches the file
that was opened, whatever happens to the names leading to it afterwards."""


def _uri(db: Path, params: str) -> str:
    if FD_DIR in db.parents:  # keep the descriptor's name: resolving it would follow
        return db.as_uri() + "?" + params  # the path again, the race it exists to close
    return db.resolve().as_uri() + "?" + params


class Archive:
    """An open, read-only archive. Query functions take it as their first argument.

    Connections are per thread (SQLite connections must not be shared across threads
    while in use), created on first use and all closed by :meth:`close`. Use it as a
    context manager, or call :meth:`close` when done.

    Attributes: ``path`` (what the user gave, absolute), ``mode`` (``archive`` for a
    ``.nitpicker`` file, ``stub`` for a crawl directory), ``directory`` (where
    ``db.sqlite`` is read), ``crawler_pid`` (a live crawler's PID, else None),
    ``version``, ``name`` and ``base_url`` from the ``info`` row.
    """

    def __init__(
        self,
        path: Path,
        mode: str,
        directory: Path,
        *,
        crawler_pid: int | None,
        owned_dir: Path | None = None,
        query_timeout: float = DEFAULT_QUERY_TIMEOUT,
        held_fd: int | None = None,
    ) -> None:
        self.path = path
        self.query_timeout = query_timeout
        self._held_fd = held_fd  # the crawl directory opened by descriptor, if it was
        self.mode = mode
        self.directory = directory
        self.crawler_pid = crawler_pid
        self._owned_dirs: list[Path] = [owned_dir] if owned_dir else []
        self._local = threading.local()
        self._lock = threading.Lock()
        self._connections: list[sqlite3.Connection] = []
        self._closed = False
        db = directory / "db.sqlite"
        self._uri, private = choose_connection(
            db, from_cache=(mode == "archive"), crawler_alive=crawler_pid is not None
        )
        if private is not None:
            self._owned_dirs.append(private)
        self._counts: OrderedDict[tuple[str, tuple[Any, ...]], int] = OrderedDict()
        self._tables: frozenset[str] = frozenset()
        self._views: frozenset[str] = frozenset()  # format 0.13: the 0.10 names as views
        self.lite = "pages"
        """The page table for passes that never filter or order by URL: ``pages`` in 0.10;
        in 0.13 a view whose URL costs nothing unless read (v013.py)."""
        self.pairs = "(SELECT pageId, hrefId, 1 AS n FROM anchors)"
        """Links as pairs (``pageId``, ``hrefId``, ``n`` links), for passes that count or
        follow links: each 0.10 row a pair of one; in 0.13 each stored pair once with its
        count, not expanded into ``anchors``' rows (nine tenths of a link count's time)."""
        self._columns: dict[str, tuple[str, ...]] = {}
        try:
            with database_errors(self):
                self._validate()
        except BaseException:
            self.close()
            raise

    # ------------------------------------------------------------------ connections

    def connection(self) -> sqlite3.Connection:
        """This thread's read-only connection (opened on first use)."""
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is not None:
            return conn
        if self._closed:
            raise NotAnArchive("Archive is closed.", self.path)
        try:
            conn = sqlite3.connect(self._uri, uri=True, check_same_thread=False)
            conn.set_progress_handler(self._past_deadline, _PROGRESS_STEPS)
            # what a person types matches what a page says: Ecoute finds Écoute
            conn.create_function("fold", 1, fold, deterministic=True)
            self._present(conn)
            conn.execute("PRAGMA query_only = ON")
            conn.execute(f"PRAGMA cache_size = -{_CACHE_KIB}")
            conn.execute("PRAGMA mmap_size = 268435456")
        except sqlite3.Error as exc:
            raise NotAnArchive(
                f"Not a Nitpicker archive database (db.sqlite is not a readable SQLite "
                f"database: {exc}): {self.path.name}", self.path,
            ) from exc
        conn.row_factory = sqlite3.Row
        self._local.conn = conn
        with self._lock:
            self._connections.append(conn)
        return conn

    def _present(self, conn: sqlite3.Connection) -> None:
        """On a format-0.13 database, create the 0.10-shaped TEMP views every query reads
        (:mod:`nitpicker_query.format.v013`), before ``query_only`` forbids them."""
        main = frozenset(str(r[0]) for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'"))
        if not v013.is_013(main):
            return
        try:
            version = conn.execute("SELECT version FROM info ORDER BY id LIMIT 1").fetchone()
        except sqlite3.Error:
            return  # no info table: _validate says so
        if version is None or parse_version(str(version[0])) < FIRST_013:
            return
        self._check_kinds_013(conn)
        try:
            self._views = v013.present(conn, main)
        except sqlite3.Error as exc:
            raise NotAnArchive(f"Not a Nitpicker archive database (format 0.13 tables do "
                               f"not read: {exc}): {self.path.name}", self.path) from exc

    def attach(self, conn: sqlite3.Connection) -> None:
        """Attach this archive's database to ``conn`` — a working database of our own
        (:mod:`.scratch`), opened with ``uri=True`` — read-only and as the queries read it:
        the same URI as this archive's connections (``mode=ro`` or ``immutable``: SQLite
        refuses any write to it), and on format 0.13 the 0.10-shaped views in ``conn``'s
        TEMP schema. Names the working database does not define then read the archive:
        one ``INSERT … SELECT`` copies what a Python loop would fetch row by row."""
        conn.execute("ATTACH DATABASE ? AS archive", (self._uri,))
        conn.execute(f"PRAGMA archive.cache_size = -{_CACHE_KIB}")
        conn.execute("PRAGMA archive.mmap_size = 268435456")
        if self._views:
            tables = frozenset(str(r[0]) for r in conn.execute(
                "SELECT name FROM archive.sqlite_master WHERE type = 'table'"))
            v013.present(conn, tables)

    def _check_kinds_013(self, conn: sqlite3.Connection) -> None:
        """The 0.13 tables the views read must be plain tables with the columns the views
        name (checked before any view exists: a view in their place could be endless)."""
        objects = conn.execute("SELECT name, type, coalesce(sql, '') FROM sqlite_master "
                               "WHERE type IN ('table', 'view')").fetchall()
        self._check_kinds([tuple(o) for o in objects], FORMAT_013_TABLES)
        present = {str(o[0]) for o in objects if o[1] == "table"}
        for name, needed in FORMAT_013_TABLES.items():
            if name not in present:
                continue
            have = {str(r[1]) for r in conn.execute(f'PRAGMA table_info("{name}")')}
            missing = [c for c in needed if c not in have]
            if missing:
                raise NotAnArchive(f"Not a Nitpicker archive database (table {name} lacks "
                                   f"column {missing[0]}): {self.path.name}", self.path)

    def _past_deadline(self) -> int:
        """SQLite's progress handler: non-zero interrupts the running statement."""
        started = getattr(self._local, "started", None)
        return int(started is not None and time.monotonic() - started > self.query_timeout)

    def _start(self) -> sqlite3.Connection:
        conn = self.connection()
        self._local.started = time.monotonic()
        return conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
        """Run one statement on this thread's connection, within the deadline."""
        return self._start().execute(sql, params)

    def stream(self, sql: str, params: Sequence[Any] = (), *,
               chunk: int = 500) -> Iterator[tuple[Any, ...]]:
        """The rows of one statement, read ``chunk`` at a time, each chunk within the
        deadline (not the whole read): a report streams a 300,000-row statement for
        minutes, while a statement that yields nothing for the deadline is stopped."""
        cursor = self.execute(sql, params)
        while True:
            rows = cursor.fetchmany(chunk)
            if not rows:
                return
            for row in rows:
                yield tuple(row)
            self._local.started = time.monotonic()

    def count(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run a ``SELECT count(*) …`` and return the number, memoised when safe.

        An extracted ``.nitpicker`` copy never changes, so a list's ``total`` is computed
        once per filter and process (Datasette does the same for immutable databases):
        paging through a 300k-page list then costs only the page itself. Crawl
        directories may still grow, so their counts are never memoised. The memo lives
        in memory only and holds at most :data:`COUNT_CACHE_SIZE` entries.
        """
        key = (sql, tuple(params))
        if self.mode == "archive":
            with self._lock:
                if key in self._counts:
                    self._counts.move_to_end(key)
                    return self._counts[key]
        value = int(self.execute(sql, params).fetchone()[0])
        if self.mode == "archive":
            with self._lock:
                self._counts[key] = value
                if len(self._counts) > COUNT_CACHE_SIZE:
                    self._counts.popitem(last=False)
        return value

    def filled(self, column: str, alias: str = "") -> str:
        """SQL true when a page's text or URL ``column`` holds a non-empty value.

        In 0.10 the value is read (``coalesce(x, '') != ''``); the 0.13 views answer it
        from the stored id (``has_<column>``) without looking the text up — 0.13 never
        stores an empty text, and six lookups a page were most of get_summary's time."""
        prefix = f"{alias}." if alias else ""
        if self.format == "0.13" and f"has_{column}" in self.columns(self.lite):
            return f"{prefix}has_{column}"
        return f"coalesce({prefix}{column}, '') != ''"

    def population(self, alias: str, population: str) -> str:
        """SQL for a page of ``population`` (:func:`~nitpicker_query.format.v010.population_page`)
        on this archive's ``alias`` (``pages`` or :attr:`lite`). On 0.13 the canonical is
        compared with the page by URL id (``canonical_self``), not by reading both URLs:
        two lookups a page were most of the indexable summary's time there."""
        canonical_ok = None
        if self.format == "0.13" and "canonical_self" in self.columns(self.lite):
            canonical_ok = (f"(NOT {alias}.has_canonical OR "
                            f"coalesce({alias}.canonical_self, 0))")
        return population_page(alias, population, canonical_ok=canonical_ok)

    def has_table(self, name: str) -> bool:
        return name in self._tables

    def columns(self, table: str) -> tuple[str, ...]:
        """Column names of ``table`` (empty when it does not exist), cached."""
        if table not in self._columns:
            if table not in self._tables:
                return ()
            rows = self.execute(f'PRAGMA table_info("{table}")').fetchall()
            self._columns[table] = tuple(r["name"] for r in rows)
        return self._columns[table]

    def select_list(self, table: str, alias: str, names: Sequence[str]) -> str:
        """``alias."col"`` for each name (repeats allowed), or ``NULL`` where it is missing.

        Early 0.10 archives miss some columns that later 0.10 writers added; a query
        reads them as NULL instead of failing. Positions match ``names``.
        """
        have = set(self.columns(table))
        return ", ".join(f'{alias}."{n}"' if n in have else "NULL" for n in names)

    @contextlib.contextmanager
    def one_pass(self) -> Iterator[None]:
        """Statements that read every page once and sort what they read (a ``GROUP BY``
        over ``pages``) run with a smaller page cache: SQLite sizes its sorter's memory from
        the cache, and with the 64 MiB the list queries want, the duplicate clusters' pass
        over 300,000 pages took 0.69 s against 0.56 s (bench/queries.py). The big cache is
        back for the next statement."""
        conn = self.connection()
        conn.execute(f"PRAGMA cache_size = -{_PASS_CACHE_KIB}")
        try:
            yield
        finally:
            conn.execute(f"PRAGMA cache_size = -{_CACHE_KIB}")

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """All rows as plain tuples: for hot loops, where name lookups in
        :class:`sqlite3.Row` would cost more than the query (≈ 9 µs per 36-column row)."""
        cursor = self._start().cursor()
        cursor.row_factory = None
        return cursor.execute(sql, params).fetchall()

    @property
    def error_log(self) -> Path | None:
        """The crawler's ``error.log`` when the archive has one."""
        log = self.directory / "error.log"
        return log if log.is_file() else None

    # ------------------------------------------------------------------ validation

    def _validate(self) -> None:
        display = self.path.name
        try:
            objects = [tuple(r) for r in self.execute(
                "SELECT name, type, coalesce(sql, '') FROM sqlite_master "
                "WHERE type IN ('table', 'view')").fetchall()]
        except sqlite3.DatabaseError as exc:
            raise NotAnArchive(
                f"Not a Nitpicker archive database (db.sqlite is not a readable SQLite "
                f"database: {exc}): {display}", self.path,
            ) from exc
        self._tables = frozenset(name for name, kind, _ in objects if kind == "table")
        self._check_kinds(objects, FORMAT_TABLES)
        if "info" not in self._tables:
            raise NotAnArchive(
                f"Not a Nitpicker archive database (no info table): {display}", self.path
            )
        info_columns = self.columns("info")
        if "version" not in info_columns:
            check_version(None, str(self.path))
        row = self.execute("SELECT * FROM info ORDER BY id LIMIT 1").fetchone()
        if row is None:
            if self.mode == "stub":
                raise NotAnArchive(
                    "The crawl directory is still being set up (no info row yet); try again "
                    f"in a moment: {display}", self.path,
                )
            check_version(None, str(self.path))
        assert row is not None
        self.version: str = str(row["version"]) if row["version"] is not None else ""
        check_version(row["version"], str(self.path))
        self.format = "0.13" if parse_version(self.version) >= FIRST_013 else "0.10"
        if self.format == "0.13":
            if "pages" not in self._views:
                raise UnsupportedFormat(
                    f"Archive claims format {self.version} but lacks the 0.13 tables "
                    f"(content_items, url_refs, page_meta, text_refs …): {display}",
                    found=self.version, supported="0.13.x", reason="unknown", path=self.path)
            self._tables = self._tables | self._views
            self.lite = "pages_lite"
            if "anchor_pairs" in self._views:
                self.pairs = "anchor_pairs"
        elif "pages" not in self._tables or "meta_extras" not in self.columns("pages"):
            raise UnsupportedFormat(
                f"Archive claims format {self.version} but lacks the 0.10 tables: {display}",
                found=self.version, supported="0.10.x", reason="unknown", path=self.path,
            )
        self._check_columns()
        self.name: str | None = row["name"] if "name" in info_columns else None
        self.base_url: str | None = row["baseUrl"] if "baseUrl" in info_columns else None
        self.info: dict[str, Any] = dict(row)

    def _check_kinds(self, objects: list[tuple[Any, ...]], names: dict[str, Any]) -> None:
        """The format's tables (``names``: FORMAT_TABLES, FORMAT_013_TABLES) must be plain
        tables, checked before any of them is read: a view named ``anchors`` over an
        endless recursive CTE would hang every links query; a virtual table needs a
        module we do not load.
        ``objects``: ``(name, type, sql)`` of every table and view in ``sqlite_master``."""
        for name, kind, sql in objects:
            if name in names and (
                    kind != "table" or str(sql).lstrip().upper().startswith("CREATE VIRTUAL")):
                what = "a view" if kind == "view" else "a virtual table"
                raise NotAnArchive(f"Not a Nitpicker archive database (table {name} is "
                                   f"{what}): {self.path.name}", self.path)

    def _check_columns(self) -> None:
        """Each present format table has the columns queries cannot do without."""
        for name, needed in FORMAT_TABLES.items():
            if name not in self._tables or name in self._views:
                continue
            if self.format == "0.13" and name == "dedupe_cap_events":
                needed = FORMAT_013_TABLES[name]  # upstream's columns; ours are optional
            try:
                have = set(self.columns(name))
            except sqlite3.Error as exc:
                raise NotAnArchive(f"Not a Nitpicker archive database (table {name}: "
                                   f"{exc}): {self.path.name}", self.path) from exc
            missing = [c for c in needed if c not in have]
            if missing:
                raise NotAnArchive(f"Not a Nitpicker archive database (table {name} lacks "
                                   f"column {missing[0]}): {self.path.name}", self.path)

    # ------------------------------------------------------------------ lifetime

    def close(self) -> None:
        """Close every connection and remove private copies; safe to call twice."""
        with self._lock:
            self._closed = True
            connections, self._connections = self._connections, []
        for conn in connections:
            with contextlib.suppress(sqlite3.Error):
                conn.close()
        self._local = threading.local()
        for directory in self._owned_dirs:
            shutil.rmtree(directory, ignore_errors=True)
        self._owned_dirs = []
        if self._held_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._held_fd)
            self._held_fd = None

    def __enter__(self) -> Archive:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<Archive {self.mode} {self.path.name!r} format {getattr(self, 'version', '?')}>"


def classify(path: Path) -> str:
    """``archive`` or ``stub``, or raise with the messages of docs/archive-format.md"""
    text = str(path)
    try:
        st = path.stat()
    except (OSError, ValueError):  # ValueError: a NUL byte in the path
        raise ArchiveNotFound(
            f"Archive path not found or not readable: {path.name or text}", path
        ) from None
    if not (stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode)):
        # a FIFO or a device would block the first read for ever
        raise NotAnArchive(f"Not a regular file or directory: {path.name}", path)
    if text.endswith(".nitpicker"):
        if path.is_dir():
            if (path / "db.sqlite").is_file():
                return "stub"
            raise NotAnArchive(
                f'Path "{path.name}" looks like a .nitpicker archive file but resolves to a '
                "directory.", path,
            )
        if not os.access(path, os.R_OK):
            raise ArchiveNotFound(f"Archive path not found or not readable: {path.name}", path)
        return "archive"
    if path.is_dir():
        if (path / "db.sqlite").is_file():
            return "stub"
        raise NotAnArchive(
            f"Directory is not a crawl in progress (no db.sqlite in it): {path.name}",
            path,
        )
    raise NotAnArchive(
        "Invalid path. Only .nitpicker archive files or the directory of a crawl in "
        f"progress (._nitpicker-<name>, holding db.sqlite) are supported: {path.name}", path,
    )


_KEYS: dict[tuple[str, int, int, int], str] = {}
_KEYS_LOCK = threading.Lock()


def _key_for(path: Path) -> str:
    """The cache key, memoised per process by (realpath, size, mtime, ctime)."""
    st = path.stat()
    ident = (str(path.resolve()), st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    with _KEYS_LOCK:
        key = _KEYS.get(ident)
    if key is None:
        key = cache.cache_key(path, st)
        with _KEYS_LOCK:
            _KEYS[ident] = key
    return key


@contextlib.contextmanager
def database_errors(archive: Archive) -> Iterator[None]:
    """SQLite errors met while querying ``archive`` as one-line archive errors.

    A statement past the deadline is :class:`QueryTimeout`; anything else SQLite says
    about a stranger's file (malformed, an unknown collation or function, a missing
    module) is :class:`NotAnArchive` naming the archive — never an internal error.
    """
    try:
        yield
    except sqlite3.OperationalError as exc:
        if "interrupted" in str(exc):
            raise QueryTimeout(
                f"Query stopped after {archive.query_timeout:g} s (--query-timeout): the "
                f"archive makes it too slow: {archive.path.name}", archive.path) from None
        raise NotAnArchive(f"Archive database error ({exc}): {archive.path.name}",
                           archive.path) from exc
    except sqlite3.DatabaseError as exc:
        raise NotAnArchive(f"Archive database error ({exc}): {archive.path.name}",
                           archive.path) from exc


def open_archive(path: str | os.PathLike[str], *,
                 query_timeout: float = DEFAULT_QUERY_TIMEOUT,
                 allowed: Callable[[Path], bool] | None = None) -> Archive:
    """Open a ``.nitpicker`` file or a crawl directory containing ``db.sqlite``, read-only.

    A file is extracted safely into the cache (once: later opens of the unchanged file
    reuse it); a directory is read in place, and a live crawler holding it is reported
    in ``crawler_pid`` with a note on stderr.

    Raises:
        ArchiveNotFound, NotAnArchive, UnsafeArchive, UnsupportedFormat: with a one-line
        message naming the file and what to do.
    """
    p = Path(os.path.abspath(os.fspath(path)))
    mode = classify(p)
    if allowed is not None and FD_DIR.is_dir():
        return _open_checked(p, mode, allowed, query_timeout)
    if mode == "stub":
        holder = locks.probe(p)
        pid = holder.pid if holder is not None and holder.alive else None
        if pid is not None:
            print(
                f"[nitpicker] A crawler is writing this crawl directory (PID {pid}). "
                "Showing a read-only view — data may be incomplete.",
                file=sys.stderr,
            )
        return Archive(p, "stub", p, crawler_pid=pid, query_timeout=query_timeout)
    real = p.resolve()
    if cache.cache_disabled():
        directory = cache.extract_private(real)
        return Archive(p, "archive", directory, crawler_pid=None, owned_dir=directory.parent,
                       query_timeout=query_timeout)
    directory = cache.ensure_extracted(real, _key_for(real))
    return Archive(p, "archive", directory, crawler_pid=None, query_timeout=query_timeout)


def _open_checked(p: Path, mode: str, allowed: Callable[[Path], bool],
                  query_timeout: float) -> Archive:
    """Open what was checked: the file (or crawl directory) is opened once, by
    descriptor, its real location checked with ``allowed``, and then read only through
    that descriptor (``/proc/self/fd/N``). A path component swapped for a symlink after a
    caller checked the path can no longer redirect the read outside the allowed roots.
    """
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK
    if mode == "stub":
        flags |= os.O_DIRECTORY
    try:
        fd = os.open(p, flags)
    except OSError as exc:
        raise ArchiveNotFound(f"Archive path not found or not readable ({exc.strerror}): "
                              f"{p.name}", p) from None
    keep = False
    try:
        where = Path(os.readlink(FD_DIR / str(fd)))
        if not allowed(where):
            raise ArchiveChanged(f"Archive path changed while it was being opened (now "
                                 f"outside the allowed locations); refused: {p.name}", p)
        st = os.fstat(fd)
        handle = FD_DIR / str(fd)
        if mode == "stub":
            for name in ("db.sqlite", "db.sqlite-wal", "db.sqlite-shm"):
                try:
                    member = os.stat(name, dir_fd=fd, follow_symlinks=False)
                except FileNotFoundError:
                    continue
                if not stat.S_ISREG(member.st_mode):
                    raise NotAnArchive(f"Not a Nitpicker crawl directory ({name} is not a "
                                       f"regular file): {p.name}", p)
            holder = locks.probe(p)
            pid = holder.pid if holder is not None and holder.alive else None
            keep = True
            return Archive(p, "stub", handle, crawler_pid=pid, query_timeout=query_timeout,
                           held_fd=fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotAnArchive(f"Not a regular file or directory: {p.name}", p)
        if cache.cache_disabled():
            directory = cache.extract_private(handle, display=where)
            return Archive(p, "archive", directory, crawler_pid=None,
                           owned_dir=directory.parent, query_timeout=query_timeout)
        directory = cache.ensure_extracted(handle, cache.cache_key(handle, st), display=where)
        return Archive(p, "archive", directory, crawler_pid=None, query_timeout=query_timeout)
    finally:
        if not keep:
            os.close(fd)


@contextlib.contextmanager
def opened(archive: Archive | str | os.PathLike[str]) -> Iterator[Archive]:
    """Yield an :class:`Archive` for a path or pass one through; close only what it opened."""
    if isinstance(archive, Archive):
        yield archive
        return
    a = open_archive(archive)
    try:
        yield a
    finally:
        a.close()
