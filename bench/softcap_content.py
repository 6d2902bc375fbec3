"""The soft cap's content rules (third generation) and its suspicions judged by probes
(fourth) on every site it was measured against, before and after, with and without the cap.

    python bench/softcap_content.py                        # baseline: main before gen 3
    python bench/softcap_content.py --sites trapzoo,independent --no-write

Sites, each crawled ``--no-render --parallels 4`` from its root with no ``--max-pages``
but a safety net (``--safety``; a run stopped by it is "no" under *ended*):

- **TrapZoo --unbounded** (ours): the 17 infinite trap families, the content ones among
  them (a pager past its end, share variants, a repository browser);
- **independent**: ``tests/softcap/example_corp.py``, a site written apart from the
  rules by someone who never saw them (a pager past its end, share variants, a repository
  browser, real pagers and forum threads with one title);
- **DokuWiki** (Debian's package, ``corpora/real/dokuwiki.py``) ± ``--follow-nofollow``;
- **Trac** (PyPI, with Debian's git, ``corpora/real/trac.py``: wiki, tickets, a git repository
  browser) ± ``--follow-nofollow``;
- **MediaWiki 1.39** (Debian's package, ``corpora/real/mediawiki.py``), both URL layouts.

Columns: URLs fetched (internal pages scraped), trap pages (fetched HTML pages that are not
legit), legit pages at 200 out of all, legit URLs refused by the cap, cap events, wall time.
Sites whose packages are missing are skipped with the reason.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from doc import DOC, add_flag, emit  # noqa: E402

import nitpicker_query as q  # noqa: E402
from corpora import (  # noqa: E402
    example_corp,
    holdout_works,
)
from corpora.real import (  # noqa: E402
    dokuwiki,
    hgweb,
    mediawiki,
    redmine,
    trac,
)
from corpora.real import serving as targets  # noqa: E402
from nitpicker_crawl.trapzoo import TrapZoo  # noqa: E402
from nitpicker_crawl.trapzoo.site import legit_paths  # noqa: E402

BASELINE = "5e43c36"   # main before the soft cap's third generation
SITES = ("trapzoo", "independent", "holdout", "dokuwiki", "trac", "redmine", "hgweb",
         "mediawiki-wiki", "mediawiki-index")

Legit = Callable[[bool], tuple[dict[str, list[str]], set[str]]]
"""``legit(follow_nofollow)``: each page a complete crawl must fetch at 200, with its
spellings (any one fetched at 200 counts), and every spelling of every legit page (a
fetched URL among them is no trap page, even where the run could not be asked for it)."""
Site = Callable[[Path], contextlib.AbstractContextManager[tuple[str, Legit]]]


def plain(urls: set[str]) -> Legit:
    """Legit pages with one spelling each, whatever ``--follow-nofollow`` says."""
    return lambda _follow: ({u: [u] for u in urls}, set(urls))


@contextlib.contextmanager
def _trapzoo(tmp: Path) -> Iterator[tuple[str, Legit]]:
    with TrapZoo(unbounded=True) as zoo:
        yield zoo.url, plain({zoo.url + p.lstrip("/") for p in legit_paths(unbounded=True)})


@contextlib.contextmanager
def _independent(tmp: Path) -> Iterator[tuple[str, Legit]]:
    with example_corp.serve() as base:
        yield base, plain(set(example_corp.legit_urls(base)))


@contextlib.contextmanager
def _dokuwiki(tmp: Path) -> Iterator[tuple[str, Legit]]:
    wiki = dokuwiki.setup(tmp / "dokuwiki")
    with dokuwiki.serve(wiki) as base:
        yield base, plain(set(wiki.page_urls(base)))


@contextlib.contextmanager
def _trac(tmp: Path) -> Iterator[tuple[str, Legit]]:
    tracker = trac.setup(tmp / "trac")
    with trac.serve(tracker) as base:
        trac.survey(tracker, base)   # which pages only nofollow links lead to
        aliases = tracker.aliases(base)

        def legit(follow: bool) -> tuple[dict[str, list[str]], set[str]]:
            expected = {u: [u, *aliases.get(u, [])]
                        for u in tracker.legit_urls(base, follow_nofollow=follow)}
            every = {s for u in tracker.legit_urls(base) for s in [u, *aliases.get(u, [])]}
            return expected, every

        yield base, legit


@contextlib.contextmanager
def _holdout(tmp: Path) -> Iterator[tuple[str, Legit]]:
    with holdout_works.serve() as base:
        yield base, plain(set(holdout_works.legit_urls(base)))


def _aliased(module: object, name: str) -> Site:
    """A real target whose legit pages have other spellings (Redmine, hgweb)."""
    @contextlib.contextmanager
    def site(tmp: Path) -> Iterator[tuple[str, Legit]]:
        target = module.setup(tmp / name)  # type: ignore[attr-defined]
        with module.serve(target) as base:  # type: ignore[attr-defined]
            aliases = target.aliases(base)
            urls = target.legit_urls(base)
            expected = {u: [u, *aliases.get(u, [])] for u in urls}
            every = {s for names in expected.values() for s in names}
            yield base, lambda _follow: (expected, every)
    return site


def _mediawiki(layout: str) -> Site:
    @contextlib.contextmanager
    def site(tmp: Path) -> Iterator[tuple[str, Legit]]:
        wiki = mediawiki.setup(tmp / f"mw-{layout}", layout)
        with mediawiki.serve(wiki) as base:
            yield base, plain(set(wiki.article_urls(base)))
    return site


def _missing(name: str) -> str | None:
    if name == "dokuwiki":
        return dokuwiki.missing()
    if name == "trac":
        return trac.missing()
    if name == "redmine":
        return redmine.missing()
    if name == "hgweb":
        return hgweb.missing()
    if name.startswith("mediawiki"):
        return mediawiki.missing()
    return None


FACTORIES: dict[str, Site] = {
    "trapzoo": _trapzoo, "independent": _independent, "dokuwiki": _dokuwiki,
    "trac": _trac, "holdout": _holdout, "redmine": _aliased(redmine, "redmine"),
    "hgweb": _aliased(hgweb, "hgweb"), "mediawiki-wiki": _mediawiki("wiki"),
    "mediawiki-index": _mediawiki("index")}
EXTRA = {"redmine": ("--ignore-robots",), "hgweb": ("--ignore-robots", "--follow-nofollow")}
"""Redmine's robots.txt forbids its repository and issue lists, hgweb's the whole site —
the very pages whose loss the cap is measured on: crawled robots.txt ignored (as the issue
that asked for Redmine did); and every hgweb page says ``nofollow``, so its links are
followed (its whole trap space is then the cap's to stop)."""
FOLLOWS = {"trapzoo": (False,), "independent": (False,), "holdout": (False,),
           "hgweb": (False,)}  # no nofollow links to speak of


@dataclass
class Row:
    site: str
    crawler: str
    cap: int | None
    follow: bool
    ended: bool
    fetched: int
    trap: int
    legit_ok: int
    legit_total: int
    legit_refused: int
    events: int
    seconds: float

    def markdown(self) -> str:
        return (f"| {self.site} | {self.crawler} | {self.cap or 'off'} | "
                f"{'yes' if self.follow else 'no'} | {'yes' if self.ended else '**no**'} | "
                f"{self.fetched:,} | {self.trap:,} | {self.legit_ok}/{self.legit_total} | "
                f"{self.legit_refused} | {self.events} | {self.seconds:.0f} s |")


HEADER = ("| site | crawler | --dedupe-cap | --follow-nofollow | ended by itself | URLs "
          "fetched | trap pages | legit at 200 | legit refused | cap events | wall time |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|")


def crawl(site: str, crawler: str, base: str, judge: Legit, out: Path, *, cap: int | None,
          follow: bool, safety: int, tree: Path | None) -> Row:
    command, env = targets.crawler_command(tree)
    args = [*command, base, "-o", str(out), "--no-render", "--silent", "--no-fetch-external",
            "--parallels", "4", "--max-pages", str(safety)]
    if cap:
        args += ["--dedupe-cap", str(cap)]
    if follow:
        args.append("--follow-nofollow")
    args += EXTRA.get(site, ())
    started = time.monotonic()
    r = subprocess.run(args, capture_output=True, text=True, env=env, cwd=out.parent,
                       timeout=7200)
    seconds = time.monotonic() - started
    with q.open_archive(out) as a:
        rows = a.execute("SELECT url, status, contentType, skipReason, isSkipped FROM pages "
                         "WHERE isExternal = 0").fetchall()
        events = int(a.execute("SELECT count(*) FROM dedupe_cap_events").fetchone()[0]) \
            if a.has_table("dedupe_cap_events") else 0
    fetched = [row for row in rows if row["status"] is not None and not row["isSkipped"]]
    status = {row["url"]: row["status"] for row in rows}
    refused = {row["url"] for row in rows if row["skipReason"] == "dedupe-cap"}
    expected, known = judge(follow)
    trap = sum(1 for row in fetched if row["url"] not in known
               and (row["contentType"] or "").startswith("text/html"))
    ok = {u for u, names in expected.items() if any(status.get(n) == 200 for n in names)}
    lost = {u for u, names in expected.items() if u not in ok and refused & set(names)}
    ended = r.returncode == 0 and "stopped at --max-pages" not in r.stderr
    out.unlink()
    return Row(site, crawler, cap, follow, ended, len(fetched), trap, len(ok), len(expected),
               len(lost), events, seconds)


def _earlier_rows(ran: list[str]) -> list[str]:
    """The rows of the sites not re-run, as the doc's block holds them (re-measuring one
    site keeps the others' figures)."""
    text = DOC.read_text(encoding="utf-8") if DOC.exists() else ""
    block = text.split("<!-- bench:softcap-content -->")[-1].split(
        "<!-- /bench:softcap-content -->")[0] if "bench:softcap-content" in text else ""
    return [line for line in block.splitlines() if line.startswith("| ")
            and line.split("|")[1].strip() in SITES and line.split("|")[1].strip() not in ran]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--baseline", default=BASELINE, help=f"commit to compare with ({BASELINE})")
    p.add_argument("--sites", default=",".join(SITES), help="comma-separated subset")
    p.add_argument("--safety", type=int, default=6000,
                   help="--max-pages of every run: where a crawl that does not end stops")
    p.add_argument("--no-uncapped", dest="uncapped", action="store_false",
                   help="skip the runs without the cap")
    p.add_argument("--no-before", dest="before", action="store_false",
                   help="skip the baseline's runs")
    p.add_argument("--no-follow-runs", dest="follow_runs", action="store_false",
                   help="skip the --follow-nofollow runs")
    p.add_argument("--after", default=None, metavar="COMMIT",
                   help="crawl the 'after' rows with this commit's crawler (a worktree), not "
                   "this checkout's: the checkout may change while the bench runs")
    add_flag(p)
    args = p.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="nitpicker-content-"))
    tree = tmp / "baseline"
    subprocess.run(["git", "worktree", "add", "--detach", str(tree), args.baseline],
                   cwd=ROOT, check=True, capture_output=True)
    after_tree: Path | None = None
    if args.after:
        after_tree = tmp / "after"
        subprocess.run(["git", "worktree", "add", "--detach", str(after_tree), args.after],
                       cwd=ROOT, check=True, capture_output=True)
    rows: list[Row] = []
    skipped: list[str] = []
    try:
        for name in args.sites.split(","):
            why = _missing(name)
            if why is not None:
                skipped.append(f"{name}: {why}")
                continue
            with FACTORIES[name](tmp) as (base, legit):
                before = f"before ({args.baseline})"
                runs: list[tuple[str, int | None, bool, Path | None]] = [
                    (before, 100, False, tree)] if args.before else []
                follows = FOLLOWS.get(name, (False, True)) if args.follow_runs else (False,)
                for follow in follows:
                    runs += [("after", 100, follow, after_tree),
                             ("after", 20, follow, after_tree)]
                    if args.uncapped:
                        runs.append(("after", None, follow, after_tree))
                for crawler, cap, follow, source in runs:
                    row = crawl(name, crawler,
                                base, legit, tmp / f"{name}.nitpicker", cap=cap,
                                follow=follow, safety=args.safety, tree=source)
                    print(row.markdown(), file=sys.stderr)
                    rows.append(row)
    finally:
        for made in (tree, after_tree):
            if made is not None:
                subprocess.run(["git", "worktree", "remove", "--force", str(made)], cwd=ROOT,
                               capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)
    ran = args.sites.split(",")
    subset = f" --sites {args.sites}" if set(ran) != set(SITES) else ""
    earlier = _earlier_rows(ran) if subset else []
    lines = [f"`python bench/softcap_content.py --baseline {args.baseline} --safety "
             f"{args.safety}{subset}` — Python {platform.python_version()}, {os.cpu_count()} "
             f"CPUs, {platform.machine()}; every run `--no-render --parallels 4`"
             + (" (the other sites' rows are from the block's earlier run)" if earlier
                else "") + "\n", HEADER,
             *sorted([*earlier, *(r.markdown() for r in rows)],
                     key=lambda line: SITES.index(line.split("|")[1].strip()))]
    if skipped:
        lines.append("\nSkipped: " + "; ".join(skipped))
    emit("softcap-content", "\n".join(lines), write=args.write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
