"""Archives opened once per server process and reused across calls.

Keyed by the resolved path; an entry is reopened when the file's identity (size, mtime,
ctime, inode — of ``db.sqlite`` for a crawl directory) changes, so a re-crawl over the
same name is seen. Closed on shutdown.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from nitpicker_query import Archive, open_archive


def _identity(path: Path) -> tuple[int, int, int, int]:
    target = path / "db.sqlite" if path.is_dir() else path
    st = os.stat(target)
    return st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino


class ArchiveRegistry:
    """Thread-safe cache of open :class:`Archive` objects."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: dict[Path, tuple[tuple[int, int, int, int], Archive]] = {}
        self._retired: list[Archive] = []

    def get(self, path: Path) -> Archive:
        """The open archive for ``path`` (opened now if new or changed on disk)."""
        try:
            ident = _identity(path)
        except OSError:
            ident = (0, 0, 0, 0)
        with self._lock:
            entry = self._open.get(path)
            if entry is not None and entry[0] == ident:
                return entry[1]
        archive = open_archive(path)  # outside the lock: extraction may take seconds
        with self._lock:
            old = self._open.get(path)
            self._open[path] = (ident, archive)
            if old is not None:
                # another call may still be reading it: close it at shutdown, not now
                self._retired.append(old[1])
        return archive

    def close(self) -> None:
        with self._lock:
            archives = [a for _, a in self._open.values()] + self._retired
            self._open, self._retired = {}, []
        for archive in archives:
            archive.close()
