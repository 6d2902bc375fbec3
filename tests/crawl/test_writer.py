"""The archive writer: tar layout, row conventions, migrations, locking, atomic output."""

from __future__ import annotations

import sqlite3
import tarfile
from pathlib import Path

import pytest

import nitpicker_query as q
from nitpicker_crawl.archive import ArchiveWriter
from nitpicker_query.archive import locks
from nitpicker_query.exceptions import ArchiveBusy


def _new(tmp_path: Path, name: str = "site") -> ArchiveWriter:
    return ArchiveWriter.create(tmp_path / f"{name}.nitpicker", roots=["http://s.test/"],
                                workdir=tmp_path / f"._nitpicker-{name}")


def test_tar_layout_and_no_side_files(tmp_path: Path) -> None:
    w = _new(tmp_path)
    w.save_page("http://s.test/", contentType="text/html", status=200, title="Home")
    out = w.close()
    with tarfile.open(out) as tf:
        members = tf.getmembers()
    assert [m.name for m in members] == ["site", "site/db.sqlite"]
    assert members[0].isdir() and all(m.uid == 0 and m.uname == "" for m in members)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site.nitpicker"]  # workdir + lock gone


def test_info_row(tmp_path: Path) -> None:
    w = _new(tmp_path)
    w.close()
    with q.open_archive(tmp_path / "site.nitpicker") as a:
        assert a.info["version"] == "0.10.0" and a.info["name"] == "site"
        assert a.info["roots"] == '["http://s.test/"]' and a.base_url == "http://s.test/"
        assert a.has_table("dedupe_cap_events") and a.has_table("page_signatures")
        journal = a.execute("PRAGMA journal_mode").fetchone()[0]
        page_size = a.execute("PRAGMA page_size").fetchone()[0]
    assert page_size == 16384
    assert journal in ("wal", "delete")


def test_redirect_chain_is_preflattened(tmp_path: Path) -> None:
    w = _new(tmp_path)
    mid = w.save_page("http://s.test/b", status=302)
    first = w.save_page("http://s.test/a", status=301)
    w.record_redirect(["http://s.test/a"], mid)  # a → b learnt first
    final = w.save_page("http://s.test/c", status=200, contentType="text/html")
    w.record_redirect(["http://s.test/b"], final)  # then b → c
    w.record_redirect(["http://s.test/c"], final)  # a hop to itself is ignored
    rows = dict(w.conn.execute("SELECT id, redirectDestId FROM pages").fetchall())
    assert rows[first] == final and rows[mid] == final and rows[final] is None
    w.close()


def test_a_hop_met_only_in_a_chain_says_where_it_is(tmp_path: Path) -> None:
    """A redirect's middle hop has no row before the chain is recorded: the row made for
    it says whether it is the site's (listed with the site's pages) or another's."""
    w = _new(tmp_path)
    final = w.save_page("http://s.test/end", status=200, contentType="text/html",
                        isExternal=0)
    w.record_redirect([("http://s.test/start", 301), ("http://s.test/middle", 302),
                       ("http://elsewhere.test/hop", 302)], final,
                      is_external=lambda u: not u.startswith("http://s.test/"))
    rows = dict(w.conn.execute("SELECT url, isExternal FROM pages").fetchall())
    assert rows["http://s.test/middle"] == 0 and rows["http://s.test/start"] == 0
    assert rows["http://elsewhere.test/hop"] == 1
    archive = w.close()
    listed = {i["url"] for i in q.list_pages(archive, redirects=True,
                                               is_external=False)["items"]}
    assert listed == {"http://s.test/start", "http://s.test/middle"}
    outside = q.list_pages(archive, redirects=True, is_external=True)["items"]
    assert [i["url"] for i in outside] == ["http://elsewhere.test/hop"]


def test_a_row_without_is_external_is_listed_as_it_is_shown(tmp_path: Path) -> None:
    """Archives written before hops said where they are hold rows with isExternal unset:
    shown as false, they are listed with the site's pages, not with the external ones."""
    w = _new(tmp_path)
    final = w.save_page("http://s.test/end", status=200, contentType="text/html",
                        isExternal=0)
    w.record_redirect([("http://s.test/old", 301)], final)   # no is_external: unset
    assert w.conn.execute("SELECT isExternal FROM pages WHERE url = 'http://s.test/old'"
                          ).fetchone()[0] is None
    archive = w.close()
    inside = q.list_pages(archive, redirects=True, is_external=False)["items"]
    assert [(i["url"], i["isExternal"]) for i in inside] == [("http://s.test/old", False)]
    assert q.list_pages(archive, redirects=True, is_external=True)["total"] == 0


def test_anchors_replaced_not_appended_and_empty_list_keeps(tmp_path: Path) -> None:
    w = _new(tmp_path)
    p = w.save_page("http://s.test/", contentType="text/html", status=200)
    w.replace_anchors(p, [("http://s.test/x", None, "x"), ("http://s.test/y", "top", "y")])
    w.replace_anchors(p, [("http://s.test/z", None, "z")])
    w.replace_anchors(p, [])
    w.close()
    detail = q.get_page_detail(tmp_path / "site.nitpicker", url="http://s.test/")
    assert detail is not None
    assert [o["url"] for o in detail["outboundLinks"]] == ["http://s.test/z"]
    # the never-fetched target still has a row (anchors' FK requires it)
    target = q.get_page_detail(tmp_path / "site.nitpicker", url="http://s.test/x")
    assert target is not None and target["status"] is None


def test_html_is_content_addressed_and_zstd(tmp_path: Path) -> None:
    w = _new(tmp_path)
    html = "<html><body>" + "same template " * 500 + "</body></html>"
    for i in range(3):
        pid = w.save_page(f"http://s.test/{i}", contentType="text/html", status=200)
        w.save_html(pid, html)
    blobs = w.conn.execute("SELECT codec, size_raw, size_stored FROM page_html_blobs").fetchall()
    assert len(blobs) == 1 and blobs[0][0] == "zstd" and blobs[0][2] < blobs[0][1]
    w.close()
    got = q.get_page_html(tmp_path / "site.nitpicker", url="http://s.test/2")
    assert got is not None and got["html"] == html


def test_first_crawled_at_is_kept_on_rescrape(tmp_path: Path) -> None:
    w = _new(tmp_path)
    w.save_page("http://s.test/", status=500, firstCrawledAt=1, lastCrawledAt=1)
    w.save_page("http://s.test/", status=200, firstCrawledAt=5, lastCrawledAt=5)
    row = w.conn.execute("SELECT status, firstCrawledAt, lastCrawledAt FROM pages").fetchone()
    assert tuple(row) == (200, 1, 5)
    w.close()


def test_natural_order(tmp_path: Path) -> None:
    w = _new(tmp_path)
    for n in (10, 2, 1):
        w.save_page(f"http://s.test/p/{n}", status=200)
    w.close()
    with q.open_archive(tmp_path / "site.nitpicker") as a:
        rows = a.execute('SELECT url FROM pages ORDER BY "order"').fetchall()
    assert [r[0] for r in rows] == ["http://s.test/p/1", "http://s.test/p/2",
                                    "http://s.test/p/10"]


def test_lock_held_while_writing(tmp_path: Path) -> None:
    w = _new(tmp_path)
    holder = locks.probe(w.workdir)
    assert holder is not None and holder.alive
    with pytest.raises(ArchiveBusy, match=r"another process \(PID 1\)"):
        _busy(w.workdir)
    w.close()
    assert locks.probe(w.workdir) is None


def _busy(directory: Path) -> None:
    """Pretend another live process (PID 1) holds the lock, then try to take it."""
    (locks.lock_path_for(directory) / "pid.txt").write_text("1")
    locks.acquire(directory)


def test_stale_lock_is_taken_over(tmp_path: Path) -> None:
    wd = tmp_path / "._nitpicker-site"
    lock = locks.lock_path_for(wd)
    lock.mkdir()
    (lock / "pid.txt").write_text("999999999")  # no such process
    w = ArchiveWriter.create(tmp_path / "site.nitpicker", roots=["http://s.test/"], workdir=wd)
    w.close()
    assert (tmp_path / "site.nitpicker").exists()


def test_interrupted_write_leaves_a_readable_stub_and_no_archive(tmp_path: Path) -> None:
    w = _new(tmp_path)
    w.save_page("http://s.test/", contentType="text/html", status=200, title="Home")
    w.commit()
    w.abandon()
    assert not (tmp_path / "site.nitpicker").exists()
    pages = q.list_pages(w.workdir)
    assert [i["title"] for i in pages["items"]] == ["Home"]


def test_resume_from_archive_migrates_old_archive(tmp_path: Path) -> None:
    from tests.query.test_foreign_archive import build_upstream_like

    old = build_upstream_like(tmp_path)
    w = ArchiveWriter.resume(old, output=tmp_path / "more.nitpicker",
                             workdir=tmp_path / "._nitpicker-more")
    cols = [r[1] for r in w.conn.execute("PRAGMA table_info(dedupe_cap_events)")]
    assert cols[:8] == ["id", "shape_key", "sample_url", "body_hash", "effective_threshold",
                        "observed_count", "detected_at", "rejected_count"]
    w.save_page("http://localhost/c", contentType="text/html", status=200, title="Page C")
    out = w.close()
    with q.open_archive(out) as a:
        assert a.version == "0.10.0" and a.has_table("dedupe_cap_events")
        urls = [i["url"] for i in q.list_pages(a)["items"]]
    assert urls == ["http://localhost/a", "http://localhost/b", "http://localhost/c"]
    # the original was not touched
    with q.open_archive(old) as a:
        assert not a.has_table("dedupe_cap_events")


def test_migration_adds_missing_columns_to_upstream_shaped_table(tmp_path: Path) -> None:
    w = _new(tmp_path)
    w.conn.execute("DROP TABLE dedupe_cap_events")
    w.conn.execute("CREATE TABLE dedupe_cap_events (id integer primary key autoincrement, "
                   "shape_key varchar(255) not null, sample_url varchar(255) not null)")
    w.abandon()
    again = ArchiveWriter.resume(w.workdir, output=tmp_path / "site.nitpicker")
    cols = [r[1] for r in again.conn.execute("PRAGMA table_info(dedupe_cap_events)")]
    assert "signature" in cols and "signals" in cols
    again.close()


def test_output_replaced_atomically(tmp_path: Path) -> None:
    out = tmp_path / "site.nitpicker"
    out.write_bytes(b"previous archive")
    w = _new(tmp_path)
    w.save_page("http://s.test/", status=200)
    w.close()
    assert tarfile.is_tarfile(out)
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".partial")]


def test_resume_refuses_too_new(tmp_path: Path) -> None:
    w = _new(tmp_path)
    w.conn.execute("UPDATE info SET version = '0.13.0'")
    w.abandon()
    with pytest.raises(q.UnsupportedFormat, match=r"format 0\.13\.0; --resume continues "
                       r"crawls in format 0\.10 only\. Convert it first: nitpicker-crawl "
                       r"convert .* --to 0\.10"):
        ArchiveWriter.resume(w.workdir)
    conn = sqlite3.connect(w.workdir / "db.sqlite")
    assert conn.execute("SELECT version FROM info").fetchone()[0] == "0.13.0"
    conn.close()
