"""Link score: PageRank over the crawl's own links, as networkx computes it on the graph
the site's definition gives — redirects and canonicals passing on what they receive,
duplicate and self links once and never, a PDF and a dead end spreading theirs — read
through every surface a user sees (the list, the CLI's CSV, bad input)."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

from nitpicker_query import get_page_detail, list_link_score, list_pages
from tests.query.served import crawled_once

# path → (status, links, extra): extra is a canonical, a redirect target or "noindex"
SITE: dict[str, tuple[int, list[str], str]] = {
    "/": (200, ["/a", "/b", "/c", "/", "/a", "/hub"], ""),
    "/a": (200, ["/b", "/old", "/missing", "/doc.pdf"], ""),
    "/b": (200, ["/", "/dup"], ""),
    "/c": (200, ["/a", "/d"], "noindex"),
    "/d": (200, [], ""),                      # a dead end: links nowhere
    "/hub": (200, ["/a", "/b", "/c", "/d", "/new"], ""),
    "/old": (301, [], "/new"),
    "/new": (200, ["/"], ""),
    "/dup": (200, ["/d", "/hub"], "canonical:/b"),   # canonicalised: its links not read
    "/missing": (404, [], ""),
    "/doc.pdf": (200, [], "pdf"),
}


def _answer(path: str) -> tuple[int, dict[str, str], bytes]:
    status, links, extra = SITE.get(path, (404, [], ""))
    if status == 301:
        return 301, {"Location": extra}, b""
    if extra == "pdf":
        return status, {"Content-Type": "application/pdf"}, b"%PDF-1.4\n%%EOF\n"
    head = '<meta name="robots" content="noindex">' if extra == "noindex" else ""
    if extra.startswith("canonical:"):
        head = f'<link rel="canonical" href="{extra.split(":", 1)[1]}">'
    anchors = "".join(f'<a href="{href}">{href}</a> ' for href in links)
    return status, {"Content-Type": "text/html; charset=utf-8"}, (
        f"<!doctype html><html><head><title>{path}</title>{head}</head>"
        f"<body><main><p>{anchors}</p></main></body></html>").encode()


@pytest.fixture(scope="module")
def crawled(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    # exit 2: the site's one broken link
    with crawled_once(tmp_path_factory.mktemp("link-score"), _answer,
                      exit_codes=(0, 2)) as (archive, served):
        yield archive, served + "/"


def expected_graph() -> nx.DiGraph:
    """The graph the rules give, from the site's definition: pages are its 2xx URLs that
    are neither redirects nor canonicalised; a link counts for where a redirect or a
    canonical leads; each pair once; no self-links."""
    def leads(path: str) -> str | None:
        for _ in range(10):
            status, _, extra = SITE.get(path, (404, [], ""))
            if status == 301:
                path = extra
            elif extra.startswith("canonical:"):
                path = extra.split(":", 1)[1]
            elif 200 <= status <= 299:
                return path
            else:
                return None
        return None

    graph = nx.DiGraph()
    for path in SITE:
        if leads(path) == path:
            graph.add_node(path)
    for path, (_, links, _) in SITE.items():
        if leads(path) != path:
            continue
        for href in links:
            target = leads(href)
            if target is not None and target != path:
                graph.add_edge(path, target)
    return graph


def _by_path(archive: Path, base: str, **options: Any) -> dict[str, dict[str, Any]]:
    items = list_link_score(archive, limit=1000, **options)["items"]
    return {"/" + i["url"].removeprefix(base): i for i in items}


def test_link_score_is_pagerank_of_the_sites_links(crawled: tuple[Path, str]) -> None:
    archive, base = crawled
    graph = expected_graph()
    want = nx.pagerank(graph, alpha=0.85, tol=1e-12, max_iter=1000)
    got = _by_path(archive, base)
    assert set(got) == set(graph.nodes) == {"/", "/a", "/b", "/c", "/d", "/hub", "/new",
                                            "/doc.pdf"}
    for path, rank in want.items():
        assert got[path]["pageRank"] == pytest.approx(rank, rel=1e-5), path
    # the scale: the strongest page 100, the weakest 0, in PageRank's order
    ordered = sorted(got.values(), key=lambda i: -i["pageRank"])
    assert ordered[0]["linkScore"] == 100 and ordered[-1]["linkScore"] == 0
    assert [i["linkScore"] for i in ordered] == sorted(
        (i["linkScore"] for i in ordered), reverse=True)
    assert ordered[0]["url"] == base   # the home page: every page leads back to it


def test_redirects_and_canonicals_pass_on_what_they_receive(
        crawled: tuple[Path, str]) -> None:
    archive, base = crawled
    got = _by_path(archive, base)
    # the redirect and the canonicalised page have no score of their own …
    assert "/old" not in got and "/dup" not in got and "/missing" not in got
    # … their links count for their targets: /new is linked only through /old
    assert got["/new"]["inlinks"] == 2   # /hub directly, /a through the redirect
    assert got["/b"]["inlinks"] == 3     # /, /a, /hub; /b's link to /dup is to itself
    # a canonicalised page's own links are not read: /dup links /hub, /hub gains nothing
    assert got["/hub"]["inlinks"] == 1
    # repeated and self links once and never: / links /a twice and itself
    assert got["/"]["outlinks"] == 4 and got["/a"]["inlinks"] == 3
    # a noindex page is a page; a PDF is a page without links out
    assert got["/c"]["outlinks"] == 2 and got["/doc.pdf"]["outlinks"] == 0
    assert got["/"]["depth"] == 0 and got["/d"]["depth"] == 2 and got["/new"]["depth"] == 2


def test_one_page_sorts_and_callouts(crawled: tuple[Path, str]) -> None:
    archive, base = crawled
    one = list_link_score(archive, url=base + "new")
    assert one["total"] == 1 and one["items"][0]["url"] == base + "new"
    assert list_link_score(archive, url=base + "old")["total"] == 0   # a redirect: none
    by_depth = list_link_score(archive, sort_by="depth")["items"]
    assert [i["depth"] for i in by_depth] == sorted(i["depth"] for i in by_depth)
    by_url = [i["url"] for i in list_link_score(archive, sort_by="url")["items"]]
    assert by_url == sorted(by_url)
    called = list_link_score(archive, callouts=True)["items"]
    # the strongest tenth here is the home page alone, and two pages link it
    assert [(i["url"], i["callout"]) for i in called] == [
        (base, "strong from 2 linking pages")]
    assert all(i["callout"] is None for i in list_link_score(archive)["items"][1:])


def test_the_score_in_pages_and_page_detail(crawled: tuple[Path, str]) -> None:
    archive, base = crawled
    ranked = {i["url"]: i for i in list_link_score(archive, limit=1000)["items"]}
    # pages: the same scores as a column, null where a page has none (the
    # canonicalised copy, the 404; a redirect is no page of the list)
    listed = list_pages(archive, link_score=True, is_external=False, limit=1000)["items"]
    for item in listed:
        want = ranked.get(item["url"])
        assert item["linkScore"] == (want["linkScore"] if want else None), item["url"]
    assert {i["url"] for i in listed if i["linkScore"] is None} == {base + "missing",
                                                                    base + "dup"}
    # sorted by it: the strongest first, the pages without one last
    strongest = list_pages(archive, sort_by="linkScore", sort_order="desc",
                           is_external=False)["items"]
    scores = [i["linkScore"] for i in strongest]
    assert scores[0] == 100 and scores[-2:] == [None, None]
    assert scores[:-2] == sorted(scores[:-2], reverse=True)
    weakest = list_pages(archive, sort_by="linkScore", is_external=False, limit=2,
                         offset=1)["items"]
    assert [i["url"] for i in weakest] == [i["url"] for i in
                                           list_pages(archive, sort_by="linkScore",
                                                      is_external=False)["items"][1:3]]
    # page detail: the page's whole entry, or null
    detail = get_page_detail(archive, url=base + "hub", link_score=True)
    assert detail is not None
    assert detail["linkScore"] == {k: v for k, v in ranked[base + "hub"].items()
                                   if k != "url"}
    missing = get_page_detail(archive, url=base + "missing", link_score=True)
    assert missing is not None and missing["linkScore"] is None
    plain = get_page_detail(archive, url=base + "hub")
    assert plain is not None and "linkScore" not in plain


def test_the_command_line_writes_the_scores_and_refuses_bad_input(
        crawled: tuple[Path, str]) -> None:
    archive, base = crawled
    query = str(Path(sys.executable).with_name("nitpicker-query"))
    r = subprocess.run([query, "link-score", str(archive), "--format", "csv"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "linkScore,inlinks,depth,url,callout,pageRank,outlinks"
    home = nx.pagerank(expected_graph(), alpha=0.85, tol=1e-12, max_iter=1000)["/"]
    assert lines[1] == f"100,2,0,{base},strong from 2 linking pages,{home:.6g},4"
    assert len(lines) == 1 + 8
    bad = subprocess.run([query, "link-score", str(archive), "--sort-by", "colour"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and bad.stdout == ""
    assert "--sort-by" in bad.stderr and "colour" in bad.stderr
    assert len(bad.stderr.strip().splitlines()[-1:]) == 1


def test_the_viewer_shows_the_scores_strongest_first(crawled: tuple[Path, str]) -> None:
    from tests.viewer.conftest import serve
    from tests.viewer.tables import table
    from tests.viewer.test_api import get

    archive, _ = crawled
    want = list_link_score(archive)["items"]
    for served in serve(archive, []):
        status, body, _ = get(served, "/link-score")
        assert status == 200, body[:300]
        rows = table(body)
        assert [(r["URL"], r["Link score"], r["Inlinks"], r["Depth"]) for r in rows] == [
            (i["url"], str(i["linkScore"]), str(i["inlinks"]), str(i["depth"])) for i in want]
        head = body.split("<thead>", 1)[1].split("</thead>", 1)[0]
        assert re.search(r'<th scope="col" aria-sort="descending"><a [^>]*>Link score</a>',
                         head), head
        status, body, _ = get(served, "/link-score?sortBy=depth&sortOrder=desc")
        depths = [int(r["Depth"]) for r in table(body)]
        assert depths == sorted(depths, reverse=True)
        status, body, _ = get(served, "/link-score?sortBy=colour")
        assert status == 400 and "sort" in body.lower()
        # the Pages view's link score columns: each page's score, sortable strongest first
        status, body, _ = get(served, "/pages?columns=link-score&isExternal=false"
                                      "&sortBy=linkScore&sortOrder=desc")
        assert status == 200, body[:300]
        shown = [(r["URL"], r["Link score"]) for r in table(body)]
        scored = {i["url"]: str(i["linkScore"]) for i in want}
        assert all(scored.get(url, "") == score for url, score in shown), shown
        numbers = [int(score) for _u, score in shown if score]
        assert numbers == sorted(numbers, reverse=True) and numbers[0] == 100
        # the pages without a score (the 404, the canonicalised copy) come last
        assert [score for _u, score in shown[len(numbers):]] == ["", ""]
