"""``nitpicker-viewer [ARCHIVE] [--root DIR ...]``: serve the viewer on 127.0.0.1."""

from __future__ import annotations

import argparse
import socket
import sys
import webbrowser
from collections.abc import Sequence
from pathlib import Path

from nitpicker_query import __version__
from nitpicker_query.terminal import CliParser, escape

from .app import create_app
from .archives import Archives

PROG = "nitpicker-viewer"
DEFAULT_PORT = 8707


def build_parser() -> argparse.ArgumentParser:
    p = CliParser(prog=PROG, description="A read-only web viewer of .nitpicker archives: "
                  "summary, pages, links, duplicate clusters, cap events …, and the same "
                  "queries as JSON under /api/<query>.",
                  epilog="examples:\n  nitpicker-viewer site.nitpicker\n"
                  "  nitpicker-viewer --root ~/crawls --port 9000",
                  formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("archive", nargs="?", metavar="ARCHIVE",
                   help="a .nitpicker file or crawl directory to show")
    p.add_argument("--root", action="append", default=[], metavar="DIR",
                   help="a directory whose archives the home page lists and the viewer may "
                   "open (repeatable); without ARCHIVE at least one is needed")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to bind (default 127.0.0.1; anything else is reachable "
                   "from other machines)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT,
                   help=f"port (default {DEFAULT_PORT}; the next free one when taken)")
    p.add_argument("--open", action=argparse.BooleanOptionalAction, default=None,
                   help="open the browser (default: when run on a terminal)")
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return p


def free_port(host: str, preferred: int, tries: int = 50) -> int:
    """``preferred`` or the next port free on ``host`` (0 when none of them is)."""
    for port in range(preferred, preferred + tries):
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
            try:
                s.bind((host, port))
            except OSError:
                continue
            return port
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.archive and not args.root:
        parser.error("give an ARCHIVE or at least one --root DIR")
    if not 0 < args.port < 65536:
        parser.error(f"--port must be 1–65535, not {args.port}")
    archive = Path(args.archive) if args.archive else None
    if archive is not None and not archive.exists():
        parser.error(f"archive not found: {archive}")
    roots = [Path(r) for r in args.root]
    for root in roots:
        if not root.is_dir():
            parser.error(f"--root {root}: not a directory")
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"{PROG}: warning: binding {escape(args.host)}: other machines can reach this "
              "viewer and every archive under its roots", file=sys.stderr)
    port = free_port(args.host, args.port)
    if port == 0:
        print(f"{PROG}: error: no free port from {args.port} on {escape(args.host)}",
              file=sys.stderr)
        return 1
    archives = Archives(archive, roots)
    app = create_app(archives, host=args.host, port=port)
    shown = f"[{args.host}]" if ":" in args.host else args.host
    url = f"http://{shown}:{port}/"
    print(f"{PROG}: serving {url} (Ctrl-C to stop)", file=sys.stderr, flush=True)
    if args.open if args.open is not None else sys.stdout.isatty():
        webbrowser.open(url)
    import uvicorn

    from .serving import config

    try:
        uvicorn.Server(config(app, host=args.host, port=port, log_level="warning")).run()
    except KeyboardInterrupt:
        pass
    finally:
        archives.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
