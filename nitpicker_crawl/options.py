"""Every crawl setting and its default, in one place (flags map to fields one to one)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


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
    max_pages: int | None = None        # safety net: stop after this many fetches
    timeout_s: float = 30.0             # per-page render / fetch budget (first attempt: /3)
    retry: int = 3                      # attempts for transport failures
    strict: bool = False                # external-only errors exit 1 instead of 2
    silent: bool = False                # no progress line
    dedupe_cap: int | None = None       # soft cap N (off by default; 100 recommended)
    dedupe_age_window: int = 5000       # (b) observations before an uncapped counter drops
    dedupe_map_cap: int = 100_000       # (d) most counters held at once
    dedupe_allow: tuple[str, ...] = ()  # path globs the soft cap never observes or gates
    follow_nofollow: bool = False       # follow nofollow pages' links and rel=nofollow links
    recursive: bool = True
    max_redirects: int = 10
    html_codec: str = "zstd"

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
