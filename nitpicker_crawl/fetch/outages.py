"""Network outages: a crawl that pauses when the network (or the whole site) stops
answering, and tries again what failed meanwhile, instead of recording every URL it
meets as broken.

A laptop that loses Wi-Fi for half a minute, a site restarting behind its load balancer,
a VPN reconnecting: each turns hundreds of good pages into "connection refused" rows, and
the audit reports a broken site. The failures that say so — refused, reset, timed-out
connections, DNS that does not answer, an unreachable network — are *held* rather than
stored as soon as they happen (once the site has answered: a site that never does is
not there, and its failures are stored at once). A failure of the site's own URLs
followed by an answer of the site's is the site's (a dead page): the held failures are
stored then. But
:data:`TRIGGER_FAILURES` in a row of the site's URLs, with no answer between, raise the
question, and a probe of the site (its first start URL, a HEAD) answers it:

- the probe answers: the failures are real (pages of a host that is down, links to a dead
  server) and are stored;
- the probe fails too: an outage. Every fetch waits (the workers stop at a gate), the
  probe is tried again after 1, 2, 4, 8, then every 15 s, and when it answers the window
  is closed and every held URL is queued again. A window longer than ``--max-outage``
  ends the crawl as interrupted, the held URLs left queued for ``--resume``.

Each window is a row of upstream's ``network_outages`` table (start: the first failure of
the row; detection; end; the probe's host; how many failures on how many hosts set it
off), so a reader can tell "the site was down" from "our network was down".
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from nitpicker_query.format.error_kinds import classify_error_kind

NETWORK_KINDS = frozenset({"connection-refused", "connection-reset", "connection-timeout",
                           "dns", "dns-transient", "local-network"})
"""Failure kinds that say "nothing answered", not "the server answered badly"."""

TRIGGER_FAILURES = 4
"""Failures of the site's URLs in a row, no answer of the site's between, before the
probe is asked. Fewer would probe on every dead link; four parallel fetches failing
together is what a network that went away looks like."""

PROBE_DELAYS_S = (1.0, 2.0, 4.0, 8.0, 15.0)
"""Waits between probes during an outage; the last repeats."""

T = TypeVar("T")


def is_network_failure(message: str) -> bool:
    """Does a failure message say that nothing answered (see :data:`NETWORK_KINDS`)?"""
    return classify_error_kind(message) in NETWORK_KINDS


@dataclass
class Window:
    """One outage, as ``network_outages`` holds it (times in epoch ms)."""

    started_at: int
    detected_at: int
    probe_host: str
    trigger_error_count: int
    trigger_host_count: int
    ended_at: int | None = None
    retried: int = 0


@dataclass
class _Held(Generic[T]):
    item: T
    internal: bool
    host: str
    at: float


@dataclass
class Watch(Generic[T]):
    """The outage state of one crawl. ``T`` is what a held failure carries (the crawler's
    queue item and message).

    ``probe()``: does the site answer? ``store(held)``: record failures as failures;
    ``retry(held)``: queue them again; ``give_up()``: stop the crawl. ``say``: one line
    for the user."""

    probe: Callable[[], Awaitable[bool]]
    store: Callable[[list[T]], Awaitable[None]]
    retry: Callable[[list[T]], Awaitable[None]]
    give_up: Callable[[], None]
    probe_host: str
    max_wait_s: float = 600.0
    say: Callable[[str], None] = lambda _line: None
    clock: Callable[[], float] = time.time
    online: asyncio.Event = field(default_factory=asyncio.Event)
    stopped: asyncio.Event = field(default_factory=asyncio.Event)   # Ctrl-C, SIGTERM
    windows: list[Window] = field(default_factory=list)
    _held: list[_Held[T]] = field(default_factory=list)
    _streak: int = 0
    _checking: asyncio.Task[None] | None = None
    gave_up: bool = False
    # the site has answered once in this run: before that, nothing answering is a site
    # that is not there (a wrong address), not an outage to wait out
    answered_once: bool = False

    def __post_init__(self) -> None:
        self.online.set()

    @property
    def held(self) -> int:
        return len(self._held)

    @property
    def checking(self) -> bool:
        return self._checking is not None and not self._checking.done()

    def failed(self, value: T, message: str, *, internal: bool, host: str) -> bool:
        """A fetch failed with ``message``: True when the failure is held (a network
        kind, after the site answered once), False when the caller stores it now."""
        if not self.answered_once or not is_network_failure(message):
            return False
        self._held.append(_Held(value, internal, host, self.clock()))
        if internal:
            self._streak += 1
            if self._streak >= TRIGGER_FAILURES and not self.checking and not self.gave_up:
                self._checking = asyncio.ensure_future(self.check())
        return True

    async def answered(self, *, internal: bool) -> None:
        """A fetch got an answer (any status). One of the site's breaks the row: the
        failures held so far are the site's own and are stored; another host's answer
        settles only the other hosts' failures."""
        if internal:
            self.answered_once = True
        if self.checking:
            return
        if internal:
            self._streak = 0
            done, self._held = self._held, []
        else:
            done = [h for h in self._held if not h.internal]
            self._held = [h for h in self._held if h.internal]
        if done:
            await self.store([h.item for h in done])

    async def check(self) -> None:
        """Probe the site; on failure, pause every fetch until it answers (or give up)."""
        if await self.probe():
            self._streak = 0
            done, self._held = self._held, []
            if done:
                await self.store([h.item for h in done])
            return
        first = min((h.at for h in self._held), default=self.clock())
        window = Window(started_at=int(first * 1000), detected_at=int(self.clock() * 1000),
                        probe_host=self.probe_host,
                        trigger_error_count=len(self._held),
                        trigger_host_count=len({h.host for h in self._held}))
        self.windows.append(window)
        self.online.clear()
        self.say(f"[network] {window.trigger_error_count} fetches failed in a row and "
                 f"{self.probe_host} does not answer: paused, probing until it does "
                 f"(--max-outage {self.max_wait_s:g} s)")
        began = time.monotonic()
        attempt = 0
        while True:
            delay = PROBE_DELAYS_S[min(attempt, len(PROBE_DELAYS_S) - 1)]
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stopped.wait(), timeout=delay)
            if self.stopped.is_set():   # the crawl is stopping: the held URLs stay held
                window.ended_at = int(self.clock() * 1000)
                self.online.set()
                return
            attempt += 1
            if await self.probe():
                break
            if time.monotonic() - began > self.max_wait_s:
                window.ended_at = int(self.clock() * 1000)
                self.say(f"[network] {self.probe_host} still does not answer after "
                         f"{self.max_wait_s:g} s (--max-outage): stopping; the "
                         f"{len(self._held)} URL(s) it failed are left for --resume")
                self.gave_up = True
                self.give_up()
                self.online.set()
                return
        window.ended_at = int(self.clock() * 1000)
        held, self._held = self._held, []
        self._streak = 0
        window.retried = len(held)
        self.say(f"[network] {self.probe_host} answers again after "
                 f"{(window.ended_at - window.detected_at) / 1000:.0f} s: "
                 f"{len(held)} URL(s) that failed meanwhile are tried again")
        await self.retry([h.item for h in held])
        self.online.set()

    async def settle(self) -> int:
        """The crawl has nothing left to fetch: wait for a check under way, then judge what
        is still held (the last failures of a crawl never met an answer after them) by
        one check of its own. Returns how many URLs it queued again."""
        if self.checking:
            assert self._checking is not None
            await self._checking
        if self.gave_up or self.stopped.is_set():
            return 0
        before = sum(w.retried for w in self.windows)
        if any(h.internal for h in self._held):
            await self.check()
        elif self._held:
            done, self._held = self._held, []
            await self.store([h.item for h in done])
        return sum(w.retried for w in self.windows) - before

    def stop(self) -> None:
        """The crawl is stopping (Ctrl-C, SIGTERM): no more waiting for the network; what
        is held is left for ``--resume``."""
        self.stopped.set()
        self.online.set()

    def left(self) -> list[T]:
        """What is still held (a crawl stopped during an outage): for ``--resume``."""
        done, self._held = self._held, []
        return [h.item for h in done]
