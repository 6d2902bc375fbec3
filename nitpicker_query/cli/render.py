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
import shlex
import textwrap
from typing import Any, TextIO

import tabulate as tabulate_module
from tabulate import tabulate

from ..terminal import escape, fit, is_time, local_time
from ..values import jsonable

FORMATS = ("json", "table", "jsonl", "csv")
"""``csv`` is written by :mod:`nitpicker_query.report.export`, not by :func:`render`."""
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


def _cell(value: Any, key: str = "") -> str:
    """One value as table text: escaped, on one line, times in local ISO 8601."""
    if value is None:
        return ""
    if is_time(key, value):
        return local_time(value)
    if key == "key" and isinstance(value, str):  # pasted as it is into --key
        return escape(shlex.quote(value))
    if key.endswith("Bytes") and isinstance(value, int) and not isinstance(value, bool):
        return human_bytes(value)
    if isinstance(value, dict) and isinstance(value.get("flag"), str) and isinstance(
            value.get("value"), str):   # a suggested option: as it is typed
        return escape(f"{value['flag']} {shlex.quote(value['value'])}")
    if isinstance(value, float) and not value.is_integer() and abs(value) < 1e15:
        return f"{value:.4g}"   # a rate: 0.9953, not 0.9952830188679245 (JSON is exact)
    text = value if isinstance(value, str) else _dumps(value)
    return escape(text)


def human_bytes(n: int) -> str:
    """``1563021312`` → ``1.5 GiB`` (tables; JSON keeps the bytes)."""
    size = float(n)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(size) < 1024 or unit == "GiB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{n} B"  # pragma: no cover


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
        lines = [line for k, v in extra.items() for line in (
            textwrap.wrap(f"{k}: {v}", width, subsequent_indent="  ") if k == "note"
            else [fit(f"{k}: {_cell(v, k)}", width)])]   # a note is read whole
        if items and isinstance(items[0], dict):
            keys = list(dict.fromkeys(k for item in items for k in item))
            headers = [c for c in columns if c in keys] or keys
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


def _grid(headers: list[str], rows: list[list[str]], width: int, *,
          complete: bool = False) -> str:
    """``tabulate`` simple grid that fits ``width`` where it can.

    Headers are never cut: they wrap at their camelCase words (``content`` / ``Type``).
    Keys, signatures and ids are never cut or wrapped (they are copied into the next
    command); URLs wrap (their end tells two rows apart); other text is cut with ``…``.
    The widest of the columns that may give way shrink first (a URL counts half its
    width: it is what a row is about), none below its header's longest word or
    :data:`MIN_COLUMN`; when even that is too wide the rows become key/value records.
    A column is as wide as its header's longest word or its widest cell, no wider
    (tabulate's padding of two spaces after every header is turned off: ``status`` is a
    6-wide column, not 8)."""
    words = [_words(h) for h in headers]
    floors = [max(len(w) for w in ws) for ws in words]
    content = [max([0] + [len(r[i]) for r in rows]) for i in range(len(headers))]
    whole = [_whole(h) for h in headers]
    wraps = [_wraps(h) for h in headers]
    widths = [max(len(h), c) for h, c in zip(headers, content, strict=True)]
    budget = width - _GAP * (len(headers) - 1)
    least = sum(w if keep else max(f, min(MIN_COLUMN, c)) for w, keep, f, c in zip(
        widths, whole, floors, content, strict=True))
    if least > budget and len(headers) > 1:
        return _records(headers, rows, width)
    while sum(widths) > budget:
        movable = [i for i in range(len(widths))
                   if not whole[i] and widths[i] > max(floors[i], min(MIN_COLUMN, content[i]))]
        if not movable:
            break
        order = sorted(movable, key=lambda i: widths[i] / (2 if wraps[i] else 1),
                       reverse=True)
        widest = order[0]
        floor = max(floors[widest], min(MIN_COLUMN, content[widest]))
        second = widths[order[1]] if len(order) > 1 else 0
        excess = sum(widths) - budget
        widths[widest] = max(floor, min(widths[widest] - 1, max(second, widths[widest] - excess)))
    if complete and any(c > w and not (keep or wrap) for c, w, keep, wrap in zip(
            content, widths, whole, wraps, strict=True)):
        return _records(headers, rows, width, complete=True)
    shown = ["\n".join(_lines(ws, w)) for ws, w in zip(words, widths, strict=True)]
    cut_rows = [[c if keep else _wrap(c, w) if wrap else _fit(c, w)
                 for c, w, wrap, keep in zip(r, widths, wraps, whole, strict=True)]
                for r in rows]
    return _unpadded(cut_rows, shown)


def _unpadded(rows: list[list[str]], headers: list[str]) -> str:
    """``tabulate``'s simple grid without its two spaces of padding after each header
    (a module setting, restored after the call)."""
    padding = tabulate_module.MIN_PADDING
    tabulate_module.MIN_PADDING = 0
    try:
        return tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=True)
    finally:
        tabulate_module.MIN_PADDING = padding


def _records(headers: list[str], rows: list[list[str]], width: int, *,
             complete: bool = False) -> str:
    """Rows too wide for the terminal as one block of key/value lines each (``psql``'s
    expanded display): every key and signature still whole on its line, URLs wrapped
    under themselves, no header cut; other text cut with ``…`` unless ``complete`` (then
    wrapped whole too)."""
    key_width = max(len(h) for h in headers)
    room = max(MIN_COLUMN, width - key_width - _GAP)
    indent = "\n" + " " * (key_width + _GAP)
    blocks = []
    for n, row in enumerate(rows, 1):
        lines = [f"── {n} ".ljust(min(width, 40), "─")]
        for h, cell in zip(headers, row, strict=True):
            if cell == "":
                continue
            value = cell if _whole(h) else _wrap(cell, room).replace("\n", indent) if (
                complete or _wraps(h) or is_web_url(cell)) else fit(cell, room)
            lines.append(f"{h.ljust(key_width)}  {value}")
        blocks.append("\n".join(lines))
    return "\n".join(blocks)


def _fit(text: str, width: int) -> str:
    """Cut with ``…``; a file path loses its start, not its name."""
    if text.startswith("/") and len(text) > width:
        return "…" + text[len(text) - width + 1:]
    return fit(text, width)


def _words(header: str) -> list[str]:
    """``isExternal`` → ``["is", "External"]``: where a header may wrap."""
    out: list[str] = []
    for char in header:
        if out and char.isupper() and not out[-1][-1:].isupper():
            out.append(char)
        elif out:
            out[-1] += char
        else:
            out.append(char)
    return out or [header]


def _lines(words: list[str], width: int) -> list[str]:
    """Words joined onto as few lines of ``width`` as they fit."""
    lines = [words[0]]
    for word in words[1:]:
        if len(lines[-1]) + len(word) <= width:
            lines[-1] += word
        else:
            lines.append(word)
    return lines


def _whole(header: str) -> bool:
    """Keys, signatures and ids are printed whole: a person copies them into a flag."""
    return header == "id" or header.endswith(("Id", "Exclude")) or header.lower().endswith(
        ("key", "signature"))


def _wraps(header: str) -> bool:
    """URLs are wrapped, not cut: their end is what tells two rows apart."""
    return header.lower().endswith("url")


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
            # every row's keys (a status row of inventory-seed 404s has one more), in
            # the order they first appear
            keys = list(dict.fromkeys(k for r in value for k in r))
            headers = [h for h in keys if any(r.get(h) not in (None, "") for r in value)]
            body = _grid(headers, [[_cell(r.get(h), h) for h in headers] for r in value],
                         width - 2, complete=True)
            total = result.get(f"{key}Total")
            if isinstance(total, int) and total > len(value):
                hint = f" — raise {limit_flag} for more" if limit_flag else ""
                body += f"\nshowing {len(value)} of {total}{hint}"
            blocks.append(f"{key}:\n" + _indent(body))
    return "\n\n".join(blocks)


def _pairs(pairs: list[tuple[str, Any]], width: int) -> str:
    """Key/value rows; a key without a value (null, empty) is left out (JSON has it)."""
    pairs = [(k, v) for k, v in pairs if v not in (None, "", [], {})] or pairs[:1]
    key_width = max(len(k) for k, _ in pairs)
    room = max(MIN_COLUMN, width - key_width - _GAP)
    indent = "\n" + " " * (key_width + _GAP)
    return "\n".join(f"{k.ljust(key_width)}  {_pair_value(k, v, room, indent)}".rstrip()
                     for k, v in pairs)


def _pair_value(key: str, value: Any, room: int, indent: str) -> str:
    """Keys and signatures whole, URLs wrapped under themselves, other text cut."""
    text = _cell(value, key)
    if _whole(key):
        return text
    if _wraps(key) or (isinstance(value, str) and is_web_url(value)):
        return _wrap(text, room).replace("\n", indent)
    return fit(text, room)


def is_web_url(value: str) -> bool:
    return value[:8].lower().startswith(("http://", "https://"))


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
