"""The soft cap (``--dedupe-cap N``): recognise trap clusters while crawling, stop feeding them.

Every eligible internal page is *observed* under up to four counters (keys and signals
from :mod:`nitpicker_query.keys.page_keys` / :mod:`nitpicker_query.keys.signals`, the same
functions the duplicate-cluster queries use):

========== ====================================== ===========================================
kind       counts pages sharing                   catches
========== ====================================== ===========================================
parent     signature: parent key + meta           pagers in the last segment or the query
shape      shape signature: URL shape + meta      traps varying in several places at once
declared   host + declared target (og:url or      a session id in a *middle* segment: every
           canonical pointing at another page)    page its own parent and shape, one target
           + meta
repeat     URL shape; counts only pages whose     per-entity variant views: each entity's
           meta the shape already produced, or    meta differs, but the shape keeps
           that say ``noindex``                   repeating what it already showed, or
                                                  declares it is not content
========== ====================================== ===========================================

A counter remembers its pages' signals, URL shapes and query values. When its count
**exceeds** its effective threshold (N, ``ceil(0.3 N)`` when the cluster looks like a trap,
``5 N`` when it looks legit; signals by majority) the cluster is *capped*: its shapes join
the gate, a :class:`CapEvent` goes to the audit table, and each URL refused later is
credited to the event that gated it.

**The gate** (:meth:`SoftCap.admit`, for links found, queued URLs coming up, and redirect
targets) refuses a URL when its shape is one of a capped cluster's shapes, or belongs to
the *family* of one: the same host and abstract path, and a query-key set that is

- a superset of the capped shape's keys (``…?returnto=X&returntoquery=Y`` after
  ``…?returnto={v}`` was capped), or
- any other set that holds at least one of the keys that were constant across the
  cluster, with its value: the constants name the *view* that was capped, the rest are
  its parameters (``…?title=Special:RecentChanges&limit=50`` or
  ``…&hidebots=1`` after ``…?title=Special:RecentChanges&days={v}&from={v}`` was
  capped; never ``…?title=X`` after per-article views ``…?title={v}&returnto={v}``
  were capped — nothing anchors it, and it is the article itself),

and in both cases does not contradict a constant (not ``…?action=edit&title=X&x=1``
after ``…?action=history&title={v}`` was capped).

A capped shape that is itself content-novel gates nothing, not even its variants.

Never gated, whatever was capped: a shape whose own *indexable* pages are
*content-novel* — at least ``NOVEL_MIN_PAGES`` observed, no more than one in
``NOVEL_RATIO`` repeating meta the shape already produced (``index.php?title={v}``: every
article a new title, while the special pages sharing the shape say ``noindex``) — and
paths exempted with ``--dedupe-allow``.

``noindex`` is the site's own word that a page is not content: once
``NOINDEX_RULE_AFTER`` indexable pages were seen, a ``noindex`` page counts as a repeat
of its shape and never as novel (a wiki's edit, history and info views have a title per
article, but no new content).

A cluster all of whose shapes are novel does not fire at all (it would gate nothing). A cap
never gates by parent path alone.

Memory stays bounded by four mechanisms (seed 000 §4; units as DESIGN.md §4):

(a) a capped counter moves to the sticky set (``sticky``: key → event id) and leaves the
    counter map;
(b) a counter not capped within ``age_window`` observations of its first one is dropped;
(c) when no URL of a parent key is pending (queued or in flight), the counters *whose
    pages all share that parent key* — the signature counters of that parent key — are
    dropped (:meth:`parent_idle`); shape, declared and repeat counters may span parents
    and live on until (b) or (d) drops them;
(d) the counter map holds at most ``map_cap`` counters, least recently used evicted first.
The shape statistics behind the novelty rule are one more LRU map of at most
``map_cap // 4`` shapes.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from nitpicker_query.keys.page_keys import (
    PageKeys,
    declared_signature,
    host_key,
    query_values,
    repeat_key,
    sha1_key,
    shape_key,
    split_shape,
    view_of,
)
from nitpicker_query.keys.signals import (
    LEGIT_SIGNALS,
    SIGNAL_NAMES,
    Signals,
    canonical_form,
    effective_threshold,
    score,
)

from ..extract.content import Content
from .content_memory import BlockMemory, ChromeFilter
from .deferral import Deferral

MAX_SHAPES_PER_COUNTER = 32
"""Distinct URL shapes a counter remembers (a cluster rarely has more than a few)."""
MAX_QUERY_KEYS = 16
"""Query keys a counter tracks values of (beyond that, the rest count as varying)."""
NOVEL_MIN_PAGES = 3
"""Pages of a shape observed before it can count as content-novel."""
NOVEL_RATIO = 2
"""A shape is content-novel while at most 1 page in NOVEL_RATIO repeated meta the shape
already produced: a wiki's ``index.php?title={v}`` holds every article (each new) and
one "Related changes" view per article (all alike) — mixed, and never gated; a trap's
shape repeats itself on almost every page, per-entity variant views on all but the
first view of each entity."""
NOINDEX_RULE_AFTER = 20
"""Indexable pages observed before ``noindex`` pages stop counting as new content (a
staging site that says ``noindex`` everywhere never turns the rule on)."""
CONTENT_MIN_BLOCKS = 3
"""Content blocks (after chrome) a page needs before its content counts for anything: a
script-only shell or an empty listing says nothing either way."""
LIST_BLOCKS = 8
"""Content blocks a page needs before one block differing from what its shape showed only
in its numbers still makes it a repeat (a list of items shown again under "Page 9.
Prices per pack"); a smaller page differing in a number ("This is page 9") is not."""
FRESH_SHARE = 4
"""A page *brings new content* when at least CONTENT_MIN_BLOCKS and one in FRESH_SHARE
of its content blocks are new to its URL shape (a forum thread's next page: new posts;
a file at another revision: a few changed lines among hundreds)."""
CONTENT_NOVEL_RATIO = 4
"""A shape stays content-novel while at most one in CONTENT_NOVEL_RATIO of its pages
with content repeated it (a pager past its end turns its shape non-novel within a few
pages of the end)."""
COPY_FAMILY_PAGES = 5
KNOWN_PER_META = 64
"""Originals remembered per meta (title, description, og:title, og:url) for the copy
rule: a copy names its original and carries its meta, so only pages of the same meta are
candidates, and only for a page that declares another is any of them read. A site whose
pages all share one meta keeps its latest 64 as candidates."""
"""Copies of crawled pages that cap their variant family (the same extra query keys on
any path), or ceil(0.3 N) when that is lower: each one is a page the archive has."""
VIEW_MIN_ENTITIES = 3
"""Distinct entities a view must have been seen on before it can be capped as a view."""
REORDER_EVIDENCE = 2
"""Pages showing a query key only reorders its page's content, or changes nothing, before
it stops making new views."""
_VARIED = None


@dataclass
class Counter:
    """One cluster's running tally."""

    key: str
    kind: str                    # "parent", "shape", "declared" or "repeat"
    parent_key: str | None       # the parent key all its pages share (signature counters)
    first_seen: int              # observation number of its first page
    keys: PageKeys               # the first page's keys (meta for the audit row)
    count: int = 0
    signal_counts: list[int] = field(default_factory=lambda: [0] * len(SIGNAL_NAMES))
    shapes: set[str] = field(default_factory=set)
    qvals: dict[str, str | None] | None = None  # query key → its one value, None = varied
    fresh: int = 0               # pages that brought new content
    entities: set[str] | None = None   # views: distinct entities (up to VIEW_MIN_ENTITIES)
    contradicted: int = 0        # copy families: pages of the family that were no copy
    gate: dict[str, Any] | None = None  # copy and view kinds: what their cap refuses

    def majority(self) -> dict[str, bool]:
        return {name: 2 * n >= self.count for name, n in zip(SIGNAL_NAMES, self.signal_counts,
                                                             strict=True)}

    def add_query(self, pairs: tuple[tuple[str, str], ...]) -> None:
        if not pairs:
            return
        if self.qvals is None:
            self.qvals = {}
        for k, v in pairs:
            if k in self.qvals:
                if self.qvals[k] != v:
                    self.qvals[k] = _VARIED
            elif len(self.qvals) < MAX_QUERY_KEYS:
                self.qvals[k] = v[:200]


@dataclass(frozen=True)
class Family:
    """One capped shape and what its cluster showed about its query keys."""

    shape: str
    keys: frozenset[str]
    constants: tuple[tuple[str, str], ...]
    event_id: int
    varying: frozenset[str] = frozenset()

    def covers(self, query: frozenset[str], values: dict[str, str]) -> bool:
        """Is a URL with these query keys (and values) a variant of this capped shape?"""
        if query == self.keys:
            return False  # the exact shape is gated by the capped-shape map
        if self.varying and self.varying <= query:
            # the keys the trap grew along, on another entity or spelling (another
            # user's stream, a calendar reached with ``set_filter=1``): suspected too —
            # a suspicion defers, and the probes judge each shape
            return True
        consts = [(k, v) for k, v in self.constants if k in query]
        if any(values.get(k) != v for k, v in consts):
            return False  # contradicts the view the cluster was (another action, page …)
        if query > self.keys:
            return True
        # otherwise a variant only while a constant of the cluster anchors it: dropping
        # every varying key of per-entity views leaves the entity itself (``title=X``)
        return bool(consts)


@dataclass(frozen=True)
class _Reading:
    """What one page's content said (:meth:`SoftCap._read`)."""

    known: bool      # enough content blocks to say anything
    repeat: bool     # nothing its shape had not produced
    fresh: bool      # new content for its shape (indexable pages only)
    entity: str      # its entity (keys.view_of)
    view: tuple[str, str, dict[str, Any] | None] | None  # the view counter it counts in
    blocks: int = 0  # content blocks, and of them unseen on its path and on the site with
    new: frozenset[int] = frozenset()  # the URL's own numbers masked (a probe is judged by)
    entity_new: frozenset[int] | None = None  # a view: what its entity and the site never
    # showed, every token with a digit masked


_NO_READING = _Reading(False, False, False, "", None)
"""A page read without its content (meta only): nothing to say, built once."""
_CONTENT_REPEAT = SIGNAL_NAMES.index("contentRepeat")
PATHS_ANYWHERE, VIEWS_ANYWHERE = "", "#"
"""The site-wide memory's two keys: blocks with the URL's own numbers masked, and with
every number masked (what a view's probe is compared in)."""
_LEGIT_INDEXES = tuple(SIGNAL_NAMES.index(name) for name in LEGIT_SIGNALS)


@dataclass
class CapEvent:
    """What one cap writes to ``dedupe_cap_events`` (column names as in docs/archive-format.md)."""

    signature: str
    kind: str
    shape_key: str
    shapes: set[str]
    sample_url: str
    effective_threshold: int
    observed_count: int
    trap_score: int
    signals: dict[str, Any]
    keys: PageKeys
    qvals: dict[str, str | None] | None = None
    sticky_keys: tuple[str, ...] = ()
    event_id: int | None = None
    gate: dict[str, Any] | None = None   # copy and view kinds (see SoftCap.record)
    body_hash: bytes | None = None

    def row(self) -> dict[str, Any]:
        # the cluster's shapes, query values and gate ride along in the signals JSON, so
        # that --resume restores the same gate (docs/archive-format.md)
        signals = {**self.signals, "shapes": sorted(self.shapes),
                   "queryValues": dict(self.qvals or {}), **(self.gate or {})}
        return {
            "shape_key": self.shape_key, "sample_url": self.sample_url,
            "body_hash": self.body_hash,
            "effective_threshold": self.effective_threshold,
            "observed_count": self.observed_count, "rejected_count": None,
            "signature": self.signature, "parent_path": self.keys.parent_path,
            "title": self.keys.title, "description": self.keys.description,
            "og_title": self.keys.og_title, "og_url": self.keys.og_url,
            "trap_score": float(self.trap_score), "signals": signals,
        }


class SoftCap:
    """The tracker. ``observe`` scraped pages, ``admit`` URLs before queueing or fetching.

    ``allow(url)``, when given, exempts URLs from the cap (``--dedupe-allow``): they are
    neither observed nor refused.
    """

    def __init__(self, cap: int, *, age_window: int = 5000, map_cap: int = 100_000,
                 allow: Callable[[str], bool] | None = None) -> None:
        if cap < 1 or age_window < 1 or map_cap < 2:
            raise ValueError("cap, age window and map cap must be positive")
        self.cap = cap
        self._lowest_threshold = effective_threshold(cap, 1)
        self.age_window = age_window
        self.map_cap = map_cap
        self.allow = allow
        self.counters: OrderedDict[str, Counter] = OrderedDict()   # LRU order
        self.sticky: dict[str, int] = {}          # capped counter key → event id
        self.capped_shapes: dict[str, int] = {}   # URL shape key → event id (first wins)
        self.families: dict[str, list[Family]] = {}  # abstract path → capped variants
        self.copy_gates: dict[str, list[tuple[frozenset[str], int]]] = {}  # host → keys
        self.view_gates: dict[str, list[tuple[frozenset[str] | None, int]]] = {}  # prefix
        # shape → [pages, repeats, indexable pages, indexable repeats, pages with
        # content, pages repeating content, the same two of indexable pages]
        self.shape_stats: OrderedDict[str, list[int]] = OrderedDict()
        self.stats_cap = max(1024, map_cap // 4)
        small = max(256, map_cap // 50)
        self.by_shape = BlockMemory(keys=small, nbits=16384, per_generation=1500)
        self.by_entity = BlockMemory(keys=4 * small, nbits=8192, per_generation=600)
        # path shape → its pages' blocks with only the URL's own numbers masked: what a
        # probe of a suspect cluster is compared with (nitpicker_crawl/traps/deferral.py)
        self.by_path = BlockMemory(keys=small, nbits=16384, per_generation=1500)
        # … and the whole site's (those blocks, and a view's with every number masked): a
        # probe's block is new only if no page of the crawl showed it
        self.anywhere = BlockMemory(keys=2, nbits=1 << 21, per_generation=150_000)
        self.deferral = Deferral(shape_key)
        self._metas: OrderedDict[int, None] = OrderedDict()   # see _meta_seen
        self.chrome = ChromeFilter(max_blocks=map_cap)
        # meta → the latest pages (URL, content fingerprint) that declare no other page:
        # the originals a copy may name
        # (tuples, not lists: the garbage collector stops tracking them)
        self._known: OrderedDict[int, tuple[tuple[str, int | None], ...]] = OrderedDict()
        self._known_pages = 0
        self._copy_pending: dict[str, dict[frozenset[str], str]] = {}  # host → keys → ctr
        self.reorder: dict[str, set[str]] = {}    # view prefix → keys that only reorder
        self.inert: dict[str, set[str]] = {}      # view prefix → keys that change nothing
        self._reorder_seen: dict[tuple[str, str, bool], int] = {}
        self._changing: set[tuple[str, str]] = set()  # keys seen changing a page
        self._siblings: OrderedDict[str, tuple[str, int, int]] = OrderedDict()
        self.rejected: dict[int, int] = {}        # event id → URLs refused this run
        self.events: list[CapEvent] = []
        self.observations = 0
        self.indexable_seen = 0
        self._ages: deque[tuple[int, str]] = deque()
        self._by_parent: dict[str, set[str]] = {}
        self.evicted = {"age": 0, "parent": 0, "lru": 0}

    # ------------------------------------------------------------------ gate

    def admit(self, url: str, *, queued: bool = False) -> int | None:
        """None when ``url`` may be crawled; else the id of the event whose cap covers it.

        The caller records the refusal (a skipped ``pages`` row, which waits there while
        the event is a suspicion: :mod:`nitpicker_crawl.traps.deferral`) and calls
        :meth:`refused`. A probe of a suspect passes; so does a URL of a released cluster
        while its budget lasts — spent by URLs newly met, not by ``queued`` ones coming up
        (admitted, and paid for, when they were met).
        """
        if not (self.capped_shapes or self.copy_gates or self.view_gates):
            return None
        shape = shape_key(url)
        if "{" not in shape:
            return None  # one concrete page (a hub, a listing at HEAD): never a trap's shape
        event_id = self._shape_gate(url, shape)
        if event_id is None and "?" in url:
            event_id = self._copy_gate(url)
        if event_id is None and self.view_gates:
            event_id = self._view_gate(url)
        if event_id is None or self.is_novel(shape) or (
                self.allow is not None and self.allow(url)):
            return None
        if self.deferral.passes(url, event_id, spend=not queued):
            return None
        return event_id

    def _shape_gate(self, url: str, shape: str) -> int | None:
        event_id = self.capped_shapes.get(shape)
        if event_id is not None:
            return event_id
        path, query = split_shape(shape)
        variants = self.families.get(path)
        if not variants:
            return None
        values = dict(reversed(query_values(url)))  # the first value of each key
        return next((f.event_id for f in variants if f.covers(query, values)
                     and not self.is_novel(f.shape)), None)

    def _copy_gate(self, url: str) -> int | None:
        gates = self.copy_gates.get(host_key(url))
        if not gates:
            return None
        keys = {k for k, _ in query_values(url)}
        return next((event_id for need, event_id in gates if need <= keys), None)

    def _view_gate(self, url: str) -> int | None:
        view = view_of(url)
        if view.prefix is None:
            return None  # the entity itself is never a view
        gates = self.view_gates.get(view.prefix)
        if not gates:
            return None
        if view.keys is None:
            return next((event_id for need, event_id in gates if need is None), None)
        reorder = self.reorder.get(view.prefix, set())
        reduced = view.keys - reorder
        for need, event_id in gates:
            if need is None:
                continue
            need = need - reorder   # a key learned to only reorder after the cap, too
            if need <= reduced if need else not reduced:
                return event_id
        return None

    def is_novel(self, shape: str) -> bool:
        """Has this shape shown mostly new content per page (never gated)?

        New meta on most indexable pages, and — where the pages had content to compare —
        content that at most one page in :data:`CONTENT_NOVEL_RATIO` repeated (indexable
        pages only, once ``noindex`` counts: a wiki's "Related changes" views share the
        articles' shape, say ``noindex`` and repeat themselves).
        """
        stats = self.shape_stats.get(shape)
        if stats is None:
            return False
        pages, repeats = (stats[2], stats[3]) if self.noindex_rule else (stats[0], stats[1])
        if pages < NOVEL_MIN_PAGES or repeats * NOVEL_RATIO > pages:
            return False
        known, same = (stats[6], stats[7]) if self.noindex_rule else (stats[4], stats[5])
        return known < NOVEL_MIN_PAGES or same * CONTENT_NOVEL_RATIO <= known

    @property
    def noindex_rule(self) -> bool:
        """Do ``noindex`` pages count as repeats (and never as novel) by now?"""
        return self.indexable_seen >= NOINDEX_RULE_AFTER

    def _meta_seen(self, keys: PageKeys, signals: Signals) -> bool:
        """Has the page's shape produced its meta before, an og:url naming the page itself
        left out? Such an og:url is the page's address, not something it says: per-user
        activity streams whose every page has one title and a self og:url repeat
        themselves, and a shape of them is no more content-novel than one without og:url.
        (Remembered for at most a quarter of ``map_cap`` shapes' metas, oldest dropped.)"""
        og_url = "" if signals.ogUrlSelf else (keys.og_url or "")
        key = hash((keys.shape_key, keys.title, keys.description, keys.og_title, og_url))
        if key in self._metas:
            self._metas.move_to_end(key)
            return True
        self._metas[key] = None
        if len(self._metas) > self.stats_cap:
            self._metas.popitem(last=False)
        return False

    def remember(self, url: str, content: Content) -> None:
        """What a page of an earlier run showed on its path (probes compare with it)."""
        self._remember_path(split_shape(shape_key(url))[0],
                            {c for _, c in content.coordinates},
                            {m for _, m in content.masks})

    def _remember_path(self, path: str, coordinates: set[int], views: set[int]) -> None:
        self.by_path.add(path, coordinates)
        self.anywhere.add(PATHS_ANYWHERE, coordinates)
        self.anywhere.add(VIEWS_ANYWHERE, views)

    def refused(self, event_id: int) -> None:
        self.rejected[event_id] = self.rejected.get(event_id, 0) + 1

    def unrefuse(self, event_id: int, urls: int) -> None:
        """A released suspect's waiting URLs are queued again: no longer refused."""
        left = self.rejected.get(event_id, 0) - urls
        self.rejected[event_id] = max(0, left)

    @property
    def rejected_total(self) -> int:
        return sum(self.rejected.values())

    # ------------------------------------------------------------------ observe

    def observe(self, url: str, keys: PageKeys, signals: Signals, *,
                declared: str | None = None, indexable: bool = True,
                content: Content | None = None, chain: bool = False) -> CapEvent | None:
        """Count one eligible page; return the event if this page caps a cluster.

        ``declared``: the page's declared target
        (:func:`~nitpicker_query.keys.signals.declared_target`);
        ``indexable``: False when the page says ``noindex`` (meta robots or X-Robots-Tag);
        ``content``: its main content (:func:`nitpicker_crawl.extract.content.main_content`), when
        the crawler has it; ``chain``: the page links another URL of its own shape (a
        pager, a previous day). The caller sets the event's ``body_hash`` (only a page
        that fires a cap is hashed).
        """
        if self.allow is not None and self.allow(url):
            return None
        self.observations += 1
        self._expire()
        if indexable:
            self.indexable_seen += 1
        reading = self._read(url, keys.shape_key, content, indexable, chain)
        if url in self.deferral.probing:
            self.deferral.read(url, blocks=reading.blocks, new=reading.new,
                               entity_new=reading.entity_new, indexable=indexable,
                               known=content is not None)
        copy_keys = self._copy(url, keys, declared, content)
        meta_repeat = keys.shape_signature in self.sticky or (
            (seen := self.counters.get(keys.shape_signature)) is not None and seen.count > 0)
        meta_repeat = meta_repeat or copy_keys is not None or self._meta_seen(keys, signals)
        repeat = meta_repeat or reading.repeat or (self.noindex_rule and not indexable)
        self._count_shape(keys.shape_key, meta_repeat, indexable, reading)
        pairs = query_values(url) if "?" in url else ()
        entries: list[tuple[str, str, dict[str, Any] | None]] = [
            (keys.signature, "parent", None), (keys.shape_signature, "shape", None)]
        if declared is not None:
            entries.append((declared_signature(url, declared, keys), "declared", None))
        if repeat:
            entries.append((repeat_key(keys.shape_key), "repeat", None))
        if copy_keys:
            entries.append((sha1_key("copy", host_key(url), *sorted(copy_keys)), "copy",
                            {"copyKeys": sorted(copy_keys), "copyTarget": declared}))
        if reading.view is not None:
            entries.append(reading.view)
        fired: CapEvent | None = None
        values = [getattr(signals, n) for n in SIGNAL_NAMES]
        values[_CONTENT_REPEAT] = reading.repeat or copy_keys is not None
        if (reading.known and not reading.fresh) or reading.repeat or copy_keys is not None:
            # legit signals are evidence of a pager only while it brings new content
            for index in _LEGIT_INDEXES:
                values[index] = False
        for key, kind, gate in entries:
            if key in self.sticky:
                continue
            counter = self.counters.get(key)
            if counter is None:
                # only a signature counter is bound to one parent key by its definition;
                # the others may span parents (a middle session id gives every page its
                # own), and dropping them when their first page's parent goes idle would
                # restart them at zero on every page
                bound = kind == "parent"
                counter = Counter(key, kind, keys.parent_key if bound else None,
                                  self.observations, keys, gate=gate)
                self.counters[key] = counter
                self._ages.append((self.observations, key))
                if bound:
                    self._by_parent.setdefault(keys.parent_key, set()).add(key)
                if kind == "copy":
                    pending = self._copy_pending.setdefault(host_key(url), {})
                    if len(pending) < MAX_QUERY_KEYS:
                        pending[frozenset(copy_keys or ())] = key
                self._enforce_map_cap()
            else:
                self.counters.move_to_end(key)
            counter.count += 1
            counter.fresh += reading.fresh
            for i, v in enumerate(values):
                counter.signal_counts[i] += v
            if len(counter.shapes) < MAX_SHAPES_PER_COUNTER:
                counter.shapes.add(keys.shape_key)
            counter.add_query(pairs)
            if kind == "view":
                if counter.entities is None:
                    counter.entities = set()
                if len(counter.entities) < VIEW_MIN_ENTITIES:
                    counter.entities.add(reading.entity)
            if fired is None and (counter.count > self._lowest_threshold or kind == "copy"):
                fired = self._fire(counter, url, keys)  # none can fire below the lowest
        if fired is not None:
            # every counter of the firing page becomes sticky: one cluster, one event
            for key, _, _ in entries:
                self._forget(key)
            fired.sticky_keys = tuple(k for k, _, _ in entries)
        return fired

    def _fire(self, counter: Counter, url: str, keys: PageKeys) -> CapEvent | None:
        """The event when this counter now exceeds its threshold, else None."""
        kind = counter.kind
        if kind == "copy":
            threshold = min(COPY_FAMILY_PAGES, self._lowest_threshold)
            if counter.count <= threshold or counter.contradicted * 10 > counter.count:
                return None
            present = counter.majority()
            trap_score = score(present)
        else:
            if counter.count <= self._lowest_threshold:
                return None  # no signals can make it fire yet: skip the majority vote
            if 2 * counter.fresh > counter.count:
                return None  # its pages keep bringing new content: not a trap
            if kind == "view" and len(counter.entities or ()) < VIEW_MIN_ENTITIES:
                return None
            present = counter.majority()
            trap_score = score(present)
            threshold = effective_threshold(self.cap, trap_score)
            if counter.count <= threshold:
                return None
            if kind != "view" and all(self.is_novel(shape) for shape in counter.shapes):
                return None  # it would gate nothing
        return CapEvent(signature=counter.key, kind=kind, shape_key=keys.shape_key,
                        shapes=set(counter.shapes), sample_url=url,
                        effective_threshold=threshold, observed_count=counter.count,
                        trap_score=trap_score, signals={**present, "key": kind},
                        keys=counter.keys, qvals=dict(counter.qvals or {}),
                        gate=dict(counter.gate or {}))

    def _read(self, url: str, shape: str, content: Content | None,
              indexable: bool, chain: bool = False) -> _Reading:
        """What the page's content says next to what its shape and entity showed before
        (and remember it)."""
        if content is None:
            return _NO_READING
        view = view_of(url)
        blocks = self.chrome.content(content.novel_blocks, shape)
        n = len(blocks)
        known = n >= CONTENT_MIN_BLOCKS
        unseen = self.by_shape.unseen(shape, blocks)
        # new content is new beyond its numbers (masked blocks, a memory of their own)
        masked = content.masked_blocks if n else frozenset()
        m_key = "#" + shape
        m_unseen = self.by_shape.unseen(m_key, masked)
        # a page too small to judge repeats only when it also links on to more of its
        # own shape: a day of a timeline saying "No events", then the day before
        # nothing new; or one block new only by its numbers ("Page 9. Prices per pack")
        repeat = (known or (chain and n > 0)) and unseen is not None and (
            unseen == 0 or (unseen <= 1 and m_unseen == 0 and n >= LIST_BLOCKS))
        fresh = indexable and known and (m_unseen is None or (
            m_unseen >= CONTENT_MIN_BLOCKS and m_unseen * FRESH_SHARE >= n))
        counted: tuple[str, str, dict[str, Any] | None] | None = None
        e_unseen: int | None = None
        # what a probe of a suspect cluster is judged by (nitpicker_crawl/traps/deferral.py): its
        # blocks unseen on its path (a view's: by its entity, every number masked) *and*
        # nowhere on the site — an old revision's lines shown again by a diff, a commit
        # message a changeset page already printed, are nothing the crawl would learn
        judged = {h: c for h, c in content.coordinates if h in blocks}
        coordinates = set(judged.values())
        views = {m for h, m in content.masks if h in judged}
        # an entity's views are compared with every token holding a digit masked: the
        # revision's ids, dates and sizes are the view's coordinates
        shown = {m for _, m in content.masks} if n else set()
        entity_new: frozenset[int] | None = None
        if view.prefix is not None:
            # what its entity never showed, less what another page of the site did (a file
            # at an old revision shows lines its changesets' diffs showed)
            views_new = self._new_anywhere(VIEWS_ANYWHERE, views)
            unseen_by_entity = self.by_entity.unseen_of(view.entity, shown)
            if unseen_by_entity is not None:
                e_unseen = len(unseen_by_entity - (views - views_new))
                entity_new = frozenset(unseen_by_entity & views_new)
            entity_fresh = known and e_unseen is not None and \
                e_unseen >= CONTENT_MIN_BLOCKS and e_unseen * FRESH_SHARE >= n
            if e_unseen is not None and not entity_fresh:
                # another view of an entity already seen, showing what it showed
                spec: frozenset[str] | None = None
                if view.keys is not None:
                    spec = view.keys - self.reorder.get(view.prefix, set())
                    # a key that changes nothing is dropped while another key is left
                    # to name the view (``?rev=`` alone on a file is that file's view)
                    spec = spec - self.inert.get(view.prefix, set()) or spec
                    self._learn_order(url, view.prefix, content)
                label = "*" if spec is None else "&".join(sorted(spec))
                counted = (sha1_key("view", view.prefix, label), "view",
                           {"view": view.prefix,
                            "viewKeys": None if spec is None else sorted(spec)})
            elif view.keys is not None:
                self._learn_order(url, view.prefix, content)
        elif "?" not in url:
            self._remember_order(url, content)
        self.by_shape.add(shape, blocks)
        self.by_shape.add(m_key, masked)
        self.by_entity.add(view.entity, shown)
        path = split_shape(shape)[0]
        on_path = self.by_path.unseen_of(path, coordinates)
        anywhere = self._new_anywhere(PATHS_ANYWHERE, coordinates)
        new = frozenset(anywhere if on_path is None else on_path & anywhere)
        self._remember_path(path, coordinates, views)
        return _Reading(known, repeat, fresh, view.entity, counted, len(coordinates), new,
                        entity_new)

    def _new_anywhere(self, key: str, blocks: set[int]) -> set[int]:
        found = self.anywhere.unseen_of(key, blocks)
        return blocks if found is None else found

    def _remember_order(self, url: str, content: Content) -> None:
        self._sibling_put(f"{canonical_form(url)}", "", content)

    def _sibling_put(self, key: str, value: str, content: Content) -> None:
        if key not in self._siblings:
            self._siblings[key] = (value, content.fingerprint, content.order)
            if len(self._siblings) > self.stats_cap:
                self._siblings.popitem(last=False)

    def _learn_order(self, url: str, prefix: str, content: Content) -> None:
        """Learn the query keys that do not make a new view of an entity, decided from the
        pages, not from the keys' names: a key whose values show the same blocks in
        another order (``order=size`` next to ``order=name``, or next to the page without
        the key) only reorders; one whose presence shows the very same blocks in the same
        order (a calendar reached as ``?set_filter=1&month=5&year=2024`` next to
        ``?month=5&year=2024``) changes nothing — until one page shows that its presence
        does change what is shown (a saved query listing other issues on one month). Either
        way the pages with and without it count as one view (a key that changes nothing
        while another key is left to name the view), so one trap reached through several
        link spellings is one cluster, not one per spelling."""
        pairs = query_values(url)
        if len(pairs) > MAX_QUERY_KEYS:
            return
        own = canonical_form(url) or url
        fuller = self._siblings.get(own)   # a page with one key more, met before this one
        if fuller is None:
            self._sibling_put(own, "", content)
        elif fuller[0]:
            self._compare(prefix, fuller[0], "", fuller, content)
        for i, (k, v) in enumerate(pairs):
            # a key that changes nothing is still compared: one page that it changes
            # makes it a view again
            if k in self.reorder.get(prefix, ()):
                continue
            rest = pairs[:i] + pairs[i + 1:]
            base = canonical_form(url.split("?", 1)[0] + ("?" + "&".join(
                f"{a}={b}" for a, b in rest) if rest else "")) or ""
            other = self._siblings.get(base)
            if other is None:
                self._sibling_put(base, k + "=" + v, content)
            else:
                self._compare(prefix, k + "=" + v, other[0], other, content)

    def _compare(self, prefix: str, label: str, other_label: str,
                 other: tuple[str, int, int], content: Content) -> None:
        """One piece of evidence that the key of ``label`` (``k=v``) does not make a new
        view: the page ``other`` (``other_label``: the same key with another value, another
        key, or "" for the page without it) shows the same blocks as ``content``."""
        if label == other_label:
            return
        key = label.split("=", 1)[0]
        if other[1] != content.fingerprint:
            if not other_label:
                # one page where the key's presence changes what is shown: it is a view
                # (a saved query listing other issues on one month, alike on the rest)
                self._changing.add((prefix, key))
                self.inert.get(prefix, set()).discard(key)
                if len(self._changing) > self.stats_cap:
                    self._changing.pop()
            return
        if other[2] == content.order:
            # the same blocks in the same order: only a key present on one page and absent
            # from the other changes nothing — two values of one key showing the same (a
            # pager past its end) or two keys reducing to one base page do not say so,
            # and an empty page equals every empty page
            if other_label or len(content.blocks) < CONTENT_MIN_BLOCKS \
                    or (prefix, key) in self._changing:
                return
            learned = self.inert
        else:
            learned = self.reorder
        evidence = (prefix, key, learned is self.inert)
        seen = self._reorder_seen.get(evidence, 0) + 1
        self._reorder_seen[evidence] = seen
        if seen >= REORDER_EVIDENCE:
            learned.setdefault(prefix, set()).add(key)
        if len(self._reorder_seen) > self.stats_cap:
            self._reorder_seen.pop(next(iter(self._reorder_seen)))

    def _copy(self, url: str, keys: PageKeys, declared: str | None,
              content: Content | None) -> frozenset[str] | None:
        """A page declaring itself a copy of a page already observed, with the same meta
        (and content, when both have it): the query keys it has beyond its target's
        (empty when its path differs). Also remembers this page when it declares no
        other (a copy's original does not), and counts it against the copy families it
        belongs to without being a copy."""
        # a hash, not a digest: remembered for every page, read only within this process
        meta = hash((keys.title, keys.description, keys.og_title, keys.og_url))
        fingerprint = content.fingerprint if content is not None else None
        result: frozenset[str] | None = None
        if declared is not None:
            for known_url, known_print in reversed(self._known.get(meta, ())):
                if canonical_form(known_url) == declared and (
                        known_print is None or fingerprint is None
                        or known_print == fingerprint):
                    page = canonical_form(url) or ""
                    path, _, query = page.partition("?")
                    t_path, _, t_query = declared.partition("?")
                    mine = {p.split("=", 1)[0] for p in query.split("&") if p}
                    theirs = {p.split("=", 1)[0] for p in t_query.split("&") if p}
                    result = frozenset(mine - theirs) if path == t_path else frozenset()
                    break
        pending = self._copy_pending.get(host_key(url)) if "?" in url else None
        if pending:
            mine_keys = {k for k, _ in query_values(url)}
            for need, key in list(pending.items()):
                counter = self.counters.get(key)
                if counter is None:
                    del pending[need]
                elif need <= mine_keys and result != need:
                    counter.contradicted += 1
        if declared is None:  # an original (or a page naming itself): a copy may name it
            bucket = self._known.pop(meta, ())
            if len(bucket) >= KNOWN_PER_META:
                bucket = bucket[1:]
                self._known_pages -= 1
            self._known[meta] = (*bucket, (url, fingerprint))
            self._known_pages += 1
            while self._known_pages > self.map_cap:
                _, oldest = self._known.popitem(last=False)
                self._known_pages -= len(oldest)
        return result

    def _count_shape(self, shape: str, repeat: bool, indexable: bool,
                     reading: _Reading) -> None:
        stats = self.shape_stats.get(shape)
        if stats is None:
            stats = self.shape_stats[shape] = [0, 0, 0, 0, 0, 0, 0, 0]
            if len(self.shape_stats) > self.stats_cap:
                self.shape_stats.popitem(last=False)
        else:
            self.shape_stats.move_to_end(shape)
        stats[0] += 1
        stats[1] += repeat
        if indexable:
            stats[2] += 1
            stats[3] += repeat
        if reading.known or reading.repeat:
            stats[4] += 1
            stats[5] += reading.repeat
            if indexable:
                stats[6] += 1
                stats[7] += reading.repeat

    def record(self, event: CapEvent, event_id: int) -> None:
        """Make ``event`` effective under the id the archive gave it."""
        event.event_id = event_id
        self.events.append(event)
        keys = {event.signature, event.keys.signature, event.keys.shape_signature,
                *event.sticky_keys}
        for key in keys:
            self.sticky.setdefault(key, event_id)
        self._gate(event_id, event.kind, event.shapes, event.qvals, event.gate)
        self.deferral.open(event_id, event.effective_threshold,
                           whole=event.kind in ("copy", "view"), view=event.kind == "view")

    def restore(self, event_id: int, signature: str, shapes: set[str],
                qvals: dict[str, str | None] | None = None,
                signals: dict[str, Any] | None = None) -> None:
        """Resume: a cap recorded in the archive applies again (sticky across runs).

        ``qvals`` None (an event written before query values were recorded): no constant
        is known, so the family covers supersets only. ``signals``: the event's stored
        signals JSON (its kind and, for copy and view caps, what they refuse).
        """
        signals = signals or {}
        kind = str(signals.get("key") or "parent")
        self.sticky.setdefault(signature, event_id)
        self._gate(event_id, kind, shapes, qvals, signals)
        threshold = signals.get("effectiveThreshold")
        self.deferral.open(event_id, threshold if isinstance(threshold, int) else self.cap,
                           signals, whole=kind in ("copy", "view"), view=kind == "view")

    def _gate(self, event_id: int, kind: str, shapes: set[str],
              qvals: dict[str, str | None] | None, gate: dict[str, Any] | None) -> None:
        gate = gate or {}
        if kind == "copy" and isinstance(gate.get("copyKeys"), list) and gate["copyKeys"]:
            need = frozenset(str(k) for k in gate["copyKeys"])
            for host in {shape.split("/", 1)[0] for shape in shapes}:  # shapes start so
                self.copy_gates.setdefault(host, []).append((need, event_id))
            return
        if kind == "view" and isinstance(gate.get("view"), str):
            listed = gate.get("viewKeys")
            spec = frozenset(str(k) for k in listed) if isinstance(listed, list) else None
            self.view_gates.setdefault(gate["view"], []).append((spec, event_id))
            return
        qvals = qvals or {}
        for shape in sorted(shapes):
            self.capped_shapes.setdefault(shape, event_id)
            path, keys = split_shape(shape)
            constants = tuple(sorted((k, v) for k, v in qvals.items()
                                     if k in keys and v is not _VARIED))
            varying = frozenset(k for k in keys if k in qvals and qvals[k] is _VARIED)
            self.families.setdefault(path, []).append(
                Family(shape, keys, constants, event_id, varying))

    # ------------------------------------------------------------------ memory

    def _unregister(self, counter: Counter) -> None:
        if counter.parent_key is None:
            return
        keys = self._by_parent.get(counter.parent_key)
        if keys is not None:
            keys.discard(counter.key)
            if not keys:
                del self._by_parent[counter.parent_key]
        counter.parent_key = None

    def _forget(self, key: str) -> None:
        counter = self.counters.pop(key, None)
        if counter is not None:
            self._unregister(counter)

    def _expire(self) -> None:
        """(b) drop counters older than the age window that never capped."""
        limit = self.observations - self.age_window
        while self._ages and self._ages[0][0] < limit:
            first_seen, key = self._ages.popleft()
            counter = self.counters.get(key)
            if counter is not None and counter.first_seen == first_seen:
                self._forget(key)
                self.evicted["age"] += 1

    def _enforce_map_cap(self) -> None:
        """(d) the least recently used counters go first when the map is full."""
        while len(self.counters) > self.map_cap:
            key, _ = next(iter(self.counters.items()))
            self._forget(key)
            self.evicted["lru"] += 1
        if len(self._ages) > 2 * len(self.counters) + 1024:
            # entries of counters dropped by (a), (c) or (d) linger in the age queue until
            # the window passes them; rebuild it so it stays proportional to the map
            live = sorted((c.first_seen, k) for k, c in self.counters.items())
            self._ages = deque(live)

    def parent_idle(self, parent_key: str) -> None:
        """(c) nothing of this parent key is pending any more: drop the counters whose
        pages all had this parent key (never one that spans several)."""
        for key in list(self._by_parent.get(parent_key, ())):
            self._forget(key)
            self.evicted["parent"] += 1
