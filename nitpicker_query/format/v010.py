"""The archive format, defined once: version rule, DDL, page predicates.

Everything that reads or writes a ``.nitpicker`` archive takes table names, columns,
indexes and the meaning of "a page" from here, so the writer (``nitpicker_crawl``) and
the readers can never disagree. The DDL reproduces how upstream's knex schema builder
renders format 0.10.0 (docs/archive-format.md): backtick-quoted identifiers, ``varchar(255)``
strings, table-level foreign keys, ``<table>_<col>_unique`` / ``_index`` names. Tables
upstream created with raw SQL keep their literal upper-case text.

Three tables are ours and optional for readers (docs/archive-format.md):
``dedupe_cap_events`` (the soft cap's audit log), ``page_signatures`` (each page's
meta signature as computed at crawl time) and ``crawl_runs`` (each run's options and
how it stopped).
"""

from __future__ import annotations

import shlex
from pathlib import PurePath

from ..exceptions import UnsupportedFormat

FORMAT_VERSION = "0.10.0"
"""The format version our writer stores in ``info.version``."""

SUPPORTED_FAMILY = "0.10.x or 0.13.x"
_OLDEST = (0, 10, 0)
FIRST_013 = (0, 13, 0)
"""The first version with upstream's "Phase 6" layout (``content_items`` …): read through
the views of :mod:`nitpicker_query.format.v013`."""
_FIRST_TOO_NEW = (0, 14, 0)


def parse_version(text: str) -> tuple[int, int, int]:
    """Numeric semver triple: ``"0.10"`` → ``(0, 10, 0)``, ``"0.10.0-alpha.1"`` → ``(0, 10, 0)``.

    Cut at the first ``-`` or ``+``, split on ``.``, parse each of major/minor/patch as a
    base-10 integer; missing or unparsable parts count as 0. String comparison would be
    wrong (``"0.9.0" > "0.10.0"``).
    """
    core = text.strip()
    for sep in "-+":
        core = core.split(sep, 1)[0]
    parts = core.split(".")
    numbers: list[int] = []
    for i in range(3):
        try:
            numbers.append(int(parts[i], 10))
        except (IndexError, ValueError):
            numbers.append(0)
    return numbers[0], numbers[1], numbers[2]


def check_version(found: str | None, path: str | None = None) -> None:
    """Raise :class:`UnsupportedFormat` unless ``0.10.0 <= found < 0.14.0``.

    ``0.10`` … ``0.12`` are the 0.10 layout (upstream 0.10 – 0.12.x wrote it); ``0.13.x``
    is upstream's current layout (every release since 0.13.0, 2026-07-21, writes
    ``0.13.0``); a later number is a layout this tool has not seen.

    Messages follow docs/archive-format.md: they name the version found and what we read.
    """
    if found is None or not str(found).strip():
        raise UnsupportedFormat(
            "Archive format is unknown (info.version missing or empty); "
            f"this tool reads format {SUPPORTED_FAMILY}.",
            found=None, supported=SUPPORTED_FAMILY, reason="unknown", path=path,
        )
    version = parse_version(str(found))
    if version < _OLDEST:
        name = PurePath(path).name if path else "OLD.nitpicker"  # a name: paths stay private
        shown, stem = shlex.quote(name), name.removesuffix(".nitpicker")
        raise UnsupportedFormat(
            f"Archive uses Nitpicker format {found}; this tool reads format {SUPPORTED_FAMILY} "
            f"(written by nitpicker 0.11 and later). Upgrade it with: nitpicker-crawl upgrade "
            f"{shown} -o {shlex.quote(stem + '-0.10.nitpicker')}",
            found=str(found), supported=SUPPORTED_FAMILY, reason="too-old", path=path,
        )
    if version >= _FIRST_TOO_NEW:
        raise UnsupportedFormat(
            f"Archive uses Nitpicker format {found}; this tool reads format {SUPPORTED_FAMILY} "
            "only; a newer nitpicker-query may read it.",
            found=str(found), supported=SUPPORTED_FAMILY, reason="too-new", path=path,
        )


# --------------------------------------------------------------------------- DDL

PAGE_META_COLUMNS: tuple[tuple[str, str], ...] = (
    ("lang", "varchar(255)"),
    ("dir", "varchar(255)"),
    ("charset", "varchar(255)"),
    ("baseHref", "varchar(255)"),
    ("viewport_raw", "text"),
    ("themeColor", "varchar(255)"),
    ("applicationName", "varchar(255)"),
    ("author", "varchar(255)"),
    ("generator", "varchar(255)"),
    ("publisher", "varchar(255)"),
    ("title", "varchar(255)"),
    ("description", "text"),
    ("keywords", "text"),
    ("robots_raw", "text"),
    ("robots_noindex", "integer"),
    ("robots_nofollow", "integer"),
    ("robots_noarchive", "integer"),
    ("robots_noimageindex", "integer"),
    ("googlebot", "varchar(255)"),
    ("canonical", "varchar(8190)"),
    ("amphtml", "varchar(8190)"),
    ("manifest", "varchar(8190)"),
    ("icon_href", "varchar(8190)"),
    ("appleTouchIcon_href", "varchar(8190)"),
    ("og_type", "varchar(255)"),
    ("og_title", "varchar(255)"),
    ("og_url", "varchar(8190)"),
    ("og_site_name", "varchar(255)"),
    ("og_description", "text"),
    ("og_image", "varchar(8190)"),
    ("og_image_alt", "varchar(255)"),
    ("og_image_width", "varchar(255)"),
    ("og_image_height", "varchar(255)"),
    ("og_locale", "varchar(255)"),
    ("og_article_published_time", "varchar(255)"),
    ("og_article_modified_time", "varchar(255)"),
    ("twitter_card", "varchar(255)"),
    ("twitter_site", "varchar(255)"),
    ("twitter_creator", "varchar(255)"),
    ("twitter_title", "varchar(255)"),
    ("twitter_description", "text"),
    ("twitter_image", "varchar(8190)"),
    ("fb_app_id", "varchar(255)"),
    ("verification_google", "varchar(255)"),
    ("formatDetection_telephone", "integer"),
)
"""The flat meta columns of ``pages`` (upstream ``FlatPageMetaColumns``), in table order."""


def _col(name: str, decl: str) -> str:
    return f"`{name}` {decl}"


_PAGES_COLUMNS = (
    [
        _col("id", "integer not null primary key autoincrement"),
        _col("url", "varchar(8190) not null"),
        _col("redirectDestId", "integer default null"),
        _col("scraped", "boolean not null"),
        _col("isTarget", "boolean not null"),
        _col("isExternal", "boolean"),
        _col("status", "integer"),
        _col("statusText", "varchar(255)"),
        _col("contentType", "varchar(255) null"),
        _col("contentLength", "integer null"),
        _col("responseHeaders", "json null"),
    ]
    + [_col(name, decl) for name, decl in PAGE_META_COLUMNS]
    + [
        _col("firstCrawledAt", "integer"),
        _col("lastCrawledAt", "integer"),
        _col("tag_count", "integer"),
        _col("jsonld_count", "integer"),
        _col("tags_providers_csv", "text"),
        _col("meta_extras", "json"),
        _col("isSkipped", "boolean"),
        _col("skipReason", "varchar(255)"),
        _col("order", "integer null"),
        _col("source", "varchar(255) not null default 'crawled'"),
        "foreign key(`redirectDestId`) references `pages`(`id`)",
    ]
)

SCHEMA_DDL: tuple[str, ...] = (
    "create table `info` (`id` integer not null primary key autoincrement, "
    "`version` varchar(255), `name` varchar(255), `baseUrl` varchar(255), `roots` json, "
    "`recursive` boolean, `interval` integer, `image` boolean, `fetchExternal` boolean, "
    "`parallels` integer, `excludes` json, `excludeKeywords` json, `excludeUrls` json, "
    "`maxExcludedDepth` integer, `retry` integer, `fromList` boolean, "
    "`disableQueries` boolean, `userAgent` varchar(255), `ignoreRobots` boolean)",
    "create table `pages` (" + ", ".join(_PAGES_COLUMNS) + ")",
    "create unique index `pages_url_unique` on `pages` (`url`)",
    "create index `pages_isexternal_index` on `pages` (`isExternal`)",
    "create index `pages_contenttype_index` on `pages` (`contentType`)",
    "create index `pages_scraped_index` on `pages` (`scraped`)",
    "create index `pages_redirectdestid_index` on `pages` (`redirectDestId`)",
    "create index `pages_order_index` on `pages` (`order`)",
    "create index `pages_robots_noindex_index` on `pages` (`robots_noindex`)",
    "create index `pages_og_type_index` on `pages` (`og_type`)",
    "create index `pages_source_index` on `pages` (`source`)",
    "create table `anchors` (`id` integer not null primary key autoincrement, "
    "`pageId` integer not null, `hrefId` integer not null, `hash` varchar(255), "
    "`textContent` varchar(255) null, "
    "foreign key(`pageId`) references `pages`(`id`), "
    "foreign key(`hrefId`) references `pages`(`id`))",
    "create index `anchors_pageid_index` on `anchors` (`pageId`)",
    "create index `anchors_hrefid_index` on `anchors` (`hrefId`)",
    "create table `images` (`id` integer not null primary key autoincrement, "
    "`pageId` integer not null, `src` varchar(8190), `currentSrc` varchar(8190), "
    "`alt` varchar(255), `width` float not null, `height` float not null, "
    "`naturalWidth` integer not null, `naturalHeight` integer not null, `isLazy` boolean, "
    "`viewportWidth` integer not null, `sourceCode` varchar(255), "
    "foreign key(`pageId`) references `pages`(`id`))",
    "create index `images_pageid_index` on `images` (`pageId`)",
    "create table `resources` (`id` integer not null primary key autoincrement, "
    "`url` varchar(8190) not null, `isExternal` boolean, `status` integer, "
    "`statusText` varchar(255), `contentType` varchar(255) null, "
    "`contentLength` integer null, `compress` varchar(255) null, `cdn` varchar(255) null, "
    "`responseHeaders` json null, `source` varchar(255) not null default 'crawled')",
    "create unique index `resources_url_unique` on `resources` (`url`)",
    "create index `resources_source_index` on `resources` (`source`)",
    "create table `resources-referrers` (`id` integer not null primary key autoincrement, "
    "`resourceId` integer not null, `pageId` integer not null, "
    "foreign key(`resourceId`) references `resources`(`id`), "
    "foreign key(`pageId`) references `pages`(`id`))",
    "create unique index `resources_referrers_resourceid_pageid_unique` on "
    "`resources-referrers` (`resourceId`, `pageId`)",
    "create index `resources_referrers_resourceid_index` on `resources-referrers` (`resourceId`)",
    "create index `resources_referrers_pageid_index` on `resources-referrers` (`pageId`)",
    "create table `page_errors` (`id` integer not null primary key autoincrement, "
    "`pageId` integer not null, `phase` varchar(255) not null, `message` text not null, "
    "`createdAt` integer not null, foreign key(`pageId`) references `pages`(`id`))",
    "create index `page_errors_pageid_index` on `page_errors` (`pageId`)",
    "create table `crawl_errors` (`id` integer not null primary key autoincrement, "
    "`url` varchar(8190) null, `isExternal` boolean, `message` text not null, "
    "`createdAt` integer not null)",
    "create table `page_tags` (`id` integer not null primary key autoincrement, "
    "`pageId` integer not null, `provider` varchar(255) not null, `category` varchar(255), "
    "`externalId` varchar(255), `version` varchar(255), `confidence` integer, "
    "`categories` json, `sources` json, "
    "foreign key(`pageId`) references `pages`(`id`) on delete CASCADE)",
    "create index `page_tags_pageid_index` on `page_tags` (`pageId`)",
    "create index `page_tags_provider_index` on `page_tags` (`provider`)",
    "create index `page_tags_externalid_index` on `page_tags` (`externalId`)",
    "CREATE INDEX page_tags_provider_extId ON page_tags (provider, externalId)",
    "CREATE INDEX page_tags_provider_pageId ON page_tags (provider, pageId)",
    "create table `page_jsonld` (`id` integer not null primary key autoincrement, "
    "`pageId` integer not null, `kind` varchar(255) not null, `type` varchar(255), "
    "`raw` text not null, `parsed` json, `parseError` text, "
    "foreign key(`pageId`) references `pages`(`id`) on delete CASCADE)",
    "create index `page_jsonld_pageid_index` on `page_jsonld` (`pageId`)",
    "create index `page_jsonld_type_index` on `page_jsonld` (`type`)",
    "CREATE INDEX page_jsonld_type_pageId ON page_jsonld (type, pageId)",
    "CREATE TABLE page_html_blobs (hash BLOB PRIMARY KEY, body BLOB NOT NULL, "
    "codec TEXT NOT NULL CHECK(codec IN ('zstd', 'none')), size_raw INTEGER NOT NULL, "
    "size_stored INTEGER NOT NULL) WITHOUT ROWID",
    "CREATE TABLE page_html_ref (page_id INTEGER PRIMARY KEY REFERENCES pages(id) "
    "ON DELETE CASCADE, hash BLOB NOT NULL REFERENCES page_html_blobs(hash)) WITHOUT ROWID",
    "CREATE INDEX idx_page_html_ref_hash ON page_html_ref(hash)",
    "create table `inventory_runs` (`id` integer not null primary key autoincrement, "
    "`ran_at` varchar(255) not null, `list_label` varchar(255) null, "
    "`source_file_sha256` varchar(64) null, `total_lines` integer null, "
    "`new_pages` integer null, `new_resources` integer null, `scope_skipped` integer null, "
    "`notes` text null)",
    "create index `inventory_runs_ran_at_index` on `inventory_runs` (`ran_at`)",
    # Performance indexes of seed 001 §6 (docs/archive-format.md), raw SQL upstream too.
    "CREATE INDEX idx_pages_listfilter ON pages(isExternal, scraped, redirectDestId, url, "
    "contentType)",
    "CREATE INDEX idx_resources_internal_url ON resources(isExternal, url)",
    "CREATE INDEX idx_images_covering ON images(pageId, src, alt, width, height, "
    "naturalWidth, naturalHeight, isLazy)",
    "CREATE INDEX idx_pages_summary_contenttype ON pages(scraped, redirectDestId, "
    "contentType, isExternal, isSkipped)",
    "CREATE INDEX idx_pages_summary_failed ON pages(scraped, status, redirectDestId)",
)
"""Every statement that creates a new format-0.10.0 database, in upstream's order."""

DEDUPE_CAP_EVENTS_COLUMNS: tuple[tuple[str, str], ...] = (
    ("id", "integer not null primary key autoincrement"),
    ("shape_key", "varchar(255) not null"),
    ("sample_url", "varchar(8190) not null"),
    ("body_hash", "blob null"),
    ("effective_threshold", "integer not null"),
    ("observed_count", "integer not null"),
    ("detected_at", "integer not null"),
    ("rejected_count", "integer null"),
    ("signature", "varchar(64) not null"),
    ("parent_path", "varchar(8190) not null"),
    ("title", "text"),
    ("description", "text"),
    ("og_title", "text"),
    ("og_url", "varchar(8190)"),
    ("trap_score", "real"),
    ("signals", "json"),
)
"""Our audit table (docs/archive-format.md): upstream's eight columns first, then ours."""

PAGE_SIGNATURES_DDL = (
    "create table if not exists `page_signatures` (`page_id` integer not null primary key, "
    "`signature` varchar(40) not null, `shape_signature` varchar(40) not null, "
    "`parent_key` varchar(8190) not null, `shape_key` varchar(8190) not null, "
    "foreign key(`page_id`) references `pages`(`id`) on delete CASCADE)",
    "create index if not exists `page_signatures_signature_index` "
    "on `page_signatures` (`signature`)",
    "create index if not exists `page_signatures_shape_signature_index` "
    "on `page_signatures` (`shape_signature`)",
)
"""Our per-page signature table (docs/archive-format.md)."""

PAGE_BODY_HASHES_DDL = (
    "create table if not exists `page_body_hashes` (`page_id` integer not null primary key, "
    "`body_hash` blob not null, "
    "foreign key(`page_id`) references `pages`(`id`) on delete CASCADE)",
    "create index if not exists `page_body_hashes_body_hash_index` "
    "on `page_body_hashes` (`body_hash`)",
)
"""Our per-page body hash (docs/archive-format.md): format 0.13 keeps upstream's
``body_hash`` in ``page_meta``, a table format 0.10 does not have, so a 0.10 archive holds
it beside ``pages`` under the same column name — one row per stored HTML document, the
hash of what is stored (:func:`nitpicker_crawl.extract.content.body_hash`)."""


CRAWL_RUNS_DDL = (
    "create table if not exists `crawl_runs` (`id` integer not null primary key "
    "autoincrement, `startedAt` integer not null, `endedAt` integer null, "
    "`stopReason` varchar(255) null, `options` json not null, `urlsDone` integer null, "
    "`pagesSaved` integer null)"
)
"""Our run log (docs/archive-format.md): one row per ``nitpicker-crawl`` run of the
archive (the first crawl and each ``--resume``), with the options it ran with and how it
stopped. ``stopReason`` is ``complete``, ``max-pages``, ``interrupted`` or ``network-outage``
(nothing answered for longer than ``--max-outage``); NULL while the run is going on or
after a crash."""

STOP_REASONS = ("complete", "max-pages", "interrupted", "network-outage")

NETWORK_OUTAGES_DDL = (
    "create table if not exists `network_outages` (`id` integer not null primary key "
    "autoincrement, `started_at` integer not null, `detected_at` integer not null, "
    "`ended_at` integer null, `probe_host` varchar(255) null, `trigger_error_count` integer "
    "not null, `trigger_host_count` integer not null)"
)
"""Upstream's ``network_outages`` (format 0.13's adjunct table, same columns), in a 0.10
archive: one row per window during which the crawl paused because nothing answered
(:mod:`nitpicker_crawl.fetch.outages`); epoch ms."""

BROWSER_OUTAGES_DDL = (
    "create table if not exists `browser_outages` (`id` integer not null primary key "
    "autoincrement, `endpoint` varchar(255) not null, `started_at` integer not null, "
    "`ended_at` integer null, `pages_moved` integer not null, `reason` text null)"
)
"""Ours (docs/archive-format.md): one row per loss of a lent browser
(``--browser-endpoint``) during the crawl: the endpoint as the progress names it (scheme,
host and port: never its path or token), when it was lost and reached again (epoch ms;
NULL: still down at the end), the pages that were rendering on it and went to another
browser, and the error that said it was lost. Pages are never lost with it, so unlike a
network outage it explains speed, not failures."""

CONSOLE_LOGS_DDL = (
    "create table if not exists `console_log_items` (`id` integer not null primary key, "
    "`hash` blob not null unique, `type` text not null, `text` text null, `loc_url` text "
    "null, `loc_line` integer null, `loc_column` integer null, `stack` text null)",
    "create index if not exists `console_log_items_type_index` on `console_log_items` "
    "(`type`)",
    "create table if not exists `page_console_logs` (`id` integer not null primary key "
    "autoincrement, `pageId` integer not null, `consoleLogId` integer not null, `ts` "
    "integer not null, foreign key(`pageId`) references `pages`(`id`) on delete CASCADE, "
    "foreign key(`consoleLogId`) references `console_log_items`(`id`))",
    "create index if not exists `page_console_logs_pageid_index` on `page_console_logs` "
    "(`pageId`)",
    "create index if not exists `page_console_logs_consolelogid_index` on "
    "`page_console_logs` (`consoleLogId`)",
)
"""Upstream's two console tables (format 0.13), in a 0.10 archive: each distinct message
once (``console_log_items``: type, text, where it came from, the stack of an uncaught
error; ``hash`` over all of them), and each occurrence on a page
(``page_console_logs``, the same columns as upstream's). Upstream keeps the texts and
the source URL in its ref tables (``text_id``, ``loc_url_id``, ``stack_text_id``); here
they are inline (``text``, ``loc_url``, ``stack``)."""

PAGE_TEMPLATES_DDL = (
    "CREATE TABLE IF NOT EXISTS page_templates (page_id INTEGER PRIMARY KEY "
    "REFERENCES pages(id), template_key TEXT NOT NULL) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS page_template_clusters (template_key TEXT PRIMARY KEY, "
    "member_count INTEGER NOT NULL, reason_json BLOB NOT NULL, codec TEXT NOT NULL "
    "CHECK(codec IN ('zstd', 'none')), size_raw INTEGER NOT NULL, size_stored INTEGER "
    "NOT NULL) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS page_template_labels (template_key TEXT PRIMARY KEY, "
    "section TEXT, ordinal INTEGER NOT NULL) WITHOUT ROWID",
)
"""Upstream's three template tables (format 0.13's ``create-template-tables``), in a 0.10
archive with ``page_id`` pointing at ``pages``: written by the crawler at the end of a
crawl (:mod:`nitpicker_crawl.extract.templates`) so ``template-clusters`` reads them instead of
clustering every snapshot on first call. Absent or empty means "not computed"."""

PAGE_TEMPLATE_TABLES = ("page_templates", "page_template_clusters", "page_template_labels")


FORMAT_TABLES: dict[str, tuple[str, ...]] = {
    "info": ("id", "version"),
    "pages": ("id", "url", "redirectDestId", "scraped", "isExternal", "status",
              "contentType", "title"),
    "anchors": ("pageId", "hrefId"),
    "images": ("pageId", "src"),
    "resources": ("id", "url"),
    "resources-referrers": ("resourceId", "pageId"),
    "page_errors": ("pageId", "message"),
    "crawl_errors": ("url", "message"),
    "page_tags": ("pageId",),
    "page_jsonld": ("pageId",),
    "page_html_blobs": ("hash", "body", "codec"),
    "page_html_ref": ("page_id", "hash"),
    "dedupe_cap_events": ("id", "shape_key", "signature"),
    "page_signatures": ("page_id", "signature", "shape_signature"),
    "page_body_hashes": ("page_id", "body_hash"),
    "network_outages": ("started_at", "detected_at", "ended_at"),
    "browser_outages": ("endpoint", "started_at", "ended_at", "pages_moved"),
    "console_log_items": ("id", "type"),
    "page_console_logs": ("pageId", "consoleLogId"),
    "crawl_runs": ("id", "stopReason", "options"),
    "analysis_violations": ("page_id", "validator", "severity", "rule", "message_text_id"),
    "analysis_text_refs": ("id", "text"),
}
"""The tables queries read, with the columns they cannot do without. A reader refuses an
archive where one of these names is a view or a virtual table (a view can be an endless
recursive query; a virtual table needs code we do not load) or lacks one of its columns.
``info`` and ``pages`` must exist; the others are optional."""


FORMAT_013_TABLES: dict[str, tuple[str, ...]] = {
    "content_items": ("id", "url_id", "is_external", "scraped", "is_target", "status",
                      "status_text", "content_type_id", "content_length", "header_set_id",
                      "redirect_dest_id", "source", "first_crawled_at", "last_crawled_at",
                      "crawl_order", "is_skipped", "skip_reason"),
    "url_refs": ("id", "url"),
    "text_refs": ("id", "text"),
    "content_type_refs": ("id", "raw"),
    "json_refs": ("id", "json_text", "codec"),
    "page_meta": ("page_id",),
    "header_set_entries": ("header_set_id", "name_id", "occurrence", "value_id"),
    "header_name_refs": ("id", "name"),
    "header_value_refs": ("id", "value"),
    "anchor_edges": ("id", "page_id", "href_page_id", "count", "first_hash",
                     "first_text_id"),
    "image_items": ("id", "page_id", "src_url_id", "current_src_url_id", "alt_text_id",
                    "width", "height", "natural_width", "natural_height", "is_lazy",
                    "viewport_width"),
    "resource_items": ("id", "url_id", "is_external", "status", "status_text",
                       "content_type_id", "content_length", "header_set_id", "compress",
                       "cdn", "source"),
    "resource_ref_edges": ("resource_id", "page_id"),
    "page_technologies": ("id", "pageId", "technology", "category", "version",
                          "confidence"),
    "technology_signals": ("pageId", "technology", "signalType"),
    "dedupe_cap_events": ("id", "shape_key", "sample_url", "detected_at"),
}
"""Format 0.13's tables that :mod:`nitpicker_query.format.v013` reads (docs/archive-format.md,
"Format 0.13"), with the columns its views name. Columns upstream's writer adds only
when it opens an archive (``alias_of_id``, ``body_hash`` …) are optional and read as
NULL where missing; ``page_meta``'s meta columns likewise. As for 0.10, a name here
that is a view or a virtual table is refused."""

def dedupe_cap_events_ddl() -> str:
    """``create table`` for ``dedupe_cap_events``, rendered knex-style."""
    columns = ", ".join(_col(name, decl) for name, decl in DEDUPE_CAP_EVENTS_COLUMNS)
    return f"create table if not exists `dedupe_cap_events` ({columns})"


DEDUPE_CAP_EVENTS_INDEX = (
    "CREATE INDEX IF NOT EXISTS dedupe_cap_events_signature_index "
    "ON dedupe_cap_events (signature)"
)

# --------------------------------------------------------------------------- predicates


def _ref(alias: str, url_order: bool) -> str:
    # A unary + keeps SQLite from using an index for that term. Without statistics
    # (archives must never be ANALYZEd) the planner otherwise filters through
    # idx_pages_summary_* and sorts every matching row to return the first 100; walking
    # pages_url_unique in order and stopping after the page is O(page) instead of O(N).
    return f"+{alias}" if url_order else alias


def loose_page(alias: str = "pages", *, url_order: bool = False) -> str:
    """SQL for "a page" in lists and counts (docs/archive-format.md).

    Scraped, not a redirect source, and HTML or of unknown type: broken pages (status -1,
    no content type) stay visible; known non-HTML files (PDF, images) are contents, not
    pages. Skipped rows match too: callers add :data:`NOT_SKIPPED` (``get_summary``, and
    ``list_pages`` unless asked for them).
    ``url_order=True`` writes the same predicate so that a query ordered by URL walks
    the URL index (see :func:`_ref`); the rows are identical.
    """
    a = _ref(alias, url_order)
    return (
        f"{a}.scraped = 1 AND {a}.redirectDestId IS NULL "
        f"AND ({a}.contentType IS NULL OR {a}.contentType = 'text/html')"
    )


def strict_page(alias: str = "pages", *, url_order: bool = False) -> str:
    """SQL for "a rendered internal HTML page" (docs/archive-format.md).

    Used for metadata rates, duplicates, mismatches, header checks and orphans: only
    pages whose metadata was really extracted. Page-ness is the content type, never
    ``isTarget`` (an in-scope PDF has ``isTarget = 1``). ``url_order`` as in
    :func:`loose_page`.
    """
    a = _ref(alias, url_order)
    return (
        f"{a}.scraped = 1 AND {a}.isExternal = 0 AND {a}.contentType = 'text/html' "
        f"AND {a}.redirectDestId IS NULL"
    )


NOT_SKIPPED = "(isSkipped = 0 OR isSkipped IS NULL)"

POPULATIONS = ("indexable", "all")
"""Which pages duplicate and metadata checks count: ``indexable`` (the default) — the
pages a search engine would index: answered 2xx, not ``noindex``, canonical absent or
naming the page itself — or ``all`` rendered internal HTML pages (the strict predicate:
404 pages, ``noindex`` views and declared copies too)."""


def indexable_page(alias: str = "pages", *, canonical_ok: str | None = None) -> str:
    """SQL for an indexable page (see :data:`POPULATIONS`). ``canonical_ok``: the
    format's own test for "no canonical, or the page itself" (0.13 compares URL ids:
    :meth:`nitpicker_query.archive.opening.Archive.population`)."""
    not_skipped = NOT_SKIPPED.replace("isSkipped", f"{alias}.isSkipped")
    canonical = canonical_ok or (f"(coalesce({alias}.canonical, '') = '' "
                                 f"OR {alias}.canonical = {alias}.url)")
    return (f"{strict_page(alias)} AND {not_skipped} "
            f"AND {alias}.status BETWEEN 200 AND 299 "
            f"AND coalesce({alias}.robots_noindex, 0) = 0 "
            f"AND {canonical}")


def population_page(alias: str, population: str, *, canonical_ok: str | None = None) -> str:
    """SQL for a page of ``population`` (one of :data:`POPULATIONS`, checked by the
    caller)."""
    if population == "indexable":
        return indexable_page(alias, canonical_ok=canonical_ok)
    return strict_page(alias)


def redirect_target(alias: str, column: str) -> str:
    """SQL for ``column`` of the page ``alias`` redirects to (NULL when it does not).

    A scalar sub-select, never ``LEFT JOIN pages``: on a format-0.13 archive ``pages``
    is a view over several tables, and SQLite (3.40) cannot fold such a view into the
    right side of a LEFT JOIN — it would build the whole view for every statement
    (8 s at 300,000 pages, where this is one lookup by primary key)."""
    return f'(SELECT f."{column}" FROM pages f WHERE f.id = {alias}.redirectDestId)'
