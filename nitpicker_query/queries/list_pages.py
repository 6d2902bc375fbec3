"""``list_pages``: the pages of a crawl, filtered, sorted and paged."""

from __future__ import annotations

from typing import Any

from ..archive import Archive, opened
from ..content_types import CATEGORIES, category_sql
from ..format import loose_page
from ..paging import check_choice, check_int, check_paging, envelope
from ._common import as_bool, like_literal

SORT_COLUMNS = {"url": "url", "status": "status", "title": "title"}

_ITEM_COLUMNS = (
    "url", "title", "status", "contentType", "isExternal", "description", "keywords", "lang",
    "robots_noindex", "robots_nofollow", "robots_noarchive", "robots_raw", "canonical",
    "og_type", "og_title", "og_site_name", "og_description", "og_url", "og_image",
    "og_image_alt", "og_locale", "og_article_published_time", "twitter_card", "twitter_site",
    "twitter_creator", "twitter_image", "charset", "themeColor", "manifest", "tag_count",
    "jsonld_count", "tags_providers_csv", "firstCrawledAt", "lastCrawledAt",
)


def page_item(row: Any) -> dict[str, Any]:
    """One ``pages`` row as a list item (upstream ``mapPageRowToListItem``)."""
    return {
        "url": row["url"],
        "title": row["title"],
        "status": row["status"],
        "contentType": row["contentType"],
        "isExternal": as_bool(row["isExternal"]),
        "hasDescription": bool(row["description"]),
        "hasOgTitle": bool(row["og_title"]),
        "noindex": as_bool(row["robots_noindex"]),
        "description": row["description"],
        "keywords": row["keywords"],
        "lang": row["lang"],
        "nofollow": as_bool(row["robots_nofollow"]),
        "noarchive": as_bool(row["robots_noarchive"]),
        "robotsRaw": row["robots_raw"],
        "canonical": row["canonical"],
        "ogType": row["og_type"],
        "ogTitle": row["og_title"],
        "ogSiteName": row["og_site_name"],
        "ogDescription": row["og_description"],
        "ogUrl": row["og_url"],
        "ogImage": row["og_image"],
        "ogImageAlt": row["og_image_alt"],
        "ogLocale": row["og_locale"],
        "ogArticlePublishedTime": row["og_article_published_time"],
        "twitterCard": row["twitter_card"],
        "twitterSite": row["twitter_site"],
        "twitterCreator": row["twitter_creator"],
        "twitterImage": row["twitter_image"],
        "charset": row["charset"],
        "themeColor": row["themeColor"],
        "manifest": row["manifest"],
        "tagCount": row["tag_count"],
        "jsonldCount": row["jsonld_count"],
        "tagsProvidersCsv": row["tags_providers_csv"],
        "firstCrawledAt": row["firstCrawledAt"],
        "lastCrawledAt": row["lastCrawledAt"],
    }


def list_pages(
    archive: Archive | str,
    *,
    status: int | None = None,
    status_min: int | None = None,
    status_max: int | None = None,
    is_external: bool | None = None,
    missing_title: bool = False,
    missing_description: bool = False,
    noindex: bool = False,
    url_pattern: str | None = None,
    directory: str | None = None,
    content_type_category: str | None = None,
    sort_by: str = "url",
    sort_order: str = "asc",
    limit: int = 100,
    offset: int = 0,
) -> dict[str, Any]:
    """Which pages match these filters? One item per page, paged.

    A page is a scraped row that is not a redirect source and is HTML or of unknown type
    (the loose predicate; broken pages with status -1 stay visible, skipped URLs appear
    with a null status). ``content_type_category`` (one of the 18 categories) replaces
    the HTML part of that predicate, so PDFs or images can be listed too.

    Args:
        status / status_min / status_max: HTTP status equal / at least / at most.
        is_external: True only external, False only internal, None both.
        missing_title / missing_description: title/description NULL or empty.
        noindex: only pages whose robots meta says noindex.
        url_pattern: SQL LIKE pattern on the URL, used as given (``%/news/%``).
        directory: a substring of the URL; a trailing ``/`` is added (``/news`` → ``/news/``).
        sort_by: ``url`` | ``status`` | ``title`` (ties broken by URL); sort_order asc|desc.
        limit, offset: paging (limit 1–1000).

    Returns:
        ``{items, total, limit, offset, nextOffset}``; items have ``url, title, status,
        contentType, isExternal, hasDescription, hasOgTitle, noindex`` and the other meta
        fields of upstream's list item.

    Upstream: ``packages/@nitpicker/query/src/list-pages.ts``; ``directory`` matches
    literally here (``%`` and ``_`` in it are not wildcards).
    """
    limit, offset = check_paging(limit, offset)
    check_choice("sort_by", sort_by, SORT_COLUMNS)
    check_choice("sort_order", sort_order, ("asc", "desc"))
    where = ["p.scraped = 1", "p.redirectDestId IS NULL"]
    params: list[Any] = []
    if content_type_category is not None:
        check_choice("content_type_category", content_type_category, CATEGORIES)
        sql, cat_params = category_sql(content_type_category, "p.contentType")
        where.append(sql)
        params.extend(cat_params)
    else:
        where = [loose_page("p")]
    if is_external is not None:
        where.append("p.isExternal = ?")
        params.append(1 if is_external else 0)
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
    if noindex:
        where.append("p.robots_noindex = 1")
    if url_pattern is not None:
        where.append("p.url LIKE ?")
        params.append(url_pattern)
    if directory is not None:
        d = directory if directory.endswith("/") else directory + "/"
        where.append("p.url LIKE ? ESCAPE '\\'")
        params.append("%" + like_literal(d) + "%")
    clause = " AND ".join(where)
    order = "DESC" if sort_order == "desc" else "ASC"
    order_by = f"p.{SORT_COLUMNS[sort_by]} {order}"
    if sort_by != "url":
        order_by += ", p.url ASC"
    with opened(archive) as a:
        total = a.execute(f"SELECT count(*) FROM pages p WHERE {clause}", params).fetchone()[0]
        rows = a.execute(
            f"SELECT {a.select_list('pages', 'p', _ITEM_COLUMNS)} FROM pages p "
            f"WHERE {clause} ORDER BY {order_by} LIMIT ? OFFSET ?",
            [*params, limit, offset],
        ).fetchall()
    return envelope([page_item(r) for r in rows], total, limit, offset)
