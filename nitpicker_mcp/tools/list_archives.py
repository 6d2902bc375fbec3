"""Tool ``list_archives``: what can be opened under the allowed roots."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from nitpicker_query import NitpickerError, locks
from nitpicker_query.format import NOT_SKIPPED, loose_page

from ..registry import ArchiveRegistry
from ..schema import STR, item, list_output
from ._base import ToolDef, prose

MAX_DEPTH = 3  # directory levels searched below each root
MAX_FOUND = 200


def _candidates(root: Path) -> list[Path]:
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


def describe(path: Path, registry: ArchiveRegistry) -> dict[str, Any]:
    """One archive's line: base URL, page count, version, live crawl — or why it fails."""
    entry: dict[str, Any] = {"archive": str(path), "kind": "directory" if path.is_dir()
                             else "file", "baseUrl": None, "pages": None,
                             "formatVersion": None, "liveCrawl": False, "error": None}
    if path.is_dir():
        holder = locks.probe(path)
        entry["liveCrawl"] = bool(holder and holder.alive)
    try:
        archive = registry.get(path)
        entry["baseUrl"] = archive.base_url
        entry["formatVersion"] = archive.version
        entry["pages"] = archive.count(
            f"SELECT count(*) FROM pages WHERE {loose_page('pages')} AND {NOT_SKIPPED}")
    except NitpickerError as exc:
        entry["error"] = str(exc)
    return entry


def _run(target: tuple[list[Path], ArchiveRegistry], options: dict[str, Any]
         ) -> dict[str, Any]:
    roots, registry = target
    seen: set[Path] = set()
    items = []
    for root in roots:
        for path in _candidates(root):
            if path not in seen:
                seen.add(path)
                items.append(describe(path, registry))
    items.sort(key=lambda e: e["archive"])
    return {"roots": [str(r) for r in roots], "items": items, "total": len(items),
            "limit": max(1, len(items)), "offset": 0, "nextOffset": None}


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
    needs_archive=False,
)
