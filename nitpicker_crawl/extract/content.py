"""What a page *contains*: upstream's body hash, and the blocks of its main content.

The soft cap's meta rules see only what a page says about itself (title, description,
og:*, canonical). A pager answering past its end, a share variant of an article or an old
revision of a file says all the right things, and repeats content the crawl already has.
This module gives the cap the content side, in two forms:

- :func:`body_hash`: upstream's ``body_hash`` (format 0.10 ``dedupe_cap_events.body_hash``,
  0.13 ``page_meta.body_hash``), bit for bit, so values compare with upstream's for the
  same HTML: the inner HTML from the first ``<body …>`` to the last ``</body>`` (the whole
  input when either is missing), every ``/index.<word chars>`` replaced with ``/``, every
  run of 8+ ASCII letters and digits that mixes both replaced with ``__MASKED_ID__``,
  SHA-256 of the UTF-8.
- :func:`main_content`: the page's *main content* as a set of text blocks. The region is
  the first ``<main>`` (or ``role=main``), else the only ``<article>``, else ``<body>``;
  inside it scripts, styles, templates, SVG and navigation (``nav``, and outside ``<main>``
  also ``header``, ``footer``, ``aside``) are left out. What remains is cut into blocks at
  block-level tags, each block's text whitespace-collapsed and masked as the body hash
  masks ids; blocks without a letter (page numbers, prices alone, punctuation) are left
  out. A block is kept as a 64-bit BLAKE2b hash. ``fingerprint`` is the hash of the
  sorted set — the same items in another order have the same fingerprint — and ``order``
  the hash of the blocks in document order: same fingerprint, another order is how the
  cap tells a sort order from a new page.

  ``novel_blocks`` are what the cap compares pages by: the blocks without the short ones
  (headings, labels: :data:`SELF_NAME_WORDS`) that name one of the URL's own variable
  values (``Page 9`` on ``?page=9``, ``Changes to alpha``
  on ``?item=alpha``: :func:`url_values`) and without the texts of the page's links to
  other pages of its own shape (``Page 10``, ``Previous day``): a page past a pager's end
  differs from the last real page only by its own name and its pager. ``masked_blocks``
  are the same with every number masked: a block that differs from one seen before only
  in its numbers ("Show 50 changes" after "Show 100 changes") is not *new* content.
  ``masks`` pair each novel block with the hash of its words after every token holding a
  digit is masked — numbers, dates, sizes and short ids alike (``3d10b90``) — and its
  punctuation dropped: how the views of one entity are compared (a file at another
  revision saying "since 2602578 was 3d10b90" under the heading ``src/core.py@``).
  ``coordinates`` pair each novel block (but the texts of links to its own path) with its
  hash after only the URL's *own* values are masked: "Activity of ann from 2019-03-05"
  on ``?user=ann&from=2019-03-05`` is the page's coordinates printed again, while
  "Product ZR-71529" or "Price 47.99 EUR" on ``/product/48213`` are what the page is
  about — the soft cap's probes of a path weigh content with these
  (:mod:`nitpicker_crawl.traps.deferral`); only a view's probes are weighed by ``masks``.

Bounded by construction: at most :data:`MAX_BLOCKS` blocks of :data:`MAX_BLOCK_CHARS`
characters each are hashed, whatever the page holds.
"""

from __future__ import annotations

import hashlib
import html as html_lib
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from nitpicker_query.keys.page_keys import is_variable_segment

MAX_BLOCKS = 2000
"""Blocks of one page taken into account (the rest of a huge page adds nothing to the
question "is this page new?")."""
MAX_REGION_CHARS = 1_000_000
"""Characters of the main region's HTML cut into blocks (a bigger page is judged by its
first megabyte: the crawl's other pages wait while one is read)."""
MAX_BLOCK_CHARS = 300
"""Characters of one block hashed (a block is a line or a paragraph; a longer one is
still told apart by its beginning)."""

# body_hash works on the UTF-8 bytes: every pattern is ASCII, a multi-byte character never
# contains an ASCII byte, and bytes.lower() changes only A-Z — the same spans as on the text
_BODY_OPEN = re.compile(rb"<body(?:[^>\"']|\"[^\"]*\"|'[^']*')*>", re.IGNORECASE)
_INDEX_SUFFIX = re.compile(rb"/index\.\w+", re.IGNORECASE)
_DYNAMIC_ID = re.compile(r"[a-z0-9]{8,}", re.IGNORECASE | re.ASCII)
MASK = "__MASKED_ID__"
_MASK_BYTES = MASK.encode()
_CLASSES = bytes(ord("a") if chr(b).isascii() and chr(b).isalpha() else
                 ord("0") if chr(b).isdigit() and b < 128 else ord(" ") for b in range(256))
"""Each byte as its class: ``a`` an ASCII letter, ``0`` an ASCII digit, space the rest."""
_LETTER_DIGIT = re.compile(rb"a0")
_DIGIT_LETTER = re.compile(rb"0a")  # a regex finds it by its rare first byte: 2x bytes.find

_DROPPED = "script, style, noscript, template, svg, nav"
_CHROME = "header, footer, aside"
_BLOCK_TAG = re.compile(
    r"<(?:/?(?:address|article|aside|blockquote|br|caption|dd|details|dialog|div|dl|dt|"
    r"fieldset|figcaption|figure|footer|form|h[1-6]|header|hr|legend|li|main|ol|option|p|"
    r"pre|section|summary|table|tbody|td|tfoot|th|thead|tr|ul|button|label|select|"
    r"textarea)\b)[^>]*>", re.IGNORECASE)
_TAG = re.compile(r"<[^>]*>")
_WS = re.compile(r"\s+")
_TOKEN = re.compile(r"[^\W_]+")
_DIGITS = re.compile(r"\d+")
_HAS_DIGIT = re.compile(r"\d")


def mask_dynamic_ids(text: str) -> str:
    """Mixed letter-and-digit ASCII runs of 8 or more → ``__MASKED_ID__`` (upstream's mask)."""
    def one(m: re.Match[str]) -> str:
        run = m.group(0)
        return run if run.isdigit() or run.isalpha() else MASK
    return _DYNAMIC_ID.sub(one, text)


def body_hash(html: str) -> bytes:
    """Upstream's 32-byte body hash of an HTML document (see the module docstring).

    Upstream's single pattern (an opening ``<body …>``, then greedily up to a ``</body>``)
    is evaluated in two linear steps: the first opening tag that has a ``</body>`` after
    it, and the last ``</body>`` — the same span, without backtracking over megabytes.
    The ids are masked on the UTF-8 bytes (:func:`_mask_bytes`), a hundred times faster
    than a regular expression with a callback per run on a page of long words."""
    data = html.encode("utf-8", "surrogatepass")
    last = data.lower().rfind(b"</body>")
    if last >= 0:
        m = _BODY_OPEN.search(data, 0, last)
        if m is not None:
            data = data[m.end():last]
    data = _INDEX_SUFFIX.sub(b"/", data)
    return hashlib.sha256(_mask_bytes(data)).digest()


def _mask_bytes(data: bytes) -> bytes:
    """:func:`mask_dynamic_ids` on UTF-8 bytes, found without a callback per word.

    A run of 8+ ASCII letters and digits that mixes both has a letter next to a digit
    somewhere; the runs without such a pair are left as they are. So only the pairs are
    looked for, in the bytes' classes, and each one's run is measured from the spaces
    around it: Python runs once per mixed run, not once per word."""
    classes = data.translate(_CLASSES)
    letter_digit, digit_letter = _at(_LETTER_DIGIT, classes, 0), _at(_DIGIT_LETTER, classes, 0)
    if letter_digit < 0 and digit_letter < 0:
        return data
    out: list[bytes] = []
    done, size = 0, len(classes)
    while letter_digit >= 0 or digit_letter >= 0:
        pair = letter_digit if digit_letter < 0 or 0 <= letter_digit < digit_letter \
            else digit_letter
        start = classes.rfind(b" ", 0, pair) + 1
        end = classes.find(b" ", pair)
        end = size if end < 0 else end
        if end - start >= 8:
            out += (data[done:start], _MASK_BYTES)
            done = end
        if 0 <= letter_digit < end:
            letter_digit = _at(_LETTER_DIGIT, classes, end)
        if 0 <= digit_letter < end:
            digit_letter = _at(_DIGIT_LETTER, classes, end)
    out.append(data[done:])
    return b"".join(out)


def _at(pattern: re.Pattern[bytes], data: bytes, start: int) -> int:
    """Where ``pattern`` next matches in ``data`` from ``start``; -1 if nowhere."""
    m = pattern.search(data, start)
    return m.start() if m is not None else -1


def _block_hash(text: str) -> int:
    digest = hashlib.blake2b(text[:MAX_BLOCK_CHARS].encode("utf-8", "replace"), digest_size=8)
    return int.from_bytes(digest.digest(), "big")


def url_values(url: str) -> tuple[frozenset[str], tuple[tuple[str, ...], ...]]:
    """The URL's own variable values, as what a page may print about itself without it
    being new content: its numbers (``9`` of ``?page=9``; ``1990``, ``01``, ``05`` of
    ``?from=1990-01-05``), each matched on its own, and its word values as phrases
    (``Topic_007`` → ``topic 007``), matched only as a whole."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return frozenset(), ()
    values = [unquote(s) for s in parts.path.split("/") if is_variable_segment(s)]
    values += [v for _, v in parse_qsl(parts.query, keep_blank_values=False)]
    numbers: set[str] = set()
    phrases: list[tuple[str, ...]] = []
    for value in values[:16]:
        tokens = tuple(t.lower() for t in _TOKEN.findall(value[:200]))
        if tokens and all(t.isdigit() for t in tokens):
            numbers.update(tokens)
        elif tokens and len(tokens) <= 12:
            phrases.append(tokens)
    return frozenset(numbers), tuple(phrases)


SELF_NAME_WORDS = 6
"""Words a block may have to count as the page naming itself (a heading, a label:
"Catalog - Page 9", "Friday 05 January 1990"); a sentence that mentions the page's name
("Paragraph 2 about topic 127 …") is content."""


def _names_itself(tokens: list[str], numbers: frozenset[str],
                  phrases: tuple[tuple[str, ...], ...]) -> bool:
    if len(tokens) > SELF_NAME_WORDS:
        return False
    if numbers and numbers.intersection(tokens):
        return True
    for phrase in phrases:
        n = len(phrase)
        if any(tuple(tokens[i:i + n]) == phrase for i in range(len(tokens) - n + 1)):
            return True
    return False


@dataclass(frozen=True)
class Content:
    """The main content of one page, as the soft cap compares it."""

    blocks: frozenset[int]         # every block of the main region
    novel_blocks: frozenset[int]   # the blocks not naming the URL's own variable values
    masked_blocks: frozenset[int]  # the same with every number masked
    masks: tuple[tuple[int, int], ...]  # novel block → it with every token with a digit masked
    coordinates: tuple[tuple[int, int], ...]  # novel block → it with the URL's numbers masked
    fingerprint: int               # of ``blocks``, order-insensitive
    order: int                     # of the blocks in document order
    in_main: bool                  # the region was a <main> / role=main / single <article>


def _region(tree: Any) -> tuple[Any, bool]:
    main = tree.css_first("main") or tree.css_first('[role="main"]')
    if main is not None:
        return main, True
    articles = tree.css("article")
    if len(articles) == 1:
        return articles[0], True
    return tree.body, False


def _coordinate_hash(line: str, numbers: frozenset[str],
                     phrases: tuple[tuple[str, ...], ...]) -> int:
    """A block's hash with the URL's own values masked: its words and numbers, lower-cased,
    each number of the URL and each word value (as a whole phrase) replaced by ``#``."""
    tokens = [t.lower() for t in _TOKEN.findall(mask_dynamic_ids(line))]
    tokens = ["#" if t in numbers else t for t in tokens]
    for phrase in phrases:
        n = len(phrase)
        i = 0
        while i + n <= len(tokens):
            if tuple(tokens[i:i + n]) == phrase:
                tokens[i:i + n] = ["#"]
            i += 1
    return _block_hash(" ".join(tokens))


def _view_hash(line: str) -> int:
    """A block as the views of one entity are compared: its words, lower-cased, every
    token holding a digit as ``#``, punctuation dropped — ``src/core.py@ 11a090b`` at a
    revision is ``src/core.py`` at the newest."""
    return _block_hash(" ".join("#" if _HAS_DIGIT.search(t) else t.lower()
                                for t in _TOKEN.findall(line)))


def main_content(tree: Any, url: str, *, siblings: frozenset[str] = frozenset(),
                 path_siblings: frozenset[str] = frozenset()) -> Content | None:
    """The main content of a parsed document (a selectolax tree, **modified**: the parts
    left out are removed from it), or None when it has no body. ``siblings``: the texts
    of the page's links to other URLs of its own shape (a pager's "Page 10", "Next day"):
    navigation among the shape's pages, left out of ``novel_blocks``; ``path_siblings``
    the texts of its links to other URLs of its path (any query: a sort, a filter, a
    login's ``returnto``), left out of ``coordinates`` too."""
    region, in_main = _region(tree)
    if region is None:
        return None
    for node in region.css(_DROPPED if in_main else f"{_DROPPED}, {_CHROME}"):
        node.decompose()
    text = _TAG.sub("", _BLOCK_TAG.sub("\n", (region.html or "")[:MAX_REGION_CHARS]))
    numbers, phrases = url_values(url)
    blocks: set[int] = set()
    novel: set[int] = set()
    ordered: list[int] = []
    masked: set[int] = set()
    masks: list[tuple[int, int]] = []
    coordinates: list[tuple[int, int]] = []
    for line in html_lib.unescape(text).split("\n"):
        line = _WS.sub(" ", line).strip()
        if not line or not any(c.isalpha() for c in line):
            continue
        h = _block_hash(mask_dynamic_ids(line))
        if h in blocks:
            continue
        blocks.add(h)
        ordered.append(h)
        if line in siblings:
            continue
        if not (numbers or phrases) or not _names_itself(
                [t.lower() for t in _TOKEN.findall(line)], numbers, phrases):
            novel.add(h)
            masked.add(_block_hash(_DIGITS.sub("#", mask_dynamic_ids(line))))
            masks.append((h, _view_hash(line)))
            if line not in path_siblings:
                coordinates.append((h, _coordinate_hash(line, numbers, phrases)))
        if len(blocks) >= MAX_BLOCKS:
            break
    frozen = frozenset(blocks)
    fingerprint = _block_hash(",".join(map(str, sorted(frozen))))
    order = _block_hash(",".join(map(str, ordered)))
    return Content(frozen, frozenset(novel), frozenset(masked), tuple(masks),
                   tuple(coordinates), fingerprint, order, in_main)
