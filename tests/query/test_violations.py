"""``get_violations`` (issue 12) on an archive holding upstream's analyze tables, laid out
as upstream's migration for 0.10-family archives creates them, and on one without."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

import nitpicker_query as q
from corpora.fixture_archives import build_pre013
from nitpicker_crawl.archive import ArchiveWriter

BASE = "http://localhost"
QUERY = str(Path(sys.executable).with_name("nitpicker-query"))
FINDINGS = [  # page, validator, severity, rule, message, code, line, col
    ("/a", "axe", "error", "color-contrast", "Contrast too low", "<p class=x>", None, None),
    ("/a", "markuplint", "warning", "attr-duplication", "Duplicate attribute",
     '<a href href>', 12, 5),
    ("/b", "axe", "error", "image-alt", "Image has no alt text", "<img src=y>", None, None),
    ("/b", "textlint", "info", "no-doubled-joshi", "Doubled particle", None, 3, 1),
]


@pytest.fixture(scope="module")
def analysed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("violations")
    w = ArchiveWriter.create(d / "analysed.nitpicker", roots=[BASE + "/"])
    page = {"scraped": 1, "isTarget": 1, "isExternal": 0, "status": 200,
            "contentType": "text/html", "isSkipped": 0}
    ids = {path: w.save_page(BASE + path, page, title=path) for path in ("/a", "/b", "/c")}
    c = w.conn
    c.execute("CREATE TABLE analysis_text_refs (id integer primary key autoincrement, "
              "text text not null, sha256 varchar(64) not null, unique(sha256, text))")
    c.execute("CREATE TABLE analysis_violations (id integer primary key autoincrement, "
              "page_id integer not null references pages(id), validator varchar(255) not "
              "null, severity varchar(255) not null, rule varchar(255) not null, "
              "message_text_id integer not null references analysis_text_refs(id), "
              "code_text_id integer references analysis_text_refs(id), page_url_sort_key "
              "text not null, message_sort_key text not null, code_sort_key text not null, "
              "line integer, col integer)")

    def text(value: str) -> int:
        sha = hashlib.sha256(value.encode()).hexdigest()
        c.execute("INSERT OR IGNORE INTO analysis_text_refs (text, sha256) VALUES (?, ?)",
                  (value, sha))
        return int(c.execute("SELECT id FROM analysis_text_refs WHERE sha256 = ?",
                             (sha,)).fetchone()[0])

    for path, validator, severity, rule, message, code, line, col in FINDINGS:
        c.execute("INSERT INTO analysis_violations (page_id, validator, severity, rule, "
                  "message_text_id, code_text_id, page_url_sort_key, message_sort_key, "
                  "code_sort_key, line, col) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                  (ids[path], validator, severity, rule, text(message),
                   text(code) if code else None, BASE + path, message, code or "", line,
                   col))
    return w.close()


def test_violations_listed_filtered_and_sorted(analysed: Path) -> None:
    every = q.get_violations(analysed)
    assert every["total"] == 4
    assert [(i["url"], i["rule"]) for i in every["items"]] == [
        (BASE + "/a", "color-contrast"), (BASE + "/a", "attr-duplication"),
        (BASE + "/b", "image-alt"), (BASE + "/b", "no-doubled-joshi")]
    first = every["items"][1]
    assert (first["message"], first["code"], first["line"], first["col"]) == (
        "Duplicate attribute", "<a href href>", 12, 5)
    assert every["items"][3]["code"] is None
    axe = q.get_violations(analysed, validator="axe", severity="error")
    assert [i["rule"] for i in axe["items"]] == ["color-contrast", "image-alt"]
    assert q.get_violations(analysed, rule="image-alt")["total"] == 1
    assert q.get_violations(analysed, url_pattern="%/b")["total"] == 2
    assert q.get_violations(analysed, validator="AXE")["total"] == 0  # exact
    by_rule = q.get_violations(analysed, sort_by="rule")
    assert [i["rule"] for i in by_rule["items"]] == sorted(r[3] for r in FINDINGS)
    by_message = q.get_violations(analysed, sort_by="message", sort_order="desc")
    assert [i["message"] for i in by_message["items"]] == sorted(
        (r[4] for r in FINDINGS), reverse=True)
    by_code = q.get_violations(analysed, sort_by="code")  # no code (NULL) first
    assert [i["code"] for i in by_code["items"]][:1] == [None]
    assert [i["code"] for i in by_code["items"]][1:] == sorted(r[5] for r in FINDINGS if r[5])
    page = q.get_violations(analysed, limit=1, offset=2)
    assert [i["rule"] for i in page["items"]] == ["image-alt"] and page["nextOffset"] == 3
    with pytest.raises(q.InvalidArgument):
        q.get_violations(analysed, sort_by="nope")
    with pytest.raises(q.InvalidArgument):
        q.get_violations(analysed, sort_order="up")


def test_an_archive_never_analysed_says_so_rather_than_look_clean(tmp_path: Path) -> None:
    plain = build_pre013(tmp_path, name="plain")
    note = ("this archive was never analysed: no findings is not a clean site "
            "(nitpicker-crawl analyze ARCHIVE runs the plugins)")
    assert q.get_violations(plain) == {"analysed": {}, "note": note, "items": [], "total": 0,
                                       "limit": 100, "offset": 0, "nextOffset": None}
    r = subprocess.run([QUERY, "violations", str(plain), "--format", "table"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    # the note is read whole (wrapped, not cut), before the empty list's line
    lines = r.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("note: "))
    assert " ".join(x.strip() for x in lines[start:-1]) == f"note: {note}"
    assert lines[-1] == "no items (total 0)" and all(len(x) <= 100 for x in lines)


def test_an_analysed_archive_names_what_ran_and_a_validator_that_did_not(
        analysed: Path) -> None:
    # upstream keeps no marks of the pages analysed: its findings' pages per validator
    result = q.get_violations(analysed)
    assert result["analysed"] == {"axe": 2, "markuplint": 1, "textlint": 1}
    assert "note" not in result
    # a validator that never ran: its empty list is not a clean result
    vnu = q.get_violations(analysed, validator="vnu")
    assert vnu["items"] == [] and vnu["note"] == (
        "vnu never ran on this archive (analysed: axe, markuplint, textlint): "
        "no findings is not a clean site")
    assert "note" not in q.get_violations(analysed, validator="axe")


def test_violations_sub_command(analysed: Path) -> None:
    r = subprocess.run([QUERY, "violations", str(analysed), "--validator", "textlint"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert [i["rule"] for i in json.loads(r.stdout)["items"]] == ["no-doubled-joshi"]
    desc = subprocess.run([QUERY, "violations", str(analysed), "--sort-by", "severity",
                           "--sort-order", "desc", "--format", "csv"],
                          capture_output=True, text=True, timeout=60)
    assert [line.split(",")[2] for line in desc.stdout.splitlines()[1:]] == \
        ["warning", "info", "error", "error"]
    bad = subprocess.run([QUERY, "violations", str(analysed), "--sort-by", "nope"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "--sort-by" in bad.stderr

