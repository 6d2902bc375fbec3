"""What an analyze plugin is: the pages it gets, the findings it gives back.

Each plugin (``axe``, ``vnu``, ``text``, ``search-keywords``, ``lighthouse``) is a module
with one class implementing :class:`Plugin`. The runner (:mod:`.run`) hands it the
archived pages in batches of :attr:`Plugin.batch` — so the HTML held in memory is bounded
by the batch, never by the archive — and writes what comes back, one transaction a batch.

A plugin names its tool's version in :attr:`Plugin.identity` together with the options
that change its findings (``--axe-lang``, the keywords): a page analysed under another
identity is analysed again, one analysed under this one is skipped on the next run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

SEVERITIES = ("error", "warning", "info")
"""Every finding's severity, whatever the tool called it (each plugin's docstring and
docs/analyze.md give its mapping), so one filter reads across plugins."""


@dataclass(frozen=True)
class Page:
    """An archived HTML page: its id and URL in ``pages`` and its stored snapshot."""

    id: int
    url: str
    html: str


@dataclass(frozen=True)
class Finding:
    """One row of ``analysis_violations`` (upstream's columns)."""

    severity: str
    rule: str
    message: str
    code: str | None = None
    line: int | None = None
    col: int | None = None


Outcome = list[Finding] | str
"""A page's findings, or the one-line reason it could not be analysed (it is then tried
again on the next run, never marked done)."""


class Unavailable(Exception):
    """The plugin's tool is not installed: the message says how to install it."""


class Plugin(Protocol):
    name: str
    """The plugin's name on the command line and its ``validator`` in the archive."""
    batch: int
    """Pages handed over at once (bounds the HTML in memory)."""
    concurrency: int
    """Pages (or tool processes) at work at once inside a batch."""

    @property
    def identity(self) -> str:
        """Tool version and finding-relevant options, recorded with each page done."""
        ...

    async def start(self) -> None:
        """Start the tool (a browser, …); raise :class:`Unavailable` if it is missing."""
        ...

    async def analyze(self, pages: list[Page]) -> dict[int, Outcome]:
        """Findings for each page of the batch, by page id."""
        ...

    async def close(self) -> None:
        """Stop what :meth:`start` started; safe to call after a failed start."""
        ...
