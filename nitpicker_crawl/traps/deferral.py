"""Defer before refusing: a suspected trap cluster waits, and its own pages decide.

The soft cap's counters (:mod:`nitpicker_crawl.traps.softcap`) read loose evidence: meta that
repeats, content that repeats beyond its numbers, views of entities already seen. Such
evidence is enough to *suspect* a cluster — a shop whose 150 products share one CMS
title and og:url, carry codes and prices and nothing else, looks like a calendar trap by
every one of those rules — and not enough to lose its pages. So a cap is a **suspicion**,
and the verdict is given per URL shape of the URLs it holds back:

1. *Suspect.* The cluster's URLs are not fetched now: each one is recorded at once as a
   skipped page (``skipReason = 'dedupe-cap'``, its event in ``meta_extras.capEvent``), so
   a stop at any moment loses nothing, and it waits behind the rest of the site.
2. *Probe.* When nothing else is left to crawl, up to :data:`PROBES` waiting URLs of each
   waiting shape are fetched (at most :data:`SHAPES_PER_ROUND` shapes of a cluster per
   round, those with most URLs waiting first) — the first, the middle and the last to
   arrive: a real page is met early, a trap's depth late.
3. *Verdict.* A probe is **informative** when it brings content neither its path nor
   any other page of the crawl had shown: at least one content block, and one in
   :data:`NEW_SHARE` of its blocks, unseen in exact form once the URL's *own*
   values are masked and the texts of links to its own path left out, and on no other
   probe of its shape in the round (a line every such page prints is their template) —
   ``?from=2019-03-05`` printing "from 2019-03-05" brings nothing; "Product ZR-71529"
   and "Price 47.99 EUR" on ``/product/48213`` do — on a page that does not say
   ``noindex``. One informative probe **releases** its shape: its waiting URLs are
   queued again. None: the shape is
   **refused**, its rows stay skipped, and its URLs met later go straight to rows.
4. *Budget.* A released shape may grow: every URL of it newly met afterwards spends its
   budget — the URLs that waited plus the cap's threshold, doubled at each release. Spent,
   the shape is suspect again and probed again when the site is done; after
   :data:`MAX_ROUNDS` releases it is refused without more probes. So a trap whose every
   page looks new (a random quote per URL) costs a bounded number of pages, and every
   capped crawl still ends by itself.

Every case keeps its evidence — each round's probes with their new and total blocks, the
shapes released and refused — which the crawler writes into the event's ``signals``
(``verdict``, ``verdicts`` by shape, ``rounds``): the answer to "why was this refused?"
(docs/soft-cap.md).

Bounded memory: a case judges at most :data:`MAX_SHAPES` shapes (the rest share one
verdict), holds at most ``PROBES × SHAPES_PER_ROUND`` probes at a time and keeps the
evidence of at most :data:`MAX_HISTORY` rounds; the waiting URLs themselves live in the
archive, not here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

PROBES = 3
"""Waiting URLs fetched per shape and round."""
SHAPES_PER_ROUND = 8
"""Shapes of one cluster probed in one round (the others wait for the next)."""
MAX_SHAPES = 64
"""Shapes a case judges apart; beyond them the rest share the verdict of ``*``."""
MAX_ROUNDS = 3
"""Releases of one shape before it is refused without probing (the budget's bound)."""
MAX_HISTORY = 12
"""Rounds whose evidence a case keeps (the first ones: what decided)."""
NEW_SHARE = 4
"""An informative probe has at least one new block and one in NEW_SHARE of its blocks new
(a file at an old revision, a few changed lines among hundreds, is not; a product page of
four blocks whose code and price are new is)."""

SUSPECT, PROBING, RELEASED, REFUSED = "suspect", "probing", "released", "refused"
OTHER = "*"


@dataclass
class Probe:
    """One waiting URL fetched to judge its shape."""

    url: str
    shape: str
    blocks: int | None = None   # content blocks it had (None: not read — failed, not HTML …)
    new: int = 0                # of them, unseen on its path (URL's own values masked)
    fresh: frozenset[int] = frozenset()  # those blocks (a round discounts what probes share)
    noindex: bool = False
    view: bool = False          # judged against its entity (numbers masked) when it has one

    @property
    def informative(self) -> bool:
        return (self.blocks is not None and not self.noindex and self.new >= 1
                and self.new * NEW_SHARE >= self.blocks)

    def evidence(self) -> dict[str, Any]:
        return {"url": self.url, "shape": self.shape, "blocks": self.blocks,
                "newBlocks": self.new, "noindex": self.noindex,
                "informative": self.informative}


@dataclass
class Verdict:
    """Where one URL shape of a case stands."""

    state: str = SUSPECT
    releases: int = 0
    budget: int = 0              # URLs newly met it may still admit while released


@dataclass
class Case:
    """One cap event's story: its shapes suspect, probed, released or refused."""

    event_id: int
    threshold: int
    whole: bool = False          # one verdict for all its URLs (copy and view caps)
    view: bool = False           # views of entities: probes weigh what their entity showed
    shapes: dict[str, Verdict] = field(default_factory=dict)
    probes: list[Probe] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)
    current: dict[str, Any] = field(default_factory=dict)   # the running round's record

    def verdict(self, shape: str) -> Verdict:
        found = self.shapes.get(shape)
        if found is None:
            key = shape if len(self.shapes) < MAX_SHAPES else OTHER
            found = self.shapes.setdefault(key, Verdict())
        return found

    @property
    def probing(self) -> bool:
        return bool(self.probes)

    def evidence(self, *, complete: bool = False) -> dict[str, Any]:
        """What the event's ``signals`` say about its verdict: ``released`` or ``refused``
        (every shape judged alike), ``partly released``, ``pending`` (URLs still wait: the
        crawl stopped before the site was done) or ``unused`` (it held nothing back)."""
        states = {v.state for v in self.shapes.values()}
        if complete:   # the site is done: no URL of a shape still suspect waits
            states = {RELEASED if v.releases and v.state in (SUSPECT, PROBING) else v.state
                      for v in self.shapes.values()} - {SUSPECT, PROBING}
        if states & {SUSPECT, PROBING}:
            verdict = "pending"
        elif not states:
            verdict = "unused" if complete else "pending"
        elif states == {RELEASED}:
            verdict = RELEASED
        elif states == {REFUSED}:
            verdict = REFUSED
        else:
            verdict = "partly released"
        return {"verdict": verdict,
                "verdicts": {s: v.state for s, v in sorted(self.shapes.items())},
                "rounds": list(self.history)}


class Deferral:
    """The cases of a crawl's cap events (:mod:`nitpicker_crawl.traps.softcap` asks it at its
    gate). ``shape_of(url)`` is the URL shape verdicts are kept by."""

    def __init__(self, shape_of: Callable[[str], str]) -> None:
        self.shape_of = shape_of
        self.cases: dict[int, Case] = {}
        self.probing: dict[str, Probe] = {}   # URL → its probe, while its round runs

    def open(self, event_id: int, threshold: int, evidence: dict[str, Any] | None = None,
             *, whole: bool = False, view: bool = False) -> Case:
        """A new cap, or one restored on ``--resume`` with the evidence it had: a
        released shape resumes with a fresh budget, a refused one stays refused.
        ``whole``: the cap's gate is one family across paths (a copy family's extra keys
        on every article, a view on every entity), judged as one — probing each path's
        shape would cost more than the family. ``view``: a view across entities (a file at
        every revision, a directory in every order): a probe is weighed against what its
        entity showed, its numbers masked — a revision's ids, dates and sizes are the view's
        coordinates, its words what it would add."""
        case = Case(event_id, max(1, threshold), whole, view)
        evidence = evidence or {}
        rounds = evidence.get("rounds")
        if isinstance(rounds, list):
            case.history = [r for r in rounds if isinstance(r, dict)][:MAX_HISTORY]
        shapes = evidence.get("verdicts")
        if isinstance(shapes, dict):
            for shape, state in list(shapes.items())[:MAX_SHAPES]:
                verdict = case.verdict(str(shape))
                if state == REFUSED:
                    verdict.state = REFUSED
                elif state == RELEASED:
                    verdict.state, verdict.releases = RELEASED, 1
                    verdict.budget = self._budget(case, verdict, 0)
        self.cases[event_id] = case
        return case

    def passes(self, url: str, event_id: int, *, spend: bool = True) -> bool:
        """May ``url``, covered by ``event_id``'s cap, be fetched now? A probe may; a URL
        of a released shape may while its budget lasts (spent when ``spend``)."""
        if url in self.probing:
            return True
        case = self.cases.get(event_id)
        if case is None:
            return False
        verdict = case.verdict(self.key(case, url))
        if verdict.state != RELEASED:
            return False
        if not spend:
            return True
        if verdict.budget > 0:
            verdict.budget -= 1
            return True
        verdict.state = SUSPECT  # grown past its budget: suspect again, probed when idle
        return False

    def key(self, case: Case, url: str) -> str:
        """What ``url`` is judged as under ``case``: its shape, or the whole family."""
        return OTHER if case.whole else self.shape_of(url)

    def idle(self) -> list[Case]:
        """Cases not in a round: any may have waiting URLs of a shape still to judge."""
        return [c for c in self.cases.values() if not c.probing]

    def running(self) -> list[Case]:
        return [c for c in self.cases.values() if c.probing]

    def start(self, case: Case, urls: list[str]) -> tuple[list[str], list[str]]:
        """Begin a round over the waiting ``urls`` (in the order they arrived): the probes
        to fetch, and the shapes refused now without probes (released too often)."""
        by_shape: dict[str, list[str]] = {}
        for url in urls:
            shape = self.key(case, url)
            key = shape if shape in case.shapes or len(case.shapes) < MAX_SHAPES else OTHER
            by_shape.setdefault(key, []).append(url)
        spent: list[str] = []
        candidates = []
        for shape, members in by_shape.items():
            verdict = case.verdict(shape)
            if verdict.state != SUSPECT:
                continue
            if verdict.releases >= MAX_ROUNDS:
                verdict.state = REFUSED
                spent.append(shape)
                continue
            candidates.append((len(members), shape))
        candidates.sort(key=lambda c: -c[0])
        picks: list[str] = []
        for _, shape in candidates[:SHAPES_PER_ROUND]:
            case.verdict(shape).state = PROBING
            for url in spread(by_shape[shape], PROBES):
                probe = Probe(url, shape, view=case.view)
                case.probes.append(probe)
                self.probing[url] = probe
                picks.append(url)
        if picks or spent:
            case.current = self._record(case, {"waiting": len(urls), "probes": []},
                                        spent=spent)
        return picks, spent

    def read(self, url: str, *, blocks: int, new: frozenset[int], indexable: bool,
             entity_new: frozenset[int] | None = None, known: bool = True) -> None:
        """What a fetched page brought, when it is a probe (``known``: its content was
        read at all; ``new``: its blocks no page of its path, nor of the site, showed;
        ``entity_new``: a view's blocks new to its entity and to the site, every token
        with a digit masked, None when its entity was never seen)."""
        probe = self.probing.get(url)
        if probe is not None:
            probe.blocks = blocks if known else None
            probe.fresh = entity_new if probe.view and entity_new is not None else new
            probe.new = len(probe.fresh)
            probe.noindex = not indexable

    def conclude(self, case: Case) -> tuple[list[str], list[str]]:
        """The round's verdicts once its probes are done: shapes released, refused."""
        released: list[str] = []
        refused: list[str] = []
        for probe in case.probes:
            self.probing.pop(probe.url, None)
        _discount_shared(case.probes)
        for shape in dict.fromkeys(p.shape for p in case.probes):
            good = any(p.informative for p in case.probes if p.shape == shape)
            case.verdict(shape).state = RELEASED if good else REFUSED
            (released if good else refused).append(shape)
        record = case.current
        record["probes"] = [p.evidence() for p in case.probes]
        record["verdicts"] = {**record.get("verdicts", {}), **{s: RELEASED for s in released},
                              **{s: REFUSED for s in refused}}
        case.probes = []
        return released, refused

    def release(self, case: Case, waiting: dict[str, int]) -> None:
        """Released shapes go back to the queue (``waiting``: how many URLs of each) and
        may grow a budget."""
        for shape, count in waiting.items():
            verdict = case.verdict(shape)
            verdict.budget = self._budget(case, verdict, count)
            verdict.releases += 1

    @staticmethod
    def _budget(case: Case, verdict: Verdict, waiting: int) -> int:
        return waiting + case.threshold * (1 << verdict.releases)

    @staticmethod
    def _record(case: Case, record: dict[str, Any], *, spent: list[str]) -> dict[str, Any]:
        record["round"] = len(case.history) + 1
        if spent:
            record["verdicts"] = {s: REFUSED for s in spent}
            record["why"] = f"released {MAX_ROUNDS} times already: its budget is spent"
        if len(case.history) < MAX_HISTORY:
            case.history.append(record)
        return record


def _discount_shared(probes: list[Probe]) -> None:
    """A block new on two probes of one shape is the shape's template, not what its pages
    bring: every old revision of a file says "last change on this file since # was #",
    which the page at the newest one never said — nor did any page the crawl let through,
    when every such page waited. A product's code and price are on its page alone."""
    by_shape: dict[str, list[Probe]] = {}
    for probe in probes:
        by_shape.setdefault(probe.shape, []).append(probe)
    for members in by_shape.values():
        seen: dict[int, int] = {}
        for probe in members:
            for block in probe.fresh:
                seen[block] = seen.get(block, 0) + 1
        for probe in members:
            probe.new = sum(1 for block in probe.fresh if seen[block] == 1)


def spread(items: list[str], n: int) -> list[str]:
    """Up to ``n`` of ``items`` spread over the list: the first, the last, between them."""
    if len(items) <= n:
        return list(items)
    if n == 1:
        return [items[0]]
    step = (len(items) - 1) / (n - 1)
    return [items[round(i * step)] for i in range(n)]
