"""The report's sheets of findings: Violations (what the analyze plugins found),
Discrepancies (a page's metadata disagreeing with itself) and Summary.

Upstream's Discrepancies rows come from its analyze plugins; ours are the mismatches
``find_mismatches`` defines (canonical, og:title, og:description), streamed by that
query's own statement (``mismatch_sql``), so the sheet and the query cannot disagree.
Upstream writes no Summary sheet (its step is empty); ours is ``get_summary`` laid out as
label and value, with the findings counted per validator.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from ..archive.opening import Archive
from ..queries.find_mismatches import TYPES, mismatch_sql
from ..queries.get_summary import get_summary
from ..queries.get_violations import JOINS
from ..terminal import local_time, percent
from .table import Column, Table

VIOLATION_COLUMNS = (
    Column("Validator", width=12), Column("Severity", width=10), Column("Rule", width=24),
    Column("Code", width=40), Column("Message", width=60), Column("URL", "url", 50),
)


def violations(a: Archive) -> Table:
    """Every finding in the order written (upstream's), severity as the validator
    stored it."""
    if not (a.has_table("analysis_violations") and a.has_table("analysis_text_refs")):
        return Table("Violations", VIOLATION_COLUMNS, 0, iter(()),
                     notes=["This archive was never analysed (nitpicker-crawl analyze)."])
    total = a.count(f"SELECT count(*) {JOINS}")
    cursor = a.stream(f"SELECT v.validator, v.severity, v.rule, c.text, m.text, p.url "
                       f"{JOINS} ORDER BY v.id")
    return Table("Violations", VIOLATION_COLUMNS, total, (tuple(r) for r in cursor))


DISCREPANCY_COLUMNS = (
    Column("Type", width=16), Column("Left URL", "url", 50), Column("Left", width=40),
    Column("Right", width=40), Column("Right URL", "url", 50), Column("Note", width=40),
)

_NOTES = {
    "canonical": "the canonical URL is not the page's URL",
    "og:title": "og:title differs from the title",
    "og:description": "og:description differs from the description",
}


def discrepancies(a: Archive) -> Table:
    """Pages whose canonical, og:title or og:description disagrees with the page: Left
    is what the page says (its URL, og:title, og:description), Right what it should
    match (the canonical, the title, the description)."""
    total = sum(a.count(f"SELECT count(*) FROM pages p WHERE {mismatch_sql(t)[1]}")
                for t in TYPES)

    def rows() -> Iterator[Sequence[Any]]:
        for kind in TYPES:   # one streamed statement each, not pages of OFFSET
            for url, actual, expected in a.stream(mismatch_sql(kind)[0]):
                right_url = expected if kind == "canonical" else url
                yield (kind, url, actual, expected, right_url, _NOTES[kind])
    return Table("Discrepancies", DISCREPANCY_COLUMNS, total, rows())


SUMMARY_COLUMNS = (Column("Item", width=40), Column("Value", width=50))


def _summary_rows(a: Archive) -> list[tuple[str, Any]]:
    s = get_summary(a)
    rows: list[tuple[str, Any]] = [("Base URL", s["baseUrl"]),
                                   ("Roots", " ".join(s.get("roots") or []))]
    crawl = s.get("crawl") or {}
    for key, label in (("startedAt", "Crawl started"), ("endedAt", "Crawl ended")):
        if crawl.get(key):
            rows.append((label, local_time(crawl[key])))
    if crawl.get("stopReason"):
        rows.append(("Crawl stopped because", crawl["stopReason"]))
    labels = {"urls": "URLs done", "htmlPages": "HTML pages", "externalUrls": "External URLs",
              "redirectingUrls": "Redirecting URLs", "refusedUrls": "URLs refused by the "
              "soft cap", "skippedUrls": "Skipped URLs", "failedUrls": "Failed fetches",
              "queuedUrls": "URLs never fetched"}
    for key, value in (s.get("totals") or {}).items():
        rows.append((labels.get(key, key), value))
    for entry in s.get("statusDistribution") or []:
        label = f"Status {entry['status']}"
        if entry.get("inventorySeed"):
            label += " (listed in a sitemap or --list, not linked)"
        rows.append((label, entry["count"]))
    for entry in s.get("contentTypeDistribution") or []:
        rows.append((f"Content type {entry['category']} (internal / external)",
                     f"{entry['internal']} / {entry['external']}"))
    pages, present = s.get("metadataPages") or 0, s.get("metadataPresent") or {}
    population = "indexable pages" if s.get("metadataPopulation") == "indexable" else "pages"
    for key, rate in (s.get("metadataFulfillment") or {}).items():
        # counted, and never rounded up to 100 % while one page lacks it
        rows.append((f"Pages with {key}", f"{present.get(key, 0):,} of {pages:,} "
                     f"{population} ({percent(rate)})"))
    for entry in s.get("pageProblems") or []:
        rows.append((f"Problem: {entry.get('kind', entry)}", entry.get("count", "")
                     if isinstance(entry, dict) else ""))
    for entry in s.get("violations") or []:
        rows.append((f"Findings of {entry['validator']} (on pages)",
                     f"{entry['findings']} ({entry['pages']})"))
    return rows


def summary(a: Archive) -> Table:
    """The crawl in figures: ``get_summary``'s answer as rows of label and value."""
    rows = _summary_rows(a)
    return Table("Summary", SUMMARY_COLUMNS, len(rows), iter(rows))
