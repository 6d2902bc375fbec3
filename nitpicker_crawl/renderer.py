"""Rendering HTML pages in Chromium with Playwright: one browser for the whole crawl.

A browser per URL (upstream's design) costs ~700 ms a page here; one browser with a
reused page per worker costs ~64 ms (STACK-NOTES.md), so the renderer launches Chromium
once and keeps ``parallels`` pages, handed to workers through a queue. A page that
wedges (navigation or script never settles) is abandoned after the timeout and replaced;
a crashed browser is relaunched; the crawl goes on either way.

Extraction is one ``page.evaluate`` returning the same raw description the parser builds
(:class:`~nitpicker_crawl.extraction.RawDocument`), plus the rendered HTML. Sub-resources
are the network responses of the navigation other than the document itself.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from nitpicker_query.exceptions import NitpickerError

from .extraction import RawDocument

CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage",
]

EXTRACT_JS = """() => {
  const attr = (el, name) => el.getAttribute(name);
  const html = document.documentElement;
  const base = document.querySelector('base[href]');
  const metaCharset = document.querySelector('meta[charset]');
  return {
    title: document.querySelector('title') ? document.title : null,
    lang: html ? attr(html, 'lang') : null,
    dir: html ? attr(html, 'dir') : null,
    charset: metaCharset ? attr(metaCharset, 'charset') : null,
    baseHref: base ? attr(base, 'href') : null,
    metas: [...document.querySelectorAll('meta')].map(m => ({
      name: attr(m, 'name'), property: attr(m, 'property'),
      httpEquiv: attr(m, 'http-equiv'), charset: attr(m, 'charset'),
      content: attr(m, 'content')})),
    links: [...document.querySelectorAll('link[href]')].map(l => ({
      rel: attr(l, 'rel'), href: attr(l, 'href'), hreflang: attr(l, 'hreflang'),
      sizes: attr(l, 'sizes')})),
    anchors: [...document.querySelectorAll('a[href], area[href]')].map(a => ({
      href: attr(a, 'href'), text: a.textContent, rel: attr(a, 'rel')})),
    images: WANT_IMAGES ? [...document.querySelectorAll('img')].map(i => ({
      src: attr(i, 'src'), currentSrc: i.currentSrc || null, alt: attr(i, 'alt'),
      width: i.width, height: i.height, naturalWidth: i.naturalWidth,
      naturalHeight: i.naturalHeight, isLazy: i.loading === 'lazy',
      viewportWidth: window.innerWidth, sourceCode: i.outerHTML.slice(0, 1000)})) : [],
    jsonld: [...document.querySelectorAll(
      'script[type="application/ld+json"], script[type="speculationrules"]')].map(s => ({
        type: (attr(s, 'type') || '').toLowerCase(), text: s.textContent})),
    scripts: [...document.querySelectorAll('script')].filter(s => ['', 'text/javascript',
      'application/javascript', 'module', 'text/ecmascript', 'application/ecmascript'
      ].includes((attr(s, 'type') || '').toLowerCase())).map(s => ({
        src: attr(s, 'src'), text: attr(s, 'src') ? null : s.textContent})),
    html: '<!DOCTYPE html>' + (html ? html.outerHTML : ''),
  };
}"""

GLOBALS_JS = """(joined) => {
  const own = new Set(Object.getOwnPropertyNames(window));
  const out = {};
  for (const path of joined.split('\\n')) {
    const parts = path.split('.');
    if (!own.has(parts[0])) continue;
    let value = window;
    for (const part of parts) {
      if (value === null || value === undefined) break;
      try { value = value[part]; } catch (e) { value = undefined; }
    }
    if (value === null || value === undefined) continue;
    const kind = typeof value;
    out[path] = (kind === 'string' || kind === 'number' || kind === 'boolean')
      ? String(value).slice(0, 200) : '';
  }
  return out;
}"""
"""Values of the JavaScript globals technology fingerprints read (``jQuery.fn.jquery``…):
primitives as text (a version), anything else as present. Property getters that throw
count as absent; one that never returns is bounded by the render timeout. The ~5,600
paths travel as one newline-joined string: as a list, Playwright's per-item
serialisation cost 33 ms a page, as a string 5 ms. Only paths whose first name is an own
property of ``window`` are walked."""


class BrowserNotFound(NitpickerError):
    """No Chromium to render with."""


def find_browser() -> str | None:
    """``NITPICKER_CHROMIUM``, then Playwright's own download, then ``chromium`` on PATH.

    None means "let Playwright use its default" is impossible too; the caller reports
    :class:`BrowserNotFound` with install instructions.
    """
    configured = os.environ.get("NITPICKER_CHROMIUM")
    if configured:
        return configured
    bundled = _playwright_chromium()
    if bundled:
        return bundled
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            real = Path("/usr/lib/chromium/chromium")
            return str(real) if name == "chromium" and real.exists() else found
    return None


def _playwright_chromium() -> str | None:
    root = Path(os.environ.get("PLAYWRIGHT_BROWSERS_PATH", Path.home() / ".cache" /
                               "ms-playwright"))
    for candidate in sorted(root.glob("chromium-*/chrome-linux*/chrome"), reverse=True):
        if candidate.exists():
            return str(candidate)
    return None


@contextlib.contextmanager
def _driver_in_own_session() -> Iterator[None]:
    """Start Playwright's driver (and so Chromium, its child) in a session of its own.

    Ctrl-C in a terminal sends SIGINT to the whole foreground process group. The driver
    would die of it at once, and the pages still rendering would fail with "Connection
    closed while reading from the driver" — recorded as failures, and followed by a
    "Future exception was never retrieved" block — while the crawl is trying to finish
    them in an orderly stop. In its own session the driver hears only us; it still ends
    with this process, when its stdin pipe closes. Playwright (1.4x–1.5x) has no option
    for this, so ``asyncio.create_subprocess_exec`` gets ``start_new_session=True`` for
    the duration of the start (``playwright/_impl/transport.py``, ``PipeTransport.connect``).
    """
    original = asyncio.create_subprocess_exec

    async def exec_in_own_session(*args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("start_new_session", True)
        return await original(*args, **kwargs)

    asyncio.create_subprocess_exec = exec_in_own_session
    try:
        yield
    finally:
        asyncio.create_subprocess_exec = original


NOT_FOUND_MESSAGE = (
    "No Chromium found for rendering. Install one with 'python -m playwright install "
    "chromium' (or 'apt-get install chromium' as root), point NITPICKER_CHROMIUM at a "
    "Chromium binary, or crawl without a browser using --no-render."
)


_HOP_BY_HOP = frozenset({"content-encoding", "content-length", "transfer-encoding",
                         "connection", "keep-alive", "set-cookie"})


@dataclass
class Document:
    """A page's response as the fetcher got it, to answer the browser's navigation."""

    status: int
    raw_headers: dict[str, str]
    body: bytes
    set_cookies: list[str] = field(default_factory=list)

    def header_list(self) -> list[dict[str, str]]:
        """Headers for CDP ``Fetch.fulfillRequest``: the body is already decoded (no
        encoding or length of the wire form), and each cookie its own header."""
        out = [{"name": k, "value": v} for k, v in self.raw_headers.items()
               if k.lower() not in _HOP_BY_HOP]
        return out + [{"name": "set-cookie", "value": c} for c in self.set_cookies]


@dataclass
class Rendered:
    raw: RawDocument
    status: int | None
    resources: list[dict[str, Any]] = field(default_factory=list)
    globals: dict[str, str] | None = None  # JavaScript globals (technology detection)
    requests: list[str] = field(default_factory=list)  # every URL the page requested


class Renderer:
    """A Chromium with ``size`` reusable pages."""

    def __init__(self, *, size: int, user_agent: str, timeout_s: float, images: bool,
                 answer_documents: bool = True, js_paths: list[str] | None = None) -> None:
        self.size = max(1, size)
        # globals to read for technology detection (newline-joined); None: none
        self.js_paths = "\n".join(js_paths) if js_paths else None
        self.answer_documents = answer_documents
        self.user_agent = user_agent
        self.timeout_s = timeout_s
        self.images = images
        self._pw: Any = None
        self._browser: Any = None
        self._context: Any = None
        self._pages: asyncio.Queue[Any] = asyncio.Queue()
        self._relaunch = asyncio.Lock()
        self._serving: dict[int, tuple[str, Document]] = {}  # page → what answers it
        self._answers: set[asyncio.Future[None]] = set()

    async def start(self) -> None:
        executable = find_browser()
        if executable is None:
            raise BrowserNotFound(NOT_FOUND_MESSAGE)
        from playwright.async_api import async_playwright

        with _driver_in_own_session():
            self._pw = await async_playwright().start()
        self._executable = executable
        await self._launch()

    async def _launch(self) -> None:
        try:
            self._browser = await self._pw.chromium.launch(
                executable_path=self._executable, args=CHROMIUM_ARGS, headless=True)
        except Exception as exc:
            raise BrowserNotFound(f"Chromium at {self._executable} did not start ({exc}). "
                                  + NOT_FOUND_MESSAGE) from exc
        self._context = await self._browser.new_context(user_agent=self.user_agent,
                                                        ignore_https_errors=True)
        self._pages = asyncio.Queue()
        for _ in range(self.size):
            await self._pages.put(await self._new_page())

    async def _new_page(self) -> Any:
        """A pooled page whose document requests pause at the browser (CDP ``Fetch``), so
        that :meth:`render` can answer the navigation with the crawler's response.

        Only ``Document`` requests are paused: sub-resources never leave the browser's
        network stack, and its HTTP cache stays on (Playwright's ``page.route`` would
        send every request through Python and turn the cache off, and costs two driver
        round trips per page to register and remove: 10 % fewer pages/s here).
        """
        page = await self._context.new_page()
        if not self.answer_documents:
            return page
        cdp = await self._context.new_cdp_session(page)

        def paused(event: dict[str, Any]) -> None:
            task = asyncio.ensure_future(self._answer(cdp, id(page), event))
            self._answers.add(task)
            task.add_done_callback(self._answers.discard)

        cdp.on("Fetch.requestPaused", paused)
        await cdp.send("Fetch.enable", {"patterns": [
            {"urlPattern": "*", "resourceType": "Document", "requestStage": "Request"}]})
        return page

    async def _answer(self, cdp: Any, page_id: int, event: dict[str, Any]) -> None:
        """Fulfil the navigation being rendered with its fetched response, once; let
        any other document request (a frame, a script's redirect) go to the network."""
        serving = self._serving.get(page_id)
        request_id = event["requestId"]
        url = event.get("request", {}).get("url", "").split("#", 1)[0]
        with contextlib.suppress(Exception):  # the page may be gone meanwhile
            if serving is not None and serving[0] == url:
                document = serving[1]
                self._serving.pop(page_id, None)
                await cdp.send("Fetch.fulfillRequest", {
                    "requestId": request_id, "responseCode": document.status,
                    "responseHeaders": document.header_list(),
                    "body": base64.b64encode(document.body).decode("ascii")})
                return
            await cdp.send("Fetch.continueRequest", {"requestId": request_id})

    async def render(self, url: str, document: Document | None = None) -> Rendered:
        """Navigate a pooled page to ``url`` and extract; raises on failure or timeout.

        ``document``: the page's response as the crawler already fetched it. The
        browser's navigation is then answered with it instead of asking the server a
        second time (one request per page, not two); its sub-resources load as usual.
        """
        page = await self._pages.get()
        responses: list[Any] = []
        healthy = True

        def on_response(response: Any) -> None:
            responses.append(response)

        try:
            page.on("response", on_response)
            try:
                return await asyncio.wait_for(self._render(page, url, responses, document),
                                              timeout=self.timeout_s)
            except TimeoutError:
                healthy = False
                raise TimeoutError(f"Navigation timeout of {int(self.timeout_s * 1000)} ms "
                                   f"exceeded: {url}") from None
            except Exception as exc:
                from playwright.async_api import TimeoutError as PlaywrightTimeout

                if isinstance(exc, PlaywrightTimeout):
                    # goto's own timer, set to the same budget, can fire first: one message
                    healthy = False
                    raise TimeoutError(f"Navigation timeout of {int(self.timeout_s * 1000)} "
                                       f"ms exceeded: {url}") from None
                healthy = self._browser is not None and self._browser.is_connected()
                raise
        finally:
            with contextlib.suppress(Exception):
                page.remove_listener("response", on_response)
            await self._return(page, healthy)

    async def _render(self, page: Any, url: str, responses: list[Any],
                      document: Document | None) -> Rendered:
        if document is not None:
            self._serving[id(page)] = (url, document)
        try:
            response = await page.goto(url, wait_until="load",
                                       timeout=int(self.timeout_s * 1000))
        finally:
            self._serving.pop(id(page), None)
        raw: RawDocument = await page.evaluate(
            EXTRACT_JS.replace("WANT_IMAGES", "true" if self.images else "false"))
        values = await page.evaluate(GLOBALS_JS, self.js_paths) if self.js_paths else None
        resources = []
        for r in responses:
            if response is not None and r.request == response.request:
                continue
            if r.request.resource_type == "document":
                continue
            try:
                headers = await r.all_headers()
            except Exception:
                headers = {}
            resources.append({"url": r.url, "status": r.status, "statusText": r.status_text,
                              "headers": headers})
        return Rendered(raw=raw, status=response.status if response is not None else None,
                        resources=resources, globals=values,
                        requests=[r.url for r in responses][:500])

    async def _return(self, page: Any, healthy: bool) -> None:
        if getattr(page, "context", None) is not self._context:
            return  # a page of a browser that was relaunched meanwhile: its slot is refilled
        if healthy:
            await self._pages.put(page)
            return
        # a wedged page is closed with a deadline and replaced; a dead browser relaunched
        with contextlib.suppress(Exception):
            await asyncio.wait_for(page.close(), timeout=5)
        async with self._relaunch:
            try:
                if self._browser is None or self._context is None or (
                        not self._browser.is_connected()):
                    raise RuntimeError("browser gone")
                await self._pages.put(await asyncio.wait_for(self._new_page(), 10))
            except Exception:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self._browser.close(), timeout=5)
                await self._launch()

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            if self._browser is not None:
                await asyncio.wait_for(self._browser.close(), timeout=10)
        with contextlib.suppress(Exception):
            if self._pw is not None:
                await self._pw.stop()
