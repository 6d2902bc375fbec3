"""``nitpicker-crawl URL [URL ...] [-o FILE]``: crawl a site into a ``.nitpicker`` archive."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import sys
import time
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from urllib.parse import urlsplit

from nitpicker_query import NitpickerError
from nitpicker_query.exceptions import ArchiveBusy

from .archive import ArchiveWriter
from .crawler import Crawler
from .excludes import split_list
from .options import CrawlOptions
from .urls import normalize

PROG = "nitpicker-crawl"
EPILOG = """\
examples:
  nitpicker-crawl https://example.com/ -o example.nitpicker
  nitpicker-crawl https://example.com/blog/ https://example.com/news/ --parallels 8
  nitpicker-crawl https://example.com/ --no-render --exclude '/search,/tag/**'
  nitpicker-crawl --resume ._nitpicker-example        # continue an interrupted crawl

exit status: 0 success; 1 fatal error or pages of the site that could not be fetched;
2 only external links failed (--strict makes that 1); 130 interrupted (archive written).
"""


def _default_output(root: str) -> Path:
    host = urlsplit(root).hostname or "site"
    stamp = datetime.now().strftime("%Y%m%d%H%M%S%f")[:17]
    return Path.cwd() / f"{host}-{stamp}.nitpicker"


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=PROG, description="Crawl a website into a .nitpicker "
                                "archive (format 0.10.0) for nitpicker-query and nitpicker-mcp.",
                                epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("urls", nargs="*", metavar="URL",
                   help="Start URLs; each is also a scope: the crawl stays on its host, port "
                   "and below its path (start at a directory, e.g. https://example.com/blog/).")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="Archive to write. Default: <host>-<timestamp>.nitpicker here.")
    p.add_argument("--parallels", type=int, default=4, metavar="N",
                   help="Pages fetched at once. Default: 4. Example: --parallels 8")
    p.add_argument("--interval", type=int, default=0, metavar="MS",
                   help="Pause between two requests, in ms. Example: --interval 500")
    p.add_argument("--exclude", action="append", default=[], metavar="GLOB[,GLOB]",
                   help="Skip URLs whose path matches (or lies below a match of) a glob: "
                   "* one segment, ** any depth, {a,b}. Example: --exclude '/search,/tag/**'")
    p.add_argument("--exclude-url", action="append", default=[], metavar="PREFIX",
                   help="Skip URLs starting with PREFIX. Example: --exclude-url "
                   "https://example.com/print/")
    p.add_argument("--exclude-pattern", action="append", default=[], metavar="REGEX",
                   help="Skip URLs whose whole URL (path and query) matches REGEX; repeatable. "
                   "Example: --exclude-pattern '[?&]action=history'")
    p.add_argument("--exclude-keyword", action="append", default=[], metavar="TEXT",
                   help="Skip pages whose HTML contains TEXT (or matches /regex/); they are "
                   "recorded as skipped and their links not followed.")
    p.add_argument("--no-fetch-external", dest="fetch_external", action="store_false",
                   help="Do not request external links (they are still recorded as links).")
    p.add_argument("--disable-queries", action="store_true",
                   help="Drop query strings from every URL (?page=2 becomes the same page).")
    p.add_argument("--ignore-robots", action="store_true", help="Do not honour robots.txt.")
    p.add_argument("--user-agent", default=CrawlOptions.user_agent, metavar="UA",
                   help=f"User-Agent header. Default: {CrawlOptions.user_agent!r}")
    p.add_argument("--no-render", dest="render", action="store_false",
                   help="Fetch and parse HTML without a browser: much faster, no JavaScript.")
    p.add_argument("--no-image", dest="image", action="store_false",
                   help="Do not record images.")
    p.add_argument("--max-pages", type=int, default=None, metavar="N",
                   help="Safety net: stop after N URLs of the site (off by default).")
    p.add_argument("--timeout", type=float, default=30.0, metavar="S",
                   help="Per-page budget in seconds (first attempt gets a third). Default: 30.")
    p.add_argument("--retry", type=int, default=3, metavar="N",
                   help="Attempts for network failures. Default: 3.")
    p.add_argument("--follow-nofollow", action="store_true",
                   help="Follow links of nofollow pages (meta robots, X-Robots-Tag) and "
                   "rel=nofollow links inside the site; by default they are recorded but not "
                   "followed, as search engines do.")
    p.add_argument("--strict", action="store_true",
                   help="Exit 1 (not 2) when only external links failed.")
    cap = p.add_argument_group("soft cap (crawler traps)")
    cap.add_argument("--dedupe-cap", type=int, default=None, metavar="N",
                     help="Stop feeding a cluster of pages with identical title, description, "
                     "og:title and og:url once it exceeds N pages (sooner when og:url points at "
                     "a parent list, later for legit pagers), and a URL shape that keeps "
                     "repeating content it already produced; refused URLs are kept as skipped "
                     "and each cap is logged. Off by default; 100 is a good start.")
    cap.add_argument("--dedupe-allow", action="append", default=[], metavar="GLOB[,GLOB]",
                     help="Path globs the soft cap never counts or refuses (a legit section "
                     "it capped), in --exclude's syntax.")
    cap.add_argument("--dedupe-age-window", type=int, default=5000, metavar="N",
                     help="Forget a cluster counter not capped within N observed pages. "
                     "Default: 5000.")
    cap.add_argument("--dedupe-map-cap", type=int, default=100_000, metavar="N",
                     help="Most cluster counters kept in memory (least recently used dropped "
                     "first). Default: 100000.")
    p.add_argument("--resume", metavar="DIR_OR_FILE",
                   help="Continue an interrupted crawl: its working directory "
                   "(._nitpicker-<name>) or a written archive. Pages already fetched are "
                   "not fetched again.")
    p.add_argument("--silent", action="store_true", help="No progress line.")
    return p


def _options(args: argparse.Namespace, roots: list[str]) -> CrawlOptions:
    def listed(values: list[str]) -> tuple[str, ...]:
        return tuple(v for value in values for v in split_list(value))

    return CrawlOptions(
        roots=tuple(roots), parallels=args.parallels, interval_ms=args.interval,
        excludes=listed(args.exclude), exclude_urls=tuple(args.exclude_url),
        exclude_patterns=tuple(args.exclude_pattern),
        exclude_keywords=tuple(args.exclude_keyword), fetch_external=args.fetch_external,
        disable_queries=args.disable_queries, ignore_robots=args.ignore_robots,
        user_agent=args.user_agent, render=args.render, image=args.image,
        max_pages=args.max_pages, timeout_s=args.timeout, retry=args.retry,
        strict=args.strict, silent=args.silent, dedupe_cap=args.dedupe_cap,
        dedupe_age_window=args.dedupe_age_window, dedupe_map_cap=args.dedupe_map_cap,
        dedupe_allow=listed(args.dedupe_allow), follow_nofollow=args.follow_nofollow,
    )


def _fail(message: str, code: int = 1) -> int:
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return code


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.parallels < 1 or (args.max_pages is not None and args.max_pages < 1) or \
            args.retry < 1 or args.timeout <= 0 or args.interval < 0 or (
                args.dedupe_cap is not None and args.dedupe_cap < 1) or \
            args.dedupe_age_window < 1 or args.dedupe_map_cap < 2:
        parser.error("--parallels, --max-pages, --retry, --timeout and the --dedupe-* "
                     "values must be positive")
    roots: list[str] = []
    for pattern in args.exclude_pattern:
        try:
            re.compile(pattern)
        except re.error as exc:
            parser.error(f"--exclude-pattern {pattern!r} is not a regular expression: {exc}")
    for url in args.urls:
        normalized = normalize(url)
        if normalized is None:
            parser.error(f"not an http(s) URL: {url!r} (example: https://example.com/)")
        roots.append(url.split("#", 1)[0])
    try:
        if args.resume:
            writer = ArchiveWriter.resume(args.resume, output=args.output)
            row = writer.conn.execute("SELECT roots FROM info").fetchone()
            stored = json.loads(row[0]) if row and row[0] else []
            roots = stored + [r for r in roots if r not in stored]
            if not roots:
                writer.abandon()
                return _fail("the archive records no start URL to resume from")
        else:
            if not roots:
                parser.error("give at least one start URL (or --resume DIR_OR_FILE)")
            output = Path(args.output) if args.output else _default_output(roots[0])
            if output.suffix != ".nitpicker":
                parser.error(f"the output file must end in .nitpicker: {output.name}")
            options = _options(args, roots)
            writer = ArchiveWriter.create(output, roots=roots, **options.info_row())
    except ArchiveBusy as exc:
        return _fail(f"{exc} (another nitpicker-crawl is writing it)")
    except NitpickerError as exc:
        return _fail(str(exc))
    options = _options(args, roots)
    crawler = Crawler(options, writer)
    if args.resume:
        crawler.seed_from_archive()
    crawler.seed(roots)
    started = time.monotonic()
    try:
        outcome = asyncio.run(crawler.run())
    except NitpickerError as exc:  # e.g. no browser: nothing was crawled
        if args.resume:
            writer.abandon()
        else:
            writer.discard()
        return _fail(str(exc))
    except KeyboardInterrupt:
        writer.abandon()
        print(f"{PROG}: stopped at once; the crawl so far is in {writer.workdir} — resume "
              f"with: {PROG} --resume {os.path.relpath(writer.workdir)}", file=sys.stderr)
        return 130
    output = writer.close()
    elapsed = time.monotonic() - started
    rel = os.path.relpath(output)
    summary = (f"{outcome.urls_done} URLs ({outcome.pages_saved} HTML pages) in "
               f"{elapsed:.1f} s → {rel}")
    if outcome.stop_reason == "interrupted":
        print(f"{PROG}: interrupted; {summary}. Continue with: {PROG} --resume {rel}",
              file=sys.stderr)
        return 130
    if outcome.stop_reason == "max-pages":
        summary += f" (stopped at --max-pages {options.max_pages}; continue with --resume {rel})"
    if crawler.softcap is not None and crawler.softcap.events:
        summary += (f"; soft cap: {len(crawler.softcap.events)} cluster(s) capped, "
                    f"{crawler.softcap.rejected_total} URLs refused (nitpicker-query "
                    f"dedupe-cap-events {rel})")
    print(f"{PROG}: done: {summary}", file=sys.stderr)
    if outcome.internal_errors:
        only = outcome.urls_done == outcome.internal_errors
        lead = "no page of the site could be fetched" if only else (
            f"{outcome.internal_errors} URL(s) of the site could not be fetched")
        print(f"{PROG}: {lead}; first: {outcome.error_urls[0]}: {outcome.first_error}",
              file=sys.stderr)
    elif outcome.external_errors:
        print(f"{PROG}: {outcome.external_errors} external link(s) could not be fetched",
              file=sys.stderr)
    return outcome.exit_code(options.strict)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
