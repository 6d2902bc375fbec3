"""A memory bound for rendering tabs: a renderer process past ``--max-tab-memory`` is killed.

V8's ``--max-old-space-size`` stops a script's own objects, but not what lives outside
the JavaScript heap: typed arrays (``new Uint8Array(1e8)`` filled in a loop took one tab
to 7.9 GB), decoded images, a gzip bomb fetched as a sub-resource. Chromium has no
per-tab memory limit, so this thread watches: every :data:`INTERVAL_S` it reads the
resident size of each Chromium renderer process descended from this process (Linux
``/proc``) and kills one past the bound with ``SIGKILL``. The page in it crashes;
:class:`~nitpicker_crawl.fetch.renderer.Renderer` records that page as ``renderer-memory``
and replaces its tab, and the other tabs — other browser contexts, other processes —
go on. Where ``/proc`` is missing (not Linux) the watchdog does nothing.

A thread, not a task: a busy event loop (a large page being parsed) must not delay it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from pathlib import Path

INTERVAL_S = 0.2
"""How often resident sizes are read: between two reads a page allocating as fast as it
can (about 2 GB/s here) overshoots the bound by a few hundred MB at most."""

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
_PROC = Path("/proc")


def _parent(pid: int) -> int | None:
    try:
        stat = (_PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    # "pid (comm) state ppid …": comm may hold spaces and parentheses
    fields = stat[stat.rfind(")") + 2:].split()
    return int(fields[1]) if len(fields) > 1 and fields[1].isdigit() else None


def _is_renderer(pid: int) -> bool:
    try:
        return b"--type=renderer" in (_PROC / str(pid) / "cmdline").read_bytes()
    except OSError:
        return False


def resident_bytes(pid: int) -> int:
    """The resident set of ``pid`` in bytes (0 if it is gone)."""
    try:
        return int((_PROC / str(pid) / "statm").read_text().split()[1]) * _PAGE
    except (OSError, IndexError, ValueError):
        return 0


def _children() -> dict[int, list[int]]:
    """Every process's children, from ``/proc`` (empty where there is none)."""
    children: dict[int, list[int]] = {}
    try:
        names = os.listdir(_PROC)
    except OSError:
        return children
    for name in names:
        if name.isdigit():
            parent = _parent(int(name))
            if parent is not None:
                children.setdefault(parent, []).append(int(name))
    return children


def renderers(root: int) -> list[int]:
    """Chromium renderer processes among the descendants of ``root``."""
    return [pid for pid in _descendants(_children(), root) if _is_renderer(pid)]


def browser_switches(root: int, name: str) -> list[str]:
    """The values of switch ``name`` (``--disable-features``) on the command line of the
    Chromium browser process descended from ``root`` (the newest, if several)."""
    children = _children()
    found: list[str] = []
    for pid in sorted(_descendants(children, root), reverse=True):
        try:
            argv = (_PROC / str(pid) / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"--remote-debugging-pipe" in argv and not any(a.startswith(b"--type=")
                                                         for a in argv):
            prefix = f"{name}=".encode()
            found = [a[len(prefix):].decode(errors="replace") for a in argv
                     if a.startswith(prefix)]
            break
    return found


def _descendants(children: dict[int, list[int]], root: int) -> list[int]:
    out, stack = [], list(children.get(root, ()))
    while stack:
        pid = stack.pop()
        out.append(pid)
        stack.extend(children.get(pid, ()))
    return out


class TabWatchdog:
    """Kills renderer processes of this process's Chromium past ``limit`` bytes."""

    def __init__(self, limit: int, *, interval_s: float = INTERVAL_S) -> None:
        self.limit = limit
        self.interval_s = interval_s
        self.kills = 0
        self._last_kill = 0.0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if not _PROC.is_dir():
            return
        self._thread = threading.Thread(target=self._run, name="tab-watchdog", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def killed_recently(self, within_s: float = 10.0) -> bool:
        """Did a tab die of memory (killed here, or gone while past half the bound) in
        the last ``within_s`` seconds?"""
        return time.monotonic() - self._last_kill < within_s

    def _run(self) -> None:
        me = os.getpid()
        known: list[int] = []
        last: dict[int, int] = {}  # pid → resident bytes at the previous read
        listed = 0.0
        while not self._stop.wait(self.interval_s):
            now = time.monotonic()
            if now - listed > 1.0:  # new tabs appear rarely: list them once a second
                known, listed = renderers(me), now
            for pid in known:
                size = resident_bytes(pid)
                if size > self.limit:
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)
                        self.kills += 1
                        self._last_kill = time.monotonic()
                elif size == 0 and last.get(pid, 0) > self.limit // 2:
                    # gone while past half the bound: V8's own heap limit (set at half)
                    # ended it, or Chromium's out-of-memory handler: a death by memory too
                    self._last_kill = time.monotonic()
                last[pid] = size
            for pid in [p for p in last if p not in known]:
                del last[pid]
