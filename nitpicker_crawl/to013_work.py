"""The two parts of a 0.10 → 0.13 conversion that are Python, not SQL, run beside it.

Decomposing every URL (:func:`nitpicker_crawl.refs013.decompose_url`) and computing the
body hash of every stored HTML document (:func:`nitpicker_crawl.content.body_hash`) are
the conversion's only per-row Python: at 300,000 pages about 15 and 45 seconds of CPU.
Each is a job that reads the 0.10 database read-only and writes its results into a
scratch SQLite file of its own, which the conversion attaches and copies from. On a
machine with two cores or more the jobs run in a worker process while the conversion's
SQL runs (upstream's bulk tables do not need them until late); a small archive, or a
single core, runs them in the calling process — starting a process costs more than
hashing a few thousand documents.
"""

from __future__ import annotations

import multiprocessing
import os
import sqlite3
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path

from nitpicker_query.html_codec import DECODE_LIMIT, decode_html

from . import refs013
from .content import body_hash

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


def hash_documents(source: str, scratch: str) -> int:
    """Job: upstream's body hash of each stored HTML document of a page that is HTML
    (not a redirect source), once per document, into ``scratch``'s table
    ``bh(hash, body_hash)``. Returns how many documents were too large to decode
    (:data:`~nitpicker_query.html_codec.DECODE_LIMIT`): they get none."""
    conn = _open(scratch, source)
    try:
        conn.execute("BEGIN")
        conn.execute("CREATE TABLE bh (hash BLOB PRIMARY KEY, body_hash BLOB) WITHOUT ROWID")
        tables = {str(r[0]) for r in conn.execute(
            "SELECT name FROM src.sqlite_master WHERE type = 'table'")}
        too_large = 0
        if {"page_html_ref", "page_html_blobs"} <= tables:
            types = ", ".join(f"'{t}'" for t in HTML_TYPES)
            cursor = conn.execute(
                "SELECT b.hash, b.body, b.codec FROM src.page_html_blobs b WHERE b.hash IN ("
                "SELECT r.hash FROM src.page_html_ref r JOIN src.pages p ON p.id = r.page_id "
                "WHERE p.redirectDestId IS NULL AND (p.contentType IS NULL OR "
                f"lower(p.contentType) IN ({types})))")
            while batch := cursor.fetchmany(500):
                rows = []
                for digest, body, codec in batch:
                    html, complete = decode_html(body, str(codec), limit=DECODE_LIMIT)
                    if complete:
                        rows.append((digest, body_hash(html)))
                    else:
                        too_large += 1
                conn.executemany("INSERT INTO bh VALUES (?, ?)", rows)
        conn.execute("COMMIT")
        return too_large
    finally:
        conn.close()


class Jobs:
    """The two jobs, started at once, their results asked for when needed."""

    def __init__(self, source: Path, scratch: Path, collect: list[str], pages: int) -> None:
        self.urls_db = scratch / "urls.sqlite"
        self.bodies_db = scratch / "bodies.sqlite"
        cores = os.cpu_count() or 1
        self._pool: ProcessPoolExecutor | None = None
        args = (str(source),)
        if pages >= PARALLEL_FROM and cores >= 2:
            # spawn: a fresh interpreter, nothing of this process's SQLite state inherited
            self._pool = ProcessPoolExecutor(max_workers=max(1, min(2, cores - 1)),
                                             mp_context=multiprocessing.get_context("spawn"))
            self._urls: Future[int] | None = self._pool.submit(
                decompose_urls, *args, str(self.urls_db), collect)
            self._bodies: Future[int] | None = self._pool.submit(
                hash_documents, *args, str(self.bodies_db))
        else:
            self._urls = self._bodies = None
            self._args = (args, collect)

    def urls(self) -> int:
        """Wait for (or run) the URL job; its table is ``u`` in :attr:`urls_db`."""
        if self._urls is not None:
            return self._urls.result()
        return decompose_urls(self._args[0][0], str(self.urls_db), self._args[1])

    def bodies(self) -> int:
        """Wait for (or run) the body-hash job; its table is ``bh`` in :attr:`bodies_db`."""
        if self._bodies is not None:
            return self._bodies.result()
        return hash_documents(self._args[0][0], str(self.bodies_db))

    def close(self) -> None:
        """Stop the worker (at once when the conversion failed: its work is not needed)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
