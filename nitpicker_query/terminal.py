"""What every command-line tool here needs to read well in a terminal.

One definition each of: the argument parser whose usage errors are one line (exit 2),
the terminal's width, cutting text to a width, and escaping control characters in
anything shown to a person (an archive is a stranger's file: a title holding
``ESC [2J`` must not clear the screen). JSON output never goes through these: it keeps
the exact values.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from datetime import datetime
from typing import NoReturn, TextIO

_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")
_ALL_CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


class CliParser(argparse.ArgumentParser):
    """``argparse`` with a one-line usage error: ``prog: error: … (see prog --help)``."""

    def error(self, message: str) -> NoReturn:
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


def local_time(ms: int | float) -> str:
    """Epoch milliseconds as local ISO 8601 to the second (``2026-12-01T13:45:10+09:00``)."""
    return datetime.fromtimestamp(ms / 1000).astimezone().isoformat(timespec="seconds")
