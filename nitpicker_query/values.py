"""Any query result as valid JSON, whatever a stranger's archive held.

SQLite columns have no enforced types: a title can be a BLOB, a length ``Infinity``.
Query functions pass values through as stored; the adapters (CLI, MCP) make the result
JSON-safe here, and only when a plain encode fails, so the common case costs nothing.
"""

from __future__ import annotations

import math
from typing import Any


def jsonable(value: Any) -> Any:
    """``value`` with bytes as text (invalid UTF-8 replaced), non-finite floats as None,
    other non-JSON objects as their ``str``, and keys as strings."""
    if isinstance(value, str) or value is None or isinstance(value, bool | int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value).decode("utf-8", errors="replace")
    return str(value)
