"""``python -m nitpicker_crawl.trapzoo``: serve TrapZoo until Ctrl-C."""

from __future__ import annotations

import sys
import time

from nitpicker_query import __version__
from nitpicker_query.terminal import CliParser

from .server import TrapZoo


def main(argv: list[str] | None = None) -> int:
    p = CliParser(
        prog="python -m nitpicker_crawl.trapzoo",
        description="Serve TrapZoo, a deterministic site of crawler traps, on 127.0.0.1 "
        "until Ctrl-C; prints its URL.")
    p.add_argument("--unbounded", action="store_true",
                   help="also serve the five unbounded families (middle session ids, "
                   "relative growth, superset query keys, per-entity variants, facets)")
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    args = p.parse_args(argv)
    zoo = TrapZoo(unbounded=args.unbounded).start()
    print(zoo.url, flush=True)
    print(f"external origin: {zoo.external_url}", file=sys.stderr, flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        zoo.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
