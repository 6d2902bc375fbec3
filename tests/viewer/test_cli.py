"""``nitpicker-viewer`` as a user runs it: a taken port, Ctrl-C, bad arguments."""

from __future__ import annotations

import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

VIEWER = str(Path(sys.executable).with_name("nitpicker-viewer"))


def test_taken_port_then_ctrl_c(capped_archive: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with subprocess.Popen([VIEWER, str(capped_archive), "--port", str(port),
                               "--no-open"], stderr=subprocess.PIPE, text=True) as proc:
            served(proc, port)


def served(proc: subprocess.Popen[str], port: int) -> None:
    """The viewer answered on another port, then stopped cleanly on Ctrl-C."""
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        found = re.search(r"serving http://127\.0\.0\.1:(\d+)/", line)
        assert found is not None, line
        assert int(found.group(1)) != port  # the next free one
        url = f"http://127.0.0.1:{found.group(1)}/summary"
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(url, timeout=10) as response:
                    assert response.status == 200
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        proc.send_signal(signal.SIGINT)
        rest = proc.stderr.read()
        assert proc.wait(timeout=20) == 0
        assert "Traceback" not in rest
    finally:
        if proc.poll() is None:
            proc.kill()




def test_bad_arguments(tmp_path: Path) -> None:
    cases = [
        ([], "give an ARCHIVE or at least one --root DIR"),
        ([str(tmp_path / "missing.nitpicker")], "archive not found"),
        (["--root", str(tmp_path / "nope")], "not a directory"),
        ([str(tmp_path), "--port", "70000"], "--port must be 1–65535"),
        (["--bogus"], "unrecognized arguments"),
    ]
    for args, message in cases:
        done = subprocess.run([VIEWER, *args, "--no-open"], capture_output=True, text=True,
                              timeout=30)
        assert done.returncode == 2, args
        assert message in done.stderr and "Traceback" not in done.stderr, args
        assert len(done.stderr.strip().splitlines()) <= 3, args
