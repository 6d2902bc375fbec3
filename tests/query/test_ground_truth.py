"""Every query against the ground truth of a generated 10,000-page archive.

``bench/make_archive.py`` writes a realistic archive (15 anchors a page, redirects,
failures, traps, ~20 KB HTML) and, from what it generated, the expected answer of each
query. Speed work must keep these answers identical (the scale issue); this test is the
guard, at N = 10,000 to stay fast.
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import nitpicker_query as q

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory
              ) -> Iterator[tuple[q.Archive, dict[str, Any]]]:
    spec = importlib.util.spec_from_file_location("make_archive", ROOT / "bench" /
                                                  "make_archive.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    path = tmp_path_factory.mktemp("truth") / "site-10000.nitpicker"
    module.build(path, 10_000)
    truth = json.loads(path.with_name(path.name + ".truth.json").read_text())
    with q.open_archive(path) as archive:
        yield archive, truth


def test_pages_and_summary(generated: tuple[q.Archive, dict[str, Any]]) -> None:
    a, truth = generated
    t = truth["list_pages"]
    assert q.list_pages(a)["total"] == t["total"]
    assert q.list_pages(a, missing_title=True)["total"] == t["missing_title"]
    assert q.list_pages(a, status=404)["total"] == t["status_404"]
    assert q.list_pages(a, is_external=True)["total"] == t["external"]
    s = q.get_summary(a)
    expected = truth["get_summary"]
    assert (s["totalPages"], s["internalPages"], s["externalPages"]) == (
        expected["totalPages"], expected["internalPages"], expected["externalPages"])
    assert {str(d["status"]): d["count"] for d in s["statusDistribution"]} == expected[
        "statusDistribution"]
    failed = next(d for d in s["statusDistribution"] if d["status"] == -1)
    assert failed["errorKindBreakdown"] == [{"kind": "dns", "count": failed["count"]}]


def test_duplicates_and_mismatches(generated: tuple[q.Archive, dict[str, Any]]) -> None:
    a, truth = generated
    assert q.find_duplicates(a)["total"] == truth["find_duplicates"]["title"]
    assert q.find_duplicates(a, field="description")["total"] == truth["find_duplicates"][
        "description"]
    for kind, n in truth["find_mismatches"].items():
        assert q.find_mismatches(a, type=kind)["total"] == n, kind


def test_links_images_resources_headers(generated: tuple[q.Archive, dict[str, Any]]) -> None:
    a, truth = generated
    assert q.list_links(a, type="broken", broken_as="404")["total"] == truth["list_links"][
        "broken"]
    assert q.list_links(a, type="external")["total"] == truth["list_links"]["external"]
    assert q.list_images(a)["total"] == truth["list_images"]["total"]
    assert q.list_images(a, missing_alt=True)["total"] == truth["list_images"]["missing_alt"]
    assert q.list_resources(a)["total"] == truth["list_resources"]["total"]
    for url, n in truth["get_resource_referrers"].items():
        refs = q.get_resource_referrers(a, resource_url=url)
        assert refs is not None and refs["total"] == n
    assert q.check_headers(a)["total"] == truth["check_headers"]["total"]
    assert q.check_headers(a, missing_only=True)["total"] == truth["check_headers"][
        "missing_only"]
    assert a.execute("SELECT count(*) FROM anchors").fetchone()[0] == truth["anchors"]


def test_clusters(generated: tuple[q.Archive, dict[str, Any]]) -> None:
    a, truth = generated
    clusters = q.get_duplicate_clusters(a)
    assert [c["count"] for c in clusters["items"]] == truth["get_duplicate_clusters"]["counts"]
    assert all(c["suggestedExclude"]["matchesOutside"] == 0 for c in clusters["items"])
    assert q.list_dedupe_cap_events(a)["total"] == 0


@pytest.mark.parametrize("kind", ["broken", "404", "external"])
@pytest.mark.parametrize("offset", [0, 537])
def test_link_pages_equal_the_plain_sorted_query(generated: tuple[q.Archive, dict[str, Any]],
                                                 kind: str, offset: int) -> None:
    """Whichever plan list_links picks, a page is the plain sorted query's page."""
    a, _ = generated
    status = "COALESCE(r.status, d.status)"
    test = {"broken": f"({status} >= 400 OR {status} = -1)", "404": f"{status} = 404",
            "external": "COALESCE(r.isExternal, d.isExternal) = 1"}[kind]
    plain = a.execute(
        "SELECT s.url, COALESCE(r.url, d.url), an.textContent FROM anchors an "
        "JOIN pages s ON s.id = an.pageId JOIN pages d ON d.id = an.hrefId "
        f"LEFT JOIN pages r ON r.id = d.redirectDestId WHERE {test} "
        "ORDER BY s.url, an.id LIMIT 100 OFFSET ?", (offset,)).fetchall()
    ours = q.list_links(a, type="external" if kind == "external" else "broken",
                        broken_as="404" if kind == "404" else "error", offset=offset)["items"]
    assert [(i["sourceUrl"], i["destUrl"], i["textContent"]) for i in ours] == [
        tuple(r) for r in plain]


def test_report_counts_and_a_sigterm_half_way(
        generated: tuple[q.Archive, dict[str, Any]], tmp_path: Path) -> None:
    """The report's relational sheets against the generator's truth, and SIGTERM in the
    middle of the biggest sheet: exit 143, the old workbook intact, nothing half-written
    left beside it."""
    import signal
    import subprocess
    import sys

    a, truth = generated
    query = str(Path(sys.executable).with_name("nitpicker-query"))
    out = tmp_path / "site.csv.d"
    done = subprocess.run([query, "report", str(a.path), "-o", str(out), "--format", "csv",
                           "--sheets", "Images,Resources Relational Table"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    images = (out / "images.csv").read_bytes().count(b"\r\n") - 1
    assert images == truth["list_images"]["total"]
    # every (resource, page) pair once; the truth's one resource with its referrer count
    pairs = (out / "resources-relational-table.csv").read_bytes().decode("utf-8-sig")
    assert pairs.count("\r\n") - 1 == sum(
        r["referrerCount"] for r in q.list_resources(a, limit=1000)["items"])
    [(one, referred)] = truth["get_resource_referrers"].items()
    assert pairs.count(f",{one},") == referred
    book = tmp_path / "site.xlsx"
    book.write_bytes(b"yesterday")
    running = subprocess.Popen([query, "report", str(a.path), "-o", str(book), "--sheets",
                                "Referrers Relational Table"], stderr=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
    assert running.stderr is not None
    first = running.stderr.readline()   # the first progress line: rows are being written
    assert first.startswith("[report] sheet 1/1 Referrers Relational Table: 0 of "), first
    running.send_signal(signal.SIGTERM)
    _, err = running.communicate(timeout=60)
    assert running.returncode == 128 + signal.SIGTERM, err
    assert err.splitlines()[-1] == "nitpicker-query: interrupted"
    assert book.read_bytes() == b"yesterday"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site.csv.d", "site.xlsx"]
