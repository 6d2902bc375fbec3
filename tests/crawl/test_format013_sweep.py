"""Every query on the same crawl in format 0.10 and converted to 0.13: the same answers.

The archives: TrapZoo's whole site at ``--dedupe-cap 100`` (redirects, broken links,
refused URLs, cap events, skipped rows, externals, technologies), and the two real
archives of upstream 0.4.4 upgraded to 0.10; each converted with ``nitpicker-crawl
convert --to 0.13``. Every query of the catalogue (hence every sub-command, MCP tool and
viewer view, which are adapters over it) is called with each choice of each option on
both. What 0.13 cannot hold reads as documented in docs/archive-format.md ("Format
0.13"): an empty text is absent (``''`` reads as null); of several links from one page to
one target only the first keeps its text (4 of 584 pairs in one upstream archive).
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from nitpicker_query import open_archive
from nitpicker_query.archive.opening import Archive
from nitpicker_query.exceptions import NitpickerError
from nitpicker_query.queries.catalog import QUERIES, QuerySpec
from tests.crawl.conftest import CRAWL, Crawl
from tests.format013_builder import as_both_formats_say_it

UPSTREAM = Path(__file__).resolve().parent.parent / "data" / "upstream-0.4.4"
SOURCES = ["trapzoo", "trapzoo-bounded", "trapzoo-single"]
"""Our capped crawl of TrapZoo, and the two real archives of upstream 0.4.4 upgraded to
0.10 with ``nitpicker-crawl upgrade`` (what a user of an old upstream does first)."""


def _run(*args: str) -> None:
    r = subprocess.run([CRAWL, *args], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr


@pytest.fixture(scope="module", params=SOURCES)
def pair(request: pytest.FixtureRequest, capped_plain: Crawl,
         tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Archive, Archive]]:
    work = tmp_path_factory.mktemp("f013")
    if request.param == "trapzoo":
        source = capped_plain.archive
    else:
        source = work / f"{request.param}-0.10.nitpicker"
        _run("upgrade", str(UPSTREAM / f"{request.param}.nitpicker"), "-o", str(source))
    out = work / "site-0.13.nitpicker"
    _run("convert", str(source), "--to", "0.13", "-o", str(out))
    with open_archive(source) as old, open_archive(out) as new:
        assert (old.format, new.format) == ("0.10", "0.13")
        yield old, new


def _values(a: Archive) -> dict[str, list[Any]]:
    """Values for the options that name something in the archive."""
    urls = [str(r[0]) for r in a.rows("SELECT url FROM pages ORDER BY id")]
    step = max(1, len(urls) // 40)
    picked = urls[::step]
    for sql in ("SELECT url FROM pages WHERE redirectDestId IS NOT NULL LIMIT 3",
                "SELECT url FROM pages WHERE isExternal = 1 LIMIT 3",
                "SELECT url FROM pages WHERE skipReason IS NOT NULL LIMIT 3",
                "SELECT url FROM pages WHERE status >= 400 LIMIT 3"):
        picked += [str(r[0]) for r in a.rows(sql)]
    return {
        "url": [*picked, "http://127.0.0.1:9/not-in-the-archive"],
        "urls": [" ".join([*picked, "http://127.0.0.1:9/not-in-the-archive"])],
        "resource_url": [str(r[0]) for r in a.rows("SELECT url FROM resources LIMIT 5")],
        "host": sorted({str(r[0]).split("/")[2] for r in a.rows(
            "SELECT url FROM resources WHERE url LIKE 'http%://%/%' LIMIT 50")}),
        "provider": [str(r[0]) for r in a.rows("SELECT DISTINCT provider FROM page_tags")]
        if a.has_table("page_tags") else [],
        "type": [str(r[0]) for r in a.rows(
            "SELECT DISTINCT type FROM page_jsonld WHERE type IS NOT NULL")],
        "event": [int(r[0]) for r in a.rows("SELECT id FROM dedupe_cap_events LIMIT 5")],
    }


def _calls(spec: QuerySpec, values: dict[str, list[Any]],
           named: dict[str, list[Any]]) -> Iterator[dict[str, Any]]:
    """The option sets a spec is called with: required ones filled, then each choice,
    flag and filter one at a time."""
    base: dict[str, Any] = {}
    fills: list[dict[str, Any]] = [{}]
    for p in spec.params:
        if p.name == "limit":
            base["limit"] = p.maximum or 1000
        elif p.required:
            options = named.get(spec.name, {}).get(p.name) if spec.name in named else None
            pool = options if options is not None else (
                list(p.choices) if p.kind == "choice" else values.get(p.name, []))
            if not pool:
                return
            fills = [{**f, p.name: v} for f in fills for v in pool]
    for fill in fills:
        yield {**base, **fill}
    first = {**base, **fills[0]}
    for p in spec.params:
        if p.required or p.name in ("limit", "offset"):
            continue
        if p.kind == "choice":
            for c in p.choices:
                yield {**first, p.name: c}
        elif p.kind == "flag":
            yield {**first, p.name: True}
        elif p.kind == "tristate":
            yield {**first, p.name: True}
            yield {**first, p.name: False}
        elif p.name in ("status",):
            for s in (200, 301, 404, -1):
                yield {**first, p.name: s}
        elif p.name == "event":
            for e in values["event"]:
                yield {**first, p.name: e}
        elif p.name in ("url_pattern", "source_pattern", "destination_pattern"):
            yield {**first, p.name: "%trap%"}
        elif p.name == "resource_pattern":
            yield {**first, p.name: "%.css%"}
        elif p.name == "host":
            for host in values["host"]:
                yield {**first, p.name: host}


def test_the_archives_hold_the_same_site(pair: tuple[Archive, Archive]) -> None:
    old, new = pair
    count = "SELECT count(*) FROM {}"
    for table in ("pages", "anchors", "images", "resources", '"resources-referrers"'):
        assert old.count(count.format(table)) == new.count(count.format(table)), table


def test_every_query_answers_the_same_on_both_formats(pair: tuple[Archive, Archive]
                                                      ) -> None:
    old, new = pair
    values = _values(old)
    clusters = [i["signature"] for i in QUERIES_BY_NAME["get_duplicate_clusters"].function(
        old, limit=1000)["items"]][:5]
    templates = [i["key"] for i in QUERIES_BY_NAME["get_template_clusters"].function(
        old, limit=1000)["items"]][:5]
    named = {"get_duplicate_cluster": {"signature": clusters},
             "get_template_cluster": {"key": templates}}
    calls = differ = 0
    mismatches: list[str] = []
    for spec in QUERIES:
        for options in _calls(spec, values, named):
            calls += 1
            a, b = _answer(spec, old, options), _answer(spec, new, options)
            if a != b:
                differ += 1
                mismatches.append(f"{spec.name} {options}:\n  0.10 {str(a)[:600]}\n"
                                  f"  0.13 {str(b)[:600]}")
    assert calls > 100
    assert not mismatches, f"{differ} of {calls} calls differ:\n" + "\n".join(mismatches[:8])


QUERIES_BY_NAME = {q.name: q for q in QUERIES}


def _answer(spec: QuerySpec, archive: Archive, options: dict[str, Any]) -> Any:
    """The answer, or the error's text for a combination of options a query refuses
    (the same on both formats, but for the file it names)."""
    try:
        return as_both_formats_say_it(spec.function(archive, **options))
    except NitpickerError as exc:
        return f"error: {exc}".replace(archive.path.name, "ARCHIVE")
