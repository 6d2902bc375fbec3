"""``get_page_html``: the stored HTML snapshot of one URL."""

from __future__ import annotations

from typing import Any

from ..archive.html_codec import decode_html
from ..archive.opening import Archive, opened
from .paging import check_int

MAX_LENGTH_DEFAULT = 100_000


def _utf16_cut(text: str, max_units: int) -> tuple[str, int, bool]:
    """Cut ``text`` to ``max_units`` UTF-16 code units (as JavaScript counts length).

    Returns ``(text, total units, truncated)``; a cut that would split a surrogate pair
    drops the dangling half instead.
    """
    encoded = text.encode("utf-16-le", errors="surrogatepass")
    total = len(encoded) // 2
    if total <= max_units:
        return text, total, False
    cut = encoded[: max_units * 2]
    if cut and 0xD8 <= cut[-1] <= 0xDB:
        cut = cut[:-2]
    return cut.decode("utf-16-le", errors="surrogatepass"), total, True


def get_page_html(
    archive: Archive | str, *, url: str, max_length: int = MAX_LENGTH_DEFAULT
) -> dict[str, Any] | None:
    """The HTML the crawler stored for this exact URL, cut to ``max_length``.

    Returns ``{url, html, truncated, totalLength}`` — ``totalLength`` and ``max_length``
    count UTF-16 code units like upstream; ``totalLength`` is null for a snapshot larger
    than 32 MiB decoded, which is never decompressed whole (a zstd bomb would be) — or
    None when the URL is not in the archive or has no stored HTML (non-HTML files,
    external pages, failures).

    Upstream: ``get-page-html.ts`` (default ``maxLength`` 100,000).
    """
    max_length = check_int("max_length", max_length, minimum=1)
    with opened(archive) as a:
        if not (a.has_table("page_html_ref") and a.has_table("page_html_blobs")):
            return None
        row = a.execute(
            "SELECT b.body, b.codec FROM pages p JOIN page_html_ref r ON r.page_id = p.id "
            "JOIN page_html_blobs b ON b.hash = r.hash WHERE p.url = ? LIMIT 1",
            (url,),
        ).fetchone()
    if row is None:
        return None
    text, complete = decode_html(row["body"], row["codec"])  # never a whole bomb
    html, total, truncated = _utf16_cut(text, max_length)
    if not complete:  # larger than we decode: its length is unknown
        return {"url": url, "html": html, "truncated": True, "totalLength": None}
    return {"url": url, "html": html, "truncated": truncated, "totalLength": total}
