"""An archive we did not write: raw DDL typed here, mirroring upstream's knex output and its
pre-0.13 fixture generator, tarred by hand. Proof that we read upstream's archives."""

from __future__ import annotations

import hashlib
import sqlite3
import tarfile
from pathlib import Path

import pytest
import zstandard

import nitpicker_query as q

# Written out by hand (not imported from nitpicker_query.format.v010) on purpose.
UPSTREAM_DDL = [
    "create table `info` (`id` integer not null primary key autoincrement, `version` "
    "varchar(255), `name` varchar(255), `baseUrl` varchar(255), `roots` json, `recursive` "
    "boolean, `interval` integer, `image` boolean, `fetchExternal` boolean, `parallels` "
    "integer, `excludes` json, `excludeKeywords` json, `excludeUrls` json, `maxExcludedDepth` "
    "integer, `retry` integer, `fromList` boolean, `disableQueries` boolean, `userAgent` "
    "varchar(255), `ignoreRobots` boolean)",
    "create table `pages` (`id` integer not null primary key autoincrement, `url` "
    "varchar(8190) not null, `redirectDestId` integer default null, `scraped` boolean not "
    "null, `isTarget` boolean not null, `isExternal` boolean, `status` integer, `statusText` "
    "varchar(255), `contentType` varchar(255) null, `contentLength` integer null, "
    "`responseHeaders` json null, `lang` varchar(255), `title` varchar(255), `description` "
    "text, `keywords` text, `robots_noindex` integer, `robots_nofollow` integer, "
    "`robots_noarchive` integer, `robots_noimageindex` integer, `canonical` varchar(8190), "
    "`og_title` varchar(255), `og_url` varchar(8190), `og_description` text, `og_image` "
    "varchar(8190), `formatDetection_telephone` integer, `firstCrawledAt` integer, "
    "`lastCrawledAt` integer, `tag_count` integer, `jsonld_count` integer, "
    "`tags_providers_csv` text, `meta_extras` json, `isSkipped` boolean, `skipReason` "
    "varchar(255), `order` integer null, foreign key(`redirectDestId`) references "
    "`pages`(`id`))",
    "create unique index `pages_url_unique` on `pages` (`url`)",
    "create table `anchors` (`id` integer not null primary key autoincrement, `pageId` "
    "integer not null, `hrefId` integer not null, `hash` varchar(255), `textContent` "
    "varchar(255) null, foreign key(`pageId`) references `pages`(`id`), foreign key(`hrefId`) "
    "references `pages`(`id`))",
    "create table `images` (`id` integer not null primary key autoincrement, `pageId` integer "
    "not null, `src` varchar(8190), `currentSrc` varchar(8190), `alt` varchar(255), `width` "
    "float not null, `height` float not null, `naturalWidth` integer not null, "
    "`naturalHeight` integer not null, `isLazy` boolean, `viewportWidth` integer not null, "
    "`sourceCode` varchar(255), foreign key(`pageId`) references `pages`(`id`))",
    "create table `resources` (`id` integer not null primary key autoincrement, `url` "
    "varchar(8190) not null, `isExternal` boolean, `status` integer, `statusText` "
    "varchar(255), `contentType` varchar(255) null, `contentLength` integer null, `compress` "
    "varchar(255) null, `cdn` varchar(255) null, `responseHeaders` json null)",
    "create table `resources-referrers` (`id` integer not null primary key autoincrement, "
    "`resourceId` integer not null, `pageId` integer not null)",
    "CREATE TABLE page_html_blobs (hash BLOB PRIMARY KEY, body BLOB NOT NULL, codec TEXT NOT "
    "NULL CHECK(codec IN ('zstd', 'none')), size_raw INTEGER NOT NULL, size_stored INTEGER "
    "NOT NULL) WITHOUT ROWID",
    "CREATE TABLE page_html_ref (page_id INTEGER PRIMARY KEY REFERENCES pages(id) ON DELETE "
    "CASCADE, hash BLOB NOT NULL REFERENCES page_html_blobs(hash)) WITHOUT ROWID",
]

HTML_A = "<html><body>A</body></html>"
HTML_B = "<html><body>B – zstd ✓</body></html>"


def _blob(conn: sqlite3.Connection, page_id: int, html: str, codec: str) -> None:
    raw = html.encode()
    body = zstandard.ZstdCompressor().compress(raw) if codec == "zstd" else raw
    digest = hashlib.sha256(raw).digest()
    conn.execute("INSERT INTO page_html_blobs VALUES (?, ?, ?, ?, ?)",
                 (digest, body, codec, len(raw), len(body)))
    conn.execute("INSERT INTO page_html_ref VALUES (?, ?)", (page_id, digest))


def build_upstream_like(directory: Path, version: str = "0.10.0",
                        inner: str = "crawl-2025") -> Path:
    """Write a tar the way upstream does: WAL database, directory entry first, no page_tags."""
    work = directory / inner
    work.mkdir()
    conn = sqlite3.connect(work / "db.sqlite")
    conn.execute("PRAGMA journal_mode = WAL")
    for ddl in UPSTREAM_DDL:
        conn.execute(ddl)
    conn.execute(
        "INSERT INTO info (version, name, baseUrl, roots, retry) VALUES (?, ?, ?, ?, 3)",
        (version, inner, "http://localhost", '["http://localhost"]'),
    )
    page = ("INSERT INTO pages (url, scraped, isTarget, isExternal, status, contentType, "
            "responseHeaders, title, meta_extras) VALUES (?, 1, 1, 0, 200, 'text/html', ?, ?, ?)")
    conn.execute(page, ("http://localhost/a", '{"Content-Security-Policy":"default-src"}',
                        "Page A", '{"referrer":"no-referrer"}'))
    conn.execute(page, ("http://localhost/b", "{}", "Page B", "not json"))
    conn.executemany("INSERT INTO anchors (pageId, hrefId, textContent) VALUES (?, ?, ?)",
                     [(1, 2, "link1"), (1, 2, "link2"), (2, 1, "back")])
    conn.execute("INSERT INTO resources (url, isExternal, status, statusText, contentType, "
                 "contentLength, compress, cdn) VALUES ('http://localhost/style.css', 0, 200, "
                 "'OK', 'text/css', 42, '0', 0)")
    conn.executemany('INSERT INTO "resources-referrers" (resourceId, pageId) VALUES (1, ?)',
                     [(1,), (2,)])
    _blob(conn, 1, HTML_A, "none")
    _blob(conn, 2, HTML_B, "zstd")
    conn.commit()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    out = directory / "renamed-by-user.nitpicker"
    with tarfile.open(out, "w") as tf:
        tf.add(work, arcname=inner, recursive=False)
        tf.add(work / "db.sqlite", arcname=f"{inner}/db.sqlite")
    return out


@pytest.fixture(scope="module")
def upstream_archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_upstream_like(tmp_path_factory.mktemp("upstream"))


def test_opens_and_reads_inner_name_from_the_tar(upstream_archive: Path) -> None:
    with q.open_archive(upstream_archive) as a:
        assert a.version == "0.10.0"
        assert a.name == "crawl-2025"
        assert a.directory.name.endswith("renamed-by-user")
        assert not a.has_table("dedupe_cap_events")


def test_queries_on_a_foreign_archive(upstream_archive: Path) -> None:
    pages = q.list_pages(upstream_archive)
    assert [i["url"] for i in pages["items"]] == ["http://localhost/a", "http://localhost/b"]
    detail = q.get_page_detail(upstream_archive, url="http://localhost/a")
    assert detail is not None
    assert detail["metaExtras"] == {"referrer": "no-referrer"}
    assert detail["responseHeaders"] == {"Content-Security-Policy": "default-src"}
    assert detail["tags"] == {"count": 0, "providerIds": {}}  # no page_tags table at all
    b = q.get_page_detail(upstream_archive, url="http://localhost/b")
    assert b is not None and b["metaExtras"] == {}  # unparsable JSON reads as empty
    assert [i["url"] for i in b["inboundLinks"]] == ["http://localhost/a"]
    res = q.list_resources(upstream_archive)["items"][0]
    assert (res["compress"], res["cdn"], res["referrerCount"]) == (None, None, 2)


def test_both_html_codecs(upstream_archive: Path) -> None:
    a = q.get_page_html(upstream_archive, url="http://localhost/a")
    b = q.get_page_html(upstream_archive, url="http://localhost/b")
    assert a is not None and a["html"] == HTML_A
    assert b is not None and b["html"] == HTML_B


def test_headers_case_insensitive(upstream_archive: Path) -> None:
    items = q.check_headers(upstream_archive)["items"]
    # HSTS on a plain-HTTP page: neither present nor missing (browsers ignore it there)
    assert items[0] == {"url": "http://localhost/a", "hasCSP": True, "hasXFrameOptions": False,
                        "hasXContentTypeOptions": False, "hasHSTS": None}
    missing = q.check_headers(upstream_archive, missing_only=True)
    assert missing["total"] == 2  # both miss at least one header


def test_summary_without_optional_tables(upstream_archive: Path) -> None:
    s = q.get_summary(upstream_archive)
    assert (s["totalPages"], s["internalPages"]) == (2, 2)
