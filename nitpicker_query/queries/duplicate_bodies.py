"""``find_duplicate_bodies`` and ``find_duplicate_clusters``: pages whose bodies are the same.

Both group pages by upstream's body hash (the ``<body>`` with ``/index.<ext>`` folded to
``/`` and mixed letter-digit runs of 8 or more masked, SHA-256: docs/archive-format.md),
so a session id, a CSRF token or a build hash in the markup does not make two copies of
a page differ, while any change of text does. Format 0.13 keeps the hash in
``page_meta.body_hash``; our 0.10 archives in ``page_body_hashes``. An archive without
either (upstream's 0.10, or written before our crawler stored them) raises
:class:`~nitpicker_query.exceptions.NotRecorded`: an empty list would read as "no
duplicates".
"""

from __future__ import annotations

from collections import Counter
from typing import Any
from urllib.parse import urlsplit

from ..archive.opening import Archive, opened
from ..exceptions import NotRecorded
from .paging import check_int, check_paging, envelope

TOP_DIRECTORIES = 5
"""Directories ``commonDirectories`` lists per cluster (upstream's default)."""


def _source(a: Archive) -> tuple[str, str]:
    """The FROM clause over pages with a body hash, and the hash's expression."""
    if a.format == "0.13":
        if "body_hash" in a.columns("page_meta"):
            return f"{a.lite} p", "p.body_hash"
    elif a.has_table("page_body_hashes"):
        return f"{a.lite} p JOIN page_body_hashes h ON h.page_id = p.id", "h.body_hash"
    raise NotRecorded(
        f"{a.path.name} records no body hashes (written by upstream's 0.10 crawler, by an "
        "upstream 0.13 build before body hashes, or by an earlier nitpicker-crawl): "
        "`nitpicker-crawl convert ARCHIVE --to 0.13 -o OUT.nitpicker` computes them from "
        "the stored HTML into a new file")


def _members(a: Archive, source: str, digest: str, where: str,
             hashes: list[bytes]) -> Any:
    """Cursor of ``(hash, url)`` for the pages of ``hashes``, in URL order."""
    marks = ", ".join("?" * len(hashes))
    return a.execute(f"SELECT {digest} AS h, p.url AS url FROM {source} WHERE {where} "
                     f"AND {digest} IN ({marks}) ORDER BY p.url", hashes)


def _where(digest: str) -> str:
    # upstream's rows: fetched, internal, not a redirect; any status and content type
    # (a soft 404 served under a thousand URLs is what this is for)
    return (f"p.scraped = 1 AND p.isExternal = 0 AND p.redirectDestId IS NULL "
            f"AND {digest} IS NOT NULL")


def find_duplicate_bodies(archive: Archive | str, *, pages_limit: int = 20, limit: int = 50,
                          offset: int = 0) -> dict[str, Any]:
    """Which pages have the same body once dynamic ids are masked?

    Over fetched internal pages that are not redirects, whatever their status: one group
    per body hash shared by two pages or more, biggest first (then by hash). Each item is
    ``{bodyHash, count, urls}``: the hash in hex, the number of pages, and the first
    ``pages_limit`` (1–1000) member URLs in URL order. Across hosts and schemes too: the
    same page under ``http`` and ``https`` is a finding.

    Upstream: ``find-duplicate-bodies.ts`` (every URL of a group; ours caps them, as
    ``find_duplicates`` does, and pages the groups)."""
    pages_limit = check_int("pages_limit", pages_limit, minimum=1, maximum=1000)
    limit, offset = check_paging(limit, offset)
    with opened(archive) as a:
        source, digest = _source(a)
        where = _where(digest)
        base = f"FROM {source} WHERE {where} GROUP BY {digest} HAVING count(*) > 1"
        total = a.count(f"SELECT count(*) FROM (SELECT 1 {base})")
        groups = a.rows(f"SELECT {digest}, count(*) AS n {base} ORDER BY n DESC, {digest} "
                        "LIMIT ? OFFSET ?", (limit, offset))
        urls: dict[bytes, list[str]] = {bytes(h): [] for h, _n in groups}
        if groups:
            for row in _members(a, source, digest, where, list(urls)):
                kept = urls[bytes(row["h"])]
                if len(kept) < pages_limit:
                    kept.append(row["url"])
    items = [{"bodyHash": bytes(h).hex(), "count": n, "urls": urls[bytes(h)]}
             for h, n in groups]
    return envelope(items, total, limit, offset)


def directory_of(url: str) -> str | None:
    """``https://example.com/news/`` for ``https://example.com/news/2024/a``: the origin and
    the first segment of the URL's directory (the path without its last segment; a path
    of one segment, ``/about``, is at the root). None when the URL does not parse."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if not parts.scheme or not parts.netloc:
        return None
    segments = [s for s in parts.path.split("/")[:-1] if s]
    origin = f"{parts.scheme}://{parts.netloc}"
    return f"{origin}/{segments[0]}/" if segments else f"{origin}/"


def find_duplicate_clusters(archive: Archive | str, *, min_count: int = 10,
                            sample_pages_limit: int = 20, limit: int = 50,
                            offset: int = 0) -> dict[str, Any]:
    """Which groups of identical bodies look like a crawler trap?

    Groups of at least ``min_count`` pages (2 or more) with one body hash and one title
    across every member (no title counts as one title): a pager past its end, a calendar
    or a query loop serving the same page under endless URLs. Ranked by
    ``ogUrlMismatchRatio`` — the share of members whose og:url names another URL (a trap
    often points at its parent listing) — then size, then hash. Each item:
    ``{signature, count, title, ogUrlMismatchRatio, samplePages, commonDirectories}``,
    ``samplePages`` the first ``sample_pages_limit`` URLs in URL order,
    ``commonDirectories`` the five directories (origin and first segment) holding most
    members, from all of them.

    Upstream: ``list-duplicate-body-clusters.ts``; format-0.13 aliases (``alias_of_id``)
    are left out as upstream leaves them out; ``title`` is ours."""
    min_count = check_int("min_count", min_count, minimum=2)
    sample_pages_limit = check_int("sample_pages_limit", sample_pages_limit, minimum=1,
                                   maximum=1000)
    limit, offset = check_paging(limit, offset)
    with opened(archive) as a:
        source, digest = _source(a)
        where = _where(digest)
        if "aliasOfId" in a.columns(a.lite):
            where += " AND p.aliasOfId IS NULL"
        base = (f"FROM {source} WHERE {where} GROUP BY {digest} HAVING count(*) >= ? "
                f"AND count(DISTINCT coalesce(p.title, '')) = 1")
        total = a.count(f"SELECT count(*) FROM (SELECT 1 {base})", (min_count,))
        mismatch = ("CAST(sum(coalesce(p.og_url, '') != '' AND p.og_url != p.url) AS REAL) "
                    "/ count(*)")
        groups = a.rows(
            f"SELECT {digest}, count(*) AS n, {mismatch} AS ratio, max(p.title) {base} "
            f"ORDER BY ratio DESC, n DESC, {digest} LIMIT ? OFFSET ?",
            (min_count, limit, offset))
        samples: dict[bytes, list[str]] = {bytes(g[0]): [] for g in groups}
        directories: dict[bytes, Counter[str]] = {h: Counter() for h in samples}
        if groups:
            for row in _members(a, source, digest, where, list(samples)):
                h = bytes(row["h"])
                if len(samples[h]) < sample_pages_limit:
                    samples[h].append(row["url"])
                directory = directory_of(row["url"])
                if directory is not None:
                    directories[h][directory] += 1
    items = []
    for h, n, ratio, title in groups:
        key = bytes(h)
        top = sorted(directories[key].items(), key=lambda d: (-d[1], d[0]))[:TOP_DIRECTORIES]
        items.append({"signature": key.hex(), "count": n, "title": title or None,
                      "ogUrlMismatchRatio": round(float(ratio), 4),
                      "samplePages": samples[key],
                      "commonDirectories": [{"directory": d, "pageCount": c}
                                            for d, c in top]})
    return envelope(items, total, limit, offset)
