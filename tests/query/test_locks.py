"""The ``<dir>.lock/pid.txt`` lock: live holders refuse, stale ones are taken over.

The half-made cases (a lock directory whose ``pid.txt`` is not written yet, a take-over in
progress) were found by four readers opening one archive at once; each is tested both
ways: young means busy, old means stale.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from nitpicker_query.archive import locks
from nitpicker_query.exceptions import ArchiveBusy


def _lock(tmp_path: Path, pid: str | None = None) -> Path:
    """The lock directory of ``tmp_path/wd`` as another process left it (PID optional)."""
    lock = locks.lock_path_for(tmp_path / "wd")
    lock.mkdir()
    if pid is not None:
        (lock / "pid.txt").write_text(pid)
    return lock


def _age(path: Path, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then))


def test_free_directory_is_locked_with_our_pid(tmp_path: Path) -> None:
    lock = locks.acquire(tmp_path / "wd")
    assert (lock / "pid.txt").read_text() == str(os.getpid())
    assert [p.name for p in lock.iterdir()] == ["pid.txt"]  # no temp file left behind
    locks.release(tmp_path / "wd")
    assert not lock.exists()


def test_live_holder_refuses_and_keeps_its_lock(tmp_path: Path) -> None:
    lock = _lock(tmp_path, "1")  # PID 1 always runs
    with pytest.raises(ArchiveBusy, match=r"another process \(PID 1\)"):
        locks.acquire(tmp_path / "wd")
    assert (lock / "pid.txt").read_text() == "1"


def test_dead_holder_is_taken_over(tmp_path: Path) -> None:
    lock = _lock(tmp_path, "999999999")
    locks.acquire(tmp_path / "wd")
    assert (lock / "pid.txt").read_text() == str(os.getpid())
    assert not lock.with_name(lock.name + ".takeover").exists()


def test_lock_without_pid_is_busy_while_young(tmp_path: Path) -> None:
    lock = _lock(tmp_path)  # another process between its mkdir and its pid.txt
    with pytest.raises(ArchiveBusy, match="being taken by another process"):
        locks.acquire(tmp_path / "wd")
    assert lock.exists() and not (lock / "pid.txt").exists()


def test_lock_without_pid_is_stale_once_old(tmp_path: Path) -> None:
    lock = _lock(tmp_path)
    _age(lock, locks.CLAIM_GRACE_SECONDS + 5)  # its maker died before writing the PID
    locks.acquire(tmp_path / "wd")
    assert (lock / "pid.txt").read_text() == str(os.getpid())


def test_take_over_in_progress_is_busy_while_young(tmp_path: Path) -> None:
    lock = _lock(tmp_path, "999999999")
    lock.with_name(lock.name + ".takeover").mkdir()
    with pytest.raises(ArchiveBusy, match="being taken by another process"):
        locks.acquire(tmp_path / "wd")
    assert (lock / "pid.txt").read_text() == "999999999"


def test_abandoned_take_over_is_cleared_once_old(tmp_path: Path) -> None:
    lock = _lock(tmp_path, "999999999")
    guard = lock.with_name(lock.name + ".takeover")
    guard.mkdir()
    _age(guard, locks.CLAIM_GRACE_SECONDS + 5)
    locks.acquire(tmp_path / "wd")
    assert (lock / "pid.txt").read_text() == str(os.getpid())
    assert not guard.exists()


def test_probe_reports_holder_without_taking_it(tmp_path: Path) -> None:
    assert locks.probe(tmp_path / "wd") is None
    locks.acquire(tmp_path / "wd")
    holder = locks.probe(tmp_path / "wd")
    assert holder is not None and holder.pid == os.getpid() and holder.alive
    assert locks.probe(tmp_path / "wd") == holder
