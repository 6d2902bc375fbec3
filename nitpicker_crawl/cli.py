"""``nitpicker-crawl``: placeholder until the crawler lands (issue: the crawler)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="nitpicker-crawl",
        description="Crawl a site into a .nitpicker archive. NOT YET AVAILABLE in this "
        "build: the crawler is being written. The archive writer it will use "
        "(nitpicker_crawl.archive.ArchiveWriter) is ready.",
    )
    parser.add_argument("urls", nargs="*", metavar="URL")
    parser.parse_args(argv)
    print("nitpicker-crawl: not yet available in this build.", file=sys.stderr)
    return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
