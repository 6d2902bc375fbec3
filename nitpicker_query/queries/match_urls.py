"""``match_urls``: a list of URLs (a sitemap's, a migration's, a client's spreadsheet)
against the crawl — for each, whether the crawl has it and, if not as a page, why.

A URL is looked up as written, then in the crawl's identity form (scheme and host
lower-cased, a default port dropped), then with its trailing slash added or removed:
``matchedAs`` says which stored URL answered when it is not the one given.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from ..archive.opening import Archive, opened
from ..exceptions import InvalidArgument
from ._common import as_bool
from .compare import identity
from .redirects import redirect_chain

MAX_URLS = 1000
RESULTS = ("found", "redirect", "external", "skipped", "not-fetched", "missing")


def _candidates(url: str) -> list[str]:
    """``url`` as written, in identity form, and with its trailing slash toggled."""
    found = [url, identity(url)]
    for each in list(found):
        try:
            parts = urlsplit(each)
        except ValueError:
            continue
        path = parts.path
        if path.endswith("/") and path != "/":
            found.append(urlunsplit(parts._replace(path=path.rstrip("/"))))
        elif path and not path.endswith("/"):
            found.append(urlunsplit(parts._replace(path=path + "/")))
    return list(dict.fromkeys(found))


def _one(a: Archive, url: str) -> dict[str, Any]:
    for candidate in _candidates(url):
        row = a.execute(
            "SELECT url, status, scraped, isExternal, isSkipped, skipReason, redirectDestId "
            "FROM pages WHERE url = ?", (candidate,)).fetchone()
        if row is not None:
            break
    else:
        return {"url": url, "result": "missing", "matchedAs": None, "status": None,
                "finalUrl": None, "reason": "no page of the crawl links to it"}
    item: dict[str, Any] = {"url": url, "matchedAs": row["url"] if row["url"] != url else None,
                            "status": row["status"], "finalUrl": None, "reason": None}
    if as_bool(row["isSkipped"]):
        item.update(result="skipped", reason=row["skipReason"] or "skipped")
    elif as_bool(row["isExternal"]):
        item.update(result="external", reason="outside the crawl's scope")
    elif row["redirectDestId"] is not None:
        chain = redirect_chain(a, row["url"]) or []
        final = chain[-1] if chain else None
        item.update(result="redirect", finalUrl=final["url"] if final else None,
                    reason=f"redirects to a page answering {final['status']}"
                    if final else "redirects")
    elif not as_bool(row["scraped"]):
        item.update(result="not-fetched", reason="found but not fetched (the crawl "
                                                 "stopped first, or never fetches it)")
    else:
        item["result"] = "found"
    return item


def match_urls(archive: Archive | str, *, urls: str | Sequence[str]) -> dict[str, Any]:
    """Each of ``urls`` (a list, or a string of URLs separated by whitespace; at most
    1,000) against the crawl: ``url``, ``result`` — ``found`` (fetched as a page of the
    site, whatever its status), ``redirect`` (``finalUrl``: where it ends), ``external``,
    ``skipped`` (``reason``: the soft cap, robots.txt, an exclusion, nofollow …),
    ``not-fetched`` (known but never fetched), ``missing`` (no page links to it) —
    ``status``, ``matchedAs`` (the stored URL when another spelling answered), and
    ``counts`` per result first."""
    listed = urls.split() if isinstance(urls, str) else [
        u for each in urls for u in str(each).split()]
    if not listed:
        raise InvalidArgument("urls: give at least one URL.")
    if len(listed) > MAX_URLS:
        raise InvalidArgument(f"urls: at most {MAX_URLS} a call, got {len(listed):,}.")
    with opened(archive) as a:
        items = [_one(a, url) for url in dict.fromkeys(listed)]
    counts = {r: sum(1 for i in items if i["result"] == r) for r in RESULTS}
    return {"counts": counts, "items": items, "total": len(items)}


__all__ = ["RESULTS", "match_urls"]
