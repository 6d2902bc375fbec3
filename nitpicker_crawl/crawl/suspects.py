"""The soft cap's side of a crawl: each page observed, suspects announced, and, when the
site is done, their probe rounds run and judged (:mod:`nitpicker_crawl.traps.deferral`).

A suspected cluster's URLs wait in the archive as skipped rows; when the frontier runs
dry, :meth:`Suspects.judge` concludes the rounds that ran (releasing the shapes whose
probes brought new content, refusing the others) and starts a round for every suspect
with URLs waiting, until nothing is left to judge and the crawl may end.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from nitpicker_query.archive.html_codec import decode_html
from nitpicker_query.keys.page_keys import PageKeys, shape_key, split_shape
from nitpicker_query.keys.signals import declared_target, page_signals
from page_cluster.nesting import parse_html

from ..archive import ArchiveWriter
from ..extract.content import Content, main_content
from ..traps.deferral import MAX_ROUNDS
from ..traps.softcap import CapEvent, SoftCap
from .frontier import Frontier
from .progress import Counters, Progress

CHAIN_LINKS = 300
"""Links of a page looked at for one of its own URL shape (a chain: a pager, a day's
previous day), for the soft cap's content rules."""
PRIME_PAGES = 30
"""Archived pages of a path read back when a probe's path is not remembered (a --resume):
enough for a pager's or a feed's repeated items, a few megabytes at most to parse."""

Anchors = list[tuple[str, str | None, str | None]]


class Suspects:
    """One crawl's soft cap, the frontier it feeds and the messages it says."""

    def __init__(self, softcap: SoftCap, frontier: Frontier, writer: ArchiveWriter,
                 write: Callable[[Callable[[], Any]], Any], reader: ThreadPoolExecutor,
                 counters: Counters, progress: Progress) -> None:
        self.softcap = softcap
        self.frontier = frontier
        self.writer = writer
        self._write = write       # a job on the writer thread (Records.write)
        self._reader = reader     # the thread that parses documents off the event loop
        self.counters = counters
        self.progress = progress
        self.names: dict[int, str] = {}   # cap event → its shape, for the messages

    def restore(self) -> int:
        """On ``--resume``: the archive's cap events, their shapes capped again."""
        events = 0
        for event_id, signature, shapes, qvals, signals in self.writer.cap_events():
            self.softcap.restore(event_id, signature, shapes, qvals, signals)
            self.names[event_id] = min(shapes) if shapes else signature
            events += 1
        return events

    def refuse(self, event_id: int) -> None:
        """One URL refused (left waiting) by a cap event."""
        self.softcap.refused(event_id)
        self.counters.capped = self.softcap.rejected_total

    def admit_redirect(self, target: str, gated: list[int], internal: bool) -> bool:
        """The soft cap's word on a redirect target not seen before (seen ones were
        admitted, or are refused records already); a refusal's event goes to ``gated``."""
        if target in self.frontier.seen or not internal:
            return True
        event_id = self.softcap.admit(target)
        if event_id is None:
            return True
        gated.append(event_id)
        return False

    async def observe(self, url: str, keys: PageKeys, fields: dict[str, Any],
                      anchors: Anchors, html: str, tree: Any, *,
                      indexable: bool) -> CapEvent | None:
        """Count one eligible page with its signals and what it contains; the event when
        the page makes its cluster a suspect."""
        extras = fields["meta_extras"]
        signals = page_signals(url, og_url=fields["og_url"], canonical=fields["canonical"],
                               has_prev_next="prev" in extras or "next" in extras,
                               title=fields["title"])
        # what the page contains (the tree is not used after this: it may change)
        own = [text for u, _, text in anchors[:CHAIN_LINKS]
               if u != url and shape_key(u) == keys.shape_key]
        siblings = frozenset(t for t in own if t)
        path = split_shape(keys.shape_key)[0]
        path_siblings = frozenset(
            t for u, _, t in anchors[:CHAIN_LINKS]
            if t and split_shape(shape_key(u))[0] == path)  # itself too

        def read() -> Content | None:
            return main_content(tree if tree is not None else parse_html(html), url,
                                siblings=siblings, path_siblings=path_siblings)

        # off the event loop, whatever the page's size: a hostile page of a few kilobytes
        # can hold thousands of blocks, and the other fetches must not wait for them
        # (reading small pages here starved the hostile site's)
        content = await asyncio.get_running_loop().run_in_executor(self._reader, read)
        return self.softcap.observe(
            url, keys, signals, indexable=indexable, declared=declared_target(
                url, og_url=fields["og_url"], canonical=fields["canonical"]),
            content=content, chain=bool(own))

    def announce(self, event: CapEvent, event_id: int) -> None:
        """A cluster suspected: remembered under its stored id, and said."""
        self.softcap.record(event, event_id)
        self.names[event_id] = event.shape_key
        on = [k for k, v in event.signals.items() if v is True]
        self.progress.say(
            f"[dedupe-cap] {event.shape_key} suspected after {event.observed_count} pages "
            f"(threshold {event.effective_threshold}, signals {', '.join(on) or 'none'}; "
            f"by {event.kind}): {event.sample_url}; its URLs wait until the site is done")

    async def judge(self) -> int:
        """The site is done: conclude the suspects' probe rounds (release or refuse each
        shape), then start a round for every suspect shape with URLs waiting. How many
        URLs it queued (0: nothing left to judge, the crawl may end)."""
        deferral = self.softcap.deferral
        if self.frontier.closed:
            return 0
        queued = 0
        running = deferral.running()
        waiting = await self._deferred() if running else {}
        for case in running:
            record = case.current
            released, refused = deferral.conclude(case)
            name = self.names.get(case.event_id, f"event {case.event_id}")
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
                name = self.names.get(case.event_id, f"event {case.event_id}")
                self.progress.say(f"[dedupe-cap] {name}: refused {_shapes(spent)} (released "
                                  f"{MAX_ROUNDS} times already, its budget is spent)")
            if picks:
                await self._prime(picks)
                # a probe is fetched, so no longer refused: the progress line's count
                # stays the archive's (it said 79 where the archive held 69)
                self.softcap.unrefuse(case.event_id, len(picks))
                self.counters.capped = self.softcap.rejected_total
                queued += self.frontier.requeue(picks)
        if queued:
            self.progress.say(f"[dedupe-cap] the site is done: probing "
                              f"{len(deferral.running())} suspect clusters ({queued} URLs)")
        return queued

    async def _prime(self, probes: list[str]) -> None:
        """Probes are compared with what their path showed; a path this run has not seen
        (a ``--resume``) is remembered first from the archive's latest pages of it."""
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

    async def outcomes(self, *, complete: bool) -> int:
        """The end: each event's evidence stored; how many URLs stay refused."""
        evidence = {k: c.evidence(complete=complete)
                    for k, c in self.softcap.deferral.cases.items()}
        refused: int = await self._write(lambda: self.writer.set_cap_outcomes(evidence))
        self.counters.capped = refused   # the last progress line says what the archive holds
        return refused


def _shapes(shapes: list[str]) -> str:
    """Shapes for a message: the first three, and how many more."""
    shown = ", ".join("its whole family" if s == "*" else s for s in shapes[:3])
    return shown + (f" and {len(shapes) - 3} more" if len(shapes) > 3 else "")
