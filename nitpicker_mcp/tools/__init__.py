"""The server's tools, in ``tools/list`` order: an explicit tuple, no discovery."""

from __future__ import annotations

from . import (
    check_headers,
    count_pages_by_jsonld_type,
    count_pages_by_tag,
    find_duplicates,
    find_mismatches,
    get_duplicate_cluster,
    get_duplicate_clusters,
    get_page_detail,
    get_page_html,
    get_page_jsonld,
    get_page_jsonld_overview,
    get_page_tags,
    get_resource_referrers,
    get_summary,
    get_tag_inventory,
    get_violations,
    list_archives,
    list_dedupe_cap_events,
    list_images,
    list_inbound_links,
    list_links,
    list_pages,
    list_pages_by_jsonld_type,
    list_pages_by_tag,
    list_resources,
    open_archive,
)
from ._base import ToolDef

TOOLS: tuple[ToolDef, ...] = (
    list_archives.TOOL,
    open_archive.TOOL,
    get_summary.TOOL,
    list_pages.TOOL,
    get_page_detail.TOOL,
    get_page_html.TOOL,
    find_duplicates.TOOL,
    find_mismatches.TOOL,
    list_links.TOOL,
    list_resources.TOOL,
    get_resource_referrers.TOOL,
    list_images.TOOL,
    check_headers.TOOL,
    get_duplicate_clusters.TOOL,
    get_duplicate_cluster.TOOL,
    list_dedupe_cap_events.TOOL,
    list_inbound_links.TOOL,
    list_pages_by_jsonld_type.TOOL,
    count_pages_by_jsonld_type.TOOL,
    get_page_jsonld.TOOL,
    get_page_jsonld_overview.TOOL,
    list_pages_by_tag.TOOL,
    count_pages_by_tag.TOOL,
    get_tag_inventory.TOOL,
    get_page_tags.TOOL,
    get_violations.TOOL,
)

BY_NAME: dict[str, ToolDef] = {t.name: t for t in TOOLS}
