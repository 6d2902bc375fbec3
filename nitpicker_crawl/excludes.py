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
from functools import lru_cache
from urllib.parse import urlsplit


def split_list(value: str) -> list[str]:
    """Split a flag value on top-level commas, keeping commas inside ``{…}``.

    >>> split_list("/blog/*.{html,php},/admin/*")
    ['/blog/*.{html,php}', '/admin/*']
    """
    items, depth, current = [], 0, []
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


@lru_cache(maxsize=256)
def glob_regex(pattern: str) -> re.Pattern[str]:
    """Compile a path glob: ``**`` any depth, ``*`` within a segment, ``?``, ``{a,b}``."""
    out, i = [], 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "{":
            end = pattern.find("}", i)
            if end == -1:
                out.append(re.escape(c))
            else:
                alternatives = pattern[i + 1:end].split(",")
                out.append("(?:" + "|".join(re.escape(a) for a in alternatives) + ")")
                i = end + 1
                continue
        else:
            out.append(re.escape(c))
        i += 1
    return re.compile("".join(out) + r"\Z")


def path_matches(path: str, pattern: str) -> bool:
    """Does the path, or a directory above it, match the glob?

    Excluding a directory excludes what lies below it, as upstream's ``pathMatch`` does:

    >>> path_matches("/blog/2020/01", "/blog/*")      # /blog/2020 matches
    True
    >>> path_matches("/blog/2020/01", "/blog/**/*")
    True
    >>> path_matches("/about", "/blog/*")
    False
    """
    regex = glob_regex(pattern)
    candidate = path
    while True:
        if regex.match(candidate) or regex.match(candidate.rstrip("/") or "/"):
            return True
        if candidate in ("", "/"):
            return False
        candidate = candidate.rstrip("/").rsplit("/", 1)[0] or "/"


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
