"""The orders and groupings of the report's sheets: natural URL order, and resources
grouped by their URL without query values.

Upstream sorts resources with a natural comparison (Martin Pool's ``strnatcmp``: digit
runs compared as numbers, so ``page=2`` before ``page=10``; a run with a leading zero
compared digit by digit from the left, so ``image-01.jpg`` before ``image-1.jpg``; ASCII
letters without case; ASCII whitespace ignored, though it ends a digit run). A
comparison function would have to sort in Python, with every row in memory;
:func:`natural_key` instead turns a URL into a string whose plain (binary) order is that
order, so SQLite's own sorter — which spills to disk — sorts 300,000 rows in bounded
memory.

How the key keeps the order: a digit run with a leading zero is written as its digits
and a NUL (a run that ends first is the smaller, whatever follows); any other digit run
as ``1``, its length in six digits, then its digits (a longer number is larger). Both
start with a digit, so against a non-digit a run compares as its first digit would, and
a leading-zero run (``0…``) always comes before another run (``1…``), as ``strnatcmp``'s
left-aligned comparison has it. Letters A–Z are folded to lower case. Two differences
from upstream, both outside real URLs: characters are compared by code point, not UTF-16
unit (they differ only above U+FFFF), and a digit run is read to at most 999,999 digits.
"""

from __future__ import annotations

import re
from typing import Any

_WHITESPACE = "\t\n\v\f\r "
_RUNS = re.compile(r"[0-9]+|[\t\n\v\f\r ]+|[^0-9\t\n\v\f\r ]+")
_FOLD = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
MAX_RUN = 999_999


def natural_key(url: Any) -> str:
    """A string whose binary order is the natural order of ``url`` (NULL first)."""
    if url is None:
        return ""
    parts: list[str] = []
    for run in _RUNS.findall(str(url)):
        if run[0] in _WHITESPACE:   # skipped, but it ends a digit run: "0 0" is not "00"
            continue
        if run[0] not in "0123456789":
            parts.append(run.translate(_FOLD))
        elif run[0] == "0":
            parts.append(run + "\0")
        else:
            run = run[:MAX_RUN]
            parts.append(f"1{len(run):06d}{run}")
    return "\x01" + "".join(parts)


def canonical_url(url: Any) -> Any:
    """The URL with its query values dropped and its keys sorted, each once
    (``/p?b=Y&a=X&a=Z`` → ``/p?a&b``): the key the deduplicated Resources sheet groups
    by, as upstream does. Nothing is decoded; a URL without ``?`` is returned as it is."""
    if url is None or "?" not in str(url):
        return url
    head, _, query = str(url).partition("?")
    keys = sorted({piece.split("=", 1)[0] for piece in query.split("&")} - {""},
                  key=lambda k: k.encode("utf-16-be"))
    return f"{head}?{'&'.join(keys)}"


MAX_PATTERN_VALUES = 100
"""Distinct values of one query key counted at most per group (upstream's cap): a
pager of a million ``page=N`` URLs reads ``page=100+``, in bounded memory."""


class QueryPattern:
    """SQLite aggregate: ``key=N`` per query key of a group's URLs, keys in order, N the
    distinct values seen (at most 100, then ``100+``)."""

    def __init__(self) -> None:
        self.values: dict[str, set[str]] = {}
        self.more: set[str] = set()

    def step(self, url: Any) -> None:
        if url is None or "?" not in str(url):
            return
        for piece in str(url).partition("?")[2].split("&"):
            key, _, value = piece.partition("=")
            if not key:
                continue
            seen = self.values.setdefault(key, set())
            if value in seen:
                continue
            if len(seen) < MAX_PATTERN_VALUES:
                seen.add(value)
            else:
                self.more.add(key)

    def finalize(self) -> str:
        return ", ".join(f"{k}={len(v)}{'+' if k in self.more else ''}"
                         for k, v in sorted(self.values.items(),
                                            key=lambda kv: kv[0].encode("utf-16-be")))
