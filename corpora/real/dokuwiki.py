"""A real DokuWiki (Debian's package) as a crawl target: set it up, serve it, crawl it.

    python corpora/real/dokuwiki.py                       # caps 100, 20 and off, ± nofollow
    python corpora/real/dokuwiki.py --cap 100 --follow-nofollow yes --no-write

Debian's ``dokuwiki`` package (2022-07-31 "Igor") is installed once into
``/usr/share/dokuwiki``; its configuration normally lives in ``/etc/dokuwiki`` and its data
in ``/var/lib/dokuwiki``. Each wiki here lives in a temporary directory of its own instead:

- ``www/``   a copy of Debian's code (16 MB; the plugin and template directories stay
  symlinks into the package, only read), whose ``inc/preload.php`` is replaced so that
  the instance reads ``conf/`` below — PHP resolves symlinked scripts to their target, so
  a symlinked ``doku.php`` would load Debian's own preload and ``/etc/dokuwiki`` instead;
- ``conf/``  Debian's default configuration files plus this wiki's ``local.php``
  (``savedir`` = ``data/``), ACL (anonymous read, nothing else) and no user;
- ``data/``  pages, attic (old revisions, gzipped), meta (changelogs, rendered metadata),
  media, media_meta, cache, index, locks, tmp, log;
- ``sessions/`` PHP's session files (``php -d session.save_path``), which DokuWiki starts
  on every request.

Content (deterministic, ``random.Random(seed)``): ``PAGES_PER_NAMESPACE`` pages in each of
the ``NAMESPACES``, each with 1–4 revisions, linking to other pages and embedding the
``MEDIA`` files; a start page per namespace (plus ``projects:start``) listing its pages and
a root ``start`` linking every namespace start page. Revisions are written the way
DokuWiki's ``PageFile::saveWikiText`` stores them — the page file with its mtime set to
the revision's timestamp, every revision (the current one included) gzipped in the attic,
one changelog line per revision in the page's ``.changes`` and in the global
``_dokuwiki.changes`` — at fixed timestamps (January 2024 on), so revision URLs are the
same on every set-up; DokuWiki's own ``bin/indexer.php`` then builds the search index and
the metadata (backlinks). The "Old revisions", diff and recent-changes views all show them.

URLs: ``userewrite`` 0 (DokuWiki's default), so a page is ``/doku.php?id=ns:page`` (colons
are not escaped), media ``/lib/exe/fetch.php?media=ns:file.png`` and
``/lib/exe/detail.php?id=…&media=…``; ``php -S`` runs with DokuWiki's own router
(``index.php``), which serves the start page at ``/``.

Needs: ``apt-get install dokuwiki php-cli php-xml php-mbstring`` (``ensure_installed()``).
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import os
import platform
import random
import shutil
import sqlite3
import struct
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
import zlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import nitpicker_query as q  # noqa: E402
from corpora.real.serving import apt_install, free_port, run_crawl, serving  # noqa: E402
from nitpicker_query.keys.page_keys import shape_key  # noqa: E402

DOKUWIKI = Path("/usr/share/dokuwiki")
DEBIAN_CONF = Path("/etc/dokuwiki")
PACKAGES = "dokuwiki php-cli php-xml php-mbstring"
NAMESPACES = ("wiki", "projects:alpha", "projects:beta", "howto", "team")
PAGES_PER_NAMESPACE = 12
MEDIA = 12                      # files, spread over the namespaces: PNGs and a few .txt
BASE_TIME = 1704067200          # 2024-01-01T00:00:00Z: the first revision's timestamp
USERS = ("alice", "bob", "carol", "dave")

_ADJECTIVES = ("quick", "stable", "remote", "legacy", "shared", "private", "daily",
               "weekly", "secure", "local", "public", "minimal", "manual", "nightly")
_NOUNS = ("setup", "backup", "release", "checklist", "roadmap", "meeting", "glossary",
          "policy", "server", "budget", "review", "workflow", "archive", "schedule")


def missing() -> str | None:
    """Why a DokuWiki cannot be set up here, or None when it can."""
    if not (DOKUWIKI / "doku.php").is_file() or not (DEBIAN_CONF / "dokuwiki.php").is_file():
        return f"DokuWiki is not installed (apt-get install {PACKAGES})"
    if shutil.which("php") is None:
        return "php is not installed (apt-get install php-cli)"
    probe = subprocess.run(["php", "-m"], capture_output=True, text=True)
    for module in ("xml", "mbstring", "session"):
        if module not in probe.stdout.lower().split():
            return f"PHP module {module} is missing (apt-get install {PACKAGES})"
    return None


def ensure_installed() -> str | None:
    """Install ``PACKAGES`` when they are missing and this process is root; returns what
    :func:`missing` says afterwards."""
    if missing() is not None:
        apt_install(PACKAGES.split())
    return missing()


def _png(width: int, height: int, rng: random.Random) -> bytes:
    """A small valid PNG (RGB stripes) made without any imaging library."""
    colours = [bytes(rng.randrange(256) for _ in range(3)) for _ in range(3)]
    rows = b"".join(b"\0" + b"".join(colours[(x // 4 + y // 4) % 3] for x in range(width))
                    for y in range(height))

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


def _title(page_id: str) -> str:
    return page_id.rsplit(":", 1)[-1].replace("_", " ").title()


@dataclass
class Revision:
    date: int
    user: str
    summary: str
    text: str


@dataclass
class Wiki:
    directory: Path
    #: every content page id (start pages included) → its revisions, oldest first
    revisions: dict[str, list[Revision]] = field(default_factory=dict)
    media: list[str] = field(default_factory=list)

    @property
    def www(self) -> Path:
        return self.directory / "www"

    @property
    def conf(self) -> Path:
        return self.directory / "conf"

    @property
    def data(self) -> Path:
        return self.directory / "data"

    @property
    def pages(self) -> list[str]:
        return list(self.revisions)

    def php(self, *args: str) -> str:
        """Run one of DokuWiki's CLI scripts (``bin/…``) on this instance."""
        r = subprocess.run(["php", *args], cwd=self.www, check=True, capture_output=True,
                           text=True)
        return r.stdout

    def page_url(self, base: str, page_id: str) -> str:
        """A page's URL as DokuWiki's ``wl()`` writes it with ``userewrite`` 0: the id
        percent-encoded except for its colons."""
        return f"{base}doku.php?id={urllib.parse.quote(page_id, safe=':')}"

    def page_urls(self, base: str) -> list[str]:
        """The URL of every content page, spelled as the wiki links them."""
        return [self.page_url(base, p) for p in self.revisions]

    def media_urls(self, base: str) -> list[str]:
        """Each media file's ``fetch.php`` URL (what an embedded image's ``src`` is)."""
        return [f"{base}lib/exe/fetch.php?media={urllib.parse.quote(m, safe=':')}"
                for m in self.media]


def _write_conf(wiki: Wiki) -> None:
    """Debian's default configuration files, with this instance's own settings, ACL and
    (empty) user list; nothing points back into ``/etc`` or ``/var/lib``."""
    wiki.conf.mkdir()
    skip = {"local.php", "apache.conf", "lighttpd.conf", "htaccess", ".htaccess"}
    for f in sorted(DEBIAN_CONF.iterdir()):
        if f.is_file() and not f.is_symlink() and f.name not in skip \
                and not f.name.endswith((".dist", ".example")):
            shutil.copy(f, wiki.conf / f.name)
    settings = {
        "title": "Bench DokuWiki", "savedir": str(wiki.data), "license": "cc-by-sa",
        "useacl": 1, "authtype": "authplain", "superuser": "@admin", "userewrite": 0,
        "updatecheck": 0, "dnslookups": 0,
        # the seeded changes are from 2024: keep them listed in "Recent Changes" (the
        # task runner would otherwise trim everything older than 7 days while crawling)
        "recent_days": 36500,
    }
    lines = ["<?php", "// written by corpora/real/dokuwiki.py"]
    for key, value in settings.items():
        php_value = str(value) if isinstance(value, int) else f"'{value}'"
        lines.append(f"$conf['{key}'] = {php_value};")
    (wiki.conf / "local.php").write_text("\n".join(lines) + "\n")
    # anonymous visitors may read everything and do nothing else (AUTH_READ = 1)
    (wiki.conf / "acl.auth.php").write_text("# acl.auth.php\n# <?php exit()?>\n*\t@ALL\t1\n")
    (wiki.conf / "users.auth.php").write_text("# users.auth.php\n# <?php exit()?>\n")
    (wiki.conf / "mime.local.conf").write_text("txt     text/plain\n")


def _copy_code(wiki: Wiki) -> None:
    """Debian's code, with a ``preload.php`` pointing at ``conf/`` (see the docstring)."""
    shutil.copytree(DOKUWIKI, wiki.www, symlinks=True)
    preload = wiki.www / "inc" / "preload.php"
    preload.unlink()
    preload.write_text("<?php\n// written by corpora/real/dokuwiki.py: this instance's own "
                       f"configuration, not /etc/dokuwiki\ndefine('DOKU_CONF', '{wiki.conf}/');\n")


def _seed(wiki: Wiki, seed: int) -> list[tuple[str, Revision, int, str]]:
    """Choose ids, media and the text of every revision; returns the changelog entries
    (page id, revision, size change, type) in date order."""
    rng = random.Random(seed)
    names = [f"{a}_{n}" for a in _ADJECTIVES for n in _NOUNS]
    topics = {ns: [f"{ns}:{name}" for name in rng.sample(names, PAGES_PER_NAMESPACE)]
              for ns in NAMESPACES}
    every_topic = [p for ns in NAMESPACES for p in topics[ns]]
    media_ns: dict[str, list[str]] = {ns: [] for ns in NAMESPACES}
    for i in range(MEDIA):
        ns = NAMESPACES[i % len(NAMESPACES)]
        ext = "txt" if i % 4 == 3 else "png"
        media_id = f"{ns}:{'notes' if ext == 'txt' else 'figure'}_{i:02d}.{ext}"
        media_ns[ns].append(media_id)
        wiki.media.append(media_id)

    def topic_text(page_id: str, revision: int) -> str:
        ns = page_id.rsplit(":", 1)[0]
        parts = [f"====== {_title(page_id)} ======", "",
                 f"This page is about {_title(page_id).lower()} in ''{ns}''. "
                 f"Revision {revision}."]
        for p in range(revision):
            links = rng.sample([t for t in every_topic if t != page_id], rng.randint(2, 4))
            see = ", ".join(f"[[{t}]]" if rng.random() < 0.5 else f"[[{t}|{_title(t)}]]"
                            for t in links)
            parts += ["", f"===== Part {p + 1} =====", "",
                      f"Notes of revision {revision}, part {p + 1}. See also {see}."]
        if media_ns[ns] and rng.random() < 0.4:
            parts += ["", f"{{{{{rng.choice(media_ns[ns])}}}}}"]
        parts += ["", f"Back to [[{ns}:start]]."]
        return "\n".join(parts) + "\n"

    entries: list[tuple[str, Revision]] = []
    # start pages first (one revision each), an hour before the topics' first round
    starts: dict[str, str] = {}
    for ns in NAMESPACES:
        lines = [f"====== {ns.replace(':', ' ').title()} ======", "",
                 f"The pages of the ''{ns}'' namespace:", ""]
        lines += [f"  * [[{t}]]" for t in topics[ns]]
        if media_ns[ns]:
            lines += ["", "Files:", ""] + [f"  * {{{{{m}}}}}" for m in media_ns[ns]]
        starts[f"{ns}:start"] = "\n".join(lines) + "\n"
    starts["projects:start"] = ("====== Projects ======\n\n  * [[projects:alpha:start]]\n"
                                "  * [[projects:beta:start]]\n")
    starts["start"] = ("====== Bench DokuWiki ======\n\nEvery namespace of this wiki:\n\n"
                       + "".join(f"  * [[{ns}:start]]\n" for ns in NAMESPACES)
                       + "  * [[projects:start]]\n")
    for i, (page_id, text) in enumerate(sorted(starts.items())):
        entries.append((page_id, Revision(BASE_TIME - 3600 + 60 * i, "alice", "created", text)))
    counts = {p: rng.randint(1, 4) for p in every_topic}
    for rnd in range(1, 5):  # one round of edits a week, pages a few minutes apart
        for k, page_id in enumerate(every_topic):
            if counts[page_id] >= rnd:
                date = BASE_TIME + (rnd - 1) * 7 * 86400 + k * 300
                summary = "created" if rnd == 1 else rng.choice(
                    ("more notes", "links", "typo", "rewrite", ""))
                entries.append((page_id, Revision(date, rng.choice(USERS), summary,
                                                  topic_text(page_id, rnd))))
    entries.sort(key=lambda e: e[1].date)
    log = []
    for page_id, rev in entries:
        history = wiki.revisions.setdefault(page_id, [])
        old = len(history[-1].text.encode()) if history else 0
        log.append((page_id, rev, len(rev.text.encode()) - old, "E" if history else "C"))
        history.append(rev)
    return log


def _store(wiki: Wiki, log: list[tuple[str, Revision, int, str]], seed: int) -> None:
    """Write pages, attic, changelogs and media as DokuWiki itself stores them."""
    data = wiki.data
    for sub in ("pages", "attic", "media", "media_attic", "meta", "media_meta", "cache",
                "index", "locks", "tmp", "log"):
        (data / sub).mkdir(parents=True)
    changes: list[str] = []
    for page_id, rev, sizechange, kind in log:
        path = page_id.replace(":", "/")
        attic = data / "attic" / f"{path}.{rev.date}.txt.gz"
        attic.parent.mkdir(parents=True, exist_ok=True)
        attic.write_bytes(gzip.compress(rev.text.encode(), mtime=0))
        line = "\t".join([str(rev.date), "127.0.0.1", kind, page_id, rev.user, rev.summary,
                          "", str(sizechange)]) + "\n"
        meta = data / "meta" / f"{path}.changes"
        meta.parent.mkdir(parents=True, exist_ok=True)
        with meta.open("a") as f:
            f.write(line)
        changes.append(line)
    for page_id, history in wiki.revisions.items():
        page = data / "pages" / f"{page_id.replace(':', '/')}.txt"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(history[-1].text)
        os.utime(page, (history[-1].date, history[-1].date))  # = the current revision
    (data / "meta" / "_dokuwiki.changes").write_text("".join(changes))
    rng = random.Random(seed + 1)
    media_changes = []
    for i, media_id in enumerate(wiki.media):
        path = data / "media" / media_id.replace(":", "/")
        path.parent.mkdir(parents=True, exist_ok=True)
        if media_id.endswith(".png"):
            path.write_bytes(_png(rng.randint(16, 48), rng.randint(16, 48), rng))
        else:
            path.write_text(f"Notes file {i}.\n" * rng.randint(2, 20))
        date = BASE_TIME - 7200 + 60 * i
        os.utime(path, (date, date))
        line = "\t".join([str(date), "127.0.0.1", "C", media_id, "alice", "created", "",
                          str(path.stat().st_size)]) + "\n"
        meta = data / "media_meta" / (media_id.replace(":", "/") + ".changes")
        meta.parent.mkdir(parents=True, exist_ok=True)
        meta.write_text(line)
        media_changes.append(line)
    (data / "meta" / "_media.changes").write_text("".join(media_changes))


def setup(directory: Path, *, seed: int = 7) -> Wiki:
    """A DokuWiki in ``directory`` (must not exist yet), content seeded from ``seed``."""
    directory.mkdir(parents=True)
    (directory / "sessions").mkdir()
    wiki = Wiki(directory)
    _write_conf(wiki)
    _copy_code(wiki)
    _store(wiki, _seed(wiki, seed), seed)
    wiki.php("bin/indexer.php", "-q")  # search index, backlinks, rendered metadata
    return wiki


@contextlib.contextmanager
def serve(wiki: Wiki, workers: int = 4) -> Iterator[str]:
    """``php -S`` on a free port of 127.0.0.1 with DokuWiki's router; yields the base URL
    (ending in ``/``) once the start page answers, and stops the server's process group."""
    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    with serving(["php", "-d", f"session.save_path={wiki.directory / 'sessions'}",
                  "-S", f"127.0.0.1:{port}", "-t", str(wiki.www), str(wiki.www / "index.php")],
                 probe=base + "doku.php?id=start", cwd=wiki.www, name="php -S",
                 env={**os.environ, "PHP_CLI_SERVER_WORKERS": str(workers)}):
        yield base


@dataclass
class CrawlResult:
    cap: int | None
    follow_nofollow: bool
    returncode: int
    ended: bool               # by itself: exit 0 and not stopped by --max-pages
    seconds: float
    fetched: int              # URLs of the site fetched (scraped, not skipped)
    refused: int              # skipped by the soft cap (skipReason 'dedupe-cap')
    events: int               # rows of dedupe_cap_events
    pages_ok: int             # content pages answering 200
    pages_total: int
    page_shape_refused: int   # refused URLs that are content pages (must stay 0)
    shape_refused: int        # refused URLs of a content page's shape, content or not
    media: int                # fetched media URLs (fetch.php, detail.php)
    trap: int                 # fetched URLs that are no content page, medium or the root
    trap_kinds: Counter[str]  # trap URLs by view (do=…, rev, feed.php, …)
    stderr: str


def crawl(wiki: Wiki, base: str, out: Path, *, cap: int | None, follow_nofollow: bool = False,
          max_pages: int | None = None, timeout: float = 3600,
          tree: Path | None = None) -> CrawlResult:
    """Crawl the wiki ``--no-render`` from its root (which shows the start page and scopes
    the whole wiki); ``tree``: another source tree's crawler (which may predate
    ``--follow-nofollow``: then ``follow_nofollow`` must be False)."""
    returncode, seconds, stderr = run_crawl(
        base, out, cap=cap, follow_nofollow=follow_nofollow, max_pages=max_pages,
        timeout=timeout, tree=tree)
    return _measure(wiki, base, out, cap, follow_nofollow, returncode, seconds, stderr)


def is_media(url: str) -> bool:
    """A media file or its detail page: what ``{{ns:file}}`` embeds link to."""
    path = urllib.parse.urlsplit(url).path
    return path in ("/lib/exe/fetch.php", "/lib/exe/detail.php")


def trap_kind(url: str) -> str:
    """Which DokuWiki view a non-content URL is: ``do=…``, ``rev`` (an old revision),
    or else its path (``/feed.php``, ``/lib/exe/…``)."""
    parts = urllib.parse.urlsplit(url)
    query = dict(urllib.parse.parse_qsl(parts.query, keep_blank_values=True))
    if "do" in query:
        return f"do={query['do']}" + ("+rev" if "rev" in query else "")
    if "rev" in query:
        return "rev"
    return parts.path + ("?" + "&".join(sorted(query)) if query else "")


def _measure(wiki: Wiki, base: str, out: Path, cap: int | None, follow_nofollow: bool,
             returncode: int, seconds: float, stderr: str) -> CrawlResult:
    with q.open_archive(out) as a:
        conn: sqlite3.Connection = a.connection()
        fetched_urls = [u for (u,) in conn.execute(
            "SELECT url FROM pages WHERE isExternal = 0 AND scraped = 1 "
            "AND (isSkipped = 0 OR isSkipped IS NULL)")]
        refused_urls = [u for (u,) in conn.execute(
            "SELECT url FROM pages WHERE skipReason = 'dedupe-cap'")]
        status = dict(conn.execute("SELECT url, status FROM pages WHERE isExternal = 0"))
        events = conn.execute("SELECT count(*) FROM dedupe_cap_events").fetchone()[0] \
            if a.has_table("dedupe_cap_events") else 0
    expected = wiki.page_urls(base)
    content = set(expected)
    ok = sum(1 for u in expected if status.get(u) == 200)
    page_shapes = {shape_key(u) for u in expected}
    media = [u for u in fetched_urls if is_media(u)]
    trap = [u for u in fetched_urls if u not in content and u != base and not is_media(u)]
    ended = returncode == 0 and "stopped at --max-pages" not in stderr
    return CrawlResult(
        cap, follow_nofollow, returncode, ended, seconds, len(fetched_urls),
        len(refused_urls), events, ok, len(expected),
        sum(1 for u in refused_urls if u in content),
        sum(1 for u in refused_urls if shape_key(u) in page_shapes),
        len(media), len(trap), Counter(trap_kind(u) for u in trap), stderr)


def main() -> int:
    sys.path.insert(0, str(ROOT / "bench"))
    from doc import add_flag, emit

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cap", type=int, action="append",
                   help="dedupe cap, repeatable (0 = off); default 100, 20 and 0")
    p.add_argument("--follow-nofollow", choices=["no", "yes", "both"], default="both")
    p.add_argument("--max-pages", type=int, default=20000,
                   help="safety net, for uncapped runs above all (default 20000)")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--keep", action="store_true", help="keep the wiki and archives")
    add_flag(p)
    args = p.parse_args()
    why = ensure_installed()
    if why:
        print(f"dokuwiki: {why}", file=sys.stderr)
        return 1
    caps = args.cap if args.cap is not None else [100, 20, 0]
    follows = {"no": [False], "yes": [True], "both": [False, True]}[args.follow_nofollow]
    rows = []
    tmp = Path(tempfile.mkdtemp(prefix="nitpicker-dw-"))
    try:
        t0 = time.monotonic()
        wiki = setup(tmp / "wiki", seed=args.seed)
        setup_seconds = time.monotonic() - t0
        revisions = sum(len(h) for h in wiki.revisions.values())
        print(f"[dokuwiki] set up in {setup_seconds:.1f} s: {len(wiki.pages)} pages, "
              f"{revisions} revisions, {len(wiki.media)} media files", file=sys.stderr)
        with serve(wiki) as base:
            for cap in caps:
                for follow in follows:
                    out = tmp / f"{cap}-{int(follow)}.nitpicker"
                    r = crawl(wiki, base, out, cap=cap or None, follow_nofollow=follow,
                              max_pages=args.max_pages)
                    kinds = ", ".join(f"{k} {n}" for k, n in r.trap_kinds.most_common(8))
                    print(f"[dokuwiki] cap {cap} nofollow-followed {follow}: "
                          f"exit {r.returncode}, {r.fetched} fetched, {r.refused} refused, "
                          f"{r.events} events, {r.pages_ok}/{r.pages_total} pages, "
                          f"{r.page_shape_refused} pages refused, {r.shape_refused} "
                          f"page-shape refused, {r.media} media, {r.trap} trap ({kinds}), "
                          f"{r.seconds:.0f} s", file=sys.stderr)
                    rows.append(r)
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print(f"[dokuwiki] kept {tmp}", file=sys.stderr)
    table = ["| --dedupe-cap | nofollow links | ended by itself | URLs fetched | refused "
             "| cap events | content pages at 200 | content pages refused | page-shape URLs "
             "refused | trap URLs fetched | wall time |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        table.append(
            f"| {r.cap or 'off'} | {'followed' if r.follow_nofollow else 'not followed'} "
            f"| {'yes' if r.ended else 'no'} | {r.fetched:,} | {r.refused:,} | {r.events} "
            f"| {r.pages_ok}/{r.pages_total} | {r.page_shape_refused} | {r.shape_refused} "
            f"| {r.trap:,} | {r.seconds:.0f} s |")
    emit("dokuwiki", "\n".join(table) + f"\n\nDokuWiki {_version()}, {len(wiki.pages)} pages "
         f"({revisions} revisions), {len(wiki.media)} media files, set up in "
         f"{setup_seconds:.0f} s. Machine: {platform.machine()}, {os.cpu_count()} cores; "
         "`python corpora/real/dokuwiki.py`", write=args.write)
    return 0


def _version() -> str:
    """Debian's ``VERSION`` file, e.g. ``2022-07-31b "Igor"``."""
    try:
        return (DOKUWIKI / "VERSION").read_text().strip()
    except OSError:
        return "(unknown)"


if __name__ == "__main__":
    sys.exit(main())
