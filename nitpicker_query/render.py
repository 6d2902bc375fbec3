"""Renderers of one query result: JSON, JSON lines, or a table for people.

A list result (``{items, total, …}``) renders as one row per item; any other object as
key/value rows. JSON and JSONL are complete and exact, for piping (``NaN`` and
``Infinity``, which JSON has no word for, become ``null``; a BLOB where text belongs,
text: :func:`~nitpicker_query.values.jsonable`). Tables are for reading in a
terminal, so they fit its width: long columns are narrowed, the widest first (URLs and
keys wrap onto more lines, other text is cut with ``…``), a column empty in every row is
left out, times
are local ISO 8601, control characters are shown escaped (an archive is a stranger's
file), and a table that shows part of a list says how to see the rest.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from tabulate import tabulate

from .terminal import escape, fit, local_time
from .values import jsonable

FORMATS = ("json", "table", "jsonl", "csv")
"""``csv`` is written by :mod:`nitpicker_query.export`, not by :func:`render`."""
MIN_COLUMN = 8
"""Narrowest a cut column gets (``http://…`` still says what it was)."""
_GAP = 2  # tabulate's "simple" format puts two spaces between columns


def is_list_result(result: Any) -> bool:
    return isinstance(result, dict) and "items" in result and "total" in result


def _dumps(value: Any, pretty: bool = False) -> str:
    try:
        return _dumps_strict(value, pretty)
    except (ValueError, TypeError):  # NaN, Infinity, bytes: rare, so only then walk it
        return _dumps_strict(jsonable(value), pretty)


def _dumps_strict(value: Any, pretty: bool) -> str:
    if pretty:
        return json.dumps(value, ensure_ascii=False, indent=2, allow_nan=False)
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def is_time(key: str, value: Any) -> bool:
    """Is this an epoch-milliseconds time (``firstCrawledAt``, ``createdAt`` …)?"""
    return (key.endswith("At") or key.endswith("_at")) and isinstance(value, int | float) \
        and not isinstance(value, bool) and 1e11 < value < 1e14


def _cell(value: Any, key: str = "") -> str:
    """One value as table text: escaped, on one line, times in local ISO 8601."""
    if value is None:
        return ""
    if is_time(key, value):
        return local_time(value)
    text = value if isinstance(value, str) else _dumps(value)
    return escape(text)


def render(result: Any, fmt: str, out: TextIO, *, pretty: bool = False,
           columns: tuple[str, ...] = (), width: int = 100, text_field: str | None = None,
           limit_flag: str | None = None) -> None:
    """Write ``result`` to ``out`` in ``fmt`` (one of :data:`FORMATS`).

    Table options: ``columns`` limits which item keys a list shows (JSON formats are
    always complete); ``width`` is the terminal's; ``text_field`` names a field shown
    whole as text (the ``html`` query's source); ``limit_flag`` is the flag that widens
    nested lists such as ``page-detail``'s links.
    """
    if fmt == "json":
        out.write(_dumps(result, pretty) + "\n")
    elif fmt == "jsonl":
        if is_list_result(result):
            for item in result["items"]:
                out.write(_dumps(item) + "\n")
        else:
            out.write(_dumps(result) + "\n")
    elif fmt == "table":
        out.write(table(result, columns, width=width, text_field=text_field,
                        limit_flag=limit_flag) + "\n")
    else:  # pragma: no cover - argparse restricts the choices
        raise ValueError(fmt)


def table(result: Any, columns: tuple[str, ...] = (), *, width: int = 100,
          text_field: str | None = None, limit_flag: str | None = None) -> str:
    """The table text of one result, no line wider than ``width``."""
    if is_list_result(result):
        items = result["items"]
        extra = {k: v for k, v in result.items()
                 if k not in ("items", "total", "limit", "offset", "nextOffset")}
        lines = [fit(f"{k}: {_cell(v, k)}", width) for k, v in extra.items()]
        if items and isinstance(items[0], dict):
            headers = [c for c in columns if c in items[0]] or list(items[0])
            headers = headers[:1] + [h for h in headers[1:]
                                     if any(item.get(h) not in (None, "") for item in items)]
            lines.append(_grid(headers, [[_cell(item.get(h), h) for h in headers]
                                         for item in items], width))
        elif items:
            lines.append(_grid(["value"], [[_cell(i)] for i in items], width))
        lines.append(_list_footer(len(items), result["total"], result.get("offset") or 0,
                                  result.get("nextOffset"), "--offset"))
        return "\n".join(lines)
    if isinstance(result, dict):
        if text_field and isinstance(result.get(text_field), str):
            return _text_result(result, text_field, width)
        return _object_table(result, width, limit_flag)
    return fit(_cell(result), width)


def _list_footer(shown: int, total: Any, offset: int, next_offset: Any, flag: str) -> str:
    if not shown:
        return f"no items (total {total})"
    first, last = offset + 1, offset + shown
    if shown == total and offset == 0:
        return f"{total} item{'s' if total != 1 else ''}"
    text = f"showing {first}–{last} of {total}"
    if next_offset is not None:
        text += f" — {flag} {next_offset} for more"
    return text


def _grid(headers: list[str], rows: list[list[str]], width: int) -> str:
    """``tabulate`` simple grid with the widest columns cut until it fits ``width``."""
    widths = [max([len(h) + 2] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]
    budget = width - _GAP * (len(headers) - 1)
    if sum(widths) > budget:  # first, headers longer than their values give way
        content = [max([0] + [len(r[i]) for r in rows]) for i in range(len(headers))]
        widths = [max(MIN_COLUMN, c) if len(h) > c else w
                  for h, c, w in zip(headers, content, widths, strict=True)]
    while sum(widths) > budget:
        order = sorted(range(len(widths)), key=lambda i: widths[i], reverse=True)
        widest = order[0]
        if widths[widest] <= MIN_COLUMN:
            break  # every column at its floor: a very narrow terminal wraps, nothing else
        second = widths[order[1]] if len(order) > 1 else 0
        excess = sum(widths) - budget
        widths[widest] = max(MIN_COLUMN, min(widths[widest] - 1,
                                             max(second, widths[widest] - excess)))
    # tabulate makes a column at least its header + MIN_PADDING (2) wide
    cut_headers = [h if len(h) + 2 <= w else fit(h, w - 2)
                   for h, w in zip(headers, widths, strict=True)]
    wraps = [_wraps(h) for h in headers]
    cut_rows = [[_wrap(c, w) if wrap else fit(c, w)
                 for c, w, wrap in zip(r, widths, wraps, strict=True)] for r in rows]
    return tabulate(cut_rows, headers=cut_headers, tablefmt="simple", disable_numparse=True)


def _wraps(header: str) -> bool:
    """URLs and keys are wrapped, not cut: their end is what tells two rows apart."""
    return header.lower().endswith(("url", "key", "signature"))


def _wrap(text: str, width: int) -> str:
    return "\n".join(text[i:i + width] for i in range(0, len(text), width)) or text


def _object_table(result: dict[str, Any], width: int, limit_flag: str | None) -> str:
    """Scalars as key/value rows; each list of objects and each object as its own block."""
    blocks: list[str] = []
    scalars = [(k, v) for k, v in result.items()
               if not (isinstance(v, dict) and v) and not _is_rows(v)]
    if scalars:
        blocks.append(_pairs(scalars, width))
    for key, value in result.items():
        if isinstance(value, dict) and value:
            body = _pairs(list(value.items()), width - 2)
            blocks.append(f"{key}:\n" + _indent(body))
        elif _is_rows(value):
            headers = list(value[0])
            body = _grid(headers, [[_cell(r.get(h), h) for h in headers] for r in value],
                         width - 2)
            total = result.get(f"{key}Total")
            if isinstance(total, int) and total > len(value):
                hint = f" — raise {limit_flag} for more" if limit_flag else ""
                body += f"\nshowing {len(value)} of {total}{hint}"
            blocks.append(f"{key}:\n" + _indent(body))
    return "\n\n".join(blocks)


def _pairs(pairs: list[tuple[str, Any]], width: int) -> str:
    key_width = max(len(k) for k, _ in pairs)
    room = max(MIN_COLUMN, width - key_width - _GAP)
    return "\n".join(f"{k.ljust(key_width)}  {fit(_cell(v, k), room)}".rstrip()
                     for k, v in pairs)


def _text_result(result: dict[str, Any], field: str, width: int) -> str:
    """A text field shown whole (newlines kept, other control characters escaped), the
    other fields as a short header."""
    others = [(k, v) for k, v in result.items() if k != field]
    head = _pairs(others, width) + "\n\n" if others else ""
    return head + escape(result[field], newlines=False)


def _indent(text: str) -> str:
    return "\n".join("  " + line for line in text.splitlines())


def _is_rows(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)
