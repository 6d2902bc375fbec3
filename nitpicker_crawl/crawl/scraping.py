"""One internal HTML page scraped: rendered in Chromium or parsed, its links admitted,
what it contains read, the soft cap told, and everything stored in one transaction.

Rendering gets the crawler's own response to answer the browser's navigation, so the
page is fetched once; a page whose script breaks its tab is still stored, unrendered,
with what happened. What reads the whole document (upstream's body hash, the
main-content inventory, the soft cap's reading) runs in one trip off the event loop: a
hostile page's elements are many.
"""

from __future__ import annotations

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from nitpicker_query.keys.page_keys import is_eligible, page_keys
from nitpicker_query.terminal import fit
from page_cluster.nesting import parse_html

from ..extract import extraction, main_contents, technologies
from ..extract.content import body_hash
from ..extract.parser import parse_tree
from ..fetch.fetcher import Fetched
from ..fetch.renderer import Document, Renderer
from ..fetch.urls import normalize
from ..options import CrawlOptions
from .frontier import Frontier, QueueItem
from .links import Links, Refused
from .outcome import CrawlOutcome, Hops
from .records import Records
from .suspects import Suspects


class Scraper:
    """Scrapes the internal HTML pages of one crawl (made when its browser is up)."""

    def __init__(self, options: CrawlOptions, records: Records, links: Links,
                 frontier: Frontier, outcome: CrawlOutcome, reader: ThreadPoolExecutor, *,
                 renderer: Renderer | None, suspects: Suspects | None,
                 fingerprints: technologies.Fingerprints | None,
                 keywords: re.Pattern[str] | None) -> None:
        self.options = options
        self.records = records
        self.links = links
        self.frontier = frontier
        self.outcome = outcome
        self._reader = reader
        self.renderer = renderer
        self.suspects = suspects
        self.fingerprints = fingerprints
        self.keywords = keywords

    async def scrape(self, fetched: Fetched, sources: Hops) -> bool:
        """Render or parse an internal HTML page and store it; False when it ended as a
        failure or a skip instead."""
        records = self.records
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
                    await records.write(lambda: records.failure(final, False, message,
                                                                sources))
                    self.outcome.count_error(QueueItem(final, False, False), message)
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
            await records.write(lambda: records.skip(
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
        refused: Refused = []
        notes: list[tuple[str, str]] = []
        robots_header = (fetched.headers.get("x-robots-tag") or "").lower()
        nofollow_page = bool(fields.get("robots_nofollow")) or "nofollow" in robots_header
        indexable = not fields.get("robots_noindex") and "noindex" not in robots_header
        lifted: list[str] = []
        anchors = self.links.of_page(raw, final, refused, notes, nofollow_page=nofollow_page,
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
                    self.links.scope.is_internal(url) and not self.frontier.full and \
                    not self.links.take(url, True, refused, nofollow_page):
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
        # what reads the whole document, in one trip off the event loop: upstream's body
        # hash of what is stored (find_duplicate_bodies) and the main-content inventory,
        # whose parsed tree then serves the soft cap's read below
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
            if self.suspects is not None:
                event = await self.suspects.observe(final, keys, fields, anchors, html, tree,
                                                    indexable=indexable)
        if event is not None:
            event.body_hash = digest

        def store() -> int | None:
            w = records.writer
            pid = w.save_page(final, fields, **records.response_fields(fetched, status),
                              isExternal=0, isTarget=1, isSkipped=0)
            w.record_redirect(sources, pid, is_external=records.external)
            w.replace_anchors(pid, anchors,
                              is_external=lambda u: not records.scope.is_internal(u))
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
                records.resource(pid, res)
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

        event_id = await records.write(store)
        if event is not None and event_id is not None and self.suspects is not None:
            self.suspects.announce(event, event_id)
        return True
