"""The JSON API and the HTTP rules, without a browser: every query answers as its
function does, bad input gets the right status and one line, strangers are refused."""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

import nitpicker_query as q
from nitpicker_query.exceptions import NotRecorded
from nitpicker_query.queries.catalog import QUERIES
from nitpicker_query.terminal import local_time
from nitpicker_query.values import jsonable
from tests.viewer.conftest import Served, serve
from tests.viewer.tables import table


def get(served: Served, path: str, *, host: str | None = None) -> tuple[int, str, dict[str, str]]:
    request = urllib.request.Request(served.url + path)
    if host is not None:
        request.add_header("Host", host)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.read().decode(), dict(response.headers)
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode(), dict(exc.headers)


def sample_args(archive: Path) -> dict[str, dict[str, Any]]:
    home = q.get_summary(archive)["baseUrl"]
    cluster = q.get_duplicate_clusters(archive, min_count=5)["items"][0]["signature"]
    return {
        "get_page_detail": {"url": home}, "get_page_html": {"url": home},
        # the archive compared with itself: a second archive is named as ?a= names one
        "compare_archives": {"old": archive.name, "kind": "changed"},
        "find_mismatches": {"type": "og:title"}, "list_links": {"type": "broken"},
        "search_html": {"pattern": "/<title>[^<]*shirt/i"},
        "list_pages_by_resource": {"resource_pattern": "%.css"},
        "match_urls": {"urls": " ".join([home, home + "products/", home + "nowhere"])},
        "match_selector": {"selector": "meta[name=description]", "attribute": "content"},
        "match_xpath": {"xpath": "//meta[@name='description']/@content"},
        "get_resource_referrers": {"resource_url": home + "static/site.css"},
        "list_inbound_links": {"url": home + "products/"},
        "list_pages_by_tag": {"provider": "WordPress"},
        "count_pages_by_tag": {"provider": "WordPress"}, "get_page_tags": {"url": home},
        "list_pages_by_jsonld_type": {"type": "Product"},
        "count_pages_by_jsonld_type": {"type": "Product"},
        "get_page_jsonld": {"url": home + "products/shirt-red/"},
        "get_page_jsonld_overview": {"url": home + "products/shirt-red/"},
        "get_duplicate_cluster": {"signature": cluster},
        "get_duplicate_clusters": {"min_count": 5},
        "get_template_cluster": {"key": q.get_template_clusters(archive)["items"][0]["key"]},
        "get_isolated_cluster": {"representative_url": q.list_isolated_clusters(archive)[
            "items"][0]["representativeUrl"]},
        "get_page_console_logs": {"url": home + "js/"},
        "get_near_duplicates": {"url": home + "products/shirt-red/", "min_words": 3},
        "get_page_main_contents": {"url": home + "support/faq/"},
    }


def test_every_query_answers_as_its_function(viewer: Served, capped_archive: Path) -> None:
    from urllib.parse import urlencode

    from nitpicker_query.queries.catalog import camel

    args = sample_args(capped_archive)
    for spec in QUERIES:
        given = args.get(spec.name, {})
        status, body, headers = get(viewer, f"/api/{spec.name}?" + urlencode(
            {camel(k): v for k, v in given.items()}))
        assert headers["content-type"].startswith("application/json")
        called = {k: capped_archive if spec.param(k).archive else v for k, v in given.items()}
        try:
            expected = spec.function(capped_archive, **called)
        except NotRecorded as exc:   # unused files of a --no-render crawl: said, not made
            assert status == 404 and json.loads(body)["error"] == str(exc), spec.name
            continue
        if expected is None:  # a URL this archive lacks (no-render: no sub-resources)
            assert status == 404 and json.loads(body)["error"].startswith("No "), spec.name
            continue
        assert status == 200, (spec.name, body)
        assert json.loads(body) == json.loads(json.dumps(jsonable(expected))), spec.name
    status, body, _ = get(viewer, "/api")
    assert status == 200 and len(json.loads(body)["queries"]) == len(QUERIES)


def test_bad_input_status_and_one_line(viewer: Served, tmp_path: Path) -> None:
    sibling = viewer.archive.with_name("sibling.nitpicker")  # beside the one given
    sibling.write_bytes(viewer.archive.read_bytes())
    cases = [
        ("/summary?a=sibling.nitpicker", 403, "this viewer shows one archive"),
        (f"/summary?a={viewer.archive.name}", 200, "HTML pages"),
        ("/api/list_pages?limit=-1", 400, "limit must be between 1 and 1000, not -1"),
        ("/api/list_pages?sortBy=nope", 400, "sortBy must be one of"),
        ("/api/list_pages?isExternal=maybe", 400, "isExternal must be true or false"),
        ("/api/get_page_detail", 400, "url is required"),
        ("/api/get_page_detail?url=http://nowhere/", 404, "No page with URL"),
        ("/api/nope", 404, "No query named nope (the API index lists them)"),
        # the CLI's and the views' name of a query: the API's is MCP's
        ("/api/summary", 404, "No query named summary; did you mean get_summary?"),
        ("/api/list_page", 404, "did you mean list_pages?"),
        ("/api/get_summary?a=missing.nitpicker", 403, "this viewer shows one archive"),
        ("/api/get_summary?a=../../etc/passwd", 403, "outside the allowed roots"),
        # a second archive (compare's old) is looked up as a is: never any path sent
        ("/api/compare_archives?old=/etc/passwd", 403, "this viewer shows one archive"),
        ("/api/compare_archives", 400, "old is required"),
        ("/pages?page=0", 400, "page must be between 1 and 10000000, not 0"),
        ("/pages?page=-3", 400, "page must be between 1 and 10000000"),
        ("/pages?sortBy=nope", 400, "Sort by (sortBy) must be one of url, status, title, "
         "linkScore, not &#39;nope&#39;"),
        ("/pages?pageSize=5000", 400, "pageSize must be between 1 and 1000, not 5000"),
        ("/page?url=http://nowhere/", 404, "No page with URL"),
        ("/no-such-view", 404, "No view named"),
        ("/summary?a=../secret.nitpicker", 403, "outside the allowed roots"),
    ]
    for path, status, message in cases:
        got, body, _headers = get(viewer, path)
        assert got == status, (path, body[:300])
        assert message in body, (path, body[:500])
        assert "Traceback" not in body and str(tmp_path.parent) not in body
        if status == 200:
            continue
        if path.startswith("/api"):
            error = json.loads(body)["error"]
            assert "\n" not in error and "/tmp/" not in error


def test_strangers_and_headers(viewer: Served) -> None:
    status, body, _ = get(viewer, "/summary", host="evil.example")
    assert status == 403 and "localhost" in body
    status, _, _ = get(viewer, "/api/get_summary", host=f"attacker.test:{viewer.port}")
    assert status == 403
    for host in (f"localhost:{viewer.port}", f"127.0.0.1:{viewer.port}"):
        assert get(viewer, "/summary", host=host)[0] == 200
    status, _, headers = get(viewer, "/summary")
    csp = headers["content-security-policy"]
    assert "default-src 'none'" in csp and "script-src 'self'" in csp
    assert "unsafe-inline" not in csp
    assert headers["x-content-type-options"] == "nosniff"
    # every answer carries them: a refused Host, a 404, a 400, a 403 of the roots
    for path, host, code in (("/summary", "evil.example", 403), ("/no-such-view", None, 404),
                             ("/api/list_pages?limit=-1", None, 400),
                             ("/summary?a=../x.nitpicker", None, 403)):
        status, _, headers = get(viewer, path, host=host)
        assert status == code, path
        assert headers.get("content-security-policy") == csp, path
        assert headers.get("x-frame-options") == "DENY", path


def test_every_integer_parameter_is_bounded(viewer: Served) -> None:
    """A 10^20 offset (or any integer past its range) is a 400 naming the range, in the
    API and in the HTML views, never a 500."""
    from urllib.parse import urlencode

    checked = 0
    for spec in QUERIES:
        required = {p.camel: (p.choices[0] if p.choices else "x")
                    for p in spec.params if p.required}
        for param in spec.params:
            if param.kind != "int":
                continue
            low, high = param.bounds
            for raw in ("100000000000000000000", str(high + 1), str(low - 1)):
                query = urlencode({**required, param.camel: raw})
                status, body, _ = get(viewer, f"/api/{spec.name}?{query}")
                assert status == 400, (spec.name, param.camel, raw, body[:200])
                assert json.loads(body)["error"] == (
                    f"{param.camel} must be between {low} and {high}, not {raw}")
                checked += 1
    assert checked >= 3 * 15
    status, body, _ = get(viewer, "/pages?page=100000000000000000000")
    assert status == 400 and "page must be between 1 and 10000000" in body


def test_roots_list_their_archives(capped_archive: Path, tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    copy = tmp_path / "sub" / "copy.nitpicker"
    copy.write_bytes(capped_archive.read_bytes())
    (tmp_path / "notes.txt").write_text("not an archive")
    outside = tmp_path.parent / f"{tmp_path.name}-outside.nitpicker"
    outside.write_bytes(b"x")
    (tmp_path / "link.nitpicker").symlink_to(outside)
    (tmp_path / "broken.nitpicker").write_bytes(b"not a tar")
    for served in serve(None, [tmp_path]):
        status, body, _ = get(served, "/")
        assert status == 200 and "sub/copy.nitpicker" in body and "notes.txt" not in body
        assert "link.nitpicker" not in body  # a symlink is not listed
        # each archive with its site, pages and date (as list_archives), or why it fails
        summary = q.get_summary(copy)
        rows = {r["Archive"]: r for r in table(body)}
        assert rows["sub/copy.nitpicker"] == {
            "Archive": "sub/copy.nitpicker", "Site": summary["baseUrl"],
            "Pages": f"{summary['totalPages']:,}",
            "Crawled": local_time(summary["crawl"]["endedAt"])[:19].replace("T", " ")}
        assert rows["broken.nitpicker"]["Site"] != "" and "/tmp" not in body
        status, body, _ = get(served, "/summary?a=sub/copy.nitpicker")
        assert status == 200 and "HTML pages" in body
        status, _, _ = get(served, "/summary?a=link.nitpicker")  # resolves outside
        assert status == 403
        status, body, _ = get(served, "/summary")
        assert status == 404 and "pick one on the home page" in body
        status, body, _ = get(served, "/api/get_summary?a=sub/missing.nitpicker")
        assert status == 404 and "not found" in json.loads(body)["error"]
        status, body, _ = get(served, "/api/get_summary?a=../../etc/passwd")
        assert status == 403
    outside.unlink()


def test_crawl_directory_gets_the_badge(capped_archive: Path, tmp_path: Path) -> None:
    import tarfile

    with tarfile.open(capped_archive) as tar:
        member = next(m for m in tar.getmembers() if m.name.endswith("/db.sqlite"))
        tar.extract(member, tmp_path, filter="data")
    stub = tmp_path / member.name.split("/")[0]
    for served in serve(stub, []):
        status, body, _ = get(served, "/summary")
        assert status == 200 and "Crawl directory (not a finished archive)" in body
    for served in serve(capped_archive, []):
        assert "Crawl directory" not in get(served, "/summary")[1]


def test_a_013_archive_answers_every_query_and_view_as_its_original(
        viewer: Served, capped_archive: Path, tmp_path: Path) -> None:
    """The viewer over the capped crawl converted to format 0.13: every ``/api/<query>``
    says what the query says on the 0.10 original (as both formats can say it), and
    every HTML view and a page detail render with the same first page of rows."""
    import subprocess
    import sys
    from urllib.parse import urlencode

    from nitpicker_query.queries.catalog import camel
    from nitpicker_viewer.app import VIEWS
    from tests.format013_builder import as_both_formats_say_it

    converted = tmp_path / "capped-0.13.nitpicker"
    crawl = str(Path(sys.executable).with_name("nitpicker-crawl"))
    subprocess.run([crawl, "convert", str(capped_archive), "--to", "0.13", "-o",
                    str(converted)], check=True, capture_output=True)
    args = sample_args(capped_archive)
    for served in serve(converted, []):
        for spec in QUERIES:
            given = args.get(spec.name, {})
            sent = {k: converted.name if spec.param(k).archive else v
                    for k, v in given.items()}
            status, body, _ = get(served, f"/api/{spec.name}?" + urlencode(
                {camel(k): v for k, v in sent.items()}))
            called = {k: capped_archive if spec.param(k).archive else v
                      for k, v in given.items()}
            try:
                expected = spec.function(capped_archive, **called)
            except NotRecorded:   # the same sentence, about the other file
                assert status == 404 and "records no resource any page loaded" in \
                    json.loads(body)["error"], spec.name
                continue
            if expected is None:
                assert status == 404, spec.name
                continue
            assert status == 200, (spec.name, body)
            assert as_both_formats_say_it(json.loads(body)) == as_both_formats_say_it(
                json.loads(json.dumps(jsonable(expected)))), spec.name
        home = q.get_summary(capped_archive)["baseUrl"]
        for path in [*(f"/{v}" for v in VIEWS), "/summary", "/page?" + urlencode({"url": home})]:
            status, body, _ = get(served, path)
            old_status, old_body, _ = get(viewer, path)
            assert (status, body.count("<tr"), body.count("<dd")) == (
                old_status, old_body.count("<tr"), old_body.count("<dd")), path


@pytest.mark.slow  # two processes per sub-command: 30 s
def test_every_cli_sub_command_prints_the_same_table_on_a_013_archive(
        capped_archive: Path, tmp_path: Path) -> None:
    """``nitpicker-query`` over the capped crawl and over its conversion to format 0.13:
    each sub-command's terminal table holds the same lines."""
    import subprocess
    import sys

    converted = tmp_path / "capped-0.13.nitpicker"
    bindir = Path(sys.executable).parent
    subprocess.run([str(bindir / "nitpicker-crawl"), "convert", str(capped_archive), "--to",
                    "0.13", "-o", str(converted)], check=True, capture_output=True)
    args = sample_args(capped_archive)
    for spec in QUERIES:
        flags = []
        for name, value in args.get(spec.name, {}).items():
            flags += [spec.param(name).flag, str(value)]
        outputs = []
        for archive in (capped_archive, converted):
            done = subprocess.run([str(bindir / "nitpicker-query"), spec.command,
                                   str(archive), *flags, "--format", "table"],
                                  capture_output=True, text=True, timeout=120,
                                  env={**os.environ, "COLUMNS": "200"})
            # lines sorted: 0.13 keeps a page's response headers by name, not in the
            # order received (docs/archive-format.md), so page-detail lists them so; and
            # it keeps no image tag, so an alt attribute missing there is "unknown"
            text = done.stdout.replace(archive.name, "ARCHIVE")
            if spec.command == "images" and archive == capped_archive:
                text = text.replace(" missing ", " unknown ")   # the same width
            outputs.append((done.returncode, sorted(text.splitlines())))
        assert outputs[0] == outputs[1], spec.command  # a not-found exits 1 on both
