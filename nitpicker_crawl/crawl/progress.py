"""The progress line on stderr (seed 001 §4), rewritten in place on a terminal.

``Crawling: X(Y) done / Z found URLs (+a/b ext) (N%) [R remaining] [L parallel]``
(and ``[C dedupe-capped]`` once the soft cap refused URLs):
X internal URLs finished (fetched or skipped), Y of them saved as rendered HTML pages,
Z internal URLs found, a/b external finished/found, N% of all found URLs finished,
R still to do, L workers. Off a terminal a line is appended every few seconds instead.

On a terminal narrower than that line a compact one keeps every number
(``Crawling: X(Y) done / Z found (+a/b ext) N% · C capped · R left · L par``), and it is cut to the
terminal's width (a line that wraps can no longer
be rewritten with ``\r``: every update would leave a new line), and the numbers are kept
consistent whatever a resumed archive held: never over 100 %, never a negative
remainder, never more HTML pages than URLs done.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from typing import TextIO

from nitpicker_query.terminal import escape, fit, terminal_width

SAY_MAX = 1000


@dataclass
class Counters:
    internal_done: int = 0
    pages_saved: int = 0
    internal_found: int = 0
    external_done: int = 0
    external_found: int = 0
    parallels: int = 1
    capped: int = 0

    def line(self, width: int | None = None) -> str:
        """Seed 001's line; on a terminal too narrow for it, a compact one that keeps
        every number it can: the soft cap's count, the percentage and the URLs done and
        found always, then (as the width allows) what is left, the external links and
        the workers."""
        total = max(self.internal_found, self.internal_done) + max(
            self.external_found, self.external_done)
        done = self.internal_done + self.external_done
        pct = min(100, int(done * 100 / total)) if total else 0
        remaining = max(0, total - done)
        saved = min(self.pages_saved, self.internal_done)
        text = (f"Crawling: {self.internal_done}({saved}) done / "
                f"{self.internal_found} found URLs (+{self.external_done}/"
                f"{self.external_found} ext) ({pct}%) [{remaining} remaining] "
                f"[{self.parallels} parallel]")
        if self.capped:
            text += f" [{self.capped} dedupe-capped]"
        if width is None or len(text) <= width:
            return text
        # the compact line, its least telling parts left out while it is still too wide
        head = f"Crawling: {self.internal_done}({saved}) done / {self.internal_found} found"
        parts = [(f" (+{self.external_done}/{self.external_found} ext)", 3),
                 (f" {pct}%", 1), (f" · {self.capped} capped" if self.capped else "", 0),
                 (f" · {remaining} left", 2), (f" · {self.parallels} par", 4)]
        for drop in (5, 4, 3, 2):
            text = head + "".join(p for p, rank in parts if rank < drop)
            if len(text) <= width:
                break
        return text


class Progress:
    def __init__(self, counters: Counters, *, silent: bool, stream: TextIO | None = None,
                 plain_every_s: float = 5.0) -> None:
        self.counters = counters
        self.silent = silent
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.plain_every_s = plain_every_s
        self._last = 0.0
        self._width = 0
        self._said: set[str] = set()  # one-time warnings already printed

    def update(self, force: bool = False) -> None:
        if self.silent:
            return
        now = time.monotonic()
        if not force and now - self._last < (0.2 if self.tty else self.plain_every_s):
            return
        self._last = now
        width = terminal_width(self.stream) - 1 if self.tty else None
        self._show(self.counters.line(width))

    def _show(self, text: str) -> None:
        if self.tty:
            text = fit(text, terminal_width(self.stream) - 1)
            pad = max(0, self._width - len(text))
            self.stream.write("\r" + text + " " * pad)
            self._width = len(text)
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def note(self, text: str) -> None:
        """A passing status (``Starting Chromium…``) the next update replaces."""
        if not self.silent:
            self._show(text)

    def finish(self) -> None:
        if self.silent:
            return
        self.update(force=True)
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()

    def say(self, message: str) -> None:
        """A line that must not be overwritten (cap events, warnings). A site's words in
        it (URLs, titles) are escaped and the line is cut at :data:`SAY_MAX` characters:
        a 3 MB URL or an escape sequence in an href reaches the terminal as text."""
        if self.tty and self._width:
            self.stream.write("\r" + " " * self._width + "\r")
            self._width = 0
        self.stream.write(fit(escape(message), SAY_MAX) + "\n")
        self.stream.flush()

    def say_once(self, key: str, message: str) -> None:
        """:meth:`say`, the first time only for ``key`` (a limit met on many pages)."""
        if key not in self._said:
            self._said.add(key)
            self.say(message)
