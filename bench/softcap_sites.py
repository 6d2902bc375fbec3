"""The soft cap on whole sites, before and after a change, with and without the cap.

    python bench/softcap_sites.py                       # baseline: the commit before gen 2
    python bench/softcap_sites.py --baseline HEAD~3 --no-mediawiki

Sites, each crawled ``--no-render`` from its root with no ``--max-pages`` other than a
safety net (runs stopped by it are marked "no" under *ended by itself*):

- **TrapZoo** (``python -m nitpicker_crawl.trapzoo``): five infinite traps and the legit
  families; **TrapZoo --unbounded**: ten infinite traps, five of them built on failure
  classes of real sites. Trap pages are counted per ``TRAP_FAMILIES``, legit coverage
  against ``legit_paths``.
- **MediaWiki 1.39** (``corpora/real/mediawiki.py``; skipped when Debian's packages are missing),
  both URL layouts. Legit pages: the 200 articles and 10 category pages; every other page
  counts as a trap page (history, diffs, special pages, login forms …).

Rows: the baseline commit's crawler (``git worktree`` of ``--baseline``, run from its own
source tree) with ``--dedupe-cap 100``; this checkout's with ``--dedupe-cap 100`` (and
``--follow-nofollow`` for the wiki, where the baseline followed every link); and this
checkout's without the cap, given as many fetches as the capped run made.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from doc import add_flag, emit  # noqa: E402

import nitpicker_query as q  # noqa: E402
from corpora.real import mediawiki  # noqa: E402
from corpora.real import serving as targets  # noqa: E402
from nitpicker_crawl.trapzoo import TrapZoo  # noqa: E402
from nitpicker_crawl.trapzoo.site import TRAP_FAMILIES, legit_paths  # noqa: E402

BASELINE = "04de8bc"   # main before the soft cap's second generation
SAFETY = 20_000        # --max-pages of every run: the net a run that does not end hits


@dataclass
class Row:
    label: str
    fetched: int
    trap: int
    legit: int
    legit_total: int
    events: int
    ended: bool
    seconds: float

    def markdown(self) -> str:
        return (f"| {self.label} | {'yes' if self.ended else '**no**'} | {self.fetched:,} | "
                f"{self.trap:,} | {self.legit}/{self.legit_total} | {self.events} | "
                f"{self.seconds:.0f} s |")


HEADER = ("| run | ended by itself | URLs fetched | trap pages | legit pages at 200 | "
          "cap events | wall time |\n|---|---|---|---|---|---|---|")


def _zoo_row(label: str, zoo: TrapZoo, out: Path, unbounded: bool, args: list[str],
             tree: Path | None) -> Row:
    command, env = targets.crawler_command(tree)
    started = time.monotonic()
    r = subprocess.run([*command, zoo.url, "-o", str(out), "--no-render", "--silent",
                        "--max-pages", str(SAFETY), *args], capture_output=True, text=True,
                       env=env, cwd=out.parent, timeout=3600)
    seconds = time.monotonic() - started
    with q.open_archive(out) as a:
        def count(sql: str, *params: object) -> int:
            return int(a.execute(sql, params).fetchone()[0])

        fetched = count("SELECT count(*) FROM pages WHERE isExternal = 0 AND scraped = 1 "
                        "AND (isSkipped = 0 OR isSkipped IS NULL)")
        trap = sum(count("SELECT count(*) FROM pages WHERE url LIKE ? AND scraped = 1 AND "
                         "(isSkipped = 0 OR isSkipped IS NULL)", like)
                   for like, _, only_unbounded in TRAP_FAMILIES.values()
                   if unbounded or not only_unbounded)
        status = dict(a.execute("SELECT url, status FROM pages").fetchall())
        events = count("SELECT count(*) FROM dedupe_cap_events") if a.has_table(
            "dedupe_cap_events") else 0
    legit = [zoo.url + p.lstrip("/") for p in legit_paths(unbounded=unbounded)]
    ok = sum(1 for u in legit if status.get(u) == 200)
    ended = r.returncode == 0 and "stopped at --max-pages" not in r.stderr
    return Row(label, fetched, trap, ok, len(legit), events, ended, seconds)


def zoo_table(unbounded: bool, tree: Path, tmp: Path, rev: str) -> list[str]:
    rows = []
    with TrapZoo(unbounded=unbounded) as zoo:
        rows.append(_zoo_row(f"before ({rev}), --dedupe-cap 100", zoo, tmp / "z-before.nitpicker",
                             unbounded, ["--dedupe-cap", "100"], tree))
        after = _zoo_row("after, --dedupe-cap 100", zoo, tmp / "z-after.nitpicker", unbounded,
                         ["--dedupe-cap", "100"], None)
        rows.append(after)
        rows.append(_zoo_row("after, --dedupe-cap 20", zoo, tmp / "z-20.nitpicker", unbounded,
                             ["--dedupe-cap", "20"], None))
        rows.append(_zoo_row(f"after, no cap, --max-pages {after.fetched}", zoo,
                             tmp / "z-nocap.nitpicker", unbounded,
                             ["--max-pages", str(after.fetched)], None))
    for path in tmp.glob("z-*.nitpicker"):
        path.unlink()
    return [HEADER, *(r.markdown() for r in rows)]


def _wiki_row(label: str, r: mediawiki.CrawlResult) -> Row:
    return Row(label, r.fetched, r.fetched - r.articles_ok, r.articles_ok, r.articles_total,
               r.events, r.ended, r.seconds)


def wiki_table(layout: str, tree: Path, tmp: Path, rev: str) -> list[str]:
    wiki = mediawiki.setup(tmp / f"wiki-{layout}", layout)
    rows = []
    with mediawiki.serve(wiki) as base:
        def run(name: str, **kw: object) -> mediawiki.CrawlResult:
            out = tmp / f"{layout}-{name}.nitpicker"
            result = mediawiki.crawl(wiki, base, out, max_pages=kw.pop("max_pages", SAFETY),
                                     **kw)  # type: ignore[arg-type]
            out.unlink()
            return result

        rows.append(_wiki_row(f"before ({rev}), --dedupe-cap 100 (follows nofollow)",
                              run("before", cap=100, tree=tree)))
        rows.append(_wiki_row("after, --dedupe-cap 100", run("after", cap=100)))
        follow = run("follow", cap=100, follow_nofollow=True)
        rows.append(_wiki_row("after, --dedupe-cap 100 --follow-nofollow", follow))
        rows.append(_wiki_row(
            f"after, no cap, --follow-nofollow --max-pages {follow.fetched}",
            run("nocap", cap=None, follow_nofollow=True, max_pages=follow.fetched)))
    shutil.rmtree(wiki.directory, ignore_errors=True)
    return [HEADER, *(r.markdown() for r in rows)]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--baseline", default=BASELINE, help=f"commit to compare with ({BASELINE})")
    p.add_argument("--no-mediawiki", dest="mediawiki", action="store_false")
    add_flag(p)
    args = p.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="nitpicker-sites-"))
    tree = tmp / "baseline"
    subprocess.run(["git", "worktree", "add", "--detach", str(tree), args.baseline],
                   cwd=ROOT, check=True, capture_output=True)
    lines = [f"`python bench/softcap_sites.py --baseline {args.baseline}` — Python "
             f"{platform.python_version()}, {os.cpu_count()} CPUs, {platform.machine()}; "
             f"every run `--no-render --parallels 4`, safety net `--max-pages {SAFETY}`\n"]
    try:
        lines += ["### TrapZoo\n", *zoo_table(False, tree, tmp, args.baseline),
                  "\n### TrapZoo --unbounded\n", *zoo_table(True, tree, tmp, args.baseline)]
        why = mediawiki.missing()
        if args.mediawiki and why is None:
            for layout in ("wiki", "index"):
                lines += [f"\n### MediaWiki 1.39, `{layout}` layout (200 articles, 10 "
                          "categories)\n", *wiki_table(layout, tree, tmp, args.baseline)]
        elif args.mediawiki:
            lines.append(f"\n(MediaWiki skipped: {why})")
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT,
                       capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)
    emit("softcap-sites", "\n".join(lines), write=args.write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
