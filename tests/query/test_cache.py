"""The extraction cache: keyed by file identity, shared safely between processes."""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nitpicker_query as q
from nitpicker_query import cache
from tests.fixtures import build_pre013

OPEN_AND_PRINT = (
    "import sys, nitpicker_query as q\n"
    "a = q.open_archive(sys.argv[1]); print(a.directory); "
    "print(q.get_summary(a)['totalPages']); a.close()\n"
)


def test_two_processes_extracting_at_once_share_one_copy(tmp_path: Path) -> None:
    archive = build_pre013(tmp_path, extended=True, name="race")
    env = {**os.environ, "NITPICKER_PY_CACHE_DIR": str(tmp_path / "cache")}
    procs = [subprocess.Popen([sys.executable, "-c", OPEN_AND_PRINT, str(archive)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=env) for _ in range(8)]
    outputs = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), [o[1] for o in outputs]
    directories = {o[0].splitlines()[0] for o in outputs}
    assert len(directories) == 1
    assert {o[0].splitlines()[1] for o in outputs} == {"5"}
    entries = sorted(p.name for p in (tmp_path / "cache").iterdir())
    assert len(entries) == 1 and not entries[0].endswith((".staging", ".lock"))


def test_threads_extracting_at_once_share_one_copy(tmp_path: Path, monkeypatch: object) -> None:
    """The MCP server opens archives from worker threads, which share one PID."""
    archive = build_pre013(tmp_path, extended=True, name="threads")
    monkeypatch.setenv("NITPICKER_PY_CACHE_DIR", str(tmp_path / "cache"))  # type: ignore[attr-defined]

    def open_once(_: int) -> tuple[Path, int]:
        with q.open_archive(archive) as a:
            return a.directory, q.get_summary(a)["totalPages"]

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(open_once, range(8)))
    assert len({d for d, _ in results}) == 1
    assert {n for _, n in results} == {5}
    assert len(list((tmp_path / "cache").iterdir())) == 1


def test_rewritten_file_gets_a_new_cache_entry(tmp_path: Path) -> None:
    first = build_pre013(tmp_path, name="site")
    with q.open_archive(first) as a:
        old_dir = a.directory
    build_pre013(tmp_path, extended=True, name="site")  # same path, new content
    with q.open_archive(first) as a:
        assert a.directory != old_dir
        assert q.get_summary(a)["totalPages"] == 5


def test_unready_leftover_is_moved_aside_not_trusted(tmp_path: Path) -> None:
    archive = build_pre013(tmp_path, name="left")
    directory = cache.cache_dir_for(archive, cache.cache_key(archive))
    directory.mkdir(parents=True)
    (directory / "db.sqlite").write_bytes(b"half-written")
    with q.open_archive(archive) as a:
        assert q.get_summary(a)["totalPages"] == 2
    assert any(p.name.startswith(directory.name + ".corrupt.") for p in directory.parent.iterdir())


def test_cache_can_be_disabled(tmp_path: Path, monkeypatch: object) -> None:
    archive = build_pre013(tmp_path, name="private")
    monkeypatch.setenv("NITPICKER_PY_DISABLE_CACHE", "1")  # type: ignore[attr-defined]
    with q.open_archive(archive) as a:
        private = a.directory
        assert q.get_summary(a)["totalPages"] == 2
    assert not private.exists()
