"""The ``<dir>.lock/pid.txt`` convention shared with upstream (ARCHIVE-FORMAT.md §2.3).

A lock on directory ``<dir>`` is the directory ``<dir>.lock``, made with a
non-recursive ``mkdir`` (atomic on every local file system), holding the owner's PID.
Writers acquire it on their working directory, the extraction cache on each cache entry;
readers of a crawl directory only :func:`probe` it, to tell the user a crawler is live.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from .exceptions import ArchiveBusy


@dataclass(frozen=True)
class LockHolder:
    """Who holds a lock: the lock directory, the PID in it, and whether it still runs."""

    lock_path: Path
    pid: int
    alive: bool


def lock_path_for(directory: str | Path) -> Path:
    """``/x/._nitpicker-site`` → ``/x/._nitpicker-site.lock``."""
    d = Path(directory)
    return d.with_name(d.name + ".lock")


def pid_alive(pid: int) -> bool:
    """True when a process with this PID exists (EPERM counts: it exists, not ours)."""
    try:
        os.kill(pid, 0)
    except PermissionError:
        return True
    except (ProcessLookupError, OSError):
        return False
    return True


def probe(directory: str | Path) -> LockHolder | None:
    """Read the lock of ``directory`` without taking it; None when absent or unreadable."""
    lock = lock_path_for(directory)
    try:
        text = (lock / "pid.txt").read_text(encoding="utf-8").strip()
        pid = int(text, 10)
    except (OSError, ValueError):
        return None
    if pid <= 0:
        return None
    return LockHolder(lock, pid, pid_alive(pid))


def acquire(directory: str | Path) -> Path:
    """Take the lock of ``directory`` or raise :class:`ArchiveBusy` naming the live holder.

    A lock left by a dead process is stale: it is removed and ``mkdir`` is tried once more.
    """
    lock = lock_path_for(directory)
    for attempt in range(2):
        try:
            lock.mkdir()
        except FileExistsError:
            holder = probe(directory)
            if holder is not None and holder.alive and holder.pid != os.getpid():
                raise ArchiveBusy(
                    f"Archive is being used by another process (PID {holder.pid}): {lock}",
                    lock,
                ) from None
            if attempt == 1:
                raise ArchiveBusy(f"Could not take the lock (collision): {lock}", lock) from None
            shutil.rmtree(lock, ignore_errors=True)
            continue
        (lock / "pid.txt").write_text(str(os.getpid()), encoding="utf-8")
        return lock
    raise AssertionError("unreachable")  # pragma: no cover


def release(directory: str | Path) -> None:
    """Remove the lock of ``directory``; errors are ignored (release is best-effort)."""
    with contextlib.suppress(OSError):
        shutil.rmtree(lock_path_for(directory), ignore_errors=True)
