"""The two parts of a 0.10 → 0.13 conversion that are Python, not SQL, run beside it.

Decomposing every URL (:func:`nitpicker_crawl.archive.refs013.decompose_url`) and computing the
body hash of every stored HTML document (:func:`nitpicker_crawl.extract.content.body_hash`) are
the conversion's only per-row Python: at 300,000 pages about 15 and 45 seconds of CPU.
Each is a job that reads the 0.10 database read-only: the URLs go into a scratch SQLite
file the conversion attaches and copies from, the body hashes come back as rows, in
ranges of document hashes. On a machine with two cores or more the jobs run in a worker
process while the conversion's SQL runs (its bulk tables do not need them until late),
and the conversion hashes, when it gets there, the ranges the worker has not started; a
small archive, or a single core, runs them in the calling process — starting a process
costs more than hashing a few thousand documents.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sqlite3
from multiprocessing.pool import AsyncResult
from pathlib import Path
from typing import Any

from nitpicker_query.archive.html_codec import DECODE_LIMIT, decode_html

from ..extract.content import body_hash
from . import refs013

BATCH = 5000
"""Rows per ``executemany``."""

PARALLEL_FROM = 20_000
"""Pages from which the jobs go to a worker process (below, in this one)."""

HTML_TYPES = ("text/html", "application/xhtml+xml")
"""Content types whose stored HTML gets a body hash (and a NULL type, a page whose type
the server did not say)."""


def _open(scratch: str, source: str) -> sqlite3.Connection:
    conn = sqlite3.connect(scratch, isolation_level=None, uri=True)
    conn.execute("PRAGMA journal_mode = OFF")
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("ATTACH DATABASE ? AS src", (Path(source).absolute().as_uri() + "?mode=ro",))
    return conn


def decompose_urls(source: str, scratch: str, collect: list[str]) -> int:
    """Job: every distinct value the ``collect`` statements select (each names its
    column ``v``; run against ``src``), decomposed into ``scratch``'s table ``u`` with the
    ``url_refs`` columns, in URL order. Returns how many."""
    conn = _open(scratch, source)
    try:
        conn.execute("BEGIN")
        conn.execute("CREATE TEMP TABLE seen (url TEXT PRIMARY KEY) WITHOUT ROWID")
        for sql in collect:
            conn.execute(f"INSERT OR IGNORE INTO temp.seen SELECT v FROM ({sql}) "
                         "WHERE v IS NOT NULL AND v != ''")
        conn.execute("CREATE TABLE u (url TEXT PRIMARY KEY, scheme TEXT, host TEXT, "
                     "port INTEGER, path TEXT, query_hash BLOB, fragment TEXT) WITHOUT ROWID")
        cursor = conn.execute("SELECT url FROM temp.seen")
        count = 0
        while batch := cursor.fetchmany(BATCH):
            conn.executemany("INSERT INTO u VALUES (?, ?, ?, ?, ?, ?, ?)",
                             [(url, *refs013.decompose_url(url)) for (url,) in batch])
            count += len(batch)
        conn.execute("COMMIT")
        return count
    finally:
        conn.close()


BODY_CHUNKS = 8
"""The body-hash job is cut into this many ranges of document hashes, handed out one at
a time, so that the conversion takes those no worker has started when it gets there."""

BodyHashes = tuple[list[tuple[bytes, bytes]], int]
"""``([(document hash, body hash)], documents too large to decode)``."""


def _chunk(k: int) -> tuple[bytes, bytes | None]:
    """Range ``k`` of :data:`BODY_CHUNKS` (by first byte; SHA-256 spreads them evenly)."""
    low = bytes([256 * k // BODY_CHUNKS])
    return low, bytes([256 * (k + 1) // BODY_CHUNKS]) if k + 1 < BODY_CHUNKS else None


def hash_documents(source: str, k: int) -> BodyHashes:
    """Job: upstream's body hash of each stored HTML document (hash range ``k``) of a
    page that is HTML (not a redirect source), once per document. Documents too large
    to decode (:data:`~nitpicker_query.archive.html_codec.DECODE_LIMIT`) are counted and get none;
    range 0 also takes the hashes that are not 32-byte blobs (a stranger's archive)."""
    low, high = _chunk(k)
    conn = sqlite3.connect(Path(source).absolute().as_uri() + "?mode=ro", uri=True)
    try:
        tables = {str(r[0]) for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not {"page_html_ref", "page_html_blobs"} <= tables:
            return [], 0
        types = ", ".join(f"'{t}'" for t in HTML_TYPES)
        in_range = "(r.hash >= ? AND (? IS NULL OR r.hash < ?))"
        if k == 0:
            in_range = f"({in_range} OR typeof(r.hash) != 'blob')"
        cursor = conn.execute(
            "SELECT b.hash, b.body, b.codec FROM page_html_blobs b WHERE b.hash IN ("
            "SELECT r.hash FROM page_html_ref r JOIN pages p ON p.id = r.page_id WHERE "
            f"{in_range} AND p.redirectDestId IS NULL AND (p.contentType IS NULL OR "
            f"lower(p.contentType) IN ({types})))", (low, high, high))
        rows: list[tuple[bytes, bytes]] = []
        too_large = 0
        while batch := cursor.fetchmany(500):
            for digest, body, codec in batch:
                html, complete = decode_html(body, str(codec), limit=DECODE_LIMIT)
                if complete:
                    rows.append((digest, body_hash(html)))
                else:
                    too_large += 1
        return rows, too_large
    finally:
        conn.close()


_COUNTER: Any = None
"""In a worker process: the counter of body-hash ranges handed out, shared with the
conversion (``multiprocessing.Value``)."""


def _start_worker(counter: Any) -> None:
    """A worker leaves Ctrl-C to the conversion, which stops it (the terminal sends the
    signal to both): otherwise the worker would print its own traceback."""
    global _COUNTER
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _COUNTER = counter


def _take(counter: Any) -> int:
    with counter.get_lock():
        k = int(counter.value)
        counter.value = k + 1
    return k


def _drain(source: str, counter: Any) -> dict[int, BodyHashes]:
    """Hash ranges until none is left to take."""
    done: dict[int, BodyHashes] = {}
    while (k := _take(counter)) < BODY_CHUNKS:
        done[k] = hash_documents(source, k)
    return done


def _hash_ranges(source: str) -> dict[int, BodyHashes]:
    """Job, in a worker: :func:`_drain` with the shared counter."""
    return _drain(source, _COUNTER)


class Jobs:
    """The two jobs, started at once, their results asked for when needed."""

    def __init__(self, source: Path, scratch: Path, collect: list[str], pages: int) -> None:
        self.source = str(source)
        self.urls_db = scratch / "urls.sqlite"
        self.collect = collect
        cores = os.cpu_count() or 1
        # spawn: a fresh interpreter, nothing of this process's SQLite state inherited
        context = multiprocessing.get_context("spawn")
        self._counter = context.Value("i", 0)
        self._pool: Any = None
        self._urls: AsyncResult[int] | None = None
        self._bodies: list[AsyncResult[dict[int, BodyHashes]]] = []
        if pages >= PARALLEL_FROM and cores >= 2:
            workers = max(1, min(2, cores - 1))
            self._pool = context.Pool(workers, initializer=_start_worker,
                                      initargs=(self._counter,))
            self._urls = self._pool.apply_async(decompose_urls, (self.source,
                                                                 str(self.urls_db), collect))
            self._bodies = [self._pool.apply_async(_hash_ranges, (self.source,))
                            for _ in range(workers)]

    def urls(self) -> int:
        """Wait for (or run) the URL job; its table is ``u`` in :attr:`urls_db`."""
        if self._urls is not None:
            return self._urls.get()
        return decompose_urls(self.source, str(self.urls_db), self.collect)

    def bodies(self) -> BodyHashes:
        """The body hashes of every range: the ranges no worker has taken are computed
        here (the caller has nothing else to do), the others waited for."""
        results = _drain(self.source, self._counter)
        for pending in self._bodies:
            results.update(pending.get())
        rows = [row for k in sorted(results) for row in results[k][0]]
        return rows, sum(r[1] for r in results.values())

    def close(self, *, completed: bool) -> None:
        """Let the worker end, or, when the conversion failed or was interrupted, stop it
        at once (its work is not needed)."""
        if self._pool is not None:
            if completed:
                self._pool.close()
            else:
                self._pool.terminate()
            self._pool.join()
            self._pool = None
