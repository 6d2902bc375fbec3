"""``nitpicker-query report --format html``: one file an auditor sends a client.

The workbook holds every row; this page holds what a reader acts on — the summary, then
one section per kind of issue (broken links, error pages, redirects, metadata gaps,
duplicate titles and descriptions, identical bodies, crawler traps, templates, analyze
findings), each with its exact count and its first :data:`ROWS` rows, and the
``nitpicker-query`` command that lists the rest. Every number comes from the query that
defines it (the same functions as the CLI, MCP and the viewer), so the page and the tools
never disagree.

The file stands alone: styles inline, no script, no image, no font, no request of any
kind (a Content-Security-Policy of ``default-src 'none'`` says so to the browser), so it
opens from ``file://`` on a machine with no network and shows the same thing years
later. Every value came from a crawled site: the template escapes every text, a link is
made only of an ``http(s)`` URL, and each cell is cut to :data:`MAX_CELL` characters —
whatever the archive holds, the page is at most sections × rows × cells long (about
2 MB). A phone shows each table row as a card (no sideways scrolling at 390 px).
"""

from __future__ import annotations

import datetime as dt
import shlex
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2

from .. import __version__
from ..archive.opening import Archive
from ..queries.duplicate_bodies import find_duplicate_bodies
from ..queries.find_duplicates import find_duplicates
from ..queries.get_duplicate_clusters import get_duplicate_clusters
from ..queries.get_summary import get_summary
from ..queries.get_template_clusters import get_template_clusters
from ..queries.get_violations import get_violations
from ..queries.list_dedupe_cap_events import list_dedupe_cap_events
from ..queries.list_links import list_links
from ..queries.list_pages import list_pages
from ..terminal import percent

ROWS = 100
"""Rows shown per section; the count above each table is the whole number."""
URLS_PER_CELL = 5
MAX_CELL = 300
MAX_HREF = 2_000
META_FIELDS = (("title", "title"), ("description", "meta description"),
               ("ogTitle", "og:title"), ("ogDescription", "og:description"),
               ("ogImage", "og:image"), ("keywords", "meta keywords"))
"""The summary's metadata fields in the order a reader weighs them, with their names as
the page's markup spells them."""


@dataclass(frozen=True)
class Col:
    key: str
    header: str
    kind: str = "text"
    """``url`` (a link), ``urls`` (a few links, "+N more"), ``int``, ``bool``, ``text``."""


@dataclass
class Section:
    """One kind of issue: its exact count, its first rows, and how to list them all."""

    id: str
    title: str
    why: str
    total: int
    unit: str
    columns: Sequence[Col] = ()
    rows: list[dict[str, Any]] = field(default_factory=list)
    more: str | None = None
    notes: list[str] = field(default_factory=list)
    severity: str = "issue"
    """``issue``: a count above zero is something to fix; ``info``: an inventory."""
    badge: str | None = None
    """What the summary shows instead of the count (``not run``: no analysis)."""

    @property
    def shown(self) -> int:
        return len(self.rows)


def _command(archive: Archive, *args: str) -> str:
    return shlex.join(["nitpicker-query", args[0], archive.path.name, *args[1:]])


def _cut(text: Any) -> str:
    value = "" if text is None else str(text)
    return value if len(value) <= MAX_CELL else value[:MAX_CELL - 1] + "…"


def _section(archive: Archive, id: str, title: str, why: str, unit: str,
             columns: Sequence[Col], result: dict[str, Any], command: Sequence[str],
             rows: Callable[[dict[str, Any]], dict[str, Any]] = dict,
             severity: str = "issue") -> Section:
    items = result.get("items") or []
    total = int(result.get("total") or 0)
    return Section(id, title, why, total, unit, columns, [rows(i) for i in items[:ROWS]],
                   _command(archive, *command, "--format", "csv") if total > ROWS else None,
                   severity=severity)


def sections(a: Archive, report: Callable[[int, int, str], None]) -> tuple[
        dict[str, Any], list[Section]]:
    """The summary and every section, each read by the query that defines it;
    ``report(done, total, message)`` says which section is being read."""
    steps: list[tuple[str, Callable[[], Iterable[Section]]]] = [
        ("broken links", lambda: [_broken_links(a)]),
        ("error pages", lambda: [_error_pages(a)]),
        ("redirects", lambda: [_redirects(a)]),
        ("metadata", lambda: _metadata(a)),
        ("duplicate titles and descriptions", lambda: _duplicates(a)),
        ("identical bodies", lambda: [_bodies(a)]),
        ("crawler traps", lambda: _traps(a)),
        ("templates", lambda: [_templates(a)]),
        ("analyze findings", lambda: [_violations(a)]),
    ]
    report(0, len(steps) + 1, "html: the summary")
    summary = get_summary(a)
    out: list[Section] = []
    for number, (label, step) in enumerate(steps, 1):
        report(number, len(steps) + 1, f"html: {label}")
        out.extend(step())
    return summary, out


def _broken_links(a: Archive) -> Section:
    result = list_links(a, type="broken", sort_by="destUrl", limit=ROWS)
    section = _section(
        a, "broken-links", "Broken links", "Links whose target answers an error (4xx, 5xx "
        "or no answer) after its redirects: a visitor who follows one lands on an error.",
        "links",
        (Col("sourceUrl", "On page", "url"), Col("textContent", "Link text"),
         Col("destUrl", "Target", "url"), Col("status", "Status", "int"),
         Col("where", "Target is")),
        result, ("links", "--type", "broken"),
        lambda i: {**i, "where": "external" if i.get("isExternal") else "internal"})
    targets = list_links(a, type="broken", by_destination=True, limit=1)["total"]
    if section.total:
        section.notes.append(f"{section.total:,} links to {targets:,} broken URLs.")
    return section


def _error_pages(a: Archive) -> Section:
    result = list_pages(a, status_min=400, is_external=False, sort_by="status", limit=ROWS)
    return _section(
        a, "error-pages", "Pages answering an error", "The site's own URLs that answered "
        "4xx or 5xx when the crawler fetched them.", "pages",
        (Col("url", "URL", "url"), Col("status", "Status", "int"), Col("title", "Title")),
        result, ("pages", "--status-min", "400", "--no-is-external"))


def _redirects(a: Archive) -> Section:
    result = list_pages(a, redirects=True, is_external=False, limit=ROWS)
    return _section(
        a, "redirects", "Redirects", "URLs that send the visitor elsewhere (HTTP 3xx, a "
        "meta refresh, a Refresh header, a script): links to them cost a hop; a chain "
        "or a loop costs more.", "URLs",
        (Col("url", "URL", "url"), Col("status", "Status", "int"),
         Col("redirectKind", "Kind"), Col("redirectTo", "Next hop", "url"),
         Col("finalUrl", "Ends at", "url"), Col("finalStatus", "Final status", "int"),
         Col("hops", "Hops", "int"), Col("redirectLoop", "Loop", "bool")),
        result, ("pages", "--redirects", "--no-is-external"),
        lambda i: {**i, "hops": max(len(i.get("redirectChain") or []) - 1, 0)},
        severity="info")


def _metadata(a: Archive) -> list[Section]:
    out = []
    for key, name in (("title", "title"), ("description", "meta description")):
        result = list_pages(a, missing=key, indexable=True, limit=ROWS)
        out.append(_section(
            a, f"missing-{key}", f"Pages without a {name}", f"Indexable pages (2xx, not "
            f"noindex, canonical absent or self) with no {name}: search results show "
            "what the engine makes up instead.", "pages",
            (Col("url", "URL", "url"), Col("title", "Title")), result,
            ("pages", "--missing", key, "--indexable")))
    return out


def _duplicates(a: Archive) -> list[Section]:
    out = []
    for key, name in (("title", "titles"), ("description", "descriptions")):
        result = find_duplicates(a, field=key, pages_limit=URLS_PER_CELL, limit=ROWS)
        out.append(_section(
            a, f"duplicate-{key}s", f"Duplicate {name}", f"Indexable pages sharing one "
            f"{key}: a search engine cannot tell them apart by it.", "groups",
            (Col("value", key.capitalize()), Col("count", "Pages", "int"),
             Col("urls", "Pages (first)", "urls")),
            result, ("duplicates", "--field", key)))
    return out


def _bodies(a: Archive) -> Section:
    result = find_duplicate_bodies(a, pages_limit=URLS_PER_CELL, limit=ROWS)
    return _section(
        a, "identical-bodies", "Identical pages", "Pages whose bodies are the same once "
        "dynamic ids are masked: copies under several URLs (near copies: "
        "nitpicker-query near-duplicates).", "groups",
        (Col("count", "Pages", "int"), Col("urls", "Pages (first)", "urls")),
        result, ("duplicate-bodies",))


def _traps(a: Archive) -> list[Section]:
    events = list_dedupe_cap_events(a, limit=ROWS)
    capped = _section(
        a, "cap-events", "Crawler traps stopped", "URL shapes the crawl's soft cap "
        "stopped following (a calendar, a pager past its end, endless filters): what it "
        "refused was never fetched.", "events",
        (Col("shapeKey", "URL shape"), Col("sampleUrl", "Sample", "url"),
         Col("verdict", "Verdict"), Col("observedCount", "Pages seen", "int"),
         Col("rejectedCount", "URLs refused", "int")),
        events, ("dedupe-cap-events",),
        lambda i: {**i, "verdict": (i.get("signals") or {}).get("verdict") or "refused"})
    clusters = get_duplicate_clusters(a, sample_pages_limit=URLS_PER_CELL, limit=ROWS)
    shared = _section(
        a, "duplicate-clusters", "Pages sharing title, description and og tags",
        "Ten or more pages with one title, description, og:title and og:url: a trap the "
        "crawl followed, or a template that names no page; the exclusion is the "
        "narrowest one that matches no other stored page.", "clusters",
        (Col("shapeKey", "URL shape"), Col("count", "Pages", "int"),
         Col("title", "Title"), Col("exclude", "Exclude with"),
         Col("samplePages", "Pages (first)", "urls")),
        clusters, ("duplicate-clusters",), _cluster_row)
    return [capped, shared]


def _cluster_row(item: dict[str, Any]) -> dict[str, Any]:
    exclude = item.get("suggestedExclude") or {}
    flag, value = exclude.get("flag"), exclude.get("value")
    return {**item, "title": (item.get("metaSignatureFields") or {}).get("title"),
            "exclude": shlex.join([str(flag), str(value)]) if flag and value else None}


def _templates(a: Archive) -> Section:
    result = get_template_clusters(a, sample_pages_limit=URLS_PER_CELL, limit=ROWS)
    section = _section(
        a, "templates", "Templates", "The site's pages folded into their templates by DOM "
        "structure, biggest first: check one page of each to review the whole site.",
        "templates",
        (Col("count", "Pages", "int"), Col("samplePages", "Pages (first)", "urls"),
         Col("trap", "Stopped as a trap", "bool")),
        result, ("template-clusters",),
        lambda i: {**i, "trap": bool(i.get("capEventIds"))}, severity="info")
    clustered = int(result.get("pagesClustered") or 0)
    section.notes.append(f"{clustered:,} HTML pages in {section.total:,} templates.")
    return section


def _violations(a: Archive) -> Section:
    result = get_violations(a, sort_by="severity", limit=ROWS)
    section = _section(
        a, "violations", "Analyze findings", "What the analyze plugins (axe, markuplint, "
        "the HTML checker, textlint, Lighthouse) found on the pages.", "findings",
        (Col("url", "Page", "url"), Col("validator", "Validator"),
         Col("severity", "Severity"), Col("rule", "Rule"), Col("message", "Message")),
        result, ("violations",))
    if not result.get("analysed") and not section.total:
        section.severity, section.badge = "info", "not run"
    if result.get("note"):
        section.notes.append(str(result["note"]))
    return section


def _overview(summary: dict[str, Any]) -> list[tuple[str, str]]:
    totals = summary.get("totals") or {}
    crawl = summary.get("crawl") or {}
    rows = [("Start URL", ", ".join(summary.get("roots") or [summary.get("baseUrl") or ""])),
            ("Crawled", _span(crawl.get("startedAt"), crawl.get("endedAt"))),
            ("How the crawl ended", str(crawl.get("stopReason") or "not recorded")),
            ("URLs", f"{totals.get('urls', 0):,}"),
            ("HTML pages", f"{totals.get('htmlPages', 0):,}"),
            ("External URLs", f"{totals.get('externalUrls', 0):,}"),
            ("Redirecting URLs", f"{totals.get('redirectingUrls', 0):,}"),
            ("Skipped URLs (robots.txt, excluded, soft cap …)",
             f"{totals.get('skippedUrls', 0):,}"),
            ("Failed fetches (no answer)", f"{totals.get('failedUrls', 0):,}")]
    if totals.get("queuedUrls"):
        rows.append(("Found but never fetched (the crawl stopped early)",
                     f"{totals['queuedUrls']:,}"))
    return rows


def _span(start: Any, end: Any) -> str:
    if not isinstance(start, int | float):
        return "not recorded"
    first = _when(start)
    return first if not isinstance(end, int | float) else f"{first} – {_when(end)}"


def _when(ms: float) -> str:
    return dt.datetime.fromtimestamp(ms / 1000, dt.UTC).strftime("%Y-%m-%d %H:%M UTC")


def _metadata_rows(summary: dict[str, Any]) -> list[dict[str, Any]]:
    pages = int(summary.get("metadataPages") or 0)
    present = summary.get("metadataPresent") or {}
    return [{"name": name, "present": int(present.get(key) or 0),
             "missing": pages - int(present.get(key) or 0),
             "share": percent(int(present.get(key) or 0) / pages) if pages else "–"}
            for key, name in META_FIELDS if key in present]


def _href(value: Any) -> str | None:
    text = value if isinstance(value, str) else ""
    lower = text[:8].lower()
    if (lower.startswith("http://") or lower.startswith("https://")) \
            and len(text) <= MAX_HREF and not any(c.isspace() for c in text):
        return text
    return None


def _cell(column: Col, row: dict[str, Any]) -> dict[str, Any]:
    """What the template shows of one cell: ``text``, ``href``, or ``links`` and
    ``more``."""
    value = row.get(column.key)
    if column.kind == "urls":
        urls = [u for u in (value or []) if isinstance(u, str)]
        count = row.get("count")
        more = (int(count) if isinstance(count, int) else len(urls)) - len(urls[:URLS_PER_CELL])
        return {"links": [{"text": _cut(u), "href": _href(u)} for u in urls[:URLS_PER_CELL]],
                "more": max(more, 0)}
    if value is None or value == "":
        return {"text": "–", "empty": True}
    if column.kind == "url":
        return {"text": _cut(value), "href": _href(value)}
    if column.kind == "bool":
        return {"text": "yes" if value else "no"}
    if column.kind == "int" and isinstance(value, int):
        return {"text": "no answer" if value == -1 and column.key.endswith("tatus")
                else f"{value:,}"}
    return {"text": _cut(value)}


_ENV = jinja2.Environment(
    loader=jinja2.PackageLoader("nitpicker_query.report", "templates"),
    autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True,
    lstrip_blocks=True)
_ENV.globals["cell"] = _cell


def render(a: Archive, summary: dict[str, Any], found: list[Section],
           now: dt.datetime | None = None) -> str:
    """The whole page."""
    when = (now or dt.datetime.now(dt.UTC)).strftime("%Y-%m-%d %H:%M UTC")
    return _ENV.get_template("report.html").render(
        site=summary.get("baseUrl") or a.path.name, archive=a.path.name,
        version=__version__, generated=when, overview=_overview(summary),
        statuses=summary.get("statusDistribution") or [],
        metadata=_metadata_rows(summary), metadata_pages=summary.get("metadataPages") or 0,
        findings=summary.get("violations"), sections=found, rows_shown=ROWS)


def write(a: Archive, path: Path, report: Callable[[int, int, str], None]) -> list[
        dict[str, Any]]:
    """Write the page to ``path``: its sections, each ``{name, rows, unit}`` (``rows``
    the whole count, as the page says it)."""
    summary, found = sections(a, report)
    path.write_text(render(a, summary, found), encoding="utf-8")
    return [{"name": s.title, "rows": s.total, "unit": s.unit} for s in found]
