"""Read-only means read-only: after every query the user's files are byte-for-byte the same,
nothing is created beside them, and no table was added (not even dedupe_cap_events)."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from pathlib import Path

import nitpicker_query as q
from nitpicker_query.exceptions import NotRecorded
from nitpicker_query.keys.page_keys import page_keys
from nitpicker_query.queries.catalog import QUERIES
from tests.query.test_foreign_archive import build_upstream_like

SAMPLE_ARGS = {
    "get_page_detail": {"url": "http://localhost/a"},
    "get_page_html": {"url": "http://localhost/a"},
    "find_mismatches": {"type": "canonical"},
    "list_links": {"type": "broken"},
    "get_resource_referrers": {"resource_url": "http://localhost/style.css"},
    "list_inbound_links": {"url": "http://localhost/b"},
    "list_pages_by_tag": {"provider": "WordPress"},
    "count_pages_by_tag": {"provider": "WordPress"},
    "get_page_tags": {"url": "http://localhost/a"},
    "list_pages_by_jsonld_type": {"type": "WebPage"},
    "count_pages_by_jsonld_type": {"type": "WebPage"},
    "get_page_jsonld": {"url": "http://localhost/a"},
    "get_page_jsonld_overview": {"url": "http://localhost/a"},
    "get_template_cluster": {"key": '["path:|css:","cluster:0"]'},
    "get_isolated_cluster": {"representative_url": "http://localhost/a"},
    "get_page_console_logs": {"url": "http://localhost/a"},
    "get_page_main_contents": {"url": "http://localhost/a"},
    "search_html": {"pattern": "/<title>/i"},
    "match_selector": {"selector": "title"},
    "match_xpath": {"xpath": "//title"},
    "list_pages_by_resource": {"resource_pattern": "%.css"},
    "match_urls": {"urls": "http://localhost/a http://localhost/nowhere"},
    "get_near_duplicates": {"url": "http://localhost/a"},
    "get_duplicate_cluster": {"signature": page_keys(
        "http://localhost/a", title="Page A", description=None, og_title=None,
        og_url=None).signature},
}


def test_the_sample_arguments_fill_every_required_option() -> None:
    # a new query with a required option and no sample here would fail every sweep
    for spec in QUERIES:
        missing = [p.name for p in spec.params if p.required and not p.archive
                   and p.name not in SAMPLE_ARGS.get(spec.name, {})]
        assert not missing, f"{spec.name}: add {missing} to SAMPLE_ARGS"


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _listing(directory: Path) -> list[str]:
    return sorted(str(p.relative_to(directory)) for p in directory.rglob("*"))


def _sweep(archive: q.Archive) -> None:
    for spec in QUERIES:
        # a second archive (compare's old): the same one, compared with itself
        args = {**SAMPLE_ARGS.get(spec.name, {}),
                **{p.name: archive for p in spec.params if p.archive}}
        try:
            spec.function(archive, **args)
        except NotRecorded:   # on archives written without them: said, not made
            assert spec.name in ("find_duplicate_bodies", "find_duplicate_clusters",
                                 "get_page_main_contents", "list_unused_resources")
    for kind in ("external", "orphaned"):
        q.list_links(archive, type=kind)


def test_archive_file_unchanged_and_no_table_created(tmp_path: Path) -> None:
    path = build_upstream_like(tmp_path)
    before_sha, before_listing = _sha(path), _listing(tmp_path)
    with q.open_archive(path) as archive:
        db = archive.directory / "db.sqlite"
        cache_sha = _sha(db)
        _sweep(archive)
        assert not archive.has_table("dedupe_cap_events")
    assert _sha(path) == before_sha
    assert _listing(tmp_path) == before_listing
    assert _sha(db) == cache_sha
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    conn.close()
    assert "dedupe_cap_events" not in tables and "page_signatures" not in tables


def test_connection_refuses_writes(extended_archive: Path) -> None:
    with q.open_archive(extended_archive) as archive:
        try:
            archive.execute("CREATE TABLE x (y)")
        except sqlite3.OperationalError as exc:
            assert "readonly" in str(exc) or "read-only" in str(exc)
        else:  # pragma: no cover
            raise AssertionError("a read connection accepted a write")


def _stub_from(archive: Path, target: Path) -> Path:
    """A crawl directory as an interrupted crawl leaves it: db.sqlite, no WAL."""
    with q.open_archive(archive) as a:
        shutil.copy(a.directory / "db.sqlite", target / "db.sqlite")
    return target


def test_stub_directory_unchanged(tmp_path: Path, extended_archive: Path) -> None:
    stub = _stub_from(extended_archive, tmp_path)
    before = {p: _sha(tmp_path / p) for p in _listing(tmp_path)}
    with q.open_archive(stub) as archive:
        assert archive.mode == "stub" and archive.crawler_pid is None
        _sweep(archive)
    assert {p: _sha(tmp_path / p) for p in _listing(tmp_path)} == before


def test_stub_with_wal_and_no_shm_reads_wal_rows_without_touching_files(tmp_path: Path,
                                                                        extended_archive: Path
                                                                        ) -> None:
    stub = _stub_from(extended_archive, tmp_path)
    # a crash mid-crawl: rows committed to the WAL, never checkpointed, -shm gone
    writer = sqlite3.connect(stub / "db.sqlite")
    writer.execute("PRAGMA journal_mode = WAL")
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    writer.execute("INSERT INTO pages (url, scraped, isTarget, isExternal, status, contentType) "
                   "VALUES ('http://localhost/late', 1, 1, 0, 200, 'text/html')")
    writer.commit()
    shutil.copytree(stub, tmp_path.parent / (tmp_path.name + "-snap"))
    writer.close()  # closing would checkpoint; restore the crashed state from the snapshot
    snap = tmp_path.parent / (tmp_path.name + "-snap")
    for name in ("db.sqlite", "db.sqlite-wal"):
        shutil.copy(snap / name, stub / name)
    (stub / "db.sqlite-shm").unlink(missing_ok=True)
    assert (stub / "db.sqlite-wal").stat().st_size > 0
    before = {p: _sha(stub / p) for p in _listing(stub)}
    with q.open_archive(stub) as archive:
        urls = [i["url"] for i in q.list_pages(archive, limit=1000)["items"]]
    assert "http://localhost/late" in urls
    assert {p: _sha(stub / p) for p in _listing(stub)} == before


def test_live_crawler_is_reported_and_wal_rows_are_seen(tmp_path: Path, extended_archive: Path,
                                                        capfd: object) -> None:
    import os

    from nitpicker_query.archive import locks

    stub = _stub_from(extended_archive, tmp_path)
    writer = sqlite3.connect(stub / "db.sqlite")  # a "crawler" holding the database open
    writer.execute("PRAGMA journal_mode = WAL")
    writer.execute("INSERT INTO pages (url, scraped, isTarget, isExternal, status, contentType) "
                   "VALUES ('http://localhost/fresh', 1, 1, 0, 200, 'text/html')")
    writer.commit()
    locks.acquire(stub)  # pid.txt holds our own (live) PID
    try:
        with q.open_archive(stub) as archive:
            assert archive.crawler_pid == os.getpid()
            urls = [i["url"] for i in q.list_pages(archive, limit=1000)["items"]]
        assert "http://localhost/fresh" in urls
        err = capfd.readouterr().err  # type: ignore[attr-defined]
        assert f"A crawler is writing this crawl directory (PID {os.getpid()})" in err
    finally:
        locks.release(stub)
        writer.close()
