"""A real MediaWiki (Debian's package, SQLite, ``php -S``) crawled with the soft cap and no
``--max-pages``: the crawl ends by itself, every article and category page is crawled,
and no URL of the article shape is ever refused — in both URL layouts, with nofollow
links followed (the hard case: nothing but the cap keeps the crawl finite).

Marked ``slow`` (``make test-slow``; CI runs it where the packages are installed). Set-up
and crawl helpers live in ``corpora/real/mediawiki.py``, which also records the numbers.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from corpora.real import mediawiki

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(mediawiki.missing() is not None,
                       reason=f"MediaWiki cannot run here: {mediawiki.missing()}"),
]

MAX_FETCHED = 5000


@pytest.fixture(scope="module", params=["wiki", "index"])
def served(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[mediawiki.Wiki, str]]:
    wiki = mediawiki.setup(tmp_path_factory.mktemp("mw") / request.param, request.param)
    with mediawiki.serve(wiki) as base:
        yield wiki, base


@pytest.mark.parametrize(("cap", "follow"), [
    pytest.param(100, True, marks=pytest.mark.heavy),   # 4 to 6 minutes (make test-heavy)
    (20, False)])
def test_capped_crawl_of_a_real_wiki_ends_with_every_article(
        served: tuple[mediawiki.Wiki, str], tmp_path: Path, cap: int, follow: bool) -> None:
    wiki, base = served
    r = mediawiki.crawl(wiki, base, tmp_path / "wiki.nitpicker", cap=cap,
                        follow_nofollow=follow, max_pages=3 * MAX_FETCHED, timeout=1200)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "max-pages" not in r.stderr          # ended by itself, not by the safety net
    assert r.fetched < MAX_FETCHED, r.fetched
    assert r.articles_ok == r.articles_total == mediawiki.ARTICLES + mediawiki.CATEGORIES
    assert r.article_shape_refused == 0
    assert r.events > 0 and r.refused > 0
