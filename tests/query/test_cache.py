"""The extraction cache: keyed by file identity, shared safely between processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nitpicker_query as q
from corpora.fixture_archives import build_pre013
from nitpicker_query.archive import cache

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


# --------------------------------------------------------------------------- issue 13/14


def _entries(root: Path) -> list[str]:
    return sorted(p.name for p in root.iterdir() if (p / cache.READY_MARKER).exists())


def test_the_default_cache_is_per_user_and_private(tmp_path: Path, monkeypatch: object) -> None:
    archive = build_pre013(tmp_path, name="mine")
    monkeypatch.delenv("NITPICKER_PY_CACHE_DIR")  # type: ignore[attr-defined]
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))  # type: ignore[attr-defined]
    with q.open_archive(archive) as a:
        assert a.directory.parent == tmp_path / "xdg" / "nitpicker-py"
    mode = (tmp_path / "xdg" / "nitpicker-py").stat().st_mode & 0o777
    assert mode == 0o700
    monkeypatch.delenv("XDG_CACHE_HOME")  # type: ignore[attr-defined]
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # type: ignore[attr-defined]
    (tmp_path / "home").mkdir()
    assert cache.cache_root() == tmp_path / "home" / ".cache" / "nitpicker-py"


def test_a_cache_others_can_write_is_refused(tmp_path: Path, monkeypatch: object) -> None:
    archive = build_pre013(tmp_path, name="site")
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    monkeypatch.setenv("NITPICKER_PY_CACHE_DIR", str(shared))  # type: ignore[attr-defined]
    r = subprocess.run([sys.executable, "-m", "nitpicker_query.cli.main", "summary", str(archive)],
                       capture_output=True, text=True, env={**os.environ})
    assert r.returncode == 1
    assert "is not private (owner uid" in r.stderr and "mode 0777" in r.stderr
    assert list(shared.iterdir()) == []  # nothing extracted where others could read it
    shared.chmod(0o700)  # the same directory, private: used
    with q.open_archive(archive) as a:
        assert a.directory.parent == shared


def test_least_recently_used_entries_go_past_the_size_bound(tmp_path: Path,
                                                            monkeypatch: object) -> None:
    root = tmp_path / "cache"
    monkeypatch.setenv("NITPICKER_PY_CACHE_DIR", str(root))  # type: ignore[attr-defined]
    monkeypatch.setenv("NITPICKER_PY_CACHE_MAX_SIZE", "1K")  # type: ignore[attr-defined]
    for i in range(3):
        (tmp_path / str(i)).mkdir()
    archives = [build_pre013(tmp_path / str(i), name=f"s{i}") for i in range(3)]
    for archive in archives[:2]:
        q.open_archive(archive).close()
    assert len(_entries(root)) == 2  # over the bound, but both used just now: kept
    old = time.time() - 3600
    for name in _entries(root):
        os.utime(root / name / cache.READY_MARKER, (old, old))
    q.open_archive(archives[0]).close()  # a use makes s0 recent again
    q.open_archive(archives[2]).close()  # a new extraction evicts what was not used lately
    names = _entries(root)
    assert len(names) == 2 and any(n.endswith("-s0") for n in names) and any(
        n.endswith("-s2") for n in names)
    monkeypatch.setenv("NITPICKER_PY_CACHE_MAX_SIZE", "1G")  # type: ignore[attr-defined]
    for name in _entries(root):
        os.utime(root / name / cache.READY_MARKER, (old, old))
    q.open_archive(archives[1]).close()
    assert len(_entries(root)) == 3  # under the bound nothing goes


def test_cache_list_and_clear(tmp_path: Path, monkeypatch: object) -> None:
    root = tmp_path / "cache"
    env = {**os.environ, "NITPICKER_PY_CACHE_DIR": str(root)}
    archive = build_pre013(tmp_path, name="listed")
    before = archive.read_bytes()
    monkeypatch.setenv("NITPICKER_PY_CACHE_DIR", str(root))  # type: ignore[attr-defined]
    q.open_archive(archive).close()
    cli = [sys.executable, "-m", "nitpicker_query.cli.main", "cache"]
    listed = json.loads(subprocess.run([*cli, "list"], capture_output=True, text=True,
                                       env=env, check=True).stdout)
    assert listed["root"] == str(root) and listed["total"] == 1
    assert listed["items"][0]["source"] == str(archive.resolve())
    assert listed["items"][0]["sizeBytes"] > 0 and listed["maxSizeBytes"] == 2 * 1024**3
    # just used (a viewer or an MCP server of this user may be reading it): kept
    cleared = json.loads(subprocess.run([*cli, "clear"], capture_output=True, text=True,
                                        env=env, check=True).stdout)
    assert (cleared["removed"], cleared["keptInUse"]) == (0, 1)
    assert "--all removes them too" in cleared["note"]
    assert len(list(root.iterdir())) == 1
    # unused for an hour: removed; and --all removes what is in use too
    old = time.time() - 3600
    for entry in root.iterdir():
        os.utime(entry / cache.READY_MARKER, (old, old))
    cleared = json.loads(subprocess.run([*cli, "clear"], capture_output=True, text=True,
                                        env=env, check=True).stdout)
    assert cleared["removed"] == 1 and cleared["freedBytes"] == listed["totalBytes"]
    assert cleared["keptInUse"] == 0 and "note" not in cleared
    assert list(root.iterdir()) == [] and archive.read_bytes() == before
    with q.open_archive(archive) as a:  # extracted again on the next use
        assert q.get_summary(a)["totalPages"] == 2
    cleared = json.loads(subprocess.run([*cli, "clear", "--all"], capture_output=True,
                                        text=True, env=env, check=True).stdout)
    assert (cleared["removed"], cleared["keptInUse"]) == (1, 0)
    assert list(root.iterdir()) == []
