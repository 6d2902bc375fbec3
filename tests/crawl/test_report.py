"""``nitpicker-query report`` on a real rendered crawl of TrapZoo: the workbook read back
with openpyxl (a second implementation of the format), each sheet's header and rows
against the query that defines them, the cells a user reads, the CSV bytes, and bad
input changing nothing."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path
from typing import Any

import openpyxl
import pytest

import nitpicker_query as q
from nitpicker_crawl.archive import ArchiveWriter
from nitpicker_query.report import SHEET_NAMES, write_report
from nitpicker_query.report import build as report_build
from nitpicker_query.report import page_sheets as report_page_sheets
from tests.crawl.conftest import Crawl

QUERY = str(Path(sys.executable).with_name("nitpicker-query"))
HEADERS = {
    "Links": ["URL", "Page Title", "Status Code", "Status Text", "Content Type",
              "Redirect From", "Referrers", "Headers", "Remarks"],
    "Resources": ["URL", "Status Code", "Status Text", "Content Type", "Content Length",
                  "Referrers"],
    "Violations": ["Validator", "Severity", "Rule", "Code", "Message", "URL"],
    "Discrepancies": ["Type", "Left URL", "Left", "Right", "Right URL", "Note"],
    "Referrers Relational Table": ["Link (To)", "Referrer (From)", "Referrer Content",
                                   "Count", "Link Status Code", "Link Status Text",
                                   "Link Content Type"],
    "Resources Relational Table": ["Referred Page (From)", "Resource (To)",
                                   "Resource Status Code", "Resource Status Text",
                                   "Resource Content Type", "Resource Size"],
}


def _rows(book: Any, name: str) -> list[dict[str, Any]]:
    sheet = book[name]
    values = list(sheet.iter_rows(values_only=True))
    return [dict(zip(values[0], r, strict=True)) for r in values[1:]]


@pytest.fixture(scope="module")
def workbook(rendered_crawl: Crawl, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report") / "site.xlsx"
    r = subprocess.run([QUERY, "report", str(rendered_crawl.archive), "-o", str(out)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == f"wrote {out}"
    return out


def test_every_sheet_has_upstreams_header_and_the_querys_rows(
        workbook: Path, rendered_crawl: Crawl) -> None:
    archive = rendered_crawl.archive
    book = openpyxl.load_workbook(workbook, read_only=True)
    assert book.sheetnames == list(SHEET_NAMES)
    for name, header in HEADERS.items():
        assert [c.value for c in next(book[name].iter_rows(max_row=1))] == header, name
    page_header = [c.value for c in next(book["Page List"].iter_rows(max_row=1))]
    assert page_header[:16] == ["Title", "Full Title", "URL", "Protocol", "Domain",
                                *(f"path{n}" for n in range(1, 11)), "Status Code"]
    assert "main_content_word_count" in page_header  # recorded by this crawl
    expected = {
        "Page List": q.list_pages(archive, is_external=False, limit=1)["total"],
        "Links": sum(q.get_summary(archive)["totals"][k] for k in ("urls", "queuedUrls")),
        "Resources": q.list_resources(archive, limit=1)["total"],
        "Images": q.list_images(archive, limit=1)["total"],
        "Discrepancies": sum(q.find_mismatches(archive, type=t, limit=1)["total"]
                             for t in ("canonical", "og:title", "og:description")),
        "Resources Relational Table": sum(
            r["referrerCount"] for r in q.list_resources(archive, limit=1000)["items"]),
    }
    assert all(expected.values()), expected
    for name, count in expected.items():
        assert len(_rows(book, name)) == count, name
    # never analysed: one line saying so, not an empty sheet that looks like "no problems"
    assert _rows(book, "Violations")[0]["Validator"].startswith("This archive was never")


def test_the_cells_a_reader_looks_at(workbook: Path, rendered_crawl: Crawl) -> None:
    base = q.get_summary(rendered_crawl.archive)["baseUrl"]
    book = openpyxl.load_workbook(workbook)  # full mode: links, panes, filters, formats
    pages = _rows(book, "Page List")
    home = next(p for p in pages if p["URL"] == base)
    assert (home["Title"], home["Status Code"], home["Protocol"], home["path1"]) == \
        ("TrapZoo", 200, "http:", "/")
    # /missing (404), /error (500), /about#team (404); the excluded traps are not bad
    assert (home["Internal Bad Links"], home["External Bad Links"]) == (3, 0)
    links_page = next(p for p in pages if p["URL"] == base + "links/")
    assert links_page["External Bad Links"] == 1   # the second origin's /gone
    faq = next(p for p in pages if p["URL"] == base + "support/faq/")
    assert (faq["path1"], faq["path2"], faq["path3"]) == ("/support", "/faq", "/")
    detail = q.get_page_main_contents(rendered_crawl.archive, url=base + "support/faq/")
    assert faq["main_content_word_count"] == detail["wordCount"]
    assert faq["main_content_heading_count"] == detail["counts"]["headings"]
    sheet = book["Page List"]
    assert sheet.freeze_panes == "B2"
    assert sheet.auto_filter.ref == f"A1:{sheet.cell(1, sheet.max_column).column_letter}" \
        f"{sheet.max_row}"
    url_cell = next(c for c in sheet["C"] if c.value == base)
    assert url_cell.hyperlink is not None and url_cell.hyperlink.target == base
    bad = next(c.column_letter for c in sheet[1] if c.value == "Internal Bad Links")
    rules = {str(r.sqref) for r in sheet.conditional_formatting}
    assert f"{bad}2:{bad}{sheet.max_row}" in rules  # shown white on red when not 0
    links = _rows(book, "Links")
    missing = next(r for r in links if r["URL"] == base + "missing")
    assert (missing["Status Code"], missing["Referrers"]) == (404, "1 Elements")
    skipped = next(r for r in links if r["Remarks"])
    assert skipped["Page Title"] == "-" and skipped["Status Code"] == -1
    pairs = _rows(book, "Referrers Relational Table")
    to_missing = [r for r in pairs if r["Link (To)"] == base + "missing"]
    assert [(r["Referrer (From)"], r["Count"], r["Link Status Code"]) for r in to_missing] == \
        [(base, 1, 404)]
    resources = [r["URL"] for r in _rows(book, "Resources")]
    assert resources == sorted(resources, key=report_build.natural_key)


def test_csv_directory_bytes(rendered_crawl: Crawl, tmp_path: Path) -> None:
    out = tmp_path / "csv"
    r = subprocess.run([QUERY, "report", str(rendered_crawl.archive), "-o", str(out),
                        "--format", "csv", "--sheets", "links, page-list"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in out.iterdir()) == ["links.csv", "page-list.csv"]
    data = (out / "links.csv").read_bytes()
    assert data.startswith(b"\xef\xbb\xbfURL,Page Title,Status Code,Status Text,Content Type,"
                           b"Redirect From,Referrers,Headers,Remarks\r\n")
    links = data.count(b"\r\nhttp")  # each row starts with its URL
    pages = q.list_pages(rendered_crawl.archive, is_external=False)["total"]
    assert r.stdout.splitlines()[1:] == [f"  Page List: {pages:,} rows",
                                         f"  Links: {links:,} rows"]


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Values a stranger controls: a formula for a title, control characters, a huge
    header, resources differing only in their query values."""
    d = tmp_path_factory.mktemp("hostile")
    base = "http://localhost"
    w = ArchiveWriter.create(d / "hostile.nitpicker", roots=[base + "/"])
    page = {"scraped": 1, "isTarget": 1, "isExternal": 0, "status": 200,
            "contentType": "text/html", "isSkipped": 0}
    w.save_page(base + "/", page, title="=HYPERLINK(\"http://evil.test\",\"x\")")
    w.save_page(base + "/ctl", {**page, "responseHeaders": '{"x": "' + "y" * 40000 + '"}'},
                title="bell\x07 and nul\x00 end")
    conn = w.conn
    for n, (url, length) in enumerate((("/a.js?v=1", 100), ("/a.js?v=2", 200),
                                       ("/a.js?v=2&x=1", 150), ("/b.css", 10)), 1):
        conn.execute("INSERT INTO resources (id, url, isExternal, status, statusText, "
                     "contentType, contentLength) VALUES (?, ?, 0, 200, 'OK', 'text/plain', "
                     "?)", (n, base + url, length))
        conn.execute('INSERT INTO "resources-referrers" (resourceId, pageId) VALUES (?, 1)',
                     (n,))
    conn.execute('INSERT INTO "resources-referrers" (resourceId, pageId) VALUES (2, 2)')
    return w.close()


def test_hostile_values_stay_values(hostile: Path, tmp_path: Path) -> None:
    out = tmp_path / "h.xlsx"
    write_report(hostile, out, dedupe_resources=True)
    book = openpyxl.load_workbook(out)
    title = book["Page List"]["B2"]
    assert title.data_type == "s" and title.value.startswith("=HYPERLINK")
    control = book["Page List"]["B3"].value  # XML holds no \x07: Excel's escape
    assert control.startswith("bell") and control.endswith(" end"), control
    headers = _rows(book, "Links")[1]["Headers"]
    assert len(headers) == 32_000  # cut to what a cell holds
    grouped = _rows(book, "Resources")
    assert [(g["URL"], g["Count"], g["Content Length"], g["Referrers"], g["Query Pattern"])
            for g in grouped] == [
        ("http://localhost/a.js?v", 2, "100-200", "2 pages", "v=2"),
        ("http://localhost/a.js?v&x", 1, "150", "1 pages", "v=1, x=1"),
        ("http://localhost/b.css", 1, "10", "1 pages", None)]
    csv_dir = tmp_path / "csv"
    write_report(hostile, csv_dir, fmt="csv", sheets=["Page List"])
    line = (csv_dir / "page-list.csv").read_text(encoding="utf-8-sig").splitlines()[1]
    assert line.startswith("\"'=HYPERLINK(\"\"http://evil.test\"\",\"\"x\"\")\",")


def test_a_url_never_fetched_is_a_links_row_that_says_so(tmp_path: Path) -> None:
    """A crawl stopped early (--max-pages, Ctrl-C) leaves URLs found and never fetched:
    Links lists them with the remark, the Summary counts them apart from the URLs done,
    and a fetched URL has no such remark."""
    base = "http://localhost"
    w = ArchiveWriter.create(tmp_path / "stopped.nitpicker", roots=[base + "/"])
    w.save_page(base + "/", {"scraped": 1, "isTarget": 1, "isExternal": 0, "status": 200,
                             "contentType": "text/html", "isSkipped": 0}, title="Home")
    w.page_id(base + "/later", is_external=False)
    archive = w.close()
    out = tmp_path / "r.xlsx"
    write_report(archive, out, sheets=["Links", "Summary"])
    book = openpyxl.load_workbook(out, read_only=True)
    remarks = {r["URL"]: r["Remarks"] for r in _rows(book, "Links")}
    assert remarks == {base + "/": None, base + "/later": report_page_sheets.NEVER_FETCHED}
    assert remarks[base + "/later"].startswith("never fetched")
    summary = {r["Item"]: r["Value"] for r in _rows(book, "Summary")}
    assert (summary["URLs done"], summary["URLs never fetched"]) == (1, 1)


def test_progress_counts_the_referrers_sheet_in_links(
        rendered_crawl: Crawl, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Referrers Relational Table's progress runs over the links its rows group (its
    total one cheap count, not the sheet's GROUP BY twice) and ends at that total."""
    from nitpicker_query import progress

    monkeypatch.setattr(report_build, "REPORT_EVERY", 10)
    seen: list[progress.Progress] = []
    out = tmp_path / "r.xlsx"
    with progress.reporting(seen.append):
        write_report(rendered_crawl.archive, out, sheets=["Referrers Relational Table"])
    rows = _rows(openpyxl.load_workbook(out, read_only=True), "Referrers Relational Table")
    links = sum(r["Count"] for r in rows)
    assert links > len(rows) > 10   # some pairs stand for several links
    steps = [s for s in seen if "Referrers" in s.message]
    assert steps[0].message.endswith(f": 0 of {links:,} links")
    assert {s.total for s in steps} == {links}
    done = [s.done for s in steps]
    assert done == sorted(done) and links - 10 < done[-1] <= links, done


def test_the_workbook_holds_a_bounded_number_of_links(
        rendered_crawl: Crawl, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Links are held in memory until the workbook closes, so the workbook has a budget:
    the first sheet's URLs get theirs, and past the budget URLs are plain text — every
    row still written."""
    from nitpicker_query.report import writers

    monkeypatch.setattr(writers, "MAX_BOOK_LINKS", 3)
    out = tmp_path / "r.xlsx"
    said = write_report(rendered_crawl.archive, out, sheets=["Page List", "Links"])
    book = openpyxl.load_workbook(out)
    links = {name: sum(c.hyperlink is not None for row in book[name].iter_rows() for c in row)
             for name in ("Page List", "Links")}
    assert links == {"Page List": 3, "Links": 0}
    assert book["Page List"]["C2"].hyperlink is not None   # the first page's URL
    assert [book[n].max_row - 1 for n in links] == [s["rows"] for s in said["sheets"]]
    assert str(book["Links"]["A2"].value).startswith("http")   # the URL, as text


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_bad_input_is_one_line_and_changes_nothing(hostile: Path, tmp_path: Path) -> None:
    before = _sha(hostile)
    cases = [
        (["-o", str(hostile)], "is the archive itself"),
        (["-o", str(tmp_path / "nowhere" / "r.xlsx")], "does not exist: create it first"),
        (["-o", str(tmp_path / "r.xlsx"), "--sheets", "Pages"], "no sheet named 'Pages'"),
        (["-o", str(tmp_path), "--format", "xlsx"], "is a directory"),
        (["-o", str(tmp_path / "r.csv")], "r.csv names another format: the report is an "
         ".xlsx workbook (--format csv writes one CSV per sheet into a directory)"),
    ]
    for args, message in cases:
        r = subprocess.run([QUERY, "report", str(hostile), *args], capture_output=True,
                           text=True, timeout=60)
        # a wrong argument: exit 2, as the README says, not 1 (the archive is fine)
        assert r.returncode == 2 and r.stdout == "", (args, r.stdout)
        lines = r.stderr.splitlines()
        assert len(lines) == 1 and message in lines[0], (args, r.stderr)
    assert _sha(hostile) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_a_failure_half_way_leaves_the_old_file(hostile: Path, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "site.xlsx"
    out.write_bytes(b"last week's report")

    def broken(a: Any, dedupe: bool) -> Any:
        raise KeyboardInterrupt  # Ctrl-C while the Images sheet is read

    monkeypatch.setitem(report_build.SHEETS, "Images", broken)
    with pytest.raises(KeyboardInterrupt):
        write_report(hostile, out)
    assert out.read_bytes() == b"last week's report"
    assert [p.name for p in tmp_path.iterdir()] == ["site.xlsx"]  # no partial file left


@pytest.mark.slow  # LibreOffice starts in seconds; installed by bench/targets.py
@pytest.mark.skipif(__import__("shutil").which("soffice") is None,
                    reason="LibreOffice is missing (Debian package libreoffice-calc-nogui)")
def test_libreoffice_renders_the_workbook(workbook: Path, rendered_crawl: Crawl,
                                          tmp_path: Path) -> None:
    """A third program reads the workbook: LibreOffice converts it to PDF without error,
    and its CSV export of the first sheet holds the crawl's base URL where Summary puts
    it."""
    profile = f"-env:UserInstallation=file://{tmp_path / 'profile'}"
    for target in ("pdf", "csv"):
        r = subprocess.run(["soffice", profile, "--headless", "--convert-to", target,
                            "--outdir", str(tmp_path), str(workbook)],
                           capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stderr
    assert (tmp_path / "site.pdf").read_bytes().startswith(b"%PDF")
    assert (tmp_path / "site.pdf").stat().st_size > 50_000   # every sheet, not a blank page
    first = (tmp_path / "site.csv").read_text(encoding="utf-8").splitlines()
    base = q.get_summary(rendered_crawl.archive)["baseUrl"]
    assert first[:2] == ["Item,Value", f"Base URL,{base}"]


@pytest.mark.parametrize("checked", [False, True])
def test_links_nobody_fetched_are_not_bad(tmp_path: Path, checked: bool) -> None:
    """A page linking a URL still queued (a crawl stopped early) and an external link is
    not a page with bad links: nothing is known of either. Links says why each was not
    fetched — not checked at all on a --no-fetch-external crawl, never fetched (yet) on one
    that checks them — and a link to a real 404 stays bad (the other direction)."""
    base = "http://localhost"
    w = ArchiveWriter.create(tmp_path / "s.nitpicker", roots=[base + "/"],
                             fetchExternal=checked)
    home = w.save_page(base + "/", {"scraped": 1, "isTarget": 1, "isExternal": 0,
                                    "status": 200, "contentType": "text/html",
                                    "isSkipped": 0}, title="Home")
    w.save_page(base + "/gone", {"scraped": 1, "isTarget": 1, "isExternal": 0, "status": 404,
                                 "contentType": "text/html", "isSkipped": 0}, title="Gone")
    w.replace_anchors(home, [(base + "/later", None, "later"), (base + "/gone", None, "gone"),
                             ("https://elsewhere.test/x", None, "x")],
                      is_external=lambda u: not u.startswith(base))
    archive = w.close()
    out = tmp_path / "r.xlsx"
    write_report(archive, out, sheets=["Page List", "Links"])
    book = openpyxl.load_workbook(out, read_only=True)
    page = next(r for r in _rows(book, "Page List") if r["URL"] == base + "/")
    assert (page["Internal Links"], page["Internal Bad Links"]) == (2, 1)   # /gone only
    assert (page["External Links"], page["External Bad Links"]) == (1, 0)
    remarks = {r["URL"]: r["Remarks"] for r in _rows(book, "Links")}
    assert remarks[base + "/later"] == report_page_sheets.NEVER_FETCHED
    assert remarks["https://elsewhere.test/x"] == (
        report_page_sheets.NEVER_FETCHED if checked else report_page_sheets.NOT_CHECKED)
