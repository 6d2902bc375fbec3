"""The report's orders and groupings (nitpicker_query/report/order.py): natural URL order
against a direct comparison written apart from the key, both directions of every rule;
upstream's canonical URL and query pattern."""

from __future__ import annotations

import functools
import sqlite3

from hypothesis import given
from hypothesis import strategies as st

from nitpicker_query.report.order import QueryPattern, canonical_url, natural_key


def strnatcmp(a: str, b: str) -> int:
    """Martin Pool's natural comparison, character by character (the reference)."""
    digits = "0123456789"
    space = "\t\n\v\f\r "
    i = j = 0
    while True:
        while i < len(a) and a[i] in space:
            i += 1
        while j < len(b) and b[j] in space:
            j += 1
        ca = a[i] if i < len(a) else ""
        cb = b[j] if j < len(b) else ""
        if ca and cb and ca in digits and cb in digits:
            if ca == "0" or cb == "0":  # left-aligned: digit by digit
                x, y = i, j
                while True:
                    da = a[x] if x < len(a) and a[x] in digits else ""
                    db = b[y] if y < len(b) and b[y] in digits else ""
                    if not da and not db:
                        break
                    if not da or not db or da != db:
                        return -1 if not da or (db and da < db) else 1
                    x, y = x + 1, y + 1
            else:  # right-aligned: the longer run, else the first differing digit
                x, y = i, j
                while x < len(a) and a[x] in digits:
                    x += 1
                while y < len(b) and b[y] in digits:
                    y += 1
                ra, rb = a[i:x], b[j:y]
                if len(ra) != len(rb):
                    return -1 if len(ra) < len(rb) else 1
                if ra != rb:
                    return -1 if ra < rb else 1
        if not ca and not cb:
            return 0
        fa = ca.lower() if "A" <= ca <= "Z" else ca
        fb = cb.lower() if "A" <= cb <= "Z" else cb
        if fa != fb:
            return -1 if fa < fb else 1
        i, j = i + 1, j + 1


def _sign(n: int) -> int:
    return (n > 0) - (n < 0)


def test_upstreams_examples_in_order() -> None:
    chain = ["a", "a0", "a1", "a1a", "a1b", "a2", "a10", "a20"]
    assert sorted(reversed(chain), key=natural_key) == chain
    for before, after in (("image-01.jpg", "image-1.jpg"), ("image-1.jpg", "image-2.jpg"),
                          ("page=2", "page=10"), ("x2-y08", "x2-y7"), ("abc", "abcd"),
                          ("a", "Z"), ("001", "01"), ("09", "1"), ("a99", "a100"),
                          ("0 0", "00"), ("1 2", "12")):   # a space ends a digit run
        assert natural_key(before) < natural_key(after), (before, after)
        assert natural_key(after) > natural_key(before), (after, before)
    for same in (("A.css", "a.css"), ("  abc", "abc"), ("a  1", "a1")):
        assert natural_key(same[0]) == natural_key(same[1])
    assert natural_key(None) < natural_key("")


urls = st.text(alphabet="aZ09-/?=.&1 ", max_size=12)


@given(urls, urls)
def test_the_key_orders_as_the_comparison_does(a: str, b: str) -> None:
    ka, kb = natural_key(a), natural_key(b)
    assert _sign(strnatcmp(a, b)) == (ka > kb) - (ka < kb), (a, b)


@given(st.lists(urls, max_size=20))
def test_sqlite_sorts_by_the_key_as_python_sorts_by_the_comparison(values: list[str]) -> None:
    conn = sqlite3.connect(":memory:")
    conn.create_function("np_natural", 1, natural_key, deterministic=True)
    conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, url TEXT)")
    conn.executemany("INSERT INTO t (url) VALUES (?)", [(v,) for v in values])
    got = [r[0] for r in conn.execute("SELECT url FROM t ORDER BY np_natural(url), id")]
    assert got == sorted(values, key=functools.cmp_to_key(strnatcmp))  # stable, both


def test_canonical_url_drops_values_and_sorts_keys() -> None:
    assert canonical_url("https://x.com/p/123?b=Y&a=X&a=Z") == "https://x.com/p/123?a&b"
    assert canonical_url("https://x.com/a.css") == "https://x.com/a.css"
    assert canonical_url("https://x.com/a?") == "https://x.com/a?"
    assert canonical_url("https://x.com/a?=1&&flag") == "https://x.com/a?flag"
    assert canonical_url("/a?v=1") == canonical_url("/a?v=2") != canonical_url("/a?w=1")


def test_query_pattern_counts_distinct_values_to_a_hundred() -> None:
    def pattern(urls: list[str]) -> str:
        agg = QueryPattern()
        for u in urls:
            agg.step(u)
        return agg.finalize()

    assert pattern(["/a?v=1&b=x", "/a?v=2&b=x", "/a?v=1&b=x"]) == "b=1, v=2"
    assert pattern([f"/p?page={n}" for n in range(100)]) == "page=100"
    assert pattern([f"/p?page={n}" for n in range(150)]) == "page=100+"
    assert pattern(["/p", "/p?"]) == ""
