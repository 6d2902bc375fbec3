"""What a crawl hands between its rooms and to the CLI: how it ended, what a resumed
crawl starts from, a failure held during a possible outage, and a redirect chain's hops
as the writer takes them."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..fetch.fetcher import Hop
from .frontier import QueueItem


@dataclass
class CrawlOutcome:
    """How a crawl ended; the CLI turns it into messages and an exit code."""

    stop_reason: str = "complete"
    internal_errors: int = 0
    external_errors: int = 0
    urls_done: int = 0
    pages_saved: int = 0
    seconds: float = 0.0
    first_error: str | None = None
    error_urls: list[str] = field(default_factory=list)
    signal: int | None = None  # the signal that stopped it (SIGINT, SIGTERM, SIGHUP)
    abandoned: int = 0  # pages in flight dropped when the stop's grace period ran out
    problem_pages: int = 0  # pages stored as they stood at a deadline, navigation refused…
    first_problem: str | None = None

    def exit_code(self, strict: bool) -> int:
        """1 URLs of the site failed, 3 stopped by ``--max-pages``, 2 (``--strict``: 1)
        only external links failed, 0 otherwise; the CLI's help documents them."""
        if self.internal_errors:
            return 1
        if self.stop_reason == "max-pages":
            return 3
        if self.stop_reason == "network-outage":
            return 4
        if self.external_errors:
            return 1 if strict else 2
        return 0

    def count_error(self, item: QueueItem, message: str) -> None:
        """One URL that failed: the site's own are listed, the first one's message kept."""
        if item.external:
            self.external_errors += 1
        else:
            self.internal_errors += 1
            self.error_urls.append(item.url)
            self.first_error = self.first_error or message


Hops = list[tuple[str, int | None]]
"""The hops of a redirect chain as the writer takes them: each URL and the status it
answered."""


def hops_of(hops: list[Hop]) -> Hops:
    return [(h.url, h.status) for h in hops]


@dataclass(frozen=True)
class Held:
    """A failure held during a possible network outage: the URL to fetch again, or the
    failure to store if the site was fine (the URL that failed, which may be a hop of its
    redirect chain, the message, the hops before it)."""

    item: QueueItem
    failed: str
    message: str
    sources: Hops


@dataclass(frozen=True)
class Resumed:
    """What a resumed crawl starts from (said on its first line)."""

    done: int       # URLs the crawl is done with (nitpicker_query.queries.totals: urls)
    pages: int      # the site's HTML pages among them (htmlPages)
    queued: int     # URLs found but not fetched yet, queued again
    retried: int    # URLs whose fetch failed, queued to try again
    events: int     # soft-cap events restored (their shapes stay capped)
