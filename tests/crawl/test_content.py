"""What a page contains: upstream's body hash (bit for bit) and the main-content blocks the
soft cap compares pages by."""

from __future__ import annotations

import hashlib
import re
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nitpicker_crawl.extract.content import MAX_BLOCKS, body_hash, main_content, mask_dynamic_ids
from page_cluster.nesting import parse_html

# upstream's golden cases (body-hash-golden.json of d-zero-dev/nitpicker): input as UTF-8
# hex, SHA-256 expected; the edges of its patterns
GOLDEN = [
    ("3c68746d6c3e3c686561643e3c7469746c653e743c2f7469746c653e3c2f686561643e3c626f64793e68"
     "656c6c6f3c2f626f64793e3c2f68746d6c3e",
     "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"),
    ("3c6469763e667261676d656e74206f6e6c793c2f6469763e",
     "d5856f64fd00874356029dfe96d863dc883c06c4bebc67d9d0d2880feaaf2802"),
    ("3c626f647920646174612d783d22613e62223e696e736964653c2f626f64793e",
     "106b086224a4d945eae25f7be3805a931a873270326dd868b0e41f71ee9fff72"),
    ("3c626f647967756172643e677561726465643c2f626f647967756172643e",
     "33b9aa4dc308c3379879cf130696bc394239a113969c0b4900d7a13c5bed902a"),
    ("3c626f647967756172643e673c2f626f647967756172643e3c626f64793e7265616c3c2f626f64793e",
     "f8c4adc4b87ac344cba6dedbddd822fe42f94cfe37e18feb7a9b7a8421fed22b"),
    ("3c626f64793e6e6576657220636c6f736564203c703e783c2f703e",
     "271a92fc612a0d4fdeb854fa9ba61531b8e2ffe9437376a8a8333e4a7eb9ee66"),
    ("3c626f64793e2f696e6465782e2f202f696e6465782e202f696e6465783c2f626f64793e",
     "c07ed1d6282fe890a4df8688349bbfe00c047f9f4bc6db465128c336958d96f1"),
    ("3c626f64793e616263645f31323334656667682061626364313233345f656667683c2f626f64793e",
     "bd21d172c868fae959275801d0a992276a4af0d9c1e838c4e014ad4a47051a51"),
    ("3c626f64793e61626364e284aa3132333465666768202f696e6465782ee284aa746d6c3c2f626f64793e",
     "25c3dca509265e6ba330968d82b26cace423decf53977acdcc9c6d1968b226ab"),
    ("3c626f64793e2fc4b04e4445582e68746d6c202fc4b16e6465782e68746d6c3c2f626f64793e",
     "a7fbf2834efbd58c7323d51c3f298cf065740af50ebe38021fb4f5c622876239"),
    ("3c626f64793ee697a5e69cace8aa9ee381aee38386e382ade382b9e3838820616263313233343520efbca1"
     "efbca2efbca3efbc91efbc92efbc93efbc94efbc9520f09f98803c2f626f64793e",
     "7f7ece1a11de695542856a0fa23c53221e1d639809468abbdc44cef92a1a0cf8"),
]


@pytest.mark.parametrize(("utf8_hex", "expected"), GOLDEN)
def test_body_hash_is_upstreams(utf8_hex: str, expected: str) -> None:
    assert body_hash(bytes.fromhex(utf8_hex).decode("utf-8")).hex() == expected


def test_body_hash_masks_ids_and_index_suffixes_both_ways() -> None:
    a = "<body><a href='/about/index.html'>x</a> build 9f8e7d6c5b</body>"
    assert body_hash(a) == body_hash("<body><a href='/about/'>x</a> build 1a2b3c4d5e</body>")
    # a pure-digit or pure-letter run is content, and so is a 7-character id
    assert body_hash("<body>order 20240101</body>") != body_hash("<body>order 20240102</body>")
    assert body_hash("<body>id abc123x</body>") != body_hash("<body>id abc123y</body>")
    assert mask_dynamic_ids("id: a1b2c3d4 end") == "id: __MASKED_ID__ end"


def _reference_body_hash(html: str) -> bytes:
    """Upstream's algorithm as its regular expressions say it, on the text (the way
    body_hash computed it before it worked on bytes; too slow for a whole crawl)."""
    last = html.translate(str.maketrans(string.ascii_uppercase, string.ascii_lowercase)
                          ).rfind("</body>")
    body = html
    if last >= 0:
        m = re.compile(r"<body(?:[^>\"']|\"[^\"]*\"|'[^']*')*>", re.IGNORECASE).search(
            html, 0, last)
        if m is not None:
            body = html[m.end():last]
    body = re.sub(r"/index\.\w+", "/", body, flags=re.IGNORECASE | re.ASCII)
    return hashlib.sha256(mask_dynamic_ids(body).encode("utf-8", "surrogatepass")).digest()


_PIECES = ["<body", "<BODY class='a>b'>", '<body data-x="1>2">', ">", "</body>", "</BoDy>",
           "/index.", "/INDEX.html", "html", "a1", "1a", "abcd", "1234", "x", " ", "-", "é",
           "\u212a", "\u0130", "_", "\ud800", "日本", "\n", "\"", "'", "Z9"]


@settings(max_examples=300)
@given(st.lists(st.sampled_from(_PIECES), max_size=40).map("".join) | st.text(max_size=80))
def test_body_hash_on_bytes_equals_the_patterns_on_text(html: str) -> None:
    assert body_hash(html) == _reference_body_hash(html)


def test_body_hash_masks_mixed_runs_wherever_they_are() -> None:
    for html in ("a1b2c3d4", "x abcdefg1 y", "<body>1234567a</body>", "a" * 7 + "1" * 7,
                 "ab12cd34ef56 ab12 1234567890 abcdefghij 9f8e7d6c5b4a3", "é9abcdefgé"):
        assert body_hash(html) == _reference_body_hash(html), html


def _content(html: str, url: str = "https://example.com/list?page=9"):  # type: ignore[no-untyped-def]
    c = main_content(parse_html(html), url)
    assert c is not None
    return c


ITEMS = "".join(f"<li><a href='/i/{w}'>{w.title()} lamp</a><p>A {w} lamp.</p></li>"
                for w in ("oak", "pine", "elm"))


def test_main_region_leaves_chrome_and_scripts_out() -> None:
    page = (f"<body><header>Acme shop</header><nav>Home About</nav><main><h1>Lamps</h1>"
            f"<script>var token = 'x';</script><ul>{ITEMS}</ul><nav>Next page</nav></main>"
            f"<footer>Copyright Acme</footer></body>")
    other = page.replace("Acme shop", "Other header").replace("Copyright Acme", "Other")
    assert _content(page).fingerprint == _content(other).fingerprint
    assert len(_content(page).blocks) == 7  # h1 + 3 × (name, text)
    # without <main>: header, footer, aside and nav are still left out
    bare = f"<body><header>Acme</header><h1>Lamps</h1><ul>{ITEMS}</ul><aside>Ads</aside></body>"
    assert _content(bare).fingerprint == _content(
        bare.replace("Ads", "Other ads")).fingerprint
    assert _content(bare).in_main is False and _content(page).in_main is True
    # and the content itself changes the fingerprint
    assert _content(page).fingerprint != _content(page.replace("Oak lamp", "Ash lamp")).fingerprint


def test_fingerprint_ignores_order_and_order_hash_sees_it() -> None:
    one = f"<main><ul>{ITEMS}</ul></main>"
    parts = ITEMS.split("</li>")[:-1]
    reordered = "<main><ul>" + "</li>".join(reversed(parts)) + "</li></ul></main>"
    a, b = _content(one), _content(reordered)
    assert a.fingerprint == b.fingerprint and a.order != b.order


def test_novel_blocks_leave_out_the_urls_own_values_and_its_pager() -> None:
    def at(n: int) -> object:
        url = f"https://example.com/catalog?page={n}"
        return main_content(parse_html(
            f"<main><h1>Catalog - Page {n}</h1><ul>{ITEMS}</ul><p><a href='?page={n + 1}'>"
            f"Go to page {n + 1}</a></p></main>"), url,
            siblings=frozenset({f"Go to page {n + 1}"}))

    page9, page10 = at(9), at(10)
    assert page9.novel_blocks == page10.novel_blocks  # type: ignore[attr-defined]
    assert page9.blocks != page10.blocks  # type: ignore[attr-defined]
    # numbers that are not the page's own stay content: "Topic 7" is not "Topic 8"
    t7 = _content("<main><p>About topic 7</p></main>", "https://example.com/w?title=Topic_001")
    t8 = _content("<main><p>About topic 8</p></main>", "https://example.com/w?title=Topic_002")
    assert t7.novel_blocks != t8.novel_blocks
    # a word value of the URL names the page as a whole phrase, not word by word
    alpha = _content("<main><h1>Changes to alpha</h1><p>No changes</p></main>",
                     "https://example.com/changes?item=alpha")
    beta = _content("<main><h1>Changes to beta</h1><p>No changes</p></main>",
                    "https://example.com/changes?item=beta")
    assert alpha.novel_blocks == beta.novel_blocks
    article = _content("<main><h1>Topic 001</h1><p>Another topic</p></main>",
                       "https://example.com/w?title=Topic_001")
    assert len(article.novel_blocks) == 1  # "Another topic" stays: not the phrase
    gamma = _content("<main><h1>Changes to gamma</h1><p>No changes</p></main>",
                     "https://example.com/changes?item=beta")
    assert gamma.novel_blocks != beta.novel_blocks


def test_blocks_are_bounded() -> None:
    huge = "<main>" + "".join(f"<p>line {'x' * (i % 50)} {chr(65 + i % 26)}{i}</p>"
                              for i in range(20_000)) + "</main>"
    assert len(_content(huge).blocks) == MAX_BLOCKS
