"""Where ``analyze`` writes: a crawl directory in place, a ``.nitpicker`` file through a
work directory beside it, renamed over the file only when every plugin is done.

A ``.nitpicker`` file is extracted into ``.<name>.analyze/`` next to it (the same file
system, so the finished tar is renamed over the original atomically). Each batch of
pages is committed there, so a run that is killed — Ctrl-C, SIGTERM, a power cut —
leaves the original archive as it was and the work directory with what was finished;
the next run continues from it, as long as the archive has not changed since (its size
and modification time are kept in ``source.json``; a changed archive starts afresh).
A crawl directory (``db.sqlite`` inside) is written in place, each batch one
transaction, under the crawler's own lock so that no crawl resumes it meanwhile.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from nitpicker_query.archive import locks, tarball
from nitpicker_query.archive.opening import classify, open_archive
from nitpicker_query.exceptions import ArchiveBusy, NitpickerError, UnsupportedFormat
from nitpicker_query.format.v010 import FIRST_013, parse_version

from ..archive.tarball import write_tar


@dataclass
class Workspace:
    path: Path
    """What the user named."""
    directory: Path
    """Where ``db.sqlite`` is written."""
    conn: sqlite3.Connection
    lock: Path
    sidecar: Path | None
    """The work directory of a ``.nitpicker`` file; None for a crawl directory."""
    resumed: bool
    """A work directory of an earlier, unfinished run was found and is continued."""

    def finish(self) -> None:
        """Make the work permanent: the tar rewritten atomically (a file) or the WAL
        folded into ``db.sqlite`` (a directory); then the lock goes."""
        try:
            self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self.conn.close()
            if self.sidecar is not None:
                write_tar(self.directory, self.path, self.directory.name)
                shutil.rmtree(self.sidecar, ignore_errors=True)
        finally:
            locks.release(self.sidecar or self.path)

    def discard(self) -> None:
        """Nothing was written: the work directory of a file goes, the file stays."""
        self.suspend()
        if self.sidecar is not None:
            shutil.rmtree(self.sidecar, ignore_errors=True)

    def suspend(self) -> None:
        """Stop without finishing: what is committed stays for the next run."""
        with contextlib.suppress(sqlite3.Error):
            self.conn.close()
        locks.release(self.sidecar or self.path)


def _fingerprint(path: Path) -> dict[str, int]:
    st = path.stat()
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns}


def _check_format(directory: Path, shown: str) -> None:
    """The reader's checks (format, hostile shapes), then: a 0.10-layout archive only."""
    with open_archive(directory) as archive:
        version = archive.version
    if parse_version(str(version)) >= FIRST_013:
        raise UnsupportedFormat(
            f"analyze writes format 0.10 archives; {shown} is format {version} (convert it "
            "first: nitpicker-crawl convert ARCHIVE --to 0.10 -o OUT.nitpicker)",
            found=str(version), supported="0.10.x", reason="too-new")


def _connect(db: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(db, timeout=30, isolation_level="DEFERRED")
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    return conn


def open_workspace(given: str) -> Workspace:
    """Open ``given`` (a ``.nitpicker`` file or a crawl directory) for writing findings.

    Raises NitpickerError (one line) for a missing, unreadable or foreign archive, one in
    a directory we cannot write to, a crawl directory a live crawler holds, or an
    archive another ``analyze`` is working on.
    """
    path = Path(os.path.abspath(given))
    mode = classify(path)
    shown = path.name
    if mode == "stub":
        holder = locks.probe(path)
        if holder is not None and holder.alive:
            raise ArchiveBusy(f"A crawler (PID {holder.pid}) is writing {shown}; analyze it "
                              "when the crawl has ended")
        _check_format(path, shown)
        lock = locks.acquire(path)
        try:
            return Workspace(path, path, _connect(path / "db.sqlite"), lock, None, False)
        except BaseException:
            locks.release(path)
            raise
    if not os.access(path.parent, os.W_OK):
        raise NitpickerError(f"Cannot write beside {shown}: its directory is not writable "
                             "(analyze rewrites the archive there)", path)
    sidecar = path.with_name(f".{path.name}.analyze")
    lock = locks.acquire(sidecar)  # ArchiveBusy: another analyze of this file is running
    try:
        resumed = _reusable(sidecar, path)
        if not resumed:
            shutil.rmtree(sidecar, ignore_errors=True)
            sidecar.mkdir()
            inner = tarball.extract(path, sidecar, only=None)
            _check_format(sidecar / inner, shown)  # before any write: no WAL to copy
            (sidecar / "source.json").write_text(json.dumps(
                {**_fingerprint(path), "inner": inner}), encoding="utf-8")
        inner = json.loads((sidecar / "source.json").read_text(encoding="utf-8"))["inner"]
        directory = sidecar / inner
        return Workspace(path, directory, _connect(directory / "db.sqlite"), lock, sidecar,
                         resumed)
    except BaseException:
        locks.release(sidecar)
        if not (sidecar / "source.json").is_file():  # nothing worth keeping
            shutil.rmtree(sidecar, ignore_errors=True)
        raise


def _reusable(sidecar: Path, archive: Path) -> bool:
    """An earlier run's work directory, made from this very archive, is there."""
    try:
        source = json.loads((sidecar / "source.json").read_text(encoding="utf-8"))
        inner = source["inner"]
        now = _fingerprint(archive)
        return bool(source["size"] == now["size"] and source["mtime_ns"] == now["mtime_ns"]
                    and isinstance(inner, str) and "/" not in inner and inner not in ("", "..")
                    and (sidecar / inner / "db.sqlite").is_file())
    except (OSError, ValueError, KeyError, TypeError):
        return False
