"""Prompts: the common audits, for an assistant to find without reading every tool.

Each prompt is a short plan in the tools' own names, for one archive, with the archive's
figures that decide the plan already in it (its summary: pages, statuses, what the crawl
met), so the first step of the conversation is not a call. ``completion/complete`` fills
their arguments: archive names under the allowed locations, URLs of the archive, template
keys when the archive has its templates, the validators it was analysed with.

The plans only name read-only tools; a prompt never runs one. The figures come from the
same query as ``get_summary``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcp.types import Prompt, PromptArgument

from nitpicker_query.archive.opening import Archive
from nitpicker_query.queries.get_summary import get_summary
from nitpicker_query.queries.get_template_clusters import get_template_clusters
from nitpicker_query.queries.list_pages import list_pages
from nitpicker_query.queries.templates import ready as templates_ready_of

MAX_COMPLETIONS = 100
"""Values one completion answers at most (MCP's own bound)."""


@dataclass(frozen=True)
class PromptDef:
    name: str
    title: str
    description: str
    arguments: tuple[PromptArgument, ...]
    plan: Callable[[dict[str, str]], str]
    """The steps, with the arguments given (``archive`` as the client named it)."""


ARCHIVE = PromptArgument(name="archive", description="The .nitpicker archive (a path, or a "
                         "name list_archives shows).", required=True)
OLD = PromptArgument(name="old", description="The earlier crawl of the same site.",
                     required=True)
URL = PromptArgument(name="url", description="A page's URL as stored.", required=True)
KEY = PromptArgument(name="key", description="A template cluster's key "
                     "(get_template_clusters).", required=True)
VALIDATOR = PromptArgument(name="validator", description="Only this validator's findings "
                           "(axe, vnu, text …).", required=False)


def _audit(a: dict[str, str]) -> str:
    return f"""Audit the crawled site in archive {a['archive']!r} as a site auditor would, and
write a short report a client can act on: what is wrong, on how many pages, the worst
examples, and what to fix first.

1. get_summary: the scale (HTML pages, statuses), how the crawl ended (a crawl stopped
   early is partial: say so), metadata shares over the indexable pages.
2. list_links with type "broken": broken links (destination "internal" first), grouped
   with byDestination to name the targets to fix.
3. list_pages with redirects true: redirect chains and loops (more than one hop).
4. find_duplicates (field "title", then "description") and find_near_duplicates.
5. list_dedupe_cap_events and get_duplicate_clusters: crawler traps, with the exclusions
   they suggest.
6. get_template_clusters: the templates, to check one page of each.
7. get_violations: accessibility and HTML findings, if the archive was analysed (its
   note says when it was not — that is not a clean site).
Every count you report comes from a tool's total, not from counting a page of items."""


def _traps(a: dict[str, str]) -> str:
    return f"""Find the crawler traps in archive {a['archive']!r} and what to exclude next
time.

1. list_dedupe_cap_events: what the soft cap stopped, with each event's verdict and
   evidence (signals: what repeated, how many probes).
2. get_duplicate_clusters: groups of pages sharing title, description and og tags, each
   with suggestedExclude (the narrowest --exclude that matches no other stored page).
3. get_template_clusters: templates whose capEventIds are set are traps the crawl
   followed; list a few pages with get_template_cluster.
4. find_duplicate_clusters and find_duplicate_bodies: identical pages under many URLs.
Answer with the nitpicker-crawl options to add (--exclude, --exclude-url,
--exclude-pattern) and, for each, the pages it removes."""


def _links(a: dict[str, str]) -> str:
    return f"""List what a visitor of the site in archive {a['archive']!r} runs into: broken
links and redirects.

1. list_links type "broken" with byDestination true: each broken target and how many
   pages link to it; then without byDestination and destinationPattern set to one target
   to name the pages to edit.
2. list_pages with statusMin 400 and isExternal false: the site's own error pages.
3. list_pages with redirects true: chains (redirectChain longer than two), loops
   (redirectLoop), and redirects to errors (finalStatus 400 or more).
4. list_inbound_links for a target: every page linking to it.
Report the targets by how many pages link to them."""


def _metadata(a: dict[str, str]) -> str:
    return f"""Review titles, descriptions and duplicate content in archive {a['archive']!r}.

1. get_summary: metadataPresent over metadataPages (the indexable pages).
2. list_pages with missing "title", then "description", and indexable true.
3. find_duplicates field "title", then "description": shared values, biggest first.
4. find_mismatches type "canonical", "og:title" and "og:description".
5. find_near_duplicates: pages 90 % alike or more (the first call reads every page).
Report each gap with its count and three example URLs."""


def _accessibility(a: dict[str, str]) -> str:
    only = f' with validator "{a["validator"]}"' if a.get("validator") else ""
    return f"""Summarise the accessibility and HTML findings in archive {a['archive']!r}.

1. get_summary: violations per validator (null: the archive was never analysed —
   nitpicker-crawl analyze runs the plugins; say so instead of calling the site clean).
2. get_violations{only} sorted by rule: the rules broken, on how many pages.
3. get_violations with rule set to each of the most frequent: the pages and messages.
Group the findings by rule, most pages first, with what a developer should change."""


def _changed(a: dict[str, str]) -> str:
    return f"""What changed on the site between the crawl in {a['old']!r} (before) and
{a['archive']!r} (after)?

1. compare_archives with archive {a['archive']!r} and old {a['old']!r}: the summary —
   whether the crawls are comparable (a page only one crawl reached is never removed when
   the other stopped early) and the count of each list.
2. compare_archives with kind "removed", "added", "broken-links" and "changed": each
   list's first page, more with offset.
Report the removed pages and new broken links first: they cost visitors."""


def _page(a: dict[str, str]) -> str:
    return f"""Review the page {a['url']!r} of archive {a['archive']!r}.

1. get_page_detail: status, metadata, headers, links in and out, redirects to it.
2. get_page_html (cut) or match_selector with a CSS selector for what you need.
3. get_near_duplicates: pages saying almost the same thing.
4. get_violations with url set to the page, if the archive was analysed.
Say what is wrong with the page and how it compares with its template
(get_template_clusters, then get_template_cluster)."""


def _template(a: dict[str, str]) -> str:
    return f"""Review the template {a['key']!r} of archive {a['archive']!r}.

1. get_template_cluster with this key (or id): its pages and why they are together.
2. get_page_detail on two or three of them: titles, descriptions, headings.
3. find_duplicates and find_near_duplicates restricted by eye to its pages: a template
   whose pages share their title or content is a trap or a thin section.
Report whether the template's pages are distinct pages or copies."""


PROMPTS: tuple[PromptDef, ...] = (
    PromptDef("audit_site", "Audit a crawled site", "A full audit of one archive: scale, "
              "broken links, redirects, duplicates, traps, templates, accessibility.",
              (ARCHIVE,), _audit),
    PromptDef("find_crawler_traps", "Crawler traps and what to exclude", "What the soft cap "
              "stopped, the clusters of look-alike pages, and the exclusions to add.",
              (ARCHIVE,), _traps),
    PromptDef("broken_links_and_redirects", "Broken links and redirects", "Broken targets "
              "by the pages linking to them, error pages, redirect chains and loops.",
              (ARCHIVE,), _links),
    PromptDef("metadata_and_duplicates", "Metadata and duplicates", "Missing and shared "
              "titles and descriptions, canonical and og mismatches, near duplicates.",
              (ARCHIVE,), _metadata),
    PromptDef("accessibility_findings", "Accessibility findings", "The analyze plugins' "
              "findings grouped by rule (axe, the HTML checker, text).",
              (ARCHIVE, VALIDATOR), _accessibility),
    PromptDef("what_changed", "What changed since the last crawl", "Two crawls of one site "
              "compared: removed and added pages, new broken links, changed fields.",
              (ARCHIVE, OLD), _changed),
    PromptDef("review_page", "Review one page", "One page's detail, HTML, near duplicates "
              "and findings.", (ARCHIVE, URL), _page),
    PromptDef("review_template", "Review one template", "One template cluster's pages and "
              "whether they are distinct.", (ARCHIVE, KEY), _template),
)
BY_NAME = {p.name: p for p in PROMPTS}


def listed() -> list[Prompt]:
    return [Prompt(name=p.name, title=p.title, description=p.description,
                   arguments=list(p.arguments)) for p in PROMPTS]


def figures(archive: Archive) -> str:
    """The summary figures a plan starts from, in a few lines."""
    s = get_summary(archive)
    totals = s.get("totals") or {}
    crawl = s.get("crawl") or {}
    statuses = ", ".join(f"{d['status']}: {d['count']:,}"
                         for d in (s.get("statusDistribution") or [])[:8])
    findings = s.get("violations")
    analysed = ("never analysed" if findings is None else
                ", ".join(f"{f['validator']} {f['findings']:,} on {f['pages']:,} pages"
                          for f in findings) or "analysed, nothing found")
    return (f"The archive now: {s.get('baseUrl')}; {totals.get('htmlPages', 0):,} HTML "
            f"pages of {totals.get('urls', 0):,} URLs; crawl "
            f"{crawl.get('stopReason') or 'end not recorded'}; statuses {statuses or 'none'}; "
            f"{totals.get('refusedUrls', 0):,} URLs refused by the soft cap; "
            f"findings: {analysed}.")


def archive_names(roots: list[Path], prefix: str,
                  candidates: Callable[[Path], list[Path]]) -> list[str]:
    """Archives under the roots whose path or file name starts with ``prefix``."""
    names: list[str] = []
    for root in roots:
        for path in candidates(root):
            text = str(path)
            if text.startswith(prefix) or path.name.startswith(prefix):
                names.append(text)
    return sorted(set(names))[:MAX_COMPLETIONS]


def urls(archive: Archive, prefix: str) -> list[str]:
    """The archive's page URLs starting with ``prefix`` (a LIKE pattern's wildcards in
    it taken literally), in URL order."""
    escaped = prefix.replace("%", "").replace("_", "")
    result = list_pages(archive, url_pattern=escaped + "%", limit=MAX_COMPLETIONS)
    return [i["url"] for i in result["items"] if str(i["url"]).startswith(prefix)]


def template_keys(archive: Archive, prefix: str) -> list[str]:
    """Template ids, biggest template first (a key typed so far completes to its
    template's id: 12 characters to carry instead of a JSON key) — only when the archive
    has them at hand (a completion never starts the minutes-long first computation)."""
    if not templates_ready_of(archive):
        return []
    items = get_template_clusters(archive, reasons=False, limit=MAX_COMPLETIONS)["items"]
    return [str(i["id"]) for i in items
            if str(i["id"]).startswith(prefix) or str(i["key"]).startswith(prefix)]


def validators(archive: Archive, prefix: str) -> list[str]:
    findings = get_summary(archive).get("violations") or []
    return [str(f["validator"]) for f in findings if str(f["validator"]).startswith(prefix)]


def render(prompt: PromptDef, arguments: dict[str, str], summary: str) -> str:
    return prompt.plan(arguments) + "\n\n" + summary


def missing(prompt: PromptDef, arguments: dict[str, Any]) -> list[str]:
    return [a.name for a in prompt.arguments if a.required and not arguments.get(a.name)]
