"""The soft cap (``--dedupe-cap N``): recognise trap clusters while crawling, stop feeding them.

Every eligible internal page is *observed* twice: under its signature (parent key + meta)
and under its shape signature (URL shape + meta) — one counter each (seed 000 §1, §3;
keys and signals from :mod:`nitpicker_query.keys` / :mod:`nitpicker_query.signals`, the
same functions the duplicate-cluster queries use). A counter remembers how many pages it
saw, how many of them showed each signal, and which URL shapes its pages had. When a
count **exceeds** its effective threshold (N, ``ceil(0.3 N)`` when the cluster looks like a
trap, ``5 N`` when it looks legit; signals by majority) the cluster is *capped*:

- its shape keys join the capped set: from then on a URL whose shape key is one of them
  is refused by :meth:`SoftCap.admit` — when found as a link, or when it comes up in the
  queue. Never by parent path alone: ``/index.php?title=Article`` keeps being crawled
  while ``/index.php?title=…&action=history&oldid=…`` is capped;
- a :class:`CapEvent` is returned for the audit table; each refused URL is credited to
  the first event whose shapes it matches (``rejected``).

Memory stays bounded by four mechanisms (seed 000 §4; units as DESIGN.md §4):

(a) a capped counter moves to the sticky set (``sticky``: signature → event id) and
    leaves the counter map;
(b) a counter not capped within ``age_window`` observations of its first one is dropped
    — traps accelerate inside the window, legit look-alikes spread over the crawl restart
    from zero instead of firing late;
(c) when no URL of a parent key is pending (queued or in flight), the counters of that
    parent key are dropped (:meth:`parent_idle`);
(d) the counter map holds at most ``map_cap`` counters, least recently used evicted first.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from dataclasses import dataclass, field
from typing import Any

from nitpicker_query.keys import PageKeys, shape_key
from nitpicker_query.signals import SIGNAL_NAMES, Signals, effective_threshold, score

MAX_SHAPES_PER_COUNTER = 32
"""Distinct URL shapes a counter remembers (a cluster rarely has more than a few)."""


@dataclass
class Counter:
    """One signature's (or shape signature's) running tally."""

    key: str
    kind: str                    # "parent" (signature) or "shape" (shape signature)
    parent_key: str
    first_seen: int              # observation number of its first page
    keys: PageKeys               # the first page's keys (meta for the audit row)
    count: int = 0
    signal_counts: list[int] = field(default_factory=lambda: [0] * len(SIGNAL_NAMES))
    shapes: set[str] = field(default_factory=set)

    def majority(self) -> dict[str, bool]:
        return {name: 2 * n >= self.count for name, n in zip(SIGNAL_NAMES, self.signal_counts,
                                                             strict=True)}


@dataclass
class CapEvent:
    """What one cap writes to ``dedupe_cap_events`` (column names of ARCHIVE-FORMAT §7.2)."""

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
    event_id: int | None = None

    def row(self) -> dict[str, Any]:
        return {
            "shape_key": self.shape_key, "sample_url": self.sample_url, "body_hash": None,
            "effective_threshold": self.effective_threshold,
            "observed_count": self.observed_count, "rejected_count": None,
            "signature": self.signature, "parent_path": self.keys.parent_path,
            "title": self.keys.title, "description": self.keys.description,
            "og_title": self.keys.og_title, "og_url": self.keys.og_url,
            "trap_score": float(self.trap_score), "signals": self.signals,
        }


class SoftCap:
    """The tracker. ``observe`` scraped pages, ``admit`` URLs before queueing or fetching."""

    def __init__(self, cap: int, *, age_window: int = 5000, map_cap: int = 100_000) -> None:
        if cap < 1 or age_window < 1 or map_cap < 2:
            raise ValueError("cap, age window and map cap must be positive")
        self.cap = cap
        self.age_window = age_window
        self.map_cap = map_cap
        self.counters: OrderedDict[str, Counter] = OrderedDict()   # LRU order
        self.sticky: dict[str, int] = {}          # capped (shape) signature → event id
        self.capped_shapes: dict[str, int] = {}   # URL shape key → event id (first wins)
        self.rejected: dict[int, int] = {}        # event id → URLs refused this run
        self.events: list[CapEvent] = []
        self.observations = 0
        self._ages: deque[tuple[int, str]] = deque()
        self._by_parent: dict[str, set[str]] = {}
        self.evicted = {"age": 0, "parent": 0, "lru": 0}

    # ------------------------------------------------------------------ gate

    def admit(self, url: str) -> int | None:
        """None when ``url`` may be crawled; else the id of the event that capped its shape.

        The caller records the refusal (a skipped ``pages`` row) and calls :meth:`refused`.
        """
        if not self.capped_shapes:
            return None
        return self.capped_shapes.get(shape_key(url))

    def refused(self, event_id: int) -> None:
        self.rejected[event_id] = self.rejected.get(event_id, 0) + 1

    @property
    def rejected_total(self) -> int:
        return sum(self.rejected.values())

    # ------------------------------------------------------------------ observe

    def observe(self, url: str, keys: PageKeys, signals: Signals) -> CapEvent | None:
        """Count one eligible page; return the event if this page caps its cluster."""
        self.observations += 1
        self._expire()
        fired: CapEvent | None = None
        values = [getattr(signals, n) for n in SIGNAL_NAMES]
        for key, kind in ((keys.signature, "parent"), (keys.shape_signature, "shape")):
            if key in self.sticky:
                continue
            counter = self.counters.get(key)
            if counter is None:
                counter = Counter(key, kind, keys.parent_key, self.observations, keys)
                self.counters[key] = counter
                self._ages.append((self.observations, key))
                self._by_parent.setdefault(keys.parent_key, set()).add(key)
                self._enforce_map_cap()
            else:
                self.counters.move_to_end(key)
            counter.count += 1
            for i, v in enumerate(values):
                counter.signal_counts[i] += v
            if len(counter.shapes) < MAX_SHAPES_PER_COUNTER:
                counter.shapes.add(keys.shape_key)
            present = counter.majority()
            trap_score = score(present)
            threshold = effective_threshold(self.cap, trap_score)
            if fired is None and counter.count > threshold:
                fired = CapEvent(signature=key, kind=kind, shape_key=keys.shape_key,
                                 shapes=set(counter.shapes), sample_url=url,
                                 effective_threshold=threshold, observed_count=counter.count,
                                 trap_score=trap_score, signals={**present, "key": kind},
                                 keys=counter.keys)
        if fired is not None:
            # both counters of the firing page become sticky: one cluster, one event
            for key in (keys.signature, keys.shape_signature):
                self._forget(key)
        return fired

    def record(self, event: CapEvent, event_id: int) -> None:
        """Make ``event`` effective under the id the archive gave it."""
        event.event_id = event_id
        self.events.append(event)
        for key in (event.signature, event.keys.signature, event.keys.shape_signature):
            self.sticky.setdefault(key, event_id)
        for shape in sorted(event.shapes):
            self.capped_shapes.setdefault(shape, event_id)

    def restore(self, event_id: int, signature: str, shapes: set[str]) -> None:
        """Resume: a cap recorded in the archive applies again (sticky across runs)."""
        self.sticky.setdefault(signature, event_id)
        for shape in sorted(shapes):
            self.capped_shapes.setdefault(shape, event_id)

    # ------------------------------------------------------------------ memory

    def _forget(self, key: str) -> None:
        counter = self.counters.pop(key, None)
        if counter is not None:
            keys = self._by_parent.get(counter.parent_key)
            if keys is not None:
                keys.discard(key)
                if not keys:
                    del self._by_parent[counter.parent_key]

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
        """(c) nothing of this parent key is pending any more: drop its counters."""
        for key in list(self._by_parent.get(parent_key, ())):
            self._forget(key)
            self.evicted["parent"] += 1
