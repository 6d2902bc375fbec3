"""The crawl as a process: exit codes, bad input, Ctrl-C, kill -9, --resume, determinism."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

import nitpicker_query as q
from nitpicker_crawl.trapzoo import TrapZoo
from tests.crawl.conftest import CRAWL, run_crawl


def _urls(archive: Path | str) -> set[str]:
    with q.open_archive(archive) as a:
        return {r[0] for r in a.execute("SELECT url FROM pages WHERE scraped = 1")}


def _first_crawled(archive: Path | str) -> dict[str, int]:
    with q.open_archive(archive) as a:
        return {r[0]: r[1] for r in a.execute(
            "SELECT url, firstCrawledAt FROM pages WHERE scraped = 1 AND status = 200 "
            "AND isExternal = 0")}


def _start(cwd: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([CRAWL, *args], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ})


def _wait_for_pages(workdir: Path, minimum: int, timeout: float = 60) -> None:
    import sqlite3

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        db = workdir / "db.sqlite"
        if db.exists():
            try:
                conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)
                # the site's pages: external links are checked beside them, from the start
                n = conn.execute("SELECT count(*) FROM pages WHERE status = 200 AND scraped = 1 "
                                 "AND isExternal = 0").fetchone()[0]
                conn.close()
                if n >= minimum:
                    return
            except sqlite3.Error:
                pass
        time.sleep(0.1)
    raise AssertionError("the crawl did not get going")


@pytest.mark.parametrize(("start", "said"), [
    # a start URL naming a page crawls its directory: say so, and where the whole host is
    ("wiki/index.php?title=Article_1", "{u}wiki/ and below; other pages of {h} are external "
     "links (start at {u} to crawl the whole host)"),
    ("blog/", "{u}blog/ and below; other pages of {h} are external links (start at {u} to "
     "crawl the whole host)"),
    # the host's root: nothing to suggest
    ("", "{u} (the whole host)"),
])
def test_the_first_line_says_the_scope(tmp_path: Path, start: str, said: str) -> None:
    with TrapZoo() as zoo:
        r = run_crawl(tmp_path, zoo.url + start, "-o", "s.nitpicker", "--no-render",
                      "--max-pages", "3", "--no-fetch-external")
        host = zoo.url.split("//")[1].rstrip("/")
        first = r.stderr.replace("\r", "\n").splitlines()[0]
        assert first == "nitpicker-crawl: scope: " + said.format(u=zoo.url, h=host), r.stderr
        quiet = run_crawl(tmp_path, zoo.url + start, "-o", "q.nitpicker", "--no-render",
                          "--max-pages", "3", "--silent")
        assert "scope:" not in quiet.stderr


@pytest.mark.parametrize(("flag", "glob", "said"), [
    ("--exclude", "/a,[abc", "'[abc' has [ or ]: these globs have no character classes"),
    ("--exclude", "/a/{x,y", "'/a/{x,y' has an unbalanced or nested { }"),
    ("--dedupe-allow", "/t/{a,{b,c}}", "has an unbalanced or nested { }"),
])
def test_a_glob_this_dialect_would_misread_is_a_usage_error(
        tmp_path: Path, flag: str, glob: str, said: str) -> None:
    r = run_crawl(tmp_path, "http://127.0.0.1:9/", flag, glob, "-o", "x.nitpicker")
    assert r.returncode == 2 and said in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and list(tmp_path.iterdir()) == []


def test_globs_of_the_dialect_are_taken(tmp_path: Path, zoo: TrapZoo) -> None:
    r = run_crawl(tmp_path, zoo.url, "--exclude", "/list/**,/{search,catalog}/**,/archive/*",
                  "-o", "g.nitpicker", "--no-render", "--silent", "--max-pages", "5")
    assert r.returncode in (0, 3), r.stderr


@pytest.mark.parametrize(("typed", "said"), [
    ("ftp://example.com/", "not an http(s) URL: 'ftp://example.com/'"),
    ("http://127.0.0.1:99999/", "http://127.0.0.1:99999/: the port in '127.0.0.1:99999' is "
     "not a number from 1 to 65535"),
    ("old.nitpicker", "old.nitpicker is an archive, not a URL: continue its crawl with "
     "--resume old.nitpicker, read it with nitpicker-query summary old.nitpicker"),
])
def test_invalid_url_is_a_usage_error(tmp_path: Path, typed: str, said: str) -> None:
    (tmp_path / "old.nitpicker").write_bytes(b"an archive")
    r = run_crawl(tmp_path, typed)
    assert r.returncode == 2
    assert said in r.stderr.strip().splitlines()[-1] and "Traceback" not in r.stderr
    assert [f.name for f in tmp_path.iterdir()] == ["old.nitpicker"]


def test_a_url_without_a_scheme_is_taken_as_a_browser_would(tmp_path: Path,
                                                             zoo: TrapZoo) -> None:
    """``127.0.0.1:PORT/blog/`` is crawled as ``http://…`` (a local server), and says so;
    the other direction, a name, is ``https://`` (checked without a request)."""
    typed = zoo.url.removeprefix("http://") + "blog/"
    r = run_crawl(tmp_path, typed, "-o", "b.nitpicker", "--no-render", "--max-pages", "3",
                  "--no-fetch-external")
    assert r.returncode == 3, r.stderr
    assert f"{typed} has no scheme: crawling {zoo.url}blog/" in r.stderr
    assert q.get_summary(tmp_path / "b.nitpicker")["roots"] == [zoo.url + "blog/"]
    from nitpicker_crawl.cli import _with_scheme, build_parser
    assert _with_scheme(build_parser(), "example.com/docs") == ("https://example.com/docs",
                                                                 True)


def test_unreachable_start_url_exits_1_and_writes_no_archive(tmp_path: Path) -> None:
    r = run_crawl(tmp_path, "http://127.0.0.1:9/", "-o", "x.nitpicker", "--no-render",
                  "--silent", "--retry", "1", timeout=60)
    assert r.returncode == 1
    assert "no page of the site could be fetched" in r.stderr
    assert "ECONNREFUSED" in r.stderr and "no archive written" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []  # nothing to audit: no file, no work directory


def test_a_start_url_answering_an_error_exits_1_naming_it_and_keeps_the_archive(
        tmp_path: Path, zoo: TrapZoo) -> None:
    r = run_crawl(tmp_path, zoo.url + "error", "-o", "e.nitpicker", "--no-render",
                  "--silent", "--exclude-pattern", r"//[^/]+/(?!error)", timeout=60)
    assert r.returncode == 1, r.stderr
    last = r.stderr.strip().splitlines()[-1]
    assert last == (f"nitpicker-crawl: the start URL answered 500 Internal Server Error "
                    f"({zoo.url}error) and nothing else of the site was crawled: check the "
                    "address (the archive holds that answer)"), r.stderr
    # a 500 is an answer, not a failure to fetch: the archive says what the server said
    assert q.get_summary(tmp_path / "e.nitpicker")["statusDistribution"][0]["status"] == 500
    # a mistyped address, the same
    r = run_crawl(tmp_path, zoo.url + "no-such-page/", "-o", "m.nitpicker", "--no-render",
                  "--silent", timeout=60)
    assert r.returncode == 1 and "the start URL answered 404 Not Found" in r.stderr, r.stderr


def test_a_start_url_that_redirects_to_a_page_is_a_crawl_not_an_error(
        tmp_path: Path, zoo: TrapZoo) -> None:
    # the other way: a start that answers 301, then 302, then a page is a crawl
    r = run_crawl(tmp_path, zoo.url + "redirect/start", "-o", "ok.nitpicker", "--no-render",
                  "--silent", "--no-fetch-external", timeout=60)
    assert r.returncode == 0 and "the start URL answered" not in r.stderr, r.stderr
    assert (tmp_path / "ok.nitpicker").is_file()


def test_only_external_errors_exit_2_and_strict_makes_it_1(tmp_path: Path) -> None:
    with TrapZoo() as zoo:
        zoo.stop()  # nothing answers on the external origin now …
        with TrapZoo() as live:
            # … so point the live site's outbound page at the dead origin
            live.site.external = zoo.external_url.rstrip("/")
            args = [live.url + "links/", "--no-render", "--silent", "--retry", "1"]
            r = run_crawl(tmp_path, *args, "-o", "a.nitpicker")
            strict = run_crawl(tmp_path, *args, "-o", "b.nitpicker", "--strict")
    assert r.returncode == 2, r.stderr
    assert "external link(s) could not be fetched" in r.stderr
    assert strict.returncode == 1


def test_two_crawls_of_the_legit_part_agree(tmp_path: Path, zoo: TrapZoo) -> None:
    roots = [zoo.url + "blog/", zoo.url + "products/"]
    for name in ("one", "two"):
        r = run_crawl(tmp_path, *roots, "-o", f"{name}.nitpicker", "--no-render",
                      "--parallels", "1", "--silent", "--no-fetch-external")
        assert r.returncode == 0, r.stderr
    first, second = _urls(tmp_path / "one.nitpicker"), _urls(tmp_path / "two.nitpicker")
    assert first == second and len(first) == 1 + 60 + 1 + 40


def test_ctrl_c_writes_the_archive_and_resume_finishes(tmp_path: Path, zoo: TrapZoo) -> None:
    args = [zoo.url + "blog/", "--no-render", "--parallels", "1", "--interval", "150",
            "--silent"]
    proc = _start(tmp_path, *args, "-o", "blog.nitpicker")
    _wait_for_pages(tmp_path / "._nitpicker-blog", 5)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Continue with: nitpicker-crawl --resume blog.nitpicker" in err
    before = _first_crawled(tmp_path / "blog.nitpicker")
    assert 5 <= len(before) < 61
    r = run_crawl(tmp_path, "--resume", "blog.nitpicker", "--no-render", "--silent")
    assert r.returncode == 0, r.stderr
    after = _first_crawled(tmp_path / "blog.nitpicker")
    assert len(after) == 61
    assert all(after[u] == t for u, t in before.items())  # nothing fetched twice


@pytest.mark.slow  # 12 s; Ctrl-C and resume stay in the fast suite
def test_kill_9_then_resume_completes(tmp_path: Path, zoo: TrapZoo) -> None:
    proc = _start(tmp_path, zoo.url + "blog/", "--no-render", "--parallels", "1",
                  "--interval", "150", "--silent", "-o", "hard.nitpicker")
    workdir = tmp_path / "._nitpicker-hard"
    _wait_for_pages(workdir, 5)
    proc.kill()
    proc.communicate(timeout=30)
    assert not (tmp_path / "hard.nitpicker").exists()
    saved = _first_crawled(workdir)  # the stub reads, WAL included
    assert len(saved) >= 5
    # the file named by -o was never written: --resume of it says where the work is
    wrong = run_crawl(tmp_path, "--resume", "hard.nitpicker", "--no-render", "--silent")
    assert wrong.returncode != 0
    assert ("hard.nitpicker was never written: its crawl stopped first and left its work "
            "in ._nitpicker-hard; continue it with --resume ._nitpicker-hard") in wrong.stderr
    assert _first_crawled(workdir) == saved
    r = run_crawl(tmp_path, "--resume", str(workdir), "--no-render", "--silent")
    assert r.returncode == 0, r.stderr
    after = _first_crawled(tmp_path / "hard.nitpicker")
    assert len(after) == 61 and all(after[u] == t for u, t in saved.items())
    assert not workdir.exists()


@pytest.mark.parametrize("limit", [5, 20])
def test_max_pages_fetches_exactly_n_urls_of_the_site(tmp_path: Path, zoo: TrapZoo,
                                                     limit: int) -> None:
    r = run_crawl(tmp_path, zoo.url + "archive/", "--no-render", "--max-pages", str(limit),
                  "-o", "cap.nitpicker", "--silent", "--parallels", "8", timeout=120)
    assert r.returncode == 3, r.stderr  # stopped early: not the exit status of a whole site
    assert f"stopped at --max-pages {limit}" in r.stderr
    with q.open_archive(tmp_path / "cap.nitpicker") as a:
        fetched = a.execute("SELECT count(*) FROM pages WHERE scraped = 1 AND isExternal = 0 "
                            "AND redirectDestId IS NULL").fetchone()[0]
        summary = q.get_summary(a)
    assert fetched == limit  # not a page more, with 8 workers racing
    assert summary["crawl"]["stopReason"] == "max-pages"


def test_a_site_smaller_than_max_pages_is_complete(tmp_path: Path, zoo: TrapZoo) -> None:
    r = run_crawl(tmp_path, zoo.url + "blog/", "--no-render", "--max-pages", "1000",
                  "-o", "blog.nitpicker", "--silent", "--no-fetch-external", timeout=120)
    assert r.returncode == 0, r.stderr
    assert "max-pages" not in r.stderr
    assert q.get_summary(tmp_path / "blog.nitpicker")["crawl"]["stopReason"] == "complete"


@pytest.mark.slow  # waits out a wedged page: 18 s
def test_wedged_page_is_stored_as_it_stood_and_the_crawl_goes_on(tmp_path: Path,
                                                                  zoo: TrapZoo) -> None:
    """A script that never loads blocks the parser: at the deadline the page is read as
    it stands (its title came before the script) and stored with a deadline problem."""
    started = time.monotonic()
    r = run_crawl(tmp_path, zoo.url + "wedge/", zoo.url + "blog/", "-o", "w.nitpicker",
                  "--timeout", "3", "--retry", "1", "--silent", "--no-fetch-external",
                  timeout=120)
    assert time.monotonic() - started < 60
    assert r.returncode == 0, r.stderr
    assert "1 page(s) stored with a problem" in r.stderr and "wedge/" in r.stderr
    with q.open_archive(tmp_path / "w.nitpicker") as a:
        wedge = a.execute("SELECT status, title, id FROM pages WHERE url = ?",
                          (zoo.url + "wedge/",)).fetchone()
        blog = a.execute("SELECT count(*) FROM pages WHERE url LIKE '%/blog/page/%' "
                         "AND status = 200").fetchone()[0]
        message = a.execute("SELECT message FROM page_errors WHERE pageId = ?",
                            (wedge[2],)).fetchone()[0]
    assert tuple(wedge[:2]) == (200, "Wedged") and blog == 60
    assert q.classify_error_kind(message) == "deadline"
    assert message.startswith(f"deadline: {zoo.url}wedge/ was not parsed within 3 s")


def test_missing_browser_says_how_to_install_one(tmp_path: Path, zoo: TrapZoo) -> None:
    r = subprocess.run([CRAWL, zoo.url + "blog/", "-o", "b.nitpicker", "--silent"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=60,
                       env={**os.environ, "NITPICKER_CHROMIUM": str(tmp_path / "no-chromium")})
    assert r.returncode == 1
    assert "python -m playwright install chromium" in r.stderr and "--no-render" in r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []  # no archive, no working directory left behind


def test_disable_queries_and_no_image(tmp_path: Path, zoo: TrapZoo) -> None:
    # without query strings the query traps collapse into single pages: the crawl ends
    r = run_crawl(tmp_path, zoo.url, "-o", "dq.nitpicker", "--disable-queries", "--no-image",
                  "--exclude", "/list/**", "--no-render", "--silent", timeout=120)
    assert r.returncode == 0, r.stderr
    with q.open_archive(tmp_path / "dq.nitpicker") as a:
        urls = [row[0] for row in a.execute("SELECT url FROM pages")]
        assert a.execute("SELECT count(*) FROM images").fetchone()[0] == 0
        info = a.execute("SELECT disableQueries, image FROM info").fetchone()
    assert not [u for u in urls if "?" in u]
    assert zoo.url + "search" in urls and zoo.url + "index.php" in urls
    assert tuple(info) == (1, 0)


def test_exclude_pattern_separates_a_query_trap_from_its_parent(tmp_path: Path,
                                                                zoo: TrapZoo) -> None:
    # a page root scopes its directory (here the whole host): a second pattern keeps the
    # crawl to the wiki's script
    r = run_crawl(tmp_path, zoo.url + "index.php?title=Main_Page", "-o", "w.nitpicker",
                  "--exclude-pattern", "[?&]action=history",
                  "--exclude-pattern", r"//[^/]+/(?!index\.php)", "--no-render", "--silent",
                  timeout=120)
    assert r.returncode == 0, r.stderr
    with q.open_archive(tmp_path / "w.nitpicker") as a:
        articles = a.execute("SELECT count(*) FROM pages WHERE url LIKE '%title=Article_%' "
                             "AND url NOT LIKE '%action=%' AND status = 200").fetchone()[0]
        history = a.execute("SELECT count(*), min(skipReason) FROM pages "
                            "WHERE url LIKE '%action=history%'").fetchone()
    assert articles == 30
    assert history[0] == 30 and history[1] == "excluded (--exclude-pattern [?&]action=history)"


def test_bad_exclude_pattern_is_a_usage_error(tmp_path: Path) -> None:
    r = run_crawl(tmp_path, "http://127.0.0.1:9/", "--exclude-pattern", "(")
    assert r.returncode == 2 and "is not a regular expression" in r.stderr


def test_a_reader_that_goes_away_does_not_stop_the_crawl(tmp_path: Path, zoo: TrapZoo) -> None:
    """``nitpicker-crawl … 2>&1 | head -2``: once nobody reads its progress, the crawl
    goes on, ends as it would have and writes its archive (it died leaving its working
    directory, or wedged, when a write raised BrokenPipeError)."""
    proc = subprocess.Popen([CRAWL, zoo.url + "blog/", "-o", "p.nitpicker", "--no-render",
                             "--no-fetch-external", "--max-pages", "8", "--interval", "100"],
                            cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env={**os.environ})
    assert proc.stderr is not None
    proc.stderr.readline()
    proc.stderr.close()   # the reader is gone: every later write meets a closed pipe
    assert proc.wait(timeout=120) == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.nitpicker"]
    with q.open_archive(tmp_path / "p.nitpicker") as a:
        assert a.count("SELECT count(*) FROM pages WHERE scraped = 1 AND isExternal = 0") == 8
