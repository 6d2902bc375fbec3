"""Errors of the MCP server and how they reach the model: one line, no absolute paths."""

from __future__ import annotations

from nitpicker_query.exceptions import NitpickerError, mask_paths

__all__ = ["PathNotAllowed", "ToolArgumentError", "UnknownTool", "mask_paths"]


class PathNotAllowed(NitpickerError):
    """The archive path is outside every allowed root (or no root is configured)."""


class ToolArgumentError(NitpickerError):
    """The arguments do not match the tool's input schema."""


class UnknownTool(NitpickerError):
    """A ``tools/call`` named a tool this server does not have."""
