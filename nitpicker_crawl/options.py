"""Every crawl setting and its default, in one place (flags map to fields one to one).

A crawl's options are stored in its archive (``crawl_runs.options``, JSON) so that
``--resume`` continues with the same settings; archives written before that table
existed, or by upstream, give back what their ``info`` row records.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Any

from .fetch.endpoints import Endpoint
from .fetch.request_headers import TOKEN, RequestHeaders

RUN_LOCAL = frozenset({"roots", "silent", "headers", "browser_endpoints", "local_browser"})
"""Fields that belong to one run, not to the crawl: never restored on ``--resume``
(the roots come from ``info.roots``; ``--silent`` is how this terminal wants it; the
request headers' values are never stored — ``header_names`` records their names, and a
resumed run sends only the headers given to it; the browsers lent to a run are that run's
machines, and an endpoint's URL may hold a token)."""

FLAGS: dict[str, str] = {
    "parallels": "--parallels", "interval_ms": "--interval", "excludes": "--exclude",
    "exclude_urls": "--exclude-url", "exclude_patterns": "--exclude-pattern",
    "exclude_keywords": "--exclude-keyword", "fetch_external": "--fetch-external",
    "disable_queries": "--disable-queries", "ignore_robots": "--ignore-robots",
    "user_agent": "--user-agent", "render": "--render", "image": "--image",
    "max_pages": "--max-pages", "timeout_s": "--timeout", "retry": "--retry",
    "strict": "--strict", "silent": "--silent", "dedupe_cap": "--dedupe-cap",
    "dedupe_age_window": "--dedupe-age-window", "dedupe_map_cap": "--dedupe-map-cap",
    "dedupe_allow": "--dedupe-allow", "follow_nofollow": "--follow-nofollow",
    "detect_tech": "--detect-tech", "max_body_size": "--max-body-size",
    "page_timeout_s": "--page-timeout", "max_links_per_page": "--max-links-per-page",
    "external_timeout_s": "--external-timeout",
    "max_queued": "--max-queued", "stop_grace_s": "--stop-grace",
    "max_tab_memory_mb": "--max-tab-memory", "templates": "--templates",
    "sitemap": "--sitemap", "max_outage_s": "--max-outage",
    "main_contents": "--main-contents", "main_content_selector": "--main-content-selector",
}
"""The command-line flag of each field a user can set (booleans also have ``--no-…``)."""

MINIMUM: dict[str, int] = {
    "parallels": 1, "interval_ms": 0, "max_pages": 1, "retry": 1, "dedupe_cap": 1,
    "dedupe_age_window": 1, "dedupe_map_cap": 2, "max_redirects": 0,
    "max_body_size": 1024, "max_links_per_page": 1, "max_queued": 1, "max_tab_memory_mb": 64,
}
"""Smallest value of each integer field; the CLI refuses less, a stored value less is
ignored on ``--resume``."""


@dataclass(frozen=True)
class CrawlOptions:
    """What ``nitpicker-crawl`` was asked to do. Defaults are the CLI's defaults."""

    roots: tuple[str, ...]
    parallels: int = 4                  # concurrent fetches / browser pages
    interval_ms: int = 0                # pause between two requests, all workers together
    excludes: tuple[str, ...] = ()      # path globs (--exclude)
    exclude_urls: tuple[str, ...] = ()  # URL prefixes (--exclude-url)
    exclude_patterns: tuple[str, ...] = ()  # full-URL regexes (--exclude-pattern)
    exclude_keywords: tuple[str, ...] = ()  # text or /regex/ in the HTML (--exclude-keyword)
    fetch_external: bool = True         # HEAD (and title) of external links
    disable_queries: bool = False       # drop query strings from every URL
    ignore_robots: bool = False
    user_agent: str = "nitpicker-py/0.1 (+site audit crawler)"
    render: bool = True                 # Chromium via Playwright; False = HTTP + parser
    image: bool = True                  # record <img> elements
    max_pages: int | None = None        # safety net: fetched URLs of the site, whole archive
    timeout_s: float = 30.0             # per-page render / fetch budget (first attempt: /3)
    retry: int = 3                      # attempts for transport failures
    strict: bool = False                # external-only errors exit 1 instead of 2
    silent: bool = False                # no progress line
    dedupe_cap: int | None = None       # soft cap N (off by default; 100 recommended)
    dedupe_age_window: int = 5000       # (b) observations before an uncapped counter drops
    dedupe_map_cap: int = 100_000       # (d) most counters held at once
    dedupe_allow: tuple[str, ...] = ()  # path globs the soft cap never observes or gates
    follow_nofollow: bool = False       # follow nofollow pages' links and rel=nofollow links
    detect_tech: bool = True            # technology detection into page_tags
    templates: bool = True              # template clusters stored at the end of a crawl
    sitemap: bool = True                # the site's sitemaps as its inventory (orphans)
    main_contents: bool = True          # each page's main region and its inventories
    main_content_selector: str = ""     # CSS selector of the main region ("": the usual)
    # limits on what a site controls (docs/security.md, "Sites from strangers")
    max_body_size: int = 50 << 20       # decoded bytes of one body (HTML, external title)
    page_timeout_s: float = 120.0       # one URL: every hop, retry, header and body byte
    external_timeout_s: float = 15.0    # one external link: every hop and attempt
    max_links_per_page: int = 5000      # new URLs taken from one page
    max_queued: int = 1_000_000         # URLs waiting in the frontier
    stop_grace_s: float = 10.0          # Ctrl-C / SIGTERM: how long pages in flight get
    max_tab_memory_mb: int = 1024       # one rendering tab's processes (RSS)
    max_outage_s: float = 600.0         # a network outage longer than this stops the crawl
    recursive: bool = True
    max_redirects: int = 10
    html_codec: str = "zstd"
    fetch_once: bool = True             # rendering: the fetched response answers the browser
                                        # (False: HEAD, then the browser's own GET; kept for
                                        # bench/fetch_once.py, which measures the difference)
    # --header, --authorization, --header-file: for the site's hosts; never stored
    headers: RequestHeaders = field(default_factory=RequestHeaders)
    # --browser-endpoint (with --browser-slots) and --no-local-browser: where pages render
    browser_endpoints: tuple[Endpoint, ...] = ()
    local_browser: bool = True

    @property
    def workers(self) -> int:
        """Pages in flight at once: ``parallels`` on this machine's browser (or without a
        browser), plus each browser endpoint's slots."""
        if not self.render or not self.browser_endpoints:
            return self.parallels
        return (self.parallels if self.local_browser else 0) + sum(
            e.slots for e in self.browser_endpoints)

    def info_row(self) -> dict[str, Any]:
        """The ``info`` columns the archive records for these options."""
        return {
            "recursive": self.recursive, "interval": self.interval_ms, "image": self.image,
            "fetchExternal": self.fetch_external, "parallels": self.parallels,
            "excludes": list(self.excludes), "excludeKeywords": list(self.exclude_keywords),
            "excludeUrls": list(self.exclude_urls), "maxExcludedDepth": 0,
            "retry": self.retry, "fromList": False, "disableQueries": self.disable_queries,
            "userAgent": self.user_agent, "ignoreRobots": self.ignore_robots,
        }

    def to_json(self) -> str:
        """Every field but the run-local ones, as the JSON ``crawl_runs.options`` holds;
        of the request headers, their names only (``header_names``): a value may be a
        password, and an archive is shared."""
        values: dict[str, Any] = {f.name: getattr(self, f.name)
                                  for f in dataclasses.fields(self) if f.name not in RUN_LOCAL}
        values["header_names"] = list(self.headers.names)
        return json.dumps(values, sort_keys=True)

    @staticmethod
    def stored_header_names(text: str | None) -> tuple[str, ...]:
        """The request headers' names a stored ``crawl_runs.options`` records (what
        ``--resume`` warns about when they are not given again); anything that is not a
        list of header names (another version's, a stranger's) counts as none."""
        try:
            data = json.loads(text) if text else {}
        except ValueError:
            return ()
        names = data.get("header_names") if isinstance(data, dict) else None
        if not isinstance(names, list):
            return ()
        return tuple(n for n in names if isinstance(n, str) and TOKEN.fullmatch(n))

    @staticmethod
    def stored(text: str | None) -> dict[str, Any]:
        """Fields from a stored ``crawl_runs.options`` value; unknown or ill-typed entries
        (another version's, or a stranger's) are dropped, never trusted."""
        try:
            data = json.loads(text) if text else {}
        except ValueError:
            return {}
        if not isinstance(data, dict):
            return {}
        out: dict[str, Any] = {}
        for f in dataclasses.fields(CrawlOptions):
            if f.name in RUN_LOCAL or f.name not in data:
                continue
            value = _typed(getattr(_DEFAULTS, f.name), data[f.name], f.name)
            if value is not _BAD:
                out[f.name] = value
        return out

    @staticmethod
    def from_info(info: dict[str, Any]) -> dict[str, Any]:
        """Fields an ``info`` row records (upstream's option columns)."""
        def as_list(value: Any) -> Any:
            if isinstance(value, str):
                try:
                    value = json.loads(value)
                except ValueError:
                    return _BAD
            return value

        mapping = {"interval": "interval_ms", "parallels": "parallels", "retry": "retry",
                   "image": "image", "fetchExternal": "fetch_external",
                   "disableQueries": "disable_queries", "ignoreRobots": "ignore_robots",
                   "userAgent": "user_agent", "recursive": "recursive",
                   "excludes": "excludes", "excludeKeywords": "exclude_keywords",
                   "excludeUrls": "exclude_urls"}
        out: dict[str, Any] = {}
        for column, name in mapping.items():
            raw = info.get(column)
            if raw is None:
                continue
            if name in ("excludes", "exclude_keywords", "exclude_urls"):
                raw = as_list(raw)
            value = _typed(getattr(_DEFAULTS, name), raw, name)
            if value is not _BAD:
                out[name] = value
        return out


_BAD = object()
_DEFAULTS = CrawlOptions(roots=())
_OPTIONAL_INT = {"max_pages", "dedupe_cap"}


def _typed(default: Any, value: Any, name: str) -> Any:
    """``value`` converted to the field's type, or ``_BAD``."""
    if name in _OPTIONAL_INT and value is None:
        return None
    if name in MINIMUM:
        if isinstance(value, bool) or not isinstance(value, int):
            return _BAD
        return value if value >= MINIMUM[name] else _BAD
    if isinstance(default, bool):
        return bool(value) if isinstance(value, (bool, int)) else _BAD
    if isinstance(default, float):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0
        return float(value) if ok else _BAD
    if isinstance(default, str):
        return value if isinstance(value, str) else _BAD
    if isinstance(default, tuple):
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return tuple(value)
        return _BAD
    return _BAD  # pragma: no cover - every field type is handled above
