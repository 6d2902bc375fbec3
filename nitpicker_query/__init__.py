"""nitpicker_query: read-only queries over ``.nitpicker`` archives (formats 0.10.x and 0.13.x).

Open an archive once and pass it to any query function::

    from nitpicker_query import open_archive, list_pages, get_summary

    with open_archive("site.nitpicker") as archive:
        print(get_summary(archive)["totalPages"])
        for page in list_pages(archive, missing_title=True, limit=100)["items"]:
            print(page["url"])

Every function takes the archive (or a path) first and keyword options after, and
returns JSON-serialisable data; every list is ``{items, total, limit, offset,
nextOffset}``. Nothing here ever writes to an archive.
"""

from importlib import metadata as _metadata

from .archive.opening import Archive, open_archive
from .exceptions import (
    ArchiveBusy,
    ArchiveError,
    ArchiveNotFound,
    InvalidArgument,
    NitpickerError,
    NotAnArchive,
    NotFound,
    UnsafeArchive,
    UnsupportedFormat,
)
from .format.content_types import CATEGORIES, classify_content_type
from .format.error_kinds import classify_error_kind
from .format.v010 import FORMAT_VERSION
from .queries.check_headers import check_headers
from .queries.compare import compare_archives
from .queries.console_logs import get_page_console_logs, list_console_logs
from .queries.duplicate_bodies import find_duplicate_bodies, find_duplicate_clusters
from .queries.find_duplicates import find_duplicates
from .queries.find_mismatches import find_mismatches
from .queries.get_duplicate_clusters import get_duplicate_cluster, get_duplicate_clusters
from .queries.get_page_detail import get_page_detail
from .queries.get_page_html import get_page_html
from .queries.get_resource_referrers import get_resource_referrers
from .queries.get_summary import get_summary
from .queries.get_template_clusters import get_template_cluster, get_template_clusters
from .queries.get_violations import get_violations
from .queries.html_extraction import match_selector, match_xpath, search_html
from .queries.isolated import get_isolated_cluster, list_isolated_clusters, list_isolated_pages
from .queries.link_score import list_link_score
from .queries.list_browser_outages import list_browser_outages
from .queries.list_dedupe_cap_events import list_dedupe_cap_events
from .queries.list_images import list_images
from .queries.list_inbound_links import list_inbound_links
from .queries.list_links import list_links
from .queries.list_network_outages import list_network_outages
from .queries.list_pages import list_pages
from .queries.list_resources import list_resources
from .queries.main_contents import get_page_main_contents
from .queries.match_urls import match_urls
from .queries.near_duplicates import find_near_duplicates, get_near_duplicates
from .queries.page_jsonld import get_page_jsonld, get_page_jsonld_overview
from .queries.page_tags import (
    count_pages_by_tag,
    get_page_tags,
    get_tag_inventory,
    list_pages_by_tag,
)
from .queries.pages_by_jsonld_type import count_pages_by_jsonld_type, list_pages_by_jsonld_type
from .queries.resource_inventory import list_pages_by_resource, list_resource_hosts
from .queries.unused_resources import list_unused_resources

__all__ = [
    "CATEGORIES",
    "FORMAT_VERSION",
    "Archive",
    "ArchiveBusy",
    "ArchiveError",
    "ArchiveNotFound",
    "InvalidArgument",
    "NitpickerError",
    "NotAnArchive",
    "NotFound",
    "UnsafeArchive",
    "UnsupportedFormat",
    "check_headers",
    "classify_content_type",
    "classify_error_kind",
    "compare_archives",
    "count_pages_by_jsonld_type",
    "count_pages_by_tag",
    "find_duplicate_bodies",
    "find_duplicate_clusters",
    "find_duplicates",
    "find_mismatches",
    "find_near_duplicates",
    "get_duplicate_cluster",
    "get_duplicate_clusters",
    "get_isolated_cluster",
    "get_near_duplicates",
    "get_page_console_logs",
    "get_page_detail",
    "get_page_html",
    "get_page_jsonld",
    "get_page_jsonld_overview",
    "get_page_main_contents",
    "get_page_tags",
    "get_resource_referrers",
    "get_summary",
    "get_tag_inventory",
    "get_template_cluster",
    "get_template_clusters",
    "get_violations",
    "list_browser_outages",
    "list_console_logs",
    "list_dedupe_cap_events",
    "list_images",
    "list_inbound_links",
    "list_isolated_clusters",
    "list_isolated_pages",
    "list_link_score",
    "list_links",
    "list_network_outages",
    "list_pages",
    "list_pages_by_jsonld_type",
    "list_pages_by_resource",
    "list_pages_by_tag",
    "list_resource_hosts",
    "list_resources",
    "list_unused_resources",
    "match_selector",
    "match_urls",
    "match_xpath",
    "open_archive",
    "search_html",
]

try:
    __version__ = _metadata.version("nitpicker")
except _metadata.PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0+unknown"

