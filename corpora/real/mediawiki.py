"""A real MediaWiki (Debian's package) as a crawl target: set it up, serve it, crawl it.

    python corpora/real/mediawiki.py                # both layouts, caps 100 and 20, ± nofollow
    python corpora/real/mediawiki.py --layout wiki --cap 100 --no-write

Debian's ``mediawiki`` package (1.39) is installed once into ``/usr/share/mediawiki``;
each wiki here lives in a temporary directory of its own — SQLite database, uploads and
``LocalSettings.php`` (found through ``MW_CONFIG_FILE``) — and is served by ``php -S``
with MediaWiki's own development router, so nothing outside that directory is touched.
Content: ``ARTICLES`` articles in ``CATEGORIES`` categories, each with 1–4 revisions
(``importTextFiles.php`` once per revision round), linking to a few other articles, so
history, diff, oldid, related-changes and what-links-here views all exist.

Two URL layouts: ``wiki`` (``/wiki/Title``, ``$wgArticlePath``) and ``index``
(``/index.php?title=Title``, MediaWiki's default without short URLs).

Needs: ``apt-get install mediawiki php-sqlite3 php-cli php-intl php-mbstring php-xml``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import platform
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import nitpicker_query as q  # noqa: E402
from corpora.real.serving import apt_install, free_port, run_crawl, serving  # noqa: E402
from nitpicker_query.keys.page_keys import shape_key  # noqa: E402

MEDIAWIKI = Path("/usr/share/mediawiki")
ARTICLES = 200
CATEGORIES = 10
PACKAGES = "mediawiki php-sqlite3 php-cli php-intl php-mbstring php-xml"


def missing() -> str | None:
    """Why a MediaWiki cannot be set up here, or None when it can."""
    if not (MEDIAWIKI / "maintenance" / "install.php").is_file():
        return f"MediaWiki is not installed (apt-get install {PACKAGES})"
    if shutil.which("php") is None:
        return "php is not installed (apt-get install php-cli)"
    probe = subprocess.run(["php", "-m"], capture_output=True, text=True)
    for module in ("pdo_sqlite", "intl", "mbstring", "xml"):
        if module not in probe.stdout.lower().split():
            return f"PHP module {module} is missing (apt-get install {PACKAGES})"
    return None


def article_title(i: int) -> str:
    return f"Topic {i:03d}"


def _article_text(i: int, revision: int, rng: random.Random) -> str:
    links = " ".join(f"[[{article_title(rng.randrange(ARTICLES))}]]" for _ in range(3))
    paragraphs = "\n\n".join(
        f"Paragraph {p} of revision {revision} about topic {i}. See also {links}."
        for p in range(1 + revision))
    return (f"'''{article_title(i)}''' is article {i}.\n\n{paragraphs}\n\n"
            f"[[Category:Group {i % CATEGORIES}]]\n")


@dataclass
class Wiki:
    directory: Path
    layout: str

    @property
    def env(self) -> dict[str, str]:
        return {**os.environ, "MW_CONFIG_FILE": str(self.directory / "LocalSettings.php")}

    def php(self, *args: str) -> None:
        subprocess.run(["php", *args], cwd=MEDIAWIKI, env=self.env, check=True,
                       capture_output=True, text=True)

    def article_urls(self, base: str) -> list[str]:
        """The URL of every article and category page, spelled as the wiki links them."""
        titles = [article_title(i) for i in range(ARTICLES)]
        titles += [f"Category:Group {c}" for c in range(CATEGORIES)]
        names = [t.replace(" ", "_") for t in titles]
        if self.layout == "wiki":
            return [f"{base}wiki/{urllib.request.quote(n, safe=':_')}" for n in names]
        return [f"{base}index.php?title={urllib.request.quote(n, safe=':_')}" for n in names]


def setup(directory: Path, layout: str, *, seed: int = 7) -> Wiki:
    """Install a wiki into ``directory`` (must not exist yet) and import its content."""
    directory.mkdir(parents=True)
    data = directory / "data"
    data.mkdir()
    wiki = Wiki(directory, layout)
    subprocess.run(
        ["php", "maintenance/install.php", "--dbtype", "sqlite", "--dbpath", str(data),
         "--dbname", "wiki", "--confpath", str(directory), "--server", "http://127.0.0.1",
         "--scriptpath", "", "--pass", "correct-horse-battery", "--lang", "en",
         "--skins", "Vector", "Bench Wiki", "Admin"],
        cwd=MEDIAWIKI, env={**os.environ, "MW_CONFIG_FILE": str(directory / "x.php")},
        check=True, capture_output=True, text=True)
    settings = directory / "LocalSettings.php"
    extra = [
        "$wgMainCacheType = CACHE_NONE;",
        "$wgParserCacheType = CACHE_NONE;",
        "$wgEnableUploads = false;",
        f'$wgUploadDirectory = "{directory}/images";',
        "$wgShowExceptionDetails = true;",
        # the port is chosen when serving: links follow the Host the crawler asked for
        "if ( isset( $_SERVER['HTTP_HOST'] ) ) { $wgServer = 'http://' . $_SERVER['HTTP_HOST']; }",
    ]
    if layout == "wiki":
        extra.append('$wgArticlePath = "/wiki/$1";')
    else:  # no path info: every page is /index.php?title=…
        extra += ['$wgArticlePath = "/index.php?title=$1";', "$wgUsePathInfo = false;"]
    settings.write_text(settings.read_text() + "\n" + "\n".join(extra) + "\n")
    rng = random.Random(seed)
    revisions = {i: rng.randint(1, 4) for i in range(ARTICLES)}
    for rnd in range(1, 5):
        pages = directory / f"import-{rnd}"
        pages.mkdir()
        for i, count in revisions.items():
            if count >= rnd:
                (pages / article_title(i)).write_text(_article_text(i, rnd, rng))
        if rnd == 1:
            for c in range(CATEGORIES):
                (pages / f"Category:Group {c}").write_text(f"Articles of group {c}.\n")
        files = sorted(str(p) for p in pages.iterdir())
        wiki.php("maintenance/importTextFiles.php", "--rc", "--overwrite",
                 "-s", f"round {rnd}", *files)
    wiki.php("maintenance/runJobs.php")
    return wiki


def ensure_installed() -> str | None:
    """Install ``PACKAGES`` when they are missing and this process is root; returns what
    :func:`missing` says afterwards."""
    if missing() is not None:
        apt_install(PACKAGES.split())
    return missing()


@contextlib.contextmanager
def serve(wiki: Wiki, workers: int = 4) -> Iterator[str]:
    """``php -S`` on a free port of 127.0.0.1; yields the base URL (ending in ``/``)."""
    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    with serving(["php", "-S", f"127.0.0.1:{port}", "-t", str(MEDIAWIKI),
                  str(MEDIAWIKI / "maintenance/dev/includes/router.php")],
                 probe=base + "index.php?title=Main_Page", cwd=MEDIAWIKI, name="php -S",
                 env={**wiki.env, "PHP_CLI_SERVER_WORKERS": str(workers)}):
        yield base


@dataclass
class CrawlResult:
    layout: str
    cap: int | None
    follow_nofollow: bool
    returncode: int
    ended: bool           # by itself: exit 0 and not stopped by --max-pages
    seconds: float
    fetched: int          # URLs of the site fetched (status set, not skipped)
    refused: int          # skipped by the soft cap
    events: int
    articles_ok: int      # articles and category pages answering 200
    articles_total: int
    article_shape_refused: int
    stderr: str


def crawl(wiki: Wiki, base: str, out: Path, *, cap: int | None, follow_nofollow: bool = False,
          max_pages: int | None = None, timeout: float = 3600,
          tree: Path | None = None) -> CrawlResult:
    """Crawl the wiki ``--no-render`` from its root (it redirects to the main page, and
    scopes the whole wiki); ``tree``: another source tree's crawler
    (which may predate ``--follow-nofollow``: then ``follow_nofollow`` must be False)."""
    returncode, seconds, stderr = run_crawl(
        base, out, cap=cap, follow_nofollow=follow_nofollow, max_pages=max_pages,
        timeout=timeout, tree=tree)
    return _measure(wiki, base, out, cap, follow_nofollow, returncode, seconds, stderr)


def _measure(wiki: Wiki, base: str, out: Path, cap: int | None, follow_nofollow: bool,
             returncode: int, seconds: float, stderr: str) -> CrawlResult:
    with q.open_archive(out) as a:
        conn: sqlite3.Connection = a.connection()
        fetched = conn.execute("SELECT count(*) FROM pages WHERE isExternal = 0 AND "
                               "scraped = 1 AND (isSkipped = 0 OR isSkipped IS NULL)"
                               ).fetchone()[0]
        refused_urls = [u for (u,) in conn.execute(
            "SELECT url FROM pages WHERE skipReason = 'dedupe-cap'")]
        status = dict(conn.execute("SELECT url, status FROM pages WHERE isExternal = 0"))
        events = conn.execute("SELECT count(*) FROM dedupe_cap_events").fetchone()[0] \
            if a.has_table("dedupe_cap_events") else 0
    expected = wiki.article_urls(base)
    ok = sum(1 for u in expected if status.get(u) == 200)
    article_shapes = {shape_key(u) for u in expected}
    bad = sum(1 for u in refused_urls if shape_key(u) in article_shapes)
    ended = returncode == 0 and "stopped at --max-pages" not in stderr
    return CrawlResult(wiki.layout, cap, follow_nofollow, returncode, ended, seconds, fetched,
                       len(refused_urls), events, ok, len(expected), bad, stderr)


def main() -> int:
    sys.path.insert(0, str(ROOT / "bench"))
    from doc import add_flag, emit

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--layout", choices=["wiki", "index"], action="append")
    p.add_argument("--cap", type=int, action="append", help="dedupe cap (0 = off)")
    p.add_argument("--follow-nofollow", choices=["no", "yes", "both"], default="both")
    p.add_argument("--max-pages", type=int, default=None,
                   help="safety net for uncapped runs")
    p.add_argument("--keep", action="store_true", help="keep the wiki and archives")
    add_flag(p)
    args = p.parse_args()
    why = missing()
    if why:
        print(f"mediawiki: {why}", file=sys.stderr)
        return 1
    layouts = args.layout or ["wiki", "index"]
    caps = args.cap or [100, 20]
    follows = {"no": [False], "yes": [True], "both": [False, True]}[args.follow_nofollow]
    rows = []
    tmp = Path(tempfile.mkdtemp(prefix="nitpicker-mw-"))
    try:
        for layout in layouts:
            t0 = time.monotonic()
            wiki = setup(tmp / layout, layout)
            print(f"[mediawiki] {layout}: set up in {time.monotonic() - t0:.0f} s",
                  file=sys.stderr)
            with serve(wiki) as base:
                for cap in caps:
                    for follow in follows:
                        out = tmp / f"{layout}-{cap}-{int(follow)}.nitpicker"
                        r = crawl(wiki, base, out, cap=cap or None, follow_nofollow=follow,
                                  max_pages=args.max_pages)
                        print(f"[mediawiki] {layout} cap {cap} nofollow-followed {follow}: "
                              f"exit {r.returncode}, {r.fetched} fetched, {r.refused} refused, "
                              f"{r.events} events, {r.articles_ok}/{r.articles_total} "
                              f"articles, {r.article_shape_refused} article-shape refused, "
                              f"{r.seconds:.0f} s", file=sys.stderr)
                        rows.append(r)
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print(f"[mediawiki] kept {tmp}", file=sys.stderr)
    table = ["| layout | --dedupe-cap | nofollow links | ended by itself | URLs fetched | "
             "refused | cap events | articles + categories at 200 | article-shape URLs "
             "refused | wall time |", "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        table.append(
            f"| `{r.layout}` | {r.cap or 'off'} "
            f"| {'followed' if r.follow_nofollow else 'not followed'} "
            f"| {'yes' if r.ended else 'no'} "
            f"| {r.fetched:,} | {r.refused:,} | {r.events} | {r.articles_ok}/{r.articles_total} "
            f"| {r.article_shape_refused} | {r.seconds:.0f} s |")
    emit("mediawiki", "\n".join(table) + f"\n\nMachine: {platform.machine()}, "
         f"{os.cpu_count()} cores; `python corpora/real/mediawiki.py`", write=args.write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
