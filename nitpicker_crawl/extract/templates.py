"""Template clusters computed once, at the end of a crawl, and stored in the archive.

Clustering reads every stored snapshot (about a millisecond a page): on a 300,000-page
archive a first ``template-clusters`` call would take minutes, longer than an
assistant's MCP call can wait. The crawler has just written those pages and is the one
process allowed to write the archive, so it clusters them before packing and stores the
result in upstream's own template tables (:data:`nitpicker_query.format.v010.PAGE_TEMPLATES_DDL`);
the query then reads one table (:func:`nitpicker_query.queries.templates.template_index`).

The result is computed by the query layer itself
(:func:`nitpicker_query.queries.templates.compute`), so a stored result and one computed on
first call are the same answer. The tables are dropped
when a run starts (a resumed crawl changes the pages) and written only when a crawl ends
by itself or at ``--max-pages``: an interrupted archive has none and is clustered on
first call. ``--no-templates`` skips the step.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

import zstandard

from nitpicker_query.archive.html_codec import ZSTD_LEVEL
from nitpicker_query.archive.opening import Archive
from nitpicker_query.format.v010 import PAGE_TEMPLATE_TABLES, PAGE_TEMPLATES_DDL
from nitpicker_query.queries.templates import OVERLAP_KEY, compute


@dataclass(frozen=True)
class Stored:
    pages: int
    templates: int


def forget(conn: sqlite3.Connection) -> None:
    """Drop the template tables: the pages are about to change (a resumed crawl), and a
    stale result must not outlive them. Its own transaction."""
    with _transaction(conn):
        for table in PAGE_TEMPLATE_TABLES:
            conn.execute(f"DROP TABLE IF EXISTS {table}")


@contextlib.contextmanager
def _transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """BEGIN … COMMIT on the writer's autocommit connection; ROLLBACK on anything raised
    (Ctrl-C included), so the tables are all written or not at all."""
    conn.execute("BEGIN")
    try:
        yield
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def store(conn: sqlite3.Connection, workdir: Path) -> Stored:
    """Cluster the archive's pages and write the three tables in one transaction (an
    interruption leaves none of them). The caller has committed its own work; progress
    goes to the reporter of :func:`nitpicker_query.progress.reporting`, if any.

    The pages are read through the query layer itself (an :class:`Archive` on the crawl
    directory, read-only beside this writer), so the stored result is the one a first
    ``template-clusters`` call would compute, the meta-signature overlap included
    (stored with the reasons: :data:`nitpicker_query.queries.templates.OVERLAP_KEY`)."""
    archive = Archive(workdir, "stub", workdir, crawler_pid=os.getpid())
    try:
        index = compute(archive, stored=False)
    finally:
        archive.close()
    compressor = zstandard.ZstdCompressor(level=ZSTD_LEVEL)
    with _transaction(conn):
        for table in PAGE_TEMPLATE_TABLES:
            conn.execute(f"DROP TABLE IF EXISTS {table}")
        for statement in PAGE_TEMPLATES_DDL:
            conn.execute(statement)
        conn.executemany("INSERT INTO page_templates (page_id, template_key) VALUES (?, ?)",
                         sorted((page_id, key) for key, listed in index.members.items()
                                for _url, page_id in listed))
        for key, listed in index.members.items():
            reasons = {**index.reasons.get(key, {}), OVERLAP_KEY: [
                [sig, n, size] for sig, n, size, _event in index.meta_overlap.get(key, [])]}
            raw = json.dumps(reasons, ensure_ascii=False, separators=(",", ":")).encode()
            body = compressor.compress(raw)
            conn.execute("INSERT INTO page_template_clusters (template_key, member_count, "
                         "reason_json, codec, size_raw, size_stored) VALUES "
                         "(?, ?, ?, 'zstd', ?, ?)", (key, len(listed), body, len(raw),
                                                     len(body)))
        conn.executemany("INSERT INTO page_template_labels (template_key, section, ordinal) "
                         "VALUES (?, ?, ?)", labels({k: [u for u, _i in listed]
                                                     for k, listed in index.members.items()}))
    return Stored(index.pages, len(index.members))


def labels(members: dict[str, list[str]]) -> list[tuple[str, str | None, int]]:
    """``(key, section, ordinal)`` per template: the section is the first path segment
    most of its pages share (None for pages at the site's root), the ordinal its rank
    among the section's templates, biggest first from 1 — a name a person can say
    ("blog #2") where the key is a JSON string. Upstream names the columns; what it puts
    in them is not documented, so this is our reading."""
    section_of: dict[str, str | None] = {}
    for key, urls in members.items():
        firsts: Counter[str | None] = Counter()
        for url in urls:
            segments = [s for s in urlsplit(url).path.split("/") if s]
            firsts[unquote(segments[0]) if len(segments) > 1 else None] += 1
        section_of[key] = max(firsts.items(), key=lambda kv: (kv[1], kv[0] is None,
                                                              kv[0] or ""))[0]
    out = []
    ranked: Counter[str | None] = Counter()
    for key in sorted(members, key=lambda k: (-len(members[k]), k)):
        ranked[section_of[key]] += 1
        out.append((key, section_of[key], ranked[section_of[key]]))
    return out


def describe(stored: Stored) -> str:
    """The crawl's line about it."""
    return (f"{stored.pages} HTML page(s) in {stored.templates} template(s) "
            "(nitpicker-query template-clusters)")
