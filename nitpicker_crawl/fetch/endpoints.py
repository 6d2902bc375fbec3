"""Where pages render: this machine's Chromium, and browsers on other machines.

A rendered crawl is bound by its browser; a user with more machines lends them with
``--browser-endpoint URL`` (repeatable), each taking ``--browser-slots N`` pages at once.
Only rendering leaves the machine: the frontier and the archive writer stay, and the
crawler's own response still answers each page's navigation (CDP ``Fetch``), so a
remote browser fetches nothing of a page but its sub-resources. Two protocols, the two
engines of the field:

- ``ws://host:port/…`` — Playwright's own server (``playwright run-server`` or
  ``launch-server``), reached with ``BrowserType.connect``; its Playwright must have this
  crawler's major.minor version, which Playwright checks at connection;
- ``http(s)://host:port`` or ``ws://…/devtools/browser/…`` — a Chromium DevTools endpoint
  (``chromium --remote-debugging-port``, browserless, a Selenium Grid's CDP), reached with
  ``BrowserType.connect_over_cdp``.

An endpoint is only ever a browser: what it runs comes from this crawler (the pages'
navigations, a context per slot), so a page's isolation is the same everywhere; the
memory watchdog reads ``/proc`` and so bounds the local browser's tabs only (a remote
host bounds its own: docs/scaling.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from nitpicker_query.exceptions import NitpickerError
from nitpicker_query.terminal import fit

DEFAULT_SLOTS = 4
"""Pages one endpoint renders at once unless ``--browser-slots`` says otherwise."""

MAX_SLOTS = 64
"""Most pages at once on one endpoint (a browser host's cores are the real bound)."""

CONNECT_TIMEOUT_S = 30.0
"""How long a connection to an endpoint may take before it counts as refused."""


class EndpointError(NitpickerError):
    """An endpoint that cannot be used: a bad URL, refused, another Playwright version."""


@dataclass(frozen=True)
class Endpoint:
    """One browser pages are dealt to: ``url`` None is this machine's Chromium."""

    url: str | None
    slots: int
    kind: str  # "local", "playwright" or "cdp"

    @property
    def name(self) -> str:
        """How messages name it: the local browser, or the URL's scheme, host and port
        alone (a browser host's path and a browserless query are its passwords)."""
        if self.url is None:
            return "local Chromium"
        parts = urlsplit(self.url)
        return f"{parts.scheme}://{parts.hostname}{f':{parts.port}' if parts.port else ''}"


def local(slots: int) -> Endpoint:
    return Endpoint(None, slots, "local")


def parse(url: str, slots: int = DEFAULT_SLOTS) -> Endpoint:
    """An endpoint from ``--browser-endpoint``; a URL that is neither kind is refused in
    one line saying which are."""
    text = url.strip()
    try:
        parts = urlsplit(text)
        parts.port   # noqa: B018 — a port that is not a number raises on reading it
    except ValueError:
        parts = None
    if parts is None or parts.scheme.lower() not in ("ws", "wss", "http", "https") or \
            not parts.hostname:
        raise EndpointError(
            f"--browser-endpoint {fit(text, 200)!r}: expected ws://HOST:PORT/… (a Playwright "
            "server) or http://HOST:PORT (a Chromium DevTools endpoint)")
    if not 1 <= slots <= MAX_SLOTS:
        raise EndpointError(f"--browser-slots must be 1 to {MAX_SLOTS}, got {slots}")
    scheme = parts.scheme.lower()
    devtools = "/devtools/" in parts.path
    kind = "cdp" if scheme in ("http", "https") or devtools else "playwright"
    return Endpoint(text, slots, kind)


_MISMATCH = re.compile(r"server version:\s*v?([\d.]+).*?client version:\s*v?([\d.]+)",
                       re.IGNORECASE | re.DOTALL)


def connect_error(endpoint: Endpoint, exc: BaseException) -> EndpointError:
    """Why an endpoint could not be reached, in one line: another Playwright version
    names both versions and the one to install; anything else its first line."""
    text = str(exc)
    found = _MISMATCH.search(text)
    if found is not None or "version mismatch" in text.lower():
        server, client = found.groups() if found else ("another", "this crawler's")
        minor = ".".join(client.split(".")[:2])
        return EndpointError(
            f"browser endpoint {endpoint.name} runs Playwright {server}, this crawler "
            f"{client}: both must share major.minor (on that host: pip install "
            f"'playwright=={minor}.*', then its run-server)")
    first = (text.strip().splitlines() or [type(exc).__name__])[0]
    return EndpointError(f"browser endpoint {endpoint.name} could not be reached "
                         f"({fit(first, 300)})")


async def connect(playwright: Any, endpoint: Endpoint) -> Any:
    """A Browser on a remote endpoint (its kind's protocol); :class:`EndpointError` when it
    cannot be had."""
    chromium = playwright.chromium
    try:
        if endpoint.kind == "cdp":
            return await chromium.connect_over_cdp(endpoint.url,
                                                   timeout=CONNECT_TIMEOUT_S * 1000)
        return await chromium.connect(endpoint.url, timeout=CONNECT_TIMEOUT_S * 1000)
    except Exception as exc:
        raise connect_error(endpoint, exc) from None


__all__ = ["DEFAULT_SLOTS", "Endpoint", "EndpointError", "connect", "connect_error", "local",
           "parse"]
