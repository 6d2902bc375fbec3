"""``get_duplicate_clusters`` and ``get_duplicate_cluster``: pages sharing one meta signature."""

from __future__ import annotations

from typing import Any

from ..archive.opening import Archive, opened
from ..keys.page_keys import parent_path
from .clusters import clusters, members_of, og_url_mismatch, shape_of, suggest_exclude
from .list_dedupe_cap_events import events_by_signature
from .paging import check_choice, check_int, check_paging, envelope

GROUPINGS = ("signature", "shape")
CLUSTER_SORTS = ("count",)
"""What cluster lists sort by (besides their default order)."""


def get_duplicate_clusters(
    archive: Archive | str,
    *,
    min_count: int = 10,
    by: str = "signature",
    sample_pages_limit: int = 20,
    sort_by: str | None = None,
    sort_order: str = "desc",
    limit: int = 50,
    offset: int = 0,
) -> dict[str, Any]:
    """Which groups of pages share title, description, og:title and og:url — trap clusters?

    A cluster is the site's rendered HTML pages with one *signature*: SHA-1 of the parent
    path and the four meta values (``by="shape"``: of the URL shape instead, which also
    groups traps spread over several parents). Clusters of ``min_count`` or more pages,
    biggest first; among equal counts those whose pages' og:url points elsewhere than the
    page come first (the trap pattern), then by signature.

    Item: ``signature``, ``parentPath``, ``shapeKey`` (most common URL shape), ``count``,
    ``samplePages`` (first ``sample_pages_limit`` URLs in URL order),
    ``metaSignatureFields {title, description, ogTitle, ogUrl}``, ``ogUrlMismatchCount``,
    ``capEvent`` (the soft cap's event for this signature, or null) and
    ``suggestedExclude`` (the narrowest ``--exclude``/``--exclude-url``/
    ``--exclude-pattern`` matching every member, with how many other archived URLs it
    would also exclude). Drill down with :func:`get_duplicate_cluster`.

    ``sort_by="count"`` with ``sort_order="asc"`` lists the smallest first (ties in the
    default order); None or ``desc`` is the default order. (Clusters are grouped in
    Python from the stored signatures, so they are sorted there too.)

    Upstream: ``list-duplicate-body-clusters.ts`` groups by body hash (format 0.13); ours
    follows seed 000's meta signature and works on any 0.10 archive.
    """
    if sort_by is not None:
        check_choice("sort_by", sort_by, CLUSTER_SORTS)
    check_choice("sort_order", sort_order, ("asc", "desc"))
    min_count = check_int("min_count", min_count, minimum=2)
    check_choice("by", by, GROUPINGS)
    sample_pages_limit = check_int("sample_pages_limit", sample_pages_limit, minimum=1,
                                   maximum=1000)
    limit, offset = check_paging(limit, offset)
    with opened(archive) as a:
        members = clusters(a, by, min_count)
        counts = {sig: len(ms) for sig, ms in members.items()}
        # the order needs only whether a cluster has a mismatch (a trap's first member
        # usually does); the count is taken for the clusters of this page
        mismatched = {sig: any(og_url_mismatch(m) for m in ms) for sig, ms in members.items()}
        order = sorted(counts, key=lambda s: (-counts[s], not mismatched[s], s))
        if sort_by == "count" and sort_order == "asc":
            order.sort(key=lambda s: counts[s])  # stable: ties keep the default order
        page = order[offset:offset + limit]
        mismatches = {sig: sum(og_url_mismatch(m) for m in members[sig]) for sig in page}
        events = events_by_signature(a, page)
        items = []
        for sig in page:
            ms = members[sig]
            shape = shape_of(ms)
            first = ms[0]
            items.append({
                "signature": sig,
                "parentPath": parent_path(first.url),
                "shapeKey": shape,
                "count": counts[sig],
                "samplePages": [m.url for m in ms[:sample_pages_limit]],
                "metaSignatureFields": {"title": first.title, "description": first.description,
                                        "ogTitle": first.og_title, "ogUrl": first.og_url or ""},
                "ogUrlMismatchCount": mismatches[sig],
                "capEvent": events.get(sig),
                "suggestedExclude": suggest_exclude(a, ms, shape),
            })
    return envelope(items, len(order), limit, offset)


def get_duplicate_cluster(
    archive: Archive | str, *, signature: str, limit: int = 100, offset: int = 0
) -> dict[str, Any] | None:
    """Every page of one cluster (a signature or shape signature from the cluster list).

    Returns the list envelope of members ``{url, title, ogUrl, ogUrlMismatch, shapeKey}``
    in URL order, with ``signature``, ``by`` and ``metaSignatureFields`` first; None when
    no rendered page has that signature.
    """
    limit, offset = check_paging(limit, offset)
    sig = signature.strip().lower()
    with opened(archive) as a:
        by = "signature"
        members = members_of(a, by, [sig])[sig]
        if not members:
            by = "shape"
            members = members_of(a, by, [sig])[sig]
        if not members:
            return None
    first = members[0]
    items = [{"url": m.url, "title": m.title, "ogUrl": m.og_url,
              "ogUrlMismatch": og_url_mismatch(m), "shapeKey": m.shape_key}
             for m in members[offset:offset + limit]]
    return envelope(items, len(members), limit, offset, signature=sig, by=by,
                    metaSignatureFields={"title": first.title, "description": first.description,
                                         "ogTitle": first.og_title, "ogUrl": first.og_url or ""})
