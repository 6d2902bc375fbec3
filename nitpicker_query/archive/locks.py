"""The ``<dir>.lock/pid.txt`` convention shared with upstream (docs/archive-format.md).

A lock on directory ``<dir>`` is the directory ``<dir>.lock``, made with a
non-recursive ``mkdir`` (atomic on every local file system), holding the owner's PID.
Writers acquire it on their working directory, the extraction cache on each cache entry;
readers of a crawl directory only :func:`probe` it, to tell the user a crawler is live.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from ..exceptions import ArchiveBusy

CLAIM_GRACE_SECONDS = 10.0
"""How long a lock (or take-over guard) without a readable PID counts as being taken."""


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
    return _holder(lock_path_for(directory))


def _holder(lock: Path) -> LockHolder | None:
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

    Two gaps in the bare convention are closed here, because four readers opening one
    archive at once hit both. ``mkdir`` and writing ``pid.txt`` are two steps, so a lock
    with no readable PID that is younger than :data:`CLAIM_GRACE_SECONDS` is someone
    taking it, not stale. And "stale: remove it and mkdir again" races when two processes see
    the same stale lock: the slower one would delete the lock the faster one just made.
    Take-overs therefore go through a second lock, ``<dir>.lock.takeover``, and re-read the
    holder under it. Our own PID counts as stale (a container restarts with the same small
    PIDs); threads of one process must serialise above this module.
    """
    lock = lock_path_for(directory)
    try:
        lock.mkdir()
    except FileExistsError:
        _take_over(lock)
    else:
        _write_pid(lock)
    return lock


def _write_pid(lock: Path) -> None:
    """Write ``pid.txt`` atomically (temp + rename), so no reader sees an empty file."""
    pid = str(os.getpid())
    temp = lock / f".pid.{pid}.tmp"
    temp.write_text(pid, encoding="utf-8")
    os.replace(temp, lock / "pid.txt")


def _being_taken(path: Path) -> bool:
    """True while ``path`` is younger than :data:`CLAIM_GRACE_SECONDS` (False when gone)."""
    try:
        return time.time() - path.stat().st_mtime < CLAIM_GRACE_SECONDS
    except FileNotFoundError:
        return False


def _take_over(lock: Path) -> None:
    """Replace a stale ``lock`` by ours, or raise ArchiveBusy; see :func:`acquire`."""
    guard = lock.with_name(lock.name + ".takeover")
    try:
        guard.mkdir()
    except FileExistsError:
        if _being_taken(guard):
            raise _taking(lock) from None
        shutil.rmtree(guard, ignore_errors=True)  # left by a process that died taking over
        try:
            guard.mkdir()
        except FileExistsError:
            raise _collision(lock) from None
    try:
        holder = _holder(lock)
        if holder is not None and holder.alive and holder.pid != os.getpid():
            raise ArchiveBusy(
                f"Archive is being used by another process (PID {holder.pid}): {lock}", lock
            )
        if holder is None and _being_taken(lock):
            raise _taking(lock)
        shutil.rmtree(lock, ignore_errors=True)
        try:
            lock.mkdir()
        except FileExistsError:
            raise _collision(lock) from None
        _write_pid(lock)
    finally:
        shutil.rmtree(guard, ignore_errors=True)


def _taking(lock: Path) -> ArchiveBusy:
    return ArchiveBusy(f"Archive lock is being taken by another process: {lock}", lock)


def _collision(lock: Path) -> ArchiveBusy:
    return ArchiveBusy(f"Could not take the lock (collision): {lock}", lock)


def release(directory: str | Path) -> None:
    """Remove the lock of ``directory``; errors are ignored (release is best-effort)."""
    with contextlib.suppress(OSError):
        shutil.rmtree(lock_path_for(directory), ignore_errors=True)
