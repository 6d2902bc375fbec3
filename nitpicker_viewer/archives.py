"""Which archives the viewer may open, and the open ones (read-only, shared by requests).

An archive is named in URLs by its path relative to an allowed root (``?a=site.nitpicker``),
never by an absolute path. Every name is resolved, symlinks included, and must stay under
a root. The archive given on the command line is allowed by itself: not its siblings.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import nitpicker_query as q
from nitpicker_query.exceptions import ArchiveNotFound, NitpickerError

MAX_LISTED = 1000
"""Most archives the home page lists (a root like ``/`` must not walk the whole disk)."""


class PathNotAllowed(NitpickerError):
    """The archive is outside every allowed root."""


class Archives:
    def __init__(self, archive: Path | None, roots: list[Path]) -> None:
        self.single = archive.resolve() if archive is not None else None
        self.roots = [r.resolve() for r in roots]
        self._open: dict[Path, tuple[tuple[int, int], q.Archive]] = {}
        self._lock = threading.Lock()

    def within(self, path: Path) -> bool:
        """Is ``path`` (already resolved) the given archive, one of the roots or under one?"""
        return path == self.single or any(path == root or path.is_relative_to(root)
                                          for root in self.roots)

    def default(self) -> str | None:
        """The archive views show when none is named (the one given on the command line)."""
        return self.name(self.single) if self.single is not None else None

    def name(self, path: Path) -> str:
        if path == self.single and not self.within_roots(path):
            return path.name
        for root in self.roots:
            if path == root or path.is_relative_to(root):
                return str(path.relative_to(root)) if path != root else path.name
        return path.name

    def within_roots(self, path: Path) -> bool:
        return any(path == root or path.is_relative_to(root) for root in self.roots)

    def resolve(self, name: str | None) -> Path:
        """The archive a URL names, checked against the roots after realpath."""
        if not name:
            if self.single is None:
                raise ArchiveNotFound("No archive chosen: pick one on the home page")
            return self.single
        if "\0" in name or len(name) > 4096:
            raise PathNotAllowed("Archive name refused")
        if self.single is not None and name == self.name(self.single):
            return self.single
        if not self.roots:
            raise PathNotAllowed(f"Archive outside the allowed roots: {Path(name).name} "
                                 "(this viewer shows one archive; --root DIR allows more)")
        for root in self.roots:
            candidate = (root / name).resolve()
            if candidate != root and not candidate.is_relative_to(root):
                continue
            if candidate.exists():
                return candidate
        if any(not (root / name).resolve().is_relative_to(root) for root in self.roots):
            raise PathNotAllowed(f"Archive outside the allowed roots: {Path(name).name}")
        raise ArchiveNotFound(f"Archive path not found or not readable: {Path(name).name}")

    def open(self, name: str | None) -> q.Archive:
        """The opened archive (reopened when its file changed since)."""
        path = self.resolve(name)
        try:
            st = path.stat()
        except OSError as exc:
            raise ArchiveNotFound(f"Archive path not found or not readable: {path.name}") \
                from exc
        identity = (st.st_mtime_ns, st.st_size)
        with self._lock:
            held = self._open.get(path)
            if held is not None and held[0] == identity:
                return held[1]
            # opened by descriptor and checked again there: a symlink swapped in between
            # the check above and the open cannot lead outside the roots
            archive = q.open_archive(path, allowed=self.within)
            if held is not None:
                held[1].close()
            self._open[path] = (identity, archive)
            return archive

    def listing(self) -> list[str]:
        """Archive names under the roots: ``.nitpicker`` files and crawl directories."""
        found: list[str] = [self.name(self.single)] if self.single is not None else []
        for root in self.roots:
            for directory, dirs, files in os.walk(root):
                here = Path(directory)
                dirs[:] = sorted(d for d in dirs if not d.startswith(".")
                                 or d.startswith("._nitpicker-"))
                if (here / "db.sqlite").is_file() and here != root:
                    found.append(self.name(here))
                    dirs[:] = []
                for f in sorted(files):
                    if f.endswith(".nitpicker") and (here / f).is_file() \
                            and not (here / f).is_symlink():
                        found.append(self.name(here / f))
                if len(found) >= MAX_LISTED:
                    return list(dict.fromkeys(found))[:MAX_LISTED]
        return list(dict.fromkeys(found))

    def close(self) -> None:
        with self._lock:
            for _identity, archive in self._open.values():
                archive.close()
            self._open.clear()
