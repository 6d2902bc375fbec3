"""Orphans on a real MediaWiki: its own sitemap as the inventory, its own link tables as
the truth.

    python bench/sitemaps.py [--keep]

Debian's MediaWiki 1.39 (``corpora/real/mediawiki.py``'s wiki: 200 articles in 10 categories,
linked at random) gets six pages nothing links to in the ways a wiki forgets pages: three
articles on their own, and an "island" of three that link each other (A ↔ B, B → C). The
wiki writes its sitemap with its own ``maintenance/generateSitemap.php`` (an index and
one gzip sitemap per namespace), published beside it with a robots.txt ``Sitemap:``
line. The crawl starts at the root with the wiki's special pages excluded (All pages,
Recent changes and the like link every page; an auditor excludes them to ask which pages
the site's own links reach) and the history, diff and edit views (they link no other
page).

The truth is the wiki's, not ours: its ``pagelinks`` and ``categorylinks`` tables (a
category page links its members), walked from the main page. A page of the sitemap the
walk does not reach is an orphan; the orphans fall into components by ``pagelinks``.
Reported: the sitemap's URLs read against the wiki's pages, the orphans found against
the orphans the tables give (both directions), and the components' sizes.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import nitpicker_query as q  # noqa: E402
from corpora.real import mediawiki  # noqa: E402
from corpora.real.serving import crawler_command  # noqa: E402

ORPHANS = {"Lonely 1": "", "Lonely 2": "", "Lonely 3": "",
           "Island A": "[[Island B]]", "Island B": "[[Island A]] and [[Island C]]",
           "Island C": ""}
"""The pages added with nothing linking to them (title → links they hold)."""

PUBLISHED = "nitpicker-bench-sitemap"
"""Directory of the wiki's document root the sitemap is written to while the bench runs."""


def add_orphans(wiki: mediawiki.Wiki) -> None:
    """A main page that links the categories, as a wiki's portal does (Debian's default
    links nothing), and :data:`ORPHANS` (no category: a category page would link them)."""
    pages = wiki.directory / "import-orphans"
    pages.mkdir()
    portal = " ".join(f"[[:Category:Group {c}]]" for c in range(mediawiki.CATEGORIES))
    (pages / "Main Page").write_text(f"Welcome. Browse by topic: {portal}\n")
    for title, links in ORPHANS.items():
        (pages / title).write_text(f"'''{title}''' is linked from nowhere. {links}\n")
    wiki.php("maintenance/importTextFiles.php", "--overwrite", "-s", "orphans",
             *sorted(str(p) for p in pages.iterdir()))
    wiki.php("maintenance/runJobs.php")


@contextlib.contextmanager
def published_sitemap(wiki: mediawiki.Wiki, base: str) -> Iterator[Path]:
    """The wiki's sitemap written by its own script into the document root, named by a
    robots.txt; both removed afterwards (the document root is the package's). Yields the
    directory of the sitemap files."""
    target = mediawiki.MEDIAWIKI / PUBLISHED
    robots = mediawiki.MEDIAWIKI / "robots.txt"
    if robots.exists():
        raise SystemExit(f"{robots} exists: not ours to replace")
    target.mkdir()
    try:
        wiki.php("maintenance/generateSitemap.php", "--fspath", str(target), "--urlpath",
                 f"/{PUBLISHED}/", "--server", base.rstrip("/"), "--compress", "yes")
        index = next(target.glob("sitemap-index-*.xml"))
        robots.write_text(f"User-agent: *\nDisallow:\n\nSitemap: {base}{PUBLISHED}/"
                          f"{index.name}\n")
        yield target
    finally:
        robots.unlink(missing_ok=True)
        shutil.rmtree(target, ignore_errors=True)


def namespaces(base: str) -> dict[int, str]:
    """Namespace number → its title prefix (``14`` → ``Category:``), from the wiki's API."""
    url = base + "api.php?action=query&meta=siteinfo&siprop=namespaces&format=json"
    with urllib.request.urlopen(url, timeout=60) as answer:  # 127.0.0.1 only
        data = json.load(answer)
    return {int(k): (v["*"] + ":" if v["*"] else "")
            for k, v in data["query"]["namespaces"].items()}


@dataclass
class Truth:
    pages: set[str]                   # every page of the wiki, "Category:Group 1"
    orphans: set[str]                 # not reached from the main page by its links
    components: list[set[str]]        # the orphans, connected by pagelinks


def truth(wiki: mediawiki.Wiki, prefixes: dict[int, str]) -> Truth:
    """What the wiki's own tables say: pages, and those its links do not reach from the
    main page (pagelinks; a category page reaches its members through categorylinks,
    and a member links its category). Components join pages by either kind of link."""
    conn = sqlite3.connect(f"file:{wiki.directory / 'data' / 'wiki.sqlite'}?mode=ro",
                           uri=True)
    try:
        ids = {pid: prefixes.get(ns, "") + title.replace("_", " ")
               for pid, ns, title in conn.execute(
                   "SELECT page_id, page_namespace, page_title FROM page")}
        by_title = {t: pid for pid, t in ids.items()}
        links: dict[str, set[str]] = {t: set() for t in ids.values()}
        for source, ns, title in conn.execute(
                "SELECT pl_from, pl_namespace, pl_title FROM pagelinks"):
            target = prefixes.get(ns, "") + title.replace("_", " ")
            if source in ids and target in by_title:
                links[ids[source]].add(target)
        members: dict[str, set[str]] = {}
        for source, category in conn.execute("SELECT cl_from, cl_to FROM categorylinks"):
            if source in ids:
                members.setdefault(prefixes[14] + category.replace("_", " "), set()).add(
                    ids[source])
    finally:
        conn.close()
    of: dict[str, set[str]] = {}   # a member page → its categories (the link it shows)
    for category, pages_of in members.items():
        for member in pages_of:
            of.setdefault(member, set()).add(category)
    reached, todo = {"Main Page"}, ["Main Page"]
    while todo:
        page = todo.pop()
        for nxt in links.get(page, set()) | members.get(page, set()) | of.get(page, set()):
            if nxt not in reached:
                reached.add(nxt)
                todo.append(nxt)
    orphans = set(ids.values()) - reached
    parent = {o: o for o in orphans}

    def find(x: str) -> str:
        while parent[x] != x:
            x = parent[x]
        return x

    for page in orphans:
        for target in links[page] & orphans:
            parent[find(page)] = find(target)
    for category, pages_of in members.items():
        for member in pages_of:
            if category in orphans and member in orphans:
                parent[find(member)] = find(category)
    groups: dict[str, set[str]] = {}
    for page in orphans:
        groups.setdefault(find(page), set()).add(page)
    return Truth(set(ids.values()), orphans, list(groups.values()))


def title_of(url: str) -> str:
    """``…/wiki/Category:Group_1`` → ``Category:Group 1``."""
    path = urllib.parse.urlsplit(url).path
    return urllib.parse.unquote(path.split("/wiki/", 1)[1]).replace("_", " ")


@dataclass
class Result:
    wiki_pages: int
    sitemap_urls: int               # inventory_runs.total_lines of the sitemap source
    truth_orphans: int
    found_orphans: int
    found_true: int                 # found and in the truth
    truth_components: list[int]
    found_components: list[int]
    seconds: float
    returncode: int
    stderr: str


def crawl_orphans(wiki: mediawiki.Wiki, base: str, out: Path) -> Result:
    """Crawl the wiki with its sitemap published and compare the orphans with the truth."""
    prefixes = namespaces(base)
    command, env = crawler_command(None)
    with published_sitemap(wiki, base):
        started = time.monotonic()
        done = subprocess.run(
            [*command, base, "-o", str(out), "--no-render", "--silent", "--no-fetch-external",
             "--dedupe-cap", "100", "--no-templates",
             "--exclude-pattern", r"Special:|[?&](action|diff|oldid|printable)="],
            capture_output=True, text=True, timeout=1800, cwd=out.parent, env=env)
        seconds = time.monotonic() - started
    told = truth(wiki, prefixes)
    alone = q.list_isolated_pages(out, limit=1000)["items"]
    found_components = [[i["url"]] for i in alone]
    for cluster in q.list_isolated_clusters(out, limit=1000)["items"]:
        members = q.get_isolated_cluster(out, representative_url=cluster["representativeUrl"])
        assert members is not None
        found_components.append([m["url"] for m in members["members"]])
    found = {title_of(u) for c in found_components for u in c}
    with q.open_archive(out) as a:
        read = a.execute("SELECT coalesce(sum(total_lines), 0) FROM inventory_runs WHERE "
                         "list_label = 'sitemap'").fetchone()[0]
    return Result(len(told.pages), int(read), len(told.orphans), len(found),
                  len(found & told.orphans), sorted((len(c) for c in told.components),
                                                    reverse=True),
                  sorted((len(c) for c in found_components), reverse=True), seconds,
                  done.returncode, done.stderr)


def run(directory: Path) -> Result:
    wiki = mediawiki.setup(directory / "wiki", "wiki")
    add_orphans(wiki)
    with mediawiki.serve(wiki) as base:
        return crawl_orphans(wiki, base, directory / "wiki.nitpicker")


def main() -> int:
    from doc import add_flag, emit

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", action="store_true", help="keep the wiki and the archive")
    add_flag(parser)
    args = parser.parse_args()
    why = mediawiki.missing()
    if why:
        print(f"sitemaps: {why}", file=sys.stderr)
        return 1
    tmp = Path(tempfile.mkdtemp(prefix="nitpicker-sitemaps-"))
    try:
        r = run(tmp)
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    if r.returncode != 0:
        print(r.stderr[-2000:], file=sys.stderr)
        return 1
    lines = [
        f"`python bench/sitemaps.py` — {platform.machine()}, {os.cpu_count()} CPUs, "
        f"Python {platform.python_version()}; MediaWiki 1.39 (Debian), "
        f"{mediawiki.ARTICLES} articles, {mediawiki.CATEGORIES} categories, "
        f"{len(ORPHANS)} pages added that nothing links to\n",
        "| measurement | value |",
        "|---|---:|",
        f"| pages of the wiki (its `page` table) | {r.wiki_pages} |",
        f"| URLs in the wiki's own sitemap (`generateSitemap.php`), read by the crawl | "
        f"{r.sitemap_urls} |",
        f"| orphans by the wiki's link tables (not reached from the main page) | "
        f"{r.truth_orphans} |",
        f"| orphans the crawl found (`isolated-pages` + `isolated-clusters` members) | "
        f"{r.found_orphans} |",
        f"| of them orphans by the tables (precision) | {r.found_true} / {r.found_orphans} |",
        f"| of the tables' orphans found (recall) | {r.found_true} / {r.truth_orphans} |",
        f"| components by the tables, sizes | {r.truth_components} |",
        f"| components found, sizes | {r.found_components} |",
        f"| crawl, wall seconds | {r.seconds:.1f} |",
    ]
    emit("sitemaps-mediawiki", "\n".join(lines), write=args.write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
