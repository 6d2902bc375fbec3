"""``get_page_detail``: everything the archive knows about one URL."""

from __future__ import annotations

from typing import Any

from ..archive.opening import Archive, opened
from ..format.error_kinds import classify_error_kind
from ..format.v010 import redirect_target
from ..keys.page_keys import shape_key, split_shape
from ._common import as_bool, json_object, tri_bool
from .link_score import link_scores, scores_of
from .paging import check_int
from .redirects import redirect_chain, redirect_path

LINKS_LIMIT_DEFAULT = 100

_SCALARS: tuple[tuple[str, str], ...] = (
    ("url", "url"), ("status", "status"), ("statusText", "statusText"),
    ("contentType", "contentType"), ("contentLength", "contentLength"),
    ("title", "title"), ("description", "description"), ("keywords", "keywords"),
    ("lang", "lang"), ("dir", "dir"), ("charset", "charset"), ("baseHref", "baseHref"),
    ("viewportRaw", "viewport_raw"), ("themeColor", "themeColor"),
    ("applicationName", "applicationName"), ("author", "author"),
    ("generator", "generator"), ("publisher", "publisher"), ("robotsRaw", "robots_raw"),
    ("googlebot", "googlebot"), ("canonical", "canonical"), ("amphtml", "amphtml"),
    ("manifest", "manifest"), ("iconHref", "icon_href"),
    ("appleTouchIconHref", "appleTouchIcon_href"), ("ogType", "og_type"),
    ("ogTitle", "og_title"), ("ogUrl", "og_url"), ("ogSiteName", "og_site_name"),
    ("ogDescription", "og_description"), ("ogImage", "og_image"),
    ("ogImageAlt", "og_image_alt"), ("ogImageWidth", "og_image_width"),
    ("ogImageHeight", "og_image_height"), ("ogLocale", "og_locale"),
    ("ogArticlePublishedTime", "og_article_published_time"),
    ("ogArticleModifiedTime", "og_article_modified_time"),
    ("twitterCard", "twitter_card"), ("twitterSite", "twitter_site"),
    ("twitterCreator", "twitter_creator"), ("twitterTitle", "twitter_title"),
    ("twitterDescription", "twitter_description"), ("twitterImage", "twitter_image"),
    ("fbAppId", "fb_app_id"), ("verificationGoogle", "verification_google"),
    ("firstCrawledAt", "firstCrawledAt"), ("lastCrawledAt", "lastCrawledAt"),
    ("tagCount", "tag_count"), ("jsonldCount", "jsonld_count"),
    ("tagsProvidersCsv", "tags_providers_csv"), ("skipReason", "skipReason"),
)
_FLAGS = (("isExternal", "isExternal"), ("noindex", "robots_noindex"),
          ("nofollow", "robots_nofollow"), ("noarchive", "robots_noarchive"),
          ("noimageindex", "robots_noimageindex"), ("isSkipped", "isSkipped"))


def get_page_detail(
    archive: Archive | str, *, url: str, links_limit: int = LINKS_LIMIT_DEFAULT,
    link_score: bool = False,
) -> dict[str, Any] | None:
    """What does the archive know about this exact URL? None when it has no such row.

    The URL must match the stored string exactly (scheme, ``www.``, trailing slash all
    count: ``http://x`` and ``https://x`` are two rows with different data).

    Returns the page's status, headers and every meta field (camelCase), ``metaExtras``
    (the nested meta object), ``jsonLd {count, types, parseErrorCount}``,
    ``tags {count, providerIds}``, and three bounded link lists, each with its full count:

    - ``outboundLinks`` / ``outboundLinksTotal``: this page's anchors in document order,
      each with the *literal* target's status — a link to a redirecting URL shows the
      redirect's 3xx (an audit signal) with ``redirectsTo`` and ``finalStatus``, where
      the chain ends, and its ``redirectChain`` hop by hop; a link to a URL the crawl
      skipped has its ``skipReason``;
    - ``inboundLinks`` / ``inboundLinksTotal``: one entry per page linking here, resolved
      through redirects (a link to ``http://x`` that redirects here counts), ordered by
      referrer URL, with the text of its first such anchor;
    - ``redirectFrom`` / ``redirectFromTotal``: URLs that redirect to this page.

    For a redirect source, ``redirectChain`` is the chain hop by hop, ``[{url, status},
    …]`` ending at the final page (:func:`~nitpicker_query.queries.redirects.redirect_chain`),
    and ``redirectsTo`` that page's URL; both null otherwise. ``redirectPath`` follows
    pages that redirect by themselves too (a meta refresh, a ``Refresh`` header, a
    script's navigation in a rendered crawl): ``{kind, to, chain, finalUrl, finalStatus,
    loop}`` (:func:`~nitpicker_query.queries.redirects.redirect_path`), null when the URL
    redirects neither way.

    ``links_limit`` (1–1000, default 100) bounds each list; the counts are exact.
    ``link_score``: add ``linkScore`` — the page's ``{linkScore, pageRank, inlinks,
    outlinks, depth, callout}`` as ``list_link_score`` has it, null for a page without a
    score (the archive's scores computed on first use, then kept for the process).
    ``problems`` (at most 20) lists what went wrong with the URL: ``{phase, kind,
    message, createdAt}``, kinds as ``errorKindBreakdown``'s (``deadline``,
    ``body-too-large``, ``robots-unreachable``…).
    ``isDedupeCapped`` is true for a URL the soft cap refused, and ``dedupeCapShapeKey``
    then names the URL pattern of the cap it was refused under, ``dedupeCapEventId``
    that cap event's id (``list_dedupe_cap_events --event``).

    Upstream: ``get-page-detail.ts``; one inbound row per referring page as seed 001 §6
    says, and bounded lists (upstream returns them whole, which on a 300k-page site means
    hundreds of thousands of rows for the home page).
    """
    links_limit = check_int("links_limit", links_limit, minimum=1, maximum=1000)
    with opened(archive) as a:
        row = a.execute("SELECT * FROM pages WHERE url = ? LIMIT 1", (url,)).fetchone()
        if row is None:
            return None
        keys = row.keys()
        result: dict[str, Any] = {k: (row[c] if c in keys else None) for k, c in _SCALARS}
        for key, column in _FLAGS:
            result[key] = as_bool(row[column]) if column in keys else False
        result["formatDetectionTelephone"] = tri_bool(row["formatDetection_telephone"])
        result["isDedupeCapped"] = (row["skipReason"] if "skipReason" in keys else None) == (
            "dedupe-cap"
        )
        event_id, event_shape = (_credited_event(a, url, row["meta_extras"])
                                 if result["isDedupeCapped"] else (None, None))
        result["dedupeCapShapeKey"] = event_shape
        result["dedupeCapEventId"] = event_id
        result["metaExtras"] = json_object(row["meta_extras"])
        result["responseHeaders"] = json_object(row["responseHeaders"])
        page_id = row["id"]
        result["jsonLd"] = _jsonld(a, page_id)
        result["tags"] = _tags(a, page_id)
        result.update(_outbound(a, page_id, links_limit))
        result.update(_inbound(a, page_id, links_limit))
        redirect_from = a.execute(
            "SELECT url FROM pages WHERE redirectDestId = ? ORDER BY url LIMIT ?",
            (page_id, links_limit),
        ).fetchall()
        result["redirectFrom"] = [r["url"] for r in redirect_from]
        result["redirectFromTotal"] = a.execute(
            "SELECT count(*) FROM pages WHERE redirectDestId = ?", (page_id,)
        ).fetchone()[0]
        result["problems"] = _problems(a, page_id, url)
        chain = redirect_chain(a, url)
        result["redirectChain"] = chain
        result["redirectsTo"] = chain[-1]["url"] if chain else None
        result["redirectPath"] = redirect_path(a, url)
        if as_bool(link_score):
            result["linkScore"] = scores_of(link_scores(a), [int(page_id)])[0]
    return result


PROBLEMS_LIMIT = 20


def _problems(a: Archive, page_id: int, url: str) -> list[dict[str, Any]]:
    """What went wrong with this URL, oldest first: its ``page_errors`` rows (a limit the
    crawl reached — ``deadline``, ``body-too-large``, links left out, a navigation
    refused) and, for a failure, its ``crawl_errors`` rows; each with the kind derived
    from the message (:func:`~nitpicker_query.format.error_kinds.classify_error_kind`)."""
    found: list[tuple[Any, str, Any]] = []
    if a.has_table("page_errors"):
        found += [(r["createdAt"], r["phase"], r["message"]) for r in a.execute(
            "SELECT phase, message, createdAt FROM page_errors WHERE pageId = ? "
            "ORDER BY createdAt, id LIMIT ?", (page_id, PROBLEMS_LIMIT))]
    if a.has_table("crawl_errors"):
        found += [(r["createdAt"], "crawl", r["message"]) for r in a.execute(
            "SELECT message, createdAt FROM crawl_errors WHERE url = ? "
            "ORDER BY createdAt, id LIMIT ?", (url, PROBLEMS_LIMIT))]
    found.sort(key=lambda f: f[0] if isinstance(f[0], int) else 0)
    return [{"phase": str(phase), "kind": classify_error_kind(str(message)),
             "message": str(message), "createdAt": at if isinstance(at, int) else None}
            for at, phase, message in found[:PROBLEMS_LIMIT]]


def _credited_event(a: Archive, url: str, extras: Any = None
                    ) -> tuple[int | None, str | None]:
    """The id and shape key of the cap event a refused URL is credited to: the event the crawler
    recorded on the skipped row (``meta_extras.capEvent``), else — archives of older
    versions — the lowest id whose cluster has the URL's shape, or for a URL refused as a
    *variant* of a capped shape (same host and path, other query keys), the lowest event
    with a shape on that path."""
    if not a.has_table("dedupe_cap_events"):
        return None, None
    recorded = json_object(extras).get("capEvent") if extras is not None else None
    if isinstance(recorded, int) and not isinstance(recorded, bool):
        found = a.execute("SELECT shape_key FROM dedupe_cap_events WHERE id = ?",
                          (recorded,)).fetchone()
        if found is not None:
            return recorded, str(found[0])
    shape = shape_key(url)
    row = a.execute("SELECT id, shape_key FROM dedupe_cap_events WHERE shape_key = ? "
                    "ORDER BY id LIMIT 1", (shape,)).fetchone()
    if row is None and a.has_table("page_signatures") and (
            "signature" in a.columns("dedupe_cap_events")):
        row = a.execute(
            "SELECT e.id, e.shape_key FROM dedupe_cap_events e WHERE EXISTS (SELECT 1 FROM "
            "page_signatures ps WHERE ps.shape_key = ? AND (ps.signature = e.signature OR "
            "ps.shape_signature = e.signature)) ORDER BY e.id LIMIT 1", (shape,)).fetchone()
    if row is not None:
        return int(row[0]), str(row[1])
    if "signals" not in a.columns("dedupe_cap_events"):
        return None, None
    path = split_shape(shape)[0]
    for event_id, event_shape, signals in a.execute(
            "SELECT id, shape_key, signals FROM dedupe_cap_events ORDER BY id").fetchall():
        shapes = json_object(signals).get("shapes") or [event_shape]
        if any(isinstance(s, str) and split_shape(s)[0] == path for s in shapes):
            return int(event_id), str(event_shape)
    return None, None


def _jsonld(a: Archive, page_id: int) -> dict[str, Any]:
    if not a.has_table("page_jsonld"):
        return {"count": 0, "types": [], "parseErrorCount": 0}
    rows = a.execute("SELECT type, parseError FROM page_jsonld WHERE pageId = ?",
                     (page_id,)).fetchall()
    types = sorted({r["type"] if r["type"] is not None else "(unknown)" for r in rows})
    errors = sum(1 for r in rows if r["parseError"])
    return {"count": len(rows), "types": types, "parseErrorCount": errors}


def _tags(a: Archive, page_id: int) -> dict[str, Any]:
    if not a.has_table("page_tags"):
        return {"count": 0, "providerIds": {}}
    rows = a.execute("SELECT provider, externalId FROM page_tags WHERE pageId = ?",
                     (page_id,)).fetchall()
    providers: dict[str, set[str]] = {}
    for r in rows:
        ids = providers.setdefault(r["provider"], set())
        if r["externalId"] is not None:
            ids.add(r["externalId"])
    return {
        "count": len(rows),
        "providerIds": {p: sorted(providers[p]) for p in sorted(providers)},
    }


def _outbound(a: Archive, page_id: int, limit: int) -> dict[str, Any]:
    names = ("url", "status", "isExternal", "skipReason")
    rows = a.rows(
        f"SELECT an.textContent, {a.select_list('pages', 't', names)}, "
        f"{redirect_target('t', 'url')}, {redirect_target('t', 'status')} "
        "FROM anchors an JOIN pages t ON t.id = an.hrefId WHERE an.pageId = ? "
        "ORDER BY an.id LIMIT ?", (page_id, limit))
    total = a.count("SELECT count(*) FROM anchors WHERE pageId = ?", (page_id,))
    links = []
    chains: dict[str, Any] = {}  # a header and a footer link to one redirect: walked once
    for text, url, status, external, skip, final_url, final_status in rows:
        link: dict[str, Any] = {"url": url, "textContent": text, "status": status,
                                "isExternal": as_bool(external)}
        if skip:
            link["skipReason"] = skip
        if final_url is not None:
            link["redirectsTo"] = final_url
            link["finalStatus"] = final_status
            if url not in chains:
                chains[url] = redirect_chain(a, url)
            link["redirectChain"] = chains[url]
        links.append(link)
    return {"outboundLinks": links, "outboundLinksTotal": total}


_INBOUND_ANCHORS = (  # GROUP BY +pageId: found through the target index, then grouped
    # (without the +, a planner with no statistics may walk every anchor in page order
    # to save the sort: 440 ms instead of 2 ms at 300,000 pages in format 0.13)
    "SELECT pageId, min(id) AS anchorId FROM anchors WHERE hrefId IN "
    "(SELECT ? UNION ALL SELECT id FROM pages WHERE redirectDestId = ?) GROUP BY +pageId"
)


def inbound_links(a: Archive, page_id: int, limit: int, offset: int = 0
                  ) -> tuple[list[dict[str, Any]], int]:
    """The pages linking to ``page_id`` (redirect sources resolved, one per referring
    page, by URL) from ``offset``, at most ``limit``; and how many there are in all.
    Shared by ``get_page_detail`` and ``list_inbound_links``: one definition."""
    rows = a.execute(
        # the first anchor's text found through the referring page's anchors, not by
        # anchor id alone: a format-0.13 anchor id is computed (format013.py), so only
        # the page narrows it down to a few rows there
        "SELECT s.url, (SELECT an.textContent FROM anchors an WHERE an.pageId = m.pageId "
        f"AND an.id = m.anchorId) AS textContent FROM ({_INBOUND_ANCHORS}) m "
        "JOIN pages s ON s.id = m.pageId ORDER BY s.url LIMIT ? OFFSET ?",
        (page_id, page_id, limit, offset),
    ).fetchall() if limit else []
    total = a.execute(
        f"SELECT count(*) FROM ({_INBOUND_ANCHORS})", (page_id, page_id)
    ).fetchone()[0]
    return [{"url": r["url"], "textContent": r["textContent"]} for r in rows], total


def _inbound(a: Archive, page_id: int, limit: int) -> dict[str, Any]:
    items, total = inbound_links(a, page_id, limit)
    return {"inboundLinks": items, "inboundLinksTotal": total}
