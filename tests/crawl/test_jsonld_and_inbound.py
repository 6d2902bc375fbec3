"""JSON-LD and inbound-link queries (issue 12) on a real crawl of TrapZoo, whose shirt
pages carry a Product (nested offers) and a BreadcrumbList, the black shirt's Product
being broken JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import nitpicker_query as q
from nitpicker_crawl.trapzoo import TrapZoo
from nitpicker_crawl.trapzoo.site import COLOURS
from tests.crawl.conftest import Crawl

QUERY = str(Path(sys.executable).with_name("nitpicker-query"))


def test_pages_by_jsonld_type(plain_crawl: Crawl, zoo: TrapZoo) -> None:
    a = plain_crawl.archive
    shirts = sorted(f"{zoo.url}products/shirt-{c}/" for c in COLOURS)
    products = q.list_pages_by_jsonld_type(a, type="Product", limit=1000)
    assert [i["url"] for i in products["items"]] == [u for u in shirts if "black" not in u]
    assert products["items"][0]["title"] == "Classic shirt"  # the items of list_pages
    assert q.count_pages_by_jsonld_type(a, type="Product") == {
        "type": "Product", "pageCount": len(COLOURS) - 1}  # the broken one has no type
    assert q.count_pages_by_jsonld_type(a, type="BreadcrumbList")["pageCount"] == len(COLOURS)
    assert q.count_pages_by_jsonld_type(a, type="product")["pageCount"] == 0  # exact match
    assert q.list_pages_by_jsonld_type(a, type="Nope")["items"] == []
    page = q.list_pages_by_jsonld_type(a, type="Product", limit=5, offset=5)
    assert [i["url"] for i in page["items"]] == [i["url"] for i in products["items"][5:10]]


def test_page_jsonld_overview_and_entries(plain_crawl: Crawl, zoo: TrapZoo) -> None:
    a = plain_crawl.archive
    black = q.get_page_jsonld_overview(a, url=f"{zoo.url}products/shirt-black/")
    assert black is not None and black["count"] == 2
    broken, crumbs = black["entries"]
    assert broken["type"] is None and broken["parseError"]
    assert crumbs["type"] == "BreadcrumbList" and crumbs["parseError"] is None
    assert black["totalRawBytes"] == broken["rawByteSize"] + crumbs["rawByteSize"] > 100
    red = q.get_page_jsonld(a, url=f"{zoo.url}products/shirt-red/")
    assert red is not None and red["full"] is False
    product = red["entries"][0]["data"]
    assert "@context" not in product and product["@type"] == "Product"
    assert product["offers"]["seller"]["address"] == "…"  # below the slim depth
    assert "raw" not in red["entries"][0]
    full = q.get_page_jsonld(a, url=f"{zoo.url}products/shirt-red/", full=True)
    assert full is not None
    data = full["entries"][0]["data"]
    assert data["@context"] == "https://schema.org"
    assert data["offers"]["seller"]["address"]["addressCountry"] == "DE"
    assert json.loads(full["entries"][0]["raw"]) == data
    assert q.get_page_jsonld(a, url="http://nowhere/") is None
    assert q.get_page_jsonld_overview(a, url=f"{zoo.url}blog/page/1/") == {
        "url": f"{zoo.url}blog/page/1/", "count": 0, "totalRawBytes": 0, "entries": []}


def test_inbound_links_paged_and_counted(plain_crawl: Crawl, zoo: TrapZoo) -> None:
    a = plain_crawl.archive
    target = f"{zoo.url}products/"
    everything = q.list_inbound_links(a, url=target, limit=1000)
    assert everything is not None
    urls = [i["url"] for i in everything["items"]]
    assert urls == sorted(urls) and len(urls) == len(set(urls))  # one per referring page
    assert {f"{zoo.url}products/shirt-{c}/" for c in COLOURS} <= set(urls)
    detail = q.get_page_detail(a, url=target, links_limit=5)
    assert detail is not None and detail["inboundLinksTotal"] == everything["total"]
    assert [i["url"] for i in detail["inboundLinks"]] == urls[:5]  # the same definition
    count = q.list_inbound_links(a, url=target, limit=0)
    assert count is not None
    assert (count["items"], count["total"], count["nextOffset"]) == ([], len(urls), None)
    second = q.list_inbound_links(a, url=target, limit=10, offset=10)
    assert second is not None and [i["url"] for i in second["items"]] == urls[10:20]
    assert q.list_inbound_links(a, url="http://nowhere/") is None


def test_the_new_sub_commands(plain_crawl: Crawl, zoo: TrapZoo) -> None:
    a = str(plain_crawl.archive)

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([QUERY, *args], capture_output=True, text=True, timeout=60)

    r = run("count-pages-by-jsonld-type", a, "--type", "Product")
    assert r.returncode == 0 and json.loads(r.stdout)["pageCount"] == len(COLOURS) - 1
    r = run("pages-by-jsonld-type", a, "--type", "BreadcrumbList", "--limit", "3")
    assert json.loads(r.stdout)["total"] == len(COLOURS)
    r = run("page-jsonld", a, "--url", f"{zoo.url}products/shirt-red/", "--full")
    assert json.loads(r.stdout)["entries"][0]["data"]["@context"] == "https://schema.org"
    r = run("page-jsonld-overview", a, "--url", f"{zoo.url}products/shirt-black/")
    assert json.loads(r.stdout)["entries"][0]["parseError"]
    r = run("inbound-links", a, "--url", f"{zoo.url}products/", "--limit", "0")
    assert json.loads(r.stdout)["total"] >= len(COLOURS)
    r = run("inbound-links", a, "--url", "http://nowhere/")
    assert r.returncode == 1 and "No page with URL http://nowhere/" in r.stderr
    r = run("inbound-links", a, "--url", "http://x/", "--limit", "-1")
    assert r.returncode == 2 and "--limit must be between 0 and 1000, got -1" in r.stderr
