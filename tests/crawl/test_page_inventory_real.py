"""Issue 25's page readers on pages nobody here wrote the rules for (bench/page_inventory.py):
the site a helper wrote apart from them, with an editor's truth, and Debian's DokuWiki with
a sidebar, against its own wiki text and a separate Chromium visit. Marked ``slow``
(``make test-slow``); the DokuWiki part skips with the reason where the package is
missing."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import page_inventory

from corpora.real import dokuwiki

pytestmark = pytest.mark.slow


def test_the_independent_sites_regions_inventories_and_unused_files(tmp_path: Path) -> None:
    found = page_inventory.independent_part(tmp_path)
    # every page but the Bootstrap template's, whose content column no candidate names
    assert found["wrong_templates"] == {name: ["bootstrap-columns"] for name in
                                        found["wrong_templates"]}
    assert found["fields"]["region"] == found["pages"] - 6
    assert found["fields"]["headings"] == found["fields"]["region"]
    assert found["upstream_region"] < found["fields"]["region"]   # the document-order rule
    assert (found["unused_found"], found["unused_truth"]) == (8, 8)
    assert found["unused_wrong"] == [] and found["used_called_unused"] == []


@pytest.mark.skipif(dokuwiki.missing() is not None,
                    reason=f"DokuWiki cannot run here: {dokuwiki.missing()}")
def test_dokuwiki_with_a_sidebar(tmp_path: Path) -> None:
    found = page_inventory.dokuwiki_part(tmp_path, 150)
    assert found["content"] > 50 and found["ours_ok"] == found["content"]
    assert found["upstream_main"] == 0   # the sidebar's div.content comes first
    assert found["unused"] > 300 and found["used_by_visit"] > 0
    assert found["unused_but_requested"] == [] and found["not_unused_not_requested_n"] == 0
