"""Which archive paths the server may open: the allowed roots and the containment check.

Allowed roots are the ``--root`` directories, the directory of ``--archive`` (the
default archive), and the roots the client declares through MCP ``roots/list``. A path
is checked after resolving symlinks and ``..`` (``os.path.realpath``), so neither a
``../`` nor a symlink inside a root can lead outside it. With no root at all every path
is refused, with a message that says how to configure one.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path
from urllib.parse import unquote, urlparse

from nitpicker_query.exceptions import ArchiveNotFound

from .errors import PathNotAllowed

NO_ROOTS = (
    "No archive locations are allowed yet: start nitpicker-mcp with --root DIR (or "
    "--archive FILE), or declare roots in your MCP client's configuration."
)


def roots_from_uris(uris: Iterable[str]) -> list[Path]:
    """``file://`` URIs of client roots → real directory paths (other schemes ignored).

    A root on another host (``file://server/share``) is not a path of this machine, and
    a NUL byte cannot be in one: either is refused with one clear line.
    """
    result = []
    for uri in uris:
        parsed = urlparse(str(uri))
        if parsed.scheme != "file":
            continue
        if parsed.netloc not in ("", "localhost"):
            raise PathNotAllowed(f"Client root {str(uri)[:200]!r} names another host; only "
                                 "local roots (file:///… or file://localhost/…) are allowed.")
        path = unquote(parsed.path)
        if "\x00" in path:
            raise PathNotAllowed("A client root contains a NUL byte (%00); fix the root in "
                                 "your MCP client's configuration.")
        result.append(Path(os.path.realpath(path)))
    return result


def inside(real: Path, allowed: Iterable[Path]) -> bool:
    """True when the resolved ``real`` is one of ``allowed`` or below one."""
    return any(real == root or root in real.parents for root in allowed)


def within(roots: Iterable[Path]) -> Callable[[Path], bool]:
    """A predicate "this resolved path lies inside one of ``roots``", the roots resolved
    once (what ``open_archive`` checks an opened descriptor's real location with)."""
    allowed = [Path(os.path.realpath(r)) for r in roots]
    return lambda real: inside(real, allowed)


def check_allowed(path: str, roots: Iterable[Path]) -> Path:
    """The resolved path if it lies inside one of ``roots``; else :class:`PathNotAllowed`.

    For a crawl directory the files SQLite will open (``db.sqlite`` and its ``-wal`` and
    ``-shm``) must resolve inside the roots too: a symlinked ``db.sqlite`` would serve a
    file from anywhere.
    """
    allowed = [Path(os.path.realpath(r)) for r in roots]
    if not allowed:
        raise PathNotAllowed(NO_ROOTS)
    if "\x00" in path:
        raise PathNotAllowed("Archive path contains a NUL byte; pass the path as "
                             "list_archives shows it.")
    try:
        real = Path(os.path.realpath(os.path.expanduser(path)))
        if inside(real, allowed):
            if real.is_dir():
                for name in ("db.sqlite", "db.sqlite-wal", "db.sqlite-shm"):
                    member = real / name
                    if os.path.lexists(member) and not inside(
                            Path(os.path.realpath(member)), allowed):
                        raise PathNotAllowed(
                            f"Crawl directory {real.name!r} has a {name} that points "
                            "outside the allowed locations; refused.")
            return real
    except OSError:  # a component vanished while it was being resolved
        raise ArchiveNotFound(f"Archive path not found or not readable: "
                              f"{Path(path).name}") from None
    name = Path(path).name or path
    raise PathNotAllowed(
        f"Archive {name!r} is outside the allowed locations; move it under a --root "
        "directory, start nitpicker-mcp with --root pointing at its folder, or add its "
        "folder to your client's roots. list_archives shows what is available."
    )
