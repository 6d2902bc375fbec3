"""``make demo``: crawl the bundled trap site with the soft cap, then ask the archive.

Starts TrapZoo on 127.0.0.1 — five endless traps among ordinary pages — and crawls all of
it with Chromium and ``--dedupe-cap 100``, no ``--max-pages``: the crawl ends by itself.
Then shows what ``nitpicker-query`` says: the cap events, the duplicate clusters with the
exclusion each suggests, the site's templates (each trap one template, with its cap
event), and the summary; and prints the ``nitpicker-viewer`` command that
browses the archive.

Every command is printed as it runs, from the directory ``make demo`` was typed in, so it
can be copied and run again. The crawl uses ``--parallels 1``: with several workers the
order pages are seen in varies from run to run, and with it where each trap is capped;
one worker makes the demo say the same thing every time (about 20 s).
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from nitpicker_crawl.trapzoo import TrapZoo  # noqa: E402

BIN = Path(sys.executable).parent


def run(tool: str, *args: str) -> None:
    """Run ``tool`` from the directory make was started in, showing the command."""
    here = Path.cwd()
    command = [os.path.relpath(BIN / tool, here),
               *(os.path.relpath(a, here) if a.startswith("/") else a for a in args)]
    print(f"\n$ {shlex.join(command)}", flush=True)
    subprocess.run(command, check=False, cwd=here)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "demo",
                        help="directory for the archive (default: demo/ in the repository)")
    out = parser.parse_args().out.absolute()
    out.mkdir(exist_ok=True)
    archive = out / "trapzoo.nitpicker"
    with TrapZoo() as zoo:
        print(f"TrapZoo is serving {zoo.url} (and an external origin {zoo.external_url})")
        run("nitpicker-crawl", zoo.url, "-o", str(archive), "--overwrite", "--dedupe-cap",
            "100", "--parallels", "1")
    run("nitpicker-query", "dedupe-cap-events", str(archive), "--format", "table")
    run("nitpicker-query", "duplicate-clusters", str(archive), "--format", "table")
    run("nitpicker-query", "duplicate-clusters", str(archive), "--limit", "1", "--format",
        "json", "--pretty")
    run("nitpicker-query", "template-clusters", str(archive), "--min-count", "5",
        "--format", "table")
    run("nitpicker-query", "summary", str(archive), "--format", "table")
    here = Path.cwd()
    viewer = [os.path.relpath(BIN / "nitpicker-viewer", here), os.path.relpath(archive, here)]
    print(f"\nBrowse it (Duplicate clusters, Cap events, Templates, every page): "
          f"{shlex.join(viewer)}")


if __name__ == "__main__":
    main()
