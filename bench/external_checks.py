"""What checking external links costs a crawl: the same site with and without them.

    python bench/external_checks.py [--pages 300] [--base COMMIT] [--rounds 2]

A site of ``--pages`` pages on 127.0.0.1 whose every page links two external URLs, 600
in all over 120 hosts on other loopback addresses (``127.0.1.x``), four kinds of host a
site audit meets:

- **slow**: answers after 0.4 s (a distant server);
- **refused**: nothing listens (a host that is gone: what a DNS failure is offline —
  no request to the internet is made here);
- **hung**: accepts the connection and never answers (a dead backend behind its
  proxy): the external deadline is what bounds it;
- **fine**: answers at once.

Each crawl is ``--no-render --parallels 4``, timed end to end with and without
``--no-fetch-external``, this tree and ``--base`` (a git worktree) alike, rounds
alternating. The ratio "with externals / without" is what a user pays for the link
check; the bar (issue 39) is 1.3×.
"""

from __future__ import annotations

import argparse
import contextlib
import http.server
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from doc import add_flag, emit  # noqa: E402

KINDS = ("slow", "refused", "hung", "fine")
HOSTS_PER_KIND = {"slow": 40, "refused": 40, "hung": 10, "fine": 30}
SLOW_S = 0.4


class _Quiet(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    delay = 0.0
    body = b"<html><head><title>x</title></head><body>x</body></html>"

    def _answer(self) -> None:
        time.sleep(self.delay)
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(self.body)))
        self.end_headers()
        if self.command == "GET":
            self.wfile.write(self.body)

    do_GET = do_HEAD = _answer

    def log_message(self, format: str, *args: object) -> None:
        pass


class _Slow(_Quiet):
    delay = SLOW_S


def _site_handler(pages: int, links: list[str]) -> type[http.server.BaseHTTPRequestHandler]:
    class Site(_Quiet):
        def _answer(self) -> None:
            path = self.path.split("?", 1)[0]
            if path == "/robots.txt":
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            n = int(path.strip("/").removeprefix("p") or 0) if path != "/" else 0
            if not 0 <= n < pages:
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            inner = "".join(f'<a href="/p{(n * 7 + k) % pages}">page {(n * 7 + k) % pages}</a> '
                            for k in range(1, 6))
            outer = "".join(f'<a href="{links[(2 * n + k) % len(links)]}">elsewhere</a> '
                            for k in range(2))
            body = (f"<html><head><title>Page {n}</title></head><body><main><h1>Page {n}"
                    f"</h1><p>{' '.join(['words'] * 50)} {n}</p>{inner}{outer}</main>"
                    "</body></html>").encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command == "GET":
                self.wfile.write(body)

        do_GET = do_HEAD = _answer
    return Site


@contextlib.contextmanager
def world(pages: int, hosts: dict[str, int] | None = None) -> Iterator[str]:
    """The site and its external hosts (``hosts``: how many of each kind, by default
    :data:`HOSTS_PER_KIND`), served until the block ends; yields the site's URL."""
    per_kind = HOSTS_PER_KIND if hosts is None else hosts
    servers: list[http.server.HTTPServer] = []
    hung: list[socket.socket] = []
    links: list[str] = []
    i = 0
    for kind in KINDS:
        for _ in range(per_kind.get(kind, 0)):
            i += 1
            address = f"127.0.1.{i}"
            if kind in ("slow", "fine"):
                server = http.server.ThreadingHTTPServer(
                    (address, 0), _Slow if kind == "slow" else _Quiet)
                servers.append(server)
                port = server.server_address[1]
            elif kind == "hung":
                sock = socket.socket()
                sock.bind((address, 0))
                sock.listen(64)   # accepted by the kernel, never answered
                hung.append(sock)
                port = sock.getsockname()[1]
            else:
                with socket.socket() as probe:   # a port nothing listens on
                    probe.bind((address, 0))
                    port = probe.getsockname()[1]
            links += [f"http://{address}:{port}/{kind}/{k}" for k in range(5)]
    site = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _site_handler(pages, links))
    servers.append(site)
    threads = [threading.Thread(target=s.serve_forever, daemon=True) for s in servers]
    for t in threads:
        t.start()
    try:
        yield f"http://127.0.0.1:{site.server_address[1]}/"
    finally:
        for s in servers:
            s.shutdown()
            s.server_close()
        for sock in hung:
            sock.close()


def crawl(tree: Path, url: str, external: bool, wall: float) -> tuple[float, str]:
    """Seconds of one crawl with ``tree``'s crawler, and its last line; ``inf`` when it
    was still running after ``wall`` seconds (stopped there)."""
    out = Path(tempfile.mkdtemp(prefix="bench-ext-")) / "x.nitpicker"
    args = [sys.executable, "-m", "nitpicker_crawl.cli", url, "-o", str(out), "--no-render",
            "--parallels", "4", "--silent", "--no-sitemap"]
    if not external:
        args.append("--no-fetch-external")
    started = time.monotonic()
    try:
        done = subprocess.run(args, cwd=tree, capture_output=True, text=True, timeout=wall,
                              env={**os.environ, "PYTHONPATH": str(tree)})
    except subprocess.TimeoutExpired:
        return float("inf"), f"still running after {wall:g} s: stopped"
    finally:
        out.unlink(missing_ok=True)
    seconds = time.monotonic() - started
    return seconds, (done.stderr.strip().splitlines() or [""])[-1][:160]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--base", default=None, help="an earlier commit to compare with")
    parser.add_argument("--wall", type=float, default=300,
                        help="seconds after which a crawl is stopped and reported as longer")
    parser.add_argument("--per-kind", action="store_true",
                        help="also one site per kind of host (this tree only): what each "
                        "kind costs on its own")
    add_flag(parser)
    args = parser.parse_args()
    trees = {"this tree": ROOT}
    base_dir = None
    if args.base:
        base_dir = Path(tempfile.mkdtemp(prefix="bench-base-"))
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-f",
                        str(base_dir), args.base], check=True, capture_output=True)
        trees = {f"{args.base} (before)": base_dir, **trees}
    times: dict[tuple[str, bool], list[float]] = {}
    try:
        with world(args.pages) as url:
            for _ in range(args.rounds):
                for label, tree in trees.items():
                    for external in (False, True):
                        seconds, last = crawl(tree, url, external, args.wall)
                        times.setdefault((label, external), []).append(seconds)
                        print(f"{label} externals={external}: {seconds:.1f} s  {last}",
                              file=sys.stderr)
    finally:
        if base_dir is not None:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(base_dir)], capture_output=True)
    rows = []
    for label in trees:
        without = statistics.median(times[label, False])
        with_ = statistics.median(times[label, True])
        if with_ == float("inf"):
            rows.append(f"| {label} | {without:.1f} | > {args.wall:g} (stopped) | "
                        f"**> {args.wall / without:.0f}×** |")
        else:
            rows.append(f"| {label} | {without:.1f} | {with_:.1f} | "
                        f"**{with_ / without:.2f}×** |")
    hosts = ", ".join(f"{HOSTS_PER_KIND[k]} {k}" for k in KINDS)
    head = (f"`python bench/external_checks.py --pages {args.pages} --rounds {args.rounds}"
            f"{' --base ' + args.base if args.base else ''} --wall {args.wall:g}` "
            f"({os.cpu_count()} cores, "
            f"{time.strftime('%Y-%m-%d')}): {args.pages} pages linking "
            f"{sum(HOSTS_PER_KIND.values()) * 5} external URLs on {hosts} hosts; "
            f"median seconds of {args.rounds} alternating rounds, `--no-render --parallels 4`"
            "\n\n| crawler | --no-fetch-external (s) | with external checks (s) | ratio |\n"
            "|---|---|---|---|\n")
    if args.per_kind:
        rows_kind = []
        for kind in KINDS:
            alone = {kind: HOSTS_PER_KIND[kind]}
            runs: dict[bool, list[float]] = {False: [], True: []}
            with world(args.pages, alone) as url:
                for _ in range(args.rounds):
                    for external in (False, True):
                        runs[external].append(crawl(ROOT, url, external, args.wall)[0])
            without, with_ = (statistics.median(runs[e]) for e in (False, True))
            rows_kind.append(f"| {HOSTS_PER_KIND[kind]} {kind} hosts, "
                             f"{HOSTS_PER_KIND[kind] * 5} links | {without:.1f} | "
                             f"{with_:.1f} | **{with_ / without:.2f}×** |")
        rows.append("\nEach kind alone (this tree, `--per-kind`):\n\n| external hosts | "
                    "--no-fetch-external (s) | with external checks (s) | ratio |\n"
                    "|---|---|---|---|\n" + "\n".join(rows_kind))
    emit("external-checks", head + "\n".join(rows), write=args.write)


if __name__ == "__main__":
    main()
