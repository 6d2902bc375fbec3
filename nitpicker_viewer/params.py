"""Query-string values → query-function arguments, by the catalog's parameter specs.

The same names (camelCase) and bounds as the MCP tools; a bad value is a 400 with one
line naming the parameter. Paging is the MCP's ``limit``/``offset`` in the API and, in
the HTML views, ``page``/``pageSize`` (what a person shares in a link).
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Any

from nitpicker_query.exceptions import InvalidArgument
from nitpicker_query.queries.catalog import Param, QuerySpec

from .text import label

TRUE = {"1", "true", "on", "yes"}
FALSE = {"0", "false", "off", "no"}
PAGE_SIZES = (20, 50, 100, 200, 500)
COMMON = {"a", "archive", "format", "bom"}
"""Names every query URL may carry: the archive, the answer's format (JSON or CSV) and,
for CSV, a byte-order mark."""
BOM = Param("bom", "flag", "")
HTML_ONLY = {"page", "pageSize", "columns"}
"""The HTML views' paging and column choice."""


def worded(name: str) -> str:
    """A parameter as the HTML views name it: its label, and the URL's name a person sees
    in the address bar (``Status from (statusMin)``)."""
    words = label(name)
    return name if words == name else f"{words} ({name})"


def _int(param: Param, raw: str, name: str | None = None) -> int:
    name = name or param.camel
    try:
        value = int(raw.strip(), 10)
    except ValueError:
        raise InvalidArgument(f"{name} must be a whole number, not {raw[:40]!r}") from None
    low, high = param.bounds
    if not low <= value <= high:
        raise InvalidArgument(f"{name} must be between {low} and {high}, not "
                              f"{raw.strip()[:40]}")
    return value


def value_of(param: Param, raw: str, name: str | None = None) -> Any:
    """One value, checked like the MCP schema checks it; ``name`` is how the error names
    the parameter (the API's camelCase unless an HTML view gives its words)."""
    name = name or param.camel
    if param.kind == "int":
        return _int(param, raw, name)
    if param.kind in ("flag", "tristate"):
        low = raw.strip().lower()
        if low in TRUE:
            return True
        if low in FALSE:
            return False
        raise InvalidArgument(f"{name} must be true or false, not {raw[:40]!r}")
    if param.kind == "choice":
        if raw not in param.choices:
            raise InvalidArgument(f"{name} must be one of {', '.join(param.choices)}, not "
                                  f"{raw[:40]!r}")
        return raw
    if len(raw) > param.max_length or "\0" in raw:
        raise InvalidArgument(f"{name} is too long or holds a NUL character")
    return raw


def arguments(spec: QuerySpec, values: Mapping[str, str], *, html: bool = False,
              view: str | None = None) -> dict[str, Any]:
    """Keyword arguments for ``spec.function``; ``html`` reads page/pageSize for paging.

    A name the query does not take is refused (a misspelt filter must not answer with
    the unfiltered list), with the nearest name it does take. ``view`` is the HTML
    view's name (``Pages``): its errors then speak of that view and of the parameters'
    labels, not of the MCP tool behind it, which a person in a browser never saw."""
    known = {p.camel for p in spec.params} | COMMON | (HTML_ONLY if html else set())
    for name in values:
        if name not in known:
            near = difflib.get_close_matches(name, sorted(known), n=1)
            if view is None:
                hint = f"; did you mean {near[0]}?" if near else ""
                raise InvalidArgument(f"{spec.name} takes no parameter {name[:60]!r}{hint}")
            hint = f"; did you mean {worded(near[0])}?" if near else ""
            raise InvalidArgument(f"The {view} view takes no parameter {name[:60]!r}{hint}")
    out: dict[str, Any] = {}
    for param in spec.params:
        if html and param.name in ("limit", "offset"):
            continue
        raw = values.get(param.camel)
        if raw is None or (raw == "" and param.kind != "str"):
            if param.required:
                raise InvalidArgument(f"{worded(param.camel) if view else param.camel} "
                                      "is required")
            continue
        if raw == "" and not param.required:
            continue
        out[param.name] = value_of(param, raw, worded(param.camel) if view else None)
    if html and any(p.name == "limit" for p in spec.params):
        page, size = paging(values)
        out["limit"] = size
        out["offset"] = (page - 1) * size
    return out


def paging(values: Mapping[str, str]) -> tuple[int, int]:
    """``(page, pageSize)`` of an HTML view: page from 1, size one of :data:`PAGE_SIZES`."""
    page = _int(Param("page", "int", "", minimum=1, maximum=10_000_000), values.get("page")
                or "1")
    size = _int(Param("pageSize", "int", "", minimum=1, maximum=1000),
                values.get("pageSize") or "100")
    return page, size
