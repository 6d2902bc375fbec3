"""Template clusters of an archive: its stored HTML pages folded by :mod:`page_cluster`.

The input of each page is what the archive holds: the stored HTML snapshot, the URL's
path segments, and the first-party stylesheets its ``<link rel=stylesheet>`` tags name
(read from the HTML itself: ``resources_referrers`` is not written by every crawler, and
a stylesheet only a script adds is no template of the page). Pages are the rendered
internal HTML pages with a snapshot (:func:`nitpicker_query.format.v010.strict_page`), read
in id order, so the same archive always gives the same keys.

Clustering reads every snapshot once (about a millisecond a page), so a result is kept
per process, keyed by the archive's identity — the extraction cache key of a
``.nitpicker`` file, the database's size and modification times for a crawl directory
that may still grow — and a second call is a dictionary lookup. Nothing is written.
"""

from __future__ import annotations

import hashlib
import html as html_lib
import re
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urljoin, urlsplit

import page_cluster

from .. import progress
from ..archive import snapshots
from ..archive.opening import Archive
from ..format.v010 import strict_page
from ..format.v013 import json_text
from ._common import json_object
from .clusters import clusters
from .list_dedupe_cap_events import event_ids_by_signature

HTML_LIMIT = 4 * 1024 * 1024
"""Most decoded bytes of one snapshot read for its structure: a template shows in its
first megabytes (and page_cluster stops at 20,000 elements anyway)."""

CACHED_ARCHIVES = 4
"""Archives whose template clusters are kept per process (least recently used go)."""

_LINK = re.compile(r"<link\b[^>]*>", re.IGNORECASE)
_ATTR = re.compile(r"""([a-zA-Z-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""")


TEMPLATE_ID = re.compile(r"t-[0-9a-f]{10}")
"""How a template cluster's short id is spelt (:func:`template_id`)."""


def template_id(key: str) -> str:
    """A template cluster's short, stable name: ``t-`` and ten hex digits of its key's
    SHA-256. A key is JSON with quotes and stylesheet URLs (often 100+ characters) that
    an assistant or a shell must copy back exactly; the id is 12 characters, the same for
    the same key in every process, and every tool taking a key takes it."""
    return "t-" + hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:10]


def stylesheet_hrefs(html: str, url: str) -> list[str]:
    """The absolute URLs of the stylesheets a page links (``<link rel=stylesheet>``),
    sorted, query kept: page_cluster itself keeps the first-party ones and drops the
    query (:mod:`page_cluster.stylesheets`), so clustering an archive and running the
    ``page-cluster`` CLI on the same pages decide alike."""
    found = set()
    for tag in _LINK.findall(html[:HTML_LIMIT]):
        attrs = {m[0].lower(): m[1] or m[2] or m[3] for m in _ATTR.findall(tag)}
        if "stylesheet" not in attrs.get("rel", "").lower().split() or not attrs.get("href"):
            continue
        try:
            found.add(urljoin(url, html_lib.unescape(attrs["href"]).strip()))
        except ValueError:
            continue
    return sorted(found)


def path_segments(url: str) -> list[str]:
    """The URL's path segments, percent-decoded (``/blog/page/2/`` → blog, page, 2)."""
    return [unquote(s) for s in urlsplit(url).path.split("/") if s]


@dataclass
class TemplateIndex:
    """One archive's template clusters, as computed once."""

    order: list[str]                          # keys, biggest cluster first
    members: dict[str, list[tuple[str, int]]]  # key → (url, page id), URL order
    reasons: dict[str, dict[str, Any]]
    # key → (signature, pages shared, cluster size, its cap event's id or None)
    meta_overlap: dict[str, list[tuple[str, int, int, int | None]]]
    pages: int                                 # pages clustered
    without_html: int                          # internal HTML pages with no usable snapshot


_CACHE: OrderedDict[tuple[str, ...], TemplateIndex] = OrderedDict()
_LOCK = threading.Lock()


def identity(a: Archive) -> tuple[str, ...]:
    """What a computed result is valid for: the extraction (its directory is named by
    the archive's cache key), or a crawl directory's database as it is now."""
    if a.mode == "archive":
        return ("archive", str(a.directory))
    parts = ["stub", str(a.path)]
    for name in ("db.sqlite", "db.sqlite-wal"):
        try:
            st = (a.directory / name).stat()
        except OSError:
            parts.append("-")
            continue
        parts.append(f"{st.st_size}:{st.st_mtime_ns}")
    return tuple(parts)


def template_index(a: Archive) -> TemplateIndex:
    """The archive's template clusters, computed on first use and then cached."""
    key = identity(a)
    with _LOCK:  # one computation at a time: two callers of one archive share it
        index = _CACHE.get(key)
        if index is not None:
            _CACHE.move_to_end(key)
            return index
        index = compute(a)
        _CACHE[key] = index
        while len(_CACHE) > CACHED_ARCHIVES:
            _CACHE.popitem(last=False)
        return index


Report = Callable[[int, int, str], None]
"""``report(done, total, message)``: pages read out of all, or the clustering's step."""

READ_STEP = 1000
"""Pages read between two progress reports."""


def _cluster_pages(a: Archive, report: Report
                   ) -> tuple[list[tuple[int, str]], page_cluster.Result]:
    """Cluster the archive's rendered internal HTML pages with a stored snapshot, in id
    order: ``(id, url)`` of each page clustered (in the order of the result's keys) and
    page_cluster's result. ``report`` hears of every :data:`READ_STEP` pages read, then
    of each step of the clustering."""
    listed = [(int(i), str(u), h) for i, u, h in a.rows(
        f"SELECT p.id, p.url, r.hash FROM pages p JOIN page_html_ref r ON "
        f"r.page_id = p.id WHERE {strict_page('p')} AND EXISTS (SELECT 1 FROM "
        f"page_html_blobs b WHERE b.hash = r.hash) ORDER BY p.id")]
    total = len(listed)
    taken: list[tuple[int, str]] = []

    def told(phase: str, message: str) -> None:
        if phase != "pass0":
            report(total, total, f"clustering: {message}")

    return taken, page_cluster.resolve(_pages(a, listed, taken, report), progress=told)


def ready(a: Archive) -> bool:
    """Whether :func:`template_index` answers at once: computed in this process already,
    or stored by the crawl. Otherwise the first call reads every snapshot, and an
    adapter that can (the viewer) shows its progress instead of waiting blind."""
    if identity(a) in _CACHE:   # a lookup only: the computing thread holds the lock
        return True
    return a.has_table("page_templates") and bool(
        a.rows("SELECT 1 FROM page_templates LIMIT 1"))


def _pages(a: Archive, listed: list[tuple[int, str, Any]], taken: list[tuple[int, str]],
           report: Report) -> Iterator[dict[str, Any]]:
    """page_cluster's records for ``(id, url, hash)`` rows, snapshots fetched in chunks
    (one short statement each: the query deadline is per statement). A snapshot that
    cannot be decoded (a stranger's broken frame, an unknown codec) is passed over, not
    fatal; ``taken`` receives ``(id, url)`` of each page yielded, in order."""
    for n, (page_id, url, text, _complete) in enumerate(
            snapshots.read(a, listed, limit=HTML_LIMIT)):
        if n % READ_STEP == 0:
            report(n, len(listed), f"reading page {n + 1} of {len(listed)}")
        taken.append((page_id, url))
        yield {"id": page_id, "html": text, "paths": path_segments(url),
               "stylesheetHrefs": stylesheet_hrefs(text, url),
               "host": urlsplit(url).hostname or ""}


OVERLAP_KEY = "_metaSignatureClusters"
"""Where our crawler stores a template's meta-signature overlap in its reasons
(``page_template_clusters.reason_json``): ``[[signature, pages shared, cluster size],
…]``, computed when the crawl ended, so that reading stored templates needs no pass
over every page's signature. Never shown as a reason."""

Overlap = dict[str, list[tuple[str, int, int]]]


def _stored(a: Archive) -> tuple[list[tuple[int, str]], list[str],
                                 dict[str, dict[str, Any]], Overlap | None] | None:
    """The template of each page as the archive stores it (``page_templates``: written
    by our crawler at the end of a crawl, or by upstream's), or None where it stores
    none: reading it costs one query where clustering reads every snapshot. Our
    reasons are shown as when computed, upstream's under ``stored``; the
    meta-signature overlap comes with ours (:data:`OVERLAP_KEY`), else None."""
    if not a.has_table("page_templates"):
        return None
    # from the stored rows to their pages (a scan of page_templates in page order),
    # not from every page to its template
    rows = a.rows(f"SELECT p.id, p.url, t.template_key FROM page_templates t CROSS JOIN "
                  f"pages p ON p.id = t.page_id WHERE {strict_page('p')} ORDER BY t.page_id")
    if not rows:
        return None
    reasons: dict[str, dict[str, Any]] = {}
    overlap: Overlap | None = {}
    if a.has_table("page_template_clusters"):
        for key, body, codec in a.rows("SELECT template_key, reason_json, codec FROM "
                                       "page_template_clusters"):
            parsed = json_object(json_text(body, codec))
            ours = parsed is not None and isinstance(parsed.get("blocking"), list) \
                and isinstance(parsed.get("structuralCoreTokens"), list)
            if ours and parsed is not None:
                stored = parsed.pop(OVERLAP_KEY, None)
                if overlap is not None and isinstance(stored, list):
                    overlap[str(key)] = [(str(sig), int(n), int(size))
                                         for sig, n, size in stored]
                else:
                    overlap = None
                reasons[str(key)] = parsed
            else:
                overlap = None
                reasons[str(key)] = {"stored": parsed} if parsed else {}
    keys = [str(k) for _i, _u, k in rows]
    if overlap is not None and not set(keys) <= set(overlap):
        overlap = None
    return [(int(i), str(u)) for i, u, _k in rows], keys, reasons, overlap


def compute(a: Archive, *, stored: bool = True) -> TemplateIndex:
    """The archive's template clusters: read from the stored tables when ``stored`` and
    the archive has them, else clustered from its snapshots (with progress, see
    :mod:`nitpicker_query.progress`). The crawler calls it with ``stored=False`` at the
    end of a crawl and stores the result."""
    total = a.count(f"SELECT count(*) FROM pages p WHERE {strict_page('p')}")
    found = _stored(a) if stored else None
    overlap: Overlap | None = None
    if found is not None:
        taken, keys, reasons, overlap = found
    elif a.has_table("page_html_ref") and a.has_table("page_html_blobs"):
        with progress.working_on(str(a.path)) as report:
            taken, result = _cluster_pages(a, report)
        keys, reasons = result.keys, result.reasons
    else:
        taken, keys, reasons = [], [], {}
    members: dict[str, list[tuple[str, int]]] = {}
    for (page_id, url), key in zip(taken, keys, strict=True):
        members.setdefault(key, []).append((url, page_id))
    for listed in members.values():
        listed.sort()
    order = sorted(members, key=lambda k: (-len(members[k]), k))
    if overlap is None:
        overlap = meta_overlap(a, taken, keys)
    events = event_ids_by_signature(a, sorted({sig for listed in overlap.values()
                                               for sig, _n, _size in listed}))
    meta = {k: [(sig, n, size, events.get(sig)) for sig, n, size in overlap.get(k, [])]
            for k in members}
    return TemplateIndex(order, members, reasons, meta, len(taken),
                         max(0, total - len(taken)))


def meta_overlap(a: Archive, taken: list[tuple[int, str]], keys: list[str]) -> Overlap:
    """The meta-signature clusters (same parent path, title, description, og:title,
    og:url; two pages or more) each template's pages fall into: ``(signature, pages of
    the template in it, cluster size)``, most shared first."""
    of_page = {page_id: key for (page_id, _url), key in zip(taken, keys, strict=True)}
    counts: dict[str, Counter[str]] = {k: Counter() for k in set(keys)}
    sizes: dict[str, int] = {}
    for signature, ms in clusters(a, "signature", 2).items():
        sizes[signature] = len(ms)
        for m in ms:
            template = of_page.get(m.page_id)
            if template is not None:
                counts[template][signature] += 1
    return {k: [(sig, n, sizes[sig]) for sig, n in
                sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))]
            for k, c in counts.items()}


def clear_cache() -> None:
    """Forget every computed result (tests; a long-lived process that wants memory back)."""
    with _LOCK:
        _CACHE.clear()
