"""The crawl loop: workers take URLs from the frontier, fetch, render or parse, enqueue
links, and hand every result to the one archive writer.

Order of checks for a URL (seed 001 §4): robots.txt → excludes → fetch (redirect chain)
→ metadata only (external links, non-HTML) or render/parse (internal HTML) → keyword
exclusion → links. Every refusal is a record: skipped URLs are ``pages`` rows with a
``skipReason``; failures are ``status = -1`` rows plus a ``crawl_errors`` row.

Writes go to a single writer thread (SQLite has one writer; the event loop must not
block on disk), one transaction per URL, so a ``kill -9`` loses only pages in flight.
Stops have names: ``complete``, ``interrupted`` (Ctrl-C / SIGTERM: no new fetches,
in-flight pages finish, the archive is written), ``max-pages``.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from nitpicker_crawl.archive import ArchiveWriter
from nitpicker_query.archive.html_codec import decode_html
from nitpicker_query.format.content_types import SUBRESOURCE_CATEGORIES, classify_content_type
from nitpicker_query.keys.page_keys import is_eligible, page_keys, shape_key, split_shape
from nitpicker_query.keys.signals import declared_target, page_signals
from nitpicker_query.queries.totals import crawl_totals
from nitpicker_query.terminal import fit
from page_cluster.nesting import parse_html

from . import extraction, main_contents, technologies
from .content import Content, body_hash, main_content
from .deferral import MAX_ROUNDS
from .excludes import Excluder, keyword_matcher
from .fetcher import (
    ExternalRedirect,
    Fetched,
    Fetcher,
    FetchError,
    Hop,
    RedirectRefused,
    normalize_content_type,
    sleep_ms,
)
from .frontier import Frontier, QueueItem
from .inventory import MAX_SITEMAP_BYTES, Inventory, discover_sitemaps, take
from .options import CrawlOptions
from .outages import Watch
from .parser import parse, parse_tree
from .progress import Counters, Progress
from .renderer import Document, Renderer
from .robots import ROBOTS_REFUSED, Robots
from .scope import Scope
from .softcap import CapEvent, SoftCap
from .urls import MAX_URL_LENGTH, normalize, origin

PROBE_TIMEOUT_S = 10.0
EXTERNAL_WORKERS = 32
"""Workers checking external links, beside the site's ``--parallels`` (waiting on other
hosts costs no CPU: 16 left a check of 200 links on 40 hosts answering in 0.4 s at 1.6
times the crawl without them, 32 at 1.2; bench/external_checks.py): another host's
slow answer or missing DNS never takes a worker of the site (issue: an offline manual
linking 600 internet URLs took 4.3 times as long as the same crawl without them)."""

"""Longest wait for the outage probe's answer (less when ``--timeout`` is shorter)."""

CHAIN_LINKS = 300
"""Links of a page looked at for one of its own URL shape (a chain: a pager, a day's
previous day), for the soft cap's content rules."""
PRIME_PAGES = 30
"""Archived pages of a path read back when a probe's path is not remembered (a --resume):
enough for a pager's or a feed's repeated items, a few megabytes at most to parse."""


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


Hops = list[tuple[str, int | None]]
"""The hops of a redirect chain as the writer takes them: each URL and the status it
answered."""


def hops_of(hops: list[Hop]) -> Hops:
    return [(h.url, h.status) for h in hops]


class Crawler:
    """One crawl into one :class:`ArchiveWriter`. Build it, ``await run()``."""

    def __init__(self, options: CrawlOptions, writer: ArchiveWriter, *,
                 progress: Progress | None = None,
                 listed: tuple[str, list[str], str] | None = None) -> None:
        self.options = options
        self.writer = writer
        self.scope = Scope(list(options.roots))
        self.excluder = Excluder(options.excludes, options.exclude_urls,
                                 options.exclude_patterns)
        self.keywords = keyword_matcher(options.exclude_keywords)
        self.softcap: SoftCap | None = None
        if options.dedupe_cap:
            allow = Excluder(options.dedupe_allow) if options.dedupe_allow else None
            self.softcap = SoftCap(options.dedupe_cap, age_window=options.dedupe_age_window,
                                   map_cap=options.dedupe_map_cap,
                                   allow=(lambda u: allow.reason(u) is not None)
                                   if allow is not None else None)
        self.frontier = Frontier(self.softcap.parent_idle if self.softcap else None,
                                 max_queued=options.max_queued)
        self._restored_events: set[int] = set()
        self._event_names: dict[int, str] = {}   # cap event → its shape, for the messages
        self.cap_refused = 0   # URLs the soft cap left skipped in the archive, at the end
        self.counters = Counters(parallels=options.parallels)
        self.progress = progress or Progress(self.counters, silent=options.silent)
        self.outcome = CrawlOutcome()
        self._writes = ThreadPoolExecutor(max_workers=1, thread_name_prefix="archive-writer")
        self._reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="content-reader")
        self._claimed: set[str] = set()
        self._last_request = 0.0
        self._interval_lock = asyncio.Lock()
        self.fetcher: Fetcher | None = None
        self.external_fetcher: Fetcher | None = None   # external links' own (run())
        self.renderer: Renderer | None = None
        self.fingerprints: technologies.Fingerprints | None = None
        self._stop_requests = 0
        self._crashed = False
        self._background: set[asyncio.Future[Any]] = set()
        self._nofollow: set[str] = set()  # internal URLs seen only on nofollow links
        self._fetches = 0  # URLs of the site fetched, the whole archive (--max-pages)
        self._in_flight: dict[asyncio.Task[Any], QueueItem] = {}  # worker → its URL
        self._said: set[str] = set()  # one-time warnings already printed
        # the site's inventory (sitemaps, --list: nitpicker_crawl/inventory.py), queued
        # when the frontier first runs dry; ``listed``: (label, lines, sha256) of --list
        self.inventory = Inventory()
        self._listed = listed
        # what the archive holds at the end, earlier runs of a --resume included:
        # inventory URLs no crawled page links to, as pages and as files
        self.inventory_unlinked = (0, 0)
        self.inventory_reached = False   # the frontier ran dry once: the inventory's turn
        # sitemaps are read while the site is crawled: needed only when it is done
        self._discovery: asyncio.Future[None] | None = None
        self._labels = "source" in writer.page_columns  # early 0.10 archives lack it
        self.frontier.refills.append(self._queue_inventory)
        # network outages (nitpicker_crawl/outages.py): made in run(), on the event loop
        self.watch: Watch[Held] | None = None
        self._retried: set[str] = set()   # URLs queued again after an outage

    # ------------------------------------------------------------------ set-up

    def seed(self, roots: list[str]) -> None:
        for root in roots:
            url = normalize(root, disable_queries=self.options.disable_queries)
            if url is not None:
                self.frontier.add(url, external=False, metadata_only=False)

    def seed_from_archive(self) -> Resumed:
        """On resume: every stored URL is seen; unfetched placeholders are queued again,
        and so are the URLs whose fetch failed (status -1: a timeout, a reset, a server
        that was down) — a resumed crawl is the moment to try them once more."""
        label = "source" if self._labels else "NULL"
        rows = self.writer.conn.execute(
            f"SELECT url, scraped, isExternal, isSkipped, redirectDestId, status, {label} "
            "FROM pages ORDER BY id").fetchall()
        queued = retried = 0
        for url, scraped, external, skipped, redirected, status, source in rows:
            if source not in (None, "crawled"):  # an inventory URL keeps its label
                self.writer.sources[url] = str(source)
            failed = scraped and status == -1 and not skipped and redirected is None and (
                not external or self.options.fetch_external)
            if scraped and not failed:
                self.frontier.mark_seen(url)
                if external:
                    self.counters.external_done += 1
                    self.frontier.found_external += 1
                else:
                    self.counters.internal_done += 1
                    self.frontier.found_internal += 1
                    if not skipped and redirected is None:
                        self._fetches += 1
            elif external and not self.options.fetch_external:
                self.frontier.mark_seen(url)
            else:
                internal = self.scope.is_internal(url)
                added = self.frontier.add(url, external=not internal, metadata_only=not internal)
                queued += added
                retried += added and bool(failed)
        events = 0
        if self.softcap is not None:
            for event_id, signature, shapes, qvals, signals in self.writer.cap_events():
                self.softcap.restore(event_id, signature, shapes, qvals, signals)
                self._restored_events.add(event_id)
                self._event_names[event_id] = min(shapes) if shapes else signature
                events += 1
        self.counters.internal_found = self.frontier.found_internal
        self.counters.external_found = self.frontier.found_external
        totals = crawl_totals(self.writer.conn,  # the words and numbers summary uses
                              externals_checked=self.options.fetch_external)
        self.counters.pages_saved = totals["htmlPages"]
        return Resumed(totals["urls"], totals["htmlPages"], queued - retried, retried, events)

    async def _discover_inventory(self) -> None:
        """Read the site's sitemaps (robots.txt ``Sitemap:`` lines of each root's origin,
        else ``/sitemap.xml``) and the ``--list`` lines into :attr:`inventory`, beside the
        crawl (a task of its own): it fetches them when it has done everything linked."""
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
            declared = await self.robots.sitemaps(root)
            for url in declared or [origin(root) + "/sitemap.xml"]:
                found = norm(url) if url.lower().startswith(("http://", "https://")) \
                    else None
                if found is not None and on_site(found):
                    starts[found] = None
                    if not declared:
                        guessed.add(found)

        async def fetch(url: str) -> tuple[int, bytes | None, str | None]:
            if not opts.ignore_robots and await self.robots.check(url) is not None:
                return 0, None, "robots.txt does not allow it"
            assert self.fetcher is not None
            await self._throttle()
            answer = await self.fetcher.get(url, limit=MAX_SITEMAP_BYTES)
            return answer.status, answer.body, answer.problem

        source = await discover_sitemaps(list(starts), fetch, self.inventory, norm,
                                         self.scope.is_internal, say=self.progress.say,
                                         guessed=frozenset(guessed), may_fetch=on_site)
        for note in source.notes:
            self._robots_note(note.split(": ", 1)[0], f"sitemap: {note}")

    async def _queue_inventory(self) -> int:
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
        self.inventory_reached = True
        if not self.inventory.urls:
            return 0
        seen = self.frontier.seen
        fresh = [u for u in self.inventory.urls if u not in seen]
        # a file pages already load (or an earlier run stored) is fetched again by nobody
        loaded = await self._write(lambda: self.writer.resource_urls(fresh))
        fresh = [u for u in fresh if u not in loaded]
        if not fresh:
            return 0
        if self._labels:
            for url in fresh:
                self.writer.sources[url] = "inventory-seed"
        await self._write(lambda: self._store_queued(fresh))
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

    async def _probe(self) -> bool:
        """Does the site answer at all (any status)? One short request to its first start
        URL, for the outage watch."""
        assert self.fetcher is not None
        try:
            await asyncio.wait_for(self.fetcher.get(self.options.roots[0], limit=1024),
                                   timeout=min(self.options.timeout_s, PROBE_TIMEOUT_S))
        except (FetchError, TimeoutError):
            return False
        return True

    async def _store_held(self, held: list[Held]) -> None:
        """Held failures that were the site's own after all: stored as failures."""
        def store() -> None:
            for h in held:
                self._store_failure(h.failed, h.item.external, h.message, h.sources)
        await self._write(store)
        for h in held:
            self._count_error(h.item, h.message)
            if h.item.external:
                self.counters.external_done += 1
            else:
                self.counters.internal_done += 1

    async def _retry_held(self, held: list[Held]) -> None:
        """Failures inside an outage window: queued again (their --max-pages fetch is
        already counted)."""
        self._retried.update(h.item.url for h in held)
        if self.external_fetcher is not None:
            self.external_fetcher.forget_dead_hosts()
        self.frontier.again([h.item for h in held])

    def _give_up(self) -> None:
        """An outage longer than --max-outage: the crawl stops, resumable."""
        if self.outcome.stop_reason == "complete":
            self.outcome.stop_reason = "network-outage"
        self._spawn(self.frontier.close())

    def _store_outages(self, watch: Watch[Held], left: list[str]) -> None:
        for w in watch.windows:
            self.writer.add_network_outage(
                started_at=w.started_at, detected_at=w.detected_at, ended_at=w.ended_at,
                probe_host=w.probe_host, trigger_error_count=w.trigger_error_count,
                trigger_host_count=w.trigger_host_count)
        for url in left:   # failed during an outage the crawl gave up on: for --resume
            self.writer.page_id(url, is_external=not self.scope.is_internal(url))
        self.writer.commit()

    def _robots_note(self, robots_url: str, message: str) -> None:
        """A robots.txt problem: one line on the terminal, one ``crawl_errors`` row."""
        if message not in self._said:
            self._said.add(message)
            self.progress.say(f"[nitpicker] {message}")
        self._spawn(self._write(lambda: self._store_note(robots_url, message)))

    def _store_note(self, url: str, message: str) -> None:
        self.writer.add_crawl_error(url, message)
        self.writer.commit()

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.ensure_future(coroutine)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _write(self, job: Callable[[], Any]) -> Any:
        """Run one transaction in the writer thread: whole or, if it fails, not at all."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._writes, self._atomic, job)

    def _atomic(self, job: Callable[[], Any]) -> Any:
        try:
            return job()
        except BaseException:
            self.writer.rollback()
            raise

    # ------------------------------------------------------------------ running

    def request_stop(self, reason: str = "interrupted", signum: int | None = None) -> None:
        """Ctrl-C, SIGTERM, SIGHUP: stop scheduling; the pages in flight get
        ``--stop-grace`` seconds, then are abandoned (left for ``--resume``). A second
        Ctrl-C abandons them at once."""
        self._stop_requests += 1
        if self.outcome.stop_reason == "complete":
            self.outcome.stop_reason = reason
        if signum is not None and self.outcome.signal is None:
            self.outcome.signal = signum
        if self._stop_requests == 1:
            name = signal.Signals(signum).name if signum is not None else "stop"
            grace = self.options.stop_grace_s
            self.progress.say(f"[nitpicker] {reason} ({name}): finishing the pages in flight "
                              f"for at most {grace:g} s (Ctrl-C again to stop at once)…")
            asyncio.get_running_loop().call_later(grace, self._abandon_in_flight)
        if self.watch is not None:
            self.watch.stop()   # an outage is not waited out any more
        self._spawn(self.frontier.close())
        if self._stop_requests > 1:
            self._abandon_in_flight()

    def _abandon_in_flight(self) -> None:
        """The grace period is over: cancel what is still in flight."""
        for task in list(self._in_flight):
            task.cancel()

    async def run(self) -> CrawlOutcome:
        started = time.monotonic()
        opts = self.options
        self.fetcher = Fetcher(user_agent=opts.user_agent, timeout_s=opts.timeout_s,
                               retry=opts.retry, parallels=opts.parallels,
                               max_redirects=opts.max_redirects,
                               disable_queries=opts.disable_queries,
                               max_body=opts.max_body_size, page_timeout_s=opts.page_timeout_s)
        self.robots = Robots(self.fetcher, opts.user_agent, on_note=self._robots_note)
        # external links: a client, deadline and dead-host memory of their own
        self.external_fetcher = Fetcher(
            user_agent=opts.user_agent, timeout_s=min(opts.timeout_s, opts.external_timeout_s),
            retry=min(opts.retry, 2), parallels=EXTERNAL_WORKERS,
            max_redirects=opts.max_redirects, disable_queries=opts.disable_queries,
            max_body=opts.max_body_size, page_timeout_s=opts.external_timeout_s,
            dead_hosts=True, deadline_flag="--external-timeout")
        self.external_robots = Robots(self.external_fetcher, opts.user_agent,
                                      on_note=self._robots_note, links_only=True)
        self.watch = Watch(probe=self._probe, store=self._store_held, retry=self._retry_held,
                           give_up=self._give_up, probe_host=urlsplit(opts.roots[0]).netloc
                           if opts.roots else "", max_wait_s=opts.max_outage_s,
                           say=self.progress.say)
        self.frontier.refills.append(self.watch.settle)
        if self.softcap is not None:   # the suspects' turn comes when the site is done
            self.frontier.refills.append(self._judge_suspects)
        loop = asyncio.get_running_loop()
        installed = []
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, self.request_stop, "interrupted", sig)
                installed.append(sig)
        try:
            # before the first request; without the optional extra, said once, and the
            # crawl goes on without page_tags
            if opts.detect_tech:
                self.fingerprints, off = technologies.load_or_none()
                if off is not None:
                    self.progress.note(off)
            if opts.render:
                self.progress.note("Starting Chromium…")
                self.renderer = Renderer(size=opts.parallels, user_agent=opts.user_agent,
                                         timeout_s=opts.timeout_s, images=opts.image,
                                         max_tab_memory_mb=opts.max_tab_memory_mb,
                                         answer_documents=opts.fetch_once,
                                         js_paths=technologies.js_paths()
                                         if self.fingerprints is not None else None)
                await self.renderer.start()
            self._discovery = asyncio.ensure_future(self._discover_inventory())
            self._tasks = [asyncio.create_task(self._worker()) for _ in range(opts.parallels)]
            self._tasks += [asyncio.create_task(self._worker(external=True))
                            for _ in range(EXTERNAL_WORKERS if opts.fetch_external else 0)]
            await asyncio.gather(*self._tasks, return_exceptions=True)
        finally:
            if self._discovery is not None:   # stopped before the inventory's turn:
                if self.outcome.stop_reason == "interrupted":   # Ctrl-C waits for nothing
                    self._discovery.cancel()
                with contextlib.suppress(BaseException):   # else its count is reported
                    await self._discovery
            for sig in installed:
                loop.remove_signal_handler(sig)
            if self.renderer is not None:
                await self.renderer.close()
            await self.fetcher.close()
            await self.external_fetcher.close()
            if self._nofollow and not self._crashed:
                unreached = sorted(u for u in self._nofollow if u not in self.frontier.seen)
                await self._write(lambda: self._store_skips(unreached, "nofollow"))
            if self.inventory.sources and not self._crashed:
                await self._write(self._store_inventory_runs)
            if self.watch is not None and not self._crashed:
                watch = self.watch
                left = [h.item.url for h in watch.left()]
                await self._write(lambda: self._store_outages(watch, left))
            if self.softcap is not None and not self._crashed:
                complete = self.outcome.stop_reason == "complete"
                evidence = {k: c.evidence(complete=complete)
                            for k, c in self.softcap.deferral.cases.items()}
                self.cap_refused = await self._write(
                    lambda: self.writer.set_cap_outcomes(evidence))
            await self._write(self.writer.commit)
            self._writes.shutdown(wait=True)
            self._reader.shutdown(wait=True)
            self.outcome.seconds = time.monotonic() - started
            self.outcome.urls_done = self.counters.internal_done + self.counters.external_done
            self.outcome.pages_saved = self.counters.pages_saved
            self.progress.finish()
        return self.outcome

    async def _worker(self, *, external: bool = False) -> None:
        while True:
            item = await self.frontier.next(external=external)
            if item is None:
                return
            result = "done"
            # each URL in a task of its own: the end of a stop's grace period cancels the
            # URL, not the worker, and the URL is recorded for --resume
            task = asyncio.ensure_future(self._process(item))
            self._in_flight[task] = item
            try:
                result = await task
            except asyncio.CancelledError:
                if not task.cancelled():
                    raise  # the worker itself was cancelled
                result = "abandoned"
            except Exception as exc:  # a bug in one URL must not end the crawl
                message = f"internal error while crawling: {type(exc).__name__}: {exc}"
                self.progress.say(f"[nitpicker] {fit(item.url, 200)}: {message}")

                def record(failed: QueueItem = item, text: str = message) -> None:
                    self._store_failure(failed.url, failed.external, text, [])

                with contextlib.suppress(Exception):
                    await self._write(record)
                self._count_error(item, message)
            finally:
                self._in_flight.pop(task, None)
                if result == "abandoned":
                    self.outcome.abandoned += 1
                    def keep(left: QueueItem = item) -> None:
                        self._store_unfetched(left.url, left.external)

                    with contextlib.suppress(Exception):
                        await self._write(keep)
                elif result in ("unfetched", "held"):
                    pass  # left for a later --resume, or judged later (outages): not done
                elif item.external:
                    self.counters.external_done += 1
                else:
                    self.counters.internal_done += 1
                    if result == "saved":
                        self.counters.pages_saved += 1
                self.counters.internal_found = self.frontier.found_internal
                self.counters.external_found = self.frontier.found_external
                self.progress.update()
                await self.frontier.done(item)

    def _reserve_fetch(self) -> bool:
        """One of ``--max-pages``' fetches for a URL of the site, or False once they are
        spent: the crawl then stops scheduling (reason ``max-pages``) and the URL stays
        unfetched for a later ``--resume``. Reserved before the request, so parallel
        workers never overshoot."""
        limit = self.options.max_pages
        if limit is None:
            return True
        if self._fetches < limit:
            self._fetches += 1
            return True
        if self.outcome.stop_reason == "complete":
            self.outcome.stop_reason = "max-pages"
        if not self.frontier.closed:
            self._spawn(self.frontier.close())
        return False

    async def _throttle(self) -> None:
        if self.options.interval_ms <= 0:
            return
        async with self._interval_lock:
            wait = self._last_request + self.options.interval_ms / 1000 - time.monotonic()
            if wait > 0:
                await sleep_ms(int(wait * 1000))
            self._last_request = time.monotonic()

    def _count_error(self, item: QueueItem, message: str) -> None:
        if item.external:
            self.outcome.external_errors += 1
        else:
            self.outcome.internal_errors += 1
            self.outcome.error_urls.append(item.url)
            self.outcome.first_error = self.outcome.first_error or message

    # ------------------------------------------------------------------ one URL

    async def _process(self, item: QueueItem) -> str:
        """Crawl one URL: ``saved`` (an HTML page stored), ``done`` (anything else
        recorded), ``unfetched`` (``--max-pages`` reached first) or ``held`` (a failure
        the outage watch judges later)."""
        url = item.url
        if url in self._claimed:  # already fetched as the target of a redirect
            return "done"
        if self.softcap is not None and not item.external:
            event_id = self.softcap.admit(url, queued=True)
            if event_id is not None:  # queued before its cluster was capped: waits now
                self._refuse(event_id)
                await self._write(lambda: self._store_skip(url, "dedupe-cap", False,
                                                           cap_event=event_id))
                return "done"
        if not self.options.ignore_robots:
            robots = self.external_robots if item.external else self.robots
            verdict = await robots.check(url)
            if verdict == ROBOTS_REFUSED:
                await self._write(lambda: self._store_skip(url, ROBOTS_REFUSED, item.external))
                return "done"
            if verdict is not None:  # robots.txt unreachable: nothing of the origin
                await self._write(lambda: self._store_failure(url, item.external, verdict, []))
                self._count_error(item, verdict)
                return "done"
        reason = self.excluder.reason(url)
        if reason is not None:
            await self._write(lambda: self._store_skip(url, reason, item.external))
            return "done"
        retried = url in self._retried
        self._retried.discard(url)
        if not item.external and not retried and not self._reserve_fetch():
            return "unfetched"
        if self.watch is not None:
            await self.watch.online.wait()   # paused while the network is out
        if not item.external:   # --interval spares the site, not the hosts it links
            await self._throttle()
        fetcher = self.external_fetcher if item.external else self.fetcher
        assert fetcher is not None
        full = not item.metadata_only
        gated: list[int] = []
        try:
            # a page is fetched once: GET with its body, which also answers the
            # browser's navigation when rendering (Renderer.render(document=…))
            once = self.options.fetch_once or not self.options.render
            fetched = await fetcher.fetch(
                url, body=(full and once) or item.external,
                # an external link is asked once, with GET: its title when it is HTML
                head_first=(item.metadata_only or not once) and not item.external,
                gate=None if self.softcap is None or item.external
                else lambda target: self._admit_redirect(target, gated),
                internal=None if item.external else self.scope.is_internal,
                follow_external=self.options.fetch_external)
        except ExternalRedirect as left:
            target, hops = left.target, hops_of(left.hops)
            self.frontier.mark_seen(target)
            await self._write(lambda: self._store_external_target(target, hops))
            return "done"
        except RedirectRefused as refused:
            target, hops = refused.target, hops_of(refused.hops)
            self.frontier.mark_seen(target)
            self._refuse(gated[0])
            await self._write(lambda: self._store_skip(target, "dedupe-cap", False, hops,
                                                       cap_event=gated[0]))
            return "done"
        except FetchError as exc:
            failed, message, sources = exc.url, exc.message, hops_of(exc.redirects)
            if self.watch is not None and self.watch.failed(
                    Held(item, failed, message, sources), message,
                    internal=not item.external, host=urlsplit(failed).netloc):
                return "held"   # judged when something answers (outages.py)
            await self._write(lambda: self._store_failure(failed, item.external, message,
                                                          sources))
            self._count_error(item, message)
            return "done"
        if self.watch is not None:
            await self.watch.answered(internal=not item.external)
        final = fetched.url
        sources = hops_of(fetched.redirects)
        final_internal = self.scope.is_internal(final)
        if final != url:
            # many URLs may redirect to one page: the first to arrive fetches it, the
            # others only record their redirect edge (and a queued copy is dropped)
            if final in self._claimed:
                await self._write(lambda: self._store_redirect_only(final, sources))
                return "done"
            if url in self.writer.sources and final not in self.frontier.seen:
                self.writer.sources[final] = self.writer.sources[url]
            self.frontier.mark_seen(final)
        self._claimed.add(final)
        if fetched.problem is not None:  # over a limit: status and headers, no body
            problem = fetched.problem
            await self._write(lambda: self._store_problem(fetched, sources, problem,
                                                          external=not final_internal))
            if not item.external:  # an external page too big for its title is not broken
                self._count_error(item, problem)
            return "done"
        if final == url and not item.external and final_internal and fetched.status < 300 \
                and self.writer.sources.get(url) == "inventory-seed" and \
                classify_content_type(fetched.content_type) in SUBRESOURCE_CATEGORIES:
            # a stylesheet, script, image … of the inventory that no page links to: a
            # resource of the site, unused unless a page loads it (list_unused_resources)
            await self._write(lambda: self._store_inventory_resource(fetched))
            return "done"
        if item.external or not final_internal or not full or not fetched.is_html \
                or fetched.status >= 300:  # a redirect that ends here is no page to render
            await self._write(lambda: self._store_metadata(fetched, sources,
                                                            external=not final_internal))
            return "done"
        return "saved" if await self._scrape(fetched, sources) else "done"

    def _admit_redirect(self, target: str, gated: list[int]) -> bool:
        """The soft cap's word on a redirect target not seen before (seen ones were
        admitted, or are refused records already)."""
        assert self.softcap is not None
        if target in self.frontier.seen or not self.scope.is_internal(target):
            return True
        event_id = self.softcap.admit(target)
        if event_id is None:
            return True
        gated.append(event_id)
        return False

    async def _scrape(self, fetched: Fetched, sources: Hops) -> bool:
        """Render or parse an internal HTML page and store it; False when it ended as a
        failure or a skip instead."""
        final = fetched.url
        resources: list[dict[str, Any]] = []
        status = fetched.status
        rendered = tree = None
        problems: list[tuple[str, str]] = []
        if self.renderer is not None:
            try:
                document = None if fetched.body is None else Document(
                    fetched.status, fetched.headers, fetched.body, fetched.set_cookies)
                rendered = await self.renderer.render(final, document)
            except Exception as exc:
                message = f"{exc}"
                if fetched.body is None:  # nothing else to store
                    await self._write(lambda: self._store_failure(final, False, message,
                                                                  sources))
                    self._count_error(QueueItem(final, False, False), message)
                    return False
                # the page's script or sub-resources broke its tab: what the server sent
                # is still the page, stored unrendered with what happened
                problems.append(("render", f"{message}; stored as the server sent it, "
                                 "not rendered"))
        if rendered is not None:
            raw = rendered.raw
            resources = rendered.resources
            status = rendered.status or status
            problems.extend(rendered.problems)
        else:
            raw, tree = parse_tree(fetched.text())
        html = raw.get("html") or ""
        if self.keywords is not None and self.keywords.search(html):
            await self._write(lambda: self._store_skip(
                final, "excluded (--exclude-keyword)", False, sources))
            return False
        fields = extraction.page_fields(raw, final)
        redirect = extraction.client_redirect(
            fields["meta_extras"], fetched.headers,
            rendered.navigations if rendered is not None else [], final)
        if redirect is not None:
            # only where a browser would go: an http(s) URL, in its identity form (a
            # refresh to javascript: or to a mangled address is no redirect)
            target = normalize(redirect["to"], disable_queries=self.options.disable_queries)
            redirect = None if target is None else {**redirect, "to": target}
        if redirect is not None:
            fields["meta_extras"]["clientRedirect"] = redirect
        refused: list[tuple[str, str, int | None]] = []
        notes: list[tuple[str, str]] = []
        robots_header = (fetched.headers.get("x-robots-tag") or "").lower()
        nofollow_page = bool(fields.get("robots_nofollow")) or "nofollow" in robots_header
        indexable = not fields.get("robots_noindex") and "noindex" not in robots_header
        lifted: list[str] = []
        anchors = self._links(raw, final, refused, notes, nofollow_page=nofollow_page,
                              lifted=lifted)
        if problems:
            notes.extend(problems)
            self.outcome.problem_pages += 1
            self.outcome.first_problem = self.outcome.first_problem or \
                f"{fit(final, 200)}: {problems[0][1]}"
        # where the page sends a browser (a meta refresh, a Refresh header, a script's
        # navigation): followed as a browser would, rendered or not
        targets = [redirect["to"]] if redirect is not None else []
        if rendered is not None:
            targets += rendered.navigations
        for target in targets:
            url = normalize(target, disable_queries=self.options.disable_queries)
            if url is not None and url not in self.frontier.seen and \
                    self.scope.is_internal(url) and not self.frontier.full and \
                    not self._take(url, True, refused, nofollow_page):
                self.frontier.mark_seen(url)
        images = extraction.images(raw, final) if self.options.image else []
        jsonld = extraction.jsonld(raw)
        tags = None
        if self.fingerprints is not None:
            tags = self.fingerprints.detect(technologies.evidence_from(
                final, html, headers=fetched.headers, set_cookies=fetched.set_cookies,
                metas=raw.get("metas", []), scripts=raw.get("scripts", []),
                requests=rendered.requests if rendered is not None else (),
                globals_=rendered.globals if rendered is not None else None, tree=tree))
        # what reads the whole document, in one trip off the event loop (a hostile page's
        # elements are many): upstream's body hash of what is stored (find_duplicate_
        # bodies) and the main-content inventory, whose parsed tree then serves the soft
        # cap's read below
        selector = self.options.main_content_selector or None
        base_href = raw.get("baseHref")
        unparsed, inventory = tree, self.options.main_contents

        def read_document() -> tuple[bytes, Any, main_contents.MainContents | None]:
            digest = body_hash(html)
            if not inventory:
                return digest, unparsed, None
            t = unparsed if unparsed is not None else parse_html(html)
            return digest, t, main_contents.read(t, final, selector=selector,
                                                 base_href=base_href, html=html)

        digest, tree, main = await asyncio.get_running_loop().run_in_executor(
            self._reader, read_document)
        keys = event = None
        if is_eligible(
                is_external=False, content_type=fetched.content_type, title=fields["title"],
                og_title=fields["og_title"], og_url=fields["og_url"]):
            keys = page_keys(final, title=fields["title"], description=fields["description"],
                             og_title=fields["og_title"], og_url=fields["og_url"])
            if self.softcap is not None:
                extras = fields["meta_extras"]
                signals = page_signals(final, og_url=fields["og_url"],
                                       canonical=fields["canonical"],
                                       has_prev_next="prev" in extras or "next" in extras,
                                       title=fields["title"])
                # what the page contains (the tree is not used after this: it may change)
                own = [text for u, _, text in anchors[:CHAIN_LINKS]
                       if u != final and shape_key(u) == keys.shape_key]
                chain = bool(own)
                siblings = frozenset(t for t in own if t)
                path = split_shape(keys.shape_key)[0]
                path_siblings = frozenset(
                    t for u, _, t in anchors[:CHAIN_LINKS]
                    if t and split_shape(shape_key(u))[0] == path)  # itself too
                parsed = tree

                def read() -> Content | None:
                    return main_content(parsed if parsed is not None else parse_html(html),
                                        final, siblings=siblings, path_siblings=path_siblings)

                # off the event loop, whatever the page's size: a hostile page of a few
                # kilobytes can hold thousands of blocks, and the other fetches must not
                # wait for them (reading small pages here starved the hostile site's)
                content = await asyncio.get_running_loop().run_in_executor(self._reader, read)
                event = self.softcap.observe(
                    final, keys, signals, indexable=indexable, declared=declared_target(
                        final, og_url=fields["og_url"], canonical=fields["canonical"]),
                    content=content, chain=chain)

        if event is not None:
            event.body_hash = digest

        def store() -> int | None:
            w = self.writer
            pid = w.save_page(final, fields, **self._response_fields(fetched, status),
                              isExternal=0, isTarget=1, isSkipped=0)
            w.record_redirect(sources, pid)
            w.replace_anchors(pid, anchors, is_external=lambda u: not self.scope.is_internal(u))
            if images:
                w.replace_images(pid, images)
            w.replace_jsonld(pid, jsonld)
            if tags is not None:
                w.replace_tags(pid, tags)
            w.save_html(pid, html, self.options.html_codec)
            w.save_body_hash(pid, digest)
            if main is not None:
                w.replace_main_contents(pid, main.columns(), main.items)
            if rendered is not None:
                w.replace_console_logs(pid, rendered.console)
            for res in resources:
                self._store_resource(pid, res)
            for url, why, cap in refused:
                w.skip_page(url, why, cap_event=cap)
            for url in lifted:
                w.set_source(url, "crawled")
            for phase, note in notes:
                w.add_page_error(pid, phase, note)
            if keys is not None:
                w.save_page_signature(pid, signature=keys.signature,
                                      shape_signature=keys.shape_signature,
                                      parent_key=keys.parent_key, shape_key=keys.shape_key)
            event_id = w.add_dedupe_cap_event(**event.row()) if event is not None else None
            w.commit()
            return event_id

        event_id = await self._write(store)
        if event is not None and event_id is not None:
            self._announce(event, event_id)
        return True

    def _announce(self, event: CapEvent, event_id: int) -> None:
        assert self.softcap is not None
        self.softcap.record(event, event_id)
        self._event_names[event_id] = event.shape_key
        on = [k for k, v in event.signals.items() if v is True]
        self.progress.say(
            f"[dedupe-cap] {event.shape_key} suspected after {event.observed_count} pages "
            f"(threshold {event.effective_threshold}, signals {', '.join(on) or 'none'}; "
            f"by {event.kind}): {event.sample_url}; its URLs wait until the site is done")

    async def _judge_suspects(self) -> int:
        """The site is done: conclude the suspects' probe rounds (release or refuse each
        shape), then start a round for every suspect shape with URLs waiting
        (:mod:`nitpicker_crawl.deferral`). How many URLs it queued (0: nothing left to
        judge, the crawl may end)."""
        assert self.softcap is not None
        deferral = self.softcap.deferral
        if self.frontier.closed:
            return 0
        queued = 0
        running = deferral.running()
        waiting = await self._deferred() if running else {}
        for case in running:
            record = case.current
            released, refused = deferral.conclude(case)
            name = self._event_names.get(case.event_id, f"event {case.event_id}")
            probes = record.get("probes", [])
            urls = waiting.get(case.event_id, [])
            if released:
                back = [u for u in urls if deferral.key(case, u) in set(released)]
                deferral.release(case, Counter(deferral.key(case, u) for u in back))
                self.softcap.unrefuse(case.event_id, len(back))
                self.counters.capped = self.softcap.rejected_total
                queued += self.frontier.requeue(back)
                good = sum(1 for p in probes if p["informative"])
                self.progress.say(
                    f"[dedupe-cap] {name}: released {_shapes(released)} ({good} of "
                    f"{len(probes)} probes brought new content); {len(back):,} waiting "
                    "URLs queued again")
            if refused:
                left = sum(1 for u in urls if deferral.key(case, u) in set(refused))
                tried = sum(1 for p in probes if p["shape"] in set(refused))
                self.progress.say(
                    f"[dedupe-cap] {name}: refused {_shapes(refused)} (none of {tried} "
                    f"probes brought new content); {left:,} URLs stay skipped")
        if queued:
            return queued
        candidates = deferral.idle()
        waiting = await self._deferred() if candidates else {}
        for case in candidates:
            urls = waiting.get(case.event_id, [])
            if not urls:
                continue
            picks, spent = deferral.start(case, urls)
            if spent:
                name = self._event_names.get(case.event_id, f"event {case.event_id}")
                self.progress.say(f"[dedupe-cap] {name}: refused {_shapes(spent)} (released "
                                  f"{MAX_ROUNDS} times already, its budget is spent)")
            if picks:
                await self._prime(picks)
                queued += self.frontier.requeue(picks)
        if queued:
            self.progress.say(f"[dedupe-cap] the site is done: probing "
                              f"{len(deferral.running())} suspect clusters ({queued} URLs)")
        return queued

    async def _prime(self, probes: list[str]) -> None:
        """Probes are compared with what their path showed; a path this run has not seen
        (a ``--resume``) is remembered first from the archive's latest pages of it."""
        assert self.softcap is not None
        softcap = self.softcap
        for path in {split_shape(shape_key(u))[0] for u in probes} - set(softcap.by_path):
            def read(p: str = path) -> list[tuple[str, bytes, str]]:
                return self.writer.path_samples(p, PRIME_PAGES)
            samples: list[tuple[str, bytes, str]] = await self._write(read)

            def parse(rows: list[tuple[str, bytes, str]] = samples) -> None:
                for url, body, codec in rows:
                    html, _ = decode_html(body, codec)
                    content = main_content(parse_html(html), url)
                    if content is not None:
                        softcap.remember(url, content)
            await asyncio.get_running_loop().run_in_executor(self._reader, parse)

    async def _deferred(self) -> dict[int, list[str]]:
        """Each cap event's waiting URLs, read from the archive (one scan)."""
        found: dict[int, list[str]] = await self._write(self.writer.deferred_urls)
        return found

    def _refuse(self, event_id: int) -> None:
        assert self.softcap is not None
        self.softcap.refused(event_id)
        self.counters.capped = self.softcap.rejected_total

    def _links(self, raw: extraction.RawDocument, page_url: str,
               refused: list[tuple[str, str, int | None]], notes: list[tuple[str, str]], *,
               nofollow_page: bool = False, lifted: list[str] | None = None
               ) -> list[tuple[str, str | None, str | None]]:
        """Anchors as stored (identity URLs), queueing the new ones on the way.

        New in-scope URLs of a capped cluster are not queued; they are appended to
        ``refused`` with the reason and the cap event that covers them, so the page's
        store records them as skipped (``dedupe-cap``, the event in
        ``meta_extras.capEvent``); so are URLs longer than
        :data:`~nitpicker_crawl.urls.MAX_URL_LENGTH` (``url-too-long``).
        Links of a ``nofollow`` page (meta robots or ``X-Robots-Tag``) and ``rel=nofollow``
        links are stored but, unless ``--follow-nofollow``, not followed inside the site;
        one never reached otherwise is recorded as skipped (``nofollow``) when the crawl
        stops.

        Bounded growth: at most ``--max-links-per-page`` URLs not seen before are taken
        from one page, and none once ``--max-queued`` URLs wait; the links left out are
        neither stored nor followed, and ``notes`` gets one ``page_errors`` line saying
        how many (a page of 10,000 fresh links must not add 10,000 rows per page).

        Inventory labels (upstream's ``source``): the new URLs of an inventory page are
        ``inventory-discovered``; an inventory URL a crawled page links to is reachable
        after all and becomes ``crawled`` (appended to ``lifted`` for the store).
        """
        result = []
        opts = self.options
        seen = self.frontier.seen
        labels = self.writer.sources
        from_inventory = page_url in labels
        taken: set[str] = set()
        left_out = queue_full = 0
        first_left: str | None = None
        for href, fragment, text, nofollow in extraction.anchors(raw, page_url):
            url = normalize(href, disable_queries=opts.disable_queries)
            if url is None:
                continue
            if labels and not from_inventory and url in labels and lifted is not None:
                del labels[url]
                lifted.append(url)
            if url not in seen and url not in taken:
                internal = self.scope.is_internal(url)
                if from_inventory and internal and self._labels:
                    labels[url] = "inventory-discovered"
                follows = internal or opts.fetch_external
                if len(taken) >= opts.max_links_per_page or (follows and self.frontier.full):
                    if len(taken) >= opts.max_links_per_page:
                        left_out += 1
                    else:
                        queue_full += 1
                    first_left = first_left or url
                    continue
                taken.add(url)
                if not self._take(url, internal, refused, nofollow or nofollow_page):
                    seen.add(url)
            result.append((url, fragment, text))
        first = fit(first_left or "", 200)
        if left_out:
            notes.append(("links", f"links: {len(taken):,} new URLs taken from this page, "
                          f"{left_out:,} more left out (--max-links-per-page "
                          f"{opts.max_links_per_page}); first left out: {first}"))
            self._say_once("max-links-per-page", f"[nitpicker] {fit(page_url, 200)} links more "
                           f"than {opts.max_links_per_page:,} new URLs; the rest are left out "
                           "(--max-links-per-page; recorded on the page)")
        if queue_full:
            notes.append(("links", f"links: {queue_full:,} new URLs left out, the queue "
                          f"holding {self.frontier.queued:,} (--max-queued "
                          f"{opts.max_queued}); first left out: {first}"))
            self._say_once("max-queued", f"[nitpicker] {self.frontier.queued:,} URLs queued "
                           f"(--max-queued {opts.max_queued:,}): new links are left out until "
                           "it drains (recorded on each page)")
        return result

    def _take(self, url: str, internal: bool, refused: list[tuple[str, str, int | None]],
              nofollow: bool) -> bool:
        """A URL seen for the first time: queue it, or say why not. False when it is not
        queued and only needs marking as seen (its row comes from its anchor)."""
        opts = self.options
        if not internal:
            if opts.fetch_external:
                return self.frontier.add(url, external=True, metadata_only=True)
            return False
        if len(url) > MAX_URL_LENGTH:
            refused.append((url, "url-too-long", None))
            return False
        if nofollow and not opts.follow_nofollow:
            self._nofollow.add(url)
            return True  # not seen yet: a followed link elsewhere may still queue it
        if self.softcap is not None:
            event_id = self.softcap.admit(url)
            if event_id is not None:
                self._refuse(event_id)
                refused.append((url, "dedupe-cap", event_id))
                return False
        return self.frontier.add(url, external=False, metadata_only=not opts.recursive)

    def _say_once(self, key: str, message: str) -> None:
        if key not in self._said:
            self._said.add(key)
            self.progress.say(message)

    # ------------------------------------------------------------------ stores (writer thread)

    @staticmethod
    def _response_fields(fetched: Fetched, status: int | None = None) -> dict[str, Any]:
        return {"status": status if status is not None else fetched.status,
                "statusText": fetched.status_text or None,
                "contentType": fetched.content_type, "contentLength": fetched.content_length,
                "responseHeaders": fetched.headers, "scraped": 1}

    def _store_skip(self, url: str, reason: str, external: bool,
                    sources: Hops | None = None, *, cap_event: int | None = None) -> None:
        pid = self.writer.skip_page(url, reason, is_external=external, cap_event=cap_event)
        if sources:
            self.writer.record_redirect(sources, pid)
        self.writer.commit()

    def _store_skips(self, urls: list[str], reason: str) -> None:
        for url in urls:
            self.writer.skip_page(url, reason)
        self.writer.commit()

    def _store_failure(self, url: str, external: bool, message: str,
                       sources: Hops) -> None:
        w = self.writer
        pid = w.save_page(url, status=-1, isExternal=int(external),
                          isTarget=0 if external else 1, contentType=None, isSkipped=0)
        w.record_redirect(sources, pid)
        w.add_crawl_error(url, message, is_external=external)
        w.commit()

    def _store_inventory_runs(self) -> None:
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
        self.inventory_unlinked = self.writer.inventory_seeds()

    def _store_queued(self, urls: list[str]) -> None:
        for url in urls:
            self.writer.page_id(url, is_external=False)
        self.writer.commit()

    def _store_unfetched(self, url: str, external: bool) -> None:
        """A URL abandoned in flight: an unfetched row, so ``--resume`` fetches it."""
        self.writer.page_id(url, is_external=external)
        self.writer.commit()

    def _store_external_target(self, target: str, sources: Hops) -> None:
        """A redirect that left the site under ``--no-fetch-external``: its target is an
        external URL not requested, and every hop points at it."""
        pid = self.writer.page_id(target, is_external=True)
        self.writer.record_redirect(sources, pid)
        self.writer.commit()

    def _store_problem(self, fetched: Fetched, sources: Hops, problem: str, *,
                       external: bool) -> None:
        """A page over a limit (body-too-large, deadline, undecodable): its status and
        headers, and the problem as a ``page_errors`` row."""
        pid = self.writer.save_page(fetched.url, self._response_fields(fetched),
                                    isExternal=int(external),
                                    isTarget=0 if external else 1, isSkipped=0)
        self.writer.record_redirect(sources, pid)
        self.writer.add_page_error(pid, problem.split(":", 1)[0].split()[0][:60], problem)
        self.writer.commit()

    def _store_redirect_only(self, final: str, sources: Hops) -> None:
        pid = self.writer.page_id(final)
        self.writer.record_redirect(sources, pid)
        self.writer.commit()

    def _store_metadata(self, fetched: Fetched, sources: Hops, *, external: bool) -> None:
        fields = self._response_fields(fetched)
        if fetched.is_html and fetched.body is not None:
            raw = parse(fetched.text())
            fields["title"] = extraction.clean(raw.get("title"))
        pid = self.writer.save_page(fetched.url, fields, isExternal=int(external),
                                    isTarget=0 if external else 1, isSkipped=0)
        self.writer.record_redirect(sources, pid)
        self.writer.commit()

    def _store_inventory_resource(self, fetched: Fetched) -> None:
        """An inventory file of a sub-resource type: a ``resources`` row labelled
        ``inventory-seed`` in place of its queued ``pages`` row."""
        fields = self._response_fields(fetched)
        del fields["scraped"]
        self.writer.forget_queued(fetched.url)
        self.writer.save_resource(fetched.url, **fields, isExternal=0,
                                  compress=fetched.headers.get("content-encoding"),
                                  source="inventory-seed")
        listed = self.inventory.urls.get(fetched.url)
        if listed is not None:
            listed.resources += 1
        self.writer.commit()

    def _store_resource(self, page_id: int, res: dict[str, Any]) -> None:
        url = normalize(res["url"])
        if url is None:
            return
        headers = res.get("headers") or {}
        length = headers.get("content-length")
        rid = self.writer.save_resource(
            url, isExternal=int(not self.scope.is_internal(url)), status=res.get("status"),
            statusText=res.get("statusText") or None,
            contentType=normalize_content_type(headers.get("content-type")),
            contentLength=int(length) if length and str(length).isdigit() else None,
            compress=headers.get("content-encoding"), responseHeaders=headers)
        self.writer.add_referrer(rid, page_id)


def _shapes(shapes: list[str]) -> str:
    """Shapes for a message: the first three, and how many more."""
    shown = ", ".join("its whole family" if s == "*" else s for s in shapes[:3])
    return shown + (f" and {len(shapes) - 3} more" if len(shapes) > 3 else "")
