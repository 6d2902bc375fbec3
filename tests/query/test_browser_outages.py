"""``browser-outages``: the lent browsers a crawl lost, as the writer keeps them and every
adapter shows them — the CLI's cells, the summary's totals, the 0.13 conversion — and an
archive of a stranger's with odd values in the table answers within bounds."""

from __future__ import annotations

import csv
import io
import subprocess
import sys
from pathlib import Path

import pytest

import nitpicker_query as q
from nitpicker_crawl.archive import ArchiveWriter

BASE = "http://localhost"
QUERY = str(Path(sys.executable).with_name("nitpicker-query"))
CRAWL = str(Path(sys.executable).with_name("nitpicker-crawl"))
LOSSES = [  # endpoint, lost, back, pages moved, reason
    ("ws://10.0.0.7:3000", 1_700_000_000_000, 1_700_000_012_500, 3,
     "Target page, context or browser has been closed"),
    ("ws://10.0.0.8:3000", 1_700_000_100_000, None, 0, "Browser closed"),
]


@pytest.fixture(scope="module")
def lost(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("browser-outages")
    w = ArchiveWriter.create(d / "lost.nitpicker", roots=[BASE + "/"])
    w.save_page(BASE + "/", {"scraped": 1, "isTarget": 1, "isExternal": 0, "status": 200,
                             "contentType": "text/html", "isSkipped": 0}, title="home")
    for endpoint, started, ended, moved, reason in LOSSES:
        w.add_browser_outage(endpoint=endpoint, started_at=started, ended_at=ended,
                             pages_moved=moved, reason=reason)
    return w.close()


def test_each_loss_is_a_row_with_its_time_down_and_the_pages_moved(lost: Path) -> None:
    listed = q.list_browser_outages(lost)
    assert listed["total"] == 2
    assert [(i["endpoint"], i["seconds"], i["pagesMoved"], i["endedAt"])
            for i in listed["items"]] == [("ws://10.0.0.7:3000", 12.5, 3, 1_700_000_012_500),
                                          ("ws://10.0.0.8:3000", None, 0, None)]
    assert q.get_summary(lost)["browserOutages"] == {"losses": 2, "pagesMoved": 3,
                                                     "downAtEnd": 1}


def test_the_cli_shows_the_cells(lost: Path) -> None:
    r = subprocess.run([QUERY, "browser-outages", str(lost), "--format", "csv"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    assert [(row["endpoint"], row["seconds"], row["pagesMoved"]) for row in rows] == \
        [("ws://10.0.0.7:3000", "12.5", "3"), ("ws://10.0.0.8:3000", "", "0")]
    table = subprocess.run([QUERY, "browser-outages", str(lost), "--format", "table"],
                           capture_output=True, text=True, timeout=60)
    assert table.returncode == 0 and "ws://10.0.0.7:3000" in table.stdout


def test_a_crawl_that_lost_none_says_none_and_an_older_archive_says_unknown(
        tmp_path: Path) -> None:
    w = ArchiveWriter.create(tmp_path / "none.nitpicker", roots=[BASE + "/"])
    kept = w.close()
    assert q.list_browser_outages(kept)["items"] == []
    assert q.get_summary(kept)["browserOutages"] == {"losses": 0, "pagesMoved": 0,
                                                     "downAtEnd": 0}
    w = ArchiveWriter.create(tmp_path / "older.nitpicker", roots=[BASE + "/"])
    w.conn.execute("DROP TABLE browser_outages")   # written before lent browsers
    older = w.close()
    assert q.list_browser_outages(older)["items"] == []
    assert q.get_summary(older)["browserOutages"] is None


def test_the_rows_go_to_format_013_and_are_read_there(lost: Path, tmp_path: Path) -> None:
    out = tmp_path / "lost-0.13.nitpicker"
    r = subprocess.run([CRAWL, "convert", str(lost), "--to", "0.13", "-o", str(out)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert q.list_browser_outages(out)["items"] == q.list_browser_outages(lost)["items"]


def test_a_strangers_values_are_bounded_not_trusted(tmp_path: Path) -> None:
    w = ArchiveWriter.create(tmp_path / "odd.nitpicker", roots=[BASE + "/"])
    w.add_browser_outage(endpoint="x" * 100_000, started_at=1, ended_at=2, pages_moved=0,
                         reason="y" * 100_000)
    w.conn.execute("INSERT INTO browser_outages (endpoint, started_at, ended_at, "
                   "pages_moved, reason) VALUES ('e', 'soon', 'later', 1, NULL)")
    odd = w.close()
    items = q.list_browser_outages(odd)["items"]
    assert [len(i["endpoint"]) for i in items] == [500, 1]
    assert len(items[0]["reason"]) == 500 and items[1]["seconds"] is None
