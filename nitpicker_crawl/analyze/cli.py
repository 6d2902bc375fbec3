"""``nitpicker-crawl analyze ARCHIVE``: the command line of :mod:`nitpicker_crawl.analyze`."""

from __future__ import annotations

import argparse
import os
import shlex
import signal
import sys
import time
from collections.abc import Sequence

from nitpicker_query import NitpickerError
from nitpicker_query.progress import Progress, StderrLine
from nitpicker_query.queries.totals import plural
from nitpicker_query.terminal import CliParser, escape, fit

from . import run as runner
from .axe import DEFAULT_TAGS, AxePlugin
from .keywords import KeywordsPlugin
from .lighthouse import LighthousePlugin
from .plugin import Plugin
from .text import TextPlugin
from .vnu import VnuPlugin
from .workspace import open_workspace

PROG = "nitpicker-crawl analyze"
NAMES = ("axe", "vnu", "text", "search-keywords", "lighthouse")
DEFAULT = ("axe", "vnu", "text")

DESCRIPTION = """\
Run analyze plugins over the pages stored in an archive and write their findings into
it (upstream's analysis_violations table; read them with nitpicker-query violations,
the MCP tool get_violations or the viewer's Violations view).

plugins:
  axe              accessibility: axe-core's WCAG A/AA rules, in Chromium
  vnu              HTML conformance: the Nu Html Checker (npm vnu-jar, Java)
  text             ja full/half-width, doubled punctuation; en doubled words
  search-keywords  pages with each of --search-keywords: count and context
  lighthouse       category scores measured on the LIVE site (only when named)

A .nitpicker file is rewritten atomically when every plugin is done; until then the
work is kept in .<name>.analyze/ beside it, and a second run (after Ctrl-C, SIGTERM, a
crash) continues where the first stopped. Pages a plugin has already done are skipped;
--force does them again. A plugin whose tool is missing says how to install it.
"""


def build_parser() -> CliParser:
    parser = CliParser(prog=PROG, description=DESCRIPTION,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("archive", metavar="ARCHIVE",
                        help="a .nitpicker file or a crawl directory (format 0.10)")
    parser.add_argument("--plugin", action="append", choices=NAMES, metavar="NAME",
                        help="run this plugin (repeatable): " + ", ".join(NAMES))
    parser.add_argument("--all", action="store_true",
                        help="every plugin but lighthouse (the default when no --plugin "
                             "is given); search-keywords only with --search-keywords")
    parser.add_argument("--force", action="store_true",
                        help="analyse every page again, replacing the plugin's findings")
    parser.add_argument("--axe-lang", metavar="LANG",
                        help="language of axe's messages, e.g. ja (needs npm axe-core)")
    parser.add_argument("--axe-tags", metavar="TAGS", default=",".join(DEFAULT_TAGS),
                        help="axe rule tags, comma-separated (default: %(default)s)")
    parser.add_argument("--search-keywords", metavar="A,B",
                        help="keywords for the search-keywords plugin, comma-separated")
    parser.add_argument("--silent", action="store_true", help="no progress line")
    return parser


def _plugins(parser: CliParser, args: argparse.Namespace) -> list[Plugin]:
    named: list[str] = list(args.plugin or [])
    keywords = [k for k in (args.search_keywords or "").split(",") if k.strip()]
    if "search-keywords" in named and not keywords:
        parser.error("--plugin search-keywords needs --search-keywords a,b")
    if args.search_keywords is not None and not keywords:
        parser.error("--search-keywords: give at least one keyword, e.g. --search-keywords "
                     "price,contact")
    if args.all or not named:   # --all adds to what is named: --all --plugin lighthouse
        named = list(DEFAULT) + (["search-keywords"] if keywords else []) + named
    tags = tuple(t.strip() for t in args.axe_tags.split(",") if t.strip())
    if not tags:
        parser.error("--axe-tags: give at least one tag, e.g. wcag2a,wcag2aa")
    made: dict[str, Plugin] = {
        "axe": AxePlugin(lang=args.axe_lang, tags=tags),
        "vnu": VnuPlugin(),
        "text": TextPlugin(),
        "search-keywords": KeywordsPlugin(keywords),
        "lighthouse": LighthousePlugin(),
    }
    return [made[name] for name in dict.fromkeys(named)]


def main(argv: Sequence[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    plugins = _plugins(parser, args)
    explicit = bool(args.plugin)
    started = time.monotonic()
    line = None if args.silent else StderrLine(sys.stderr, "analyze")

    def say(done: int, total: int, message: str) -> None:
        if line is not None:
            line(Progress(done, total, message))

    try:
        ws = open_workspace(args.archive)
    except NitpickerError as exc:
        print(f"{PROG}: error: {escape(str(exc))}", file=sys.stderr)
        return 1
    except OSError as exc:  # the disk, not the archive: say what failed, where
        print(f"{PROG}: error: cannot prepare {escape(os.path.basename(args.archive))}: "
              f"{escape(exc.strerror or str(exc))}; nothing was changed", file=sys.stderr)
        return 1
    shown = shlex.quote(os.path.relpath(ws.path))
    if ws.resumed:
        print(f"{PROG}: continuing the unfinished run kept in "
              f"{escape(os.path.relpath(ws.sidecar or ws.path))}", file=sys.stderr)
    try:
        outcome = runner.run(ws, plugins, force=args.force, say=say)
    except BaseException:
        ws.suspend()
        raise
    if line is not None:
        line.end()
    changed = any(r.analysed for r in outcome.runs) or args.force or ws.resumed
    if outcome.signal is not None:
        ws.suspend()
        name = signal.Signals(outcome.signal).name
        if ws.sidecar is not None:
            print(f"{PROG}: interrupted ({name}); {shown} is unchanged, the pages done so "
                  "far are kept beside it; run the same command again to continue",
                  file=sys.stderr)
        else:
            print(f"{PROG}: interrupted ({name}); the pages done so far are committed in "
                  f"{shown}; run the same command again to continue", file=sys.stderr)
        _tell(outcome.runs)
        return 128 + outcome.signal
    if changed:
        if ws.sidecar is not None and line is not None:
            line(Progress(0, 0, f"writing {os.path.relpath(ws.path)}"))
        try:
            ws.finish()
        except KeyboardInterrupt:
            print(f"{PROG}: interrupted while writing; {shown} is unchanged and the work is "
                  "kept: run again to finish", file=sys.stderr)
            return 130
        except OSError as exc:  # the disk: full, read-only; the work stays for a re-run
            print(f"{PROG}: error: cannot write {shown}: {exc.strerror or exc}; it is "
                  "unchanged and the work is kept: run again to finish", file=sys.stderr)
            return 1
        finally:
            if line is not None:
                line.end()
    else:
        ws.discard()
    _tell(outcome.runs)
    elapsed = time.monotonic() - started
    print(f"{PROG}: done in {elapsed:.1f} s → {shown} (nitpicker-query violations {shown})",
          file=sys.stderr)
    unavailable = [r for r in outcome.runs if r.unavailable]
    if len(unavailable) == len(outcome.runs) or (explicit and unavailable):
        return 1
    return 0


def _tell(runs: list[runner.PluginRun]) -> None:
    for r in runs:
        if r.unavailable:
            print(f"{PROG}: {r.name}: skipped: {escape(r.unavailable)}", file=sys.stderr)
            continue
        said = (f"{r.name} ({escape(r.identity)}): {plural(r.analysed, 'page')} analysed, "
                f"{plural(r.findings, 'finding')}")
        if r.before:
            said += f"; {plural(r.before, 'page')} already done by an earlier run, skipped"
        print(f"{PROG}: {said}", file=sys.stderr)
        if r.failed:
            url, reason = r.failed[0]
            print(f"{PROG}: {r.name}: {plural(len(r.failed), 'page')} could not be analysed "
                  f"(tried again next run); first: {escape(fit(url, 200))}: "
                  f"{escape(fit(reason, 300))}", file=sys.stderr)
