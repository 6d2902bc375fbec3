"""Progress of a long query, told to whoever asked for it.

Almost every query answers in milliseconds. The one that may not is the first
``template-clusters`` call on an archive whose crawl did not store its templates: it
reads every snapshot (about a millisecond a page). The query functions keep one
signature for every adapter, so progress travels beside the call: an adapter that can
show it (the CLI's stderr line, an MCP progress notification, the viewer's progress
line) runs the call inside :func:`reporting`, and the long step reports through
:func:`working_on`.

Each report is also kept per archive (:func:`current`) for the viewer, whose page asks
for it from a second request while the first is still computing.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TextIO

from .terminal import escape, fit, terminal_width

Reporter = Callable[["Progress"], None]


@dataclass(frozen=True)
class Progress:
    done: int
    total: int
    message: str


_REPORTER: ContextVar[Reporter | None] = ContextVar("nitpicker_progress", default=None)
_CURRENT: dict[str, Progress] = {}
_LOCK = threading.Lock()


@contextlib.contextmanager
def reporting(reporter: Reporter) -> Iterator[None]:
    """Send the reports of the work done in this block (this thread) to ``reporter``."""
    token = _REPORTER.set(reporter)
    try:
        yield
    finally:
        _REPORTER.reset(token)


@contextlib.contextmanager
def working_on(archive: str) -> Iterator[Callable[[int, int, str], None]]:
    """A ``report(done, total, message)`` for the long work on ``archive`` (its path):
    each report goes to this block's reporter, if any, and is what :func:`current`
    answers for the archive until the block ends. A reporter that fails (a client gone)
    never stops the work."""
    reporter = _REPORTER.get()

    def report(done: int, total: int, message: str) -> None:
        step = Progress(done, total, message)
        with _LOCK:
            _CURRENT[archive] = step
        if reporter is not None:
            with contextlib.suppress(Exception):
                reporter(step)

    try:
        yield report
    finally:
        with _LOCK:
            _CURRENT.pop(archive, None)


def current(archive: str) -> Progress | None:
    """The latest report of long work going on on ``archive``, or None."""
    with _LOCK:
        return _CURRENT.get(archive)


class StderrLine:
    """A reporter for a terminal program: ``[label] message (N%)`` rewritten in place on a
    terminal; off a terminal (a log) the first report and then one every few seconds."""

    EVERY_S = 5.0

    def __init__(self, stream: TextIO, label: str) -> None:
        self.stream = stream
        self.label = label
        self.tty = stream.isatty()
        self.last = 0.0

    def __call__(self, step: Progress) -> None:
        text = f"[{self.label}] {step.message}"
        if step.total and step.done < step.total:
            text += f" ({100 * step.done // step.total}%)"
        now = time.monotonic()
        if self.tty:
            self.stream.write(f"\r\x1b[K{fit(escape(text), terminal_width(self.stream) - 1)}")
        elif not self.last or now - self.last >= self.EVERY_S:
            self.stream.write(escape(text) + "\n")
        else:
            return
        self.last = now
        self.stream.flush()

    def end(self) -> None:
        """Leave the terminal's line clean for what comes next."""
        if self.tty and self.last:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
