"""Small value conversions shared by the query modules (docs/archive-format.md)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..archive.opening import Archive


def as_bool(value: Any) -> bool:
    """SQLite boolean → JSON boolean: non-zero → True; 0, NULL → False."""
    if value is None:
        return False
    try:
        return float(value) != 0
    except (TypeError, ValueError):
        return bool(value)


def tri_bool(value: Any) -> bool | None:
    """Tri-state flag (1 / 0 / NULL) → True / False / None."""
    return None if value is None else as_bool(value)


def json_object(value: Any) -> dict[str, Any]:
    """Parse a JSON column that should hold an object; anything else → ``{}``."""
    if value is None:
        return {}
    try:
        parsed = json.loads(value) if isinstance(value, str | bytes) else value
    except (ValueError, RecursionError):  # a stranger's column: garbage, or nested 10⁵ deep
        return {}
    return parsed if isinstance(parsed, dict) else {}


def json_list(value: Any) -> list[Any]:
    """Parse a JSON column that should hold an array; anything else → ``[]``."""
    if value is None:
        return []
    try:
        parsed = json.loads(value) if isinstance(value, str | bytes) else value
    except (ValueError, RecursionError):
        return []
    return parsed if isinstance(parsed, list) else []


def start_urls(a: Archive) -> list[str]:
    """The crawl's start URLs (``info.roots``; its base URL when it names none)."""
    info = a.info
    roots = [r for r in json_list(info.get("roots")) if isinstance(r, str)]
    base = info.get("baseUrl")
    return roots or ([base] if isinstance(base, str) and base else [])


def like_literal(text: str) -> str:
    """Escape LIKE wildcards so ``text`` matches literally (use with ``ESCAPE '\\'``)."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def blank_to_none(value: Any) -> Any:
    """``0`` and ``'0.0'`` (how some writers stored "none") → None, as upstream maps them."""
    if value in (0, "0", "0.0", 0.0):
        return None
    return value
