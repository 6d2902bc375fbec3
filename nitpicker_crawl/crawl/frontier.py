"""The crawl queue: every URL once, pages first and fairly, and a count of what is left.

``add`` refuses a URL it has seen (identity from :mod:`nitpicker_crawl.fetch.urls`). URLs that
look like pages wait in one FIFO queue *per URL path shape* — the shape key without its
query (:func:`nitpicker_query.keys.page_keys.shape_key`): ``example.com/list/date/{n}/``,
``example.com/index.php`` — served round-robin: each turn takes the oldest URL of the
next path shape that has one. Inside a path shape the order stays breadth-first (an
endless pager advances one step per turn; a wiki's articles, linked from its main page,
come before the views of their views), and across path shapes no family can starve the
others — a trap whose pages each link two or
three new trap URLs fills its own queue, not everyone's, so the rest of the site keeps
being crawled at its own pace and the trap's pages come up (and get capped) early.
Everything else of the site (images, PDFs) waits in a second FIFO served when no page
is queued: the guess only changes order, never coverage. External links wait in a third,
served only to the workers of their own lane (``next(external=True)``): a slow or dead
host somewhere else never holds a worker of the site, and the site's URLs never queue
behind the link checks.

``next`` waits while other workers may still discover URLs and returns None once
nothing is queued or in flight — the crawl's end.

At most ``max_queued`` URLs wait at once (``--max-queued``): a site whose every page links
thousands of new URLs fills it, and from then on :meth:`Frontier.add` refuses new ones
(the crawler counts them on the page that linked them) until the queue drains.
"""

from __future__ import annotations

import asyncio
from collections import Counter, OrderedDict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from nitpicker_query.keys.page_keys import parent_key, shape_key, split_shape

from ..fetch.urls import is_likely_html

EXTERNAL_PER_HOST = 2
"""External links of one host checked at once (a page linking 300 URLs of one host does
not have them asked all at once); one until its first link is done."""
MAX_SETTLED_HOSTS = 1_000_000
"""External hosts remembered as settled (past it, new hosts stay at one link at a time)."""


@dataclass(frozen=True)
class QueueItem:
    url: str
    external: bool
    metadata_only: bool


class Frontier:
    """``on_parent_idle(parent_key)`` is called when no internal URL of that parent key
    is queued or in flight any more (the soft cap's release mechanism (c))."""

    def __init__(self, on_parent_idle: Callable[[str], None] | None = None, *,
                 max_queued: int | None = None, per_host: int = EXTERNAL_PER_HOST) -> None:
        self._on_parent_idle = on_parent_idle
        self.max_queued = max_queued
        self._pending_by_parent: Counter[str] = Counter()
        # path shape → its FIFO; insertion order is the round-robin order (a served shape
        # moves to the end; an emptied one leaves)
        self._pages: OrderedDict[str, deque[QueueItem]] = OrderedDict()
        self._page_count = 0
        self._rest: deque[QueueItem] = deque()
        # external links: host → its FIFO, served in turn to hosts with room (at most
        # ``per_host`` of one host in flight: a worker never waits for a busy host)
        self._external: OrderedDict[str, deque[QueueItem]] = OrderedDict()
        self._external_count = 0
        self._host_busy: Counter[str] = Counter()
        # hosts one of whose links is done: their robots.txt and connection are settled,
        # so the next ones may go ``per_host`` at a time (a host never heard of gets one
        # worker: a second would only wait on its robots.txt, or its silence, too)
        self._settled: set[str] = set()
        self.per_host = per_host
        self.seen: set[str] = set()
        self.in_flight = 0
        self.closed = False
        self._changed = asyncio.Condition()
        self.found_internal = 0
        self.found_external = 0
        # asked in turn whenever the queue runs dry with nothing in flight, until one
        # queues something (how many it queued): the site's inventory (every URL linked
        # from the roots is done by then), the failures held during a network outage
        self.refills: list[Callable[[], Awaitable[int]]] = []
        self._wakes: set[asyncio.Future[None]] = set()

    def mark_seen(self, url: str) -> None:
        """Remember a URL without queueing it (already in the archive on resume)."""
        self.seen.add(url)

    @property
    def queued(self) -> int:
        return self._page_count + len(self._rest) + self._external_count

    @property
    def full(self) -> bool:
        """No room for another URL (``--max-queued``)."""
        return self.max_queued is not None and self.queued >= self.max_queued

    def add(self, url: str, *, external: bool, metadata_only: bool) -> bool:
        """Queue ``url`` unless seen or the queue is full; True when it was queued."""
        if url in self.seen or self.closed or self.full:
            return False
        self.seen.add(url)
        item = QueueItem(url, external, metadata_only)
        if not external and is_likely_html(url):
            self._enqueue_page(item)
        else:
            self._enqueue(item)
        if external:
            self.found_external += 1
        else:
            self._found(url)
        return True

    def _enqueue_page(self, item: QueueItem) -> None:
        """Into its path shape's FIFO."""
        self._pages.setdefault(split_shape(shape_key(item.url))[0], deque()).append(item)
        self._page_count += 1

    def _found(self, url: str) -> None:
        self.found_internal += 1
        if self._on_parent_idle is not None:
            self._pending_by_parent[parent_key(url)] += 1

    def _enqueue(self, item: QueueItem) -> None:
        """An external link into its host's FIFO, anything else of the site into the rest."""
        if item.external:
            self._external.setdefault(urlsplit(item.url).netloc, deque()).append(item)
            self._external_count += 1
        else:
            self._rest.append(item)

    def _ready_host(self) -> str | None:
        """The first host (in turn) with a link queued and room for one more in flight."""
        return next((h for h in self._external if self._host_busy[h] < (
            self.per_host if h in self._settled else 1)), None)

    def _has(self, external: bool) -> bool:
        if external:
            return self._ready_host() is not None
        return bool(self._page_count or self._rest)

    def _pop(self, external: bool) -> QueueItem:
        if external:
            host = self._ready_host()
            assert host is not None
            queue = self._external[host]
            item = queue.popleft()
            self._external_count -= 1
            self._host_busy[host] += 1
            if queue:
                self._external.move_to_end(host)
            else:
                del self._external[host]
            return item
        if self._page_count:
            shape, queue = next(iter(self._pages.items()))
            item = queue.popleft()
            self._page_count -= 1
            if queue:
                self._pages.move_to_end(shape)
            else:
                del self._pages[shape]
            return item
        return self._rest.popleft()

    async def next(self, *, external: bool = False) -> QueueItem | None:
        """The next URL to fetch — of the site, or an external link with ``external`` —;
        None when the crawl is over (or stopped): nothing queued in either lane and
        nothing in flight."""
        async with self._changed:
            while True:
                if self.closed:
                    return None
                if self._has(external):
                    self.in_flight += 1
                    return self._pop(external)
                if self.in_flight == 0 and not self.queued:
                    if await self._refilled():
                        continue
                    self._changed.notify_all()
                    return None
                await self._changed.wait()

    async def _refilled(self) -> bool:
        for refill in self.refills:
            if await refill() and self.queued:
                return True
        return False

    def again(self, items: list[QueueItem]) -> None:
        """Queue ``items`` once more, seen or not (URLs whose fetch failed during a
        network outage), and wake the workers waiting for work. Not a coroutine holding
        the queue's lock: a refill (which runs under it) calls it too."""
        if self.closed:
            return
        for item in items:
            self._enqueue(item)
        self._wake_soon()

    def _wake_soon(self) -> None:
        task = asyncio.ensure_future(self._wake())
        self._wakes.add(task)
        task.add_done_callback(self._wakes.discard)

    def requeue(self, urls: list[str]) -> int:
        """Queue internal page URLs once more although seen (a soft-cap suspect's waiting
        URLs, its probes): each in its path shape's queue. Not a coroutine: a refill, which
        runs under the queue's lock, calls it. How many were queued."""
        if self.closed:
            return 0
        for url in urls:
            self._enqueue_page(QueueItem(url, False, False))
            self._found(url)
        if urls:
            self._wake_soon()
        return len(urls)

    async def _wake(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def done(self, item: QueueItem | None = None) -> None:
        async with self._changed:
            self.in_flight -= 1
            if item is not None and item.external:
                host = urlsplit(item.url).netloc
                if len(self._settled) < MAX_SETTLED_HOSTS:
                    self._settled.add(host)
                self._host_busy[host] -= 1
                if self._host_busy[host] <= 0:
                    del self._host_busy[host]
            self._changed.notify_all()
        if item is not None and not item.external and self._on_parent_idle is not None:
            key = parent_key(item.url)
            self._pending_by_parent[key] -= 1
            if self._pending_by_parent[key] <= 0:
                del self._pending_by_parent[key]
                self._on_parent_idle(key)

    async def close(self) -> None:
        """Stop handing out URLs (Ctrl-C, --max-pages); queued ones stay recorded."""
        async with self._changed:
            self.closed = True
            self._changed.notify_all()
