"""Duplicate clusters on an archive without our tables (upstream's): computed on the fly,
read-only, with hand-computed signatures."""

from __future__ import annotations

import hashlib
import sqlite3
import tarfile
from pathlib import Path

import pytest

import nitpicker_query as q
from tests.query.test_foreign_archive import UPSTREAM_DDL

H = "http://localhost"


def _sig(*parts: str) -> str:
    return hashlib.sha1("\0".join(parts).encode()).hexdigest()


Row = tuple[str, str | None, str | None, str | None, str | None]


def _upstream_archive(d: Path, rows: list[Row]) -> Path:
    """An archive as upstream writes it (no page_signatures) holding these pages."""
    work = d / "old"
    work.mkdir()
    conn = sqlite3.connect(work / "db.sqlite")
    for ddl in UPSTREAM_DDL:
        conn.execute(ddl)
    conn.execute("INSERT INTO info (version, name, baseUrl, roots) VALUES "
                 "('0.10.0', 'old', ?, ?)", (H + "/", f'["{H}/"]'))
    conn.executemany(
        "INSERT INTO pages (url, scraped, isTarget, isExternal, status, contentType, title, "
        "description, og_title, og_url, meta_extras) VALUES (?, 1, 1, 0, 200, 'text/html', "
        "?, ?, ?, ?, '{}')", rows)
    conn.commit()
    conn.close()
    out = d / "old.nitpicker"
    with tarfile.open(out, "w") as tf:
        tf.add(work, arcname="old", recursive=False)
        tf.add(work / "db.sqlite", arcname="old/db.sqlite")
    return out


@pytest.fixture(scope="module")
def upstream_with_trap(tmp_path_factory: pytest.TempPathFactory) -> Path:
    rows: list[Row] = [(f"{H}/search?page={n}", "Search", "Find things", "Search",
                        f"{H}/search") for n in range(1, 13)]          # 12: a trap
    rows += [(f"{H}/news/{n}", "News", "Latest", None, None) for n in range(1, 11)]  # 10
    rows += [(f"{H}/p/{n}", f"Page {n}", None, None, None) for n in range(5)]        # unique
    rows += [(f"{H}/gone/{n}", "Same", None, None, None) for n in range(2)]          # small
    rows += [(f"{H}/gone/2", " Same\n", None, None, None)]  # the same title, spelled loosely
    return _upstream_archive(tmp_path_factory.mktemp("upstream-trap"), rows)


def test_clusters_are_computed_without_page_signatures(upstream_with_trap: Path) -> None:
    before = hashlib.sha256(upstream_with_trap.read_bytes()).hexdigest()
    with q.open_archive(upstream_with_trap) as a:
        assert not a.has_table("page_signatures") and not a.has_table("dedupe_cap_events")
        assert q.list_dedupe_cap_events(a) == {"items": [], "total": 0, "limit": 100,
                                               "offset": 0, "nextOffset": None}
        clusters = q.get_duplicate_clusters(a)
        assert not a.has_table("page_signatures")
    assert hashlib.sha256(upstream_with_trap.read_bytes()).hexdigest() == before
    assert clusters["total"] == 2
    search, news = clusters["items"]
    assert search["signature"] == _sig("localhost/search", "Search", "Find things", "Search",
                                       f"{H}/search")
    assert (search["count"], search["parentPath"], search["shapeKey"]) == (
        12, "/search", "localhost/search?page={v}")
    assert search["ogUrlMismatchCount"] == 12 and search["capEvent"] is None
    assert search["samplePages"][:3] == [f"{H}/search?page=1", f"{H}/search?page=10",
                                         f"{H}/search?page=11"]
    assert search["suggestedExclude"] == {
        "flag": "--exclude-url", "value": f"{H}/search?page=", "matchesInCluster": 12,
        "matchesRefused": 0, "matchesOutside": 0, "pagesDropped": 0}
    assert news["signature"] == _sig("localhost/news", "News", "Latest", "", "")
    assert (news["count"], news["ogUrlMismatchCount"]) == (10, 0)
    assert news["metaSignatureFields"] == {"title": "News", "description": "Latest",
                                           "ogTitle": "", "ogUrl": ""}


def test_min_count_by_shape_and_paging(upstream_with_trap: Path) -> None:
    small = q.get_duplicate_clusters(upstream_with_trap, min_count=3)
    assert [c["count"] for c in small["items"]] == [12, 10, 3]
    by_shape = q.get_duplicate_clusters(upstream_with_trap, by="shape", min_count=3)
    assert [c["count"] for c in by_shape["items"]] == [12, 10, 3]
    page = q.get_duplicate_clusters(upstream_with_trap, min_count=3, limit=1, offset=1)
    assert [c["count"] for c in page["items"]] == [10] and page["nextOffset"] == 2


def test_whitespace_variants_join_their_cluster(upstream_with_trap: Path) -> None:
    small = q.get_duplicate_clusters(upstream_with_trap, min_count=3)["items"][2]
    assert small["count"] == 3 and small["metaSignatureFields"]["title"] == "Same"
    assert small["samplePages"] == [f"{H}/gone/0", f"{H}/gone/1", f"{H}/gone/2"]


def test_inner_whitespace_variants(tmp_path: Path) -> None:
    """Spellings that differ inside a value merge when each is on min_count pages or
    more; two smaller ones do not (the documented limit of archives without
    page_signatures, which our crawler always writes)."""
    rows: list[Row] = [(f"{H}/a/{n}", "Big  Sale", None, None, None) for n in range(3)]
    rows += [(f"{H}/a/{n + 3}", "Big Sale", None, None, None) for n in range(3)]
    rows += [(f"{H}/b/{n}", "Tiny\tShop", None, None, None) for n in range(2)]
    rows += [(f"{H}/b/{n + 2}", "Tiny Shop", None, None, None) for n in range(2)]
    archive = _upstream_archive(tmp_path, rows)
    found = q.get_duplicate_clusters(archive, min_count=3)["items"]
    assert [(c["metaSignatureFields"]["title"], c["count"]) for c in found] == [("Big Sale", 6)]
    assert [(c["metaSignatureFields"]["title"], c["count"]) for c in q.get_duplicate_clusters(
        archive, min_count=2)["items"]] == [("Big Sale", 6), ("Tiny Shop", 4)]


def test_drill_down(upstream_with_trap: Path) -> None:
    sig = _sig("localhost/news", "News", "Latest", "", "")
    cluster = q.get_duplicate_cluster(upstream_with_trap, signature=sig, limit=3)
    assert cluster is not None
    assert (cluster["total"], cluster["by"], cluster["nextOffset"]) == (10, "signature", 3)
    assert [m["url"] for m in cluster["items"]] == [f"{H}/news/1", f"{H}/news/10",
                                                    f"{H}/news/2"]
    assert q.get_duplicate_cluster(upstream_with_trap, signature="0" * 40) is None


def test_cluster_arguments_are_checked(upstream_with_trap: Path) -> None:
    with pytest.raises(q.InvalidArgument, match="by must be one of signature, shape"):
        q.get_duplicate_clusters(upstream_with_trap, by="title")
    with pytest.raises(q.InvalidArgument, match="min_count must be at least 2"):
        q.get_duplicate_clusters(upstream_with_trap, min_count=1)


def _archive_with_statuses(d: Path, rows: list[tuple[str, str, int]]) -> Path:
    """An upstream archive of (url, title, status) pages."""
    d.mkdir(parents=True, exist_ok=True)
    out = _upstream_archive(d, [(url, title, None, None, None) for url, title, _ in rows])
    with tarfile.open(out) as tf:
        tf.extractall(d / "x", filter="data")
    conn = sqlite3.connect(d / "x" / "old" / "db.sqlite")
    conn.executemany("UPDATE pages SET status = ? WHERE url = ?",
                     [(status, url) for url, _, status in rows])
    conn.commit()
    conn.close()
    out.unlink()
    with tarfile.open(out, "w") as tf:
        tf.add(d / "x" / "old", arcname="old", recursive=False)
        tf.add(d / "x" / "old" / "db.sqlite", arcname="old/db.sqlite")
    return out


def _suggested(archive: Path, path: str) -> dict[str, object] | None:
    found = [c for c in q.get_duplicate_clusters(archive)["items"]
             if c["parentPath"] == path]
    assert len(found) == 1, found
    suggestion: dict[str, object] | None = found[0]["suggestedExclude"]
    return suggestion


def test_error_pages_sharing_a_title_get_no_exclusion(tmp_path: Path) -> None:
    """Twelve "404 Not Found" pages under a manual's module directory beside its twenty real
    pages: excluding the directory would drop the manual; nothing is offered."""
    rows = [(f"{H}/manual/ja/mod/gone{n}.html", "404 Not Found", 404) for n in range(12)]
    rows += [(f"{H}/manual/ja/mod/mod_{n}.html", f"Module {n}", 200) for n in range(20)]
    assert _suggested(_archive_with_statuses(tmp_path, rows), "/manual/ja/mod") is None


def test_an_exclusion_that_would_drop_a_page_is_not_offered(tmp_path: Path) -> None:
    trap = [(f"{H}/shop/list?page={n}", "Products", 200) for n in range(12)]
    # a real page the only candidates (the prefix, the pattern) would also drop: none
    unsafe = _archive_with_statuses(tmp_path / "a", [*trap, (f"{H}/shop/list?page=all",
                                                             "Every product", 200)])
    assert _suggested(unsafe, "/shop/list") is None
    # the same URL answering 404 is no page lost: offered, the 404 counted outside
    safe = _archive_with_statuses(tmp_path / "b", [*trap, (f"{H}/shop/list?page=all",
                                                           "Every product", 404)])
    assert _suggested(safe, "/shop/list") == {
        "flag": "--exclude-url", "value": f"{H}/shop/list?page=", "matchesInCluster": 12,
        "matchesRefused": 0, "matchesOutside": 1, "pagesDropped": 0}
