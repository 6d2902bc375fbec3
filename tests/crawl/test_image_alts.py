"""Images as an auditor asks about them (issue 39): an ``alt=""`` is a decorative image,
not a missing alt attribute; a ``--no-render`` crawl measured no image's size. A real
local site crawled both ways, the answers read as the CLI's CSV and the query's items."""

from __future__ import annotations

import csv
import io
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import nitpicker_query as q

from .conftest import SiteHandler, local_site, run_crawl

QUERY = str(Path(sys.executable).with_name("nitpicker-query"))

PAGE = b"""<!doctype html><html lang="en"><head><title>Gallery</title></head><body><main>
<h1>Gallery</h1>
<img src="/logo.png" alt="Shop logo" width="10" height="10">
<img src="/rule.png" alt="" width="10" height="10">
<img src="/spacer.png" alt width="10" height="10">
<img src="/photo.png" width="10" height="10">
<img src="/hidden.png" alt="Hidden" style="width:0;height:0">
</main></body></html>"""
PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082")


class _Gallery(SiteHandler):
    def do_GET(self) -> None:
        body, kind = (PAGE, "text/html") if self.path == "/" else (PNG, "image/png")
        self.answer(200, body, content_type=kind)


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with local_site(_Gallery) as base:
        yield base


@pytest.fixture(scope="module", params=["--no-render", "--render"])
def crawled(request: pytest.FixtureRequest, site: str,
            tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    directory = tmp_path_factory.mktemp("gallery")
    r = run_crawl(directory, site, "-o", "g.nitpicker", request.param, "--silent")
    assert r.returncode == 0, r.stderr
    return request.param, directory / "g.nitpicker"


def _states(archive: Path, **options: bool) -> dict[str, str]:
    return {i["src"].rsplit("/", 1)[1]: i["altState"]
            for i in q.list_images(archive, **options)["items"]}


def test_an_empty_alt_is_not_a_missing_alt(crawled: tuple[str, Path]) -> None:
    _, archive = crawled
    assert _states(archive) == {"logo.png": "text", "rule.png": "empty", "spacer.png": "empty",
                                "photo.png": "missing", "hidden.png": "text"}
    assert _states(archive, missing_alt=True) == {"photo.png": "missing"}
    assert _states(archive, empty_alt=True) == {"rule.png": "empty", "spacer.png": "empty"}
    # the CSV an auditor opens: an empty alt and a missing one are told apart in a cell
    r = subprocess.run([QUERY, "images", str(archive), "--format", "csv"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    rows = {row["src"].rsplit("/", 1)[1]: row for row in csv.DictReader(io.StringIO(r.stdout))}
    assert (rows["rule.png"]["alt"], rows["rule.png"]["altState"]) == ("", "empty")
    assert (rows["photo.png"]["alt"], rows["photo.png"]["altState"]) == ("", "missing")


def test_sizes_are_listed_only_where_they_were_measured(crawled: tuple[str, Path]) -> None:
    mode, archive = crawled
    result = q.list_images(archive, missing_dimensions=True)
    if mode == "--no-render":   # nothing was rendered: no size is known, and it says so
        assert result["items"] == [] and result["note"] == (
            "no image of this archive was rendered (a --no-render crawl): their sizes were "
            "never measured, so none is listed")
    else:                       # rendered: the image drawn 0 × 0 is listed, the 10 × 10 ones not
        assert [i["src"].rsplit("/", 1)[1] for i in result["items"]] == ["hidden.png"]
        assert "note" not in result
