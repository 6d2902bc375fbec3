"""The sheets of ``report --compare OLD``: what changed since an earlier crawl, one sheet
a list of :func:`~nitpicker_query.queries.compare.compare_archives`, after a summary."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from ..archive.opening import Archive
from ..queries.compare import compare_archives
from ..queries.paging import MAX_LIMIT
from .table import STATUS_ALERTS, Column, Table

LISTS: dict[str, tuple[str, tuple[Column, ...]]] = {
    "Changed": ("changed", (Column("URL", "url", 60), Column("Field", width=16),
                            Column("Old", width=40), Column("New", width=40))),
    "Added": ("added", (Column("URL", "url", 60), Column("Status", "int", 8, STATUS_ALERTS),
                        Column("Title", width=40), Column("Linked From", "url", 60))),
    "Removed": ("removed", (Column("URL", "url", 60), Column("Reason", width=18),
                            Column("Old Status", "int", 10),
                            Column("New Status", "int", 10, STATUS_ALERTS),
                            Column("Redirects To", "url", 60))),
    "Not Comparable": ("not-comparable", (Column("URL", "url", 60), Column("Side", width=10),
                                          Column("Reason", width=50))),
    "Broken Link Changes": ("broken-links", (Column("Change", width=8),
                                             Column("Source", "url", 60),
                                             Column("Target", "url", 60),
                                             Column("Status", "int", 8, STATUS_ALERTS))),
    "Cluster Changes": ("clusters", (Column("Change", width=8), Column("Kind", width=18),
                                     Column("Shape", width=60), Column("Count", "int", 8))),
}
"""Sheet → (list, columns), in the workbook's order after Changes Summary."""

SHEET_NAMES = ("Changes Summary", *LISTS)


def _cell(value: Any) -> Any:
    return value if value is None or isinstance(value, int | str) else str(value)


def summary(a: Archive, old: Archive) -> Table:
    """Each crawl, whether they compare, and how many rows each list holds."""
    s = compare_archives(a, old=old)
    rows: list[Sequence[Any]] = []
    for side in ("old", "new"):
        crawl = s[side]
        rows += [(f"{side}: archive", crawl["archive"]), (f"{side}: format", crawl["format"]),
                 (f"{side}: stop reason", crawl["stopReason"]),
                 (f"{side}: HTML pages", crawl["htmlPages"])]
    rows.append(("comparable", "yes" if s["comparable"] else "no"))
    rows += [("note", note) for note in s["notes"]]
    rows += [(f"rows: {kind}", n) for kind, n in s["counts"].items()]
    rows += [(f"changed field: {field}", n) for field, n in s["changedFields"].items()]
    return Table("Changes Summary", (Column("Item", width=30), Column("Value", width=80)),
                 len(rows), iter(rows))


def listing(a: Archive, old: Archive, name: str) -> Table:
    """One list, every row, read a page at a time."""
    kind, columns = LISTS[name]
    first = compare_archives(a, old=old, kind=kind, limit=MAX_LIMIT)

    def rows() -> Iterator[Sequence[Any]]:
        page = first
        while True:
            for item in page["items"]:
                yield tuple(_cell(v) for v in item.values())
            if page["nextOffset"] is None:
                return
            page = compare_archives(a, old=old, kind=kind, limit=MAX_LIMIT,
                                    offset=page["nextOffset"])

    return Table(name, columns, first["total"], rows())
