"""The crawler against a hostile website (issue 20): every case of ``tests/hostile/server``
(written apart from the crawler's rules, from the behaviour of broken and malicious
servers) costs at most its own page. Each crawl must end by itself within its deadline,
stay under a memory bound, write a readable archive, keep every normal page, and give
every hostile URL the record its case calls for."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

import nitpicker_query as q
from corpora.hostile_site import CASES, NORMAL_PAGES, PRIVATE_PAGE, HostileSite
from nitpicker_crawl.fetch.urls import MAX_URL_LENGTH

CRAWL = str(Path(sys.executable).with_name("nitpicker-crawl"))
QUERY = str(Path(sys.executable).with_name("nitpicker-query"))

LIMITS = ("--max-body-size", "8M", "--page-timeout", "10", "--timeout", "6", "--retry", "2",
          "--dedupe-cap", "20", "--no-fetch-external", "--max-tab-memory", "512",
          "--stop-grace", "3", "--silent")
"""Small limits, so the bombs and trickles end in seconds; the cap ends the relative-link
trap; external links are not fetched, so nothing may reach the other host. The page's
10 s leave a slow but real page (3 s, after a first attempt cut at a third of --timeout)
room on a loaded two-core machine, and so does --timeout 6 (its first attempt is cut at
2 s): at 6 s and 4 s it missed its deadline one run in two."""

PEAK_RSS = 1536 << 20
"""Most memory any one process of a crawl may hold (the issue's bound is 2 GB)."""

# what each case must leave in the archive: (without a browser, rendered)
# "stored": 200 with its title, no problem; "answered": a status, no problem (no title to
# expect); "problem:K": answered and a page_errors problem of kind K; "error:K": status -1
# with a failure of kind K; "redirect": points at its target; "3xx": a redirect kept as it
# is (nowhere to go); "external": points at an external target not requested
STORED, ANSWERED, REDIRECT, EXTERNAL, THREE = "stored", "answered", "redirect", "external", "3xx"
EXPECTED: dict[str, tuple[str, str]] = {
    **{name: ("problem:body-too-large",) * 2 for name in (
        "gzip-bomb", "gzip-twice", "deflate-bomb", "gzip-1gib-valid", "html-600mb",
        "title-10mb", "line-50mb")},
    # endless: whichever bound comes first, the size or the attempt's deadline (on a
    # loaded two-core machine 8 MB may take longer than an attempt's 4 s)
    "endless-chunked": ("problem:body-too-large|problem:deadline",) * 2,
    "content-length-overstated": ("error:parse-error",) * 2,
    "content-length-understated": (ANSWERED,) * 2,
    **{name: ("problem:content-decoding",) * 2 for name in (
        "encoding-br-garbage", "encoding-zstd-garbage", "encoding-unknown",
        "gzip-not-gzipped")},
    "gzip-truncated": (ANSWERED,) * 2,
    "slowloris-body": ("problem:deadline",) * 2, "stall-mid-body": ("problem:deadline",) * 2,
    # never a complete answer: each attempt's deadline (--timeout) or the page's ends it
    **{name: ("error:deadline|error:connection-timeout",) * 2 for name in (
        "slow-headers", "no-answer", "endless-continue")},
    # slow but real: stored, unless the loaded test machine's server answers it past the
    # crawl's deadline (a bounded failure, named; seen one run in three on two cores)
    "slow-page": ("stored|error:deadline|error:connection-timeout",) * 2,
    **{name: (STORED,) * 2 for name in (
        "charset-rot13", "charset-base64", "charset-unknown", "utf16-says-utf8",
        "invalid-utf8", "image-bad-dimensions", "jsonld-deep", "deep-divs",
        "url-3mb", "relative-trap", "odd-schemes", "base-other-host",
        "backslash-host", "fullwidth-host", "octal-host", "decimal-host", "uppercase-host",
        "trailing-dot-host", "userinfo", "chunked-and-length")},
    # a 70,000-character link: stored, or its body still arriving at the page's deadline
    # on a loaded machine (bounded either way)
    "url-70k": ("stored|problem:deadline",) * 2,
    "empty-200": (ANSWERED,) * 2, "png-as-html": (ANSWERED,) * 2,
    "fanout-10k": ("problem:links-left-out",) * 2,
    # 100,000 links take a tab past 512 MB, or past the page's deadline on a loaded two-core
    # machine (seen in CI: 10 s): either way the page is stored as it was served, its links
    # read from the HTML, and the problem is named
    **{name: (STORED, f"{STORED}|problem:renderer-memory|problem:deadline") for name in (
        "spellings-100k", "same-url-100k")},
    "push-state-flood": (STORED,) * 2, "popup-loop": (STORED,) * 2,
    "fetch-flood": (STORED,) * 2, "beforeunload-trap": (STORED,) * 2,
    # it allocates from a timer after load: read before its first allocation, its timers
    # stop with it (stored); later, the tab's bound ends it (test_a_tab_over_its_memory_
    # bound_costs_its_own_page has one that allocates before it can be read)
    "memory-hog": (STORED, f"{STORED}|problem:renderer-memory|problem:renderer-crash"),
    # an endless gzip of zeros as an <img>, a <script src> and a fetch(): the tab's
    # memory or the page's deadline ends it, whichever comes first
    "subresource-bomb": (STORED, "problem:renderer-memory|problem:renderer-crash|"
                                 "problem:deadline"),
    # it navigates while parsing: refused long before the page is read
    "navigate-in-head": (STORED, "problem:navigation-refused"),
    # they navigate at DOMContentLoaded or after load (a timer, a refresh): the page may be
    # read before the refusal is reported, or left before the navigation comes
    **{name: (STORED, f"{STORED}|problem:navigation-refused") for name in (
        "location-replace", "navigate-same-site", "navigate-other-origin", "meta-refresh")},
    "refresh-header": (STORED,) * 2,  # the Refresh header is kept, not followed
    "cpu-loop": (STORED, "problem:deadline"), "alert-loop": (STORED, "problem:deadline"),
    "raw-utf8-location": (REDIRECT,) * 2,
    "redirect-other-host": (EXTERNAL,) * 2, "redirect-port-1": (EXTERNAL,) * 2,
    "redirect-closed-port": (EXTERNAL,) * 2,
    **{name: ("error:parse-error",) * 2 for name in (
        "garbage-status", "location-nul", "location-cr", "conflicting-lengths",
        "bad-chunk-size", "malformed-headers", "many-headers", "huge-header",
        "endless-headers")},
    **{name: ("error:connection-reset",) * 2 for name in (
        "http09", "empty-reply", "connection-reset")},
    **{name: ("error:too-many-redirects",) * 2 for name in (
        "redirect-loop", "redirect-chain-100", "redirect-endless-unique")},
    **{name: (THREE,) * 2 for name in (
        "redirect-self", "redirect-file", "redirect-data", "redirect-javascript",
        "redirect-no-location")},
}


@dataclass
class Run:
    archive: Path
    returncode: int
    stderr: str
    seconds: float
    peak_rss: int  # bytes, the largest process of the crawl


RENDERED = ("--timeout", "10")
"""Chromium on two cores, four tabs at once: ten seconds to load and to be read."""


def crawl(cwd: Path, *args: str, timeout: float = 400) -> Run:
    """``nitpicker-crawl`` in a process of its own whose only children are the crawl's,
    so ``RUSAGE_CHILDREN``'s peak is the crawl's largest process (Chromium's included):
    what ``/usr/bin/time -v`` reports."""
    probe = ("import resource, subprocess, sys; r = subprocess.run(sys.argv[1:]); "
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, "
             "file=sys.stdout); sys.exit(r.returncode)")
    started = time.monotonic()
    r = subprocess.run([sys.executable, "-c", probe, CRAWL, *args], cwd=cwd,
                       capture_output=True, text=True, timeout=timeout)
    return Run(cwd / "site.nitpicker", r.returncode, r.stderr, time.monotonic() - started,
               int(r.stdout.strip().splitlines()[-1]) * 1024)


@pytest.fixture(scope="module")
def site() -> Iterator[HostileSite]:
    with HostileSite() as s:
        yield s


@pytest.fixture(scope="module", params=[
    pytest.param("no-render", marks=pytest.mark.slow),
    pytest.param("rendered", marks=pytest.mark.slow)])
def whole(request: pytest.FixtureRequest, site: HostileSite,
          tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Run]:
    """The whole hostile site crawled from ``/``, each mode once (30 s and 80 s, so in
    ``make test-slow``; the tests below the whole-site ones keep single cases of each
    kind in the quick suite)."""
    mode = request.param
    directory = tmp_path_factory.mktemp(f"hostile-{mode}")
    links = "120" if mode == "rendered" else "500"  # fan-out leaves: Chromium is slower
    run = crawl(directory, site.url, "-o", "site.nitpicker", *LIMITS,
                "--max-links-per-page", links,
                *(["--no-render", "--parallels", "8"] if mode == "no-render" else RENDERED))
    return mode, run


def test_the_whole_site_ends_by_itself_under_the_bounds(whole: tuple[str, Run]) -> None:
    mode, run = whole
    assert run.archive.exists(), run.stderr[-2000:]
    assert run.returncode == 1  # URLs of the site failed: said, not fatal
    assert "Traceback" not in run.stderr and "internal error" not in run.stderr
    assert all(len(line) <= 1100 for line in run.stderr.splitlines())  # 3 MB URLs cut
    assert run.peak_rss < PEAK_RSS, f"{mode}: {run.peak_rss >> 20} MiB"
    summary = subprocess.run([QUERY, "summary", str(run.archive), "--format", "json"],
                             capture_output=True, text=True, timeout=120)
    assert summary.returncode == 0 and json.loads(summary.stdout)["crawl"]["stopReason"] == \
        "complete"


def test_every_normal_page_is_there(whole: tuple[str, Run], site: HostileSite) -> None:
    _, run = whole
    with q.open_archive(run.archive) as a:
        for path in NORMAL_PAGES:
            row = a.execute("SELECT status, title FROM pages WHERE url = ?",
                            (site.url.rstrip("/") + path,)).fetchone()
            assert row is not None and row["status"] == 200 and row["title"], path
        private = a.execute("SELECT skipReason FROM pages WHERE url = ?",
                            (site.url.rstrip("/") + PRIVATE_PAGE,)).fetchone()
    assert private is not None and private[0] == "robots.txt"
    assert site.hits(PRIVATE_PAGE) == 0
    # no link, redirect, <base href> or backslash took the crawler to the other host
    assert site.other_hits() == 0


def _outcome(a: q.Archive, url: str) -> tuple[str, dict[str, Any]]:
    row = a.execute("SELECT * FROM pages WHERE url = ?", (url,)).fetchone()
    assert row is not None, f"no row for {url[:120]}"
    detail = q.get_page_detail(a, url=url)
    assert detail is not None
    kinds = [p["kind"] for p in detail["problems"]]
    if row["redirectDestId"] is not None:
        target = a.execute("SELECT isExternal, scraped FROM pages WHERE id = ?",
                           (row["redirectDestId"],)).fetchone()
        return (EXTERNAL if target["isExternal"] == 1 and not target["scraped"] else REDIRECT,
                detail)
    status = row["status"]
    if status == -1:
        return f"error:{kinds[0] if kinds else 'none'}", detail
    page_kinds = [p["kind"] for p in detail["problems"] if p["phase"] != "crawl"]
    if page_kinds:
        return f"problem:{page_kinds[0]}" if len(set(page_kinds)) == 1 else \
            "problem:" + ",".join(sorted(set(page_kinds))), detail
    if status is not None and 300 <= status < 400:
        return THREE, detail
    return (STORED if status == 200 and row["title"] else ANSWERED), detail


def test_every_hostile_case_has_its_record(whole: tuple[str, Run], site: HostileSite) -> None:
    mode, run = whole
    assert {c.name for c in CASES} == set(EXPECTED), "a case without an expectation"
    wrong = []
    with q.open_archive(run.archive) as a:
        for case in CASES:
            want = EXPECTED[case.name][mode == "rendered"]
            got, detail = _outcome(a, site.url.rstrip("/") + case.path)
            if want == STORED and got == ANSWERED:
                got = ANSWERED  # a title is checked below where it matters
            if got not in want.split("|") and not (want == ANSWERED and got == STORED):
                wrong.append((case.name, want, got, [p["message"][:160]
                                                     for p in detail["problems"]]))
    assert not wrong, "\n".join(map(str, wrong))


def test_what_the_hostile_pages_hold(whole: tuple[str, Run], site: HostileSite) -> None:
    """The values a user reads off the hostile pages are the page's, decoded right."""
    mode, run = whole
    base = site.url.rstrip("/")
    with q.open_archive(run.archive) as a:
        def title(path: str) -> str:
            return str(a.execute("SELECT title FROM pages WHERE url = ?",
                                 (base + path,)).fetchone()[0])

        assert title("/content/charset-rot13") == "Charset rot13"  # not rot13-decoded
        assert title("/content/utf16-bom") == "UTF-16 page"  # the BOM beat the header
        assert "\ufffd" in title("/content/invalid-utf8")
        sizes = a.execute("SELECT i.width, i.height FROM images i JOIN pages p ON "
                          "p.id = i.pageId WHERE p.url = ?",
                          (base + "/content/img-dimensions",)).fetchall()
        assert sizes and all(abs(w) < 2**31 and abs(h) < 2**31 for w, h in sizes)
        jsonld = q.get_page_jsonld(a, url=base + "/content/jsonld-deep")
        assert jsonld is not None and any("nested deeper than 100 levels" in
                                          str(e.get("parseError")) for e in jsonld["entries"])
        long = a.execute("SELECT url, skipReason FROM pages WHERE url LIKE ? AND "
                         "length(url) > ?", (base + "/long/%", MAX_URL_LENGTH)).fetchall()
        assert sorted(len(u) - len(base) for u, _ in long) == [70_000, 3_000_000]
        assert {r for _, r in long} == {"url-too-long"}
        spellings = [u for (u,) in a.execute("SELECT url FROM pages WHERE url LIKE ?",
                                              ("%ormal%7",))]
        assert spellings == [base + "/normal/7"]  # 100,000 spellings of it: one page
        target = a.execute("SELECT p.url, p.status FROM pages p JOIN pages s ON "
                           "s.redirectDestId = p.id WHERE s.url = ?",
                           (base + "/url/raw-utf8-redirect",)).fetchone()
        assert tuple(target) == (base + "/%C3%BCn%C3%AFc%C3%B6d%C3%A9-target", 200)
        hosts = {u.split("/")[2] for (u,) in a.execute("SELECT url FROM pages")}
        navigating = {path: title(path) for path in (
            "/script/navigate-same-site", "/script/navigate-other-origin",
            "/script/navigate-in-head", "/script/location-replace", "/script/meta-refresh",
            "/redirect/refresh-header")}
    port = base.rsplit(":", 1)[1]
    # fullwidth, octal, decimal and upper-case spellings are all 127.0.0.1, as in a browser
    assert f"127.0.0.1:{port}" in hosts
    assert all(h.isascii() and h == h.lower() and "0177" not in h and "2130706433" not in h
               for h in hosts), hosts
    # what is stored under a URL is that URL's page, not where its script went
    assert not [t for t in navigating.values() if t.startswith("Normal page")], navigating
    if mode == "rendered":  # a stored page's scripts stop: the fetch loop ends with it
        assert site.hits("/script/ping?n=1000") == 0


@pytest.mark.slow  # 22 s
def test_scripts_in_a_browser(site: HostileSite, tmp_path: Path) -> None:
    """Every case that misbehaves only in a browser, rendered: each costs its own page at
    most, the page stored is the URL's own, and the pages beside it render as usual."""
    scripted = [c for c in CASES if c.render_only] + \
        [c for c in CASES if c.name == "refresh-header"]
    roots = [site.url.rstrip("/") + c.path for c in scripted]
    # six seconds to load and six to be read: the CPU loop costs twelve (the others pass
    # in one or two, on two cores)
    run = crawl(tmp_path, *roots, site.url + "normal/1", "-o", "site.nitpicker", *LIMITS,
                "--timeout", "6", timeout=300)
    assert run.archive.exists() and run.returncode == 0, run.stderr[-2000:]
    assert "page(s) stored with a problem; first: " in run.stderr  # the CPU loop's, at least
    assert run.peak_rss < PEAK_RSS, f"{run.peak_rss >> 20} MiB"
    wrong = []
    with q.open_archive(run.archive) as a:
        for case in scripted:
            want = EXPECTED[case.name][1]
            got, detail = _outcome(a, site.url.rstrip("/") + case.path)
            if got not in want.split("|"):
                wrong.append((case.name, want, got, [p["message"][:160]
                                                     for p in detail["problems"]]))
            title = a.execute("SELECT title FROM pages WHERE url = ?",
                              (site.url.rstrip("/") + case.path,)).fetchone()[0]
            assert title and not title.startswith("Normal page"), (case.name, title)
        normals = a.execute("SELECT count(*) FROM pages WHERE url LIKE ? AND status = 200 "
                            "AND title LIKE 'Normal page %'", (site.url + "normal/%",)
                            ).fetchone()[0]
    assert not wrong, "\n".join(map(str, wrong))
    assert normals == 10  # /normal/ is one scope: all ten, rendered beside the hostile ones


def test_a_page_that_will_not_be_left_does_not_cost_the_next(site: HostileSite,
                                                             tmp_path: Path) -> None:
    """One tab for all: after a page whose beforeunload asks to stay (and one whose
    refresh fires as it is left), every page after it in the same tab is rendered."""
    run = crawl(tmp_path, site.url + "script/beforeunload", site.url + "script/meta-refresh",
                site.url + "normal/1", "-o", "site.nitpicker", "--parallels", "1",
                *LIMITS, *RENDERED, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    with q.open_archive(run.archive) as a:
        outcomes = {row[0].rsplit("/", 2)[-2] + "/" + row[0].rsplit("/", 1)[-1]:
                    _outcome(a, row[0])[0] for row in a.execute(
                        "SELECT url FROM pages WHERE url LIKE '%/script/%' OR "
                        "url LIKE '%/normal/%'")}
    assert outcomes == {"script/beforeunload": STORED,
                        "script/meta-refresh": outcomes["script/meta-refresh"],
                        **{f"normal/{n}": STORED for n in range(1, 11)}}
    assert outcomes["script/meta-refresh"] in (STORED, "problem:navigation-refused")


HOG = b"""<!doctype html><title>Hog</title><p>before
<script>const hog = []; for (;;) { const a = new Uint8Array(64 << 20); a.fill(1);
hog.push(a); }</script><p>after"""
"""A page that allocates before it can be read: its parser never gets past the script."""


class _HogSite(ThreadingHTTPServer):
    def __init__(self) -> None:
        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                if self.path == "/robots.txt":
                    self.send_error(404)
                    return
                body = HOG if self.path == "/hog" else (
                    b"<!doctype html><title>Beside " + self.path.encode() + b"</title>"
                    b"<a href=/hog>hog</a><a href=/b>b</a><a href=/c>c</a>")
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        super().__init__(("127.0.0.1", 0), Handler)


def test_a_tab_over_its_memory_bound_costs_its_own_page(tmp_path: Path) -> None:
    """A page allocating without end in its first script: the tab is stopped at
    --max-tab-memory (or V8 gives up first), the page is kept as served with the problem
    named, the crawl's largest process stays near the bound, the pages beside it render."""
    server = _HogSite()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/"
        run = crawl(tmp_path, url, "-o", "site.nitpicker", "--max-tab-memory", "256",
                    "--timeout", "20", "--silent", timeout=180)
    finally:
        server.shutdown()
        server.server_close()
    assert run.returncode == 0, run.stderr[-2000:]
    assert "page(s) stored with a problem; first: " + url + "hog: renderer-" in run.stderr
    assert run.peak_rss < (256 + 512) << 20, f"{run.peak_rss >> 20} MiB"
    with q.open_archive(run.archive) as a:
        got, detail = _outcome(a, url + "hog")
        titles = sorted(r[0] for r in a.execute("SELECT title FROM pages"))
    assert got in ("problem:renderer-memory", "problem:renderer-crash"), detail["problems"]
    assert titles == ["Beside /", "Beside /b", "Beside /c", "Hog"]


# ----------------------------------------------------------------------------- robots.txt

ROBOTS_CASES = {
    # mode: (exit status, what becomes of /private/secret, of /normal/1)
    "normal": (0, "robots.txt", 200), "rot13": (0, "robots.txt", 200),
    "404": (0, 200, 200), "base64": (0, 200, 200), "binary": (0, 200, 200),
    "huge": (0, 200, 200),  # its last line (Disallow: /normal/) lies past 512 KiB
    "gzip-bomb": (0, 200, 200), "redirect-loop": (0, 200, 200),
    "500-then-ok": (0, "robots.txt", 200),
    "503": (1, None, None), "slow": (1, None, None), "endless": (1, None, None),
}


def _robots_crawl(mode: str, directory: Path) -> tuple[str, Run, dict[str, Any]]:
    with HostileSite(robots=mode) as s:
        run = crawl(directory, s.url + "normal/1", s.url + "private/secret",
                    "-o", "site.nitpicker", "--no-render", "--no-fetch-external",
                    "--timeout", "2", "--retry", "1", "--silent", timeout=120)
        outcome: dict[str, Any] = {}
        if run.archive.exists():
            with q.open_archive(run.archive) as a:
                for path in ("/private/secret", "/normal/1"):
                    row = a.execute("SELECT status, skipReason FROM pages WHERE url = ?",
                                    (s.url.rstrip("/") + path,)).fetchone()
                    outcome[path] = row["skipReason"] or row["status"] if row else None
                outcome["notes"] = [r[0] for r in a.execute(
                    "SELECT message FROM crawl_errors WHERE url LIKE '%/robots.txt'")]
        return mode, run, outcome


@pytest.mark.slow  # 22 s
def test_robots_txt_never_takes_the_site_down(tmp_path: Path) -> None:
    """Each way robots.txt can fail, as RFC 9309 says: the crawl goes on (4xx, garbage,
    too big, bombs, loops: everything allowed, noted), or — unreachable (5xx, too slow,
    endless) — fetches nothing of the origin and says why in one line."""
    with ThreadPoolExecutor(max_workers=6) as pool:
        results = list(pool.map(lambda m: _robots_crawl(m, tmp_path / m),
                                [m for m in ROBOTS_CASES if (tmp_path / m).mkdir() is None]))
    for mode, run, outcome in results:
        code, private, normal = ROBOTS_CASES[mode]
        assert run.returncode == code, (mode, run.stderr[-800:])
        assert "Traceback" not in run.stderr, mode
        if code == 1:  # nothing of the site could be fetched: no archive, one reason
            assert not run.archive.exists(), mode
            last = run.stderr.strip().splitlines()[-1]
            assert "no page of the site could be fetched" in last and \
                "robots.txt unreachable" in last and "RFC 9309" in last, (mode, last)
            continue
        assert outcome["/private/secret"] == private, (mode, outcome)
        assert outcome["/normal/1"] == normal, (mode, outcome)
        noted = " ".join(outcome["notes"])
        if mode in ("base64", "binary", "gzip-bomb"):
            assert "no rule could be read" in noted, (mode, noted)
        if mode == "huge":
            assert "is longer than 524,288 bytes; the rest is ignored" in noted
        if mode == "redirect-loop":
            assert "ERR_TOO_MANY_REDIRECTS" in noted and "everything allowed" in noted


# ----------------------------------------------------------------------------- signals


def _start(cwd: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([CRAWL, *args], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)


@pytest.mark.parametrize(("signum", "code"), [
    (signal.SIGTERM, 143), pytest.param(signal.SIGHUP, 129, marks=pytest.mark.slow)])
def test_a_signal_during_a_stuck_fetch_writes_the_archive_and_resume_completes(
        site: HostileSite, tmp_path: Path, signum: int, code: int) -> None:
    """The slowloris body keeps a page in flight for minutes (no --page-timeout given);
    the signal stops the crawl within the grace period, the archive is written with that
    page left for --resume, and the resume (a short deadline this time) completes it."""
    # the site is shared: this crawl's requests are the ones past those already counted
    # (an earlier test's hits must not let the signal go before this crawl is running)
    slow, normal = site.hits("/timing/slow-body"), site.hits("/normal/1")
    proc = _start(tmp_path, site.url + "normal/1", site.url + "timing/slow-body",
                  "-o", "site.nitpicker", "--no-render", "--stop-grace", "2",
                  "--timeout", "600", "--retry", "1", "--no-fetch-external", "--silent")
    deadline = time.monotonic() + 60
    while site.hits("/timing/slow-body") == slow or site.hits("/normal/1") == normal:
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.1)
    time.sleep(1.0)  # the normal page is stored, the slow one is trickling
    sent = time.monotonic()
    proc.send_signal(signum)
    _, stderr = proc.communicate(timeout=60)
    stopped_in = time.monotonic() - sent
    assert proc.returncode == code, stderr
    assert stopped_in < 2 + 10  # the grace period, and the archive's writing
    assert f"interrupted ({signal.Signals(signum).name})" in stderr
    assert "1 page(s) still loading after --stop-grace 2 s were left for it" in stderr
    assert "nitpicker-crawl --resume site.nitpicker" in stderr
    with q.open_archive(tmp_path / "site.nitpicker") as a:
        assert q.get_summary(a)["crawl"]["stopReason"] == "interrupted"
        slow = a.execute("SELECT scraped FROM pages WHERE url = ?",
                         (site.url + "timing/slow-body",)).fetchone()
        assert slow is not None and slow[0] == 0  # unfetched: --resume's to do
    r = subprocess.run([CRAWL, "--resume", "site.nitpicker", "--page-timeout", "3"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert r.returncode == 1, r.stderr  # the slow page ended with its deadline problem
    with q.open_archive(tmp_path / "site.nitpicker") as a:
        detail = q.get_page_detail(a, url=site.url + "timing/slow-body")
        assert q.get_summary(a)["crawl"]["stopReason"] == "complete"
    assert detail is not None and detail["status"] == 200
    assert [p["kind"] for p in detail["problems"]] == ["deadline"]


def test_a_second_ctrl_c_stops_at_once(site: HostileSite, tmp_path: Path) -> None:
    before = site.hits("/timing/slow-body")
    proc = _start(tmp_path, site.url + "timing/slow-body", "-o", "site.nitpicker",
                  "--no-render", "--stop-grace", "600", "--timeout", "600", "--retry", "1",
                  "--silent")
    deadline = time.monotonic() + 60
    while site.hits("/timing/slow-body") == before:
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.1)
    os.killpg(proc.pid, signal.SIGINT)
    time.sleep(0.5)
    sent = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130 and time.monotonic() - sent < 10, stderr
    assert (tmp_path / "site.nitpicker").exists() or "--resume" in stderr


def test_peak_rss_probe_measures_the_crawl() -> None:
    """The probe in :func:`crawl` sees a child's memory (else every bound above is moot)."""
    probe = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:]); "
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    r = subprocess.run([sys.executable, "-c", probe, sys.executable, "-c",
                        "x = bytearray(300 << 20); x[::4096] = b'1' * len(x[::4096])"],
                       capture_output=True, text=True, timeout=60)
    assert int(r.stdout) * 1024 > 300 << 20
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss > 0
