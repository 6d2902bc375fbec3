"""A real DokuWiki (Debian's package, ``php -S``) crawled with the soft cap: the crawl ends
by itself, every content page (the seeded pages and the start pages) is crawled with
status 200, and no content page is ever refused — with nofollow links followed (the hard
case: DokuWiki marks its revisions, diff, backlink, source and media-manager links
nofollow, so only the cap keeps the crawl finite) and not.

Marked ``slow`` (``make test-slow``; CI runs it where the packages are installed). Set-up
and crawl helpers live in ``corpora/real/dokuwiki.py``, which also records the numbers.
"""

from __future__ import annotations

import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from corpora.real import dokuwiki

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(dokuwiki.missing() is not None,
                       reason=f"DokuWiki cannot run here: {dokuwiki.missing()}"),
]

MAX_FETCHED = 5000
SEEDED = len(dokuwiki.NAMESPACES) * dokuwiki.PAGES_PER_NAMESPACE
START_PAGES = len(dokuwiki.NAMESPACES) + 2  # one per namespace, projects:start, start


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[dokuwiki.Wiki, str]]:
    wiki = dokuwiki.setup(tmp_path_factory.mktemp("dw") / "wiki")
    with dokuwiki.serve(wiki) as base:
        yield wiki, base


def _get(url: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url, timeout=30) as r:
        return r.status, r.headers.get("Content-Type", ""), r.read()


def test_seeded_wiki_has_real_revisions_and_media(
        served: tuple[dokuwiki.Wiki, str]) -> None:
    wiki, base = served
    assert len(wiki.pages) == SEEDED + START_PAGES
    page, history = next((p, h) for p, h in wiki.revisions.items() if len(h) >= 3)
    status, _, body = _get(wiki.page_url(base, page) + "&do=revisions")
    html = body.decode()
    assert status == 200
    # DokuWiki lists every older revision as a link to ?id=…&rev=<timestamp> (and a diff)
    for rev in history[:-1]:
        assert f"rev={rev.date}" in html, rev.date
    assert len(re.findall(r'class="diff_link"', html)) >= len(history) - 1
    status, _, body = _get(wiki.page_url(base, page) + f"&rev={history[0].date}&do=diff")
    assert status == 200
    assert b'<table class="diff diff_' in body  # the diff view compares two real revisions
    # every page's URL is one the wiki itself links, colons unescaped
    status, _, body = _get(wiki.page_url(base, "wiki:start"))
    assert status == 200
    for other in (p for p in wiki.pages if p.startswith("wiki:") and p != "wiki:start"):
        assert f'href="/doku.php?id={other}"'.encode() in body, other
    for url in wiki.media_urls(base):
        status, ctype, body = _get(url)
        assert status == 200, url
        assert ctype.startswith("image/png" if url.endswith(".png") else "text/plain"), ctype
        assert body


@pytest.mark.parametrize(("cap", "follow"), [(100, False), (100, True), (20, False),
                                             (20, True)])
def test_capped_crawl_of_a_real_dokuwiki_ends_with_every_page(
        served: tuple[dokuwiki.Wiki, str], tmp_path: Path, cap: int, follow: bool) -> None:
    wiki, base = served
    r = dokuwiki.crawl(wiki, base, tmp_path / "wiki.nitpicker", cap=cap,
                       follow_nofollow=follow, max_pages=3 * MAX_FETCHED, timeout=1200)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.ended, r.stderr[-2000:]            # by itself, not by the safety net
    assert r.pages_ok == r.pages_total == SEEDED + START_PAGES
    assert r.page_shape_refused == 0
    assert r.fetched < MAX_FETCHED, r.fetched
