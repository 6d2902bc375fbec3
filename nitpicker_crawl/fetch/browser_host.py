"""``nitpicker-crawl browser-host``: lend this machine's Chromium to a crawl run elsewhere.

It runs Playwright's own browser server (``playwright launch-server``) with the Chromium
and the switches this crawler renders with locally, so a page renders alike on every
machine, and prints the ``--browser-endpoint`` URL to give the crawl. The server is this
package's Playwright, so the crawler's version matches when both machines installed the
same nitpicker. The URL's path is a random token: whoever can reach the port and knows
the path can drive the browser, so the host listens on 127.0.0.1 unless told otherwise
(``--host 0.0.0.0`` on a private network; docs/scaling.md). Ctrl-C stops it.
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import json
import secrets
import signal
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from nitpicker_query.terminal import CliParser

from .renderer import CHROMIUM_ARGS, NOT_FOUND_MESSAGE, Renderer, find_browser

PROG = "nitpicker-crawl browser-host"
HEAP_MB = 512
"""A tab's JavaScript heap bound (half the crawler's default --max-tab-memory)."""


def build_parser() -> argparse.ArgumentParser:
    p = CliParser(prog=PROG, description=__doc__.split("\n\n")[0].split(": ", 1)[1])
    p.add_argument("--port", type=int, default=0, metavar="N",
                   help="Port to listen on (default: a free one, printed).")
    p.add_argument("--host", default="127.0.0.1",
                   help="Address to listen on. Default: 127.0.0.1 (this machine only); "
                   "0.0.0.0 for the crawl's machine to reach it over the network.")
    return p


async def _features(executable: str) -> tuple[list[str], list[str]]:
    """``(ignored defaults, our switch)`` for ``--disable-features``, as the local renderer
    merges them (:meth:`Renderer._merged_features`): Chromium keeps the last such switch,
    so the driver's list is read off a browser launched once here and given again with
    ours — the Local Network Access checks above all, which would refuse a page's
    sub-resources on a private network to the documents the crawler answers."""
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=executable, headless=True,
                                                   args=CHROMIUM_ARGS)
        merged = Renderer._merged_features()
        await browser.close()
    return merged or ([], [])


def config(executable: str, host: str, port: int, path: str,
           features: tuple[list[str], list[str]]) -> dict[str, object]:
    """``launchServer``'s options: our Chromium, headless, our switches."""
    ignored, ours = features
    return {"executablePath": executable, "headless": True, "host": host, "port": port,
            "wsPath": path, "ignoreDefaultArgs": ignored,
            # V8's heap bound of a tab, as the local renderer sets it at its default
            # --max-tab-memory (this host has no watchdog of the crawl's)
            "args": [*CHROMIUM_ARGS, *ours, f"--js-flags=--max-old-space-size={HEAP_MB}"]}


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if not 0 <= args.port <= 65535:
        print(f"{PROG}: --port must be 0 to 65535, got {args.port}", file=sys.stderr)
        return 2
    executable = find_browser()
    if executable is None:
        print(f"{PROG}: {NOT_FOUND_MESSAGE}", file=sys.stderr)
        return 1
    path = "/" + secrets.token_urlsafe(18)
    try:
        features = asyncio.run(_features(executable))
    except Exception as exc:
        print(f"{PROG}: Chromium at {executable} did not start ({str(exc).splitlines()[0]})",
              file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="nitpicker-browser-host-") as tmp:
        settings = Path(tmp) / "server.json"
        settings.write_text(json.dumps(config(executable, args.host, args.port, path,
                                              features)))
        driver = [sys.executable, "-m", "playwright", "launch-server", "--browser",
                  "chromium", "--config", str(settings)]
        # in this process's group (Ctrl-C or a kill of the group reaches it), and ended
        # with this process however it ends
        server = subprocess.Popen(driver, stdout=subprocess.PIPE, text=True,
                                  preexec_fn=_die_with_parent)
        assert server.stdout is not None
        try:
            line = server.stdout.readline().strip()   # the server's endpoint, once up
            if not line.startswith("ws://"):
                print(f"{PROG}: the browser server did not start ({line or 'no output'})",
                      file=sys.stderr)
                return 1
            print(line, flush=True)
            print(f"{PROG}: give the crawl --browser-endpoint {line} (Ctrl-C stops this "
                  "host)", file=sys.stderr, flush=True)
            return server.wait()
        except KeyboardInterrupt:
            return 130
        finally:
            if server.poll() is None:
                server.terminate()
                try:
                    server.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    server.kill()


def _die_with_parent() -> None:
    """In the server's process before it runs: SIGTERM when its parent (this command)
    dies, even of SIGKILL (Linux ``prctl``; elsewhere nothing), so no browser server is
    left running that nobody can stop."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)   # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
