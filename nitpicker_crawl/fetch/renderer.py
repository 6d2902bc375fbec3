"""Rendering HTML pages in Chromium with Playwright: one browser for the whole crawl.

A browser per URL (upstream's design) costs ~700 ms a page here; one browser with a
reused page per worker costs ~64 ms (STACK-NOTES.md), so the renderer launches Chromium
once and keeps ``parallels`` pages, handed to workers through a queue. A page that
wedges (navigation or script never settles) is abandoned after the timeout and replaced;
a crashed browser is relaunched; the crawl goes on either way.

Extraction is one ``page.evaluate`` returning the same raw description the parser builds
(:class:`~nitpicker_crawl.fetch.document.RawDocument`), plus the rendered HTML. Sub-resources
are the network responses of the navigation other than the document itself.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from nitpicker_query.exceptions import NitpickerError
from nitpicker_query.terminal import fit

from . import endpoints
from .document import RawDocument
from .endpoints import Endpoint, EndpointError
from .request_headers import SiteHeaders
from .tabs import TabWatchdog, browser_switches
from .urls import normalize

DISABLED_FEATURES = ("SpareRendererForSitePerProcess", "LocalNetworkAccessChecks")
"""Chromium keeps one spare renderer process ready for the browser context that
navigated last; with a context per tab, every navigation in another context throws it
away and starts a new one: 55 renderer processes for 60 pages at four tabs, 35 % fewer
pages/s, against 8 processes without the spare.

Local Network Access checks: a document the crawler answers itself (``Fetch.fulfillRequest``)
has no address the browser connected to, so it counts as public, and every sub-resource
it loads from a private or loopback address of another origin — a staging site's CDN on
10.x, a second port of localhost — is refused ("Permission was denied for this request to
access the `loopback` address space"), where a visitor's browser on the same network
loads it. A crawl lost those files from its resources and saw errors that a visit does
not."""

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

GLOBALS_INIT_JS = """(() => {
  if (window.top !== window) return;
  const joined = PATHS;
  const read = () => {
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
  };
  Object.defineProperty(window, Symbol.for('nitpicker.globals'), {value: read});
})();"""
"""Values of the JavaScript globals technology fingerprints read (``jQuery.fn.jquery``…):
primitives as text (a version), anything else as present. Property getters that throw
count as absent; one that never returns is bounded by the read's deadline. Only paths
whose first name is an own property of ``window`` are walked.

The ~5,600 paths (95 KB) are given to the tab once, as an init script of its context
that leaves a reader under a symbol (not a name: ``getOwnPropertyNames`` stays the
page's own), which :data:`READ_JS` calls. Sent with every page's read instead, they
crossed the driver and the DevTools protocol twice per page, JSON-encoded each time. As a
list they had cost 33 ms a page in Playwright's per-item serialisation."""


class BrowserNotFound(NitpickerError):
    """No Chromium to render with."""


def find_browser(*, shell: bool = True) -> str | None:
    """``NITPICKER_CHROMIUM``, then Playwright's own download, then Chromium on PATH.

    ``shell``: Chromium's headless shell first, wherever one is installed (Playwright's
    ``chromium-headless-shell`` download, Debian's ``chromium-headless-shell``). It is
    the same engine without the desktop browser around it, and what Playwright itself
    renders with in headless mode: on this project's benchmark it rendered at 1.3–1.4× the
    pages per second of the full browser in its new headless mode, with two thirds of
    the CPU per page (docs/BENCHMARKS.md, "What the limits cost on an ordinary site").
    Tools that need the full browser (Lighthouse) ask with ``shell=False``.

    None means "let Playwright use its default" is impossible too; the caller reports
    :class:`BrowserNotFound` with install instructions.
    """
    configured = os.environ.get("NITPICKER_CHROMIUM")
    if configured:
        return configured
    names = (["chromium-headless-shell"] if shell else []) + [
        "chromium", "chromium-browser", "google-chrome"]
    for kind in (("shell", "full") if shell else ("full",)):
        bundled = _playwright_chromium(kind)
        if bundled:
            return bundled
    for name in names:
        found = shutil.which(name)
        if found:
            # Debian's /usr/bin entries are scripts that start the binary as their child
            real = Path("/usr/lib/chromium") / name
            return str(real) if real.exists() else found
    return None


_DOWNLOADS = {
    "shell": ("chromium_headless_shell-*/chrome-headless-shell-linux*/chrome-headless-shell",
              "chromium_headless_shell-*/chrome-linux*/headless_shell"),
    "full": ("chromium-*/chrome-linux*/chrome",),
}
"""Where ``playwright install chromium`` leaves each browser (its layouts over releases)."""


def _playwright_chromium(kind: str) -> str | None:
    root = Path(os.environ.get("PLAYWRIGHT_BROWSERS_PATH", Path.home() / ".cache" /
                               "ms-playwright"))
    found = [c for pattern in _DOWNLOADS[kind] for c in root.glob(pattern) if c.exists()]
    return str(max(found, key=_revision)) if found else None


def _revision(path: Path) -> int:
    """The download's revision (``chromium-1200/…``: 1200), the newest chosen."""
    tail = path.parts[-3].rpartition("-")[2]
    return int(tail) if tail.isdigit() else 0


@contextlib.contextmanager
def driver_in_own_session() -> Iterator[None]:
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
                         "connection", "keep-alive", "set-cookie", "refresh"})
"""Headers the browser's copy of a document goes without: the wire form's (the body is
decoded), cookies (sent one by one), and ``Refresh``, whose navigation would race the one
being rendered and abort it (the header itself is in the archive's response headers)."""


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
    problems: list[tuple[str, str]] = field(default_factory=list)  # (phase, message)
    navigations: list[str] = field(default_factory=list)  # where scripts tried to go
    # console messages and uncaught errors, in order (type, text, url, line, column,
    # stack, ts): at most MAX_CONSOLE of them, each text cut at MAX_CONSOLE_TEXT
    console: list[dict[str, Any]] = field(default_factory=list)


class RenderFailed(Exception):
    """A page that could not be rendered; the message is what the archive stores."""


INIT_JS = """(() => {
  // a page gets no popups (they would load from the network, outside the crawl)
  window.open = () => null;
  // history entries beyond a few hundred are a script flooding the browser, not a page
  let left = HISTORY_LIMIT;
  for (const name of ['pushState', 'replaceState']) {
    const original = History.prototype[name];
    History.prototype[name] = function (...args) {
      if (left <= 0) return undefined;
      left -= 1;
      return original.apply(this, args);
    };
  }
})();"""
HISTORY_LIMIT = 200
"""``history.pushState``/``replaceState`` calls a page may make; later calls do nothing.
100,000 calls on one page made Playwright process 100,000 navigation events and failed
three pages rendering beside it with timeouts."""


@dataclass
class _Slot:
    """One rendering tab in a browser context of its own.

    Two pages rendering at once never share a context, so never a renderer process, a
    cookie jar or a deadline: a page that loops, floods or allocates can only fail
    itself. A slot is reused for the pages after it (a fresh context per page costs
    ~320 ms against ~63 ms a page here: five times the rendering time) and replaced after
    any failure and every :data:`RECYCLE_AFTER` pages.
    """

    context: Any
    page: Any
    cdp: Any
    main_frame: str
    engine: _Engine
    generation: int = 0
    renders: int = 0
    held: int = 0  # bytes the last page held (JavaScript heap and typed arrays)
    serving: tuple[str, Document | None] | None = None  # what answers the navigation
    blocked: list[str] = field(default_factory=list)  # navigations away, refused
    watch: _Watch | None = None  # the page being rendered's collector; None between pages


@dataclass
class _Watch:
    """What the tab's events bring while one page renders in it.

    The slot's tab listens once, when it is made, and hands each event to the watch of
    the page in it; between pages there is none and events are dropped. Listening per
    page instead (``page.on`` … ``remove_listener``) made the driver subscribe to and
    unsubscribe from responses and console messages at every page: four more messages
    through it per page.
    """

    responses: list[Any] = field(default_factory=list)
    console: list[dict[str, Any]] = field(default_factory=list)
    crashed: asyncio.Event = field(default_factory=asyncio.Event)

    def on_response(self, response: Any) -> None:
        if len(self.responses) < MAX_RESPONSES:
            self.responses.append(response)

    def on_console(self, message: Any) -> None:
        if len(self.console) < MAX_CONSOLE:
            where = message.location or {}
            self.console.append(_console_entry(
                str(message.type), message.text, where.get("url"),
                where.get("lineNumber"), where.get("columnNumber"), None))

    def on_error(self, error: Any) -> None:
        if len(self.console) < MAX_CONSOLE:
            self.console.append(_console_entry(
                "pageerror", getattr(error, "message", None) or str(error), None, None,
                None, getattr(error, "stack", None)))


RECYCLE_AFTER = 200
"""Pages rendered in one slot before its context is replaced (state and leaks bounded)."""

RECONNECT_DELAYS_S = (1.0, 2.0, 4.0, 8.0, 15.0, 30.0)
"""Waits before each new attempt at a lost endpoint; the last repeats for the crawl's life."""

MOVES_PER_PAGE = 3
"""Endpoints a page may lose under it before it is stored unrendered (each time it goes
to another slot: a lost browser is no fault of the page's)."""


@dataclass
class _Outage:
    """An endpoint lost at ``down`` (epoch seconds), reached again at ``back``, and the
    pages moved to other slots because it was lost under them."""

    down: float
    reason: str
    back: float | None = None
    moved: int = 0

    def seconds(self, now: float) -> float:
        return (self.back or now) - self.down


@dataclass
class _Engine:
    """One endpoint's browser and its state: slots made under an older ``generation``
    (before a relaunch or a loss) are void."""

    endpoint: Endpoint
    browser: Any = None
    generation: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    reconnecting: asyncio.Future[None] | None = None
    outages: list[_Outage] = field(default_factory=list)
    rendered: int = 0

    @property
    def remote(self) -> bool:
        return self.endpoint.kind != "local"

    @property
    def moved(self) -> int:
        """Pages taken to another slot when this endpoint was lost under them."""
        return sum(o.moved for o in self.outages)


class Renderer:
    """A Chromium with ``size`` slots (:class:`_Slot`), a memory watchdog over their
    processes (:class:`~nitpicker_crawl.fetch.tabs.TabWatchdog`), relaunched if it dies."""

    def __init__(self, *, size: int, user_agent: str, timeout_s: float, images: bool,
                 answer_documents: bool = True, js_paths: list[str] | None = None,
                 max_tab_memory_mb: int = 1024, headers: SiteHeaders | None = None,
                 remote: list[Endpoint] | None = None, local_browser: bool = True,
                 say: Callable[[str], None] | None = None) -> None:
        self.size = max(1, size)
        # this machine's Chromium (``size`` slots) unless --no-local-browser, then each
        # --browser-endpoint: pages are dealt to whichever has a free slot
        self.engines = [_Engine(e) for e in (
            [endpoints.local(self.size)] if local_browser or not remote else []) + list(
            remote or [])]
        self._say = say or (lambda _message: None)
        # the user's request headers: every request of a page is then paused, and those
        # to the site's hosts continue with them (see _new_slot); None: none is paused
        # but documents, as without headers
        self.headers = headers if headers else None
        # globals to read for technology detection (newline-joined); None: none
        self.js_paths = "\n".join(js_paths) if js_paths else None
        self._globals_init = GLOBALS_INIT_JS.replace(
            "PATHS", json.dumps(self.js_paths)) if self.js_paths else None
        self.images = images
        self._read_js = self._read_script()
        self.answer_documents = answer_documents
        self.user_agent = user_agent
        self.timeout_s = timeout_s
        self.max_tab_memory_mb = max_tab_memory_mb
        self._pw: Any = None
        self._slots: asyncio.Queue[_Slot] = asyncio.Queue()
        self._answers: set[asyncio.Future[None]] = set()
        self._generation = 0  # every (re)launch takes the next: older slots are void
        self.watchdog: TabWatchdog | None = None
        self.started = False
        self._features: list[str] = []  # our --disable-features, merged with the driver's
        self._ignored: list[str] = []  # the driver's default it replaces

    @property
    def slots(self) -> int:
        """Pages rendered at once, every endpoint together: the crawl's workers."""
        return sum(e.endpoint.slots for e in self.engines)

    def _read_script(self) -> str:
        """:data:`READ_JS` for this crawl's options (made once: every page sends it)."""
        extract = EXTRACT_JS.replace("WANT_IMAGES", "true" if self.images else "false")
        return READ_JS.replace("(EXTRACT)", f"({extract})").replace(
            "WANT_GLOBALS", "true" if self.js_paths else "false")

    async def start(self) -> None:
        """Every endpoint up, or an error naming the first that is not (nothing is lost
        yet: a typo or a host down is said before the crawl starts)."""
        local = any(not e.remote for e in self.engines)
        executable = find_browser() if local else None
        if local and executable is None:
            raise BrowserNotFound(NOT_FOUND_MESSAGE)
        from playwright.async_api import async_playwright

        with driver_in_own_session():
            self._pw = await async_playwright().start()
        self._executable = executable or ""
        self.watchdog = TabWatchdog(self.max_tab_memory_mb << 20)
        # the lent browsers first: one refused is said before Chromium starts here
        for engine in sorted(self.engines, key=lambda e: not e.remote):
            await self._launch(engine)
        if local:
            self.watchdog.start()
        self.started = True

    async def _launch(self, engine: _Engine) -> None:
        """The engine's browser started (local) or connected (remote), and its slots
        made; raises BrowserNotFound or EndpointError."""
        if engine.remote:
            browser = await endpoints.connect(self._pw, engine.endpoint)
            await self._fill(engine, browser, EndpointError)
            return
        await self._launch_local(engine)

    async def _fill(self, engine: _Engine, browser: Any, error: type[Exception]) -> None:
        """A new generation of the engine's slots on ``browser``."""
        self._generation += 1
        engine.browser, engine.generation = browser, self._generation
        try:
            for _ in range(engine.endpoint.slots):
                await self._slots.put(await asyncio.wait_for(self._new_slot(engine), 30))
        except Exception as exc:
            engine.generation = -1   # what was made is void
            with contextlib.suppress(Exception):
                await asyncio.wait_for(browser.close(), timeout=5)
            raise error(f"{engine.endpoint.name} started but could not open a tab "
                        f"({_one_line(exc)})") from exc

    async def _launch_local(self, engine: _Engine) -> None:
        # V8's heap stops a script's own allocations at the tab's bound; what lies outside
        # it (typed arrays, images, a decoded bomb) is the watchdog's
        heap = max(64, self.max_tab_memory_mb // 2)
        args = [*CHROMIUM_ARGS, f"--js-flags=--max-old-space-size={heap}"]
        try:
            browser = await self._pw.chromium.launch(
                executable_path=self._executable, headless=True, args=args + self._features,
                ignore_default_args=self._ignored)
            if not self._features:
                merged = self._merged_features()
                if merged is not None:  # relaunched once, with the driver's list and ours
                    await browser.close()
                    self._ignored, self._features = merged
                    browser = await self._pw.chromium.launch(
                        executable_path=self._executable, headless=True,
                        args=args + self._features, ignore_default_args=self._ignored)
        except Exception as exc:
            raise BrowserNotFound(f"Chromium at {self._executable} did not start ({exc}). "
                                  + NOT_FOUND_MESSAGE) from exc
        await self._fill(engine, browser, BrowserNotFound)

    @staticmethod
    def _merged_features() -> tuple[list[str], list[str]] | None:
        """``(ignored defaults, our switch)`` to disable :data:`DISABLED_FEATURES` beside
        the features Playwright's driver disables, or None when there is nothing to do.

        Chromium keeps the last ``--disable-features`` it is given, so ours cannot simply
        be added: the driver's list (read off the launched browser's command line) is
        dropped and given again with ours appended."""
        values = browser_switches(os.getpid(), "--disable-features")
        default = values[0] if values else ""
        if all(f in default.split(",") for f in DISABLED_FEATURES):
            return None
        merged = ",".join(x for x in (default, *DISABLED_FEATURES) if x)
        return ([f"--disable-features={default}"] if default else []), \
            [f"--disable-features={merged}"]

    async def _new_slot(self, engine: _Engine) -> _Slot:
        """A context with one page whose main-frame document requests pause at the
        browser (CDP ``Fetch``): :meth:`render` answers the navigation with the crawler's
        response, and any later navigation of the main frame is refused.

        Only ``Document`` requests are paused: sub-resources never leave the browser's
        network stack, and its HTTP cache stays on (Playwright's ``page.route`` would
        send every request through Python and turn the cache off, and costs two driver
        round trips per page to register and remove: 10 % fewer pages/s here).

        With request headers (``--header`` …) every request is paused, because only a
        request seen here can get them for the site's hosts and not for another's
        (``context.set_extra_http_headers`` would send them to every host a page loads
        from): :meth:`_let_through` adds them. That costs a round trip per request, so
        it is done only when headers were given.
        """
        context = await engine.browser.new_context(user_agent=self.user_agent,
                                                   ignore_https_errors=True)
        await context.add_init_script(INIT_JS.replace("HISTORY_LIMIT", str(HISTORY_LIMIT)))
        if self._globals_init is not None:
            await context.add_init_script(self._globals_init)
        page = await context.new_page()
        context.on("page", lambda other: None if other is page else _close_popup(other))
        cdp = await context.new_cdp_session(page)
        tree = await cdp.send("Page.getFrameTree")
        slot = _Slot(context, page, cdp, str(tree["frameTree"]["frame"]["id"]), engine,
                     generation=engine.generation)

        def paused(event: dict[str, Any]) -> None:
            task = asyncio.ensure_future(self._answer(slot, event))
            self._answers.add(task)
            task.add_done_callback(self._answers.discard)

        cdp.on("Fetch.requestPaused", paused)
        every = {"urlPattern": "*", "requestStage": "Request"}
        documents = {**every, "resourceType": "Document"}
        await cdp.send("Fetch.enable", {"patterns": [
            every if self.headers is not None else documents]})
        page.on("dialog", _dismiss)
        for event, handler in (("response", _Watch.on_response), ("console", _Watch.on_console),
                               ("pageerror", _Watch.on_error)):
            page.on(event, _to_watch(slot, handler))
        page.on("crash", lambda _page: slot.watch.crashed.set() if slot.watch else None)
        return slot

    async def _answer(self, slot: _Slot, event: dict[str, Any]) -> None:
        """The one navigation being rendered is fulfilled with its fetched response (or,
        without one, let through once); any other navigation of the main frame —
        ``location.href = …`` after load, a meta refresh, ``location.reload()`` — is
        answered ``204 No Content``, which a browser treats as "stay on this document":
        what is stored is always the requested URL's page. Frames, and sub-resources
        (paused only when request headers were given), go to the network."""
        request_id = event["requestId"]
        url = event.get("request", {}).get("url", "").split("#", 1)[0]
        with contextlib.suppress(Exception):  # the page may be gone meanwhile
            if event.get("frameId") != slot.main_frame or \
                    event.get("resourceType", "Document") != "Document":
                await self._let_through(slot, event, url)
                return
            serving = slot.serving
            if serving is not None and (serving[0] == url or serving[0] == normalize(url)):
                # (the browser may spell our identity its own way: %7e, an IDNA host)
                slot.serving = None
                document = serving[1]
                if document is None:
                    await self._let_through(slot, event, url)
                    return
                await slot.cdp.send("Fetch.fulfillRequest", {
                    "requestId": request_id, "responseCode": document.status,
                    "responseHeaders": document.header_list(),
                    "body": base64.b64encode(document.body).decode("ascii")})
                return
            slot.blocked.append(url)
            await slot.cdp.send("Fetch.fulfillRequest", {
                "requestId": request_id, "responseCode": 204, "responseHeaders": [],
                "body": ""})

    async def _let_through(self, slot: _Slot, event: dict[str, Any], url: str) -> None:
        """Send a paused request on to the network, with the user's request headers
        when it goes to the site's hosts (:meth:`SiteHeaders.for_url`), unchanged
        otherwise. ``Fetch.continueRequest``'s headers replace the request's, so the
        browser's own are given back beside ours — but not ``Cookie``: since Chromium
        145 one given there overrides the cookie jar, and the copy seen at the pause may
        be stale; left out, the network stack adds the jar's. CDP does not carry these
        headers over to a redirect: the next hop is paused again and judged by its URL.
        A failure here says nothing about the values (the caller drops it)."""
        params: dict[str, Any] = {"requestId": event["requestId"]}
        ours = self.headers.for_url(url) if self.headers is not None else {}
        if ours:
            taken = {name.lower() for name in ours}
            browser = event.get("request", {}).get("headers", {})
            params["headers"] = [{"name": k, "value": str(v)} for k, v in browser.items()
                                 if k.lower() not in taken and k.lower() != "cookie"] + \
                [{"name": k, "value": v} for k, v in ours.items()]
        await slot.cdp.send("Fetch.continueRequest", params)

    async def render(self, url: str, document: Document | None = None) -> Rendered:
        """Render ``url`` in a slot of its own and extract; raises :class:`RenderFailed`.

        ``document``: the page's response as the crawler already fetched it. The
        browser's navigation is then answered with it instead of asking the server a
        second time (one request per page, not two); its sub-resources load as usual.
        Loading has ``timeout_s``; a page that is not parsed or loaded by then (a script
        or a sub-resource that never ends) is read as it stands, with a ``deadline``
        problem. Reading it has another ``timeout_s``; a page that cannot be read (a
        script that never yields) fails, as does a tab that crashed or went past the
        memory bound.
        """
        for _move in range(MOVES_PER_PAGE):
            slot = await self._take(url)
            try:
                return await self._render_in(slot, url, document)
            except Exception:
                # a remote endpoint lost under the page (its slot's generation void: see
                # _return): the page goes to another slot, never failed for it
                engine = slot.engine
                if not engine.remote or engine.generation == slot.generation:
                    raise
                if engine.outages:   # (a lost endpoint always has one: _lost)
                    engine.outages[-1].moved += 1
        raise RenderFailed(f"browser-endpoint: {url} lost {MOVES_PER_PAGE} browser endpoints "
                           "under it")

    async def _take(self, url: str) -> _Slot:
        """A free slot of any endpoint that is up (a void one, of a lost or relaunched
        browser, is dropped). Every endpoint lost for longer than a page's whole budget
        several times over fails the page rather than wait for ever."""
        wait = max(300.0, 4 * (2 * self.timeout_s + 5))
        deadline = asyncio.get_running_loop().time() + wait
        while True:
            left = deadline - asyncio.get_running_loop().time()
            try:
                slot = await asyncio.wait_for(self._slots.get(), timeout=max(0.0, left))
            except TimeoutError:
                raise RenderFailed(f"browser-endpoint: no browser had a free slot for "
                                   f"{wait:g} s (every endpoint lost): {url}") from None
            if slot.generation == slot.engine.generation:
                return slot
            _later(slot.context.close())

    async def _render_in(self, slot: _Slot, url: str, document: Document | None) -> Rendered:
        healthy = True
        watch = slot.watch = _Watch()
        crashed = watch.crashed
        try:
            serve = (url, document if self.answer_documents else None)
            render = asyncio.ensure_future(self._render(slot, url, watch.responses, serve))
            crash = asyncio.ensure_future(crashed.wait())
            try:
                done, _ = await asyncio.wait({render, crash}, timeout=2 * self.timeout_s + 5,
                                             return_when=asyncio.FIRST_COMPLETED)
            finally:
                crash.cancel()
                if not render.done():
                    render.cancel()
                    with contextlib.suppress(BaseException):
                        await render
            failure: BaseException | None = None
            if render in done:
                failure = render.exception()
                if failure is None and not crashed.is_set():
                    rendered: Rendered = render.result()
                    rendered.console = watch.console
                    return rendered
            healthy = False
            assert self.watchdog is not None
            if crashed.is_set() or _crash_message(failure):
                if self.watchdog.killed_recently(CRASH_WINDOW_S):
                    raise RenderFailed(
                        f"renderer-memory: {url} took more than {self.max_tab_memory_mb} MB "
                        "in its tab and was stopped (--max-tab-memory)")
                raise RenderFailed(f"renderer crashed (Page crashed): {url}")
            if failure is not None:
                raise failure
            raise RenderFailed(f"Navigation timeout of {int(self.timeout_s * 1000)} ms "
                               f"exceeded: {url}")
        except RenderFailed:
            healthy = False
            raise
        except asyncio.CancelledError:
            healthy = False
            raise
        except Exception as exc:
            healthy = False
            raise RenderFailed(_one_line(exc)) from None
        finally:
            slot.serving = slot.watch = None
            slot.renders += 1
            # a page holding a quarter of the tab's bound (JavaScript heap and typed
            # arrays) leaves with its slot: the next page must not die of its garbage
            healthy = healthy and slot.held < (self.max_tab_memory_mb << 20) // 4
            await self._return(slot, healthy)

    async def _render(self, slot: _Slot, url: str, responses: list[Any],
                      serve: tuple[str, Document | None]) -> Rendered:
        page = slot.page
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout_s
        problems: list[tuple[str, str]] = []
        from playwright.async_api import Error as PlaywrightError
        from playwright.async_api import TimeoutError as PlaywrightTimeout

        for attempt in range(1, NAVIGATION_ATTEMPTS + 1):
            # (again on the retry: the first attempt consumed it, and what was refused
            # then was the page before's navigation, not this page's)
            slot.serving, slot.blocked = serve, []
            try:
                # "commit" only: the document's own events are waited for in READ_JS
                response = await page.goto(url, wait_until="commit",
                                           timeout=int(self.timeout_s * 1000))
                break
            except PlaywrightTimeout:
                raise RenderFailed(f"Navigation timeout of {int(self.timeout_s * 1000)} ms "
                                   f"exceeded: {url}") from None
            except PlaywrightError as exc:
                # the page before in this slot started a navigation as it was left (a meta
                # refresh fires after load, a script's location.replace): it is refused
                # (204) but aborts ours; it comes once, so another attempt goes through
                if attempt == NAVIGATION_ATTEMPTS or "ERR_ABORTED" not in str(exc):
                    raise
                await asyncio.sleep(0.1 * attempt)
        # waiting for the page and reading it in one round trip; reading has a budget of
        # its own (a page of 100,000 links takes seconds to describe, however fast it
        # loaded)
        left_ms = int(max(0.0, deadline - loop.time()) * 1000)
        try:
            raw: RawDocument = await asyncio.wait_for(
                _owned(page.evaluate(self._read_js, left_ms)),
                timeout=left_ms / 1000 + self.timeout_s)
            usage = await asyncio.wait_for(_owned(slot.cdp.send("Runtime.getHeapUsage")),
                                           timeout=self.timeout_s)
        except TimeoutError:
            raise RenderFailed(f"deadline: {url} could not be read within "
                               f"{self.timeout_s:g} s (a script keeps the page busy)") from None
        slot.held = int(usage.get("usedSize", 0)) + int(usage.get("backingStorageSize", 0))
        state = raw.pop("loadState", "complete")  # type: ignore[typeddict-item]
        values = raw.pop("globals", None)  # type: ignore[typeddict-item]
        if self.js_paths is not None and not isinstance(values, dict):
            values = {}  # the page took the reader away: nothing read, not nothing asked
        if state != "complete":
            what = "was not parsed" if state == "loading" else "did not finish loading"
            problems.append(("deadline", f"deadline: {url} {what} within "
                             f"{self.timeout_s:g} s (a script or a sub-resource held it); "
                             "stored as it stood then"))
        resources = []
        for r in responses:
            if response is not None and r.request == response.request:
                continue
            if r.request.resource_type == "document":
                continue
            try:
                headers = await asyncio.wait_for(_owned(r.all_headers()), timeout=2)
            except Exception:
                headers = {}
            resources.append({"url": r.url, "status": r.status, "statusText": r.status_text,
                              "headers": headers})
        navigations = list(dict.fromkeys(slot.blocked))
        if navigations:
            problems.append(("navigation", f"navigation: a script or refresh on {url} went "
                             f"to {fit(navigations[0], 200)} — refused, the page is stored "
                             "as it was" + (f" ({len(navigations)} navigations)"
                                            if len(navigations) > 1 else "")))
        return Rendered(raw=raw, status=response.status if response is not None else None,
                        resources=resources, globals=values,
                        requests=[r.url for r in responses][:500], problems=problems,
                        navigations=navigations[:20])

    async def _return(self, slot: _Slot, healthy: bool) -> None:
        engine = slot.engine
        if slot.generation != engine.generation:
            return  # a slot of a browser relaunched or lost meanwhile: already void
        engine.rendered += healthy
        if healthy and slot.renders < RECYCLE_AFTER:
            await self._slots.put(slot)
            return
        # a failed, wedged or worn slot: its context (and renderer processes) closed
        # with a deadline and replaced; a dead local browser relaunched, a lost remote
        # one reconnected in the background while its pages go to the others
        with contextlib.suppress(Exception):
            await asyncio.wait_for(slot.context.close(), timeout=5)
        async with engine.lock:
            if slot.generation != engine.generation:
                return
            try:
                if engine.browser is None or not engine.browser.is_connected():
                    raise RuntimeError("browser gone")
                await self._slots.put(await asyncio.wait_for(self._new_slot(engine), 15))
            except Exception as exc:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(engine.browser.close(), timeout=5)
                if engine.remote:
                    self._lost(engine, exc)
                else:
                    await self._launch(engine)

    def _lost(self, engine: _Engine, why: BaseException) -> None:
        """A remote endpoint that stopped answering: its slots void (the pages on them go
        to other slots), the loss said and kept, and a reconnection started."""
        engine.generation = -1
        reason = _one_line(why)[:200]
        engine.outages.append(_Outage(time.time(), reason))
        self._say(f"[browser] {engine.endpoint.name} lost ({reason}); its "
                  "pages go to the other browsers, and it is tried again")
        if engine.reconnecting is None or engine.reconnecting.done():
            engine.reconnecting = asyncio.ensure_future(self._reconnect(engine))

    async def _reconnect(self, engine: _Engine) -> None:
        """Tries at :data:`RECONNECT_DELAYS_S`, for as long as the crawl runs."""
        for attempt in range(1_000_000):
            await asyncio.sleep(RECONNECT_DELAYS_S[min(attempt, len(RECONNECT_DELAYS_S) - 1)])
            try:
                async with engine.lock:
                    await self._launch(engine)
            except (EndpointError, BrowserNotFound):
                continue
            outage = engine.outages[-1]
            outage.back = time.time()
            self._say(f"[browser] {engine.endpoint.name} is back after "
                      f"{outage.seconds(outage.back):.0f} s")
            return

    def report(self) -> list[str]:
        """A line per remote endpoint for the crawl's end: pages rendered there, losses
        and their time, pages moved to other browsers."""
        lines: list[str] = []
        for engine in self.engines if self.started else []:
            if not engine.remote:
                continue
            now = time.time()
            down = sum(o.seconds(now) for o in engine.outages)
            lines.append(f"{engine.endpoint.name}: {engine.rendered:,} pages rendered" + (
                f", lost {len(engine.outages)} time(s) ({down:.0f} s), {engine.moved:,} "
                "pages moved to other browsers" if engine.outages else "") + (
                "; down at the end" if engine.outages and engine.outages[-1].back is None
                else ""))
        return lines

    def outages(self) -> list[dict[str, Any]]:
        """Each loss of a lent browser as the archive keeps it (``browser_outages``):
        endpoint name, epoch ms lost and back (None: down at the end), pages moved, why."""
        return [{"endpoint": engine.endpoint.name, "started_at": int(o.down * 1000),
                 "ended_at": int(o.back * 1000) if o.back is not None else None,
                 "pages_moved": o.moved, "reason": o.reason}
                for engine in self.engines if engine.remote for o in engine.outages]

    async def close(self) -> None:
        if self.watchdog is not None:
            self.watchdog.stop()
        for engine in self.engines:
            if engine.reconnecting is not None:
                engine.reconnecting.cancel()
            with contextlib.suppress(Exception):
                if engine.browser is not None:
                    # a remote browser: our connection closed (its host's browser stays)
                    await asyncio.wait_for(engine.browser.close(), timeout=10)
        with contextlib.suppress(Exception):
            if self._pw is not None:
                await asyncio.wait_for(self._pw.stop(), timeout=10)


READ_JS = """async (limitMs) => {
  const started = Date.now();
  const within = (event, target) => new Promise(done => {
    target.addEventListener(event, () => done(true), {once: true});
    setTimeout(() => done(false), Math.max(0, limitMs - (Date.now() - started)));
  });
  let loadState = document.readyState;
  if (loadState === 'loading' && await within('DOMContentLoaded', document))
    loadState = document.readyState;
  if (loadState === 'interactive' && await within('load', window)) loadState = 'complete';
  const raw = (EXTRACT)();
  if (WANT_GLOBALS) {
    const globals = window[Symbol.for('nitpicker.globals')];
    raw.globals = typeof globals === 'function' ? globals() : {};
  }
  raw.loadState = loadState === 'complete' || document.readyState === 'complete'
    ? 'complete' : loadState;
  // the page is read: what it scheduled must not run on in this tab (a navigation for
  // later, a fetch or timer loop, a download that never ends)
  try { window.stop(); } catch (e) {}
  const last = setTimeout(() => {}, 0);
  for (let id = last; id > 0 && id > last - 100000; id--) { clearTimeout(id); clearInterval(id); }
  window.fetch = () => new Promise(() => {});
  XMLHttpRequest.prototype.send = function () {};
  return raw;
}"""
"""Wait for the document's own ``DOMContentLoaded`` and ``load`` (at most ``limitMs``),
read it with :data:`EXTRACT_JS`, and quiet it, in one round trip. Playwright's lifecycle
waits follow the *latest* navigation, and one refused with a 204 never commits (``goto``
with ``wait_until="load"`` then waits for ever). ``loadState`` says how far it got."""

NAVIGATION_ATTEMPTS = 3
"""Navigations of a page in a slot whose page before may still be leaving."""

CRASH_WINDOW_S = 3.0
"""A tab that crashes this soon after the watchdog killed a renderer died of memory."""


def _crash_message(failure: BaseException | None) -> bool:
    text = str(failure or "").lower()
    return "crash" in text or "target closed" in text


MAX_RESPONSES = 2000

MAX_CONSOLE = 200
"""Console messages kept per page: a script logging in a loop must not cost more."""

MAX_CONSOLE_TEXT = 2000
"""Characters kept of one console message, and of one stack."""


def _console_entry(kind: str, text: Any, url: Any, line: Any, column: Any, stack: Any
                   ) -> dict[str, Any]:
    """One console message as the archive keeps it, every field bounded and typed."""
    def cut(value: Any) -> str | None:
        return str(value)[:MAX_CONSOLE_TEXT] if value not in (None, "") else None

    def number(value: Any) -> int | None:
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    return {"type": kind[:40], "text": cut(text), "url": cut(url), "line": number(line),
            "column": number(column), "stack": cut(stack), "ts": int(time.time() * 1000)}
"""Sub-resource responses recorded per page (a page fetching in a loop stays bounded)."""


_PENDING: set[asyncio.Future[None]] = set()
"""Fire-and-forget closes and dismissals, referenced until done."""


def _later(awaitable: Any) -> None:
    task = asyncio.ensure_future(_quietly(awaitable))
    _PENDING.add(task)
    task.add_done_callback(_PENDING.discard)


def _owned(awaitable: Any) -> asyncio.Future[Any]:
    """A browser call as a task whose failure is always read.

    A call cut short (its deadline, or the render cancelled) is cancelled by
    ``wait_for``, but Playwright may end it with the tab's own error (the target closed
    under it) rather than as cancelled; nobody awaits it any more, and asyncio would
    print that error's traceback on stderr at exit. The outcome is already decided by
    the caller: the task's exception is read here and dropped.
    """
    task: asyncio.Future[Any] = asyncio.ensure_future(awaitable)
    task.add_done_callback(_read_outcome)
    return task


def _read_outcome(task: asyncio.Future[Any]) -> None:
    if not task.cancelled():
        task.exception()



def _to_watch(slot: _Slot, handler: Callable[[_Watch, Any], None]) -> Callable[[Any], None]:
    """A tab listener that hands its event to the watch of the page in the slot now."""
    def listener(event: Any) -> None:
        if slot.watch is not None:
            handler(slot.watch, event)
    return listener


def _close_popup(page: Any) -> None:
    _later(page.close())


async def _quietly(awaitable: Any) -> None:
    with contextlib.suppress(Exception):
        await awaitable


def _dismiss(dialog: Any) -> None:
    """Alerts, confirms and prompts are dismissed; a page's "leave this page?" is
    answered yes (dismissing it would keep the page and abort the next one's navigation
    in its slot)."""
    _later(dialog.accept() if dialog.type == "beforeunload" else dialog.dismiss())


def _one_line(exc: BaseException) -> str:
    """Playwright's message without its call log: the first line, at most 500 characters."""
    text = str(exc).strip().splitlines()
    return fit(text[0] if text else type(exc).__name__, 500)
