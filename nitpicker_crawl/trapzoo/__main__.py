"""``python -m nitpicker_crawl.trapzoo``: serve TrapZoo until Ctrl-C."""

from __future__ import annotations

import sys
import time

from .server import TrapZoo


def main() -> int:
    zoo = TrapZoo().start()
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
