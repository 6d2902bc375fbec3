"""Layout wrappers: an element that, on some pages of a template, wraps parts that sit
directly under its parent on the others (``article>div.columns>div.box`` and
``article>div.box``), decided from the pages.

A theme that puts a course's enrolment box and syllabus in a two-column wrapper on some
pages and not on others writes every path below the wrapper one step longer: compared
token by token, the two kinds of page share nothing under the article, and the template
splits in two. A wrapper is *transparent* when every one of its children's steps is, on
other pages, a step under the wrapper's parent, and no page has both the wrapper and
any of those lifted paths: the same parts, placed with or without the wrapper, never
both. Then its steps are taken out of the paths (the wrapper and its class token become
their parent's token). A text whose sections hold paragraphs while the body holds
paragraphs too is no wrapper: a page has both.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

MIN_WRAPPED = 2
"""Fewest children a transparent wrapper must hold: with one, a nesting (``li>ul>li``)
or a single box looks the same as a wrapper, and a single lifted path is thin evidence."""


def wrapper_rewrites(token_names: Sequence[str], structures: Sequence[frozenset[int]],
                     inside_main: set[int]) -> dict[int, str]:
    """Token id → its path with the transparent wrappers' steps taken out, for the
    tokens that change. ``structures[s]``: the token ids of structure ``s``;
    ``inside_main``: tokens under ``<main>`` (wrappers are looked for there only)."""
    # several ids may hold one path (the content ids already taken out): each path once
    tid_of: dict[str, int] = {}
    for tid, name in enumerate(token_names):
        tid_of.setdefault(name, tid)
    children: dict[str, set[str]] = defaultdict(set)
    for name in tid_of:
        head, _, last = name.rpartition(">")
        if head and "~" not in last:
            children[head].add(last)
    inside = {token_names[t] for t in inside_main}
    candidates: dict[int, set[int]] = {}   # wrapper token → its children's lifted tokens
    for name, kids in children.items():
        head, _, last = name.rpartition(">")
        if not head or "~" in last or name not in inside or len(kids) < MIN_WRAPPED:
            continue
        lifted: set[int] = set()
        for kid in kids:
            t = tid_of.get(f"{head}>{kid}")
            if t is None:
                break
            lifted.add(t)
        else:
            candidates[tid_of[name]] = lifted
    if not candidates:
        return {}
    canon = [tid_of[name] for name in token_names]
    held = frozenset(t for t, c in enumerate(canon) if c in candidates)   # any id of one
    for tokens in structures:
        if held.isdisjoint(tokens):   # no wrapper on this page: nothing to check
            continue
        present = {canon[t] for t in tokens}
        for wrapper in present.intersection(candidates):
            if not candidates[wrapper].isdisjoint(present):
                del candidates[wrapper]
        if not candidates:
            return {}
    if not candidates:
        return {}
    wrappers = {token_names[t] for t in candidates}
    done: dict[str, str] = {"": ""}

    def lift(path: str) -> str:
        out = done.get(path)
        if out is not None:
            return out
        head, _, last = path.rpartition(">")
        new_head = lift(head) if head else ""
        element = (f"{head}>{last.partition('~')[0]}" if head else last.partition("~")[0])
        # the wrapper (or its class token) becomes its parent's token
        out = new_head if element in wrappers else f"{new_head}>{last}" if new_head else last
        done[path] = out
        return out

    changes = {}
    for tid, name in enumerate(token_names):
        new = lift(name)
        if new != name and new:
            changes[tid] = new
    return changes
