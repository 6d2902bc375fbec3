"""Orphans on a real MediaWiki (Debian's package): the wiki's own sitemap
(``generateSitemap.php``) is the inventory, the wiki's own link tables the truth
(``bench/sitemaps.py``). Every page the tables say no link reaches from the main page is
found, nothing else is, and they fall into the same components. Marked ``slow``; skipped
where MediaWiki cannot run."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import sitemaps

from corpora.real import mediawiki

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(mediawiki.missing() is not None,
                       reason=f"MediaWiki cannot run here: {mediawiki.missing()}"),
]


def test_a_wikis_orphans_are_its_link_tables_orphans(tmp_path: Path) -> None:
    r = sitemaps.run(tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.sitemap_urls >= r.wiki_pages - 1      # the sitemap names the wiki's pages
    assert r.truth_orphans >= len(sitemaps.ORPHANS)
    assert r.found_true == r.found_orphans == r.truth_orphans   # precision and recall 1
    assert r.found_components == r.truth_components
