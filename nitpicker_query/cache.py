"""The extraction cache for ``.nitpicker`` files (ARCHIVE-FORMAT.md §2.2).

Extracting a 1 GB archive takes seconds; re-opening it must not. Each file is extracted
once into ``<root>/<key>-<safe name>/`` where the key is built from ``os.stat`` (size,
mtime, ctime) plus SHA-256 of the first and last 64 KiB, so an in-place rewrite on a file
system with coarse timestamps still gets a new key. A ready marker makes half-finished
extractions recognisable; a lock serialises two processes extracting the same file. The
cache is ours alone (never upstream's, whose copies may be migrated) and nothing is
evicted: deleting the root is always safe.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import tempfile
import threading
import time
from pathlib import Path

from . import extract, locks
from .exceptions import ArchiveBusy, ArchiveError

READY_MARKER = ".nitpicker-py-cache-ready"
_SENTINELS = {"0", "1", "false", "true", "no", "yes", "off", "on", "null", "undefined"}
_HASH_WINDOW = 64 * 1024
_WAIT_SECONDS = 300.0
_POLL_SECONDS = 0.05


def cache_root() -> Path:
    """``$NITPICKER_PY_CACHE_DIR`` unless a sentinel word, else ``<tmp>/nitpicker-py/cache``."""
    configured = os.environ.get("NITPICKER_PY_CACHE_DIR", "").strip()
    if configured and configured.lower() not in _SENTINELS:
        return Path(configured)
    return Path(tempfile.gettempdir()) / "nitpicker-py" / "cache"


def cache_disabled() -> bool:
    """True when ``NITPICKER_PY_DISABLE_CACHE`` asks for a private, removed-on-close copy."""
    value = os.environ.get("NITPICKER_PY_DISABLE_CACHE", "").strip().lower()
    return value in {"1", "true", "yes", "on"}


def cache_key(path: Path, st: os.stat_result | None = None) -> str:
    """``<size>-<mtime_ns>-<ctime_ns>-<head16>-<tail16 or 'short'>``."""
    st = st or path.stat()
    with open(path, "rb") as fh:
        head = hashlib.sha256(fh.read(_HASH_WINDOW)).hexdigest()[:16]
        if st.st_size <= _HASH_WINDOW:
            tail = "short"
        else:
            fh.seek(-_HASH_WINDOW, os.SEEK_END)
            tail = hashlib.sha256(fh.read(_HASH_WINDOW)).hexdigest()[:16]
    return f"{st.st_size}-{st.st_mtime_ns}-{st.st_ctime_ns}-{head}-{tail}"


def _safe_name(path: Path) -> str:
    stem = path.name[: -len(".nitpicker")] if path.name.endswith(".nitpicker") else path.name
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", stem)[:80]


def cache_dir_for(path: Path, key: str) -> Path:
    name = _safe_name(path)
    return cache_root() / (f"{key}-{name}" if name else key)


def _remove_empty_wal(directory: Path) -> None:
    wal = directory / "db.sqlite-wal"
    if wal.exists() and wal.stat().st_size == 0:
        wal.unlink()


def extract_private(path: Path) -> Path:
    """Extract into a fresh temporary directory (cache disabled); caller removes it."""
    staging = Path(tempfile.mkdtemp(prefix="nitpicker-py-"))
    try:
        inner = extract.extract(path, staging)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    target = staging / inner
    _remove_empty_wal(target)
    return target


def ensure_extracted(path: Path, key: str | None = None) -> Path:
    """Return the ready cache directory for ``path``, extracting it if needed.

    Procedure (§2.2): ready → use it; else lock, re-check, move an unready leftover
    aside (never delete in place: another reader may hold its files open), extract into
    ``<dir>.staging``, verify the file did not change meanwhile, rename into place,
    drop an empty WAL, write the marker, unlock.
    """
    key = key or cache_key(path)
    directory = cache_dir_for(path, key)
    if (directory / READY_MARKER).exists():
        return directory
    directory.parent.mkdir(parents=True, exist_ok=True)
    with _thread_lock(directory):
        return _extract_locked(path, key, directory)


_THREAD_LOCKS: dict[Path, threading.Lock] = {}
_THREAD_LOCKS_GUARD = threading.Lock()


def _thread_lock(directory: Path) -> threading.Lock:
    """One lock per cache entry for the threads of this process.

    The PID lock cannot tell two threads apart (both hold our PID), and the MCP server
    opens archives from worker threads.
    """
    with _THREAD_LOCKS_GUARD:
        return _THREAD_LOCKS.setdefault(directory, threading.Lock())


def _extract_locked(path: Path, key: str, directory: Path) -> Path:
    """:func:`ensure_extracted` once this thread is the only one of its process here."""
    deadline = time.monotonic() + _WAIT_SECONDS
    while True:
        try:
            locks.acquire(directory)
            break
        except ArchiveBusy:
            if (directory / READY_MARKER).exists():
                return directory
            if time.monotonic() > deadline:
                raise ArchiveError(
                    f"Timed out waiting for another process to extract {path.name}", path
                ) from None
            time.sleep(_POLL_SECONDS)
    try:
        if (directory / READY_MARKER).exists():
            return directory
        if directory.exists():
            n = 0
            while True:
                aside = directory.with_name(f"{directory.name}.corrupt.{os.getpid()}.{n}")
                if not aside.exists():
                    directory.rename(aside)
                    break
                n += 1
        staging = directory.with_name(directory.name + ".staging")
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir()
        try:
            inner = extract.extract(path, staging)
            if cache_key(path) != key:
                raise ArchiveError(f"Archive changed while it was being read: {path.name}", path)
            (staging / inner).rename(directory)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        _remove_empty_wal(directory)
        (directory / READY_MARKER).write_bytes(b"")
        return directory
    finally:
        with contextlib.suppress(OSError):
            locks.release(directory)
