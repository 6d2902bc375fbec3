"""Safe reading of a ``.nitpicker`` tar (docs/archive-format.md).

A tar header can name any path, any type and any size, so every member is checked
before a byte is written, and one bad member rejects the whole archive (fail closed).
Readers extract only what they query (``db.sqlite``, ``db.sqlite-wal``, ``error.log``);
the writer, which re-tars on close, extracts every member but ``db.sqlite-shm``.
``tarfile``'s ``filter="data"`` is not used alone because it lets links through as long as
they stay inside the destination; we accept regular files and directories only.
"""

from __future__ import annotations

import errno
import os
import shutil
import tarfile
from collections.abc import Iterable
from pathlib import Path, PurePosixPath
from typing import Any

from ..exceptions import ArchiveError, NotAnArchive, UnsafeArchive

READER_MEMBERS = frozenset({"db.sqlite", "db.sqlite-wal", "error.log"})
"""Files under ``<inner>/`` a reader needs; everything else stays in the tar."""

DEFAULT_SIZE_CEILING = 64 * 1024**3
"""Largest total a header may claim before we refuse (64 GiB): a guard, not a quota."""

_COPY_CHUNK = 1024 * 1024


def _is_pseudo(first: str) -> bool:
    return first.startswith("._") or first.startswith("PaxHeaders") or first == "@PaxHeader"


def _clean_name(member: tarfile.TarInfo) -> tuple[str, ...]:
    """The member's path segments after the safety checks, or raise UnsafeArchive."""
    name = member.name

    def refuse(reason: str) -> UnsafeArchive:
        return UnsafeArchive(f"Unsafe archive member refused: {name} ({reason})")

    if "\x00" in name:
        raise refuse("NUL byte in name")
    if "\\" in name:
        raise refuse("backslash in name")
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        raise refuse("absolute path")
    parts = [p for p in PurePosixPath(name).parts if p not in ("", ".")]
    if not parts:
        raise refuse("empty name")
    if ".." in parts:
        raise refuse("'..' in path")
    if not (member.isreg() or member.isdir()):
        kind = "link" if (member.issym() or member.islnk()) else "special file"
        raise refuse(f"{kind} not allowed")
    return tuple(parts)


def scan(tf: tarfile.TarFile, display_name: str) -> tuple[str, list[tuple[tarfile.TarInfo, str]]]:
    """Validate every member; return the inner directory and ``(member, relative path)``.

    The inner directory is the first directory entry's first segment (skipping macOS
    AppleDouble and pax pseudo entries); without one, we accept a tar whose members all
    share a first segment. ``relative path`` is the path below ``<inner>/`` ('' for the
    directory itself).
    """
    try:
        members = tf.getmembers()
    except (tarfile.TarError, EOFError, OSError) as exc:
        raise NotAnArchive(
            f"Not a Nitpicker archive (the tar is truncated or corrupt): {display_name}"
        ) from exc
    checked: list[tuple[tarfile.TarInfo, tuple[str, ...]]] = []
    inner: str | None = None
    archive_size = _size_of(tf)
    for member in members:
        parts = _clean_name(member)
        if member.issparse() or member.size > archive_size:
            # a sparse member (GNU/PAX) may claim gigabytes the tar does not hold: writing
            # it out would fill the disk with zeros no query reads
            raise UnsafeArchive(
                f"Unsafe archive member refused: {member.name} (claims {member.size} bytes"
                f"{', sparse' if member.issparse() else ''}; the tar holds {archive_size})")
        if _is_pseudo(parts[0]):
            continue
        checked.append((member, parts))
        if inner is None and member.isdir():
            inner = parts[0]
    if inner is None:
        firsts = {parts[0] for _, parts in checked}
        if len(firsts) != 1:
            raise NotAnArchive(f"Tar contains no top-level directory entry: {display_name}")
        inner = firsts.pop()
    result: list[tuple[tarfile.TarInfo, str]] = []
    seen: set[str] = set()
    total = 0
    for member, parts in checked:
        if parts[0] != inner:
            raise UnsafeArchive(
                f"Unsafe archive member refused: {member.name} (outside the top directory "
                f"{inner}/)"
            )
        rel = "/".join(parts[1:])
        if member.isreg():
            if rel in seen:
                raise UnsafeArchive(
                    f"Unsafe archive member refused: {member.name} (appears twice)"
                )
            seen.add(rel)
            total += member.size
        result.append((member, rel))
    if total > DEFAULT_SIZE_CEILING:
        raise UnsafeArchive(
            f"Unsafe archive member refused: {display_name} (claims {total} bytes in total)"
        )
    if "db.sqlite" not in seen:
        raise NotAnArchive(f"Archive has no db.sqlite: {display_name}")
    return inner, result


def _size_of(tf: tarfile.TarFile) -> int:
    fileobj: Any = tf.fileobj
    try:
        return os.fstat(fileobj.fileno()).st_size
    except (AttributeError, OSError, ValueError):
        return DEFAULT_SIZE_CEILING


def open_tar(path: Path, name: str | None = None) -> tarfile.TarFile:
    """Open an uncompressed tar or raise NotAnArchive with the spec's message
    (``name``: how to call the file, when ``path`` is a descriptor's)."""
    try:
        return tarfile.open(path, mode="r:")
    except (tarfile.TarError, EOFError) as exc:
        raise NotAnArchive(
            f"Not a Nitpicker archive (expected an uncompressed tar): {name or path.name}",
            path) from exc
    except OSError as exc:  # out of file descriptors, unreadable: not the archive's fault
        raise ArchiveError(
            f"Cannot open {name or path.name}: {exc.strerror or exc} "
            f"({errno.errorcode.get(exc.errno or 0, 'error')})", path) from exc


def extract(
    path: Path,
    destination: Path,
    *,
    only: Iterable[str] | None = READER_MEMBERS,
    skip: Iterable[str] = ("db.sqlite-shm",),
    name: str | None = None,
) -> str:
    """Extract ``path`` into ``destination/<inner>/``; return ``<inner>``.

    ``only`` limits which relative paths are written (None = all); ``skip`` is never
    written (a copied wal-index is stale). Files are created 0644 and directories 0755
    whatever the tar says. A member shorter than its header claims is a truncated tar.
    """
    wanted = set(only) if only is not None else None
    skipped = set(skip)
    shown = name or path.name
    with open_tar(path, shown) as tf:
        inner, members = scan(tf, shown)
        root = (destination / inner).resolve()
        root.mkdir(parents=True, exist_ok=True)
        for member, rel in members:
            if rel in skipped or (wanted is not None and rel not in wanted):
                continue
            target = (root / rel).resolve() if rel else root
            if target != root and root not in target.parents:
                raise UnsafeArchive(f"Unsafe archive member refused: {member.name} (escapes)")
            if member.isdir():
                target.mkdir(mode=0o755, parents=True, exist_ok=True)
                continue
            target.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
            try:
                source = tf.extractfile(member)
                if source is None:
                    raise NotAnArchive(f"Archive member unreadable: {member.name}")
                with source, open(target, "wb") as out:
                    shutil.copyfileobj(source, out, _COPY_CHUNK)
                    written = out.tell()
            except (tarfile.TarError, EOFError) as exc:
                raise NotAnArchive(
                    f"Not a Nitpicker archive (the tar is truncated or corrupt): {shown}",
                    path,
                ) from exc
            except OSError as exc:  # the disk or the process, not the archive: say which
                raise ArchiveError(
                    f"Cannot extract {shown}: {exc.strerror or exc} "
                    f"({errno.errorcode.get(exc.errno or 0, 'error')})", path) from exc
            if written != member.size:
                raise NotAnArchive(
                    f"Not a Nitpicker archive (the tar is truncated or corrupt): {shown}",
                    path,
                )
            target.chmod(0o644)
    return inner
