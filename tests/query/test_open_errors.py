"""Bad inputs: each a clear one-line error, and nothing on disk changes."""

from __future__ import annotations

import hashlib
import io
import os
import sqlite3
import tarfile
from pathlib import Path

import pytest

import nitpicker_query as q
from corpora.fixture_archives import build_pre013
from nitpicker_query.exceptions import (
    ArchiveNotFound,
    NotAnArchive,
    UnsafeArchive,
    UnsupportedFormat,
)


def _tree_digest(directory: Path) -> dict[str, str]:
    return {str(p.relative_to(directory)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(directory.rglob("*")) if p.is_file()}


def _expect(path: Path, error: type[Exception], text: str) -> None:
    before = _tree_digest(path.parent)
    with pytest.raises(error) as info:
        q.open_archive(path)
    message = str(info.value)
    assert text in message
    assert "\n" not in message
    assert _tree_digest(path.parent) == before, "opening a bad archive changed the disk"


def _tar_with(path: Path, members: list[tuple[tarfile.TarInfo, bytes | None]]) -> Path:
    with tarfile.open(path, "w") as tf:
        for info, data in members:
            tf.addfile(info, io.BytesIO(data) if data is not None else None)
    return path


def _file(name: str, data: bytes) -> tuple[tarfile.TarInfo, bytes]:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    return info, data


def _dir(name: str) -> tuple[tarfile.TarInfo, None]:
    info = tarfile.TarInfo(name)
    info.type = tarfile.DIRTYPE
    return info, None


def test_missing_path(tmp_path: Path) -> None:
    with pytest.raises(ArchiveNotFound, match="not found or not readable"):
        q.open_archive(tmp_path / "nope.nitpicker")
    assert list(tmp_path.iterdir()) == []


def test_directory_without_db(tmp_path: Path) -> None:
    (tmp_path / "crawl").mkdir()
    _expect(tmp_path / "crawl", NotAnArchive, "not a crawl in progress (no db.sqlite in it)")


def test_directory_named_like_an_archive(tmp_path: Path) -> None:
    (tmp_path / "x.nitpicker").mkdir()
    _expect(tmp_path / "x.nitpicker", NotAnArchive, "resolves to a directory")


def test_non_tar_file(tmp_path: Path) -> None:
    p = tmp_path / "notes.nitpicker"
    p.write_text("this is not a tar\n" * 100)
    _expect(p, NotAnArchive, "expected an uncompressed tar")


def test_gzipped_tar_is_refused(tmp_path: Path, base_archive: Path) -> None:
    import gzip

    p = tmp_path / "zipped.nitpicker"
    p.write_bytes(gzip.compress(base_archive.read_bytes()))
    _expect(p, NotAnArchive, "expected an uncompressed tar")


def test_other_file_type(tmp_path: Path) -> None:
    p = tmp_path / "site.sqlite"
    p.write_bytes(b"x")
    _expect(p, NotAnArchive,
            "Only .nitpicker archive files or the directory of a crawl in progress")


def test_truncated_tar(tmp_path: Path, base_archive: Path) -> None:
    p = tmp_path / "cut.nitpicker"
    data = base_archive.read_bytes()
    p.write_bytes(data[: len(data) // 2])
    _expect(p, NotAnArchive, "truncated or corrupt")


@pytest.mark.parametrize(
    ("member", "reason"),
    [
        ("site/../../evil.txt", "'..' in path"),
        ("/etc/evil", "absolute path"),
    ],
)
def test_path_traversal_is_refused(tmp_path: Path, member: str, reason: str) -> None:
    p = _tar_with(tmp_path / "evil.nitpicker",
                  [_dir("site"), _file("site/db.sqlite", b"x"), _file(member, b"boom")])
    _expect(p, UnsafeArchive, reason)
    assert not (tmp_path.parent / "evil.txt").exists()


def test_symlink_member_is_refused(tmp_path: Path) -> None:
    link = tarfile.TarInfo("site/db.sqlite")
    link.type = tarfile.SYMTYPE
    link.linkname = "/etc/passwd"
    p = _tar_with(tmp_path / "link.nitpicker", [_dir("site"), (link, None)])
    _expect(p, UnsafeArchive, "link not allowed")


def test_hardlink_member_is_refused(tmp_path: Path) -> None:
    link = tarfile.TarInfo("site/other")
    link.type = tarfile.LNKTYPE
    link.linkname = "site/db.sqlite"
    p = _tar_with(tmp_path / "hard.nitpicker",
                  [_dir("site"), _file("site/db.sqlite", b"x"), (link, None)])
    _expect(p, UnsafeArchive, "link not allowed")


def test_device_member_is_refused(tmp_path: Path) -> None:
    dev = tarfile.TarInfo("site/null")
    dev.type = tarfile.CHRTYPE
    p = _tar_with(tmp_path / "dev.nitpicker", [_dir("site"), _file("site/db.sqlite", b"x"),
                                              (dev, None)])
    _expect(p, UnsafeArchive, "special file")


def test_duplicate_db_member_is_refused(tmp_path: Path) -> None:
    p = _tar_with(tmp_path / "dup.nitpicker", [_dir("site"), _file("site/db.sqlite", b"a"),
                                              _file("site/db.sqlite", b"b")])
    _expect(p, UnsafeArchive, "appears twice")


def test_tar_without_db(tmp_path: Path) -> None:
    p = _tar_with(tmp_path / "nodb.nitpicker", [_dir("site"), _file("site/readme", b"x")])
    _expect(p, NotAnArchive, "has no db.sqlite")


def test_garbage_sqlite(tmp_path: Path) -> None:
    p = _tar_with(tmp_path / "garbage.nitpicker",
                  [_dir("site"), _file("site/db.sqlite", os.urandom(8192))])
    _expect(p, NotAnArchive, "not a readable SQLite database")


def test_sqlite_that_is_not_an_archive(tmp_path: Path) -> None:
    work = tmp_path / "w"
    work.mkdir()
    conn = sqlite3.connect(work / "db.sqlite")
    conn.execute("CREATE TABLE notes (x)")
    conn.commit()
    conn.close()
    p = _tar_with(tmp_path / "other.nitpicker",
                  [_dir("site"), _file("site/db.sqlite", (work / "db.sqlite").read_bytes())])
    _expect(p, NotAnArchive, "no info table")


def _with_version(tmp_path: Path, version: str | None) -> Path:
    archive = build_pre013(tmp_path, name="v")
    work = tmp_path / "x"
    with tarfile.open(archive) as tf:
        tf.extractall(work, filter="data")
    db = work / "v" / "db.sqlite"
    conn = sqlite3.connect(db)
    conn.execute("UPDATE info SET version = ?", (version,))
    conn.commit()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    out = tmp_path / f"version-{version}.nitpicker"
    with tarfile.open(out, "w") as tf:
        tf.add(work / "v", arcname="v", recursive=False)
        tf.add(db, arcname="v/db.sqlite")
    return out


@pytest.mark.parametrize(
    ("version", "reason", "text"),
    [
        ("0.9.0", "too-old", "Archive uses Nitpicker format 0.9.0; this tool reads format "
                             "0.10.x or 0.13.x (written by nitpicker 0.11 and later)"),
        ("0.4.4", "too-old", "format 0.4.4"),
        ("0.14.0", "too-new", "Archive uses Nitpicker format 0.14.0; this tool reads format "
                              "0.10.x or 0.13.x only; a newer nitpicker-query may read it"),
        ("", "unknown", "Archive format is unknown"),
        (None, "unknown", "Archive format is unknown"),
    ],
)
def test_unsupported_versions(tmp_path: Path, version: str | None, reason: str,
                              text: str) -> None:
    p = _with_version(tmp_path, version)
    with pytest.raises(UnsupportedFormat) as info:
        q.open_archive(p)
    assert info.value.reason == reason
    assert text in str(info.value)


@pytest.mark.parametrize("version", ["0.10.0", "0.10", "0.10.0-alpha.1", "0.12.9"])
def test_supported_versions_open(tmp_path: Path, version: str) -> None:
    with q.open_archive(_with_version(tmp_path, version)) as a:
        assert a.version == version


def test_invalid_query_arguments(extended_archive: Path) -> None:
    with pytest.raises(q.InvalidArgument, match="limit must be at most 1000"):
        q.list_pages(extended_archive, limit=10**9)
    with pytest.raises(q.InvalidArgument, match="offset must be at least 0"):
        q.list_pages(extended_archive, offset=-1)
    with pytest.raises(q.InvalidArgument, match="limit must be at least 1"):
        q.find_duplicates(extended_archive, limit=0)
    with pytest.raises(q.InvalidArgument, match="sort_by must be one of url, status, title"):
        q.list_pages(extended_archive, sort_by="nope")
    with pytest.raises(q.InvalidArgument, match="type must be one of"):
        q.list_links(extended_archive, type="dead")
    with pytest.raises(q.InvalidArgument, match="limit must be an integer"):
        q.list_pages(extended_archive, limit="10")  # type: ignore[arg-type]


def test_unknown_page_url_is_none(extended_archive: Path) -> None:
    assert q.get_page_detail(extended_archive, url="http://localhost/nope") is None
    # no canonical equivalence in lookups: the https spelling is another row
    assert q.get_page_detail(extended_archive, url="https://localhost/a") is None
