"""Errors raised by nitpicker, each with a one-sentence message a person can act on.

The tree::

    NitpickerError
    ├── ArchiveError                 something is wrong with the archive itself
    │   ├── ArchiveNotFound          the path does not exist or cannot be read
    │   ├── NotAnArchive             not a tar / no db.sqlite / not a nitpicker database
    │   ├── UnsafeArchive            a tar member would escape or is a link/device
    │   ├── UnsupportedFormat        info.version outside 0.10.x–0.13.x (too old, too new, unknown)
    │   └── ArchiveBusy              a live process holds the lock we need
    ├── InvalidArgument              a query option is out of range or of the wrong kind
    ├── NotFound                     a looked-up URL or signature is not in the archive
    └── NotRecorded                  the archive does not hold what the query reads

Other packages subclass :class:`NitpickerError` for their own failures. Paths are kept as
attributes (``path``) so the MCP server can mask them; messages name files by base name
where a full path is not needed.
"""

from __future__ import annotations

import re
from pathlib import Path

_ABSOLUTE = re.compile(r"(?<![\w:/])(/[^\s/'\"]+){2,}/?")


def mask_paths(message: str) -> str:
    """Replace absolute-looking paths (two or more ``/segments``) with ``<path>``.

    For messages that leave the machine (the MCP server's answers to a model, the
    viewer's pages): the reader learns nothing of its layout; the archive's base name is
    kept where the message names it.
    """
    return _ABSOLUTE.sub("<path>", message)


class NitpickerError(Exception):
    """Base class: every error a user can cause. ``str(error)`` is the one-line message."""


class ArchiveError(NitpickerError):
    """The archive (file or crawl directory) cannot be used."""

    def __init__(self, message: str, path: str | Path | None = None) -> None:
        super().__init__(message)
        self.path = str(path) if path is not None else None


class ArchiveNotFound(ArchiveError):
    """The given path does not exist or cannot be read."""


class NotAnArchive(ArchiveError):
    """The path exists but is not a .nitpicker archive or crawl directory."""


class UnsafeArchive(ArchiveError):
    """A tar member is absolute, climbs out with ``..``, is a link or a device, or repeats."""


class ArchiveBusy(ArchiveError):
    """Another live process holds the lock on a directory we must write."""


class UnsupportedFormat(ArchiveError):
    """``info.version`` is outside what this tool reads (0.10.x–0.13.x).

    ``found`` is the version string (or None), ``supported`` the family we read, and
    ``reason`` one of ``too-old``, ``too-new``, ``unknown``.
    """

    def __init__(
        self,
        message: str,
        *,
        found: str | None,
        supported: str,
        reason: str,
        path: str | Path | None = None,
    ) -> None:
        super().__init__(message, path)
        self.found = found
        self.supported = supported
        self.reason = reason


class ArchiveChanged(ArchiveError):
    """The path led somewhere else when it was opened than when it was checked."""


class QueryTimeout(ArchiveError):
    """A statement ran past the archive's deadline (``--query-timeout``)."""


class InvalidArgument(NitpickerError, ValueError):
    """A query option is out of range, of the wrong type, or not one of the allowed values."""


class NotFound(NitpickerError, LookupError):
    """A URL or signature that was looked up is not in the archive."""


class NotRecorded(NitpickerError):
    """The archive was written without the data a query reads (body hashes from a crawler
    that did not store them): an empty answer would read as "none found"."""
