"""Template clusters over archives (issue 11): the capped TrapZoo crawl folded into its
templates, each trap family one template with one meta signature and its cap event."""

from __future__ import annotations

import hashlib
import sqlite3
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

import nitpicker_query as q
from nitpicker_crawl.trapzoo import TrapZoo
from nitpicker_query.queries import templates
from page_cluster.stylesheets import first_party
from tests.crawl.conftest import Crawl, run_crawl, without_stored_templates

QUERY = str(Path(sys.executable).with_name("nitpicker-query"))

# family → a predicate on the URL; the five traps, then the site's real sections
TRAPS = {
    "path counter": lambda u: "/list/date/" in u,
    "query pager": lambda u: "/search?page=" in u,
    "session": lambda u: "/catalog/?session=" in u,
    "no signal": lambda u: "/archive/?offset=" in u,
    "wiki history": lambda u: "action=history" in u,
}
SECTIONS = {
    "blog pager": lambda u: "/blog/page/" in u,
    "shirts": lambda u: "/products/shirt-" in u,
    "language mirrors": lambda u: "/en/" in u or "/ja/" in u,
    "wiki articles": lambda u: "index.php?title=Article_" in u and "action=" not in u,
}


@pytest.fixture(params=["capped_plain",  # rendered: make test-slow (the crawl takes 45 s)
                        pytest.param("capped_rendered", marks=pytest.mark.slow)])
def crawl(request: pytest.FixtureRequest) -> Crawl:
    result: Crawl = request.getfixturevalue(request.param)
    return result


def _keys_by_url(archive: Path) -> dict[str, str]:
    keys = {}
    for item in q.get_template_clusters(archive, limit=1000)["items"]:
        members = q.get_template_cluster(archive, key=item["key"], limit=1000)
        assert members is not None and members["total"] == item["count"]
        keys.update({m["url"]: item["key"] for m in members["items"]})
    return keys


@pytest.mark.parametrize("family", [*TRAPS, *SECTIONS])
def test_each_family_is_one_template_of_its_own(crawl: Crawl, family: str) -> None:
    keys = _keys_by_url(crawl.archive)
    belongs = {**TRAPS, **SECTIONS}[family]
    mine = {key for url, key in keys.items() if belongs(url)}
    assert len(mine) == 1, (family, mine)            # the whole family in one cluster …
    key = mine.pop()
    members = [url for url, k in keys.items() if k == key]
    # … and nothing else in it (the date trap's first page /list/date/ is its own family)
    assert all(belongs(url) for url in members), (family, members)


def test_trap_templates_show_one_meta_signature_and_their_cap_event(crawl: Crawl) -> None:
    events = {e["signature"]: e for e in q.list_dedupe_cap_events(crawl.archive)["items"]}
    result = q.get_template_clusters(crawl.archive, limit=1000)
    by_family: dict[str, list[dict[str, object]]] = defaultdict(list)
    for item in result["items"]:
        for family, belongs in {**TRAPS, **SECTIONS}.items():
            if all(belongs(u) for u in item["samplePages"]):
                by_family[family].append(item)
    for family in TRAPS:
        (item,) = by_family[family]
        metas = item["metaSignatureClusters"]
        assert metas, family
        # nearly every page of the trap's template shares the trap's meta signature
        top = metas[0]
        assert top["sharedPages"] >= item["count"] - 1, (family, item["count"], metas)
        assert top["capEventId"] == events[top["signature"]]["id"], family
        assert item["capEventIds"] == [top["capEventId"]], family
    for family in ("blog pager", "wiki articles"):  # real sections: many meta signatures
        (item,) = by_family[family]
        assert all(m["capEventId"] is None for m in item["metaSignatureClusters"]), family
        assert item["capEventIds"] == [], family
        assert sum(m["sharedPages"] for m in item["metaSignatureClusters"]) < item["count"]


def test_reasons_name_the_block_and_the_template_core(capped_plain: Crawl) -> None:
    items = q.get_template_clusters(capped_plain.archive, limit=1000)["items"]
    search = next(i for i in items if "/search?page=" in i["samplePages"][0])
    (block,) = search["reasons"]["blocking"]
    assert block["reason"]["pathKey"] == "search"
    assert block["reason"]["stylesheets"] == ["/static/site.css"]
    assert search["reasons"]["landmarks"]["search"]["presenceRate"] == 1.0
    detail = q.get_template_cluster(capped_plain.archive, key=search["key"], limit=1)
    assert detail is not None
    assert "main.search>ul.search-results>li.search-result" in \
        detail["reasons"]["structuralCoreTokens"]
    assert detail["items"][0]["title"] == "Search" and detail["nextOffset"] == 1


def test_paging_and_min_count(capped_plain: Crawl) -> None:
    everything = q.get_template_clusters(capped_plain.archive, limit=1000)
    counts = [i["count"] for i in everything["items"]]
    assert counts == sorted(counts, reverse=True)
    assert sum(counts) == everything["pagesClustered"]
    big = q.get_template_clusters(capped_plain.archive, min_count=30, limit=2)
    assert big["total"] == sum(c >= 30 for c in counts) and len(big["items"]) == 2
    assert big["nextOffset"] == 2
    rest = q.get_template_clusters(capped_plain.archive, min_count=30, offset=2, limit=1000)
    assert [i["key"] for i in big["items"] + rest["items"]] == \
        [i["key"] for i in everything["items"] if i["count"] >= 30]
    assert q.get_template_cluster(capped_plain.archive, key='["nope","cluster:0"]') is None
    with pytest.raises(q.InvalidArgument):
        q.get_template_clusters(capped_plain.archive, min_count=0)


def test_second_call_is_served_from_the_cache_and_nothing_is_written(
        capped_plain: Crawl, monkeypatch: pytest.MonkeyPatch) -> None:
    before = hashlib.sha256(capped_plain.archive.read_bytes()).hexdigest()
    templates.clear_cache()
    first = q.get_template_clusters(capped_plain.archive)

    def refuse(a: q.Archive) -> templates.TemplateIndex:
        raise AssertionError("computed twice")

    monkeypatch.setattr(templates, "compute", refuse)
    assert q.get_template_clusters(capped_plain.archive) == first
    assert hashlib.sha256(capped_plain.archive.read_bytes()).hexdigest() == before


def test_a_crawl_directory_that_changes_is_clustered_again(capped_plain: Crawl,
                                                          tmp_path: Path) -> None:
    without_stored_templates(capped_plain.archive, tmp_path)
    first = q.get_template_clusters(tmp_path, limit=1000)
    conn = sqlite3.connect(tmp_path / "db.sqlite")  # the crawler drops a page's snapshot
    conn.execute("DELETE FROM page_html_ref WHERE page_id = (SELECT id FROM pages WHERE url "
                 "LIKE '%/blog/page/1/')")
    conn.commit()
    conn.close()
    second = q.get_template_clusters(tmp_path, limit=1000)
    assert second["pagesClustered"] == first["pagesClustered"] - 1
    assert second["pagesWithoutHtml"] == first["pagesWithoutHtml"] + 1


def test_stylesheet_hrefs_are_absolute_and_page_cluster_keeps_the_first_party_paths() -> None:
    html = ('<link rel="stylesheet" href="/a.css?v=3"><link rel="preload stylesheet" '
            "href='b.css'><link rel=stylesheet href=https://cdn.example/x.css>"
            '<link rel="icon" href="/i.css"><LINK REL="STYLESHEET" HREF="/a.css">')
    hrefs = templates.stylesheet_hrefs(html, "http://site.test/blog/post")
    assert hrefs == ["http://site.test/a.css", "http://site.test/a.css?v=3",
                     "http://site.test/blog/b.css", "https://cdn.example/x.css"]
    assert first_party(hrefs, "site.test") == {"/a.css", "/blog/b.css"}
    assert templates.stylesheet_hrefs("<p>no links</p>", "http://site.test/") == []


def test_cli_lists_and_drills_down_with_one_line_errors(capped_plain: Crawl) -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([QUERY, *args], capture_output=True, text=True, timeout=120)

    listed = run("template-clusters", str(capped_plain.archive), "--min-count", "30")
    assert listed.returncode == 0, listed.stderr
    import json

    items = json.loads(listed.stdout)["items"]
    first = items[0]
    one = run("template-cluster", str(capped_plain.archive), "--key", first["key"],
              "--limit", "2")
    assert one.returncode == 0 and len(json.loads(one.stdout)["items"]) == 2
    # the short id names the same cluster, whatever its case; ids are distinct per cluster
    assert len({i["id"] for i in items}) == len(items)
    assert all(len(i["id"]) == 12 and i["id"].startswith("t-") for i in items)
    by_id = run("template-cluster", str(capped_plain.archive), "--key", first["id"].upper(),
                "--limit", "2")
    assert by_id.returncode == 0, by_id.stderr
    assert json.loads(by_id.stdout) == json.loads(one.stdout)
    assert json.loads(one.stdout)["id"] == first["id"]
    assert json.loads(one.stdout)["key"] == first["key"]
    table = run("template-clusters", str(capped_plain.archive), "--min-count", "30",
                "--format", "table")
    assert first["id"] in table.stdout
    for name in ("nope", "t-0000000000"):   # an id of no cluster is not found either
        missing = run("template-cluster", str(capped_plain.archive), "--key", name)
        assert missing.returncode == 1 and missing.stdout == ""
        assert missing.stderr.count("\n") == 1 and \
            f"No template cluster with id or key {name}" in missing.stderr
    bad = run("template-clusters", str(capped_plain.archive), "--min-count", "0")
    assert bad.returncode == 2 and "min-count" in bad.stderr and "Traceback" not in bad.stderr


def test_a_broken_snapshot_is_passed_over_not_fatal(capped_plain: Crawl, tmp_path: Path) -> None:
    without_stored_templates(capped_plain.archive, tmp_path)
    before = q.get_template_clusters(tmp_path, limit=1000)
    conn = sqlite3.connect(tmp_path / "db.sqlite")
    ids = [r[0] for r in conn.execute("SELECT id FROM pages WHERE url LIKE '%/blog/page/%' "
                                      "ORDER BY id LIMIT 2")]
    # one snapshot a broken zstd frame, another reference of the wrong type (TEXT)
    conn.execute("INSERT INTO page_html_blobs (hash, body, codec, size_raw, size_stored) "
                 "VALUES (x'00', x'0001020304', 'zstd', 10, 5)")
    conn.execute("UPDATE page_html_ref SET hash = x'00' WHERE page_id = ?", (ids[0],))
    conn.execute("INSERT INTO page_html_blobs (hash, body, codec, size_raw, size_stored) "
                 "VALUES ('text-hash', '<body><main><p>x', 'none', 16, 16)")
    conn.execute("UPDATE page_html_ref SET hash = 'text-hash' WHERE page_id = ?", (ids[1],))
    conn.commit()
    conn.close()
    after = q.get_template_clusters(tmp_path, limit=1000)
    assert after["pagesClustered"] == before["pagesClustered"] - 1   # the broken frame
    assert after["pagesWithoutHtml"] == before["pagesWithoutHtml"] + 1
    blog = next(i for i in after["items"] if "/blog/page/" in i["samplePages"][0])
    assert blog["count"] == 58   # 60 pages, less the broken one and the one now unlike


def _stored_rows(archive: Path) -> tuple[dict[str, str], dict[str, int], list[tuple[str, int]]]:
    """What the crawl stored: page URL → key, key → member_count, (section, ordinal)."""
    with q.open_archive(archive) as a:
        conn = sqlite3.connect(a.directory / "db.sqlite")
        keys = dict(conn.execute("SELECT p.url, t.template_key FROM page_templates t "
                                 "JOIN pages p ON p.id = t.page_id").fetchall())
        counts = dict(conn.execute("SELECT template_key, member_count FROM "
                                   "page_template_clusters").fetchall())
        labels = conn.execute("SELECT section, ordinal FROM page_template_labels ORDER BY "
                              "section, ordinal").fetchall()
        conn.close()
    return keys, counts, labels


def test_the_crawl_stores_its_templates_as_the_query_would_compute_them(
        capped_plain: Crawl, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    keys, counts, labels = _stored_rows(capped_plain.archive)
    stored = q.get_template_clusters(capped_plain.archive, limit=1000)
    assert f"templates: {stored['pagesClustered']} HTML page(s) in {stored['total']} " \
        "template(s)" in capped_plain.stderr
    assert len(keys) == stored["pagesClustered"] and len(counts) == stored["total"]
    assert sum(counts.values()) == len(keys)
    assert ("blog", 1) in labels and len(labels) == len(counts)
    without_stored_templates(capped_plain.archive, tmp_path)
    computed = q.get_template_clusters(tmp_path, limit=1000)
    assert computed == stored   # keys, counts, samples, reasons, meta signatures: all
    templates.clear_cache()

    def refuse(*_a: object, **_k: object) -> None:
        raise AssertionError("clustered again although the crawl stored its templates")

    monkeypatch.setattr(templates.page_cluster, "resolve", refuse)
    assert q.get_template_clusters(capped_plain.archive, limit=1000) == stored


def test_no_templates_stores_none_and_a_resume_stores_them_for_every_page(
        zoo: TrapZoo, tmp_path: Path) -> None:
    url = zoo.url
    first = run_crawl(tmp_path, url, "-o", "site.nitpicker", "--no-render", "--max-pages",
                      "6", "--no-templates", "--exclude", "/list/**,/search,/catalog/**")
    assert first.returncode == 3, first.stderr   # stopped at --max-pages
    assert "templates:" not in first.stderr
    with q.open_archive(tmp_path / "site.nitpicker") as a:
        assert not a.has_table("page_templates")
    computed = q.get_template_clusters(tmp_path / "site.nitpicker")["pagesClustered"]
    assert computed >= 5
    # the option is restored on --resume; --templates given here overrides it
    again = run_crawl(tmp_path, "--resume", "site.nitpicker", "--max-pages", "12",
                      "--templates")
    assert again.returncode == 3, again.stderr
    keys, counts, _labels = _stored_rows(tmp_path / "site.nitpicker")
    templates.clear_cache()
    listed = q.get_template_clusters(tmp_path / "site.nitpicker", limit=1000)
    assert len(keys) == listed["pagesClustered"] > computed
    assert sum(counts.values()) == len(keys)
    assert f"templates: {len(keys)} HTML page(s)" in again.stderr


def test_the_cli_tells_its_progress_on_stderr_when_it_must_compute(
        capped_plain: Crawl, tmp_path: Path) -> None:
    without_stored_templates(capped_plain.archive, tmp_path)
    computed = subprocess.run([QUERY, "template-clusters", str(tmp_path)], capture_output=True,
                              text=True, timeout=120)
    assert computed.returncode == 0, computed.stderr
    import json

    pages = json.loads(computed.stdout)["pagesClustered"]
    assert computed.stderr.splitlines()[0] == f"[templates] reading page 1 of {pages} (0%)"
    # stored by the crawl: nothing to tell
    stored = subprocess.run([QUERY, "template-clusters", str(capped_plain.archive)],
                            capture_output=True, text=True, timeout=120)
    assert stored.returncode == 0 and stored.stderr == ""
    assert json.loads(stored.stdout) == json.loads(computed.stdout)
