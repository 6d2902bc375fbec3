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
import json
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from .. import progress
from ..archive import scratch
from ..archive.opening import Archive, database_errors, opened
from ..exceptions import InvalidArgument
from ..format.v010 import NOT_SKIPPED
from ._common import start_urls
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
    roots = start_urls(a)
    totals = crawl_totals(a, a.lite, externals_checked=externals_checked(a))
    return {"archive": a.path.name, "format": a.format,
            "stopReason": state["stopReason"] if state else "unknown",
            "complete": bool(state and state["stopReason"] == "complete"),
            "roots": roots, "htmlPages": totals.get("htmlPages"),
            "urls": totals.get("urls"), "notRecorded": unrecorded(a)}


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


CHUNK = 50_000
"""Pages copied by one statement (each within the deadline, not the whole copy)."""


def _header_sql(raw: str) -> tuple[str, str]:
    """SQL of Cache-Control and of the security headers present (``name: value`` lines in
    name order) read from the response headers' JSON object ``raw``; a name sent several
    times (an array) reads as its values joined by ``, ``."""
    value = ("CASE WHEN j.type = 'array' THEN (SELECT group_concat(x.value, ', ') FROM "
             "json_each(j.value) x) ELSE CAST(j.value AS TEXT) END")
    valid = f"json_valid({raw}) AND json_type({raw}) = 'object'"
    names = ", ".join(f"'{h}'" for h in SECURITY_HEADERS)
    cache = (f"CASE WHEN {valid} THEN (SELECT {value} FROM json_each({raw}) j "
             "WHERE lower(j.key) = 'cache-control' LIMIT 1) END")
    security = (f"CASE WHEN {valid} THEN (SELECT group_concat(h, char(10)) FROM ("
                f"SELECT lower(j.key) || ': ' || ({value}) AS h FROM json_each({raw}) j "
                f"WHERE lower(j.key) IN ({names}) ORDER BY lower(j.key))) END")
    return cache, security


def _fill_links(db: scratch.Working, side: str, a: Archive, roots: list[str]) -> None:
    """``{side}_links``: each page's links out and in (Screaming Frog's Outlinks and
    Inlinks: every link, a page linked twice counted twice) and its depth — clicks from
    the start URLs, breadth first over the links of the site's pages (a redirect is one
    hop), one statement a level. All in SQL over the attached archive."""
    db.execute(f"CREATE TABLE {side}_links (id INTEGER PRIMARY KEY, outs, ins, depth)")
    if not a.has_table("anchors"):
        return
    db.execute(f"INSERT INTO {side}_links (id, outs) SELECT pageId, sum(n) FROM {a.pairs} "
               "WHERE typeof(pageId) = 'integer' GROUP BY pageId")
    db.execute(f"INSERT INTO {side}_links (id, ins) SELECT hrefId, sum(n) FROM {a.pairs} "
               "WHERE typeof(hrefId) = 'integer' GROUP BY hrefId "
               "ON CONFLICT (id) DO UPDATE SET ins = excluded.ins")
    db.execute(f"CREATE TEMP TABLE {side}_depth (id INTEGER PRIMARY KEY, d INTEGER)")
    db.execute(f"CREATE INDEX temp.{side}_depth_d ON {side}_depth (d)")
    marks = ",".join("?" for _ in roots)
    if not roots or not db.execute(
            f"INSERT OR IGNORE INTO {side}_depth SELECT id, 0 FROM pages "
            f"WHERE url IN ({marks}) AND typeof(id) = 'integer'", roots).rowcount:
        db.execute(f"INSERT OR IGNORE INTO {side}_depth SELECT id, 0 FROM pages WHERE "
                   "scraped = 1 AND coalesce(isExternal, 0) = 0 AND typeof(id) = 'integer' "
                   'ORDER BY "order" LIMIT 1')
    level = 0
    while True:
        level += 1
        found = db.execute(
            f"INSERT OR IGNORE INTO {side}_depth SELECT an.hrefId, ? FROM {side}_depth d "
            f"JOIN {a.lite} s ON s.id = d.id JOIN {a.pairs} an ON an.pageId = d.id "
            "WHERE d.d = ? AND coalesce(s.isExternal, 0) = 0 "
            "AND typeof(an.hrefId) = 'integer'", (level, level - 1)).rowcount
        found += db.execute(
            f"INSERT OR IGNORE INTO {side}_depth SELECT p.redirectDestId, ? FROM "
            f"{side}_depth d JOIN {a.lite} p ON p.id = d.id WHERE d.d = ? "
            "AND typeof(p.redirectDestId) = 'integer'", (level, level - 1)).rowcount
        if not found:
            break
    db.execute(f"INSERT INTO {side}_links (id, depth) SELECT id, d FROM {side}_depth "
               "WHERE true ON CONFLICT (id) DO UPDATE SET depth = excluded.depth")
    db.execute(f"DROP TABLE {side}_depth")


def _fill(db: scratch.Working, side: str, a: Archive, mapped: bool,
          roots: list[str], copied: Callable[[int], None]) -> None:
    """One crawl's rows (table ``side``): a row per URL, its key and the compared values,
    copied by SQL from the attached archive a chunk of pages at a time."""
    _fill_links(db, side, a, roots)
    anchored = a.has_table("anchors")
    main = main_content_table(a)
    hashes = _hashes(a)
    words = (f"(SELECT m.main_content_word_count FROM {main} m WHERE m.page_id = p.id)"
             if main else "NULL")
    h1 = ("(SELECT h.text FROM page_main_content_headings h WHERE h.pageId = p.id "
          "AND h.level = 1 ORDER BY h.\"order\" LIMIT 1)"
          if main and a.has_table("page_main_content_headings") else "NULL")
    jsonld = ("(SELECT group_concat(t, ', ') FROM (SELECT DISTINCT j.type AS t FROM "
              "page_jsonld j WHERE j.pageId = p.id AND j.type IS NOT NULL ORDER BY 1))"
              if a.has_table("page_jsonld") else "NULL")
    have = set(a.columns("pages"))

    def c(name: str) -> str:  # a column an older or foreign archive may lack reads NULL
        return f"p.{name}" if name in have else "NULL"

    # the pages of one chunk, each value computed once (a sub-select with LIMIT under a
    # join is not flattened: a 0.13 archive's headers are rebuilt once a page, not thrice)
    inner = (
        f"SELECT p.id AS id, p.url AS url, (coalesce(p.scraped, 0) != 0) AS scraped, "
        f"(coalesce({c('isExternal')}, 0) != 0) AS external, "
        f"(coalesce({c('isSkipped')}, 0) != 0) AS skipped, {c('skipReason')} AS reason, "
        "p.status AS status, (SELECT f.url FROM pages f WHERE f.id = p.redirectDestId) "
        f"AS redirectTo, {c('contentType')} AS ctype, {c('title')} AS title, "
        f"{c('description')} AS description, {c('canonical')} AS canonical, "
        f"{c('og_title')} AS ogTitle, {c('og_description')} AS ogDescription, "
        f"{c('og_url')} AS ogUrl, {c('og_image')} AS ogImage, "
        f"coalesce({c('robots_noindex')}, 0) AS noindex, {c('responseHeaders')} AS rh, "
        f"{c('tags_providers_csv')} AS tech, {hashes or 'NULL'} AS body, {words} AS wc, "
        f"{h1} AS h1, {jsonld} AS types "
        "FROM pages p WHERE p.id > ? ORDER BY p.id LIMIT ?")
    cache, security = _header_sql("q.rh")
    indexable = (  # would a search engine index it, and if not, why (one reason)
        "CASE WHEN NOT q.scraped OR q.skipped THEN NULL "
        "WHEN NOT (q.ctype IS NULL OR q.ctype = 'text/html') THEN 'no: not HTML' "
        "WHEN q.status IS NULL THEN 'no: no status' "
        "WHEN NOT q.status BETWEEN 200 AND 299 THEN 'no: status ' || q.status "
        "WHEN q.noindex THEN 'no: noindex' "
        "WHEN coalesce(q.canonical, '') != '' AND q.canonical != q.url "
        "THEN 'no: canonical names another page' ELSE 'yes' END")
    counted = "coalesce(l.{0}, 0)" if anchored else "NULL"
    # an empty text is no text (format 0.13 stores none; 0.10 may say '')
    sql = (
        f"INSERT INTO {side} SELECT {'np_key(q.url)' if mapped else 'q.url'}, q.url, "
        "q.scraped, q.external, q.skipped, q.reason, q.status, nullif(q.redirectTo, ''), "
        "nullif(q.title, ''), nullif(q.description, ''), nullif(q.h1, ''), "
        "nullif(q.canonical, ''), nullif(q.ogTitle, ''), nullif(q.ogDescription, ''), "
        f"nullif(q.ogUrl, ''), nullif(q.ogImage, ''), {indexable}, "
        "CASE WHEN typeof(q.body) = 'blob' THEN lower(hex(q.body)) ELSE q.body END, q.wc, "
        f"{counted.format('outs')}, {counted.format('ins')}, nullif(q.types, ''), "
        f"nullif(q.tech, ''), {cache}, {security}, l.depth, q.id "
        f"FROM ({inner}) q LEFT JOIN {side}_links l ON l.id = q.id")
    last: Any = None
    done = 0
    while True:
        before = last
        done += db.execute(sql, (-(2 ** 63) if last is None else last, CHUNK)).rowcount
        copied(done)
        last = db.execute(f"SELECT max(id) FROM {side}").fetchone()[0]
        if last is None or last == before:
            break
    key = "np_key" if mapped else ""
    db.execute(f"CREATE TABLE {side}_broken (source, target, status)")
    if anchored:  # links of fetched pages to URLs of the site that answered an error
        db.execute(
            f"INSERT INTO {side}_broken SELECT DISTINCT {key}(s.url), {key}(t.url), "
            "t.status FROM anchors an JOIN pages t ON t.id = an.hrefId JOIN pages s "
            "ON s.id = an.pageId WHERE t.scraped = 1 AND coalesce(t.isExternal, 0) = 0 "
            "AND (t.status >= 400 OR t.status = -1) AND s.scraped = 1 AND "
            + NOT_SKIPPED.replace("isSkipped", "t.isSkipped"))
    db.execute(f"CREATE INDEX {side}_broken_pair ON {side}_broken (source, target)")


_COLUMNS = ("key", "url", "scraped", "external", "skipped", "reason", "status",
            "redirectTo", "title", "description", "h1", "canonical", "ogTitle",
            "ogDescription", "ogUrl", "ogImage", "indexable", "bodyHash",
            "wordCount", "outlinks", "inlinks", "jsonldTypes", "technologies",
            "cacheControl", "securityHeaders", "depth", "id")


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
    deadline = max(old.query_timeout, new.query_timeout)
    path, db = scratch.create("nitpicker-compare-", deadline=deadline)
    try:
        with progress.working_on(str(new.path)) as report:
            _fill_both(path, db, old, new, maps, mapper, deadline, report)
    except BaseException:
        path.unlink(missing_ok=True)
        raise
    with _LOCK:
        _BUILT[token] = path
        while len(_BUILT) > KEEP:
            _, stale = _BUILT.popitem(last=False)
            stale.unlink(missing_ok=True)
    return path


def _fill_both(path: Path, db: scratch.Working, old: Archive, new: Archive,
               maps: Sequence[str], mapper: _Mapper, deadline: float,
               report: Callable[[int, int, str], None]) -> None:
    """Both crawls read into the working database at ``path`` and compared (the
    progress of a comparison of big crawls — 20 s at 300,000 pages each — told)."""
    try:
        cols = ", ".join(f'"{c}"' for c in _COLUMNS)
        info = {"old": _crawl(old), "new": _crawl(new)}
        sizes = {side: int(info[side]["urls"] or 0) for side in ("old", "new")}
        total = sizes["old"] + sizes["new"]
        for side, archive in (("o", old), ("n", new)):
            label = "old" if side == "o" else "new"
            offset = 0 if side == "o" else sizes["old"]

            def copied(done: int, label: str = label, offset: int = offset) -> None:
                report(min(offset + done, total), total,
                       f"reading the {label} crawl: {done:,} of {sizes[label]:,} URLs")

            copied(0)
            if side == "n":  # one archive attached at a time: each brings its own views
                db.close()
                db = scratch.reopen(path, deadline=deadline)
            with database_errors(archive):
                db.attach(archive)
                db.function("np_key", 1, mapper)
                db.execute(f"CREATE TABLE {side} ({cols})")
                _fill(db, side, archive, bool(maps) and side == "o", info[label]["roots"],
                      copied)
            db.execute(f"CREATE INDEX {side}_key ON {side} (key)")
            db.execute(f"CREATE TABLE {side}_shapes (kind, shape, count)")
            db.executemany(f"INSERT INTO {side}_shapes VALUES (?, ?, ?)", _shapes(archive))
        report(total, total, "comparing the two crawls")
        info["old"]["roots"] = [mapper(r) for r in info["old"]["roots"]]
        db.execute("CREATE TABLE meta (info)")
        db.execute("INSERT INTO meta VALUES (?)", (json.dumps(info),))
        _derive(db, info)
        with database_errors(new):
            _linked_from(db, new)
    except BaseException:
        db.conn.close()
        raise
    db.close()


def _linked_from(db: scratch.Working, new: Archive) -> None:
    """A page linking to each added page (the first in URL order), read from the newer
    crawl (attached) for the added pages only."""
    if new.has_table("anchors"):
        db.execute("UPDATE added SET linkedFrom = (SELECT min(s.url) FROM anchors an "
                   "JOIN pages s ON s.id = an.pageId WHERE an.hrefId = (SELECT id FROM "
                   "pages WHERE url = added.url) AND s.url != added.url)")


def _origin(url: str) -> str:
    """``scheme://host[:port]`` of a URL."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _under(url: str, roots: list[str]) -> bool:
    """Is ``url`` in a crawl's scope: same origin as a start URL and under its path?"""
    for root in roots:
        r = urlsplit(root)
        base = f"{r.scheme}://{r.netloc}"
        path = r.path if r.path.endswith("/") else r.path.rsplit("/", 1)[0] + "/"
        if url.startswith(base + path) or url == base + r.path:
            return True
    return False


def _derive(conn: scratch.Working, info: dict[str, Any]) -> None:
    """The change rows of every list, from the two snapshots."""
    conn.function("in_old_scope", 1, lambda u: _under(u, info["old"]["roots"]))
    conn.function("in_new_scope", 1, lambda u: _under(u, info["new"]["roots"]))
    fetched = "{s}.scraped = 1 AND {s}.skipped = 0 AND {s}.external = 0"
    both = f"{fetched.format(s='o')} AND {fetched.format(s='n')}"
    # every URL of either crawl, matched by key once (a full join): each list then reads
    # its rows by rowid, in rowid order — a key lookup a statement took 0.4 s at 300,000
    # pages, a lookup in key order (as the join yields them) 1 s
    conn.execute("CREATE TEMP TABLE joined AS SELECT o.rowid AS orow, n.rowid AS nrow "
                 "FROM o FULL JOIN n ON n.key = o.key ORDER BY orow, nrow")
    matched = "joined j JOIN o ON o.rowid = j.orow JOIN n ON n.rowid = j.nrow WHERE"
    old_only = "joined j JOIN o ON o.rowid = j.orow WHERE j.nrow IS NULL AND"
    new_only = "joined j JOIN n ON n.rowid = j.nrow WHERE j.orow IS NULL AND"
    conn.execute("CREATE TABLE changed (url, field, old, new)")
    skipped = set(info["old"]["notRecorded"]) | set(info["new"]["notRecorded"])
    fields = [f for f in FIELDS if f not in ("status", "redirectTo") and f not in skipped]
    if fields:  # a page gone or redirected is a removal; other statuses below
        # one pass over the pairs, each field compared in it (a pass a field took 0.5 s
        # each at 300,000 pages)
        conn.execute("CREATE TEMP TABLE fields (name TEXT)")
        conn.executemany("INSERT INTO fields VALUES (?)", [(f,) for f in fields])

        def pick(s: str) -> str:
            return ("CASE f.name " + " ".join(f"WHEN '{f}' THEN {s}.\"{f}\"" for f in fields)
                    + " END")

        conn.execute(
            f"INSERT INTO changed SELECT url, field, ov, nv FROM (SELECT n.url AS url, "
            f"f.name AS field, {pick('o')} AS ov, {pick('n')} AS nv FROM joined j "
            "JOIN o ON o.rowid = j.orow JOIN n ON n.rowid = j.nrow CROSS JOIN fields f "
            f"WHERE {both} AND NOT (o.status BETWEEN 200 AND 299 AND n.status NOT "
            "BETWEEN 200 AND 299)) WHERE ov IS NOT nv")
    conn.execute(
        "INSERT INTO changed SELECT n.url, 'status', o.status, n.status FROM "
        f"{matched} {both} AND o.status IS NOT n.status AND NOT (o.status BETWEEN 200 "
        "AND 299 AND (n.status IN (404, 410) OR n.redirectTo IS NOT NULL))")
    conn.execute(
        "INSERT INTO changed SELECT n.url, 'redirectTo', o.redirectTo, n.redirectTo "
        f"FROM {matched} {both} AND o.redirectTo IS NOT NULL AND n.redirectTo IS NOT NULL "
        "AND o.redirectTo IS NOT n.redirectTo")
    old_done, new_done = int(info["old"]["complete"]), int(info["new"]["complete"])
    conn.execute("CREATE TABLE removed (url, reason, oldStatus, newStatus, redirectTo)")
    conn.execute(
        f"INSERT INTO removed SELECT o.url, CASE WHEN n.status IN (404, 410) THEN "
        "'now ' || n.status ELSE 'now redirects' END, o.status, n.status, n.redirectTo "
        f"FROM {matched} {both} AND o.status BETWEEN 200 AND 299 "
        "AND (n.status IN (404, 410) OR n.redirectTo IS NOT NULL)")
    conn.execute(  # the new crawl met it only on nofollow links, and so did not follow
        "INSERT INTO removed SELECT o.url, 'only nofollow links now', o.status, NULL, NULL "
        f"FROM {matched} {fetched.format(s='o')} AND o.status BETWEEN 200 AND 299 "
        "AND n.skipped = 1 AND n.reason = 'nofollow'")
    conn.execute(
        "INSERT INTO removed SELECT o.url, 'no longer linked', o.status, NULL, NULL FROM "
        f"{old_only} {fetched.format(s='o')} AND o.status BETWEEN 200 AND 299 "
        f"AND {new_done} AND in_new_scope(o.key)")
    conn.execute("CREATE TABLE added (url, status, title, linkedFrom)")
    conn.execute(
        f"INSERT INTO added SELECT n.url, n.status, n.title, NULL FROM {new_only} "
        f"{fetched.format(s='n')} AND n.status BETWEEN 200 AND 299 "
        f"AND {old_done} AND in_old_scope(n.key)")
    conn.execute(
        f"INSERT INTO added SELECT n.url, n.status, n.title, NULL FROM {matched} {both} "
        "AND o.status NOT BETWEEN 200 AND 299 AND n.status BETWEEN 200 AND 299 "
        "AND o.redirectTo IS NULL")
    conn.execute(  # linked again by a followed link
        f"INSERT INTO added SELECT n.url, n.status, n.title, NULL FROM {matched} "
        f"{fetched.format(s='n')} AND n.status BETWEEN 200 AND 299 "
        "AND o.skipped = 1 AND o.reason = 'nofollow'")
    conn.execute("CREATE TABLE incomparable (url, side, reason)")
    conn.execute(
        "INSERT INTO incomparable SELECT o.url, 'old only', CASE WHEN NOT "
        f"in_new_scope(o.key) THEN 'outside the new crawl''s scope' ELSE "
        f"'the new crawl did not complete ({info['new']['stopReason']})' END FROM "
        f"{old_only} {fetched.format(s='o')} AND NOT ({new_done} AND in_new_scope(o.key))")
    conn.execute(
        "INSERT INTO incomparable SELECT n.url, 'new only', CASE WHEN NOT "
        f"in_old_scope(n.key) THEN 'outside the old crawl''s scope' ELSE "
        f"'the old crawl did not complete ({info['old']['stopReason']})' END FROM "
        f"{new_only} {fetched.format(s='n')} AND NOT ({old_done} AND in_old_scope(n.key))")
    for side, other, label in (("o", "n", "new"), ("n", "o", "old")):
        conn.execute(
            f"INSERT INTO incomparable SELECT {side}.url, 'both', 'the {label} crawl ' || "
            f"CASE WHEN {other}.skipped THEN 'skipped it (' || coalesce({other}.reason, "
            f"'skipped') || ')' ELSE 'did not fetch it' END FROM {matched} "
            f"{fetched.format(s=side)} AND ({other}.skipped = 1 OR {other}.scraped = 0) "
            f"AND NOT ({other}.skipped = 1 AND {other}.reason = 'nofollow' AND "
            f"{side}.status BETWEEN 200 AND 299)")
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
            origins = {side: sorted({_origin(r) for r in info[side]["roots"]})
                       for side in ("old", "new")}
            if not rules and origins["old"] and origins["new"] and \
                    not set(origins["old"]) & set(origins["new"]):
                notes.append(f"the crawls start on different sites ({origins['old'][0]} and "
                             f"{origins['new'][0]}): no URL matches unless mapped, e.g. "
                             f"--map '{origins['old'][0]}/={origins['new'][0]}/'")
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
