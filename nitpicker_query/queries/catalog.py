"""Every query, described once for the adapters: name, options, help, examples.

The CLI builds its sub-commands from :data:`QUERIES` and the MCP server its input
schemas, so a flag and a tool argument can never drift apart (one definition of each
option: its Python name, kind, bounds and meaning). Adapters hold no logic beyond this
table: they parse, call ``spec.function(archive, **options)``, and render.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..format.content_types import CATEGORIES
from ..format.v010 import POPULATIONS
from .check_headers import HEADERS as SECURITY_HEADERS
from .check_headers import SORT_KEYS as HEADER_SORTS
from .check_headers import check_headers
from .compare import FIELDS as COMPARED_FIELDS
from .compare import KINDS as COMPARE_KINDS
from .compare import compare_archives
from .console_logs import SORTS as CONSOLE_SORTS
from .console_logs import get_page_console_logs, list_console_logs
from .duplicate_bodies import find_duplicate_bodies, find_duplicate_clusters
from .find_duplicates import SORT_COLUMNS as DUPLICATE_SORTS
from .find_duplicates import find_duplicates
from .find_mismatches import TYPES as MISMATCH_TYPES
from .find_mismatches import find_mismatches
from .get_duplicate_clusters import (
    CLUSTER_SORTS,
    GROUPINGS,
    get_duplicate_cluster,
    get_duplicate_clusters,
)
from .get_page_detail import get_page_detail
from .get_page_html import get_page_html
from .get_resource_referrers import get_resource_referrers
from .get_summary import get_summary
from .get_template_clusters import get_template_cluster, get_template_clusters
from .get_violations import SORTS as VIOLATION_SORTS
from .get_violations import get_violations
from .html_extraction import match_selector, match_xpath, search_html
from .isolated import (
    get_isolated_cluster,
    list_isolated_clusters,
    list_isolated_pages,
)
from .link_score import SORTS as LINK_SCORE_SORTS
from .link_score import list_link_score
from .list_browser_outages import list_browser_outages
from .list_dedupe_cap_events import SORT_COLUMNS as EVENT_SORTS
from .list_dedupe_cap_events import list_dedupe_cap_events
from .list_images import SORT_COLUMNS as IMAGE_SORTS
from .list_images import list_images
from .list_inbound_links import list_inbound_links
from .list_links import BROKEN_AS, LINK_DESTINATIONS, LINK_TYPES, list_links
from .list_links import SORT_KEYS as LINK_SORTS
from .list_network_outages import list_network_outages
from .list_pages import META_FIELDS as PAGE_META
from .list_pages import SKIPPED as PAGE_SKIPPED
from .list_pages import SORT_COLUMNS as PAGE_SORTS
from .list_pages import list_pages
from .list_resources import SORT_COLUMNS as RESOURCE_SORTS
from .list_resources import list_resources
from .main_contents import get_page_main_contents
from .match_urls import match_urls
from .near_duplicates import MIN_WORDS as NEAR_MIN_WORDS
from .near_duplicates import THRESHOLD as NEAR_THRESHOLD
from .near_duplicates import find_near_duplicates, get_near_duplicates
from .near_duplicates import ready as near_ready
from .page_jsonld import get_page_jsonld, get_page_jsonld_overview
from .page_tags import (
    count_pages_by_tag,
    get_page_tags,
    get_tag_inventory,
    list_pages_by_tag,
)
from .pages_by_jsonld_type import count_pages_by_jsonld_type, list_pages_by_jsonld_type
from .paging import MAX_LIMIT
from .resource_inventory import HOST_SORTS, list_pages_by_resource, list_resource_hosts
from .templates import ready as templates_ready_of
from .unused_resources import list_unused_resources


def camel(name: str) -> str:
    """``missing_title`` → ``missingTitle`` (MCP argument and JSON key spelling)."""
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


INT_RANGE = (-(2**31), 2**31 - 1)
"""Bounds of an integer option that sets none of its own (SQLite's and JSON Schema's
common ground; every adapter refuses values outside)."""


@dataclass(frozen=True)
class Param:
    """One option of a query.

    ``kind`` is ``str``, ``int``, ``choice``, ``flag`` (on/off, default off) or
    ``tristate`` (True / False / absent = no filter).
    """

    name: str
    kind: str
    help: str
    default: Any = None
    required: bool = False
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    example: Any = None
    max_length: int = 8192
    """Longest text value (``str`` kind): URLs are shorter, and SQLite refuses LIKE
    patterns over 50,000 bytes with an error no user should meet."""
    positional: bool = False
    """The command line takes it before ARCHIVE, without a flag (``compare OLD NEW``)."""
    repeatable: bool = False
    """The command line takes the flag more than once; the values reach the query
    space-separated, as the MCP argument and the viewer's field spell them."""
    archive: bool = False
    """A second archive (a path): adapters open it as they open ARCHIVE, with the same
    checks (the MCP server: inside the allowed locations)."""

    @property
    def camel(self) -> str:
        return camel(self.name)

    @property
    def bounds(self) -> tuple[int, int]:
        """The range an ``int`` option accepts in every adapter: its own, else
        :data:`INT_RANGE` (a 10^20 offset is a bad argument, not an overflow)."""
        return (self.minimum if self.minimum is not None else INT_RANGE[0],
                self.maximum if self.maximum is not None else INT_RANGE[1])

    @property
    def flag(self) -> str:
        """How the command line spells it: ``--name``, one value of a repeatable flag
        (``--map`` for ``maps``), or the positional's metavar (``OLD``)."""
        if self.positional:
            return self.name.upper()
        name = self.name.removesuffix("s") if self.repeatable else self.name
        return "--" + name.replace("_", "-")


@dataclass(frozen=True)
class QuerySpec:
    """A query as the adapters see it."""

    name: str
    command: str
    function: Callable[..., Any]
    summary: str
    params: tuple[Param, ...]
    is_list: bool = True
    not_found: str | None = None
    examples: tuple[str, ...] = ()
    table_columns: tuple[str, ...] = ()
    """Item keys a terminal table shows (all when empty); JSON always has every key."""
    option_columns: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Columns a table and CSV add when an option is on (``security_headers``: the four
    header flags it adds to each item)."""
    text_field: str | None = None
    """A field a terminal shows whole, as text (the HTML source), not in a table cell."""
    heavy: bool = False
    """Reads every stored page on its first call (template clusters: minutes on a big
    archive): servers run these apart, one at a time, so they never hold up the rest."""
    ready: Callable[..., bool] | None = None
    """For a heavy query: ``ready(archive, **options)`` says whether a call answers at
    once (computed already in this process, or stored), so that an adapter that can
    show progress (the viewer) starts the work in the background instead of waiting."""

    def param(self, name: str) -> Param:
        return next(p for p in self.params if p.name == name)

    def columns(self, options: dict[str, Any]) -> tuple[str, ...]:
        """The table and CSV columns of a call with these options."""
        extra = [c for name, cols in self.option_columns
                 if options.get(name) not in (None, False, "false", "0") for c in cols]
        return (*self.table_columns, *extra) if self.table_columns else ()

    def missing(self, options: dict[str, Any], adapter: str) -> str:
        """The "not found" sentence with the options it names, in the adapter's words:
        ``list them with list_pages`` for MCP, ``nitpicker-query pages`` on the command
        line, ``the Pages view`` in the viewer (``adapter``: mcp, cli or viewer)."""
        text = (self.not_found or "Nothing found.").format(
            **{p.name: options.get(p.name, "") for p in self.params})
        return _SEE.sub(lambda m: _see(m.group(1), m.group(2), adapter), text)


_SEE = re.compile(r"list them with (\w+), or the ([\w-]+) command")


def _see(tool: str, command: str, adapter: str) -> str:
    if adapter == "cli":
        return f"list them with nitpicker-query {command}"
    if adapter == "viewer":
        return f"see the {command.replace('-', ' ')} view"
    return f"list them with {tool}"


def _paging(default_limit: int = 100) -> tuple[Param, Param]:
    return (
        Param("limit", "int", f"Items per page, 1–{MAX_LIMIT}.", default=default_limit,
              minimum=1, maximum=MAX_LIMIT, example=default_limit),
        Param("offset", "int", "Items to skip; use the previous result's nextOffset.",
              default=0, minimum=0, example=100),
    )


def _templates_ready(archive: Any, **_options: Any) -> bool:
    return templates_ready_of(archive)


_NEAR_OPTIONS = (
    Param("threshold", "int", "Least similarity, in percent (Jaccard of three-word "
          "shingles): 90 finds a page with a few words changed, 70 a shared boilerplate "
          "with some text of its own.", default=NEAR_THRESHOLD, minimum=50, maximum=100,
          example=80),
    Param("population", "choice", "Which pages are compared: indexable ones (2xx, not "
          "noindex, canonical absent or self) or all rendered HTML pages.",
          default="indexable", choices=POPULATIONS, example="all"),
    Param("selector", "str", "The content area, a CSS selector (default: the main region "
          "— <main>, role=main, #main, .content … — else the body without header, nav, "
          "aside and footer).", example="article", max_length=1000),
    Param("min_words", "int", "Pages with fewer words in their content area are not "
          "compared.", default=NEAR_MIN_WORDS, minimum=3, maximum=100_000, example=20),
    *_paging(),
)

_URL_PATTERN = Param("url_pattern", "str", "SQL LIKE pattern on the URL: % any run, _ one "
                     "character.", example="%/news/%")
_SORT_ORDER = Param("sort_order", "choice", "Sort direction.", default="asc",
                    choices=("asc", "desc"), example="desc")
_PAGE_URL = Param("url", "str", "The page URL exactly as stored (scheme, host, path, query).",
                  required=True, example="https://example.com/about/")

REDIRECT_COLUMNS = ("redirectKind", "redirectTo", "finalUrl", "finalStatus", "redirectLoop")
"""What ``list_pages(redirects=True)`` adds to each item that a table shows."""

_POPULATION = Param("population", "choice", "Which pages count: indexable ones (2xx, not "
                    "noindex, canonical absent or self) or all rendered HTML pages of the "
                    "site (error pages too).", default="indexable", choices=POPULATIONS,
                    example="all")

QUERIES: tuple[QuerySpec, ...] = (
    QuerySpec(
        "get_summary", "summary", get_summary,
        "Site overview: page counts, status and content-type distribution, metadata rates.",
        (_POPULATION,), is_list=False,
        examples=("nitpicker-query summary site.nitpicker",),
    ),
    QuerySpec(
        "list_pages", "pages", list_pages,
        "List pages, filtered by status, metadata gaps, URL pattern or content type.",
        (
            Param("status", "int", "Only this HTTP status (-1 = network failure).",
                  example=404),
            Param("status_min", "int", "Only statuses at least this.", example=400),
            Param("status_max", "int", "Only statuses at most this.", example=599),
            Param("is_external", "tristate", "True: only external URLs; false: only the "
                  "site's own.", example=False),
            Param("missing_title", "flag", "Only pages without a title.", default=False),
            Param("missing_description", "flag", "Only pages without a meta description.",
                  default=False),
            Param("missing", "choice", "Only pages without this meta field (the fields of "
                  "the summary's metadataFulfillment).", choices=tuple(PAGE_META),
                  example="ogImage"),
            Param("noindex", "flag", "Only pages whose robots meta says noindex.",
                  default=False),
            Param("indexable", "tristate", "True: only pages search engines would index "
                  "(2xx, not noindex, canonical absent or self: what the summary's metadata "
                  "shares and duplicates count); false: only the others.", example=True),
            Param("redirects", "flag", "Only URLs that redirect: HTTP 3xx, meta refresh, "
                  "Refresh header, a script's navigation (rendered crawls); each with its "
                  "kind, next hop, final URL and status, and the chain hop by hop.",
                  default=False),
            _URL_PATTERN,
            Param("directory", "str", "Only URLs under this path: /blog matches /blog/…, "
                  "not /en/blog/… (a trailing / is added; a value starting with http is a "
                  "URL prefix).", example="/blog"),
            Param("content_type_category", "choice", "List this kind of content instead of "
                  "HTML pages.", choices=CATEGORIES, example="pdf"),
            Param("skipped", "choice", "URLs the crawl skipped (robots.txt, excludes, soft "
                  "cap, nofollow): left out, included, or only those; listed ones have a "
                  "skipReason.", default="exclude", choices=PAGE_SKIPPED, example="only"),
            Param("search", "str", "Only URLs or titles containing this text (either "
                  "case; in titles accents too: Ecoute finds Écoute).", example="contact"),
            Param("skip_reason", "str", "Only skipped URLs with this exact reason "
                  "(dedupe-cap, robots.txt, nofollow, excluded …); an unknown reason is "
                  "an error listing the archive's reasons.",
                  example="dedupe-cap"),
            Param("security_headers", "flag", "Add hasCSP, hasXFrameOptions, "
                  "hasXContentTypeOptions and hasHSTS to each item.", default=False),
            Param("link_score", "flag", "Add linkScore (internal PageRank, 0-100) to each "
                  "item; --sort-by linkScore sorts by it.", default=False),
            Param("cap_event", "int", "Only the URLs the soft cap refused under this cap "
                  "event id (listed by dedupe-cap-events).", minimum=1,
                  example=1),
            Param("sort_by", "choice", "Sort key.", default="url", choices=tuple(PAGE_SORTS),
                  example="status"),
            _SORT_ORDER,
            *_paging(),
        ),
        examples=(
            "nitpicker-query pages site.nitpicker --missing-title --no-is-external",
            "nitpicker-query pages site.nitpicker --status-min 400 --sort-by status",
            "nitpicker-query pages site.nitpicker --content-type-category pdf",
            "nitpicker-query pages site.nitpicker --redirects --format table",
        ),
        table_columns=("url", "status", "title", "contentType", "isExternal", "noindex",
                       "skipReason"),
        option_columns=(("redirects", REDIRECT_COLUMNS),
                        ("security_headers", tuple(key for key, _ in SECURITY_HEADERS)),
                        ("link_score", ("linkScore",))),
    ),
    QuerySpec(
        "get_page_detail", "page-detail", get_page_detail,
        "Everything about one URL: meta, headers, links in and out, redirects to it.",
        (
            _PAGE_URL,
            Param("links_limit", "int", "Most links listed in each of outboundLinks, "
                  "inboundLinks and redirectFrom (their totals are exact).", default=100,
                  minimum=1, maximum=MAX_LIMIT, example=20),
            Param("link_score", "flag", "Add the page's link score (internal PageRank, "
                  "0-100; computed for the whole archive on first use).", default=False),
        ),
        is_list=False, not_found="No page with URL {url} in this archive "
        "(URLs must match exactly as stored; list them with list_pages, or the pages command).",
        examples=("nitpicker-query page-detail site.nitpicker --url https://example.com/",),
    ),
    QuerySpec(
        "get_page_html", "html", get_page_html,
        "The stored HTML snapshot of one URL, cut to a maximum length.",
        (
            _PAGE_URL,
            Param("max_length", "int", "Most characters (UTF-16 units) returned; "
                  "truncated says whether the snapshot was cut.", default=100_000,
                  minimum=1, example=30_000),
        ),
        is_list=False, not_found="No stored HTML for {url} in this archive (the URL is "
        "absent, or it is not an HTML page the crawler rendered).",
        examples=("nitpicker-query html site.nitpicker --url https://example.com/ "
                  "--max-length 2000",),
        text_field="html",
    ),
    QuerySpec(
        "find_duplicates", "duplicates", find_duplicates,
        "Titles or descriptions shared by two or more pages, biggest groups first.",
        (
            Param("field", "choice", "Which text to compare.", default="title",
                  choices=("title", "description"), example="description"),
            _POPULATION,
            Param("pages_limit", "int", "Most URLs listed per group (count is exact).",
                  default=20, minimum=1, maximum=MAX_LIMIT, example=5),
            Param("sort_by", "choice", "Sort by count or value instead of biggest first.",
                  choices=tuple(DUPLICATE_SORTS), example="value"),
            _SORT_ORDER,
            *_paging(50),
        ),
        examples=("nitpicker-query duplicates site.nitpicker --field description",),
    ),
    QuerySpec(
        "find_near_duplicates", "near-duplicates", find_near_duplicates,
        "Groups of pages whose content is at least --threshold % alike (MinHash over "
        "three-word shingles of the content area), biggest first.",
        _NEAR_OPTIONS,
        examples=("nitpicker-query near-duplicates site.nitpicker",
                  "nitpicker-query near-duplicates site.nitpicker --threshold 80 "
                  "--selector article"),
        table_columns=("pages", "similarity", "representativeUrl", "title"),
        heavy=True, ready=near_ready,
    ),
    QuerySpec(
        "get_near_duplicates", "near-duplicates-of", get_near_duplicates,
        "The near duplicates of one page, most alike first, with the passages that differ.",
        (
            Param("url", "str", "The page (URL exactly as stored).", required=True,
                  example="https://example.com/products/shirt-red/"),
            *_NEAR_OPTIONS,
        ),
        not_found="No page with URL {url} in this archive.",
        examples=("nitpicker-query near-duplicates-of site.nitpicker --url "
                  "https://example.com/products/shirt-red/",),
        table_columns=("similarity", "url", "onlyHere", "onlyThere"),
        heavy=True, ready=near_ready,
    ),
    QuerySpec(
        "find_duplicate_bodies", "duplicate-bodies", find_duplicate_bodies,
        "Pages whose bodies are identical once dynamic ids are masked, biggest groups "
        "first (upstream's body hash).",
        (
            Param("pages_limit", "int", "Most URLs listed per group (count is exact).",
                  default=20, minimum=1, maximum=MAX_LIMIT, example=5),
            *_paging(50),
        ),
        examples=("nitpicker-query duplicate-bodies site.nitpicker",),
        table_columns=("count", "urls", "bodyHash"),
    ),
    QuerySpec(
        "find_duplicate_clusters", "duplicate-body-clusters", find_duplicate_clusters,
        "Groups of identical bodies with one title (crawler traps: a pager past its end, "
        "a calendar), those whose og:url points elsewhere first.",
        (
            Param("min_count", "int", "Smallest group reported.", default=10, minimum=2,
                  example=50),
            Param("sample_pages_limit", "int", "Member URLs listed per group (count is "
                  "exact).", default=20, minimum=1, maximum=MAX_LIMIT, example=5),
            *_paging(50),
        ),
        examples=("nitpicker-query duplicate-body-clusters site.nitpicker --min-count 5",),
        table_columns=("count", "title", "ogUrlMismatchRatio", "commonDirectories",
                       "samplePages"),
    ),
    QuerySpec(
        "find_mismatches", "mismatches", find_mismatches,
        "Pages whose canonical, og:title or og:description disagrees with the page.",
        (
            Param("type", "choice", "What to compare.", required=True,
                  choices=tuple(MISMATCH_TYPES), example="canonical"),
            *_paging(),
        ),
        examples=("nitpicker-query mismatches site.nitpicker --type og:title",),
    ),
    QuerySpec(
        "list_links", "links", list_links,
        "Broken links (an error after redirects: 4xx, 5xx or a failed fetch), external "
        "links, or orphaned pages.",
        (
            Param("type", "choice", "broken: links whose target answers an error "
                  "(see broken_as); external: links leaving the site; orphaned: pages "
                  "nothing links to; all: every link.", required=True,
                  choices=LINK_TYPES, example="broken"),
            Param("broken_as", "choice", "broken: which statuses count — error (4xx, 5xx or a "
                  "failed fetch), 4xx, or 404 (upstream's rule).", default="error",
                  choices=tuple(BROKEN_AS), example="404"),
            Param("destination", "choice", "broken: links to pages of the site (internal), "
                  "leaving it (external), or both.", default="both",
                  choices=LINK_DESTINATIONS, example="internal"),
            Param("include_redirect_sources", "flag", "Judge the literal link target "
                  "instead of where its redirects end.", default=False),
            Param("by_destination", "flag", "broken/external/all: one item per "
                  "destination, with the number of pages and anchors linking to it, most "
                  "referred first.", default=False),
            Param("source_pattern", "str", "Only links from pages whose URL matches this "
                  "SQL LIKE pattern.", example="%/blog/%"),
            Param("destination_pattern", "str", "Only links whose destination (after "
                  "redirects) matches this SQL LIKE pattern.", example="%/products/%"),
            Param("sort_by", "choice", "Sort by this item key instead: sourceUrl, destUrl or "
                  "status for links; destUrl, status or referrerCount with by_destination; "
                  "url, title or status for orphaned pages.", choices=LINK_SORTS,
                  example="status"),
            _SORT_ORDER,
            *_paging(),
        ),
        examples=("nitpicker-query links site.nitpicker --type broken",
                  "nitpicker-query links site.nitpicker --type broken --destination internal",
                  "nitpicker-query links site.nitpicker --type broken --broken-as 404",
                  "nitpicker-query links site.nitpicker --type all --source-pattern "
                  "'%/blog/%' --destination-pattern '%/products/%'"),
    ),
    QuerySpec(
        "list_resource_hosts", "resource-hosts", list_resource_hosts,
        "Every host the pages load sub-resources from: files, pages, bytes, failures (the "
        "site's third-party dependencies).",
        (
            Param("is_external", "tristate", "True: only third-party hosts; false: only the "
                  "site's own.", example=True),
            Param("sort_by", "choice", "Sort key (default: pages, most first).",
                  default="pages", choices=HOST_SORTS, example="bytes"),
            Param("sort_order", "choice", "Sort direction (default: desc, asc for host).",
                  choices=("asc", "desc"), example="asc"),
            *_paging(),
        ),
        examples=("nitpicker-query resource-hosts site.nitpicker --is-external",),
        table_columns=("pages", "resources", "bytes", "failed", "host"),
    ),
    QuerySpec(
        "list_pages_by_resource", "pages-by-resource", list_pages_by_resource,
        "The pages loading a sub-resource, by URL pattern or host.",
        (
            Param("resource_pattern", "str", "SQL LIKE pattern on the resource URL.",
                  example="%jquery%"),
            Param("host", "str", "The resource's host, as resource-hosts names it.",
                  example="cdn.example.net"),
            *_paging(),
        ),
        examples=("nitpicker-query pages-by-resource site.nitpicker --resource-pattern "
                  "'%jquery%'",),
        table_columns=("resources", "url", "first"),
    ),
    QuerySpec(
        "match_urls", "match-urls", match_urls,
        "A list of URLs against the crawl: found, redirect, external, skipped (why), "
        "not fetched, or missing.",
        (
            Param("urls", "str", "The URLs (the flag may be repeated; several separated by "
                  "spaces), at most 1,000.", required=True, repeatable=True,
                  example="https://example.com/old-page"),
        ),
        is_list=False,
        examples=("nitpicker-query match-urls site.nitpicker --url https://example.com/a "
                  "--url https://example.com/b",),
        table_columns=("result", "status", "url", "matchedAs", "reason"),
    ),
    QuerySpec(
        "list_resources", "resources", list_resources,
        "Sub-resources (CSS, scripts, images, fonts) the pages loaded.",
        (
            Param("content_type", "str", "Prefix of the MIME type.", example="image/"),
            Param("is_external", "tristate", "True: only third-party; false: only the "
                  "site's own.", example=True),
            _URL_PATTERN,
            Param("sort_by", "choice", "Sort key.", default="url",
                  choices=tuple(RESOURCE_SORTS), example="contentLength"),
            _SORT_ORDER,
            *_paging(),
        ),
        examples=("nitpicker-query resources site.nitpicker --content-type text/css",),
    ),
    QuerySpec(
        "get_resource_referrers", "resource-referrers", get_resource_referrers,
        "Pages that loaded one resource URL.",
        (
            Param("resource_url", "str", "The resource URL exactly as listed by resources.",
                  required=True, example="https://example.com/style.css"),
            *_paging(),
        ),
        not_found="No resource with URL {resource_url} in this archive (list them with "
        "list_resources, or the resources command).",
        examples=("nitpicker-query resource-referrers site.nitpicker --resource-url "
                  "https://example.com/style.css",),
    ),
    QuerySpec(
        "list_images", "images", list_images,
        "Images with missing alt text, no rendered size, or oversized files.",
        (
            Param("missing_alt", "flag", "Only images without an alt attribute (alt=\"\" "
                  "is not missing: see --empty-alt).", default=False),
            Param("empty_alt", "flag", "Only images with alt=\"\" (decorative: to review, "
                  "not a fault).", default=False),
            Param("missing_dimensions", "flag", "Only images rendered 0 wide or high (of "
                  "rendered pages: a --no-render crawl measured none).", default=False),
            Param("oversized_threshold", "int", "Only images whose intrinsic width or "
                  "height exceeds this many pixels.", minimum=0, example=2000),
            Param("url_pattern", "str", "SQL LIKE pattern on the image src.",
                  example="%.png"),
            Param("sort_by", "choice", "Sort by this item key instead of page URL.",
                  choices=tuple(IMAGE_SORTS), example="width"),
            _SORT_ORDER,
            *_paging(),
        ),
        examples=("nitpicker-query images site.nitpicker --missing-alt",),
    ),
    QuerySpec(
        "check_headers", "headers", check_headers,
        "Security headers (CSP, X-Frame-Options, X-Content-Type-Options, HSTS) per page.",
        (
            Param("missing_only", "flag", "Only pages missing at least one of the four.",
                  default=False),
            Param("sort_by", "choice", "Sort by URL or by one header's flag (ascending: "
                  "pages without it first).", choices=HEADER_SORTS, example="hasCSP"),
            _SORT_ORDER,
            *_paging(),
        ),
        examples=("nitpicker-query headers site.nitpicker --missing-only",),
    ),
)

QUERIES += (
    QuerySpec(
        "get_duplicate_clusters", "duplicate-clusters", get_duplicate_clusters,
        "Groups of pages sharing title, description, og:title and og:url (trap clusters).",
        (
            Param("min_count", "int", "Smallest cluster reported.", default=10, minimum=2,
                  example=50),
            Param("by", "choice", "Group by the parent path's signature, or by the URL "
                  "shape's (also joins traps spread over several parents).",
                  default="signature", choices=GROUPINGS, example="shape"),
            Param("sample_pages_limit", "int", "Member URLs listed per cluster (count is "
                  "exact).", default=20, minimum=1, maximum=MAX_LIMIT, example=5),
            Param("sort_by", "choice", "count with sort_order asc: smallest first (the "
                  "default order is biggest first).", choices=CLUSTER_SORTS, example="count"),
            Param("sort_order", "choice", "Sort direction.", default="desc",
                  choices=("asc", "desc"), example="asc"),
            *_paging(50),
        ),
        examples=("nitpicker-query duplicate-clusters site.nitpicker",
                  "nitpicker-query duplicate-clusters site.nitpicker --by shape "
                  "--min-count 50"),
        table_columns=("count", "shapeKey", "ogUrlMismatchCount", "signature",
                       "suggestedExclude"),
    ),
    QuerySpec(
        "get_duplicate_cluster", "duplicate-cluster", get_duplicate_cluster,
        "Every page of one duplicate cluster.",
        (
            Param("signature", "str", "A cluster's signature, as listed by "
                  "duplicate-clusters.", required=True,
                  example="79dc25ad3abcbc287973c7ecba30e1a951991ee0"),
            *_paging(),
        ),
        not_found="No cluster with signature {signature} in this archive (list them with "
        "get_duplicate_clusters, or the duplicate-clusters command).",
        examples=("nitpicker-query duplicate-cluster site.nitpicker --signature "
                  "79dc25ad3abcbc287973c7ecba30e1a951991ee0",),
    ),
    QuerySpec(
        "list_dedupe_cap_events", "dedupe-cap-events", list_dedupe_cap_events,
        "Clusters the crawl's soft cap stopped, newest first, with the URLs each refused.",
        (
            Param("event", "int", "Only the cap event with this id (a refused URL's "
                  "page-detail names it).", minimum=1, example=1),
            Param("sort_by", "choice", "Sort by this item key instead of newest first.",
                  choices=tuple(EVENT_SORTS), example="rejectedCount"),
            _SORT_ORDER,
            *_paging(),
        ),
        examples=("nitpicker-query dedupe-cap-events site.nitpicker",),
        table_columns=("id", "shapeKey", "observedCount", "effectiveThreshold",
                       "rejectedCount", "sampleUrl"),
    ),
)

QUERIES += (
    QuerySpec(
        "list_inbound_links", "inbound-links", list_inbound_links,
        "Every page linking to one URL (redirects resolved, one per referring page), paged.",
        (
            Param("url", "str", "The linked URL exactly as stored.", required=True,
                  example="https://example.com/about/"),
            Param("limit", "int", f"Referring pages per page, 0–{MAX_LIMIT} (0: only the "
                  "total).", default=100, minimum=0, maximum=MAX_LIMIT, example=0),
            Param("offset", "int", "Items to skip; use the previous result's nextOffset.",
                  default=0, minimum=0, example=100),
        ),
        not_found="No page with URL {url} in this archive (URLs must match exactly as "
        "stored; list them with list_pages, or the pages command).",
        examples=("nitpicker-query inbound-links site.nitpicker --url https://example.com/",
                  "nitpicker-query inbound-links site.nitpicker --url https://example.com/ "
                  "--limit 0"),
        table_columns=("url", "textContent"),
    ),
    QuerySpec(
        "list_pages_by_jsonld_type", "pages-by-jsonld-type", list_pages_by_jsonld_type,
        "Pages carrying a JSON-LD entry of one top-level @type (Product, FAQPage …).",
        (
            Param("type", "str", "The top-level JSON-LD @type, exactly.", required=True,
                  example="Product"),
            *_paging(),
        ),
        examples=("nitpicker-query pages-by-jsonld-type site.nitpicker --type Product",),
        table_columns=("url", "status", "title"),
    ),
    QuerySpec(
        "count_pages_by_jsonld_type", "count-pages-by-jsonld-type",
        count_pages_by_jsonld_type,
        "How many pages carry a JSON-LD entry of one @type (the list's total, no list).",
        (Param("type", "str", "The top-level JSON-LD @type, exactly.", required=True,
               example="Product"),),
        is_list=False,
        examples=("nitpicker-query count-pages-by-jsonld-type site.nitpicker --type Product",),
    ),
    QuerySpec(
        "get_page_jsonld", "page-jsonld", get_page_jsonld,
        "One page's JSON-LD entries, parsed (slim: no @context, deep levels cut).",
        (
            _PAGE_URL,
            Param("full", "flag", "Every level, and the raw script text of each entry.",
                  default=False),
        ),
        is_list=False, not_found="No page with URL {url} in this archive.",
        examples=("nitpicker-query page-jsonld site.nitpicker --url https://example.com/",
                  "nitpicker-query page-jsonld site.nitpicker --url https://example.com/ "
                  "--full"),
    ),
    QuerySpec(
        "get_page_jsonld_overview", "page-jsonld-overview", get_page_jsonld_overview,
        "One page's JSON-LD entries: kind, type, size in bytes and parse error of each.",
        (_PAGE_URL,),
        is_list=False, not_found="No page with URL {url} in this archive.",
        examples=("nitpicker-query page-jsonld-overview site.nitpicker --url "
                  "https://example.com/",),
    ),
)

_PROVIDER = Param("provider", "str", "The technology, exactly as detected.", required=True,
                  example="Google Tag Manager")
_EXTERNAL_ID = Param("external_id", "str", "Only this container or property id of it.",
                     example="GTM-ABC123")

QUERIES += (
    QuerySpec(
        "list_pages_by_tag", "pages-by-tag", list_pages_by_tag,
        "Pages using one detected technology (optionally one id of it, GTM-… / G-…).",
        (_PROVIDER, _EXTERNAL_ID, *_paging()),
        examples=("nitpicker-query pages-by-tag site.nitpicker --provider WordPress",
                  "nitpicker-query pages-by-tag site.nitpicker --provider 'Google Tag "
                  "Manager' --external-id GTM-ABC123"),
        table_columns=("url", "status", "title"),
    ),
    QuerySpec(
        "count_pages_by_tag", "count-pages-by-tag", count_pages_by_tag,
        "How many pages use one detected technology (the list's total, no list).",
        (_PROVIDER, _EXTERNAL_ID), is_list=False,
        examples=("nitpicker-query count-pages-by-tag site.nitpicker --provider jQuery",),
    ),
    QuerySpec(
        "get_tag_inventory", "tag-inventory", get_tag_inventory,
        "Every detected technology with its page count, categories, versions and ids.",
        (*_paging(),),
        examples=("nitpicker-query tag-inventory site.nitpicker",),
        table_columns=("provider", "pageCount", "category", "versions", "externalIds"),
    ),
    QuerySpec(
        "get_page_tags", "page-tags", get_page_tags,
        "The technologies detected on one page, with version, confidence and evidence.",
        (_PAGE_URL,), is_list=False, not_found="No page with URL {url} in this archive.",
        examples=("nitpicker-query page-tags site.nitpicker --url https://example.com/",),
    ),
)

QUERIES += (
    QuerySpec(
        "get_violations", "violations", get_violations,
        "Findings of the analyze plugins (nitpicker-crawl analyze, or upstream's), per page.",
        (
            Param("validator", "str", "Only this validator.", example="axe"),
            Param("severity", "str", "Only this severity, as the validator names it.",
                  example="error"),
            Param("rule", "str", "Only this rule.", example="color-contrast"),
            Param("url_pattern", "str", "SQL LIKE pattern on the page URL: % any run, _ one "
                  "character.", example="%/news/%"),
            Param("url", "str", "Only this page (its exact URL).",
                  example="https://example.com/"),
            Param("sort_by", "choice", "Order by page URL, validator, severity, rule, "
                  "message or code (ties by page URL).", default="url",
                  choices=tuple(VIOLATION_SORTS), example="rule"),
            Param("sort_order", "choice", "Sort direction.", default="asc",
                  choices=("asc", "desc"), example="desc"),
            *_paging(),
        ),
        examples=("nitpicker-query violations site.nitpicker --validator axe "
                  "--severity error",),
        table_columns=("url", "validator", "severity", "rule", "message"),
    ),
)

QUERIES += (
    QuerySpec(
        "get_template_clusters", "template-clusters", get_template_clusters,
        "Pages folded into their templates by DOM structure, biggest first.",
        (
            Param("min_count", "int", "Smallest template cluster reported.", default=1,
                  minimum=1, example=10),
            Param("sample_pages_limit", "int", "Member URLs listed per cluster (count is "
                  "exact).", default=5, minimum=1, maximum=MAX_LIMIT, example=3),
            Param("sort_by", "choice", "count with sort_order asc: smallest first (the "
                  "default order is biggest first).", choices=("count",), example="count"),
            Param("sort_order", "choice", "Sort direction.", default="desc",
                  choices=("asc", "desc"), example="asc"),
            Param("reasons", "tristate", "Why each template's pages are together (blocking, "
                  "landmarks, sibling clusters): on by default, most of an item's bytes.",
                  example=False),
            *_paging(50),
        ),
        examples=("nitpicker-query template-clusters site.nitpicker",
                  "nitpicker-query template-clusters site.nitpicker --min-count 10"),
        table_columns=("count", "id", "key", "capEventIds"),
        heavy=True, ready=_templates_ready,
    ),
    QuerySpec(
        "get_template_cluster", "template-cluster", get_template_cluster,
        "Every page of one template cluster, with why its pages are together.",
        (
            Param("key", "str", "A template cluster's id (t- and ten hex digits) or its "
                  "key, as listed by template-clusters.", required=True,
                  example="t-5d41402abc"),
            *_paging(),
        ),
        not_found="No template cluster with id or key {key} in this archive (list them "
        "with get_template_clusters, or the template-clusters command).",
        examples=("nitpicker-query template-cluster site.nitpicker --key t-5d41402abc",
                  "nitpicker-query template-cluster site.nitpicker --key "
                  "'[\"path:blog|css:/static/site.css\",\"cluster:0\"]'"),
        table_columns=("url", "title"),
        heavy=True, ready=_templates_ready,
    ),
    QuerySpec(
        "list_console_logs", "console-logs", list_console_logs,
        "Console messages and uncaught errors of the rendered pages, each distinct one "
        "once, most frequent first.",
        (
            Param("type", "str", "Only this message type (error, warning, log, info, "
                  "pageerror for uncaught errors …).", example="error", max_length=40),
            Param("sort_by", "choice", "What to sort by.", default="totalCount",
                  choices=tuple(CONSOLE_SORTS), example="pageCount"),
            Param("sort_order", "choice", "Sort direction.", default="desc",
                  choices=("asc", "desc"), example="asc"),
            *_paging(),
        ),
        examples=("nitpicker-query console-logs site.nitpicker --type error",),
        table_columns=("type", "totalCount", "pageCount", "text", "url", "line"),
    ),
    QuerySpec(
        "get_page_console_logs", "page-console-logs", get_page_console_logs,
        "Every console message and uncaught error of one page, in order.",
        (_PAGE_URL,),
        is_list=False, not_found="No page with URL {url} in this archive (URLs must match "
        "exactly as stored; list them with list_pages, or the pages command).",
        examples=("nitpicker-query page-console-logs site.nitpicker --url "
                  "https://example.com/",),
    ),
    QuerySpec(
        "search_html", "search-html", search_html,
        "The site's HTML pages whose stored HTML contains a text or matches a regular "
        "expression, with snippets.",
        (
            Param("pattern", "str", "A literal (case-sensitive), or /regex/flags (Python "
                  "syntax; flags i, m, s, x).", required=True, example="/G-[A-Z0-9]{6,}/"),
            Param("context", "int", "Characters of HTML either side of a match in a "
                  "snippet, 0-500.", default=60, minimum=0, maximum=500, example=60),
            _URL_PATTERN,
            *_paging(),
        ),
        examples=("nitpicker-query search-html site.nitpicker --pattern 'gtag('",
                  "nitpicker-query search-html site.nitpicker --pattern '/lorem ipsum/i'"),
        table_columns=("matches", "url", "snippets"),
    ),
    QuerySpec(
        "match_selector", "match-selector", match_selector,
        "The site's HTML pages where a CSS selector matches, with each match's text or "
        "attribute value (or the pages where it matches nothing).",
        (
            Param("selector", "str", "A CSS selector, as lexbor reads it.", required=True,
                  example=".price"),
            Param("attribute", "str", "Each match's value of this attribute instead of its "
                  "text.", example="content"),
            Param("absent", "flag", "The pages where the selector matches nothing instead.",
                  default=False),
            _URL_PATTERN,
            *_paging(),
        ),
        examples=("nitpicker-query match-selector site.nitpicker --selector h1",
                  "nitpicker-query match-selector site.nitpicker --selector "
                  "'meta[name=author]' --attribute content"),
        table_columns=("matches", "url", "values"),
    ),
    QuerySpec(
        "match_xpath", "match-xpath", match_xpath,
        "The site's HTML pages where an XPath 1.0 expression selects something, with each "
        "node's text or the expression's value (or the pages where it selects nothing).",
        (
            Param("xpath", "str", "An XPath 1.0 expression, as lxml (libxml2) reads it: "
                  "nodes (//h1), attribute values (//meta[@name='author']/@content), "
                  "numbers (count(//img[not(@alt)])).", required=True,
                  example="//meta[@property='og:image']/@content", max_length=1000),
            Param("absent", "flag", "The pages where the expression selects nothing (an "
                  "empty set, false, 0 or an empty string) instead.", default=False),
            _URL_PATTERN,
            *_paging(),
        ),
        examples=("nitpicker-query match-xpath site.nitpicker --xpath "
                  "\"//meta[@name='author']/@content\"",
                  "nitpicker-query match-xpath site.nitpicker --xpath "
                  "'count(//img[not(@alt)])'"),
        table_columns=("matches", "url", "values"),
    ),
    QuerySpec(
        "list_link_score", "link-score", list_link_score,
        "Pages by link score: internal PageRank on a 0-100 logarithmic scale, strongest "
        "first, with the strong pages that hang on few links or sit deep called out.",
        (
            Param("url", "str", "Only this page (URL exactly as stored).",
                  example="https://example.com/about/"),
            Param("callouts", "flag", "Only the strong pages called out: strong from two "
                  "linking pages or fewer, or deeper than nine pages in ten.", default=False),
            Param("sort_by", "choice", "Sort by link score (the default, strongest first), "
                  "inlinks, depth or url.", default="linkScore", choices=LINK_SCORE_SORTS,
                  example="inlinks"),
            Param("sort_order", "choice", "Sort direction (default: desc for linkScore and "
                  "inlinks, asc for depth and url).", choices=("asc", "desc"),
                  example="asc"),
            *_paging(),
        ),
        examples=("nitpicker-query link-score site.nitpicker",
                  "nitpicker-query link-score site.nitpicker --callouts"),
        table_columns=("linkScore", "inlinks", "depth", "url", "callout"),
    ),
    QuerySpec(
        "list_network_outages", "network-outages", list_network_outages,
        "Windows in which nothing answered the crawl: it paused, probed, and fetched again "
        "what failed meanwhile.",
        _paging(),
        examples=("nitpicker-query network-outages site.nitpicker",),
        table_columns=("startedAt", "endedAt", "probeHost", "triggerErrorCount", "failures"),
    ),
    QuerySpec(
        "list_browser_outages", "browser-outages", list_browser_outages,
        "Losses of a lent browser (--browser-endpoint) during the crawl: when, for how "
        "long, and the pages moved to another browser (none is lost).",
        _paging(),
        examples=("nitpicker-query browser-outages site.nitpicker",),
        table_columns=("endpoint", "startedAt", "seconds", "pagesMoved", "reason"),
    ),
    QuerySpec(
        "list_isolated_pages", "isolated-pages", list_isolated_pages,
        "Pages of the sitemaps or the --list that no crawled page links to (orphans), "
        "each alone.",
        _paging(),
        examples=("nitpicker-query isolated-pages site.nitpicker",),
        table_columns=("url", "status", "source", "title"),
    ),
    QuerySpec(
        "list_isolated_clusters", "isolated-clusters", list_isolated_clusters,
        "Groups of orphan pages that link only each other, biggest first.",
        _paging(),
        examples=("nitpicker-query isolated-clusters site.nitpicker",),
        table_columns=("size", "representativeUrl", "status", "title"),
    ),
    QuerySpec(
        "get_isolated_cluster", "isolated-cluster", get_isolated_cluster,
        "Every page of one isolated cluster.",
        (Param("representative_url", "str", "The cluster's representativeUrl, as listed by "
               "isolated-clusters.", required=True, example="https://example.com/old/a/"),),
        is_list=False, not_found="No isolated cluster named {representative_url} in this "
        "archive (list them with list_isolated_clusters, or the isolated-clusters command).",
        examples=("nitpicker-query isolated-cluster site.nitpicker --representative-url "
                  "https://example.com/old/a/",),
    ),
    QuerySpec(
        "get_page_main_contents", "main-contents", get_page_main_contents,
        "One page's main region: its length and its headings, images, tables, buttons, "
        "iframes, media, canvases and custom elements.",
        (_PAGE_URL,),
        is_list=False, not_found="No page with URL {url} in this archive (URLs must match "
        "exactly as stored; list them with list_pages, or the pages command).",
        examples=("nitpicker-query main-contents site.nitpicker --url "
                  "https://example.com/",),
    ),
    QuerySpec(
        "list_unused_resources", "unused-resources", list_unused_resources,
        "The site's files (stylesheets, scripts, images, fonts, media) that no page loads.",
        _paging(),
        examples=("nitpicker-query unused-resources site.nitpicker",),
        table_columns=("url", "status", "contentType", "source"),
    ),
)

QUERIES += (
    QuerySpec(
        "compare_archives", "compare", compare_archives,
        "What changed between two crawls of a site: the summary, or one list of changes.",
        (
            Param("old", "str", "The earlier crawl's archive (.nitpicker file or crawl "
                  "directory); ARCHIVE is the later one.", required=True, positional=True,
                  archive=True, example="site-2026-11.nitpicker"),
            Param("kind", "choice", "One list instead of the summary: changed (a field of "
                  "a page both crawls fetched), added, removed (now 404/410, redirected, "
                  "or no longer linked), not-comparable, broken-links (new or fixed), "
                  "clusters (trap events and duplicate clusters, new or gone).",
                  choices=COMPARE_KINDS, example="changed"),
            Param("field", "choice", "With kind changed: only this field.",
                  choices=COMPARED_FIELDS, example="title"),
            Param("maps", "str", "Rewrite the old crawl's URLs before matching: "
                  "OLD_PREFIX=NEW_PREFIX, or /regex/=replacement; several separated by "
                  "spaces (the flag may be repeated).", repeatable=True,
                  example="https://staging.example.com/=https://www.example.com/"),
            *_paging(),
        ),
        is_list=False,
        examples=("nitpicker-query compare site-old.nitpicker site.nitpicker",
                  "nitpicker-query compare site-old.nitpicker site.nitpicker --kind changed "
                  "--field title",
                  "nitpicker-query compare staging.nitpicker prod.nitpicker --map "
                  "'https://staging.example.com/=https://www.example.com/'"),
    ),
)

BY_NAME: dict[str, QuerySpec] = {q.name: q for q in QUERIES}
BY_COMMAND: dict[str, QuerySpec] = {q.command: q for q in QUERIES}
