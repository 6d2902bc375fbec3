"""Exclusion rules: path globs, URL prefixes, full-URL patterns, and the flag splitter.

- ``--exclude GLOB`` matches the URL's *path* (``/blog/*`` one segment, ``/blog/**``
  any depth, ``{a,b}`` alternatives), as upstream's micromatch ``pathMatch`` does.
- ``--exclude-url PREFIX`` matches the start of the whole URL.
- ``--exclude-keyword TEXT`` skips a fetched page whose HTML contains the text (or
  matches ``/regex/``); the page is recorded as skipped, its links are not followed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import urlsplit

from nitpicker_query.keys.patterns import path_matches


def split_list(value: str) -> list[str]:
    """Split a flag value on top-level commas, keeping commas inside ``{…}``.

    >>> split_list("/blog/*.{html,php},/admin/*")
    ['/blog/*.{html,php}', '/admin/*']
    """
    items: list[str] = []
    current: list[str] = []
    depth = 0
    for ch in value:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(0, depth - 1)
        if ch == "," and depth == 0:
            items.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    items.append("".join(current).strip())
    return [i for i in items if i]


class Excluder:
    """Decides whether a URL is excluded before it is fetched, and says why."""

    def __init__(self, globs: Iterable[str] = (), prefixes: Iterable[str] = (),
                 patterns: Iterable[str] = ()) -> None:
        self.globs = list(globs)
        self.prefixes = list(prefixes)
        self.patterns = [re.compile(p) for p in patterns]

    def reason(self, url: str) -> str | None:
        """``'excluded'`` with the rule that matched, or None."""
        path = urlsplit(url).path or "/"
        for glob in self.globs:
            if path_matches(path, glob):
                return f"excluded (--exclude {glob})"
        for prefix in self.prefixes:
            if url.startswith(prefix):
                return f"excluded (--exclude-url {prefix})"
        for pattern in self.patterns:
            if pattern.search(url):
                return f"excluded (--exclude-pattern {pattern.pattern})"
        return None


def keyword_matcher(keywords: Iterable[str]) -> re.Pattern[str] | None:
    """One regex for all ``--exclude-keyword`` values (``/re/`` taken as a regex)."""
    parts = []
    for k in keywords:
        if len(k) > 2 and k.startswith("/") and k.endswith("/"):
            parts.append(k[1:-1])
        elif k:
            parts.append(re.escape(k))
    return re.compile("|".join(parts)) if parts else None
