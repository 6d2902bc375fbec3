"""Comparing two crawls (issue 41) on a site served before and after a release, written
apart from the comparison by a helper briefed with the edits only
(``corpora/edited_site.py``): every edit is found where it belongs, nothing else is
reported but what the edits themselves change, both directions, across formats, with a
URL map, and a shorter second crawl never reports the pages it missed as removed."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from corpora import edited_site as site
from nitpicker_query.queries.compare import compare_archives

from .conftest import run_crawl


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def crawls(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """old and new on one port (URLs compare as they are), new again on another port (a
    move: --map), and a second crawl stopped by --max-pages."""
    directory = tmp_path_factory.mktemp("compare")
    port = _free_port()
    found: dict[str, Any] = {"dir": directory}
    for name, version, at, extra in (("old", "old", port, ()), ("new", "new", port, ()),
                                     ("short", "new", port, ("--max-pages", "20")),
                                     ("moved", "new", _free_port(), ())):
        with site.serve(version, port=at) as base:
            r = run_crawl(directory, base, "-o", f"{name}.nitpicker", "--no-render",
                          "--silent", *extra)
            assert r.returncode in (0, 2, 3), r.stderr   # 2: the two external links
            found[f"{name}_base"] = base
        found[name] = directory / f"{name}.nitpicker"
    r = run_crawl(directory, "convert", str(found["new"]), "--to", "0.13", "-o",
                  str(directory / "new-013.nitpicker"))
    assert r.returncode == 0, r.stderr
    found["new013"] = directory / "new-013.nitpicker"
    yield found


def _rows(new: Path, old: Path, kind: str, **options: Any) -> list[dict[str, Any]]:
    return compare_archives(new, old=old, kind=kind, limit=1000, **options)["items"]


def _path(url: str) -> str:
    return urlsplit(url).path or "/"


FIELD_OF = {"title": "title", "description": "description", "h1": "h1",
            "canonical": "canonical", "og_title": "ogTitle", "jsonld_type": "jsonldTypes",
            "depth": "depth", "outlink_added": "outlinks"}


def test_every_edit_is_found_where_it_belongs(crawls: dict[str, Any]) -> None:
    old, new = crawls["old"], crawls["new"]
    changed = {(_path(r["url"]), r["field"]): r for r in _rows(new, old, "changed")}
    removed = {_path(r["url"]): r for r in _rows(new, old, "removed")}
    added = {_path(r["url"]): r for r in _rows(new, old, "added")}
    links = {(r["change"], _path(r["source"]), _path(r["target"]))
             for r in _rows(new, old, "broken-links")}
    for edit in site.EDITS:
        path, kind = edit["path"], edit["kind"]
        if kind in FIELD_OF:
            row = changed[(path, FIELD_OF[kind])]
            if kind in ("title", "description", "h1", "og_title"):
                assert (row["old"], row["new"]) == (edit["old"], edit["new"]), edit
        elif kind == "noindex":
            assert changed[(path, "indexable")]["new"] == "no: noindex"
        elif kind == "content":
            assert (path, "wordCount") in changed and (path, "bodyHash") in changed
        elif kind == "header":
            assert (path, "cacheControl") in changed or (path, "securityHeaders") in changed
        elif kind == "status_404":
            assert removed[path]["reason"] == "now 404"
        elif kind == "status_410":
            assert removed[path]["reason"] == "now 410"
        elif kind == "redirect":
            assert removed[path]["reason"] == "now redirects"
            assert _path(removed[path]["redirectTo"]) == "/products/birch-t2"
        elif kind == "unlinked":
            assert removed[path]["reason"] == "no longer linked"
        elif kind == "added":
            assert _path(added[path]["linkedFrom"]) == "/docs/guides/"
        elif kind == "broken_link_added":
            assert ("new", path, "/docs/reference/rate-limits") in links
        elif kind == "broken_link_fixed":
            assert ("fixed", path, "/docs/getting-started/instalation") in links
        else:
            raise AssertionError(f"an edit kind this test does not know: {kind}")
    # the other way: nothing but the edits and what they change themselves
    edited = {e["path"] for e in site.EDITS} | set(site.INHERENT)
    for (path, field), row in changed.items():
        if field in ("inlinks",):
            continue  # links to a page come and go with the pages around it
        assert path in edited or field == "depth", row
    assert set(removed) == {e["path"] for e in site.EDITS if e["kind"] in (
        "status_404", "status_410", "redirect", "unlinked")}
    assert set(added) == {"/docs/guides/webhooks"}
    assert _rows(new, old, "not-comparable") == []


def test_the_other_direction_reads_the_edits_backwards(crawls: dict[str, Any]) -> None:
    old, new = crawls["old"], crawls["new"]
    back = {(_path(r["url"]), r["field"]): r for r in _rows(old, new, "changed")}
    row = back[("/products/gale-wind", "title")]
    assert row["old"] == "Gale Wind Anemometer and Vane | Fernhill Instruments"
    assert row["new"] == "Gale Wind Anemometer | Fernhill Instruments"
    assert back[("/docs/reference/csv-export", "depth")] == {
        "url": crawls["old_base"] + "docs/reference/csv-export", "field": "depth",
        "old": 1, "new": 3}
    removed = {_path(r["url"]): r["reason"] for r in _rows(old, new, "removed")}
    assert removed == {"/docs/guides/webhooks": "no longer linked"}
    added = {_path(r["url"]) for r in _rows(old, new, "added")}
    # the unlinked page is linked again; the 404 and 410 pages answer 200 again
    assert added == {"/products/moss-relay", "/blog/winter-offsite-2022",
                     "/products/ivy-leaf"}
    # a redirect that became a page again is a change of status
    assert (back[("/products/birch-t1", "status")]["old"],
            back[("/products/birch-t1", "status")]["new"]) == (301, 200)


def test_a_shorter_second_crawl_reports_nothing_it_missed_as_removed(
        crawls: dict[str, Any]) -> None:
    summary = compare_archives(crawls["short"], old=crawls["old"])
    assert summary["new"]["stopReason"] == "max-pages" and not summary["comparable"]
    assert any("did not complete (max-pages)" in note for note in summary["notes"])
    reasons = {r["reason"] for r in _rows(crawls["short"], crawls["old"], "removed")}
    assert "no longer linked" not in reasons
    missing = _rows(crawls["short"], crawls["old"], "not-comparable")
    assert len(missing) >= 40 and {r["side"] for r in missing} <= {"old only", "both"}
    # the other direction: the longer crawl as the new one is not "added" pages either
    assert _rows(crawls["old"], crawls["short"], "added") == []
    assert len(_rows(crawls["old"], crawls["short"], "not-comparable")) >= 40


def test_a_013_archive_compares_as_its_010_original(crawls: dict[str, Any]) -> None:
    plain = compare_archives(crawls["new"], old=crawls["old"])
    across = compare_archives(crawls["new013"], old=crawls["old"])
    assert across["counts"] == plain["counts"]
    assert across["changedFields"] == plain["changedFields"]
    assert across["comparable"] and "formats differ" in across["notes"][0]
    # the same crawl in the other format: nothing changed, nothing missing
    same = compare_archives(crawls["new013"], old=crawls["new"])
    assert set(same["counts"].values()) == {0} and same["changedFields"] == {}


def test_a_moved_site_matches_through_a_map(crawls: dict[str, Any]) -> None:
    old, moved = crawls["old"], crawls["moved"]
    apart = compare_archives(moved, old=old)
    assert apart["counts"]["changed"] == 0 and apart["counts"]["removed"] == 0
    # the summary says why, and the rule that would match them
    rule = f"{crawls['old_base']}={crawls['moved_base']}"
    assert (f"the crawls start on different sites ({crawls['old_base'][:-1]} and "
            f"{crawls['moved_base'][:-1]}): no URL matches unless mapped, e.g. "
            f"--map '{rule}'") in apart["notes"]
    assert apart["counts"]["not-comparable"] >= 130   # every page, once from each side
    mapped = compare_archives(moved, old=old, maps=rule)
    plain = compare_archives(crawls["new"], old=old)
    assert mapped["counts"]["removed"] == plain["counts"]["removed"] == 4
    assert mapped["counts"]["added"] == plain["counts"]["added"] == 1
    assert mapped["counts"]["not-comparable"] == 0
    titles = _rows(moved, old, "changed", field="title", maps=rule)
    assert [(_path(r["url"]), r["new"]) for r in titles] == [
        ("/products/gale-wind", "Gale Wind Anemometer and Vane | Fernhill Instruments")]


def _query(*args: str, tmp: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **({"TMPDIR": str(tmp)} if tmp else {})}
    return subprocess.run([str(Path(sys.executable).with_name("nitpicker-query")), *args],
                          capture_output=True, text=True, timeout=120, env=env)


def test_the_command_line_prints_the_lists_and_refuses_bad_input(
        crawls: dict[str, Any]) -> None:
    old, new = str(crawls["old"]), str(crawls["new"])
    scratch = crawls["dir"] / "scratch"
    scratch.mkdir()
    r = _query("compare", old, new, "--kind", "removed", "--format", "csv", tmp=scratch)
    assert r.returncode == 0, r.stderr
    assert list(scratch.iterdir()) == []   # the comparison database went with the process
    lines = r.stdout.splitlines()
    assert lines[0] == "url,reason,oldStatus,newStatus,redirectTo"
    assert f"{crawls['old_base']}products/ivy-leaf,now 410,200,410," in lines
    r = _query("compare", old, new, "--format", "table")
    assert r.returncode == 0 and "changedFields" in r.stdout and "removed" in r.stdout
    bad = _query("compare", old, new, "--map", "no-equals-sign")
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip() == ("nitpicker-query: error: map: expected OLD=NEW (a URL "
                                  "prefix, or /regex/=new), got 'no-equals-sign'")
    gone = _query("compare", str(crawls["dir"] / "nope.nitpicker"), new)
    assert gone.returncode == 1 and "nope.nitpicker" in gone.stderr
    assert len(gone.stderr.strip().splitlines()) == 1
    field = _query("compare", old, new, "--kind", "changed", "--field", "colour")
    assert field.returncode == 2 and "--field" in field.stderr


def test_the_viewer_lists_the_changes_of_an_archive_beside_it(crawls: dict[str, Any]) -> None:
    """The Changes view: the old crawl chosen among the archives beside (inside the roots);
    the summary first — the two crawls, a row per list and per changed field, each a link
    — then each list, cell by cell, under the same counts."""
    from tests.viewer.conftest import serve
    from tests.viewer.tables import table, tables
    from tests.viewer.test_api import get

    summary = compare_archives(crawls["new"], old=crawls["old"])
    for served in serve(None, [crawls["dir"]]):
        status, body, _ = get(served, "/compare?a=new.nitpicker")
        assert status == 200, body[:300]
        assert "Choose the older crawl to compare this one with" in body
        picks = re.search(r'<select name="old" required>(.*?)</select>', body, re.S)
        assert picks is not None
        choices = re.findall(r"<option[^>]*>([^<]*)</option>", picks.group(1))
        assert "old.nitpicker" in choices and "new.nitpicker" not in choices

        status, body, _ = get(served, "/compare?a=new.nitpicker&old=old.nitpicker")
        assert status == 200, body[:300]
        crawled, lists, fields = tables(body)
        assert crawled[1] == ["Archive", "old.nitpicker", "new.nitpicker"]
        assert crawled[3] == ["Ended", "complete", "complete"]
        assert lists[1:] == [[label, f"{summary['counts'][kind]:,}"] for kind, label in (
            ("changed", "Changed"), ("added", "Added"), ("removed", "Removed"),
            ("not-comparable", "Not comparable"),
            ("broken-links", "Broken links, new and fixed"),
            ("clusters", "Trap events and duplicate clusters, new and gone"))]
        assert dict((f, int(n.replace(",", ""))) for f, n in fields[1:]) == \
            summary["changedFields"]
        assert "Both crawls completed" in body

        status, body, _ = get(served, "/compare?a=new.nitpicker&old=old.nitpicker"
                                      "&kind=removed")
        assert status == 200, body[:300]
        rows = {r["URL"].removeprefix(crawls["old_base"]): r for r in table(body)}
        assert rows["products/ivy-leaf"]["Reason"] == "now 410"
        assert rows["products/moss-relay"]["Reason"] == "no longer linked"
        assert len(rows) == 4
        nav = re.sub(r"<[^>]+>", "", re.search(r'<nav class="compare-nav".*?</nav>', body,
                                                re.S).group(0))
        assert "Removed (4)" in nav and f"Added ({summary['counts']['added']})" in nav
        status, body, _ = get(served, "/compare?a=new.nitpicker&old=old.nitpicker&kind="
                                      "&field=title")
        assert status == 200
        assert [(r["Field"], r["New"]) for r in table(body)] == [
            ("title", "Gale Wind Anemometer and Vane | Fernhill Instruments")]
        status, body, _ = get(served, "/compare?a=new.nitpicker&old=../../etc/passwd")
        assert status == 403 and "outside the allowed roots" in body


def test_the_report_adds_the_changes_as_sheets(crawls: dict[str, Any]) -> None:
    out = crawls["dir"] / "changes-csv"
    r = _query("report", str(crawls["new"]), "-o", str(out), "--format", "csv",
               "--sheets", "Summary", "--compare", str(crawls["old"]))
    assert r.returncode == 0, r.stderr
    assert "  Removed: 4 rows" in r.stdout and "  Added: 1 rows" in r.stdout
    removed = (out / "removed.csv").read_text(encoding="utf-8-sig").splitlines()
    base = crawls["old_base"]
    assert removed == ["URL,Reason,Old Status,New Status,Redirects To",
                       f"{base}blog/winter-offsite-2022,now 404,200,404,",
                       f"{base}products/birch-t1,now redirects,200,301,{base}products/birch-t2",
                       f"{base}products/ivy-leaf,now 410,200,410,",
                       f"{base}products/moss-relay,no longer linked,200,,"]
    summary = (out / "changes-summary.csv").read_text(encoding="utf-8-sig").splitlines()
    assert "comparable,yes" in summary and "rows: removed,4" in summary
    # the old archive is read, never written: a report onto it is refused, nothing made
    refused = _query("report", str(crawls["new"]), "-o", str(crawls["old"]),
                     "--compare", str(crawls["old"]))
    assert refused.returncode != 0 and "is the archive itself" in refused.stderr


def test_a_page_only_nofollow_links_lead_to_is_removed_and_back_added(
        tmp_path: Path) -> None:
    """A page the new crawl met only on rel=nofollow links was not followed: it is no
    longer part of the linked site (removed, said so), not a page of unknown fate; the
    other way round it is added. MediaWiki links a deleted article so (its deletion log)."""
    from .conftest import SiteHandler, local_site

    rel = {"v": ""}

    class Site(SiteHandler):
        def do_GET(self) -> None:
            if self.path == "/":
                self.answer(200, f"<title>Home</title><a href='/a' {rel['v']}>A</a>"
                                 "<a href='/b'>B</a>")
            elif self.path in ("/a", "/b"):
                self.answer(200, f"<title>{self.path}</title><a href='/'>home</a>")
            else:
                self.answer(404, "<title>gone</title>")

    bases = {}
    for name, value in (("plain", ""), ("nofollow", "rel=nofollow")):
        rel["v"] = value
        with local_site(Site) as base:
            r = run_crawl(tmp_path, base, "-o", f"{name}.nitpicker", "--no-render", "--silent")
            assert r.returncode == 0, r.stderr
            bases[name] = base
    rule = f"{bases['plain']}={bases['nofollow']}"
    plain, nofollow = tmp_path / "plain.nitpicker", tmp_path / "nofollow.nitpicker"
    removed = _rows(nofollow, plain, "removed", maps=rule)
    assert [(_path(r["url"]), r["reason"]) for r in removed] == [
        ("/a", "only nofollow links now")]
    assert _rows(nofollow, plain, "not-comparable", maps=rule) == []
    back = f"{bases['nofollow']}={bases['plain']}"
    added = _rows(plain, nofollow, "added", maps=back)
    assert [_path(r["url"]) for r in added] == ["/a"]
    assert _path(added[0]["linkedFrom"]) == "/"
