"""A private working database: a temporary SQLite file of our own, never an archive.

Some answers are built from two archives at once (a comparison of two crawls): their
values are copied here by SQL — the archive attached read-only beside the working file
(:meth:`~nitpicker_query.archive.opening.Archive.attach`), ``INSERT … SELECT`` — indexed
and joined, and the archives stay read-only. The file is created in the temporary
directory with a random name, readable by this user only, and removed by whoever made it.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .opening import Archive

_PROGRESS_STEPS = 10_000


class Working:
    """A write connection to a working database, each statement within a deadline (a
    stranger's archive sizes what is copied: no statement may run unbounded)."""

    def __init__(self, path: Path, deadline: float) -> None:
        self.deadline = deadline
        self._started: float | None = None
        # a URI connection: ATTACH takes an archive's read-only URI (mode=ro, immutable)
        self.conn = sqlite3.connect(path.resolve().as_uri(), uri=True)
        self.conn.execute("PRAGMA journal_mode = OFF")
        self.conn.execute("PRAGMA synchronous = OFF")
        self.conn.execute("PRAGMA cache_size = -65536")  # 64 MiB, as an archive's
        self.conn.set_progress_handler(self._past_deadline, _PROGRESS_STEPS)

    def _past_deadline(self) -> int:
        started = self._started
        return int(started is not None and time.monotonic() - started > self.deadline)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
        """Run one statement, within the deadline."""
        self._started = time.monotonic()
        return self.conn.execute(sql, params)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Insert ``rows`` (read from an iterator of our own: the deadline covers SQLite)."""
        self._started = time.monotonic()
        self.conn.executemany(sql, rows)

    def function(self, name: str, arity: int, func: Callable[..., Any]) -> None:
        """A deterministic SQL function of ours on this connection."""
        self.conn.create_function(name, arity, func, deterministic=True)

    def attach(self, archive: Archive) -> None:
        """``archive`` read through this connection, read-only, as the queries read it."""
        archive.attach(self.conn)

    def close(self) -> None:
        self.conn.commit()
        self.conn.close()


def create(prefix: str, *, deadline: float) -> tuple[Path, Working]:
    """A new empty working database and a write connection to it (no journal: a failed
    build is thrown away whole, never resumed)."""
    fd, name = tempfile.mkstemp(prefix=prefix, suffix=".sqlite")
    os.close(fd)
    path = Path(name)
    return path, Working(path, deadline)


def reopen(path: Path, *, deadline: float) -> Working:
    """Another write connection to a working database being built (one archive at a time
    is attached: each brings its own views under the same names)."""
    return Working(path, deadline)


def read(path: Path) -> sqlite3.Connection:
    """A read-only connection to a working database built before."""
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True)
