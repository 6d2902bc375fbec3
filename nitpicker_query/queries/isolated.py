"""``list_isolated_pages``, ``list_isolated_clusters``, ``get_isolated_cluster``: orphans.

An orphan is a page that exists — a sitemap or a URL list names it — and that no crawled
page links to. The crawler labels each row with upstream's ``source``: ``crawled``
(reached by links from the start URLs), ``inventory-seed`` (an inventory URL the crawl of
the start URLs never met) or ``inventory-discovered`` (met only through links of
inventory pages). The inventory subgraph — internal HTML pages with an ``inventory-*``
label that are no redirect source, and the links among them, each link's target read
through its redirect (``redirectDestId`` points at the final page) — falls into
connected components, link direction ignored (a "next" link alone ties a pair of archive
pages). A component of one page is an *isolated page*; bigger ones are *isolated
clusters* (a forgotten section whose pages link each other). A link from an inventory
page out to a crawled page ties it to nothing: reachability is about links *to* a page.

A crawl without an inventory (``--no-sitemap`` and no ``--list``, a site without
sitemaps, upstream's crawls without ``--inventory``) has no such rows: every list is
empty, and says so only by its zero total.

Upstream: ``compute-isolated-clusters.ts`` and its three tools, the same rules; the
components are built here with a union-find over one pass of the links.
"""

from __future__ import annotations

from typing import Any

from ..archive.opening import Archive, opened
from .paging import check_paging, envelope

INVENTORY = ("inventory-seed", "inventory-discovered")


def _components(a: Archive) -> list[list[dict[str, Any]]]:
    """Every component of the inventory subgraph, members in URL order, unsorted."""
    if "source" not in a.columns("pages"):
        return []
    labelled = ("p.scraped = 1 AND p.isExternal = 0 AND p.contentType = 'text/html' AND "
                "p.redirectDestId IS NULL AND p.source IN ('inventory-seed', "
                "'inventory-discovered')")
    nodes = {r[0]: {"url": r[1], "title": r[2], "status": r[3], "source": r[4]}
             for r in a.rows(f"SELECT p.id, p.url, p.title, p.status, p.source "
                             f"FROM {a.lite} p WHERE {labelled}")}
    if not nodes:
        return []
    parent = {n: n for n in nodes}

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    # each link of an inventory page, its target through its redirect (pre-flattened)
    for source, target in a.rows(
            f"SELECT a.pageId, coalesce(t.redirectDestId, t.id) FROM anchors a "
            f"JOIN {a.lite} p ON p.id = a.pageId JOIN pages t ON t.id = a.hrefId "
            f"WHERE {labelled}"):
        if target in nodes and target != source:
            ra, rb = find(source), find(target)
            if ra != rb:
                parent[ra] = rb
    groups: dict[int, list[dict[str, Any]]] = {}
    for node, page in nodes.items():
        groups.setdefault(find(node), []).append(page)
    return [sorted(members, key=lambda m: m["url"]) for members in groups.values()]


def list_isolated_pages(archive: Archive | str, *, limit: int = 100,
                        offset: int = 0) -> dict[str, Any]:
    """Which pages of the inventory (sitemaps, ``--list``) does no crawled page link to,
    and no other such page either?

    One item per page in URL order: ``url``, ``title``, ``status``, ``source``
    (``inventory-seed``: named by the inventory; ``inventory-discovered``: found through
    an inventory page's links). Pages of the inventory that link each other are
    :func:`list_isolated_clusters`'."""
    limit, offset = check_paging(limit, offset)
    with opened(archive) as a:
        alone = sorted((c[0] for c in _components(a) if len(c) == 1),
                       key=lambda m: m["url"])
    return envelope(alone[offset:offset + limit], len(alone), limit, offset)


def list_isolated_clusters(archive: Archive | str, *, limit: int = 100,
                           offset: int = 0) -> dict[str, Any]:
    """Which groups of inventory pages link only each other — a section nothing crawled
    links to?

    One item per group of two pages or more, biggest first, then by URL:
    ``representativeUrl`` (the group's first URL in URL order: its name for
    :func:`get_isolated_cluster`), ``size``, and that page's ``title`` and ``status``."""
    limit, offset = check_paging(limit, offset)
    with opened(archive) as a:
        groups = sorted((c for c in _components(a) if len(c) > 1),
                        key=lambda c: (-len(c), c[0]["url"]))
    items = [{"representativeUrl": c[0]["url"], "size": len(c), "title": c[0]["title"],
              "status": c[0]["status"]} for c in groups[offset:offset + limit]]
    return envelope(items, len(groups), limit, offset)


def get_isolated_cluster(archive: Archive | str, *,
                         representative_url: str) -> dict[str, Any] | None:
    """Every page of one isolated cluster, by its ``representativeUrl``: ``{representativeUrl,
    size, members: [{url, title, status, source}]}`` in URL order; None when no cluster
    has that name (a later crawl may have reached one of its pages through links)."""
    with opened(archive) as a:
        for members in _components(a):
            if len(members) > 1 and members[0]["url"] == representative_url:
                return {"representativeUrl": representative_url, "size": len(members),
                        "members": members}
    return None
