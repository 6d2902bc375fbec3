"""Which sheets, in which order, into which file — written whole or not at all.

The file appears only when every sheet is written: the workbook (or each CSV) is built
beside its destination under a hidden name and renamed into place, so a failure, Ctrl-C
or SIGTERM leaves what was there before. The archive is only read; writing over it is
refused.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from ..archive.opening import Archive, opened
from ..exceptions import InvalidArgument
from ..progress import working_on
from . import compare_sheets, finding_sheets, html_report, page_sheets, resource_sheets
from .order import QueryPattern, canonical_url, natural_key
from .table import Table
from .writers import CsvSink, Sink, XlsxSink, file_name

Builder = Callable[[Archive, bool], Table]

SHEETS: dict[str, Builder] = {
    "Summary": lambda a, _: finding_sheets.summary(a),
    "Page List": lambda a, _: page_sheets.page_list(a),
    "Links": lambda a, _: page_sheets.links(a),
    "Resources": lambda a, dedupe: resource_sheets.resources(a, dedupe=dedupe),
    "Images": lambda a, _: resource_sheets.images(a),
    "Violations": lambda a, _: finding_sheets.violations(a),
    "Discrepancies": lambda a, _: finding_sheets.discrepancies(a),
    "Referrers Relational Table": lambda a, _: page_sheets.referrers_table(a),
    "Resources Relational Table": lambda a, _: resource_sheets.resources_table(a),
}
"""Every sheet in the workbook's order: upstream's, with Summary first (the sheet a
spreadsheet program opens on)."""

SHEET_NAMES = tuple(SHEETS)
FORMATS = ("xlsx", "csv", "html")
REPORT_EVERY = 2_000


def choose_sheets(names: Sequence[str] | None) -> list[str]:
    """The sheets asked for, in the workbook's order; a name is matched without case,
    spaces or hyphens (``page-list``, ``Page List``); an unknown one is an error."""
    if not names:
        return list(SHEETS)
    plain = {_plain(n): n for n in SHEETS}
    chosen = set()
    for name in names:
        if _plain(name) not in plain:
            raise InvalidArgument(f"no sheet named {name!r}: choose from "
                                  + ", ".join(SHEETS))
        chosen.add(plain[_plain(name)])
    return [n for n in SHEETS if n in chosen]


def _plain(name: str) -> str:
    return "".join(c for c in name.lower() if c.isalnum())


def register(a: Archive) -> None:
    """The SQL functions the sheets sort and group with, on this thread's connection."""
    conn = a.connection()
    conn.create_function("np_natural", 1, natural_key, deterministic=True)
    conn.create_function("np_canonical", 1, canonical_url, deterministic=True)
    # typeshed's aggregate protocol wants finalize() -> int; SQLite takes any value
    conn.create_aggregate("np_query_pattern", 1, QueryPattern)  # type: ignore[arg-type]


def _check_output(a: Archive, out: Path, fmt: str) -> None:
    if fmt not in FORMATS:
        raise InvalidArgument(f"format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    if out.exists() and out.resolve() == a.path.resolve():
        raise InvalidArgument(f"{out} is the archive itself: write the report elsewhere")
    if fmt in ("xlsx", "html") and out.is_dir():
        raise InvalidArgument(f"{out} is a directory: give the "
                              + ("workbook's" if fmt == "xlsx" else "page's") + " file name")
    if fmt == "html" and out.suffix.lower() not in (".html", ".htm"):
        # a browser opens a file from disk by its name: report.xlsx would not open as a page
        raise InvalidArgument(f"{out.name} is not an .html file name: --format html writes "
                              "one page (e.g. -o report.html)")
    if fmt == "xlsx" and out.suffix.lower() in (".csv", ".tsv", ".txt", ".json", ".ods"):
        # an Excel workbook under another format's name opens as garbage elsewhere
        raise InvalidArgument(f"{out.name} names another format: the report is an .xlsx "
                              "workbook (--format csv writes one CSV per sheet into a "
                              "directory)")
    if fmt == "csv" and out.exists() and not out.is_dir():
        raise InvalidArgument(f"{out} is a file: --format csv writes a directory")
    if not out.parent.is_dir():
        raise InvalidArgument(f"{out.parent} does not exist: create it first")


def write_report(archive: Archive | str, out: str | os.PathLike[str], *,
                 sheets: Sequence[str] | None = None, dedupe_resources: bool = False,
                 fmt: str | None = None, compare: Archive | str | None = None
                 ) -> dict[str, Any]:
    """Write the report of ``archive`` to ``out`` (a ``.xlsx`` file, with ``fmt="csv"``
    a directory of one CSV per sheet, with ``fmt="html"`` one page; by default html when
    ``out`` ends in ``.html`` or ``.htm``, else xlsx); progress goes to the caller's
    reporter (:mod:`nitpicker_query.progress`). ``compare``: an earlier crawl — the
    sheets of what changed since (:mod:`.compare_sheets`) follow the others. Returns
    ``{output, format, sheets: [{name, rows, unit}]}`` — with ``fmt="html"`` one page
    (:mod:`.html_report`): its sections, each with its whole count in its ``unit``."""
    if fmt is None:  # a page named .html is what a user asks for by its name
        fmt = "html" if Path(os.fspath(out)).suffix.lower() in (".html", ".htm") else "xlsx"
    if fmt == "html" and sheets:
        raise InvalidArgument("--sheets chooses the workbook's or the CSV files' sheets: "
                              "the html page holds every section")
    if fmt == "html" and compare is not None:
        raise InvalidArgument("--compare writes sheets: use --format xlsx or csv "
                              "(nitpicker-query compare OLD NEW answers in a terminal)")
    names = choose_sheets(sheets)
    target = Path(os.path.abspath(os.fspath(out)))
    with opened(archive) as a, contextlib.ExitStack() as stack:
        old = stack.enter_context(opened(compare)) if compare is not None else None
        _check_output(a, target, fmt)
        if old is not None:
            _check_output(old, target, fmt)
            names += list(compare_sheets.SHEET_NAMES)
        register(a)
        staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".partial",
                                         dir=target.parent))
        try:
            if fmt == "html":
                with working_on(str(a.path)) as report:
                    sections = html_report.write(a, staging / "report.html", report)
                    report(1, 1, "done")
            else:
                written = _write(a, names, dedupe_resources, fmt, staging, old)
                sections = [{"name": n, "rows": r, "unit": "rows"} for n, r in written]
            _publish(staging, target, fmt, names)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return {"output": str(target), "format": fmt, "sheets": sections}


def _write(a: Archive, names: list[str], dedupe: bool, fmt: str,
           staging: Path, old: Archive | None = None) -> list[tuple[str, int]]:
    written: list[tuple[str, int]] = []
    sink: Sink
    if fmt == "csv":
        sink = CsvSink(staging)
    else:
        scratch = staging / "scratch"
        scratch.mkdir()
        sink = XlsxSink(staging / "report.xlsx", scratch)
    with working_on(str(a.path)) as report:
        try:
            _sheets(a, names, dedupe, sink, report, written, old)
        except BaseException:
            sink.abort()
            raise
        report(1, 1, "closing the workbook" if fmt == "xlsx" else "done")
        sink.close()
    return written


def _sheets(a: Archive, names: list[str], dedupe: bool, sink: Sink,
            report: Callable[[int, int, str], None],
            written: list[tuple[str, int]], old: Archive | None = None) -> None:
    for number, name in enumerate(names, 1):
        if name in SHEETS:
            table = SHEETS[name](a, dedupe)
        elif old is not None and name == "Changes Summary":
            table = compare_sheets.summary(a, old)
        else:
            assert old is not None
            table = compare_sheets.listing(a, old, name)
        table.rows = _reporting(table, table.rows, f"sheet {number}/{len(names)} {name}",
                                report)
        written.append((name, sink.write(table)))


def _reporting(table: Table, rows: Iterator[Sequence[Any]], label: str,
               report: Callable[[int, int, str], None]) -> Iterator[Sequence[Any]]:
    """``rows`` (``table``'s), saying how far along they are every :data:`REPORT_EVERY`
    units of work (rows, or what ``table.weight`` counts)."""
    total, unit = table.total, table.unit
    report(0, total, f"{label}: 0 of {total:,} {unit}")
    done, next_report = 0, REPORT_EVERY
    for row in rows:
        yield row
        done += table.weight(row) if table.weight else 1
        if done >= next_report:
            report(done, total, f"{label}: {done:,} of {total:,} {unit}")
            next_report = done - done % REPORT_EVERY + REPORT_EVERY


def _publish(staging: Path, target: Path, fmt: str, names: list[str]) -> None:
    """Move what was written into place: the workbook by one rename; each CSV by its own
    (the directory may hold other files of the user's, left alone)."""
    if fmt in ("xlsx", "html"):
        os.replace(staging / f"report.{fmt}", target)
        return
    target.mkdir(exist_ok=True)
    for name in names:
        os.replace(staging / file_name(name), target / file_name(name))
