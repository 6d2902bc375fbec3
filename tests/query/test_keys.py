"""Keys of a page and URL equivalence: tables of worked cases, both directions."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nitpicker_query.keys.page_keys import (
    declared_signature,
    host_key,
    is_eligible,
    is_variable_segment,
    page_keys,
    parent_key,
    parent_path,
    repeat_key,
    shape_key,
    split_shape,
)
from nitpicker_query.keys.signals import (
    canonical_form,
    declared_target,
    effective_threshold,
    equivalent,
    ordinal_title,
    page_signals,
    points_to_ancestor,
    score,
)

KEYS = [
    # url, parent path, parent key, shape key
    ("https://www.example.com/list/date/2024/", "/list/date", "example.com/list/date",
     "example.com/list/date/{n}/"),                                   # path pager, www.
    ("http://example.com/list/date/1.5e+32/", "/list/date", "example.com/list/date",
     "example.com/list/date/{n}/"),                                   # scientific notation
    ("https://example.com/list?page=1", "/list", "example.com/list",
     "example.com/list?page={v}"),                                    # query pager
    ("https://example.com/list/2024?p=5", "/list/2024", "example.com/list/2024",
     "example.com/list/{n}?p={v}"),                                   # query keeps the path
    ("https://example.com/about", "/", "example.com/", "example.com/about"),
    ("https://example.com/", "/", "example.com/", "example.com/"),
    ("https://example.com/search?q=a&page=2&q=b", "/search", "example.com/search",
     "example.com/search?page={v}&q={v}"),                            # keys sorted, unique
    ("https://example.com/archive/2026/11/30/", "/archive/2026/11",
     "example.com/archive/2026/11", "example.com/archive/{n}/{n}/{n}/"),  # y/m/d spread
    ("https://example.com/a/b/a/b/a/b/", "/a/b/a/b/a", "example.com/a/b/a/b/a",
     "example.com/a/{r}/"),                                           # growing path
    ("http://Example.com:8080/x/Y%2fz/", "/x", "example.com:8080/x",
     "example.com:8080/x/Y%2Fz/"),                                    # port kept, %xx case
    ("https://example.com/products/shirt-red/", "/products", "example.com/products",
     "example.com/products/shirt-red/"),                              # words stay
    ("https://example.com/index.php?title=A&action=history&oldid=3", "/index.php",
     "example.com/index.php", "example.com/index.php?action={v}&oldid={v}&title={v}"),
    ("https://example.com/catalog/?session=0e1b17e06b6b77d9", "/catalog",
     "example.com/catalog", "example.com/catalog/?session={v}"),      # session id
    ("https://example.com/p/;jsessionid=ABC123", "/p", "example.com/p",
     "example.com/p/{n}"),                                            # path parameter
    ("https://example.com/t/aBcDeFgHiJkLmNoPqRsTuV/", "/t", "example.com/t",
     "example.com/t/{n}/"),                                           # random token
    ("https://example.com/caf%c3%a9/menu", "/caf%C3%A9", "example.com/caf%C3%A9",
     "example.com/caf%C3%A9/menu"),                                   # escapes are letters
]


@pytest.mark.parametrize(("url", "pp", "pk", "sk"), KEYS)
def test_worked_examples(url: str, pp: str, pk: str, sk: str) -> None:
    assert (parent_path(url), parent_key(url), shape_key(url)) == (pp, pk, sk)


def test_sort_and_filter_permutations_share_a_shape() -> None:
    assert shape_key("https://e.com/l?sort=a&f=x") == shape_key("https://e.com/l?f=y&sort=b")


@pytest.mark.parametrize(("segment", "variable"), [
    ("2024", True), ("1.5e+32", True), ("page-3", True), ("about", False),
    ("shirt-red", False), ("", False), ("0e1b17e06b6b", True),
    ("123e4567-e89b-12d3-a456-426614174000", True), ("AbCdEfGhIjKlMnOpQrStUv", True),
    ("a-perfectly-normal-article-slug", False)])
def test_variable_segments(segment: str, variable: bool) -> None:
    assert is_variable_segment(segment) is variable


def test_signature_is_the_documented_sha1() -> None:
    keys = page_keys("http://localhost/list/date/2031/", title="News list",
                     description="All news", og_title="News list", og_url="http://localhost/list/")
    assert keys.signature == "79dc25ad3abcbc287973c7ecba30e1a951991ee0"
    assert len(keys.shape_signature) == 40 and keys.shape_signature != keys.signature


def test_signature_ignores_query_scheme_www_and_whitespace_not_meta() -> None:
    base = page_keys("https://example.com/list?page=1", title="A", description="d",
                     og_title=None, og_url=None)
    same = [
        page_keys("https://example.com/list?page=99", title="A", description="d",
                  og_title=None, og_url=None),
        page_keys("http://www.example.com/list?page=2", title="  A ", description="d",
                  og_title="", og_url=None),
    ]
    different = [
        page_keys("https://example.com/list?page=1", title="B", description="d",
                  og_title=None, og_url=None),
        page_keys("https://example.com/other?page=1", title="A", description="d",
                  og_title=None, og_url=None),
        page_keys("https://example.org/list?page=1", title="A", description="d",
                  og_title=None, og_url=None),
    ]
    assert all(k.signature == base.signature for k in same)
    assert all(k.signature != base.signature for k in different)


def test_host_key_and_eligibility() -> None:
    assert host_key("https://WWW.Example.com:443/") == "example.com"
    assert host_key("http://h:8080/") == "h:8080"
    assert is_eligible(is_external=False, content_type="text/html", title="x", og_title=None,
                       og_url=None)
    assert not is_eligible(is_external=True, content_type="text/html", title="x",
                           og_title=None, og_url=None)
    assert not is_eligible(is_external=False, content_type="application/pdf", title="x",
                           og_title=None, og_url=None)
    assert not is_eligible(is_external=False, content_type="text/html", title=" ",
                           og_title="", og_url=None)


EQUIVALENT = [
    ("http://www.Example.com:80/a/", "https://example.com/a#top"),
    ("https://example.com/a", "https://example.com/a/"),
    ("https://example.com/caf%c3%a9", "https://example.com/caf%C3%A9"),
    ("https://example.com/a?x=1&y=2", "https://example.com/a?y=2&x=1"),
]
DIFFERENT = [
    ("https://example.com/A", "https://example.com/a"),          # path case
    ("https://example.com/a?x=1", "https://example.com/a?x=2"),  # query value
    ("https://example.com/a?x=1", "https://example.com/a?z=1"),  # query key
    ("https://example.com/a", "https://example.com/a?x=1"),      # query present
    ("https://example.com/a", "https://other.example/a"),        # host
    ("https://example.com/a", "https://example.com:8443/a"),     # port
    ("https://example.com/a", "https://example.com/a/b"),        # path
]


@pytest.mark.parametrize(("a", "b"), EQUIVALENT)
def test_equivalent_spellings_match(a: str, b: str) -> None:
    assert equivalent(a, b) and equivalent(b, a)


@pytest.mark.parametrize(("a", "b"), DIFFERENT)
def test_different_pages_never_match(a: str, b: str) -> None:
    assert not equivalent(a, b) and not equivalent(b, a)


def test_ancestors() -> None:
    assert points_to_ancestor("http://h/list/date/", "http://h/list/date/2021/")
    assert points_to_ancestor("https://www.h/list", "http://h/list/date/2021/")
    assert points_to_ancestor("http://h/search", "http://h/search?page=3")
    assert not points_to_ancestor("http://h/search", "http://h/search")      # itself
    assert not points_to_ancestor("http://h/lists/", "http://h/list/date/")  # sibling
    assert not points_to_ancestor("http://h/list/?x=1", "http://h/list/2/")  # a query
    assert not points_to_ancestor("http://o/list/", "http://h/list/2/")      # other host
    assert not points_to_ancestor(None, "http://h/list/2/")


@pytest.mark.parametrize(("title", "ordinal"), [
    ("Blog - Page 3", True), ("一覧 ページ 2", True), ("News (4)", True), ("Shop: 5", True),
    ("第3ページ", True), ("Archive", False), ("Item 2024 review", False), ("", False)])
def test_ordinal_titles(title: str, ordinal: bool) -> None:
    assert ordinal_title(title) is ordinal


def test_signals_score_and_threshold() -> None:
    trap = page_signals("http://h/list/date/2021/", og_url="http://h/list/date/",
                        canonical=None, has_prev_next=False, title="News")
    assert trap.ogUrlMismatch and trap.ogUrlPointsToParent and score(trap.as_dict()) == 2
    legit = page_signals("http://h/blog/page/2/", og_url="https://h/blog/page/2",
                         canonical="http://h/blog/page/2/", has_prev_next=True,
                         title="Blog - Page 2")
    assert not legit.ogUrlMismatch and score(legit.as_dict()) == -4
    plain = page_signals("http://h/a/?o=1", og_url=None, canonical=None,
                         has_prev_next=False, title="Archive")
    assert score(plain.as_dict()) == 0
    assert [effective_threshold(100, s) for s in (2, 0, -1)] == [30, 100, 500]
    assert effective_threshold(1, 1) == 1


# Paths grown by relative links, in any order, share one shape; paths whose segments are
# all different keep theirs (legit deep trees), and numbers repeat without being growth.
GROWTH_SAME = [  # every URL of a row has the row's shape
    (["https://e.com/guide/x/x/x/", "https://e.com/guide/x/y/x/y/",
      "https://e.com/guide/y/x/y/y/", "https://e.com/guide/x/y/y/x/y/x/x/"],
     "e.com/guide/{r}/"),
    (["https://e.com/x/y/x/y/", "https://e.com/x/x/x/"], "e.com/x/{r}/"),
    (["https://e.com/a/1/2/3/4/5/", "https://e.com/a/1/2/3/4/5/6/7/8/"], "e.com/a/{n}/{r}/"),
    (["https://e.com/members/;sid=9F3A11/home/members/;sid=41C0AA/home"], "e.com/members/{r}"),
]
GROWTH_KEPT = [  # URL → shape: not growth
    ("https://e.com/docs/api/v/intro/", "e.com/docs/api/v/intro/"),
    ("https://e.com/shop/men/shoes/running/trail/", "e.com/shop/men/shoes/running/trail/"),
    ("https://e.com/archive/2024/01/01/", "e.com/archive/{n}/{n}/{n}/"),
    ("https://e.com/a/2024/01/01/7/", "e.com/a/{n}/{n}/{n}/{n}/"),
    ("https://e.com/guide/x/y/", "e.com/guide/x/y/"),
    # a word met twice is a name (a package under its project's name), not growth
    ("https://e.com/projects/holdout/repository/1/revisions/main/entry/src/holdout/a.py",
     "e.com/projects/holdout/repository/{n}/revisions/main/entry/src/holdout/a.py"),
    ("https://e.com/x/y/x/", "e.com/x/y/x/"),
    ("https://e.com/requests/requests/api.py", "e.com/requests/requests/api.py"),
]


@pytest.mark.parametrize(("urls", "shape"), GROWTH_SAME)
def test_grown_paths_share_one_shape(urls: list[str], shape: str) -> None:
    assert {shape_key(u) for u in urls} == {shape}


@pytest.mark.parametrize(("url", "shape"), GROWTH_KEPT)
def test_deep_trees_and_dates_keep_their_shapes(url: str, shape: str) -> None:
    assert shape_key(url) == shape


def test_split_shape() -> None:
    assert split_shape("e.com/s?a={v}&b={v}") == ("e.com/s", frozenset({"a", "b"}))
    assert split_shape("e.com/list/{n}/") == ("e.com/list/{n}/", frozenset())


# A page declares itself a copy of another when og:url (else canonical) names another
# page; self-references, in any spelling, declare nothing.
DECLARED = [
    # url, og:url, canonical → declared target
    ("https://e.com/members/;sid=9F3A/home", "https://e.com/members/", None, "e.com/members"),
    ("https://e.com/list/date/2031/", "http://www.e.com/list/date/", None, "e.com/list/date"),
    ("https://e.com/p?color=red", None, "https://e.com/p", "e.com/p"),
    ("https://e.com/p/?b=2&a=1", None, "https://e.com/p?a=1&b=2#x", None),   # self
    ("https://e.com/shirt-red/", "https://e.com/shirt-red", "https://e.com/shirt-red/", None),
    ("https://e.com/a", "https://e.com/a", "https://e.com/b", "e.com/b"),    # og self: canonical
    ("https://e.com/a", None, None, None),
    ("https://e.com/a", "not a url", None, None),
]


@pytest.mark.parametrize(("url", "og", "canonical", "target"), DECLARED)
def test_declared_targets(url: str, og: str | None, canonical: str | None,
                          target: str | None) -> None:
    assert declared_target(url, og_url=og, canonical=canonical) == target


def test_canonical_form_is_one_spelling_per_page() -> None:
    assert canonical_form("http://www.E.com:80/a/?y=2&x=1#f") == canonical_form(
        "https://e.com/a?x=1&y=2") == "e.com/a?x=1&y=2"
    assert canonical_form("https://e.com/A") != canonical_form("https://e.com/a")


def test_declared_signature_groups_copies_of_one_target_only() -> None:
    def sig(url: str, target: str, title: str = "Members") -> str:
        keys = page_keys(url, title=title, description="d", og_title="M",
                         og_url="https://e.com/members/")
        return declared_signature(url, target, keys)

    base = sig("https://e.com/members/;sid=9F3A/home", "e.com/members")
    assert sig("https://www.e.com/members/;sid=41C0/home", "e.com/members") == base
    assert sig("https://e.com/x/y/z?sid=1", "e.com/members") == base      # any URL shape
    assert sig("https://e.com/members/;sid=9F3A/home", "e.com/other") != base
    assert sig("https://e.com/members/;sid=9F3A/home", "e.com/members", "Orders") != base
    assert sig("https://other.com/members/;sid=9F3A/home", "e.com/members") != base
    assert repeat_key("e.com/a?x={v}") != repeat_key("e.com/a?y={v}")


def _canonical_by_urlsplit(url: str) -> str | None:
    """The general reading (``urlsplit``), as the oracle for the plain-URL fast path."""
    from urllib.parse import parse_qsl, urlencode, urlsplit

    from nitpicker_query.keys.page_keys import host_key

    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    if not parts.hostname:
        return None
    path = re.sub(r"%[0-9a-fA-F]{2}", lambda m: m.group(0).upper(), parts.path or "/")
    query = sorted(parse_qsl(parts.query, keep_blank_values=True))
    return (host_key(url) + "/" + "/".join(s for s in path.split("/") if s)
            + ("?" + urlencode(query) if query else ""))


_SEGMENT = st.text(alphabet="abcXYZ019-._~%2fF", max_size=6)


@settings(max_examples=400, deadline=None)
@given(scheme=st.sampled_from(["http", "https", "HTTP"]),
       host=st.sampled_from(["e.com", "www.e.com", "WWW.E.com", "1.2.3.4", "h", "a-b.c."]),
       port=st.sampled_from(["", ":80", ":443", ":8080", ":00443", ":0", ":70000"]),
       segments=st.lists(_SEGMENT, max_size=4),
       query=st.lists(st.tuples(st.sampled_from(["a", "b", "c d", ""]),
                                st.sampled_from(["1", "", "x%20y", "+"])), max_size=3),
       tail=st.sampled_from(["", "#f", "#a?b", "/", "//", " ", "\\x"]))
def test_canonical_form_reads_plain_urls_as_urlsplit_does(
        scheme: str, host: str, port: str, segments: list[str],
        query: list[tuple[str, str]], tail: str) -> None:
    """The fast path for the URLs the crawler writes and the general one give the same
    form, for every spelling (plain or not): one definition of page identity."""
    url = f"{scheme}://{host}{port}/" + "/".join(segments)
    if query:
        url += "?" + "&".join(f"{k}={v}" for k, v in query)
    url += tail
    assert canonical_form(url) == _canonical_by_urlsplit(url), url
