"""Link admission: which of a page's links the crawl queues, and why the others are not.

A URL met for the first time is queued, or refused with a reason the page's store
records (``url-too-long``; ``dedupe-cap`` with the event that covers it), or left
unfollowed (``nofollow``: a skipped row when the crawl stops unless another link queues
it). Growth is bounded per page (``--max-links-per-page``) and overall
(``--max-queued``): what is left out is neither stored nor followed, and said once.
"""

from __future__ import annotations

from nitpicker_query.terminal import fit

from ..extract import extraction
from ..fetch.document import RawDocument
from ..fetch.scope import Scope
from ..fetch.urls import MAX_URL_LENGTH, normalize
from ..options import CrawlOptions
from .frontier import Frontier
from .progress import Progress
from .suspects import Anchors, Suspects

Refused = list[tuple[str, str, int | None]]
"""URLs a page's store records as skipped: URL, reason, the cap event covering it."""


class Links:
    """The links of one crawl. ``labels``: the writer's inventory labels of URLs
    (upstream's ``source``); ``labelled``: the archive has a column for them."""

    def __init__(self, options: CrawlOptions, scope: Scope, frontier: Frontier,
                 progress: Progress, suspects: Suspects | None,
                 labels: dict[str, str], *, labelled: bool) -> None:
        self.options = options
        self.scope = scope
        self.frontier = frontier
        self.progress = progress
        self.suspects = suspects
        self.labels = labels
        self.labelled = labelled
        self.nofollow: set[str] = set()  # internal URLs seen only on nofollow links

    def unreached(self) -> list[str]:
        """The URLs only ``nofollow`` links led to, never reached otherwise."""
        return sorted(u for u in self.nofollow if u not in self.frontier.seen)

    def of_page(self, raw: RawDocument, page_url: str, refused: Refused,
                notes: list[tuple[str, str]], *, nofollow_page: bool = False,
                lifted: list[str] | None = None) -> Anchors:
        """Anchors as stored (identity URLs), queueing the new ones on the way.

        New in-scope URLs of a capped cluster are not queued; they are appended to
        ``refused`` with the reason and the cap event that covers them, so the page's
        store records them as skipped (``dedupe-cap``, the event in
        ``meta_extras.capEvent``); so are URLs longer than
        :data:`~nitpicker_crawl.fetch.urls.MAX_URL_LENGTH` (``url-too-long``).
        Links of a ``nofollow`` page (meta robots or ``X-Robots-Tag``) and ``rel=nofollow``
        links are stored but, unless ``--follow-nofollow``, not followed inside the site;
        one never reached otherwise is recorded as skipped (``nofollow``) when the crawl
        stops.

        Bounded growth: at most ``--max-links-per-page`` URLs not seen before are taken
        from one page, and none once ``--max-queued`` URLs wait; the links left out are
        neither stored nor followed, and ``notes`` gets one ``page_errors`` line saying
        how many (a page of 10,000 fresh links must not add 10,000 rows per page).

        Inventory labels (upstream's ``source``): the new URLs of an inventory page are
        ``inventory-discovered``; an inventory URL a crawled page links to is reachable
        after all and becomes ``crawled`` (appended to ``lifted`` for the store).
        """
        result = []
        opts = self.options
        seen = self.frontier.seen
        labels = self.labels
        from_inventory = page_url in labels
        taken: set[str] = set()
        left_out = queue_full = 0
        first_left: str | None = None
        for href, fragment, text, nofollow in extraction.anchors(raw, page_url):
            url = normalize(href, disable_queries=opts.disable_queries)
            if url is None:
                continue
            if labels and not from_inventory and url in labels and lifted is not None:
                del labels[url]
                lifted.append(url)
            if url not in seen and url not in taken:
                internal = self.scope.is_internal(url)
                if from_inventory and internal and self.labelled:
                    labels[url] = "inventory-discovered"
                follows = internal or opts.fetch_external
                if len(taken) >= opts.max_links_per_page or (follows and self.frontier.full):
                    if len(taken) >= opts.max_links_per_page:
                        left_out += 1
                    else:
                        queue_full += 1
                    first_left = first_left or url
                    continue
                taken.add(url)
                if not self.take(url, internal, refused, nofollow or nofollow_page):
                    seen.add(url)
            result.append((url, fragment, text))
        first = fit(first_left or "", 200)
        if left_out:
            notes.append(("links", f"links: {len(taken):,} new URLs taken from this page, "
                          f"{left_out:,} more left out (--max-links-per-page "
                          f"{opts.max_links_per_page}); first left out: {first}"))
            self.progress.say_once(
                "max-links-per-page", f"[nitpicker] {fit(page_url, 200)} links more than "
                f"{opts.max_links_per_page:,} new URLs; the rest are left out "
                "(--max-links-per-page; recorded on the page)")
        if queue_full:
            notes.append(("links", f"links: {queue_full:,} new URLs left out, the queue "
                          f"holding {self.frontier.queued:,} (--max-queued "
                          f"{opts.max_queued}); first left out: {first}"))
            self.progress.say_once(
                "max-queued", f"[nitpicker] {self.frontier.queued:,} URLs queued "
                f"(--max-queued {opts.max_queued:,}): new links are left out until "
                "it drains (recorded on each page)")
        return result

    def take(self, url: str, internal: bool, refused: Refused, nofollow: bool) -> bool:
        """A URL seen for the first time: queue it, or say why not. False when it is not
        queued and only needs marking as seen (its row comes from its anchor)."""
        opts = self.options
        if not internal:
            if opts.fetch_external:
                return self.frontier.add(url, external=True, metadata_only=True)
            return False
        if len(url) > MAX_URL_LENGTH:
            refused.append((url, "url-too-long", None))
            return False
        if nofollow and not opts.follow_nofollow:
            self.nofollow.add(url)
            return True  # not seen yet: a followed link elsewhere may still queue it
        if self.suspects is not None:
            event_id = self.suspects.softcap.admit(url)
            if event_id is not None:
                self.suspects.refuse(event_id)
                refused.append((url, "dedupe-cap", event_id))
                return False
        return self.frontier.add(url, external=False, metadata_only=not opts.recursive)
