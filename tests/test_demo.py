"""``make demo`` (issue 13): its commands work from where it was typed, and it says the
same thing every time."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _demo(cwd: Path, out: Path) -> str:
    # wide tables: a URL wrapped across lines would hide its port from _stable
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "demo.py"), "--out", str(out)],
                       cwd=cwd, capture_output=True, text=True, timeout=300,
                       env={**os.environ, "COLUMNS": "400"})
    assert r.returncode == 0, r.stderr
    return r.stdout


def _stable(text: str) -> str:
    """The output without what differs by design: the port (and so the signatures, which
    hash the host, and the order of clusters tied on count), and times."""
    text = re.sub(r"127\\?\.0\\?\.0\\?\.1:\d+", "HOST", text)  # also as a regex
    text = re.sub(r"\b[0-9a-f]{40}\b", "SIG", text)
    text = re.sub(r"\d{4}-\d\d-\d\dT[\d:]+[+-]\d\d:\d\d", "TIME", text)
    return re.sub(r'"detectedAt": \d+', '"detectedAt": T', text)


@pytest.fixture(scope="module")
def first(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """One ``make demo`` run, from a directory of its own (its output lands in ``one/``)."""
    cwd = tmp_path_factory.mktemp("demo")
    return cwd, _demo(cwd, cwd / "one")


@pytest.mark.slow  # runs make demo: a minute
def test_demo_commands_work_from_where_it_ran(first: tuple[Path, str]) -> None:
    cwd, output = first
    commands = [line[2:] for line in output.splitlines() if line.startswith("$ ")]
    assert len(commands) == 6
    viewer = shlex.split(output.strip().splitlines()[-1].split(": ", 1)[1])
    assert viewer[0].endswith("nitpicker-viewer") and viewer[1] == "one/trapzoo.nitpicker"
    assert (cwd / viewer[1]).is_file()
    for command in commands[1:]:  # the queries: run as printed, from the same directory
        argv = shlex.split(command)
        assert argv[0].endswith("nitpicker-query") and argv[2] == "one/trapzoo.nitpicker"
        r = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=60,
                           env={**os.environ, "COLUMNS": "400"})
        assert r.returncode == 0, r.stderr
        assert _stable(r.stdout).strip() in _stable(output)


@pytest.mark.slow
def test_demo_says_the_same_thing_every_time(first: tuple[Path, str]) -> None:
    cwd, output = first
    second = _demo(cwd, cwd / "two")
    assert sorted(_stable(output).splitlines()) == sorted(
        _stable(second).replace("two/", "one/").splitlines())
