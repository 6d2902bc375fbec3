"""``list_pages``: the pages of a crawl, filtered, sorted and paged."""

from __future__ import annotations

from typing import Any

from ..archive.opening import Archive, opened
from ..exceptions import InvalidArgument
from ..format.content_types import CATEGORIES, category_sql
from ..format.v010 import NOT_SKIPPED, indexable_page, loose_page
from ..keys.folding import fold
from ._common import as_bool, like_literal
from .check_headers import HEADERS, flag, header_flag
from .link_score import link_scores, order_by_score, scores_of
from .paging import check_choice, check_int, check_paging, envelope
from .redirects import CLIENT_REDIRECT_SQL, redirect_path

SORT_COLUMNS = {"url": "url", "status": "status", "title": "title", "linkScore": "url"}
"""Sort keys → column; ``linkScore`` is sorted by the link scores (URL order for ties)."""
META_FIELDS = {"title": "title", "description": "description", "keywords": "keywords",
               "ogTitle": "og_title", "ogDescription": "og_description",
               "ogImage": "og_image"}
"""Meta fields ``missing`` takes (item key → column): those of ``metadataFulfillment``."""
SKIPPED = ("exclude", "include", "only")
"""What ``list_pages`` does with URLs the crawl skipped (robots.txt, excludes, the soft
cap, nofollow): left out by default, as upstream's list counts fetched pages only, so
its ``total`` equals ``get_summary``'s ``totalPages``."""

_FIELDS: tuple[tuple[str, str], ...] = (
    ("url", "url"), ("title", "title"), ("status", "status"), ("contentType", "contentType"),
    ("isExternal", "isExternal"), ("hasDescription", "description"),
    ("hasOgTitle", "og_title"), ("noindex", "robots_noindex"),
    ("description", "description"), ("keywords", "keywords"), ("lang", "lang"),
    ("nofollow", "robots_nofollow"), ("noarchive", "robots_noarchive"),
    ("robotsRaw", "robots_raw"), ("canonical", "canonical"), ("ogType", "og_type"),
    ("ogTitle", "og_title"), ("ogSiteName", "og_site_name"),
    ("ogDescription", "og_description"), ("ogUrl", "og_url"), ("ogImage", "og_image"),
    ("ogImageAlt", "og_image_alt"), ("ogLocale", "og_locale"),
    ("ogArticlePublishedTime", "og_article_published_time"),
    ("twitterCard", "twitter_card"), ("twitterSite", "twitter_site"),
    ("twitterCreator", "twitter_creator"), ("twitterImage", "twitter_image"),
    ("charset", "charset"), ("themeColor", "themeColor"), ("manifest", "manifest"),
    ("tagCount", "tag_count"), ("jsonldCount", "jsonld_count"),
    ("tagsProvidersCsv", "tags_providers_csv"), ("firstCrawledAt", "firstCrawledAt"),
    ("lastCrawledAt", "lastCrawledAt"), ("skipReason", "skipReason"),
)
"""Item key → ``pages`` column, in item order (upstream ``mapPageRowToListItem``)."""

_KEYS = tuple(k for k, _ in _FIELDS)
_COLUMNS = tuple(c for _, c in _FIELDS)
ITEM_COLUMNS = _COLUMNS
"""The ``pages`` columns :func:`page_item` takes, in order (other page lists select them)."""
_BOOLEANS = ("isExternal", "noindex", "nofollow", "noarchive", "hasDescription", "hasOgTitle")


def page_item(row: tuple[Any, ...]) -> dict[str, Any]:
    """One row selected with the columns of ``_FIELDS`` as a list item.

    ``bool()`` is the right conversion for every flag here: boolean and integer columns
    have NUMERIC affinity, so SQLite hands back 0/1/NULL integers, and a description or
    og:title is "present" when it is a non-empty string. (This is the hot loop of the
    most used query, hence no helper call per field.)
    """
    item = dict(zip(_KEYS, row, strict=True))
    for key in _BOOLEANS:
        item[key] = bool(item[key])
    return item


def list_pages(
    archive: Archive | str,
    *,
    status: int | None = None,
    status_min: int | None = None,
    status_max: int | None = None,
    is_external: bool | None = None,
    missing_title: bool = False,
    missing_description: bool = False,
    missing: str | None = None,
    noindex: bool = False,
    indexable: bool | None = None,
    redirects: bool = False,
    url_pattern: str | None = None,
    directory: str | None = None,
    search: str | None = None,
    content_type_category: str | None = None,
    skipped: str = "exclude",
    skip_reason: str | None = None,
    cap_event: int | None = None,
    security_headers: bool = False,
    link_score: bool = False,
    sort_by: str = "url",
    sort_order: str = "asc",
    limit: int = 100,
    offset: int = 0,
) -> dict[str, Any]:
    """Which pages match these filters? One item per page, paged.

    A page is a scraped row that is not a redirect source and is HTML or of unknown type
    (the loose predicate; broken pages with status -1 stay visible). URLs the crawl
    skipped are left out unless ``skipped`` is ``include`` or ``only``; they have a null
    status and a ``skipReason``. ``content_type_category`` (one of the 18 categories) replaces
    the HTML part of that predicate, so PDFs or images can be listed too.

    Args:
        status / status_min / status_max: HTTP status equal / at least / at most.
        is_external: True only external, False only internal, None both.
        missing_title / missing_description: title/description NULL or empty.
        missing: only pages without this meta field (NULL or empty), one of the fields
            ``get_summary``'s ``metadataFulfillment`` measures (``keywords``, ``ogImage``…):
            the pages behind a share below 100 %.
        noindex: only pages whose robots meta says noindex.
        indexable: True only the pages search engines would index (2xx, not noindex,
            canonical absent or self: the population ``get_summary``'s metadata shares
            and ``find_duplicates`` count by default), False only the others, None both.
        redirects: only URLs that redirect — an HTTP 3xx, or a page that sends the browser
            on by itself (meta refresh, ``Refresh`` header, a script's navigation in a
            rendered crawl: :mod:`nitpicker_query.queries.redirects`) —, each with
            ``redirectKind``, ``redirectTo`` (its next hop), ``redirectChain`` (every hop
            to where a browser ends), ``finalUrl``, ``finalStatus`` and ``redirectLoop``.
            Without it, a status filter that matches 3xx lists the HTTP redirects too
            (``status=301``); other lists keep to the pages they lead to.
        url_pattern: SQL LIKE pattern on the URL, used as given (``%/news/%``).
        directory: a path prefix (``/news`` → the URLs whose path starts ``/news/``, not
            ``/en/news/…``), or a URL prefix when it starts with ``http``; a trailing ``/``
            is added.
        search: a substring of the URL (ASCII letters in either case) or of the title,
            taken literally, with case and accents folded: ``Ecoute`` finds "Écoute" (what
            a person types in a search box; :mod:`nitpicker_query.keys.folding`).
        skipped: ``exclude`` (default: fetched pages only, the total of
            ``get_summary``'s ``totalPages``), ``include`` or ``only``.
        skip_reason: only skipped URLs with this exact reason (``dedupe-cap``,
            ``nofollow``, ``robots.txt``, ``excluded`` …); implies ``skipped="only"``. A
            reason no URL of the archive was skipped for is an error that lists the
            archive's reasons (a typo must not read as "nothing skipped").
        security_headers: add ``hasCSP``, ``hasXFrameOptions``, ``hasXContentTypeOptions``
            and ``hasHSTS`` to each item (as ``check_headers``; computed for the page only;
            null for a URL with no response headers stored: skipped or never fetched).
        cap_event: only the URLs the soft cap refused under this ``dedupe_cap_events``
            id (``meta_extras.capEvent``, written since the viewer's issue; archives
            crawled before have none).
        link_score: add ``linkScore`` to each item (0–100, as ``list_link_score``; null for
            a page without one: not a fetched 2xx page of the site, a redirect,
            canonicalised). The archive's scores are computed on first use (5 s at
            300,000 pages) and kept for the process.
        sort_by: ``url`` | ``status`` | ``title`` | ``linkScore`` (ties broken by URL; pages
            without a score last); sort_order asc|desc.
        limit, offset: paging (limit 1–1000).

    Returns:
        ``{items, total, limit, offset, nextOffset}``; items have ``url, title, status,
        contentType, isExternal, hasDescription, hasOgTitle, noindex`` and the other meta
        fields of upstream's list item.

    Upstream: ``packages/@nitpicker/query/src/list-pages.ts``; ``directory`` matches
    literally here (``%`` and ``_`` in it are not wildcards), and as a prefix of the path,
    where upstream matches it anywhere in the URL (``/en/`` found ``/manual/en/``).
    """
    limit, offset = check_paging(limit, offset)
    check_choice("sort_by", sort_by, SORT_COLUMNS)
    check_choice("sort_order", sort_order, ("asc", "desc"))
    check_choice("skipped", skipped, SKIPPED)
    where = ["p.scraped = 1", "p.redirectDestId IS NULL"]
    params: list[Any] = []
    redirects = as_bool(redirects)
    if redirects:
        where = ["p.scraped = 1", f"(p.redirectDestId IS NOT NULL OR "
                 f"{CLIENT_REDIRECT_SQL.format(a='p')})"]
    elif content_type_category is not None:
        check_choice("content_type_category", content_type_category, CATEGORIES)
        sql, cat_params = category_sql(content_type_category, "p.contentType")
        where.append(sql)
        params.extend(cat_params)
    else:
        url_order = sort_by == "url" and status is None and status_min is None and (
            status_max is None)
        where = [loose_page("p", url_order=url_order)]
        if _may_be_3xx(status, status_min, status_max):
            # an HTTP redirect's own row (ours keep the hop's status): asked by status
            where = [f"({where[0]} OR (p.scraped = 1 AND p.redirectDestId IS NOT NULL "
                     "AND p.status BETWEEN 300 AND 399))"]
    if cap_event is not None:
        check_int("cap_event", cap_event)
        skipped = "only"
        where.append("p.skipReason = 'dedupe-cap' AND json_valid(p.meta_extras) AND "
                     "json_extract(p.meta_extras, '$.capEvent') = ?")
        params.append(cap_event)
    if skip_reason is not None:
        skipped = "only"
        where.append("p.skipReason = ?")
        params.append(skip_reason)
    if skipped == "exclude":
        where.append(NOT_SKIPPED.replace("isSkipped", "p.isSkipped"))
    elif skipped == "only":
        where.append("p.isSkipped = 1")
    if is_external is True:
        where.append("p.isExternal = 1")
    elif is_external is False:
        # a row whose isExternal is unset (a redirect's middle hop, as archives written
        # before 2026-12 left it) is shown as false, so it is listed as false
        where.append("(p.isExternal = 0 OR p.isExternal IS NULL)")
    if status_min is not None and status_max is not None and status_min > status_max:
        raise InvalidArgument(f"status_min {status_min} is above status_max {status_max}: "
                              "no status can match")
    for name, value, op in (("status", status, "="), ("status_min", status_min, ">="),
                            ("status_max", status_max, "<=")):
        if value is not None:
            check_int(name, value)
            where.append(f"p.status {op} ?")
            params.append(value)
    if missing_title:
        where.append("(p.title IS NULL OR p.title = '')")
    if missing_description:
        where.append("(p.description IS NULL OR p.description = '')")
    if missing is not None:
        check_choice("missing", missing, META_FIELDS)
        where.append(f"(p.{META_FIELDS[missing]} IS NULL OR p.{META_FIELDS[missing]} = '')")
    if noindex:
        where.append("p.robots_noindex = 1")
    if indexable is not None:
        where.append(("" if as_bool(indexable) else "NOT ") + f"({indexable_page('p')})")
    if url_pattern is not None:
        where.append("p.url LIKE ?")
        params.append(url_pattern)
    if directory is not None:
        d = directory if directory.endswith("/") else directory + "/"
        if d.lower().startswith(("http://", "https://")):
            where.append("p.url LIKE ? ESCAPE '\\'")
        else:   # the path after the host: /en matches /en/…, not /manual/en/…
            d = d if d.startswith("/") else "/" + d
            where.append("substr(p.url, instr(substr(p.url, 9), '/') + 8) LIKE ? ESCAPE '\\'")
        params.append(like_literal(d) + "%")
    if search:
        # the URL as typed; the title folded (case, accents, full-width forms)
        where.append("(p.url LIKE ? ESCAPE '\\' OR instr(fold(p.title), ?) > 0)")
        params += ["%" + like_literal(search) + "%", fold(search)]
    clause = " AND ".join(where)
    order = "DESC" if sort_order == "desc" else "ASC"
    order_by = f"p.{SORT_COLUMNS[sort_by]} {order}"
    if sort_by != "url":
        order_by += ", p.url ASC"
    flags = ""
    if as_bool(security_headers):
        flags = "".join(f", {header_flag(key, h)} AS {key}" for key, h in HEADERS)
    scoring = as_bool(link_score) or sort_by == "linkScore"
    with opened(archive) as a:
        total = a.count(f"SELECT count(*) FROM pages p WHERE {clause}", params)
        if skip_reason is not None and total == 0:
            _check_reason(a, skip_reason)
        select = f"SELECT {a.select_list('pages', 'p', _COLUMNS)}{flags}, p.id FROM pages p"
        if sort_by == "linkScore":
            # every match's id in URL order, sorted by score in memory, then its page
            s = link_scores(a)
            ids = [int(r[0]) for r in a.rows(
                f"SELECT p.id FROM pages p WHERE {clause} ORDER BY p.url", params)]
            page = order_by_score(s, ids, order == "DESC")[offset:offset + limit]
            marks = ",".join("?" for _ in page)
            by_id = {r[-1]: r for r in a.rows(f"{select} WHERE p.id IN ({marks})", page)} \
                if page else {}
            rows = [by_id[i] for i in page]
        else:
            rows = a.rows(f"{select} WHERE {clause} ORDER BY {order_by} LIMIT ? OFFSET ?",
                          [*params, limit, offset])
        scores = scores_of(link_scores(a), [r[-1] for r in rows]) if scoring else []
        rows = [r[:-1] for r in rows]
        # each redirect's hops, on the same connection (the URL is the first column)
        paths = [redirect_path(a, r[0]) or {} for r in rows] if redirects else []
    width = len(rows[0]) - len(HEADERS) if rows and flags else None
    items = [page_item(r[:width]) for r in rows]
    for item, path in zip(items, paths, strict=False):
        item.update({"redirectKind": path.get("kind"), "redirectTo": path.get("to"),
                     "finalUrl": path.get("finalUrl"), "finalStatus": path.get("finalStatus"),
                     "redirectLoop": bool(path.get("loop")),
                     "redirectChain": path.get("chain", [])})
    if flags:
        for item, row in zip(items, rows, strict=True):
            item.update({key: flag(v) for (key, _), v in zip(HEADERS, row[width:],
                                                             strict=True)})
    for item, scored in zip(items, scores, strict=False):
        item["linkScore"] = scored["linkScore"] if scored else None
    return envelope(items, total, limit, offset)


def _may_be_3xx(status: int | None, low: int | None, high: int | None) -> bool:
    """Can a status filter match a 3xx status?"""
    if status is not None:
        return isinstance(status, int) and 300 <= status <= 399
    return (low is None or low <= 399) and (high is None or high >= 300) and (
        low is not None or high is not None)


def skip_reasons(a: Archive) -> dict[str, int]:
    """The reasons URLs of the archive were skipped for, with how many each."""
    return {str(r[0]): int(r[1]) for r in a.execute(
        "SELECT skipReason, count(*) FROM pages WHERE isSkipped = 1 AND skipReason IS NOT "
        "NULL GROUP BY skipReason ORDER BY count(*) DESC, skipReason")}


def _check_reason(a: Archive, reason: str) -> None:
    known = skip_reasons(a)
    if reason not in known:
        listed = ", ".join(f"{k!r} ({v})" for k, v in list(known.items())[:12]) or "none"
        raise InvalidArgument(f"No URL of this archive was skipped for {reason[:80]!r}; "
                              f"its skip reasons: {listed}")
