"""Which of a page's stylesheets name its template: the first-party ones, without query.

The block key (:mod:`page_cluster.resolve`) groups pages by their stylesheet *set*: a
section's own ``/assets/css/news.css`` is strong evidence of its template. Two kinds of
href are not:

- **Stylesheets from other sites** — a web font (``fonts.googleapis.com/css2?…``), a
  review widget's CDN, a consent banner — are loaded on a share of pages by
  configuration, A/B tests or content, whatever the template. With them in the key,
  every template splits by whether a page happens to load a font. A stylesheet is
  first-party when its host is the page's host or shares the page's registrable domain
  (``static.example.com`` on ``www.example.com``). An href without a host
  (``/css/a.css``) is the page's own (give absolute or root-relative hrefs:
  ``../_static/site.css`` cannot be resolved without the page's URL, so it differs by
  depth). Without the page's host nothing is dropped.
- **Query strings** — cache-busting versions (``?2022.1``, ``?ver=6.4``) never name a
  template, and module lists (MediaWiki's ``load.php?modules=…``) vary within one page
  type: on a real MediaWiki, blocks keyed with them gave ARI 0.859 against 0.954 without
  (docs/BENCHMARKS.md). The query and fragment are dropped; the path stays.

A first-party href is written as its path (``/css/news.css``): the host is the same for
every page of a site, so it says nothing, and keys stay readable.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

GENERIC_SECOND_LEVEL = frozenset({"ac", "co", "com", "edu", "gov", "go", "ne", "net", "or",
                                  "org"})
"""Second-level labels under which country-code domains register names (``example.co.uk``,
``example.com.au``, ``example.ne.jp``): there the registrable domain has three labels.
An approximation of the public suffix list that needs no data file: a site whose
stylesheets come from a sibling host under another suffix is read as third-party."""


def registrable_domain(host: str) -> str:
    """``www.example.com`` → ``example.com``; ``a.example.co.uk`` → ``example.co.uk``;
    an IP address or a single label stays as it is."""
    host = host.lower().rstrip(".")
    labels = host.split(".")
    if len(labels) <= 2 or labels[-1].isdigit():
        return host
    keep = 3 if len(labels[-1]) == 2 and labels[-2] in GENERIC_SECOND_LEVEL else 2
    return ".".join(labels[-keep:])


def first_party(hrefs: Iterable[str], host: str | None) -> frozenset[str]:
    """The stylesheets of ``hrefs`` that belong to the page's site, as paths without
    query (``https://www.example.com/css/a.css?v=3`` → ``/css/a.css``); hrefs of other
    hosts are left out when ``host`` is known."""
    site = registrable_domain(host) if host else None
    kept = set()
    for href in hrefs:
        try:
            parts = urlsplit(str(href).strip())
            other = parts.hostname
        except ValueError:  # a stranger's href: an unbalanced IPv6 bracket, a bad port
            continue
        if other and site is not None and registrable_domain(other) != site:
            continue
        if parts.path:
            kept.add(parts.path)
    return frozenset(kept)
