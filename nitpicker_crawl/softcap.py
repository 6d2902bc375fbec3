"""The soft cap (``--dedupe-cap N``): recognise trap clusters while crawling, stop feeding them.

Every eligible internal page is *observed* under up to four counters (keys and signals
from :mod:`nitpicker_query.keys` / :mod:`nitpicker_query.signals`, the same functions the
duplicate-cluster queries use):

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

from nitpicker_query.keys import (
    PageKeys,
    declared_signature,
    query_values,
    repeat_key,
    shape_key,
    split_shape,
)
from nitpicker_query.signals import SIGNAL_NAMES, Signals, effective_threshold, score

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

    def covers(self, query: frozenset[str], values: dict[str, str]) -> bool:
        """Is a URL with these query keys (and values) a variant of this capped shape?"""
        if query == self.keys:
            return False  # the exact shape is gated by the capped-shape map
        consts = [(k, v) for k, v in self.constants if k in query]
        if any(values.get(k) != v for k, v in consts):
            return False  # contradicts the view the cluster was (another action, page …)
        if query > self.keys:
            return True
        # otherwise a variant only while a constant of the cluster anchors it: dropping
        # every varying key of per-entity views leaves the entity itself (``title=X``)
        return bool(consts)


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

    def row(self) -> dict[str, Any]:
        # the cluster's shapes and query values ride along in the signals JSON, so that
        # --resume restores the same gate (docs/archive-format.md)
        signals = {**self.signals, "shapes": sorted(self.shapes),
                   "queryValues": dict(self.qvals or {})}
        return {
            "shape_key": self.shape_key, "sample_url": self.sample_url, "body_hash": None,
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
        # shape → [pages, repeats, indexable pages, indexable repeats]
        self.shape_stats: OrderedDict[str, list[int]] = OrderedDict()
        self.stats_cap = max(1024, map_cap // 4)
        self.rejected: dict[int, int] = {}        # event id → URLs refused this run
        self.events: list[CapEvent] = []
        self.observations = 0
        self.indexable_seen = 0
        self._ages: deque[tuple[int, str]] = deque()
        self._by_parent: dict[str, set[str]] = {}
        self.evicted = {"age": 0, "parent": 0, "lru": 0}

    # ------------------------------------------------------------------ gate

    def admit(self, url: str) -> int | None:
        """None when ``url`` may be crawled; else the id of the event whose cap covers it.

        The caller records the refusal (a skipped ``pages`` row) and calls :meth:`refused`.
        """
        if not self.capped_shapes:
            return None
        shape = shape_key(url)
        event_id = self.capped_shapes.get(shape)
        if event_id is None:
            path, query = split_shape(shape)
            variants = self.families.get(path)
            if not variants:
                return None
            values = dict(reversed(query_values(url)))  # the first value of each key
            event_id = next((f.event_id for f in variants if f.covers(query, values)
                             and not self.is_novel(f.shape)), None)
            if event_id is None:
                return None
        if self.is_novel(shape) or (self.allow is not None and self.allow(url)):
            return None
        return event_id

    def is_novel(self, shape: str) -> bool:
        """Has this shape shown mostly new content per page (never gated)?"""
        stats = self.shape_stats.get(shape)
        if stats is None:
            return False
        pages, repeats = (stats[2], stats[3]) if self.noindex_rule else (stats[0], stats[1])
        return pages >= NOVEL_MIN_PAGES and repeats * NOVEL_RATIO <= pages

    @property
    def noindex_rule(self) -> bool:
        """Do ``noindex`` pages count as repeats (and never as novel) by now?"""
        return self.indexable_seen >= NOINDEX_RULE_AFTER

    def refused(self, event_id: int) -> None:
        self.rejected[event_id] = self.rejected.get(event_id, 0) + 1

    @property
    def rejected_total(self) -> int:
        return sum(self.rejected.values())

    # ------------------------------------------------------------------ observe

    def observe(self, url: str, keys: PageKeys, signals: Signals, *,
                declared: str | None = None, indexable: bool = True) -> CapEvent | None:
        """Count one eligible page; return the event if this page caps a cluster.

        ``declared``: the page's declared target (:func:`~nitpicker_query.signals.declared_target`);
        ``indexable``: False when the page says ``noindex`` (meta robots or X-Robots-Tag).
        """
        if self.allow is not None and self.allow(url):
            return None
        self.observations += 1
        self._expire()
        if indexable:
            self.indexable_seen += 1
        meta_repeat = keys.shape_signature in self.sticky or (
            (seen := self.counters.get(keys.shape_signature)) is not None and seen.count > 0)
        repeat = meta_repeat or (self.noindex_rule and not indexable)
        self._count_shape(keys.shape_key, meta_repeat, indexable)
        pairs = query_values(url) if "?" in url else ()
        entries = [(keys.signature, "parent"), (keys.shape_signature, "shape")]
        if declared is not None:
            entries.append((declared_signature(url, declared, keys), "declared"))
        if repeat:
            entries.append((repeat_key(keys.shape_key), "repeat"))
        fired: CapEvent | None = None
        values = [getattr(signals, n) for n in SIGNAL_NAMES]
        for key, kind in entries:
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
                                  self.observations, keys)
                self.counters[key] = counter
                self._ages.append((self.observations, key))
                if bound:
                    self._by_parent.setdefault(keys.parent_key, set()).add(key)
                self._enforce_map_cap()
            else:
                self.counters.move_to_end(key)
            counter.count += 1
            for i, v in enumerate(values):
                counter.signal_counts[i] += v
            if len(counter.shapes) < MAX_SHAPES_PER_COUNTER:
                counter.shapes.add(keys.shape_key)
            counter.add_query(pairs)
            if fired is not None or counter.count <= self._lowest_threshold:
                continue  # no signals can make it fire yet: skip the majority vote
            present = counter.majority()
            trap_score = score(present)
            threshold = effective_threshold(self.cap, trap_score)
            if counter.count > threshold and not all(
                    self.is_novel(shape) for shape in counter.shapes):
                fired = CapEvent(signature=key, kind=kind, shape_key=keys.shape_key,
                                 shapes=set(counter.shapes), sample_url=url,
                                 effective_threshold=threshold, observed_count=counter.count,
                                 trap_score=trap_score, signals={**present, "key": kind},
                                 keys=counter.keys,
                                 qvals=dict(counter.qvals or {}))
        if fired is not None:
            # every counter of the firing page becomes sticky: one cluster, one event
            for key, _ in entries:
                self._forget(key)
            fired.sticky_keys = tuple(k for k, _ in entries)
        return fired

    def _count_shape(self, shape: str, repeat: bool, indexable: bool) -> None:
        stats = self.shape_stats.get(shape)
        if stats is None:
            stats = self.shape_stats[shape] = [0, 0, 0, 0]
            if len(self.shape_stats) > self.stats_cap:
                self.shape_stats.popitem(last=False)
        else:
            self.shape_stats.move_to_end(shape)
        stats[0] += 1
        stats[1] += repeat
        if indexable:
            stats[2] += 1
            stats[3] += repeat

    def record(self, event: CapEvent, event_id: int) -> None:
        """Make ``event`` effective under the id the archive gave it."""
        event.event_id = event_id
        self.events.append(event)
        keys = {event.signature, event.keys.signature, event.keys.shape_signature,
                *event.sticky_keys}
        for key in keys:
            self.sticky.setdefault(key, event_id)
        self._gate(event_id, event.shapes, event.qvals)

    def restore(self, event_id: int, signature: str, shapes: set[str],
                qvals: dict[str, str | None] | None = None) -> None:
        """Resume: a cap recorded in the archive applies again (sticky across runs).

        ``qvals`` None (an event written before query values were recorded): no constant
        is known, so the family covers supersets only.
        """
        self.sticky.setdefault(signature, event_id)
        self._gate(event_id, shapes, qvals)

    def _gate(self, event_id: int, shapes: set[str], qvals: dict[str, str | None] | None) -> None:
        qvals = qvals or {}
        for shape in sorted(shapes):
            self.capped_shapes.setdefault(shape, event_id)
            path, keys = split_shape(shape)
            constants = tuple(sorted((k, v) for k, v in qvals.items()
                                     if k in keys and v is not _VARIED))
            self.families.setdefault(path, []).append(Family(shape, keys, constants, event_id))

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
