"""Every ``nitpicker-query`` example of the README, run in a real pseudo-terminal of 80
columns on a capped crawl, read as a person reads it: no line wider than the terminal
but a key, signature or suggested option printed whole; no header cut; no empty rows;
every signature and key copyable from the screen."""

from __future__ import annotations

import fcntl
import itertools
import json
import os
import pty
import re
import shlex
import struct
import subprocess
import termios
from pathlib import Path

import pytest

import nitpicker_query as q
from tests.viewer.conftest import capped_archive, zoo  # noqa: F401  (session fixtures)

ROOT = Path(__file__).resolve().parents[2]
QUERY = str(Path(os.environ.get("VIRTUAL_ENV", ROOT / ".venv")) / "bin" / "nitpicker-query")
if not Path(QUERY).exists():  # pragma: no cover
    QUERY = "nitpicker-query"


def on_terminal(args: list[str], columns: int = 80) -> str:
    """What ``args`` shows on a terminal ``columns`` wide (stdout and stderr)."""
    return run_on_terminal(args, columns)[1]


def run_on_terminal(args: list[str], columns: int = 80) -> tuple[int, str]:
    """The exit status of ``args`` and what it shows on a terminal ``columns`` wide."""
    main, child = pty.openpty()
    fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    process = subprocess.Popen(args, stdin=child, stdout=child, stderr=child, env=env)
    os.close(child)
    out = b""
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    code = process.wait(timeout=60)
    os.close(main)
    return code, out.decode("utf-8", "replace").replace("\r\n", "\n")


def readme_examples() -> list[list[str]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("## Querying an archive", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    return [shlex.split(line.split("  #")[0]) for line in block.splitlines()
            if line.startswith("nitpicker-query ")]


def example_args(example: list[str], archive: Path, base: str) -> list[str]:
    args = [QUERY]
    for word in example[1:]:
        word = word.replace("https://example.com/", base)
        # every archive the README names (last week's, staging's) is the one crawl here:
        # a comparison of a crawl with itself still runs every line of the example
        args.append(str(archive) if word.endswith(".nitpicker") else word)
    return args[:args.index(">")] if ">" in args else args  # the terminal, not a file


WHOLE = re.compile(r"^\s*\w+\s{2,}(\S+|--exclude[-\w]* .+)$")
"""A key/value line whose value is one word, or a suggested option: printed whole."""


def check_screen(screen: str, command: str) -> None:
    lines = screen.splitlines()
    for line in lines:
        if line.startswith("nitpicker-query: error: "):  # one line, in the CLI's words
            assert not re.search(r"\b(list|get)_\w+", line), f"{command}: {line}"
            continue
        assert len(line) <= 80 or WHOLE.match(line), f"{command}: {len(line)} columns: {line}"
    for above, rule in itertools.pairwise(lines):
        if re.fullmatch(r"[- ]*-{4,}[- ]*", rule or ""):
            assert "…" not in above, f"{command}: a header was cut: {above}"


@pytest.mark.slow  # a pty per example: 22 s
def test_every_readme_example_fits_80_columns(capped_archive: Path) -> None:  # noqa: F811
    """Each example runs as written (exit 0, or 1 with one line when it names a page or
    cluster this crawl does not have, or asks what its --no-render crawl cannot tell: never a
    usage error, which would mean the README
    names a flag the code no longer has) and reads well at 80 columns."""
    base = q.get_summary(capped_archive)["baseUrl"]
    examples = readme_examples()
    assert len(examples) >= 25
    for example in examples:
        args = example_args(example, capped_archive, base)
        code, screen = run_on_terminal(args)
        name = " ".join(example[:2])
        if code == 1:
            # a page or cluster this crawl lacks, or what a --no-render crawl cannot tell
            assert re.fullmatch(r"nitpicker-query: error: (No [^\n]+|[^\n]+ records no "
                                r"[^\n]+ cannot be told[^\n]+)\n", screen), (name, screen)
        else:
            assert code == 0 and screen.strip(), (name, code, screen)
        if "csv" in example:  # data for a spreadsheet: a header row, then the rows
            assert screen.startswith("url,status,title,"), screen[:200]
        elif example[1] != "html":  # html: the source as stored, whole, as asked for
            check_screen(screen, name)


def test_keys_and_signatures_can_be_copied_from_the_screen(
        capped_archive: Path) -> None:  # noqa: F811
    screen = on_terminal([QUERY, "duplicate-clusters", str(capped_archive), "--min-count",
                          "3"])
    clusters = q.get_duplicate_clusters(capped_archive, min_count=3)["items"]
    assert clusters
    for cluster in clusters:
        assert cluster["signature"] in screen and cluster["shapeKey"] in screen
        hint = cluster["suggestedExclude"]
        if hint:
            assert f"{hint['flag']} {shlex.quote(hint['value'])}" in screen
    # the signature pasted back into the next command finds its cluster
    signature = re.search(r"\b[0-9a-f]{40}\b", screen)
    assert signature is not None
    again = subprocess.run([QUERY, "duplicate-cluster", str(capped_archive), "--signature",
                            signature.group(0), "--format", "json"], capture_output=True,
                           text=True, timeout=60)
    assert json.loads(again.stdout)["total"] >= 3
    # a template key is shown shell-quoted: pasted as it is, it is one argument
    templates = on_terminal([QUERY, "template-clusters", str(capped_archive)])
    shown = re.search(r"'\[[^']*\]'", templates)
    assert shown is not None
    (key,) = shlex.split(shown.group(0))
    pasted = subprocess.run([QUERY, "template-cluster", str(capped_archive), "--key", key,
                             "--format", "json"], capture_output=True, text=True, timeout=60)
    assert json.loads(pasted.stdout)["key"] == key
    # … and a paste that lost the JSON quotes still finds it
    bare = subprocess.run([QUERY, "template-cluster", str(capped_archive), "--key",
                           key.replace('"', ""), "--format", "json"], capture_output=True,
                          text=True, timeout=60)
    assert json.loads(bare.stdout)["key"] == key
    events = on_terminal([QUERY, "dedupe-cap-events", str(capped_archive)])
    for event in q.list_dedupe_cap_events(capped_archive)["items"]:
        assert event["shapeKey"] in events


def test_page_detail_shows_no_empty_rows_and_rates_read_as_rates(
        capped_archive: Path) -> None:  # noqa: F811
    base = q.get_summary(capped_archive)["baseUrl"]
    detail = on_terminal([QUERY, "page-detail", str(capped_archive), "--url", base])
    head = detail.split("\n\n", 1)[0].splitlines()
    assert head and all(re.match(r"^\w+\s{2,}\S", line) or line.startswith(" ")
                        for line in head), head
    shown = {line.split()[0] for line in head if not line.startswith(" ")}
    assert "description" in shown and "keywords" not in shown  # TrapZoo's home has none
    summary = on_terminal([QUERY, "summary", str(capped_archive)])
    rates = re.findall(r"^\s+title\s+(\S+)$", summary, re.M)
    assert rates and len(rates[0]) <= 6, rates  # 0.9953, not 0.9952830188679245


@pytest.mark.parametrize(("args", "line"), [
    (["sumary", "x"], "nitpicker-query: error: no sub-command 'sumary'; did you mean "
                      "summary? (see nitpicker-query --help)"),
    (["links", "ARCHIVE", "--type", "brokn"], "nitpicker-query links: error: --type cannot "
     "be 'brokn'; did you mean broken? (one of broken, external, orphaned, all) (see "
     "nitpicker-query links --help)"),
])
def test_a_typo_gets_one_line_with_the_nearest_name(capped_archive: Path,  # noqa: F811
                                                     args: list[str], line: str) -> None:
    args = [str(capped_archive) if a == "ARCHIVE" else a for a in args]
    r = subprocess.run([QUERY, *args], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stderr == line + "\n"


@pytest.mark.slow  # a pty per sub-command: 26 s
def test_help_fits_80_columns() -> None:
    """Every command's and sub-command's --help at 80 columns: no line wider, and an
    example too long for one line continues after a backslash, between arguments."""
    from nitpicker_query.queries.catalog import QUERIES

    def command(name: str) -> str:
        return str(Path(QUERY).with_name(name))

    helps = [[command("nitpicker-query"), *extra] for extra in (
        [], ["cache"], *([spec.command] for spec in QUERIES))]
    helps += [[command(c)] for c in ("nitpicker-crawl", "nitpicker-viewer", "nitpicker-mcp",
                                     "page-cluster")] + [[command("nitpicker-crawl"),
                                                          "upgrade"]]
    for args in helps:
        screen = on_terminal([*args, "--help"])
        assert "usage:" in screen, args
        wide = [line for line in screen.splitlines() if len(line) > 80]
        assert not wide, (args, wide)
    # the longest example, a template key, is cut between arguments and stays whole
    screen = on_terminal([command("nitpicker-query"), "template-cluster", "--help"])
    assert ("  nitpicker-query template-cluster site.nitpicker --key \\\n"
            "      '[\"path:blog|css:/static/site.css\",\"cluster:0\"]'") in screen
