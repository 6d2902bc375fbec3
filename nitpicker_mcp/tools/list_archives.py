"""Tool ``list_archives``: what can be opened under the allowed roots."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from nitpicker_query import NitpickerError
from nitpicker_query.archive import locks
from nitpicker_query.archive.opening import database_errors
from nitpicker_query.format.v010 import NOT_SKIPPED, loose_page
from nitpicker_query.queries.catalog import Param, QuerySpec
from nitpicker_query.queries.paging import MAX_LIMIT, check_paging, envelope

from ..registry import ArchiveRegistry
from ..roots import check_allowed, within
from ..schema import STR, item, list_output
from ._base import ToolDef, prose

MAX_DEPTH = 3  # directory levels searched below each root
MAX_FOUND = 200


def _openable(path: Path, roots: list[Path]) -> bool:
    """Only what a tool would open: inside the roots once resolved, and a regular file
    (an archive, or a crawl directory's ``db.sqlite``) — a FIFO named ``x.nitpicker``
    would block the reader for ever."""
    try:
        check_allowed(str(path), roots)
        target = path / "db.sqlite" if path.is_dir() else path
        return stat.S_ISREG(os.stat(target).st_mode)
    except (NitpickerError, OSError):
        return False


def candidates(root: Path) -> list[Path]:
    found: list[Path] = []
    base_depth = len(root.parts)
    for dirpath, dirnames, filenames in os.walk(root):
        here = Path(dirpath)
        if "db.sqlite" in filenames and here != root:
            found.append(here)
            dirnames[:] = []
            continue
        found.extend(here / f for f in filenames if f.endswith(".nitpicker"))
        if len(here.parts) - base_depth >= MAX_DEPTH:
            dirnames[:] = []
        dirnames[:] = [d for d in dirnames if not d.endswith(".lock") and d != ".git"]
        if len(found) >= MAX_FOUND:
            break
    return found


def describe(path: Path, registry: ArchiveRegistry,
             allowed: Callable[[Path], bool]) -> dict[str, Any]:
    """One archive's line: base URL, page count, version, live crawl — or why it fails."""
    entry: dict[str, Any] = {"archive": str(path), "kind": "directory" if path.is_dir()
                             else "file", "baseUrl": None, "pages": None,
                             "formatVersion": None, "liveCrawl": False, "error": None}
    if path.is_dir():
        holder = locks.probe(path)
        entry["liveCrawl"] = bool(holder and holder.alive)
    try:
        with registry.using(path, allowed) as archive, database_errors(archive):
            entry["baseUrl"] = archive.base_url
            entry["formatVersion"] = archive.version
            entry["pages"] = archive.count(
                f"SELECT count(*) FROM pages WHERE {loose_page('pages')} AND {NOT_SKIPPED}")
    except NitpickerError as exc:
        entry["error"] = str(exc)
    except OSError as exc:  # one unreadable archive is one item, not a failed listing
        entry["error"] = f"Cannot read {path.name}: {exc.strerror or exc}"
    return entry


def _run(target: tuple[list[Path], ArchiveRegistry], options: dict[str, Any]
         ) -> dict[str, Any]:
    roots, registry = target
    limit, offset = check_paging(options.get("limit", 100), options.get("offset", 0))
    paths: set[Path] = set()
    for root in roots:
        paths.update(p for p in candidates(root) if _openable(p, roots))
    ordered = sorted(paths, key=str)
    allowed = within(roots)
    items = [describe(path, registry, allowed) for path in ordered[offset:offset + limit]]
    return {"roots": [str(r) for r in roots],
            **envelope(items, len(ordered), limit, offset)}


TOOL = ToolDef(
    name="list_archives",
    title="List archives",
    description=prose("""Which crawl archives can be queried? Lists the .nitpicker files
    and crawl directories (a running or interrupted crawl) found up to three folder
    levels below the allowed locations, with baseUrl (the crawled site), pages (number of
    pages), formatVersion, liveCrawl (a crawler is still writing it) and error (why it
    cannot be read). Pass an item's archive path to the other tools."""),
    output_schema=list_output(
        item(["archive", "kind", "baseUrl", "pages", "formatVersion", "liveCrawl", "error"]),
        roots={"type": "array", "items": STR},
    ),
    run=_run,
    spec=QuerySpec("list_archives", "list-archives", _run, "", (
        Param("limit", "int", f"Items per page, 1–{MAX_LIMIT}.", default=100, minimum=1,
              maximum=MAX_LIMIT, example=20),
        Param("offset", "int", "Items to skip; use the previous result's nextOffset.",
              default=0, minimum=0, example=100))),
    needs_archive=False,
)
