"""Archives opened once per server process and reused across calls.

Keyed by the resolved path; an entry is reopened when the file's identity (size, mtime,
ctime, inode — of ``db.sqlite`` for a crawl directory) changes, so a re-crawl over the
same name is seen. The replaced archive is closed as soon as no call is reading it
(keeping every replaced one open until shutdown ran a long-lived server out of file
descriptors after a few dozen rewrites). Everything is closed on shutdown.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

from nitpicker_query import Archive, open_archive
from nitpicker_query.archive.opening import DEFAULT_QUERY_TIMEOUT


def _identity(path: Path) -> tuple[int, int, int, int]:
    target = path / "db.sqlite" if path.is_dir() else path
    st = os.stat(target)
    return st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino


class ArchiveRegistry:
    """Thread-safe cache of open :class:`Archive` objects."""

    def __init__(self, *, query_timeout: float = DEFAULT_QUERY_TIMEOUT) -> None:
        self.query_timeout = query_timeout
        self._lock = threading.Lock()
        self._open: dict[Path, tuple[tuple[int, int, int, int], Archive]] = {}
        self._retired: list[Archive] = []
        self._users: dict[int, int] = {}  # id(archive) → calls reading it now

    def get(self, path: Path, allowed: Callable[[Path], bool] | None = None) -> Archive:
        """The open archive for ``path`` (opened now if new or changed on disk).

        ``allowed`` checks where the opened file really is (``open_archive``'s check
        against a path swapped after it was validated).
        """
        try:
            ident = _identity(path)
        except OSError:
            ident = (0, 0, 0, 0)
        with self._lock:
            entry = self._open.get(path)
            if entry is not None and entry[0] == ident:
                return entry[1]
        # outside the lock: extraction may take seconds
        archive = open_archive(path, query_timeout=self.query_timeout, allowed=allowed)
        with self._lock:
            old = self._open.get(path)
            self._open[path] = (ident, archive)
            if old is not None:
                if self._users.get(id(old[1]), 0):
                    self._retired.append(old[1])  # closed by the last call reading it
                else:
                    old[1].close()
        return archive

    @contextlib.contextmanager
    def using(self, path: Path, allowed: Callable[[Path], bool] | None = None
              ) -> Iterator[Archive]:
        """:meth:`get`, marking the archive in use until the block ends."""
        while True:
            archive = self.get(path, allowed)
            with self._lock:
                if archive in self._retired or not any(
                        a is archive for _, a in self._open.values()):
                    continue  # replaced between get and here: take the new one
                self._users[id(archive)] = self._users.get(id(archive), 0) + 1
            break
        try:
            yield archive
        finally:
            with self._lock:
                left = self._users[id(archive)] - 1
                if left:
                    self._users[id(archive)] = left
                else:
                    del self._users[id(archive)]
                done = not left and archive in self._retired
                if done:
                    self._retired.remove(archive)
            if done:
                archive.close()

    def close(self) -> None:
        with self._lock:
            archives = [a for _, a in self._open.values()] + self._retired
            self._open, self._retired = {}, []
        for archive in archives:
            archive.close()
