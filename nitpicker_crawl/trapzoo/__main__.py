"""``python -m nitpicker_crawl.trapzoo``: serve TrapZoo until Ctrl-C."""

from __future__ import annotations

import argparse
import sys
import time

from .server import TrapZoo


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m nitpicker_crawl.trapzoo",
        description="Serve TrapZoo, a deterministic site of crawler traps, on 127.0.0.1 "
        "until Ctrl-C; prints its URL.")
    p.add_argument("--unbounded", action="store_true",
                   help="also serve the five unbounded families (middle session ids, "
                   "relative growth, superset query keys, per-entity variants, facets)")
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
