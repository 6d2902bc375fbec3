"""Near-duplicate content on a real crawl of a local site: which pages are grouped and
which are not, in both directions — product variants that differ in a colour and a price,
a press release with one more paragraph, Japanese pages differing in one sentence are;
distinct articles sharing a heavy template, thin login pages and a noindex copy (by
default) are not — the similarity against the exact Jaccard of the same shingles, the
passages shown to differ, and every bad argument's one line."""

from __future__ import annotations

import csv
import io
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from nitpicker_query import InvalidArgument, find_near_duplicates, get_near_duplicates
from nitpicker_query.keys.near_text import (
    SHINGLE,
    content_text,
    signature,
    similarity,
    tokens,
    word_hashes,
)
from nitpicker_query.queries.near_duplicates import clear_cache
from tests.query.served import crawled_once

QUERY = str(Path(sys.executable).with_name("nitpicker-query"))
HTML = {"Content-Type": "text/html; charset=utf-8"}
CHROME_WORDS = " ".join(f"menu{i}" for i in range(120))
"""A heavy template: 120 words of navigation and footer on every page."""
VOCABULARY = [f"{a}{b}" for a in ("ka", "lo", "mi", "su", "te", "ra", "no", "vi")
              for b in ("ble", "dor", "fen", "gan", "hol", "mar", "pin", "tus")]
KANA = ("あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわ"
        "図書館市民本")


def _words(seed: int, count: int) -> str:
    """Text of ``count`` words drawn at random (seeded): few shingles repeat."""
    draw = random.Random(seed)
    return " ".join(draw.choice(VOCABULARY) for _ in range(count))


def _kana(seed: int, count: int) -> str:
    draw = random.Random(seed)
    return "".join(draw.choice(KANA) for _ in range(count)) + "。"


DESCRIPTION = _words(1, 250)
PRESS = _words(2, 250)
EXTRA = "A correction was added later: the Saturday opening starts at ten instead of nine."
JA = _kana(3, 400)
JA_OTHER = _kana(4, 400)


def _page(main: str, *, head: str = "") -> bytes:
    return (f"<!doctype html><html><head><title>t</title>{head}</head><body>"
            f"<header><nav>{CHROME_WORDS}</nav></header><main>{main}</main>"
            f"<footer>{CHROME_WORDS}</footer></body></html>").encode()


def _article(n: int) -> str:
    return f"<h1>Article {n}</h1><p>{_words(10 + n, 150)}</p>"


PAGES: dict[str, str] = {
    "/shop/red": f"<h1>Shirt</h1><p>{DESCRIPTION}</p><p>Colour red, price 19.99 EUR, "
                 "code ZR-71529</p>",
    "/shop/blue": f"<h1>Shirt</h1><p>{DESCRIPTION}</p><p>Colour blue, price 21.50 EUR, "
                  "code ZR-71530</p>",
    "/shop/green": f"<h1>Shirt</h1><p>{DESCRIPTION}</p><p>Colour green, price 18.00 EUR, "
                   "code ZR-71531</p>",
    "/press/2024": f"<h1>Library hours</h1><p>{PRESS}</p>",
    "/press/copy": f"<h1>Library hours</h1><p>{PRESS}</p><p>{EXTRA}</p>",
    "/ja/1": f"<h1>図書館</h1><p>{JA}</p><p>お問い合わせは電話でどうぞ。</p>",
    "/ja/2": f"<h1>図書館</h1><p>{JA}</p><p>駐車場は三十台分あります。</p>",
    "/ja/3": f"<h1>料理</h1><p>{JA_OTHER}</p>",
    "/thin/1": "<form>Log in <input name=u> Password <input name=p></form>",
    "/thin/2": "<form>Sign in <input name=u> Password <input name=p></form>",
    **{f"/articles/{n}": _article(n) for n in range(3)},
}
NOINDEX = "/shop/red-noindex"


def _answer(path: str) -> tuple[int, dict[str, str], bytes]:
    if path == "/":
        links = "".join(f'<a href="{p}">{p}</a> ' for p in [*PAGES, NOINDEX])
        return 200, HTML, f"<!doctype html><html><body>{links}</body></html>".encode()
    if path == NOINDEX:
        return 200, HTML, _page(PAGES["/shop/red"],
                                head='<meta name="robots" content="noindex">')
    if path in PAGES:
        return 200, HTML, _page(PAGES[path])
    return 404, HTML, b"<!doctype html><title>no</title>"


@pytest.fixture(scope="module")
def crawled(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    clear_cache()
    with crawled_once(tmp_path_factory.mktemp("near"), _answer) as crawl:
        yield crawl


def _groups(result: dict[str, Any], base: str) -> set[frozenset[str]]:
    return {frozenset(m["url"].removeprefix(base) for m in item["members"])
            for item in result["items"]}


def test_variants_and_copies_are_grouped_distinct_pages_are_not(
        crawled: tuple[Path, str]) -> None:
    archive, base = crawled
    found = find_near_duplicates(archive)
    assert _groups(found, base) == {
        frozenset({"/shop/red", "/shop/blue", "/shop/green"}),
        frozenset({"/press/2024", "/press/copy"}),
        frozenset({"/ja/1", "/ja/2"}),
    }
    # the articles share 240 words of navigation and footer: not content
    # the thin pages are left out, not grouped as alike; the noindex copy is not indexable
    assert (found["tooShort"], found["comparedPages"]) == (3, 11)   # 2 logins, the home
    biggest = found["items"][0]
    assert (biggest["pages"], biggest["representativeUrl"]) == (3, base + "/shop/blue")
    # lower: nothing more is that alike; every page: the noindex copy joins its original
    assert _groups(find_near_duplicates(archive, threshold=60), base) == _groups(found, base)
    everything = _groups(find_near_duplicates(archive, population="all"), base)
    assert frozenset({"/shop/red", "/shop/blue", "/shop/green", NOINDEX}) in everything
    # stricter: the press release with its added paragraph falls out
    strict = _groups(find_near_duplicates(archive, threshold=98), base)
    assert frozenset({"/press/2024", "/press/copy"}) not in strict


def test_the_similarity_is_the_jaccard_of_the_shingles(crawled: tuple[Path, str]) -> None:
    archive, base = crawled

    def shingles(path: str) -> set[tuple[str, ...]]:
        text = content_text(_page(PAGES[path]).decode())
        assert text is not None
        words = tokens(text)
        return {tuple(words[i:i + SHINGLE]) for i in range(len(words) - SHINGLE + 1)}

    for one, other in [("/shop/red", "/shop/blue"), ("/press/2024", "/press/copy"),
                       ("/ja/1", "/ja/2"), ("/articles/0", "/articles/1"),
                       ("/ja/1", "/ja/3")]:
        a, b = shingles(one), shingles(other)
        exact = len(a & b) / len(a | b)
        text_one = content_text(_page(PAGES[one]).decode())
        text_other = content_text(_page(PAGES[other]).decode())
        assert text_one and text_other
        sig_one = signature(word_hashes(text_one))
        sig_other = signature(word_hashes(text_other))
        assert sig_one is not None and sig_other is not None
        assert similarity(sig_one, sig_other) == pytest.approx(exact, abs=0.1), (one, other)
    press = next(i for i in find_near_duplicates(archive)["items"]
                 if i["representativeUrl"] == base + "/press/2024")
    members = {m["url"]: m["similarity"] for m in press["members"]}
    assert members[base + "/press/2024"] == 100     # the representative itself
    assert 80 <= members[base + "/press/copy"] < 100


def test_one_pages_near_duplicates_with_what_differs(crawled: tuple[Path, str]) -> None:
    archive, base = crawled
    got = get_near_duplicates(archive, url=base + "/press/2024")
    assert got is not None
    assert [(i["url"], i["onlyHere"], i["onlyThere"]) for i in got["items"]] == [
        (base + "/press/copy", [EXTRA], [])]
    ja = (get_near_duplicates(archive, url=base + "/ja/1") or {})["items"]
    assert [(i["url"], i["onlyHere"], i["onlyThere"]) for i in ja] == [
        (base + "/ja/2", ["駐車場は三十台分あります。"], ["お問い合わせは電話でどうぞ。"])]
    # a page alike to nothing: an empty list, not an error
    assert (get_near_duplicates(archive, url=base + "/articles/0") or {})["total"] == 0


@pytest.mark.parametrize(("call", "line"), [
    ({"threshold": 40}, "threshold must be at least 50, got 40."),
    ({"population": "some"}, "population must be one of indexable, all; got 'some'."),
    ({"selector": "p[["}, "selector: not a CSS selector lexbor reads"),
    ({"min_words": 0}, "min_words must be at least 3, got 0."),
])
def test_bad_arguments_get_one_line(crawled: tuple[Path, str], call: dict[str, Any],
                                    line: str) -> None:
    archive, _base = crawled
    for query in (find_near_duplicates, get_near_duplicates):
        extra = {"url": "x"} if query is get_near_duplicates else {}
        with pytest.raises(InvalidArgument) as caught:
            query(archive, **extra, **call)
        assert str(caught.value).startswith(line) and "\n" not in str(caught.value)


def test_a_page_not_compared_says_why(crawled: tuple[Path, str]) -> None:
    archive, base = crawled
    assert get_near_duplicates(archive, url=base + "/nowhere") is None
    thin = get_near_duplicates(archive, url=base + "/thin/1")
    assert thin is not None and thin["total"] == 0
    assert thin["note"].startswith(f"{base}/thin/1 was not compared: its content area has "
                                   "fewer words than --min-words")
    hidden = get_near_duplicates(archive, url=base + NOINDEX)
    assert hidden is not None and hidden["note"].startswith(
        f"{base}{NOINDEX} is not among the indexable pages compared")
    missing = subprocess.run([QUERY, "near-duplicates-of", str(archive), "--url",
                              base + "/nowhere"], capture_output=True, text=True, timeout=60)
    assert missing.returncode == 1 and missing.stderr.splitlines() == [
        f"nitpicker-query: error: No page with URL {base}/nowhere in this archive."]
    # a long first call says how far it is
    found = subprocess.run([QUERY, "near-duplicates-of", str(archive), "--url",
                            base + "/ja/1"], capture_output=True, text=True, timeout=60)
    assert found.returncode == 0
    assert found.stderr.splitlines()[0] == "[near-duplicates-of] reading page 1 of 14 (0%)"


def test_a_selector_narrows_the_content_area(crawled: tuple[Path, str]) -> None:
    archive, base = crawled
    # only the <h1>: "Shirt" is one word, too few to compare; 図書館 is three (a CJK
    # character is a word), the same on both library pages
    only_titles = find_near_duplicates(archive, selector="h1", min_words=3)
    assert _groups(only_titles, base) == {frozenset({"/ja/1", "/ja/2"})}
    # the home page and the two login forms have no <h1>
    assert only_titles["tooShort"] == 9 and only_titles["noContentArea"] == 3
    # the <p> of the pages: the first paragraph, identical on the three shirts
    first = find_near_duplicates(archive, selector="main p", threshold=100)
    assert frozenset({"/shop/red", "/shop/blue", "/shop/green"}) in _groups(first, base)


def test_the_command_line_table_and_csv(crawled: tuple[Path, str]) -> None:
    archive, base = crawled
    table = subprocess.run([QUERY, "near-duplicates", str(archive), "--format", "table"],
                           capture_output=True, text=True, timeout=120,
                           env={"COLUMNS": "120", "PATH": "/usr/bin:/bin"})
    assert table.returncode == 0, table.stderr
    lines = table.stdout.splitlines()
    # the counts first, then the groups
    assert lines[:6] == ["threshold: 90", "population: indexable", "comparedPages: 11",
                         "populationPages: 14", "tooShort: 3", "noContentArea: 0"]
    assert lines[6].split() == ["pages", "similarity", "representativeUrl", "title"]
    assert [line.split()[0] for line in lines[8:11]] == ["3", "2", "2"]
    assert lines[8].split()[2] == base + "/shop/blue" and lines[-1] == "3 items"
    data = subprocess.run([QUERY, "near-duplicates", str(archive), "--format", "csv"],
                          capture_output=True, text=True, timeout=120)
    rows = list(csv.DictReader(io.StringIO(data.stdout)))
    # biggest first; the two pairs by their similarity, then URL
    assert (rows[0]["pages"], rows[0]["representativeUrl"]) == ("3", base + "/shop/blue")
    assert {(r["pages"], r["representativeUrl"]) for r in rows[1:]} == {
        ("2", base + "/ja/1"), ("2", base + "/press/2024")}
    assert int(rows[1]["similarity"]) >= int(rows[2]["similarity"])
    # every member in the cell, as JSON
    assert '""url"": ""' + base + '/shop/red""' in data.stdout


def test_a_word_hashes_alike_in_ascii_text_and_in_any_other() -> None:
    # English pages are cut into words by a byte table, others by the expression: the
    # same words must give the same hashes, or an English page with one "é" would be
    # unlike its copy
    plain = word_hashes("The shirt, in RED: 19.99 EUR (code ZR_71529).")
    accented = word_hashes("The shirt, in RED: 19.99 EUR (code ZR_71529) — café")
    assert len(plain) == len(tokens("The shirt, in RED: 19.99 EUR (code ZR_71529).")) == 9
    assert plain.tolist() == accented[:9].tolist()
    # and different words differ: "red" is not "rot", "19" is not "91"
    other = word_hashes("The shirt, in ROT: 91.99 EUR (code ZR_71529).")
    assert [a == b for a, b in zip(plain.tolist(), other.tolist(), strict=True)] == [
        True, True, True, False, False, True, True, True, True]
    # a CJK character is a word of its own, hashed as itself
    assert word_hashes("図書館 library").tolist()[3] == word_hashes("library").tolist()[0]
