"""What content the crawl has already seen, in bounded memory: per-key Bloom filters and
a site-chrome filter (the soft cap's content rules, docs/soft-cap.md).

A URL shape or an entity may produce thousands of pages of thousands of blocks each; a
set of hashes per key would grow with the site. Instead each key holds a Bloom filter of
fixed size, in two generations (when the current one has taken :attr:`BlockMemory.per_generation`
blocks it becomes the previous one and a fresh one starts), so the false-positive rate
stays bounded however much a key sees, and what a key saw recently is always remembered.
The keys themselves are LRU-bounded. A false positive can only make a block look *seen*:
the rules that act on "nothing new" (content repeat) need every block of a page to be
seen, which three or more false positives in a row make vanishingly rare.
"""

from __future__ import annotations

import zlib
from collections import OrderedDict
from collections.abc import Iterable, Iterator

_HASHES = 3


class _Bloom:
    __slots__ = ("bits", "count", "mask")

    def __init__(self, nbits: int) -> None:
        self.bits = bytearray(nbits // 8)
        self.count = 0
        self.mask = nbits - 1

    def positions(self, h: int) -> tuple[int, int, int]:
        m = self.mask
        return h & m, (h >> 21) & m, (h >> 42) & m

    def __contains__(self, h: int) -> bool:
        b = self.bits
        return all(b[p >> 3] >> (p & 7) & 1 for p in self.positions(h))

    def add(self, h: int) -> None:
        b = self.bits
        for p in self.positions(h):
            b[p >> 3] |= 1 << (p & 7)
        self.count += 1


class BlockMemory:
    """Key → the blocks its pages had (approximately: two Bloom generations per key)."""

    def __init__(self, *, keys: int, nbits: int, per_generation: int) -> None:
        if nbits & (nbits - 1) or nbits < 64:
            raise ValueError("nbits must be a power of two, at least 64")
        self.max_keys = keys
        self.nbits = nbits
        self.per_generation = per_generation
        self._filters: OrderedDict[str, list[_Bloom]] = OrderedDict()

    def __contains__(self, key: str) -> bool:
        return key in self._filters

    def __len__(self) -> int:
        return len(self._filters)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._filters))

    def unseen(self, key: str, blocks: Iterable[int]) -> int | None:
        """How many of ``blocks`` the key has not seen; None when the key saw nothing yet."""
        found = self.unseen_of(key, blocks)
        return None if found is None else len(found)

    def unseen_of(self, key: str, blocks: Iterable[int]) -> set[int] | None:
        """Which of ``blocks`` the key has not seen; None when the key saw nothing yet."""
        gens = self._filters.get(key)
        if gens is None:
            return None
        self._filters.move_to_end(key)
        return {h for h in blocks if not any(h in g for g in gens)}

    def add(self, key: str, blocks: Iterable[int]) -> None:
        gens = self._filters.get(key)
        if gens is None:
            gens = self._filters[key] = [_Bloom(self.nbits)]
            if len(self._filters) > self.max_keys:
                self._filters.popitem(last=False)
        current = gens[-1]
        for h in blocks:
            if current.count >= self.per_generation:
                current = _Bloom(self.nbits)
                gens[:] = [gens[-1], current]
            current.add(h)

    @property
    def nbytes(self) -> int:
        """Bytes held by the filters (for the memory benchmark)."""
        return sum(len(g.bits) for gens in self._filters.values() for g in gens)


class ChromeFilter:
    """Blocks that appear under many URL shapes are the site's chrome (header, menus,
    footer, sidebars), not a page's content: decided from the pages, not from markup.

    Each block remembers the last shape it was seen under and how many times the shape
    changed (an upper bound of the distinct shapes, exact when shapes come in runs); a
    block seen under :attr:`shapes` or more is chrome. At most ``max_blocks`` blocks are
    remembered, the oldest forgotten first.
    """

    def __init__(self, *, shapes: int = 8, max_blocks: int = 100_000) -> None:
        self.shapes = shapes
        self.max_blocks = max_blocks
        self._seen: dict[int, int] = {}  # block → (shape tag << 8) | changes

    def content(self, blocks: Iterable[int], shape: str) -> frozenset[int]:
        """Count ``blocks`` as seen under ``shape``; return those that are not chrome."""
        tag = zlib.crc32(shape.encode("utf-8", "replace"))
        seen = self._seen
        kept = []
        for h in blocks:
            value = seen.get(h)
            if value is None:
                seen[h] = (tag << 8) | 1
                kept.append(h)
                continue
            changes = value & 0xFF
            if value >> 8 != tag and changes < 255:
                changes += 1
                seen[h] = (tag << 8) | changes
            if changes < self.shapes:
                kept.append(h)
        if len(seen) > self.max_blocks:
            for key in list(seen)[: len(seen) - self.max_blocks + self.max_blocks // 10]:
                del seen[key]
        return frozenset(kept)
