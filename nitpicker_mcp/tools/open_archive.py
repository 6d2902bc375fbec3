"""Tool ``open_archive``: for hosts used to upstream's open-then-query flow."""

from __future__ import annotations

from typing import Any

from nitpicker_query import Archive, get_summary

from ..schema import INT, NINT, STR, object_output
from ._base import ToolDef, prose


def _run(archive: Archive, options: dict[str, Any]) -> dict[str, Any]:
    return {
        "archive": archive.path.name,
        "mode": archive.mode,
        "crawlerPid": archive.crawler_pid,
        "formatVersion": archive.version,
        **get_summary(archive),
    }


TOOL = ToolDef(
    name="open_archive",
    title="Open an archive",
    description=prose("""Check that an archive can be read and get its overview in one
    call: mode (archive file or live/interrupted crawl directory), crawlerPid (a crawler
    still writing it, else null), formatVersion, and the same fields as get_summary.
    Archives are addressed by path in every tool, so opening first is optional; it is
    kept for hosts used to upstream nitpicker's open_archive."""),
    output_schema=object_output(["archive", "mode", "formatVersion", "totalPages"],
                                {"archive": STR, "mode": STR, "crawlerPid": NINT,
                                 "formatVersion": STR, "totalPages": INT}),
    run=_run,
)
