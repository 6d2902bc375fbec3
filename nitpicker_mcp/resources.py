"""Resources: an archive's summary, a page's detail, its stored HTML, a template, the
report page — addressed by URI, for a client that attaches what it reads rather than
asking through tools.

``nitpicker://archive/{archive}`` with ``{archive}`` the archive's path
percent-encoded whole (``/`` too), then ``/page/{url}``, ``/html/{url}``,
``/template/{key}`` (each value percent-encoded whole) or ``/report.html``. A resource is
read as a tool's answer is: the archive confined to the allowed locations, a query with
the archive's deadline, JSON under the same bound. The stored HTML and the report page
are ``text/html`` and bounded by their own limits (:data:`MAX_HTML`, the report's rows),
which is why a tool cutting a page's HTML points at its resource instead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urlsplit

from mcp.types import Resource, ResourceTemplate

from nitpicker_query.archive.opening import Archive
from nitpicker_query.exceptions import InvalidArgument, NotFound
from nitpicker_query.queries.get_page_detail import get_page_detail
from nitpicker_query.queries.get_page_html import get_page_html
from nitpicker_query.queries.get_summary import get_summary
from nitpicker_query.queries.get_template_clusters import get_template_cluster
from nitpicker_query.report import html_report

SCHEME = "nitpicker"
MAX_HTML = 2_000_000
"""Characters of a stored page a resource holds (a tool's answer: 40,000 at most)."""
TEMPLATE_PAGES = 200
"""Pages of a template listed in its resource (the count stays exact)."""
KINDS = ("page", "html", "template")


@dataclass(frozen=True)
class Address:
    """What a URI names: the archive as the client gave it, the kind, its value."""

    archive: str
    kind: str
    value: str | None = None


def uri(archive: str | Path, kind: str | None = None, value: str | None = None) -> str:
    base = f"{SCHEME}://archive/{quote(str(archive), safe='')}"
    if kind is None:
        return base
    if kind == "report":
        return base + "/report.html"
    return f"{base}/{kind}/{quote(value or '', safe='')}"


def parse(text: str) -> Address:
    """The address of a resource URI, or the one-line error a client reads."""
    parts = urlsplit(text)
    segments = parts.path.split("/")[1:] if parts.path else []
    if parts.scheme != SCHEME or parts.netloc != "archive" or not segments \
            or not segments[0] or parts.query or parts.fragment:
        raise InvalidArgument(f"Not a nitpicker resource: {text[:200]!r} (resources/list "
                              "and resources/templates/list show the forms).")
    archive = unquote(segments[0])
    rest = segments[1:]
    if not rest:
        return Address(archive, "summary")
    if rest == ["report.html"]:
        return Address(archive, "report")
    if len(rest) == 2 and rest[0] in KINDS and rest[1]:
        return Address(archive, rest[0], unquote(rest[1]))
    raise InvalidArgument(f"Not a nitpicker resource: {text[:200]!r} (after the archive: "
                          "/page/{url}, /html/{url}, /template/{key} or /report.html).")


def templates() -> list[ResourceTemplate]:
    archive = f"{SCHEME}://archive/{{archive}}"
    return [
        ResourceTemplate(name="summary", title="An archive's summary", uri_template=archive,
                         mime_type="application/json",
                         description="get_summary of the archive (its path percent-encoded)."),
        ResourceTemplate(name="page", title="A page's detail",
                         uri_template=archive + "/page/{url}", mime_type="application/json",
                         description="get_page_detail of one URL (percent-encoded)."),
        ResourceTemplate(name="html", title="A page's stored HTML",
                         uri_template=archive + "/html/{url}", mime_type="text/html",
                         description="The HTML the crawler stored for one URL, up to "
                         f"{MAX_HTML:,} characters."),
        ResourceTemplate(name="template", title="A template cluster",
                         uri_template=archive + "/template/{key}",
                         mime_type="application/json",
                         description="get_template_cluster of one key, its first "
                         f"{TEMPLATE_PAGES} pages."),
        ResourceTemplate(name="report", title="The audit report page",
                         uri_template=archive + "/report.html", mime_type="text/html",
                         description="nitpicker-query report --format html: the summary "
                         "and each kind of issue with its count and first rows."),
    ]


def listed(paths: list[Path]) -> list[Resource]:
    return [Resource(name=p.name, title=f"Summary of {p.name}", uri=uri(p),
                     mime_type="application/json",
                     description="The crawl's summary (get_summary); page, html, template "
                     "and report.html resources below it (resources/templates/list).")
            for p in paths]


def read(archive: Archive, address: Address,
         bound: Callable[[Any], tuple[Any, str]]) -> tuple[str, str]:
    """``(mime type, text)`` of one resource; ``bound`` keeps JSON as a tool's answer."""
    if address.kind == "summary":
        return "application/json", bound(get_summary(archive))[1]
    if address.kind == "report":
        summary, found = html_report.sections(archive, lambda *_: None)
        return "text/html", html_report.render(archive, summary, found)
    value = address.value or ""
    if address.kind == "page":
        detail = get_page_detail(archive, url=value)
        if detail is None:
            raise NotFound(f"No page {value!r} in this archive.")
        return "application/json", bound(detail)[1]
    if address.kind == "html":
        html = get_page_html(archive, url=value, max_length=MAX_HTML)
        if html is None:
            raise NotFound(f"No stored HTML for {value!r} in this archive.")
        return "text/html", str(html["html"])
    cluster = get_template_cluster(archive, key=value, limit=TEMPLATE_PAGES)
    if cluster is None:
        raise NotFound(f"No template cluster {value!r} (get_template_clusters lists them).")
    return "application/json", bound(cluster)[1]


def link_for_html(result: Any) -> str | None:
    """A cut page's HTML: the URI of its whole stored HTML, for the tool's answer."""
    if isinstance(result, dict) and result.get("truncated") and isinstance(
            result.get("url"), str):
        return str(result["url"])
    return None


__all__ = ["Address", "link_for_html", "listed", "parse", "read", "templates", "uri"]
