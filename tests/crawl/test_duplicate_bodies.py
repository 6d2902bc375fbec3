"""Pages with the same body (issue 25): the crawler stores upstream's body hash of every
HTML page it saves, and ``find_duplicate_bodies`` / ``find_duplicate_clusters`` group by
it — on real crawls of TrapZoo, whose contact form is served under two URLs each with its
own session token (one body once the token is masked) beside a FAQ of the same template
with other text, in both archive formats, through the CLI; and the clear error on an
archive that records no hashes."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

import nitpicker_query as q
from nitpicker_crawl.extract.content import body_hash
from nitpicker_crawl.trapzoo import TrapZoo
from nitpicker_crawl.trapzoo.site import COLOURS
from nitpicker_query.exceptions import NotRecorded
from nitpicker_query.queries.duplicate_bodies import directory_of
from tests.crawl.conftest import CRAWL, Crawl

QUERY = str(Path(sys.executable).with_name("nitpicker-query"))


def groups(archive: Path) -> dict[tuple[str, ...], str]:
    """Each group's member URLs (all of them) → its hash."""
    found = q.find_duplicate_bodies(archive, pages_limit=1000, limit=1000)
    assert found["total"] == len(found["items"])
    return {tuple(i["urls"]): i["bodyHash"] for i in found["items"]}


@pytest.mark.parametrize("kind", ["plain_crawl", "rendered_crawl"])
def test_a_form_under_two_urls_is_one_body_and_other_text_is_not(
        kind: str, zoo: TrapZoo, request: pytest.FixtureRequest) -> None:
    crawl: Crawl = request.getfixturevalue(kind)
    found = groups(crawl.archive)
    support, contact, faq = (f"{zoo.url}support/{p}" for p in ("", "contact/", "faq/"))
    assert (support, contact) in found                    # tokens differ, masked
    assert not any(faq in urls for urls in found)         # same template, other text
    # the hash is upstream's of the HTML stored for the page, not some other text
    html = q.get_page_html(crawl.archive, url=support, max_length=10**7)
    assert html is not None
    assert found[(support, contact)] == body_hash(html["html"]).hex()
    faq_html = q.get_page_html(crawl.archive, url=faq, max_length=10**7)
    assert faq_html is not None and body_hash(faq_html["html"]).hex() != found[
        (support, contact)]
    # the colour pages differ only in their JSON-LD, which is in the head
    shirts = tuple(sorted(f"{zoo.url}products/shirt-{c}/" for c in COLOURS))
    assert shirts in found


def test_clusters_need_one_title_and_say_where_they_are(plain_crawl: Crawl,
                                                         zoo: TrapZoo) -> None:
    a = plain_crawl.archive
    clusters = q.find_duplicate_clusters(a, min_count=2, sample_pages_limit=3)
    by_title = {i["title"]: i for i in clusters["items"]}
    # /js/, /no-head/ and /slow/ have one body but three titles: no trap cluster
    assert set(by_title) == {"Classic shirt", "Support"}
    shirts = by_title["Classic shirt"]
    assert shirts["count"] == len(COLOURS) and shirts["ogUrlMismatchRatio"] == 0.0
    assert shirts["samplePages"] == sorted(
        f"{zoo.url}products/shirt-{c}/" for c in COLOURS)[:3]
    assert shirts["commonDirectories"] == [
        {"directory": f"{zoo.url}products/", "pageCount": len(COLOURS)}]
    assert [i["title"] for i in clusters["items"]] == ["Classic shirt", "Support"]  # size
    # the size floor, both ways
    assert [i["title"] for i in q.find_duplicate_clusters(a, min_count=3)["items"]] == [
        "Classic shirt"]
    assert q.find_duplicate_clusters(a, min_count=len(COLOURS) + 1)["items"] == []


def test_directory_of_a_url() -> None:
    assert directory_of("https://example.com/news/2024/a") == "https://example.com/news/"
    assert directory_of("https://example.com/news/") == "https://example.com/news/"
    assert directory_of("https://example.com/about") == "https://example.com/"
    assert directory_of("http://example.com:8080/") == "http://example.com:8080/"
    assert directory_of("not a url") is None


def test_the_cli_prints_the_groups_and_csv_holds_them(plain_crawl: Crawl,
                                                     zoo: TrapZoo) -> None:
    r = subprocess.run([QUERY, "duplicate-bodies", str(plain_crawl.archive), "--format", "csv",
                        "--pages-limit", "2"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    support = next(row for row in rows if f"{zoo.url}support/" in row["urls"])
    assert json.loads(support["urls"]) == [f"{zoo.url}support/", f"{zoo.url}support/contact/"]
    assert support["count"] == "2" and len(support["bodyHash"]) == 64
    r = subprocess.run([QUERY, "duplicate-body-clusters", str(plain_crawl.archive),
                        "--min-count", "2", "--format", "table"], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].split()[:3] == ["count", "title", "ogUrlMismatchRatio"]
    assert lines[2].split()[:3] == [str(len(COLOURS)), "Classic", "shirt"]


def test_both_formats_give_the_same_groups(plain_crawl: Crawl, tmp_path: Path) -> None:
    """Converted to 0.13 (``page_meta.body_hash``) and back to 0.10 (``page_body_hashes``
    carried, not computed again): the same groups."""
    expected = groups(plain_crawl.archive)
    new = tmp_path / "site-0.13.nitpicker"
    done = subprocess.run([CRAWL, "convert", str(plain_crawl.archive), "--to", "0.13", "-o",
                           str(new)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert groups(new) == expected
    back = tmp_path / "site-0.10.nitpicker"
    done = subprocess.run([CRAWL, "convert", str(new), "--to", "0.10", "-o", str(back)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "body_hash" not in done.stderr   # nothing reported as left behind
    assert groups(back) == expected
    assert q.find_duplicate_clusters(back, min_count=2) == q.find_duplicate_clusters(
        plain_crawl.archive, min_count=2)


def test_an_archive_without_hashes_says_so_and_how(tmp_path: Path) -> None:
    from tests.query.test_foreign_archive import build_upstream_like

    upstream = build_upstream_like(tmp_path)
    for query in (q.find_duplicate_bodies, q.find_duplicate_clusters):
        with pytest.raises(NotRecorded, match=r"records no body hashes.*convert ARCHIVE "
                           r"--to 0\.13"):
            query(upstream)
    r = subprocess.run([QUERY, "duplicate-bodies", str(upstream)], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and "records no body hashes" in r.stderr


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_an_assistant_gets_the_groups_and_the_reason_when_there_are_none(
        plain_crawl: Crawl, zoo: TrapZoo, tmp_path: Path, anyio_backend: str) -> None:
    """Through a real MCP client: the tools are listed, answer the crawl's groups, and an
    archive without hashes is a one-line error, not an empty list."""
    import shutil

    from mcp import Client

    from nitpicker_mcp.server import create_server
    from tests.query.test_foreign_archive import build_upstream_like

    (tmp_path / "up").mkdir()
    shutil.copy(plain_crawl.archive, tmp_path / "site.nitpicker")
    shutil.copy(build_upstream_like(tmp_path / "up"), tmp_path / "upstream.nitpicker")
    async with Client(create_server(roots=[tmp_path]), mode="legacy") as c:
        names = [t.name for t in (await c.list_tools()).tools]
        assert {"find_duplicate_bodies", "find_duplicate_clusters"} <= set(names)
        result = await c.call_tool("find_duplicate_bodies", {
            "archive": str(tmp_path / "site.nitpicker"), "pagesLimit": 2})
        assert not result.is_error
        items = result.structured_content["items"]  # type: ignore[index]
        assert [f"{zoo.url}support/", f"{zoo.url}support/contact/"] in [
            i["urls"] for i in items]
        result = await c.call_tool("find_duplicate_clusters", {
            "archive": str(tmp_path / "site.nitpicker"), "minCount": 3})
        assert [i["title"] for i in result.structured_content["items"]  # type: ignore[index]
                ] == ["Classic shirt"]
        result = await c.call_tool("find_duplicate_bodies", {
            "archive": str(tmp_path / "upstream.nitpicker")})
        assert result.is_error
        text = result.content[0].text  # type: ignore[union-attr]
        assert "records no body hashes" in text and "\n" not in text


def test_which_rows_count_hand_built(tmp_path: Path) -> None:
    """Rows a crawl seldom writes: an external page, a redirect source and a page not
    fetched carry the same hash and stay out; og:url elsewhere is counted per member; no
    title is one title; titles that differ are no cluster."""
    from nitpicker_crawl.archive import ArchiveWriter

    base = "http://site.test"
    w = ArchiveWriter.create(tmp_path / "rows.nitpicker", roots=[base + "/"])
    page = {"scraped": 1, "isTarget": 1, "isExternal": 0, "status": 200,
            "contentType": "text/html", "isSkipped": 0}
    same, other = b"\x01" * 32, b"\x02" * 32
    a = w.save_page(f"{base}/a/1", page, title="T", og_url=f"{base}/a/")
    b = w.save_page(f"{base}/a/2", page, title="T")
    c = w.save_page(f"{base}/b", {**page, "status": 404}, title="T", og_url=f"{base}/b")
    ext = w.save_page("http://elsewhere.test/x", {**page, "isExternal": 1}, title="T")
    src = w.save_page(f"{base}/old", page, title="T")
    w.record_redirect([f"{base}/old"], a)
    unfetched = w.save_page(f"{base}/queued", {**page, "scraped": 0}, title="T")
    untitled = [w.save_page(f"{base}/u/{i}", page) for i in range(2)]
    titled = [w.save_page(f"{base}/t/{i}", page, title=f"T{i}") for i in range(2)]
    for pid in (a, b, c, ext, src, unfetched):
        w.save_body_hash(pid, same)
    for pid in untitled:
        w.save_body_hash(pid, other)
    for pid in titled:
        w.save_body_hash(pid, b"\x03" * 32)
    w.commit()
    archive = w.close()
    found = groups(archive)
    assert found[(f"{base}/a/1", f"{base}/a/2", f"{base}/b")] == same.hex()  # a 404 too
    assert tuple(f"{base}/u/{i}" for i in range(2)) in found
    clusters = {i["count"]: i for i in q.find_duplicate_clusters(archive, min_count=2)["items"]}
    assert set(clusters) == {3, 2}            # the two T0/T1 pages are no cluster
    assert clusters[3]["ogUrlMismatchRatio"] == round(1 / 3, 4)   # /b names itself
    assert clusters[3]["commonDirectories"] == [
        {"directory": f"{base}/a/", "pageCount": 2}, {"directory": f"{base}/", "pageCount": 1}]
    assert clusters[2]["title"] is None
    assert [i["count"] for i in q.find_duplicate_clusters(archive, min_count=2)["items"]
            ] == [3, 2]   # og:url elsewhere first (1/3 > 0)
