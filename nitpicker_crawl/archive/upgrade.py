"""``nitpicker-crawl upgrade``: an archive of upstream ≤ 0.9 rewritten as format 0.10.0.

Upstream's releases before 0.10 (``info.version`` such as ``0.4.4``) wrote a different
archive (docs/archive-format.md, "Archives before 0.10"): the HTML snapshots in
``snapshot-html.zip`` beside ``db.sqlite`` (``pages.html`` names the member), robots
flags as ``noindex``/``nofollow``/``noarchive``, an ``alternate`` column, ``info.scope``,
and no ``page_html_*``, ``page_tags``, ``page_jsonld`` or ``page_errors`` tables.

The upgrade reads the old archive from a private extraction and writes a new one with
:class:`~nitpicker_crawl.archive.ArchiveWriter`, so the result is exactly what a crawl
writes:

- every row of ``pages``, ``anchors``, ``images``, ``resources`` and
  ``resources-referrers`` is carried over with its id (links keep pointing where they
  did); the counts are checked after writing;
- each page's snapshot goes into ``page_html_blobs``/``page_html_ref``;
- from each internal HTML snapshot, as upstream's own migration does, the 0.10 meta
  columns the old schema lacked (``dir``, ``charset``, ``og_locale``, ``twitter_*``…),
  the JSON-LD (``page_jsonld``), the technologies (``page_tags``), the main-content
  inventory (``page_main_contents``, ``page_main_content_*``) and our
  ``page_signatures`` are derived; columns the old archive had keep their old values;
- what has no place in 0.10 is never dropped silently: ``pages.alternate`` goes into
  ``meta_extras.alternate``, and anything else (``info.scope``, unknown columns or
  tables, a snapshot missing from the zip) is listed on stderr.

Bad input gets one line and leaves nothing behind: a missing or non-tar file, a corrupt
or truncated ``snapshot-html.zip``, an archive that is already 0.10.
"""

from __future__ import annotations

import json
import sqlite3
import tempfile
import zipfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from nitpicker_query.archive import tarball
from nitpicker_query.archive.html_codec import DECODE_LIMIT
from nitpicker_query.archive.opening import classify
from nitpicker_query.exceptions import NitpickerError, NotAnArchive
from nitpicker_query.format.v010 import parse_version
from nitpicker_query.keys.page_keys import is_eligible, page_keys
from nitpicker_query.queries._common import json_object

from ..extract import extraction, main_contents, technologies
from ..extract.content import body_hash
from ..extract.parser import parse_tree
from . import ArchiveWriter

RENAMED = {"noindex": "robots_noindex", "nofollow": "robots_nofollow",
           "noarchive": "robots_noarchive"}
"""Old ``pages`` columns that 0.10 has under another name."""

KEPT_IN_EXTRAS = ("alternate",)
"""Old ``pages`` columns with no 0.10 column: their values go into ``meta_extras``."""

INFO_COLUMNS = ("recursive", "interval", "image", "fetchExternal", "parallels", "excludes",
                "excludeKeywords", "excludeUrls", "maxExcludedDepth", "retry", "fromList",
                "disableQueries", "userAgent", "ignoreRobots")
"""``info`` columns both formats have (``version``, ``name`` and ``baseUrl`` are set by
the writer; ``roots`` is the old ``baseUrl``)."""

COPIED_TABLES = ("anchors", "images", "resources", "resources-referrers")
"""Tables carried over row for row (ids kept), after ``pages``."""

_LEGACY_ONLY_TABLES = {"sqlite_sequence"}
_JSON_INFO = ("excludes", "excludeKeywords", "excludeUrls")


class UpgradeError(NitpickerError):
    """The old archive cannot be upgraded; nothing was written."""


@dataclass
class Report:
    """What the upgrade did, and what it could not carry over (printed on stderr)."""

    version: str = ""
    counts: dict[str, int] = field(default_factory=dict)
    snapshots: int = 0
    derived: int = 0
    notes: list[str] = field(default_factory=list)   # not carried over
    moved: list[str] = field(default_factory=list)   # carried over somewhere else


def upgrade(source: Path, output: Path, *,
            say: Callable[[str], None] = lambda _line: None) -> Report:
    """Write ``output`` (format 0.10.0) from the pre-0.10 archive ``source``.

    ``output`` must not exist (the caller checks and removes it when asked to
    overwrite). Raises :class:`~nitpicker_query.exceptions.NitpickerError` with a
    one-line message on bad input; nothing is written then.
    """
    if classify(source) != "archive":
        raise UpgradeError(f"not a .nitpicker file: {source.name} (upgrade reads an "
                           "archive file, not a crawl directory)")
    with tempfile.TemporaryDirectory(prefix="nitpicker-upgrade-",
                                     dir=output.parent) as tmp:
        staging = Path(tmp)
        say(f"reading {source.name}…")
        inner = tarball.extract(source, staging, only=None, skip=())
        old_dir = staging / inner
        if not (old_dir / "db.sqlite").is_file():
            raise NotAnArchive(f"Not a Nitpicker archive (no db.sqlite inside): {source.name}",
                               source)
        try:
            old = sqlite3.connect(old_dir / "db.sqlite")
            old.row_factory = sqlite3.Row
            return _upgrade(old, old_dir, source, output, say)
        except sqlite3.DatabaseError as exc:
            raise UpgradeError(f"cannot read {source.name}'s database: {exc}") from exc
        finally:
            old.close()


def _upgrade(old: sqlite3.Connection, old_dir: Path, source: Path, output: Path,
             say: Callable[[str], None]) -> Report:
    report = Report()
    tables = {r[0] for r in old.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "info" not in tables or "pages" not in tables:
        raise NotAnArchive(f"Not a Nitpicker archive database: {source.name}", source)
    info = old.execute("SELECT * FROM info ORDER BY id LIMIT 1").fetchone()
    version = str(info["version"]) if info is not None and info["version"] else ""
    if not version:
        raise UpgradeError(f"{source.name} records no format version (info.version); "
                           "cannot tell what to upgrade")
    if parse_version(version) >= (0, 10, 0):
        raise UpgradeError(f"{source.name} is already format {version}; nothing to upgrade "
                           "(nitpicker-query reads it as it is)")
    report.version = version
    snapshots = _Snapshots(old_dir, source.name)
    try:
        writer = _create(old, info, output, report)
        try:
            _copy_pages(old, writer, snapshots, report, say)
            for table in COPIED_TABLES:
                if table in tables:
                    _copy_table(old, writer, table, report)
            for table in sorted(tables - {"info", "pages", *COPIED_TABLES}
                                - _LEGACY_ONLY_TABLES):
                rows = old.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
                report.notes.append(f"table {table} ({rows} rows) has no place in format "
                                    "0.10: not carried over")
            _check_counts(old, writer, tables, report)
        except sqlite3.IntegrityError as exc:
            writer.discard()
            raise UpgradeError(f"{source.name}: rows point at pages that are not in it "
                               f"({exc}); nothing written") from exc
        except BaseException:
            writer.discard()
            raise
        writer.close(assign_order=False)
    finally:
        snapshots.close()
    return report


def _create(old: sqlite3.Connection, info: sqlite3.Row, output: Path,
            report: Report) -> ArchiveWriter:
    columns = info.keys()
    values: dict[str, Any] = {}
    for name in INFO_COLUMNS:
        if name in columns and info[name] is not None:
            value = info[name]
            if name in _JSON_INFO and isinstance(value, str):
                try:
                    value = json.loads(value)
                except ValueError:
                    report.notes.append(f"info.{name} is not JSON ({value[:80]!r}): dropped")
                    continue
            values[name] = value
    base = info["baseUrl"] if "baseUrl" in columns else None
    for name in columns:
        if name in (*INFO_COLUMNS, "id", "version", "name", "baseUrl"):
            continue
        value = info[name]
        if value in (None, "", "[]", "{}"):
            continue
        report.notes.append(f"info.{name} = {str(value)[:200]} has no column in format "
                            "0.10: not carried over")
    return ArchiveWriter.create(output, roots=[str(base)] if base else [], **values)


class _Snapshots:
    """The old HTML snapshots: ``snapshot-html.zip`` (or a loose ``snapshot-html/``),
    read member by member with the size limit the readers use for stored HTML."""

    def __init__(self, directory: Path, shown: str) -> None:
        self.shown = shown
        self.zip: zipfile.ZipFile | None = None
        self.loose = directory / "snapshot-html"
        path = directory / "snapshot-html.zip"
        if path.is_file():
            try:
                self.zip = zipfile.ZipFile(path)
                self.names = set(self.zip.namelist())
            except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:
                raise UpgradeError(self._broken(exc)) from exc

    def _broken(self, exc: BaseException) -> str:
        return (f"{self.shown}: snapshot-html.zip is corrupt or truncated ({exc}); "
                "nothing written")

    def present(self) -> bool:
        return self.zip is not None or self.loose.is_dir()

    def read(self, reference: str) -> str | None:
        """The HTML a ``pages.html`` value names, or None when it is not there. Raises
        :class:`UpgradeError` for a corrupt member (a CRC or deflate error)."""
        name = PurePosixPath(reference.replace("\\", "/"))
        parts = [p for p in name.parts if p not in ("", ".", "/")]
        if parts and parts[0] == "snapshot-html":
            parts = parts[1:]
        if not parts or ".." in parts:
            return None
        member = "/".join(parts)
        data: bytes | None = None
        if self.zip is not None and member in self.names:
            info = self.zip.getinfo(member)
            if info.file_size > DECODE_LIMIT:
                raise _TooLarge(info.file_size)
            try:
                with self.zip.open(info) as stream:
                    data = stream.read(DECODE_LIMIT + 1)
            except (zipfile.BadZipFile, zlib.error, EOFError, OSError, RuntimeError,
                    NotImplementedError) as exc:
                raise UpgradeError(self._broken(exc)) from exc
        elif self.loose.is_dir():
            path = self.loose.joinpath(*parts)
            if path.is_file() and not path.is_symlink():
                with open(path, "rb") as stream:
                    data = stream.read(DECODE_LIMIT + 1)
        if data is None:
            return None
        if len(data) > DECODE_LIMIT:
            raise _TooLarge(len(data))
        return data.decode("utf-8", errors="replace")

    def close(self) -> None:
        if self.zip is not None:
            self.zip.close()


class _TooLarge(Exception):
    def __init__(self, size: int) -> None:
        super().__init__(size)
        self.size = size


def _pages(old: sqlite3.Connection) -> Iterator[sqlite3.Row]:
    cursor = old.execute("SELECT * FROM pages ORDER BY id")
    while rows := cursor.fetchmany(500):
        yield from rows


def _copy_pages(old: sqlite3.Connection, writer: ArchiveWriter, snapshots: _Snapshots,
                report: Report, say: Callable[[str], None]) -> None:
    new_columns = writer.page_columns
    old_columns = [d[1] for d in old.execute("PRAGMA table_info(pages)")]
    carried = {c: RENAMED.get(c, c) for c in old_columns
               if RENAMED.get(c, c) in new_columns and c != "html"}
    unknown = [c for c in old_columns
               if c not in carried and c != "html" and c not in KEPT_IN_EXTRAS]
    for column in unknown:
        n = old.execute(f'SELECT count(*) FROM pages WHERE "{column}" IS NOT NULL'
                        ).fetchone()[0]
        if n:
            report.notes.append(f"pages.{column} ({n} values) has no column in format 0.10: "
                                "not carried over")
    kept = [c for c in KEPT_IN_EXTRAS if c in old_columns]
    for column in kept:
        n = old.execute(f'SELECT count(*) FROM pages WHERE "{column}" IS NOT NULL '
                        f'AND "{column}" != \'\'').fetchone()[0]
        if n:
            report.moved.append(f"pages.{column} ({n} values): kept in meta_extras.{column}")
    has_html = "html" in old_columns
    missing: list[str] = []
    too_large = empty = 0
    fingerprints, off = technologies.load_or_none()
    if off is not None:
        report.notes.append(off + "; page_tags left empty")
    total = old.execute("SELECT count(*) FROM pages").fetchone()[0]
    rows: list[dict[str, Any]] = []
    derived: list[tuple[int, str, sqlite3.Row]] = []
    redirects: list[tuple[Any, Any]] = []  # set once every page exists
    for n, row in enumerate(_pages(old), 1):
        values = {new: row[old_name] for old_name, new in carried.items()}
        target = values.pop("redirectDestId", None)
        if target is not None:
            redirects.append((row["id"], target))
        extras = {c: row[c] for c in kept if row[c] not in (None, "")}
        if extras:
            values["meta_extras"] = json.dumps(extras, ensure_ascii=False)
        values.setdefault("source", "crawled")
        rows.append(values)
        reference = row["html"] if has_html else None
        if reference:
            try:
                html = snapshots.read(str(reference))
            except _TooLarge:
                too_large += 1
                html = None
            else:
                if html is None:
                    missing.append(str(reference))
                elif not html:
                    empty += 1
            if html:
                derived.append((int(row["id"]), html, row))
        if len(rows) >= 500 or n == total:
            writer.copy_rows("pages", rows)
            rows = []
            _derive(writer, fingerprints, derived, report)
            derived = []
            writer.commit()
            say(f"pages {n}/{total}")
    writer.set_redirects(redirects)
    writer.commit()
    report.counts["pages"] = total
    if missing:
        where = "snapshot-html.zip" if snapshots.present() else "the archive (no snapshots)"
        report.notes.append(f"{len(missing)} page(s) name an HTML snapshot missing from "
                            f"{where} (first: {missing[0][:120]}): stored without HTML")
    if empty:
        report.moved.append(f"{empty} empty HTML snapshot(s) (a PDF's, say): nothing to store")
    if too_large:
        report.notes.append(f"{too_large} HTML snapshot(s) over {DECODE_LIMIT >> 20} MiB: "
                            "stored without HTML")


def _derive(writer: ArchiveWriter, fingerprints: technologies.Fingerprints | None,
            pages: list[tuple[int, str, sqlite3.Row]], report: Report) -> None:
    """Snapshots into blobs; for internal HTML pages, the 0.10 fields the old schema
    lacked, JSON-LD, technologies, main contents and signatures — as a crawl derives them."""
    for page_id, html, row in pages:
        writer.save_html(page_id, html)
        report.snapshots += 1
        content_type = row["contentType"]
        if row["isExternal"] or (content_type not in (None, "text/html")) or \
                row["redirectDestId"] is not None:
            continue
        writer.save_body_hash(page_id, body_hash(html))
        url = str(row["url"])
        raw, tree = parse_tree(html)
        fields = extraction.page_fields(raw, url)
        old_names = set(row.keys()) | set(RENAMED.values())
        fresh = {k: v for k, v in fields.items()
                 if k not in old_names and k != "meta_extras" and v is not None}
        extras = fields.get("meta_extras") or {}
        writer.update_page(page_id, fresh, extras=extras)
        writer.replace_jsonld(page_id, extraction.jsonld(raw))
        main = main_contents.read(tree, url, base_href=raw.get("baseHref"), html=html)
        writer.replace_main_contents(page_id, main.columns(), main.items)
        headers = _headers(row["responseHeaders"])
        if fingerprints is not None:
            writer.replace_tags(page_id, fingerprints.detect(technologies.evidence_from(
                url, html, headers=headers, set_cookies=_set_cookies(headers),
                metas=raw.get("metas", []), scripts=raw.get("scripts", []), tree=tree)))
        if is_eligible(is_external=False, content_type=content_type, title=row["title"],
                       og_title=row["og_title"], og_url=row["og_url"]):
            keys = page_keys(url, title=row["title"], description=row["description"],
                             og_title=row["og_title"], og_url=row["og_url"])
            writer.save_page_signature(page_id, signature=keys.signature,
                                       shape_signature=keys.shape_signature,
                                       parent_key=keys.parent_key, shape_key=keys.shape_key)
        report.derived += 1


def _headers(stored: Any) -> dict[str, str]:
    """Stored response headers (a JSON object, or anything a stranger wrote) by name."""
    return {str(k).lower(): str(v) for k, v in json_object(stored).items()
            if isinstance(v, str | int | float)}


def _set_cookies(headers: dict[str, str]) -> list[str]:
    value = headers.get("set-cookie")
    return value.split("\n") if value else []


def _copy_table(old: sqlite3.Connection, writer: ArchiveWriter, table: str,
                report: Report) -> None:
    new_columns = set(writer.columns(table))
    old_columns = [d[1] for d in old.execute(f'PRAGMA table_info("{table}")')]
    shared = [c for c in old_columns if c in new_columns]
    for column in old_columns:
        if column not in new_columns:
            n = old.execute(f'SELECT count(*) FROM "{table}" WHERE "{column}" IS NOT NULL'
                            ).fetchone()[0]
            if n:
                report.notes.append(f"{table}.{column} ({n} values) has no column in format "
                                    "0.10: not carried over")
    names = ", ".join(f'"{c}"' for c in shared)
    cursor = old.execute(f'SELECT {names} FROM "{table}" ORDER BY rowid')
    count = 0
    while batch := cursor.fetchmany(2000):
        writer.copy_rows(table, [dict(zip(shared, r, strict=True)) for r in batch])
        count += len(batch)
    writer.commit()
    report.counts[table] = count


def _check_counts(old: sqlite3.Connection, writer: ArchiveWriter, tables: set[str],
                  report: Report) -> None:
    for table in ("pages", *COPIED_TABLES):
        if table not in tables:
            continue
        before = old.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
        after = writer.conn.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
        if before != after:
            raise UpgradeError(f"{table}: {before} rows in the old archive but {after} "
                               "written; nothing written")


def default_output(source: Path) -> Path:
    """``site.nitpicker`` → ``site-0.10.nitpicker`` beside it."""
    stem = source.name.removesuffix(".nitpicker")
    return source.with_name(f"{stem}-0.10.nitpicker")
