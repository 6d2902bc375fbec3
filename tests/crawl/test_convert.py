"""``nitpicker-crawl convert``: real archives of ours rewritten in upstream's format
0.13.0, then read with the SQL a user of upstream's format would write (docs/archive-format.md,
"Format 0.13 as we write it"). Three sources: a crawl directory written here with every
kind of row the format changes (headers with CSP and cookies, a redirect chain without
statuses, repeated links, a long data: URI, technologies with container ids, a refused
URL), the §8 fixture archive, and a crawl of TrapZoo with its soft cap.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sqlite3
import subprocess
import tarfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import zstandard

import nitpicker_query as q
from nitpicker_crawl import cli
from nitpicker_crawl.archive import ArchiveWriter, convert, to013, to013_work
from nitpicker_crawl.extract.content import body_hash
from nitpicker_crawl.traps import capmarks
from nitpicker_query.archive import locks
from nitpicker_query.exceptions import ArchiveBusy
from nitpicker_query.format.v013_schema import FORMAT_VERSION, MAIN_CONTENT_TABLES
from tests.crawl.conftest import CRAWL, Crawl
from tests.format013_builder import Db13

ROOT = Path(__file__).resolve().parent.parent.parent
UPSTREAM_SCHEMA = ROOT.parent / "shared" / "format-0.13" / "schema-newest.sql"
OLD_ARCHIVE = ROOT / "tests" / "data" / "upstream-0.4.4"
SITE = "https://shop.example"
CSP_HEADERS = {"Content-Type": "text/html; charset=utf-8",
               "Content-Security-Policy": "default-src 'self'", "X-Frame-Options": "DENY",
               "Set-Cookie": ["session=abc; HttpOnly", "theme=dark"],
               "Cache-Control": "no-cache", "Date": "Tue, 01 Dec 2026 10:00:00 GMT"}
HTML = ("<html><head><title>Shop</title></head><body class='home'><p>Build a1b2c3d4e5</p>"
        "<a href='/index.html'>home</a></body></html>")
LONG_DATA = "data:image/png;base64," + "iVBORw0KGgo" * 60


def run_convert(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CRAWL, "convert", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120)


def unpack(archive: Path, target: Path) -> sqlite3.Connection:
    """The archive's database, extracted (to read it with plain SQL)."""
    with tarfile.open(archive) as tar:
        tar.extractall(target, filter="data")
    inner = next(p for p in target.iterdir() if p.is_dir())
    conn = sqlite3.connect(inner / "db.sqlite")
    conn.row_factory = sqlite3.Row
    return conn


def sha(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8")).digest()


def build_shop(directory: Path) -> Path:
    """A crawl directory (``db.sqlite`` left by a writer that stopped) holding every kind of
    row 0.13 stores differently; returns the directory."""
    directory.mkdir(parents=True, exist_ok=True)
    w = ArchiveWriter.create(directory / "shop.nitpicker", roots=[f"{SITE}/"],
                             workdir=directory / "shop-crawl")
    home = w.save_page(f"{SITE}/", status=200, statusText="OK", contentType="text/html",
                       responseHeaders=CSP_HEADERS, title="Shop", description="Ünïcode shop",
                       canonical="https://shop.example:443/?utm=1#top", og_title="",
                       lang="en")
    w.update_page(home, {}, extras={"prev": f"{SITE}/p/0", "alternates": ["en", "de"]})
    item = w.save_page(f"{SITE}/item?id=7", status=200, statusText="OK",
                       contentType="text/html", responseHeaders={"content-type": "text/html"},
                       title="Item 7")
    w.save_html(home, HTML)
    w.replace_anchors(home, [(f"{SITE}/item?id=7", "#top", "one"),
                             (f"{SITE}/item?id=7", None, "two"),
                             (f"{SITE}/item?id=7", None, "one"),
                             (f"{SITE}/old", None, "old"), (f"{SITE}/older", None, "older"),
                             ("https://other.example:8443/x?y=1", None, "")])
    w.replace_images(home, [
        {"src": f"{SITE}/a.png", "alt": "A", "width": 10, "height": 10, "naturalWidth": 20,
         "naturalHeight": 20, "viewportWidth": 1280, "sourceCode": "<img src=a.png alt=A>"},
        {"src": LONG_DATA, "alt": "", "viewportWidth": 1280}])
    w.replace_tags(home, [
        {"provider": "Google Tag Manager", "category": "Tag managers", "externalId": "GTM-A",
         "confidence": 100, "categories": ["Tag managers"], "sources": [{"type": "scripts"}]},
        {"provider": "Google Tag Manager", "category": "Tag managers", "externalId": "GTM-B",
         "confidence": 100, "categories": ["Tag managers"], "sources": [{"type": "scripts"}]},
        {"provider": "jQuery", "category": "JavaScript libraries", "version": "3.6.0",
         "confidence": 50}])
    css = w.save_resource(f"{SITE}/site.css", isExternal=0, status=200, statusText="OK",
                          contentType="text/css", responseHeaders={"Cache-Control": "max-age=60"})
    w.add_referrer(css, home)
    # a chain as a stranger's archive may hold it: /older → /old → /item?id=7, no statuses
    old = w.page_id(f"{SITE}/old")
    older = w.page_id(f"{SITE}/older")
    w.conn.execute("UPDATE pages SET scraped = 1, redirectDestId = ? WHERE id = ?", (item, old))
    w.conn.execute("UPDATE pages SET scraped = 1, redirectDestId = ? WHERE id = ?", (old, older))
    event = w.add_dedupe_cap_event(
        shape_key="shop.example/list/{n}", sample_url=f"{SITE}/list/9", body_hash=None,
        effective_threshold=3, observed_count=3, rejected_count=1, signature="f" * 40,
        parent_path="/list", signals={"key": "shape"})
    w.skip_page(f"{SITE}/list/10", "dedupe-cap", cap_event=event)
    w.commit()
    w.abandon()
    return directory / "shop-crawl"


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[sqlite3.Connection,
                                                                      sqlite3.Connection, str]]:
    """The shop crawl directory converted: (0.10 db, 0.13 db, the converter's stderr)."""
    base = tmp_path_factory.mktemp("shop")
    crawl = build_shop(base)
    done = run_convert(str(crawl), "--to", "0.13", "-o", str(base / "shop-0.13.nitpicker"))
    assert done.returncode == 0, done.stderr
    old = sqlite3.connect(crawl / "db.sqlite")
    old.row_factory = sqlite3.Row
    new = unpack(base / "shop-0.13.nitpicker", base / "x")
    yield old, new, done.stderr
    old.close()
    new.close()


def _url_id(db: sqlite3.Connection, url: str) -> int:
    return int(db.execute("SELECT ci.id FROM content_items ci JOIN url_refs ur ON ur.id = "
                          "ci.url_id WHERE ur.url = ?", (url,)).fetchone()[0])


def test_schema_is_upstreams_newest_plus_ours(shop: tuple[sqlite3.Connection, ...]) -> None:
    _, new, _ = shop
    assert new.execute("PRAGMA page_size").fetchone()[0] == 16384
    assert new.execute("SELECT version FROM info").fetchone()[0] == FORMAT_VERSION == "0.13.0"
    names = {r[0] for r in new.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"content_items", "url_refs", "page_meta", "anchor_edges", "technology_signals",
            "page_signatures", "crawl_runs", "dedupe_cap_events"} <= names
    assert not names & {"pages", "anchors", "images", "resources", "page_tags"}
    columns = [r[1] for r in new.execute("PRAGMA table_info(dedupe_cap_events)")]
    assert columns[:9] == ["id", "shape_key", "sample_url", "body_hash", "effective_threshold",
                           "observed_count", "detected_at", "rejected_count", "signature"]
    if not UPSTREAM_SCHEMA.is_file():
        pytest.skip(f"{UPSTREAM_SCHEMA} is not here (CI has ../shared beside the repo)")
    statements = [s.strip() for s in UPSTREAM_SCHEMA.read_text().split(";\n") if s.strip()]
    upstream = {re.match(r"CREATE (?:UNIQUE )?(?:TABLE|INDEX) `?(\w+)", s).group(1):  # type: ignore[union-attr]
                s.rstrip(";") for s in statements}
    stored = {r[0]: r[1] for r in new.execute("SELECT name, sql FROM sqlite_master")}
    assert set(upstream) <= set(stored)
    for name, sql in upstream.items():
        if name not in ("dedupe_cap_events", "sqlite_sequence"):
            assert stored[name] == sql, name  # upstream's statement, byte for byte


def test_titles_read_through_upstreams_joins(shop: tuple[sqlite3.Connection, ...]) -> None:
    old, new, _ = shop
    titles = dict(new.execute(
        "SELECT ur.url, tr.text FROM content_items ci JOIN url_refs ur ON ur.id = ci.url_id "
        "JOIN page_meta pm ON pm.page_id = ci.id LEFT JOIN text_refs tr ON tr.id = "
        "pm.title_text_id"))
    for url, title in old.execute("SELECT url, title FROM pages WHERE title IS NOT NULL"):
        assert titles[url] == title
    home = _url_id(new, f"{SITE}/")
    meta = new.execute("SELECT * FROM page_meta WHERE page_id = ?", (home,)).fetchone()
    assert meta["og_title_text_id"] is None  # '' is no text
    assert new.execute("SELECT text FROM text_refs WHERE id = ?",
                       (meta["description_text_id"],)).fetchone()[0] == "Ünïcode shop"
    assert new.execute("SELECT count(*) FROM text_refs WHERE text = ''").fetchone()[0] == 0
    for text, digest in new.execute("SELECT text, hash FROM text_refs"):
        assert digest == sha(text)
    extras = new.execute("SELECT json_text, codec FROM json_refs WHERE id = ?",
                         (meta["meta_extras_json_id"],)).fetchone()
    assert extras["codec"] == "zstd"
    assert json.loads(zstandard.ZstdDecompressor().decompress(extras["json_text"])) == {
        "prev": f"{SITE}/p/0", "alternates": ["en", "de"]}
    assert meta["body_hash"] == body_hash(HTML)
    assert tuple(new.execute("SELECT c.raw, c.category FROM content_items ci JOIN "
                             "content_type_refs c ON c.id = ci.content_type_id WHERE ci.id = ?",
                             (home,)).fetchone()) == ("text/html", "html")


def test_urls_are_decomposed(shop: tuple[sqlite3.Connection, ...]) -> None:
    _, new, _ = shop
    row = new.execute("SELECT ur.* FROM page_meta pm JOIN url_refs ur ON ur.id = "
                      "pm.canonical_url_id WHERE pm.page_id = ?",
                      (_url_id(new, f"{SITE}/"),)).fetchone()
    assert (row["url"], row["scheme"], row["host"], row["port"], row["path"],
            row["query_hash"], row["fragment"]) == (
        "https://shop.example:443/?utm=1#top", "https", "shop.example", None, "/", sha("utm=1"),
        "top")
    other = new.execute("SELECT scheme, host, port, path, query_hash, fragment FROM url_refs "
                        "WHERE url = 'https://other.example:8443/x?y=1'").fetchone()
    assert tuple(other) == ("https", "other.example", 8443, "/x", sha("y=1"), None)
    assert new.execute("SELECT count(*) FROM url_refs WHERE url = ''").fetchone()[0] == 0


def test_links_one_row_per_pair_and_counted(shop: tuple[sqlite3.Connection, ...]) -> None:
    old, new, stderr = shop
    assert new.execute("SELECT sum(count) FROM anchor_edges").fetchone()[0] == \
        old.execute("SELECT count(*) FROM anchors").fetchone()[0] == 6
    edge = new.execute(
        "SELECT ae.count, ae.first_hash, tr.text FROM anchor_edges ae JOIN content_items d ON "
        "d.id = ae.href_page_id JOIN url_refs ur ON ur.id = d.url_id LEFT JOIN text_refs tr "
        "ON tr.id = ae.first_text_id WHERE ur.url = ?", (f"{SITE}/item?id=7",)).fetchone()
    assert tuple(edge) == (3, "#top", "one")
    assert ("2 link(s) repeating an earlier link of the same page to the same target" in stderr
            and "in 1 of 4 pairs" in stderr)


def test_redirect_sources_keep_their_status_and_point_at_the_final_page(
        shop: tuple[sqlite3.Connection, ...]) -> None:
    """No 301 stamped on a source without a status (upstream's writer does it): it would
    not convert back."""
    old, new, _stderr = shop
    final = _url_id(new, f"{SITE}/item?id=7")
    for source in ("/old", "/older"):  # /older pointed at /old: flattened
        row = new.execute("SELECT status, status_text, redirect_dest_id, scraped FROM "
                          "content_items WHERE id = ?", (_url_id(new, SITE + source),)
                          ).fetchone()
        before = old.execute("SELECT status, statusText FROM pages WHERE url = ?",
                             (SITE + source,)).fetchone()
        assert tuple(row) == (*tuple(before), final, 1)


def test_header_flags_of_a_page_with_csp(shop: tuple[sqlite3.Connection, ...]) -> None:
    _, new, _ = shop
    flags = new.execute("SELECT hf.* FROM content_items ci JOIN header_flags hf ON "
                        "hf.header_set_id = ci.header_set_id WHERE ci.id = ?",
                        (_url_id(new, f"{SITE}/"),)).fetchone()
    assert dict(flags) | {"header_set_id": 0} == {
        "header_set_id": 0, "has_csp": 1, "has_x_frame_options": 1,
        "has_x_content_type_options": 0, "has_hsts": 0, "has_referrer_policy": 0,
        "has_permissions_policy": 0, "has_set_cookie": 1, "cache_policy": "no-cache"}
    entries = new.execute(
        "SELECT n.name, e.occurrence, v.value, e.is_volatile, v.hash FROM content_items ci "
        "JOIN header_set_entries e ON e.header_set_id = ci.header_set_id JOIN "
        "header_name_refs n ON n.id = e.name_id JOIN header_value_refs v ON v.id = e.value_id "
        "WHERE ci.id = ? ORDER BY n.name, e.occurrence", (_url_id(new, f"{SITE}/"),)).fetchall()
    lines = [f"{n}/{k}={v.strip()}" for n, k, v, _, _ in entries]
    assert lines == ["cache-control/1=no-cache", "content-security-policy/1=default-src 'self'",
                     "content-type/1=text/html; charset=utf-8",
                     "date/1=Tue, 01 Dec 2026 10:00:00 GMT", "set-cookie/1=session=abc; HttpOnly",
                     "set-cookie/2=theme=dark", "x-frame-options/1=DENY"]
    assert all(digest == sha(value) for _, _, value, _, digest in entries)
    hs = new.execute("SELECT hs.* FROM content_items ci JOIN header_sets hs ON hs.id = "
                     "ci.header_set_id WHERE ci.id = ?", (_url_id(new, f"{SITE}/"),)).fetchone()
    stable = [line for line, e in zip(lines, entries, strict=True) if not e[3]]
    volatile = [line for line, e in zip(lines, entries, strict=True) if e[3]]
    assert volatile == ["date/1=Tue, 01 Dec 2026 10:00:00 GMT",
                        "set-cookie/1=session=abc; HttpOnly", "set-cookie/2=theme=dark"]
    assert (hs["raw_hash"], hs["stable_hash"], hs["volatile_hash"], hs["entry_count"],
            hs["stable_entry_count"]) == (sha("\n".join(lines)), sha("\n".join(stable)),
                                          sha("\n".join(volatile)), 7, 4)
    plain = new.execute("SELECT hf.has_csp, hf.cache_policy FROM content_items ci JOIN "
                        "header_flags hf ON hf.header_set_id = ci.header_set_id WHERE ci.id = ?",
                        (_url_id(new, f"{SITE}/item?id=7"),)).fetchone()
    assert tuple(plain) == (0, None)


def test_images_resources_and_technologies(shop: tuple[sqlite3.Connection, ...]) -> None:
    _, new, stderr = shop
    images = new.execute(
        "SELECT su.url, ii.src_blob_id, alt.text, dom.text, ii.width FROM image_items ii "
        "LEFT JOIN url_refs su ON su.id = ii.src_url_id LEFT JOIN text_refs alt ON alt.id = "
        "ii.alt_text_id JOIN text_refs dom ON dom.id = ii.dom_path_text_id ORDER BY ii.id"
    ).fetchall()
    assert [tuple(i)[:1] + tuple(i)[2:] for i in images] == [
        (f"{SITE}/a.png", "A", "img[unknown]", 10.0), (None, None, "img[unknown]", 0.0)]
    blob = new.execute("SELECT * FROM blob_refs WHERE id = ?", (images[1][1],)).fetchone()
    decoded = zstandard.ZstdDecompressor().decompress(blob["body"])
    assert blob["hash"] == hashlib.sha256(decoded).digest() and decoded.startswith(
        b"\x89PNG\r\n\x1a\n")
    assert "images.sourceCode (1 values" in stderr
    resource = new.execute("SELECT ur.url, c.category, hf.cache_policy, e.page_id, e.count FROM "
                           "resource_items ri JOIN url_refs ur ON ur.id = ri.url_id JOIN "
                           "content_type_refs c ON c.id = ri.content_type_id JOIN header_flags hf "
                           "ON hf.header_set_id = ri.header_set_id JOIN resource_ref_edges e ON "
                           "e.resource_id = ri.id").fetchone()
    assert tuple(resource) == (f"{SITE}/site.css", "css", "max-age=60",
                               _url_id(new, f"{SITE}/"), 1)
    techs = new.execute("SELECT technology, version, confidence, signalCount FROM "
                        "page_technologies ORDER BY id").fetchall()
    assert [tuple(t) for t in techs] == [("Google Tag Manager", None, 100, 1),
                                         ("jQuery", "3.6.0", 50, 1)]
    signals = [json.loads(r[0])["externalId"] for r in new.execute(
        "SELECT evidence FROM technology_signals WHERE technology = 'Google Tag Manager'")]
    assert signals == ["GTM-A", "GTM-B"]  # each 0.10 row kept, with its container id


def test_refused_urls_carry_their_event(shop: tuple[sqlite3.Connection, ...]) -> None:
    _, new, stderr = shop
    row = new.execute("SELECT ci.is_skipped, ci.skip_reason, ci.dedupe_cap_event_id, "
                      "e.signature FROM content_items ci JOIN dedupe_cap_events e ON e.id = "
                      "ci.dedupe_cap_event_id WHERE ci.id = ?",
                      (_url_id(new, f"{SITE}/list/10"),)).fetchone()
    assert tuple(row) == (1, "dedupe-cap", 1, "f" * 40)
    assert "1 page(s) marked with the cap event that refused or captured them" in stderr


@pytest.fixture(scope="module")
def fixture13(extended_archive: Path, tmp_path_factory: pytest.TempPathFactory
              ) -> tuple[Path, sqlite3.Connection]:
    out = tmp_path_factory.mktemp("fixture13") / "fixture-0.13.nitpicker"
    done = run_convert(str(extended_archive), "--to", "0.13", "-o", str(out))
    assert done.returncode == 0, done.stderr
    return out, unpack(out, out.parent / "x")


def test_the_fixture_archive_keeps_ids_and_rows(extended_archive: Path,
                                                fixture13: tuple[Path, sqlite3.Connection]
                                                ) -> None:
    out, new = fixture13
    with q.open_archive(extended_archive) as a:
        pages = a.rows("SELECT id, url, status, title FROM pages ORDER BY id")
        events = a.rows("SELECT id, shape_key, signature FROM dedupe_cap_events")
    assert [tuple(r) for r in new.execute(
        "SELECT ci.id, ur.url, ci.status, tr.text FROM content_items ci JOIN url_refs ur ON "
        "ur.id = ci.url_id LEFT JOIN page_meta pm ON pm.page_id = ci.id LEFT JOIN text_refs tr "
        "ON tr.id = pm.title_text_id ORDER BY ci.id")] == [tuple(r) for r in pages]
    assert [tuple(r) for r in new.execute("SELECT id, shape_key, signature FROM "
                                          "dedupe_cap_events")] == [tuple(r) for r in events]
    assert new.execute("SELECT count(*) FROM page_html_ref").fetchone()[0] == 1
    with q.open_archive(out) as a:  # and our reader reads it as 0.13
        assert a.format == "0.13"


@pytest.fixture(scope="module")
def trap13(capped_plain: Crawl, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """TrapZoo crawled with its soft cap (redirects, refused URLs, cap events, externals,
    technologies), converted to 0.13."""
    out = tmp_path_factory.mktemp("trap13") / "site-0.13.nitpicker"
    done = run_convert(str(capped_plain.archive), "--to", "0.13", "-o", str(out))
    assert done.returncode == 0, done.stderr
    return out


def test_a_trapzoo_crawl(capped_plain: Crawl, trap13: Path, tmp_path: Path) -> None:
    """A real crawl with its soft cap: every page and link instance accounted for, each
    refused URL marked with the event that refused it, each event's captured pages
    marked (as ``list_dedupe_cap_events`` counts them), body hashes as computed on the
    stored HTML."""
    new = unpack(trap13, tmp_path / "x")
    with q.open_archive(capped_plain.archive) as a:
        assert new.execute("SELECT count(*) FROM content_items").fetchone()[0] == \
            a.count("SELECT count(*) FROM pages")
        assert new.execute("SELECT sum(count) FROM anchor_edges").fetchone()[0] == \
            a.count("SELECT count(*) FROM anchors")
        refused = a.rows("SELECT id, json_extract(meta_extras, '$.capEvent') FROM pages WHERE "
                         "skipReason = 'dedupe-cap'")
        assert refused
        marks = dict(new.execute("SELECT id, dedupe_cap_event_id FROM content_items"))
        assert all(marks[pid] == event for pid, event in refused)
        events = q.list_dedupe_cap_events(a, limit=1000)["items"]
        assert events and any(e["capturedPageCount"] for e in events)
        for e in events:
            row = {"id": e["id"], "shape_key": e["shapeKey"], "signature": e["signature"],
                   "title": e["title"], "description": e["description"],
                   "og_title": e["ogTitle"], "og_url": e["ogUrl"],
                   "signals": json.dumps(e["signals"]) if e["signals"] else None}
            captured = capmarks.captured(a, row)
            assert len(captured) == e["capturedPageCount"], e["shapeKey"]
            assert all(marks[pid] is not None and marks[pid] <= e["id"] for pid in captured)
        sample = a.rows("SELECT p.id, b.body, b.codec FROM pages p JOIN page_html_ref r ON "
                        "r.page_id = p.id JOIN page_html_blobs b ON b.hash = r.hash WHERE "
                        "p.contentType = 'text/html' AND p.redirectDestId IS NULL LIMIT 20")
    assert sample
    stored = dict(new.execute("SELECT page_id, body_hash FROM page_meta"))
    for pid, body, codec in sample:
        html = zstandard.ZstdDecompressor().decompress(body).decode() if codec == "zstd" \
            else bytes(body).decode()
        assert stored[pid] == body_hash(html)


def test_the_worker_process_writes_the_same_archive(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Big archives decompose URLs and hash documents in a worker process (and the
    conversion takes the document ranges it has not started): the same rows as inline."""
    crawl = build_shop(tmp_path / "shop")
    convert.convert(crawl, tmp_path / "inline.nitpicker", to="0.13")
    monkeypatch.setattr(to013_work, "PARALLEL_FROM", 0)
    monkeypatch.setattr(to013_work.os, "cpu_count", lambda: 2)
    pools: list[object] = []
    close = to013_work.Jobs.close

    def spy(jobs: to013_work.Jobs, *, completed: bool) -> None:
        pools.append(jobs._pool)
        close(jobs, completed=completed)

    monkeypatch.setattr(to013_work.Jobs, "close", spy)
    convert.convert(crawl, tmp_path / "worker.nitpicker", to="0.13")
    assert pools and pools[0] is not None  # a worker process did run
    inline = unpack(tmp_path / "inline.nitpicker", tmp_path / "a")
    worker = unpack(tmp_path / "worker.nitpicker", tmp_path / "b")
    for sql in ("SELECT * FROM url_refs ORDER BY id", "SELECT * FROM page_meta ORDER BY page_id",
                "SELECT * FROM content_items ORDER BY id"):
        assert [tuple(r) for r in worker.execute(sql)] == [tuple(r) for r in inline.execute(sql)]
    assert worker.execute("SELECT count(*) FROM page_meta WHERE body_hash IS NOT NULL"
                          ).fetchone()[0] == 1


# --------------------------------------------------------------------------- --to 0.10

_PAGE_TEXTS = ("title", "description", "keywords", "robots_raw", "og_title", "og_description",
               "twitter_title", "twitter_description")


def _rows(db: Path, sql: str) -> list[tuple[object, ...]]:
    with q.open_archive(db) as a:
        return [tuple(r) for r in a.rows(sql)]


def test_a_crawl_back_to_010_is_the_crawl(capped_plain: Crawl, trap13: Path,
                                          tmp_path: Path) -> None:
    """0.10 → 0.13 → 0.10: the same rows, but for what 0.13 does not store (an empty
    text is null, a repeated link's own text, an image's sourceCode, technologies'
    container ids), and the same answers."""
    back = tmp_path / "back.nitpicker"
    done = run_convert(str(trap13), "--to", "0.10", "-o", str(back))
    assert done.returncode == 0, done.stderr
    assert "(format 0.13.0) →" in done.stderr and "(format 0.10.0)" in done.stderr
    json_columns = ("responseHeaders", "meta_extras")  # compared as values (0.13 stores
    with q.open_archive(back) as a:                     # headers sorted by name)
        assert (a.format, a.version) == ("0.10", "0.10.0")
        columns = [c for c in a.columns("pages") if c not in json_columns]
    texts = ", ".join(f"nullif({c}, '')" if c in _PAGE_TEXTS else  # 0.13: NOT NULL
                      f"coalesce({c}, 0)" if c in ("isExternal", "isTarget") else f'"{c}"'
                      for c in columns)
    pages = f"SELECT {texts} FROM pages ORDER BY id"
    assert _rows(back, pages) == _rows(capped_plain.archive, pages)
    values = f"SELECT {', '.join(json_columns)} FROM pages ORDER BY id"
    assert [[json.loads(v or "{}") for v in r] for r in _rows(back, values)] == \
        [[json.loads(v or "{}") for v in r] for r in _rows(capped_plain.archive, values)]
    links = "SELECT pageId, hrefId, count(*) FROM anchors GROUP BY 1, 2 ORDER BY 1, 2"
    assert _rows(back, links) == _rows(capped_plain.archive, links)
    for sql in ("SELECT id, pageId, src, alt, width, isLazy FROM images ORDER BY id",
                "SELECT * FROM dedupe_cap_events ORDER BY id",
                "SELECT * FROM page_signatures ORDER BY page_id",
                "SELECT * FROM page_jsonld ORDER BY id",
                "SELECT page_id, hash FROM page_html_ref ORDER BY page_id",
                "SELECT pageId, provider, category, externalId, version, confidence, "
                "json(categories), json(sources) FROM page_tags ORDER BY 1, 2, 4",
                "SELECT * FROM page_templates ORDER BY page_id",   # the crawl's templates
                "SELECT * FROM page_template_clusters ORDER BY template_key",
                "SELECT * FROM page_template_labels ORDER BY template_key",
                "SELECT * FROM page_main_contents ORDER BY page_id",   # main contents
                *(f"SELECT * FROM {t} ORDER BY id" for t in MAIN_CONTENT_TABLES)):
        assert _rows(back, sql) == _rows(capped_plain.archive, sql), sql
    assert _rows(back, "SELECT count(*) FROM page_main_content_headings")[0][0] > 100
    faq = q.get_summary(back)["baseUrl"] + "support/faq/"
    assert q.get_page_main_contents(back, url=faq) == \
        q.get_page_main_contents(trap13, url=faq) == \
        q.get_page_main_contents(capped_plain.archive, url=faq)
    assert _rows(back, "SELECT count(*) FROM page_templates")[0][0] > 300
    for query in (q.get_summary, q.list_dedupe_cap_events, q.get_template_clusters):
        assert query(back) == query(capped_plain.archive)
        assert query(trap13) == query(capped_plain.archive)
    assert q.list_links(back, type="broken") == q.list_links(capped_plain.archive,
                                                             type="broken")


def test_an_upstream_archive_to_010(tmp_path: Path) -> None:
    """An archive of upstream's newest build: an alias row is a page of its own (its
    pointer listed as not carried over), a refused placeholder keeps its event in
    meta_extras only where 0.10 can say it, technologies become page_tags, and tables
    0.10 has no place for are listed."""
    db = Db13(tmp_path / "upstream")
    home = db.page("https://up.test", "Home", order=1,
                   headers=[("content-security-policy", "default-src 'self'")])
    item = db.page("https://up.test/a", "A", order=2)
    db.anchor(home, item, count=3, text="to a")
    alias = db.page("https://up.test/index.html", "Home", alias_of_id=home, order=3)
    event = db.conn.execute(
        "INSERT INTO dedupe_cap_events (shape_key, sample_url, effective_threshold, "
        "observed_count, detected_at) VALUES ('up.test/list/{n}', 'https://up.test/list/9', "
        "10, 10, 1)").lastrowid
    refused = db.item("https://up.test/list/10", scraped=1, is_target=1, is_skipped=1,
                      skip_reason="dedupe-cap", dedupe_cap_event_id=event)
    db.item("https://up.test/list/11", dedupe_cap_event_id=event)  # a marked placeholder
    db.conn.execute("INSERT INTO page_technologies (pageId, technology, category, version, "
                    "confidence, signalCount) VALUES (?, 'WordPress', 'CMS', '6.4', 80, 1)",
                    (home,))
    db.conn.execute("INSERT INTO technology_signals (pageId, technology, signalType, weight) "
                    "VALUES (?, 'WordPress', 'meta-generator', 80)", (home,))
    db.conn.execute("INSERT INTO console_log_items (hash, type) VALUES (x'00', 'error')")
    db.conn.execute("INSERT INTO page_main_content_headings (pageId, \"order\", text, level) "
                    "VALUES (?, 0, 'Welcome', 1)", (home,))
    db.conn.execute("UPDATE page_meta SET main_content_node_name = 'MAIN', "
                    "main_content_selector = 'main', main_content_word_count = 7, "
                    "main_content_body_word_count = 9, main_content_heading_count = 1 "
                    "WHERE page_id = ?", (home,))
    db.conn.execute("INSERT INTO technology_js_scan_cache (resourceId, scannedAt) VALUES (1, 1)")
    archive = db.tar(tmp_path / "upstream.nitpicker")
    back = tmp_path / "ours.nitpicker"
    done = run_convert(str(archive), "--to", "0.10", "-o", str(back))
    assert done.returncode == 0, done.stderr
    assert "table technology_js_scan_cache (1 rows) has no place in format 0.10" in \
        done.stderr
    main = q.get_page_main_contents(back, url="https://up.test")   # carried, and read
    assert main is not None and main == q.get_page_main_contents(archive, url="https://up.test")
    assert (main["region"]["selector"], main["wordCount"], main["headings"]) == (
        "main", 7, [{"order": 0, "text": "Welcome", "level": 1}])
    assert _rows(back, "SELECT type, text FROM console_log_items") == [("error", None)]
    assert "1 alias row(s)" in done.stderr
    assert "1 row(s) marked with a cap event (content_items.dedupe_cap_event_id) that are " \
        "not refused URLs" in done.stderr
    rows = dict(_rows(back, "SELECT id, redirectDestId FROM pages"))
    assert rows[alias] is None and rows[home] is None
    assert _rows(back, f"SELECT json_extract(meta_extras, '$.capEvent') FROM pages WHERE id = "
                       f"{refused}") == [(event,)]
    assert _rows(back, "SELECT count(*) FROM anchors") == [(3,)]
    assert _rows(back, "SELECT provider, version, confidence FROM page_tags") == [
        ("WordPress", "6.4", 80)]
    assert _rows(back, "SELECT shape_key, signature FROM dedupe_cap_events") == [
        ("up.test/list/{n}", "")]
    headers = json.loads(_rows(back, f"SELECT responseHeaders FROM pages WHERE id = {home}"
                               )[0][0])
    assert headers == {"content-security-policy": "default-src 'self'"}


# --------------------------------------------------------------------------- bad input


def test_bad_input_one_line_and_nothing_written(tmp_path: Path, extended_archive: Path,
                                                fixture13: tuple[Path, sqlite3.Connection],
                                                capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    out.mkdir()
    text = tmp_path / "notes.nitpicker"
    text.write_text("hello")
    existing = tmp_path / "existing.nitpicker"
    existing.write_bytes(b"keep me")
    old_upstream = sorted(OLD_ARCHIVE.glob("*.nitpicker"))[0]
    before = hashlib.sha256(extended_archive.read_bytes()).hexdigest()
    cases = [
        ([str(tmp_path / "missing.nitpicker")], 1, "not found"),
        ([str(text)], 1, "Not a Nitpicker archive"),
        ([str(tmp_path)], 1, "no db.sqlite in it"),
        ([str(fixture13[0])], 1, "is already format 0.13.0; nothing to convert"),
        ([str(old_upstream)], 1, "upgrade it first with nitpicker-crawl upgrade"),
        ([str(extended_archive), "--to", "0.10"], 1,
         "is already format 0.10.0; nothing to convert"),
        ([str(extended_archive), "-o", str(existing)], 2, "exists; pass --force"),
        ([str(extended_archive), "-o", "a.txt"], 2, "must end in .nitpicker"),
        ([str(extended_archive), "-o", str(tmp_path / "nowhere" / "a.nitpicker")], 2,
         "does not exist"),
        ([str(extended_archive), "--to", "0.11"], 2, "--to cannot be '0.11'"),
    ]
    for args, code, message in cases:
        full = [args[0], "--to", "0.13", *args[1:]] if "--to" not in args else args
        if "-o" not in full:
            full += ["-o", str(out / "a.nitpicker")]
        try:  # in this process: the console script's own run is the fixtures'
            returned = cli.main(["convert", *full])
        except SystemExit as exc:  # argparse: usage errors
            returned = int(exc.code or 0)
        stderr = capsys.readouterr().err
        assert returned == code, (args, stderr)
        assert message in stderr and "Traceback" not in stderr, (args, stderr)
        assert len(stderr.strip().splitlines()) <= 2, args  # usage + error at most
        assert list(out.iterdir()) == [], args
    assert existing.read_bytes() == b"keep me"
    assert hashlib.sha256(extended_archive.read_bytes()).hexdigest() == before
    assert cli.main(["convert", str(extended_archive), "--to", "0.13", "-o", str(existing),
                     "--force"]) == 0
    assert tarfile.is_tarfile(existing)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "existing.nitpicker", "notes.nitpicker", "out"]  # no temporary file left


def test_a_crawl_a_crawler_holds_is_refused(tmp_path: Path) -> None:
    crawl = tmp_path / "busy"
    crawl.mkdir()
    shutil.copyfile(build_shop(tmp_path / "shop") / "db.sqlite", crawl / "db.sqlite")
    locks.acquire(crawl)
    try:
        with pytest.raises(ArchiveBusy, match="is writing busy"):
            convert.convert(crawl, tmp_path / "busy.nitpicker", to="0.13")
    finally:
        locks.release(crawl)
    assert not (tmp_path / "busy.nitpicker").exists()


def test_an_interrupted_conversion_leaves_nothing(tmp_path: Path, extended_archive: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*_args: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(capmarks, "mark", interrupted)
    output = tmp_path / "site.nitpicker"
    with pytest.raises(KeyboardInterrupt):
        convert.convert(extended_archive, output, to="0.13")
    assert list(tmp_path.iterdir()) == []


def test_rows_that_do_not_add_up_write_nothing(tmp_path: Path, extended_archive: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(to013, "_CHECKS", (
        ("pages", "content_items", "SELECT count(*) + 1 FROM src.pages",
         "SELECT count(*) FROM content_items"),))
    with pytest.raises(convert.ConvertError, match=re.escape(
            "pages: 8 rows in the 0.10 archive but 7 accounted for in content_items; nothing "
            "written")):
        convert.convert(extended_archive, tmp_path / "site.nitpicker", to="0.13")
    assert list(tmp_path.iterdir()) == []
