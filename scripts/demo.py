"""``make demo``: crawl the bundled trap site, then ask the archive questions.

Starts TrapZoo on 127.0.0.1, crawls it with Chromium (``--max-pages`` keeps the endless
traps finite until the soft cap exists), and shows what ``nitpicker-query`` says: the
summary, the duplicated titles the traps produce, broken links and redirects.
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
MAX_PAGES = "300"


def run(tool: str, *args: str) -> None:
    shown = [a.replace(str(ROOT) + "/", "") for a in args]
    print(f"\n$ {tool} {shlex.join(shown)}", flush=True)
    subprocess.run([str(BIN / tool), *args], check=False, cwd=OUT)


def main() -> None:
    OUT.mkdir(exist_ok=True)
    with TrapZoo() as zoo:
        print(f"TrapZoo is serving {zoo.url} (and an external origin {zoo.external_url})")
        run("nitpicker-crawl", zoo.url, "-o", str(ARCHIVE), "--max-pages", MAX_PAGES)
    run("nitpicker-query", "summary", str(ARCHIVE), "--format", "table")
    run("nitpicker-query", "duplicates", str(ARCHIVE), "--limit", "6", "--pages-limit", "2",
        "--format", "table")
    run("nitpicker-query", "links", str(ARCHIVE), "--type", "broken", "--format", "table")
    run("nitpicker-query", "pages", str(ARCHIVE), "--status-min", "400", "--format", "table")


if __name__ == "__main__":
    main()
