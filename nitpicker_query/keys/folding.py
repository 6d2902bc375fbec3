"""Text as a person searches it: case and accents folded, so ``Ecoute`` finds ``Écoute``,
``strasse`` finds ``Straße`` and a full-width ``ＡＢＣ`` finds ``ABC``.

Registered on every archive connection as the SQL function ``fold(text)``
(:mod:`nitpicker_query.archive.opening`); the searches compare ``fold(column)`` with the folded
needle. Compatibility forms are unified (NFKD), combining marks dropped, then
``str.casefold``: what a search box in a browser's "find in page" does, near enough.
"""

from __future__ import annotations

import unicodedata
from typing import Any

MAX_FOLDED = 4096
"""Characters of a value folded: a title of a megabyte is searched in its first 4,096."""


def fold(value: Any) -> str | None:
    """``value`` folded for search; None stays None, other types as their text."""
    if value is None:
        return None
    text = value if isinstance(value, str) else (
        value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value))
    text = text[:MAX_FOLDED]
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
