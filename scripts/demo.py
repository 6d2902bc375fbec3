"""``make demo``: build a sample archive, then ask it questions as a user would.

The crawler is not in this build yet, so the sample archive is generated with the
archive writer (the same generator the benchmarks use, 2,000 pages); the commands shown
are exactly what a user types on any archive.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from make_archive import build  # noqa: E402

ARCHIVE = ROOT / "demo" / "sample.nitpicker"
QUERY = str(Path(sys.executable).with_name("nitpicker-query"))


def show(*args: str) -> None:
    print(f"\n$ nitpicker-query {shlex.join(args)}", flush=True)
    subprocess.run([QUERY, *args, "--format", "table"], check=True)


def main() -> None:
    ARCHIVE.parent.mkdir(exist_ok=True)
    if not ARCHIVE.exists():
        print(f"building a 2,000-page sample archive: {ARCHIVE.relative_to(ROOT)}")
        build(ARCHIVE, 2000)
    rel = str(ARCHIVE.relative_to(Path.cwd())) if ARCHIVE.is_relative_to(Path.cwd()) else str(
        ARCHIVE)
    show("summary", rel)
    show("duplicates", rel, "--limit", "5", "--pages-limit", "3")
    show("links", rel, "--type", "broken", "--limit", "5")
    show("pages", rel, "--missing-title", "--limit", "5")


if __name__ == "__main__":
    main()
