"""Upstream's archive format 0.13.0 as its newest build creates it: the DDL, defined once.

Format 0.13 (upstream nitpicker 0.13.0 and every release since; docs/archive-format.md,
"Format 0.13") splits 0.10's ``pages`` into ``content_items`` + ``page_meta`` + ``url_refs``,
keeps every text once in ``text_refs``, decomposes response headers into ``header_*``
tables and stores one ``anchor_edges`` row per (page, target) pair. :data:`SCHEMA_DDL`
is the ``sqlite_master`` SQL of an archive written by upstream's newest build, statement
for statement and byte for byte as docs/archive-format.md records it (upstream's raw SQL
with its layout, its knex tables as knex renders them): 43 tables counting
``sqlite_sequence``, which SQLite creates itself, and 37 indexes. Executed in this order
on an empty database, it leaves exactly that ``sqlite_master``.

:data:`EXTENSION_DDL` is ours, written by ``nitpicker-crawl convert --to 0.13`` and read
by nothing upstream: ``dedupe_cap_events`` with upstream's eight columns first and then
the soft cap's columns of format 0.10 (:data:`.v010.DEDUPE_CAP_EVENTS_COLUMNS`),
``page_signatures`` pointing at ``content_items``, and ``crawl_runs``.
:data:`WRITER_DDL` is what such an archive is created with: the newest schema with our
``dedupe_cap_events`` in place of upstream's, then our two tables.

Readers take table and column names from here; nothing else spells them.
"""

from __future__ import annotations

import re

from .v010 import (
    BROWSER_OUTAGES_DDL,
    CRAWL_RUNS_DDL,
    DEDUPE_CAP_EVENTS_COLUMNS,
    DEDUPE_CAP_EVENTS_INDEX,
    PAGE_SIGNATURES_DDL,
)

FORMAT_VERSION = "0.13.0"
"""What upstream's writers of format 0.13 store in ``info.version`` (0.13.0 … newest)."""

PAGE_SIZE = 16384
"""``PRAGMA page_size`` of upstream's archives, set before the first table."""

SCHEMA_DDL: tuple[str, ...] = (
    ('CREATE TABLE `info` (`id` integer not null primary key autoincrement, `version` '
     'varchar(255), `name` varchar(255), `baseUrl` varchar(255), `roots` json, `recursive` '
     'boolean, `interval` integer, `image` boolean, `fetchExternal` boolean, `parallels` '
     'integer, `excludes` json, `excludeKeywords` json, `excludeUrls` json, '
     '`maxExcludedDepth` integer, `retry` integer, `fromList` boolean, `disableQueries` '
     'boolean, `userAgent` varchar(255), `ignoreRobots` boolean, `mainContentSelector` '
     'varchar(255), `requestHeaderNames` json, `createdCwd` varchar(255))'),
    """CREATE TABLE url_refs (
            id         INTEGER PRIMARY KEY,
            url        TEXT NOT NULL UNIQUE,
            scheme     TEXT,
            host       TEXT,
            port       INTEGER,
            path       TEXT,
            query_hash BLOB,
            fragment   TEXT
        )""",
    """CREATE TABLE content_type_refs (
            id         INTEGER PRIMARY KEY,
            raw        TEXT NOT NULL UNIQUE,
            normalized TEXT NOT NULL,
            category   TEXT NOT NULL
        )""",
    """CREATE TABLE text_refs (
            id   INTEGER PRIMARY KEY,
            hash BLOB NOT NULL,
            text TEXT NOT NULL,
            UNIQUE(hash, text)
        )""",
    """CREATE TABLE json_refs (
            id          INTEGER PRIMARY KEY,
            hash        BLOB NOT NULL UNIQUE,
            json_text   BLOB NOT NULL,
            codec       TEXT NOT NULL CHECK(codec IN ('zstd', 'none')),
            size_raw    INTEGER NOT NULL,
            size_stored INTEGER NOT NULL
        )""",
    """CREATE TABLE blob_refs (
            id          INTEGER PRIMARY KEY,
            hash        BLOB NOT NULL UNIQUE,
            body        BLOB NOT NULL,
            codec       TEXT NOT NULL CHECK(codec IN ('zstd', 'none')),
            size_raw    INTEGER NOT NULL,
            size_stored INTEGER NOT NULL
        )""",
    """CREATE TABLE header_name_refs (
            id   INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE
        )""",
    """CREATE TABLE header_value_refs (
            id    INTEGER PRIMARY KEY,
            hash  BLOB NOT NULL,
            value TEXT NOT NULL,
            UNIQUE(hash, value)
        )""",
    """CREATE TABLE header_sets (
            id                 INTEGER PRIMARY KEY,
            raw_json_hash      BLOB NOT NULL UNIQUE,
            raw_hash           BLOB NOT NULL UNIQUE,
            stable_hash        BLOB NOT NULL,
            volatile_hash      BLOB,
            entry_count        INTEGER NOT NULL,
            stable_entry_count INTEGER NOT NULL
        )""",
    ('CREATE INDEX idx_header_sets_stable ON header_sets(stable_hash)'),
    """CREATE TABLE header_set_entries (
            header_set_id INTEGER NOT NULL REFERENCES header_sets(id),
            name_id       INTEGER NOT NULL REFERENCES header_name_refs(id),
            occurrence    INTEGER NOT NULL,
            value_id      INTEGER NOT NULL REFERENCES header_value_refs(id),
            is_volatile   INTEGER NOT NULL,
            PRIMARY KEY(header_set_id, name_id, occurrence)
        ) WITHOUT ROWID""",
    """CREATE TABLE header_flags (
            header_set_id              INTEGER PRIMARY KEY REFERENCES header_sets(id),
            has_csp                    INTEGER NOT NULL,
            has_x_frame_options        INTEGER NOT NULL,
            has_x_content_type_options INTEGER NOT NULL,
            has_hsts                   INTEGER NOT NULL,
            has_referrer_policy        INTEGER NOT NULL,
            has_permissions_policy     INTEGER NOT NULL,
            has_set_cookie             INTEGER NOT NULL,
            cache_policy               TEXT
        )""",
    ('CREATE TABLE content_items (\n'
     '            id               INTEGER PRIMARY KEY AUTOINCREMENT,\n'
     '            url_id           INTEGER NOT NULL UNIQUE REFERENCES url_refs(id),\n'
     '            is_external      INTEGER NOT NULL,\n'
     '            scraped          INTEGER NOT NULL,\n'
     '            is_target        INTEGER NOT NULL,\n'
     '            is_metadata_only INTEGER NOT NULL DEFAULT 0,\n'
     '            status           INTEGER,\n'
     '            status_text      TEXT,\n'
     '            content_type_id  INTEGER REFERENCES content_type_refs(id),\n'
     '            content_length   INTEGER,\n'
     '            header_set_id    INTEGER REFERENCES header_sets(id),\n'
     '            redirect_dest_id INTEGER REFERENCES content_items(id) DEFERRABLE '
     'INITIALLY DEFERRED,\n'
     '            alias_of_id      INTEGER REFERENCES content_items(id) DEFERRABLE '
     'INITIALLY DEFERRED,\n'
     '            dedupe_cap_event_id INTEGER REFERENCES dedupe_cap_events(id) DEFERRABLE '
     'INITIALLY DEFERRED,\n'
     "            source           TEXT NOT NULL DEFAULT 'crawled',\n"
     '            first_crawled_at INTEGER,\n'
     '            last_crawled_at  INTEGER,\n'
     '            crawl_order      INTEGER,\n'
     '            is_skipped       INTEGER,\n'
     '            skip_reason      TEXT\n'
     '        )'),
    ('CREATE INDEX idx_content_items_external ON content_items(is_external)'),
    ('CREATE INDEX idx_content_items_scraped ON content_items(scraped)'),
    ('CREATE INDEX idx_content_items_redirect_dest_id ON content_items(redirect_dest_id)'),
    ('CREATE INDEX idx_content_items_content_type_id ON content_items(content_type_id)'),
    ('CREATE INDEX idx_content_items_crawl_order ON content_items(crawl_order)'),
    ('CREATE INDEX idx_content_items_source ON content_items(source)'),
    ('CREATE TABLE page_meta (\n'
     '            page_id                     INTEGER PRIMARY KEY REFERENCES '
     'content_items(id) ON DELETE CASCADE,\n'
     '            lang                        TEXT,\n'
     '            dir                         TEXT,\n'
     '            charset                     TEXT,\n'
     '            base_href                   TEXT,\n'
     '            viewport_raw                TEXT,\n'
     '            theme_color                 TEXT,\n'
     '            application_name            TEXT,\n'
     '            author                      TEXT,\n'
     '            generator                   TEXT,\n'
     '            publisher                   TEXT,\n'
     '            title_text_id               INTEGER REFERENCES text_refs(id),\n'
     '            description_text_id         INTEGER REFERENCES text_refs(id),\n'
     '            keywords_text_id            INTEGER REFERENCES text_refs(id),\n'
     '            robots_raw_text_id          INTEGER REFERENCES text_refs(id),\n'
     '            robots_noindex              INTEGER,\n'
     '            robots_nofollow             INTEGER,\n'
     '            robots_noarchive            INTEGER,\n'
     '            robots_noimageindex         INTEGER,\n'
     '            googlebot                   TEXT,\n'
     '            canonical_url_id            INTEGER REFERENCES url_refs(id),\n'
     '            amphtml_url_id              INTEGER REFERENCES url_refs(id),\n'
     '            manifest_url_id             INTEGER REFERENCES url_refs(id),\n'
     '            icon_url_id                 INTEGER REFERENCES url_refs(id),\n'
     '            apple_touch_icon_url_id     INTEGER REFERENCES url_refs(id),\n'
     '            og_type                     TEXT,\n'
     '            og_title_text_id            INTEGER REFERENCES text_refs(id),\n'
     '            og_description_text_id      INTEGER REFERENCES text_refs(id),\n'
     '            og_url_id                   INTEGER REFERENCES url_refs(id),\n'
     '            og_image_url_id             INTEGER REFERENCES url_refs(id),\n'
     '            og_site_name                TEXT,\n'
     '            og_image_alt                TEXT,\n'
     '            og_image_width              TEXT,\n'
     '            og_image_height             TEXT,\n'
     '            og_locale                   TEXT,\n'
     '            og_article_published_time   TEXT,\n'
     '            og_article_modified_time    TEXT,\n'
     '            twitter_card                TEXT,\n'
     '            twitter_site                TEXT,\n'
     '            twitter_creator             TEXT,\n'
     '            twitter_title_text_id       INTEGER REFERENCES text_refs(id),\n'
     '            twitter_description_text_id INTEGER REFERENCES text_refs(id),\n'
     '            twitter_image_url_id        INTEGER REFERENCES url_refs(id),\n'
     '            fb_app_id                   TEXT,\n'
     '            verification_google         TEXT,\n'
     '            format_detection_telephone  INTEGER,\n'
     '            tag_count                   INTEGER,\n'
     '            jsonld_count                INTEGER,\n'
     '            tags_providers_csv          TEXT,\n'
     '            meta_extras_json_id         INTEGER REFERENCES json_refs(id),\n'
     '            main_content_node_name      TEXT,\n'
     '            main_content_id             TEXT,\n'
     '            main_content_role           TEXT,\n'
     '            main_content_selector       TEXT,\n'
     '            main_content_class_list     TEXT,\n'
     '            main_content_word_count     INTEGER,\n'
     '            main_content_body_word_count INTEGER,\n'
     '            main_content_heading_count  INTEGER,\n'
     '            main_content_image_count    INTEGER,\n'
     '            main_content_table_count    INTEGER,\n'
     '            main_content_button_count   INTEGER,\n'
     '            main_content_iframe_count   INTEGER,\n'
     '            main_content_video_count    INTEGER,\n'
     '            main_content_audio_count    INTEGER,\n'
     '            main_content_canvas_count   INTEGER,\n'
     '            main_content_custom_element_count INTEGER,\n'
     '            scroll_height_desktop       INTEGER,\n'
     '            scroll_height_mobile        INTEGER,\n'
     '            image_scan_desktop          INTEGER,\n'
     '            image_scan_mobile           INTEGER,\n'
     '            body_hash                   BLOB,\n'
     '            console_error_count         INTEGER\n'
     '        )'),
    ('CREATE INDEX idx_page_meta_og_type ON page_meta(og_type)'),
    ('CREATE INDEX idx_page_meta_robots_noindex ON page_meta(robots_noindex)'),
    """CREATE TABLE resource_items (
            id               INTEGER PRIMARY KEY AUTOINCREMENT,
            url_id           INTEGER UNIQUE REFERENCES url_refs(id),
            url_blob_id      INTEGER UNIQUE REFERENCES blob_refs(id),
            is_external      INTEGER NOT NULL,
            status           INTEGER,
            status_text      TEXT,
            content_type_id  INTEGER REFERENCES content_type_refs(id),
            content_length   INTEGER,
            header_set_id    INTEGER REFERENCES header_sets(id),
            compress         TEXT,
            cdn              TEXT,
            source           TEXT NOT NULL DEFAULT 'crawled',
            CHECK ((url_id IS NULL) != (url_blob_id IS NULL))
        )""",
    ('CREATE INDEX idx_resource_items_source ON resource_items(source)'),
    """CREATE TABLE anchor_edges (
            id            INTEGER PRIMARY KEY AUTOINCREMENT,
            page_id       INTEGER NOT NULL REFERENCES content_items(id),
            href_page_id  INTEGER NOT NULL REFERENCES content_items(id),
            count         INTEGER NOT NULL,
            first_hash    TEXT,
            first_text_id INTEGER REFERENCES text_refs(id),
            UNIQUE(page_id, href_page_id)
        )""",
    ('CREATE INDEX idx_anchor_edges_href ON anchor_edges(href_page_id)'),
    """CREATE TABLE resource_ref_edges (
            resource_id INTEGER NOT NULL REFERENCES resource_items(id),
            page_id     INTEGER NOT NULL REFERENCES content_items(id),
            count       INTEGER NOT NULL DEFAULT 1,
            PRIMARY KEY(resource_id, page_id)
        ) WITHOUT ROWID""",
    ('CREATE INDEX idx_resource_ref_edges_page ON resource_ref_edges(page_id)'),
    """CREATE TABLE image_items (
            id                  INTEGER PRIMARY KEY AUTOINCREMENT,
            page_id             INTEGER NOT NULL REFERENCES content_items(id),
            src_url_id          INTEGER REFERENCES url_refs(id),
            current_src_url_id  INTEGER REFERENCES url_refs(id),
            src_blob_id         INTEGER REFERENCES blob_refs(id),
            current_src_blob_id INTEGER REFERENCES blob_refs(id),
            alt_text_id         INTEGER REFERENCES text_refs(id),
            width               REAL,
            height              REAL,
            natural_width       INTEGER,
            natural_height      INTEGER,
            is_lazy             INTEGER,
            viewport_width      INTEGER,
            dom_path_text_id    INTEGER NOT NULL REFERENCES text_refs(id),
            CHECK (
                (src_url_id IS NULL OR src_blob_id IS NULL)
                AND (current_src_url_id IS NULL OR current_src_blob_id IS NULL)
            )
        )""",
    ('CREATE INDEX idx_image_items_page ON image_items(page_id)'),
    ('CREATE TABLE `page_errors` (`id` integer not null primary key autoincrement, '
     '`pageId` integer not null, `phase` varchar(255) not null, `message` text not null, '
     '`createdAt` integer not null, foreign key(`pageId`) references '
     '`content_items`(`id`))'),
    ('CREATE INDEX `page_errors_pageid_index` on `page_errors` (`pageId`)'),
    ('CREATE TABLE `crawl_errors` (`id` integer not null primary key autoincrement, `url` '
     'varchar(8190) null, `isExternal` boolean, `message` text not null, `createdAt` '
     'integer not null)'),
    ('CREATE TABLE `technology_signals` (`id` integer not null primary key autoincrement, '
     '`pageId` integer not null, `technology` varchar(255) not null, `signalType` '
     'varchar(255) not null, `evidence` text, `weight` integer not null, foreign '
     'key(`pageId`) references `content_items`(`id`) on delete CASCADE)'),
    ('CREATE INDEX `technology_signals_pageid_index` on `technology_signals` (`pageId`)'),
    ('CREATE INDEX technology_signals_tech_type ON technology_signals(technology, '
     'signalType)'),
    ('CREATE TABLE `page_technologies` (`id` integer not null primary key autoincrement, '
     '`pageId` integer not null, `technology` varchar(255) not null, `category` '
     'varchar(255), `version` varchar(255), `confidence` integer not null, `signalCount` '
     'integer not null, foreign key(`pageId`) references `content_items`(`id`) on delete '
     'CASCADE)'),
    ('CREATE UNIQUE INDEX `page_technologies_pageid_technology_unique` on '
     '`page_technologies` (`pageId`, `technology`)'),
    ('CREATE INDEX `page_technologies_technology_index` on `page_technologies` '
     '(`technology`)'),
    ('CREATE TABLE `technology_js_scan_cache` (`resourceId` integer, `scannedAt` integer '
     'not null, `technology` varchar(255), `evidence` text, foreign key(`resourceId`) '
     'references `resource_items`(`id`) on delete CASCADE, primary key (`resourceId`))'),
    ('CREATE TABLE `page_jsonld` (`id` integer not null primary key autoincrement, '
     '`pageId` integer not null, `kind` varchar(255) not null, `type` varchar(255), `raw` '
     'text not null, `parsed` json, `parseError` text, foreign key(`pageId`) references '
     '`content_items`(`id`) on delete CASCADE)'),
    ('CREATE INDEX `page_jsonld_pageid_index` on `page_jsonld` (`pageId`)'),
    ('CREATE INDEX `page_jsonld_type_index` on `page_jsonld` (`type`)'),
    ('CREATE INDEX page_jsonld_type_pageId ON page_jsonld(type, pageId)'),
    ('CREATE TABLE `page_main_content_headings` (`id` integer not null primary key '
     'autoincrement, `pageId` integer not null, `order` integer not null, `text` text, '
     '`level` integer not null, foreign key(`pageId`) references `content_items`(`id`) on '
     'delete CASCADE)'),
    ('CREATE INDEX `page_main_content_headings_pageid_index` on '
     '`page_main_content_headings` (`pageId`)'),
    ('CREATE TABLE `page_main_content_images` (`id` integer not null primary key '
     'autoincrement, `pageId` integer not null, `order` integer not null, `src` '
     'varchar(8190) not null, `alt` text not null, foreign key(`pageId`) references '
     '`content_items`(`id`) on delete CASCADE)'),
    ('CREATE INDEX `page_main_content_images_pageid_index` on `page_main_content_images` '
     '(`pageId`)'),
    ('CREATE TABLE `page_main_content_tables` (`id` integer not null primary key '
     'autoincrement, `pageId` integer not null, `order` integer not null, `rows` integer '
     'not null, `cols` integer not null, `hasHeader` boolean not null, `hasFooter` boolean '
     'not null, `hasMergedCell` boolean not null, foreign key(`pageId`) references '
     '`content_items`(`id`) on delete CASCADE)'),
    ('CREATE INDEX `page_main_content_tables_pageid_index` on `page_main_content_tables` '
     '(`pageId`)'),
    ('CREATE TABLE `page_main_content_buttons` (`id` integer not null primary key '
     'autoincrement, `pageId` integer not null, `order` integer not null, `nodeName` '
     'varchar(255) not null, `role` varchar(255), `type` varchar(255), `text` text, '
     '`disabled` boolean not null, foreign key(`pageId`) references `content_items`(`id`) '
     'on delete CASCADE)'),
    ('CREATE INDEX `page_main_content_buttons_pageid_index` on `page_main_content_buttons` '
     '(`pageId`)'),
    ('CREATE TABLE `page_main_content_iframes` (`id` integer not null primary key '
     'autoincrement, `pageId` integer not null, `order` integer not null, `src` '
     'varchar(8190) not null, `title` text, `width` varchar(255), `height` varchar(255), '
     'foreign key(`pageId`) references `content_items`(`id`) on delete CASCADE)'),
    ('CREATE INDEX `page_main_content_iframes_pageid_index` on `page_main_content_iframes` '
     '(`pageId`)'),
    ('CREATE TABLE `page_main_content_videos` (`id` integer not null primary key '
     'autoincrement, `pageId` integer not null, `order` integer not null, `src` '
     'varchar(8190) not null, `poster` varchar(8190), `width` integer not null, `height` '
     'integer not null, foreign key(`pageId`) references `content_items`(`id`) on delete '
     'CASCADE)'),
    ('CREATE INDEX `page_main_content_videos_pageid_index` on `page_main_content_videos` '
     '(`pageId`)'),
    ('CREATE TABLE `page_main_content_audios` (`id` integer not null primary key '
     'autoincrement, `pageId` integer not null, `order` integer not null, `src` '
     'varchar(8190) not null, foreign key(`pageId`) references `content_items`(`id`) on '
     'delete CASCADE)'),
    ('CREATE INDEX `page_main_content_audios_pageid_index` on `page_main_content_audios` '
     '(`pageId`)'),
    ('CREATE TABLE `page_main_content_canvases` (`id` integer not null primary key '
     'autoincrement, `pageId` integer not null, `order` integer not null, `width` integer '
     'not null, `height` integer not null, foreign key(`pageId`) references '
     '`content_items`(`id`) on delete CASCADE)'),
    ('CREATE INDEX `page_main_content_canvases_pageid_index` on '
     '`page_main_content_canvases` (`pageId`)'),
    ('CREATE TABLE `page_main_content_custom_elements` (`id` integer not null primary key '
     'autoincrement, `pageId` integer not null, `order` integer not null, `nodeName` '
     'varchar(255) not null, `elementId` varchar(255), `classList` text, foreign '
     'key(`pageId`) references `content_items`(`id`) on delete CASCADE)'),
    ('CREATE INDEX `page_main_content_custom_elements_pageid_index` on '
     '`page_main_content_custom_elements` (`pageId`)'),
    ('CREATE TABLE `list_reconcile_runs` (`id` integer not null primary key autoincrement, '
     '`ran_at` varchar(255) not null, `list_label` varchar(255) null, `source_file_sha256` '
     'varchar(64) null, `total_lines` integer null, `new_pages` integer null, '
     '`new_resources` integer null, `scope_skipped` integer null, `exclude_skipped` '
     'integer null, `invalid_skipped` integer null, `notes` text null)'),
    ('CREATE INDEX `list_reconcile_runs_ran_at_index` on `list_reconcile_runs` (`ran_at`)'),
    ('CREATE TABLE `network_outages` (`id` integer not null primary key autoincrement, '
     '`started_at` integer not null, `detected_at` integer not null, `ended_at` integer '
     'null, `probe_host` varchar(255) null, `trigger_error_count` integer not null, '
     '`trigger_host_count` integer not null)'),
    ('CREATE TABLE `dedupe_cap_events` (`id` integer not null primary key autoincrement, '
     '`shape_key` varchar(255) not null, `sample_url` varchar(255) not null, `body_hash` '
     'blob null, `effective_threshold` integer not null, `observed_count` integer not '
     'null, `detected_at` integer not null, `rejected_count` integer null)'),
    """CREATE TABLE page_html_blobs (
                hash         BLOB PRIMARY KEY,
                body         BLOB NOT NULL,
                codec        TEXT NOT NULL CHECK(codec IN ('zstd', 'none')),
                size_raw     INTEGER NOT NULL,
                size_stored  INTEGER NOT NULL
            ) WITHOUT ROWID""",
    """CREATE TABLE page_html_ref (
                page_id  INTEGER PRIMARY KEY REFERENCES content_items(id) ON DELETE CASCADE,
                hash     BLOB NOT NULL REFERENCES page_html_blobs(hash)
            ) WITHOUT ROWID""",
    ('CREATE INDEX idx_page_html_ref_hash ON page_html_ref(hash)'),
    """CREATE TABLE console_log_items (
                id             INTEGER PRIMARY KEY,
                hash           BLOB NOT NULL UNIQUE,
                type           TEXT NOT NULL,
                text_id        INTEGER REFERENCES text_refs(id),
                args_json_id   INTEGER REFERENCES json_refs(id),
                loc_url_id     INTEGER REFERENCES url_refs(id),
                loc_line       INTEGER,
                loc_column     INTEGER,
                stack_text_id  INTEGER REFERENCES text_refs(id)
            )""",
    ('CREATE INDEX idx_console_log_items_type ON console_log_items(type)'),
    ('CREATE TABLE `page_console_logs` (`id` integer not null primary key autoincrement, '
     '`pageId` integer not null, `consoleLogId` integer not null, `ts` integer not null, '
     'foreign key(`pageId`) references `content_items`(`id`) on delete CASCADE, foreign '
     'key(`consoleLogId`) references `console_log_items`(`id`))'),
    ('CREATE INDEX `page_console_logs_pageid_index` on `page_console_logs` (`pageId`)'),
    ('CREATE INDEX `page_console_logs_consolelogid_index` on `page_console_logs` '
     '(`consoleLogId`)'),
    """CREATE TABLE page_templates (
                page_id      INTEGER PRIMARY KEY REFERENCES content_items(id),
                template_key TEXT NOT NULL
            ) WITHOUT ROWID""",
    """CREATE TABLE page_template_clusters (
                template_key TEXT PRIMARY KEY,
                member_count INTEGER NOT NULL,
                reason_json  BLOB NOT NULL,
                codec        TEXT NOT NULL CHECK(codec IN ('zstd', 'none')),
                size_raw     INTEGER NOT NULL,
                size_stored  INTEGER NOT NULL
            ) WITHOUT ROWID""",
    """CREATE TABLE page_template_labels (
                template_key TEXT PRIMARY KEY,
                section      TEXT,
                ordinal      INTEGER NOT NULL
            ) WITHOUT ROWID""",
    ('CREATE INDEX idx_page_meta_body_hash ON page_meta(body_hash)'),
    ('CREATE INDEX idx_content_items_alias_of_id ON content_items(alias_of_id)'),

)
"""Every statement that creates a format-0.13.0 database of upstream's newest build, in
its order (docs/archive-format.md, "Format 0.13"; upstream's archive format notes,
Appendix A). ``sqlite_sequence`` is left out: SQLite creates it with the first
``AUTOINCREMENT`` table."""


def _name(statement: str) -> str:
    """The object a statement creates: ``CREATE TABLE `page_errors` (…`` →
    ``page_errors``, ``CREATE INDEX idx_x ON t(c)`` → ``idx_x``."""
    words = statement.replace("(", " ").split()
    return words[3 if words[1].upper() == "UNIQUE" else 2].strip("`")


TABLES: tuple[str, ...] = (
    *(_name(s) for s in SCHEMA_DDL if s.startswith("CREATE TABLE")), "sqlite_sequence")
"""The 43 table names of the newest schema, ``sqlite_sequence`` last."""

UPSTREAM_CAP_COLUMNS = 8
"""``dedupe_cap_events``: upstream's columns come first, ours after them."""


def _dedupe_cap_events() -> str:
    """Upstream's ``dedupe_cap_events`` statement with the soft cap's columns appended,
    as an ``ALTER TABLE … ADD COLUMN`` would extend it. Ours are all nullable here (0.10
    has ``signature`` and ``parent_path`` NOT NULL): upstream's writer, which names only
    its eight columns, must still be able to record a cap in an archive we converted."""
    upstream = next(s for s in SCHEMA_DDL if _name(s) == "dedupe_cap_events")
    ours = ", ".join(f"`{name}` {decl.replace(' not null', '')}"
                     for name, decl in DEDUPE_CAP_EVENTS_COLUMNS[UPSTREAM_CAP_COLUMNS:])
    return f"{upstream[:-1]}, {ours})"


EXTENSION_DDL: tuple[str, ...] = (
    _dedupe_cap_events(),
    DEDUPE_CAP_EVENTS_INDEX,
    *(s.replace("references `pages`", "references `content_items`")
      for s in PAGE_SIGNATURES_DDL),
    CRAWL_RUNS_DDL,
    BROWSER_OUTAGES_DDL,
)
"""Our tables in a format-0.13 archive (docs/archive-format.md, "Format 0.13 as we write
it"): ``dedupe_cap_events`` (upstream's eight columns, then ours), ``page_signatures``
(its ``page_id`` a ``content_items`` id), ``crawl_runs`` and ``browser_outages``."""

WRITER_DDL: tuple[str, ...] = (
    *(s for s in SCHEMA_DDL if _name(s) != "dedupe_cap_events"),
    *EXTENSION_DDL,
)
"""What ``nitpicker-crawl convert --to 0.13`` creates a database with: :data:`SCHEMA_DDL`
with our ``dedupe_cap_events`` in place of upstream's (added after the rest), then our
other tables."""

MAIN_CONTENT_TABLES: tuple[str, ...] = tuple(
    _name(s) for s in SCHEMA_DDL
    if s.startswith("CREATE TABLE") and _name(s).startswith("page_main_content_"))
"""Upstream's nine main-content inventories (headings … custom elements), one table each."""

MAIN_CONTENT_COLUMNS: tuple[tuple[str, str], ...] = tuple(
    (m.group(1), m.group(2)) for m in re.finditer(
        r"(main_content_\w+)\s+(TEXT|INTEGER)",
        next(s for s in SCHEMA_DDL if _name(s) == "page_meta")))
"""``page_meta``'s ``main_content_*`` columns and their types: the main region (node
name, id, role, selector, classes) and its counts."""

MAIN_CONTENT_DDL_010: tuple[str, ...] = (
    "create table if not exists `page_main_contents` (`page_id` integer not null primary "
    "key, " + ", ".join(f"`{n}` {t}" for n, t in MAIN_CONTENT_COLUMNS) +
    ", foreign key(`page_id`) references `pages`(`id`) on delete CASCADE)",
    *(s.replace("CREATE TABLE", "CREATE TABLE IF NOT EXISTS", 1)
       .replace("CREATE INDEX", "CREATE INDEX IF NOT EXISTS", 1)
       .replace("references `content_items`", "references `pages`")
      for s in SCHEMA_DDL if _name(s).startswith("page_main_content_")),
)
"""The main-content inventory in a format-0.10 archive (docs/archive-format.md): the
nine tables as upstream's, their ``pageId`` a ``pages`` id, and ``page_main_contents``
holding what 0.13 keeps in ``page_meta`` — the same ``main_content_*`` columns, one row
per page read."""


# --------------------------------------------------------------------------- 0.10 ↔ 0.13

PAGE_META_TEXTS: tuple[tuple[str, str], ...] = (
    ("title", "title_text_id"), ("description", "description_text_id"),
    ("keywords", "keywords_text_id"), ("robots_raw", "robots_raw_text_id"),
    ("og_title", "og_title_text_id"), ("og_description", "og_description_text_id"),
    ("twitter_title", "twitter_title_text_id"),
    ("twitter_description", "twitter_description_text_id"),
)
"""0.10 ``pages`` column → ``page_meta`` column holding its ``text_refs`` id."""

PAGE_META_URLS: tuple[tuple[str, str], ...] = (
    ("canonical", "canonical_url_id"), ("amphtml", "amphtml_url_id"),
    ("manifest", "manifest_url_id"), ("icon_href", "icon_url_id"),
    ("appleTouchIcon_href", "apple_touch_icon_url_id"), ("og_url", "og_url_id"),
    ("og_image", "og_image_url_id"), ("twitter_image", "twitter_image_url_id"),
)
"""0.10 ``pages`` column → ``page_meta`` column holding its ``url_refs`` id."""

PAGE_META_PLAIN: tuple[tuple[str, str], ...] = (
    ("lang", "lang"), ("dir", "dir"), ("charset", "charset"), ("baseHref", "base_href"),
    ("viewport_raw", "viewport_raw"), ("themeColor", "theme_color"),
    ("applicationName", "application_name"), ("author", "author"),
    ("generator", "generator"), ("publisher", "publisher"),
    ("robots_noindex", "robots_noindex"), ("robots_nofollow", "robots_nofollow"),
    ("robots_noarchive", "robots_noarchive"), ("robots_noimageindex", "robots_noimageindex"),
    ("googlebot", "googlebot"), ("og_type", "og_type"), ("og_site_name", "og_site_name"),
    ("og_image_alt", "og_image_alt"), ("og_image_width", "og_image_width"),
    ("og_image_height", "og_image_height"), ("og_locale", "og_locale"),
    ("og_article_published_time", "og_article_published_time"),
    ("og_article_modified_time", "og_article_modified_time"),
    ("twitter_card", "twitter_card"), ("twitter_site", "twitter_site"),
    ("twitter_creator", "twitter_creator"), ("fb_app_id", "fb_app_id"),
    ("verification_google", "verification_google"),
    ("formatDetection_telephone", "format_detection_telephone"),
    ("tag_count", "tag_count"), ("jsonld_count", "jsonld_count"),
    ("tags_providers_csv", "tags_providers_csv"),
)
"""0.10 ``pages`` column → the ``page_meta`` column with the same value (snake_case)."""

CONTENT_ITEM_COLUMNS: tuple[tuple[str, str], ...] = (
    ("id", "id"), ("scraped", "scraped"), ("isTarget", "is_target"),
    ("isExternal", "is_external"), ("status", "status"), ("statusText", "status_text"),
    ("contentLength", "content_length"), ("redirectDestId", "redirect_dest_id"),
    ("source", "source"), ("firstCrawledAt", "first_crawled_at"),
    ("lastCrawledAt", "last_crawled_at"), ("order", "crawl_order"),
    ("isSkipped", "is_skipped"), ("skipReason", "skip_reason"),
)
"""0.10 ``pages`` column → the ``content_items`` column with the same meaning; ``url``,
``contentType`` and ``responseHeaders`` become ids into the ref tables."""

IMAGE_COLUMNS: tuple[tuple[str, str], ...] = (
    ("id", "id"), ("pageId", "page_id"), ("width", "width"), ("height", "height"),
    ("naturalWidth", "natural_width"), ("naturalHeight", "natural_height"),
    ("isLazy", "is_lazy"), ("viewportWidth", "viewport_width"),
)
"""0.10 ``images`` column → ``image_items`` column; ``src``, ``currentSrc`` and ``alt``
become ids, ``sourceCode`` has no place (``dom_path_text_id`` replaces it)."""

RESOURCE_COLUMNS: tuple[tuple[str, str], ...] = (
    ("id", "id"), ("isExternal", "is_external"), ("status", "status"),
    ("statusText", "status_text"), ("contentLength", "content_length"),
    ("compress", "compress"), ("cdn", "cdn"), ("source", "source"),
)
"""0.10 ``resources`` column → ``resource_items`` column; ``url``, ``contentType`` and
``responseHeaders`` become ids."""

UNKNOWN_DOM_PATH = "img[unknown]"
"""``image_items.dom_path_text_id`` is NOT NULL; upstream's writer stores this text when
it does not know where an image sits in the DOM, as for every image of a 0.10 archive."""
