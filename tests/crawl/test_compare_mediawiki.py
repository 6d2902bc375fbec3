"""Comparing two crawls of a real application (issue 41): Debian's MediaWiki crawled,
edited through its own maintenance scripts — an article rewritten, one deleted, one moved
(MediaWiki leaves a redirect page behind), a new article linked from the rewritten one —
and crawled again. Every edit is found, in the words MediaWiki's own behaviour gives it.

Marked ``slow`` (``make test-slow``), skipped with the reason where MediaWiki cannot run.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from typing import Any

import pytest

from corpora.real import mediawiki
from corpora.real.serving import run_crawl
from nitpicker_query.queries.compare import compare_archives

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(mediawiki.missing() is not None,
                       reason=f"MediaWiki cannot run here: {mediawiki.missing()}"),
]


def _script(wiki: mediawiki.Wiki, *args: str, text: str | None = None) -> None:
    subprocess.run(["php", *args], input=text, cwd=mediawiki.MEDIAWIKI, env=wiki.env,
                   check=True, capture_output=True, text=True)


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    directory = tmp_path_factory.mktemp("mw-compare")
    wiki = mediawiki.setup(directory / "wiki", "wiki")
    found: dict[str, Any] = {}
    with mediawiki.serve(wiki) as base:
        code, _, err = run_crawl(base, directory / "old.nitpicker", cap=100)
        assert code == 0, err[-2000:]
        found["old_base"] = base
    _script(wiki, "maintenance/edit.php", "-s", "rewritten", "Topic 005",
            text="'''Topic 005''' rewritten for the release. See [[New Topic]] and "
                 "[[Topic 006]].\n\n[[Category:Group 5]]\n")
    _script(wiki, "maintenance/edit.php", "-s", "new", "New Topic",
            text="'''New Topic''' is new. Back to [[Topic 005]].\n\n[[Category:Group 5]]\n")
    (directory / "delete.txt").write_text("Topic 010\n")
    _script(wiki, "maintenance/deleteBatch.php", "-r", "gone", str(directory / "delete.txt"))
    (directory / "move.txt").write_text("Topic 020|Topic 020 renamed\n")
    _script(wiki, "maintenance/moveBatch.php", "-r", "renamed", str(directory / "move.txt"))
    wiki.php("maintenance/runJobs.php")
    with mediawiki.serve(wiki) as base:   # another port: the map says where the site went
        code, _, err = run_crawl(base, directory / "new.nitpicker", cap=100)
        assert code == 0, err[-2000:]
        found["new_base"] = base
    found["old"], found["new"] = directory / "old.nitpicker", directory / "new.nitpicker"
    found["map"] = f"{found['old_base']}={found['new_base']}"
    yield found


def _rows(pair: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return compare_archives(pair["new"], old=pair["old"], kind=kind, maps=pair["map"],
                            limit=1000)["items"]


def _article(pair: dict[str, Any], url: str) -> str | None:
    tail = url.removeprefix(pair["new_base"]).removeprefix(pair["old_base"])
    return tail.removeprefix("wiki/") if tail.startswith("wiki/") and "?" not in tail \
        and ":" not in tail else None


def test_every_edit_of_a_real_wiki_is_found(pair: dict[str, Any]) -> None:
    summary = compare_archives(pair["new"], old=pair["old"], maps=pair["map"])
    assert summary["comparable"] is True, summary["notes"]
    changed: dict[str, dict[str, Any]] = {}
    for row in _rows(pair, "changed"):
        title = _article(pair, row["url"])
        if title is not None:
            changed.setdefault(title, {})[row["field"]] = (row["old"], row["new"])
    # rewritten: its text, its links
    assert {"bodyHash", "wordCount", "outlinks"} <= set(changed["Topic_005"])
    # moved: MediaWiki answers the old title 200 with the new one's page, canonical to it
    moved = changed["Topic_020"]
    assert moved["title"] == ("Topic 020 - Bench Wiki", "Topic 020 renamed - Bench Wiki")
    assert moved["canonical"][1] == pair["new_base"] + "wiki/Topic_020_renamed"
    assert moved["indexable"] == ("yes", "no: canonical names another page")
    added = {_article(pair, r["url"]): r for r in _rows(pair, "added")}
    assert {"New_Topic", "Topic_020_renamed"} <= set(added)
    # deleted: only the deletion log links it now, with rel=nofollow
    removed = {_article(pair, r["url"]): r["reason"] for r in _rows(pair, "removed")}
    assert removed["Topic_010"] == "only nofollow links now"
    # the other articles: nothing but what MediaWiki itself changed on them
    untouched = {t for t in changed if t not in ("Topic_005", "Topic_020", "Topic_006")}
    for title in untouched:
        assert set(changed[title]) <= {"inlinks", "outlinks", "depth", "bodyHash",
                                       "wordCount"}, (title, changed[title])
    for title in ("Topic_005", "Topic_020", "Topic_010"):
        assert title not in {_article(pair, r["url"]) for r in _rows(pair, "not-comparable")}
