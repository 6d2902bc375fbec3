"""Mirror axes: a URL path segment whose values mirror a part of the site
(``/en/…`` and ``/ja/…``, ``/us/…`` and ``/uk/…``), found without knowing any language
or country code.

For every segment position, pages are grouped by their path *skeleton* (the path with
that segment blanked: ``*/about``); a skeleton seen with two or more values there is a
page that exists in several variants. A real axis repeats the *same* value set over
many skeletons (every page of the site exists in ``en`` and ``ja``), while sibling
pages that merely share a parent (``/products/red``, ``/products/blue``) give one
skeleton per set. The self-tuning cut on the repeat counts separates the two.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from .similarity import auto_cut_threshold

MAX_AXIS_VALUES = 50
"""Most values of one axis: more variants of one page are items (a catalogue's
products), not mirrors of the site."""

MIN_AXIS_SKELETONS = 3
"""Fewest distinct pages an axis must mirror: two pages in two variants can be chance."""

MAX_POSITION = 4
"""Deepest segment considered (an axis sits near the root: ``/en/``, ``/shop/us/``)."""

PLACEHOLDER = "{mirror}"
"""What an axis value becomes in a normalised path or href."""

_DIGITS = re.compile(r"\d+")


@dataclass(frozen=True)
class MirrorAxis:
    """Segment ``position`` (0-based) takes one of ``values`` across ``skeletons``
    distinct mirrored pages."""

    position: int
    values: tuple[str, ...]
    skeletons: int


def detect_mirror_axis(paths: Iterable[Sequence[str]]) -> MirrorAxis | None:
    """The site's mirror axis from its pages' path segments, or None when it has none.

    Digit runs in the other segments are one value in a skeleton (``*/news/#``): numbered
    pages are one page *shape*, so two sections that happen to share page numbers
    (``/press/page/12``, ``/products/page/12``) repeat over one skeleton, not many.
    """
    values: dict[tuple[int, tuple[str, ...]], set[str]] = defaultdict(set)
    for path in paths:
        segments = [str(s) for s in path]
        shape = [_DIGITS.sub("#", s) for s in segments]
        for i in range(min(len(segments), MAX_POSITION)):
            skeleton = (*shape[:i], "*", *shape[i + 1:])
            seen = values[(i, skeleton)]
            if len(seen) <= MAX_AXIS_VALUES:
                seen.add(segments[i])
    repeats: Counter[tuple[int, frozenset[str]]] = Counter()
    for (i, _skeleton), seen in values.items():
        if 2 <= len(seen) <= MAX_AXIS_VALUES and not all(_DIGITS.fullmatch(v) for v in seen):
            repeats[(i, frozenset(seen))] += 1
    if not repeats:
        return None
    cut = auto_cut_threshold(list(repeats.values()))
    best_count = max(repeats.values())
    if best_count < MIN_AXIS_SKELETONS or (cut is not None and best_count <= cut):
        return None
    (position, _values), _n = min(repeats.items(), key=lambda kv: (-kv[1], kv[0][0],
                                                                 sorted(kv[0][1])))
    # partial mirrors (a page missing in one language) give subsets of the axis: take the
    # union of the sets at that position that also stand above the cut
    floor = max(MIN_AXIS_SKELETONS, cut if cut is not None else 0)
    axis_values: set[str] = set()
    count = 0
    for (i, value_set), n in repeats.items():
        if i == position and n >= floor:
            axis_values |= value_set
            count += n
    return MirrorAxis(position, tuple(sorted(axis_values)), count)


def normalize_path_by_mirror_axis(path: Sequence[str], axis: MirrorAxis | None) -> list[str]:
    """Path segments with the axis value replaced by :data:`PLACEHOLDER`, so mirrors of
    one page share one path (``en/about`` and ``ja/about`` → ``{mirror}/about``)."""
    segments = [str(s) for s in path]
    if axis is not None and axis.position < len(segments) and \
            segments[axis.position] in axis.values:
        segments[axis.position] = PLACEHOLDER
    return segments


def normalize_href_by_mirror_axis(href: str, axis: MirrorAxis | None) -> str:
    """A URL (a stylesheet href) with the axis segment of its path normalised:
    ``/ja/css/site.css`` and ``/en/css/site.css`` become one stylesheet. Scheme, host
    and query are kept; an href that cannot be parsed is returned as it is."""
    if axis is None:
        return href
    try:
        parts = urlsplit(href)
    except ValueError:
        return href
    leading = parts.path.startswith("/")
    segments = [s for s in parts.path.split("/") if s]
    normalised = normalize_path_by_mirror_axis(segments, axis)
    if normalised == segments:
        return href
    path = ("/" if leading else "") + "/".join(normalised) + \
        ("/" if parts.path.endswith("/") else "")
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, parts.fragment))
