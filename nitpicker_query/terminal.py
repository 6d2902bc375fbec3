"""What every command-line tool here needs to read well in a terminal.

One definition each of: the argument parser whose usage errors are one line (exit 2),
the terminal's width, cutting text to a width, and escaping control characters in
anything shown to a person (an archive is a stranger's file: a title holding
``ESC [2J`` must not clear the screen). JSON output never goes through these: it keeps
the exact values.
"""

from __future__ import annotations

import argparse
import difflib
import math
import os
import re
import sys
import textwrap
from collections.abc import Callable
from datetime import datetime
from typing import Any, NoReturn, TextIO

_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")
_ALL_CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    r"""Help that fits the terminal: prose paragraphs of a description or epilog are
    re-wrapped to its width, indented lines (examples, tables) are kept as written but an
    example too long for the terminal continues on the next line after `` \`` (broken
    between arguments, so a signature or key stays whole and the lines still paste as
    one command), a choice list longer than a few words is shown by its metavar, not
    spelled in the usage line (the option's help lists the choices), and a usage line
    whose sub-command name leaves too little room is indented by four spaces instead."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        out: list[str] = []
        paragraph: list[str] = []

        def flush() -> None:
            if paragraph:
                out.extend(textwrap.wrap(" ".join(paragraph), width, initial_indent=indent,
                                         subsequent_indent=indent,
                                         break_on_hyphens=False, break_long_words=False))
                paragraph.clear()

        for line in text.splitlines():
            heading = line.rstrip().endswith(":") and len(line.split()) <= 4
            if not line.strip() or line[:1].isspace() or heading:
                flush()
                out.extend(_continued(indent + line, width) if line.strip() else [""])
            else:
                paragraph.append(line.strip())
        flush()
        return "\n".join(out)

    def _format_usage(self, usage: str | None, actions: Any, groups: Any,
                      prefix: str | None) -> str:
        text = super()._format_usage(usage, actions, groups, prefix)
        width = self._width
        lines = text.rstrip("\n").split("\n")
        if all(len(line) <= width for line in lines):
            return text
        whole = " ".join(line.strip() for line in lines)
        head = (prefix if prefix is not None else "usage: ") + self._prog
        if not whole.startswith(head):
            return text
        out = [head]
        for part in _usage_parts(whole[len(head):]):
            if len(out[-1]) + 1 + len(part) > width and out[-1].strip():
                out.append("    " + part)
            else:
                out[-1] += " " + part
        return "\n".join(out) + "\n\n"

    def _metavar_formatter(self, action: argparse.Action, default_metavar: str
                           ) -> Callable[[int], tuple[str, ...]]:
        if action.metavar is None and action.choices is not None and len(
                ",".join(map(str, action.choices))) > 40:
            action.metavar = action.dest.upper()
            if action.help and "{" not in action.help:
                action.help += " One of: " + ", ".join(map(str, action.choices)) + "."
        return super()._metavar_formatter(action, default_metavar)


def _continued(line: str, width: int) -> list[str]:
    r"""An example line cut between its arguments into lines of ``width`` joined by `` \``
    (a shell reads them as one command); an argument longer than the line stays whole."""
    if len(line) <= width:
        return [line]
    indent = line[:len(line) - len(line.lstrip())]
    words = line.split()
    out = [indent + words[0]]
    for word in words[1:]:
        if len(out[-1]) + 1 + len(word) + 2 > width and out[-1].strip():
            out[-1] += " \\"
            out.append(indent + "    " + word)
        else:
            out[-1] += " " + word
    return out


def _usage_parts(usage: str) -> list[str]:
    """``[-h] [--format {a,b}] archive`` → ``["[-h]", "[--format {a,b}]", "archive"]``:
    split at the spaces outside brackets."""
    parts = [""]
    depth = 0
    for char in usage:
        depth += (char in "[({") - (char in "])}")
        if char == " " and depth == 0:
            parts.append("")
        else:
            parts[-1] += char
    return [p for p in parts if p]


class CliParser(argparse.ArgumentParser):
    """``argparse`` with a one-line usage error: ``prog: error: … (see prog --help)``, the
    nearest sub-command or option suggested, and help that fits the terminal."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if kwargs.get("formatter_class") in (None, argparse.RawDescriptionHelpFormatter,
                                             argparse.HelpFormatter):
            kwargs["formatter_class"] = HelpFormatter
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        wrong = re.search(r"^argument ([^:]*): invalid choice: '([^']*)' \(choose from (.*)\)",
                          message)
        if wrong:
            what, given, listed = wrong.groups()
            near = difflib.get_close_matches(given, re.findall(r"'([^']*)'", listed), n=1)
            hint = f"; did you mean {near[0]}?" if near else ""
            message = (f"no sub-command {given!r}{hint}" if what.startswith("<") else
                       f"{what} cannot be {given!r}{hint} (one of {listed.replace(chr(39), '')})")
        self.exit(2, f"{self.prog}: error: {escape(message)} (see {self.prog} --help)\n")


def escape(text: str, *, newlines: bool = True) -> str:
    """Control characters as visible escapes (``\\x1b``); newlines and tabs too unless
    ``newlines=False`` keeps them (for a whole HTML source on a terminal)."""
    return (_ALL_CONTROLS if newlines else _CONTROLS).sub(_visible, text)


def _visible(match: re.Match[str]) -> str:
    char = match.group()
    return {"\n": "\\n", "\t": "\\t", "\r": "\\r"}.get(char, f"\\x{ord(char):02x}"
                                                   if ord(char) < 256 else f"\\u{ord(char):04x}")


def terminal_width(stream: TextIO | None = None, fallback: int = 80) -> int:
    """Columns of the terminal ``stream`` writes to (``$COLUMNS`` wins, as in ``ls``)."""
    env = os.environ.get("COLUMNS", "")
    if env.isdigit() and int(env) > 0:
        return int(env)
    try:
        return os.get_terminal_size((stream or sys.stdout).fileno()).columns or fallback
    except (OSError, ValueError, AttributeError):
        return fallback


def fit(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters with ``…``."""
    width = max(width, 4)
    return text if len(text) <= width else text[: width - 1] + "…"


def is_time(key: str, value: Any) -> bool:
    """Is this an epoch-milliseconds time (``firstCrawledAt``, ``createdAt`` …)?"""
    return (key.endswith("At") or key.endswith("_at")) and isinstance(value, int | float) \
        and not isinstance(value, bool) and 1e11 < value < 1e14


def local_time(ms: int | float) -> str:
    """Epoch milliseconds as local ISO 8601 to the second (``2026-12-01T13:45:10+09:00``)."""
    return datetime.fromtimestamp(ms / 1000).astimezone().isoformat(timespec="seconds")


class _Spout:
    """A text stream that outlives its reader: once the other end of a pipe is gone
    (``nitpicker-crawl … 2>&1 | head -2``), writes go nowhere instead of raising
    ``BrokenPipeError`` in the middle of the work — a crawl's progress line must never
    stop the crawl, leave its working directory behind, or wedge it."""

    def __init__(self, stream: TextIO, *, stop: bool) -> None:
        self._stream = stream
        self._gone = False
        self._stop = stop   # end the process once its reader is gone (a query's output)

    def write(self, text: str) -> int:
        if not self._gone:
            try:
                self._stream.write(text)
            except (BrokenPipeError, ValueError):   # ValueError: closed by its owner
                self._drop()
            except OSError as exc:
                if exc.errno != 32:   # EPIPE
                    raise
                self._drop()
        return len(text)

    def flush(self) -> None:
        if not self._gone:
            try:
                self._stream.flush()
            except (BrokenPipeError, ValueError):
                self._drop()

    def _drop(self) -> None:
        """Nobody reads any more: the descriptor points at /dev/null from now on (so the
        interpreter's own flush at exit does not raise either)."""
        self._gone = True
        try:
            fd = self._stream.fileno()
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, fd)
            os.close(null)
        except (OSError, ValueError):
            pass
        if self._stop:
            # what is left to write has no reader: stop the work, quietly (Python's own
            # advice for a closed pipe: output to /dev/null, exit 1)
            raise SystemExit(1)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def outlive_readers(*, stop: bool = False) -> None:
    """Make stdout and stderr of this process survive a reader that went away: the work
    goes on with its output going nowhere (a crawl: its archive is what matters), or with
    ``stop`` the process ends quietly (``nitpicker-query pages … | head``: the rest of
    the answer would be computed for nobody)."""
    if not isinstance(sys.stdout, _Spout):
        sys.stdout = _Spout(sys.stdout, stop=stop)
    if not isinstance(sys.stderr, _Spout):
        sys.stderr = _Spout(sys.stderr, stop=stop)


def percent(share: Any) -> str:
    """A share (0–1) as a percentage, never rounded up to a whole one: 2,813 of 2,814 is
    "99.9 %", not "100.0 %" (an auditor reads 100 % as "none missing")."""
    value = float(share or 0)
    shown = math.floor(1000 * value) / 10 if value < 1 else 100.0
    return f"{shown:.1f} %"
