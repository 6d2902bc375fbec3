"""Laying tables out in a file: an ``.xlsx`` workbook or a directory of CSV files.

The workbook is written by XlsxWriter in its constant-memory mode: each row goes to a
temporary file as soon as the next one starts, so a 300,000-page report costs the memory
of one row (docs/BENCHMARKS.md). What a spreadsheet program can do with a sheet is set
on each: the header row frozen (and the first column where it names the row), column
widths, an autofilter over every column, URLs as links, and upstream's error colours
(white on dark red) on the cells a reader should look at — conditional formats, so they
follow the cells when a user sorts.

Limits of the format, each met without losing a row: a sheet holds 1,048,576 rows — the
rest go on to ``<name> (2)``, ``(3)`` … with the same header; a cell 32,767 characters —
longer text is cut with an ellipsis; a sheet 65,530 links (the workbook twice that: see
:data:`MAX_BOOK_LINKS`) and a link 2,079 characters — past those a URL is written as
text. Every value is written as what it is (a string is
never read as a formula or a number, whatever a hostile page put in it); characters XML
cannot hold are written in Excel's ``_xHHHH_`` escape by XlsxWriter.

The CSV directory holds one RFC 4180 file per sheet (``page-list.csv`` …) with a
byte-order mark, cells written as ``nitpicker-query --format csv`` writes them (a text
that would start a formula gets a leading ``'``).
"""

from __future__ import annotations

import csv
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import xlsxwriter  # type: ignore[import-untyped]  # ships no type information
from xlsxwriter.worksheet import Worksheet  # type: ignore[import-untyped]

from .export import BOM, cell
from .table import Column, Table

MAX_ROWS = 1_048_576
MAX_CELL = 32_767
MAX_LINKS = 65_530
MAX_BOOK_LINKS = 2 * MAX_LINKS
"""Links in the whole workbook. XlsxWriter keeps every link of every sheet in memory until
the workbook is closed (about 41 MiB per 65,530 links, measured), even in constant-memory
mode: with only the per-sheet cap, each continuation sheet added its own 65,530 and a
300,000-page report's memory grew with its rows. The sheets come in the workbook's order,
so the first ones (Page List, Links) keep theirs."""
MAX_LINK_LENGTH = 2_079
MAX_INDENT = 15
_LINKABLE = re.compile(r"https?://[^\s\"<>]+", re.ASCII)


class Sink(Protocol):
    def write(self, table: Table) -> int: ...

    def close(self) -> None: ...

    def abort(self) -> None: ...


def file_name(sheet: str) -> str:
    """``Page List`` → ``page-list.csv``."""
    return re.sub(r"[^a-z0-9]+", "-", sheet.lower()).strip("-") + ".csv"


class CsvSink:
    """One CSV file per sheet in ``directory`` (which must exist)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def write(self, table: Table) -> int:
        count = 0
        with open(self.directory / file_name(table.name), "w", encoding="utf-8",
                  newline="") as f:
            f.write(BOM)
            out = csv.writer(f, lineterminator="\r\n")
            out.writerow([c.header for c in table.columns])
            for row in table.rows:
                out.writerow([_csv_cell(c, v) for c, v in zip(table.columns, row,
                                                               strict=True)])
                count += 1
        return count

    def close(self) -> None:
        return None

    def abort(self) -> None:
        return None


def _csv_cell(column: Column, value: Any) -> Any:
    if column.kind == "title" and isinstance(value, tuple):
        value = value[1]
    return cell(value)


class XlsxSink:
    """One workbook; each table a sheet (continued on further sheets past Excel's rows)."""

    def __init__(self, path: Path, tmpdir: Path) -> None:
        self.book = xlsxwriter.Workbook(str(path), {
            "constant_memory": True, "tmpdir": str(tmpdir), "strings_to_numbers": False,
            "strings_to_formulas": False, "strings_to_urls": False, "use_zip64": True,
        })
        self.book_links = 0
        self.header = self.book.add_format({"bold": True, "bg_color": "#E8EAED",
                                            "border": 1, "text_wrap": True,
                                            "valign": "top"})
        self.alert = self.book.add_format({"bg_color": "#E60000", "font_color": "#FFFFFF"})
        self.link = self.book.add_format({"font_color": "#1155CC", "underline": 1})
        self.indents = [self.book.add_format({"indent": n}) for n in range(MAX_INDENT + 1)]

    def _sheet(self, table: Table, part: int) -> Worksheet:
        name = table.name if part == 1 else f"{table.name} ({part})"
        sheet = self.book.add_worksheet(name)
        for i, column in enumerate(table.columns):
            sheet.set_column(i, i, column.width)
        sheet.set_row(0, 30)
        for i, column in enumerate(table.columns):
            sheet.write_string(0, i, column.header, self.header)
        sheet.freeze_panes(1, table.freeze_columns)
        if table.notes and part == 1:
            sheet.write_string(1, 0, table.notes[0])
        return sheet

    def _finish(self, sheet: Worksheet, table: Table, last: int) -> None:
        width = len(table.columns) - 1
        sheet.autofilter(0, 0, max(last, 0), width)
        if last < 1:
            return
        for i, column in enumerate(table.columns):
            for alert in column.alerts:
                rule: dict[str, Any] = {"type": "cell", "format": self.alert}
                if alert.op == "outside":
                    rule.update(criteria="not between", minimum=alert.value[0],
                                maximum=alert.value[1])
                else:
                    rule.update(criteria=alert.op, value=_criterion(alert.value))
                sheet.conditional_format(1, i, last, i, rule)

    def write(self, table: Table) -> int:
        part, row, links, count = 1, 0, 0, 0
        sheet = self._sheet(table, part)
        for values in table.rows:
            if row + 1 >= MAX_ROWS:
                self._finish(sheet, table, row)
                part, row, links = part + 1, 0, 0
                sheet = self._sheet(table, part)
            row += 1
            links = self._row(sheet, row, table.columns, values, links)
            count += 1
        self._finish(sheet, table, row)
        return count

    def _row(self, sheet: Worksheet, row: int, columns: Sequence[Column],
             values: Sequence[Any], links: int) -> int:
        for col, (column, value) in enumerate(zip(columns, values, strict=True)):
            if value is None or value == "":
                continue
            kind = column.kind
            if kind == "title":
                depth, text = value
                if text:
                    sheet.write_string(row, col, _fit(str(text)),
                                       self.indents[min(depth, MAX_INDENT)])
            elif isinstance(value, bool):
                sheet.write_boolean(row, col, value)
            elif isinstance(value, int | float):
                sheet.write_number(row, col, value)
            elif kind == "url" and links < MAX_LINKS and self.book_links < MAX_BOOK_LINKS \
                    and len(value) <= MAX_LINK_LENGTH \
                    and _LINKABLE.fullmatch(value):
                sheet.write_url(row, col, value, self.link, string=_fit(value))
                links += 1
                self.book_links += 1
            else:
                sheet.write_string(row, col, _fit(str(value)))
        return links

    def close(self) -> None:
        self.book.close()

    def abort(self) -> None:
        """Let go of the rows' temporary files of an unfinished workbook."""
        for sheet in self.book.worksheets():
            handle = getattr(sheet, "row_data_fh", None)
            if handle is not None and not handle.closed:
                handle.close()


def _criterion(value: Any) -> Any:
    """A conditional format's value: text quoted, as the format's formula needs it."""
    return f'"{value}"' if isinstance(value, str) else value


def _fit(text: str) -> str:
    return text if len(text) <= MAX_CELL else text[:MAX_CELL - 1] + "…"

