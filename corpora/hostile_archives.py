"""A corpus of hostile inputs (issue 14): archives built to hurt a reader, and the calls
that meet them. Every case says what a user must see: an answer, or one clear error.

Archives are built from the fixture archive of ``corpora/fixture_archives.py``: its database is
copied into a crawl directory (a directory holding ``db.sqlite``) and changed with plain
SQL, or packed into a tar that lies. ``build(directory)`` writes them all and returns the
cases; the generator is deterministic.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import sqlite3
import tarfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import zstandard

from corpora.fixture_archives import build_pre013
from nitpicker_query.archive import tarball

A = "http://localhost/a"
ANSI = "\x1b[2J\x1b]0;pwned\x07\r\nnitpicker-query: error: forged"


@dataclass
class Case:
    """One hostile input and what must come of it.

    ``cli``: sub-command and flags (the archive goes after the sub-command); ``tool`` and
    ``arguments``: the MCP call (``archive`` added unless ``arguments`` has one). ``error``
    is the substring the one-line error must hold, None when an answer is expected.
    """

    name: str
    archive: Path
    cli: list[str] = field(default_factory=lambda: ["summary"])
    tool: str = "get_summary"
    arguments: dict[str, Any] = field(default_factory=dict)
    error: str | None = None
    cli_error: str | None = None  # when the CLI words it differently (its own flags)
    mcp: bool = True
    check: Callable[[Any], None] | None = None  # on the MCP structured result


def _base(directory: Path) -> Path:
    """The extended fixture as a crawl directory ``directory/base/`` (db.sqlite only)."""
    tar = build_pre013(directory, extended=True, name="base-src")
    target = directory / "base-src-x"
    inner = tarball.extract(tar, target)
    return target / inner


def _crawl_dir(base: Path, directory: Path, name: str, *sql: str,
               mutate: Callable[[sqlite3.Connection], None] | None = None) -> Path:
    """A crawl directory ``name`` holding the fixture database changed by ``sql``."""
    d = directory / name
    d.mkdir()
    shutil.copy(base / "db.sqlite", d / "db.sqlite")
    conn = sqlite3.connect(d / "db.sqlite", isolation_level=None)
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.execute("PRAGMA ignore_check_constraints = ON")  # a stranger ignores them too
    for statement in sql:
        conn.execute(statement)
    if mutate is not None:
        mutate(conn)
    conn.close()
    return d


def _tar(directory: Path, name: str, members: list[tarfile.TarInfo | tuple[tarfile.TarInfo,
         bytes]], *, fmt: int = tarfile.PAX_FORMAT) -> Path:
    path = directory / f"{name}.nitpicker"
    with tarfile.open(path, "w", format=fmt) as tf:
        for m in members:
            if isinstance(m, tuple):
                tf.addfile(m[0], io.BytesIO(m[1]))
            else:
                tf.addfile(m)
    return path


def _member(name: str, data: bytes = b"", kind: bytes = tarfile.REGTYPE,
            **extra: Any) -> tuple[tarfile.TarInfo, bytes]:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.size = len(data) if kind == tarfile.REGTYPE else 0
    for key, value in extra.items():
        setattr(info, key, value)
    return info, data


def _dir(name: str) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = tarfile.DIRTYPE
    return info


ENDLESS = ("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) "
           "SELECT i AS id, i AS pageId, i AS hrefId, i AS resourceId, 'x' AS src, "
           "'http://localhost/' || i AS url, NULL AS hash, NULL AS textContent FROM n")


def _view(table: str) -> tuple[str, ...]:
    return (f'DROP TABLE "{table}"', f'CREATE VIEW "{table}" AS {ENDLESS}')


def _bomb_blob(gib: float = 1.0) -> bytes:
    """A zstd frame of ``gib`` GiB of zeros: a few hundred KiB stored."""
    out = io.BytesIO()
    writer = zstandard.ZstdCompressor(level=1).stream_writer(out, closefd=False)
    chunk = bytes(1 << 20)
    for _ in range(int(gib * 1024)):
        writer.write(chunk)
    writer.close()
    return out.getvalue()


def _max_size(check_chars: int = 40_000) -> Callable[[Any], None]:
    def check(result: Any) -> None:
        assert len(json.dumps(result, ensure_ascii=False)) < check_chars
        if isinstance(result, dict) and result.get("nextOffset") is not None:
            assert result["nextOffset"] > result["offset"]
            assert result["items"], "a page that makes no progress"
    return check


def build(directory: Path) -> list[Case]:
    base = _base(directory)
    db = (base / "db.sqlite").read_bytes()
    cases: list[Case] = []

    def add(*items: Case) -> None:
        cases.extend(items)

    def crawl_dir(name: str, *sql: str, **kw: Any) -> Path:
        return _crawl_dir(base, directory, name, *sql, **kw)

    good_tar = build_pre013(directory, extended=True, name="good")

    # ------------------------------------------------------------------ tars
    bad = directory / "text.nitpicker"
    bad.write_text("hello")
    add(Case("tar: plain text", bad, error="expected an uncompressed tar"))
    empty = directory / "empty.nitpicker"
    empty.write_bytes(b"")
    add(Case("tar: empty file", empty, error="expected an uncompressed tar"))
    gz = directory / "gz.nitpicker"
    with tarfile.open(gz, "w:gz") as tf:
        tf.add(base, arcname="site")
    add(Case("tar: gzip renamed", gz, error="expected an uncompressed tar"))
    zipped = directory / "zip.nitpicker"
    shutil.make_archive(str(directory / "zipsrc"), "zip", base)
    shutil.move(str(directory / "zipsrc.zip"), zipped)
    add(Case("tar: zip renamed", zipped, error="expected an uncompressed tar"))
    truncated = directory / "truncated.nitpicker"
    truncated.write_bytes(good_tar.read_bytes()[: good_tar.stat().st_size // 2])
    add(Case("tar: truncated", truncated, error="truncated or corrupt"))
    add(Case("tar: absolute member", _tar(directory, "abs", [
        _dir("site"), _member("/etc/site/db.sqlite", db)]), error="absolute path"))
    add(Case("tar: .. member", _tar(directory, "dotdot", [
        _dir("site"), _member("site/../../db.sqlite", db)]), error="'..' in path"))
    add(Case("tar: symlink member", _tar(directory, "symlink", [
        _dir("site"), _member("site/db.sqlite", kind=tarfile.SYMTYPE,
                              linkname="/etc/passwd")]), error="link not allowed"))
    add(Case("tar: hard link member", _tar(directory, "hardlink", [
        _dir("site"), _member("site/db.sqlite", kind=tarfile.LNKTYPE,
                              linkname="site/x")]), error="link not allowed"))
    add(Case("tar: device member", _tar(directory, "device", [
        _dir("site"), _member("site/db.sqlite", kind=tarfile.CHRTYPE, devmajor=1,
                              devminor=3)]), error="special file not allowed"))
    add(Case("tar: duplicate db.sqlite", _tar(directory, "dup", [
        _dir("site"), _member("site/db.sqlite", db), _member("site/db.sqlite", db)]),
        error="appears twice"))
    add(Case("tar: no db.sqlite", _tar(directory, "nodb", [
        _dir("site"), _member("site/readme.txt", b"hi")]), error="has no db.sqlite"))
    add(Case("tar: two top directories", _tar(directory, "twotop", [
        _member("a/db.sqlite", db), _member("b/db.sqlite", db)]),
        error="no top-level directory"))
    add(Case("tar: control characters in a member name", _tar(directory, "ansi", [
        _dir("site"), _member(f"site/{ANSI}/../../x", b"")]), error="'..' in path"))
    sparse = directory / "sparse.nitpicker"
    _sparse_tar(sparse, db)
    add(Case("tar: sparse member claiming 2 GiB", sparse, error="sparse"))
    liar = _tar(directory, "liar", [_dir("site"), _member("site/db.sqlite", db)])
    _claim_size(liar, "site/db.sqlite", 3 * 1024**3)
    add(Case("tar: header claims more than the tar holds", liar, error="truncated or corrupt"))

    # ------------------------------------------------------------------ SQLite schema
    add(Case("schema: pages is an endless view", crawl_dir("v-pages", *_view("pages")),
             error="table pages is a view"))
    add(Case("schema: anchors is an endless view", crawl_dir("v-anchors", *_view("anchors")),
             cli=["links", "--type", "broken"], tool="list_links",
             arguments={"type": "broken"}, error="table anchors is a view"))
    add(Case("schema: images is an endless view", crawl_dir("v-images", *_view("images")),
             cli=["images"], tool="list_images", error="table images is a view"))
    add(Case("schema: resources is an endless view",
             crawl_dir("v-resources", *_view("resources")), cli=["resources"],
             tool="list_resources", error="table resources is a view"))
    add(Case("schema: page_html_blobs is a view",
             crawl_dir("v-blobs", *_view("page_html_blobs")), cli=["html", "--url", A],
             tool="get_page_html", arguments={"url": A},
             error="table page_html_blobs is a view"))
    add(Case("schema: an unrelated endless view is never read",
             crawl_dir("v-other", f"CREATE VIEW other AS {ENDLESS}")))
    add(Case("schema: an FTS5 table beside the format's",
             crawl_dir("fts", "CREATE VIRTUAL TABLE search USING fts5(body)",
                       "INSERT INTO search VALUES ('x')"), cli=["pages"], tool="list_pages"))
    add(Case("schema: a format table as FTS5",
             crawl_dir("fts-jsonld", 'DROP TABLE "page_jsonld"',
                       "CREATE VIRTUAL TABLE page_jsonld USING fts5(pageId, type)"),
             error="table page_jsonld is a virtual table"))
    add(Case("schema: unknown virtual table module",
             crawl_dir("ghost", mutate=_ghost_module), cli=["pages"], tool="list_pages"))
    add(Case("schema: no info table", crawl_dir("no-info", "DROP TABLE info"),
             error="no info table"))
    add(Case("schema: no info row", crawl_dir("no-info-row", "DELETE FROM info"),
             error="no info row yet"))
    add(Case("schema: old version", crawl_dir("v044", "UPDATE info SET version = '0.4.4'"),
             error="0.4.4"))
    add(Case("schema: future version", crawl_dir("v99", "UPDATE info SET version = '99.0'"),
             error="99.0"))
    add(Case("schema: version is a blob", crawl_dir("vblob", "UPDATE info SET version = "
                                                    "x'00ff'"), error="format"))
    add(Case("schema: pages lacks status", crawl_dir(
        "no-status", "ALTER TABLE pages RENAME COLUMN status TO gone"),
        error="lacks column status"))
    garbage = directory / "garbage"
    garbage.mkdir()
    (garbage / "db.sqlite").write_bytes(b"SQLite format 3\x00" + os.urandom(4096))
    add(Case("schema: db.sqlite is garbage", garbage, error="Not a Nitpicker archive"))
    zero = directory / "zero"
    zero.mkdir()
    (zero / "db.sqlite").write_bytes(b"")
    add(Case("schema: db.sqlite is empty", zero, error="no info table"))

    # ------------------------------------------------------------------ values
    add(Case("values: blob title", crawl_dir("blob-title", "UPDATE pages SET title = "
                                             "x'ff00fe41'"), cli=["pages"], tool="list_pages"))
    add(Case("values: blob title in duplicates", crawl_dir(
        "blob-dup", "UPDATE pages SET title = x'4142'"), cli=["duplicates"],
        tool="find_duplicates"))
    add(Case("values: invalid UTF-8 in a text column", crawl_dir(
        "bad-utf8", "UPDATE pages SET title = CAST(x'ff41' AS TEXT)"), cli=["pages"],
        tool="list_pages", error="Could not decode to UTF-8"))
    add(Case("values: status 'abc'", crawl_dir("status-abc", "UPDATE pages SET status = "
                                               "'abc' WHERE id = 1")))
    add(Case("values: status 'abc' in pages", crawl_dir(
        "status-abc2", "UPDATE pages SET status = 'abc'"), cli=["pages", "--sort-by",
                                                                "status"], tool="list_pages",
        arguments={"sortBy": "status"}))
    add(Case("values: infinite contentLength", crawl_dir(
        "inf", "UPDATE pages SET contentLength = 9e999"), cli=["resources"],
        tool="list_resources"))
    add(Case("values: infinite contentLength in page detail", crawl_dir(
        "inf2", "UPDATE pages SET contentLength = 9e999"), cli=["page-detail", "--url", A],
        tool="get_page_detail", arguments={"url": A}))
    add(Case("values: 100,000-character title", crawl_dir(
        "long-title", f"UPDATE pages SET title = '{'T' * 100_000}'"), cli=["pages"],
        tool="list_pages", check=_max_size()))
    add(Case("values: 100,000-character baseUrl", crawl_dir(
        "long-base", f"UPDATE info SET baseUrl = 'http://x/{'b' * 100_000}'"),
        check=_max_size()))
    add(Case("values: 100,000-character baseUrl, open_archive", crawl_dir(
        "long-base2", f"UPDATE info SET baseUrl = 'http://x/{'b' * 100_000}'"),
        tool="open_archive", check=_max_size()))
    add(Case("values: huge integers", crawl_dir(
        "bigint", "UPDATE pages SET contentLength = 9223372036854775807, "
        "firstCrawledAt = -9223372036854775808"), cli=["pages"], tool="list_pages"))
    add(Case("values: headers not JSON", crawl_dir(
        "headers", "UPDATE pages SET responseHeaders = '{not json'"),
        cli=["page-detail", "--url", A], tool="get_page_detail", arguments={"url": A}))
    add(Case("values: deeply nested meta_extras", crawl_dir(
        "deep", "UPDATE pages SET meta_extras = '" + "[" * 100_000 + "]" * 100_000 + "'"),
        cli=["page-detail", "--url", A], tool="get_page_detail", arguments={"url": A}))
    add(Case("values: roots not JSON", crawl_dir("roots", "UPDATE info SET roots = x'ff'")))
    add(Case("values: control characters in a title", crawl_dir(
        "ansi-title", "UPDATE pages SET title = '" + ANSI.replace("'", "''") + "'"),
        cli=["pages", "--format", "table"], tool="list_pages"))
    add(Case("values: control characters in a URL", crawl_dir(
        "ansi-url", "UPDATE pages SET url = url || char(27) || '[2J' WHERE id = 1"),
        cli=["page-detail", "--url", A + "\x1b[2J"], tool="get_page_detail",
        arguments={"url": A + "\x1b[2J"}))
    add(Case("values: html zstd bomb (1 GiB of zeros)", crawl_dir(
        "bomb", mutate=lambda c: c.execute("UPDATE page_html_blobs SET body = ?, "
                                           "codec = 'zstd'", (_bomb_blob(),))),
        cli=["html", "--url", A], tool="get_page_html", arguments={"url": A},
        check=lambda r: r["truncated"] is True))
    add(Case("values: unknown html codec", crawl_dir(
        "codec", "UPDATE page_html_blobs SET codec = 'brotli'"), cli=["html", "--url", A],
        tool="get_page_html", arguments={"url": A}, error="Unknown page_html_blobs.codec"))
    add(Case("values: html body is text", crawl_dir(
        "html-text", "UPDATE page_html_blobs SET body = '<p>hi</p>', codec = 'none'"),
        cli=["html", "--url", A], tool="get_page_html", arguments={"url": A}))
    add(Case("values: 20,000 failures and a 200,000-line error.log",
             crawl_dir("failures", mutate=_many_failures)))

    # ------------------------------------------------------------------ paths
    fifo = directory / "fifo.nitpicker"
    os.mkfifo(fifo)
    add(Case("paths: a FIFO named .nitpicker", fifo, error="Not a regular file"))
    dir_named = directory / "dir.nitpicker"
    dir_named.mkdir()
    add(Case("paths: a directory named .nitpicker", dir_named, error="resolves to a "
                                                                      "directory"))
    add(Case("paths: missing", directory / "missing.nitpicker", error="not found"))
    add(Case("paths: NUL in the path", Path(str(directory / "x") + "\x00.nitpicker"),
             error="contains a NUL byte", cli_error="not found", mcp=True))
    add(Case("paths: 5,000-character path", directory / ("p" * 5000 + ".nitpicker"),
             error="at most 4096", cli_error="not found"))
    wal = directory / "interrupted"
    wal.mkdir()
    _interrupted_crawl(base / "db.sqlite", wal)
    add(Case("paths: an interrupted crawl with -wal and -shm", wal, cli=["pages"],
             tool="list_pages"))
    return cases


# ------------------------------------------------------------------ builders


def _interrupted_crawl(source: Path, directory: Path) -> None:
    """What ``kill -9`` of a crawler leaves: ``db.sqlite`` with a non-empty ``-wal`` and a
    ``-shm`` (copied while the writer still had them open)."""
    work = directory.with_name(directory.name + "-writer")
    work.mkdir()
    shutil.copy(source, work / "db.sqlite")
    conn = sqlite3.connect(work / "db.sqlite", isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    conn.execute("UPDATE pages SET title = 'after the crash' WHERE id = 1")
    for name in ("db.sqlite", "db.sqlite-wal", "db.sqlite-shm"):
        shutil.copy(work / name, directory / name)
    conn.close()
    shutil.rmtree(work)


def _sparse_tar(path: Path, db: bytes) -> None:
    """A GNU sparse member whose logical size is 2 GiB, holding 512 real bytes."""
    with tarfile.open(path, "w", format=tarfile.GNU_FORMAT) as tf:
        tf.addfile(_dir("site"))
        tf.addfile(_member("site/db.sqlite", db)[0], io.BytesIO(db))
        info = tarfile.TarInfo("site/error.log")
        info.type = tarfile.GNUTYPE_SPARSE
        info.size = 512
        buf = bytearray(info.tobuf(format=tarfile.GNU_FORMAT))
        # realsize field of the old GNU sparse header (offset 483, 12 octal bytes)
        buf[483:495] = b"%011o\x00" % (2 * 1024**3)
        buf[148:156] = b"        "
        buf[148:155] = b"%06o\x00" % sum(buf[:512])
        tf.fileobj.write(bytes(buf[:512]) + b"\x00" * 512)  # type: ignore[union-attr]
        tf.offset += 1024


def _claim_size(path: Path, name: str, size: int) -> None:
    """Rewrite one member's size field to claim ``size`` bytes (base-256 for > 8 GiB)."""
    data = bytearray(path.read_bytes())
    at = data.find(name.encode() + b"\x00", 512)  # the member's own header, not pax's
    header = data[at: at + 512]
    header[124:136] = b"%011o\x00" % size
    header[148:156] = b"        "
    header[148:155] = b"%06o\x00" % sum(header)
    data[at: at + 512] = header
    path.write_bytes(bytes(data))


def _ghost_module(conn: sqlite3.Connection) -> None:
    """A virtual table whose module nobody has, written into the schema directly."""
    conn.execute("PRAGMA writable_schema = ON")
    conn.execute("INSERT INTO sqlite_master (type, name, tbl_name, rootpage, sql) VALUES "
                 "('table', 'ghost', 'ghost', 0, 'CREATE VIRTUAL TABLE ghost USING nosuch()')")
    conn.execute("PRAGMA writable_schema = OFF")


def _many_failures(conn: sqlite3.Connection) -> None:
    conn.execute("BEGIN")
    conn.executemany(
        "INSERT INTO pages (url, scraped, isTarget, isExternal, status, isSkipped) "
        "VALUES (?, 1, 1, 0, -1, 0)",
        [(f"http://localhost/fail/{i}",) for i in range(20_000)])
    conn.execute("COMMIT")
    log = Path(conn.execute("PRAGMA database_list").fetchone()[2]).with_name("error.log")
    with open(log, "w") as fh:
        for i in range(200_000):
            fh.write(f"2026-01-01 error http://localhost/other/{i} ECONNRESET\n")
