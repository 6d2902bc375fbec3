"""The ``axe`` plugin: axe-core's accessibility rules, run in Chromium over the archived
HTML — never over the live site.

How a page is loaded: a fresh browser context per page routes every request. The page's
own URL is answered with the archived snapshot, once, with a Content-Security-Policy
that forbids every script, plugin and frame of the page; every other request
(stylesheets, images, scripts, frames) is refused, and a navigation away (a meta
refresh) gets "204 No Content", on which a browser stays on the page it has. The page
keeps its inline ``style`` attributes and ``<style>`` elements; external stylesheets
are not applied, so ``color-contrast`` judges the colours the HTML itself sets and axe
reports elements it cannot decide as "incomplete", which are not findings. axe-core is
then evaluated through the DevTools protocol, which the page's CSP does not restrict.
JavaScript stays enabled: axe waits on timers, and with JavaScript off it never
finishes (measured).

Which axe-core: the npm package ``axe-core`` when one is found (``NITPICKER_AXE_CORE``
naming its directory, ``./node_modules/axe-core``, or the global npm root) — it ships
the locales ``--axe-lang`` needs — else the copy the PyPI package
``axe-playwright-python`` ships (the ``analyze`` extra), English only.

Rules: the tags given (default WCAG 2.0 and 2.1, A and AA: :data:`DEFAULT_TAGS`). Each
violating element is one finding: rule the axe rule id, message axe's help text (in
``--axe-lang``), code the element's HTML. Severity from axe's impact: critical and
serious → ``error``, moderate → ``warning``, minor (or none) → ``info``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from pathlib import Path
from typing import Any

from .plugin import Finding, Outcome, Page, Unavailable
from .tools import npm_package

DEFAULT_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa")
"""WCAG 2.0 and 2.1, levels A and AA. WCAG 2.2's one AA rule in axe, ``target-size``,
measures laid-out targets: without the site's stylesheets (not in the archive) every
bare link fails it, so it is opt-in (``--axe-tags …,wcag22aa``)."""
IMPACT = {"critical": "error", "serious": "error", "moderate": "warning", "minor": "info"}
PAGE_TIMEOUT = 60.0
"""Seconds for one page, load and rules together: a page axe cannot finish in a minute
is reported as not analysed (and tried again next run), not waited on for ever."""
MAX_NODES_PER_RULE = 50
"""Elements reported per rule and page (axe's own result can list thousands)."""
CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
INSTALL = ("axe-core not found: pip install 'nitpicker[analyze]' (axe-playwright-python, "
           "which ships it), or npm install axe-core (also gives --axe-lang its locales)")


def _npm_axe() -> Path | None:
    configured = os.environ.get("NITPICKER_AXE_CORE")
    if configured:
        return Path(configured) if (Path(configured) / "axe.min.js").is_file() else None
    return npm_package("axe-core", "axe.min.js")


def find_axe() -> tuple[str, Path | None]:
    """axe-core's source and the npm package's directory (None: the PyPI copy)."""
    npm = _npm_axe()
    if npm is not None:
        return (npm / "axe.min.js").read_text(encoding="utf-8"), npm
    try:
        import axe_playwright_python  # type: ignore[import-untyped]
    except ImportError:
        raise Unavailable(INSTALL) from None
    source = Path(axe_playwright_python.__file__).with_name("axe.min.js")
    if not source.is_file():
        raise Unavailable(INSTALL)
    return source.read_text(encoding="utf-8"), None


def load_locale(package: Path | None, lang: str) -> dict[str, Any]:
    if package is None:
        raise Unavailable(f"--axe-lang {lang} needs axe-core's locales: npm install axe-core "
                          "(or point NITPICKER_AXE_CORE at its directory)")
    path = package / "locales" / f"{lang}.json"
    if not lang.replace("-", "").replace("_", "").isalnum() or not path.is_file():
        available = sorted(p.stem for p in (package / "locales").glob("*.json"))
        raise Unavailable(f"--axe-lang {lang}: axe-core has no such locale (it has: "
                          f"{', '.join(available)})")
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


class AxePlugin:
    name = "axe"
    batch = 16
    concurrency = 4

    def __init__(self, *, lang: str | None = None, tags: tuple[str, ...] = DEFAULT_TAGS,
                 executable: str | None = None) -> None:
        self.lang = lang
        self.tags = tags
        self._executable = executable
        self._source = ""
        self._locale: dict[str, Any] | None = None
        self._version = "?"
        self._pw: Any = None
        self._browser: Any = None

    @property
    def identity(self) -> str:
        return (f"axe-core {self._version} lang={self.lang or 'en'} "
                f"tags={','.join(self.tags)}")

    async def start(self) -> None:
        from ..fetch.renderer import (
            CHROMIUM_ARGS,
            NOT_FOUND_MESSAGE,
            driver_in_own_session,
            find_browser,
        )

        self._source, package = find_axe()
        if self.lang:
            self._locale = load_locale(package, self.lang)
        executable = self._executable or find_browser()
        if executable is None:
            raise Unavailable(NOT_FOUND_MESSAGE)
        from playwright.async_api import async_playwright

        with driver_in_own_session():
            self._pw = await async_playwright().start()
        try:
            self._browser = await self._pw.chromium.launch(
                executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        except Exception as exc:
            raise Unavailable(f"Chromium at {executable} did not start ({exc}). "
                              + NOT_FOUND_MESSAGE) from exc
        page = await self._browser.new_page()
        try:
            await page.evaluate(self._source)
            self._version = str(await page.evaluate("axe.version"))
        finally:
            await page.close()

    async def analyze(self, pages: list[Page]) -> dict[int, Outcome]:
        slots = asyncio.Semaphore(self.concurrency)

        async def one(page: Page) -> tuple[int, Outcome]:
            async with slots:
                try:
                    return page.id, await asyncio.wait_for(self._run(page), PAGE_TIMEOUT)
                except TimeoutError:
                    return page.id, f"axe did not finish within {PAGE_TIMEOUT:g} s"
                except Exception as exc:  # a crashed tab: this page only
                    return page.id, f"axe failed: {str(exc).splitlines()[0][:300]}"

        return dict(await asyncio.gather(*(one(p) for p in pages)))

    async def _run(self, page: Page) -> list[Finding]:
        context = await self._browser.new_context(service_workers="block")
        try:
            served = [False]

            async def route(r: Any) -> None:
                request = r.request
                if not served[0] and request.is_navigation_request():
                    served[0] = True
                    await r.fulfill(status=200, body=page.html.encode("utf-8", "replace"),
                                    headers={"Content-Type": "text/html; charset=utf-8",
                                             "Content-Security-Policy": CSP})
                elif request.is_navigation_request() and request.frame.parent_frame is None:
                    await r.fulfill(status=204)  # a meta refresh, a form: the page stays
                else:
                    await r.abort()

            await context.route("**/*", route)
            tab = await context.new_page()
            await tab.goto(page.url, wait_until="load", timeout=PAGE_TIMEOUT * 1000)
            await tab.evaluate(self._source)
            if self._locale is not None:
                await tab.evaluate("locale => axe.configure({locale})", self._locale)
            result = await tab.evaluate(
                "tags => axe.run(document, {runOnly: {type: 'tag', values: tags}, "
                "resultTypes: ['violations']}).then(r => r.violations.map(v => ({"
                "id: v.id, impact: v.impact, help: v.help, "
                f"nodes: v.nodes.slice(0, {MAX_NODES_PER_RULE}).map(n => ({{"
                "html: n.html, impact: n.impact}))})))", list(self.tags))
        finally:
            await context.close()
        findings = []
        for violation in result:
            for node in violation["nodes"]:
                impact = node.get("impact") or violation.get("impact")
                findings.append(Finding(IMPACT.get(str(impact), "info"), str(violation["id"]),
                                        str(violation["help"]), str(node.get("html") or "")))
        return findings

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            if self._browser is not None:
                await self._browser.close()
        with contextlib.suppress(Exception):
            if self._pw is not None:
                await self._pw.stop()
