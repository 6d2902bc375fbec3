"""A real Trac (PyPI's ``Trac`` 1.6) as a crawl target: set it up, serve it, crawl it.

    python corpora/real/trac.py                           # caps 100 and 20 ± nofollow, and uncapped
    python corpora/real/trac.py --cap 100 --follow-nofollow no --no-uncapped --no-write

Why Trac: an issue tracker with a wiki and a repository browser is the densest trap a real
site sets — every file is reachable at every revision (``/browser/f?rev=…``), with its log
(``/log/f``), its annotation, and every changeset restricted to every path it touched
(``/changeset/<sha>/<path>``); directory listings sort by name, size, date or author,
either way (``?order=…&desc=1``), every date links the timeline at that second, the
timeline pages back in time without end, and tickets, queries, reports and wiki versions
add exports (``?format=csv``), sort orders, diffs and histories. Only a small part of that
is content a site audit needs.

Trac is installed once from PyPI into its own virtualenv, ``.bench-tools/trac`` of this
checkout (made with the system ``python3 -m venv``, so nothing of the project's
environment is touched); its Git support is the bundled ``tracopt.versioncontrol.git``,
which runs Debian's ``git``. Each tracker lives in a directory of its own:

- ``env/``  the Trac environment (``trac-admin env initenv``, SQLite, Trac's default wiki
  pages and reports), the Git component enabled in ``conf/trac.ini`` and ``repo/``
  registered as the default repository (``repository add`` + ``repository resync``);
- ``repo/`` a Git repository of ``COMMITS`` commits (fixed author and dates, so the same
  SHA-1s on every set-up) over ``len(FILES)`` files in 4 directories, most edited many
  times, a few added late;
- tickets (``TICKETS``, with components, milestones, statuses and comments) and wiki
  pages of our own (``len(WIKI_PAGES)``, 1–3 versions each, linking each other, tickets,
  changesets and files; ``WikiStart`` gets a second version that links them) are written
  with Trac's own model API (``Ticket.insert``/``save_changes``, ``WikiPage.save``) by a
  script run with the Trac virtualenv's Python, at fixed timestamps (2024). Every ticket,
  comment, commit message, file edit and wiki paragraph has a sentence of its own
  (``_sentence``), so pages differ by their words, not only by their numbers.

``tracd -s`` serves the environment at the root; anonymous users have Trac's default
permissions (every ``*_VIEW``: browser, changesets, files, logs, milestones, reports,
roadmap, search, tickets, timeline, wiki) and nothing else, so no form that writes.

Legit URLs (:meth:`Tracker.legit_urls`) are spelled as Trac links them, checked against
its HTML: ``/wiki/Name`` (sub-pages keep their slash), ``/ticket/N``, ``/changeset/<full
sha>``, ``/browser/path`` for files and directories at HEAD (the browser links them so,
without ``rev``; only its sort links, its revision links and the ``/log`` links carry
query parameters), ``/milestone/N``, ``/report/N`` and the hubs. Trac links some pages
under two or three spellings that serve the same page (:meth:`Tracker.aliases`: ``/`` =
``/wiki`` = ``/wiki/WikiStart``; ``/browser`` = ``/browser/``; ``/changeset/<sha>`` =
``/changeset/<sha>/``, the latter from the browser and the log): any one fetched counts.
:func:`survey` fetches them all once served, and finds the pages only nofollow leads to:
Trac marks its own documentation pages (author ``trac``) and every old version, history,
diff and blame ``NOINDEX, NOFOLLOW``, and its export links ``rel=nofollow``, so a crawl
that honours nofollow cannot reach most of the documentation, and is not asked to.

Needs: Debian's ``git`` and PyPI's ``Trac`` (``ensure_installed()`` does both).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import html.parser
import json
import os
import platform
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import nitpicker_query as q  # noqa: E402
from corpora.real.serving import apt_install, free_port, run_crawl, serving  # noqa: E402

VENV = ROOT / ".bench-tools" / "trac"
TRAC_REQUIREMENT = "Trac>=1.6,<1.7"
COMMITS = 48
TICKETS = 100
AUTHOR = ("Ada Bench", "ada@bench.invalid")
COMPONENTS = ("core", "parser", "render", "cli", "docs")
MILESTONES = ("0.1", "0.2", "0.3", "1.0")  # 0.1 and 0.2 completed
EPOCH = 1704096000  # 2024-01-01 08:00 UTC: commits, tickets and wiki edits follow it

# The repository: (path, commit that adds it); the others are edited all along.
FILES: tuple[tuple[str, int], ...] = (
    ("README.md", 0), ("LICENSE", 0), ("setup.cfg", 0),
    ("src/__init__.py", 0), ("src/core.py", 0), ("src/parser.py", 0),
    ("src/render.py", 2), ("src/cli.py", 5),
    ("src/plugins/__init__.py", 30), ("src/plugins/csv_out.py", 30),
    ("src/plugins/json_out.py", 38),
    ("docs/index.md", 0), ("docs/usage.md", 8), ("docs/changelog.md", 41),
    ("tests/test_core.py", 1), ("tests/test_parser.py", 3), ("tests/test_cli.py", 44),
)

WIKI_PAGES = (
    "ProjectOverview", "GettingStarted", "DeveloperGuide", "DeveloperGuide/Setup",
    "DeveloperGuide/Testing", "DeveloperGuide/CodingStyle", "ReleaseProcess",
    "ReleaseNotes/0.1", "ReleaseNotes/0.2", "ReleaseNotes/0.3", "ArchitectureNotes",
    "ParserDesign", "RenderPipeline", "CommandLine", "PluginApi", "KnownIssues",
    "MeetingNotes", "TriagePolicy", "FrequentlyAskedQuestions", "GlossaryOfTerms",
)

_VERBS = ("Fix", "Improve", "Refactor", "Document", "Speed up", "Simplify", "Test",
          "Harden", "Clean up", "Rework")
_THINGS = ("error messages", "the tokenizer", "Unicode handling", "config loading",
           "the output writer", "option parsing", "line endings", "empty input",
           "nested blocks", "the plugin registry", "exit codes", "logging")
# Prose: every ticket, comment, commit and wiki paragraph gets a sentence of its own drawn
# from these, so that pages differ by their words and not only by their numbers, as real
# trackers' pages do (a crawler comparing pages' text with digits masked must see real
# tickets, not copies of one template).
_VOCABULARY = """
    buffer cache window socket thread queue stream parser lexer token grammar schema
    column cursor header footer margin border layout widget button toolbar sidebar panel
    dialog prompt console terminal shell script module package import export archive
    backup restore mirror replica cluster shard index search filter sorter ranking
    timeout retry backoff deadline latency throughput memory heap stack pointer handle
    encoder decoder charset locale timezone calendar schedule cron daemon service proxy
    gateway router tunnel certificate signature checksum digest payload envelope message
    channel topic broker consumer producer webhook callback listener observer adapter
    bridge facade builder factory registry resolver loader bundler minifier linter
    formatter printer spooler scanner crawler indexer profiler tracer debugger sandbox
    container volume snapshot migration fixture template partial snippet macro plugin
    theme palette glyph font kerning ligature raster vector canvas sprite texture shader
"""
_WORDS = tuple(_VOCABULARY.split())
_MOODS = ("sometimes", "rarely", "always", "after a restart", "on large inputs",
          "under load", "on Windows", "with an empty config", "since the last release",
          "when the cache is cold", "in the nightly build", "for some users")


def _sentence(rng: random.Random, words: int = 8) -> str:
    """A sentence of its own: ``words`` words of ``_WORDS`` and a circumstance."""
    picked = rng.sample(_WORDS, words)
    return (f"The {picked[0]} and the {picked[1]} " + " ".join(picked[2:]) +
            f" {rng.choice(_MOODS)}.")


def missing() -> str | None:
    """Why a Trac cannot be set up here, or None when it can."""
    if shutil.which("git") is None:
        return "git is not installed (apt-get install git)"
    for tool in ("trac-admin", "tracd", "python"):
        if not (VENV / "bin" / tool).is_file():
            return (f"Trac is not installed in {VENV.relative_to(ROOT)} "
                    f"(python3 -m venv {VENV.relative_to(ROOT)} && "
                    f"{VENV.relative_to(ROOT)}/bin/pip install '{TRAC_REQUIREMENT}')")
    return None


def ensure_installed() -> str | None:
    """Install what :func:`missing` misses — Debian's ``git`` (when root) and Trac into its
    own virtualenv — and return what :func:`missing` says afterwards. Both are quick (a
    few seconds) when the packages are reachable; ``apt-get update`` runs only if the
    install fails first, as package lists already on the machine are usually enough."""
    if missing() is None:
        return None
    if shutil.which("git") is None:
        apt_install(["git"])
    if not (VENV / "bin" / "tracd").is_file():
        # the system's python3 (Debian's), not this project's virtualenv: Trac and its
        # Jinja2 stay apart from the crawler's packages and their versions
        python = "/usr/bin/python3" if Path("/usr/bin/python3").is_file() else "python3"
        subprocess.run([python, "-m", "venv", "--clear", str(VENV)], check=True)
        subprocess.run([str(VENV / "bin" / "pip"), "install", "-q", TRAC_REQUIREMENT],
                       check=True)
    return missing()


def trac_version() -> str:
    """The installed Trac's version, e.g. ``1.6``."""
    r = subprocess.run([str(VENV / "bin" / "python"), "-c",
                        "import trac; print(trac.__version__)"],
                       capture_output=True, text=True)
    return r.stdout.strip() or "(unknown)"


@dataclass
class Tracker:
    directory: Path
    wiki_pages: list[str] = field(default_factory=list)      # every page, Trac's included
    own_pages: dict[str, int] = field(default_factory=dict)  # ours: name -> versions
    tickets: dict[int, str] = field(default_factory=dict)    # id -> summary
    commits: list[str] = field(default_factory=list)         # full SHA-1s, oldest first
    changed: dict[str, list[str]] = field(default_factory=dict)  # sha -> paths it touched
    files: list[str] = field(default_factory=list)           # at HEAD
    directories: list[str] = field(default_factory=list)     # at HEAD
    milestones: list[str] = field(default_factory=list)
    reports: list[int] = field(default_factory=list)
    # legit pages (paths below the base) that only nofollow links or pages lead to: filled
    # by survey(); left out of legit_urls(follow_nofollow=False)
    behind_nofollow: set[str] | None = None

    @property
    def env(self) -> Path:
        return self.directory / "env"

    @property
    def repo(self) -> Path:
        return self.directory / "repo"

    def admin(self, *args: str) -> str:
        r = subprocess.run([str(VENV / "bin" / "trac-admin"), str(self.env), *args],
                           capture_output=True, text=True, check=True)
        return r.stdout

    def legit_urls(self, base: str, *, follow_nofollow: bool = True) -> list[str]:
        """The pages a complete crawl must fetch with status 200, spelled as Trac links
        them: the root (WikiStart), every wiki page at its current version
        (``/wiki/Name``, sub-pages with their slash), every ticket, every changeset
        (``/changeset/<full sha>``), every file and directory at HEAD as the browser root
        leads to them (``/browser/path``, no ``rev``), each milestone, each report, and
        the hub pages. :meth:`aliases` gives the other spellings of some of them.

        Without ``follow_nofollow``, less the pages that only nofollow leads to (see
        :func:`survey`, which must have run): Trac marks its own documentation pages
        (author ``trac``) ``NOINDEX, NOFOLLOW``, so most of them are linked from no page a
        crawler that honours nofollow follows links of."""
        def url(path: str) -> str:
            return base + urllib.parse.quote(path, safe="/:@!$&'()*+,;=-._~")
        paths = ["", "timeline", "roadmap", "report", "query", "browser"]
        paths += [f"wiki/{name}" for name in self.wiki_pages if name != "WikiStart"]
        paths += [f"ticket/{n}" for n in sorted(self.tickets)]
        paths += [f"changeset/{sha}" for sha in self.commits]
        paths += [f"browser/{path}" for path in self.directories + self.files]
        paths += [f"milestone/{name}" for name in self.milestones]
        paths += [f"report/{n}" for n in self.reports]
        if not follow_nofollow:
            if self.behind_nofollow is None:
                raise RuntimeError("survey(tracker, base) first")
            paths = [p for p in paths if p not in self.behind_nofollow]
        return list(dict.fromkeys(url(p) for p in paths))

    def aliases(self, base: str) -> dict[str, list[str]]:
        """Legit URL -> the other URLs Trac links for the very same page (the same bytes
        but for a form's ``action`` and the clock in a script), any one of which fetched
        at 200 counts: WikiStart is ``/``, ``/wiki`` (the navigation's "Wiki") and
        ``/wiki/WikiStart`` (the title index); the browser root is ``/browser``
        (navigation) and ``/browser/`` (its own sort links, the log); a changeset is
        ``/changeset/<sha>`` (timeline, Previous / Next Changeset) and
        ``/changeset/<sha>/`` (browser and log: the changeset restricted to the root path,
        which is all of it)."""
        found = {base: [base + "wiki", base + "wiki/WikiStart"],
                 base + "browser": [base + "browser/"]}
        found |= {f"{base}changeset/{sha}": [f"{base}changeset/{sha}/"]
                  for sha in self.commits}
        return found


def _git(repo: Path, *args: str, date: str | None = None) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": AUTHOR[0], "GIT_AUTHOR_EMAIL": AUTHOR[1],
           "GIT_COMMITTER_NAME": AUTHOR[0], "GIT_COMMITTER_EMAIL": AUTHOR[1],
           "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(repo.parent)}
    if date:
        env |= {"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}
    r = subprocess.run(["git", "-C", str(repo), *args], env=env, check=True,
                       capture_output=True, text=True)
    return r.stdout


def _file_text(path: str, edits: list[str]) -> str:
    """A file's content after ``edits``: a header, then one line or function per edit."""
    if path.endswith(".py"):
        body = "".join(f"\n\ndef step_{i}():\n    \"\"\"{e}\"\"\"\n    return {i}\n"
                       for i, e in enumerate(edits))
        return f'"""{path}: part of widget."""\n' + body
    if path.endswith(".md"):
        return f"# {path}\n\n" + "".join(f"- {e}\n" for e in edits)
    return f"{path}\n" + "".join(f"{e}\n" for e in edits)


def _make_repo(tracker: Tracker, rng: random.Random, tickets: int) -> None:
    """``COMMITS`` commits, one every ~3 days of 2024 (fixed dates: same SHA-1s each time);
    the first adds the files of commit 0, each later one edits 1–3 existing files and some
    add a file of ``FILES``; messages refer to tickets (``refs #N``), which Trac links."""
    repo = tracker.repo
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    edits: dict[str, list[str]] = {}
    for i in range(COMMITS):
        added = [p for p, at in FILES if at == i]
        existing = [p for p in edits if p not in added]
        touched = added + (rng.sample(existing, min(len(existing), rng.randint(1, 3)))
                           if existing and i else [])
        what = f"{rng.choice(_VERBS)} {rng.choice(_THINGS)} of the " + \
            " ".join(rng.sample(_WORDS, 2))
        for path in touched:
            edits.setdefault(path, []).append(f"{what}: {_sentence(rng, 5)}")
            target = repo / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(_file_text(path, edits[path]))
        _git(repo, "add", "-A")
        ref = f", refs #{rng.randint(1, tickets)}" if i else ""
        message = ("Initial import" if i == 0 else what) + ref + "\n\n" + \
            _sentence(rng) + " Touches " + ", ".join(touched) + ".\n"
        stamp = EPOCH + i * 3 * 86400 + rng.randrange(8 * 3600)
        _git(repo, "commit", "-q", "-m", message, date=f"@{stamp} +0000")
    tracker.commits = _git(repo, "rev-list", "--reverse", "HEAD").split()
    for sha in tracker.commits:
        tracker.changed[sha] = _git(repo, "show", "--format=", "--name-only", sha).split()
    tree = _git(repo, "ls-tree", "-r", "-t", "--format=%(objecttype) %(path)", "HEAD")
    for line in tree.splitlines():
        kind, path = line.split(" ", 1)
        (tracker.directories if kind == "tree" else tracker.files).append(path)


# Run with the Trac virtualenv's Python: reads the content as JSON on stdin, writes it
# with Trac's model API, prints what the environment then holds.
_SEED = r'''
import json, sys
from datetime import datetime, timezone
from trac.env import Environment
from trac.ticket.model import Component, Milestone, Ticket
from trac.wiki.api import WikiSystem
from trac.wiki.model import WikiPage

spec = json.load(sys.stdin)
env = Environment(spec["env"])
def when(ts):
    return datetime.fromtimestamp(ts, timezone.utc) if ts is not None else None
for name in ("component1", "component2"):
    Component(env, name).delete()
for name in ("milestone1", "milestone2", "milestone3", "milestone4"):
    Milestone(env, name).delete()
for c in spec["components"]:
    comp = Component(env)
    comp.name, comp.owner, comp.description = c["name"], c["owner"], c["description"]
    comp.insert()
for m in spec["milestones"]:
    ms = Milestone(env)
    ms.name, ms.description = m["name"], m["description"]
    ms.due, ms.completed = when(m["due"]), when(m["completed"])
    ms.insert()
for t in spec["tickets"]:
    ticket = Ticket(env)
    for k, v in t["fields"].items():
        ticket[k] = v
    ticket.insert(when=when(t["time"]))
    for change in t["changes"]:
        for k, v in change["fields"].items():
            ticket[k] = v
        ticket.save_changes(change["author"], change["comment"], when=when(change["time"]))
for p in spec["wiki"]:
    page = WikiPage(env, p["name"])
    page.text = p["text"] + (page.text if p.get("prepend") else "")
    page.save(p["author"], p["comment"], t=when(p["time"]))
print(json.dumps({
    "wiki": sorted(WikiSystem(env).get_pages()),
    "tickets": {i: s for i, s in env.db_query("SELECT id, summary FROM ticket")},
    "milestones": [n for (n,) in env.db_query("SELECT name FROM milestone ORDER BY name")],
    "reports": [i for (i,) in env.db_query("SELECT id FROM report ORDER BY id")],
}))
'''


def _short(sha: str) -> str:
    """How a changeset is written in wiki text: ``[<10 hex digits>]``, which Trac links as
    ``/changeset/<the 10 digits>`` (it links ``[hex]`` from 8 digits on only)."""
    return sha[:10]


def _content(tracker: Tracker, rng: random.Random) -> dict[str, object]:
    """Components, milestones, ``TICKETS`` tickets (a third closed, some accepted, a
    few comments each on some, referring to changesets and other tickets) and the wiki
    pages of ``WIKI_PAGES`` with 1–3 versions; all at fixed times."""
    people = ("ada", "brian", "chen", "dana", "emil")
    day = 86400
    components = [{"name": c, "owner": rng.choice(people),
                   "description": f"The {c} of widget."} for c in COMPONENTS]
    milestones = [{"name": m, "description": f"Release {m}: see ReleaseNotes/{m}.",
                   "due": EPOCH + (k + 1) * 40 * day,
                   "completed": EPOCH + (k + 1) * 40 * day if k < 2 else None}
                  for k, m in enumerate(MILESTONES)]
    tickets = []
    for n in range(1, TICKETS + 1):
        created = EPOCH + n * 36 * 3600 + rng.randrange(3600)
        summary = (f"{rng.choice(_VERBS)} {rng.choice(_THINGS)} in the "
                   + " ".join(rng.sample(_WORDS, 2)))
        fields = {"summary": summary, "reporter": rng.choice(people),
                  "owner": rng.choice(people), "type": rng.choice(
                      ("defect", "enhancement", "task")),
                  "component": rng.choice(COMPONENTS), "milestone": rng.choice(MILESTONES),
                  "priority": rng.choice(("minor", "major", "critical", "trivial")),
                  "keywords": " ".join(rng.sample(("ux", "perf", "crash", "api"), 2)),
                  "description": f"{_sentence(rng, 10)} {_sentence(rng)} Seen with "
                                 f"[{_short(rng.choice(tracker.commits))}], see also "
                                 f"#{rng.randint(1, TICKETS)} and wiki:KnownIssues."}
        changes = []
        t = created
        for _ in range(rng.choice((0, 0, 0, 1, 2, 3))):
            t += rng.randrange(3600, 5 * day)
            changes.append({"author": rng.choice(people), "time": t, "fields": {},
                            "comment": f"{_sentence(rng)} Reproduced on "
                                       f"[{_short(rng.choice(tracker.commits))}], "
                                       f"like #{rng.randint(1, TICKETS)}."})
        fate = rng.random()
        if fate < 0.35:
            t += rng.randrange(3600, 9 * day)
            changes.append({"author": fields["owner"], "time": t,
                            "fields": {"status": "closed", "resolution": rng.choice(
                                ("fixed", "fixed", "wontfix", "duplicate"))},
                            "comment": f"In [{_short(rng.choice(tracker.commits))}]: "
                                       f"{_sentence(rng, 6)}"})
        elif fate < 0.55:
            t += rng.randrange(3600, 3 * day)
            changes.append({"author": fields["owner"], "time": t,
                            "fields": {"status": "accepted"}, "comment": ""})
        tickets.append({"fields": fields, "time": created, "changes": changes})
    wiki = []
    versions = {name: rng.choice((1, 1, 2, 2, 3)) for name in WIKI_PAGES}
    t = EPOCH
    for version in range(1, 4):
        for name in WIKI_PAGES:
            if versions[name] < version:
                continue
            t += rng.randrange(3600, day)
            others = rng.sample([p for p in WIKI_PAGES if p != name], 3)
            paragraphs = "\n\n".join(
                f"{_sentence(rng, 12)} {_sentence(rng)} See [wiki:{others[k % 3]}], "
                f"#{rng.randint(1, TICKETS)}, [{_short(rng.choice(tracker.commits))}] and "
                f"source:{rng.choice(tracker.files)}."
                for k in range(version + 1))
            wiki.append({"name": name, "author": rng.choice(people), "time": t,
                         "comment": f"version {version}",
                         "text": f"= {name} =\n\n{paragraphs}\n\n"
                                 f"Up: [wiki:ProjectOverview], milestone:"
                                 f"{rng.choice(MILESTONES)}, report:1\n"})
    index = "\n".join(f" * [wiki:{name}]" for name in WIKI_PAGES)
    wiki.append({"name": "WikiStart", "author": "ada", "time": t + day, "prepend": True,
                 "comment": "project pages", "text": f"= Widget =\n\n{index}\n\n"})
    tracker.own_pages = versions
    return {"env": str(tracker.env), "components": components, "milestones": milestones,
            "tickets": tickets, "wiki": wiki}


def setup(directory: Path, *, seed: int = 7) -> Tracker:
    """Make a tracker in ``directory`` (must not exist yet): environment, repository,
    tickets and wiki pages (see the module's docstring). Takes a few seconds."""
    directory.mkdir(parents=True)
    tracker = Tracker(directory)
    rng = random.Random(seed)
    _make_repo(tracker, rng, TICKETS)
    subprocess.run([str(VENV / "bin" / "trac-admin"), str(tracker.env), "initenv",
                    "Widget", "sqlite:db/trac.db"], check=True, capture_output=True)
    tracker.admin("config", "set", "components", "tracopt.versioncontrol.git.*", "enabled")
    tracker.admin("config", "set", "logging", "log_type", "none")
    tracker.admin("repository", "add", "(default)", str(tracker.repo), "git")
    tracker.admin("repository", "resync", "(default)")
    r = subprocess.run([str(VENV / "bin" / "python"), "-c", _SEED],
                       input=json.dumps(_content(tracker, rng)), capture_output=True,
                       text=True, check=True)
    state = json.loads(r.stdout)
    tracker.wiki_pages = state["wiki"]
    tracker.tickets = {int(k): v for k, v in state["tickets"].items()}
    tracker.milestones = state["milestones"]
    tracker.reports = state["reports"]
    return tracker


@contextlib.contextmanager
def serve(tracker: Tracker, workers: int = 4) -> Iterator[str]:
    """``tracd -s`` (the one environment at the root) on a free port of 127.0.0.1; yields
    the base URL (ending in ``/``). ``workers`` is there for the other targets' interface:
    tracd serves each request in a thread of its own."""
    del workers
    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    # git subprocesses are tracd's children: stopped as a group
    with serving([str(VENV / "bin" / "tracd"), "-s", "-p", str(port), "-b", "127.0.0.1",
                  str(tracker.env)], probe=base + "wiki/WikiStart", cwd=tracker.directory,
                 env=dict(os.environ), name="tracd", start_s=60):
        yield base


def _get(url: str) -> tuple[int, str, bytes]:
    """Status, final URL and body of a GET (an HTTP error is a status, not an exception)."""
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            return r.status, r.geturl(), r.read()
    except urllib.error.HTTPError as e:
        return e.code, url, b""


# what differs between two spellings of one page: the form posting back to the URL, and
# the browser's inline script giving the time range of its age colours (now, to the second)
_VOLATILE = re.compile(rb'action="[^"]*"|<script\b.*?</script>', re.DOTALL)


class _Links(html.parser.HTMLParser):
    """The hrefs of a page's ``<a>`` (with whether they are ``rel=nofollow``) and whether
    its meta robots says ``nofollow``: what a crawler honouring nofollow goes by."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[tuple[str, bool]] = []
        self.nofollow = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "a" and "href" in a:
            self.links.append((a["href"], "nofollow" in a.get("rel", "").lower().split()))
        elif tag == "meta" and a.get("name", "").lower() == "robots":
            self.nofollow |= "nofollow" in a.get("content", "").lower()


def survey(tracker: Tracker, base: str) -> list[str]:
    """Fetch every legit URL and alias, and return what is wrong (should be nothing): one
    that does not answer 200 itself (no redirect), an alias that is not the same page, or
    a legit page that no chain of links between legit pages leads to from the root. Run
    after set-up, so a change in how Trac spells its pages shows here rather than as a
    crawl that missed them.

    Also fills ``tracker.behind_nofollow``: the legit pages reached, from the root through
    legit pages only, when nofollow links and the links of nofollow pages are followed but
    not when they are not."""
    bad = []
    aliases = tracker.aliases(base)
    legit = tracker.legit_urls(base)
    spelling = {u: u for u in legit} | {a: u for u, names in aliases.items() for a in names}
    pages: dict[str, _Links] = {}

    def check(url: str) -> list[str]:
        status, final, body = _get(url)
        if status != 200 or final != url:
            return [f"{url}: {status} {final}"]
        parsed = pages[url] = _Links()
        parsed.feed(body.decode("utf-8", "replace"))
        wrong = []
        for alias in aliases.get(url, []):
            a_status, a_final, a_body = _get(alias)
            if a_status != 200 or a_final != alias or \
                    _VOLATILE.sub(b"", a_body) != _VOLATILE.sub(b"", body):
                wrong.append(f"{alias} (alias of {url}): {a_status}, not the same page")
        return wrong

    with concurrent.futures.ThreadPoolExecutor(4) as pool:  # as many as the crawler
        for wrong in pool.map(check, legit):
            bad += wrong

    def reached(honour_nofollow: bool) -> set[str]:
        seen, todo = {base}, [base]
        while todo:
            url = todo.pop()
            page = pages.get(url)
            if page is None or (honour_nofollow and page.nofollow):
                continue
            for href, nofollow in page.links:
                target = urllib.parse.urldefrag(urllib.parse.urljoin(url, href)).url
                target = spelling.get(target, "")
                if target and target not in seen and not (honour_nofollow and nofollow):
                    seen.add(target)
                    todo.append(target)
        return seen

    every, honoured = reached(False), reached(True)
    bad += [f"{u}: linked from no legit page" for u in legit if u not in every]
    tracker.behind_nofollow = {u[len(base):] for u in every - honoured}
    return bad


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
    legit_ok: int             # legit URLs answering 200 (in one of their spellings)
    legit_total: int
    legit_refused: int        # legit URLs refused, in no spelling fetched (must stay 0)
    trap: int                 # fetched URLs that are no spelling of a legit URL
    sections: Counter[str]    # fetched URLs by first path segment
    trap_kinds: Counter[str]  # trap URLs by view (rev=, order=, /changeset/<sha>/<path>, …)
    stderr: str


def crawl(tracker: Tracker, base: str, out: Path, *, cap: int | None,
          follow_nofollow: bool = False, max_pages: int | None = None,
          timeout: float = 3600, tree: Path | None = None) -> CrawlResult:
    """Crawl the tracker ``--no-render`` from its root (WikiStart, with Trac's navigation
    to everything else); ``tree``: another source tree's crawler (which may predate
    ``--follow-nofollow``: then ``follow_nofollow`` must be False)."""
    returncode, seconds, stderr = run_crawl(
        base, out, cap=cap, follow_nofollow=follow_nofollow, max_pages=max_pages,
        timeout=timeout, tree=tree)
    return _measure(tracker, base, out, cap, follow_nofollow, returncode, seconds, stderr)


def section(url: str) -> str:
    """A URL's first path segment (``browser``, ``changeset``, ``log``, ``ticket``, …),
    ``/`` for the root."""
    path = urllib.parse.urlsplit(url).path.strip("/")
    return path.split("/", 1)[0] or "/"


_SHA = re.compile(r"^[0-9a-f]{40}$")


def trap_kind(url: str) -> str:
    """Which Trac view a URL is, coarsely: its section, ``/<path>`` when it goes below a
    changeset, a diff or a log, and the names of its query parameters (``rev``, ``order``,
    ``desc``, ``format``, ``from``, ``version``, …), sorted."""
    parts = urllib.parse.urlsplit(url)
    segments = parts.path.strip("/").split("/")
    kind = segments[0] or "/"
    if kind in ("changeset", "diff") and len(segments) > 2 and _SHA.match(segments[1]):
        kind += "/<sha>/<path>"
    elif kind in ("changeset", "diff") and len(segments) == 2:
        kind += "/<sha>" if _SHA.match(segments[1]) else "/<rev>"
    elif kind in ("browser", "log", "export", "raw-attachment", "attachment", "ticket",
                  "wiki", "milestone", "report", "query") and len(segments) > 1:
        kind += "/…"
    names = sorted({k for k, _ in urllib.parse.parse_qsl(parts.query,
                                                         keep_blank_values=True)})
    return kind + ("?" + "&".join(names) if names else "")


def _measure(tracker: Tracker, base: str, out: Path, cap: int | None, follow_nofollow: bool,
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
    if tracker.behind_nofollow is None:
        survey(tracker, base)
    expected = tracker.legit_urls(base, follow_nofollow=follow_nofollow)
    aliases = tracker.aliases(base)
    spellings = {u: [u, *aliases.get(u, [])] for u in expected}
    group = {s: u for u, names in spellings.items() for s in names}
    every = tracker.legit_urls(base)  # a legit page behind nofollow fetched is no trap
    group |= {u: u for u in every if u not in group}
    group |= {a: u for u in every for a in aliases.get(u, []) if a not in group}
    ok_groups = {u for u, names in spellings.items()
                 if any(status.get(s) == 200 for s in names)}
    refused_groups = {group[u] for u in refused_urls if u in group} & set(expected)
    trap = [u for u in fetched_urls if u not in group]
    ended = returncode == 0 and "stopped at --max-pages" not in stderr
    return CrawlResult(
        cap, follow_nofollow, returncode, ended, seconds, len(fetched_urls),
        len(refused_urls), events, len(ok_groups), len(expected),
        len(refused_groups - ok_groups), len(trap),
        Counter(section(u) for u in fetched_urls), Counter(trap_kind(u) for u in trap),
        stderr)


def main() -> int:
    sys.path.insert(0, str(ROOT / "bench"))
    from doc import add_flag, emit

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cap", type=int, action="append",
                   help="dedupe cap, repeatable; default 100 and 20")
    p.add_argument("--follow-nofollow", choices=["no", "yes", "both"], default="both")
    p.add_argument("--no-uncapped", dest="uncapped", action="store_false",
                   help="skip the uncapped run")
    p.add_argument("--max-pages", type=int, default=20000,
                   help="safety net of every run, the uncapped one above all (default 20000)")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--keep", action="store_true", help="keep the tracker and archives")
    add_flag(p)
    args = p.parse_args()
    why = ensure_installed()
    if why:
        print(f"trac: {why}", file=sys.stderr)
        return 1
    caps = args.cap if args.cap is not None else [100, 20]
    follows = {"no": [False], "yes": [True], "both": [False, True]}[args.follow_nofollow]
    runs: list[tuple[int | None, bool]] = [(c or None, f) for c in caps for f in follows]
    if args.uncapped:
        runs.append((None, False))
    rows = []
    tmp = Path(tempfile.mkdtemp(prefix="nitpicker-trac-"))
    try:
        t0 = time.monotonic()
        tracker = setup(tmp / "tracker", seed=args.seed)
        setup_seconds = time.monotonic() - t0
        with serve(tracker) as base:
            bad = survey(tracker, base)
            if bad:
                print("[trac] legit URLs not at 200:\n  " + "\n  ".join(bad[:20]),
                      file=sys.stderr)
                return 1
            legit = len(tracker.legit_urls(base))
            followed = len(tracker.legit_urls(base, follow_nofollow=False))
            print(f"[trac] set up in {setup_seconds:.1f} s: {len(tracker.wiki_pages)} wiki "
                  f"pages ({len(tracker.own_pages)} ours), {len(tracker.tickets)} tickets, "
                  f"{len(tracker.commits)} changesets, {len(tracker.files)} files in "
                  f"{len(tracker.directories)} directories; {legit} legit URLs, all at 200, "
                  f"{followed} of them reached without following nofollow",
                  file=sys.stderr)
            for cap, follow in runs:
                out = tmp / f"{cap or 0}-{int(follow)}.nitpicker"
                r = crawl(tracker, base, out, cap=cap, follow_nofollow=follow,
                          max_pages=args.max_pages)
                where = ", ".join(f"{k} {n}" for k, n in r.sections.most_common())
                kinds = ", ".join(f"{k} {n}" for k, n in r.trap_kinds.most_common(12))
                print(f"[trac] cap {cap or 'off'} nofollow-followed {follow}: "
                      f"exit {r.returncode}, {r.fetched} fetched ({where}), "
                      f"{r.refused} refused, {r.events} events, "
                      f"{r.legit_ok}/{r.legit_total} legit, {r.legit_refused} legit refused, "
                      f"{r.trap} trap ({kinds}), {r.seconds:.0f} s", file=sys.stderr)
                rows.append(r)
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print(f"[trac] kept {tmp}", file=sys.stderr)
    table = ["| --dedupe-cap | nofollow links | ended by itself | URLs fetched | refused "
             "| cap events | legit URLs at 200 | legit URLs refused | trap URLs fetched "
             "| fetched by section | wall time |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        where = ", ".join(f"{k} {n:,}" for k, n in r.sections.most_common(6))
        table.append(
            f"| {r.cap or 'off'} | {'followed' if r.follow_nofollow else 'not followed'} "
            f"| {'yes' if r.ended else 'no'} | {r.fetched:,} | {r.refused:,} | {r.events} "
            f"| {r.legit_ok}/{r.legit_total} | {r.legit_refused} | {r.trap:,} | {where} "
            f"| {r.seconds:.0f} s |")
    emit("trac", "\n".join(table) + f"\n\nTrac {trac_version()} (`tracd`, Git browser), "
         f"{len(tracker.wiki_pages)} wiki pages ({len(tracker.own_pages)} seeded), "
         f"{len(tracker.tickets)} tickets, {len(tracker.commits)} changesets, "
         f"{len(tracker.files)} files in {len(tracker.directories)} directories, "
         f"{legit} legit URLs ({followed} without following nofollow: Trac's own "
         f"documentation pages are `NOFOLLOW`); set up in {setup_seconds:.0f} s; "
         f"uncapped runs stop at --max-pages {args.max_pages}. Machine: {platform.machine()}, "
         f"{os.cpu_count()} cores; `python corpora/real/trac.py`", write=args.write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
