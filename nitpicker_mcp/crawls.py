"""Crawls an assistant starts, follows and stops (``nitpicker-mcp --allow-crawl DIR``).

Off unless the server is started with ``--allow-crawl DIR``: then three tools more —
``start_crawl``, ``crawl_status``, ``stop_crawl`` — and nothing else changes (every other
tool stays read-only). A crawl is ``nitpicker-crawl`` itself, run as a user runs it, so
its limits, defaults and checks are the command line's, the soft cap on by default:

- it writes only ``DIR/<name>.nitpicker`` (and the crawler's working directory and lock
  beside it) and its log, ``DIR/<name>.crawl.log`` — a name is a plain file name, never
  a path;
- it runs in a session of its own: a client that disconnects, or a server that ends,
  leaves it running to its end, and a later server finds it again by its name (its
  state is its files: the log, the lock, the archive);
- ``stop_crawl`` is Ctrl-C: the crawler stops fetching, writes the archive and says how
  to resume.

``crawl_status`` reads the log, not the archive under way: the last progress line's
figures (URLs done, found, remaining), the soft cap's events so far, and the crawler's
final line once it has ended.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from nitpicker_query.exceptions import InvalidArgument, NotFound

CRAWLER = str(Path(sys.executable).with_name("nitpicker-crawl"))
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,79}")
LOG_TAIL = 256 * 1024
"""Bytes of a crawl's log read for its status (a long crawl's log grows)."""
MAX_EVENTS = 50
MAX_RUNNING = 2
"""Crawls one server runs at once (each may drive a Chromium): a third is refused."""
STOP_WAIT = 120.0
"""Seconds stop_crawl waits for the crawler to write its archive."""
MAX_FOLLOW = 600
"""Most seconds crawl_status follows a crawl before it answers (its ``wait``): a host's
request timeout is the real bound; the crawl itself goes on either way."""
FOLLOW_STEP = 1.0
"""Seconds between two readings of a followed crawl's log."""
_DONE = re.compile(r"nitpicker-crawl: (?:done: |interrupted \(\w+\); )([\d,]+) URLs? "
                   r"\(([\d,]+) HTML pages?\)")
_REFUSED = re.compile(r"([\d,]+) URLs refused in the archive")
_PROGRESS = re.compile(r"Crawling: (\d+)\((\d+)\) done / (\d+) found URLs.*?"
                       r"\[(\d+) remaining\](?:.*?\[(\d+) dedupe-capped\])?")


@dataclass
class Crawl:
    name: str
    archive: Path
    log: Path
    process: subprocess.Popen[bytes] | None = None
    command: list[str] = field(default_factory=list)


def _flag(name: str) -> str:
    return "--" + re.sub(r"(?<!^)([A-Z])", r"-\1", name).lower()


OPTIONS: dict[str, tuple[str, dict[str, Any]]] = {
    # argument → (kind, JSON schema); each becomes the crawler's flag of the same name
    "dedupeCap": ("int", {"type": "integer", "minimum": 1, "maximum": 1_000_000,
                          "default": 100, "description": "The soft cap: pages of one URL "
                          "shape before the shape is suspected a trap (on by default)."}),
    "render": ("bool", {"type": "boolean", "default": True, "description": "Render pages "
                        "in Chromium (false: --no-render, much faster, no JavaScript)."}),
    "maxPages": ("int", {"type": "integer", "minimum": 1, "maximum": 10_000_000,
                         "description": "Stop after this many URLs of the site."}),
    "parallels": ("int", {"type": "integer", "minimum": 1, "maximum": 32, "default": 4,
                          "description": "Pages fetched at once."}),
    "interval": ("int", {"type": "integer", "minimum": 0, "maximum": 600_000,
                         "description": "Milliseconds between two requests to the site."}),
    "exclude": ("list", {"type": "array", "items": {"type": "string", "maxLength": 1000},
                         "maxItems": 100, "description": "Path globs to skip "
                         "(/search, /tag/**)."}),
    "excludePattern": ("list", {"type": "array", "items": {"type": "string",
                                                           "maxLength": 1000},
                                "maxItems": 100, "description": "Regexes on the whole URL "
                                "to skip."}),
    "ignoreRobots": ("bool", {"type": "boolean", "default": False, "description": "Do not "
                              "honour robots.txt (only for a site you own)."}),
    "overwrite": ("bool", {"type": "boolean", "default": False, "description": "Replace "
                           "an archive of that name (refused otherwise)."}),
}


class CrawlManager:
    """The crawls of one directory, by name."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.crawls: dict[str, Crawl] = {}

    def _named(self, name: Any) -> Crawl:
        if not isinstance(name, str) or not NAME.fullmatch(name):
            raise InvalidArgument("name: letters, digits, '.', '_' and '-', at most 80, "
                                  f"not starting with a dot or a dash; got {str(name)[:100]!r}.")
        name = name.removesuffix(".nitpicker")
        return self.crawls.get(name) or Crawl(
            name, self.directory / f"{name}.nitpicker", self.directory / f"{name}.crawl.log")

    def start(self, arguments: dict[str, Any]) -> dict[str, Any]:
        crawl = self._named(arguments.get("name"))
        url = str(arguments.get("url") or "")
        if not re.match(r"https?://[^\s/]+", url, re.IGNORECASE):
            raise InvalidArgument(f"url: an http(s) URL to crawl, got {url[:200]!r}.")
        if self._running(crawl):
            raise InvalidArgument(f"A crawl named {crawl.name!r} is running: crawl_status "
                                  "follows it, stop_crawl stops it.")
        running = [c.name for c in self.crawls.values() if self._running(c)]
        if len(running) >= MAX_RUNNING:
            raise InvalidArgument(f"{len(running)} crawls are running ({', '.join(running)}): "
                                  "wait for one to end or stop it with stop_crawl.")
        if crawl.archive.exists() and not arguments.get("overwrite"):
            raise InvalidArgument(f"{crawl.archive.name} exists: choose another name, or "
                                  "overwrite true to replace it.")
        command = [CRAWLER, f"--output={crawl.archive}"]
        for key, (kind, schema) in OPTIONS.items():
            value = arguments.get(key, schema.get("default"))
            if value is None or (kind == "bool" and value is False and key != "render"):
                continue
            if kind == "bool":
                command.append(_flag(key) if value else "--no-" + key.lower())
            elif kind == "list":   # --flag=value: a value starting with - stays a value
                command += [f"{_flag(key)}={item}" for item in value]
            else:
                command.append(f"{_flag(key)}={value}")
        command += ["--", url]   # the URL last, after --: never read as an option
        with open(crawl.log, "wb") as log:
            crawl.process = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                cwd=self.directory, start_new_session=True)
        crawl.command = command
        self.crawls[crawl.name] = crawl
        return {"name": crawl.name, "archive": crawl.archive.name, "state": "running",
                "pid": crawl.process.pid,
                "command": " ".join(["nitpicker-crawl", *command[1:]])}

    @staticmethod
    def _running(crawl: Crawl) -> bool:
        return crawl.process is not None and crawl.process.poll() is None

    def status(self, name: Any) -> dict[str, Any]:
        crawl = self._named(name)
        if crawl.process is None and not crawl.log.exists():
            raise NotFound(f"No crawl named {crawl.name!r} in this directory (start_crawl "
                           "starts one).")
        lines = _tail(crawl.log)
        state, code = self._state(crawl)
        out: dict[str, Any] = {"name": crawl.name, "archive": crawl.archive.name,
                               "state": state, "exitCode": code,
                               "archiveWritten": crawl.archive.exists() and state != "running"}
        progress = next((m for m in map(_PROGRESS.search, reversed(lines)) if m), None)
        if progress is not None:
            done, pages, found, left, capped = progress.groups()
            out.update(urlsDone=int(done), htmlPagesDone=int(pages), urlsFound=int(found),
                       remaining=int(left), refusedByCap=int(capped or 0))
        # once ended, the crawler's last words are the archive's own counts (the progress
        # line counts refusals as they happen, a URL refused twice twice)
        for line in reversed(lines):
            done = _DONE.search(line)
            if done is not None:
                out.update(urlsDone=_int(done.group(1)), htmlPagesDone=_int(done.group(2)))
                refused = _REFUSED.search(line)
                out["refusedByCap"] = _int(refused.group(1)) if refused else 0
                break
        events = [line.removeprefix("[dedupe-cap] ") for line in lines
                  if line.startswith("[dedupe-cap] ")]
        out["capEvents"] = events[-MAX_EVENTS:]
        out["capEventsTotal"] = len(events)
        final = [line for line in lines if line.startswith("nitpicker-crawl: ")]
        out["lastLines"] = (final or lines)[-3:]
        return out

    def _state(self, crawl: Crawl) -> tuple[str, int | None]:
        if crawl.process is not None:
            code = crawl.process.poll()
            if code is None:
                return "running", None
            return ("finished" if code == 0 else "stopped" if code in (130, 143)
                    else "failed"), code
        # started by an earlier server: its lock says whether a crawler still writes
        lock = crawl.archive.with_name(f"._nitpicker-{crawl.name}.lock")
        if lock.exists():
            return "running", None
        return ("finished" if crawl.archive.exists() else "failed"), None

    def stop(self, name: Any) -> dict[str, Any]:
        crawl = self._named(name)
        if not self._running(crawl):
            return self.status(name)
        assert crawl.process is not None
        crawl.process.send_signal(signal.SIGINT)   # Ctrl-C: write the archive, resumable
        deadline = time.monotonic() + STOP_WAIT
        while crawl.process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        return self.status(name)

    def close(self) -> None:
        """Nothing to do: crawls outlive the server by design (their own session)."""


def _int(text: str) -> int:
    return int(text.replace(",", ""))


def _tail(path: Path) -> list[str]:
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - LOG_TAIL))
            data = f.read()
    except OSError:
        return []
    text = data.decode("utf-8", "replace").replace("\r", "\n")
    return [line.strip() for line in text.split("\n") if line.strip()]


def schemas() -> dict[str, dict[str, Any]]:
    """Each crawl tool's input schema."""
    name = {"type": "string", "maxLength": 100, "description": "The crawl's name: its "
            "archive is <name>.nitpicker in the crawl directory."}
    start = {"type": "object", "additionalProperties": False, "required": ["url", "name"],
             "properties": {"url": {"type": "string", "maxLength": 8000,
                                    "description": "The start URL (its host is the scope)."},
                            "name": name, **{k: s for k, (_kind, s) in OPTIONS.items()}}}
    one = {"type": "object", "additionalProperties": False, "required": ["name"],
           "properties": {"name": name}}
    follow = {**one, "properties": {
        "name": name, "wait": {"type": "integer", "minimum": 0, "maximum": MAX_FOLLOW,
                               "default": 0, "description": "Seconds to follow a running "
                               "crawl before answering: the answer comes when it ends or "
                               "the time is up, with progress notifications meanwhile when "
                               "the call asks for them (0: answer at once)."}}}
    return {"start_crawl": start, "crawl_status": follow, "stop_crawl": one}


def progress_of(status: dict[str, Any]) -> tuple[int, int | None, str]:
    """A status as MCP progress: URLs done, the total (URLs found so far while it runs: a
    total that grows as links are found; once ended, the archive's own count, which the
    crawler's last line gives), and those figures in words."""
    done = int(status.get("urlsDone") or 0)
    refused = int(status.get("refusedByCap") or 0)
    capped = [f"{refused:,} refused by the soft cap"] if refused else []
    if status["state"] != "running":
        return done, done, ", ".join([f"{status['state']}: {done:,} URLs in the archive",
                                      *capped])
    found = status.get("urlsFound")
    words = [f"running: {done:,} URLs done"]
    if found is not None:
        words.append(f"{int(found):,} found, {int(status.get('remaining') or 0):,} remaining")
    return done, None if found is None else max(int(found), done), ", ".join(words + capped)
