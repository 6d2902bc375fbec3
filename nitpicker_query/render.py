"""Renderers of one query result: JSON, JSON lines, or a table for people.

A list result (``{items, total, …}``) renders as one row per item; any other object as
key/value rows. Tables cut long cells and show nested values as compact JSON, because a
terminal is for reading; JSON and JSONL are complete and exact, for piping.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from tabulate import tabulate

FORMATS = ("json", "table", "jsonl")
CELL_WIDTH = 60


def is_list_result(result: Any) -> bool:
    return isinstance(result, dict) and "items" in result and "total" in result


def _dumps(value: Any, pretty: bool = False) -> str:
    if pretty:
        return json.dumps(value, ensure_ascii=False, indent=2)
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _cell(value: Any) -> str:
    if value is None:
        return ""
    text = value if isinstance(value, str) else _dumps(value)
    text = text.replace("\n", " ")
    return text if len(text) <= CELL_WIDTH else text[: CELL_WIDTH - 1] + "…"


def render(result: Any, fmt: str, out: TextIO, *, pretty: bool = False,
           columns: tuple[str, ...] = ()) -> None:
    """Write ``result`` to ``out`` in ``fmt`` (one of :data:`FORMATS`).

    ``columns`` limits which item keys a table shows; JSON formats are always complete.
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
        out.write(_table(result, columns) + "\n")
    else:  # pragma: no cover - argparse restricts the choices
        raise ValueError(fmt)


def _table(result: Any, columns: tuple[str, ...] = ()) -> str:
    if is_list_result(result):
        items = result["items"]
        extra = {k: v for k, v in result.items()
                 if k not in ("items", "total", "limit", "offset", "nextOffset")}
        lines = [f"{k}: {_cell(v)}" for k, v in extra.items()]
        if items and isinstance(items[0], dict):
            headers = [c for c in columns if c in items[0]] or list(items[0])
            rows = [[_cell(item.get(h)) for h in headers] for item in items]
            lines.append(tabulate(rows, headers=headers, tablefmt="simple"))
        elif items:
            lines.append(tabulate([[_cell(i)] for i in items], tablefmt="simple"))
        first = result["offset"] + 1 if items else 0
        last = result["offset"] + len(items)
        footer = f"{first}–{last} of {result['total']}"
        if result.get("nextOffset") is not None:
            footer += f" (next page: --offset {result['nextOffset']})"
        lines.append(footer if items else f"no items (total {result['total']})")
        return "\n".join(lines)
    if isinstance(result, dict):
        return _object_table(result)
    return _cell(result)


def _object_table(result: dict[str, Any]) -> str:
    """Scalars as key/value rows; each list of objects and each object as its own block."""
    scalars = [[k, _cell(v)] for k, v in result.items()
               if not (isinstance(v, dict) and v) and not _is_rows(v)]
    blocks = [tabulate(scalars, tablefmt="plain")] if scalars else []
    for key, value in result.items():
        if isinstance(value, dict) and value:
            body = tabulate([[k, _cell(v)] for k, v in value.items()], tablefmt="plain")
            blocks.append(f"{key}:\n" + "\n".join("  " + line for line in body.splitlines()))
        elif _is_rows(value):
            headers = list(value[0])
            body = tabulate([[_cell(r.get(h)) for h in headers] for r in value],
                            headers=headers, tablefmt="simple")
            blocks.append(f"{key}:\n" + "\n".join("  " + line for line in body.splitlines()))
    return "\n\n".join(blocks)


def _is_rows(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)
