"""``nitpicker-mcp``: serve the nitpicker queries to an AI assistant over stdio MCP."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path

import anyio

from nitpicker_query import NitpickerError, __version__, open_archive
from nitpicker_query.archive.opening import DEFAULT_QUERY_TIMEOUT
from nitpicker_query.terminal import CliParser

EPILOG = """\
Register it in an MCP host, e.g. Claude Desktop's claude_desktop_config.json:
  {"mcpServers": {"nitpicker": {"command": "nitpicker-mcp",
                                "args": ["--root", "/home/me/crawls"]}}}
or Claude Code:
  claude mcp add nitpicker -- nitpicker-mcp --root ~/crawls

Every tool is read-only. Archives are opened only inside the --root directories, the
directory of --archive, and the roots your MCP client declares. With --allow-crawl DIR
three tools more start, follow and stop crawls that write only in DIR.
"""


def build_parser() -> argparse.ArgumentParser:
    parser = CliParser(
        prog="nitpicker-mcp",
        description="Serve read-only queries over .nitpicker archives to AI assistants "
        "(MCP over stdio).",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--root", action="append", default=[], metavar="DIR",
                        help="Allow archives under DIR (repeatable).")
    parser.add_argument("--archive", metavar="PATH",
                        help="Default archive for tools called without one; its directory "
                        "is allowed too.")
    parser.add_argument("--query-timeout", type=float, default=DEFAULT_QUERY_TIMEOUT,
                        metavar="S", help="Stop a query running longer than S seconds; the "
                        f"call returns an error and the others go on. Default: "
                        f"{DEFAULT_QUERY_TIMEOUT:g}.")
    parser.add_argument("--allow-crawl", metavar="DIR",
                        help="Let the assistant crawl: start_crawl, crawl_status and "
                        "stop_crawl, writing archives only in DIR (also a root to read). "
                        "Off by default: without it nothing can write.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--log-level", default="WARNING",
                        choices=("DEBUG", "INFO", "WARNING", "ERROR"),
                        help="Server log on stderr. Default: WARNING.")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not 0 < args.query_timeout < float("inf"):
        parser.error(f"--query-timeout must be more than 0 seconds, got {args.query_timeout}")
    logging.basicConfig(level=args.log_level, stream=sys.stderr,
                        format="nitpicker-mcp %(levelname)s %(message)s")
    roots = []
    for r in args.root:
        path = Path(os.path.realpath(os.path.expanduser(r)))
        if not path.is_dir():
            print(f"nitpicker-mcp: error: --root {r} is not a directory", file=sys.stderr)
            return 2
        roots.append(path)
    archive = None
    if args.archive:
        archive = Path(os.path.realpath(os.path.expanduser(args.archive)))
        try:
            open_archive(archive).close()
        except NitpickerError as exc:
            print(f"nitpicker-mcp: error: --archive: {exc}", file=sys.stderr)
            return 2

    crawl_dir = None
    if args.allow_crawl:
        crawl_dir = Path(os.path.realpath(os.path.expanduser(args.allow_crawl)))
        if not crawl_dir.is_dir() or not os.access(crawl_dir, os.W_OK):
            print(f"nitpicker-mcp: error: --allow-crawl {args.allow_crawl} is not a "
                  "writable directory", file=sys.stderr)
            return 2

    from .server import NitpickerServer, ServerConfig
    from .transport import checked_stdio

    server = NitpickerServer(ServerConfig(roots=roots, default_archive=archive,
                                          query_timeout=args.query_timeout,
                                          crawl_dir=crawl_dir)).build()

    async def serve() -> None:
        async with checked_stdio() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    try:
        anyio.run(serve)
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
