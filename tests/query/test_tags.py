"""Technology tag queries (issue 12) against hand-written ``page_tags`` rows."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import nitpicker_query as q
from nitpicker_crawl.archive import ArchiveWriter

BASE = "http://localhost"
GTM, WP, JQ = "Google Tag Manager", "WordPress", "jQuery"
QUERY = str(Path(sys.executable).with_name("nitpicker-query"))


@pytest.fixture(scope="module")
def tagged(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("tags")
    w = ArchiveWriter.create(d / "tags.nitpicker", roots=[BASE + "/"])
    page = {"scraped": 1, "isTarget": 1, "isExternal": 0, "status": 200,
            "contentType": "text/html", "isSkipped": 0}

    def tag(provider: str, *, external: str | None = None, version: str | None = None,
            category: str = "Misc") -> dict[str, object]:
        return {"provider": provider, "category": category, "externalId": external,
                "version": version, "confidence": 100, "categories": [category],
                "sources": [f"{provider} matched"]}

    a = w.save_page(f"{BASE}/a", page, title="A")
    b = w.save_page(f"{BASE}/b", page, title="B")
    c = w.save_page(f"{BASE}/c", page, title="C")
    w.replace_tags(a, [tag(GTM, external="GTM-AAA", category="Tag managers"),
                       tag(WP, version="6.4", category="CMS"),
                       tag(JQ, version="3.7", category="JavaScript libraries")])
    w.replace_tags(b, [tag(GTM, external="GTM-BBB", category="Tag managers"),
                       tag(JQ, version="3.6", category="JavaScript libraries")])
    w.replace_tags(c, [tag(WP, version="6.4", category="CMS")])
    w.skip_page(f"{BASE}/skipped", "robots.txt")
    return w.close()


def test_tag_inventory(tagged: Path) -> None:
    inventory = q.get_tag_inventory(tagged)
    assert [(i["provider"], i["pageCount"]) for i in inventory["items"]] == [
        (GTM, 2), (WP, 2), (JQ, 2)]  # most used first, then by name
    by = {i["provider"]: i for i in inventory["items"]}
    assert by[GTM]["externalIds"] == ["GTM-AAA", "GTM-BBB"]
    assert by[JQ]["versions"] == ["3.6", "3.7"] and by[WP]["versions"] == ["6.4"]
    assert by[WP]["categories"] == ["CMS"]
    page = q.get_tag_inventory(tagged, limit=1, offset=1)
    assert [i["provider"] for i in page["items"]] == [WP] and page["nextOffset"] == 2


def test_pages_by_tag_and_its_count(tagged: Path) -> None:
    assert [i["url"] for i in q.list_pages_by_tag(tagged, provider=JQ)["items"]] == [
        f"{BASE}/a", f"{BASE}/b"]
    one = q.list_pages_by_tag(tagged, provider=GTM, external_id="GTM-BBB")
    assert [i["url"] for i in one["items"]] == [f"{BASE}/b"] and one["total"] == 1
    assert q.count_pages_by_tag(tagged, provider=WP) == {
        "provider": WP, "externalId": None, "pageCount": 2}
    assert q.count_pages_by_tag(tagged, provider="jquery")["pageCount"] == 0  # exact
    assert q.count_pages_by_tag(tagged, provider=GTM, external_id="GTM-ZZZ")[
        "pageCount"] == 0


def test_page_tags(tagged: Path) -> None:
    a = q.get_page_tags(tagged, url=f"{BASE}/a")
    assert a is not None and a["count"] == 3
    assert [t["provider"] for t in a["tags"]] == [GTM, WP, JQ]
    gtm = a["tags"][0]
    assert (gtm["externalId"], gtm["categories"], gtm["sources"]) == (
        "GTM-AAA", ["Tag managers"], [f"{GTM} matched"])
    assert q.get_page_tags(tagged, url=f"{BASE}/skipped") == {
        "url": f"{BASE}/skipped", "count": 0, "tags": []}
    assert q.get_page_tags(tagged, url="http://nowhere/") is None


def test_tag_sub_commands(tagged: Path) -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([QUERY, *args], capture_output=True, text=True, timeout=60)

    r = run("tag-inventory", str(tagged))
    assert r.returncode == 0 and json.loads(r.stdout)["total"] == 3
    r = run("pages-by-tag", str(tagged), "--provider", GTM, "--external-id", "GTM-AAA")
    assert [i["url"] for i in json.loads(r.stdout)["items"]] == [f"{BASE}/a"]
    r = run("count-pages-by-tag", str(tagged), "--provider", JQ)
    assert json.loads(r.stdout)["pageCount"] == 2
    r = run("page-tags", str(tagged), "--url", f"{BASE}/c")
    assert [t["version"] for t in json.loads(r.stdout)["tags"]] == ["6.4"]
    r = run("page-tags", str(tagged), "--url", "http://nowhere/")
    assert r.returncode == 1 and "No page with URL http://nowhere/" in r.stderr
