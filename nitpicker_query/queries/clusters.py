"""Duplicate clusters computed from an archive: members, grouping, and exclusion advice.

Members are rendered internal HTML pages (the strict predicate) that have a signature
(not all of title, og:title, og:url empty). Their keys come from ``page_signatures`` when
the archive has it (written by our crawler with the same functions), and are computed
with :func:`nitpicker_query.keys.page_keys` otherwise — so crawl-time caps and post-hoc
clusters use identical values.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from ..archive.opening import Archive
from ..format.v010 import NOT_SKIPPED, strict_page
from ..keys.page_keys import meta_value, parent_key, sha1_key, shape_key
from ..keys.patterns import path_matches
from ..keys.signals import equivalent

_CHUNK = 500


@dataclass(frozen=True)
class Member:
    """A page of a cluster. Its URL shape is computed only when asked for (most members
    of a big upstream archive are never shown), unless the archive stored it."""

    page_id: int
    url: str
    og_url: str | None
    title: str
    description: str
    og_title: str
    signature: str
    stored_shape: tuple[str, str] | None = None  # (shape_key, shape_signature)

    @functools.cached_property
    def _shape(self) -> tuple[str, str]:
        if self.stored_shape is not None:
            return self.stored_shape
        shape = shape_key(self.url)
        return shape, sha1_key(shape, self.title, self.description, self.og_title,
                               meta_value(self.og_url))

    @property
    def shape_key(self) -> str:
        return self._shape[0]

    @property
    def shape_signature(self) -> str:
        return self._shape[1]


_META = ("COALESCE(p.title, '')", "COALESCE(p.description, '')", "COALESCE(p.og_title, '')",
         "COALESCE(p.og_url, '')")
_EDGE_WS = " \t\n\f\r"
_TRIMMED = tuple(f"trim({c}, '{_EDGE_WS}')" for c in _META)
"""The meta values with leading and trailing whitespace cut, in SQL (the literal holds
the five whitespace characters themselves: no ``char()`` call per row)."""


def _candidate_groups(a: Archive, min_count: int) -> dict[tuple[str, str, str, str], list[int]]:
    """Normalised (title, description, og:title, og:url) → ids of its pages, for the
    values shared by ``min_count`` pages or more: the only pages that can form a cluster
    (a signature contains the four normalised values).

    SQLite groups the values with their edge whitespace trimmed and hands back each big
    group's page ids (``group_concat``): one pass over ``pages``, no join, no per-page
    hash. Python then collapses inner whitespace runs (:func:`meta_value`) and merges
    groups that become equal. Not merged: spellings that differ only *inside* a value
    ("A  B" / "A B") where each spelling alone is on fewer than ``min_count`` pages —
    testing every value for inner runs would double the pass (docs/queries.md).
    """
    with a.one_pass():
        rows = a.rows(
            f"SELECT {', '.join(_TRIMMED)}, count(*) AS n, group_concat(p.id) FROM {a.lite} p "
            f"WHERE {strict_page('p')} GROUP BY 1, 2, 3, 4 HAVING n >= ?", (min_count,))
    groups: dict[tuple[str, str, str, str], list[int]] = {}
    for t, d, ot, ou, _n, ids in rows:
        norm = (meta_value(t), meta_value(d), meta_value(ot), meta_value(ou))
        groups.setdefault(norm, []).extend(int(i) for i in str(ids).split(","))
    return groups


def _computed_members(a: Archive, min_count: int = 2) -> Iterator[Member]:
    """Members with keys computed from ``pages`` (archives without ``page_signatures``):
    only the pages of :func:`_candidate_groups`, one SHA-1 per (parent, values) pair."""
    hashes: dict[tuple[str, tuple[str, str, str, str]], str] = {}
    for norm, ids in _candidate_groups(a, min_count).items():
        if not any(norm[i] for i in (0, 2, 3)):
            continue  # no title, og:title or og:url: not eligible (is_eligible)
        for start in range(0, len(ids), _CHUNK):
            chunk = ids[start:start + _CHUNK]
            marks = ",".join("?" for _ in chunk)
            for pid, url, og_url in a.rows(
                    f"SELECT id, url, og_url FROM pages WHERE id IN ({marks})", chunk):
                key = (parent_key(url), norm)
                signature = hashes.get(key)
                if signature is None:
                    signature = hashes[key] = sha1_key(key[0], *norm)
                yield Member(pid, url, og_url, norm[0], norm[1], norm[2], signature)


def stored_keys(a: Archive) -> bool:
    """Use ``page_signatures``? Only when it has a row for every eligible page.

    A crawl by another tool, an older build, or an archive extended by a writer that did
    not fill the table would otherwise lose members; then the keys are computed instead.
    """
    cached = getattr(a, "_stored_keys", None)
    if cached is None:
        cached = a.has_table("page_signatures") and a.execute(
            f"SELECT 1 FROM {a.lite} p WHERE {strict_page('p')} AND "
            "(COALESCE(p.title, '') != '' "
            "OR COALESCE(p.og_title, '') != '' OR COALESCE(p.og_url, '') != '') AND NOT EXISTS "
            "(SELECT 1 FROM page_signatures ps WHERE ps.page_id = p.id) LIMIT 1"
        ).fetchone() is None
        a._stored_keys = cached  # type: ignore[attr-defined]
    return bool(cached)


def group_counts(a: Archive, by: str, min_count: int) -> dict[str, int]:
    """Signature (or shape signature) → member count, for groups of ``min_count`` or more."""
    column = "signature" if by == "signature" else "shape_signature"
    if stored_keys(a):
        with a.one_pass():
            rows = a.rows(
                f"SELECT ps.{column}, count(*) FROM page_signatures ps JOIN {a.lite} p ON "
                f"p.id = ps.page_id WHERE {strict_page('p')} GROUP BY ps.{column} "
                "HAVING count(*) >= ?", (min_count,))
        return {sig: n for sig, n in rows}
    counts: Counter[str] = Counter(getattr(m, column)
                                   for m in _computed_members(a, min_count))
    return {sig: n for sig, n in counts.items() if n >= min_count}


def clusters(a: Archive, by: str, min_count: int) -> dict[str, list[Member]]:
    """Every group of ``min_count`` members or more, with its members (URL order)."""
    if stored_keys(a):
        return members_of(a, by, sorted(group_counts(a, by, min_count)))
    groups: dict[str, list[Member]] = {}
    for m in _computed_members(a, min_count):
        groups.setdefault(m.signature if by == "signature" else m.shape_signature,
                          []).append(m)
    result = {sig: ms for sig, ms in groups.items() if len(ms) >= min_count}
    for members in result.values():
        members.sort(key=lambda m: m.url)
    return result


def members_of(a: Archive, by: str, signatures: list[str]) -> dict[str, list[Member]]:
    """Every member of each given group, URL order."""
    column = "signature" if by == "signature" else "shape_signature"
    wanted = set(signatures)
    result: dict[str, list[Member]] = {s: [] for s in signatures}
    if stored_keys(a):
        for start in range(0, len(signatures), _CHUNK):
            chunk = signatures[start:start + _CHUNK]
            marks = ",".join("?" for _ in chunk)
            for row in a.rows(
                    f"SELECT p.id, p.url, p.og_url, p.title, p.description, p.og_title, "
                    f"ps.shape_key, ps.signature, ps.shape_signature "
                    # CROSS JOIN: from the signatures asked for (their index) to their
                    # pages, not every page to its signature (167 → 39 ms at 300,000)
                    f"FROM page_signatures ps CROSS JOIN {a.lite} p ON p.id = ps.page_id "
                    f"WHERE {strict_page('p')} AND ps.{column} IN ({marks})", chunk):
                pid, url, og_url, title, description, og_title, skey, sig, ssig = row
                result[sig if by == "signature" else ssig].append(Member(
                    pid, url, og_url, meta_value(title), meta_value(description),
                    meta_value(og_title), sig, (skey, ssig)))
    else:
        # pages whose values repeat first (one pass); a page alone with its values only
        # when asked for and not found among them
        for min_count in (2, 1):
            missing = {key for key in wanted if not result[key]}
            if not missing:
                break
            for m in _computed_members(a, min_count):
                key = m.signature if by == "signature" else m.shape_signature
                if key in missing:
                    result[key].append(m)
    for members in result.values():
        members.sort(key=lambda m: m.url)
    return result


def og_url_mismatch(m: Member) -> bool:
    """og:url present and not this page (the trap signal ``ogUrlMismatch``)."""
    return bool(m.og_url) and m.og_url != m.url and not equivalent(m.og_url, m.url)


# --------------------------------------------------------------------------- exclusions


def _glob_for(shape: str) -> str | None:
    path = "/" + shape.split("/", 1)[1] if "/" in shape else "/"
    path = path.split("?", 1)[0]
    if "{n}" not in path and "{r}" not in path:
        return None
    return path.replace("{r}", "**").replace("{n}", "*")


def _regex_for(members: list[Member], shape: str) -> str:
    sample = urlsplit(members[0].url)
    path = "/" + shape.split("/", 1)[1].split("?", 1)[0] if "/" in shape else "/"
    parts = [re.escape(p) if p not in ("{n}", "{r}") else p for p in path.split("/")]
    body = "/".join(parts).replace("{n}", "[^/?#]+").replace("/{r}", "(?:/[^/?#]+)*")
    pattern = "^" + re.escape(f"{sample.scheme}://{sample.netloc}") + body
    queries = [dict(parse_qsl(urlsplit(m.url).query, keep_blank_values=True)) for m in members]
    keys = sorted(set().union(*queries)) if queries else []
    if keys:
        pattern += r"\?"
        for key in keys:
            values = {q.get(key) for q in queries}
            if len(values) == 1 and None not in values:
                value = re.escape(str(next(iter(values))))
                pattern += f"(?=(?:[^#]*&)?{re.escape(key)}={value}(?:&|#|$))"
            else:
                pattern += f"(?=(?:[^#]*&)?{re.escape(key)}=)"
    else:
        pattern += "$"
    return pattern


def _prefix_for(members: list[Member]) -> str | None:
    urls = [m.url for m in members]
    first, last = min(urls), max(urls)
    i = 0
    while i < min(len(first), len(last)) and first[i] == last[i]:
        i += 1
    prefix = first[:i]
    cut = max(prefix.rfind(c) for c in "/?&=")
    prefix = prefix[: cut + 1] if cut >= 0 else prefix
    return prefix if urlsplit(prefix).path not in ("", "/") or "?" in prefix else None


def suggest_exclude(a: Archive, members: list[Member], shape: str) -> dict[str, Any] | None:
    """The narrowest exclusion matching every member, checked against the archive — or
    None when none is safe.

    Candidates, simplest first: ``--exclude-url`` (the members' common URL prefix),
    ``--exclude`` (a path glob from the URL shape) and ``--exclude-pattern`` (a regex from
    the shape, with the query values the members share). For each: ``matchesInCluster``
    members it excludes (must be all), ``matchesRefused`` URLs the soft cap already
    refused, ``matchesOutside`` other archived URLs it would also exclude, and of them
    ``pagesDropped``, pages that answered 2xx: a candidate that would drop one is never
    offered (a ``--exclude-url …/manual/ja/mod/`` named from two error pages would drop
    137 real pages). The first with no outside match wins (later candidates are not even
    scanned); otherwise the safe one with the fewest. A cluster of error pages (404s that
    share "404 Not Found") gets none: its pages are errors to fix, not a trap to exclude.
    The prefix is counted in SQL on the URL index; the others are tested on the URLs that
    share the literal start of the shape.
    """
    if not members:
        return None
    member_urls = {m.url for m in members}
    answered = _statuses(a, [m.page_id for m in members])
    if sum(1 for s in answered.values() if s >= 400) * 2 >= len(members):
        return None
    refused_sql = ("SELECT count(*) FROM pages WHERE url >= ? AND url < ? "
                   "AND skipReason = 'dedupe-cap'")
    page_sql = ("SELECT count(*) FROM pages WHERE url >= ? AND url < ? "
                f"AND status BETWEEN 200 AND 299 AND {NOT_SKIPPED}")
    best: dict[str, Any] | None = None

    def consider(flag: str, value: str, inside: int, refused: int, outside: int,
                 dropped: int) -> bool:
        nonlocal best
        if inside < len(member_urls) or dropped:
            return False
        if best is None or outside < best["matchesOutside"]:
            best = {"flag": flag, "value": value, "matchesInCluster": inside,
                    "matchesRefused": refused, "matchesOutside": outside,
                    "pagesDropped": dropped}
        return outside == 0

    prefix = _prefix_for(members)
    if prefix is not None:
        bounds = _prefix_range(prefix)
        total = a.execute("SELECT count(*) FROM pages WHERE url >= ? AND url < ?",
                          bounds).fetchone()[0]
        refused = a.execute(refused_sql, bounds).fetchone()[0]
        pages = a.execute(page_sql, bounds).fetchone()[0]
        under = [m for m in members if m.url.startswith(prefix)]
        inside = len({m.url for m in under})
        members_2xx = sum(1 for m in under if 200 <= answered.get(m.page_id, 0) <= 299)
        if consider("--exclude-url", prefix, inside, refused, total - inside - refused,
                    pages - members_2xx):
            return best
    sample = urlsplit(members[0].url)
    origin = f"{sample.scheme}://{sample.netloc}"
    literal = origin + "/" + (shape.split("/", 1)[1] if "/" in shape else "").split("{", 1)[0]
    literal = literal.split("?", 1)[0]
    literal = literal[: literal.rfind("/") + 1]
    rows = a.rows("SELECT url, skipReason, status BETWEEN 200 AND 299 AND "
                  f"{NOT_SKIPPED} FROM pages WHERE url >= ? AND url < ?",
                  _prefix_range(literal))
    candidates: list[tuple[str, str, Any]] = []
    glob = _glob_for(shape)
    if glob is not None:
        candidates.append(("--exclude", glob, lambda u, g=glob: path_matches(
            urlsplit(u).path or "/", g)))
    regex = re.compile(_regex_for(members, shape))
    candidates.append(("--exclude-pattern", regex.pattern,
                       lambda u, r=regex: r.search(u) is not None))
    for flag, value, test in candidates:
        inside = refused = outside = dropped = 0
        for url, reason, page in rows:
            if not test(url):
                continue
            if url in member_urls:
                inside += 1
            elif reason == "dedupe-cap":
                refused += 1
            else:
                outside += 1
                dropped += 1 if page else 0
        if consider(flag, value, inside, refused, outside, dropped):
            break
    return best


def _statuses(a: Archive, page_ids: list[int]) -> dict[int, int]:
    """Page id → the status it answered (-1 when it was never answered)."""
    found: dict[int, int] = {}
    for start in range(0, len(page_ids), _CHUNK):
        chunk = page_ids[start:start + _CHUNK]
        marks = ",".join("?" for _ in chunk)
        for pid, status in a.rows(f"SELECT id, status FROM pages WHERE id IN ({marks})",
                                  chunk):
            found[int(pid)] = int(status) if status is not None else -1
    return found


def _prefix_range(prefix: str) -> tuple[str, str]:
    """``url >= lo AND url < hi`` selects the URLs starting with ``prefix`` on the URL index
    (LIKE cannot use the case-sensitive ``pages_url_unique``); UTF-8 byte order is code
    point order, so the upper bound is the prefix with its last character incremented."""
    return prefix, prefix[:-1] + chr(ord(prefix[-1]) + 1)


def shape_of(members: list[Member]) -> str:
    """The most common URL shape among members (ties: the smallest)."""
    counts = Counter(m.shape_key for m in members)
    return min(counts, key=lambda s: (-counts[s], s)) if counts else ""


__all__ = ["Member", "clusters", "members_of", "og_url_mismatch", "shape_of",
           "stored_keys", "suggest_exclude"]
