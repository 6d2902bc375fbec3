"""Exclusion patterns shared by the crawler (``--exclude``) and the cluster queries
(``suggestedExclude``): one glob dialect, so a suggested ``--exclude`` means exactly what
the crawler will do with it.

``--exclude GLOB`` matches the URL's *path*: ``*`` within one segment, ``**`` any depth,
``?`` one character, ``{a,b}`` alternatives — and a directory that matches excludes
everything below it, as upstream's micromatch-based ``pathMatch`` does.
"""

from __future__ import annotations

import re
from functools import lru_cache


def glob_problem(pattern: str) -> str | None:
    """Why ``pattern`` is no glob of this dialect, or None. ``[abc]`` would be read as the
    three characters ``[``, ``a``… — a class in shells and micromatch — and a ``{`` left
    open as a brace: refused, not silently matched as text."""
    if "[" in pattern or "]" in pattern:
        return "has [ or ]: these globs have no character classes (use {a,b,c}, or " \
               "--exclude-pattern for a regular expression)"
    depth = 0
    for c in pattern:
        depth += {"{": 1, "}": -1}.get(c, 0)
        if depth < 0 or depth > 1:
            break
    if depth != 0:
        return "has an unbalanced or nested { }: alternatives are {a,b}, one level deep"
    return None


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
