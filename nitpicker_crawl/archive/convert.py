"""``nitpicker-crawl convert``: an archive rewritten in the other format, 0.10 ⇄ 0.13.

Upstream's tools since 0.13 open only format 0.13.0; ours write 0.10.0 (and read both).
``--to 0.13`` rewrites one of our archives (a ``.nitpicker`` file or a crawl directory
with ``db.sqlite``) for upstream's newest tools (:mod:`nitpicker_crawl.archive.to013`);
``--to 0.10`` rewrites a 0.13 archive as 0.10 (:mod:`nitpicker_crawl.archive.to010`), read through
the views ``nitpicker_query`` reads 0.13 with.

The input is never written: a ``.nitpicker`` file is extracted into a temporary directory
beside the output, a crawl directory's database copied there (refused while a crawler
holds it). The new database is built in that directory and tarred into place as the
writer does (:func:`nitpicker_crawl.archive.tarball.write_tar`: a temporary file renamed
over the output), so a failure, a crash or Ctrl-C leaves no output and the temporary
directory is removed. Bad input — a missing file, not an archive, a format other than
the one converted from — is one line (:class:`ConvertError`), and nothing is written.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path

from nitpicker_query.archive import locks, tarball
from nitpicker_query.archive.opening import classify
from nitpicker_query.exceptions import ArchiveBusy, NitpickerError, NotAnArchive
from nitpicker_query.format.v010 import parse_version

from . import to010, to013
from .tarball import write_tar
from .to013 import Report

TARGETS = ("0.13", "0.10")
"""What ``--to`` takes: the format written."""

_SOURCE = {"0.13": ((0, 10, 0), (0, 13, 0)), "0.10": ((0, 13, 0), (0, 14, 0))}
"""Target → the versions (from, up to but not including) it converts."""

_MEMBERS = ("db.sqlite", "db.sqlite-wal", "error.log")


class ConvertError(NitpickerError):
    """The archive cannot be converted; nothing was written."""


def convert(source: Path, output: Path, *, to: str,
            say: Callable[[str], None] = lambda _line: None) -> Report:
    """Write ``output`` in format ``to`` (``0.13`` or ``0.10``) from ``source``.

    ``output``'s directory must exist; an existing ``output`` is replaced only when the
    new archive is complete (the caller decides whether that is allowed). Raises
    :class:`~nitpicker_query.exceptions.NitpickerError` with a one-line message on bad
    input; nothing is written then.
    """
    if to not in TARGETS:
        raise ConvertError(f"unknown target format {to!r} (one of {', '.join(TARGETS)})")
    kind = classify(source)
    name = output.name.removesuffix(".nitpicker")
    with tempfile.TemporaryDirectory(prefix=f"._nitpicker-convert-{name}-",
                                     dir=output.absolute().parent) as tmp:
        staging = Path(tmp)
        original = staging / "source"
        say(f"reading {source.name}…")
        _copy_in(source, kind, original)
        version = _version(original / "db.sqlite", source.name, to)
        new = staging / "new"
        new.mkdir()
        try:
            if to == "0.13":
                report = to013.convert(original / "db.sqlite", new / "db.sqlite", name=name,
                                       version=version, scratch=staging, say=say)
            else:
                report = to010.convert(original, new / "db.sqlite", name=name,
                                       version=version, say=say)
        except to013.CountMismatch as exc:
            raise ConvertError(f"{source.name}: {exc}; nothing written") from exc
        except sqlite3.DatabaseError as exc:
            raise ConvertError(f"cannot read {source.name}'s database: {exc}; nothing "
                               "written") from exc
        if (original / "error.log").is_file():
            shutil.copyfile(original / "error.log", new / "error.log")
        say(f"writing {output.name}…")
        write_tar(new, output, name)
    return report


def _copy_in(source: Path, kind: str, target: Path) -> None:
    """``source``'s database (and ``error.log``) copied into ``target``: the extracted
    members of a ``.nitpicker`` file, or a crawl directory's files, its WAL included."""
    if kind == "archive":
        inner = tarball.extract(source, target, only=_MEMBERS)
        extracted = target / inner
        for path in extracted.iterdir():
            path.rename(target / path.name)
        extracted.rmdir()
    else:
        holder = locks.probe(source)
        if holder is not None and holder.alive:
            raise ArchiveBusy(f"a crawler (pid {holder.pid}) is writing {source.name}; "
                              "convert it once the crawl has stopped", source)
        target.mkdir(parents=True)
        for member in _MEMBERS:
            if (source / member).is_file():
                shutil.copyfile(source / member, target / member)
    if not (target / "db.sqlite").is_file():
        raise NotAnArchive(f"Not a Nitpicker archive (no db.sqlite inside): {source.name}",
                           source)


def _version(db: Path, shown: str, to: str) -> str:
    """The source's format version, checked against what ``to`` converts from; the
    private copy's WAL is folded into it first (a crawl directory's last commits)."""
    try:
        conn = sqlite3.connect(db)
        try:
            conn.execute("PRAGMA journal_mode = DELETE")
            tables = {str(r[0]) for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            row = conn.execute("SELECT version FROM info ORDER BY id LIMIT 1").fetchone() \
                if "info" in tables else None
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise NotAnArchive(f"Not a Nitpicker archive database ({exc}): {shown}") from exc
    if "info" not in tables or not ({"pages", "content_items"} & tables):
        raise NotAnArchive(f"Not a Nitpicker archive database (no info or pages table): "
                           f"{shown}")
    version = str(row[0]) if row is not None and row[0] else ""
    if not version:
        raise ConvertError(f"{shown} records no format version (info.version); cannot tell "
                           "what to convert")
    low, high = _SOURCE[to]
    found = parse_version(version)
    if low <= found < high:
        return version
    if to == "0.13" and _SOURCE["0.10"][0] <= found < _SOURCE["0.10"][1]:
        raise ConvertError(f"{shown} is already format {version}; nothing to convert "
                           "(--to 0.10 writes it as format 0.10)")
    if to == "0.10" and _SOURCE["0.13"][0] <= found < _SOURCE["0.13"][1]:
        raise ConvertError(f"{shown} is already format {version}; nothing to convert "
                           "(--to 0.13 writes it as format 0.13)")
    if found < (0, 10, 0):
        raise ConvertError(f"{shown} is format {version} (upstream before 0.10): upgrade it "
                           f"first with nitpicker-crawl upgrade, then convert the result")
    raise ConvertError(f"{shown} is format {version}, newer than this tool knows; nothing "
                       "to convert")
