"""Which archive paths the server may open: the allowed roots and the containment check.

Allowed roots are the ``--root`` directories, the directory of ``--archive`` (the
default archive), and the roots the client declares through MCP ``roots/list``. A path
is checked after resolving symlinks and ``..`` (``os.path.realpath``), so neither a
``../`` nor a symlink inside a root can lead outside it. With no root at all every path
is refused, with a message that says how to configure one.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import unquote, urlparse

from .errors import PathNotAllowed

NO_ROOTS = (
    "No archive locations are allowed yet: start nitpicker-mcp with --root DIR (or "
    "--archive FILE), or declare roots in your MCP client's configuration."
)


def roots_from_uris(uris: Iterable[str]) -> list[Path]:
    """``file://`` URIs of client roots → real directory paths (other schemes ignored)."""
    result = []
    for uri in uris:
        parsed = urlparse(str(uri))
        if parsed.scheme == "file":
            result.append(Path(os.path.realpath(unquote(parsed.path))))
    return result


def check_allowed(path: str, roots: Iterable[Path]) -> Path:
    """The resolved path if it lies inside one of ``roots``; else :class:`PathNotAllowed`."""
    allowed = [Path(os.path.realpath(r)) for r in roots]
    if not allowed:
        raise PathNotAllowed(NO_ROOTS)
    real = Path(os.path.realpath(os.path.expanduser(path)))
    for root in allowed:
        if real == root or root in real.parents:
            return real
    name = Path(path).name or path
    raise PathNotAllowed(
        f"Archive {name!r} is outside the allowed locations; move it under a --root "
        "directory, start nitpicker-mcp with --root pointing at its folder, or add its "
        "folder to your client's roots. list_archives shows what is available."
    )
