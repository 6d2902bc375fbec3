"""What a report sheet is, apart from how it is written: its columns and a stream of
rows. The sheet modules build tables; the writers (xlsx, CSV) only lay them out."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

KINDS = ("text", "url", "int", "bool", "title")
"""``url``: a link where the file format has them; ``title``: a ``(depth, text)`` pair,
the text indented by the page's depth in the site (upstream's Page List does the same)."""


@dataclass(frozen=True)
class Alert:
    """A cell shown in upstream's error colours (white on dark red) when its value
    ``op`` ``value`` — ``op`` one of ``!=``, ``==``, ``<``, ``>=``, ``outside`` (a
    ``(low, high)`` range)."""

    op: str
    value: Any


@dataclass(frozen=True)
class Column:
    header: str
    kind: str = "text"
    width: int = 14
    alerts: tuple[Alert, ...] = ()


@dataclass
class Table:
    """One sheet's columns, how much work its rows are (for progress; exact), and the
    rows.

    ``total`` counts rows unless ``weight`` says what one row stands for: the Referrers
    Relational Table's total is its links, each row a pair weighing the links it
    groups — counting the pairs themselves would be the sheet's GROUP BY done twice."""

    name: str
    columns: Sequence[Column]
    total: int
    rows: Iterator[Sequence[Any]]
    freeze_columns: int = 0
    notes: list[str] = field(default_factory=list)
    unit: str = "rows"
    weight: Callable[[Sequence[Any]], int] | None = None


STATUS_ALERTS = (Alert("outside", (200, 399)),)
"""A status a reader should look at: anything but 2xx and 3xx (upstream's rule)."""
