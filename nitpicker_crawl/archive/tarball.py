"""Writing the ``.nitpicker`` tar atomically (docs/archive-format.md).

The tar holds one top-level directory ``<name>/`` — its entry first, then ``db.sqlite``,
then every other file in sorted order — with owners and times normalised, no links and
no ``-wal``/``-shm``. It is written to a temporary name in the output directory and
renamed over the output, so a crash never leaves a half-written ``.nitpicker`` behind
and an existing archive is replaced only by a complete one.
"""

from __future__ import annotations

import contextlib
import os
import tarfile
from pathlib import Path

_SKIP = {"db.sqlite-wal", "db.sqlite-shm"}


def _normalise(info: tarfile.TarInfo) -> tarfile.TarInfo:
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    info.mode = 0o755 if info.isdir() else 0o644
    return info


def write_tar(source_dir: Path, output: Path, name: str) -> None:
    """Tar ``source_dir`` as ``<name>/…`` into ``output``, atomically."""
    output = output.resolve()
    tmp = output.with_name(f".{output.name}.{os.getpid()}.partial")
    files = sorted(
        p for p in source_dir.rglob("*")
        if p.is_file() and not p.is_symlink() and p.name not in _SKIP
    )
    try:
        with tarfile.open(tmp, mode="w", format=tarfile.PAX_FORMAT) as tf:
            tf.addfile(_normalise(tf.gettarinfo(str(source_dir), arcname=name)))
            db = source_dir / "db.sqlite"
            ordered = [db] + [f for f in files if f != db]
            for path in ordered:
                rel = path.relative_to(source_dir).as_posix()
                info = _normalise(tf.gettarinfo(str(path), arcname=f"{name}/{rel}"))
                with open(path, "rb") as fh:
                    tf.addfile(info, fh)
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, output)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
