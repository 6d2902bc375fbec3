"""The viewer's web application: HTML views and ``/api/<query>``, over the query functions.

Security (docs/viewer.md): everything an archive holds was written by the crawled sites
and is hostile. Jinja2 escapes every value; only ``http(s)`` URLs become links; stored
HTML is shown as escaped source; a strict Content-Security-Policy allows our own script
and style files only; a request whose ``Host`` is not the bound address or ``localhost``
is refused (DNS rebinding); archives open only under the allowed roots, read-only.
"""

from __future__ import annotations

import asyncio
import contextlib
import difflib
import functools
import itertools
import json
import logging
import shlex
import time
from collections.abc import AsyncIterator, Callable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import anyio
import anyio.to_thread
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup, escape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers, MutableHeaders
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import nitpicker_query as q
from nitpicker_query import progress
from nitpicker_query.exceptions import (
    ArchiveNotFound,
    InvalidArgument,
    NitpickerError,
    NotFound,
    NotRecorded,
    QueryTimeout,
    mask_paths,
)
from nitpicker_query.queries.catalog import QUERIES, REDIRECT_COLUMNS, QuerySpec
from nitpicker_query.queries.check_headers import HEADERS as SECURITY_FLAGS
from nitpicker_query.report import export
from nitpicker_query.terminal import local_time as terminal_time
from nitpicker_query.terminal import percent
from nitpicker_query.values import jsonable

from . import params
from .archives import Archives, PathNotAllowed
from .text import MISMATCH_HEADINGS, heading, label, main_heading, nothing, t

HERE = Path(__file__).resolve().parent
LOG = logging.getLogger("uvicorn.error")
SPECS = {spec.name: spec for spec in QUERIES}

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
       "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")

def mask(message: str) -> str:
    """One line, no absolute paths (the MCP server's rule)."""
    return mask_paths(" ".join(str(message).split()))[:1000]


def status_of(exc: Exception) -> int:
    if isinstance(exc, PathNotAllowed):
        return 403
    if isinstance(exc, ArchiveNotFound | NotFound | NotRecorded):
        return 404
    if isinstance(exc, QueryTimeout):
        return 503
    return 400


# ----------------------------------------------------------------------------- views

SECURITY_KEYS = tuple(key for key, _header in SECURITY_FLAGS)
COLUMN_SETS: dict[str, dict[str, tuple[str, ...]]] = {
    # view → the column sets a person picks from (``columns=``), the first the default
    "pages": {
        "overview": ("url", "status", "title", "isExternal", "contentType", "noindex",
                     "skipReason"),
        "security": ("url", "status", *SECURITY_KEYS),
        "redirects": ("url", "status", *REDIRECT_COLUMNS),
        "metadata": ("url", "title", "description", "canonical", "ogTitle", "ogUrl",
                     "lang"),
        # the link score of each page: computed for the archive on first use
        "link-score": ("url", "status", "title", "linkScore"),
        "all": ("url", "status", "title", "isExternal", "contentType", "noindex",
                "skipReason", "description", "canonical", "ogTitle", "ogUrl", "lang",
                *SECURITY_KEYS),
    },
}
OPTION_SETS: dict[str, tuple[tuple[str, str], ...]] = {
    # view → (query option in the URL, the column set it shows when on and none is chosen)
    "pages": (("redirects", "redirects"), ("linkScore", "link-score")),
}
URL_COLUMNS = frozenset({"url", "sourceUrl", "destUrl", "pageUrl"})
"""Columns holding the URL a row is about: first, widest, cut with the whole URL in
``title``, and a copy button."""
SHORT_COLUMNS = frozenset({"status", "isExternal", "contentType", "noindex", "width",
                           "height", "count", "referrerCount", "linkCount", "type",
                           "finalStatus", "redirectKind", "redirectLoop", *SECURITY_KEYS})
"""Columns of a few characters: on a phone, where each row is a card, they share a line."""

VIEWS: dict[str, tuple[str, tuple[str, ...]]] = {
    # view → (query, columns shown)
    "pages": ("list_pages", COLUMN_SETS["pages"]["overview"]),
    "links": ("list_links", ("sourceUrl", "destUrl", "status", "redirectChain", "isExternal",
                             "textContent", "referrerCount", "linkCount", "url", "title")),
    "resources": ("list_resources", ("url", "status", "contentType", "isExternal",
                                     "referrerCount")),
    "resource-referrers": ("get_resource_referrers", ("url", "title", "status")),
    "images": ("list_images", ("pageUrl", "src", "alt", "width", "height")),
    "duplicates": ("find_duplicates", ("value", "count", "urls")),
    "duplicate-bodies": ("find_duplicate_bodies", ("count", "urls", "bodyHash")),
    "duplicate-body-clusters": ("find_duplicate_clusters", (
        "count", "title", "ogUrlMismatchRatio", "commonDirectories", "samplePages")),
    "mismatches": ("find_mismatches", ("url", "type", "actual", "expected")),
    "headers": ("check_headers", ("url", *SECURITY_KEYS)),
    "duplicate-clusters": ("get_duplicate_clusters", ()),
    "duplicate-cluster": ("get_duplicate_cluster", ("url", "title", "ogUrl", "ogUrlMismatch",
                                                    "shapeKey")),
    "dedupe-cap-events": ("list_dedupe_cap_events", ()),
    "template-clusters": ("get_template_clusters", ()),
    "template-cluster": ("get_template_cluster", ("url", "title")),
    "isolated-pages": ("list_isolated_pages", ("url", "status", "source", "title")),
    "isolated-clusters": ("list_isolated_clusters", ("representativeUrl", "size", "status",
                                                     "title")),
    "console-logs": ("list_console_logs", ("type", "totalCount", "pageCount", "text", "url",
                                           "line", "samplePage")),
    "link-score": ("list_link_score", ("linkScore", "url", "inlinks", "outlinks", "depth",
                                       "callout")),
    "near-duplicates": ("find_near_duplicates", ("pages", "similarity", "representativeUrl",
                                                 "members")),
    "near-duplicates-of": ("get_near_duplicates", ("similarity", "url", "onlyHere",
                                                   "onlyThere")),
    # custom extraction over the stored HTML: the form asks first, then the matches
    "resource-hosts": ("list_resource_hosts", ("host", "isExternal", "pages", "resources",
                                               "bytes", "failed", "contentTypes")),
    "search-html": ("search_html", ("url", "matches", "snippets")),
    "match-selector": ("match_selector", ("url", "matches", "values")),
    "match-xpath": ("match_xpath", ("url", "matches", "values")),
    "network-outages": ("list_network_outages", ("startedAt", "endedAt", "probeHost",
                                                 "triggerErrorCount", "failures")),
    "browser-outages": ("list_browser_outages", ("endpoint", "startedAt", "seconds",
                                                 "pagesMoved", "reason")),
    "unused-resources": ("list_unused_resources", ("url", "status", "contentType",
                                                   "contentLength", "source")),
    "violations": ("get_violations", ("url", "validator", "severity", "rule", "message",
                                      "code", "line", "col")),
    # what changed since another crawl (the Old archive field names it): one list at a time
    "compare": ("compare_archives", ()),
}
NAV = ("summary", "pages", "links", "resources", "images", "duplicates", "duplicate-bodies",
       "mismatches", "headers", "duplicate-clusters", "duplicate-body-clusters",
       "dedupe-cap-events", "template-clusters", "isolated-pages", "isolated-clusters",
       "near-duplicates", "link-score", "resource-hosts", "search-html", "match-selector",
       "match-xpath", "unused-resources", "console-logs", "network-outages", "browser-outages",
       "violations", "compare")
DEFAULT_SORT: dict[str, tuple[str, str]] = {
    # view → (sort key, order) of its query's default order, marked in its header
    "duplicate-clusters": ("count", "desc"), "dedupe-cap-events": ("detectedAt", "desc"),
    "duplicates": ("count", "desc"), "headers": ("url", "asc"), "images": ("pageUrl", "asc"),
    "template-clusters": ("count", "desc"), "link-score": ("linkScore", "desc"),
    "resource-hosts": ("pages", "desc"), "near-duplicates": ("pages", "desc"),
    "near-duplicates-of": ("similarity", "desc")}
DESC_FIRST = frozenset({"count", "referrerCount", "observedCount", "rejectedCount",
                        "effectiveThreshold", "detectedAt", "contentLength", "linkScore",
                        "inlinks", "pages", "resources", "bytes", "failed"})
"""Columns whose first click sorts biggest (or newest) first: what an auditor looks for."""
DEFAULTS = {"pages": {"securityHeaders": "true"},
            "duplicate-clusters": {"minCount": "10"}, "links": {"type": "broken"},
            "duplicate-body-clusters": {"minCount": "10"},
            "mismatches": {"type": "canonical"}}


def diff(value: Any, other: Any) -> Markup:
    """``value`` with the part that differs from ``other`` marked (common prefix and
    suffix left plain): what a mismatch changed, at a glance."""
    a, b = str(value or ""), str(other or "")
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    end = 0
    while end < min(len(a), len(b)) - start and a[len(a) - 1 - end] == b[len(b) - 1 - end]:
        end += 1
    middle = a[start:len(a) - end]
    return Markup("{}<mark>{}</mark>{}").format(a[:start], middle, a[len(a) - end:]) \
        if middle else escape(a)


def prefix_note(actual: Any, expected: Any, names: Mapping[str, str]) -> str:
    """When one value is the start of the other (an og:title that is the title without
    its " | Site" suffix): the usual, harmless kind of mismatch, said in words."""
    a, b = str(actual or "").strip(), str(expected or "").strip()
    if not a or not b or a == b:
        return ""
    if b.startswith(a):
        return t("prefix-of", a=names.get("actual", "actual"),
                 b=names.get("expected", "expected").lower())
    if a.startswith(b):
        return t("prefix-of", a=names.get("expected", "expected"),
                 b=names.get("actual", "actual").lower())
    return ""


def template_path(cluster: Any) -> str:
    """A template cluster named as a person reads it: the URL path of its pages
    (``/search``), from the first of its blocks (the key itself is JSON)."""
    try:
        blocking = cluster["reasons"]["blocking"]
        return "/" + str(blocking[0]["reason"]["pathKey"]).lstrip("/")
    except (KeyError, IndexError, TypeError):
        return ""


def signal_list(signals: Any) -> str:
    """The signals that were on, and which key capped: ``ogUrlMismatch (by parent)``."""
    if not isinstance(signals, dict):
        return ""
    on = [str(k) for k, v in signals.items() if v is True]
    key = signals.get("key")
    return (", ".join(on) or "none") + (f" (by {key})" if isinstance(key, str) else "")


def local_time(ms: Any) -> Markup:
    """UNIX milliseconds as local time, to the second (``2026-12-02 17:06:15``, never
    cut at its hyphens), the ISO 8601 form with its offset in ``datetime`` and the
    tooltip (:func:`nitpicker_query.terminal.local_time`); a value that is not a time
    (a stranger's archive) is shown as it is."""
    try:
        iso = terminal_time(int(ms))
    except (TypeError, ValueError, OverflowError, OSError):
        return escape(str(ms))
    return Markup('<time datetime="{}" title="{}">{}</time>').format(
        iso, iso, f"{iso[:10]} {iso[11:19]}")


def not_found(spec: QuerySpec, args: dict[str, Any]) -> NotFound:
    """The query's own "not found" sentence, with the arguments it names."""
    return NotFound(spec.missing(args, "viewer"))


def is_web_url(value: Any) -> bool:
    return isinstance(value, str) and value[:8].lower().startswith(("http://", "https://"))


class Viewer:
    def __init__(self, archives: Archives, hosts: set[str]) -> None:
        self.archives = archives
        self.hosts = hosts
        self.env = Environment(loader=FileSystemLoader(HERE / "templates"),
                               autoescape=select_autoescape(default=True, default_for_string=True))
        self.env.globals.update(t=t, label=label, heading=heading, main_heading=main_heading,
                                nav=NAV, is_web_url=is_web_url, link=self.link,
                                url_columns=URL_COLUMNS, short_columns=SHORT_COLUMNS,
                                column_sets=COLUMN_SETS)
        self.env.filters["cell"] = self.cell
        self.env.filters["diff"] = diff
        self.env.globals["prefix_note"] = prefix_note
        self.env.globals["template_path"] = template_path
        self.env.filters["chain"] = self.chain
        self.env.filters["shquote"] = shlex.quote
        self.env.filters["time"] = local_time
        self.env.filters["signals"] = signal_list
        self.env.filters["percent"] = percent
        self.env.globals["more_of"] = more_of
        self.env.globals["nothing"] = nothing
        self.env.filters["number"] = lambda v: f"{int(v or 0):,}"
        self.env.filters["pretty"] = lambda v: json.dumps(v, ensure_ascii=False, indent=2)
        self._not_fetched = Markup('<span class="muted">{}</span>').format(t("not-fetched"))
        self._sides = {v: Markup(escape(t("external" if v else "internal")))
                       for v in (True, False)}
        self._marks = {v: Markup('<span class="mark" aria-hidden="true">{}</span>'
                                 '<span class="visually-hidden">{}</span>').format(
                           "✓" if v else "—", t("yes" if v else "no")) for v in (True, False)}
        self._copy_label = str(Markup('aria-label="{}" title="{}"').format(t("copy-url"),
                                                                         t("copy-url")))

    # -- helpers used by templates

    def link(self, view: str, archive: str | None, **values: Any) -> str:
        query = {k: v for k, v in values.items() if v is not None and v != ""}
        if archive and archive != self.archives.default():
            query = {"a": archive, **query}
        return f"/{view}" + (f"?{urlencode(query)}" if query else "")

    def cell(self, value: Any, archive: str | None = None, key: str = "") -> Markup:
        """A value as table-cell HTML: http(s) URLs link to their page detail (and out);
        anything else, ``javascript:`` URLs included, is text. A flag is a mark (✓ or —)
        that a screen reader reads as yes or no; ``isExternal`` is the words internal or
        external; a security header of a URL never fetched (null) says so."""
        # (the hot loop of every list: thousands of cells a page, hence constants and
        # concatenation of escaped parts rather than Markup.format)
        if value is None:
            return self._not_fetched if key in SECURITY_KEYS else Markup("")
        if isinstance(value, bool):
            if key == "isExternal":
                return self._sides[value]
            return self._marks[value]
        if isinstance(value, list):
            return Markup("<br>").join(self.cell(v, archive) for v in value[:CELL_ITEMS])
        if isinstance(value, dict):
            if set(value) == {"directory", "pageCount"}:   # a cluster's directories
                return Markup("{} ({})").format(self.cell(value["directory"], archive),
                                                value["pageCount"])
            if {"url", "similarity"} <= set(value):   # a near duplicate: how alike
                return Markup("{} ({} %)").format(self.cell(value["url"], archive),
                                                  value["similarity"])
            return Markup("<code>{}</code>").format(json.dumps(value, ensure_ascii=False)[:500])
        if is_web_url(value):
            # plain str of escaped parts (Markup + str would escape the tags too)
            href = str(escape(self.link("page", archive, url=value)))
            text = str(escape(value))
            if key in URL_COLUMNS:
                return Markup(f'<span class="uc"><a class="u" href="{href}" title="{text}">'
                              f'{text}</a><button type="button" class="copy icon" '
                              f'data-copy="{text}" {self._copy_label}></button></span>')
            return Markup(f'<a href="{href}">{text}</a>')
        return escape(str(value))

    def chain(self, hops: Any, archive: str | None = None) -> Markup:
        """A link's redirect chain, hop by hop with each status: ``301 /a → 302 /b →
        404 /c`` (the URL the anchor names first, where it ends last)."""
        if not isinstance(hops, list):
            return Markup("")
        return Markup(' <span aria-hidden="true">→</span> ').join(
            Markup('<span class="hop"><span class="status">{}</span> {}</span>').format(
                hop.get("status") if hop.get("status") is not None else "—",
                self.cell(hop.get("url"), archive))
            for hop in hops[:20] if isinstance(hop, dict))

    # -- responses

    def page(self, request: Request, template: str, status: int = 200,
             **context: Any) -> HTMLResponse:
        body = self.env.get_template(template).render(request=request, **context)
        return HTMLResponse(body, status_code=status)

    def error(self, request: Request, exc: Exception, *, api: bool) -> Response:
        message, status = mask(str(exc)), status_of(exc)
        if api:
            return JSONResponse({"error": message}, status_code=status)
        return self.page(request, "error.html", status, message=message, archive=None,
                         view="error", badge=None)

    def badge(self, archive: q.Archive) -> str | None:
        if archive.mode == "stub":
            pid = archive.crawler_pid
            return t("live", pid=pid) if pid else t("stub")
        return None

    @staticmethod
    def cards(archive: q.Archive) -> dict[str, int]:
        """The Summary's cards beyond the summary query's: what an audit looks at first,
        each a total of the list it links to."""
        return {"broken": q.list_links(archive, type="broken", limit=1)["total"],
                "skipped": q.list_pages(archive, skipped="only", limit=1)["total"],
                "capEvents": q.list_dedupe_cap_events(archive, limit=1)["total"]}

    def with_archives(self, spec: QuerySpec, args: dict[str, Any]) -> dict[str, Any]:
        """Options that name a second archive (compare's old), opened as the archive of
        the URL is: inside the roots, never any path a browser sends."""
        for p in spec.params:
            if p.archive and isinstance(args.get(p.name), str):
                args[p.name] = self.archives.open(args[p.name])
        return args

    def run(self, request: Request, view: str, values: Mapping[str, str]
            ) -> tuple[q.Archive, str | None, Any]:
        name = request.query_params.get("a") or self.archives.default()
        archive = self.archives.open(request.query_params.get("a"))
        if view == "summary":
            return archive, name, q.get_summary(
                archive, population=values.get("population") or "indexable")
        spec = SPECS[VIEWS[view][0]]
        if view == "pages" and column_set_name(view, values) == "link-score":
            values = {**values, "linkScore": "true"}   # the set's column needs the option
        args = self.with_archives(spec, params.arguments(spec, values, html=True,
                                                          view=t(view)))
        _column_set(view, values)  # a bad choice is an error before the query runs
        result = spec.function(archive, **args)
        if result is None:
            raise not_found(spec, args)
        return archive, name, result

    async def html_view(self, request: Request) -> Response:
        view = request.path_params.get("view", "summary")
        if view not in VIEWS and view != "summary":
            return self.error(request, NotFound(f"No view named {view[:60]}"), api=False)
        # the view's defaults under what the URL says: the query's arguments and the form
        values = {**DEFAULTS.get(view, {}), **dict(request.query_params)}
        if values.get("format", "html") != "html":
            return await self.exported(request, view, values)
        if view == "compare" and values.get("field") and not values.get("kind"):
            values["kind"] = "changed"   # a field names a list: the changes of that field
        if view in VIEWS and view != "compare":   # a view that asks first: its form alone
            spec = SPECS[VIEWS[view][0]]
            empty = [p for p in spec.params if p.required and not values.get(p.camel)]
            if empty and not any(values.get(p.camel) for p in spec.params):
                return await self.asking(request, view, values, spec)
        if view == "compare" and not values.get("old"):   # first, which crawl to compare with
            name = request.query_params.get("a") or self.archives.default()
            return await self.changes(request, None, values, {
                "archive": name, "view": view, "result": None, "badge": None})
        try:
            heavy = view in VIEWS and SPECS[VIEWS[view][0]].heavy
            if heavy:
                waiting = await self.computing(request, view, values)
                if waiting is not None:
                    return waiting
            archive, name, result = await _threaded(self.run, request, view, values,
                                                    heavy=heavy)
        except (NitpickerError, ValueError) as exc:
            return self.error(request, exc, api=False)
        context: dict[str, Any] = {"archive": name, "view": view, "result": result,
                                   "badge": self.badge(archive)}
        if view == "compare":   # the summary first, then each list with the counts above it
            return await self.changes(request, archive, values, context)
        if view == "summary":
            cards = await _threaded(self.cards, archive)
            return self.page(request, "summary.html", cards=cards, **context)
        spec = SPECS[VIEWS[view][0]]
        page, size = params.paging(request.query_params)
        sort_choices, sort_key, sort_order = _sort_state(view, spec, values)
        exported = {k: v for k, v in values.items() if k not in params.HTML_ONLY}
        csv_link = f"/api/{spec.name}?" + urlencode({**exported, "format": "csv",
                                                     "bom": "true"}) if spec.is_list else None
        columns = _columns(_column_set(view, values), result)
        headings = MISMATCH_HEADINGS.get(values.get("type", ""), {}) \
            if view == "mismatches" else {}
        context.update(column_set=column_set_name(view, values))
        context.update(spec=spec, values=values, page=page, size=size, csv_link=csv_link,
                       columns=columns, cells=_cell_tags(columns, headings),
                       sizes=params.PAGE_SIZES,
                       headings=headings,
                       sort_choices=sort_choices, sort_key=sort_key, sort_order=sort_order,
                       desc_first=DESC_FIRST)
        template = {"duplicate-clusters": "clusters.html", "dedupe-cap-events": "events.html",
                    "template-clusters": "templates.html",
                    "template-cluster": "template.html"}.get(view, "list.html")
        return self.page(request, template, **context)

    async def asking(self, request: Request, view: str, values: Mapping[str, str],
                     spec: QuerySpec) -> Response:
        """A view whose query needs an answer from the user first (search-html's pattern,
        match-selector's selector): its form, and what to fill in — not an error."""
        name = request.query_params.get("a") or self.archives.default()
        fields = ", ".join(label(p.camel) for p in spec.params if p.required)
        return self.page(request, "list.html", archive=name, view=view, result=None,
                         badge=None, spec=spec, values=values, page=1,
                         size=params.PAGE_SIZES[-1], sizes=params.PAGE_SIZES,
                         prompt=t("fill-in", fields=fields), columns=[], cells=[],
                         headings={}, column_set=None, csv_link=None, sort_choices=(),
                         sort_key=None, sort_order="asc", desc_first=DESC_FIRST)

    async def changes(self, request: Request, archive: q.Archive | None,
                      values: Mapping[str, str], context: dict[str, Any]) -> Response:
        """The Changes view: without a kind, the comparison's summary (the two crawls, how
        comparable they are, a row per list and per changed field, each a link); with
        one, that list under the same counts. The older crawl is chosen among the
        archives under the roots."""
        spec = SPECS["compare_archives"]
        names = await _threaded(self.archives.listing)
        context.update(spec=spec, values=values, archive_names=names,
                       sizes=params.PAGE_SIZES)
        if not values.get("kind") or archive is None:
            return self.page(request, "compare.html", **context)
        old = self.archives.open(values["old"])
        maps = values.get("maps") or ""
        context["summary"] = await _threaded(spec.function, archive, old=old, maps=maps)
        page, size = params.paging(request.query_params)
        columns = _columns(_column_set("compare", values), context["result"])
        exported = {k: v for k, v in values.items() if k not in params.HTML_ONLY}
        context.update(page=page, size=size, columns=columns,
                       cells=_cell_tags(columns, {}), headings={}, column_set=None,
                       csv_link=f"/api/{spec.name}?" + urlencode(
                           {**exported, "format": "csv", "bom": "true"}),
                       sort_choices=[], sort_key=None, sort_order=None, desc_first=DESC_FIRST)
        return self.page(request, "list.html", **context)

    async def computing(self, request: Request, view: str, values: Mapping[str, str]
                        ) -> Response | None:
        """A template view of an archive whose templates are neither stored nor computed
        yet: the work starts in the background and the page shows its progress line
        (app.js asks ``/api/progress`` and reloads when it is done) rather than a
        browser spinning for minutes. None when the view can answer now."""
        archive = await _threaded(self.archives.open, request.query_params.get("a"))
        spec = SPECS[VIEWS[view][0]]
        if spec.ready is None:
            return None
        try:
            args = params.arguments(spec, values, html=True, view=t(view))
        except (NitpickerError, ValueError):
            return None   # the view runs and shows the argument's error
        # one piece of work per archive and options (two thresholds share one reading,
        # but the key is only for the waiting page: a second start waits on the lock)
        key = f"{archive.path}|{view}|{sorted(args.items())!r}"
        if key in _FAILED:   # the view runs it in the open once, and shows its error
            _FAILED.discard(key)
            return None
        if await _threaded(spec.ready, archive, **args):
            return None
        name = request.query_params.get("a") or self.archives.default()
        if key not in _COMPUTING:
            _COMPUTING.add(key)

            async def work() -> None:
                try:
                    await _threaded(self.run, request, view, values, heavy=True)
                except Exception:  # the reload shows the error as the view's own
                    _FAILED.add(key)
                    LOG.debug("%s failed", key, exc_info=True)
                finally:
                    _COMPUTING.discard(key)

            _BACKGROUND.add(asyncio.ensure_future(work()))
            for task in [t for t in _BACKGROUND if t.done()]:
                _BACKGROUND.discard(task)
        poll = "/api/progress" + (f"?{urlencode({'a': name})}" if name else "")
        return self.page(request, "computing.html", 202, archive=name, view=view,
                         badge=self.badge(archive), poll=poll)

    async def api_progress(self, request: Request) -> Response:
        """``{"running", "done", "total", "message"}``: the long work going on for the
        archive (``a``), what the computing page polls."""
        try:
            archive = await _threaded(self.archives.open, request.query_params.get("a"))
        except (NitpickerError, ValueError) as exc:
            return self.error(request, exc, api=True)
        step = progress.current(str(archive.path))
        running = str(archive.path) in _COMPUTING
        return JSONResponse({"running": running, "done": step.done if step else 0,
                             "total": step.total if step else 0,
                             "message": step.message if step else None})

    async def exported(self, request: Request, view: str, values: Mapping[str, str]
                       ) -> Response:
        """``/pages?…&format=csv`` (or ``json``): what the view's **Download CSV** link
        gives, the view's whole filtered result as ``/api/<query>`` answers it. The
        view's paging and column choice are the page's, not the data's: left out."""
        try:
            if view == "summary":
                raise InvalidArgument("The Summary view is one object, not a list: CSV is "
                                      "for lists")
            spec = SPECS[VIEWS[view][0]]
            fmt = values.get("format", "html")
            if fmt not in ("csv", "json"):
                raise InvalidArgument(f"format must be html, csv or json, not {fmt[:40]!r}")
            exported = {k: v for k, v in values.items() if k not in params.HTML_ONLY}
            params.arguments(spec, values, html=True, view=t(view))  # the view's words
            args = await _threaded(self.with_archives, spec, params.arguments(spec, exported))
            archive = await _threaded(self.archives.open, request.query_params.get("a"))
            if fmt == "csv":
                return await self.csv(request, spec, archive, args)
            result = await _threaded(spec.function, archive, heavy=spec.heavy, **args)
            if result is None:
                raise not_found(spec, args)
        except (NitpickerError, ValueError) as exc:
            return self.error(request, exc, api=False)
        return JSONResponse(jsonable(result))

    async def page_detail(self, request: Request) -> Response:
        try:
            name = request.query_params.get("a") or self.archives.default()
            # opening may extract a big archive: never on the event loop
            archive = await _threaded(self.archives.open, request.query_params.get("a"))
            url = request.query_params.get("url") or ""
            if not url:
                raise InvalidArgument("url is required")
            detail = await _threaded(q.get_page_detail, archive, url=url, links_limit=100)
            if detail is None:
                raise not_found(SPECS["get_page_detail"], {"url": url})
            html = await _threaded(q.get_page_html, archive, url=url, max_length=200_000)
            jsonld = await _threaded(q.get_page_jsonld, archive, url=url)
            tags = await _threaded(q.get_page_tags, archive, url=url)
            try:
                main = await _threaded(q.get_page_main_contents, archive, url=url)
            except NotRecorded:   # not an HTML page, or an archive without inventories
                main = None
            # the analyze plugins' findings on this page, the first 200 of them (the
            # Violations view lists them all)
            violations = await _threaded(q.get_violations, archive, url=url, limit=200)
        except (NitpickerError, ValueError) as exc:
            return self.error(request, exc, api=False)
        return self.page(request, "page.html", archive=name, view="page", detail=detail,
                         html=html, jsonld=jsonld, tags=tags, main=main,
                         violations=violations, badge=self.badge(archive))

    async def home(self, request: Request) -> Response:
        if self.archives.single is not None and not request.query_params.get("list"):
            return await self.html_view(request)
        names = await _threaded(self.archives.listing)
        entries = [await _threaded(self.describe, name) for name in names]
        return self.page(request, "home.html", archive=None, view="home", badge=None,
                         entries=entries)

    def describe(self, name: str) -> dict[str, Any]:
        """One archive of the home page: its site, pages and when it was crawled (as
        MCP's ``list_archives`` lists them), or the one line of why it does not open."""
        entry: dict[str, Any] = {"name": name, "site": None, "pages": None, "crawled": None,
                                 "error": None}
        try:
            summary = q.get_summary(self.archives.open(name))
        except (NitpickerError, ValueError, OSError) as exc:
            entry["error"] = mask(str(exc))
            return entry
        crawl = summary.get("crawl") or {}
        entry.update(site=summary.get("baseUrl"), pages=summary.get("totalPages"),
                     crawled=crawl.get("endedAt") or crawl.get("startedAt"))
        return entry

    async def api(self, request: Request) -> Response:
        query = request.path_params["query"]
        spec = SPECS.get(query)
        try:
            if spec is None:
                raise NotFound(_no_query(query))
            archive = await _threaded(self.archives.open, request.query_params.get("archive")
                                      or request.query_params.get("a"))
            args = await _threaded(self.with_archives, spec,
                                   params.arguments(spec, request.query_params))
            fmt = request.query_params.get("format", "json")
            if fmt not in ("json", "csv"):
                raise InvalidArgument("format must be json or csv")
            if fmt == "csv":
                return await self.csv(request, spec, archive, args)
            result = await _threaded(spec.function, archive, heavy=spec.heavy, **args)
            if result is None:
                raise not_found(spec, args)
        except (NitpickerError, ValueError) as exc:
            return self.error(request, exc, api=True)
        return JSONResponse(jsonable(result))

    async def csv(self, request: Request, spec: QuerySpec, archive: q.Archive,
                  args: dict[str, Any]) -> Response:
        """The whole filtered result as CSV (:mod:`nitpicker_query.report.export`), streamed a
        page at a time; ``limit``/``offset`` cut it only when the URL gives them. The
        first chunk is made before the answer starts, so a bad argument is still a 400."""
        if not spec.is_list:
            raise InvalidArgument(f"{spec.name} returns one object, not a list: CSV is for "
                                  "lists")
        options = {k: v for k, v in args.items() if k not in ("limit", "offset")}
        most = args.get("limit") if "limit" in request.query_params else None
        rows = export.items(spec.function, archive, options, offset=args.get("offset", 0),
                            most=most, not_found=str(not_found(spec, args)))
        bom = params.value_of(params.BOM, request.query_params.get("bom") or "false")
        chunks = export.csv_chunks(rows, columns=spec.columns(options), bom=bom)
        first = await _threaded(next, chunks, heavy=spec.heavy)
        return StreamingResponse(
            itertools.chain([first], chunks), media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="{spec.command}.csv"'})

    async def api_index(self, request: Request) -> Response:
        return JSONResponse({"queries": [
            {"name": s.name, "summary": s.summary,
             "params": [p.camel for p in s.params]} for s in QUERIES]})


_HEAVY: list[anyio.CapacityLimiter] = []
_COMPUTING: set[str] = set()          # archives whose template clusters are being computed
_FAILED: set[str] = set()             # … and those whose computation failed, until shown
_BACKGROUND: set[asyncio.Future[None]] = set()   # their tasks, held until done


async def _threaded(function: Callable[..., Any], *args: Any, heavy: bool = False,
                    **kwargs: Any) -> Any:
    """Queries are blocking SQLite calls: run them off the event loop. A heavy one
    (:attr:`~nitpicker_query.queries.catalog.QuerySpec.heavy`: template clusters) runs on a
    limiter of its own, one at a time: 45 of them once took every thread of the shared
    pool and held ``/summary`` for 23 s; now they queue among themselves, and the second
    finds the first one's cached result."""
    if not heavy:
        return await run_in_threadpool(function, *args, **kwargs)
    if not _HEAVY:
        _HEAVY.append(anyio.CapacityLimiter(1))
    return await anyio.to_thread.run_sync(functools.partial(function, *args, **kwargs),
                                          limiter=_HEAVY[0])


def _cell_tags(columns: list[str], headings: Mapping[str, str]) -> list[tuple[str, Markup]]:
    """Each column with its cells' opening tag: the label a phone's card shows
    (``data-label``), and the class of the row's URL (first) or of a short value."""
    tags = []
    for index, column in enumerate(columns):
        kind = "url" if column in URL_COLUMNS and index == 0 else (
            "short" if column in SHORT_COLUMNS else "")
        tags.append((column, Markup('<td data-label="{}"{}>').format(
            headings.get(column) or heading(column),
            Markup(f' class="{kind}"') if kind else "")))
    return tags


CELL_ITEMS = 20
"""Items a list cell shows (the rest are counted: :func:`more_of`)."""
LIST_COUNTS = {"urls": "count", "samplePages": "count"}
"""A list cell cut by its query (``pages_limit``) → the row's key counting it whole."""


def more_of(item: Mapping[str, Any], column: str) -> int:
    """How many a list cell leaves out: the row's count past the items shown (the query's
    cut, else the viewer's 20), so a group of 156 pages never reads as 20."""
    value = item.get(column)
    if not isinstance(value, list):
        return 0
    whole = item.get(LIST_COUNTS.get(column, ""))
    shown = min(len(value), CELL_ITEMS)
    total = whole if isinstance(whole, int) and not isinstance(whole, bool) else len(value)
    return max(0, total - shown)


def _no_query(name: str) -> str:
    """The error of ``/api/<name>`` for a name no query has, with the one meant: the API
    speaks MCP's names (``get_summary``), the views and the CLI their own (``summary``)."""
    by_command = {spec.command: spec.name for spec in SPECS.values()}
    meant = by_command.get(name) or next(iter(difflib.get_close_matches(
        name, [*SPECS, *by_command], n=1)), None)
    meant = by_command.get(meant or "", meant)
    hint = f"; did you mean {meant}?" if meant else " (the API index lists them)"
    return f"No query named {name[:60]}{hint}"


def _column_set(view: str, values: Mapping[str, str]) -> tuple[str, ...]:
    """The columns a view shows: the set ``columns=`` names (its first set by default),
    or the view's only set."""
    name = column_set_name(view, values)
    return VIEWS[view][1] if name is None else COLUMN_SETS[view][name]


def column_set_name(view: str, values: Mapping[str, str]) -> str | None:
    """The name of the column set a view shows (None for a view with one set): the one
    ``columns=`` names, else the one an option on shows (the redirects' hops), else the
    view's first; a bad choice is an error."""
    sets = COLUMN_SETS.get(view)
    chosen = values.get("columns") or ""
    if sets is None:
        if chosen:
            raise InvalidArgument(f"The {t(view)} view has one set of columns: leave "
                                  f"columns out, not {chosen[:40]!r}")
        return None
    if not chosen:
        shown = next((name for option, name in OPTION_SETS.get(view, ())
                      if values.get(option, "false").lower() not in ("", "false", "0")), None)
        return shown or next(iter(sets))
    if chosen not in sets:
        raise InvalidArgument(f"Columns (columns) must be one of {', '.join(sets)}, not "
                              f"{chosen[:40]!r}")
    return chosen


def _sort_state(view: str, spec: QuerySpec, values: Mapping[str, str]
                ) -> tuple[tuple[str, ...], str | None, str]:
    """The keys a view's headers sort by (its query's ``sortBy`` choices), and the key and
    order the list is sorted by now: the URL's, else the query's default order (links:
    by source URL; by destination: most referred first; orphaned pages: by URL)."""
    names = {p.name: p for p in spec.params}
    if "sort_by" not in names:
        return (), None, "asc"
    choices = names["sort_by"].choices
    key = values.get("sortBy") or names["sort_by"].default
    # a query without a default order sorts its biggest-first keys biggest first
    order = values.get("sortOrder") or str(names["sort_order"].default or (
        "desc" if key in DESC_FIRST else "asc"))
    if key:
        return choices, str(key), order
    if view in DEFAULT_SORT:
        return choices, *DEFAULT_SORT[view]
    if view == "links":
        if values.get("type") == "orphaned":
            return choices, "url", "asc"
        if values.get("byDestination") in params.TRUE:
            return choices, "referrerCount", "desc"
        return choices, "sourceUrl", "asc"
    return choices, None, "asc"


def _columns(wanted: tuple[str, ...], result: Any) -> list[str]:
    items = result.get("items", []) if isinstance(result, dict) else []
    present: list[str] = []
    for item in items[:50]:
        for key in item:
            if key not in present:
                present.append(key)
    if not wanted:
        return present
    return [c for c in wanted if c in present] or present


SECURITY_HEADERS = (
    ("Content-Security-Policy", CSP), ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"), ("X-Frame-Options", "DENY"),
    ("Cache-Control", "no-store"),
)


class Guard:
    """The outermost layer (outside Starlette's own error handler): refuse foreign
    ``Host`` headers (DNS rebinding) and put the security headers on *every* response —
    a 403, a 404 and a 500 included — and turn an exception into one line on stderr and
    a plain 500, never a traceback."""

    def __init__(self, app: ASGIApp, hosts: set[str]) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = Headers(scope=scope).get("host", "").lower()
        if host not in self.hosts:
            refusal = PlainTextResponse("Refused: this viewer answers only to "
                                        "127.0.0.1 / localhost.", status_code=403)
            await refusal(scope, receive, self._secured(send, time.perf_counter()))
            return
        started = time.perf_counter()
        answered: list[bool] = []
        secured = self._secured(send, started, answered)
        try:
            await self.app(scope, receive, secured)
        except Exception as exc:
            LOG.error("nitpicker-viewer: %s %s failed: %s", scope.get("method"),
                      str(scope.get("path"))[:200], mask(f"{type(exc).__name__}: {exc}"))
            if not answered:
                await PlainTextResponse("Internal error (see the viewer's terminal)",
                                        status_code=500)(scope, receive, secured)

    @staticmethod
    def _secured(send: Send, started: float, answered: list[bool] | None = None) -> Send:
        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                if answered is not None:
                    answered.append(True)
                headers = MutableHeaders(scope=message)
                # the time the view took (query + rendering), for the browser's network
                # panel and bench/viewer.py
                headers["Server-Timing"] = f"app;dur={(time.perf_counter() - started) * 1000:.1f}"
                for name, value in SECURITY_HEADERS:
                    headers[name] = value
            await send(message)

        return secured


def allowed_hosts(host: str, port: int) -> set[str]:
    names = {host, "localhost", "127.0.0.1"} if host in ("127.0.0.1", "localhost") else {host}
    hosts = set()
    for name in names:
        shown = f"[{name}]" if ":" in name else name
        hosts |= {shown, f"{shown}:{port}"}
    return hosts


def create_app(archives: Archives, *, host: str, port: int) -> ASGIApp:
    hosts = allowed_hosts(host, port)
    viewer = Viewer(archives, hosts)
    routes = [
        Route("/", viewer.home),
        Route("/page", viewer.page_detail),
        Route("/api", viewer.api_index),
        Route("/api/progress", viewer.api_progress),
        Route("/api/{query}", viewer.api),
        Route("/favicon.ico", lambda _request: RedirectResponse("/static/favicon.svg", 301)),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
        Route("/{view}", viewer.html_view),
    ]
    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            archives.close()

    return Guard(Starlette(routes=routes, lifespan=lifespan), hosts)
