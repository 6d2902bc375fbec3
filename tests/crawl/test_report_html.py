"""``nitpicker-query report --format html`` on a real capped crawl of TrapZoo (its traps,
broken links, redirects, duplicates and templates): every count on the page against the
query that defines it, the rows a reader sees, the page opened in Chromium from
``file://`` with the network off (no request, axe clean, a phone's 390 px with no
sideways scrolling), hostile values inert, the same page from the crawl's 0.13
conversion, and bad input changing nothing."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from selectolax.lexbor import LexborHTMLParser

import nitpicker_query as q
from nitpicker_crawl.archive import ArchiveWriter
from nitpicker_query.report import html_report, write_report
from tests.crawl.conftest import Crawl, run_crawl
from tests.viewer import conftest as viewer_conftest

QUERY = str(Path(sys.executable).with_name("nitpicker-query"))
browser = viewer_conftest.browser   # the viewer tests' Chromium, as a fixture here


def _report(archive: Path, out: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([QUERY, "report", str(archive), "-o", str(out), *args],
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def page(capped_plain: Crawl, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("html") / "site.html"
    r = _report(capped_plain.archive, out)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == f"wrote {out}"
    return out


def _sections(path: Path) -> dict[str, dict[str, Any]]:
    """Each section as a reader sees it: the count in its heading, the glance badge, the
    table's cells by column header, and its text."""
    tree = LexborHTMLParser(path.read_text(encoding="utf-8"))
    badges = {a.attributes["href"][1:]: a.parent.css_first(".badge").text()
              for a in tree.css("ul.glance li a") if a.parent is not None}
    out = {}
    for section in tree.css("main > section"):
        h2 = section.css_first("h2")
        assert h2 is not None
        key = h2.attributes["id"] or ""
        count = h2.css_first(".count")
        headers = [th.text() for th in section.css("table.rows thead th")]
        rows = [dict(zip(headers, [td.text() for td in tr.css("td")], strict=True))
                for tr in section.css("table.rows tbody tr")]
        out[key] = {"count": int(count.text().replace(",", "")) if count else None,
                    "badge": badges.get(key), "rows": rows, "text": section.text()}
    return out


EXPECTED_SECTIONS = ["glance", "overview", "broken-links", "error-pages", "redirects",
                     "missing-title", "missing-description", "duplicate-titles",
                     "duplicate-descriptions", "identical-bodies", "cap-events",
                     "duplicate-clusters", "templates", "violations"]


def test_every_count_is_the_querys(page: Path, capped_plain: Crawl) -> None:
    archive = capped_plain.archive
    seen = _sections(page)
    assert list(seen) == EXPECTED_SECTIONS
    expected = {
        "broken-links": q.list_links(archive, type="broken", limit=1)["total"],
        "error-pages": q.list_pages(archive, status_min=400, is_external=False,
                                    limit=1)["total"],
        "redirects": q.list_pages(archive, redirects=True, is_external=False,
                                  limit=1)["total"],
        "missing-title": q.list_pages(archive, missing="title", indexable=True,
                                      limit=1)["total"],
        "duplicate-titles": q.find_duplicates(archive, field="title", limit=1)["total"],
        "duplicate-descriptions": q.find_duplicates(archive, field="description",
                                                    limit=1)["total"],
        "identical-bodies": q.find_duplicate_bodies(archive, limit=1)["total"],
        "cap-events": q.list_dedupe_cap_events(archive, limit=1)["total"],
        "duplicate-clusters": q.get_duplicate_clusters(archive, limit=1)["total"],
        "templates": q.get_template_clusters(archive, limit=1)["total"],
    }
    # the trap site has each kind of issue, so each number below is a real count
    assert all(expected[k] for k in ("broken-links", "error-pages", "redirects",
                                     "duplicate-titles", "cap-events", "templates"))
    for key, total in expected.items():
        assert seen[key]["count"] == total, key
        assert seen[key]["badge"] == f"{total:,}", key
        assert len(seen[key]["rows"]) == min(total, html_report.ROWS), key
    assert seen["violations"]["badge"] == "not run"
    assert "never analysed" in seen["violations"]["text"]
    assert "None found." in seen["missing-title"]["text"]


def test_the_rows_a_reader_reads(page: Path, capped_plain: Crawl) -> None:
    archive = capped_plain.archive
    seen = _sections(page)
    links = q.list_links(archive, type="broken", sort_by="destUrl", limit=100)["items"]
    assert [(r["On page"], r["Target"], r["Status"]) for r in seen["broken-links"]["rows"]] \
        == [(i["sourceUrl"], i["destUrl"], str(i["status"])) for i in links]
    hops = {r["URL"]: r for r in seen["redirects"]["rows"]}
    for item in q.list_pages(archive, redirects=True, is_external=False)["items"]:
        assert hops[item["url"]]["Ends at"] == item["finalUrl"]
        assert hops[item["url"]]["Kind"] == item["redirectKind"]
    events = q.list_dedupe_cap_events(archive)["items"]
    assert [(r["URL shape"], r["URLs refused"]) for r in seen["cap-events"]["rows"]] == [
        (e["shapeKey"], f"{e['rejectedCount']:,}") for e in events]
    biggest = q.find_duplicates(archive, field="title", limit=1)["items"][0]
    first = seen["duplicate-titles"]["rows"][0]
    assert (first["Title"], first["Pages"]) == (biggest["value"], f"{biggest['count']:,}")
    if biggest["count"] > html_report.URLS_PER_CELL:
        assert first["Pages (first)"].endswith(
            f"and {biggest['count'] - html_report.URLS_PER_CELL:,} more")
    summary = q.get_summary(archive)
    overview = _sections(page)["overview"]["text"]
    assert f"{summary['totals']['htmlPages']:,}" in overview
    assert summary["baseUrl"] in overview


def test_a_long_list_names_the_command_that_lists_it_all(
        capped_plain: Crawl, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(html_report, "ROWS", 2)
    out = tmp_path / "short.html"
    write_report(capped_plain.archive, out)
    seen = _sections(out)
    total = seen["cap-events"]["count"]
    assert total is not None and total > 2
    assert len(seen["cap-events"]["rows"]) == 2
    command = f"nitpicker-query dedupe-cap-events {capped_plain.archive.name} --format csv"
    assert f"The first 2 of {total:,}; all of them: {command}" in seen["cap-events"]["text"]
    r = subprocess.run([QUERY, *command.split()[1:]], capture_output=True, text=True,
                       cwd=capped_plain.archive.parent, timeout=60)
    assert r.returncode == 0, r.stderr
    assert len(r.stdout.splitlines()) == total + 1   # the command lists every one


def test_opens_offline_from_file_accessible_and_fits_a_phone(page: Path,
                                                             browser: Any) -> None:
    from axe_playwright_python.sync_playwright import Axe

    for width in (1280, 390):
        context = browser.new_context(viewport={"width": width, "height": 800},
                                       offline=True)
        tab = context.new_page()
        requests: list[str] = []
        tab.on("request", lambda r, seen=requests: seen.append(r.url))
        errors: list[str] = []
        tab.on("console", lambda m, seen=errors: seen.append(m.text)
               if m.type == "error" else None)
        tab.goto(page.as_uri())
        assert requests == [page.as_uri()]   # nothing else asked for, not even a favicon
        assert errors == []
        headings = tab.locator("main h2").all_inner_texts()
        assert [h.split(":")[0] for h in headings[:3]] == ["At a glance", "The crawl",
                                                          "Broken links"]
        assert tab.evaluate("document.documentElement.scrollWidth") <= width
        results = Axe().run(tab)
        assert [(v["id"], v["impact"]) for v in results.response["violations"]] == [], width
        if width == 390:   # a row is a card: its cells say what they are
            card = tab.locator("#broken-links ~ table.rows tbody tr").first
            label = card.locator("td").first.evaluate(
                "td => getComputedStyle(td, '::before').content")
            assert label == '"On page"'
        context.close()


HOSTILE = "<script>window.__x=1</script><img src=x onerror=alert(1)>"


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("hostile-html")
    base = "http://localhost/"
    w = ArchiveWriter.create(d / "evil.nitpicker", roots=[base])
    page = {"scraped": 1, "isTarget": 1, "isExternal": 0, "status": 200,
            "contentType": "text/html", "isSkipped": 0}
    home = w.save_page(base, page, title="home")
    for n in range(3):
        w.save_page(f"{base}p/{n}?\"><svg onload=alert(3)>", page, title=HOSTILE,
                    description="d" * 50_000)
    w.save_page(base + "gone", {**page, "status": 404}, title=HOSTILE)
    w.replace_anchors(home, [(base + "gone", None, HOSTILE),
                             ("javascript:alert(5)", None, "js")])
    return w.close()


def test_hostile_values_are_text(hostile: Path, tmp_path: Path, browser: Any) -> None:
    out = tmp_path / "evil.html"
    r = _report(hostile, out)
    assert r.returncode == 0, r.stderr
    text = out.read_text(encoding="utf-8")
    tree = LexborHTMLParser(text)
    assert tree.css("script, img, svg, iframe, object, embed") == []
    assert all(a.attributes["href"].startswith(("#", "http://", "https://"))
               for a in tree.css("a"))
    assert "&lt;script&gt;window.__x=1" in text
    # a 50,000-character description is one cell of at most MAX_CELL characters
    cells = [td.text() for td in tree.css("#duplicate-descriptions ~ table td")]
    assert cells and max(len(c) for c in cells) <= html_report.MAX_CELL
    context = browser.new_context(offline=True)
    tab = context.new_page()
    dialogs: list[str] = []
    tab.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    tab.goto(out.as_uri())
    assert tab.evaluate("window.__x") is None and dialogs == []
    context.close()


def test_the_0_13_conversion_says_the_same(capped_plain: Crawl, page: Path,
                                           tmp_path: Path) -> None:
    converted = tmp_path / "site-0.13.nitpicker"
    r = run_crawl(tmp_path, "convert", str(capped_plain.archive), "--to", "0.13", "-o",
                  str(converted))
    assert r.returncode == 0, r.stderr
    out = tmp_path / "site.html"
    assert _report(converted, out).returncode == 0
    ours, theirs = _sections(page), _sections(out)
    assert {k: v["count"] for k, v in theirs.items()} == {k: v["count"]
                                                          for k, v in ours.items()}
    assert theirs["broken-links"]["rows"] == ours["broken-links"]["rows"]


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_bad_input_is_one_line_and_changes_nothing(hostile: Path, tmp_path: Path) -> None:
    before = _sha(hostile)
    cases = [
        (["-o", str(tmp_path), "--format", "html"], "is a directory: give the page's file"),
        (["-o", str(tmp_path / "r.txt"), "--format", "html"],
         "r.txt is not an .html file name: --format html writes one page"),
        (["-o", str(tmp_path / "r.html"), "--sheets", "Links"],
         "--sheets chooses the workbook's or the CSV files' sheets"),
        (["-o", str(tmp_path / "r.html"), "--compare", str(hostile)],
         "--compare writes sheets: use --format xlsx or csv"),
    ]
    for args, message in cases:
        r = subprocess.run([QUERY, "report", str(hostile), *args], capture_output=True,
                           text=True, timeout=60)
        assert r.returncode == 2 and r.stdout == "", (args, r.stdout)
        lines = r.stderr.splitlines()
        assert len(lines) == 1 and message in lines[0], (args, r.stderr)
    assert _sha(hostile) == before
    assert list(tmp_path.iterdir()) == []


def test_the_file_name_chooses_the_format(hostile: Path, tmp_path: Path) -> None:
    """``-o x.html`` writes the page and ``-o x.xlsx`` the workbook, no --format needed."""
    assert _report(hostile, tmp_path / "r.HTML").returncode == 0
    assert (tmp_path / "r.HTML").read_bytes().startswith(b"<!doctype html>")
    assert _report(hostile, tmp_path / "r.xlsx").returncode == 0
    assert (tmp_path / "r.xlsx").read_bytes()[:2] == b"PK"


def test_a_failure_half_way_leaves_the_old_page(hostile: Path, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "site.html"
    out.write_bytes(b"last week's page")

    def broken(a: Any) -> Any:
        raise KeyboardInterrupt   # Ctrl-C while the templates are read

    monkeypatch.setattr(html_report, "_templates", broken)
    with pytest.raises(KeyboardInterrupt):
        write_report(hostile, out)
    assert out.read_bytes() == b"last week's page"
    assert [p.name for p in tmp_path.iterdir()] == ["site.html"]
