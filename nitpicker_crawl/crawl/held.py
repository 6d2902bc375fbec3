"""Failures held while the network may be out: the crawl's side of the outage watch
(:mod:`nitpicker_crawl.fetch.outages`).

A fetch that fails the way a lost network fails is held, not stored; the watch probes the
site, and when something answers it decides: the failures of an outage window are
fetched again, the others were the site's own and are stored as failures.
"""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit

from ..fetch.fetcher import Fetcher, FetchError
from ..fetch.outages import Watch
from ..options import CrawlOptions
from .frontier import Frontier
from .outcome import CrawlOutcome, Held
from .progress import Counters, Progress
from .records import Records
from .stopping import Stops

PROBE_TIMEOUT_S = 10.0
"""Longest wait for the outage probe's answer (less when ``--timeout`` is shorter)."""


class HeldFailures:
    """The held failures of one crawl, and the watch that judges them."""

    def __init__(self, options: CrawlOptions, frontier: Frontier, records: Records,
                 outcome: CrawlOutcome, counters: Counters) -> None:
        self.options = options
        self.frontier = frontier
        self.records = records
        self.outcome = outcome
        self.counters = counters
        self.retried: set[str] = set()   # URLs queued again after an outage
        self._fetcher: Fetcher | None = None
        self._external: Fetcher | None = None

    def watch(self, fetcher: Fetcher, external: Fetcher, stops: Stops,
              progress: Progress) -> Watch[Held]:
        """The outage watch of the crawl, probing the first start URL's host."""
        self._fetcher, self._external = fetcher, external
        roots = self.options.roots
        return Watch(probe=self._probe, store=self._store, retry=self._retry,
                     give_up=stops.give_up, probe_host=urlsplit(roots[0]).netloc
                     if roots else "", max_wait_s=self.options.max_outage_s,
                     say=progress.say)

    def take_retry(self, url: str) -> bool:
        """Is this URL a held one fetched again (its --max-pages fetch already counted)?"""
        retried = url in self.retried
        self.retried.discard(url)
        return retried

    async def _probe(self) -> bool:
        """Does the site answer at all (any status)? One short request to its first start
        URL."""
        assert self._fetcher is not None
        try:
            await asyncio.wait_for(self._fetcher.get(self.options.roots[0], limit=1024),
                                   timeout=min(self.options.timeout_s, PROBE_TIMEOUT_S))
        except (FetchError, TimeoutError):
            return False
        return True

    async def _store(self, held: list[Held]) -> None:
        """Held failures that were the site's own after all: stored as failures."""
        def store() -> None:
            for h in held:
                self.records.failure(h.failed, h.item.external, h.message, h.sources)
        await self.records.write(store)
        for h in held:
            self.outcome.count_error(h.item, h.message)
            if h.item.external:
                self.counters.external_done += 1
            else:
                self.counters.internal_done += 1

    async def _retry(self, held: list[Held]) -> None:
        """Failures inside an outage window: queued again (their --max-pages fetch is
        already counted)."""
        self.retried.update(h.item.url for h in held)
        if self._external is not None:
            self._external.forget_dead_hosts()
        self.frontier.again([h.item for h in held])
