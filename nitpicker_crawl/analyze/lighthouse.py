"""The ``lighthouse`` plugin (opt-in: ``--plugin lighthouse``): Lighthouse's category
scores — performance, accessibility, best practices, SEO — per page, measured on the
**live** site.

Unlike every other plugin it loads each page's URL from the network, scripts and all,
as a visitor's browser would: performance can only be measured there. So it is never
run unless named, and a page whose site no longer answers is reported as not analysed
(and tried again next run).

Lighthouse (npm ``lighthouse``; 12.x runs on Node 18+) is found at
``NITPICKER_LIGHTHOUSE``, ``./node_modules/.bin/lighthouse``, or ``lighthouse`` on PATH,
and drives the same Chromium the crawler uses (``CHROME_PATH``). Two pages at a time
(upstream's concurrency for it): each run starts a browser of its own and takes several
seconds of CPU.

Findings: one per category and page — rule ``score:<category>`` (``score:performance``),
message ``Performance: 87``, severity by the score: under 50 → ``error``, under 90 →
``warning``, else ``info`` (Lighthouse's own red, orange and green bands).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
from pathlib import Path

from .plugin import Finding, Outcome, Page, Unavailable
from .tools import tool_version

CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
PAGE_TIMEOUT = 180.0
INSTALL = ("Lighthouse not found: npm install lighthouse@12 (Node 18+), or point "
           "NITPICKER_LIGHTHOUSE at its CLI")


def find_lighthouse() -> str | None:
    configured = os.environ.get("NITPICKER_LIGHTHOUSE")
    if configured:
        return configured if Path(configured).is_file() else None
    local = Path.cwd() / "node_modules" / ".bin" / "lighthouse"
    if local.is_file():
        return str(local)
    return shutil.which("lighthouse")


def severity_of(score: float) -> str:
    return "error" if score < 0.5 else "warning" if score < 0.9 else "info"


class LighthousePlugin:
    name = "lighthouse"
    batch = 4
    concurrency = 2

    def __init__(self) -> None:
        self._cli: str | None = None
        self._chrome: str | None = None
        self._version = "?"

    @property
    def identity(self) -> str:
        return f"lighthouse {self._version}"

    async def start(self) -> None:
        from ..fetch.renderer import NOT_FOUND_MESSAGE, find_browser

        self._cli = find_lighthouse()
        if self._cli is None:
            raise Unavailable(INSTALL)
        self._chrome = find_browser(shell=False)
        if self._chrome is None:
            raise Unavailable(NOT_FOUND_MESSAGE)
        self._version = await tool_version([self._cli, "--version"], INSTALL)

    async def analyze(self, pages: list[Page]) -> dict[int, Outcome]:
        slots = asyncio.Semaphore(self.concurrency)

        async def one(page: Page) -> tuple[int, Outcome]:
            async with slots:
                return page.id, await self._run(page.url)

        return dict(await asyncio.gather(*(one(p) for p in pages)))

    async def _run(self, url: str) -> Outcome:
        assert self._cli is not None and self._chrome is not None
        proc = await asyncio.create_subprocess_exec(
            self._cli, url, "--output=json", "--output-path=stdout", "--quiet",
            "--only-categories=" + ",".join(CATEGORIES), "--max-wait-for-load=45000",
            "--chrome-flags=--headless=new --no-sandbox --disable-gpu "
            "--disable-dev-shm-usage",
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            env={**os.environ, "CHROME_PATH": self._chrome}, start_new_session=True)
        try:
            out, err = await asyncio.wait_for(proc.communicate(), PAGE_TIMEOUT)
        except TimeoutError:
            _kill(proc)
            await proc.wait()
            return f"lighthouse did not finish within {PAGE_TIMEOUT:g} s"
        except asyncio.CancelledError:
            _kill(proc)
            raise
        try:
            report = json.loads(out)
        except ValueError:
            first = (err.decode(errors="replace").strip().splitlines() or ["no output"])[-1]
            return f"lighthouse failed (exit {proc.returncode}): {first[:300]}"
        problem = report.get("runtimeError") if isinstance(report, dict) else None
        if isinstance(problem, dict) and problem.get("code") != "NO_ERROR":
            return f"lighthouse: {str(problem.get('message') or problem.get('code'))[:300]}"
        findings = []
        for key in CATEGORIES:
            category = (report.get("categories") or {}).get(key)
            if not isinstance(category, dict):
                continue
            score = category.get("score")
            title = str(category.get("title") or key)
            if isinstance(score, int | float) and not isinstance(score, bool):
                findings.append(Finding(severity_of(float(score)), f"score:{key}",
                                        f"{title}: {round(float(score) * 100)}"))
            else:
                findings.append(Finding("info", f"score:{key}", f"{title}: not measured"))
        return findings

    async def close(self) -> None:
        return None


def _kill(proc: asyncio.subprocess.Process) -> None:
    """The CLI and the Chromium it started (its own process group)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, 9)
