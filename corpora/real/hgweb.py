"""A real Mercurial web browser (Debian's ``mercurial``, ``hg serve``: hgweb) as a crawl
target: set a repository up, serve it, say which of its pages are legit.

    python corpora/real/hgweb.py                  # set up, serve until Ctrl-C, print URL and counts
    python corpora/real/hgweb.py --check          # set up, serve, check every legit URL, then a
                                           # link-following BFS of --bfs (3,000) fetches

Why hgweb: a repository browser whose own links lead, from a few dozen pages an audit
needs, to every file at every revision (``/file/<node>/<path>``), its annotation
(``/annotate/…``), its diff (``/diff/…``) and side-by-side comparison
(``/comparison/…``), its log (``/log/<node>/<path>``, paged, and per line range), the raw
forms of all those (``/raw-file/…``, ``/raw-rev/…``), the changelog and the graph from
every changeset and at every length (``/shortlog/<node>``, ``/graph/<node>``,
``?revcount=…``), every changeset under its symbolic names too (``/rev/tip``,
``/rev/<tag>``, ``/rev/<bookmark>``), plus Mercurial's help (``/help/<topic>``) and
Atom/RSS feeds. ``revcount`` is a session variable: once in a URL, hgweb carries it in
every link of the page, and the log's "less"/"more" links halve and double it without
bound (3, 7, 15, 30, 60, 120, 240, 480, 960, …), so each view comes again under every
length. hgweb is left as it comes: nothing here limits or hides a view.

Two behaviours of Debian 12's hgweb (6.3.2, Python 3.11) a crawl meets: the help index
``/help`` (linked from every page) answers 500 (``TypeError`` in
``webcommands._getdoc``), while ``/help/<topic>`` pages answer 200; and a merge's
changeset page links its diff against the second parent as ``/rev/<p2>:<node>``, whose
own links carry that range as the revision (``/file/<p2>%3A<node>/…``), which answer 404.

The repository (``setup``; Debian's ``hg``, no extension) is a project "holdout":
``README.rst``, ``setup.cfg``, ``docs/`` (3 files), ``src/holdout/`` (10 Python
modules, a directory repeating the project's name) and ``src/holdout/tests/`` (4 files),
plus Mercurial's own ``.hgtags``. ``CHANGESETS`` changesets by the 4 ``AUTHORS``
(``hg commit -u``), each on a fixed date (``hg commit -d "<unix time> 0"``, January–March
2024) with a commit message of its own (``random.Random(seed)``), each changing 1–3 files
(files are added along the way; only the initial import adds more: 10); a named branch
``stable`` split off at the first tag, got fixes (to ``STABLE_FILES`` only, so the merge
back into ``default`` changes 3 files at most) and one more after; two tags
(``v0.1`` on ``default``, ``v0.2`` on ``stable``; ``hg tag`` commits them to
``.hgtags``) and one bookmark (``cache-rework``); the last changeset is on ``default``,
so ``tip`` is its head. The same seed gives the same changeset hashes on every set-up.

The repository's ``.hg/hgrc`` sets ``[web] style = paper`` (hgweb's default, said
explicitly), ``allow-archive =`` (empty: no archive download is linked; hgweb's default
links none either), ``name = holdout``, ``description`` and ``contact``. Every ``hg``
runs with ``HGRCPATH=`` (empty: only the repository's own ``.hg/hgrc`` is read, not
``/etc/mercurial`` nor ``~/.hgrc``) and ``HGPLAIN=1``. ``serve`` runs ``hg serve -R <repo>
-a 127.0.0.1 -p <free port>`` (one process, a thread per request), at the root.

Legit URLs (``Repo.legit_urls``), spelled as hgweb links them — found by fetching the
served pages and collecting their ``<a href>``s, checked against what the repository
holds — absolute, 200 ``text/html`` each:

- ``front``      the repository's front page, ``/`` (paper has no separate summary: the
  front page is the changelog);
- ``changelog``  the changelog's first page as the navigation's "log" links it,
  ``/shortlog/tip`` (the same page as ``/`` byte for byte);
- ``manifest``   the file browser of every directory at the tip, as linked from its
  parent's listing (the navigation's "browse" for the root): ``/file/tip``,
  ``/file/tip/docs``, ``/file/tip/src``, ``/file/tip/src/holdout``,
  ``/file/tip/src/holdout/tests``;
- ``file``       every file at the tip, as the tip manifest links it:
  ``/file/tip/<path>`` (``.hgtags`` included);
- ``changeset``  every changeset, as the changelog links it: ``/rev/<12-hex node>``;
- ``tags``       ``/tags``, ``/branches`` and ``/bookmarks``.

hgweb also links some of these pages under another spelling that serves the very same
bytes (``Repo.aliases``): ``/shortlog`` (from the tags, branches and bookmarks pages) is
``/shortlog/tip``; each directory is also linked with a trailing slash (the "[up]" link
of the listing below it, and the second, empty link of each directory row). Every other
URL hgweb links is a trap of one of the families ``trap_kind`` names.

Needs: ``apt-get install mercurial`` (``ensure_installed()``; Debian 12 has 6.3.2).
"""

from __future__ import annotations

import argparse
import contextlib
import html.parser
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter, deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from corpora.real.serving import apt_install, free_port, serving  # noqa: E402

PACKAGES = ["mercurial"]
EPOCH = 1704103200  # 2024-01-01 10:00 UTC: the first changeset; the others follow it
STEP_S = 2 * 86400  # about two days between changesets
AUTHORS = ("Ada Okafor <ada@holdout.invalid>", "Bram Lindqvist <bram@holdout.invalid>",
           "Chiara Volpe <chiara@holdout.invalid>", "Dev Raman <dev@holdout.invalid>")
HGRC = """\
[web]
style = paper
allow-archive =
name = holdout
description = holdout: a small Python project, served by hgweb for the crawl benchmarks
contact = Ada Okafor <ada@holdout.invalid>
"""

# (path, changeset that adds it); every later changeset edits 1–3 files already there
FILES: tuple[tuple[str, int], ...] = (
    ("README.rst", 0), ("setup.cfg", 0), ("docs/index.rst", 0),
    ("src/holdout/__init__.py", 0), ("src/holdout/core.py", 0),
    ("src/holdout/parser.py", 0), ("src/holdout/util.py", 0), ("src/holdout/errors.py", 0),
    ("src/holdout/tests/__init__.py", 0), ("src/holdout/tests/test_core.py", 0),
    ("src/holdout/render.py", 3), ("src/holdout/cli.py", 5), ("src/holdout/config.py", 8),
    ("src/holdout/tests/test_parser.py", 9), ("docs/usage.rst", 10),
    ("src/holdout/cache.py", 15), ("src/holdout/plugins.py", 25),
    ("src/holdout/tests/test_cli.py", 27), ("docs/changelog.rst", 32),
)

# The history, changeset by changeset (0 … CHANGESETS-1); every number not named here is
# an ordinary commit on the branch the working copy is on.
TAG_V01 = 12         # ``hg tag -r 11 v0.1``, on default
BRANCH_AT = 17       # after 17: update to the v0.1 tag commit, ``hg branch stable``
STABLE = range(18, 23)
BACK_TO_DEFAULT = 23  # update to default's head again
TAG_V02 = 30         # ``hg tag -r <stable head> v0.2``, committed on default
MERGE = 31           # ``hg merge stable``
LATE_STABLE = 35     # one more fix on stable after the merge
BOOKMARK = ("cache-rework", 27)
STABLE_FILES = ("src/holdout/parser.py", "src/holdout/errors.py", "README.rst")  # its fixes
CHANGESETS = 40

_VERBS = ("Fix", "Improve", "Refactor", "Document", "Speed up", "Simplify", "Test",
          "Harden", "Clean up", "Rework", "Tidy", "Rename helpers in")
_THINGS = ("error messages", "the tokenizer", "Unicode handling", "config loading",
           "the output writer", "option parsing", "line endings", "empty input",
           "nested blocks", "the plugin registry", "exit codes", "logging", "cache keys",
           "the render loop", "path handling", "retries")
_VOCABULARY = """
    buffer cache window socket thread queue stream parser lexer token grammar schema
    column cursor header footer margin border layout widget prompt console terminal shell
    script module package import export archive backup restore mirror replica index
    search filter sorter ranking timeout retry backoff deadline latency memory heap stack
    pointer handle encoder decoder charset locale timezone calendar schedule daemon proxy
    checksum digest payload envelope message channel topic broker consumer producer
    callback listener observer adapter bridge builder factory registry resolver loader
    formatter printer scanner indexer profiler tracer sandbox snapshot fixture template
"""
_WORDS = tuple(_VOCABULARY.split())
_MOODS = ("on large inputs", "under load", "on Windows", "with an empty config",
          "since the last release", "when the cache is cold", "in the nightly build",
          "for some users", "after a restart", "with deep nesting")

_HREF_HEX = re.compile(r"^[0-9a-f]{12,40}$")


def _env() -> dict[str, str]:
    return {**os.environ, "HGRCPATH": "", "HGPLAIN": "1", "HGENCODING": "utf-8",
            "HGUSER": AUTHORS[0], "LC_ALL": "C.UTF-8"}


def missing() -> str | None:
    """Why hgweb cannot be served here, or None when it can."""
    if shutil.which("hg") is None:
        return "Mercurial is not installed (apt-get install mercurial)"
    r = subprocess.run(["hg", "version", "-q"], capture_output=True, text=True, env=_env())
    if r.returncode != 0:
        return f"hg does not run: {r.stderr.strip()[:200]}"
    return None


def ensure_installed() -> str | None:
    """Install Debian's ``mercurial`` when it is missing and this process is root; returns
    what :func:`missing` says afterwards."""
    if missing() is not None:
        apt_install(PACKAGES)
    return missing()


def hg_version() -> str:
    """The installed Mercurial's version, e.g. ``6.3.2``."""
    r = subprocess.run(["hg", "version", "-q"], capture_output=True, text=True, env=_env())
    found = re.search(r"version ([^)\s]+)", r.stdout)
    return found.group(1) if found else "(unknown)"


class _Anchors(html.parser.HTMLParser):
    """A page's ``<a href>``s: (href, text, class of the enclosing ``<td>``)."""

    def __init__(self) -> None:
        super().__init__()
        self.anchors: list[tuple[str, str, str]] = []
        self._td = ""
        self._open: list[str] | None = None
        self._href = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "td":
            self._td = a.get("class", "")
        elif tag == "a" and "href" in a:
            self._open, self._href = [], a["href"]

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._open is not None:
            self.anchors.append((self._href, " ".join("".join(self._open).split()), self._td))
            self._open = None
        elif tag == "td":
            self._td = ""

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            self._open.append(data)


def _get(url: str) -> tuple[int, str, bytes]:
    """Status, content type and body of a GET (an HTTP error is a status)."""
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            return r.status, r.headers.get("Content-Type", ""), r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type", ""), b""


def _anchors(url: str) -> list[tuple[str, str, str]]:
    """The anchors of a page, hrefs made absolute (fragment dropped)."""
    status, _, body = _get(url)
    if status != 200:
        raise RuntimeError(f"{url}: {status}")
    parser = _Anchors()
    parser.feed(body.decode("utf-8", "replace"))
    return [(urllib.parse.urldefrag(urllib.parse.urljoin(url, h)).url, t, td)
            for h, t, td in parser.anchors]


@dataclass
class Repo:
    directory: Path                                          # the repository's root
    nodes: list[str] = field(default_factory=list)           # full hashes, oldest first
    branch_of: dict[str, str] = field(default_factory=dict)  # node -> named branch
    tags: dict[str, str] = field(default_factory=dict)       # tag -> node (tip excluded)
    bookmarks: dict[str, str] = field(default_factory=dict)  # bookmark -> node
    files: list[str] = field(default_factory=list)           # at tip, .hgtags included
    directories: list[str] = field(default_factory=list)     # at tip, "" the root
    _found: dict[str, tuple[dict[str, list[str]], dict[str, list[str]]]] = \
        field(default_factory=dict, repr=False)

    def hg(self, *args: str) -> str:
        r = subprocess.run(["hg", "-R", str(self.directory), *args], env=_env(),
                           cwd=self.directory, capture_output=True, text=True, check=True)
        return r.stdout

    def _discover(self, base: str) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
        """Walk the served pages (front page, tip manifests, one changelog page long
        enough for every changeset) and collect the hrefs of the legit pages, by kind,
        and their same-bytes aliases; raise when hgweb's links and the repository
        disagree (a spelling this module does not know)."""
        if base in self._found:
            return self._found[base]
        legit: dict[str, list[str]] = {"front": [base]}
        aliases: dict[str, list[str]] = {}
        front = _anchors(base)

        def nav(path: str) -> str:
            for href, _, _ in front:
                if href == base + path:
                    return href
            raise RuntimeError(f"the front page links no {base + path}")

        changelog = nav("shortlog/tip")
        legit["changelog"] = [changelog]
        legit["tags"] = [nav("tags"), nav("branches"), nav("bookmarks")]
        for hub in legit["tags"]:  # "log" of the hubs: the same page, another spelling
            if base + "shortlog" in {h for h, _, _ in _anchors(hub)}:
                aliases.setdefault(changelog, []).append(base + "shortlog")
                break
        # the file browser at the tip: directory rows (td.name) and file rows (td.filename)
        root = nav("file/tip")
        manifests, files, todo = [root], [], [root]
        while todo:
            here = todo.pop(0)
            for href, text, td in _anchors(here):
                if not href.startswith(root + "/") or text == "[up]":
                    continue
                if td == "filename":
                    if href not in files:
                        files.append(href)
                elif td == "name" and text and href not in manifests:
                    manifests.append(href)
                    todo.append(href)
        for m in manifests:
            aliases[m] = [m + "/"]
        legit["manifest"] = manifests
        legit["file"] = files
        want_files = {f"{root}/{urllib.parse.quote(p)}" for p in self.files}
        want_dirs = {root + (f"/{urllib.parse.quote(d)}" if d else "")
                     for d in self.directories}
        if set(files) != want_files or set(manifests) != want_dirs:
            raise RuntimeError(f"tip manifest links {sorted(set(files) ^ want_files)} "
                               f"{sorted(set(manifests) ^ want_dirs)} unexpectedly")
        # every changeset as the changelog links it, paging on through its own links to
        # older pages (/shortlog/<node>) should one page not hold them all (60 by default;
        # not ?revcount=…, which hgweb then carries in every link of the page)
        revs: list[str] = []
        pages, seen_pages = [changelog], {changelog}
        while pages and len(revs) < len(self.nodes) and len(seen_pages) <= len(self.nodes):
            for href, _, _ in _anchors(pages.pop(0)):
                for view, into in (("rev/", revs), ("shortlog/", None)):
                    tail = href[len(base + view):] if href.startswith(base + view) else ""
                    if not _HREF_HEX.match(tail):
                        continue
                    if into is not None and href not in into:
                        into.append(href)
                    elif into is None and href not in seen_pages:
                        seen_pages.add(href)
                        pages.append(href)
        by_node = {n: [r for r in revs if n.startswith(r.rsplit("/", 1)[1])]
                   for n in self.nodes}
        if any(len(found) != 1 for found in by_node.values()) or len(revs) != len(self.nodes):
            raise RuntimeError(f"the changelog links {len(revs)} changesets, "
                               f"{len(self.nodes)} expected")
        legit["changeset"] = [by_node[n][0] for n in reversed(self.nodes)]
        self._found[base] = (legit, aliases)
        return legit, aliases

    def legit_by_kind(self, base: str) -> dict[str, list[str]]:
        """The legit URLs (module docstring) by kind: front, changelog, manifest, file,
        changeset, tags."""
        return {k: list(v) for k, v in self._discover(base)[0].items()}

    def legit_urls(self, base: str) -> list[str]:
        """Every legit URL, absolute, as hgweb links it (fetched from the server at
        ``base`` once, then remembered)."""
        return list(dict.fromkeys(u for urls in self._discover(base)[0].values()
                                  for u in urls))

    def aliases(self, base: str) -> dict[str, list[str]]:
        """Legit URL -> the other spellings hgweb links for the very same bytes:
        ``/shortlog`` for ``/shortlog/tip``, ``<directory>/`` for each directory."""
        return {k: list(v) for k, v in self._discover(base)[1].items()}


def _sentence(rng: random.Random, words: int = 6) -> str:
    picked = rng.sample(_WORDS, words)
    return (f"The {picked[0]} and the {picked[1]} " + " ".join(picked[2:]) +
            f" {rng.choice(_MOODS)}.")


def _file_text(path: str, edits: list[str]) -> str:
    """A file's content after ``edits``: a header, then one function or line per edit."""
    if path.endswith(".py"):
        name = path.rsplit("/", 1)[-1][:-3]
        body = "".join(f"\n\ndef {name.strip('_') or 'package'}_step_{i}():\n"
                       f"    \"\"\"{e}\"\"\"\n    return {i}\n" for i, e in enumerate(edits))
        return f'"""{path}: part of holdout."""\n' + body
    if path.endswith(".rst"):
        title = path.rsplit("/", 1)[-1][:-4]
        return f"{title}\n{'=' * len(title)}\n\n" + "".join(f"- {e}\n" for e in edits)
    return f"# {path}\n" + "".join(f"# {e}\n" for e in edits)


def setup(directory: Path, *, seed: int = 7) -> Repo:
    """A Mercurial repository in ``directory`` (made if missing; must hold nothing yet),
    its history seeded from ``seed`` (module docstring): the same hashes every time."""
    directory.mkdir(parents=True, exist_ok=True)
    if any(directory.iterdir()):
        raise FileExistsError(f"{directory} is not empty")
    rng = random.Random(seed)
    repo = Repo(directory)
    subprocess.run(["hg", "init", str(directory)], env=_env(), check=True,
                   capture_output=True)
    (directory / ".hg" / "hgrc").write_text(HGRC)
    # each branch's files: path -> its edits (the working copy holds the current branch's)
    state: dict[str, dict[str, list[str]]] = {"default": {}}
    branch = "default"
    messages: set[str] = set()

    def message(what: str) -> str:
        while True:
            first = f"{what} {rng.choice(_VERBS).lower()} {rng.choice(_THINGS)}" \
                if what else f"{rng.choice(_VERBS)} {rng.choice(_THINGS)}"
            first += f" of the {' '.join(rng.sample(_WORDS, 2))}"
            if first not in messages:
                messages.add(first)
                return first

    def when(i: int) -> str:
        return f"{EPOCH + i * STEP_S + rng.randrange(9 * 3600)} 0"

    def write(path: str) -> None:
        target = directory / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(_file_text(path, state[branch][path]))

    snapshot: dict[str, list[str]] = {}
    for i in range(CHANGESETS):
        user = AUTHORS[rng.randrange(len(AUTHORS))]
        if i == BRANCH_AT + 1:  # the stable branch starts at the v0.1 tag commit
            repo.hg("update", "-q", "-r", str(TAG_V01))
            repo.hg("branch", "-q", "stable")
            branch = "stable"
            state["stable"] = {p: list(e) for p, e in snapshot.items()}
        elif i in (BACK_TO_DEFAULT, LATE_STABLE + 1):
            repo.hg("update", "-q", "-r", "default")
            branch = "default"
        elif i == LATE_STABLE:
            repo.hg("update", "-q", "-r", "stable")
            branch = "stable"
        if i in (TAG_V01, TAG_V02):
            # every step makes one changeset: revision numbers are the steps
            name, target = ("v0.1", str(TAG_V01 - 1)) if i == TAG_V01 else ("v0.2", "stable")
            repo.hg("tag", "-r", target, "-u", user, "-d", when(i), "-m",
                    f"Tag {name}: " + message("").lower(), name)
        elif i == MERGE:
            repo.hg("merge", "-q", "--tool", ":local", "stable")
            merged = state["default"]
            for path, edits in state["stable"].items():
                extra = [e for e in edits if e not in merged.get(path, [])]
                if extra:
                    merged[path] = merged.get(path, []) + extra
                    write(path)
            repo.hg("commit", "-u", user, "-d", when(i), "-m",
                    "Merge stable into default: " + message("").lower())
        else:
            files = state[branch]
            added = [p for p, at in FILES if at == i]
            existing = sorted(files) if branch == "default" else list(STABLE_FILES)
            edited = rng.sample(existing, min(len(existing), rng.randint(1, 3) - len(added)
                                              if added else rng.randint(1, 3))) if i else []
            first = message("Fix (stable):" if branch == "stable" else "")
            for path in added + edited:
                files.setdefault(path, []).append(f"{first}: {_sentence(rng)}")
                write(path)
            text = ("Initial import of holdout" if i == 0 else first) + "\n\n" + \
                _sentence(rng, 8) + " Touches " + ", ".join(added + edited) + "."
            repo.hg("commit", "-A", "-q", "-u", user, "-d", when(i), "-m", text)
        if i == TAG_V01:
            snapshot = {p: list(e) for p, e in state["default"].items()}
    repo.hg("bookmark", "-r", str(BOOKMARK[1]), BOOKMARK[0])
    repo.nodes = repo.hg("log", "-r", "0:tip", "-T", "{node}\n").split()
    if len(repo.nodes) != CHANGESETS:
        raise RuntimeError(f"{len(repo.nodes)} changesets, {CHANGESETS} expected")
    for line in repo.hg("log", "-r", "0:tip", "-T", "{node} {branch}\n").splitlines():
        node, name = line.split()
        repo.branch_of[node] = name
    for line in repo.hg("tags", "-T", "{tag} {node}\n").splitlines():
        name, node = line.split()
        if name != "tip":
            repo.tags[name] = node
    for line in repo.hg("bookmarks", "-T", "{bookmark} {node}\n").splitlines():
        name, node = line.split()
        repo.bookmarks[name] = node
    repo.files = repo.hg("manifest", "-r", "tip").splitlines()  # repository paths
    dirs = {""}
    for path in repo.files:
        parts = path.split("/")[:-1]
        dirs |= {"/".join(parts[:n]) for n in range(1, len(parts) + 1)}
    repo.directories = sorted(dirs)
    if repo.branch_of[repo.nodes[-1]] != "default":
        raise RuntimeError("tip is not on default")
    return repo


@contextlib.contextmanager
def serve(repo: Repo, workers: int = 4) -> Iterator[str]:
    """``hg serve`` on a free port of 127.0.0.1; yields the base URL (ending in ``/``)
    once the front page answers, and stops the server's process group. ``workers`` is
    there for the other targets' interface: hg serve runs a thread per request."""
    del workers
    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    with serving(["hg", "serve", "-R", str(repo.directory), "-a", "127.0.0.1",
                  "-p", str(port)], probe=base, cwd=repo.directory, env=_env(),
                 name="hg serve", start_s=30):
        yield base


def trap_kind(url: str) -> str:
    """The family of an hgweb URL, from its path and query alone:

    - ``file-at-revision``  ``/file/<rev>/…`` at any revision but ``tip`` (a file or a
      directory listing), and ``/file/tip/…`` with a query;
    - ``annotate``, ``diff`` (``/diff`` and ``/filediff``), ``comparison``;
    - ``filelog``   ``/log/<rev>/<path>`` (a file's or a directory's log, its line ranges);
    - ``log-pages`` the changelog at any other start or length: ``/log``, ``/changelog``,
      ``/shortlog/<rev>``, anything with ``revcount``;
    - ``graph``     ``/graph…``;
    - ``raw``       ``/raw-file``, ``/raw-rev``, ``/raw-diff``, ``/raw-annotate``,
      ``style=raw``;
    - ``search``    a ``rev=`` query (hgweb's search form: ``/log?rev=…``);
    - ``changeset-alias`` a changeset under another name (``/rev/tip``, ``/rev/<tag>``,
      ``/rev/<bookmark>``, a full hash, ``/changeset/…``) or with a query;
    - ``help``, ``feed`` (``/atom-…``, ``/rss-…``), ``static``, ``archive``;
    - ``other`` (e.g. the tags, branches and bookmarks pages with ``?revcount=…``).

    The legit pages' own shapes get ``front`` (``/``, ``/shortlog``, ``/shortlog/tip``),
    ``tip-browser`` (``/file/tip…``: the tip's directories and files, with or without a
    trailing slash), ``changeset`` (``/rev/<12 hex>``) and ``tags`` (tags, branches,
    bookmarks)."""
    parts = urllib.parse.urlsplit(url)
    segments = parts.path.strip("/").split("/") if parts.path.strip("/") else []
    first = segments[0] if segments else ""
    names = {k for k, _ in urllib.parse.parse_qsl(parts.query, keep_blank_values=True)}
    query = dict(urllib.parse.parse_qsl(parts.query, keep_blank_values=True))
    if query.get("style") == "raw" or first.startswith("raw-"):
        return "raw"
    if first == "help":
        return "help"
    if first.startswith(("atom-", "rss-")):
        return "feed"
    if first == "static":
        return "static"
    if first == "archive":
        return "archive"
    if "rev" in names:
        return "search"
    if first == "file":
        if len(segments) >= 2 and segments[1] == "tip" and not names:
            return "tip-browser"
        return "file-at-revision"
    if first == "annotate":
        return "annotate"
    if first in ("diff", "filediff"):
        return "diff"
    if first in ("comparison", "filecomparison"):
        return "comparison"
    if first in ("log", "filelog") and len(segments) >= 3:
        return "filelog"
    if first == "graph":
        return "graph"
    if first in ("", "shortlog", "log", "changelog"):
        if not names and (not segments or segments == ["shortlog"]
                          or segments == ["shortlog", "tip"]):
            return "front"
        return "log-pages"
    if first in ("rev", "changeset"):
        if first == "rev" and len(segments) == 2 and re.fullmatch(r"[0-9a-f]{12}",
                                                                   segments[1]) \
                and not names:
            return "changeset"
        return "changeset-alias"
    if first in ("tags", "branches", "bookmarks") and len(segments) == 1 and not names:
        return "tags"
    return "other"


def survey(repo: Repo, base: str) -> list[str]:
    """What is wrong (should be nothing): a legit URL or alias not answering 200
    ``text/html``, an alias not the same bytes as its page, a legit page no chain of
    links between legit pages (aliases standing for theirs) leads to from the front."""
    bad: list[str] = []
    legit = repo.legit_urls(base)
    aliases = repo.aliases(base)
    spelling = {u: u for u in legit} | {a: u for u, names in aliases.items() for a in names}
    links: dict[str, list[str]] = {}
    for url in legit:
        status, ctype, body = _get(url)
        if status != 200 or not ctype.startswith("text/html"):
            bad.append(f"{url}: {status} {ctype}")
            continue
        parser = _Anchors()
        parser.feed(body.decode("utf-8", "replace"))
        links[url] = [urllib.parse.urldefrag(urllib.parse.urljoin(url, h)).url
                      for h, _, _ in parser.anchors]
        for alias in aliases.get(url, []):
            a_status, _, a_body = _get(alias)
            if a_status != 200 or a_body != body:
                bad.append(f"{alias} (alias of {url}): {a_status}, not the same page")
    seen, todo = {base}, [base]
    while todo:
        for href in links.get(todo.pop(), []):
            target = spelling.get(href)
            if target and target not in seen:
                seen.add(target)
                todo.append(target)
    bad += [f"{u}: linked from no legit page" for u in legit if u not in seen]
    return bad


def bfs(base: str, limit: int = 3000) -> tuple[Counter[str], int, int, Counter[str]]:
    """A link-following crawl (``<a href>`` only, same host, fragments dropped, one fetch
    at a time) from ``base`` for at most ``limit`` fetches: (HTML pages at 200 by
    :func:`trap_kind`, fetches, URLs seen but not fetched, non-HTML or non-200 answers by
    kind)."""
    host = urllib.parse.urlsplit(base).netloc
    seen, todo = {base}, deque([base])
    html_kinds: Counter[str] = Counter()
    others: Counter[str] = Counter()
    fetched = 0
    while todo and fetched < limit:
        url = todo.popleft()
        status, ctype, body = _get(url)
        fetched += 1
        if status != 200 or not ctype.startswith("text/html"):
            others[f"{trap_kind(url)} {status} {ctype.split(';')[0]}"] += 1
            continue
        html_kinds[trap_kind(url)] += 1
        parser = _Anchors()
        parser.feed(body.decode("utf-8", "replace"))
        for href, _, _ in parser.anchors:
            target = urllib.parse.urldefrag(urllib.parse.urljoin(url, href)).url
            if urllib.parse.urlsplit(target).netloc == host and target not in seen:
                seen.add(target)
                todo.append(target)
    return html_kinds, fetched, len(todo), others


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--dir", type=Path, help="set the repository up here (kept; must be "
                   "empty or missing); default a temporary directory, removed at the end")
    p.add_argument("--check", action="store_true", help="check every legit URL and run "
                   "the BFS, then stop instead of serving until interrupted")
    p.add_argument("--bfs", type=int, default=3000, help="BFS fetch limit for --check "
                   "(0: no BFS)")
    args = p.parse_args()
    why = ensure_installed()
    if why:
        print(f"[hgweb] {why}", file=sys.stderr)
        return 1
    tmp = None if args.dir else Path(tempfile.mkdtemp(prefix="nitpicker-hgweb-"))
    directory: Path = args.dir if tmp is None else tmp / "holdout"
    try:
        t0 = time.monotonic()
        repo = setup(directory, seed=args.seed)
        setup_s = time.monotonic() - t0
        with serve(repo) as base:
            kinds = repo.legit_by_kind(base)
            legit = repo.legit_urls(base)
            print(f"[hgweb] Mercurial {hg_version()}: {len(repo.nodes)} changesets, "
                  f"{len(repo.files)} files in {len(repo.directories)} directories, "
                  f"set up in {setup_s:.1f} s (tip {repo.nodes[-1][:12]})", file=sys.stderr)
            print(base)
            print(f"{len(legit)} legit URLs (" + ", ".join(f"{k} {len(v)}"
                                                         for k, v in kinds.items()) + ")")
            if not args.check:
                print("[hgweb] serving until Ctrl-C", file=sys.stderr)
                with contextlib.suppress(KeyboardInterrupt):
                    while True:
                        time.sleep(3600)
                return 0
            t0 = time.monotonic()
            bad = survey(repo, base)
            print(f"[hgweb] survey: {len(legit)} legit URLs fetched, "
                  f"{len(bad)} wrong, {time.monotonic() - t0:.1f} s", file=sys.stderr)
            for line in bad[:20]:
                print(f"  {line}", file=sys.stderr)
            if args.bfs:
                t0 = time.monotonic()
                html_kinds, fetched, left, others = bfs(base, args.bfs)
                print(f"[hgweb] BFS: {fetched} fetches, {sum(html_kinds.values())} distinct "
                      f"HTML pages at 200, {left} more URLs queued unfetched, "
                      f"{time.monotonic() - t0:.0f} s", file=sys.stderr)
                print("  HTML by kind: " + ", ".join(f"{k} {n}"
                                                     for k, n in html_kinds.most_common()),
                      file=sys.stderr)
                if others:
                    print("  other answers: " + ", ".join(f"{k} {n}" for k, n in
                                                          others.most_common()),
                          file=sys.stderr)
            return 1 if bad else 0
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
