"""The site's third-party dependencies: ``list_resource_hosts`` (every host the pages
load sub-resources from, with how many files and pages, bytes and failures) and
``list_pages_by_resource`` (the pages loading a resource, by URL pattern or host) — what an
auditor asks before a privacy review, a CDN move or a third-party outage.

A host is the URL's authority as written (``cdn.example.com``, ``example.com:8443``),
lower-cased; computed by SQL, never in Python, so 300,000 pages of referrers are one
grouped pass.
"""

from __future__ import annotations

from typing import Any

from ..archive.opening import Archive, opened
from ..exceptions import InvalidArgument
from ._common import as_bool
from .paging import check_choice, check_paging, envelope

_AFTER = "substr({u}, instr({u}, '://') + 3)"
HOST_SQL = (
    "lower(CASE WHEN instr({u}, '://') = 0 THEN '' "
    f"WHEN instr({_AFTER}, '/') > 0 THEN substr({_AFTER}, 1, instr({_AFTER}, '/') - 1) "
    f"ELSE {_AFTER} END)"
)
"""SQL of the host of URL column ``{u}`` (its authority, lower-cased; '' without a scheme)."""

HOST_SORTS = ("pages", "resources", "bytes", "failed", "host")


def host_of(column: str) -> str:
    """:data:`HOST_SQL` for ``column``."""
    return HOST_SQL.format(u=column)


def list_resource_hosts(archive: Archive | str, *, is_external: bool | None = None,
                        sort_by: str = "pages", sort_order: str | None = None,
                        limit: int = 100, offset: int = 0) -> dict[str, Any]:
    """Every host the site's pages load sub-resources from (scripts, stylesheets, images,
    fonts, media): ``host``, ``isExternal``, ``resources`` (distinct URLs), ``pages``
    (distinct pages loading at least one), ``bytes`` (their stored sizes summed; null
    when none is known), ``failed`` (resources answering 4xx/5xx or not at all) and
    ``contentTypes`` (the MIME types seen, most files first). Most pages first;
    ``sort_by`` pages|resources|bytes|failed|host; ``is_external`` narrows."""
    check_choice("sort_by", sort_by, HOST_SORTS)
    order = sort_order or ("asc" if sort_by == "host" else "desc")
    check_choice("sort_order", order, ("asc", "desc"))
    limit, offset = check_paging(limit, offset)
    with opened(archive) as a:
        if not a.has_table("resources"):
            return envelope([], 0, limit, offset)
        host = host_of("r.url")
        where, params = "", []
        if is_external is not None:
            where = "WHERE coalesce(r.isExternal, 0) = ?"
            params.append(int(as_bool(is_external)))
        hosts = {row[0]: {"host": row[0], "isExternal": as_bool(row[1]),
                          "resources": row[2], "pages": 0, "bytes": row[3],
                          "failed": row[4], "contentTypes": []}
                 for row in a.rows(
                     f"SELECT {host} AS h, max(coalesce(r.isExternal, 0)), count(*), "
                     "sum(r.contentLength), sum(CASE WHEN r.status >= 400 OR r.status < 0 "
                     f"THEN 1 ELSE 0 END) FROM resources r {where} GROUP BY h", params)}
        if a.has_table("resources-referrers"):
            for h, pages in a.rows(
                    f"SELECT {host} AS h, count(DISTINCT rr.pageId) FROM "
                    f'"resources-referrers" rr JOIN resources r ON r.id = rr.resourceId '
                    f"{where} GROUP BY h", params):
                if h in hosts:
                    hosts[h]["pages"] = pages
        for h, kind, _n in a.rows(
                f"SELECT {host} AS h, coalesce(r.contentType, ''), count(*) FROM "
                f"resources r {where} GROUP BY h, 2 ORDER BY 3 DESC, 2", params):
            if h in hosts and kind and len(hosts[h]["contentTypes"]) < 5:
                hosts[h]["contentTypes"].append(kind)
    items = list(hosts.values())
    reverse = order == "desc"
    if sort_by == "host":
        items.sort(key=lambda i: i["host"], reverse=reverse)
    else:
        items.sort(key=lambda i: i["host"])
        items.sort(key=lambda i: i[sort_by] or 0, reverse=reverse)
    return envelope(items[offset:offset + limit], len(items), limit, offset)


def list_pages_by_resource(archive: Archive | str, *, resource_pattern: str | None = None,
                           host: str | None = None, limit: int = 100,
                           offset: int = 0) -> dict[str, Any]:
    """The pages that load a sub-resource whose URL matches ``resource_pattern`` (SQL
    LIKE: ``%jquery%``, ``%.woff2``) and/or comes from ``host`` (as
    ``list_resource_hosts`` names it): ``url`` of the page, ``resources`` (how many such
    files it loads) and ``first`` (the first of them by URL), in page URL order."""
    limit, offset = check_paging(limit, offset)
    if not resource_pattern and not host:
        raise InvalidArgument("give resource_pattern or host (or both): which resources?")
    with opened(archive) as a:
        if not (a.has_table("resources") and a.has_table("resources-referrers")):
            return envelope([], 0, limit, offset)
        test, params = [], []
        if resource_pattern:
            test.append("r.url LIKE ?")
            params.append(resource_pattern)
        if host:
            test.append(f"{host_of('r.url')} = ?")
            params.append(host.lower())
        matched = (f'SELECT rr.pageId AS pageId, r.url AS url FROM "resources-referrers" rr '
                   f"JOIN resources r ON r.id = rr.resourceId WHERE {' AND '.join(test)}")
        total = a.count(f"SELECT count(DISTINCT pageId) FROM ({matched})", params)
        rows = a.execute(
            f"SELECT p.url, count(*), min(m.url) FROM ({matched}) m JOIN pages p ON "
            "p.id = m.pageId GROUP BY m.pageId ORDER BY p.url LIMIT ? OFFSET ?",
            [*params, limit, offset]).fetchall()
    items = [{"url": r[0], "resources": r[1], "first": r[2]} for r in rows]
    return envelope(items, total, limit, offset)


__all__ = ["HOST_SQL", "host_of", "list_pages_by_resource", "list_resource_hosts"]
