"""The site's inventory: URLs that exist whether or not a page links to them.

A crawl finds what links reach. A site auditor also asks the opposite: which pages exist
that no link reaches (orphans)? The answer needs a list of what exists, and sites
publish one: their sitemaps (https://www.sitemaps.org/protocol.html) — the ``Sitemap:``
lines of robots.txt (RFC 9309 §2.3.5 lets them name any URL), ``/sitemap.xml`` by
convention, sitemap indexes that list further sitemaps, gzip-compressed ones, and the
plain-text form (one URL a line). A user may give their own list too (``--list FILE``:
a server's file listing, a CMS export).

What this module does: gather those URLs, in scope only, bounded in every resource a
stranger controls — bytes of each sitemap (:data:`MAX_SITEMAP_BYTES`, decompressed),
sitemap files (:data:`MAX_SITEMAPS`), URLs kept (:data:`MAX_INVENTORY_URLS`), index
nesting (:data:`MAX_INDEX_DEPTH`), and time (:data:`DISCOVERY_BUDGET_S`). Sitemaps are
read with a scan for ``<loc>`` elements rather than an XML parser: no entity expansion,
no DTD, and a file cut at its limit or broken half-way still gives the URLs before the
break. The crawler queues the inventory once everything linked from its roots is done
(:class:`nitpicker_crawl.crawl.crawler.Crawler`), so an inventory URL it still has to fetch is
one no crawled page links to: upstream's ``inventory-seed``.
"""

from __future__ import annotations

import asyncio
import hashlib
import html
import re
import sys
import time
import zlib
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

MAX_SITEMAP_BYTES = 50 * 1024 * 1024
"""Largest sitemap read, decompressed: the protocol's own limit (50 MB)."""

MAX_SITEMAPS = 1000
"""Sitemap files fetched at most (an index may list 50,000; a hostile one lists itself
and its neighbours forever)."""

MAX_INVENTORY_URLS = 500_000
"""Inventory URLs kept (about 60 MB of strings at most); the rest are counted, not kept."""

MAX_INDEX_DEPTH = 2
"""Levels of sitemap indexes followed (the protocol allows one; some sites nest two)."""

DISCOVERY_BUDGET_S = 120.0
"""Seconds the whole sitemap discovery may take before the crawl starts without the rest."""

MAX_LIST_BYTES = 256 * 1024 * 1024
"""Largest ``--list`` file read."""

_LOC = re.compile(rb"<(?:[\w.-]+:)?loc\b[^>]*>\s*(.*?)\s*</(?:[\w.-]+:)?loc\s*>",
                  re.DOTALL | re.IGNORECASE)
_INDEX = re.compile(rb"<(?:[\w.-]+:)?sitemapindex\b", re.IGNORECASE)
_CDATA = re.compile(r"^<!\[CDATA\[(.*)\]\]>$", re.DOTALL)


@dataclass
class Source:
    """One inventory source as ``inventory_runs`` records it."""

    label: str                      # ``sitemap`` or ``list:<file name>``
    sha256: str | None = None       # of the list file
    total: int = 0                  # URLs read from it (in scope or not)
    out_of_scope: int = 0
    invalid: int = 0                # lines or locs that are no http(s) URL
    queued: int = 0                 # its URLs the crawl had not met: inventory-seed pages
    resources: int = 0              # of those, files stored as resources (a stylesheet …)
    notes: list[str] = field(default_factory=list)


@dataclass
class Inventory:
    """The URLs found, in order, and where they came from."""

    urls: dict[str, Source] = field(default_factory=dict)   # in order, first source
    sources: list[Source] = field(default_factory=list)
    dropped: int = 0                # over MAX_INVENTORY_URLS
    sitemaps_read: list[str] = field(default_factory=list)

    def source(self, label: str, sha256: str | None = None) -> Source:
        """A new source of URLs, recorded in :attr:`sources`."""
        self.sources.append(Source(label, sha256))
        return self.sources[-1]

    def add(self, url: str, source: Source) -> None:
        if url in self.urls:
            return
        if len(self.urls) >= MAX_INVENTORY_URLS:
            self.dropped += 1
            return
        self.urls[url] = source


def sitemap_locs(body: bytes) -> tuple[bool, list[str]]:
    """``(is_index, locations)`` of one sitemap's bytes (already decompressed).

    XML: every ``<loc>`` (any namespace prefix, CDATA or entities), in order; an index is
    a document with a ``<sitemapindex>`` element. Anything else is the text form: each
    line that is a URL."""
    head = body[:4096].lstrip()
    if head.startswith(b"<") or b"<loc" in body[:65536].lower():
        locs = []
        for m in _LOC.finditer(body):
            text = m.group(1).decode("utf-8", errors="replace").strip()
            cdata = _CDATA.match(text)
            locs.append((cdata.group(1) if cdata else html.unescape(text)).strip())
        return bool(_INDEX.search(body[:65536])), locs
    lines = body.decode("utf-8", errors="replace").splitlines()
    return False, [line.strip() for line in lines if line.strip()]


def decompress(body: bytes, limit: int = MAX_SITEMAP_BYTES) -> tuple[bytes, str | None]:
    """A gzip body inflated to at most ``limit`` bytes (a kilobyte of gzip can inflate to
    gigabytes); other bodies as they are. The note says what was cut or broken."""
    if not body.startswith(b"\x1f\x8b"):
        return body, None
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        out = inflater.decompress(body, limit + 1)
    except zlib.error as exc:
        return b"", f"not valid gzip ({exc})"
    if len(out) > limit:
        return out[:limit], f"inflates past {limit:,} bytes: the first {limit:,} read"
    return out, None


def read_list(path: str, stdin: TextIO | None = None) -> tuple[list[str], str]:
    """The lines of a ``--list`` file (``-``: standard input) and the file's SHA-256.
    Empty lines and ``#`` comments are left out. Raises :class:`OSError` or
    :class:`ValueError` (too big, not text) with a message for the user."""
    if path == "-":
        data = (stdin or sys.stdin).read(MAX_LIST_BYTES + 1).encode("utf-8", "surrogatepass")
    else:
        with Path(path).open("rb") as f:
            data = f.read(MAX_LIST_BYTES + 1)
    if len(data) > MAX_LIST_BYTES:
        raise ValueError(f"--list {path}: more than {MAX_LIST_BYTES >> 20} MiB")
    if b"\x00" in data[:65536]:
        raise ValueError(f"--list {path}: not a text file (one URL a line)")
    text = data.decode("utf-8", errors="replace").lstrip("\ufeff")
    lines = [ln.strip() for ln in text.splitlines()]
    return ([ln for ln in lines if ln and not ln.startswith("#")],
            hashlib.sha256(data).hexdigest())


Fetch = Callable[[str], Awaitable[tuple[int, bytes | None, str | None]]]
"""``url`` → ``(status, body, problem)``: how the crawler fetches one sitemap."""


def take(inventory: Inventory, source: Source, urls: Iterable[str],
         normalize: Callable[[str], str | None], in_scope: Callable[[str], bool]) -> None:
    """Add ``urls`` read from ``source`` to ``inventory``: normalised, in scope only."""
    for raw in urls:
        source.total += 1
        url = normalize(raw) if raw.lower().startswith(("http://", "https://")) else None
        if url is None:
            source.invalid += 1
        elif not in_scope(url):
            source.out_of_scope += 1
        else:
            inventory.add(url, source)


async def discover_sitemaps(starts: list[str], fetch: Fetch, inventory: Inventory,
                            normalize: Callable[[str], str | None],
                            in_scope: Callable[[str], bool],
                            say: Callable[[str], None] = lambda _m: None,
                            guessed: frozenset[str] = frozenset(),
                            may_fetch: Callable[[str], bool] | None = None) -> Source:
    """Read the sitemaps ``starts`` name (robots.txt lines, ``/sitemap.xml``), following
    indexes, into ``inventory``; the :class:`Source` that counts what was read. A
    sitemap that fails is a note, never an error: the crawl goes on without it; one of
    ``guessed`` (``/sitemap.xml`` where robots.txt names none) that fails is no news.
    ``may_fetch``: which sitemap files may be requested (the start URLs' origins: a
    sitemap at the root serves a crawl of ``/docs/``); ``in_scope`` by default."""
    fetchable = may_fetch or in_scope
    source = inventory.source("sitemap")
    started = time.monotonic()
    queue: list[tuple[str, int]] = [(u, 0) for u in starts]
    seen: set[str] = set()
    while queue:
        url, depth = queue.pop(0)
        if url in seen:
            continue
        seen.add(url)
        if len(inventory.sitemaps_read) >= MAX_SITEMAPS:
            source.notes.append(f"more than {MAX_SITEMAPS} sitemaps: the rest not read "
                                f"(first: {url[:200]})")
            break
        if time.monotonic() - started > DISCOVERY_BUDGET_S:
            source.notes.append(f"sitemaps took more than {DISCOVERY_BUDGET_S:g} s: the "
                                f"rest not read (first: {url[:200]})")
            break
        try:
            status, body, problem = await fetch(url)
        except Exception as exc:  # a fetch error of any kind: noted, the crawl goes on
            if url not in guessed:
                source.notes.append(f"{url[:200]}: {str(exc)[:200]}")
            continue
        if url in guessed and not 200 <= status < 300:
            continue  # the conventional place, absent: nothing to say
        if not 200 <= status < 300 or body is None:
            source.notes.append(f"{url[:200]}: answered {status}"
                                + (f" ({problem[:200]})" if problem else ""))
            continue
        inventory.sitemaps_read.append(url)
        data, note = decompress(body)
        if len(body) >= MAX_SITEMAP_BYTES and note is None:
            note = f"more than {MAX_SITEMAP_BYTES:,} bytes: the first part read"
        if note:
            source.notes.append(f"{url[:200]}: {note}")
        is_index, locs = sitemap_locs(data)
        if is_index:
            if depth >= MAX_INDEX_DEPTH:
                source.notes.append(f"{url[:200]}: an index nested deeper than "
                                    f"{MAX_INDEX_DEPTH}: not followed")
                continue
            for loc in locs:
                child = normalize(loc) if loc.lower().startswith(("http://", "https://")) \
                    else None
                if child is not None and fetchable(child) and child not in seen:
                    queue.append((child, depth + 1))
            continue
        take(inventory, source, locs, normalize, in_scope)
        await asyncio.sleep(0)
    if inventory.sitemaps_read:
        say(f"[sitemap] {len(inventory.urls):,} URL(s) of the site in "
            f"{len(inventory.sitemaps_read)} sitemap(s)"
            + (f", {source.out_of_scope:,} out of scope" if source.out_of_scope else ""))
    return source

