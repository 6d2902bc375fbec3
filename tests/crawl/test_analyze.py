"""``nitpicker-crawl analyze`` on a real crawl of TrapZoo's ``/a11y/`` pages (each seeded
with known accessibility, HTML and text faults, one page clean), run as a user runs it:
the findings as ``violations``, the MCP tool and the viewer show them, a run killed
half-way, re-runs, and bad input."""

from __future__ import annotations

import csv
import hashlib
import io
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

import nitpicker_query as q
from nitpicker_crawl.trapzoo import TrapZoo
from nitpicker_query.archive import tarball
from tests.crawl.conftest import CRAWL, Crawl, run_crawl
from tests.viewer.conftest import serve
from tests.viewer.tables import table
from tests.viewer.test_api import get

ROOT = Path(__file__).resolve().parents[2]
VNU_JAR = ROOT / ".npm-tools" / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
AXE_NPM = ROOT / ".npm-tools" / "node_modules" / "axe-core"
QUERY = str(Path(sys.executable).with_name("nitpicker-query"))
HAVE_VNU = VNU_JAR.is_file() and shutil.which("java") is not None
needs_vnu = pytest.mark.skipif(not HAVE_VNU, reason="vnu.jar or Java missing (make analyzers)")


def env(**extra: str) -> dict[str, str]:
    tools = {}
    if VNU_JAR.is_file():
        tools["NITPICKER_VNU_JAR"] = str(VNU_JAR)
    if (AXE_NPM / "axe.min.js").is_file():
        tools["NITPICKER_AXE_CORE"] = str(AXE_NPM)
    return {**os.environ, **tools, **extra}


def analyze(archive: Path, *args: str, timeout: float = 600, **extra: str
            ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CRAWL, "analyze", str(archive), *args], cwd=archive.parent,
                          capture_output=True, text=True, timeout=timeout, env=env(**extra))


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def findings(archive: Path, **filters: Any) -> list[dict[str, Any]]:
    return q.get_violations(archive, limit=1000, **filters)["items"]  # type: ignore[no-any-return]


def slugs(items: list[dict[str, Any]]) -> set[str]:
    """The /a11y/ page of each finding: ``missing-alt``, … (``""`` for the index)."""
    return {i["url"].split("/a11y/")[1].strip("/") for i in items}


@pytest.fixture(scope="module")
def a11y(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """TrapZoo's /a11y/ section crawled --no-render (the HTML as served)."""
    directory = tmp_path_factory.mktemp("a11y")
    with TrapZoo() as zoo:
        r = run_crawl(directory, zoo.url + "a11y/", "-o", "a11y.nitpicker", "--no-render",
                      "--silent")
    assert r.returncode == 0, r.stderr
    yield directory / "a11y.nitpicker"


def fresh(a11y: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "site.nitpicker"
    shutil.copy2(a11y, copy)
    return copy


@pytest.fixture(scope="module")
def analysed(a11y: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every plugin, keywords included, over a copy of the crawl."""
    if not HAVE_VNU:
        pytest.skip("vnu.jar or Java missing (make analyzers)")
    copy = fresh(a11y, tmp_path_factory.mktemp("analysed"))
    r = analyze(copy, "--all", "--search-keywords", "pricing,nowhere-to-be-found")
    assert r.returncode == 0, r.stderr
    return copy


SEEDED = {
    # (validator, rule or rule prefix) → the pages that break it, and no others
    ("axe", "image-alt"): {"missing-alt", "scripted"},
    ("axe", "color-contrast"): {"low-contrast"},
    ("axe", "label"): {"unlabeled"},
    ("vnu", "An “img” element must have an “alt” attribute"): {"missing-alt", "scripted"},
    ("vnu", "Duplicate ID “*”."): {"duplicate-ids"},
    ("vnu", "Element “div” not allowed as child of element “ul”"): {"html-errors"},
    ("vnu", "Attribute “colour” not allowed on element “a” at this point."): {"html-errors"},
    ("text", "ja-fullwidth-alnum"): {"text"},
    ("text", "ja-halfwidth-kana"): {"text"},
    ("text", "ja-doubled-punctuation"): {"text"},
    ("text", "en-doubled-word"): {"text"},
}


@pytest.mark.parametrize(("validator", "rule"), list(SEEDED))
def test_each_seeded_fault_is_found_by_its_rule_on_its_pages_only(
        analysed: Path, validator: str, rule: str) -> None:
    hits = [i for i in findings(analysed, validator=validator) if i["rule"].startswith(rule)]
    assert slugs(hits) == SEEDED[(validator, rule)]


def test_the_clean_page_and_the_index_have_no_findings(analysed: Path) -> None:
    for validator in ("axe", "vnu", "text"):
        assert slugs(findings(analysed, validator=validator)) & {"clean", ""} == set()
    # and every plugin did read them: each page is marked done by each
    for plugin in ("axe", "vnu", "text", "search-keywords"):
        assert len(done_marks(analysed, plugin)) == 9


def test_cells_say_what_and_where(analysed: Path) -> None:
    [alt] = findings(analysed, validator="axe", rule="image-alt",
                     url_pattern="%/missing-alt/")
    assert (alt["severity"], alt["message"], alt["code"]) == (
        "error", "Images must have alternative text", '<img src="/static/logo.png">')
    [dup] = findings(analysed, validator="vnu", rule="Duplicate ID “*”.")
    assert (dup["severity"], dup["message"]) == ("error", "Duplicate ID “intro”.")
    assert dup["line"] >= 1 and dup["col"] >= 1 and 'id="intro"' in dup["code"]
    doubled = findings(analysed, rule="en-doubled-word")
    assert [(d["severity"], d["message"], d["code"]) for d in doubled] == [
        ("warning", "Doubled word “the the”", "Read the the manual.")]
    kana = findings(analysed, rule="ja-halfwidth-kana")
    assert [d["message"] for d in kana] == ["Half-width katakana “ｶﾀｶﾅ”: write them full-width"]


def test_search_keywords_count_and_context(analysed: Path) -> None:
    hits = findings(analysed, validator="search-keywords")
    assert [(slugs([h]), h["rule"], h["message"], h["code"]) for h in hits] == [
        ({"clean"}, "pricing", "“pricing”: 2 occurrences",
         "TrapZoo Our pricing is simple: see pricing below.…")]  # 30 characters either side


def test_summary_counts_each_validators_findings(analysed: Path) -> None:
    summary = {v["validator"]: v for v in q.get_summary(analysed)["violations"]}
    for validator, entry in summary.items():
        items = findings(analysed, validator=validator)
        assert entry["findings"] == len(items)
        assert entry["pages"] == len({i["url"] for i in items})


def test_the_cli_lists_them_as_csv(analysed: Path) -> None:
    r = subprocess.run([QUERY, "violations", str(analysed), "--validator", "axe", "--rule",
                        "label", "--format", "csv"], capture_output=True, text=True,
                       timeout=60, env=env())
    assert r.returncode == 0, r.stderr
    rows = list(csv.reader(io.StringIO(r.stdout)))
    assert rows[0] == ["url", "validator", "severity", "rule", "message", "code", "line",
                       "col"]
    assert [row[1:6] for row in rows[1:]] == [
        ["axe", "error", "label", "Form elements must have labels",
         '<input type="text" name="q">']]
    assert rows[1][0].endswith("/a11y/unlabeled/")


def test_the_html_report_counts_them_and_shows_the_first(analysed: Path,
                                                         tmp_path: Path) -> None:
    """``report --format html``: the findings' section has the whole count, its rows are
    the query's first findings (by severity), and the table by validator the summary's."""
    from selectolax.lexbor import LexborHTMLParser

    from nitpicker_query.report import html_report

    out = tmp_path / "audit.html"
    r = subprocess.run([QUERY, "report", str(analysed), "-o", str(out)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    tree = LexborHTMLParser(out.read_text(encoding="utf-8"))
    expected = q.get_violations(analysed, sort_by="severity", limit=html_report.ROWS)
    heading = tree.css_first("h2#violations")
    assert heading is not None
    assert heading.text() == f"Analyze findings: {expected['total']:,} findings"
    section = heading.parent
    assert section is not None
    rows = [[td.text() for td in tr.css("td")] for tr in section.css("tbody tr")]
    assert [(r[0], r[1], r[3]) for r in rows] == [
        (i["url"], i["validator"], i["rule"]) for i in expected["items"]]
    by_validator = [[td.text() for td in tr.css("td")]
                    for tr in tree.css("h3#findings + table tbody tr")]
    assert by_validator == [[f["validator"], f"{f['findings']:,}", f"{f['pages']:,}"]
                            for f in q.get_summary(analysed)["violations"]]


def test_the_mcp_tool_lists_them(analysed: Path) -> None:
    from mcp import Client, StdioServerParameters

    server = str(Path(sys.executable).with_name("nitpicker-mcp"))

    async def call() -> Any:
        params = StdioServerParameters(command=server, args=["--root", str(analysed.parent)],
                                       env={"NITPICKER_PY_CACHE_DIR":
                                            os.environ["NITPICKER_PY_CACHE_DIR"]})
        async with Client(params) as client:
            return await client.call_tool("get_violations", {
                "archive": str(analysed), "rule": "color-contrast", "sortBy": "url"})

    result = anyio.run(call)
    assert not result.is_error, result.content
    items = result.structured_content["items"]
    assert [(i["validator"], i["severity"]) for i in items] == [("axe", "error")]
    assert items[0]["url"].endswith("/a11y/low-contrast/")


def test_the_viewer_lists_filters_sorts_and_shows_them_per_page(analysed: Path) -> None:
    for served in serve(analysed, []):
        status, body, _ = get(served, "/violations?validator=text&sortBy=rule&sortOrder=desc")
        assert status == 200
        rows = table(body)
        assert [r["Rule"] for r in rows] == ["ja-halfwidth-kana", "ja-fullwidth-alnum",
                                             "ja-doubled-punctuation", "en-doubled-word"]
        assert {r["Severity"] for r in rows} == {"warning"}
        status, body, _ = get(served, "/violations?severity=error&rule=label")
        assert [r["URL"].split("/a11y/")[1] for r in table(body)] == ["unlabeled/"]
        page = next(i["url"] for i in findings(analysed, rule="image-alt")
                    if "missing-alt" in i["url"])
        from urllib.parse import quote

        status, body, _ = get(served, "/page?url=" + quote(page, safe=""))
        assert status == 200 and "Findings of the analyze plugins (2)" in body
        section = body[body.index("Findings of the analyze plugins"):]
        cells = table(section)
        assert sorted((c["Validator"], c["Rule"][:20]) for c in cells) == [
            ("axe", "image-alt"), ("vnu", "An “img” element mus")]


# ----------------------------------------------------------------------- re-runs


def done_marks(archive: Path, plugin: str) -> dict[int, int]:
    """page id → when ``plugin`` analysed it, read from the archive's tar."""
    target = archive.parent / f"read-{time.monotonic_ns()}"
    inner = tarball.extract(archive, target, only=None)
    with sqlite3.connect(target / inner / "db.sqlite") as conn:
        rows = conn.execute("SELECT page_id, analysed_at FROM analysis_pages WHERE plugin = ?",
                            (plugin,)).fetchall()
    shutil.rmtree(target)
    return dict(rows)


def test_a_second_run_skips_what_is_done_and_force_redoes_it(a11y: Path,
                                                             tmp_path: Path) -> None:
    site = fresh(a11y, tmp_path)
    first = analyze(site, "--plugin", "text")
    assert first.returncode == 0, first.stderr
    assert "text (text 2): 9 pages analysed, 4 findings" in first.stderr
    marks = done_marks(site, "text")
    before = digest(site)
    again = analyze(site, "--plugin", "text")
    assert "0 pages analysed, 0 findings; 9 pages already done by an earlier run, skipped" \
        in again.stderr
    assert digest(site) == before  # nothing to do: the archive is not rewritten
    forced = analyze(site, "--plugin", "text", "--force")
    assert "text (text 2): 9 pages analysed, 4 findings" in forced.stderr
    assert len(findings(site, validator="text")) == 4  # replaced, not added
    assert set(done_marks(site, "text")) == set(marks)


def test_other_keywords_are_another_analysis(a11y: Path, tmp_path: Path) -> None:
    site = fresh(a11y, tmp_path)
    analyze(site, "--plugin", "search-keywords", "--search-keywords", "pricing")
    same = analyze(site, "--plugin", "search-keywords", "--search-keywords", "pricing")
    assert "9 pages already done" in same.stderr
    other = analyze(site, "--plugin", "search-keywords", "--search-keywords", "manual")
    assert "9 pages analysed, 1 finding" in other.stderr
    assert [(slugs([f]), f["rule"]) for f in findings(site, validator="search-keywords")] \
        == [({"text"}, "manual")]


def started(crawl: Crawl, tmp_path: Path) -> tuple[Path, str, subprocess.Popen[str]]:
    """A copy of the whole TrapZoo crawl, its digest, and ``analyze --plugin vnu`` running
    on it (about 150 pages: three batches)."""
    site = tmp_path / "site.nitpicker"
    shutil.copy2(crawl.archive, site)
    before = digest(site)
    proc = subprocess.Popen([CRAWL, "analyze", str(site), "--plugin", "vnu"], cwd=tmp_path,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env=env())
    return site, before, proc


@pytest.mark.slow  # vnu over the whole TrapZoo crawl, twice
@needs_vnu
def test_killed_half_way_the_archive_is_intact_and_the_rerun_finishes_the_rest(
        plain_crawl: Crawl, tmp_path: Path) -> None:
    site, before, proc = started(plain_crawl, tmp_path)
    work = tmp_path / ".site.nitpicker.analyze"
    done = 0
    deadline = time.monotonic() + 300
    while done == 0 and time.monotonic() < deadline:
        time.sleep(0.2)
        for db in work.glob("*/db.sqlite"):
            try:
                with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1) as conn:
                    done = conn.execute("SELECT count(*) FROM analysis_pages").fetchone()[0]
            except sqlite3.Error:
                pass
    proc.kill()  # SIGKILL: no clean-up at all
    proc.communicate()
    assert done > 0
    assert digest(site) == before and not findings(site)  # the original, untouched
    [db] = work.glob("*/db.sqlite")
    with sqlite3.connect(db) as conn:
        kept = dict(conn.execute("SELECT page_id, analysed_at FROM analysis_pages"))
    rerun = analyze(site, "--plugin", "vnu")
    assert rerun.returncode == 0, rerun.stderr
    marks = done_marks(site, "vnu")
    total = len(marks)
    assert 0 < len(kept) < total
    assert "continuing the unfinished run" in rerun.stderr
    assert (f"{total - len(kept)} pages analysed" in rerun.stderr
            and f"{len(kept)} pages already done by an earlier run, skipped" in rerun.stderr)
    assert {p: marks[p] for p in kept} == kept  # the pages done before were not redone
    assert not work.exists() and not list(tmp_path.glob(".*partial"))


@pytest.mark.slow  # the whole TrapZoo crawl
@needs_vnu
def test_sigterm_stops_it_leaving_the_archive_and_telling_how_to_continue(
        plain_crawl: Crawl, tmp_path: Path) -> None:
    site, before, proc = started(plain_crawl, tmp_path)
    time.sleep(3)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert "interrupted (SIGTERM); site.nitpicker is unchanged" in err
    assert "run the same command again to continue" in err
    assert digest(site) == before
    assert not list(tmp_path.glob("nitpicker-vnu-*"))


def test_a_crawl_directory_is_analysed_in_place(a11y: Path, tmp_path: Path) -> None:
    inner = tarball.extract(a11y, tmp_path, only=None)
    directory = tmp_path / inner
    r = analyze(directory, "--plugin", "text")
    assert r.returncode == 0, r.stderr
    assert slugs(findings(directory, validator="text")) == {"text"}
    assert not list(tmp_path.glob(".*analyze*"))


# ----------------------------------------------------------------------- bad input


def test_bad_input_gets_one_line_and_changes_nothing(a11y: Path, tmp_path: Path) -> None:
    site = fresh(a11y, tmp_path)
    before = digest(site)
    junk = tmp_path / "junk.nitpicker"
    junk.write_bytes(b"not a tar at all")
    cases = [
        ((str(tmp_path / "missing.nitpicker"),), 1, "not found"),
        ((str(junk),), 1, "Not a Nitpicker archive"),
        ((str(site), "--plugin", "nonsense"), 2, "--plugin cannot be 'nonsense' (one of axe, "
                                                 "vnu, text, search-keywords, lighthouse)"),
        ((str(site), "--plugin", "search-keywords"), 2, "needs --search-keywords"),
        ((str(site), "--search-keywords", " , "), 2, "give at least one keyword"),
        ((str(site), "--plugin", "axe", "--axe-lang", "xx"), 1, "no such locale"),
    ]
    for args, code, words in cases:
        r = subprocess.run([CRAWL, "analyze", *args], cwd=tmp_path, capture_output=True,
                           text=True, timeout=300, env=env())
        lines = [line for line in r.stderr.splitlines() if "error" in line or
                 "skipped" in line]
        assert r.returncode == code, (args, r.stderr)
        assert len(lines) == 1 and words in lines[0], (args, r.stderr)
        assert digest(site) == before
        assert not list(tmp_path.glob(".*.analyze*")), args


def test_a_013_archive_is_refused_with_how_to_convert(a11y: Path, tmp_path: Path) -> None:
    converted = tmp_path / "new.nitpicker"
    r = run_crawl(tmp_path, "convert", str(a11y), "--to", "0.13", "-o", str(converted))
    assert r.returncode == 0, r.stderr
    before = digest(converted)
    r = analyze(converted, "--plugin", "text")
    assert r.returncode == 1
    assert r.stderr.strip().splitlines() == [
        "nitpicker-crawl analyze: error: analyze writes format 0.10 archives; new.nitpicker "
        "is format 0.13.0 (convert it first: nitpicker-crawl convert ARCHIVE --to 0.10 -o "
        "OUT.nitpicker)"]
    assert digest(converted) == before and not list(tmp_path.glob(".*.analyze*"))


def test_a_missing_tool_says_how_to_install_it_and_is_skipped(a11y: Path,
                                                               tmp_path: Path) -> None:
    site = fresh(a11y, tmp_path)
    before = digest(site)
    r = analyze(site, "--plugin", "vnu", NITPICKER_VNU_JAR=str(tmp_path / "no.jar"))
    assert r.returncode == 1
    assert ("vnu: skipped: the Nu Html Checker is not installed: npm install vnu-jar"
            in r.stderr)
    assert digest(site) == before
    # among others it is skipped and the others run
    r = analyze(site, "--plugin", "vnu", "--plugin", "text",
                NITPICKER_VNU_JAR=str(tmp_path / "no.jar"))
    assert "text (text 2): 9 pages analysed" in r.stderr and "vnu: skipped" in r.stderr
    assert {f["validator"] for f in findings(site)} == {"text"}


@pytest.mark.skipif(not (AXE_NPM / "locales" / "ja.json").is_file(),
                    reason="npm axe-core missing (make analyzers)")
def test_axe_lang_gives_messages_in_that_language(a11y: Path, tmp_path: Path) -> None:
    site = fresh(a11y, tmp_path)
    r = analyze(site, "--plugin", "axe", "--axe-lang", "ja")
    assert r.returncode == 0, r.stderr
    assert "lang=ja" in r.stderr
    [alt] = findings(site, rule="image-alt", url_pattern="%/missing-alt/")
    assert alt["message"] != "Images must have alternative text"
    assert any("\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff"
               for ch in alt["message"]), alt["message"]


LIGHTHOUSE = ROOT / ".npm-tools" / "node_modules" / ".bin" / "lighthouse"


@pytest.mark.slow  # Lighthouse loads the live page in its own Chromium: ~20 s a page
@pytest.mark.skipif(not LIGHTHOUSE.is_file(), reason="npm lighthouse missing (make lighthouse)")
def test_lighthouse_scores_the_live_page_and_a_dead_site_is_retried_later(
        tmp_path: Path) -> None:
    with TrapZoo() as zoo:
        r = run_crawl(tmp_path, zoo.url + "a11y/clean/", "-o", "one.nitpicker",
                      "--no-render", "--silent")
        assert r.returncode == 0, r.stderr
        site = tmp_path / "one.nitpicker"
        r = analyze(site, "--plugin", "lighthouse", NITPICKER_LIGHTHOUSE=str(LIGHTHOUSE))
        assert r.returncode == 0, r.stderr
    scores = {f["rule"]: f for f in findings(site, validator="lighthouse")}
    assert set(scores) == {"score:performance", "score:accessibility", "score:best-practices",
                           "score:seo"}
    for rule, title in (("score:performance", "Performance"),
                        ("score:accessibility", "Accessibility")):
        message = scores[rule]["message"]
        assert message.startswith(f"{title}: "), message
        score = int(message.split(": ")[1])
        assert 0 <= score <= 100
        assert scores[rule]["severity"] == ("error" if score < 50 else
                                            "warning" if score < 90 else "info")
    # the site is gone now: the page cannot be measured, says so, and is not marked done
    r = analyze(site, "--plugin", "lighthouse", "--force",
                NITPICKER_LIGHTHOUSE=str(LIGHTHOUSE))
    assert "lighthouse: 1 page could not be analysed (tried again next run)" in r.stderr
    assert findings(site, validator="lighthouse") == []


@pytest.mark.parametrize(("args", "names"), [
    ((), ["axe", "vnu", "text"]),
    (("--all",), ["axe", "vnu", "text"]),
    (("--search-keywords", "a"), ["axe", "vnu", "text", "search-keywords"]),
    (("--plugin", "text", "--plugin", "text"), ["text"]),
    (("--plugin", "lighthouse"), ["lighthouse"]),
    (("--all", "--plugin", "lighthouse"), ["axe", "vnu", "text", "lighthouse"]),
    (("--all", "--plugin", "text"), ["axe", "vnu", "text"]),
    (("--plugin", "vnu", "--plugin", "text"), ["vnu", "text"]),
])
def test_which_plugins_run(args: tuple[str, ...], names: list[str]) -> None:
    """Lighthouse, which loads the live site, runs only when named."""
    from nitpicker_crawl.analyze.cli import _plugins, build_parser

    parser = build_parser()
    assert [p.name for p in _plugins(parser, parser.parse_args(["x", *args]))] == names


@pytest.mark.parametrize(("text", "found"), [
    ("Read the the manual.", ["Doubled word “the the”"]),
    ("The The end", ["Doubled word “The The”"]),
    ("accepts an exit_code and and constructs", ["Doubled word “and and”"]),
    ("checks first the module-level level set by", []),   # a compound, then its noun
    ("a one-byte byte string", []),
    ("see the/the docs", []),
    ("Company News", []),
])
def test_doubled_words_and_compounds(text: str, found: list[str]) -> None:
    """Both directions, on sentences of the Python documentation (Sphinx)."""
    from nitpicker_crawl.analyze.text import check

    assert [f.message for f in check([text]) if f.rule == "en-doubled-word"] == found
