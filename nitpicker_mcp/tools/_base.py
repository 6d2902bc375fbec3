"""The shape every tool module shares: a definition and a handler over one query."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mcp.types import Tool, ToolAnnotations

from nitpicker_query import Archive
from nitpicker_query.queries.catalog import BY_NAME, QuerySpec

from ..schema import input_schema

READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False,
                            destructive_hint=False)


@dataclass(frozen=True)
class ToolDef:
    """One MCP tool: what ``tools/list`` shows and what ``tools/call`` runs.

    ``run(archive, options)`` gets the opened archive and the snake_case options (schema
    defaults applied) and returns the JSON result, or None for "not found".
    ``needs_archive`` is False for tools that look at the roots instead of one archive.
    """

    name: str
    title: str
    description: str
    output_schema: dict[str, Any]
    run: Callable[..., Any]
    spec: QuerySpec | None = None
    defaults: dict[str, Any] = field(default_factory=dict)
    needs_archive: bool = True
    not_found: str | None = None

    def tool(self, *, archive_required: bool) -> Tool:
        schema = input_schema(self.spec, archive_required=archive_required and self.needs_archive,
                              defaults=self.defaults)
        if not self.needs_archive:
            schema["properties"].pop("archive")
        return Tool(name=self.name, title=self.title, description=self.description,
                    input_schema=schema, output_schema=self.output_schema,
                    annotations=READ_ONLY)

    def options(self, arguments: dict[str, Any]) -> dict[str, Any]:
        """camelCase arguments → the query function's keyword options, defaults applied."""
        if self.spec is None:
            return {}
        result: dict[str, Any] = {}
        for p in self.spec.params:
            if p.camel in arguments:
                result[p.name] = arguments[p.camel]
            elif p.name in self.defaults:
                result[p.name] = self.defaults[p.name]
        return result


def prose(text: str) -> str:
    """A description written as an indented triple-quoted block → one line of text."""
    return " ".join(text.split())


NULLS_LEFT_OUT = " Null fields are left out of items."
"""Said by every list tool: the server drops null fields from items (``without_nulls``)."""


def query_tool(name: str, *, title: str, description: str, output_schema: dict[str, Any],
               defaults: dict[str, Any] | None = None) -> ToolDef:
    """A tool that calls the catalog query of the same name."""
    spec = BY_NAME[name]

    def run(archive: Archive, options: dict[str, Any]) -> Any:
        return spec.function(archive, **options)

    listed = "items" in output_schema.get("properties", {})
    return ToolDef(name=name, title=title,
                   description=prose(description) + (NULLS_LEFT_OUT if listed else ""),
                   output_schema=output_schema, run=run, spec=spec,
                   defaults=defaults or {}, not_found=spec.not_found)
