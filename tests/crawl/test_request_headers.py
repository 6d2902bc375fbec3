"""Request headers (``--header``, ``--authorization``, ``--header-file``) against two real
servers on 127.0.0.1 that record every request's headers: the site, and a third-party
origin on another port that the site links to, loads files from and redirects to.

What must hold, with the real CLI in both modes: every request to the site carries the
three headers (robots.txt, sitemaps, redirects and, rendered, the site's own scripts,
styles, images and fetches); no request to the other origin carries any of them; the
values are nowhere in the archive's bytes or the crawl's output, the names are in its
stored options; a crawl without the options sends none of them; bad input is refused
with one line and writes nothing; ``--resume`` without the headers says which are
missing.
"""

from __future__ import annotations

import base64
import contextlib
import http.server
import json
import shutil
import sqlite3
import subprocess
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import nitpicker_query as q
from tests.crawl.conftest import run_crawl

SECRETS = ("s3cr3t-A", "pa55-B", "t0ken-C")
BASIC = "Basic " + base64.b64encode(b"user:pa55-B").decode()
LEAKS = (*SECRETS, BASIC.split()[1])  # the base64 of user:pa55-B on its own too
NAMES = {"x-staging", "authorization", "x-token"}
ERROR = "nitpicker-crawl: error: {} (see nitpicker-crawl --help)\n"
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNk"
                       "YAAAAAYAAjCB0C8AAAAASUVORK5CYII=")

Answer = Callable[[str], tuple[int, dict[str, str], bytes]]
Log = list[tuple[str, dict[str, str]]]


@contextlib.contextmanager
def recording(answer: Answer) -> Iterator[tuple[str, Log]]:
    """Serve ``answer`` on 127.0.0.1 and record each request's path and headers (names
    in lower case); yield the base URL (no slash) and the record."""
    log: Log = []
    lock = threading.Lock()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            with lock:
                log.append((self.path, {k.lower(): v for k, v in self.headers.items()}))
            status, headers, body = answer(self.path.split("?", 1)[0])
            self.send_response(status)
            for name, value in {**headers, "Content-Length": str(len(body))}.items():
                self.send_header(name, value)
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        do_HEAD = do_GET

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", log
    finally:
        server.shutdown()
        server.server_close()


def typed(path: str) -> tuple[str, bytes]:
    """A content type and a small body for a file of that extension."""
    if path.endswith(".js") or path.endswith(".json"):
        return "application/javascript", b"/* ok */"
    if path.endswith(".css"):
        return "text/css", b"body { color: black }"
    if path.endswith(".png"):
        return "image/png", PNG
    return "text/html; charset=utf-8", b"<!DOCTYPE html><title>elsewhere</title><p>other"


def third_party(path: str) -> tuple[int, dict[str, str], bytes]:
    """Another origin: answers every file, has no robots.txt."""
    if path == "/robots.txt":
        return 404, {"Content-Type": "text/plain"}, b"no"
    kind, body = typed(path)
    return 200, {"Content-Type": kind}, body


def the_site(other: str) -> Answer:
    """Three pages linking each other and ``other``; the home page loads its own
    stylesheet, script (which fetches /api.json), image, an image redirecting to another
    of its own and one redirecting to ``other``, a frame of its own (with an image), and a
    script, an image, a fetch and a frame of ``other``; /moved redirects there."""
    home = f"""<!DOCTYPE html><html lang="en"><head><title>Home</title>
<link rel="stylesheet" href="/style.css"><script src="/app.js"></script>
<script src="{other}/third.js"></script></head><body>
<a href="/a.html">A</a> <a href="/b.html">B</a> <a href="{other}/ext.html">out</a>
<a href="/moved">moved</a> <img src="/logo.png" alt="logo">
<img src="{other}/pixel.png" alt="p"> <img src="/img-moved.png" alt="m">
<img src="/img-hop.png" alt="h">
<iframe src="/frame.html"></iframe> <iframe src="{other}/frame.html"></iframe>
<script>fetch('/api.json'); fetch('{other}/beacon.json', {{mode: 'no-cors'}});</script>
</body></html>"""
    pages = {
        "/": home,
        "/a.html": '<!DOCTYPE html><title>A</title><link rel="stylesheet" href="/style.css">'
                   '<a href="/">home</a> <a href="/b.html">B</a>',
        "/b.html": '<!DOCTYPE html><title>B</title><a href="/a.html">A</a>',
        "/frame.html": '<!DOCTYPE html><title>Frame</title><img src="/logo.png?frame">',
    }
    files = {"/style.css", "/app.js", "/logo.png", "/api.json"}

    def answer(path: str) -> tuple[int, dict[str, str], bytes]:
        if path == "/robots.txt":
            return 200, {"Content-Type": "text/plain"}, b"User-agent: *\nAllow: /\n"
        if path in pages:  # a cookie, which the browser must still send beside ours
            return 200, {"Content-Type": "text/html; charset=utf-8",
                         "Set-Cookie": "session=jar; Path=/"}, pages[path].encode()
        if path == "/moved":
            return 302, {"Location": f"{other}/landing.html"}, b""
        if path == "/img-moved.png":
            return 302, {"Location": f"{other}/pixel2.png"}, b""
        if path == "/img-hop.png":  # a redirect that stays on the site
            return 302, {"Location": "/logo.png?hop"}, b""
        if path in files:
            kind, body = typed(path)
            if path == "/app.js":
                body = b"fetch('/api.json?from=app');"
            return 200, {"Content-Type": kind}, body
        return 404, {"Content-Type": "text/plain"}, b"not here"

    return answer


def header_options(directory: Path) -> list[str]:
    """The three options, the token in a file of its own (with a comment and a blank)."""
    secrets = directory / "headers.txt"
    secrets.write_text("# staging token\n\nX-Token: t0ken-C\n")
    return ["--header", "X-Staging: s3cr3t-A", "--authorization", "user:pa55-B",
            "--header-file", str(secrets)]


def mode(render: bool) -> list[str]:
    return ["--parallels", "2"] if render else ["--no-render"]


@contextlib.contextmanager
def two_servers() -> Iterator[tuple[str, Log, str, Log]]:
    """The third-party origin, then the site that points at it."""
    with recording(third_party) as (other, other_log), \
            recording(the_site(other)) as (site, site_log):
        yield site, site_log, other, other_log


def stored_options(archive: Path) -> list[dict[str, Any]]:
    """Each run's options as the archive stores them (``crawl_runs.options``)."""
    with q.open_archive(archive) as a:
        conn = sqlite3.connect(a.directory / "db.sqlite")
        rows = conn.execute("SELECT options FROM crawl_runs ORDER BY id").fetchall()
        conn.close()
    return [json.loads(row[0]) for row in rows]


SITE_PATHS = {"/robots.txt", "/sitemap.xml", "/", "/a.html", "/b.html", "/moved"}
RENDERED_SITE_PATHS = {"/style.css", "/app.js", "/logo.png", "/img-moved.png", "/api.json",
                       "/api.json?from=app", "/img-hop.png", "/logo.png?hop", "/frame.html",
                       "/logo.png?frame"}
OTHER_PATHS = {"/ext.html", "/landing.html"}
RENDERED_OTHER_PATHS = {"/third.js", "/pixel.png", "/pixel2.png", "/beacon.json", "/frame.html"}


@pytest.mark.parametrize("render", [False, pytest.param(True, marks=pytest.mark.slow)],
                         ids=["no-render", "rendered"])
def test_headers_go_to_the_site_alone_and_are_never_kept(tmp_path: Path, render: bool
                                                         ) -> None:
    with two_servers() as (site, site_log, _other, other_log):
        r = run_crawl(tmp_path, site + "/", "-o", "site.nitpicker", *mode(render),
                      *header_options(tmp_path))
    assert r.returncode == 0, r.stderr

    requested = {path for path, _ in site_log}
    assert SITE_PATHS | (RENDERED_SITE_PATHS if render else set()) <= requested, requested
    for path, headers in site_log:  # every one, robots.txt and sub-resources included
        assert headers.get("x-staging") == "s3cr3t-A", path
        assert headers.get("authorization") == BASIC, path
        assert headers.get("x-token") == "t0ken-C", path

    if render:  # the site's cookie from the browser's jar still goes with its files
        sent = {path: headers.get("cookie") for path, headers in site_log}
        assert sent["/logo.png"] == sent["/api.json"] == "session=jar", sent

    elsewhere = {path for path, _ in other_log}
    assert OTHER_PATHS | (RENDERED_OTHER_PATHS if render else set()) <= elsewhere, elsewhere
    for path, headers in other_log:  # the external check, the redirect's target, files
        assert not NAMES & set(headers), (path, headers)
        assert not any(s in v for v in headers.values() for s in LEAKS), (path, headers)

    data = (tmp_path / "site.nitpicker").read_bytes()
    for secret in LEAKS:
        assert secret.encode() not in data, secret
        assert secret not in r.stdout and secret not in r.stderr, secret
    assert stored_options(tmp_path / "site.nitpicker")[-1]["header_names"] == [
        "X-Token", "X-Staging", "Authorization"]


@pytest.mark.parametrize("render", [False, pytest.param(True, marks=pytest.mark.slow)],
                         ids=["no-render", "rendered"])
def test_without_the_options_no_request_has_them(tmp_path: Path, render: bool) -> None:
    with two_servers() as (site, site_log, _other, other_log):
        r = run_crawl(tmp_path, site + "/", "-o", "site.nitpicker", *mode(render))
    assert r.returncode == 0, r.stderr
    assert {"/robots.txt", "/", "/a.html"} <= {path for path, _ in site_log}
    assert other_log
    for path, headers in site_log + other_log:
        assert not NAMES & set(headers), (path, headers)
    assert stored_options(tmp_path / "site.nitpicker")[-1]["header_names"] == []


def _refused(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """A crawl refused before its first request: nothing at all written in ``out``."""
    out = tmp_path / "out"
    out.mkdir()
    r = run_crawl(out, "http://127.0.0.1:9/", "-o", "site.nitpicker", "--no-render", *args)
    assert list(out.iterdir()) == []
    return r


BAD_OPTIONS: dict[str, tuple[list[str], str]] = {
    "bad-name": (["--header", "X Staging: s3cr3t-A"],
                 "--header: 'X Staging' is not a header name (letters, digits and "
                 "!#$%&'*+-.^_`|~ only)"),
    "no-colon": (["--header", "X-Staging s3cr3t-A"],
                 "--header: expected 'Name: value', found no colon"),
    "crlf-in-value": (["--header", "X-Staging: s3cr3t-A\r\nX-Injected: 1"],
                      "--header: the value of X-Staging holds a line break (CR or LF)"),
    "lf-in-value": (["--header", "X-Staging: s3cr3t-A\nX-Injected: 1"],
                    "--header: the value of X-Staging holds a line break (CR or LF)"),
    "host": (["--header", "Host: example.com"],
             "--header: Host cannot be given: the HTTP client sets it for each request"),
    "content-length": (["--header", "content-length: 3"], "--header: content-length cannot "
                       "be given: the HTTP client sets it for each request"),
    "user-agent": (["--header", "User-Agent: bot"], "--header: set User-Agent with "
                   "--user-agent (it is sent to every host, and robots.txt's rules are "
                   "chosen by it)"),
    "authorization-scheme-alone": (["--authorization", "Bearer"],
                                   "--authorization: 'Bearer' alone has no credentials; "
                                   "quote the whole value: --authorization 'Bearer …'"),
    "authorization-crlf": (["--authorization", "user:pa55-B\r\nX: 1"],
                           "--authorization: the value of Authorization holds a line "
                           "break (CR or LF)"),
}


@pytest.mark.parametrize("case", list(BAD_OPTIONS))
def test_bad_header_options_are_one_line_and_write_nothing(tmp_path: Path, case: str
                                                           ) -> None:
    args, message = BAD_OPTIONS[case]
    r = _refused(tmp_path, *args)
    assert (r.returncode, r.stderr) == (2, ERROR.format(message))
    assert not any(secret in r.stderr for secret in LEAKS)


BAD_FILES: dict[str, tuple[str | None, str]] = {
    "missing": (None, "--header-file {}: No such file or directory"),
    "line-without-colon": ("# token\nX-Token t0ken-C\n",
                           "--header-file {} line 2: expected 'Name: value', found no colon"),
    "cr-in-value": ("X-Token: t0ken-C\rX-Injected: 1\n",
                    "--header-file {} line 1: the value of X-Token holds a line break (CR "
                    "or LF)"),
    "nul-in-value": ("\nX-Token: t0ken-C\0\n",
                     "--header-file {} line 2: the value of X-Token holds a NUL character"),
    "not-utf8": ("X-Token: t0ken-C\udcff\n", "--header-file {}: not UTF-8 text"),
}


@pytest.mark.parametrize("case", list(BAD_FILES))
def test_bad_header_files_are_one_line_and_write_nothing(tmp_path: Path, case: str) -> None:
    content, message = BAD_FILES[case]
    path = tmp_path / "headers.txt"
    if content is not None:
        path.write_bytes(content.encode("utf-8", "surrogateescape"))
    r = _refused(tmp_path, "--header-file", str(path))
    assert (r.returncode, r.stderr) == (2, ERROR.format(message.format(path)))
    assert not any(secret in r.stderr for secret in LEAKS)


WARNING = ("nitpicker-crawl: warning: the crawl was run with request header(s) {}, not "
           "given here: they are not sent (give them again with --header, --authorization "
           "or --header-file)")


def test_resume_warns_about_headers_not_given_again(tmp_path: Path) -> None:
    with two_servers() as (site, site_log, _other, _other_log):
        options = header_options(tmp_path)
        r = run_crawl(tmp_path, site + "/", "-o", "site.nitpicker", "--no-render", *options)
        assert r.returncode == 0, r.stderr
        shutil.copy(tmp_path / "site.nitpicker", tmp_path / "copy.nitpicker")

        again = run_crawl(tmp_path, "--resume", "site.nitpicker", *options)
        assert again.returncode == 0, again.stderr
        assert "warning" not in again.stderr

        site_log.clear()
        bare = run_crawl(tmp_path, "--resume", "site.nitpicker")
        assert bare.returncode == 0, bare.stderr
        assert WARNING.format("X-Token, X-Staging, Authorization") in bare.stderr.splitlines()
        for path, headers in site_log:  # what was not given is not sent
            assert not NAMES & set(headers), (path, headers)

        partly = run_crawl(tmp_path, "--resume", "copy.nitpicker",
                           "--header", "x-staging: s3cr3t-A")
        assert partly.returncode == 0, partly.stderr
        assert WARNING.format("X-Token, Authorization") in partly.stderr.splitlines()
    runs = stored_options(tmp_path / "site.nitpicker")
    assert [run["header_names"] for run in runs] == [
        ["X-Token", "X-Staging", "Authorization"], ["X-Token", "X-Staging", "Authorization"],
        []]
    for output in (r, again, bare, partly):
        assert not any(s in output.stderr + output.stdout for s in LEAKS)


def test_which_urls_get_them() -> None:
    """The one rule both fetchers and the browser ask: the start URLs' hosts and ports,
    whatever the directory; never another port or host; never down to plain http."""
    from nitpicker_crawl.fetch.request_headers import from_flags

    headers = from_flags(headers=["X-Staging: s3cr3t-A"])
    https = headers.for_site(["https://staging.example/blog/"])
    assert https.for_url("https://staging.example:443/other/x.css") == {
        "X-Staging": "s3cr3t-A"}
    for url in ("http://staging.example/blog/", "https://staging.example:8443/blog/",
                "https://cdn.example/blog/", "https://staging.example.evil/blog/",
                "ftp://staging.example/", "https://staging.example:99999/"):
        assert https.for_url(url) == {}, url
    http = headers.for_site(["http://127.0.0.1:8080/docs/"])
    assert http.applies("http://127.0.0.1:8080/robots.txt")
    assert http.applies("https://127.0.0.1:8080/docs/")  # up to https is fine
    assert not http.applies("http://127.0.0.1:8081/docs/")
    assert not from_flags().for_site(["http://127.0.0.1:8080/"]).applies(
        "http://127.0.0.1:8080/")


def test_the_last_of_a_name_wins_and_no_value_is_shown(tmp_path: Path) -> None:
    from nitpicker_crawl.fetch.request_headers import from_flags
    from nitpicker_crawl.options import CrawlOptions

    file = tmp_path / "h.txt"
    file.write_text("X-Token: from-file\nAuthorization: Bearer from-file\n")
    headers = from_flags([str(file)], ["x-token: t0ken-C", "Authorization: Bearer x"],
                         "user:pa55-B")
    assert headers.pairs() == (("x-token", "t0ken-C"), ("Authorization", BASIC))
    options = CrawlOptions(roots=("http://h/",), headers=headers)
    for shown in (repr(options), str(headers), options.to_json()):
        assert not any(secret in shown for secret in LEAKS), shown
    assert json.loads(options.to_json())["header_names"] == ["x-token", "Authorization"]
    assert from_flags(authorization="Bearer abc").pairs() == (
        ("Authorization", "Bearer abc"),)
