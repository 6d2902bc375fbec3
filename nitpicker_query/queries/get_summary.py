"""``get_summary``: the whole crawl in one object."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from ..archive.opening import Archive, opened
from ..format.content_types import classify_content_type
from ..format.error_kinds import classify_error_kind
from ..format.v010 import NOT_SKIPPED, POPULATIONS, STOP_REASONS, loose_page
from ._common import json_list
from .list_browser_outages import browser_outage_totals
from .list_network_outages import outage_totals
from .paging import check_choice
from .totals import crawl_totals, externals_checked

_META_FIELDS = (
    ("title", "title"),
    ("description", "description"),
    ("keywords", "keywords"),
    ("ogTitle", "og_title"),
    ("ogDescription", "og_description"),
    ("ogImage", "og_image"),
)


def _failure_messages(a: Archive) -> dict[str, str | None]:
    """Message per ``status = -1`` page: page_errors → crawl_errors → error.log (§5.6)."""
    rows = a.execute(
        "SELECT id, url FROM pages WHERE scraped = 1 AND status = -1 AND redirectDestId IS NULL"
    ).fetchall()
    messages: dict[str, str | None] = {r["url"]: None for r in rows}
    if not messages:
        return messages
    if a.has_table("page_errors"):
        for r in a.execute(
            "SELECT p.url, e.message FROM page_errors e JOIN pages p ON p.id = e.pageId "
            "WHERE p.scraped = 1 AND p.status = -1 AND p.redirectDestId IS NULL "
            "ORDER BY e.createdAt, e.id"
        ):
            messages[r["url"]] = r["message"]
    missing = [u for u, m in messages.items() if m is None]
    if missing and a.has_table("crawl_errors"):
        wanted = set(missing)
        for r in a.execute(
            "SELECT url, message FROM crawl_errors WHERE url IS NOT NULL ORDER BY createdAt, id"
        ):
            if r["url"] in wanted:
                messages[r["url"]] = r["message"]
    missing = [u for u, m in messages.items() if m is None]
    log = a.error_log
    if missing and log is not None:
        # each URL-looking token of a line is looked up: linear in the log, whatever the
        # number of failures (a substring test per failure per line was not)
        wanted = set(missing)
        with open(log, encoding="utf-8", errors="replace") as fh:
            for line in fh:
                for token in _URL_TOKEN.findall(line):
                    for url in (token, token.rstrip(".,;:)]}'\"")):
                        if url in wanted:
                            messages[url] = line.strip()
    return messages


_URL_TOKEN = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*://[^\s\"'<>]+")


def _status(value: Any) -> int | None:
    """A status as stored, or None when it is not an integer (``'abc'``, a BLOB): a
    stranger's value must not break the summary, and is counted with the unknown ones."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def get_summary(archive: Archive | str, *, population: str = "indexable") -> dict[str, Any]:
    """How big is the crawl and how healthy is it? One object for the whole archive.

    ``totals`` counts URLs in the words the crawl's last line uses (``urls``, ``htmlPages``,
    ``externalUrls``, ``redirectingUrls``, ``refusedUrls``, ``skippedUrls``,
    ``failedUrls``: :mod:`nitpicker_query.queries.totals`), so the two always agree. The page
    counts below use the loose page predicate without skipped URLs, grouped into
    internal (``isExternal = 0``), external (``= 1``) and all. ``statusDistribution``
    lists each status with its count, numeric ascending, null last; the ``-1`` entry has
    ``errorKindBreakdown`` (dns, tls, timeout, … from the stored failure messages); 404s
    of pages only the inventory named (``source`` ``inventory-seed``: a sitemap or
    ``--list`` naming a missing page, not a broken link of the site) are a row of their
    own, ``{status: 404, count, inventorySeed: true}``, after the numeric ones (upstream's
    split).
    ``metadataFulfillment`` is the share (0–1) of the indexable pages (``population``,
    :data:`~nitpicker_query.format.v010.POPULATIONS`: 2xx, not ``noindex``, canonical absent or
    self; ``all``: every rendered internal HTML page, error pages too) with a non-empty
    title, description, keywords, og:title, og:description, og:image;
    ``metadataPages`` how many pages that is and ``metadataPresent`` how many have each
    field (a share of 0.9996 is "1 of 2,814 missing", not "100 %").
    ``contentTypeDistribution`` counts every fetched, non-redirect, non-skipped row by
    one of 18 categories (html, pdf, image, …), internal and external; its column sums
    are ``internalContents`` / ``externalContents``. ``crawl`` says how the crawl ended
    (``stopReason``: complete, max-pages, interrupted, network-outage, running,
    unfinished) and how many
    runs wrote it; null for archives written without our run log. ``pageProblems``
    counts pages that were answered but stored with a problem, by kind (``deadline``,
    ``body-too-large``, ``links`` left out …), each page once per kind.
    ``networkOutages`` (null without the table): ``windows`` the crawl paused in because
    nothing answered, and ``failuresInside`` — failures recorded inside one (none when
    the crawl came back: it fetches them again), so a flaky connection is not read as
    broken pages. ``browserOutages`` (null without the table): ``losses`` of lent
    browsers (``--browser-endpoint``), ``pagesMoved`` to another browser for them, and
    ``downAtEnd``. ``violations`` (null when never analysed): the analyze plugins'
    findings per validator, ``{validator, findings, pages}``.

    Upstream: ``packages/@nitpicker/query/src/get-summary.ts`` (0.10 era).
    """
    check_choice("population", population, POPULATIONS)
    with opened(archive) as a:
        info = a.info
        roots = json_list(info.get("roots"))
        seed = "source = 'inventory-seed'" if "source" in a.columns(a.lite) else "0"
        counts = a.execute(
            f"SELECT isExternal, status, {seed} AS seed, count(*) AS n FROM {a.lite} pages "
            f"WHERE {loose_page('pages')} AND {NOT_SKIPPED} GROUP BY isExternal, status, seed"
        ).fetchall()
        total = internal = external = seed_404 = 0
        by_status: Counter[int | None] = Counter()
        for r in counts:
            total += r["n"]
            if r["isExternal"] == 0:
                internal += r["n"]
            elif r["isExternal"] == 1:
                external += r["n"]
            if r["seed"] and _status(r["status"]) == 404:
                seed_404 += r["n"]   # a sitemap naming a missing page: a row of its own
            else:
                by_status[_status(r["status"])] += r["n"]
        distribution: list[dict[str, Any]] = []
        for status in sorted(by_status, key=lambda s: (s is None, s if s is not None else 0)):
            if status is None and seed_404:
                distribution.append({"status": 404, "count": seed_404, "inventorySeed": True})
                seed_404 = 0
            entry: dict[str, Any] = {"status": status, "count": by_status[status]}
            if status == -1:
                kinds = Counter(classify_error_kind(m if m is None or isinstance(m, str)
                                                    else str(m))
                                for m in _failure_messages(a).values())
                entry["errorKindBreakdown"] = [
                    {"kind": k, "count": n}
                    for k, n in sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0]))
                ]
            distribution.append(entry)
        if seed_404:
            distribution.append({"status": 404, "count": seed_404, "inventorySeed": True})
        sums = ", ".join(
            f"sum(CASE WHEN {a.filled(col)} THEN 1 ELSE 0 END)"
            for _, col in _META_FIELDS
        )
        row = a.execute(f"SELECT count(*), {sums} FROM {a.lite} pages "
                        f"WHERE {a.population('pages', population)}")
        values = row.fetchone()
        strict_total = values[0]
        fulfillment = {
            key: (values[i + 1] / strict_total if strict_total else 0)
            for i, (key, _) in enumerate(_META_FIELDS)
        }
        present = {key: int(values[i + 1] or 0) for i, (key, _) in enumerate(_META_FIELDS)}
        crawl = crawl_state(a)
        totals = crawl_totals(a, a.lite, externals_checked=externals_checked(a))
        problems = _page_problems(a)
        outages = outage_totals(a)
        browsers = browser_outage_totals(a)
        findings = _findings(a)
        content_rows = a.execute(
            f"SELECT contentType, isExternal, count(*) AS n FROM {a.lite} pages "
            f"WHERE scraped = 1 AND redirectDestId IS NULL AND {NOT_SKIPPED} "
            "GROUP BY contentType, isExternal"
        ).fetchall()
    per_category: dict[str, list[int]] = {}
    for r in content_rows:
        cell = per_category.setdefault(classify_content_type(r["contentType"]), [0, 0])
        cell[1 if r["isExternal"] == 1 else 0] += r["n"]
    content = [
        {"category": c, "internal": v[0], "external": v[1]}
        for c, v in sorted(per_category.items(), key=lambda kv: (-(kv[1][0] + kv[1][1]), kv[0]))
    ]
    return {
        "baseUrl": info.get("baseUrl"),
        "roots": roots,
        "totals": totals,
        "totalPages": total,
        "internalPages": internal,
        "externalPages": external,
        "internalContents": sum(c["internal"] for c in content),
        "externalContents": sum(c["external"] for c in content),
        "statusDistribution": distribution,
        "metadataFulfillment": fulfillment,
        "metadataPopulation": population,
        "metadataPages": int(strict_total or 0),
        "metadataPresent": present,
        "contentTypeDistribution": content,
        "pageProblems": problems,
        "crawl": crawl,
        "networkOutages": outages,
        "browserOutages": browsers,
        "violations": findings,
    }


def _findings(a: Archive) -> list[dict[str, Any]] | None:
    """What the analyze plugins found, per validator: ``{validator, findings, pages}``
    (most findings first); None when the archive was never analysed."""
    if not (a.has_table("analysis_violations") and a.has_table("analysis_text_refs")):
        return None
    return [{"validator": r[0], "findings": r[1], "pages": r[2]} for r in a.execute(
        "SELECT validator, count(*), count(DISTINCT page_id) FROM analysis_violations "
        "GROUP BY validator ORDER BY count(*) DESC, validator")]


def _page_problems(a: Archive) -> list[dict[str, Any]]:
    """Pages that were answered but stored with a problem (``page_errors`` of pages whose
    status is not -1: a body over the limit, a deadline, links left out …), counted by
    kind, each page once per kind, most frequent first."""
    if not a.has_table("page_errors"):
        return []
    kinds: Counter[str] = Counter()
    seen: set[tuple[int, str]] = set()
    for r in a.execute(
        "SELECT e.pageId, e.phase, e.message FROM page_errors e JOIN pages p "
        "ON p.id = e.pageId WHERE p.status IS NOT -1"
    ):
        message = r["message"] if isinstance(r["message"], str) else str(r["message"])
        kind = classify_error_kind(message)
        if kind == "unknown":
            kind = str(r["phase"])[:60]
        if (r["pageId"], kind) not in seen:
            seen.add((r["pageId"], kind))
            kinds[kind] += 1
    return [{"kind": k, "count": n}
            for k, n in sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0]))]


def crawl_state(a: Archive) -> dict[str, Any] | None:
    """How the crawl ended, from our run log; None for archives without one (upstream's).

    ``stopReason``: ``complete``, ``max-pages`` (the ``--max-pages`` safety net stopped
    it: more of the site was left), ``interrupted`` (Ctrl-C), ``running`` (a crawler is
    writing this directory now) or ``unfinished`` (the last run never recorded an end:
    killed, or crashed). ``runs`` counts the first crawl and each ``--resume``.
    """
    if not a.has_table("crawl_runs"):
        return None
    rows = a.rows("SELECT startedAt, endedAt, stopReason FROM crawl_runs ORDER BY id")
    if not rows:
        return None
    _, ended, reason = rows[-1]
    if reason not in STOP_REASONS:
        reason = "running" if a.crawler_pid is not None else "unfinished"
    first = rows[0][0]
    return {"stopReason": reason, "runs": len(rows),
            "startedAt": first if isinstance(first, int) else None,
            "endedAt": ended if isinstance(ended, int) else None}
