"""End-to-end crawls of TrapZoo (real HTTP on 127.0.0.1, real Chromium or no browser),
checked through the query functions a user would use."""

from __future__ import annotations

import pytest

import nitpicker_query as q
from nitpicker_crawl.trapzoo import TrapZoo
from tests.crawl.conftest import Crawl

MODES = ["plain_crawl", "rendered_crawl"]


def _row(archive: object, url: str) -> dict[str, object]:
    with q.open_archive(archive) as a:  # type: ignore[arg-type]
        row = a.execute("SELECT * FROM pages WHERE url = ?", (url,)).fetchone()
        assert row is not None, url
        return dict(row)


@pytest.fixture(params=MODES)
def crawl(request: pytest.FixtureRequest) -> Crawl:
    result: Crawl = request.getfixturevalue(request.param)
    return result


def test_process_exits_zero_and_writes_the_archive(crawl: Crawl) -> None:
    assert crawl.returncode == 0, crawl.stderr
    assert "done:" in crawl.stderr and "Traceback" not in crawl.stderr
    with q.open_archive(crawl.archive) as a:
        assert a.version == "0.10.0"


def test_scope_and_external_links_are_metadata_only(crawl: Crawl, zoo: TrapZoo) -> None:
    ext = _row(crawl.archive, zoo.external_url)
    assert (ext["isExternal"], ext["isTarget"], ext["status"], ext["title"]) == (
        1, 0, 200, "External home")
    assert q.get_page_html(crawl.archive, url=zoo.external_url) is None  # no snapshot
    gone = _row(crawl.archive, zoo.external_url + "gone")
    assert gone["status"] == 404
    # nothing of the external origin was crawled beyond the links themselves
    pages = q.list_pages(crawl.archive, is_external=True, limit=1000)["items"]
    assert sorted(p["url"] for p in pages) == sorted(
        [zoo.external_url, zoo.external_url + "gone", zoo.external_url + "page"])


def test_excludes_and_robots_are_recorded_as_skipped(crawl: Crawl, zoo: TrapZoo) -> None:
    private = _row(crawl.archive, zoo.url + "private/")
    assert (private["isSkipped"], private["skipReason"], private["status"]) == (
        1, "robots.txt", None)
    listed = _row(crawl.archive, zoo.url + "list/date/")
    assert listed["isSkipped"] == 1 and str(listed["skipReason"]).startswith("excluded")
    search = _row(crawl.archive, zoo.url + "search?page=1")
    assert search["skipReason"] == "excluded (--exclude /search)"
    with q.open_archive(crawl.archive) as a:
        trap_rows = a.execute("SELECT count(*) FROM pages WHERE url LIKE '%/list/date/2%'"
                              ).fetchone()[0]
    assert trap_rows == 0  # an excluded page's links are never followed


def test_redirect_sources_point_at_the_final_page(crawl: Crawl, zoo: TrapZoo) -> None:
    end = _row(crawl.archive, zoo.url + "redirect/end")
    assert end["status"] == 200 and end["redirectDestId"] is None
    for source in ("redirect/start", "redirect/middle", "old-a", "old-b"):
        assert _row(crawl.archive, zoo.url + source)["redirectDestId"] == end["id"], source
    detail = q.get_page_detail(crawl.archive, url=zoo.url + "redirect/end")
    assert detail is not None
    assert set(detail["redirectFrom"]) == {zoo.url + s for s in (
        "redirect/start", "redirect/middle", "old-a", "old-b")}
    assert detail["redirectChain"] is None and detail["status"] == 200


def test_a_redirect_shows_its_chain_hop_by_hop(crawl: Crawl, zoo: TrapZoo) -> None:
    start = q.get_page_detail(crawl.archive, url=zoo.url + "redirect/start")
    assert start is not None
    assert start["status"] == 301 and start["redirectsTo"] == zoo.url + "redirect/end"
    assert [(h["url"], h["status"]) for h in start["redirectChain"]] == [
        (zoo.url + "redirect/start", 301), (zoo.url + "redirect/middle", 302),
        (zoo.url + "redirect/end", 200)]
    middle = q.get_page_detail(crawl.archive, url=zoo.url + "redirect/middle")
    assert middle is not None
    assert [(h["url"], h["status"]) for h in middle["redirectChain"]] == [
        (zoo.url + "redirect/middle", 302), (zoo.url + "redirect/end", 200)]
    # a link to the chain shows the 3xx it got and where it ends; a robots-blocked
    # link says why it has no status
    home = q.get_page_detail(crawl.archive, url=zoo.url, links_limit=1000)
    assert home is not None
    links = {o["url"]: o for o in home["outboundLinks"]}
    hop = links[zoo.url + "redirect/start"]
    assert (hop["status"], hop["redirectsTo"], hop["finalStatus"]) == (
        301, zoo.url + "redirect/end", 200)
    private = links[zoo.url + "private/"]
    assert private["status"] is None and private["skipReason"] == "robots.txt"
    assert "redirectsTo" not in links[zoo.url + "missing"]


def test_error_statuses(crawl: Crawl, zoo: TrapZoo) -> None:
    assert _row(crawl.archive, zoo.url + "missing")["status"] == 404
    assert _row(crawl.archive, zoo.url + "error")["status"] == 500
    broken = q.list_links(crawl.archive, type="broken", limit=1000)["items"]
    assert {(b["sourceUrl"], b["destUrl"]) for b in broken} >= {
        (zoo.url, zoo.url + "missing"), (zoo.url, zoo.url + "about"),
        (zoo.url, zoo.url + "error")}   # a 500 is a broken link to an auditor
    only_404 = q.list_links(crawl.archive, type="broken", broken_as="404", limit=1000)
    assert (zoo.url, zoo.url + "error") not in {
        (b["sourceUrl"], b["destUrl"]) for b in only_404["items"]}
    assert (zoo.url, zoo.url + "missing") in {
        (b["sourceUrl"], b["destUrl"]) for b in only_404["items"]}
    pdf = _row(crawl.archive, zoo.url + "files/report.pdf")
    assert (pdf["status"], pdf["contentType"], pdf["isTarget"]) == (200, "application/pdf", 1)
    assert [p["url"] for p in q.list_pages(crawl.archive, content_type_category="pdf")[
        "items"]] == [zoo.url + "files/report.pdf"]


def test_broken_links_inside_and_outside_the_site_are_asked_apart(crawl: Crawl,
                                                                  zoo: TrapZoo) -> None:
    """An auditor fixes the site's own broken links first: ``destination`` keeps to them,
    or to the external ones (another site's 404, a host that does not answer)."""
    def pairs(**options: str) -> set[tuple[str, str, bool]]:
        items = q.list_links(crawl.archive, type="broken", limit=1000, **options)["items"]
        return {(b["sourceUrl"], b["destUrl"], b["isExternal"]) for b in items}

    every, inside, outside = pairs(), pairs(destination="internal"), \
        pairs(destination="external")
    assert inside and outside and inside | outside == every and not inside & outside
    assert all(not external for _, _, external in inside)
    assert (zoo.url, zoo.url + "missing", False) in inside
    assert all(external for _, _, external in outside)
    assert any(dest == zoo.external_url + "gone" for _, dest, _ in outside)
    with pytest.raises(q.InvalidArgument, match="only narrows broken links"):
        q.list_links(crawl.archive, type="external", destination="internal")


def test_meta_columns(crawl: Crawl, zoo: TrapZoo) -> None:
    blog = _row(crawl.archive, zoo.url + "blog/page/2/")
    assert (blog["title"], blog["description"], blog["og_title"]) == (
        "Blog - Page 2", "Our blog", "Blog")
    assert blog["og_url"] == zoo.url + "blog/page/2/"  # absolutised
    assert blog["lang"] == "en" and blog["charset"] == "utf-8"
    detail = q.get_page_detail(crawl.archive, url=zoo.url + "blog/page/2/")
    assert detail is not None
    assert detail["metaExtras"]["prev"] == zoo.url + "blog/page/1/"
    assert detail["metaExtras"]["next"] == zoo.url + "blog/page/3/"
    shirt = _row(crawl.archive, zoo.url + "products/shirt-red/")
    assert shirt["canonical"] == shirt["og_url"] == zoo.url + "products/shirt-red/"
    ja = q.get_page_detail(crawl.archive, url=zoo.url + "ja/home/")
    assert ja is not None and ja["lang"] == "ja"
    assert {"hreflang": "en", "href": zoo.url + "en/home/"} in ja["metaExtras"][
        "alternateHreflang"]
    assert len(q.list_pages(crawl.archive, url_pattern="%/blog/page/%", limit=100)[
        "items"]) == 60
    assert len(q.list_pages(crawl.archive, url_pattern="%/products/shirt-%", limit=100)[
        "items"]) == 40


def test_html_snapshot_and_anchors(crawl: Crawl, zoo: TrapZoo) -> None:
    html = q.get_page_html(crawl.archive, url=zoo.url)
    assert html is not None and "TrapZoo" in html["html"]
    home = q.get_page_detail(crawl.archive, url=zoo.url, links_limit=100)
    assert home is not None
    team = [o for o in home["outboundLinks"] if o["url"] == zoo.url + "about"]
    assert team and team[0]["status"] == 404
    with q.open_archive(crawl.archive) as a:
        hashes = a.execute("SELECT hash FROM anchors an JOIN pages p ON p.id = an.hrefId "
                           "WHERE p.url = ?", (zoo.url + "about",)).fetchall()
    assert [h[0] for h in hashes] == ["team"]  # the fragment is kept on the anchor


def test_js_inserted_link_only_with_rendering(plain_crawl: Crawl, rendered_crawl: Crawl,
                                              zoo: TrapZoo) -> None:
    inserted = zoo.url + "js/inserted/"
    assert q.get_page_detail(plain_crawl.archive, url=inserted) is None
    rendered = q.get_page_detail(rendered_crawl.archive, url=inserted)
    assert rendered is not None and rendered["title"] == "Inserted by JavaScript"


def test_rendering_records_resources_and_image_sizes(rendered_crawl: Crawl,
                                                     zoo: TrapZoo) -> None:
    css = q.get_resource_referrers(rendered_crawl.archive,
                                   resource_url=zoo.url + "static/site.css", limit=1)
    assert css is not None and css["total"] > 100
    images = q.list_images(rendered_crawl.archive)["items"]
    logo = next(i for i in images if i["src"].endswith("logo.png"))
    assert (logo["alt"], logo["width"], logo["naturalWidth"]) == ("TrapZoo logo", 10, 1)
    banner = q.list_images(rendered_crawl.archive, missing_alt=True)["items"]
    assert sorted(i["src"] for i in banner) == [zoo.url + "static/arrow.png",   # /support/faq/
                                                zoo.url + "static/banner.png"]


def test_both_modes_find_the_same_pages_but_the_scripted_one(plain_crawl: Crawl,
                                                             rendered_crawl: Crawl) -> None:
    def urls(c: Crawl) -> set[str]:
        return {p["url"] for p in q.list_pages(c.archive, limit=1000)["items"]}

    assert urls(rendered_crawl) - urls(plain_crawl) == {
        u for u in urls(rendered_crawl) if u.endswith("/js/inserted/")}
    assert urls(plain_crawl) <= urls(rendered_crawl)


def test_head_refused_falls_back_to_get(crawl: Crawl, zoo: TrapZoo) -> None:
    row = _row(crawl.archive, zoo.url + "no-head/")
    assert (row["status"], row["title"]) == (200, "No HEAD here")
