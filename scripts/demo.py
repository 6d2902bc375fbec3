"""``make demo``: crawl the bundled trap site with the soft cap, then ask the archive.

Starts TrapZoo on 127.0.0.1 — five endless traps among ordinary pages — and crawls all of
it with Chromium and ``--dedupe-cap 100``, no ``--max-pages``: the crawl ends by itself.
Then shows what ``nitpicker-query`` says: the cap events, the duplicate clusters with the
exclusion each suggests, and the summary.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from nitpicker_crawl.trapzoo import TrapZoo  # noqa: E402

OUT = ROOT / "demo"
ARCHIVE = OUT / "trapzoo.nitpicker"
BIN = Path(sys.executable).parent


def run(tool: str, *args: str) -> None:
    shown = [a.replace(str(ROOT) + "/", "") for a in args]
    print(f"\n$ {tool} {shlex.join(shown)}", flush=True)
    subprocess.run([str(BIN / tool), *args], check=False, cwd=OUT)


def main() -> None:
    OUT.mkdir(exist_ok=True)
    with TrapZoo() as zoo:
        print(f"TrapZoo is serving {zoo.url} (and an external origin {zoo.external_url})")
        run("nitpicker-crawl", zoo.url, "-o", str(ARCHIVE), "--dedupe-cap", "100")
    run("nitpicker-query", "dedupe-cap-events", str(ARCHIVE), "--format", "table")
    run("nitpicker-query", "duplicate-clusters", str(ARCHIVE), "--format", "table")
    run("nitpicker-query", "duplicate-clusters", str(ARCHIVE), "--limit", "1", "--format",
        "json", "--pretty")
    run("nitpicker-query", "summary", str(ARCHIVE), "--format", "table")


if __name__ == "__main__":
    main()
