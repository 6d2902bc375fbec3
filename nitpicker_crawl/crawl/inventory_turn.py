"""The site's inventory in a crawl: its sitemaps and ``--list`` read beside the crawl,
and their URLs no crawled page links to queued when the frontier first runs dry.

Sitemaps are needed only once everything linked is done, so they are read by a task of
their own while the site is crawled; when the frontier first runs dry the inventory's
turn comes (:meth:`InventoryTurn.queue`, a frontier refill): every URL the crawl has not
met is labelled ``inventory-seed``, recorded as queued in one transaction (a ``--resume``
finds them) and crawled.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable

from ..archive import ArchiveWriter
from ..extract.inventory import MAX_SITEMAP_BYTES, Inventory, discover_sitemaps, take
from ..fetch.fetcher import Fetched
from ..fetch.robots import Robots
from ..fetch.scope import Scope
from ..fetch.urls import normalize, origin
from ..options import CrawlOptions
from .frontier import Frontier
from .progress import Counters, Progress
from .records import Records

Get = Callable[[str, int], Awaitable[tuple[int, bytes | None, str | None]]]
"""A throttled GET of the site: status, body (at most the limit), problem."""


class InventoryTurn:
    """The inventory of one crawl. ``listed``: (label, lines, sha256) of ``--list``."""

    def __init__(self, options: CrawlOptions, scope: Scope, frontier: Frontier,
                 records: Records, counters: Counters, progress: Progress, *,
                 listed: tuple[str, list[str], str] | None, labels: bool) -> None:
        self.options = options
        self.scope = scope
        self.frontier = frontier
        self.records = records
        self.counters = counters
        self.progress = progress
        self.inventory = Inventory()
        self._listed = listed
        self._labels = labels   # early 0.10 archives lack the ``source`` column
        # what the archive holds at the end, earlier runs of a --resume included:
        # inventory URLs no crawled page links to, as pages and as files
        self.unlinked = (0, 0)
        self.reached = False   # the frontier ran dry once: the inventory's turn
        self._discovery: asyncio.Future[None] | None = None

    @property
    def writer(self) -> ArchiveWriter:
        return self.records.writer

    def start(self, robots: Robots, get: Get, note: Callable[[str, str], None]) -> None:
        """Read the sitemaps and the list beside the crawl (on the running loop)."""
        self._discovery = asyncio.ensure_future(self._discover(robots, get, note))

    async def _discover(self, robots: Robots, get: Get,
                        note: Callable[[str, str], None]) -> None:
        """Read the site's sitemaps (robots.txt ``Sitemap:`` lines of each root's origin,
        else ``/sitemap.xml``) and the ``--list`` lines into :attr:`inventory`."""
        opts = self.options

        def norm(url: str) -> str | None:
            return normalize(url, disable_queries=opts.disable_queries)

        if self._listed is not None:
            label, lines, sha = self._listed
            listed = self.inventory.source(label, sha256=sha)
            take(self.inventory, listed, lines, norm, self.scope.is_internal)
        if not opts.sitemap:
            return
        starts: dict[str, None] = {}
        guessed: set[str] = set()
        origins = {origin(root) for root in opts.roots}

        def on_site(url: str) -> bool:   # a sitemap file may sit above the crawl's scope
            return origin(url) in origins

        for root in opts.roots:
            declared = await robots.sitemaps(root)
            for url in declared or [origin(root) + "/sitemap.xml"]:
                found = norm(url) if url.lower().startswith(("http://", "https://")) \
                    else None
                if found is not None and on_site(found):
                    starts[found] = None
                    if not declared:
                        guessed.add(found)

        async def fetch(url: str) -> tuple[int, bytes | None, str | None]:
            if not opts.ignore_robots and await robots.check(url) is not None:
                return 0, None, "robots.txt does not allow it"
            return await get(url, MAX_SITEMAP_BYTES)

        source = await discover_sitemaps(list(starts), fetch, self.inventory, norm,
                                         self.scope.is_internal, say=self.progress.say,
                                         guessed=frozenset(guessed), may_fetch=on_site)
        for line in source.notes:
            note(line.split(": ", 1)[0], f"sitemap: {line}")

    async def finish(self, *, interrupted: bool) -> None:
        """The crawl stopped before the inventory's turn: Ctrl-C waits for nothing, any
        other stop lets the sitemaps be read so their count is reported."""
        if self._discovery is None:
            return
        if interrupted:
            self._discovery.cancel()
        with contextlib.suppress(BaseException):
            await self._discovery

    async def queue(self) -> int:
        """Every inventory URL the crawl has not met: labelled ``inventory-seed`` (no
        crawled page links to it: the crawl of the roots is done), recorded as queued
        rows in one transaction (a ``--resume`` finds them), and queued."""
        if self.frontier.closed:
            return 0
        if self._discovery is not None:
            discovery, self._discovery = self._discovery, None
            try:
                await discovery   # reading sitemaps was given until now
            except Exception as exc:  # a bug there must not end the crawl: said, not raised
                self.progress.say(f"[sitemap] reading the sitemaps failed: {exc!r}")
        if self.frontier.closed:
            return 0
        self.reached = True
        if not self.inventory.urls:
            return 0
        seen = self.frontier.seen
        fresh = [u for u in self.inventory.urls if u not in seen]
        # a file pages already load (or an earlier run stored) is fetched again by nobody
        loaded = await self.records.write(lambda: self.writer.resource_urls(fresh))
        fresh = [u for u in fresh if u not in loaded]
        if not fresh:
            return 0
        if self._labels:
            for url in fresh:
                self.writer.sources[url] = "inventory-seed"
        await self.records.write(lambda: self.records.queued(fresh))
        metadata_only = not self.options.recursive
        queued = 0
        for url in fresh:
            if self.frontier.add(url, external=False, metadata_only=metadata_only):
                queued += 1
                self.inventory.urls[url].queued += 1
        self.counters.internal_found = self.frontier.found_internal
        self.progress.say(f"[inventory] {queued:,} URL(s) of the sitemaps or the list that no "
                          "crawled page links to: crawling them now")
        return queued

    # ------------------------------------------------------------------ rows (writer thread)

    def store_runs(self) -> None:
        """One ``inventory_runs`` row per source of this run (upstream's audit table)."""
        for source in self.inventory.sources:
            notes = {"sitemaps": self.inventory.sitemaps_read[:100],
                     "invalid": source.invalid, "notes": source.notes[:50]}
            if self.inventory.dropped:
                notes["overLimit"] = self.inventory.dropped
            self.writer.add_inventory_run(
                label=source.label, sha256=source.sha256, total=source.total,
                new_pages=source.queued - source.resources, new_resources=source.resources,
                scope_skipped=source.out_of_scope, notes=notes)
        self.writer.commit()
        self.unlinked = self.writer.inventory_seeds()

    def store_resource(self, fetched: Fetched) -> None:
        """An inventory file of a sub-resource type: a ``resources`` row labelled
        ``inventory-seed`` in place of its queued ``pages`` row."""
        fields = self.records.response_fields(fetched)
        del fields["scraped"]
        self.writer.forget_queued(fetched.url)
        self.writer.save_resource(fetched.url, **fields, isExternal=0,
                                  compress=fetched.headers.get("content-encoding"),
                                  source="inventory-seed")
        listed = self.inventory.urls.get(fetched.url)
        if listed is not None:
            listed.resources += 1
        self.writer.commit()
