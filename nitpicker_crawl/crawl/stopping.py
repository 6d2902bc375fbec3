"""How a crawl stops, each way with its name: ``interrupted`` (Ctrl-C, SIGTERM, SIGHUP:
no new fetches, the pages in flight get ``--stop-grace`` seconds, the archive is
written), ``max-pages`` (the fetches of ``--max-pages`` spent) and ``network-outage``
(an outage longer than ``--max-outage``). Every stop closes the frontier and leaves
what was not fetched for ``--resume``; ``complete`` is what is left when none came.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Callable, Coroutine
from typing import Any

from ..fetch.outages import Watch
from ..options import CrawlOptions
from .frontier import Frontier, QueueItem
from .outcome import CrawlOutcome, Held
from .progress import Progress

SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class Stops:
    """The stops of one crawl, and the URLs in flight a stop may have to abandon."""

    def __init__(self, options: CrawlOptions, frontier: Frontier, outcome: CrawlOutcome,
                 progress: Progress,
                 spawn: Callable[[Coroutine[Any, Any, Any]], None]) -> None:
        self.options = options
        self.frontier = frontier
        self.outcome = outcome
        self.progress = progress
        self._spawn = spawn
        self.watch: Watch[Held] | None = None   # the outage watch, once running
        self.in_flight: dict[asyncio.Task[Any], QueueItem] = {}  # worker's task → its URL
        self.fetches = 0   # URLs of the site fetched, the whole archive (--max-pages)
        self._requests = 0
        self._installed: list[signal.Signals] = []

    def install(self) -> None:
        """Ctrl-C, SIGTERM and SIGHUP stop the crawl (on the running loop)."""
        loop = asyncio.get_running_loop()
        for sig in SIGNALS:
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, self.request, "interrupted", sig)
                self._installed.append(sig)

    def uninstall(self) -> None:
        loop = asyncio.get_running_loop()
        for sig in self._installed:
            loop.remove_signal_handler(sig)
        self._installed.clear()

    def request(self, reason: str = "interrupted", signum: int | None = None) -> None:
        """Ctrl-C, SIGTERM, SIGHUP: stop scheduling; the pages in flight get
        ``--stop-grace`` seconds, then are abandoned (left for ``--resume``). A second
        Ctrl-C abandons them at once."""
        self._requests += 1
        if self.outcome.stop_reason == "complete":
            self.outcome.stop_reason = reason
        if signum is not None and self.outcome.signal is None:
            self.outcome.signal = signum
        if self._requests == 1:
            name = signal.Signals(signum).name if signum is not None else "stop"
            grace = self.options.stop_grace_s
            self.progress.say(f"[nitpicker] {reason} ({name}): finishing the pages in flight "
                              f"for at most {grace:g} s (Ctrl-C again to stop at once)…")
            asyncio.get_running_loop().call_later(grace, self.abandon_in_flight)
        if self.watch is not None:
            self.watch.stop()   # an outage is not waited out any more
        self._spawn(self.frontier.close())
        if self._requests > 1:
            self.abandon_in_flight()

    def abandon_in_flight(self) -> None:
        """The grace period is over: cancel what is still in flight."""
        for task in list(self.in_flight):
            task.cancel()

    def reserve_fetch(self) -> bool:
        """One of ``--max-pages``' fetches for a URL of the site, or False once they are
        spent: the crawl then stops scheduling (reason ``max-pages``) and the URL stays
        unfetched for a later ``--resume``. Reserved before the request, so parallel
        workers never overshoot."""
        limit = self.options.max_pages
        if limit is None:
            return True
        if self.fetches < limit:
            self.fetches += 1
            return True
        if self.outcome.stop_reason == "complete":
            self.outcome.stop_reason = "max-pages"
        if not self.frontier.closed:
            self._spawn(self.frontier.close())
        return False

    def give_up(self) -> None:
        """An outage longer than --max-outage: the crawl stops, resumable."""
        if self.outcome.stop_reason == "complete":
            self.outcome.stop_reason = "network-outage"
        self._spawn(self.frontier.close())
