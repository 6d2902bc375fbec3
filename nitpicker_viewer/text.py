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
    "copy": "Copy",
    "copied": "Copied",
    "members": "All member pages",
    "representative": "Representative page",
    "refused": "Refused URLs",
    "cluster": "Cluster",
    "error": "Error",
    "live": "Crawl in progress or interrupted (crawler PID {pid})",
    "stub": "Crawl directory (not a finished archive)",
    "html": "Stored HTML (source, not rendered)",
    "no-archives": "No archives under the allowed roots.",
    "internal-contents": "Internal contents",
    "internal-pages": "Internal HTML pages",
    "external-contents": "External contents",
    "status": "Status",
    "content-types": "Content types",
    "metadata": "Metadata fulfilment",
    "crawl": "Crawl",
}


def t(key: str, **values: object) -> str:
    """The string for ``key`` with ``{name}`` placeholders filled."""
    return STRINGS.get(key, key).format(**values)
