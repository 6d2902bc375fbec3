"""What each answer records in the archive, written on the one writer thread.

SQLite has one writer and the event loop must not block on disk, so every write is a
job run by :meth:`Records.write` on a thread of its own, one transaction per URL: whole
or, if it fails, rolled back — a ``kill -9`` loses only the pages in flight. Every
refusal is a record too: a skipped URL is a ``pages`` row with a ``skipReason``, a
failure a ``status = -1`` row and a ``crawl_errors`` row.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..archive import ArchiveWriter
from ..extract import extraction
from ..extract.parser import parse
from ..fetch.fetcher import Fetched, normalize_content_type
from ..fetch.outages import Window
from ..fetch.scope import Scope
from ..fetch.urls import normalize
from .outcome import Hops


class Records:
    """The archive's side of a crawl: jobs for the writer thread, and the rows they add."""

    def __init__(self, writer: ArchiveWriter, scope: Scope) -> None:
        self.writer = writer
        self.scope = scope
        self._writes = ThreadPoolExecutor(max_workers=1, thread_name_prefix="archive-writer")

    async def write(self, job: Callable[[], Any]) -> Any:
        """Run one transaction in the writer thread: whole or, if it fails, not at all."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._writes, self._atomic, job)

    def _atomic(self, job: Callable[[], Any]) -> Any:
        try:
            return job()
        except BaseException:
            self.writer.rollback()
            raise

    def external(self, url: str) -> bool:
        """Whether ``url`` is outside the crawl's scope (a redirect hop's row says so)."""
        return not self.scope.is_internal(url)

    def shutdown(self) -> None:
        self._writes.shutdown(wait=True)

    # ------------------------------------------------------------------ rows (writer thread)

    @staticmethod
    def response_fields(fetched: Fetched, status: int | None = None) -> dict[str, Any]:
        return {"status": status if status is not None else fetched.status,
                "statusText": fetched.status_text or None,
                "contentType": fetched.content_type, "contentLength": fetched.content_length,
                "responseHeaders": fetched.headers, "scraped": 1}

    def skip(self, url: str, reason: str, external: bool,
             sources: Hops | None = None, *, cap_event: int | None = None) -> None:
        pid = self.writer.skip_page(url, reason, is_external=external, cap_event=cap_event)
        if sources:
            self.writer.record_redirect(sources, pid, is_external=self.external)
        self.writer.commit()

    def skips(self, urls: list[str], reason: str) -> None:
        for url in urls:
            self.writer.skip_page(url, reason)
        self.writer.commit()

    def failure(self, url: str, external: bool, message: str, sources: Hops) -> None:
        w = self.writer
        pid = w.save_page(url, status=-1, isExternal=int(external),
                          isTarget=0 if external else 1, contentType=None, isSkipped=0)
        w.record_redirect(sources, pid, is_external=self.external)
        w.add_crawl_error(url, message, is_external=external)
        w.commit()

    def queued(self, urls: list[str]) -> None:
        """URLs found and queued: unfetched rows, so ``--resume`` finds them."""
        for url in urls:
            self.writer.page_id(url, is_external=False)
        self.writer.commit()

    def unfetched(self, url: str, external: bool) -> None:
        """A URL abandoned in flight: an unfetched row, so ``--resume`` fetches it."""
        self.writer.page_id(url, is_external=external)
        self.writer.commit()

    def external_target(self, target: str, sources: Hops) -> None:
        """A redirect that left the site under ``--no-fetch-external``: its target is an
        external URL not requested, and every hop points at it."""
        pid = self.writer.page_id(target, is_external=True)
        self.writer.record_redirect(sources, pid, is_external=self.external)
        self.writer.commit()

    def problem(self, fetched: Fetched, sources: Hops, problem: str, *,
                external: bool) -> None:
        """A page over a limit (body-too-large, deadline, undecodable): its status and
        headers, and the problem as a ``page_errors`` row."""
        pid = self.writer.save_page(fetched.url, self.response_fields(fetched),
                                    isExternal=int(external),
                                    isTarget=0 if external else 1, isSkipped=0)
        self.writer.record_redirect(sources, pid, is_external=self.external)
        self.writer.add_page_error(pid, problem.split(":", 1)[0].split()[0][:60], problem)
        self.writer.commit()

    def redirect_only(self, final: str, sources: Hops) -> None:
        """One more URL redirecting to a page another URL fetched: only its edge."""
        pid = self.writer.page_id(final)
        self.writer.record_redirect(sources, pid, is_external=self.external)
        self.writer.commit()

    def metadata(self, fetched: Fetched, sources: Hops, *, external: bool) -> None:
        """A URL recorded without scraping: an external link, a file, a redirect's end."""
        fields = self.response_fields(fetched)
        if fetched.is_html and fetched.body is not None:
            raw = parse(fetched.text())
            fields["title"] = extraction.clean(raw.get("title"))
        pid = self.writer.save_page(fetched.url, fields, isExternal=int(external),
                                    isTarget=0 if external else 1, isSkipped=0)
        self.writer.record_redirect(sources, pid, is_external=self.external)
        self.writer.commit()

    def resource(self, page_id: int, res: dict[str, Any]) -> None:
        """A sub-resource the browser loaded for a page, and the page as its referrer."""
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

    def note(self, url: str, message: str) -> None:
        """A problem of the crawl's own (robots.txt, a sitemap): a ``crawl_errors`` row."""
        self.writer.add_crawl_error(url, message)
        self.writer.commit()

    def outages(self, windows: list[Window], left: list[str],
                browsers: Sequence[Mapping[str, Any]] = ()) -> None:
        """The network outages of the run, and the URLs that failed during one the crawl
        gave up on (unfetched rows, for ``--resume``); the lent browsers' losses
        (:meth:`Renderer.outages <nitpicker_crawl.fetch.renderer.Renderer.outages>`)."""
        for lost in browsers:
            self.writer.add_browser_outage(**lost)
        for w in windows:
            self.writer.add_network_outage(
                started_at=w.started_at, detected_at=w.detected_at, ended_at=w.ended_at,
                probe_host=w.probe_host, trigger_error_count=w.trigger_error_count,
                trigger_host_count=w.trigger_host_count)
        for url in left:
            self.writer.page_id(url, is_external=not self.scope.is_internal(url))
        self.writer.commit()
