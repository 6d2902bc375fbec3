"""``nitpicker-query`` as a user runs it: a real process, real archives, exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from nitpicker_query.queries.catalog import QUERIES

BIN = Path(sys.executable).with_name("nitpicker-query")


def run(*args: str, **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN), *args], capture_output=True, text=True, timeout=60,
                          env={**os.environ}, **kw)  # type: ignore[call-overload]


def test_json_when_piped(extended_archive: Path) -> None:
    r = run("summary", str(extended_archive))
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["totalPages"] == 5
    assert "\n" not in r.stdout.strip()  # compact


def test_pretty_and_jsonl(extended_archive: Path) -> None:
    pretty = run("pages", str(extended_archive), "--pretty", "--limit", "2")
    assert pretty.stdout.startswith("{\n  ")
    assert json.loads(pretty.stdout)["nextOffset"] == 2
    lines = run("pages", str(extended_archive), "--format", "jsonl").stdout.splitlines()
    assert len(lines) == 5 and json.loads(lines[0])["url"] == "http://localhost/a"
    lines = run("pages", str(extended_archive), "--format", "jsonl",
                "--skipped", "include").stdout.splitlines()
    assert len(lines) == 6


def test_table_output(extended_archive: Path) -> None:
    r = run("links", str(extended_archive), "--type", "broken", "--broken-as", "404",
            "--format", "table")
    assert r.returncode == 0
    assert "sourceUrl" in r.stdout and "http://localhost/missing" in r.stdout
    assert "1 item" in r.stdout
    paged = run("pages", str(extended_archive), "--limit", "2", "--format", "table").stdout
    assert "showing 1–2 of 5 — --offset 2 for more" in paged
    assert "ogImageAlt" not in paged  # the table shows the chosen columns only


def test_tristate_filter(extended_archive: Path) -> None:
    ext = json.loads(run("pages", str(extended_archive), "--is-external").stdout)
    own = json.loads(run("pages", str(extended_archive), "--no-is-external").stdout)
    both = json.loads(run("pages", str(extended_archive)).stdout)
    assert [i["url"] for i in ext["items"]] == ["https://example.org/"]
    assert own["total"] == 4 and both["total"] == 5


def test_a_status_range_that_can_match_answers(extended_archive: Path) -> None:
    r = run("pages", str(extended_archive), "--status-min", "200", "--status-max", "299")
    assert r.returncode == 0 and json.loads(r.stdout)["total"] >= 1


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["summary", "/nonexistent/x.nitpicker"], 1, "not found or not readable"),
        (["pages", "{a}", "--limit", "1000000000"], 2,
         "--limit must be between 1 and 1000, got 1000000000"),
        (["pages", "{a}", "--limit", "-1"], 2, "--limit must be between 1 and 1000, got -1"),
        (["pages", "{a}", "--offset", "-1"], 2, "--offset must be at least 0, got -1"),
        (["html", "{a}", "--url", "u", "--max-length", "0"], 2,
         "--max-length must be at least 1, got 0"),
        (["page-detail", "{a}", "--url", "u", "--links-limit", "0"], 2,
         "--links-limit must be between 1 and 1000, got 0"),
        (["pages", "{a}", "--limit", "ten"], 2, "invalid int value"),
        (["page-detail", "{a}", "--url", "http://localhost/nope"], 1,
         "No page with URL http://localhost/nope"),
        (["resource-referrers", "{a}", "--resource-url", "http://x/y.css"], 1,
         "No resource with URL"),
        (["links", "{a}"], 2, "required: --type"),
        (["links", "{a}", "--type", "dead"], 2, "--type cannot be 'dead' (one of broken"),
        (["nope", "{a}"], 2, "no sub-command 'nope' (see"),
        (["pages", "{a}", "--status-min", "600", "--status-max", "100"], 2,
         "status_min 600 is above status_max 100: no status can match"),
    ],
)
def test_errors(extended_archive: Path, args: list[str], code: int, message: str) -> None:
    r = run(*[a.replace("{a}", str(extended_archive)) for a in args])
    assert r.returncode == code, r.stderr
    assert message in r.stderr
    assert "Traceback" not in r.stderr
    assert r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1  # usage errors too: one line


def test_not_an_archive_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.nitpicker"
    bad.write_text("hello")
    r = run("summary", str(bad))
    assert r.returncode == 1
    assert r.stderr.strip() == ("nitpicker-query: error: Not a Nitpicker archive (expected an "
                                "uncompressed tar): bad.nitpicker")


@pytest.mark.parametrize("spec", QUERIES, ids=lambda s: s.command)
def test_every_sub_command_has_help_with_examples(spec: object) -> None:
    r = run(spec.command, "--help")  # type: ignore[attr-defined]
    assert r.returncode == 0
    assert "examples:" in r.stdout and "nitpicker-query " + spec.command in r.stdout  # type: ignore[attr-defined]
    for p in spec.params:  # type: ignore[attr-defined]
        assert p.flag in r.stdout


def test_html_and_page_detail(extended_archive: Path) -> None:
    html = json.loads(run("html", str(extended_archive), "--url", "http://localhost/a",
                          "--max-length", "5").stdout)
    assert html["html"] == "<html>"[:5] and html["truncated"] is True
    detail = json.loads(run("page-detail", str(extended_archive), "--url",
                            "http://localhost/b").stdout)
    assert detail["redirectFrom"] == ["http://localhost/old-b"]
