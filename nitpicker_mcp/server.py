"""The stdio MCP server: tool registry, argument validation, roots, errors, bounded results.

Built on the SDK's low-level ``Server`` (mcp 2.x), which neither validates arguments nor
hides exceptions: every ``tools/call`` here is validated against the tool's input schema
with ``jsonschema`` first, and every failure — bad arguments, unknown tool, a path
outside the roots, an unreadable archive, a page not found, a bug — becomes a tool result
with ``isError`` and one actionable line, absolute paths masked. Tracebacks go to stderr.
Queries run in worker threads so the stdio loop keeps answering while SQLite works.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import os
import warnings
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import anyio
import jsonschema
from mcp.server import Server, ServerRequestContext
from mcp.server.caching import CacheableMethod, CacheHint
from mcp.shared.exceptions import MCPError
from mcp.types import (
    INVALID_PARAMS,
    CallToolRequestParams,
    CallToolResult,
    ClientCapabilities,
    CompleteRequestParams,
    CompleteResult,
    Completion,
    GetPromptRequestParams,
    GetPromptResult,
    ListPromptsResult,
    ListResourcesResult,
    ListResourceTemplatesResult,
    ListToolsResult,
    PaginatedRequestParams,
    PromptMessage,
    PromptReference,
    ReadResourceRequestParams,
    ReadResourceResult,
    ResourceLink,
    RootsCapability,
    TextContent,
    TextResourceContents,
    Tool,
    ToolAnnotations,
)

from nitpicker_query import NitpickerError, progress
from nitpicker_query.archive.opening import DEFAULT_QUERY_TIMEOUT, Archive, database_errors
from nitpicker_query.exceptions import ArchiveNotFound, NotFound
from nitpicker_query.terminal import escape
from nitpicker_query.values import jsonable

from . import crawls, prompts, resources
from .errors import PathNotAllowed, ToolArgumentError, UnknownTool, mask_paths
from .registry import ArchiveRegistry
from .roots import NO_ROOTS, check_allowed, roots_from_uris, within
from .schema import ARCHIVE_PROPERTY
from .tools import BY_NAME, TOOLS
from .tools._base import ToolDef
from .tools.list_archives import candidates as archive_candidates

log = logging.getLogger("nitpicker_mcp")
T = TypeVar("T")

CACHE_HINTS: dict[CacheableMethod, CacheHint] = {
    # fixed for the server's life: its tools, prompts and resource forms
    "server/discover": CacheHint(ttl_ms=3_600_000),
    "tools/list": CacheHint(ttl_ms=3_600_000),
    "prompts/list": CacheHint(ttl_ms=3_600_000),
    "resources/templates/list": CacheHint(ttl_ms=3_600_000),
    # the archives under the roots come and go; an archive changes while it is crawled
    "resources/list": CacheHint(ttl_ms=10_000),
    "resources/read": CacheHint(ttl_ms=0),
}
"""Freshness hints of the 2026-07-28 protocol on the cacheable results: private (the
answers depend on this server's roots), an hour for what the code fixes, ten seconds for
the list of archives, none for what an archive holds (a live crawl writes it)."""

RESOURCE_NOT_FOUND = -32002
"""The specification's JSON-RPC code for a resource that does not exist (the SDK names
none)."""

MAX_STRUCTURED_CHARS = 40_000
"""Upper bound of one result's structured JSON (the text copy doubles it)."""

VERSION = "0.1.0"


@dataclass
class ServerConfig:
    """What the command line decided: allowed roots and the default archive."""

    roots: list[Path] = field(default_factory=list)
    default_archive: Path | None = None
    query_timeout: float = DEFAULT_QUERY_TIMEOUT
    crawl_dir: Path | None = None
    """``--allow-crawl DIR``: the one directory crawls may write (and a root to read)."""

    @property
    def static_roots(self) -> list[Path]:
        extra = [self.default_archive.parent] if self.default_archive else []
        crawls = [self.crawl_dir] if self.crawl_dir else []
        return [*self.roots, *extra, *crawls]


CRAWL_TOOLS = {
    "start_crawl": ("Start a crawl", "Crawl a site into a new archive in the crawl "
                    "directory, as nitpicker-crawl does (its limits and defaults; the soft "
                    "cap on, dedupeCap 100). Returns at once: the crawl runs on its own, "
                    "survives this conversation, and is followed with crawl_status and "
                    "stopped with stop_crawl. When it has finished, its archive "
                    "(<name>.nitpicker) answers every other tool. Only for a site the user "
                    "asked to crawl.", False),
    "crawl_status": ("Follow a crawl", "How far a crawl started with start_crawl has got: "
                     "state (running, finished, stopped, failed), urlsDone, htmlPagesDone, "
                     "urlsFound, remaining, refusedByCap, the soft cap's events so far "
                     "(capEvents) and the crawler's last lines. With wait, it follows a "
                     "running crawl up to that many seconds (progress notifications "
                     "meanwhile) and answers when it ends; a finished one's archive is "
                     "ready for get_summary.",
                     True),
    "stop_crawl": ("Stop a crawl", "Stop a running crawl as Ctrl-C does: it stops "
                   "fetching, writes its archive (what it has crawled so far, resumable "
                   "with nitpicker-crawl --resume) and ends; waits for that, up to two "
                   "minutes, then answers as crawl_status does.", False),
}


class _Validators:
    def __init__(self, config: ServerConfig) -> None:
        required = config.default_archive is None
        self.tools = [t.tool(archive_required=required) for t in TOOLS]
        if config.crawl_dir is not None:
            inputs = crawls.schemas()
            self.tools += [Tool(
                name=name, title=title, description=description, input_schema=inputs[name],
                output_schema={"type": "object", "required": ["name", "state"]},
                annotations=ToolAnnotations(read_only_hint=read_only, open_world_hint=True,
                                            destructive_hint=False,
                                            idempotent_hint=name != "start_crawl"))
                for name, (title, description, read_only) in CRAWL_TOOLS.items()]
        self.by_name = {
            t.name: jsonschema.Draft202012Validator(t.input_schema) for t in self.tools
        }


def _integral_floats(arguments: dict[str, Any]) -> dict[str, Any]:
    """``5.0`` as ``5``: JSON Schema counts it an integer, so it passes validation, and a
    query must then get the integer the schema promised."""
    return {k: int(v) if isinstance(v, float) and v.is_integer() and abs(v) < 2**53 else v
            for k, v in arguments.items()}


def _argument_error(tool: str, error: jsonschema.ValidationError) -> ToolArgumentError:
    where = "/".join(str(p) for p in error.absolute_path)
    if error.validator == "additionalProperties":
        return ToolArgumentError(f"Invalid arguments for {tool}: {error.message}. "
                                 "Check the tool's input schema for the allowed names.")
    prefix = f"{where}: " if where else ""
    if error.validator == "maxLength":  # never echo the (long) value back
        return ToolArgumentError(f"Invalid arguments for {tool}: {prefix}is too long (at "
                                 f"most {error.validator_value} characters).")
    if error.validator == "pattern" and error.validator_value == ARCHIVE_PROPERTY["pattern"]:
        return ToolArgumentError(f"Invalid arguments for {tool}: {prefix}contains a NUL "
                                 "byte; pass the path as list_archives shows it.")
    return ToolArgumentError(f"Invalid arguments for {tool}: {prefix}{error.message}.")


_encode = json.JSONEncoder(ensure_ascii=False, allow_nan=False).encode
"""``json.dumps(value, ensure_ascii=False)`` without building an encoder per call."""


def without_nulls(result: Any, schema: dict[str, Any]) -> Any:
    """A list result with each item's null fields left out, except those its schema
    requires: ``list_pages`` items hold ~30 meta fields, most of them null on most pages,
    and an assistant gets twice as many items per call without them. Every list tool's
    description says so (``tools._base.NULLS_LEFT_OUT``)."""
    if not (isinstance(result, dict) and isinstance(result.get("items"), list)):
        return result
    item_schema = schema.get("properties", {}).get("items", {}).get("items", {})
    keep = set(item_schema.get("required", ()))
    items = [{k: v for k, v in entry.items() if v is not None or k in keep}
             if isinstance(entry, dict) else entry for entry in result["items"]]
    return {**result, "items": items}


def bound(result: Any) -> tuple[Any, str]:
    """Keep one result's JSON under :data:`MAX_STRUCTURED_CHARS`; return it and its text.

    Lists return fewer items (``nextOffset`` then points at the first one left out);
    HTML is cut further and marked ``truncated``; the link lists of a page detail are
    shortened (their ``*Total`` counts stay exact). When that is not enough — one item,
    or one value, larger than the bound — long strings are cut, marked in the text and
    by ``stringsCut: true``, so a page always holds at least one item. The text is
    returned for reuse as the result's text copy, so the common case costs one
    ``json.dumps``.
    """
    if isinstance(result, dict) and isinstance(result.get("items"), list):
        out, text = _bound_list(result)
        if out["items"] or not result["items"]:
            return out, text
        # not even one item fits: its long strings are cut, so every page makes progress
        for cap in STRING_CAPS:
            out, text = _bound_list({**cut_strings(result, cap), "stringsCut": True})
            if out["items"]:
                return out, text
        return out, text
    text = _encode(result)
    if len(text) <= MAX_STRUCTURED_CHARS or not isinstance(result, dict):
        return result, text
    result = dict(result)
    if isinstance(result.get("html"), str):
        html = result["html"]
        while html and len(_encode({**result, "html": html})) > MAX_STRUCTURED_CHARS:
            html = html[: len(html) * 3 // 4]
        result["html"], result["truncated"] = html, True
    else:
        for key in ("inboundLinks", "outboundLinks", "redirectFrom"):
            while isinstance(result.get(key), list) and result[key] and (
                    len(_encode(result)) > MAX_STRUCTURED_CHARS):
                result[key] = result[key][: len(result[key]) // 2]
    text = _encode(result)
    for cap in STRING_CAPS:  # still over: a stranger's 100,000-character baseUrl
        if len(text) <= MAX_STRUCTURED_CHARS:
            break
        result = {**cut_strings(result, cap), "stringsCut": True}
        text = _encode(result)
    return result, text


STRING_CAPS = (4_000, 500, 80)
"""Lengths long strings are cut to, in turn, when a result is still over the bound."""


def cut_strings(value: Any, cap: int) -> Any:
    """``value`` with every string longer than ``cap`` cut and marked
    (``…[+N characters]``); the result then says ``stringsCut: true``."""
    if isinstance(value, str):
        return value if len(value) <= cap else (
            f"{value[:cap]}…[+{len(value) - cap} characters]")
    if isinstance(value, dict):
        return {k: cut_strings(v, cap) for k, v in value.items()}
    if isinstance(value, list):
        return [cut_strings(v, cap) for v in value]
    return value


def _bound_list(result: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """:func:`bound` for a list envelope, encoding every item exactly once.

    A full page of 100 wide items is ~80,000 characters and gets cut to about half; the
    text is then spliced from the items' encodings (``json.dumps``'s own separators), not
    encoded again — on the MCP benchmark this was the largest server-side cost.
    """
    items: list[Any] = result["items"]
    encoded = [_encode(entry) for entry in items]
    sizes = [len(e) + 2 for e in encoded]  # ", " between items (one too many: harmless)
    out = result
    if len(_encode({**result, "items": []})) + sum(sizes) > MAX_STRUCTURED_CHARS:
        budget = MAX_STRUCTURED_CHARS - len(_encode({**result, "items": [],
                                                     "nextOffset": 10**9}))
        kept, used = 0, 0
        for size in sizes:
            used += size
            if used > budget:
                break
            kept += 1
        out = {**result, "items": items[:kept]}
        offset = result.get("offset") or 0
        if (result.get("total") or 0) > offset + kept:
            out["nextOffset"] = offset + kept
        encoded = encoded[:kept]
    parts = [f"{_encode(key)}: "
             + ("[" + ", ".join(encoded) + "]" if key == "items" else _encode(value))
             for key, value in out.items()]
    return out, "{" + ", ".join(parts) + "}"


MAX_ERROR_CHARS = 1_000
"""An error is one line a model can act on; a 1 MB argument echoed back is not."""


def _error(message: str) -> CallToolResult:
    text = escape(mask_paths(message))
    if len(text) > MAX_ERROR_CHARS:
        text = text[: MAX_ERROR_CHARS - 1] + "…"
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)


class NitpickerServer:
    """Holds the configuration, the archive registry and the handlers."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.registry = ArchiveRegistry(query_timeout=config.query_timeout)
        self.validators = _Validators(config)
        self.crawls = crawls.CrawlManager(config.crawl_dir) if config.crawl_dir else None

    async def list_tools(self, ctx: ServerRequestContext[Any],
                         params: PaginatedRequestParams | None) -> ListToolsResult:
        return ListToolsResult(tools=self.validators.tools)

    async def _client_roots(self, ctx: ServerRequestContext[Any]) -> list[Path]:
        session = ctx.session
        try:
            if not session.check_client_capability(ClientCapabilities(roots=RootsCapability())):
                return []
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                result = await session.list_roots()
        except Exception:  # a client without a back-channel, or one that refuses
            log.debug("roots/list failed", exc_info=True)
            return []
        return roots_from_uris(str(r.uri) for r in result.roots)

    async def _resolve(self, ctx: ServerRequestContext[Any], given: str | None
                       ) -> tuple[Path, list[Path]]:
        """The archive's resolved path and the roots that allowed it."""
        static = self.config.static_roots
        if given is None:
            if self.config.default_archive is None:
                raise ToolArgumentError("Missing archive: pass the archive path (see "
                                        "list_archives), or start the server with --archive.")
            return self.config.default_archive, static
        if not os.path.isabs(os.path.expanduser(given)):
            return await self._resolve_relative(ctx, given, static)
        try:
            return check_allowed(given, static), static
        except PathNotAllowed:
            client = await self._client_roots(ctx)
            if not client:
                raise
            roots = [*static, *client]
            return check_allowed(given, roots), roots

    async def _resolve_relative(self, ctx: ServerRequestContext[Any], given: str,
                                static: list[Path]) -> tuple[Path, list[Path]]:
        """A bare or relative name, looked up in each allowed root in turn: the server's
        working directory means nothing to a client (and may not be allowed at all)."""
        def first(roots: list[Path]) -> Path | None:
            return next((Path(r) / given for r in roots
                         if os.path.lexists(Path(r) / given)), None)

        found = first(static)
        roots = static
        if found is None:
            client = await self._client_roots(ctx)
            roots = [*static, *client]
            found = first(client)
        if found is not None:
            return check_allowed(str(found), roots), roots
        if not roots:
            raise PathNotAllowed(NO_ROOTS)
        raise ArchiveNotFound(f"No archive {given!r} in the allowed locations; "
                              "list_archives shows what is there.")

    async def call_tool(self, ctx: ServerRequestContext[Any],
                        params: CallToolRequestParams) -> CallToolResult:
        name = params.name
        try:
            if self.crawls is not None and name in CRAWL_TOOLS:
                return await self._crawl_tool(ctx, name,
                                              _integral_floats(dict(params.arguments or {})))
            tool = BY_NAME.get(name)
            if tool is None:
                raise UnknownTool(f"Unknown tool {name!r}; call tools/list for the "
                                  f"{len(TOOLS)} available tools.")
            arguments = _integral_floats(dict(params.arguments or {}))
            self._check_arguments(name, arguments)
            result = without_nulls(await self._run(ctx, tool, arguments), tool.output_schema)
        except NitpickerError as exc:
            return _error(str(exc))
        except Exception as exc:  # a bug: the model gets a line, stderr the traceback
            log.exception("tool %s failed", name)
            return _error(f"Internal error in {name} ({type(exc).__name__}); this is a bug in "
                          "nitpicker-mcp, details are in the server log.")
        try:
            result, text = bound(result)
        except (ValueError, TypeError):  # bytes or NaN from a stranger's archive
            result, text = bound(jsonable(result))
        content: list[Any] = [TextContent(type="text", text=text)]
        whole = resources.link_for_html(result) if name == "get_page_html" else None
        if whole is not None:   # the cut page's whole HTML, as a resource to read
            archive = arguments.get("archive") or str(self.config.default_archive)
            content.append(ResourceLink(
                type="resource_link", name="stored HTML", mime_type="text/html",
                uri=resources.uri(archive, "html", whole),
                description=f"The whole stored HTML, up to {resources.MAX_HTML:,} "
                "characters (resources/read)."))
        return CallToolResult(content=content, structured_content=result)

    async def _crawl_tool(self, ctx: ServerRequestContext[Any], name: str,
                          arguments: dict[str, Any]) -> CallToolResult:
        """start_crawl, crawl_status, stop_crawl (``--allow-crawl`` only)."""
        assert self.crawls is not None
        self._check_arguments(name, arguments)
        manager = self.crawls
        if name == "crawl_status" and arguments.get("wait"):
            result = await self._follow(ctx, arguments["name"], int(arguments["wait"]))
        else:
            work = {"start_crawl": lambda: manager.start(arguments),
                    "crawl_status": lambda: manager.status(arguments["name"]),
                    "stop_crawl": lambda: manager.stop(arguments["name"])}[name]
            result = await anyio.to_thread.run_sync(work)
        result, text = bound(result)
        return CallToolResult(content=[TextContent(type="text", text=text)],
                              structured_content=result)

    async def _follow(self, ctx: ServerRequestContext[Any], name: str,
                      wait: int) -> dict[str, Any]:
        """crawl_status with ``wait``: the log read every second until the crawl ends or
        ``wait`` seconds pass, a progress notification each time its URLs done grow (MCP
        wants progress that only increases). Awaited, not a thread: a client that
        cancels the call stops the following, never the crawl."""
        assert self.crawls is not None
        manager, send = self.crawls, _progress_sender(ctx)
        deadline = anyio.current_time() + wait
        told = -1
        while True:
            status = await anyio.to_thread.run_sync(manager.status, name)
            done, total, message = crawls.progress_of(status)
            if send is not None and done > told:
                await send(done, total, message)
                told = done
            left = deadline - anyio.current_time()
            if status["state"] != "running" or left <= 0:
                return status
            await anyio.sleep(min(crawls.FOLLOW_STEP, left))

    def _check_arguments(self, name: str, arguments: dict[str, Any]) -> None:
        """The first of a call's arguments its tool's input schema refuses, as the
        one-line error the model reads."""
        error = next(iter(sorted(self.validators.by_name[name].iter_errors(arguments),
                                 key=lambda e: list(e.absolute_path))), None)
        if error is not None:
            raise _argument_error(name, error)

    async def _run(self, ctx: ServerRequestContext[Any], tool: ToolDef,
                   arguments: dict[str, Any]) -> Any:
        options = tool.options(arguments)
        if not tool.needs_archive:
            roots = [*self.config.static_roots, *(await self._client_roots(ctx))]
            if not roots:
                raise PathNotAllowed(NO_ROOTS)
            return await anyio.to_thread.run_sync(tool.run, (roots, self.registry), options)
        path, roots = await self._resolve(ctx, arguments.get("archive"))
        allowed = within(roots)
        # a second archive (compare_archives' old): found and checked as archive is
        others = {p.name: await self._resolve(ctx, arguments.get(p.camel))
                  for p in (tool.spec.params if tool.spec else ()) if p.archive}

        reporter = _progress_reporter(ctx)

        def work() -> Any:
            with contextlib.ExitStack() as stack:
                for name, (other, other_roots) in others.items():
                    options[name] = stack.enter_context(
                        self.registry.using(other, within(other_roots)))
                with self.registry.using(path, allowed) as archive, \
                        database_errors(archive), progress.reporting(reporter):
                    return tool.run(archive, options)

        result = await anyio.to_thread.run_sync(work)
        if result is None:
            message = tool.spec.missing(options, "mcp") if tool.spec is not None else (
                tool.not_found or "Not found.").format(**options)
            raise NotFound(message)
        return result

    async def _on_archive(self, ctx: ServerRequestContext[Any], given: Any,
                          work: Callable[[Archive], T]) -> T:
        """``work`` on the archive ``given`` names, in a worker thread, as every request
        reads one: resolved and confined to the allowed locations, opened through the
        registry, SQLite's errors made one-line answers."""
        path, roots = await self._resolve(ctx, given)

        def run() -> T:
            with self.registry.using(path, within(roots)) as archive, \
                    database_errors(archive):
                return work(archive)

        return await anyio.to_thread.run_sync(run)

    async def list_resources(self, ctx: ServerRequestContext[Any],
                             params: PaginatedRequestParams | None) -> ListResourcesResult:
        """Each archive under the allowed locations, as its summary."""
        roots = [*self.config.static_roots, *(await self._client_roots(ctx))]

        def found() -> list[Path]:
            paths = {p for root in roots for p in archive_candidates(root)}
            if self.config.default_archive is not None:
                paths.add(self.config.default_archive)
            return sorted(paths, key=str)

        return ListResourcesResult(resources=resources.listed(
            await anyio.to_thread.run_sync(found)))

    async def list_resource_templates(self, ctx: ServerRequestContext[Any],
                                      params: PaginatedRequestParams | None
                                      ) -> ListResourceTemplatesResult:
        return ListResourceTemplatesResult(resource_templates=resources.templates())

    async def read_resource(self, ctx: ServerRequestContext[Any],
                            params: ReadResourceRequestParams) -> ReadResourceResult:
        """One resource, read as a tool's answer is (the archive confined, the deadline,
        the bound); what cannot be read is one JSON-RPC line, paths masked."""
        text_uri = str(params.uri)
        try:
            address = resources.parse(text_uri)
            mime, text = await self._on_archive(
                ctx, address.archive, lambda archive: resources.read(archive, address, bound))
        except NitpickerError as exc:
            raise MCPError(RESOURCE_NOT_FOUND if isinstance(exc, NotFound)
                           else INVALID_PARAMS, escape(mask_paths(str(exc)))) from None
        return ReadResourceResult(contents=[TextResourceContents(
            uri=text_uri, mime_type=mime, text=text)])

    async def list_prompts(self, ctx: ServerRequestContext[Any],
                           params: PaginatedRequestParams | None) -> ListPromptsResult:
        return ListPromptsResult(prompts=prompts.listed())

    async def get_prompt(self, ctx: ServerRequestContext[Any],
                         params: GetPromptRequestParams) -> GetPromptResult:
        """A prompt's plan for its archive, with the archive's figures; the archive is
        resolved and confined as a tool's is, and a wrong argument is a JSON-RPC
        invalid-params error of one line."""
        prompt = prompts.BY_NAME.get(params.name)
        if prompt is None:
            raise MCPError(INVALID_PARAMS, f"Unknown prompt {params.name!r}; prompts/list "
                           f"has {len(prompts.PROMPTS)}.")
        arguments = {k: str(v) for k, v in (params.arguments or {}).items()}
        if self.config.default_archive is not None and not arguments.get("archive"):
            arguments["archive"] = str(self.config.default_archive)
        absent = prompts.missing(prompt, arguments)
        if absent:
            raise MCPError(INVALID_PARAMS, f"{params.name} needs {', '.join(absent)}.")
        try:
            summary = await self._on_archive(ctx, arguments["archive"], prompts.figures)
            if "old" in arguments:
                await self._resolve(ctx, arguments["old"])
        except NitpickerError as exc:
            raise MCPError(INVALID_PARAMS, escape(mask_paths(str(exc)))) from None
        return GetPromptResult(description=prompt.description, messages=[PromptMessage(
            role="user", content=TextContent(
                type="text", text=prompts.render(prompt, arguments, summary)))])

    async def complete(self, ctx: ServerRequestContext[Any],
                       params: CompleteRequestParams) -> CompleteResult:
        """Values for a prompt's argument: archives under the allowed locations, the
        archive's URLs, template keys, validators. Nothing (never an error) when the
        archive named so far cannot be read: a completion is a suggestion."""
        values: list[str] = []
        name, value = params.argument.name, params.argument.value
        given = dict((params.context.arguments if params.context else None) or {})
        if isinstance(params.ref, PromptReference) and params.ref.name in prompts.BY_NAME:
            try:
                values = await self._complete(ctx, name, value, given)
            except (NitpickerError, OSError):
                values = []
        return CompleteResult(completion=Completion(
            values=values[:prompts.MAX_COMPLETIONS], total=len(values),
            has_more=len(values) > prompts.MAX_COMPLETIONS))

    async def _complete(self, ctx: ServerRequestContext[Any], name: str, value: str,
                        given: dict[str, str]) -> list[str]:
        if name in ("archive", "old"):
            roots = [*self.config.static_roots, *(await self._client_roots(ctx))]
            return prompts.archive_names(roots, value, archive_candidates)
        archive = given.get("archive") or (str(self.config.default_archive)
                                           if self.config.default_archive else None)
        if archive is None or name not in ("url", "key", "validator"):
            return []
        finder = {"url": prompts.urls, "key": prompts.template_keys,
                  "validator": prompts.validators}[name]
        return await self._on_archive(ctx, archive, lambda opened: finder(opened, value))

    def build(self) -> Server[Any]:
        @asynccontextmanager
        async def lifespan(_: Server[Any]) -> AsyncIterator[dict[str, Any]]:
            try:
                yield {}
            finally:
                self.registry.close()

        return Server(
            "nitpicker",
            version=VERSION,
            instructions=(
                "Read-only questions about crawled websites stored in .nitpicker archives. "
                "Start with list_archives (or get_summary on a known archive), then "
                "list_pages, list_links, find_duplicates, get_page_detail; the prompts "
                "(audit_site …) are ready plans. An archive argument is a .nitpicker file "
                "or crawl directory inside the allowed locations, by absolute path or by a "
                "path relative to one of them (each is tried in turn, the first match is "
                "used; never the server's working directory). Lists are paged: pass "
                "nextOffset back as offset."
            ),
            lifespan=lifespan,
            cache_hints=CACHE_HINTS,
            on_list_tools=self.list_tools,
            on_call_tool=self.call_tool,
            on_list_resources=self.list_resources,
            on_list_resource_templates=self.list_resource_templates,
            on_read_resource=self.read_resource,
            on_list_prompts=self.list_prompts,
            on_get_prompt=self.get_prompt,
            on_completion=self.complete,
        )


Sender = Callable[[float, "float | None", str], Coroutine[Any, Any, None]]


def _progress_sender(ctx: ServerRequestContext[Any]) -> Sender | None:
    """``send(done, total, message)`` as MCP's ``notifications/progress`` for a client
    that sent a progress token with its call; None for one that did not ask."""
    meta = ctx.meta or {}
    token = meta.get("progress_token", meta.get("progressToken"))
    if not isinstance(token, (str, int)) or isinstance(token, bool):
        return None
    related = None if ctx.request_id is None else str(ctx.request_id)

    async def send(done: float, total: float | None, message: str) -> None:
        await ctx.session.send_progress_notification(token, done, total=total,
                                                     message=message,
                                                     related_request_id=related)

    return send


def _progress_reporter(ctx: ServerRequestContext[Any]) -> progress.Reporter:
    """The progress of a query run in a worker thread (the first template-clusters call
    on a big archive reads every page), sent through the event loop; nothing for a
    client that did not ask."""
    send = _progress_sender(ctx)
    if send is None:
        return lambda _step: None

    def report(step: progress.Progress) -> None:
        anyio.from_thread.run(functools.partial(send, step.done, step.total or None,
                                                step.message))

    return report


def create_server(*, roots: list[Path] | None = None, archive: Path | None = None,
                  query_timeout: float = DEFAULT_QUERY_TIMEOUT,
                  crawl_dir: Path | None = None) -> Server[Any]:
    """A configured low-level server (tests connect to it in-process)."""
    return NitpickerServer(ServerConfig(roots=list(roots or []), default_archive=archive,
                                        query_timeout=query_timeout,
                                        crawl_dir=crawl_dir)).build()
