"""Redirect chains, hop by hop: one definition for page detail, link lists and every
adapter.

Format 0.10 stores redirects flattened (every source's ``redirectDestId`` names the
final page), which says where a chain ends but not how it got there. Our crawler also
keeps, on each source row, the status the hop answered (``status``) and the URL it
pointed at (``meta_extras.redirectTo``); a chain is walked along those. An archive
without them (upstream's, or ours before they were written) gives a chain of two: the
source, with whatever status it has, and its final page.

A page can also send the browser on by itself once loaded — a ``<meta http-equiv=refresh>``,
a ``Refresh`` header, a script's navigation (rendered crawls) —: our crawler writes it as
``meta_extras.clientRedirect`` (``{kind, to, delay}``) on the page, which answered 200.
:func:`redirect_path` walks both kinds, hop by hop, to where a browser ends, and says
when a chain comes back to a URL it passed (a loop).
"""

from __future__ import annotations

from typing import Any

from ..archive.opening import Archive
from ._common import json_object

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


CLIENT_REDIRECT_SQL = ("json_valid({a}.meta_extras) AND "
                       "json_extract({a}.meta_extras, '$.clientRedirect.to') IS NOT NULL")
"""SQL: the page sends the browser on by itself (format with ``a``, the table alias)."""


def client_redirect(meta_extras: Any) -> dict[str, Any] | None:
    """A page's ``clientRedirect`` (``{kind, to, delay}``), or None."""
    value = json_object(meta_extras).get("clientRedirect")
    if isinstance(value, dict) and isinstance(value.get("to"), str):
        return value
    return None


def redirect_path(a: Archive, url: str) -> dict[str, Any] | None:
    """Where a browser sent to ``url`` ends, through HTTP redirects and pages that
    redirect by themselves: ``{kind, to, chain, finalUrl, finalStatus, loop}``, ``kind``
    the first hop's (``http`` or the page's own: ``meta-refresh``, ``refresh-header``,
    ``javascript``), ``to`` its target, ``chain`` every hop ``{url, status, kind}`` (the
    last has no kind: it is where the browser stays, or the URL that closed a loop).
    None when ``url`` redirects neither way."""
    chain: list[dict[str, Any]] = []
    seen: set[str] = set()
    current: str | None = url
    loop = False
    while current is not None and len(chain) < MAX_HOPS:
        if current in seen:
            chain.append({"url": current, "status": None})
            loop = True
            break
        http = redirect_chain(a, current)
        if http is not None:
            for hop in http[:-1]:
                seen.add(hop["url"])
                chain.append({**hop, "kind": "http"})
            current = http[-1]["url"]
            if current in seen:
                continue
        row = _row(a, "p.url = ?", current)
        seen.add(current)
        hop = {"url": current, "status": None if row is None else _int(row["status"])}
        chain.append(hop)
        own = client_redirect(row["meta_extras"]) if row is not None else None
        if own is None:
            break
        hop["kind"] = own["kind"]
        current = own["to"]   # a target never fetched ends the chain, status null
    if len(chain) < 2:
        return None
    first = chain[0]
    return {"kind": first.get("kind"), "to": chain[1]["url"], "chain": chain,
            "finalUrl": chain[-1]["url"], "finalStatus": chain[-1]["status"], "loop": loop}


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
