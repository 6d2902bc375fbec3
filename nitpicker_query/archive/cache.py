"""The extraction cache for ``.nitpicker`` files (docs/archive-format.md, "Reading").

Extracting a 1 GB archive takes seconds; re-opening it must not. Each file is extracted
once into ``<root>/<key>-<safe name>/`` where the key is built from ``os.stat`` (size,
mtime, ctime) plus SHA-256 of the first and last 64 KiB, so an in-place rewrite on a file
system with coarse timestamps still gets a new key. A ready marker makes half-finished
extractions recognisable (it also records the source path and is touched on every use:
the entry's last use); a lock serialises two processes extracting the same file. The
cache is ours alone (never upstream's, whose copies may be migrated).

The root is private: ``$NITPICKER_PY_CACHE_DIR``, else ``$XDG_CACHE_HOME/nitpicker-py``,
else ``~/.cache/nitpicker-py``, else ``<tmp>/nitpicker-py-<uid>``; created ``0700`` and
refused when another user owns it or others may write to it (they could plant a "ready"
entry that we would read as the user's archive). It is bounded: after each extraction
the least recently used entries go until the cache fits ``$NITPICKER_PY_CACHE_MAX_SIZE``
(default 2 GiB), sparing entries used in the last ten minutes (another process may be
about to open them) and the one just extracted. Deleting the root is always safe.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import stat
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..exceptions import ArchiveBusy, ArchiveError
from . import locks, tarball

READY_MARKER = ".nitpicker-py-cache-ready"
_SENTINELS = {"0", "1", "false", "true", "no", "yes", "off", "on", "null", "undefined"}
_HASH_WINDOW = 64 * 1024
_WAIT_SECONDS = 300.0
_POLL_SECONDS = 0.05


DEFAULT_MAX_SIZE = 2 * 1024**3
EVICT_GRACE_SECONDS = 600.0
"""An entry used this recently is never evicted: a process that just found it ready may
not have opened its database yet."""


def cache_root() -> Path:
    """Where the cache lives (not created or checked here; see :func:`private_root`)."""
    configured = os.environ.get("NITPICKER_PY_CACHE_DIR", "").strip()
    if configured and configured.lower() not in _SENTINELS:
        return Path(configured)
    xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "nitpicker-py"
    home = os.path.expanduser("~")
    if home and home != "~" and os.path.isdir(home):
        return Path(home) / ".cache" / "nitpicker-py"
    return Path(tempfile.gettempdir()) / f"nitpicker-py-{os.getuid()}"


def private_root() -> Path:
    """:func:`cache_root`, created ``0700`` if missing, refused unless it is a directory
    of ours that no one else may write to."""
    root = cache_root()
    try:
        root.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = os.lstat(root)
    except OSError as exc:
        raise ArchiveError(f"Cannot create the extraction cache {root}: "
                           f"{exc.strerror or exc}") from None
    if not stat.S_ISDIR(st.st_mode):
        raise ArchiveError(f"The extraction cache {root} is not a directory (a symlink?); "
                           "remove it or set NITPICKER_PY_CACHE_DIR.")
    if st.st_uid != os.getuid() or st.st_mode & 0o022:
        raise ArchiveError(
            f"The extraction cache {root} is not private (owner uid {st.st_uid}, mode "
            f"{stat.S_IMODE(st.st_mode):04o}): another user could read or plant entries. "
            "Remove it, or set NITPICKER_PY_CACHE_DIR to a directory of your own.")
    return root


def max_size() -> int:
    """``$NITPICKER_PY_CACHE_MAX_SIZE`` in bytes (suffixes K, M, G), else 2 GiB."""
    text = os.environ.get("NITPICKER_PY_CACHE_MAX_SIZE", "").strip().upper()
    match = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([KMGT]?)I?B?", text)
    if not match:
        return DEFAULT_MAX_SIZE
    factor = 1024 ** " KMGT".index(match.group(2) or " ")
    return int(float(match.group(1)) * factor)


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
    return private_root() / (f"{key}-{name}" if name else key)


def _remove_empty_wal(directory: Path) -> None:
    wal = directory / "db.sqlite-wal"
    if wal.exists() and wal.stat().st_size == 0:
        wal.unlink()


def extract_private(path: Path, *, display: Path | None = None) -> Path:
    """Extract into a fresh temporary directory (cache disabled); caller removes it."""
    staging = Path(tempfile.mkdtemp(prefix="nitpicker-py-"))
    try:
        inner = tarball.extract(path, staging, name=(display or path).name)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    target = staging / inner
    _remove_empty_wal(target)
    return target


def ensure_extracted(path: Path, key: str | None = None, *,
                     display: Path | None = None) -> Path:
    """Return the ready cache directory for ``path``, extracting it if needed.

    Procedure (§2.2): ready → use it; else lock, re-check, move an unready leftover
    aside (never delete in place: another reader may hold its files open), extract into
    ``<dir>.staging``, verify the file did not change meanwhile, rename into place,
    drop an empty WAL, write the marker, unlock.
    """
    key = key or cache_key(path)
    directory = cache_dir_for(display or path, key)
    if (directory / READY_MARKER).exists():
        _touch(directory)
        return directory
    with _thread_lock(directory):
        ready = _extract_locked(path, key, directory, display or path)
    with contextlib.suppress(OSError):
        evict(keep=ready)
    return ready


def _touch(directory: Path) -> None:
    with contextlib.suppress(OSError):
        os.utime(directory / READY_MARKER)


@dataclass(frozen=True)
class Entry:
    """One extracted archive in the cache."""

    directory: Path
    source: str | None
    size: int
    last_used: float


def entries() -> list[Entry]:
    """The ready entries, least recently used first."""
    root = cache_root()
    found: list[Entry] = []
    try:
        children = list(root.iterdir())
    except OSError:
        return found
    for child in children:
        marker = child / READY_MARKER
        try:
            last = os.lstat(marker).st_mtime
        except OSError:
            continue
        source = None
        with contextlib.suppress(OSError, ValueError):
            data = json.loads(marker.read_text(encoding="utf-8") or "{}")
            source = data.get("source") if isinstance(data, dict) else None
        found.append(Entry(child, source if isinstance(source, str) else None,
                           _size(child), last))
    return sorted(found, key=lambda e: e.last_used)


def _size(directory: Path) -> int:
    total = 0
    for dirpath, _, files in os.walk(directory):
        for name in files:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(dirpath, name)).st_blocks * 512
    return total


def remove(directory: Path) -> bool:
    """Remove one entry unless another process is extracting it; True when removed.

    The marker goes first, so no one starts using a half-removed entry."""
    try:
        locks.acquire(directory)
    except ArchiveBusy:
        return False
    try:
        with contextlib.suppress(OSError):
            (directory / READY_MARKER).unlink()
        shutil.rmtree(directory, ignore_errors=True)
    finally:
        with contextlib.suppress(OSError):
            locks.release(directory)
    return True


def evict(*, keep: Path | None = None, limit: int | None = None) -> list[Entry]:
    """Drop least recently used entries until the cache fits ``limit``; return them."""
    limit = max_size() if limit is None else limit
    current = entries()
    total = sum(e.size for e in current)
    removed: list[Entry] = []
    now = time.time()
    for entry in current:
        if total <= limit:
            break
        if entry.directory == keep or now - entry.last_used < EVICT_GRACE_SECONDS:
            continue
        if remove(entry.directory):
            total -= entry.size
            removed.append(entry)
    return removed


def clear(*, everything: bool = False) -> tuple[list[Entry], list[Entry]]:
    """Remove the entries (and leftovers of interrupted extractions) no process used in
    the last :data:`EVICT_GRACE_SECONDS` — a viewer or an MCP server of the same user
    reading one is not pulled from under it —, or all of them with ``everything``;
    return the entries removed and those kept."""
    now = time.time()
    current = entries()
    kept = [] if everything else [e for e in current
                                  if now - e.last_used < EVICT_GRACE_SECONDS]
    removed = [e for e in current if e not in kept and remove(e.directory)]
    with contextlib.suppress(OSError):
        for child in cache_root().iterdir():
            if child.is_dir() and (".corrupt." in child.name or child.name.endswith(
                    ".staging")) and not child.is_symlink():
                shutil.rmtree(child, ignore_errors=True)
    return removed, kept


_THREAD_LOCKS: dict[Path, threading.Lock] = {}
_THREAD_LOCKS_GUARD = threading.Lock()


def _thread_lock(directory: Path) -> threading.Lock:
    """One lock per cache entry for the threads of this process.

    The PID lock cannot tell two threads apart (both hold our PID), and the MCP server
    opens archives from worker threads.
    """
    with _THREAD_LOCKS_GUARD:
        return _THREAD_LOCKS.setdefault(directory, threading.Lock())


def _extract_locked(path: Path, key: str, directory: Path, display: Path) -> Path:
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
                    f"Timed out waiting for another process to extract {display.name}", display
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
            inner = tarball.extract(path, staging, name=display.name)
            if cache_key(path) != key:
                raise ArchiveError(f"Archive changed while it was being read: {display.name}",
                                   display)
            (staging / inner).rename(directory)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        _remove_empty_wal(directory)
        (directory / READY_MARKER).write_text(json.dumps({"source": str(display)}),
                                              encoding="utf-8")
        return directory
    finally:
        with contextlib.suppress(OSError):
            locks.release(directory)


def report(action: str, *, everything: bool = False) -> dict[str, Any]:
    """``nitpicker-query cache list|clear [--all]`` as data: where the cache is, its
    bound, and its entries (least recently used first) or what was removed and what was
    kept because a process used it in the last ten minutes."""
    root = private_root()
    if action == "clear":
        removed, kept = clear(everything=everything)
        result: dict[str, Any] = {"root": str(root), "removed": len(removed),
                                  "freedBytes": sum(e.size for e in removed),
                                  "keptInUse": len(kept)}
        if kept:
            result["note"] = (f"{len(kept)} extracted archive(s) used in the last "
                              f"{EVICT_GRACE_SECONDS / 60:g} minutes kept (a viewer or MCP "
                              "server may be reading them); --all removes them too")
        return result
    items = [{"source": e.source, "sizeBytes": e.size,
              "lastUsedAt": int(e.last_used * 1000), "directory": e.directory.name}
             for e in entries()]
    return {"root": str(root), "maxSizeBytes": max_size(),
            "totalBytes": sum(i["sizeBytes"] for i in items), "items": items,
            "total": len(items), "limit": len(items), "offset": 0, "nextOffset": None}
