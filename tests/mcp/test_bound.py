"""The 40,000-character bound on one tool result, and the text copy it returns.

The list path splices the text from each item's encoding instead of encoding the result
again, so the text must equal ``json.dumps`` of the returned result, character for
character, for any envelope — checked with generated ones, wide and non-ASCII included.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from nitpicker_mcp.server import MAX_STRUCTURED_CHARS, bound

_values = st.one_of(st.none(), st.booleans(), st.integers(-(10**12), 10**12),
                    st.text(max_size=3000))
_items = st.lists(st.dictionaries(st.sampled_from(["url", "title", "status", "alt", "x"]),
                                  _values, max_size=5), max_size=120)


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


@settings(max_examples=200, deadline=None)
@given(items=_items, offset=st.integers(0, 10**6), extra=st.integers(0, 500),
       next_none=st.booleans())
def test_list_text_is_the_json_of_the_result_and_fits(
        items: list[dict[str, Any]], offset: int, extra: int, next_none: bool) -> None:
    total = offset + len(items) + extra
    next_offset = None if next_none or extra == 0 else offset + len(items)
    envelope = {"items": items, "total": total, "limit": max(len(items), 1),
                "offset": offset, "nextOffset": next_offset}
    out, text = bound(envelope)
    assert text == _dumps(out)
    assert out["items"] == items[: len(out["items"])]
    if len(_dumps(envelope)) <= MAX_STRUCTURED_CHARS:
        assert out == envelope  # what fits is left alone
    else:
        assert len(text) <= MAX_STRUCTURED_CHARS
        kept = len(out["items"])
        assert kept < len(items)
        assert out["nextOffset"] == offset + kept  # the first item left out
        # as many items as fit: one more would not (the cut reserves room for a
        # 10-digit nextOffset and one ", ", hence the 12 characters of slack)
        assert len(_dumps({**out, "items": items[: kept + 1]})) > MAX_STRUCTURED_CHARS - 12


def test_wide_page_is_cut_to_what_fits_and_points_at_the_rest() -> None:
    items = [{"url": f"http://s.test/{i}", "title": "題名" * 200} for i in range(100)]
    envelope = {"items": items, "total": 1000, "limit": 100, "offset": 200,
                "nextOffset": 300}
    out, text = bound(envelope)
    kept = len(out["items"])
    assert 0 < kept < 100 and out["nextOffset"] == 200 + kept
    assert text == _dumps(out) and len(text) <= MAX_STRUCTURED_CHARS
    assert envelope["nextOffset"] == 300 and len(envelope["items"]) == 100  # input untouched


def test_last_page_cut_still_gets_a_next_offset_but_a_whole_last_page_does_not() -> None:
    items = [{"url": f"http://s.test/{i}", "title": "T" * 1000} for i in range(60)]
    out, _ = bound({"items": items, "total": 60, "limit": 100, "offset": 0,
                    "nextOffset": None})
    assert out["nextOffset"] == len(out["items"]) < 60
    small = {"items": items[:3], "total": 3, "limit": 100, "offset": 0, "nextOffset": None}
    assert bound(small) == (small, _dumps(small))


def test_html_is_cut_and_marked() -> None:
    page = {"url": "http://s.test/", "html": "<p>\"q\"</p>\n" * 20_000, "truncated": False}
    out, text = bound(page)
    assert out["truncated"] is True and page["html"].startswith(out["html"])
    assert text == _dumps(out) and len(text) <= MAX_STRUCTURED_CHARS
