"""Every string a user reads in the viewer, in one place (a translation replaces this
table, nothing else)."""

from __future__ import annotations

STRINGS: dict[str, str] = {
    "app": "nitpicker viewer",
    "skip": "Skip to content",
    "theme": "Toggle dark theme",
    "archives": "Archives",
    "summary": "Summary",
    "pages": "Pages",
    "page": "Page detail",
    "links": "Links",
    "resources": "Resources",
    "images": "Images",
    "duplicates": "Duplicates",
    "duplicate-bodies": "Same bodies",
    "isolated-pages": "Orphans",
    "isolated-clusters": "Orphan clusters",
    "network-outages": "Outages",
    "browser-outages": "Browser losses",
    "console-logs": "Console",
    "unused-resources": "Unused files",
    "violations": "Violations",
    "compare": "Changes",
    "link-score": "Link score",
    "near-duplicates": "Near duplicates",
    "near-duplicates-of": "Near duplicates of a page",
    "resource-hosts": "Resource hosts",
    "search-html": "Search HTML",
    "match-selector": "CSS selector",
    "match-xpath": "XPath",
    "fill-in": "Fill in {fields} and apply: every stored HTML page of the site is read.",
    "compare-choose": "Choose the older crawl to compare this one with: the summary of "
                      "what changed comes first, then each list.",
    "compare-old": "Old crawl", "compare-new": "New crawl (this archive)",
    "compare-archive": "Archive", "compare-format": "Format", "compare-ended": "Ended",
    "compare-roots": "Start URLs",
    "compare-comparable": "Both crawls completed: a URL only one of them reached under the "
                          "other's start URLs is added or removed.",
    "compare-partly": "Not every URL is comparable: a URL only one crawl reached is "
                              "listed as not comparable, never as added or removed.",
    "compare-maps": "Old URLs rewritten by",
    "compare-lists": "What changed", "compare-list": "List", "compare-rows": "Rows",
    "compare-by-field": "Changed, by field", "compare-field": "Field",
    "compare-summary": "Summary of the comparison",
    "compare-changed": "Changed", "compare-added": "Added", "compare-removed": "Removed",
    "compare-not-comparable": "Not comparable",
    "compare-broken-links": "Broken links, new and fixed",
    "compare-clusters": "Trap events and duplicate clusters, new and gone",
    "violations-here": "Findings of the analyze plugins",
    "violations-all": "All {n} in the Violations view",
    "main-content": "Main content",
    "status-seed": "{status}, named only by the sitemaps or the list",
    "tech-confidence": "Confidence",
    "tech-evidence": "Evidence (each signal's weight)",
    "tech-weight": "weight {weight}",
    "main-region": "Region",
    "main-none": "No main region (no <main>, role=main, #content or the like): counts are 0.",
    "main-chars": "Characters (no whitespace)",
    "main-chars-value": "{main} in the region, {body} in the whole body",
    "duplicate-body-clusters": "Same-body clusters",
    "mismatches": "Mismatches",
    "headers": "Headers",
    "duplicate-clusters": "Duplicate clusters",
    "duplicate-cluster": "Cluster",
    "dedupe-cap-events": "Cap events",
    "template-clusters": "Templates",
    "template-cluster": "Template",
    "blocks": "Path and stylesheets",
    "landmarks": "Landmarks beyond the site's chrome",
    "core": "Structural core (element paths on 80 % of its pages)",
    "meta-clusters": "Meta signatures",
    "capped": "capped",
    "siblings": "Other templates of the same blocks",
    "clustered": "{pages} pages clustered; {missing} internal HTML pages without stored HTML",
    "filters": "Filters",
    "apply": "Apply",
    "previous": "Previous",
    "next": "Next",
    "showing": "Showing {first}–{last} of {total}",
    "none": "Nothing here.",
    "none-links-broken": "No broken link: every link of this archive ended on an answer below "
    "400 (or was not checked).",
    "none-links-orphaned": "No orphaned page.",
    "none-links-external": "No external link.",
    "computing": "Starting…",
    "computing-why": "The crawl of this archive did not store its template clusters, so "
                     "they are being computed now: every stored page is read once (about a "
                     "millisecond a page). This page shows the result when it is done.",
    "computing-reload": "Reload this page in a while to see the result.",
    "copy": "Copy",
    "redirect-chain": "Redirect chain",
    "csv": "Download CSV (all {total} rows)",
    "copied": "Copied",
    "members": "All member pages",
    "member-pages": "{n} page{s}",
    "representative": "Representative page",
    "refused": "Refused URLs",
    "refused-urls": "{n} refused URL{s}",
    "runs": "{n} run{s}",
    "queued-urls": "{n} URL{s} found and not fetched yet (--resume fetches them)",
    "cluster": "Cluster",
    "error": "Error",
    "live": "Crawl in progress or interrupted (crawler PID {pid})",
    "stub": "Crawl directory (not a finished archive)",
    "html": "Stored HTML (source, not rendered)",
    "no-archives": "No archives under the allowed roots.",
    "urls": "URLs",
    "html-pages": "HTML pages",
    "external-urls": "External URLs",
    "status": "Status",
    "content-types": "Content types",
    "metadata": "Metadata fulfilment",
    "crawl": "Crawl",
    "copy-url": "Copy URL",
    "archive": "Archive",
    "site": "Site",
    "crawled": "Crawled",
    "cluster-title": "Cluster {shape}: {n} page{s}",
    "template-title": "Template {path}: {n} page{s}",
    "signature": "Signature",
    "template-key": "Key",
    "prefix-of": "{a} is the start of the {b}",
    "broken-links": "Broken links",
    "skipped-urls": "Skipped URLs",
    "field": "Field",
    "share-with": "Pages with it",
    "pages-without": "Pages without it",
    "pages-without-field": "pages without {field}",
    "and-more": "…and {n} more",
    "hsts-http": "n/a (http)",
    "metadata-population-indexable": "Shares of the {pages} indexable pages (2xx, not noindex, "
    "canonical absent or self).",
    "metadata-population-all": "Shares of all {pages} HTML pages of the site, error pages "
    "and noindex pages included.",
    "metadata-population-switch-indexable": "Count every HTML page",
    "metadata-population-switch-all": "Count indexable pages only",
    "outboundLinks": "Outbound links",
    "inboundLinks": "Inbound links",
    "redirectFrom": "Redirected here from",
    "response-headers": "Response headers",
    "no-headers": "None stored for this URL (not fetched, or a redirect).",
    "refused-by": "Refused by the soft cap:",
    "cap-event-n": "cap event {id}",
    "one-event": "Cap event {id} only.",
    "all-events": "Every cap event",
    "press-copy": "Selected: press Ctrl+C (⌘C) to copy",
    "yes": "yes",
    "no": "no",
    "internal": "internal",
    "external": "external",
    "not-fetched": "not fetched",
    "columns": "Columns",
    "column-set-overview": "Overview",
    "column-set-security": "Security headers",
    "column-set-redirects": "Redirects",
    "column-set-metadata": "Metadata",
    "column-set-link-score": "Link score",
    "column-set-all": "All",
}


LABELS: dict[str, str] = {
    # column and filter names (the API's camelCase) as a person reads them
    "url": "URL", "status": "Status", "title": "Title", "contentType": "Content type",
    "noindex": "noindex", "skipReason": "Skipped because", "hasCSP": "CSP",
    "hasXFrameOptions": "X-Frame-Options", "hasXContentTypeOptions": "X-Content-Type-Options",
    "hasHSTS": "HSTS", "sourceUrl": "Linked from", "destUrl": "Link target",
    "isExternal": "External", "textContent": "Anchor text", "referrerCount": "Referring pages",
    "linkCount": "Links", "pageUrl": "Page", "src": "Image", "alt": "Alt text",
    "width": "Width", "height": "Height", "value": "Value", "count": "Pages", "urls": "URLs",
    "type": "Type", "actual": "Actual", "expected": "Expected", "ogUrl": "og:url",
    "ogUrlMismatch": "og:url differs", "shapeKey": "URL shape", "statusMin": "Status from",
    "statusMax": "Status to", "contentTypeCategory": "Content type", "capEvent": "Cap event",
    "missingTitle": "Missing title", "missingDescription": "Missing description",
    "securityHeaders": "Show security headers", "skipped": "Skipped URLs", "sortBy": "Sort by",
    "sortOrder": "Order", "minCount": "At least (pages)", "byDestination": "One row per target",
    "includeRedirectSources": "Show redirect sources", "missingOnly": "Missing only",
    "resourceUrl": "Resource URL", "signature": "Signature", "search": "Search",
    "brokenAs": "Broken means", "pageSize": "Rows per page", "by": "Grouped by",
    "finalUrl": "Redirects to", "detectedAt": "Detected", "observedCount": "Observed",
    "rejectedCount": "Refused", "effectiveThreshold": "Threshold", "sampleUrl": "Sample",
    "redirectChain": "Redirects", "firstCrawledAt": "First crawled",
    "lastCrawledAt": "Last crawled", "problems": "Problems", "description": "Description",
    "keywords": "Keywords", "ogTitle": "og:title", "ogDescription": "og:description",
    "ogImage": "og:image", "canonical": "Canonical", "lang": "Language",
    "missing": "Missing field",
    "bodyHash": "Body hash", "ogUrlMismatchRatio": "og:url elsewhere",
    "commonDirectories": "Directories", "samplePages": "Sample pages",
    "pagesLimit": "URLs per group", "samplePagesLimit": "Sample pages",
    "source": "Found by", "representativeUrl": "First page", "size": "Pages",
    "startedAt": "From", "endedAt": "To", "probeHost": "Probed",
    "triggerErrorCount": "Failures that set it off", "failures": "Failed inside",
    "totalCount": "Times", "pageCount": "Pages", "samplePage": "First seen on",
    "line": "Line", "text": "Message",
    "finalStatus": "Final status", "redirectStatus": "Redirect",
    "redirects": "Redirects only", "redirectKind": "Redirect kind", "redirectTo": "Next hop",
    "redirectLoop": "Loop",
    "jsonldCount": "JSON-LD items", "tagsProvidersCsv": "Technologies",
    "isSkipped": "Skipped",
}


HEADINGS: dict[str, str] = {
    # a column's heading where it differs from the filter of the same name
    "isExternal": "Internal / external",
}
LABELS["urlPattern"] = "URL pattern"


MISMATCH_HEADINGS: dict[str, dict[str, str]] = {
    # a find_mismatches type → what its actual and expected values are
    "canonical": {"actual": "Page URL", "expected": "Canonical"},
    "og:title": {"actual": "og:title", "expected": "Title"},
    "og:description": {"actual": "og:description", "expected": "Description"},
}


MAIN_CONTENT_HEADINGS: dict[str, str] = {
    # a main-content inventory's column → its heading (these names mean other things
    # in other lists: ``text`` is a console message there, ``src`` an image)
    "text": "Text", "src": "Source URL", "alt": "Alt text", "cols": "Columns",
    "nodeName": "Element", "elementId": "Id", "classList": "Classes",
    "hasMergedCell": "Merged cells",
}


def main_heading(name: str) -> str:
    """A main-content inventory column's heading."""
    return MAIN_CONTENT_HEADINGS.get(name) or heading(name)


def heading(name: str) -> str:
    """A column's heading: :data:`HEADINGS`, else its label."""
    return HEADINGS.get(name) or label(name)


def label(name: str) -> str:
    """A column or filter name as words: the table above, else ``camelCase`` split
    (``metadataFulfillment`` → ``Metadata fulfillment``)."""
    if name in LABELS:
        return LABELS[name]
    words: list[str] = []
    for char in name:
        if char.isupper() and words and not words[-1][-1:].isupper():
            words.append(char.lower())
        elif words:
            words[-1] += char
        else:
            words.append(char)
    return " ".join(words).capitalize()


def nothing(view: str, kind: str = "") -> str:
    """What an empty list says: in words of what was asked when the view has them ("No
    broken link"), else "Nothing here." — an empty table must not read as "no links"."""
    return STRINGS.get(f"none-{view}-{kind}") or STRINGS["none"]


def t(key: str, **values: object) -> str:
    """The string for ``key`` with ``{name}`` placeholders filled; ``{s}`` is the plural
    ending of the number ``n`` (``1 run``, ``2 runs``)."""
    if "n" in values:
        n = values["n"]
        values = {"s": "" if n == 1 else "s", **values,
                  "n": f"{n:,}" if isinstance(n, int) else n}
    return STRINGS.get(key, key).format(**values)
