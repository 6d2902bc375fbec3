"""``nitpicker-query <sub-command> <archive> [options]``: the queries on the command line.

Sub-commands and their flags come from :mod:`nitpicker_query.queries.catalog`; this module only
parses, calls the query function and renders. Output: a table on a terminal, compact
JSON when piped (``--format`` chooses explicitly). Errors: one line on stderr, exit 1;
usage errors exit 2; a traceback only with ``--debug``.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import traceback
from collections.abc import Sequence
from typing import Any

from .. import __version__, progress, report
from ..archive import cache
from ..archive.opening import DEFAULT_QUERY_TIMEOUT, database_errors, open_archive
from ..exceptions import InvalidArgument, NitpickerError, NotFound
from ..progress import StderrLine
from ..queries.catalog import QUERIES, Param, QuerySpec
from ..report import export
from ..report.export import csv_chunks
from ..terminal import CliParser, escape, outlive_readers, terminal_width
from .render import FORMATS, is_list_result, render

PROG = "nitpicker-query"


def _add_param(parser: argparse.ArgumentParser, p: Param) -> None:
    help_text = p.help
    if p.default not in (None, False):
        help_text += f" Default: {p.default}."
    help_text = help_text.replace("%", "%%")  # argparse formats help with %
    if p.kind == "flag":
        parser.add_argument(p.flag, dest=p.name, action="store_true", help=help_text)
    elif p.kind == "tristate":
        parser.add_argument(p.flag, dest=p.name, action=argparse.BooleanOptionalAction,
                            default=None, help=help_text + " Absent: no filter.")
    elif p.kind == "int":
        if p.name in ("limit", "offset"):
            # absent: the query's default, or with --format csv every item
            help_text += " With --format csv: every item unless given."
        parser.add_argument(p.flag, dest=p.name, type=int,
                            default=None if p.name in ("limit", "offset") else p.default,
                            required=p.required, metavar="N", help=help_text)
    elif p.kind == "choice":
        parser.add_argument(p.flag, dest=p.name, choices=p.choices, default=p.default,
                            required=p.required, help=help_text)
    elif p.repeatable:
        parser.add_argument(p.flag, dest=p.name, action="append", default=None,
                            required=p.required,
                            metavar="URL" if p.name == "urls" else "RULE", help=help_text)
    else:
        metavar = "URL" if p.name.endswith("url") else "TEXT"
        parser.add_argument(p.flag, dest=p.name, default=p.default, required=p.required,
                            metavar=metavar, help=help_text)


def _add_output(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("output")
    group.add_argument("--format", choices=FORMATS, default=None,
                       help="json, table, jsonl (one item per line) or csv (every item of a "
                       "list, RFC 4180). Default: table on a terminal, json when piped.")
    group.add_argument("--bom", action="store_true",
                       help="csv: start with a UTF-8 byte-order mark (for spreadsheet apps).")
    group.add_argument("--pretty", action="store_true", help="Indent JSON output.")
    group.add_argument("--debug", action="store_true",
                       help="Show a traceback on unexpected errors.")
    group.add_argument("--query-timeout", type=float, default=DEFAULT_QUERY_TIMEOUT,
                       metavar="S", help="Stop a query that runs longer than S seconds "
                       f"(a hostile archive can make any query slow). Default: "
                       f"{DEFAULT_QUERY_TIMEOUT:g}.")


def build_parser() -> argparse.ArgumentParser:
    parser = CliParser(
        prog=PROG,
        description="Answer questions about a .nitpicker archive (read-only). "
        "ARCHIVE is a .nitpicker file or a crawl directory containing db.sqlite.",
        epilog="Run '%(prog)s <sub-command> --help' for its options and examples.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subs = parser.add_subparsers(dest="command", metavar="<sub-command>", required=True)
    for spec in QUERIES:
        epilog = "examples:\n" + "\n".join(f"  {e}" for e in spec.examples)
        sub = subs.add_parser(spec.command, help=spec.summary, description=spec.summary,
                              epilog=epilog, formatter_class=argparse.RawDescriptionHelpFormatter)
        for p in spec.params:
            if p.positional:
                sub.add_argument(p.name, metavar=p.flag, help=p.help)
        sub.add_argument("archive", metavar="ARCHIVE", help=".nitpicker file or crawl directory")
        for p in spec.params:
            if not p.positional:
                _add_param(sub, p)
        _add_output(sub)
        sub.set_defaults(spec=spec, parser=sub)
    cache_help = ("List or clear the extraction cache (where .nitpicker files are unpacked "
                  "once for fast re-opening; bounded by NITPICKER_PY_CACHE_MAX_SIZE).")
    sub = subs.add_parser("cache", help=cache_help, description=cache_help,
                          epilog="examples:\n  nitpicker-query cache list\n"
                          "  nitpicker-query cache clear",
                          formatter_class=argparse.RawDescriptionHelpFormatter)
    sub.add_argument("action", choices=("list", "clear"),
                     help="list: every extracted archive, least recently used first; "
                     "clear: remove those no process used in the last ten minutes "
                     "(archives themselves are never touched).")
    sub.add_argument("--all", dest="clear_all", action="store_true",
                     help="With clear: remove the ones in use too.")
    _add_output(sub)
    sub.set_defaults(spec=None, parser=sub)
    _add_report(subs)
    return parser


REPORT_HELP = ("Write the archive as a workbook of upstream's report sheets (Summary, Page "
               "List, Links, Resources, Images, Violations, Discrepancies, Referrers and "
               "Resources Relational Tables), with --format csv a directory of one CSV "
               "per sheet, or with --format html one self-contained page to send a client "
               "(the summary and the first rows of each kind of issue; opens from file:// "
               "with no network). Read-only: the archive is never changed.")


def _add_report(subs: Any) -> None:
    sub = subs.add_parser(
        "report", help=REPORT_HELP, description=REPORT_HELP,
        epilog="examples:\n  nitpicker-query report site.nitpicker -o site.xlsx\n"
        "  nitpicker-query report site.nitpicker -o site.xlsx --sheets 'Page List,Links'"
        "\n  nitpicker-query report site.nitpicker -o site-csv --format csv "
        "--dedupe-resources"
        "\n  nitpicker-query report site.nitpicker -o changes.xlsx --compare last-week.nitpicker"
        "\n  nitpicker-query report site.nitpicker -o site.html",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sub.add_argument("archive", metavar="ARCHIVE", help=".nitpicker file or crawl directory")
    sub.add_argument("-o", "--output", required=True, metavar="PATH",
                     help="The workbook to write (replaced if it exists), with --format "
                     "csv the directory (created if missing; its other files are left), "
                     "with --format html the .html file.")
    sub.add_argument("--format", choices=report.FORMATS, default=None,
                     help="xlsx, csv or html. Default: html when PATH ends in .html or "
                     ".htm, else xlsx.")
    sub.add_argument("--sheets", metavar="NAMES",
                     help="Comma-separated sheets to write, of: "
                     + ", ".join(report.SHEET_NAMES) + ". Default: all.")
    sub.add_argument("--compare", metavar="OLD",
                     help="An earlier crawl of the site (.nitpicker file or crawl "
                     "directory): sheets of what changed since then follow the others "
                     "(Changes Summary, Changed, Added, Removed, Not Comparable, Broken Link "
                     "Changes, Cluster Changes; nitpicker-query compare --help).")
    sub.add_argument("--dedupe-resources", action="store_true",
                     help="Resources: one row per URL without its query values, with Count "
                     "and Query Pattern (key=N distinct values, 100+ past a hundred).")
    sub.add_argument("--query-timeout", type=float, default=DEFAULT_QUERY_TIMEOUT,
                     metavar="S", help="Stop when one step of reading takes longer than S "
                     f"seconds. Default: {DEFAULT_QUERY_TIMEOUT:g}.")
    sub.add_argument("--debug", action="store_true",
                     help="Show a traceback on unexpected errors.")
    sub.set_defaults(spec=None, parser=sub, report=True)


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP during a report: stopped as Ctrl-C stops it, nothing written."""


SIGNALLED: list[int] = []
"""The signal that stopped a report, if one did: raised inside a SQLite callback it
surfaces as a database error, which is then reported as the interruption it was."""


def _terminated(signum: int, frame: object) -> None:
    SIGNALLED.append(signum)
    raise Terminated(signum)


def run_report(args: argparse.Namespace) -> None:
    """Write the report; say what was written, one line per sheet, on stdout. SIGTERM
    and SIGHUP stop it as Ctrl-C does (the half-written file is removed)."""
    names = [n.strip() for n in args.sheets.split(",") if n.strip()] if args.sheets \
        else None
    previous = {s: signal.signal(s, _terminated) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        with open_archive(args.archive, query_timeout=args.query_timeout) as archive, \
                database_errors(archive):
            result = report.write_report(archive, args.output, sheets=names,
                                         dedupe_resources=args.dedupe_resources,
                                         fmt=args.format, compare=args.compare)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    print(f"wrote {escape(result['output'])}")
    for sheet in result["sheets"]:
        print(f"  {sheet['name']}: {sheet['rows']:,} {sheet['unit']}")


CACHE_SPEC = QuerySpec("cache", "cache", cache.report, "", (), is_list=True,
                       table_columns=("source", "sizeBytes", "lastUsedAt"))
"""How the ``cache`` sub-command renders (it is not a query over an archive)."""


def _table_width() -> int:
    """The terminal's width; piped into a file (and no ``$COLUMNS``), no limit at all."""
    if sys.stdout.isatty() or os.environ.get("COLUMNS", "").isdigit():
        return terminal_width(sys.stdout)
    return 1_000_000


def check_ranges(parser: argparse.ArgumentParser, spec: QuerySpec,
                 args: argparse.Namespace) -> None:
    """Out-of-range values are usage errors naming the flag (exit 2), before any work."""
    for p in spec.params:
        value = getattr(args, p.name, None)
        if p.kind == "str" and isinstance(value, str) and len(value) > p.max_length:
            parser.error(f"{p.flag} must be at most {p.max_length} characters, got "
                         f"{len(value)}")
        if p.kind != "int" or value is None:
            continue
        low, high = p.minimum, p.maximum
        if (low is not None and value < low) or (high is not None and value > high):
            if low is not None and high is not None:
                bound = f"between {low} and {high}"
            else:
                bound = f"at least {low}" if low is not None else f"at most {high}"
            parser.error(f"{p.flag} must be {bound}, got {value}")


def run(spec: QuerySpec, args: argparse.Namespace) -> Any:
    """Open the archive, call the query with the parsed options, map None to NotFound."""
    options = {p.name: getattr(args, p.name) for p in spec.params
               if getattr(args, p.name) is not None}
    with open_archive(args.archive, query_timeout=args.query_timeout) as archive, \
            database_errors(archive):
        result = spec.function(archive, **options)
    if result is None and spec.not_found:
        raise NotFound(spec.missing(options, "cli"))
    return result


def export_csv(spec: QuerySpec, args: argparse.Namespace) -> None:
    """The whole result as CSV, streamed a page at a time (``--limit``/``--offset`` cut it
    when given)."""
    options = {p.name: getattr(args, p.name) for p in spec.params
               if getattr(args, p.name) is not None and p.name not in ("limit", "offset")}
    with open_archive(args.archive, query_timeout=args.query_timeout) as archive, \
            database_errors(archive):
        missing = spec.missing(options, "cli")
        rows = export.items(spec.function, archive, options, offset=args.offset or 0,
                            most=args.limit, not_found=missing)
        for chunk in csv_chunks(rows, columns=spec.columns(options), bom=args.bom):
            sys.stdout.write(chunk)
    sys.stdout.flush()


def main(argv: Sequence[str] | None = None) -> int:
    outlive_readers(stop=True)   # `nitpicker-query pages … | head` ends quietly
    parser = build_parser()
    args = parser.parse_args(argv)
    spec: QuerySpec | None = args.spec
    if spec is not None or getattr(args, "report", False):
        if spec is not None:
            check_ranges(args.parser, spec, args)
        if not 0 < args.query_timeout < float("inf"):
            args.parser.error(f"--query-timeout must be more than 0 seconds, got "
                              f"{args.query_timeout}")
    # the long work: the queries that may take long (templates computed from the stored
    # HTML, a comparison's first build, a search of every snapshot) and the report
    label = ("report" if getattr(args, "report", False)
             else "templates" if spec is not None and spec.command.startswith("template")
             else spec.command if spec is not None else "templates")
    line = StderrLine(sys.stderr, label)
    try:
        with progress.reporting(line):
            if getattr(args, "report", False):
                run_report(args)
                line.end()
                return 0
            if spec is None:
                result = cache.report(args.action, everything=args.clear_all)
                spec = CACHE_SPEC
            elif args.format == "csv" and spec.is_list:
                export_csv(spec, args)
                return 0
            else:
                result = run(spec, args)
            line.end()
            fmt = args.format or ("table" if sys.stdout.isatty() else "json")
            if fmt == "csv":
                if not is_list_result(result):
                    raise InvalidArgument(f"{spec.command} returns one object, not a list: "
                                          "use --format json or table")
                for chunk in csv_chunks(iter(result["items"]), columns=spec.columns(
                        vars(args)), bom=args.bom):
                    sys.stdout.write(chunk)
                sys.stdout.flush()
                return 0
            limit_flag = next((p.flag for p in spec.params if p.name.endswith("_limit")), None)
            render(result, fmt, sys.stdout, pretty=args.pretty, columns=spec.columns(vars(args)),
                   width=_table_width(), text_field=spec.text_field,
                   limit_flag=limit_flag)
            sys.stdout.flush()
    except NitpickerError as exc:
        line.end()
        if SIGNALLED:
            print(f"{PROG}: interrupted", file=sys.stderr)
            return 128 + SIGNALLED[0]
        print(f"{PROG}: error: {escape(str(exc))}", file=sys.stderr)
        return 2 if isinstance(exc, InvalidArgument) else 1   # a wrong argument: usage
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt as exc:
        line.end()
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 128 + exc.args[0] if isinstance(exc, Terminated) else 130
    except Exception as exc:
        if args.debug:
            traceback.print_exc()
        print(f"{PROG}: internal error ({type(exc).__name__}: {escape(str(exc))[:500]}); "
              "this is a bug — rerun "
              "with --debug and report the traceback.", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
