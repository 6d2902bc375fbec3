"""A real Redmine (Debian's package) as a crawl target: set it up, serve it, list its pages.

    python corpora/real/redmine.py                        # set up and serve one, until Ctrl-C
    python corpora/real/redmine.py --dir /tmp/rm --check  # set up (or reuse), check every legit URL

Why Redmine: a project tracker on Rails whose every view multiplies — activity streams per
user and per project that page back in time without end (``/activity?from=…``), calendars
and Gantt charts per month, issue lists under any filter, column and sort (``/issues?…``),
and a repository browser where every file is reachable at every revision, with its
history, diff, annotation and raw download. Only a small part of that is content a site
audit needs.

Debian's ``redmine`` package (5.0.4 on bookworm) is installed once, with ``redmine-sqlite``
(SQLite), ``puma`` (to serve it without Apache or Passenger) and ``git``
(``ensure_installed()``; ``--no-install-recommends``, so no Passenger). The package uses
dbconfig-common for its own ``default`` instance: this module preseeds
``redmine/instances/default/dbconfig-install false`` so the install asks nothing and makes
no database; the package's instance stays unused. Its code lives in
``/usr/share/redmine``; an instance's configuration normally in ``/etc/redmine/<name>``
and its data in ``/var/lib/redmine/<name>``. Each Redmine here lives in a directory of its
own instead:

- ``app/``  a copy of Debian's code (15 MB; the package's relative symlinks into
  ``/usr/share/javascript`` and ``ruby-jquery-rails`` re-pointed at their absolute
  targets): Rails' root, so Debian's multi-tenancy (``REDMINE_INSTANCE``, here ``bench``)
  reads ``app/instances/bench/{config,files,log,tmp}`` below it. Its ``Gemfile`` looks
  for database adapters in the copy's ``database.yml`` rather than ``/usr/share/redmine``'s,
  ``Gemfile.local`` adds ``puma``, and ``bundle install --local`` writes the copy's own
  ``Gemfile.lock`` (the package's, in ``/var/lib/redmine``, is left alone);
  ``config/additional_environment.rb`` only lowers the log level to ``warn``;
- ``db/redmine.sqlite3``  the database: ``rake db:migrate``, then one ``rails runner``
  of ``seed.rb`` (written here, with its input ``seed.json``) that loads Redmine's
  default data in English (trackers, statuses, roles, workflows) and the content below;
- ``repo/``  a Git repository (branch ``main``, ``COMMITS`` commits at fixed dates by the
  seeded users, so the same SHA-1s on every set-up) with a ``README.md`` and the ten
  ``src/holdout/*.py`` of ``FILES``; commit messages say ``refs #N``, which Redmine links;
- ``state.json``  what Redmine holds once seeded (ids of users, issues, news, versions,
  wiki titles, changesets): written last, so a directory with it is a finished set-up that
  :func:`setup` reuses (with the same seed) instead of redoing.

Content (deterministic, ``random.Random(seed)``, written with Redmine's own models by
``seed.rb``, timestamps in 2024): 8 users (``USERS``, ids 5–12 after Redmine's admin and
built-in groups), members of two public projects (``MEMBERS``): ``holdout``, with the Git
repository as its default repository (changesets fetched, so commits are linked to their
authors and to the issues they refer to), and ``lighthouse``; 60 issues (``ISSUES``, 3/5
in holdout) of every tracker, each with a subject and description of its own, 0–4 journal
notes by members (status changes; about 40 % end resolved, closed or rejected), each
description linking the next issue so that they form a chain; 10 wiki pages (``WIKI`` and each
project's start page ``Wiki``, which lists the others) with 1–3 versions each; 3 news
items (``NEWS``); 3 versions (``VERSIONS``, one closed). Settings changed: the title, the
welcome text, the host name and no mail notifications — nothing else. Anonymous users read
everything: ``login_required`` stays off (Redmine's default) and the Anonymous role keeps
Redmine's default permissions (view issues, Gantt, calendar, news, wiki and its history,
browse the repository, view changesets); nothing of Redmine's code or settings is changed
to remove its trap spaces.

Served by ``puma`` on a free port of 127.0.0.1 (``RAILS_ENV=production``, ``TZ=UTC``).

Legit URLs (:meth:`Redmine.legit_urls`), spelled as Redmine links them (checked by
:func:`survey` against the served pages' hrefs): the home page ``/``, ``/projects``, each
project's overview ``/projects/<id>``, its bare issue list ``/projects/<id>/issues`` and
its roadmap ``/projects/<id>/roadmap``; every version ``/versions/N``; every issue
``/issues/N``; every wiki page at its current version ``/projects/<id>/wiki/<Title>``
(the start page too: ``/projects/<id>/wiki``, the menu's spelling, is an alias); every
news item ``/news/N``; every seeded user's profile ``/users/N``; the repository root
``/projects/holdout/repository`` (alias: the browser's breadcrumb
``…/repository/<repo id>/revisions/main/show``) and every directory and file at the
newest revision (the default branch ``main``, which the browser shows) as it links them
(``/projects/holdout/repository/<repo id>/revisions/main/show/<dir>``
and ``…/revisions/main/entry/<file>``); every changeset page
``/projects/holdout/repository/<repo id>/revisions/<full sha>``. Everything else is trap
space, named by :func:`trap_kind`: ``activity`` (``/activity``, ``/projects/<id>/activity``,
any ``from``/``user_id``/type filter), ``calendar``, ``gantt``, ``issues-query`` (issue
lists with any query string, ``/issues``, exports, reports), ``repository-revisions``
(the revisions list, entries/directories at other revisions, changes, diff, annotate, raw,
statistics) and ``other`` (an issue's tabs and exports, wiki histories, diffs and indexes,
news lists, time entries, roadmap filters, search, login, …).

Needs: ``apt-get install --no-install-recommends redmine redmine-sqlite puma git`` (root;
``ensure_installed()``).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import html.parser
import json
import os
import random
import secrets
import shutil
import signal
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
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

sys.path.insert(0, str(ROOT))
from corpora.real.serving import apt_install, free_port, serving  # noqa: E402

REDMINE = Path("/usr/share/redmine")
PACKAGES = "redmine redmine-sqlite puma git"
# dbconfig-common: no database for the package's own "default" instance, no question asked
PRESEED = "redmine redmine/instances/default/dbconfig-install boolean false\n"
# Debian's Gemfile looks for adapters in the package's instances, not in a copy's
DEBIAN_GLOB = "/usr/share/redmine/{config,instances/*/config}/database.yml"
INSTANCE = "bench"
FORMAT = 1                      # of state.json: a set-up of another format is redone
EPOCH = 1704096000              # 2024-01-01 08:00 UTC: everything seeded follows it
DAY = 86400
COMMITS = 12
ISSUES = 60

PROJECTS = (
    ("holdout", "Holdout", "A small Python library for held-out evaluation sets."),
    ("lighthouse", "Lighthouse", "Operations, onboarding and the team's meetings."),
)
# login, first name, last name
USERS = (
    ("ada", "Ada", "Lindqvist"), ("bruno", "Bruno", "Marchetti"),
    ("chiara", "Chiara", "Esposito"), ("dmitri", "Dmitri", "Volkov"),
    ("elena", "Elena", "Navarro"), ("farid", "Farid", "Haddad"),
    ("greta", "Greta", "Hoffmann"), ("hiro", "Hiro", "Tanaka"),
)
MEMBERS = {
    "holdout": {"ada": "Manager", "bruno": "Developer", "chiara": "Developer",
                "dmitri": "Developer", "elena": "Developer", "farid": "Reporter"},
    "lighthouse": {"elena": "Manager", "farid": "Developer", "greta": "Developer",
                   "hiro": "Developer", "ada": "Reporter"},
}
# project, name, due (days after EPOCH), closed once its issues are assigned
VERSIONS = (("holdout", "0.9", 60, True), ("holdout", "1.0", 150, False),
            ("lighthouse", "Spring 2024", 120, False))
WIKI = {
    "holdout": ("Installation", "Configuration", "Architecture", "Release_process", "FAQ"),
    "lighthouse": ("Onboarding", "Meeting_notes", "On_call"),
}
NEWS = (("holdout", "Holdout 0.9 released"), ("holdout", "Call for reviewers"),
        ("lighthouse", "New on-call rota"))
FILES = ("__init__.py", "cli.py", "config.py", "core.py", "parser.py", "render.py",
         "storage.py", "sampling.py", "metrics.py", "report.py")

_VOCABULARY = """
    buffer cache window socket thread queue stream parser lexer token grammar schema
    column cursor header footer margin border layout widget button toolbar sidebar panel
    dialog prompt console terminal shell script module package import export archive
    backup restore mirror replica cluster shard index search filter sorter ranking
    timeout retry backoff deadline latency throughput memory heap stack pointer handle
    encoder decoder charset locale timezone calendar schedule daemon service proxy
    gateway router tunnel certificate signature checksum digest payload envelope message
    channel topic broker consumer producer webhook callback listener observer adapter
    bridge facade builder factory registry resolver loader formatter printer scanner
    indexer profiler tracer debugger sandbox container volume snapshot migration fixture
    template snippet macro plugin theme palette glyph font raster vector canvas sprite
"""
_WORDS = tuple(_VOCABULARY.split())
_MOODS = ("sometimes", "rarely", "always", "after a restart", "on large inputs",
          "under load", "on Windows", "with an empty config", "since the last release",
          "when the cache is cold", "in the nightly build", "for some users")
_VERBS = ("Fix", "Improve", "Refactor", "Document", "Speed up", "Simplify", "Test",
          "Harden", "Clean up", "Rework", "Support", "Report")


def _sentence(rng: random.Random, words: int = 8) -> str:
    """A sentence of its own: ``words`` words of ``_WORDS`` and a circumstance."""
    picked = rng.sample(_WORDS, words)
    return (f"The {picked[0]} and the {picked[1]} " + " ".join(picked[2:]) +
            f" {rng.choice(_MOODS)}.")


def missing() -> str | None:
    """Why a Redmine cannot be set up here, or None when it can."""
    if not (REDMINE / "config.ru").is_file() or not (REDMINE / "Gemfile").is_file():
        return f"Redmine is not installed (apt-get install {PACKAGES})"
    for tool, package in (("ruby", "ruby"), ("bundle", "ruby-bundler"), ("puma", "puma"),
                          ("git", "git"), ("sqlite3", "redmine-sqlite")):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (apt-get install {package})"
    probe = subprocess.run(["ruby", "-e", "require 'sqlite3'"], capture_output=True)
    if probe.returncode != 0:
        return "Ruby's sqlite3 is missing (apt-get install redmine-sqlite)"
    return None


def ensure_installed() -> str | None:
    """Install ``PACKAGES`` (without recommends: no Passenger) when they are missing and
    this process is root, dbconfig-common told to make no database; returns what
    :func:`missing` says afterwards."""
    if missing() is not None and os.geteuid() == 0:
        subprocess.run(["debconf-set-selections"], input=PRESEED, text=True,
                       capture_output=True)
        apt_install(["--no-install-recommends", *PACKAGES.split()])
    return missing()


def redmine_version() -> str:
    """Debian's package version, e.g. ``5.0.4-5+deb12u1``."""
    r = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "redmine"],
                       capture_output=True, text=True)
    return r.stdout.strip() or "(unknown)"


@dataclass
class Redmine:
    directory: Path
    seed: int = 7
    users: dict[int, str] = field(default_factory=dict)        # id -> login (seeded)
    projects: list[str] = field(default_factory=list)          # identifiers
    issues: dict[int, str] = field(default_factory=dict)       # id -> project
    wiki: dict[str, list[str]] = field(default_factory=dict)   # project -> titles
    news: dict[int, str] = field(default_factory=dict)         # id -> project
    versions: dict[int, str] = field(default_factory=dict)     # id -> project
    repository: str = ""       # the repository's id in URLs (identifier_param)
    branch: str = ""           # its default branch, the "newest revision" of the browser
    commits: list[str] = field(default_factory=list)           # full SHA-1s, oldest first
    files: list[str] = field(default_factory=list)             # at the branch's head
    directories: list[str] = field(default_factory=list)       # at the branch's head
    # legit pages (paths below the base) no chain of legit pages links from the root:
    # filled by survey()
    unlinked: set[str] | None = None

    @property
    def app(self) -> Path:
        return self.directory / "app"

    @property
    def instance(self) -> Path:
        return self.app / "instances" / INSTANCE

    @property
    def database(self) -> Path:
        return self.directory / "db" / "redmine.sqlite3"

    @property
    def repo(self) -> Path:
        return self.directory / "repo"

    def env(self) -> dict[str, str]:
        """The environment of Redmine's commands and server: this copy, this instance."""
        env = {k: v for k, v in os.environ.items()
               if k not in ("X_DEBIAN_SITEID", "RAILS_RELATIVE_URL_ROOT", "DATABASE_URL")
               and not k.startswith("BUNDLE_")}
        return env | {"RAILS_ENV": "production", "REDMINE_INSTANCE": INSTANCE, "TZ": "UTC",
                      "BUNDLE_GEMFILE": str(self.app / "Gemfile"), "LANG": "C.UTF-8"}

    def run(self, *args: str, **env: str) -> str:
        """Run a command in the copy (``bundle exec rake …``, ``bin/rails runner …``),
        with ``env`` added to :meth:`env`; its output, or RuntimeError with its end."""
        r = subprocess.run(list(args), cwd=self.app, env=self.env() | env,
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"{' '.join(args)} failed ({r.returncode}):\n"
                               f"{r.stdout[-2000:]}\n{r.stderr[-4000:]}")
        return r.stdout

    def repository_path(self, rest: str = "") -> str:
        return f"projects/holdout/repository/{self.repository}" + rest

    def legit_paths(self) -> list[str]:
        """The legit pages as paths below the base (see the module's docstring)."""
        paths = ["", "projects"]
        for p in self.projects:
            paths += [f"projects/{p}", f"projects/{p}/issues", f"projects/{p}/roadmap"]
        paths += [f"versions/{n}" for n in sorted(self.versions)]
        paths += [f"issues/{n}" for n in sorted(self.issues)]
        for p, titles in self.wiki.items():
            paths += [f"projects/{p}/wiki/{title}" for title in titles]
        paths += [f"news/{n}" for n in sorted(self.news)]
        paths += [f"users/{n}" for n in sorted(self.users)]
        if self.repository:
            paths.append("projects/holdout/repository")
            paths += [self.repository_path(f"/revisions/{self.branch}/show/{d}")
                      for d in self.directories]
            paths += [self.repository_path(f"/revisions/{self.branch}/entry/{f}")
                      for f in self.files]
            paths += [self.repository_path(f"/revisions/{sha}") for sha in self.commits]
        return paths

    def legit_urls(self, base: str) -> list[str]:
        """The pages a complete crawl must fetch with status 200, as absolute URLs spelled
        as Redmine links them (see the module's docstring; :meth:`aliases` gives the
        other spellings of some)."""
        return list(dict.fromkeys(base + urllib.parse.quote(p, safe="/:@!$&'()*+,;=-._~")
                                  for p in self.legit_paths()))

    def aliases(self, base: str) -> dict[str, list[str]]:
        """Legit URL -> other URLs Redmine links for the same page, any one of which
        fetched at 200 counts: a wiki's start page is ``/projects/<id>/wiki`` (the
        project menu) and ``/projects/<id>/wiki/Wiki`` (links from its other pages); the
        repository root is ``/projects/holdout/repository`` (the project menu) and
        ``…/repository/<repo id>/revisions/main/show`` (the browser's breadcrumb)."""
        found = {f"{base}projects/{p}/wiki/Wiki": [f"{base}projects/{p}/wiki"]
                 for p, titles in self.wiki.items() if "Wiki" in titles}
        if self.repository:
            found[f"{base}projects/holdout/repository"] = [
                base + self.repository_path(f"/revisions/{self.branch}/show")]
        return found


def trap_kind(url: str) -> str:
    """The family of a URL that is no legit page: ``activity`` (activity streams, their
    feeds), ``calendar``, ``gantt``, ``issues-query`` (issue lists under any filter, sort,
    column or page, their exports and the issue reports), ``repository-revisions``
    (anything below ``/repository/`` but the legit pages: revisions lists, entries and
    directories at other revisions, changes, diffs, annotations, raw files, statistics)
    or ``other`` (an issue's tabs and exports, wiki histories, diffs and indexes, news
    lists, time entries, roadmap filters, search, login, …). Project-scoped or global
    alike (``/projects/<id>/activity`` and ``/activity``)."""
    parts = urllib.parse.urlsplit(url)
    segments = [s for s in parts.path.split("/") if s]
    scope = segments[2:] if segments[:1] == ["projects"] and len(segments) > 2 else segments

    def stem(i: int) -> str:  # a segment without its format: "issues.csv" -> "issues"
        return scope[i].split(".", 1)[0] if len(scope) > i else ""

    head = stem(0)
    if head == "activity":
        return "activity"
    if head in ("calendar", "gantt"):
        return head
    if head == "issues" and stem(1) in ("calendar", "gantt"):
        return stem(1)
    if head == "repository":
        return "repository-revisions"
    if head == "issues":
        return "other" if stem(1).isdigit() else "issues-query"
    return "other"


def _git(repo: Path, *args: str, author: tuple[str, str] | None = None,
         date: str | None = None) -> str:
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(repo.parent),
           "TZ": "UTC"}
    if author:
        env |= {"GIT_AUTHOR_NAME": author[0], "GIT_AUTHOR_EMAIL": author[1],
                "GIT_COMMITTER_NAME": author[0], "GIT_COMMITTER_EMAIL": author[1]}
    if date:
        env |= {"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}
    r = subprocess.run(["git", "-C", str(repo), *args], env=env, check=True,
                       capture_output=True, text=True)
    return r.stdout


def _mail(login: str) -> str:
    return f"{login}@bench.invalid"


def _py_text(name: str, edits: list[str]) -> str:
    """A module of ``src/holdout`` after ``edits``: a docstring, one function per edit."""
    body = "".join(f"\n\ndef step_{i}(value):\n    \"\"\"{e}\"\"\"\n    return value + {i}\n"
                   for i, e in enumerate(edits))
    return f'"""holdout.{name[:-3]}: part of holdout."""\n' + body


def _make_repo(target: Redmine, rng: random.Random,
               holdout_issues: list[int]) -> None:
    """``COMMITS`` commits on ``main`` by the holdout project's developers, one every ~4
    days (fixed dates: the same SHA-1s on every set-up); the first adds the README and
    four modules, later ones add the other modules and edit existing ones. Messages say
    ``refs #N`` for an issue of holdout, which Redmine links both ways."""
    repo = target.repo
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    developers = [u for u, role in MEMBERS["holdout"].items() if role != "Reporter"]
    names = {login: f"{first} {last}" for login, first, last in USERS}
    edits: dict[str, list[str]] = {}
    pending = [f"src/holdout/{f}" for f in FILES[4:]]
    readme: list[str] = []
    for i in range(COMMITS):
        if i == 0:
            touched = ["README.md", *(f"src/holdout/{f}" for f in FILES[:4])]
        else:
            added = [pending.pop(0)] if pending else []
            touched = added + rng.sample(["README.md", *edits], rng.randint(1, 2))
        what = f"{rng.choice(_VERBS)} the {' '.join(rng.sample(_WORDS, 2))}"
        for path in touched:
            note = f"{what}: {_sentence(rng, 5)}"
            target_file = repo / path
            target_file.parent.mkdir(parents=True, exist_ok=True)
            if path == "README.md":
                readme.append(note)
                target_file.write_text("# holdout\n\nHeld-out evaluation sets.\n\n" +
                                       "".join(f"- {n}\n" for n in readme))
            else:
                edits.setdefault(path, []).append(note)
                target_file.write_text(_py_text(Path(path).name, edits[path]))
        _git(repo, "add", "-A")
        ref = f", refs #{rng.choice(holdout_issues)}" if i else ""
        message = ("Initial import" if i == 0 else what) + ref + "\n\n" + \
            _sentence(rng) + " Touches " + ", ".join(touched) + ".\n"
        login = developers[0] if i == 0 else rng.choice(developers)
        stamp = EPOCH + i * 4 * DAY + rng.randrange(8 * 3600)
        _git(repo, "commit", "-q", "-m", message, author=(names[login], _mail(login)),
             date=f"@{stamp} +0000")
    assert not pending, "every module is added"
    target.commits = _git(repo, "rev-list", "--reverse", "HEAD").split()
    tree = _git(repo, "ls-tree", "-r", "-t", "--format=%(objecttype) %(path)", "HEAD")
    for line in tree.splitlines():
        kind, path = line.split(" ", 1)
        (target.directories if kind == "tree" else target.files).append(path)


def _content(target: Redmine, rng: random.Random,
             issue_projects: list[str]) -> dict[str, object]:
    """Everything the seed script writes (see the module's docstring), at fixed times."""
    users = [{"login": login, "firstname": first, "lastname": last, "mail": _mail(login),
              "created": EPOCH - 30 * DAY + k * 3600}
             for k, (login, first, last) in enumerate(USERS)]
    projects = [{"identifier": ident, "name": name, "description": description,
                 "created": EPOCH - 20 * DAY + k * 3600, "members": MEMBERS[ident]}
                for k, (ident, name, description) in enumerate(PROJECTS)]
    versions = [{"project": p, "name": name, "due": EPOCH + due * DAY, "closed": closed,
                 "description": f"{name}: {_sentence(rng, 6)}"}
                for p, name, due, closed in VERSIONS]
    issues = []
    for n, project in enumerate(issue_projects, start=1):
        members = list(MEMBERS[project])
        developers = [u for u in members if MEMBERS[project][u] != "Reporter"]
        created = EPOCH + n * 30 * 3600 + rng.randrange(3600)
        words = rng.sample(_WORDS, 3)
        subject = f"{rng.choice(_VERBS)} the {words[0]} {words[1]} of the {words[2]}"
        versions_here = [v["name"] for v in versions if v["project"] == project]
        following = f" Next in triage: #{n + 1}." if n < len(issue_projects) else ""
        start = created - created % DAY
        issue: dict[str, Any] = {
            "project": project, "subject": subject, "time": created,
            "tracker": rng.choice(("Bug", "Bug", "Feature", "Support")),
            "priority": rng.choice(("Low", "Normal", "Normal", "High", "Urgent")),
            "author": rng.choice(members),
            "assigned_to": rng.choice(developers) if rng.random() < 0.7 else None,
            "version": rng.choice(versions_here) if rng.random() < 0.6 else None,
            "start": start, "due": start + rng.randint(3, 40) * DAY,
            "description": f"{_sentence(rng, 10)} {_sentence(rng)}\n\n"
                           f"Seen with the {rng.choice(_WORDS)} "
                           f"{rng.choice(_MOODS)}.{following}",
            "journals": [],
        }
        t = created
        for _ in range(rng.choice((0, 1, 1, 2, 3))):
            t += rng.randrange(3600, 4 * DAY)
            issue["journals"].append({"author": rng.choice(members), "time": t,
                                      "notes": _sentence(rng, rng.randint(6, 12)),
                                      "status": rng.choice((None, None, "In Progress",
                                                            "Feedback"))})
        fate = rng.random()
        if fate < 0.4:
            t += rng.randrange(3600, 6 * DAY)
            issue["journals"].append({"author": issue["assigned_to"] or developers[0],
                                      "time": t, "notes": f"Done: {_sentence(rng, 6)}",
                                      "status": rng.choice(("Resolved", "Closed",
                                                            "Closed", "Rejected"))})
        issues.append(issue)
    by_project: dict[str, list[int]] = {}
    for n, p in enumerate(issue_projects, start=1):
        by_project.setdefault(p, []).append(n)
    wiki = []
    t = EPOCH + 2 * DAY
    versions_of = {(p, title): rng.choice((1, 1, 2, 2, 3))
                   for p, titles in WIKI.items() for title in titles}
    for version in range(1, 4):
        for (p, title), count in versions_of.items():
            if count < version:
                continue
            t += rng.randrange(3600, 2 * DAY)
            others = rng.sample([x for x in WIKI[p] if x != title], 2)
            paragraphs = "\n\n".join(
                f"{_sentence(rng, 12)} {_sentence(rng)} See [[{others[k % 2]}]] and "
                f"#{rng.choice(by_project[p])}." for k in range(version + 1))
            wiki.append({"project": p, "title": title, "time": t,
                         "author": rng.choice(list(MEMBERS[p])),
                         "comment": f"version {version}",
                         "text": f"h1. {title.replace('_', ' ')}\n\n{paragraphs}\n\n"
                                 f"Back to [[Wiki]].\n"})
    for k, p in enumerate(WIKI):  # each project's start page last: it lists the others
        index = "\n".join(f"* [[{title}]]" for title in WIKI[p])
        wiki.append({"project": p, "title": "Wiki", "time": t + (k + 1) * 3600,
                     "author": next(iter(MEMBERS[p])), "comment": "index",
                     "text": f"h1. {p.title()} wiki\n\n{_sentence(rng)}\n\n{index}\n"})
    news = []
    for k, (p, title) in enumerate(NEWS):
        news.append({"project": p, "title": title, "time": EPOCH + (20 + 45 * k) * DAY,
                     "author": next(iter(MEMBERS[p])), "summary": _sentence(rng, 6),
                     "description": f"{_sentence(rng, 12)}\n\n{_sentence(rng)} "
                                    f"See #{rng.choice(by_project[p])}."})
    welcome = ("Welcome to the bench Redmine: the *holdout* library and the "
               "*lighthouse* team. " + _sentence(rng))
    return {"users": users, "projects": projects, "versions": versions, "issues": issues,
            "wiki": wiki, "news": news, "welcome": welcome,
            "repository": str(target.repo / ".git"), "state": str(target.directory /
                                                                  "state.new.json")}


# Run with ``rails runner``: Redmine's default data, then the content of the JSON file
# BENCH_SPEC through Redmine's models; writes what Redmine then holds to spec["state"].
_SEED = r'''
require 'json'
spec = JSON.parse(File.read(ENV.fetch('BENCH_SPEC')))
def at(ts) Time.at(ts).utc end
Redmine::DefaultData::Loader.load('en') unless Role.where(builtin: 0).exists?
Setting.app_title = 'Bench Redmine'
Setting.welcome_text = spec['welcome']
Setting.default_language = 'en'
Setting.host_name = '127.0.0.1'
Setting.notified_events = []          # no mail to prepare while seeding
users = {}
spec['users'].each do |u|
  user = User.new(firstname: u['firstname'], lastname: u['lastname'], mail: u['mail'],
                  language: 'en')
  user.login = u['login']
  user.password = user.password_confirmation = 'bench-password-' + u['login']
  user.status = User::STATUS_ACTIVE
  user.mail_notification = 'none'
  user.save!
  user.update_columns(created_on: at(u['created']), updated_on: at(u['created']))
  users[u['login']] = user
end
roles = Role.givable.index_by(&:name)
projects = {}
spec['projects'].each do |p|
  project = Project.new(name: p['name'], identifier: p['identifier'],
                        description: p['description'], is_public: true)
  project.save!
  project.update_columns(created_on: at(p['created']), updated_on: at(p['created']))
  p['members'].each do |login, role|
    Member.create!(project: project, principal: users[login], role_ids: [roles[role].id])
  end
  projects[p['identifier']] = project
end
versions = {}
spec['versions'].each do |v|
  versions[[v['project'], v['name']]] = Version.create!(
    project: projects[v['project']], name: v['name'], description: v['description'],
    effective_date: at(v['due']).to_date, status: 'open')
end
trackers = Tracker.all.index_by(&:name)
statuses = IssueStatus.all.index_by(&:name)
priorities = IssuePriority.all.index_by(&:name)
spec['issues'].each do |s|
  project = projects[s['project']]
  User.current = users[s['author']]
  issue = Issue.new(project: project, tracker: trackers[s['tracker']],
                    author: users[s['author']], subject: s['subject'],
                    description: s['description'], priority: priorities[s['priority']],
                    status: statuses['New'], start_date: at(s['start']).to_date,
                    due_date: at(s['due']).to_date)
  issue.assigned_to = users[s['assigned_to']] if s['assigned_to']
  issue.fixed_version = versions[[s['project'], s['version']]] if s['version']
  issue.save!
  issue.update_columns(created_on: at(s['time']), updated_on: at(s['time']))
  s['journals'].each do |j|
    issue = Issue.find(issue.id)
    User.current = users[j['author']]
    issue.init_journal(users[j['author']], j['notes'])
    issue.status = statuses[j['status']] if j['status']
    issue.done_ratio = 100 if issue.status.is_closed?
    issue.save!
    issue.journals.order(:id).last.update_columns(created_on: at(j['time']))
    issue.update_columns(updated_on: at(j['time']))
    issue.update_columns(closed_on: at(j['time'])) if issue.closed?
  end
end
User.current = User.anonymous
spec['versions'].each do |v|
  versions[[v['project'], v['name']]].update_columns(status: 'closed') if v['closed']
end
spec['wiki'].each do |w|
  wiki = projects[w['project']].wiki
  page = wiki.find_page(w['title']) || WikiPage.new(wiki: wiki, title: w['title'])
  fresh = page.new_record?
  content = page.content || WikiContent.new(page: page)
  content.text = w['text']
  content.author = users[w['author']]
  content.comments = w['comment']
  page.save_with_content(content) or raise "wiki page #{w['title']} not saved"
  page = WikiPage.find(page.id)
  page.update_columns(created_on: at(w['time'])) if fresh
  page.content.update_columns(updated_on: at(w['time']))
  page.content.versions.order(:version).last.update_columns(updated_on: at(w['time']))
end
spec['news'].each do |n|
  news = News.create!(project: projects[n['project']], title: n['title'],
                      summary: n['summary'], description: n['description'],
                      author: users[n['author']])
  news.update_columns(created_on: at(n['time']))
end
repository = Repository::Git.new(project: projects['holdout'], identifier: '',
                                  url: spec['repository'], is_default: true)
repository.save!
repository.fetch_changesets
File.write(spec['state'], JSON.dump({
  users: users.values.map { |u| [u.id, u.login] }.to_h,
  projects: projects.keys,
  issues: Issue.order(:id).map { |i| [i.id, i.project.identifier] }.to_h,
  wiki: projects.map { |k, p| [k, p.wiki.pages.order(:id).map(&:title)] }.to_h,
  news: News.order(:id).map { |n| [n.id, n.project.identifier] }.to_h,
  versions: Version.order(:id).map { |v| [v.id, v.project.identifier] }.to_h,
  repository: repository.identifier_param,
  branch: repository.default_branch,
  changesets: repository.changesets.reorder(:committed_on, :id).map(&:revision),
}))
'''


def _copy_code(target: Redmine) -> None:
    """Debian's code (see the module's docstring): relative symlinks re-pointed at their
    targets, the package's instances, database.yml and Gemfile.lock left out."""
    app = target.app
    shutil.copytree(REDMINE, app, symlinks=True)
    own = {app / "instances", app / "Gemfile.lock", app / "config" / "database.yml"}
    for folder, dirs, files in os.walk(app):
        for name in dirs + files:
            path = Path(folder, name)
            if not path.is_symlink():
                continue
            path.unlink()
            if path not in own:
                path.symlink_to(os.path.realpath(REDMINE / path.relative_to(app)))
    gemfile = app / "Gemfile"
    gemfile.write_text(gemfile.read_text().replace(
        DEBIAN_GLOB, f"{app}/{{config,instances/*/config}}/database.yml"))
    (app / "Gemfile.local").write_text("# corpora/real/redmine.py: the server\ngem 'puma'\n")
    (app / "config" / "additional_environment.rb").write_text(
        "# corpora/real/redmine.py: a quieter log\nconfig.log_level = :warn\n")
    for sub in ("config", "files", "log", "tmp", "tmp/cache", "tmp/pdf", "tmp/pids"):
        (target.instance / sub).mkdir(parents=True, exist_ok=True)
    (target.instance / "config" / "database.yml").write_text(
        "# corpora/real/redmine.py\nproduction:\n  adapter: sqlite3\n"
        f"  database: {target.database}\n  timeout: 10000\n  encoding: utf8\n")
    (target.instance / "config" / "secret_key.txt").write_text(secrets.token_hex(32) + "\n")
    target.database.parent.mkdir(parents=True, exist_ok=True)


_MARKER = ".bench-redmine"


def _load(directory: Path) -> Redmine | None:
    try:
        state = json.loads((directory / "state.json").read_text())
    except (OSError, ValueError):
        return None
    if state.get("format") != FORMAT:
        return None
    return Redmine(
        directory, seed=state["seed"],
        users={int(k): v for k, v in state["users"].items()},
        projects=state["projects"],
        issues={int(k): v for k, v in state["issues"].items()},
        wiki=state["wiki"], news={int(k): v for k, v in state["news"].items()},
        versions={int(k): v for k, v in state["versions"].items()},
        repository=state["repository"], branch=state["branch"], commits=state["commits"],
        files=state["files"], directories=state["directories"])


def setup(directory: Path, *, seed: int = 7) -> Redmine:
    """A Redmine in ``directory``, content seeded from ``seed`` (see the module's
    docstring). Idempotent: a finished set-up of the same seed there is reused as is; a
    partial one (or another seed's) of this module is removed and redone; any other
    non-empty directory is refused. Takes ~10 s (2 cores)."""
    directory = directory.resolve()
    done = _load(directory)
    if done is not None and done.seed == seed:
        return done
    if directory.exists() and any(directory.iterdir()):
        if not (directory / _MARKER).is_file():
            raise FileExistsError(f"{directory} is not empty and no Redmine of this module")
        shutil.rmtree(directory)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / _MARKER).write_text("made by corpora/real/redmine.py\n")
    target = Redmine(directory, seed=seed)
    rng = random.Random(seed)
    issue_projects = ["holdout"] * (ISSUES * 3 // 5) + ["lighthouse"] * (ISSUES * 2 // 5)
    rng.shuffle(issue_projects)
    _make_repo(target, rng, [n for n, p in enumerate(issue_projects, 1) if p == "holdout"])
    _copy_code(target)
    target.run("bundle", "install", "--local", "--quiet")
    target.run("bundle", "exec", "rake", "db:migrate")
    spec = _content(target, rng, issue_projects)
    spec_file = directory / "seed.json"
    spec_file.write_text(json.dumps(spec, indent=1))
    script = directory / "seed.rb"
    script.write_text(_SEED)
    target.run("ruby", "bin/rails", "runner", str(script), BENCH_SPEC=str(spec_file))
    state_file = Path(str(spec["state"]))
    state = json.loads(state_file.read_text())
    if state["changesets"] != target.commits:
        raise RuntimeError("Redmine's changesets are not the repository's commits")
    state_file.unlink()
    state |= {"format": FORMAT, "seed": seed, "commits": target.commits,
              "files": target.files, "directories": target.directories}
    del state["changesets"]
    (directory / "state.json").write_text(json.dumps(state, indent=1))
    loaded = _load(directory)
    assert loaded is not None
    return loaded


@contextlib.contextmanager
def serve(target: Redmine, workers: int = 4) -> Iterator[str]:
    """``puma`` on a free port of 127.0.0.1 serving the instance; yields the base URL
    (ending in ``/``) once the home page answers, and stops the server's process group.
    ``workers``: concurrent requests, in two processes (Ruby runs one thread at a time in
    a process) of ``ceil(workers / 2)`` threads each."""
    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    processes = 2 if workers > 1 else 1
    threads = -(-workers // processes)
    args = ["bundle", "exec", "puma", "--bind", f"tcp://127.0.0.1:{port}",
            "--environment", "production", "--threads", f"{threads}:{threads}"]
    if processes > 1:
        args += ["--workers", str(processes)]
    with serving([*args, "config.ru"], probe=base, cwd=target.app, env=target.env(),
                 name="puma (Redmine)", start_s=120):
        yield base


def _get(url: str) -> tuple[int, str, str, bytes]:
    """Status, final URL, content type and body of a GET (an HTTP error is a status)."""
    try:
        with urllib.request.urlopen(url, timeout=60) as r:
            return r.status, r.geturl(), r.headers.get("Content-Type", ""), r.read()
    except urllib.error.HTTPError as e:
        return e.code, url, "", b""


class _Links(html.parser.HTMLParser):
    """The hrefs of a page's ``<a>``."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            href = dict(attrs).get("href")
            if href:
                self.links.append(href)


def survey(target: Redmine, base: str) -> list[str]:
    """Fetch every legit URL and alias, and return what is wrong (should be nothing): one
    that does not answer 200 HTML itself (no redirect), or a legit page that no chain of
    links between legit pages leads to from the root. Run after set-up, so a change in
    how Redmine spells its pages shows here rather than as a crawl that missed them. Also
    fills ``target.unlinked``."""
    bad: list[str] = []
    aliases = target.aliases(base)
    legit = target.legit_urls(base)
    spelling = {u: u for u in legit} | {a: u for u, names in aliases.items() for a in names}
    pages: dict[str, list[str]] = {}

    def check(url: str) -> list[str]:
        status, final, kind, body = _get(url)
        if status != 200 or final != url or not kind.startswith("text/html"):
            return [f"{url}: {status} {kind} {final}"]
        parsed = _Links()
        parsed.feed(body.decode("utf-8", "replace"))
        pages[url] = parsed.links
        wrong = []
        for alias in aliases.get(url, []):
            a_status, a_final, _, _ = _get(alias)
            if a_status != 200 or a_final != alias:
                wrong.append(f"{alias} (alias of {url}): {a_status}")
        return wrong

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        for wrong in pool.map(check, legit):
            bad += wrong
    seen, todo = {base}, [base]
    while todo:
        for href in pages.get(todo.pop(), []):
            found = spelling.get(urllib.parse.urldefrag(urllib.parse.urljoin(base, href)).url)
            if found and found not in seen:
                seen.add(found)
                todo.append(found)
    target.unlinked = {u[len(base):] for u in legit if u not in seen}
    bad += [f"{u}: linked from no legit page" for u in legit if u not in seen]
    return bad


def legit_kinds(target: Redmine, base: str) -> Counter[str]:
    """The legit URLs by kind (hubs, issues, wiki, repository files, …), for reports."""
    def kind(url: str) -> str:
        path = url[len(base):]
        if path in ("", "projects"):
            return "home and projects list"
        parts = path.split("/")
        if parts[0] == "projects" and len(parts) == 2:
            return "project overview"
        if parts[0] == "projects" and parts[2] in ("issues", "roadmap"):
            return f"project {parts[2]}"
        if "/repository" in path:
            if "/entry/" in path:
                return "repository file"
            if "/show/" in path:
                return "repository directory"
            return "changeset" if "/revisions/" in path else "repository root"
        if parts[0] == "projects" and parts[2] == "wiki":
            return "wiki page"
        return {"issues": "issue", "news": "news item", "users": "user profile",
                "versions": "version"}.get(parts[0], path)
    return Counter(kind(u) for u in target.legit_urls(base))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--dir", type=Path, help="the instance's directory (default: a "
                   "temporary one, removed afterwards); reused when already set up")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--check", action="store_true",
                   help="fetch every legit URL, report, and stop instead of serving on")
    args = p.parse_args()
    why = ensure_installed()
    if why:
        print(f"redmine: {why}", file=sys.stderr)
        return 1
    tmp = None
    if args.dir is not None:
        directory: Path = args.dir
    else:
        tmp = Path(tempfile.mkdtemp(prefix="nitpicker-redmine-"))
        directory = tmp / "redmine"
    try:
        t0 = time.monotonic()
        target = setup(directory, seed=args.seed)
        print(f"[redmine] {directory} set up in {time.monotonic() - t0:.1f} s "
              f"(Redmine {redmine_version()})", file=sys.stderr)
        with serve(target) as base:
            legit = target.legit_urls(base)
            print(f"[redmine] {base}: {len(legit)} legit URLs", file=sys.stderr)
            if args.check:
                bad = survey(target, base)
                kinds = ", ".join(f"{k} {n}" for k, n in legit_kinds(target, base).items())
                print(f"[redmine] {kinds}", file=sys.stderr)
                print("[redmine] " + ("all legit URLs answer 200 HTML and are linked" if
                                      not bad else "problems:\n  " + "\n  ".join(bad)),
                      file=sys.stderr)
                return 1 if bad else 0
            print(f"{base} ({len(legit)} legit URLs; Ctrl-C stops it)", flush=True)
            # SIGTERM too: leave through serve(), which stops puma's process group
            signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
            with contextlib.suppress(KeyboardInterrupt):
                while True:
                    time.sleep(3600)
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
