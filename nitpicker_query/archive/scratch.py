"""A private working database: a temporary SQLite file of our own, never an archive.

Some answers are built from two archives at once (a comparison of two crawls): their
values are copied here, indexed and joined, and the archives stay read-only. The file is
created in the temporary directory with a random name, readable by this user only, and
removed by whoever made it.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from pathlib import Path


def create(prefix: str) -> tuple[Path, sqlite3.Connection]:
    """A new empty working database and a write connection to it (no journal: a failed
    build is thrown away whole, never resumed)."""
    fd, name = tempfile.mkstemp(prefix=prefix, suffix=".sqlite")
    os.close(fd)
    path = Path(name)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode = OFF")
    conn.execute("PRAGMA synchronous = OFF")
    return path, conn


def read(path: Path) -> sqlite3.Connection:
    """A read-only connection to a working database built before."""
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True)
