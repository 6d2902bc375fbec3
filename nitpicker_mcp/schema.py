"""JSON Schemas of the tools, generated from the query catalog (one definition per option).

Input schemas are JSON Schema 2020-12 with camelCase properties, ``additionalProperties:
false``, bounds and defaults; output schemas describe the envelope or object each query
returns, so clients that validate ``structuredContent`` accept every answer.
"""

from __future__ import annotations

from typing import Any

from nitpicker_query.queries.catalog import Param, QuerySpec

MAX_PATH_LENGTH = 4096
"""Bounds of every integer argument without tighter ones: SQLite integers are 64-bit and
Python's are not bounded at all, so an unbounded schema let 2**63 through to an
``OverflowError``."""

ARCHIVE_PROPERTY: dict[str, Any] = {
    "type": "string",
    "minLength": 1,
    "maxLength": MAX_PATH_LENGTH,
    "pattern": "^[^\\x00]*$",
    # 47 tools carry it: every word here is sent 47 times in tools/list (the server's
    # instructions say the rest once)
    "description": "A .nitpicker file or crawl directory in an allowed location "
    "(list_archives lists them); a relative path or bare name is looked up in each. "
    "Example: example.com.nitpicker.",
}


def param_schema(p: Param, default: Any = None) -> dict[str, Any]:
    """The schema of one option (``default`` overrides the catalog default for MCP)."""
    schema: dict[str, Any]
    if p.kind == "int":
        low, high = p.bounds
        schema = {"type": "integer", "minimum": low, "maximum": high}
    elif p.kind in ("flag", "tristate"):
        schema = {"type": "boolean"}
    elif p.kind == "choice":
        schema = {"type": "string", "enum": list(p.choices)}
    else:
        schema = {"type": "string", "minLength": 1, "maxLength": p.max_length}
    value = default if default is not None else p.default
    text = p.help
    if p.kind == "tristate":
        text += " Omit for no filter."
    if value is not None and p.kind != "tristate":
        schema["default"] = value
    if p.example is not None:
        text += f" Example: {p.example!r}." if isinstance(p.example, str) else (
            f" Example: {str(p.example).lower() if isinstance(p.example, bool) else p.example}.")
    schema["description"] = text
    return schema


def input_schema(spec: QuerySpec | None, *, archive_required: bool,
                 defaults: dict[str, Any] | None = None) -> dict[str, Any]:
    """Input schema for a query tool (``spec`` None: only the archive argument)."""
    defaults = defaults or {}
    properties: dict[str, Any] = {"archive": ARCHIVE_PROPERTY}
    required = ["archive"] if archive_required else []
    for p in spec.params if spec else ():
        properties[p.camel] = param_schema(p, defaults.get(p.name))
        if p.required:
            required.append(p.camel)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


_NULLABLE_INT = {"type": ["integer", "null"]}


NULLS_NOTE = ("A field whose value is null is left out of an item, unless the item "
              "schema requires it: a missing field means null.")
"""What every list's ``items`` schema says of the nulls the server leaves out
(:func:`nitpicker_mcp.server.without_nulls`)."""


def list_output(item: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """Output schema of a list envelope whose items follow ``item``."""
    return {
        "type": "object",
        "properties": {
            **extra,
            "items": {"type": "array", "items": item, "description": NULLS_NOTE},
            "total": {"type": "integer", "minimum": 0},
            "limit": {"type": "integer", "minimum": 1},
            "offset": {"type": "integer", "minimum": 0},
            "nextOffset": _NULLABLE_INT,
        },
        "required": ["items", "total", "limit", "offset", "nextOffset"],
    }


def object_output(required: list[str], properties: dict[str, Any] | None = None
                  ) -> dict[str, Any]:
    """Output schema of a single-object result with the given required keys."""
    return {"type": "object", "properties": properties or {}, "required": required}


def item(required: list[str]) -> dict[str, Any]:
    """Schema of a list item: the keys every item has, not their types.

    Clients validate ``structuredContent`` against the output schema on every call, and
    the Python SDK does it with uncompiled ``jsonschema.validate``: typed properties on
    100 items cost ≈ 3.6 ms a call, key presence ≈ 0.9 ms (measured; docs/BENCHMARKS.md).
    The envelope around the items stays fully typed.
    """
    return {"type": "object", "required": required}


STR = {"type": "string"}
NSTR = {"type": ["string", "null"]}
BOOL = {"type": "boolean"}
INT = {"type": "integer"}
NINT = _NULLABLE_INT
