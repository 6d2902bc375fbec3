"""The crawl loop: workers take URLs from the frontier, fetch them, and hand each answer
to the room that records it.

Order of checks for a URL (seed 001 §4): robots.txt → excludes → fetch (redirect chain)
→ metadata only (external links, non-HTML) or scrape (internal HTML: render or parse,
:mod:`.scraping`) → keyword exclusion → links (:mod:`.links`). Every answer is recorded
on the one writer thread (:mod:`.records`); the soft cap's suspects wait until the site is
done (:mod:`.suspects`), then the site's inventory gets its turn (:mod:`.inventory_turn`);
stops have names (:mod:`.stopping`).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import urlsplit

from nitpicker_query.format.content_types import SUBRESOURCE_CATEGORIES, classify_content_type
from nitpicker_query.queries.totals import crawl_totals
from nitpicker_query.terminal import fit

from ..archive import ArchiveWriter
from ..extract import technologies
from ..fetch.excludes import Excluder, keyword_matcher
from ..fetch.fetcher import ExternalRedirect, Fetcher, FetchError, RedirectRefused, sleep_ms
from ..fetch.renderer import Renderer
from ..fetch.robots import ROBOTS_REFUSED, Robots
from ..fetch.scope import Scope
from ..fetch.urls import normalize
from ..options import CrawlOptions
from ..traps.softcap import SoftCap
from .frontier import Frontier, QueueItem
from .held import HeldFailures
from .inventory_turn import InventoryTurn
from .links import Links
from .outcome import CrawlOutcome, Held, Resumed, hops_of
from .progress import Counters, Progress
from .records import Records
from .scraping import Scraper
from .stopping import Stops
from .suspects import Suspects

EXTERNAL_WORKERS = 32
"""Workers checking external links, beside the site's ``--parallels`` (waiting on other
hosts costs no CPU: 16 left a check of 200 links on 40 hosts answering in 0.4 s at 1.6
times the crawl without them, 32 at 1.2; bench/external_checks.py): another host's
slow answer or missing DNS never takes a worker of the site (issue: an offline manual
linking 600 internet URLs took 4.3 times as long as the same crawl without them)."""


class Crawler:
    """One crawl into one :class:`ArchiveWriter`. Build it, ``await run()``."""

    def __init__(self, options: CrawlOptions, writer: ArchiveWriter, *,
                 progress: Progress | None = None,
                 listed: tuple[str, list[str], str] | None = None) -> None:
        self.options = options
        self.writer = writer
        self._browser_outages: list[dict[str, Any]] = []  # lent browsers lost (the end's)
        self.scope = Scope(list(options.roots))
        self.excluder = Excluder(options.excludes, options.exclude_urls,
                                 options.exclude_patterns)
        self.softcap: SoftCap | None = None
        if options.dedupe_cap:
            allow = Excluder(options.dedupe_allow) if options.dedupe_allow else None
            self.softcap = SoftCap(options.dedupe_cap, age_window=options.dedupe_age_window,
                                   map_cap=options.dedupe_map_cap,
                                   allow=(lambda u: allow.reason(u) is not None)
                                   if allow is not None else None)
        self.frontier = Frontier(self.softcap.parent_idle if self.softcap else None,
                                 max_queued=options.max_queued)
        self.cap_refused = 0   # URLs the soft cap left skipped in the archive, at the end
        self.counters = Counters(parallels=options.workers)
        self.progress = progress or Progress(self.counters, silent=options.silent)
        self.outcome = CrawlOutcome()
        self.records = Records(writer, self.scope)
        self._reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="content-reader")
        self.stops = Stops(options, self.frontier, self.outcome, self.progress, self._spawn)
        self.suspects = None if self.softcap is None else Suspects(
            self.softcap, self.frontier, writer, self.records.write, self._reader,
            self.counters, self.progress)
        labelled = "source" in writer.page_columns  # early 0.10 archives lack it
        self.links = Links(options, self.scope, self.frontier, self.progress, self.suspects,
                           writer.sources, labelled=labelled)
        self.site_inventory = InventoryTurn(options, self.scope, self.frontier, self.records,
                                            self.counters, self.progress, listed=listed,
                                            labels=labelled)
        self.frontier.refills.append(self.site_inventory.queue)
        self.held = HeldFailures(options, self.frontier, self.records, self.outcome,
                                 self.counters)
        self._claimed: set[str] = set()   # final URLs fetched (many may redirect to one)
        self._last_request = 0.0
        self._interval_lock = asyncio.Lock()
        self._background: set[asyncio.Future[Any]] = set()
        self.fetcher: Fetcher | None = None
        self.external_fetcher: Fetcher | None = None   # external links' own (run())

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
        label = "source" if self.links.labelled else "NULL"
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
                        self.stops.fetches += 1
            elif external and not self.options.fetch_external:
                self.frontier.mark_seen(url)
            else:
                internal = self.scope.is_internal(url)
                added = self.frontier.add(url, external=not internal, metadata_only=not internal)
                queued += added
                retried += added and bool(failed)
        events = self.suspects.restore() if self.suspects is not None else 0
        self.counters.internal_found = self.frontier.found_internal
        self.counters.external_found = self.frontier.found_external
        totals = crawl_totals(self.writer.conn,  # the words and numbers summary uses
                              externals_checked=self.options.fetch_external)
        self.counters.pages_saved = totals["htmlPages"]
        return Resumed(totals["urls"], totals["htmlPages"], queued - retried, retried, events)

    # ------------------------------------------------------------------ running

    async def run(self) -> CrawlOutcome:
        started = time.monotonic()
        opts = self.options
        # the user's request headers, bound to the start URLs' hosts: both fetchers and
        # the browser ask this one rule (an external link to the site's own host, outside
        # the start URL's directory, is the site's too; another host never is)
        headers = opts.headers.for_site(opts.roots) if opts.headers else None
        self.fetcher = Fetcher(user_agent=opts.user_agent, timeout_s=opts.timeout_s,
                               retry=opts.retry, parallels=opts.workers,
                               max_redirects=opts.max_redirects,
                               disable_queries=opts.disable_queries,
                               max_body=opts.max_body_size, page_timeout_s=opts.page_timeout_s,
                               headers=headers)
        self.robots = Robots(self.fetcher, opts.user_agent, on_note=self._robots_note)
        # external links: a client, deadline and dead-host memory of their own
        self.external_fetcher = Fetcher(
            user_agent=opts.user_agent, timeout_s=min(opts.timeout_s, opts.external_timeout_s),
            retry=min(opts.retry, 2), parallels=EXTERNAL_WORKERS,
            max_redirects=opts.max_redirects, disable_queries=opts.disable_queries,
            max_body=opts.max_body_size, page_timeout_s=opts.external_timeout_s,
            dead_hosts=True, deadline_flag="--external-timeout", headers=headers)
        self.external_robots = Robots(self.external_fetcher, opts.user_agent,
                                      on_note=self._robots_note, links_only=True)
        self.watch = self.stops.watch = self.held.watch(
            self.fetcher, self.external_fetcher, self.stops, self.progress)
        self.frontier.refills.append(self.watch.settle)
        if self.suspects is not None:   # the suspects' turn comes when the site is done
            self.frontier.refills.append(self.suspects.judge)
        self.stops.install()
        renderer: Renderer | None = None
        try:
            # before the first request; without the optional extra, said once, and the
            # crawl goes on without page_tags
            fingerprints = None
            if opts.detect_tech:
                fingerprints, off = technologies.load_or_none()
                if off is not None:
                    self.progress.note(off)
            if opts.render:
                self.progress.note("Starting Chromium…" if not opts.browser_endpoints else
                                   "Connecting to the browsers…")
                renderer = Renderer(size=opts.parallels, user_agent=opts.user_agent,
                                    timeout_s=opts.timeout_s, images=opts.image,
                                    max_tab_memory_mb=opts.max_tab_memory_mb,
                                    answer_documents=opts.fetch_once, headers=headers,
                                    js_paths=technologies.js_paths()
                                    if fingerprints is not None else None,
                                    remote=list(opts.browser_endpoints),
                                    local_browser=opts.local_browser, say=self.progress.say)
                await renderer.start()
            self.scraper = Scraper(opts, self.records, self.links, self.frontier, self.outcome,
                                   self._reader, renderer=renderer, suspects=self.suspects,
                                   fingerprints=fingerprints,
                                   keywords=keyword_matcher(opts.exclude_keywords))
            self.site_inventory.start(self.robots, self._get, self._robots_note)
            tasks = [asyncio.create_task(self._worker()) for _ in range(opts.workers)]
            tasks += [asyncio.create_task(self._worker(external=True))
                      for _ in range(EXTERNAL_WORKERS if opts.fetch_external else 0)]
            await asyncio.gather(*tasks, return_exceptions=True)
        finally:
            await self.site_inventory.finish(
                interrupted=self.outcome.stop_reason == "interrupted")
            self.stops.uninstall()
            if renderer is not None:
                for line in renderer.report():   # each lent browser: its pages, its losses
                    self.progress.say(f"[browser] {line}")
                self._browser_outages = renderer.outages()
                await renderer.close()
            await self.fetcher.close()
            await self.external_fetcher.close()
            await self._record_the_end()
            self.records.shutdown()
            self._reader.shutdown(wait=True)
            self.outcome.seconds = time.monotonic() - started
            self.outcome.urls_done = self.counters.internal_done + self.counters.external_done
            self.outcome.pages_saved = self.counters.pages_saved
            self.progress.finish()
        return self.outcome

    async def _record_the_end(self) -> None:
        """What only the end knows: links only nofollow led to, the inventory's runs, the
        outages, each cap event's verdict."""
        write, records = self.records.write, self.records
        unreached = self.links.unreached()
        if unreached:
            await write(lambda: records.skips(unreached, "nofollow"))
        if self.site_inventory.inventory.sources:
            await write(self.site_inventory.store_runs)
        watch = self.watch
        left = [h.item.url for h in watch.left()]
        await write(lambda: records.outages(watch.windows, left, self._browser_outages))
        if self.suspects is not None:
            self.cap_refused = await self.suspects.outcomes(
                complete=self.outcome.stop_reason == "complete")
        await write(self.writer.commit)

    async def _worker(self, *, external: bool = False) -> None:
        write, records = self.records.write, self.records
        while True:
            item = await self.frontier.next(external=external)
            if item is None:
                return
            result = "done"
            # each URL in a task of its own: the end of a stop's grace period cancels the
            # URL, not the worker, and the URL is recorded for --resume
            task = asyncio.ensure_future(self._process(item))
            self.stops.in_flight[task] = item
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
                    records.failure(failed.url, failed.external, text, [])

                with contextlib.suppress(Exception):
                    await write(record)
                self.outcome.count_error(item, message)
            finally:
                self.stops.in_flight.pop(task, None)
                if result == "abandoned":
                    self.outcome.abandoned += 1

                    def keep(left: QueueItem = item) -> None:
                        records.unfetched(left.url, left.external)

                    with contextlib.suppress(Exception):
                        await write(keep)
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

    # ------------------------------------------------------------------ one URL

    async def _process(self, item: QueueItem) -> str:
        """Crawl one URL: ``saved`` (an HTML page stored), ``done`` (anything else
        recorded), ``unfetched`` (``--max-pages`` reached first) or ``held`` (a failure
        the outage watch judges later)."""
        write, records = self.records.write, self.records
        url = item.url
        if url in self._claimed:  # already fetched as the target of a redirect
            return "done"
        if self.suspects is not None and not item.external:
            event_id = self.suspects.softcap.admit(url, queued=True)
            if event_id is not None:  # queued before its cluster was capped: waits now
                self.suspects.refuse(event_id)
                await write(lambda: records.skip(url, "dedupe-cap", False, cap_event=event_id))
                return "done"
        if not self.options.ignore_robots:
            robots = self.external_robots if item.external else self.robots
            verdict = await robots.check(url)
            if verdict == ROBOTS_REFUSED:
                await write(lambda: records.skip(url, ROBOTS_REFUSED, item.external))
                return "done"
            if verdict is not None:  # robots.txt unreachable: nothing of the origin
                await write(lambda: records.failure(url, item.external, verdict, []))
                self.outcome.count_error(item, verdict)
                return "done"
        reason = self.excluder.reason(url)
        if reason is not None:
            await write(lambda: records.skip(url, reason, item.external))
            return "done"
        retried = self.held.take_retry(url)
        if not item.external and not retried and not self.stops.reserve_fetch():
            return "unfetched"
        await self.watch.online.wait()   # paused while the network is out
        if not item.external:   # --interval spares the site, not the hosts it links
            await self._throttle()
        fetcher = self.external_fetcher if item.external else self.fetcher
        assert fetcher is not None
        full = not item.metadata_only
        gated: list[int] = []
        suspects = self.suspects
        try:
            # a page is fetched once: GET with its body, which also answers the
            # browser's navigation when rendering (Renderer.render(document=…))
            once = self.options.fetch_once or not self.options.render
            fetched = await fetcher.fetch(
                url, body=(full and once) or item.external,
                # an external link is asked once, with GET: its title when it is HTML
                head_first=(item.metadata_only or not once) and not item.external,
                gate=None if suspects is None or item.external
                else lambda target: suspects.admit_redirect(
                    target, gated, self.scope.is_internal(target)),
                internal=None if item.external else self.scope.is_internal,
                follow_external=self.options.fetch_external)
        except ExternalRedirect as left:
            target, hops = left.target, hops_of(left.hops)
            self.frontier.mark_seen(target)
            await write(lambda: records.external_target(target, hops))
            return "done"
        except RedirectRefused as refused:
            assert suspects is not None
            target, hops = refused.target, hops_of(refused.hops)
            self.frontier.mark_seen(target)
            suspects.refuse(gated[0])
            await write(lambda: records.skip(target, "dedupe-cap", False, hops,
                                             cap_event=gated[0]))
            return "done"
        except FetchError as exc:
            failed, message, sources = exc.url, exc.message, hops_of(exc.redirects)
            if self.watch.failed(Held(item, failed, message, sources), message,
                                 internal=not item.external, host=urlsplit(failed).netloc):
                return "held"   # judged when something answers (outages.py)
            await write(lambda: records.failure(failed, item.external, message, sources))
            self.outcome.count_error(item, message)
            return "done"
        await self.watch.answered(internal=not item.external)
        final = fetched.url
        sources = hops_of(fetched.redirects)
        final_internal = self.scope.is_internal(final)
        if final != url:
            # many URLs may redirect to one page: the first to arrive fetches it, the
            # others only record their redirect edge (and a queued copy is dropped)
            if final in self._claimed:
                await write(lambda: records.redirect_only(final, sources))
                return "done"
            if url in self.writer.sources and final not in self.frontier.seen:
                self.writer.sources[final] = self.writer.sources[url]
            self.frontier.mark_seen(final)
        self._claimed.add(final)
        if fetched.problem is not None:  # over a limit: status and headers, no body
            problem = fetched.problem
            await write(lambda: records.problem(fetched, sources, problem,
                                                external=not final_internal))
            if not item.external:  # an external page too big for its title is not broken
                self.outcome.count_error(item, problem)
            return "done"
        if final == url and not item.external and final_internal and fetched.status < 300 \
                and self.writer.sources.get(url) == "inventory-seed" and \
                classify_content_type(fetched.content_type) in SUBRESOURCE_CATEGORIES:
            # a stylesheet, script, image … of the inventory that no page links to: a
            # resource of the site, unused unless a page loads it (list_unused_resources)
            await write(lambda: self.site_inventory.store_resource(fetched))
            return "done"
        if item.external or not final_internal or not full or not fetched.is_html \
                or fetched.status >= 300:  # a redirect that ends here is no page to render
            await write(lambda: records.metadata(fetched, sources,
                                                 external=not final_internal))
            return "done"
        return "saved" if await self.scraper.scrape(fetched, sources) else "done"

    async def _throttle(self) -> None:
        """``--interval``: the site's requests at least that far apart."""
        if self.options.interval_ms <= 0:
            return
        async with self._interval_lock:
            wait = self._last_request + self.options.interval_ms / 1000 - time.monotonic()
            if wait > 0:
                await sleep_ms(int(wait * 1000))
            self._last_request = time.monotonic()

    async def _get(self, url: str, limit: int) -> tuple[int, bytes | None, str | None]:
        """A throttled GET of the site (its sitemaps): status, body, problem."""
        assert self.fetcher is not None
        await self._throttle()
        answer = await self.fetcher.get(url, limit=limit)
        return answer.status, answer.body, answer.problem

    # ------------------------------------------------------------------ notes

    def _robots_note(self, robots_url: str, message: str) -> None:
        """A robots.txt problem: one line on the terminal, one ``crawl_errors`` row."""
        self.progress.say_once(message, f"[nitpicker] {message}")
        self._spawn(self.records.write(lambda: self.records.note(robots_url, message)))

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.ensure_future(coroutine)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
