"""Errors of the MCP server and how they reach the model: one line, no absolute paths."""

from __future__ import annotations

import re

from nitpicker_query.exceptions import NitpickerError

_ABSOLUTE = re.compile(r"(?<![\w:/])(/[^\s/'\"]+){2,}/?")


class PathNotAllowed(NitpickerError):
    """The archive path is outside every allowed root (or no root is configured)."""


class ToolArgumentError(NitpickerError):
    """The arguments do not match the tool's input schema."""


class UnknownTool(NitpickerError):
    """A ``tools/call`` named a tool this server does not have."""


def mask_paths(message: str) -> str:
    """Replace absolute-looking paths (two or more ``/segments``) with ``<path>``.

    The model (and whoever reads its transcript) learns nothing about the machine's
    layout from an error; the archive's base name is kept where the message names it.
    """
    return _ABSOLUTE.sub("<path>", message)
