"""The one envelope of every list result, and the checks on its arguments.

Every list, in every interface, is ``{items, total, limit, offset, nextOffset}``:
``total`` counts all matches before paging, ``nextOffset`` is the offset of the next
page or None on the last one. ``limit`` is 1–1000 (a bigger page is refused, not
silently cut, so a caller never mistakes a cut for the end); ``offset`` ≥ 0.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

from ..exceptions import InvalidArgument

MAX_LIMIT = 1000
T = TypeVar("T")


def check_int(name: str, value: object, *, minimum: int | None = None,
              maximum: int | None = None) -> int:
    """``value`` as an int within bounds, or InvalidArgument naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidArgument(f"{name} must be an integer, got {value!r}.")
    if minimum is not None and value < minimum:
        raise InvalidArgument(f"{name} must be at least {minimum}, got {value}.")
    if maximum is not None and value > maximum:
        raise InvalidArgument(f"{name} must be at most {maximum}, got {value}.")
    return value


def check_paging(limit: object, offset: object) -> tuple[int, int]:
    """Validate ``limit`` (1–1000) and ``offset`` (≥ 0)."""
    return (
        check_int("limit", limit, minimum=1, maximum=MAX_LIMIT),
        check_int("offset", offset, minimum=0),
    )


def check_choice(name: str, value: T, choices: Iterable[T]) -> T:
    """``value`` if it is one of ``choices``, else InvalidArgument listing them."""
    allowed = list(choices)
    if value not in allowed:
        listed = ", ".join(str(c) for c in allowed)
        raise InvalidArgument(f"{name} must be one of {listed}; got {value!r}.")
    return value


def envelope(items: Sequence[Any], total: int, limit: int, offset: int,
             **extra: Any) -> dict[str, Any]:
    """Build the list envelope; ``extra`` keys (e.g. ``resourceUrl``) go first."""
    next_offset = offset + len(items) if offset + len(items) < total and items else None
    return {**extra, "items": list(items), "total": total, "limit": limit, "offset": offset,
            "nextOffset": next_offset}
