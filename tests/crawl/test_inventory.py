"""The site's inventory (issue 25): sitemaps and ``--list`` read into the URLs that exist,
and the orphans among them — pages no crawled page links to — listed by
``list_isolated_pages`` / ``list_isolated_clusters`` / ``get_isolated_cluster``.

Parsing is tested on bytes (the forms real sitemaps take, and hostile ones); the rest on
real crawls of TrapZoo, whose robots.txt names a sitemap index: a gzip sitemap of linked
pages, of ``/orphans/lonely/`` (alone), of ``/orphans/series/1/`` and ``2/`` (which link
each other, and 2 links 3) and of ``/orphans/gone/`` (404), beside a missing second
sitemap. ``/blog/`` is in the sitemap too and, as it happens, nothing on TrapZoo links to
it: an orphan the generator did not plan, found."""

from __future__ import annotations

import asyncio
import gzip
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import nitpicker_query as q
from nitpicker_crawl.extract import inventory
from nitpicker_crawl.extract.inventory import (
    Inventory,
    decompress,
    discover_sitemaps,
    read_list,
    sitemap_locs,
)
from nitpicker_crawl.fetch.robots import sitemap_lines
from nitpicker_crawl.fetch.urls import normalize
from nitpicker_crawl.trapzoo import TrapZoo
from tests.crawl.conftest import CRAWL, TRAPS, Crawl, crawl_site

QUERY = str(Path(sys.executable).with_name("nitpicker-query"))
NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'


# ------------------------------------------------------------------ reading sitemaps

def test_sitemap_forms_real_sites_write() -> None:
    plain = f'<?xml version="1.0"?><urlset {NS}><url><loc>https://a.test/x</loc></url></urlset>'
    assert sitemap_locs(plain.encode()) == (False, ["https://a.test/x"])
    # a namespace prefix, spaces around the URL, an entity, CDATA, a lastmod beside
    messy = ('<s:urlset xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9"><s:url>'
             "<s:loc>\n  https://a.test/?a=1&amp;b=2  </s:loc><s:lastmod>2024</s:lastmod>"
             "</s:url><s:url><s:loc><![CDATA[https://a.test/c?d=1&e=2]]></s:loc></s:url>"
             "</s:urlset>")
    assert sitemap_locs(messy.encode()) == (
        False, ["https://a.test/?a=1&b=2", "https://a.test/c?d=1&e=2"])
    index = f"<sitemapindex {NS}><sitemap><loc>https://a.test/s1.xml</loc></sitemap>"
    assert sitemap_locs(index.encode()) == (True, ["https://a.test/s1.xml"])
    # the text form, and XML cut half-way (a size limit, a broken server): what came
    assert sitemap_locs(b"https://a.test/1\n\nhttps://a.test/2\r\n") == (
        False, ["https://a.test/1", "https://a.test/2"])
    cut = plain.encode().removesuffix(b"</url></urlset>") + b"<url><loc>https://a.te"
    assert sitemap_locs(cut) == (
        False, ["https://a.test/x"])


def test_entities_are_not_expanded_and_gzip_is_bounded() -> None:
    # a "billion laughs" document gives its text, not gigabytes
    laughs = ('<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b '
              '"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><urlset><url><loc>https://a.test/&b;</loc>'
              "</url></urlset>")
    assert sitemap_locs(laughs.encode()) == (False, ["https://a.test/&b;"])
    bomb = gzip.compress(b"<" * (3 << 20))      # 3 MiB of one byte: 3 KiB compressed
    data, note = decompress(bomb, limit=1 << 20)
    assert len(data) == 1 << 20 and note is not None and "inflates past" in note
    assert decompress(b"\x1f\x8bnot gzip")[1] is not None
    assert decompress(b"<urlset/>") == (b"<urlset/>", None)


def test_robots_sitemap_lines() -> None:
    text = ("User-agent: *\nDisallow: /x\nSitemap: https://a.test/s.xml # main\n"
            "sitemap:https://a.test/s.xml\nSITEMAP: https://cdn.test/s2.xml\nAllow: /\n")
    assert sitemap_lines(text) == ["https://a.test/s.xml", "https://cdn.test/s2.xml"]
    assert sitemap_lines("User-agent: *\nDisallow:\n") == []


def _discover(files: dict[str, bytes | int], starts: list[str]) -> tuple[Inventory, list[str],
                                                                        list[str]]:
    """Discovery over ``files`` (URL → body, or a status): the inventory, the source's
    notes, and the URLs fetched in order."""
    fetched: list[str] = []

    async def fetch(url: str) -> tuple[int, bytes | None, str | None]:
        fetched.append(url)
        body = files.get(url, 404)
        return (body, None, None) if isinstance(body, int) else (200, body, None)

    inv = Inventory()
    source = asyncio.run(discover_sitemaps(
        starts, fetch, inv, normalize, lambda u: u.startswith("https://a.test/")))
    return inv, source.notes, fetched


def test_indexes_loops_depth_and_scope() -> None:
    def index(*locs: str) -> bytes:
        return (f"<sitemapindex {NS}>" + "".join(f"<sitemap><loc>{u}</loc></sitemap>"
                                                 for u in locs) + "</sitemapindex>").encode()

    def urlset(*locs: str) -> bytes:
        return (f"<urlset {NS}>" + "".join(f"<url><loc>{u}</loc></url>" for u in locs)
                + "</urlset>").encode()

    files: dict[str, bytes | int] = {
        # an index listing itself, a child, another site's sitemap, a nested index
        "https://a.test/i.xml": index("https://a.test/i.xml", "https://a.test/p.xml.gz",
                                      "https://b.test/p.xml", "https://a.test/i2.xml"),
        "https://a.test/p.xml.gz": gzip.compress(urlset(
            "https://a.test/1", "https://b.test/2", "ftp://a.test/3", "https://a.test/1")),
        "https://a.test/i2.xml": index("https://a.test/i3.xml"),
        "https://a.test/i3.xml": index("https://a.test/deep.xml"),
        "https://a.test/deep.xml": urlset("https://a.test/too-deep"),
        "https://a.test/broken.xml": 500,
    }
    inv, notes, fetched = _discover(files, ["https://a.test/i.xml",
                                            "https://a.test/broken.xml"])
    assert list(inv.urls) == ["https://a.test/1"]
    source = inv.sources[0]
    assert (source.total, source.out_of_scope, source.invalid) == (4, 1, 1)
    assert "https://b.test/p.xml" not in fetched           # another site: never fetched
    assert fetched.count("https://a.test/i.xml") == 1      # the loop: once
    assert "https://a.test/deep.xml" not in fetched        # nested past the depth
    assert any("nested deeper" in n for n in notes)
    assert any("broken.xml: answered 500" in n for n in notes)


def test_every_bound_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(inventory, "MAX_SITEMAPS", 3)
    monkeypatch.setattr(inventory, "MAX_INVENTORY_URLS", 5)
    many = {f"https://a.test/s{i}.xml": (f"<urlset {NS}>" + "".join(
        f"<url><loc>https://a.test/{i}/{j}</loc></url>" for j in range(4)) + "</urlset>"
        ).encode() for i in range(10)}
    inv, notes, fetched = _discover(dict(many), list(many))
    assert len(fetched) == 3 and any("more than 3 sitemaps" in n for n in notes)
    assert len(inv.urls) == 5 and inv.dropped == 7


def test_a_list_file(tmp_path: Path) -> None:
    listed = tmp_path / "urls.txt"
    listed.write_text("\ufeff# exported\nhttps://a.test/1\n\n  https://a.test/2  \n")
    lines, sha = read_list(str(listed))
    assert lines == ["https://a.test/1", "https://a.test/2"] and len(sha) == 64
    assert read_list("-", io.StringIO("https://a.test/3\n"))[0] == ["https://a.test/3"]
    binary = tmp_path / "image.png"
    binary.write_bytes(b"\x89PNG\x00\x00")
    with pytest.raises(ValueError, match="not a text file"):
        read_list(str(binary))


# ------------------------------------------------------------------ real crawls

def test_orphans_of_a_real_crawl(plain_crawl: Crawl, zoo: TrapZoo) -> None:
    a = plain_crawl.archive
    alone = q.list_isolated_pages(a)
    assert [(i["url"], i["status"], i["source"]) for i in alone["items"]] == [
        (f"{zoo.url}blog/", 200, "inventory-seed"),
        (f"{zoo.url}orphans/gone/", 404, "inventory-seed"),
        (f"{zoo.url}orphans/lonely/", 200, "inventory-seed")]   # links out: still alone
    clusters = q.list_isolated_clusters(a)
    series = f"{zoo.url}orphans/series/1/"
    assert clusters["items"] == [{"representativeUrl": series, "size": 3,
                                  "title": "Old series 1", "status": 200}]
    members = q.get_isolated_cluster(a, representative_url=series)
    assert members is not None
    assert [(m["url"].removeprefix(zoo.url), m["source"]) for m in members["members"]] == [
        ("orphans/series/1/", "inventory-seed"), ("orphans/series/2/", "inventory-seed"),
        ("orphans/series/3/", "inventory-discovered")]   # found through the series
    assert q.get_isolated_cluster(a, representative_url=f"{zoo.url}orphans/series/2/") is None
    # the sitemap's pages that links reach are no orphans, whatever the sitemap says
    with q.open_archive(a) as opened:
        source = dict(opened.execute("SELECT url, source FROM pages").fetchall())
    assert source[zoo.url] == source[f"{zoo.url}products/"] == "crawled"
    assert source[f"{zoo.url}orphans/lonely/"] == "inventory-seed"
    with q.open_archive(a) as opened:
        runs = opened.execute("SELECT list_label, total_lines, new_pages, new_resources, "
                              "scope_skipped FROM inventory_runs").fetchall()
    # ten <loc>s, one out of scope; five orphan pages and two stylesheets (resources)
    assert [tuple(r) for r in runs] == [("sitemap", 10, 5, 2, 1)]
    # the sitemap's 404 is a status row of its own: a sitemap naming a missing page, not
    # a broken link of the site (the site's own 404s stay in the plain row)
    statuses = q.get_summary(a)["statusDistribution"]
    assert statuses[-1] == {"status": 404, "count": 1, "inventorySeed": True}
    plain_404 = next(s for s in statuses if s["status"] == 404 and "inventorySeed" not in s)
    assert plain_404["count"] == q.list_pages(a, status=404)["total"] - 1
    # the terminal table tells the two 404 rows apart (its column was the first row's
    # keys only, and the flag fell out)
    table = subprocess.run([str(Path(sys.executable).with_name("nitpicker-query")), "summary",
                            str(a), "--format", "table"], capture_output=True, text=True,
                           timeout=60).stdout
    block = table.split("statusDistribution:", 1)[1].split("\n\n", 1)[0]
    assert "inventorySeed" in block.splitlines()[1]
    rows_404 = [line.split() for line in block.splitlines() if line.split()[:1] == ["404"]]
    assert sorted(len(r) for r in rows_404) == [2, 3] and ["404", "1", "true"] in rows_404


def test_no_sitemap_no_orphans_and_a_list_instead(zoo: TrapZoo, tmp_path: Path) -> None:
    excludes = ("--exclude", TRAPS, "--exclude-url", f"{zoo.url}index.php", "--no-render",
                "--no-templates")
    off = crawl_site(zoo, tmp_path, *excludes, "--no-sitemap")
    assert off.returncode == 0, off.stderr
    assert q.list_isolated_pages(off.archive)["total"] == 0
    assert q.list_isolated_clusters(off.archive)["total"] == 0
    assert not [s for s in q.get_summary(off.archive)["statusDistribution"]
                if s.get("inventorySeed")]
    assert "inventory" not in off.stderr and "Reading sitemaps" not in off.stderr
    # the user's own list, on standard input: just what it names, in scope
    out = tmp_path / "listed.nitpicker"
    done = subprocess.run(
        [CRAWL, zoo.url, "-o", str(out), *excludes, "--no-sitemap", "--list", "-"],
        input=f"# mine\n{zoo.url}orphans/lonely/\nhttp://elsewhere.invalid/\n",
        capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert [i["url"] for i in q.list_isolated_pages(out)["items"]] == [
        f"{zoo.url}orphans/lonely/"]
    assert "inventory: 1 URL in the sitemaps or the list, 1 of them linked from no " \
           "crawled page" in done.stderr


def test_a_bad_list_changes_nothing(zoo: TrapZoo, tmp_path: Path) -> None:
    for bad, says in ((tmp_path / "missing.txt", "No such file or directory"),
                      (tmp_path / "binary.bin", "not a text file")):
        if bad.suffix == ".bin":
            bad.write_bytes(b"\x00\x01")
        done = subprocess.run([CRAWL, zoo.url, "-o", str(tmp_path / "x.nitpicker"),
                               "--list", str(bad)], capture_output=True, text=True,
                              timeout=60, cwd=tmp_path)
        assert done.returncode == 2
        last = done.stderr.strip().splitlines()[-1]   # one line says what is wrong
        assert last.startswith("nitpicker-crawl: error: --list") and says in last
        assert "Traceback" not in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["binary.bin"]


def _labels(archive: Path) -> dict[tuple[str, int], int]:
    """Rows per (source, scraped)."""
    with q.open_archive(archive) as a:
        return {(r[0], r[1]): r[2] for r in a.execute(
            "SELECT source, scraped, count(*) FROM pages GROUP BY 1, 2").fetchall()}


@pytest.mark.slow   # up to a dozen crawls of TrapZoo
def test_a_crawl_stopped_early_crawls_its_inventory_when_resumed(
        zoo: TrapZoo, plain_crawl: Crawl, tmp_path: Path) -> None:
    """Stopped before the linked site is done, the inventory waits (and the last line
    says so); stopped half-way through the inventory, its queued rows keep their label
    and the resumed crawl ends where a crawl without a stop ends."""
    args = ("--exclude", TRAPS, "--exclude-url", f"{zoo.url}index.php", "--no-render",
            "--no-templates")
    out = tmp_path / "early.nitpicker"
    first = subprocess.run([CRAWL, zoo.url, "-o", str(out), *args, "--max-pages", "20"],
                           capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert first.returncode == 3, first.stderr
    assert q.list_isolated_pages(out)["total"] == 0
    assert "not crawled yet: the crawl stopped before the linked site was done" in first.stderr
    # the linked site's fetches, then a few more: some inventory pages fetched, some queued
    with q.open_archive(plain_crawl.archive) as a:
        linked = a.execute("SELECT count(*) FROM pages WHERE scraped = 1 AND isExternal = 0 "
                           "AND source = 'crawled' AND redirectDestId IS NULL").fetchone()[0]
    for budget in range(linked - 6, linked + 6):   # the count of fetches is about that
        out = tmp_path / f"half-{budget}.nitpicker"
        half = subprocess.run([CRAWL, zoo.url, "-o", str(out), *args, "--max-pages",
                               str(budget)], capture_output=True, text=True,
                              timeout=300, cwd=tmp_path)
        assert half.returncode in (0, 3), half.stderr
        labels = _labels(out)
        if labels.get(("inventory-seed", 1)) and labels.get(("inventory-seed", 0)):
            break
    else:
        pytest.fail(f"no stop inside the inventory: {labels}")
    again = subprocess.run([CRAWL, "--resume", str(out), "--max-pages", "1000"],
                           capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    for query in (q.list_isolated_pages, q.list_isolated_clusters):
        assert query(out) == query(plain_crawl.archive)
    # the last line counts what the archive holds, the first run's fetches included
    assert _unlinked(again.stderr) == _unlinked(plain_crawl.stderr) > 0


def _unlinked(stderr: str) -> int:
    """N of the crawl's last line 'inventory: … URLs …, N of them linked from no …'."""
    found = re.search(r"inventory: .*?, (\d+) of them linked from no crawled page", stderr)
    assert found, stderr[-2000:]
    return int(found.group(1))


def test_the_cli_and_the_other_format(plain_crawl: Crawl, zoo: TrapZoo, tmp_path: Path
                                      ) -> None:
    a = str(plain_crawl.archive)
    r = subprocess.run([QUERY, "isolated-clusters", a, "--format", "json"],
                       capture_output=True, text=True, timeout=60)
    assert json.loads(r.stdout)["items"][0]["size"] == 3
    r = subprocess.run([QUERY, "isolated-cluster", a, "--representative-url",
                        f"{zoo.url}nowhere/"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and "No isolated cluster named" in r.stderr
    assert r.stderr.endswith("(list them with nitpicker-query isolated-clusters).\n")
    new = tmp_path / "site-0.13.nitpicker"
    done = subprocess.run([CRAWL, "convert",
                           a, "--to", "0.13", "-o", str(new)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    for query in (q.list_isolated_pages, q.list_isolated_clusters):
        assert query(new) == query(plain_crawl.archive)


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_an_assistant_lists_the_orphans(plain_crawl: Crawl, zoo: TrapZoo,
                                              tmp_path: Path, anyio_backend: str) -> None:
    import shutil

    from mcp import Client

    from nitpicker_mcp.server import create_server

    shutil.copy(plain_crawl.archive, tmp_path / "site.nitpicker")
    site = str(tmp_path / "site.nitpicker")
    async with Client(create_server(roots=[tmp_path]), mode="legacy") as c:
        pages = await c.call_tool("list_isolated_pages", {"archive": site})
        assert [i["url"].removeprefix(zoo.url) for i in pages.structured_content[  # type: ignore[index]
            "items"]] == ["blog/", "orphans/gone/", "orphans/lonely/"]
        clusters = await c.call_tool("list_isolated_clusters", {"archive": site})
        first = clusters.structured_content["items"][0]  # type: ignore[index]
        members = await c.call_tool("get_isolated_cluster", {
            "archive": site, "representativeUrl": first["representativeUrl"]})
        assert members.structured_content["size"] == 3  # type: ignore[index]
        missing = await c.call_tool("get_isolated_cluster", {
            "archive": site, "representativeUrl": f"{zoo.url}nowhere/"})
        assert missing.is_error
        assert "list them with list_isolated_clusters" in missing.content[0].text  # type: ignore[union-attr]
