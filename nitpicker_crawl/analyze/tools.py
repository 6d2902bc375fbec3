"""Finding the plugins' external tools: npm packages and their versions.

npm packages are looked for in ``./node_modules`` and then in the global npm root, which
is asked of ``npm`` once per process (it takes about a second) however many plugins ask.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import shutil
import subprocess
from pathlib import Path

from .plugin import Unavailable


@functools.cache
def _npm_roots() -> tuple[Path, ...]:
    roots = [Path.cwd() / "node_modules"]
    npm = shutil.which("npm")
    if npm:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            found = subprocess.run([npm, "root", "-g"], capture_output=True, text=True,
                                   timeout=20).stdout.strip()
            if found:
                roots.append(Path(found))
    return tuple(roots)


def npm_package(name: str, member: str) -> Path | None:
    """The directory of npm package ``name`` holding ``member``, or None."""
    for root in _npm_roots():
        if (root / name / member).is_file():
            return root / name
    return None


async def tool_version(command: list[str], install: str) -> str:
    """The first word ``command`` (a ``--version`` call) prints; Unavailable if it fails."""
    proc = await asyncio.create_subprocess_exec(
        *command, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await proc.communicate()
    if proc.returncode != 0:
        raise Unavailable(f"{Path(command[0]).name} did not start "
                          f"({err.decode(errors='replace')[:200]}); {install}")
    return (out.decode(errors="replace").split() or ["?"])[0]
