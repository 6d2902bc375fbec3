"""Redirect chains, hop by hop: one definition for page detail, link lists and every
adapter.

Format 0.10 stores redirects flattened (every source's ``redirectDestId`` names the
final page), which says where a chain ends but not how it got there. Our crawler also
keeps, on each source row, the status the hop answered (``status``) and the URL it
pointed at (``meta_extras.redirectTo``); a chain is walked along those. An archive
without them (upstream's, or ours before they were written) gives a chain of two: the
source, with whatever status it has, and its final page.
"""

from __future__ import annotations

from typing import Any

from .archive import Archive
from .queries._common import json_object

MAX_HOPS = 20
"""Hops walked at most (a stranger's archive may hold a loop or a very long chain)."""


_NAMES = ("url", "status", "redirectDestId", "meta_extras", "skipReason")


def _row(a: Archive, where: str, value: Any) -> dict[str, Any] | None:
    row = a.rows(f"SELECT {a.select_list('pages', 'p', _NAMES)} FROM pages p WHERE {where} "
                 "LIMIT 1", (value,))
    return dict(zip(_NAMES, row[0], strict=True)) if row else None


def redirect_chain(a: Archive, url: str) -> list[dict[str, Any]] | None:
    """The hops from ``url`` to its final page, ``[{url, status}, …]``, the final page
    last (its status is the answer a browser ends on); None when ``url`` is not a
    redirect source."""
    first = _row(a, "p.url = ?", url)
    if first is None or first["redirectDestId"] is None:
        return None
    final = _row(a, "p.id = ?", first["redirectDestId"])
    hops: list[dict[str, Any]] = []
    seen: set[str] = set()
    row: dict[str, Any] | None = first
    while row is not None and row["redirectDestId"] is not None and len(hops) < MAX_HOPS:
        if row["url"] in seen:
            break
        seen.add(row["url"])
        hops.append({"url": row["url"], "status": _int(row["status"])})
        target = json_object(row["meta_extras"]).get("redirectTo")
        if not isinstance(target, str) or (final is not None and target == final["url"]):
            break
        row = _row(a, "p.url = ?", target)
    if final is not None:
        end: dict[str, Any] = {"url": final["url"], "status": _int(final["status"])}
        if final["skipReason"]:
            end["skipReason"] = final["skipReason"]
        hops.append(end)
    return hops


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
