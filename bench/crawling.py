"""The timed in-process crawl the crawler benchmarks share."""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path

from nitpicker_crawl.archive import ArchiveWriter
from nitpicker_crawl.crawl.crawler import Crawler
from nitpicker_crawl.options import CrawlOptions


def timed_crawl(options: CrawlOptions) -> float:
    """Seconds one crawl from ``options.roots`` takes, into a throw-away archive (the
    crawl itself: creating and closing the archive are not counted)."""
    with tempfile.TemporaryDirectory() as tmp:
        writer = ArchiveWriter.create(Path(tmp) / "b.nitpicker", roots=list(options.roots),
                                      **options.info_row())
        crawler = Crawler(options, writer)
        crawler.seed(list(options.roots))
        start = time.perf_counter()
        asyncio.run(crawler.run())
        elapsed = time.perf_counter() - start
        writer.close()
    return elapsed
