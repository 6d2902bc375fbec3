"""What the real third-party targets share: a free port on 127.0.0.1, a server run as a
process group and stopped whole, Debian packages installed when root, and the crawler run
against a target (this checkout's, or an older tree's for before/after figures).

The targets themselves sit beside this module, one each, written here as kits around
software nobody here wrote (MediaWiki, DokuWiki, Trac, Redmine, Mercurial's hgweb, the
Apache manual; Sphinx and Pelican output for page-cluster): each installs its software,
fills it with content through the software's own tools, serves it, and says which URLs a
complete crawl must reach. ``bench/targets.py`` installs them all.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serving(args: list[str], *, probe: str, cwd: Path, env: dict[str, str],
            name: str, start_s: float = 30) -> Iterator[None]:
    """Run a server (``args``) in a session of its own, wait until ``probe`` answers, and
    stop the whole process group afterwards (a server's workers are its children)."""
    proc = subprocess.Popen(args, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + start_s
        while True:
            try:
                with urllib.request.urlopen(probe, timeout=10):
                    break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError(f"{name} did not start") from None
                time.sleep(0.2)
        yield
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def apt_install(packages: list[str]) -> bool:
    """Install Debian ``packages`` when this process is root (``apt-get update`` only if
    the install fails first: the lists on the machine are usually enough, and slow to
    refresh); False when not root or the install failed."""
    if os.geteuid() != 0:
        return False
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = ["apt-get", "install", "-y", "-qq", *packages]
    if subprocess.run(install, env=env, capture_output=True).returncode == 0:
        return True
    subprocess.run(["apt-get", "update", "-qq"], env=env, capture_output=True)
    return subprocess.run(install, env=env, capture_output=True).returncode == 0


def crawler_command(tree: Path | None = None) -> tuple[list[str], dict[str, str]]:
    """The ``nitpicker-crawl`` to run: this checkout's, or the one of another source tree
    (a ``git worktree`` of an older commit, for before/after figures)."""
    if tree is None:
        return [str(Path(sys.executable).with_name("nitpicker-crawl"))], dict(os.environ)
    code = "import sys; from nitpicker_crawl.cli import main; sys.exit(main())"
    return [sys.executable, "-c", code], {**os.environ, "PYTHONPATH": str(tree)}


def run_crawl(base: str, out: Path, *, cap: int | None, follow_nofollow: bool = False,
              max_pages: int | None = None, timeout: float = 3600,
              tree: Path | None = None) -> tuple[int, float, str]:
    """Crawl a target ``--no-render`` from ``base`` (exit status, seconds, stderr);
    ``tree``: another source tree's crawler (which may predate ``--follow-nofollow``:
    then ``follow_nofollow`` must be False)."""
    command, env = crawler_command(tree)
    args = [*command, base, "-o", str(out),
            "--no-render", "--silent", "--no-fetch-external", "--parallels", "4"]
    if cap is not None:
        args += ["--dedupe-cap", str(cap)]
    if follow_nofollow:
        args.append("--follow-nofollow")
    if max_pages is not None:
        args += ["--max-pages", str(max_pages)]
    started = time.monotonic()
    r = subprocess.run(args, capture_output=True, text=True, timeout=timeout, cwd=out.parent,
                       env=env)
    return r.returncode, time.monotonic() - started, r.stderr
