"""A real Trac (PyPI's Trac 1.6, ``tracd``, with a Git repository browser) crawled with the
soft cap and no ``--max-pages`` to stop it: the crawl ends by itself, every legit page —
wiki pages, tickets, changesets, files and directories at HEAD, milestones, reports, hub
pages — is crawled with status 200, and none is refused, with nofollow links followed
(Trac marks its export links ``rel=nofollow`` and its history, diff and blame views
``NOFOLLOW``) and not; and the crawl stays below ``MAX_FETCHED`` pages, where the
repository browser alone (every file at every revision, sorted every way, with its log
and its per-path changesets) and the timeline (paging back without end) hold far more.

Marked ``slow`` (``make test-slow``). The module's fixture first calls
``ensure_installed()`` — in the fixture, not at import, so that collecting this file (as
``make test`` does before deselecting it) installs nothing — which takes a few seconds
where PyPI (and, for ``git``, Debian's packages) can be reached: it installs Trac into
``.bench-tools/trac`` of the checkout, and ``git`` when root. Where that is not possible
the tests are skipped with the reason ``missing()`` gives. Set-up (about 5 s) and crawl
helpers live in ``corpora/real/trac.py``, which also records the numbers.
"""

from __future__ import annotations

import re
import subprocess
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from corpora.real import trac

pytestmark = [pytest.mark.slow]

MAX_FETCHED = 3000
MAX_FETCHED_FOLLOWING = 6000
"""With nofollow links followed, Trac's export links come on top — ``?format=csv|tab|rss``
of every ticket and query, ``?format=diff|zip`` of every changeset, ``?format=txt`` of
every wiki page: a few per entity, none of them HTML (never clustered), ~1,500–2,000 in
all (docs/BENCHMARKS.md)."""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[trac.Tracker, str]]:
    try:
        why = trac.ensure_installed()
    except (OSError, subprocess.CalledProcessError) as e:  # no registry reached, no root
        why = trac.missing() or f"installing failed: {e}"
    if why is not None:
        pytest.skip(f"Trac cannot run here: {why}")
    tracker = trac.setup(tmp_path_factory.mktemp("trac") / "tracker")
    with trac.serve(tracker) as base:
        bad = trac.survey(tracker, base)  # also finds what only nofollow leads to
        assert not bad, bad[:10]
        yield tracker, base


def _html(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as r:
        assert r.status == 200
        return str(r.read().decode())


def test_seeded_content_is_real(served: tuple[trac.Tracker, str]) -> None:
    tracker, base = served
    assert len(tracker.tickets) == trac.TICKETS
    assert len(tracker.commits) == trac.COMMITS
    assert len(tracker.files) == len(trac.FILES)
    assert set(trac.WIKI_PAGES) <= set(tracker.wiki_pages)
    # a changeset page lists the files it changed, each linked to the file at that revision
    sha = tracker.commits[len(tracker.commits) // 2]
    html = _html(f"{base}changeset/{sha}")
    assert tracker.changed[sha]
    for path in tracker.changed[sha]:
        assert f'href="/browser/{path}?rev={sha}"' in html, path
    # a ticket page shows its summary, and its comments
    number, summary = next((n, s) for n, s in tracker.tickets.items() if n >= 10)
    html = _html(f"{base}ticket/{number}")
    assert summary in html
    # a wiki page of ours has its versions, and links tickets and changesets
    name = next(n for n, v in tracker.own_pages.items() if v >= 2)
    html = _html(f"{base}wiki/{name}?action=history")
    assert f'href="/wiki/{name}?version={tracker.own_pages[name]}"' in html
    html = _html(f"{base}wiki/{name}")
    assert re.search(r'href="/ticket/\d+"', html)
    assert re.search(r'href="/changeset/[0-9a-f]{10}"', html)
    # the browser lists the repository at HEAD without a revision in its links
    html = _html(f"{base}browser")
    for top in {p.split("/")[0] for p in tracker.files + tracker.directories}:
        assert f'href="/browser/{top}"' in html, top


@pytest.mark.parametrize(("cap", "follow"), [
    (100, False), (20, False),
    pytest.param(100, True, marks=pytest.mark.heavy)])   # 6 minutes (make test-heavy)
def test_capped_crawl_of_a_real_tracker_ends_with_every_legit_page(
        served: tuple[trac.Tracker, str], tmp_path: Path, cap: int, follow: bool) -> None:
    tracker, base = served
    r = trac.crawl(tracker, base, tmp_path / "trac.nitpicker", cap=cap,
                   follow_nofollow=follow, max_pages=3 * MAX_FETCHED_FOLLOWING, timeout=1800)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.ended, "stopped by --max-pages, not by itself"
    assert r.legit_ok == r.legit_total, (r.legit_ok, r.legit_total)
    assert r.legit_refused == 0
    bound = MAX_FETCHED_FOLLOWING if follow else MAX_FETCHED
    assert r.fetched < bound, (r.fetched, r.sections.most_common(),
                               r.trap_kinds.most_common(15))
