"""CSV export of a list query's whole result: one definition for ``nitpicker-query
--format csv``, the viewer's ``/api/<query>?format=csv`` and its "Download CSV" links.

The items are read a page of :data:`~nitpicker_query.queries.paging.MAX_LIMIT` at a time and
written as they come, so memory stays bounded by one page whatever the archive's size
(measured in docs/BENCHMARKS.md). The text is RFC 4180: comma-separated, fields quoted
when they hold a comma, a quote or a line break, lines ended by CRLF; UTF-8, with a
byte-order mark on request (spreadsheet programs read UTF-8 correctly only with one).

Every value came from a crawled site: a text cell starting with ``=``, ``+``, ``-``,
``@``, a tab or a carriage return would be run as a formula by a spreadsheet program
(CSV injection), so such a cell gets a leading ``'`` — numbers are written as numbers.
Lists and objects are written as JSON, booleans as ``true``/``false``, null as an
empty field, times (epoch milliseconds in the archive) as local ISO 8601 with the offset.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ..exceptions import InvalidArgument, NotFound
from ..queries.paging import MAX_LIMIT
from ..terminal import is_time, local_time

BOM = "\ufeff"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
CHUNK = MAX_LIMIT


def cell(value: Any, key: str = "") -> Any:
    """One value as a CSV field; a time (``…At``) as local ISO 8601, as tables show it."""
    if value is None:
        return ""
    if is_time(key, value):
        return local_time(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return value
    if isinstance(value, list | dict):
        value = json.dumps(value, ensure_ascii=False)
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def items(function: Callable[..., Any], archive: Any, options: dict[str, Any], *,
          offset: int = 0, most: int | None = None, not_found: str = "Nothing found"
          ) -> Iterator[dict[str, Any]]:
    """Every item of a list query from ``offset`` (at most ``most``), a page at a time;
    ``not_found`` is the error when the query finds nothing to list (no such resource)."""
    left = most
    while left is None or left > 0:
        size = CHUNK if left is None else min(CHUNK, left)
        result = function(archive, **{**options, "limit": size, "offset": offset})
        if result is None:
            raise NotFound(not_found)
        if not isinstance(result, dict) or not isinstance(result.get("items"), list):
            raise InvalidArgument("CSV is for lists; this query returns one object "
                                  "(use --format json)")
        page = result["items"]
        yield from page
        if left is not None:
            left -= len(page)
        if result.get("nextOffset") is None or not page:
            return
        offset = int(result["nextOffset"])


def csv_chunks(rows: Iterator[dict[str, Any]], *, columns: Sequence[str] = (),
               bom: bool = False, first: int = CHUNK) -> Iterator[str]:
    """CSV text of ``rows``, a chunk at a time, the header first.

    The header is ``columns`` followed by every other key of the first ``first`` rows
    (the first page read), in the order they appear; a key seen only later is left out
    (a CSV's columns cannot change after its header)."""
    head: list[dict[str, Any]] = []
    for row in rows:
        head.append(row)
        if len(head) >= first:
            break
    names = [c for c in columns if not head or any(c in r for r in head)]
    for row in head:
        names += [k for k in row if k not in names]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(names)

    def flush() -> str:
        text = buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
        return text

    for row in head:
        writer.writerow([cell(row.get(n), n) for n in names])
    yield (BOM if bom else "") + flush()
    for count, row in enumerate(rows, 1):
        writer.writerow([cell(row.get(n), n) for n in names])
        if count % CHUNK == 0:
            yield flush()
    rest = flush()
    if rest:
        yield rest
