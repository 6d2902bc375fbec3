"""Several threads querying one open archive get the same answers as serial calls."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nitpicker_query as q

CALLS = [
    (q.get_summary, {}),
    (q.list_pages, {}),
    (q.list_pages, {"sort_by": "status", "sort_order": "desc"}),
    (q.get_page_detail, {"url": "http://localhost/b"}),
    (q.list_links, {"type": "broken"}),
    (q.list_links, {"type": "external"}),
    (q.check_headers, {}),
    (q.find_duplicates, {}),
]


def test_eight_threads_match_serial(extended_archive: Path) -> None:
    with q.open_archive(extended_archive) as archive:
        serial = [f(archive, **kw) for f, kw in CALLS]
        with ThreadPoolExecutor(max_workers=8) as pool:
            futures = [pool.submit(f, archive, **kw) for _ in range(25) for f, kw in CALLS]
            results = [fut.result() for fut in futures]
    assert results == serial * 25


def test_second_open_reuses_the_cache(extended_archive: Path) -> None:
    with q.open_archive(extended_archive) as first:
        db = first.directory / "db.sqlite"
        identity = (db.stat().st_ino, db.stat().st_mtime_ns)
        directory = first.directory
    with q.open_archive(extended_archive) as second:
        assert second.directory == directory
    assert (db.stat().st_ino, db.stat().st_mtime_ns) == identity  # not extracted again
