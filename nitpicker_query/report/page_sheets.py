"""The report's sheets about pages and links: Page List, Links and the Referrers
Relational Table (upstream's ``create-page-list``, ``create-links`` and
``create-referrers-relational-table``).

Every sheet streams one SQL statement; each per-page number is a correlated sub-select
by index, so memory stays that of one row whatever the archive's size. Which pages are
"pages", which links are "bad" and how redirects count are the project's definitions
(``nitpicker_query.format.v010``), written here in SQL once.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any
from urllib.parse import unquote, urlsplit

from ..archive.opening import Archive
from ..format.v010 import loose_page, redirect_target
from ..queries.main_contents import main_content_table
from ..queries.totals import externals_checked
from .table import STATUS_ALERTS, Alert, Column, Table

MAX_PATH_COLUMNS = 10

BAD_STATUS = "(s IS NULL OR s <= 0 OR (s >= 400 AND s <> 401))"
"""A link is bad when its destination (through redirects) answered no status, failed
(-1), or answered 400 or more — except 401, a page behind a login (upstream's rule). A
link to a URL the crawl did not fetch — skipped (out of scope, robots.txt), still queued
when a crawl stopped early, an external link of a ``--no-fetch-external`` crawl — is not
bad: nothing is known of it (:data:`_LINKS` asks for a fetched destination)."""

_SITE_SEPARATORS = " |｜-–—:・"


def page_depth(url: str) -> int:
    """How deep a page is in the site: 0 for the root, else its path segments, an index
    page (a path ending in ``/`` or ``index.*``) one less — so ``/a/`` and ``/a/b.html``
    are children of ``/``, and ``/a/b/`` sits with ``/a/c.html``."""
    path = urlsplit(url).path
    parts = [p for p in path.split("/") if p]
    if not parts:
        return 0
    index = path.endswith("/") or parts[-1].split(".")[0].lower() == "index"
    return max(len(parts) - (1 if index else 0), 0)


def path_columns(url: str) -> list[str | None]:
    """``path1`` … ``path10``: each path segment as ``/`` + the decoded segment, the
    query string added to the last one; absent segments empty."""
    parts = urlsplit(url)
    segments = ["/" + unquote(s) for s in parts.path.split("/")[1:]] or ["/"]
    if parts.query:
        segments[-1] += "?" + parts.query
    cells: list[str | None] = list(segments[:MAX_PATH_COLUMNS])
    return cells + [None] * (MAX_PATH_COLUMNS - len(cells))


def short_title(title: str | None, site: str | None) -> str | None:
    """The title without the site's name (``About us | Harbour`` → ``About us``): the
    site's name removed once, then separators trimmed from both ends; the whole title
    when nothing is left. The site's name is the page's ``og:site_name``, else the home
    page's title. (Upstream strips each directory's index-page title instead, which needs
    every directory's title in memory; this keeps one.)"""
    if not title:
        return title
    if not site or site not in title or site == title:
        return title
    rest = title.replace(site, "", 1).strip(_SITE_SEPARATORS)
    return rest or title


def _flag(value: Any) -> bool | None:
    return None if value is None else bool(value)


PAGE_COLUMNS: tuple[Column, ...] = (
    Column("Title", "title", 40), Column("Full Title", width=40), Column("URL", "url", 50),
    Column("Protocol", width=9, alerts=(Alert("==", "http:"),)), Column("Domain", width=20),
    *(Column(f"path{n}", width=16) for n in range(1, MAX_PATH_COLUMNS + 1)),
    Column("Status Code", "int", 8, STATUS_ALERTS), Column("Redirect From", "int", 9),
    Column("Language", width=9, alerts=(Alert("==", "N/A"),)), Column("charset", width=9),
    Column("Internal Links", "int", 9), Column("Internal Bad Links", "int", 9,
                                               (Alert("!=", 0),)),
    Column("External Links", "int", 9), Column("External Bad Links", "int", 9,
                                               (Alert("!=", 0),)),
    Column("Internal Referrers", "int", 9, (Alert("<", 2),)),
    Column("description", width=40), Column("keywords", width=20),
    Column("noindex", "bool", 8), Column("nofollow", "bool", 8),
    Column("noarchive", "bool", 8), Column("robots:raw", width=16),
    Column("canonical", "url", 40), Column("manifest", width=20),
    Column("theme-color", width=10), Column("twitter:card", width=12),
    Column("twitter:site", width=14), Column("twitter:creator", width=14),
    Column("og:site_name", width=16), Column("og:url", "url", 40),
    Column("og:title", width=30), Column("og:description", width=40),
    Column("og:type", width=10), Column("og:image", "url", 30),
    Column("og:image:alt", width=20), Column("og:locale", width=10),
    Column("og:article:published_time", width=20), Column("jsonld_count", "int", 8),
    Column("tags_providers", width=20),
)
"""Upstream's Page List columns (its 0.10-era list) in its order."""

_PAGE_FIELDS = ("description", "keywords", "robots_noindex", "robots_nofollow",
                "robots_noarchive", "robots_raw", "canonical", "manifest", "themeColor",
                "twitter_card", "twitter_site", "twitter_creator", "og_site_name", "og_url",
                "og_title", "og_description", "og_type", "og_image", "og_image_alt",
                "og_locale", "og_article_published_time", "jsonld_count",
                "tags_providers_csv")
_FLAGS = {"robots_noindex", "robots_nofollow", "robots_noarchive"}

MAIN_CONTENT_REPORTED = ("selector", "word_count", "body_word_count", "heading_count",
                         "image_count", "table_count", "button_count", "iframe_count",
                         "video_count", "audio_count", "canvas_count",
                         "custom_element_count")
"""The ``main_content_*`` columns upstream's newest Page List adds, when recorded."""

_LINKS = (
    "(SELECT coalesce(sum(ext = 0), 0) || ',' || coalesce(sum(ext = 0 AND {bad}), 0) || ',' "
    "|| coalesce(sum(ext = 1), 0) || ',' || coalesce(sum(ext = 1 AND {bad}), 0) FROM "
    "(SELECT t.isExternal AS ext, t.isSkipped AS skipped, t.scraped AS fetched, "
    "coalesce({final}, t.status) AS s "
    "FROM anchors x JOIN pages t ON t.id = x.hrefId WHERE x.pageId = p.id))"
).format(bad=f"(coalesce(skipped, 0) = 0 AND fetched = 1 AND {BAD_STATUS})",
         final=redirect_target("t", "status"))
"""Internal links, internal bad, external, external bad — one pass over a page's anchors."""

_REFERRERS = (
    "(SELECT count(*) FROM (SELECT x.pageId FROM anchors x WHERE x.hrefId = p.id AND "
    "x.pageId <> p.id UNION SELECT x.pageId FROM pages r JOIN anchors x ON x.hrefId = r.id "
    "WHERE r.redirectDestId = p.id AND x.pageId <> p.id))"
)
"""Other pages linking to this one, directly or through a redirect."""

_REDIRECTS_IN = "(SELECT count(*) FROM pages r WHERE r.redirectDestId = p.id)"


def _home_title(a: Archive) -> str | None:
    base = a.base_url
    row = a.execute("SELECT title FROM pages WHERE url = ?", (base,)).fetchone() if base \
        else None
    return row[0] if row is not None and row[0] else None


def page_list(a: Archive) -> Table:
    """Upstream's Page List: the site's own HTML pages (and those of unknown type — a
    failed fetch stays visible), not redirect sources or skipped URLs, in natural URL
    order; with the main-content columns when the crawl recorded them."""
    where = f"{loose_page('p')} AND p.isExternal = 0 AND coalesce(p.isSkipped, 0) = 0"
    fields = a.select_list("pages", "p", _PAGE_FIELDS)
    main = main_content_table(a)
    main_sql = ""
    columns = list(PAGE_COLUMNS)
    if main is not None:
        main_sql = ", " + ", ".join(
            f"(SELECT m.main_content_{n} FROM {main} m WHERE m.page_id = p.id)"
            for n in MAIN_CONTENT_REPORTED)
        columns += [Column(f"main_content_{n}", "text" if n == "selector" else "int",
                           20 if n == "selector" else 10) for n in MAIN_CONTENT_REPORTED]
    total = a.count(f"SELECT count(*) FROM pages p WHERE {where}")
    cursor = a.stream(
        f"SELECT p.url, p.title, p.status, p.lang, p.charset, {_REDIRECTS_IN}, {_LINKS}, "
        f"{_REFERRERS}, {fields}{main_sql} FROM pages p WHERE {where} "
        "ORDER BY np_natural(p.url), p.id")
    home = _home_title(a)
    return Table("Page List", columns, total, _page_rows(cursor, home), freeze_columns=1)


def _page_rows(cursor: Any, home: str | None) -> Iterator[Sequence[Any]]:
    width = len(_PAGE_FIELDS)
    for row in cursor:
        url, title, status, lang, charset, redirects, links, referrers = tuple(row)[:8]
        rest = tuple(row)[8:]
        fields = dict(zip(_PAGE_FIELDS, rest[:width], strict=True))
        parts = urlsplit(url)
        counts = [int(n) for n in str(links).split(",")] if links else [0, 0, 0, 0]
        site = fields["og_site_name"] or home
        yield (
            (page_depth(url), short_title(title, site)), title, url,
            f"{parts.scheme}:", parts.hostname, *path_columns(url),
            -1 if status is None else status, redirects, lang or "N/A", charset,
            *counts, referrers,
            *(_flag(fields[k]) if k in _FLAGS else fields[k] for k in _PAGE_FIELDS),
            *rest[width:],
        )


LINK_COLUMNS = (
    Column("URL", "url", 50), Column("Page Title", width=30),
    Column("Status Code", "int", 8, STATUS_ALERTS), Column("Status Text", width=14),
    Column("Content Type", width=16), Column("Redirect From", "int", 9),
    Column("Referrers", width=12), Column("Headers", width=30), Column("Remarks", width=20),
)

MAX_HEADERS_TEXT = 32_000
"""Characters of one URL's response headers written (a spreadsheet cell holds 32,767)."""


def links(a: Archive) -> Table:
    """Upstream's Links: every URL the crawl knows — pages, files, external URLs,
    redirect sources, skipped URLs — in the order found. Referrers: ``N Elements``, the
    links pointing at the URL itself; Remarks: why it was skipped, or that it was never
    fetched (the crawl stopped first: these are the summary's ``queuedUrls``) or, on a
    ``--no-fetch-external`` crawl, that an external link was not checked — so the sheet
    has ``urls`` + ``queuedUrls`` rows, plus those external links."""
    total = a.count("SELECT count(*) FROM pages")
    checked = externals_checked(a)
    cursor = a.stream(
        "SELECT p.url, p.title, p.status, p.statusText, p.contentType, "
        f"{_REDIRECTS_IN}, (SELECT count(*) FROM anchors x WHERE x.hrefId = p.id), "
        "p.responseHeaders, p.isSkipped, p.skipReason, p.scraped, p.isExternal FROM pages p "
        "ORDER BY p.id")
    return Table("Links", LINK_COLUMNS, total, _link_rows(cursor, checked), freeze_columns=1)


def _headers_text(raw: Any) -> str | None:
    if raw is None or raw == "":
        return None
    try:
        text = json.dumps(json.loads(raw), ensure_ascii=False, indent=2)
    except (TypeError, ValueError):
        text = str(raw)
    return text[:MAX_HEADERS_TEXT]


NEVER_FETCHED = "never fetched (the crawl stopped first; --resume fetches it)"
NOT_CHECKED = "not checked (the crawl ran with --no-fetch-external)"


def _link_rows(cursor: Any, checked: bool) -> Iterator[Sequence[Any]]:
    for (url, title, status, text, ctype, redirects, referrers, headers, skipped,
         reason, scraped, external) in cursor:
        remark = ((reason or "skipped") if skipped else None if scraped else
                  NOT_CHECKED if external and not checked else NEVER_FETCHED)
        yield (url, title or "-", -1 if status is None else status, text or "", ctype or "",
               redirects, f"{referrers} Elements", _headers_text(headers), remark)


REFERRER_COLUMNS = (
    Column("Link (To)", "url", 50), Column("Referrer (From)", "url", 50),
    Column("Referrer Content", width=30), Column("Count", "int", 7),
    Column("Link Status Code", "int", 8, STATUS_ALERTS), Column("Link Status Text", width=14),
    Column("Link Content Type", width=16),
)


def referrers_table(a: Archive) -> Table:
    """Upstream's Referrers Relational Table: one row per (destination, referring page)
    pair — the destination resolved through redirects — with the first link's text and
    how many links the pair stands for; by destination, then referrer, in the order the
    crawl found them."""
    pairs = ("SELECT coalesce(t.redirectDestId, t.id) AS dest, x.pageId AS src, "
             "min(x.id) AS first, x.textContent AS text, count(*) AS n FROM anchors x "
             "JOIN pages t ON t.id = x.hrefId GROUP BY dest, src")
    links = a.count("SELECT count(*) FROM anchors x JOIN pages t ON t.id = x.hrefId")
    cursor = a.stream(
        "SELECT d.url, s.url, e.text, e.n, d.status, d.statusText, d.contentType "
        f"FROM ({pairs}) e JOIN pages d ON d.id = e.dest JOIN pages s ON s.id = e.src "
        "ORDER BY e.dest, e.src")
    rows = ((to, frm, text or "__NO_TEXT_CONTENT__", n, -1 if status is None else status,
             stext or "", ctype or "") for to, frm, text, n, status, stext, ctype in cursor)
    return Table("Referrers Relational Table", REFERRER_COLUMNS, links, rows,
                 freeze_columns=1, unit="links", weight=lambda row: int(row[3]))
