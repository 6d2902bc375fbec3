"""``nitpicker-query report``: the archive as a workbook of upstream's sheets (Page
List, Links, Resources, Images, Violations, Discrepancies, Summary and the two relational
tables), or a directory of CSV files — the offline equivalent of upstream's Google Sheets
report, opened in the same spreadsheet programs. docs/report.md says what each sheet
holds."""

from .build import FORMATS, SHEET_NAMES, write_report

__all__ = ["FORMATS", "SHEET_NAMES", "write_report"]
