"""``compare_archives``: what changed on a site between two crawls, honestly.

Each crawl is read once into a private comparison database (a temporary SQLite file, not
the archives: both stay read-only), one row per URL under its *key* — the URL as the crawl
stored it, the old crawl's first rewritten by ``maps`` (staging → production, http →
https), scheme and host lower-cased and a default port dropped — with the values a change
is reported on. SQL over that database then answers the summary and every list, paged;
the database is kept for the next call on the same pair (an assistant pages through the
lists without the comparison being built again).

Honest comparison. A URL only one crawl reached is *not comparable* unless the other
crawl would have reached it: it lies under one of that crawl's start URLs, and that crawl
ended complete (not stopped by ``--max-pages``, Ctrl-C or an outage). A URL the other
crawl skipped (the soft cap, robots.txt, an exclusion) or never fetched is not comparable
either. A shorter second crawl therefore never reports the pages it missed as removed.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import re
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from ..archive import scratch
from ..archive.opening import Archive, opened
from ..exceptions import InvalidArgument
from ..format.v010 import NOT_SKIPPED
from .get_duplicate_clusters import get_duplicate_clusters
from .get_summary import crawl_state
from .main_contents import main_content_table
from .paging import check_choice, check_paging, envelope
from .totals import crawl_totals, externals_checked

KINDS = ("changed", "added", "removed", "not-comparable", "broken-links", "clusters")
"""The lists of a comparison (``kind``); without one, the summary."""

FIELDS = ("status", "redirectTo", "title", "description", "h1", "canonical", "ogTitle",
          "ogDescription", "ogUrl", "ogImage", "indexable", "bodyHash", "wordCount",
          "outlinks", "inlinks", "depth", "jsonldTypes", "technologies", "cacheControl",
          "securityHeaders")
"""What a URL both crawls fetched is compared on (``changed`` rows name one each)."""

SECURITY_HEADERS = ("strict-transport-security", "content-security-policy",
                    "x-content-type-options", "x-frame-options", "referrer-policy",
                    "permissions-policy")
MAX_MAPS = 20
KEEP = 4
"""Comparison databases kept per process (each the size of its two crawls' values)."""

_MAP = re.compile(r"^(?P<old>.+?)=(?P<new>.*)$", re.DOTALL)


class _Mapper:
    """``--map`` rules: ``OLD_PREFIX=NEW_PREFIX``, or ``/REGEX/=REPLACEMENT`` (Python
    ``re``, ``\\1`` groups); the first rule that applies rewrites an old URL."""

    def __init__(self, maps: Sequence[str]) -> None:
        if len(maps) > MAX_MAPS:
            raise InvalidArgument(f"map: at most {MAX_MAPS} rules, got {len(maps)}")
        self.rules: list[tuple[str, Any, str]] = []
        for rule in maps:
            m = _MAP.match(rule)
            if m is None or not m["old"]:
                raise InvalidArgument(f"map: expected OLD=NEW (a URL prefix, or /regex/=new), "
                                      f"got {rule!r}")
            old, new = m["old"], m["new"]
            if len(old) > 2 and old.startswith("/") and old.endswith("/"):
                try:
                    self.rules.append(("re", re.compile(old[1:-1]), new))
                except re.error as exc:
                    raise InvalidArgument(f"map: {old} is not a valid regex: {exc}") from None
            else:
                self.rules.append(("prefix", old, new))

    def __call__(self, url: str) -> str:
        if not self.rules:
            return url   # stored URLs are in the crawler's identity form already
        for kind, old, new in self.rules:
            if kind == "prefix" and url.startswith(old):
                return identity(new + url[len(old):])
            if kind == "re" and old.search(url):
                return identity(old.sub(new, url, count=1))
        return identity(url)


def identity(url: str) -> str:
    """A URL as the crawl keys it: scheme and host lower-cased, a default port dropped (the
    crawler stores URLs so already; a rewritten one may not be)."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return url
    if not parts.scheme or not parts.hostname:
        return url
    scheme = parts.scheme.lower()
    host = parts.hostname.lower()
    if port is not None and port != {"http": 80, "https": 443}.get(scheme):
        host = f"{host}:{port}"
    return urlunsplit((scheme, host, parts.path or "/", parts.query, ""))


# --------------------------------------------------------------------------- one crawl


def _crawl(a: Archive) -> dict[str, Any]:
    """What the summary says of one crawl and what comparability needs."""
    state = crawl_state(a)
    roots: list[str] = []
    with contextlib.suppress(Exception):
        raw = a.execute("SELECT roots, baseUrl FROM info ORDER BY id LIMIT 1").fetchone()
        if raw is not None:
            value = json.loads(raw["roots"]) if isinstance(raw["roots"], str) else None
            roots = [r for r in value if isinstance(r, str)] if isinstance(value, list) \
                else []
            if not roots and isinstance(raw["baseUrl"], str):
                roots = [raw["baseUrl"]]
    totals = crawl_totals(a, a.lite, externals_checked=externals_checked(a))
    return {"archive": a.path.name, "format": a.format,
            "stopReason": state["stopReason"] if state else "unknown",
            "complete": bool(state and state["stopReason"] == "complete"),
            "roots": roots, "htmlPages": totals.get("htmlPages"),
            "urls": totals.get("urls"), "notRecorded": unrecorded(a)}


def _headers(raw: Any) -> tuple[str | None, str | None]:
    """Cache-Control, and the security headers present (``name=value`` lines, sorted)."""
    try:
        headers = json.loads(raw) if isinstance(raw, str) else None
    except ValueError:
        headers = None
    if not isinstance(headers, dict):
        return None, None
    lower = {str(k).lower(): v for k, v in headers.items()}

    def text(value: Any) -> str:
        return ", ".join(map(str, value)) if isinstance(value, list) else str(value)

    cache = lower.get("cache-control")
    security = [f"{h}: {text(lower[h])}" for h in SECURITY_HEADERS if h in lower]
    return (text(cache) if cache is not None else None), ("\n".join(security) or None)


def _depths(a: Archive, roots: list[str]) -> dict[int, int]:
    """Page id → clicks from the start URLs, breadth first over the links of fetched
    pages of the site (a redirect is one hop): one indexed read of each page's links."""
    if not a.has_table("anchors"):
        return {}
    start = [r[0] for url in roots
             for r in a.rows("SELECT id FROM pages WHERE url = ?", (url,))]
    if not start:
        start = [r[0] for r in a.rows(
            "SELECT id FROM pages WHERE scraped = 1 AND coalesce(isExternal, 0) = 0 "
            'ORDER BY "order" LIMIT 1')]
    depth = dict.fromkeys(start, 0)
    level, frontier = 0, start
    while frontier:
        level += 1
        found: list[int] = []
        for begin in range(0, len(frontier), 500):
            chunk = frontier[begin:begin + 500]
            marks = ",".join("?" for _ in chunk)
            for (target,) in a.rows(
                    f"SELECT an.hrefId FROM anchors an JOIN pages s ON s.id = an.pageId "
                    f"WHERE an.pageId IN ({marks}) AND coalesce(s.isExternal, 0) = 0 "
                    f"UNION SELECT redirectDestId FROM pages WHERE id IN ({marks}) "
                    "AND redirectDestId IS NOT NULL", [*chunk, *chunk]):
                if target is not None and target not in depth:
                    depth[target] = level
                    found.append(target)
        frontier = found
    return depth


def _hashes(a: Archive) -> str | None:
    """The SQL of a page's body hash, or None when the archive records none."""
    if a.format == "0.13" and "body_hash" in a.columns("page_meta"):
        return "p.body_hash"
    if a.format != "0.13" and a.has_table("page_body_hashes") and a.execute(
            "SELECT 1 FROM page_body_hashes LIMIT 1").fetchone() is not None:
        # a table no row was written to is a crawler that computed none
        return "(SELECT h.body_hash FROM page_body_hashes h WHERE h.page_id = p.id)"
    return None


def unrecorded(a: Archive) -> list[str]:
    """Fields this archive does not record (an older crawler, upstream's, --no-render …):
    compared with another archive, they would read as changed on every page."""
    have = set(a.columns("pages"))
    main = main_content_table(a)
    missing = {
        "bodyHash": _hashes(a) is None,
        "wordCount": main is None,
        "h1": main is None or not a.has_table("page_main_content_headings"),
        "jsonldTypes": not a.has_table("page_jsonld"),
        "technologies": "tags_providers_csv" not in have,
        "outlinks": not a.has_table("anchors"), "inlinks": not a.has_table("anchors"),
        "depth": not a.has_table("anchors"),
        "cacheControl": "responseHeaders" not in have,
        "securityHeaders": "responseHeaders" not in have,
    }
    return [f for f in FIELDS if missing.get(f)]


def _snapshot(a: Archive, key: Any, roots: list[str]) -> Iterator[tuple[Any, ...]]:
    """One row per URL of the crawl: its key and the compared values."""
    depths = _depths(a, roots)
    extras = {"jsonld": a.has_table("page_jsonld"), "anchors": a.has_table("anchors")}
    main = main_content_table(a)
    hashes = _hashes(a)
    words = (f"(SELECT m.main_content_word_count FROM {main} m WHERE m.page_id = p.id)"
             if main else "NULL")
    h1 = ("(SELECT h.text FROM page_main_content_headings h WHERE h.pageId = p.id "
          "AND h.level = 1 ORDER BY h.\"order\" LIMIT 1)"
          if main and a.has_table("page_main_content_headings") else "NULL")
    jsonld = ("(SELECT group_concat(t, ', ') FROM (SELECT DISTINCT j.type AS t FROM "
              "page_jsonld j WHERE j.pageId = p.id AND j.type IS NOT NULL ORDER BY 1))"
              if extras["jsonld"] else "NULL")
    # links on a page and links to it (Screaming Frog's Outlinks and Inlinks: every link,
    # a page linked twice counted twice): one pass each, not a count per page
    outs: dict[int, int] = dict(a.rows("SELECT pageId, count(*) FROM anchors "
                                       "GROUP BY pageId")) if extras["anchors"] else {}
    ins: dict[int, int] = dict(a.rows("SELECT hrefId, count(*) FROM anchors "
                                      "GROUP BY hrefId")) if extras["anchors"] else {}
    anchored = extras["anchors"]
    have = set(a.columns("pages"))

    def c(name: str) -> str:  # a column an older or foreign archive may lack reads NULL
        return f"p.{name}" if name in have else "NULL"

    sql = (
        f"SELECT p.id, p.url, p.scraped, {c('isExternal')}, coalesce({c('isSkipped')}, 0), "
        f"{c('skipReason')}, p.status, (SELECT f.url FROM pages f WHERE "
        f"f.id = p.redirectDestId), {c('contentType')}, {c('title')}, {c('description')}, "
        f"{c('canonical')}, {c('og_title')}, {c('og_description')}, {c('og_url')}, "
        f"{c('og_image')}, coalesce({c('robots_noindex')}, 0), {c('responseHeaders')}, "
        f"{c('tags_providers_csv')}, {hashes or 'NULL'}, {words}, {h1}, {jsonld} "
        "FROM pages p")
    for row in a.stream(sql):   # a chunk at a time, each within the query deadline
        (pid, url, scraped, external, skipped, reason, status, redirect, ctype, title, desc,
         canonical, og_title, og_desc, og_url, og_image, noindex, headers, tech, body,
         wc, head, types) = row
        cache, security = _headers(headers)
        html = ctype is None or ctype == "text/html"
        indexable = _indexable(html, status, bool(noindex), canonical, url) \
            if scraped and not skipped else None
        digest = bytes(body).hex() if isinstance(body, bytes | bytearray | memoryview) \
            else body
        # an empty text is no text (format 0.13 stores none; 0.10 may say '')
        yield (key(url), url, int(bool(scraped)), int(bool(external)), int(bool(skipped)),
               reason, status, redirect or None, title or None, desc or None, head or None,
               canonical or None, og_title or None, og_desc or None, og_url or None,
               og_image or None, indexable, digest, wc,
               outs.get(pid, 0) if anchored else None, ins.get(pid, 0) if anchored else None,
               types or None, tech or None, cache, security, depths.get(pid))


def _indexable(html: bool, status: int | None, noindex: bool, canonical: str | None,
               url: str) -> str:
    """Whether a search engine would index the page, and if not, why (one reason)."""
    if not html:
        return "no: not HTML"
    if status is None or not 200 <= status <= 299:
        return f"no: status {status}"
    if noindex:
        return "no: noindex"
    if canonical and canonical != url:
        return "no: canonical names another page"
    return "yes"


_COLUMNS = ("key", "url", "scraped", "external", "skipped", "reason", "status",
            "redirectTo", "title", "description", "h1", "canonical", "ogTitle",
            "ogDescription", "ogUrl", "ogImage", "indexable", "bodyHash",
            "wordCount", "outlinks", "inlinks", "jsonldTypes", "technologies",
            "cacheControl", "securityHeaders", "depth")


def _broken(a: Archive, key: Any) -> Iterator[tuple[str, str, int | None]]:
    """Links of fetched pages to URLs of the site that answered an error."""
    if not a.has_table("anchors"):
        return
    for source, target, status in a.rows(
            "SELECT DISTINCT s.url, t.url, t.status FROM anchors an "
            "JOIN pages t ON t.id = an.hrefId JOIN pages s ON s.id = an.pageId "
            "WHERE t.scraped = 1 AND coalesce(t.isExternal, 0) = 0 "
            f"AND (t.status >= 400 OR t.status = -1) AND s.scraped = 1 AND {NOT_SKIPPED}"
            .replace("isSkipped", "t.isSkipped")):
        yield key(source), key(target), status


def _shapes(a: Archive) -> Iterator[tuple[str, str, int]]:
    """Trap events by URL shape, duplicate clusters by shape."""
    if {"shape_key", "observed_count"} <= set(a.columns("dedupe_cap_events")):
        for shape, count in a.rows("SELECT shape_key, max(observed_count) FROM "
                                   "dedupe_cap_events GROUP BY shape_key"):
            yield "trap event", str(shape), int(count or 0)
    for item in get_duplicate_clusters(a, limit=1000)["items"]:
        yield "duplicate cluster", str(item["shapeKey"]), int(item["count"])


# --------------------------------------------------------------------------- the database


_LOCK = threading.Lock()
_BUILT: OrderedDict[tuple[Any, ...], Path] = OrderedDict()


@atexit.register
def _remove_built() -> None:
    """The comparison databases go with the process that built them."""
    with _LOCK:
        for path in _BUILT.values():
            path.unlink(missing_ok=True)
        _BUILT.clear()


def _identity(a: Archive) -> tuple[Any, ...]:
    db = a.directory / "db.sqlite"
    try:
        st = db.stat()
    except OSError:
        return (str(db),)
    return (str(db.resolve()), st.st_size, st.st_mtime_ns)


def _build(old: Archive, new: Archive, maps: Sequence[str]) -> Path:
    """The comparison database of this pair (built once per process and pair)."""
    mapper = _Mapper(maps)
    token = (_identity(old), _identity(new), tuple(maps))
    with _LOCK:
        path = _BUILT.get(token)
        if path is not None and path.exists():
            _BUILT.move_to_end(token)
            return path
    path, conn = scratch.create("nitpicker-compare-")
    try:
        cols = ", ".join(f'"{c}"' for c in _COLUMNS)
        marks = ", ".join("?" for _ in _COLUMNS)
        info = {"old": _crawl(old), "new": _crawl(new)}
        for side, archive, key in (("o", old, mapper), ("n", new, _Mapper(()))):
            roots = info["old" if side == "o" else "new"]["roots"]
            conn.execute(f"CREATE TABLE {side} ({cols})")
            batch: list[tuple[Any, ...]] = []
            for row in _snapshot(archive, key, roots):
                batch.append(row)
                if len(batch) >= 5000:
                    conn.executemany(f"INSERT INTO {side} VALUES ({marks})", batch)
                    batch.clear()
            conn.executemany(f"INSERT INTO {side} VALUES ({marks})", batch)
            conn.execute(f"CREATE INDEX {side}_key ON {side} (key)")
            conn.execute(f"CREATE TABLE {side}_broken (source, target, status)")
            conn.executemany(f"INSERT INTO {side}_broken VALUES (?, ?, ?)",
                             _broken(archive, key))
            conn.execute(f"CREATE TABLE {side}_shapes (kind, shape, count)")
            conn.executemany(f"INSERT INTO {side}_shapes VALUES (?, ?, ?)", _shapes(archive))
        info["old"]["roots"] = [mapper(r) for r in info["old"]["roots"]]
        conn.execute("CREATE TABLE meta (info)")
        conn.execute("INSERT INTO meta VALUES (?)", (json.dumps(info),))
        _derive(conn, info)
        _linked_from(conn, new)
        conn.commit()
    except BaseException:
        conn.close()
        path.unlink(missing_ok=True)
        raise
    conn.close()
    with _LOCK:
        _BUILT[token] = path
        while len(_BUILT) > KEEP:
            _, stale = _BUILT.popitem(last=False)
            stale.unlink(missing_ok=True)
    return path


def _linked_from(conn: sqlite3.Connection, new: Archive) -> None:
    """A page linking to each added page (the first in URL order), read from the newer
    crawl for the added pages only."""
    if not new.has_table("anchors"):
        return
    for (url,) in conn.execute("SELECT url FROM added").fetchall():
        row = new.execute("SELECT min(s.url) FROM anchors an JOIN pages s ON "
                          "s.id = an.pageId WHERE an.hrefId = (SELECT id FROM pages "
                          "WHERE url = ?) AND s.url != ?", (url, url)).fetchone()
        if row is not None and row[0] is not None:
            conn.execute("UPDATE added SET linkedFrom = ? WHERE url = ?", (row[0], url))


def _under(url: str, roots: list[str]) -> bool:
    """Is ``url`` in a crawl's scope: same origin as a start URL and under its path?"""
    for root in roots:
        r = urlsplit(root)
        base = f"{r.scheme}://{r.netloc}"
        path = r.path if r.path.endswith("/") else r.path.rsplit("/", 1)[0] + "/"
        if url.startswith(base + path) or url == base + r.path:
            return True
    return False


def _derive(conn: sqlite3.Connection, info: dict[str, Any]) -> None:
    """The change rows of every list, from the two snapshots."""
    conn.create_function("in_old_scope", 1, lambda u: _under(u, info["old"]["roots"]))
    conn.create_function("in_new_scope", 1, lambda u: _under(u, info["new"]["roots"]))
    fetched = ("{s}.scraped = 1 AND {s}.skipped = 0 AND {s}.external = 0")
    both = f"{fetched.format(s='o')} AND {fetched.format(s='n')}"
    conn.execute("CREATE TABLE changed (url, field, old, new)")
    skipped = set(info["old"]["notRecorded"]) | set(info["new"]["notRecorded"])
    for field in FIELDS:
        if field in ("status", "redirectTo") or field in skipped:
            continue  # a page gone or redirected is a removal; other statuses below
        conn.execute(
            f'INSERT INTO changed SELECT n.url, ?, o."{field}", n."{field}" FROM o JOIN n '
            f'ON n.key = o.key WHERE {both} AND o."{field}" IS NOT n."{field}" '
            "AND NOT (o.status BETWEEN 200 AND 299 AND n.status NOT BETWEEN 200 AND 299)",
            (field,))
    conn.execute(
        f"INSERT INTO changed SELECT n.url, 'status', o.status, n.status FROM o JOIN n "
        f"ON n.key = o.key WHERE {both} AND o.status IS NOT n.status AND NOT "
        "(o.status BETWEEN 200 AND 299 AND (n.status IN (404, 410) OR n.redirectTo IS NOT NULL))")
    conn.execute(
        f"INSERT INTO changed SELECT n.url, 'redirectTo', o.redirectTo, n.redirectTo FROM o "
        f"JOIN n ON n.key = o.key WHERE {both} AND o.redirectTo IS NOT NULL "
        "AND n.redirectTo IS NOT NULL AND o.redirectTo IS NOT n.redirectTo")
    old_done, new_done = int(info["old"]["complete"]), int(info["new"]["complete"])
    conn.execute("CREATE TABLE removed (url, reason, oldStatus, newStatus, redirectTo)")
    conn.execute(
        f"INSERT INTO removed SELECT o.url, CASE WHEN n.status IN (404, 410) THEN "
        "'now ' || n.status ELSE 'now redirects' END, o.status, n.status, n.redirectTo "
        f"FROM o JOIN n ON n.key = o.key WHERE {both} AND o.status BETWEEN 200 AND 299 "
        "AND (n.status IN (404, 410) OR n.redirectTo IS NOT NULL)")
    conn.execute(  # the new crawl met it only on nofollow links, and so did not follow
        "INSERT INTO removed SELECT o.url, 'only nofollow links now', o.status, NULL, NULL "
        f"FROM o JOIN n ON n.key = o.key WHERE {fetched.format(s='o')} AND o.status "
        "BETWEEN 200 AND 299 AND n.skipped = 1 AND n.reason = 'nofollow'")
    conn.execute(
        "INSERT INTO removed SELECT o.url, 'no longer linked', o.status, NULL, NULL FROM o "
        f"WHERE {fetched.format(s='o')} AND o.status BETWEEN 200 AND 299 "
        "AND NOT EXISTS (SELECT 1 FROM n WHERE n.key = o.key) "
        f"AND {new_done} AND in_new_scope(o.key)")
    conn.execute("CREATE TABLE added (url, status, title, linkedFrom)")
    conn.execute(
        "INSERT INTO added SELECT n.url, n.status, n.title, NULL FROM n "
        f"WHERE {fetched.format(s='n')} AND n.status BETWEEN 200 AND 299 "
        "AND NOT EXISTS (SELECT 1 FROM o WHERE o.key = n.key) "
        f"AND {old_done} AND in_old_scope(n.key)")
    conn.execute(
        "INSERT INTO added SELECT n.url, n.status, n.title, NULL FROM o JOIN n "
        f"ON n.key = o.key WHERE {both} AND o.status NOT BETWEEN 200 AND 299 "
        "AND n.status BETWEEN 200 AND 299 AND o.redirectTo IS NULL")
    conn.execute(  # linked again by a followed link
        "INSERT INTO added SELECT n.url, n.status, n.title, NULL FROM o JOIN n "
        f"ON n.key = o.key WHERE {fetched.format(s='n')} AND n.status BETWEEN 200 AND 299 "
        "AND o.skipped = 1 AND o.reason = 'nofollow'")
    conn.execute("CREATE TABLE incomparable (url, side, reason)")
    conn.execute(
        "INSERT INTO incomparable SELECT o.url, 'old only', CASE WHEN NOT "
        f"in_new_scope(o.key) THEN 'outside the new crawl''s scope' ELSE "
        f"'the new crawl did not complete ({info['new']['stopReason']})' END FROM o "
        f"WHERE {fetched.format(s='o')} AND NOT EXISTS (SELECT 1 FROM n WHERE n.key = o.key)"
        f" AND NOT ({new_done} AND in_new_scope(o.key))")
    conn.execute(
        "INSERT INTO incomparable SELECT n.url, 'new only', CASE WHEN NOT "
        f"in_old_scope(n.key) THEN 'outside the old crawl''s scope' ELSE "
        f"'the old crawl did not complete ({info['old']['stopReason']})' END FROM n "
        f"WHERE {fetched.format(s='n')} AND NOT EXISTS (SELECT 1 FROM o WHERE o.key = n.key)"
        f" AND NOT ({old_done} AND in_old_scope(n.key))")
    for side, other, label in (("o", "n", "new"), ("n", "o", "old")):
        conn.execute(
            f"INSERT INTO incomparable SELECT {side}.url, 'both', 'the {label} crawl ' || "
            f"CASE WHEN {other}.skipped THEN 'skipped it (' || coalesce({other}.reason, "
            f"'skipped') || ')' ELSE 'did not fetch it' END FROM {side} JOIN {other} ON "
            f"{other}.key = {side}.key WHERE {fetched.format(s=side)} AND "
            f"({other}.skipped = 1 OR {other}.scraped = 0) AND NOT ({other}.skipped = 1 "
            f"AND {other}.reason = 'nofollow' AND {side}.status BETWEEN 200 AND 299)")
    conn.execute("CREATE TABLE links (change, source, target, status)")
    conn.execute(
        "INSERT INTO links SELECT 'new', b.source, b.target, b.status FROM n_broken b "
        "WHERE NOT EXISTS (SELECT 1 FROM o_broken x WHERE x.source = b.source AND "
        "x.target = b.target)")
    conn.execute(
        "INSERT INTO links SELECT 'fixed', b.source, b.target, b.status FROM o_broken b "
        "WHERE NOT EXISTS (SELECT 1 FROM n_broken x WHERE x.source = b.source AND "
        "x.target = b.target) AND EXISTS (SELECT 1 FROM n WHERE n.key = b.source AND "
        "n.scraped = 1 AND n.skipped = 0)")
    conn.execute("CREATE TABLE clusters (change, kind, shapeKey, count)")
    conn.execute(
        "INSERT INTO clusters SELECT 'new', s.kind, s.shape, s.count FROM n_shapes s "
        "WHERE NOT EXISTS (SELECT 1 FROM o_shapes x WHERE x.kind = s.kind AND "
        "x.shape = s.shape)")
    conn.execute(
        "INSERT INTO clusters SELECT 'gone', s.kind, s.shape, s.count FROM o_shapes s "
        "WHERE NOT EXISTS (SELECT 1 FROM n_shapes x WHERE x.kind = s.kind AND "
        "x.shape = s.shape)")


_LISTS = {
    "changed": ("changed", ("url", "field", "old", "new"), "url, field"),
    "added": ("added", ("url", "status", "title", "linkedFrom"), "url"),
    "removed": ("removed", ("url", "reason", "oldStatus", "newStatus", "redirectTo"), "url"),
    "not-comparable": ("incomparable", ("url", "side", "reason"), "url, side"),
    "broken-links": ("links", ("change", "source", "target", "status"),
                     "change, source, target"),
    "clusters": ("clusters", ("change", "kind", "shapeKey", "count"), "change, kind, shapeKey"),
}


def compare_archives(archive: Archive | str, *, old: Archive | str, kind: str | None = None,
                     field: str | None = None, maps: str | Sequence[str] = (),
                     limit: int = 100, offset: int = 0) -> dict[str, Any]:
    """What changed on the site between the ``old`` crawl and this one (``archive``, the
    newer)?

    Without ``kind``: the summary — each crawl (format, how it ended, start URLs, pages),
    whether they are comparable and why not, and how many rows each list holds
    (``changedFields``: per field). With ``kind``, that list, paged:

    - ``changed``: URLs both crawls fetched whose ``field`` differs (status, redirectTo,
      title, description, h1 — the main region's first — canonical, ogTitle,
      ogDescription, ogUrl, ogImage, indexable, bodyHash, wordCount, outlinks, inlinks,
      depth, jsonldTypes, technologies, cacheControl, securityHeaders), old and new;
    - ``added``: pages only the new crawl has (``linkedFrom``: a page linking to it), or
      that answer 2xx again;
    - ``removed``: pages that now answer 404 or 410, redirect, are no longer linked, or
      only by ``nofollow`` links (the new crawl did not follow them);
    - ``not-comparable``: URLs only one crawl reached that the other would not have
      (outside its start URLs, or it did not complete), or that one crawl skipped;
    - ``broken-links``: links to an error of the site, ``new`` or ``fixed``;
    - ``clusters``: trap events and duplicate clusters, by URL shape, ``new`` or ``gone``.

    ``maps``: rules rewriting the old crawl's URLs before matching (``OLD=NEW`` prefixes,
    or ``/regex/=replacement``; a string holds several separated by spaces), e.g.
    ``https://staging.example.com/=https://www.example.com/``.
    """
    rules = maps.split() if isinstance(maps, str) else \
        [r for m in maps for r in str(m).split()]
    if kind is not None:
        check_choice("kind", kind, KINDS)
    if field is not None:
        check_choice("field", field, FIELDS)
    limit, offset = check_paging(limit, offset)
    with opened(old) as o, opened(archive) as n:
        path = _build(o, n, rules)
    conn = scratch.read(path)
    try:
        info = json.loads(conn.execute("SELECT info FROM meta").fetchone()[0])
        if kind is None:
            counts = {name: conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
                      for name, (table, _, _) in _LISTS.items()}
            per_field = dict(conn.execute(
                "SELECT field, count(*) FROM changed GROUP BY field ORDER BY 2 DESC, 1"))
            notes = []
            for side in ("old", "new"):
                if info[side]["stopReason"] == "unknown":
                    notes.append(f"how the {side} crawl ended is not recorded (no run log): "
                                 "URLs only the other reached are not comparable")
                elif not info[side]["complete"]:
                    notes.append(f"the {side} crawl did not complete "
                                 f"({info[side]['stopReason']}): URLs only the other reached "
                                 "are not comparable")
            for side in ("old", "new"):
                if info[side]["notRecorded"]:
                    notes.append(f"not compared: {', '.join(info[side]['notRecorded'])} "
                                 f"(the {side} archive does not record them)")
            if info["old"]["format"] != info["new"]["format"]:
                notes.append(f"formats differ ({info['old']['format']} and "
                             f"{info['new']['format']}): values are read alike")
            return {"old": info["old"], "new": info["new"],
                    "comparable": info["old"]["complete"] and info["new"]["complete"],
                    "notes": notes, "counts": counts, "changedFields": per_field,
                    "maps": rules}
        table, columns, order = _LISTS[kind]
        where, params = "", []
        if kind == "changed" and field is not None:
            where, params = " WHERE field = ?", [field]
        total = conn.execute(f"SELECT count(*) FROM {table}{where}", params).fetchone()[0]
        rows = conn.execute(f"SELECT {', '.join(columns)} FROM {table}{where} "
                            f"ORDER BY {order} LIMIT ? OFFSET ?", [*params, limit, offset])
        items = [dict(zip(columns, row, strict=True)) for row in rows]
    finally:
        conn.close()
    return envelope(items, total, limit, offset, kind=kind)


__all__ = ["FIELDS", "KINDS", "compare_archives", "identity"]
