"""From what a page says to ``pages`` columns: one mapping for both crawl modes.

The renderer (JavaScript in Chromium) and the parser (selectolax, no JavaScript) each
produce the same *raw* description of a document — its ``<title>``, every ``<meta>``,
every ``<link>``, anchors, images, JSON-LD scripts, ``<html lang dir>``, ``<base href>``
— with attribute values as written. :func:`page_fields` turns that into column values,
so rendered and unrendered crawls extract identically (except for what only scripts add).

Text is trimmed with inner whitespace runs collapsed, as ``document.title`` does;
``<link>`` and ``og:url``/``og:image``/``twitter:image`` URLs are absolutised against
``<base href>`` and the page URL.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any
from urllib.parse import urljoin

from ..fetch.document import RawDocument

_WS = re.compile(r"[ \t\n\f\r]+")


def clean(text: str | None) -> str | None:
    """Trim and collapse whitespace; empty → None."""
    if text is None:
        return None
    value = _WS.sub(" ", text).strip()
    return value or None


def _flag(raw: str | None, word: str) -> int | None:
    if raw is None:
        return None
    tokens = {t.strip().lower() for t in raw.split(",")}
    return 1 if word in tokens or ("none" in tokens and word in ("noindex", "nofollow")) else 0


def page_fields(raw: RawDocument, url: str) -> dict[str, Any]:
    """Column values for ``pages`` (``meta_extras`` holds prev/next and hreflang links)."""
    base = urljoin(url, raw.get("baseHref") or url)

    def absolute(href: str | None) -> str | None:
        href = (href or "").strip()
        return urljoin(base, href) if href else None

    named: dict[str, str] = {}
    for meta in raw.get("metas", []):
        key = (meta.get("name") or meta.get("property") or meta.get("httpEquiv") or "").lower()
        content = meta.get("content")
        if key and content is not None and key not in named:
            named[key] = content
    rels: dict[str, str] = {}
    hreflang: list[dict[str, str]] = []
    for link in raw.get("links", []):
        href = absolute(link.get("href"))
        if href is None:
            continue
        for rel in (link.get("rel") or "").lower().split():
            rels.setdefault(rel, href)
            if rel == "alternate" and link.get("hreflang"):
                hreflang.append({"hreflang": str(link.get("hreflang")), "href": href})
    robots = named.get("robots")
    charset = raw.get("charset") or next(
        (m.get("charset") for m in raw.get("metas", []) if m.get("charset")), None)
    fields: dict[str, Any] = {
        "lang": clean(raw.get("lang")), "dir": clean(raw.get("dir")),
        "charset": clean(charset), "baseHref": clean(raw.get("baseHref")),
        "viewport_raw": named.get("viewport"), "themeColor": clean(named.get("theme-color")),
        "applicationName": clean(named.get("application-name")),
        "author": clean(named.get("author")), "generator": clean(named.get("generator")),
        "publisher": clean(named.get("publisher")),
        "title": clean(raw.get("title")), "description": clean(named.get("description")),
        "keywords": clean(named.get("keywords")), "robots_raw": robots,
        "robots_noindex": _flag(robots, "noindex"), "robots_nofollow": _flag(robots, "nofollow"),
        "robots_noarchive": _flag(robots, "noarchive"),
        "robots_noimageindex": _flag(robots, "noimageindex"),
        "googlebot": clean(named.get("googlebot")),
        "canonical": rels.get("canonical"), "amphtml": rels.get("amphtml"),
        "manifest": rels.get("manifest"), "icon_href": rels.get("icon"),
        "appleTouchIcon_href": rels.get("apple-touch-icon"),
        "og_type": clean(named.get("og:type")), "og_title": clean(named.get("og:title")),
        "og_url": absolute(named.get("og:url")), "og_site_name": clean(named.get("og:site_name")),
        "og_description": clean(named.get("og:description")),
        "og_image": absolute(named.get("og:image")),
        "og_image_alt": clean(named.get("og:image:alt")),
        "og_image_width": clean(named.get("og:image:width")),
        "og_image_height": clean(named.get("og:image:height")),
        "og_locale": clean(named.get("og:locale")),
        "og_article_published_time": clean(named.get("article:published_time")),
        "og_article_modified_time": clean(named.get("article:modified_time")),
        "twitter_card": clean(named.get("twitter:card")),
        "twitter_site": clean(named.get("twitter:site")),
        "twitter_creator": clean(named.get("twitter:creator")),
        "twitter_title": clean(named.get("twitter:title")),
        "twitter_description": clean(named.get("twitter:description")),
        "twitter_image": absolute(named.get("twitter:image")),
        "fb_app_id": clean(named.get("fb:app_id")),
        "verification_google": clean(named.get("google-site-verification")),
        "formatDetection_telephone": (
            0 if "telephone=no" in (named.get("format-detection") or "").replace(" ", "")
            else (1 if named.get("format-detection") else None)),
    }
    extras: dict[str, Any] = {}
    if hreflang:
        extras["alternateHreflang"] = hreflang
    for rel in ("prev", "next"):
        if rel in rels:
            extras[rel] = rels[rel]
    if named.get("referrer"):
        extras["referrer"] = named["referrer"]
    refresh = refresh_target(named.get("refresh"), base)
    if refresh is not None:
        extras["refresh"] = {"delay": refresh[0], "to": refresh[1]}
    fields["meta_extras"] = extras
    return fields


def client_redirect(extras: dict[str, Any], headers: dict[str, str],
                    navigations: list[str], url: str) -> dict[str, Any] | None:
    """Where the page sends a browser on its own, once loaded — ``meta_extras.
    clientRedirect``: ``{kind, to, delay}``, ``kind`` one of ``meta-refresh`` (the
    ``<meta http-equiv=refresh>`` read by :func:`page_fields`), ``refresh-header`` (a
    ``Refresh`` response header) or ``javascript`` (a navigation a script started while
    the page was rendered; unknown without rendering). Upstream's format has no place
    for them: a page answering 200 is stored as one, and this says it is a redirect."""
    refresh = extras.get("refresh")
    if isinstance(refresh, dict):
        return {"kind": "meta-refresh", **refresh}
    header = refresh_target(headers.get("refresh"), url)
    if header is not None:
        return {"kind": "refresh-header", "delay": header[0], "to": header[1]}
    own = url.split("#", 1)[0]
    target = next((n for n in navigations if n.split("#", 1)[0] != own), None)
    return None if target is None else {"kind": "javascript", "to": target}


_REFRESH = re.compile(r"""^\s*(\d+(?:\.\d*)?)?\s*[;,]?\s*(?:url\s*=\s*)?(['"]?)(.*?)\2\s*$""",
                      re.IGNORECASE | re.DOTALL)


def refresh_target(value: str | None, base: str) -> tuple[float, str] | None:
    """Where a ``<meta http-equiv=refresh>`` (or a ``Refresh`` header) sends the browser,
    and after how many seconds: ``"0; URL=en/index.html"`` → (0, absolute URL). None for
    a refresh that only reloads the page (no URL, or the page itself), as the HTML
    standard's "shared declarative refresh steps" read it: a number, then ``;`` or ``,``,
    then ``url=`` (optional) and the URL, quotes stripped."""
    if not value:
        return None
    match = _REFRESH.match(value[:2048])
    if match is None or not match.group(3).strip():
        return None
    delay = float(match.group(1) or 0)
    target = urljoin(base, match.group(3).strip())
    if target.split("#", 1)[0] == base.split("#", 1)[0]:
        return None
    return delay, target


def anchors(raw: RawDocument, url: str) -> list[tuple[str, str | None, str | None, bool]]:
    """``(absolute href without fragment, fragment, text, nofollow)`` per anchor, in
    document order; ``nofollow`` when the anchor's ``rel`` has the ``nofollow`` token."""
    from ..fetch.urls import resolve

    base = urljoin(url, raw.get("baseHref") or url)
    result = []
    for anchor in raw.get("anchors", []):
        resolved = resolve(anchor.get("href") or "", base)
        if resolved is not None:
            rel = (anchor.get("rel") or "").lower().split()
            result.append((resolved[0], resolved[1], clean(anchor.get("text")),
                           "nofollow" in rel))
    return result


def images(raw: RawDocument, url: str) -> list[dict[str, Any]]:
    base = urljoin(url, raw.get("baseHref") or url)
    result = []
    for img in raw.get("images", []):
        src = img.get("src")
        result.append({
            "src": urljoin(base, src) if src else src,
            "currentSrc": img.get("currentSrc") or (urljoin(base, src) if src else None),
            "alt": img.get("alt"), "width": _num(img.get("width")),
            "height": _num(img.get("height")), "naturalWidth": int(_num(img.get("naturalWidth"))),
            "naturalHeight": int(_num(img.get("naturalHeight"))),
            "isLazy": bool(img.get("isLazy")), "viewportWidth": int(_num(img.get("viewportWidth"))),
            "sourceCode": (img.get("sourceCode") or "")[:1000] or None,
        })
    return result


MAX_JSON_DEPTH = 100
"""Deepest JSON-LD kept parsed. Real structured data nests a dozen levels; a script
nested 100,000 deep (``[[[[…]]]]``) is kept as raw text with a parse error, so neither
the parser's recursion nor any reader's can be made to fail on it."""


def jsonld(raw: RawDocument) -> list[dict[str, Any]]:
    """``page_jsonld`` rows: parsed JSON-LD and speculation rules."""
    rows = []
    for script in raw.get("jsonld", []):
        text = script.get("text") or ""
        kind = "speculationrules" if script.get("type") == "speculationrules" else "ld+json"
        parsed: Any = None
        error = None
        try:
            parsed = json.loads(text)
        except ValueError as exc:
            error = str(exc)
        except RecursionError:
            error = f"nested deeper than {MAX_JSON_DEPTH} levels"
        if error is None and json_depth(parsed) > MAX_JSON_DEPTH:
            parsed, error = None, f"nested deeper than {MAX_JSON_DEPTH} levels"
        top = parsed.get("@type") if isinstance(parsed, dict) else None
        if isinstance(top, list):
            top = ",".join(str(t) for t in top)
        rows.append({"kind": kind, "type": top, "raw": text,
                     "parsed": json.dumps(parsed) if parsed is not None else None,
                     "parseError": error})
    return rows


def json_depth(value: Any) -> int:
    """How deep lists and objects nest in ``value``, counted without recursion."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in children
                     if isinstance(child, dict | list))
    return deepest


def _num(value: Any) -> float:
    """A dimension as a finite number; anything else (``nan``, ``inf``, ``1e999``, words,
    more than 2^31) is 0, as a browser reads an unusable ``width``."""
    if value in (None, ""):
        return 0.0
    try:
        number = float(str(value).strip().rstrip("px"))
    except ValueError:
        return 0.0
    return number if math.isfinite(number) and abs(number) < 2**31 else 0.0
