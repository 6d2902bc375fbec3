"""What a person sees in a terminal (issue 13): the progress line stays one line at 80
columns, tables fit, Ctrl-C of a rendering crawl ends quietly, every CLI has --help and
--version, and bad values are named by their flag."""

from __future__ import annotations

import fcntl
import os
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

import nitpicker_query as q
from nitpicker_crawl.crawl.progress import Counters
from nitpicker_crawl.trapzoo import TrapZoo
from tests.crawl.conftest import CRAWL, Crawl, run_crawl

BIN = Path(CRAWL).parent
COLUMNS = 80


def in_terminal(argv: list[str], cwd: Path, *, columns: int = COLUMNS,
                timeout: float = 120, interrupt_after: float | None = None
                ) -> tuple[int, str]:
    """Run ``argv`` with stdout and stderr on a pseudo-terminal ``columns`` wide."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    p = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave,
                         env=env, start_new_session=True)
    os.close(slave)
    chunks: list[bytes] = []
    started = time.monotonic()
    interrupted = False
    while True:
        if interrupt_after is not None and not interrupted and \
                time.monotonic() - started > interrupt_after:
            os.killpg(p.pid, signal.SIGINT)
            interrupted = True
        ready, _, _ = select.select([master], [], [], 0.1)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the other side is closed
                break
            if not data:
                break
            chunks.append(data)
        elif p.poll() is not None:
            break
        if time.monotonic() - started > timeout:
            p.kill()
            raise AssertionError("timed out")
    os.close(master)
    return p.wait(), b"".join(chunks).decode("utf-8", errors="replace")


def _segments(output: str) -> list[str]:
    """What each rewrite of a line leaves: split at newlines and carriage returns."""
    return [part.rstrip() for line in output.replace("\r\n", "\n").split("\n")
            for part in line.split("\r")]


def test_the_progress_line_stays_one_line_at_80_columns(tmp_path: Path, zoo: TrapZoo) -> None:
    rc, out = in_terminal([CRAWL, zoo.url, "-o", "s.nitpicker", "--dedupe-cap", "20",
                           "--no-render", "--interval", "5"], tmp_path)
    assert rc == 0, out
    progress = [s for s in _segments(out) if s.startswith("Crawling:")]
    assert len(progress) >= 3  # rewritten in place many times …
    assert all(len(s) <= COLUMNS - 1 for s in progress)  # … and never wider than the screen
    # the full line is longer: the compact one keeps the counts, the soft cap's too
    assert all(" found " in s and "%" in s for s in progress)
    assert any("capped" in s for s in progress), progress[-3:]
    lines = out.replace("\r\n", "\n").split("\n")
    # not one line per update: the line is only left behind where a message (a cap, a
    # verdict) is printed above it
    messages = sum(1 for line in lines if line.lstrip("\r").startswith("["))
    assert sum(1 for line in lines if "Crawling:" in line) <= messages + 2


@pytest.mark.slow  # 10 s of Chromium starting
def test_something_is_shown_while_chromium_starts(tmp_path: Path, zoo: TrapZoo) -> None:
    rc, out = in_terminal([CRAWL, zoo.url + "blog/", "-o", "s.nitpicker",
                           "--no-fetch-external"], tmp_path)
    assert rc == 0, out
    assert "Starting Chromium…" in out


def test_ctrl_c_of_a_rendering_crawl_ends_quietly(tmp_path: Path, zoo: TrapZoo) -> None:
    rc, out = in_terminal([CRAWL, zoo.url, "-o", "s.nitpicker", "--dedupe-cap", "100"],
                          tmp_path, interrupt_after=5)
    assert rc == 130, out
    assert "interrupted" in out and "Continue with: nitpicker-crawl --resume s.nitpicker" in out
    for noise in ("Future exception", "Connection closed", "Traceback", "Error"):
        assert noise not in out, out
    with q.open_archive(tmp_path / "s.nitpicker") as a:  # the pages in flight finished
        failed = a.execute("SELECT count(*) FROM pages WHERE status = -1").fetchone()[0]
        summary = q.get_summary(a)
    assert failed == 0 and summary["crawl"]["stopReason"] == "interrupted"


def test_progress_numbers_stay_consistent_after_resume() -> None:
    # the numbers a resumed 8,956-URL crawl showed: 104 %, -350 remaining, 9 HTML of 8 done
    line = Counters(internal_done=8956, pages_saved=8957, internal_found=8603,
                    external_done=0, external_found=0, parallels=4).line()
    assert "8956(8956) done" in line and "(100%)" in line and "[0 remaining]" in line


def test_a_resumed_crawl_counts_what_it_found_before(tmp_path: Path,
                                                     capped_plain: Crawl) -> None:
    from nitpicker_crawl.archive import ArchiveWriter
    from nitpicker_crawl.crawl.crawler import Crawler
    from nitpicker_crawl.options import CrawlOptions

    copy = tmp_path / "c.nitpicker"
    copy.write_bytes(capped_plain.archive.read_bytes())
    writer = ArchiveWriter.resume(copy)
    try:
        crawler = Crawler(CrawlOptions(roots=("http://x/",), silent=True), writer)
        crawler.seed_from_archive()
        c = crawler.counters
        assert c.internal_found >= c.internal_done > 0
        assert c.pages_saved <= c.internal_done
    finally:
        writer.give_up()


@pytest.mark.parametrize("command", ["dedupe-cap-events", "duplicate-clusters", "pages",
                                     "summary", "links --type external"])
def test_tables_fit_80_columns(tmp_path: Path, capped_plain: Crawl, command: str) -> None:
    name, *flags = command.split()
    rc, out = in_terminal([str(BIN / "nitpicker-query"), name, str(capped_plain.archive),
                           *flags], tmp_path)
    assert rc == 0, out
    lines = out.replace("\r\n", "\n").rstrip("\n").split("\n")
    assert len(lines) >= 3
    # wider only where a suggested option is printed whole, to be copied as it is
    assert all(len(line) <= COLUMNS or line.startswith("suggestedExclude  ")
               for line in lines), out
    if name == "pages":
        assert "— --offset 100 for more" in lines[-1]


def test_page_detail_says_how_to_see_all_links(tmp_path: Path, capped_plain: Crawl,
                                               zoo: TrapZoo) -> None:
    rc, out = in_terminal([str(BIN / "nitpicker-query"), "page-detail",
                           str(capped_plain.archive), "--url", zoo.url, "--links-limit", "3"],
                          tmp_path)
    assert rc == 0, out
    assert "showing 3 of" in out and "raise --links-limit for more" in out
    assert "firstCrawledAt" in out and "T" in out.split("firstCrawledAt", 1)[1].split("\n")[0]


def test_html_is_printed_whole_on_a_terminal(tmp_path: Path, capped_plain: Crawl,
                                             zoo: TrapZoo) -> None:
    rc, out = in_terminal([str(BIN / "nitpicker-query"), "html", str(capped_plain.archive),
                           "--url", zoo.url + "blog/page/1/"], tmp_path)
    assert rc == 0, out
    assert "</html>" in out and out.count("\n") > 5


@pytest.mark.parametrize("argv", [
    [str(BIN / "nitpicker-crawl"), "--version"], [str(BIN / "nitpicker-query"), "--version"],
    [str(BIN / "nitpicker-mcp"), "--version"],
    [sys.executable, "-m", "nitpicker_crawl.trapzoo", "--version"]])
def test_every_cli_has_a_version(argv: list[str]) -> None:
    r = subprocess.run(argv, capture_output=True, text=True, timeout=30)
    assert r.returncode == 0 and r.stdout.strip().endswith(q.__version__)


def test_trapzoo_help_is_help(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "nitpicker_crawl.trapzoo", "--help"],
                       capture_output=True, text=True, timeout=30)
    assert r.returncode == 0 and r.stdout.startswith("usage:")


@pytest.mark.parametrize("command", ["pages", "resources"])
def test_url_pattern_help_is_readable(command: str) -> None:
    r = subprocess.run([str(BIN / "nitpicker-query"), command, "--help"],
                       capture_output=True, text=True, timeout=30)
    text = " ".join(r.stdout.split())
    assert r.returncode == 0 and "% any run, _ one character" in text
    assert "%(" not in r.stdout and "%%" not in r.stdout


@pytest.mark.parametrize(("flag", "value", "message"), [
    ("--parallels", "0", "--parallels must be at least 1, got 0"),
    ("--max-pages", "-5", "--max-pages must be at least 1, got -5"),
    ("--dedupe-cap", "0", "--dedupe-cap must be at least 1, got 0"),
    ("--interval", "-1", "--interval must be at least 0, got -1"),
    ("--timeout", "0", "--timeout must be more than 0 seconds, got 0.0"),
])
def test_out_of_range_crawl_values_exit_2_naming_the_flag(tmp_path: Path, flag: str,
                                                          value: str, message: str) -> None:
    r = run_crawl(tmp_path, "http://127.0.0.1:9/", flag, value)
    assert r.returncode == 2 and message in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and list(tmp_path.iterdir()) == []
