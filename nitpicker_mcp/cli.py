"""``nitpicker-mcp``: placeholder until the MCP server lands."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="nitpicker-mcp",
        description="Serve nitpicker queries to AI assistants over stdio MCP. NOT YET "
        "AVAILABLE in this build.",
    )
    parser.parse_args(argv)
    print("nitpicker-mcp: not yet available in this build.", file=sys.stderr)
    return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
