"""``nitpicker-crawl upgrade`` (issue 12): two real archives of upstream 0.4.4 become
format-0.10 archives whose queries answer with the counts of the old tables."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import sqlite3
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

import nitpicker_query as q
from nitpicker_query.queries.catalog import QUERIES
from tests.query.test_readonly import SAMPLE_ARGS

CRAWL = str(Path(sys.executable).with_name("nitpicker-crawl"))
QUERY = str(Path(sys.executable).with_name("nitpicker-query"))
DATA = Path(__file__).resolve().parent.parent / "data" / "upstream-0.4.4"
FIXTURES = sorted(DATA.glob("*.nitpicker"))
TABLES = ("pages", "anchors", "images", "resources", "resources-referrers")


def upgrade(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CRAWL, "upgrade", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=300)


def unpack(archive: Path, target: Path) -> Path:
    """The archive's inner directory, extracted (for reading the old tables directly)."""
    with tarfile.open(archive) as tar:
        tar.extractall(target, filter="data")
    return next(p for p in target.iterdir() if p.is_dir())


def repack(directory: Path, out: Path) -> Path:
    with tarfile.open(out, "w") as tar:
        tar.add(directory, arcname=directory.name)
    return out


def old_db(tmp_path: Path, fixture: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(unpack(fixture, tmp_path / "old") / "db.sqlite")
    conn.row_factory = sqlite3.Row
    return conn


def count(conn: sqlite3.Connection, sql: str) -> int:
    return int(conn.execute(sql).fetchone()[0])


LOOSE = ("scraped = 1 AND redirectDestId IS NULL AND (contentType IS NULL OR "
         "contentType = 'text/html') AND (isSkipped = 0 OR isSkipped IS NULL)")


@pytest.fixture(scope="module")
def upgraded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, str]]:
    """Each fixture upgraded once: name → (new archive, stderr)."""
    out: dict[str, tuple[Path, str]] = {}
    work = tmp_path_factory.mktemp("upgraded")
    for fixture in FIXTURES:
        before = hashlib.sha256(fixture.read_bytes()).hexdigest()
        target = work / f"{fixture.stem}-new.nitpicker"
        done = upgrade(work, str(fixture), "-o", target.name)
        assert done.returncode == 0, done.stderr
        assert hashlib.sha256(fixture.read_bytes()).hexdigest() == before  # never modified
        out[fixture.stem] = (target, done.stderr)
    assert sorted(p.name for p in work.iterdir()) == sorted(
        p.name for p, _ in out.values())  # no working directory or temp file left behind
    return out


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: p.stem)
def test_every_row_is_carried_over(fixture: Path, upgraded: dict[str, tuple[Path, str]],
                                   tmp_path: Path) -> None:
    new, stderr = upgraded[fixture.stem]
    old = old_db(tmp_path, fixture)
    inner = unpack(new, tmp_path / "new")
    assert sorted(p.name for p in inner.iterdir()) == ["db.sqlite"]  # no zip, no -wal
    new_db = sqlite3.connect(inner / "db.sqlite")
    for table in TABLES:
        rows = f'SELECT * FROM "{table}" ORDER BY id'
        old_rows = old.execute(rows).fetchall()
        assert count(new_db, f'SELECT count(*) FROM "{table}"') == len(old_rows)
        assert f"{len(old_rows)} {table}" in stderr
    # pages keep their ids, URLs, statuses and redirect targets; robots flags are renamed
    keep = "id, url, redirectDestId, status, contentType, title, isSkipped, skipReason"
    assert new_db.execute(f"SELECT {keep} FROM pages ORDER BY id").fetchall() == [
        tuple(r) for r in old.execute(f"SELECT {keep} FROM pages ORDER BY id")]
    assert new_db.execute("SELECT id, robots_noindex, robots_nofollow FROM pages").fetchall() \
        == [tuple(r) for r in old.execute("SELECT id, noindex, nofollow FROM pages")]
    assert new_db.execute("SELECT pageId, hrefId, textContent FROM anchors ORDER BY id"
                          ).fetchall() == [tuple(r) for r in old.execute(
                              "SELECT pageId, hrefId, textContent FROM anchors ORDER BY id")]
    version = new_db.execute("SELECT version, baseUrl, roots FROM info").fetchone()
    base = old.execute("SELECT baseUrl FROM info").fetchone()[0]
    assert version == ("0.10.0", base, json.dumps([base]))


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: p.stem)
def test_queries_answer_with_the_old_counts(fixture: Path,
                                            upgraded: dict[str, tuple[Path, str]],
                                            tmp_path: Path) -> None:
    new, _ = upgraded[fixture.stem]
    old = old_db(tmp_path, fixture)
    summary = q.get_summary(new)
    assert summary["totalPages"] == count(old, f"SELECT count(*) FROM pages WHERE {LOOSE}")
    statuses = [{"status": r[0], "count": r[1]} for r in old.execute(
        f"SELECT status, count(*) FROM pages WHERE {LOOSE} AND isExternal = 0 "
        "AND status IS NOT NULL GROUP BY status ORDER BY status")]
    assert summary["statusDistribution"] == statuses
    assert q.list_pages(new)["total"] == summary["totalPages"]
    # broken: the anchor's target, through a redirect, answered 404
    broken = count(old, """SELECT count(*) FROM anchors a JOIN pages d ON d.id = a.hrefId
        LEFT JOIN pages r ON r.id = d.redirectDestId WHERE COALESCE(r.status, d.status) = 404""")
    assert q.list_links(new, type="broken", broken_as="404")["total"] == broken
    titles = {(r[0], r[1]) for r in old.execute(
        "SELECT title, count(*) FROM pages WHERE scraped = 1 AND isExternal = 0 AND "
        "contentType = 'text/html' AND redirectDestId IS NULL AND title != '' "
        "GROUP BY title HAVING count(*) > 1")}
    # upstream counted every rendered page (its error pages too): our population "all"
    found = {(i["value"], i["count"]) for i in q.find_duplicates(
        new, field="title", population="all", limit=1000)["items"]}
    assert found == titles
    # every stored snapshot is the old zip member, byte for byte
    with zipfile.ZipFile(tmp_path / "old" / next((tmp_path / "old").iterdir()).name
                         / "snapshot-html.zip") as z:
        for url, member in old.execute(
                "SELECT url, html FROM pages WHERE html != '' ORDER BY id"):
            body = z.read(member.removeprefix("snapshot-html/")).decode()
            got = q.get_page_html(new, url=url)
            assert (got["html"] if got else "") == body, url
    # and every query runs
    with q.open_archive(new) as archive:
        for spec in QUERIES:
            spec.function(archive, **SAMPLE_ARGS.get(spec.name, {}),
                          **{p.name: archive for p in spec.params if p.archive})


def test_cli_queries_and_derived_fields(upgraded: dict[str, tuple[Path, str]]) -> None:
    new, stderr = upgraded["trapzoo-bounded"]

    def query(*args: str) -> dict[str, object]:
        done = subprocess.run([QUERY, *args, str(new)], capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 0, done.stderr
        result: dict[str, object] = json.loads(done.stdout)
        return result

    assert query("summary")["totalPages"] == 138
    assert query("links", "--type", "broken", "--broken-as", "404")["total"] == 3
    assert query("pages", "--limit", "1")["total"] == 138
    # derived from the snapshots as a crawl would: technologies, 0.10 columns
    inventory = {i["provider"] for i in query("tag-inventory")["items"]}  # type: ignore
    assert "Open Graph" in inventory
    detail = q.get_page_detail(new, url="http://127.0.0.1:35803/en/home/")
    assert detail is not None and detail["charset"] == "utf-8"
    assert detail["metaExtras"]["alternate"] == "http://127.0.0.1:35803/en/home/"
    assert "pages.alternate (20 values): kept in meta_extras.alternate" in stderr
    # the duplicate-cluster fast path has its signatures
    clusters = q.get_duplicate_clusters(new, min_count=2)
    assert clusters["items"] and clusters["items"][0]["count"] >= 2


def test_readers_name_the_command(tmp_path: Path) -> None:
    fixture = FIXTURES[0]
    done = subprocess.run([QUERY, "summary", str(fixture)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode != 0 and done.stdout == ""
    assert done.stderr.strip().splitlines()[-1].endswith(
        f"nitpicker-crawl upgrade {fixture.name} -o {fixture.stem}-0.10.nitpicker")


def damaged(tmp_path: Path, change: Callable[[Path], None]) -> Path:
    inner = unpack(FIXTURES[0], tmp_path / "src")
    change(inner)
    return repack(inner, tmp_path / "damaged.nitpicker")


def truncate_zip(inner: Path) -> None:
    z = inner / "snapshot-html.zip"
    z.write_bytes(z.read_bytes()[: z.stat().st_size // 2])


def corrupt_zip_member(inner: Path) -> None:
    z = inner / "snapshot-html.zip"
    data = bytearray(z.read_bytes())
    with zipfile.ZipFile(io.BytesIO(bytes(data))) as archive:
        info = archive.getinfo("10.html")
    start = info.header_offset + 30 + len(info.filename) + len(info.extra)
    for i in range(start + 5, start + 25):
        data[i] ^= 0xFF
    z.write_bytes(bytes(data))


@pytest.mark.parametrize("change,expected", [
    (truncate_zip, "snapshot-html.zip is corrupt or truncated"),
    (corrupt_zip_member, "snapshot-html.zip is corrupt or truncated"),
], ids=["truncated-zip", "corrupt-member"])
def test_damaged_snapshots_write_nothing(tmp_path: Path, change: Callable[[Path], None],
                                         expected: str) -> None:
    source = damaged(tmp_path, change)
    out = tmp_path / "out"
    out.mkdir()
    done = upgrade(out, str(source), "-o", "new.nitpicker")
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and expected in lines[0] and "Traceback" not in done.stderr
    assert list(out.iterdir()) == []


def test_bad_input_one_line_and_nothing_written(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    text = tmp_path / "notes.nitpicker"
    text.write_text("hello")
    current = tmp_path / "current.nitpicker"
    shutil.copy(Path(__file__).resolve().parent.parent / "data" / "upstream-0.4.4"
                / FIXTURES[1].name, tmp_path / "single.nitpicker")
    first = upgrade(out, str(tmp_path / "single.nitpicker"), "-o", str(current))
    assert first.returncode == 0, first.stderr
    cases = [
        ([str(tmp_path / "missing.nitpicker"), "-o", "a.nitpicker"], 1, "not found"),
        ([str(text), "-o", "a.nitpicker"], 1, "Not a Nitpicker archive"),
        ([str(current), "-o", "a.nitpicker"], 1, "already format 0.10.0; nothing to upgrade"),
        ([str(FIXTURES[0]), "-o", "a.txt"], 2, "must end in .nitpicker"),
        ([str(FIXTURES[0]), "-o", str(tmp_path / "nowhere" / "a.nitpicker")], 2,
         "does not exist"),
        ([str(FIXTURES[0]), "-o", str(current)], 2, "exists; pass --overwrite"),
        ([str(FIXTURES[0]), "--bogus"], 2, "unrecognized arguments"),
    ]
    for args, code, message in cases:
        done = upgrade(out, *args)
        assert done.returncode == code, (args, done.stderr)
        assert message in done.stderr and "Traceback" not in done.stderr, args
        assert len(done.stderr.strip().splitlines()) <= 2, args  # usage + error at most
        assert list(out.iterdir()) == [], args


def test_what_has_no_place_is_listed(tmp_path: Path) -> None:
    def add_extras(inner: Path) -> None:
        with sqlite3.connect(inner / "db.sqlite") as db:
            db.execute("""UPDATE info SET scope = '["http://other.test/"]'""")
            db.execute("ALTER TABLE pages ADD COLUMN legacyScore integer")
            db.execute("UPDATE pages SET legacyScore = 7 WHERE id <= 3")
            db.execute("CREATE TABLE notes (id integer primary key, text varchar)")
            db.execute("INSERT INTO notes (text) VALUES ('kept by hand')")
            db.execute("UPDATE pages SET html = 'snapshot-html/999.html' WHERE id = 3")

    source = damaged(tmp_path, add_extras)
    done = upgrade(tmp_path, str(source), "-o", "new.nitpicker")
    assert done.returncode == 0, done.stderr
    err = done.stderr
    assert 'info.scope = ["http://other.test/"] has no column in format 0.10' in err
    assert "pages.legacyScore (3 values) has no column in format 0.10" in err
    assert "table notes (1 rows) has no place in format 0.10" in err
    assert "1 page(s) name an HTML snapshot missing from snapshot-html.zip" in err
    assert q.get_page_html(tmp_path / "new.nitpicker",
                           url="http://127.0.0.1:35803/search") is None


def test_snapshots_feed_json_ld_and_technologies(tmp_path: Path) -> None:
    """The 0.4.4 crawls predate TrapZoo's JSON-LD and Tag Manager snippet: put them in
    one snapshot and see them come out of the 0.10 tables."""
    def add_markup(inner: Path) -> None:
        z = inner / "snapshot-html.zip"
        with zipfile.ZipFile(z) as old:
            members = {i.filename: old.read(i) for i in old.infolist()}
        members["1.html"] = members["1.html"].replace(
            b"</head>", b'<script type="application/ld+json">{"@type": "WebSite", '
            b'"name": "TrapZoo"}</script><script>/* https://www.googletagmanager.com/'
            b"gtm.js?id='+i+dl 'GTM-OLD1234' */</script></head>")
        with zipfile.ZipFile(z, "w", zipfile.ZIP_DEFLATED) as new:
            for name, body in members.items():
                new.writestr(name, body)

    source = damaged(tmp_path, add_markup)
    done = upgrade(tmp_path, str(source), "-o", "new.nitpicker")
    assert done.returncode == 0, done.stderr
    new = tmp_path / "new.nitpicker"
    home = "http://127.0.0.1:35803"
    assert [i["url"] for i in q.list_pages_by_jsonld_type(new, type="WebSite")["items"]] == [
        home]
    tags = q.get_page_tags(new, url=home)
    assert tags is not None
    assert {"Google Tag Manager": "GTM-OLD1234"}.items() <= {
        t["provider"]: t["externalId"] for t in tags["tags"]}.items()
    assert q.count_pages_by_tag(new, provider="Google Tag Manager")["pageCount"] == 1
