"""Where a crawl's work goes (issue 13): ``-o`` is checked before the first request,
``--resume`` continues *that* archive with *its* options and writes it back in place, and
nothing outside the output's directory changes."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import signal
import subprocess
import tarfile
import time
from pathlib import Path

import pytest

import nitpicker_query as q
from nitpicker_crawl.trapzoo import TrapZoo
from tests.crawl.conftest import CRAWL, run_crawl

QUERY = str(Path(CRAWL).with_name("nitpicker-query"))


def _files(root: Path, *, skip: Path | None = None) -> dict[str, str]:
    """Every file under ``root`` (but ``skip``) → SHA-256 of its bytes."""
    out = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() and (skip is None or skip not in path.parents):
            out[str(path.relative_to(root))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def _fetched(archive: Path) -> int:
    with q.open_archive(archive) as a:
        return int(a.execute("SELECT count(*) FROM pages WHERE scraped = 1 AND isExternal = 0 "
                             "AND (isSkipped = 0 OR isSkipped IS NULL) "
                             "AND redirectDestId IS NULL").fetchone()[0])


def _runs(archive: Path) -> list[dict[str, object]]:
    with q.open_archive(archive) as a:
        return [{"stopReason": r[0], **json.loads(r[1])} for r in
                a.execute("SELECT stopReason, options FROM crawl_runs ORDER BY id")]


def test_resume_of_a_file_writes_that_file_back(tmp_path: Path, zoo: TrapZoo) -> None:
    site, cwd = tmp_path / "a", tmp_path / "cwd"
    site.mkdir()
    cwd.mkdir()
    (cwd / "site.nitpicker").write_bytes(b"another crawl's archive, not to be touched")
    first = run_crawl(cwd, zoo.url + "archive/", "-o", "../a/site.nitpicker", "--no-render",
                      "--max-pages", "5", "--silent")
    assert first.returncode == 3, first.stderr
    before = (site / "site.nitpicker").read_bytes()
    outside = _files(tmp_path, skip=site)
    r = run_crawl(cwd, "--resume", "../a/site.nitpicker", "--max-pages", "12", "--silent")
    assert r.returncode == 3, r.stderr
    assert "--max-pages 12 overrides the crawl's --max-pages 5" in r.stderr
    assert "continue with: nitpicker-crawl --resume ../a/site.nitpicker --max-pages 24" \
        in r.stderr
    assert (site / "site.nitpicker").read_bytes() != before
    assert sorted(p.name for p in site.iterdir()) == ["site.nitpicker"]  # no work dir left
    assert _fetched(site / "site.nitpicker") == 12  # the 5 of the first run, 7 more
    assert _files(tmp_path, skip=site) == outside  # ./site.nitpicker and all else intact
    assert [run["stopReason"] for run in _runs(site / "site.nitpicker")] == [
        "max-pages", "max-pages"]


def test_resume_continues_with_the_crawls_own_options(tmp_path: Path, zoo: TrapZoo) -> None:
    first = run_crawl(tmp_path, zoo.url, "-o", "s.nitpicker", "--no-render", "--dedupe-cap",
                      "20", "--exclude", "/blog/**", "--parallels", "2", "--interval", "1",
                      "--max-pages", "40", "--silent", "--no-fetch-external")
    assert first.returncode == 3, first.stderr
    # no Chromium anywhere: a resume that forgot --no-render would fail at once
    r = subprocess.run([CRAWL, "--resume", "s.nitpicker", "--max-pages", "100000", "--silent"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=300,
                       env={**os.environ, "NITPICKER_CHROMIUM": str(tmp_path / "none")})
    # … and one that forgot --dedupe-cap would run into the endless traps until 100000
    assert r.returncode == 0, r.stderr
    assert "--max-pages 100000 overrides the crawl's --max-pages 40" in r.stderr
    assert "render" not in r.stderr  # not given: restored silently
    runs = _runs(tmp_path / "s.nitpicker")
    assert len(runs) == 2 and runs[1]["stopReason"] == "complete"
    for run in runs:
        assert (run["render"], run["dedupe_cap"], run["excludes"], run["parallels"],
                run["interval_ms"], run["fetch_external"]) == (
                    False, 20, ["/blog/**"], 2, 1, False)
    with q.open_archive(tmp_path / "s.nitpicker") as a:
        blog = a.execute("SELECT count(*), min(skipReason) FROM pages "
                         "WHERE url LIKE '%/blog/page/%'").fetchone()
        events = a.execute("SELECT count(*) FROM dedupe_cap_events").fetchone()[0]
        external = a.execute("SELECT count(*) FROM pages WHERE isExternal = 1 "
                             "AND status IS NOT NULL").fetchone()[0]
        info = a.execute("SELECT parallels, excludes, fetchExternal FROM info").fetchone()
    assert tuple(info) == (2, '["/blog/**"]', 0)  # upstream's columns say the same
    assert blog[0] >= 1 and blog[1].startswith("excluded")  # still excluded after resume
    assert events >= 3 and external == 0


def test_the_command_printed_after_ctrl_c_continues_the_same_crawl(tmp_path: Path,
                                                                  zoo: TrapZoo) -> None:
    (tmp_path / "out").mkdir()
    p = subprocess.Popen([CRAWL, zoo.url, "-o", "out/s.nitpicker", "--no-render",
                          "--dedupe-cap", "20", "--interval", "15", "--silent"],
                         cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, start_new_session=True)
    deadline = time.monotonic() + 60
    db = tmp_path / "out" / "._nitpicker-s" / "db.sqlite"  # beside the output
    while not db.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(1.0)
    os.killpg(p.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
    _, err = p.communicate(timeout=60)
    assert p.returncode == 130, err
    match = re.search(r"Continue with: (.+)$", err, re.M)
    assert match is not None, err
    assert match.group(1) == "nitpicker-crawl --resume out/s.nitpicker"
    argv = shlex.split(match.group(1))
    r = subprocess.run([CRAWL, *argv[1:]], cwd=tmp_path, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    runs = _runs(tmp_path / "out" / "s.nitpicker")
    assert [run["stopReason"] for run in runs] == ["interrupted", "complete"]
    assert runs[0] | {"stopReason": None} == runs[1] | {"stopReason": None}


@pytest.mark.parametrize(("output", "message"), [
    ("missing/s.nitpicker", "directory {tmp}/missing does not exist"),
    ("/proc/s.nitpicker", "directory /proc is not writable"),
    ("s.tar", "the output file must end in .nitpicker: s.tar"),
    ("existing.nitpicker", "-o existing.nitpicker exists; pass --overwrite to replace it"),
])
def test_output_is_checked_before_a_single_request(tmp_path: Path, zoo: TrapZoo, output: str,
                                                   message: str) -> None:
    (tmp_path / "existing.nitpicker").write_bytes(b"a 288-page crawl")
    before, hits = _files(tmp_path), sum(zoo.site.hits.values())
    r = run_crawl(tmp_path, zoo.url + "blog/", "-o", output, "--no-render", "--silent")
    assert r.returncode == 2
    assert message.format(tmp=tmp_path) in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
    assert sum(zoo.site.hits.values()) == hits  # nothing was fetched
    assert _files(tmp_path) == before and not list(tmp_path.glob("._nitpicker-*"))


def test_overwrite_replaces_an_existing_archive(tmp_path: Path, zoo: TrapZoo) -> None:
    (tmp_path / "s.nitpicker").write_bytes(b"old")
    r = run_crawl(tmp_path, zoo.url + "blog/", "-o", "s.nitpicker", "--overwrite",
                  "--no-render", "--silent", "--no-fetch-external")
    assert r.returncode == 0, r.stderr
    assert _fetched(tmp_path / "s.nitpicker") == 61


def test_an_interrupted_crawl_is_not_replaced_by_a_new_one(tmp_path: Path,
                                                          zoo: TrapZoo) -> None:
    p = subprocess.Popen([CRAWL, zoo.url, "-o", "s.nitpicker", "--no-render",
                          "--interval", "20", "--silent"], cwd=tmp_path,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workdir = tmp_path / "._nitpicker-s"
    deadline = time.monotonic() + 60
    while not (workdir / "db.sqlite").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)
    p.kill()  # kill -9: the work directory is the only copy of that work
    p.wait()
    before = _files(workdir)
    r = run_crawl(tmp_path, zoo.url + "blog/", "-o", "s.nitpicker", "--no-render", "--silent")
    assert r.returncode == 1
    assert f"an interrupted crawl is in {workdir}: continue it with --resume" in r.stderr
    assert _files(workdir) == before
    fresh = run_crawl(tmp_path, zoo.url + "blog/", "-o", "s.nitpicker", "--overwrite",
                      "--no-render", "--silent", "--no-fetch-external")
    assert fresh.returncode == 0, fresh.stderr
    assert not workdir.exists() and _fetched(tmp_path / "s.nitpicker") == 61


def _tar_of(tmp_path: Path) -> Path:
    (tmp_path / "inner").mkdir()
    (tmp_path / "inner" / "x.txt").write_text("x")
    tar = tmp_path / "site.tar"
    with tarfile.open(tar, "w") as tf:
        tf.add(tmp_path / "inner", arcname="inner")
    return tar


@pytest.mark.parametrize("kind", ["tar", "text", "empty-dir", "missing"])
def test_resume_refuses_what_nitpicker_query_refuses(tmp_path: Path, kind: str) -> None:
    target = {"tar": lambda: _tar_of(tmp_path),
              "text": lambda: (tmp_path / "t.nitpicker").write_text("hello")
              and tmp_path / "t.nitpicker",
              "empty-dir": lambda: (tmp_path / "d").mkdir() or tmp_path / "d",
              "missing": lambda: tmp_path / "gone.nitpicker"}[kind]()
    before = _files(tmp_path)
    r = run_crawl(tmp_path, "--resume", target.name, "--silent")
    query = subprocess.run([QUERY, "summary", target.name], cwd=tmp_path, capture_output=True,
                           text=True)
    assert r.returncode == 1 and query.returncode == 1
    assert r.stderr.split("error: ", 1)[1] == query.stderr.split("error: ", 1)[1]
    assert len(r.stderr.strip().splitlines()) == 1
    assert _files(tmp_path) == before and not list(tmp_path.glob("._nitpicker-*"))


def test_two_crawls_to_one_name_in_two_directories(tmp_path: Path, zoo: TrapZoo) -> None:
    for d in ("a", "b"):
        (tmp_path / d).mkdir()
    procs = [subprocess.Popen([CRAWL, zoo.url + "blog/", "-o", f"{d}/site.nitpicker",
                               "--no-render", "--silent", "--no-fetch-external"],
                              cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for d in ("a", "b")]
    results = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], results
    assert _fetched(tmp_path / "a" / "site.nitpicker") == 61
    assert _fetched(tmp_path / "b" / "site.nitpicker") == 61
    assert not list(tmp_path.glob("._nitpicker-*"))  # nothing in the current directory


def test_a_flag_given_with_resume_overrides_the_stored_one(tmp_path: Path,
                                                          zoo: TrapZoo) -> None:
    first = run_crawl(tmp_path, zoo.url + "blog/", "-o", "s.nitpicker", "--no-render",
                      "--silent", "--no-fetch-external")
    assert first.returncode == 0, first.stderr
    before = (tmp_path / "s.nitpicker").read_bytes()
    # --render overrides the stored --no-render: without a browser that now fails, and
    # the archive stays as it was (no copy left beside it)
    r = subprocess.run([CRAWL, "--resume", "s.nitpicker", "--render", "--silent"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=60,
                       env={**os.environ, "NITPICKER_CHROMIUM": str(tmp_path / "none")})
    assert r.returncode == 1
    assert "--render overrides the crawl's --no-render" in r.stderr
    assert "No Chromium found" in r.stderr
    assert (tmp_path / "s.nitpicker").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.nitpicker"]
    # the same value as stored is no override: nothing said
    same = run_crawl(tmp_path, "--resume", "s.nitpicker", "--no-render", "--silent")
    assert same.returncode == 0 and "overrides" not in same.stderr


class _Flaky:
    """A two-page site whose /flaky drops the connection while ``down`` (status -1)."""

    def __init__(self) -> None:
        import http.server
        import socket
        import threading

        state = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                if self.path == "/flaky" and state.down:
                    self.connection.shutdown(socket.SHUT_RDWR)  # no answer at all
                    return
                body = (b'<html><head><title>Home</title></head><body><a href="/flaky">f</a>'
                        b"</body></html>") if self.path == "/" else (
                    b"<html><head><title>Flaky</title></head><body>back</body></html>")
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.down = True
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


def test_resume_tries_the_failed_urls_again_and_says_what_it_resumes(tmp_path: Path) -> None:
    site = _Flaky()
    try:
        first = run_crawl(tmp_path, site.url, "-o", "s.nitpicker", "--no-render",
                          "--retry", "1", "--silent")
        assert first.returncode == 1, first.stderr  # a URL of the site could not be fetched
        with q.open_archive(tmp_path / "s.nitpicker") as a:
            assert a.execute("SELECT status FROM pages WHERE url = ?",
                             (site.url + "flaky",)).fetchone()[0] == -1
        site.down = False
        r = run_crawl(tmp_path, "--resume", "s.nitpicker")
        assert r.returncode == 0, r.stderr
        lines = r.stderr.splitlines()
        # what it resumes, and with which of its options (those not at their default)
        assert lines[0] == ("nitpicker-crawl: resuming s.nitpicker: 2 URLs done (1 HTML "
                            "page), 0 still queued, 1 failed URL to try again; with its "
                            "options: --no-render --retry 1"), lines
        assert lines[1] == f"nitpicker-crawl: scope: {site.url} (the whole host)"
        detail = q.get_page_detail(tmp_path / "s.nitpicker", url=site.url + "flaky")
        assert detail is not None and (detail["status"], detail["title"]) == (200, "Flaky")
        # the first run's failure stays on record, as what went wrong then
        assert [p["phase"] for p in detail["problems"]] == ["crawl"]
    finally:
        site.server.shutdown()
        site.server.server_close()


def test_resume_with_another_start_url_asks_for_add_root(tmp_path: Path, zoo: TrapZoo) -> None:
    """A start URL given to --resume widens the scope: refused in one line, the archive
    untouched; with --add-root it is crawled too and recorded among the roots."""
    first = run_crawl(tmp_path, zoo.url + "blog/", "-o", "s.nitpicker", "--no-render",
                      "--max-pages", "5", "--silent", "--no-fetch-external")
    assert first.returncode == 3, first.stderr
    before = _files(tmp_path)
    r = run_crawl(tmp_path, "--resume", "s.nitpicker", zoo.url + "products/", "--silent")
    assert r.returncode == 2
    last = r.stderr.strip().splitlines()[-1]
    assert f"{zoo.url}products/ is not a start URL of the crawl being resumed" in last
    assert "--add-root" in last
    assert _files(tmp_path) == before
    r = run_crawl(tmp_path, "--resume", "s.nitpicker", zoo.url + "products/", "--add-root",
                  "--silent", "--max-pages", "100000")
    assert r.returncode == 0, r.stderr
    roots = q.get_summary(tmp_path / "s.nitpicker")["roots"]
    assert roots == [zoo.url + "blog/", zoo.url + "products/"]
    assert q.list_pages(tmp_path / "s.nitpicker", directory="/products")["total"] > 0
