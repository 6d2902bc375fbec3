"""Reading format 0.13 archives that our converter would not produce: hand-built databases
of both flavours (docs/archive-format.md, "Format 0.13"), each value a user would see."""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
from pathlib import Path

import pytest

import nitpicker_query as q
from nitpicker_query.exceptions import NotAnArchive, UnsupportedFormat
from tests.format013_builder import Db13

BASE = "https://site.test"


def _site(tmp: Path, flavour: str = "newest", drop: tuple[str, ...] = ()) -> Db13:
    """Home → /a (three links, one text), /old (301 → /a), /gone (404), an external; an
    alias row /index.html of home; a page with a CSP and two cookies."""
    db = Db13(tmp / "site", flavour=flavour, drop=drop)
    home = db.page(f"{BASE}", "Home", order=1, headers=[
        ("content-security-policy", "default-src 'self'"), ("set-cookie", "a=1"),
        ("set-cookie", "b=2")], meta={"lang": "en"})
    a = db.page(f"{BASE}/a", "Same title", order=2, headers=[("content-type", "text/html")])
    b = db.page(f"{BASE}/b", "Same title", order=3, meta={"description_text_id": None})
    gone = db.item(f"{BASE}/gone", scraped=1, is_target=1, status=404,
                   status_text="Not Found", is_skipped=0)
    old = db.item(f"{BASE}/old", scraped=1, is_target=1, status=301,
                  status_text="Moved Permanently", redirect_dest_id=a)
    ext = db.item("https://elsewhere.test/", is_external=1)
    db.anchor(home, a, count=3, text="to a")
    db.anchor(home, old, text="old link")
    db.anchor(home, gone, text="dead")
    db.anchor(home, ext, text="out")
    db.anchor(a, b)
    if flavour == "newest" and "content_items.alias_of_id" not in drop:
        db.page(f"{BASE}/index.html", "Home", alias_of_id=home, order=4)
    return db


@pytest.fixture(scope="module")
def newest(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("newest")
    db = _site(tmp)
    home = 1
    db.conn.execute("INSERT INTO page_technologies (pageId, technology, category, version, "
                    "confidence, signalCount) VALUES (?, 'WordPress', 'CMS', '6.4', 80, 2)",
                    (home,))
    for kind, evidence, weight in (("html-marker", "/wp-content/", 50),
                                   ("meta-generator", "WordPress 6.4", 60)):
        db.conn.execute("INSERT INTO technology_signals (pageId, technology, signalType, "
                        "evidence, weight) VALUES (?, 'WordPress', ?, ?, ?)",
                        (home, kind, evidence, weight))
    return db.tar(tmp / "newest.nitpicker")


def test_pages_are_the_scraped_html_rows_without_redirect_sources(newest: Path) -> None:
    """/old redirects: not a page; /index.html is an alias of home: a page, as a 0.10
    crawl of the site stores it."""
    items = q.list_pages(newest)["items"]
    assert [(i["url"], i["title"], i["status"]) for i in items] == [
        (f"{BASE}", "Home", 200), (f"{BASE}/a", "Same title", 200),
        (f"{BASE}/b", "Same title", 200), (f"{BASE}/gone", None, 404),
        (f"{BASE}/index.html", "Home", 200)]
    assert items[0]["lang"] == "en"
    with q.open_archive(newest) as a:
        assert a.execute("SELECT aliasOfId FROM pages WHERE url = ?",
                         (f"{BASE}/index.html",)).fetchone()[0] == 1


def test_a_pair_counted_three_times_is_three_links_only_the_first_with_its_text(
        newest: Path) -> None:
    detail = q.get_page_detail(newest, url=BASE)
    assert detail is not None
    to_a = [(o["url"], o["textContent"]) for o in detail["outboundLinks"]
            if o["url"] == f"{BASE}/a"]
    assert to_a == [(f"{BASE}/a", "to a"), (f"{BASE}/a", None), (f"{BASE}/a", None)]
    assert detail["outboundLinksTotal"] == 6
    old = next(o for o in detail["outboundLinks"] if o["url"] == f"{BASE}/old")
    assert (old["status"], old["redirectsTo"]) == (301, f"{BASE}/a")


def test_headers_are_rebuilt_from_the_header_tables(newest: Path) -> None:
    detail = q.get_page_detail(newest, url=BASE)
    assert detail is not None
    assert detail["responseHeaders"] == {"content-security-policy": "default-src 'self'",
                                         "set-cookie": ["a=1", "b=2"]}
    rows = {i["url"]: i["hasCSP"] for i in q.check_headers(newest)["items"]}
    # /b has no header set: its headers are unknown, not "no CSP"
    assert (rows[BASE], rows[f"{BASE}/a"], rows[f"{BASE}/b"]) == (True, False, None)


def test_broken_links_and_duplicates(newest: Path) -> None:
    broken = q.list_links(newest, type="broken")["items"]
    assert [(i["sourceUrl"], i["destUrl"], i["status"]) for i in broken] == [
        (BASE, f"{BASE}/gone", 404)]
    dupes = q.find_duplicates(newest, field="title")["items"]
    assert [(d["value"], d["count"]) for d in dupes] == [("Home", 2), ("Same title", 2)]


def test_technologies_of_the_newest_build_read_as_tags(newest: Path) -> None:
    tags = q.get_page_tags(newest, url=BASE)
    assert tags is not None
    assert [(t["provider"], t["version"], t["confidence"]) for t in tags["tags"]] == [
        ("WordPress", "6.4", 80)]
    # each signal with its evidence and weight, strongest first (60 ⊕ 50 → 80)
    assert tags["tags"][0]["sources"] == [
        {"type": "meta-generator", "src": "WordPress 6.4", "weight": 60},
        {"type": "html-marker", "src": "/wp-content/", "weight": 50}]
    assert q.count_pages_by_tag(newest, provider="WordPress")["pageCount"] == 1
    assert q.count_pages_by_tag(newest, provider="Drupal")["pageCount"] == 0


def test_an_older_013_archive_without_the_self_healing_columns_opens(tmp_path: Path) -> None:
    missing = ("content_items.alias_of_id", "content_items.dedupe_cap_event_id",
               "content_items.is_metadata_only", "page_meta.body_hash",
               "page_meta.console_error_count", "page_meta.image_scan_desktop")
    out = _site(tmp_path, drop=missing).tar(tmp_path / "older.nitpicker")
    with q.open_archive(out) as a:
        assert "alias_of_id" not in [r[1] for r in a.execute("PRAGMA table_info(content_items)")]
    assert [i["url"] for i in q.list_pages(out)["items"]] == [
        BASE, f"{BASE}/a", f"{BASE}/b", f"{BASE}/gone"]
    assert q.get_summary(out)["totals"]["htmlPages"] == 3  # /gone answered 404


def test_the_017_era_flavour_reads_its_page_tags_and_violations(tmp_path: Path) -> None:
    db = _site(tmp_path, flavour="0.17")
    db.conn.execute("INSERT INTO page_tags (pageId, provider, externalId) VALUES "
                    "(1, 'Google Tag Manager', 'GTM-AB12')")
    db.conn.execute("INSERT INTO analysis_text_refs (id, text, sha256) VALUES "
                    "(1, 'img needs alt', 'x')")
    db.conn.execute("INSERT INTO analysis_violations (page_id, validator, severity, rule, "
                    "message_text_id, page_url_sort_key, message_sort_key, code_sort_key) "
                    "VALUES (1, 'axe', 'error', 'image-alt', 1, 'a', 'b', 'c')")
    out = db.tar(tmp_path / "era017.nitpicker")
    before = _sha(out)
    assert q.count_pages_by_tag(out, provider="Google Tag Manager",
                                external_id="GTM-AB12")["pageCount"] == 1
    violations = q.get_violations(out)["items"]
    assert [(v["url"], v["rule"], v["message"]) for v in violations] == [
        (BASE, "image-alt", "img needs alt")]
    assert _sha(out) == before  # read-only: the file's bytes are as they were


def test_upstream_cap_events_with_refused_placeholders(tmp_path: Path) -> None:
    """A refused URL is a placeholder row (never fetched) marked with its event; an
    unfinished crawl leaves ``rejected_count`` NULL."""
    db = _site(tmp_path)
    event = int(db.conn.execute(
        "INSERT INTO dedupe_cap_events (shape_key, sample_url, effective_threshold, "
        "observed_count, detected_at, rejected_count) VALUES "
        "('site.test/cal/{n}', 'https://site.test/cal/9', 3, 4, 5000, NULL)").lastrowid or 0)
    for n in (7, 8, 9):
        db.item(f"{BASE}/cal/{n}", scraped=1, is_target=1, status=200, is_skipped=0,
                dedupe_cap_event_id=event)
    for n in (10, 11):
        db.item(f"{BASE}/cal/{n}", dedupe_cap_event_id=event)
    out = db.tar(tmp_path / "capped.nitpicker")
    items = q.list_dedupe_cap_events(out)["items"]
    assert [(e["shapeKey"], e["rejectedCount"], e["capturedPageCount"],
             e["sampleUrlArchived"]) for e in items] == [("site.test/cal/{n}", None, 5, True)]
    totals = q.get_summary(out)["totals"]
    assert totals["queuedUrls"] == 3  # the two refused placeholders and the external


def _sha(path: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(path.iterdir())} if path.is_dir() else {
        path.name: hashlib.sha256(path.read_bytes()).hexdigest()}


def test_read_only_leaves_the_bytes_of_a_file_and_a_crawl_directory_with_wal(
        tmp_path: Path) -> None:
    db = _site(tmp_path)
    db.conn.commit()
    db.conn.execute("PRAGMA journal_mode = WAL")
    db.conn.execute("PRAGMA wal_autocheckpoint = 0")
    db.page(f"{BASE}/late", "Written to the WAL only", order=9)
    db.conn.commit()
    crawl_dir = tmp_path / "crawl"
    shutil.copytree(db.dir, crawl_dir)  # db.sqlite + a non-empty -wal, as a live writer
    db.conn.close()
    assert (crawl_dir / "db.sqlite-wal").stat().st_size > 0
    before = _sha(crawl_dir)
    urls = [i["url"] for i in q.list_pages(crawl_dir)["items"]]
    assert f"{BASE}/late" in urls
    assert q.get_page_detail(crawl_dir, url=BASE) is not None
    assert _sha(crawl_dir) == before
    packed = Db13(tmp_path / "p").tar(tmp_path / "p.nitpicker")
    before = _sha(packed)
    q.get_summary(packed)
    assert _sha(packed) == before


def test_a_013_table_that_is_a_view_is_refused(tmp_path: Path) -> None:
    db = Db13(tmp_path / "v")
    db.conn.execute("DROP TABLE anchor_edges")
    db.conn.execute("CREATE VIEW anchor_edges AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL "
                    "SELECT n + 1 FROM r) SELECT n AS id, 1 AS page_id, 1 AS href_page_id, "
                    "1 AS count, NULL AS first_hash, NULL AS first_text_id FROM r")
    out = db.tar(tmp_path / "v.nitpicker")
    with pytest.raises(NotAnArchive, match="table anchor_edges is a view"):
        q.list_pages(out)


def test_a_013_table_without_a_column_the_views_need_is_refused(tmp_path: Path) -> None:
    db = Db13(tmp_path / "c")
    db.conn.execute("ALTER TABLE url_refs RENAME COLUMN url TO href")
    out = db.tar(tmp_path / "c.nitpicker")
    with pytest.raises(NotAnArchive, match="table url_refs lacks column url"):
        q.get_summary(out)


def test_claiming_013_without_its_tables_is_refused(tmp_path: Path) -> None:
    d = tmp_path / "bare"
    d.mkdir()
    conn = sqlite3.connect(d / "db.sqlite")
    conn.execute("CREATE TABLE info (id integer primary key, version varchar(255))")
    conn.execute("INSERT INTO info (version) VALUES ('0.13.0')")
    conn.commit()
    conn.close()
    with pytest.raises(UnsupportedFormat, match=r"lacks the 0\.13 tables"):
        q.get_summary(d)


def test_a_huge_anchor_count_is_bounded(tmp_path: Path) -> None:
    db = Db13(tmp_path / "h")
    p = db.page(BASE, "Home")
    t = db.page(f"{BASE}/t", "T")
    db.anchor(p, t, count=10**12, text="again")
    out = db.tar(tmp_path / "h.nitpicker")
    detail = q.get_page_detail(out, url=BASE, links_limit=5)
    assert detail is not None
    assert detail["outboundLinksTotal"] == 10_000
    assert os.path.getsize(out) < 1_000_000


def test_stored_templates_are_read_not_recomputed(tmp_path: Path) -> None:
    """Upstream's crawler stores each page's template (``page_templates``): the clusters
    are those, with upstream's reasons, although the archive holds no HTML at all."""
    import zstandard

    db = _site(tmp_path)
    for page_id, key in ((1, "cluster:0"), (2, "cluster:1"), (3, "cluster:1")):
        db.conn.execute("INSERT INTO page_templates VALUES (?, ?)", (page_id, key))
    reason = zstandard.ZstdCompressor().compress(b'{"why": "same shell"}')
    db.conn.execute("INSERT INTO page_template_clusters VALUES ('cluster:1', 2, ?, 'zstd', "
                    "21, ?)", (reason, len(reason)))
    out = db.tar(tmp_path / "templates.nitpicker")
    items = q.get_template_clusters(out)["items"]
    assert [(i["key"], i["count"], i["samplePages"]) for i in items] == [
        ("cluster:1", 2, [f"{BASE}/a", f"{BASE}/b"]), ("cluster:0", 1, [BASE])]
    assert items[0]["reasons"]["stored"] == {"why": "same shell"}
    detail = q.get_template_cluster(out, key="cluster:1")
    assert detail is not None
    assert [m["title"] for m in detail["items"]] == ["Same title", "Same title"]


def test_the_report_reads_013_as_it_reads_010(newest: Path, tmp_path: Path) -> None:
    """Each sheet over the 0.10-shaped views: the pair counted three times is one row of
    Count 3, the link to /old is counted at /a (where it ends), the file unchanged."""
    import openpyxl

    from nitpicker_query.report import write_report

    before = _sha(newest)
    out = tmp_path / "r.xlsx"
    written = write_report(newest, out)
    book = openpyxl.load_workbook(out, read_only=True)
    rows = {s.title: list(s.iter_rows(values_only=True)) for s in book.worksheets}
    assert {s["name"]: s["rows"] for s in written["sheets"]}["Page List"] == \
        len(rows["Page List"]) - 1 == q.list_pages(newest, is_external=False)["total"]
    pairs = {(r[0], r[1]): r[2:4] for r in rows["Referrers Relational Table"][1:]}
    assert pairs[(f"{BASE}/a", BASE)] == ("to a", 4)   # three direct + one through /old
    links = {r[0]: r for r in rows["Links"][1:]}
    assert links[f"{BASE}/old"][5:7] == (0, "1 Elements")
    assert links[f"{BASE}/a"][5] == 1                       # Redirect From: /old
    assert _sha(newest) == before
