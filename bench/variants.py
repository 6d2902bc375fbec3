"""Derived copies of a benchmark archive (the benchmarks' own files, never a user's)."""

from __future__ import annotations

import shutil
import sqlite3
import tarfile
from collections.abc import Iterable
from pathlib import Path


def derived_copy(path: Path, out: Path, statements: Iterable[str]) -> Path:
    """Extract ``path``, run ``statements`` on its database, VACUUM, tar it as ``out``."""
    work = out.parent / f"work-{out.stem}"
    with tarfile.open(path) as tf:
        tf.extractall(work, filter="data")
    inner = next(work.iterdir())
    conn = sqlite3.connect(inner / "db.sqlite")
    for statement in statements:
        conn.execute(statement)
    conn.commit()
    conn.execute("VACUUM")
    conn.close()
    with tarfile.open(out, "w") as tf:
        tf.add(inner, arcname=inner.name)
    shutil.rmtree(work)
    return out
