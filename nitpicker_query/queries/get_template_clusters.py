"""``get_template_clusters`` and ``get_template_cluster``: pages sharing one template."""

from __future__ import annotations

from typing import Any

from ..archive.opening import Archive, opened
from .paging import check_choice, check_int, check_paging, envelope
from .templates import TEMPLATE_ID, TemplateIndex, template_id, template_index

MAX_META_CLUSTERS = 10
"""Meta-signature clusters listed per template (the most shared first)."""

MAX_CORE_TOKENS = 200
"""Structural core tokens shown for one template (``structuralCoreTokenCount`` is the
whole count): enough to read a template, small enough for one MCP result."""


def _meta_clusters(index: TemplateIndex, key: str) -> list[dict[str, Any]]:
    return [{"signature": sig, "sharedPages": shared, "clusterCount": size,
             "capEventId": event}
            for sig, shared, size, event in index.meta_overlap[key][:MAX_META_CLUSTERS]]


def _reasons(index: TemplateIndex, key: str, *, detail: bool) -> dict[str, Any]:
    """A cluster's reasons as shown: the list leaves out the token lists (the landmarks'
    shell tokens, the structural core), the detail shows them (the core cut to
    :data:`MAX_CORE_TOKENS`)."""
    reasons = dict(index.reasons.get(key, {}))
    tokens = reasons.pop("structuralCoreTokens", [])
    reasons["structuralCoreTokenCount"] = len(tokens)
    reasons.pop("memberCount", None)
    if detail:
        reasons["structuralCoreTokens"] = tokens[:MAX_CORE_TOKENS]
    else:
        reasons["landmarks"] = {kind: {k: v for k, v in lm.items() if k != "shellTokens"}
                                for kind, lm in reasons.get("landmarks", {}).items()}
    return reasons


def get_template_clusters(
    archive: Archive | str,
    *,
    min_count: int = 1,
    sample_pages_limit: int = 5,
    sort_by: str | None = None,
    sort_order: str = "desc",
    reasons: bool = True,
    limit: int = 50,
    offset: int = 0,
) -> dict[str, Any]:
    """Which templates is the site built from, and how many pages has each?

    The site's rendered internal HTML pages with a stored snapshot, clustered by DOM
    structure (:mod:`page_cluster`: element paths with ids and classes, text ignored;
    blocked by URL path and first-party stylesheets). Clusters of ``min_count`` pages or
    more, biggest first. The first call on an archive reads every snapshot (about a
    millisecond a page); later calls in the same process reuse the result.

    Item: ``id`` (the cluster's short stable id, :func:`~.templates.template_id`) and
    ``key`` (the cluster key itself) — either names it to :func:`get_template_cluster` —,
    ``count``,
    ``samplePages`` (first URLs in URL order), ``reasons`` (``blocking``: the path and
    stylesheets of its blocks; ``landmarks``: per kind, how many of its pages have one
    and the share of those that are the site's chrome (header, footer) rather than the
    template's own; ``siblingClusterKeys``: templates of the same blocks kept apart;
    ``structuralCoreTokenCount``) and ``metaSignatureClusters`` — the duplicate
    clusters (same title, description, og:title, og:url) its pages fall into, with how
    many pages each shares and the soft cap's event for it, if any: a trap shows as one
    template with one meta signature; ``capEventIds`` lists those events.
    ``pagesClustered`` and ``pagesWithoutHtml`` (internal HTML pages with no snapshot,
    not clustered) come with the envelope. ``sort_by="count"`` with ``sort_order="asc"``
    lists the smallest first (ties in the default order; the clusters are built in
    Python, so they are sorted there). ``reasons=False`` leaves ``reasons`` out (most of
    an item's bytes: the MCP tool's default, where an assistant's context is the limit).
    """
    if sort_by is not None:
        check_choice("sort_by", sort_by, ("count",))
    check_choice("sort_order", sort_order, ("asc", "desc"))
    min_count = check_int("min_count", min_count, minimum=1)
    sample_pages_limit = check_int("sample_pages_limit", sample_pages_limit, minimum=1,
                                   maximum=1000)
    limit, offset = check_paging(limit, offset)
    with opened(archive) as a:
        index = template_index(a)
        order = [k for k in index.order if len(index.members[k]) >= min_count]
        if sort_by == "count" and sort_order == "asc":
            order.sort(key=lambda k: len(index.members[k]))  # stable: ties as before
        items = []
        for key in order[offset:offset + limit]:
            metas = _meta_clusters(index, key)
            items.append({
                "id": template_id(key), "key": key, "count": len(index.members[key]),
                "samplePages": [url for url, _i in index.members[key][:sample_pages_limit]],
                "capEventIds": sorted({m["capEventId"] for m in metas
                                       if m["capEventId"] is not None}),
                **({"reasons": _reasons(index, key, detail=False)} if reasons is not False
                   else {}),
                "metaSignatureClusters": metas})
    return envelope(items, len(order), limit, offset, pagesClustered=index.pages,
                    pagesWithoutHtml=index.without_html)


def get_template_cluster(
    archive: Archive | str, *, key: str, limit: int = 100, offset: int = 0
) -> dict[str, Any] | None:
    """Every page of one template cluster (a ``key`` or ``id`` from the cluster list), URL
    order.

    Returns the list envelope of members ``{url, title}`` with ``id``, ``key``, ``reasons``
    (with the ``structuralCoreTokens`` themselves — the element paths on 80 % of its
    pages, the first 200 — and each landmark's ``shellTokens``) and
    ``metaSignatureClusters`` first; None when the archive has no such cluster. A key
    pasted into a shell without quotes loses its JSON quotes (``[path:blog|css:/a.css,
    cluster:0]``): that spelling finds its cluster too.
    """
    limit, offset = check_paging(limit, offset)
    with opened(archive) as a:
        index = template_index(a)
        key = _named(key.strip(), index.members)
        members = index.members.get(key)
        if members is None:
            return None
        page = members[offset:offset + limit]
        ids = [i for _u, i in page]
        marks = ",".join("?" for _ in ids)
        titles = dict(a.rows(f"SELECT id, title FROM pages WHERE id IN ({marks})", ids)) \
            if ids else {}
        items = [{"url": url, "title": titles.get(i)} for url, i in page]
        return envelope(items, len(members), limit, offset, id=template_id(key), key=key,
                        reasons=_reasons(index, key, detail=True),
                        metaSignatureClusters=_meta_clusters(index, key))


def _named(name: str, keys: Any) -> str:
    """The stored key ``name`` stands for: itself, the key whose id it is, or the key it
    is a shell-mangled paste of; ``name`` unchanged when none."""
    if name in keys:
        return name
    if TEMPLATE_ID.fullmatch(name.lower()):
        for stored in keys:
            if template_id(stored) == name.lower():
                return str(stored)
        return name
    return _as_pasted(name, keys)


def _as_pasted(key: str, keys: Any) -> str:
    """The stored key a shell-mangled paste of it stands for (JSON quotes removed), or
    ``key`` unchanged."""
    bare = key.replace('"', "").replace("\\", "")
    for stored in keys:
        if stored.replace('"', "").replace("\\", "") == bare:
            return str(stored)
    return key
