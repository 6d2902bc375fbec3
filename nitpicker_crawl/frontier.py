"""The crawl queue: every URL once, HTML-looking URLs first, and a count of what is left.

``add`` refuses a URL it has seen (identity from :mod:`nitpicker_crawl.urls`). URLs that
look like pages wait in one FIFO queue, everything else (images, PDFs, external links) in
a second one served when the first is empty: pages are crawled before assets and
documents (the guess only changes order, never coverage), and breadth-first — a chain
of "next" links (an endless pager) advances one step per level instead of dragging the
whole crawl down it, which also keeps a trap's URLs close together in the queue.
``next`` waits while other workers may still discover URLs and returns None once
nothing is queued or in flight — the crawl's end.
"""

from __future__ import annotations

import asyncio
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass

from nitpicker_query.keys import parent_key

from .urls import is_likely_html


@dataclass(frozen=True)
class QueueItem:
    url: str
    external: bool
    metadata_only: bool


class Frontier:
    """``on_parent_idle(parent_key)`` is called when no internal URL of that parent key
    is queued or in flight any more (the soft cap's release mechanism (c))."""

    def __init__(self, on_parent_idle: Callable[[str], None] | None = None) -> None:
        self._on_parent_idle = on_parent_idle
        self._pending_by_parent: Counter[str] = Counter()
        self._pages: deque[QueueItem] = deque()
        self._rest: deque[QueueItem] = deque()
        self.seen: set[str] = set()
        self.in_flight = 0
        self.closed = False
        self._changed = asyncio.Condition()
        self.found_internal = 0
        self.found_external = 0

    def mark_seen(self, url: str) -> None:
        """Remember a URL without queueing it (already in the archive on resume)."""
        self.seen.add(url)

    def add(self, url: str, *, external: bool, metadata_only: bool) -> bool:
        """Queue ``url`` unless seen; True when it was new."""
        if url in self.seen or self.closed:
            return False
        self.seen.add(url)
        item = QueueItem(url, external, metadata_only)
        if not external and is_likely_html(url):
            self._pages.append(item)
        else:
            self._rest.append(item)
        if external:
            self.found_external += 1
        else:
            self.found_internal += 1
            if self._on_parent_idle is not None:
                self._pending_by_parent[parent_key(url)] += 1
        return True

    async def next(self) -> QueueItem | None:
        """The next URL to fetch; None when the crawl is over (or stopped)."""
        async with self._changed:
            while True:
                if self.closed:
                    return None
                if self._pages or self._rest:
                    self.in_flight += 1
                    return (self._pages or self._rest).popleft()
                if self.in_flight == 0:
                    self._changed.notify_all()
                    return None
                await self._changed.wait()

    async def done(self, item: QueueItem | None = None) -> None:
        async with self._changed:
            self.in_flight -= 1
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
