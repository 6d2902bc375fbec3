"""``list_links``: broken links, external links, orphaned pages."""

from __future__ import annotations

from typing import Any

from ..archive.opening import Archive, opened
from ..exceptions import InvalidArgument
from ..format.v010 import redirect_target, strict_page
from ._common import as_bool
from .paging import check_choice, check_paging, envelope
from .redirects import redirect_chain

LINK_TYPES = ("broken", "external", "orphaned", "all")
LINK_DESTINATIONS = ("both", "internal", "external")
SORT_KEYS = ("sourceUrl", "destUrl", "status", "referrerCount", "url", "title")
"""Item keys a list can be sorted by (ties by the default order); which apply depends on
the list's items: :data:`_SORTS`."""
_SORTS = {
    "anchors": {"sourceUrl": "s.url", "destUrl": "destUrl", "status": "status"},
    "by_destination": {"destUrl": "destUrl", "status": "status",
                       "referrerCount": "referrerCount"},
    "orphaned": {"url": "p.url", "title": "p.title", "status": "p.status"},
}
BROKEN_AS = {
    # what "broken" means: the resolved destination's status …
    "error": "({status} >= 400 OR {status} = -1)",   # 4xx, 5xx, or the fetch failed
    "4xx": "{status} BETWEEN 400 AND 499",
    "404": "{status} = 404",                          # upstream's rule
}


def list_links(
    archive: Archive | str,
    *,
    type: str,
    broken_as: str = "error",
    destination: str = "both",
    include_redirect_sources: bool = False,
    by_destination: bool = False,
    source_pattern: str | None = None,
    destination_pattern: str | None = None,
    sort_by: str | None = None,
    sort_order: str = "asc",
    limit: int = 100,
    offset: int = 0,
) -> dict[str, Any]:
    """Which links are broken or external, and which pages are orphaned?

    - ``broken``: one item per anchor whose destination — resolved through redirects —
      answered an error. ``broken_as`` says which: ``error`` (default: any 4xx or 5xx,
      or a fetch that failed, status -1 — what an auditor calls a broken link), ``4xx``,
      or ``404`` (exactly 404: upstream's rule, which leaves out 410, 5xx and failures).
      ``destination``: ``internal`` (the site's own pages: what its owner can fix),
      ``external`` (unreachable hosts, others' 404s), or ``both``.
    - ``external``: one item per anchor whose resolved destination is external.
    - ``all``: every anchor of the crawl, resolved the same way — narrowed by
      ``source_pattern`` (SQL LIKE on the linking page's URL) and ``destination_pattern``
      (on the resolved destination's), which narrow the other types too.
    - ``orphaned``: rendered internal HTML pages no anchor points at, directly or
      through a redirect; items ``{url, title, status}``.

    ``by_destination`` (broken and external): one item per destination instead,
    ``{destUrl, status, isExternal, referrerCount, linkCount}`` — pages linking to it and
    anchors — most referred first.

    Anchor items are ``{sourceUrl, destUrl, status, isExternal, textContent}`` with the
    destination resolved (``include_redirect_sources=True`` shows the literal target
    instead; an anchor to a redirecting URL also has ``redirectChain``, the hops
    ``[{url, status}]`` from the URL it names to the destination), not de-duplicated (a
    header and a footer link are two items), ordered by source URL then document order.

    ``sort_by`` (None: the orders above) sorts by an item key, ties in the default
    order: anchors by ``sourceUrl``, ``destUrl`` or ``status``; destinations by
    ``destUrl``, ``status`` or ``referrerCount``; orphaned pages by ``url``, ``title`` or
    ``status``; ``sort_order`` asc|desc. A key the list's items lack is an error.

    Upstream: ``list-links.ts`` (404-only rule of the later builds; ``orphaned`` from
    the first 0.10 builds).
    """
    check_choice("type", type, LINK_TYPES)
    check_choice("broken_as", broken_as, tuple(BROKEN_AS))
    check_choice("destination", destination, LINK_DESTINATIONS)
    if destination != "both" and type != "broken":
        raise InvalidArgument(f"destination {destination!r} only narrows broken links, "
                              f"not type {type!r}")
    check_choice("sort_order", sort_order, ("asc", "desc"))
    limit, offset = check_paging(limit, offset)
    kind = "orphaned" if type == "orphaned" else (
        "by_destination" if as_bool(by_destination) else "anchors")
    order = ""
    if sort_by is not None:
        check_choice("sort_by", sort_by, SORT_KEYS)
        if sort_by not in _SORTS[kind]:
            raise InvalidArgument(
                f"sort_by {sort_by!r} is not a key of {kind.replace('_', ' ')} items; "
                f"choose {', '.join(_SORTS[kind])}")
        order = f"{_SORTS[kind][sort_by]} {'DESC' if sort_order == 'desc' else 'ASC'}, "
    patterns = [like_literal_sql(p) for p in (source_pattern, destination_pattern)]
    if type == "orphaned" and any(patterns):
        raise InvalidArgument("source_pattern and destination_pattern narrow links, not "
                              "orphaned pages")
    with opened(archive) as a:
        if type == "orphaned":
            return _orphaned(a, limit, offset, order)
        # Destination columns: the literal target row d, or its final page r when the
        # target is a redirect source (redirectDestId is pre-flattened: one hop).
        if include_redirect_sources:
            status, external, dest_url, join = "d.status", "d.isExternal", "d.url", ""
        else:
            status = f"COALESCE({redirect_target('d', 'status')}, d.status)"
            external = f"COALESCE({redirect_target('d', 'isExternal')}, d.isExternal)"
            dest_url = f"COALESCE({redirect_target('d', 'url')}, d.url)"
            join = ""
        test = BROKEN_AS[broken_as].format(status=status) if type == "broken" \
            else "1" if type == "all" else f"{external} = 1"
        if patterns[1]:
            test = f"({test}) AND {dest_url} LIKE {patterns[1]}"
        # the linking page's URL, when narrowed: a test on the source row s
        source = f" AND an.pageId IN (SELECT s.id FROM pages s WHERE s.url LIKE " \
            f"{patterns[0]})" if patterns[0] else ""
        if destination != "both":
            test = f"({test}) AND {external} = {1 if destination == 'external' else 0}"
        # Select the few matching target rows first, then their anchors by index:
        # counting never scans every anchor.
        # (every anchor, unnarrowed by destination: no set of all pages to build)
        where = ("1" if test == "1" else
                 f"an.hrefId IN (SELECT d.id FROM pages d {join}WHERE {test})") + source
        if as_bool(by_destination):
            return _by_destination(a, type, dest_url, status, external, join, test, limit,
                                   offset, order, source)
        total = a.count(f"SELECT count(*) FROM anchors an WHERE {where}")
        resolved = f"{dest_url} AS destUrl, {status} AS status, {external} AS isExternal"
        select = (f"SELECT s.url AS sourceUrl, {resolved}, an.textContent, d.url AS linked, "
                  "d.redirectDestId AS redirected")
        if order == "s.url ASC, ":
            order = ""  # the default order, walked cheaply below
        if not order and _walk_sources(a, total, limit + offset):
            # Many matches: walk source pages in URL order (CROSS JOIN fixes the join
            # order) and stop after the page — the sort of every match is avoided.
            sql = (f"{select} FROM pages s CROSS JOIN anchors an ON an.pageId = s.id "
                   f"JOIN pages d ON d.id = an.hrefId {join}WHERE {test}{source} "
                   "ORDER BY s.url, an.id LIMIT ? OFFSET ?")
        else:
            # Few matches: fetch them through the target index and sort them.
            sql = (f"{select} FROM anchors an JOIN pages s ON s.id = an.pageId "
                   f"JOIN pages d ON d.id = an.hrefId {join}WHERE {where} "
                   f"ORDER BY {order}s.url, an.id LIMIT ? OFFSET ?")
        rows = a.execute(sql, (limit, offset)).fetchall()
        items = []
        for r in rows:
            item = {"sourceUrl": r["sourceUrl"], "destUrl": r["destUrl"],
                    "status": r["status"], "isExternal": as_bool(r["isExternal"]),
                    "textContent": r["textContent"]}
            if r["redirected"] is not None and not include_redirect_sources:
                item["redirectChain"] = redirect_chain(a, r["linked"])
            items.append(item)
    return envelope(items, total, limit, offset)


def _by_destination(a: Archive, kind: str, dest_url: str, status: str, external: str,
                    join: str, test: str, limit: int, offset: int, order: str = "",
                    source: str = "") -> dict[str, Any]:
    """One item per resolved destination, with how many pages and anchors point at it.

    Driven by the destination rows (``CROSS JOIN`` fixes the order), whose anchors come
    through the ``hrefId`` index; for external links the candidate rows come from the
    ``isExternal`` and ``redirectDestId`` indexes (0.5 s at 300,000 pages, where joining
    from every anchor took 1.9 s)."""
    where = test if kind != "external" else (
        f"(d.isExternal = 1 OR d.redirectDestId IS NOT NULL) AND {test}")
    total = a.count(f"SELECT count(DISTINCT {dest_url}) FROM pages d {join}WHERE {where} "
                    f"AND EXISTS (SELECT 1 FROM anchors an WHERE an.hrefId = d.id{source})")
    rows = a.execute(
        f"SELECT {dest_url} AS destUrl, max({status}) AS status, max({external}) AS "
        f"isExternal, count(DISTINCT an.pageId) AS referrerCount, count(*) AS linkCount "
        f"FROM pages d {join}CROSS JOIN anchors an ON an.hrefId = d.id WHERE {where}"
        f"{source} GROUP BY {dest_url} ORDER BY {order}referrerCount DESC, destUrl "
        "LIMIT ? OFFSET ?",
        (limit, offset)).fetchall()
    items = [{"destUrl": r["destUrl"], "status": r["status"],
              "isExternal": as_bool(r["isExternal"]), "referrerCount": r["referrerCount"],
              "linkCount": r["linkCount"]} for r in rows]
    return envelope(items, total, limit, offset)


def like_literal_sql(pattern: str | None) -> str | None:
    """A LIKE pattern as an SQL string literal (the link lists are built as SQL text, their
    paging bound separately): quotes doubled; a NUL refused (SQLite would cut there)."""
    if pattern is None or pattern == "":
        return None
    if not isinstance(pattern, str) or "\x00" in pattern or len(pattern) > 2000:
        raise InvalidArgument("a URL pattern must be text of at most 2,000 characters, "
                              "without NUL")
    return "'" + pattern.replace("'", "''") + "'"


def _walk_sources(a: Archive, matches: int, wanted: int) -> bool:
    """Is walking pages in URL order cheaper than sorting every match?

    Walking reads about ``wanted × anchors / matches`` anchors before the page is full;
    sorting touches every match a few times. (Same rows either way; measured in
    docs/BENCHMARKS.md: 100,000 external links, first page 237 ms sorted, 1.5 ms walked.)
    """
    if matches == 0:
        return False
    anchors = a.count("SELECT count(*) FROM anchors")
    return wanted * anchors / matches < 4 * matches


def _orphaned(a: Archive, limit: int, offset: int, order: str = "") -> dict[str, Any]:
    where = (
        f"{strict_page('p', url_order=True)} "
        "AND NOT EXISTS (SELECT 1 FROM anchors an WHERE an.hrefId = p.id) "
        "AND NOT EXISTS (SELECT 1 FROM pages r JOIN anchors an ON an.hrefId = r.id "
        "WHERE r.redirectDestId = p.id)"
    )
    total = a.count(f"SELECT count(*) FROM pages p WHERE {where}")
    rows = a.execute(
        f"SELECT p.url, p.title, p.status FROM pages p WHERE {where} "
        f"ORDER BY {order}p.url LIMIT ? OFFSET ?",
        (limit, offset),
    ).fetchall()
    items = [{"url": r["url"], "title": r["title"], "status": r["status"]} for r in rows]
    return envelope(items, total, limit, offset)
