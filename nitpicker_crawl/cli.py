"""``nitpicker-crawl URL [URL ...] [-o FILE]``: crawl a site into a ``.nitpicker`` archive."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import os
import re
import shlex
import shutil
import signal
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from nitpicker_query import NitpickerError, __version__, progress
from nitpicker_query.archive import locks
from nitpicker_query.exceptions import ArchiveBusy
from nitpicker_query.keys.patterns import glob_problem
from nitpicker_query.progress import StderrLine
from nitpicker_query.queries._common import json_list
from nitpicker_query.queries.totals import crawl_totals, plural
from nitpicker_query.terminal import CliParser, escape, fit, outlive_readers

from .archive import ArchiveWriter
from .crawl.crawler import Crawler
from .extract import templates
from .extract.inventory import read_list
from .extract.main_contents import SelectorError, check_selector
from .fetch import endpoints
from .fetch.excludes import split_list
from .fetch.request_headers import HeaderError, RequestHeaders, from_flags
from .fetch.scope import Scope
from .fetch.urls import normalize
from .options import FLAGS, MINIMUM, CrawlOptions

PROG = "nitpicker-crawl"
EPILOG = """\
scope: each start URL is also a scope; the crawl stays on its host and port and in its
directory. A start URL that names a page scopes to that page's directory:
  https://example.com/                  the whole host
  https://example.com/blog/             /blog/ and below
  https://example.com/wiki/Main_Page    /wiki/ and below
  https://example.com/blog              the whole host (blog is a page of /)

examples:
  nitpicker-crawl https://example.com/ -o example.nitpicker
  nitpicker-crawl https://example.com/blog/ https://example.com/news/
  nitpicker-crawl https://example.com/ --no-render --exclude '/search,/tag/**'
  nitpicker-crawl --resume example.nitpicker   # continue it, with its options
  nitpicker-crawl upgrade old.nitpicker -o new.nitpicker   # upstream < 0.10
  nitpicker-crawl convert site.nitpicker --to 0.13 -o site-0.13.nitpicker  # for upstream 0.13+
  nitpicker-crawl analyze site.nitpicker   # accessibility, HTML, text
  nitpicker-crawl browser-host --host 0.0.0.0   # on another machine: lend its Chromium
  nitpicker-crawl https://example.com/ --browser-endpoint ws://10.0.0.2:PORT/TOKEN

--resume continues the crawl an archive (or an interrupted crawl's ._nitpicker-<name>
directory) holds, with the options it was started with, and writes it back to the same
file; an option given with --resume overrides the stored one (and says so): e.g.
--render after --no-render, --max-pages 2000 after --max-pages 1000. URLs whose fetch
failed (status -1) are tried again.

exit status: 0 the site was crawled; 1 fatal error, or URLs of the site could not be
fetched (no archive is written when not one page could be), or the start URL answered
an error (400 or more) and nothing else was crawled (the archive is written); 2 only
external links failed (--strict makes that 1); 3 stopped by --max-pages (the archive holds what was
crawled; --resume with a larger --max-pages continues); 4 stopped by a network outage
longer than --max-outage (archive written; --resume continues); 130 interrupted (archive
written; the message says how to continue); 143 stopped by SIGTERM, 129 by SIGHUP
(the same orderly stop as Ctrl-C).
"""


def _default_output(root: str) -> Path:
    host = urlsplit(root).hostname or "site"
    stamp = datetime.now().strftime("%Y%m%d%H%M%S%f")[:17]
    return Path.cwd() / f"{host}-{stamp}.nitpicker"


def _default(name: str) -> str:
    return f" Default: {getattr(_DEFAULTS, name)}."


_DEFAULTS = CrawlOptions(roots=())


def build_parser() -> argparse.ArgumentParser:
    """The parser. Option defaults are None so that :func:`main` can tell a flag given on
    the command line (which overrides a resumed crawl's stored option) from one absent;
    the real defaults are :class:`CrawlOptions`' and are shown in the help."""
    p = CliParser(prog=PROG, description="Crawl a website into a .nitpicker "
                                "archive (format 0.10.0) for nitpicker-query and nitpicker-mcp.",
                                epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("urls", nargs="*", metavar="URL",
                   help="Start URLs; each is also a scope (see 'scope' below).")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="Archive to write (its directory must exist). Default: "
                   "<host>-<timestamp>.nitpicker here; with --resume, the resumed file.")
    p.add_argument("--overwrite", action="store_true",
                   help="Replace an existing output file (and an interrupted crawl's "
                   "working directory for it). Without it both are refused.")
    p.add_argument("--parallels", type=int, metavar="N",
                   help="Pages fetched at once. Example: --parallels 8." + _default("parallels"))
    p.add_argument("--interval", dest="interval_ms", type=int, metavar="MS",
                   help="Pause between two requests to the site, in ms (external links are "
                   "checked without it). Example: --interval 500."
                   + _default("interval_ms"))
    p.add_argument("--exclude", dest="excludes", action="append", metavar="GLOB[,GLOB]",
                   help="Skip URLs whose path matches (or lies below a match of) a glob: "
                   "* one segment, ** any depth, {a,b}. Example: --exclude '/search,/tag/**'")
    p.add_argument("--exclude-url", dest="exclude_urls", action="append", metavar="PREFIX",
                   help="Skip URLs starting with PREFIX. Example: --exclude-url "
                   "https://example.com/print/")
    p.add_argument("--exclude-pattern", dest="exclude_patterns", action="append",
                   metavar="REGEX",
                   help="Skip URLs whose whole URL (path and query) matches REGEX; repeatable. "
                   "Example: --exclude-pattern '[?&]action=history'")
    p.add_argument("--exclude-keyword", dest="exclude_keywords", action="append",
                   metavar="TEXT",
                   help="Skip pages whose HTML contains TEXT (or matches /regex/); they are "
                   "recorded as skipped and their links not followed.")
    p.add_argument("--fetch-external", action=argparse.BooleanOptionalAction,
                   help="Request external links for status, type and title (default); "
                   "--no-fetch-external only records them as links.")
    p.add_argument("--disable-queries", action=argparse.BooleanOptionalAction,
                   help="Drop query strings from every URL (?page=2 becomes the same page).")
    p.add_argument("--ignore-robots", action=argparse.BooleanOptionalAction,
                   help="Do not honour robots.txt.")
    p.add_argument("--user-agent", metavar="UA",
                   help=f"User-Agent header. Default: {_DEFAULTS.user_agent!r}")
    p.add_argument("--render", action=argparse.BooleanOptionalAction,
                   help="Render HTML pages in Chromium (default). --no-render fetches and "
                   "parses them without a browser: much faster, no JavaScript.")
    p.add_argument("--image", action=argparse.BooleanOptionalAction,
                   help="Record images (default); --no-image does not.")
    p.add_argument("--max-pages", type=int, metavar="N",
                   help="Safety net: stop once N URLs of the site have been fetched, counted "
                   "over the whole archive (a redirect chain counts once; URLs skipped by "
                   "robots.txt, excludes or the soft cap do not count). Off by default.")
    p.add_argument("--timeout", dest="timeout_s", type=float, metavar="S",
                   help="Deadline in seconds for each attempt's whole exchange (connect, "
                   "headers, body): the first attempt gets a third, a retry all of it, the "
                   "next twice; rendering a page gets it to load and again to be read."
                   + _default("timeout_s"))
    p.add_argument("--retry", type=int, metavar="N",
                   help="Attempts for network failures." + _default("retry"))
    p.add_argument("--follow-nofollow", action=argparse.BooleanOptionalAction,
                   help="Follow links of nofollow pages (meta robots, X-Robots-Tag) and "
                   "rel=nofollow links inside the site; by default they are recorded but not "
                   "followed, as search engines do.")
    p.add_argument("--detect-tech", action=argparse.BooleanOptionalAction,
                   help="Detect the technologies each page uses (CMS, analytics, Tag Manager "
                   "ids, libraries, servers) with the Wappalyzer fingerprints, into page_tags "
                   "(default). --no-detect-tech saves its cost: 7-14 %% of --no-render's "
                   "pages/s on small pages.")
    p.add_argument("--templates", action=argparse.BooleanOptionalAction,
                   help="At the end of a crawl, fold the HTML pages into their templates by "
                   "DOM structure and store the result (default), so template-clusters "
                   "answers at once; about a millisecond a page. --no-templates skips it: "
                   "the first template-clusters call then does it.")
    p.add_argument("--sitemap", action=argparse.BooleanOptionalAction,
                   help="Read the site's sitemaps (robots.txt Sitemap: lines, else "
                   "/sitemap.xml; indexes and gzip followed) as its inventory (default): "
                   "the URLs no crawled page links to are crawled once the linked site is "
                   "done and marked inventory-seed, so nitpicker-query isolated-pages "
                   "lists the orphans. --no-sitemap reads none.")
    p.add_argument("--main-contents", action=argparse.BooleanOptionalAction,
                   help="Record each page's main region (<main>, role=main, #content …) "
                   "with its length and its headings, images, tables, buttons, iframes, "
                   "media, canvases and custom elements (default), for nitpicker-query "
                   "main-contents. --no-main-contents skips it.")
    p.add_argument("--main-content-selector", metavar="CSS",
                   help="The CSS selector of the site's main region, tried before the usual "
                   "ones (<main>, role=main, #main, #content …).")
    p.add_argument("--list", "--inventory", dest="list_file", metavar="FILE",
                   help="Also take the URLs of FILE (one a line, # comments; - reads "
                   "standard input) into the inventory, as the sitemaps' (a server's file "
                   "listing, a CMS export). Read at the start of this run only.")
    p.add_argument("--strict", action=argparse.BooleanOptionalAction,
                   help="Exit 1 (not 2) when only external links failed.")
    hdr = p.add_argument_group(
        "request headers (a staging site behind a login; docs/security.md)",
        "Sent with every request to the start URLs' hosts (host and port): pages, "
        "redirects, robots.txt, sitemaps and, rendered, the site's own scripts, styles, "
        "images and frames. Never to another host or port (links to other sites, files a "
        "page loads from elsewhere, a redirect's hop there), nor over plain http when the start "
        "URL is https. Read in this order: --header-file, --header, --authorization; a "
        "name given twice (in any case) is sent once, with the last value. Values are "
        "never stored, printed or shown in errors; the archive records the names, and "
        "--resume warns about those not given again. Rendered, every request of a page "
        "then goes through the crawler: about 5 % more CPU a page with ten images "
        "(docs/BENCHMARKS.md).")
    hdr.add_argument("--header", dest="headers", action="append", metavar="'NAME: VALUE'",
                     help="A request header; repeatable. User-Agent is refused (use "
                     "--user-agent, which goes to every host), and so are Host, "
                     "Content-Length, Transfer-Encoding, Connection and Accept-Encoding. "
                     "Example: --header 'X-Staging: 1'.")
    hdr.add_argument("--authorization", metavar="VALUE",
                     help="The Authorization header: USER:PASSWORD (no space) is sent as "
                     "Basic base64(USER:PASSWORD), anything else as given ('Bearer TOKEN', "
                     "'Basic dXNlcjpwYXNz'). A command line is seen by ps and kept in shell "
                     "history: --header-file keeps the secret out of both.")
    hdr.add_argument("--header-file", dest="header_files", action="append", metavar="FILE",
                     help="Request headers from FILE, one 'Name: value' a line (blank lines "
                     "and # comments skipped); repeatable.")
    lim = p.add_argument_group("limits (what a site may cost; docs/security.md)")
    lim.add_argument("--max-body-size", type=parse_size, metavar="BYTES",
                     help="Most bytes one body may decode to (a gzip bomb stops there); a "
                     "page over it is kept with its status and headers and the problem "
                     "body-too-large. Suffixes K, M, G. Default: 50M.")
    lim.add_argument("--page-timeout", dest="page_timeout_s", type=float, metavar="S",
                     help="Most seconds one URL may take, every redirect and retry, headers "
                     "and body together (a server trickling a byte at a time ends there: "
                     "problem deadline)." + _default("page_timeout_s"))
    lim.add_argument("--external-timeout", dest="external_timeout_s", type=float,
                     metavar="S",
                     help="Most seconds one external link's check may take, every redirect "
                     "and attempt together. External links are checked by workers of "
                     "their own (32; one link at a time for a new host, then at most 2), "
                     "so the site's pages never wait for them; a host that does not exist, "
                     "refuses or sends no answer fails every other link to it at once."
                     + _default("external_timeout_s"))
    lim.add_argument("--max-links-per-page", type=int, metavar="N",
                     help="Most URLs not seen before that one page adds to the crawl; the "
                     "page records how many more it had." + _default("max_links_per_page"))
    lim.add_argument("--max-queued", type=int, metavar="N",
                     help="Most URLs waiting to be fetched; past it new links are left out "
                     "and counted." + _default("max_queued"))
    lim.add_argument("--max-outage", dest="max_outage_s", type=float, metavar="S",
                     help="When fetches fail in a row because nothing answers (refused, "
                     "reset, timed out, DNS) and the site does not answer a probe either, the "
                     "crawl pauses and probes until it does, then fetches again what failed "
                     "meanwhile (network_outages records the window); an outage longer than "
                     "S seconds stops the crawl (exit 4; --resume continues)."
                     + _default("max_outage_s"))
    lim.add_argument("--stop-grace", dest="stop_grace_s", type=float, metavar="S",
                     help="On Ctrl-C, SIGTERM or SIGHUP, how long the pages in flight may "
                     "take before they are abandoned (kept for --resume)."
                     + _default("stop_grace_s"))
    lim.add_argument("--max-tab-memory", dest="max_tab_memory_mb", type=int, metavar="MB",
                     help="Most memory one rendering tab may hold; a page past it is "
                     "stopped and recorded (problem renderer-memory)."
                     + _default("max_tab_memory_mb"))
    lent = p.add_argument_group("rendering on other machines (docs/scaling.md)")
    lent.add_argument("--browser-endpoint", dest="browser_endpoints", action=_EndpointAction,
                      metavar="URL",
                      help="Render pages on this browser too (repeatable): ws://HOST:PORT/… "
                      "a Playwright server of this crawler's Playwright version (playwright "
                      "run-server / launch-server), http://HOST:PORT a Chromium DevTools "
                      "endpoint (--remote-debugging-port, browserless). Pages go to whichever "
                      "browser has a free slot; one that is lost mid-crawl loses no page.")
    lent.add_argument("--browser-slots", action=_SlotsAction, type=int, metavar="N",
                      help="Pages the --browser-endpoint just before it renders at once. "
                      f"Default: {endpoints.DEFAULT_SLOTS}.")
    lent.add_argument("--local-browser", action=argparse.BooleanOptionalAction,
                      help="Render on this machine's Chromium too, --parallels pages at "
                      "once (default); --no-local-browser renders on the endpoints only.")
    cap = p.add_argument_group("soft cap (crawler traps)")
    cap.add_argument("--dedupe-cap", type=int, metavar="N",
                     help="Stop feeding a cluster of pages with identical title, description, "
                     "og:title and og:url once it exceeds N pages (sooner when og:url points at "
                     "a parent list, later for legit pagers), and a URL shape that keeps "
                     "repeating content it already produced; refused URLs are kept as skipped "
                     "and each cap is logged. Off by default; 100 is a good start.")
    cap.add_argument("--dedupe-allow", action="append", metavar="GLOB[,GLOB]",
                     help="Path globs the soft cap never counts or refuses (a legit section "
                     "it capped), in --exclude's syntax.")
    cap.add_argument("--dedupe-age-window", type=int, metavar="N",
                     help="Forget a cluster counter not capped within N observed pages."
                     + _default("dedupe_age_window"))
    cap.add_argument("--dedupe-map-cap", type=int, metavar="N",
                     help="Most cluster counters kept in memory (least recently used dropped "
                     "first)." + _default("dedupe_map_cap"))
    p.add_argument("--resume", metavar="FILE_OR_DIR",
                   help="Continue a crawl: a .nitpicker file (written back in place) or an "
                   "interrupted crawl's ._nitpicker-<name> directory, with its stored "
                   "options. Pages already fetched are not fetched again.")
    p.add_argument("--add-root", action="store_true",
                   help="With --resume: also crawl the start URLs given, which widens the "
                   "crawl's scope (without it, a start URL the crawl does not have is "
                   "refused).")
    p.add_argument("--silent", action="store_true", default=None, help="No progress line.")
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return p


_SIZE_SUFFIXES = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}


def parse_size(text: str) -> int:
    """``50M`` → 52428800: bytes, with an optional K, M or G (powers of 1024)."""
    value = text.strip().lower().removesuffix("b").removesuffix("i")
    suffix = value[-1:] if value[-1:] in ("k", "m", "g") else ""
    number = value[: len(value) - len(suffix)].strip()
    if not number.isdigit():
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (example: 50M)")
    return int(number) * _SIZE_SUFFIXES[suffix]


class _EndpointAction(argparse.Action):
    """``--browser-endpoint URL``: one more ``[url, slots]``, its slots set by a
    ``--browser-slots`` right after it."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        listed = list(getattr(namespace, self.dest, None) or [])
        listed.append([str(values), None])
        setattr(namespace, self.dest, listed)


class _SlotsAction(argparse.Action):
    """``--browser-slots N``: the slots of the ``--browser-endpoint`` before it."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        listed = getattr(namespace, "browser_endpoints", None) or []
        if not listed or listed[-1][1] is not None:
            parser.error("--browser-slots N goes right after the --browser-endpoint URL it "
                         "is for")
        listed[-1][1] = int(values)


def _browsers(parser: argparse.ArgumentParser, args: argparse.Namespace
              ) -> tuple[tuple[endpoints.Endpoint, ...], bool]:
    """The endpoints lent to this run and whether the local browser renders too; usage
    errors in one line (exit 2) before anything is written."""
    try:
        lent = tuple(endpoints.parse(url, endpoints.DEFAULT_SLOTS if slots is None else slots)
                     for url, slots in (args.browser_endpoints or []))
    except endpoints.EndpointError as exc:
        parser.error(str(exc))
    local = args.local_browser is not False
    if lent and args.render is False:
        parser.error("--browser-endpoint renders pages: it cannot go with --no-render")
    if not local and not lent:
        parser.error("--no-local-browser needs at least one --browser-endpoint to render on")
    return lent, local


def _given(args: argparse.Namespace) -> dict[str, Any]:
    """The options given on the command line, as :class:`CrawlOptions` fields."""
    out: dict[str, Any] = {}
    for name in FLAGS:
        value = getattr(args, name, None)
        if value is None:
            continue
        if name in ("excludes", "dedupe_allow"):
            value = tuple(v for item in value for v in split_list(item))
        elif isinstance(value, list):
            value = tuple(value)
        out[name] = value
    return out


def _check_ranges(parser: argparse.ArgumentParser, given: dict[str, Any]) -> None:
    """Out-of-range values are usage errors naming the flag (exit 2)."""
    for name, value in given.items():
        low = MINIMUM.get(name)
        if low is not None and value < low:
            parser.error(f"{FLAGS[name]} must be at least {low}, got {value}")
    for name in ("timeout_s", "page_timeout_s", "external_timeout_s", "stop_grace_s",
                 "max_outage_s"):
        seconds = given.get(name)
        low_ok = name == "stop_grace_s" and seconds == 0
        if seconds is not None and not low_ok and not 0 < seconds < float("inf"):
            parser.error(f"{FLAGS[name]} must be more than 0 seconds, got {seconds}")
    if given.get("main_content_selector") is not None:
        try:
            given["main_content_selector"] = check_selector(given["main_content_selector"])
        except SelectorError as exc:
            parser.error(str(exc))
    for name in ("excludes", "dedupe_allow"):
        for glob in given.get(name, ()):
            problem = glob_problem(glob)
            if problem is not None:
                parser.error(f"{FLAGS[name]} {glob!r} {problem}")
    for pattern in given.get("exclude_patterns", ()):
        try:
            re.compile(pattern)
        except re.error as exc:
            parser.error(f"--exclude-pattern {pattern!r} is not a regular expression: {exc}")


def _request_headers(parser: argparse.ArgumentParser, args: argparse.Namespace
                     ) -> RequestHeaders:
    """The ``--header-file``, ``--header`` and ``--authorization`` headers, read before
    anything is written: a bad one is a usage error naming its flag (and never quoting a
    value: :class:`HeaderError`)."""
    try:
        return from_flags(args.header_files or (), args.headers or (), args.authorization)
    except HeaderError as exc:
        parser.error(str(exc))


def _check_output(parser: argparse.ArgumentParser, output: Path, *, overwrite: bool,
                  resumable: bool = True, flag: str = "--overwrite") -> None:
    """Refuse an output that cannot be written before a single page is fetched."""
    shown = str(output)
    if output.suffix != ".nitpicker":
        parser.error(f"the output file must end in .nitpicker: {output.name}")
    parent = output.absolute().parent
    if not parent.is_dir():
        parser.error(f"-o {shown}: directory {parent} does not exist")
    try:  # by trying: access() says yes to root even where nothing can be created
        with tempfile.TemporaryFile(dir=parent, prefix="._nitpicker-probe-"):
            pass
    except OSError:
        parser.error(f"-o {shown}: directory {parent} is not writable")
    if output.is_dir():
        parser.error(f"-o {shown} is a directory")
    if output.exists() and not overwrite:
        parser.error(f"-o {shown} exists; pass {flag} to replace it"
                     + (f", or --resume {shlex.quote(shown)} to continue that crawl"
                        if resumable else ""))


def _fail(message: str, code: int = 1) -> int:
    print(f"{PROG}: error: {escape(message)}", file=sys.stderr)
    return code


def _with_scheme(parser: argparse.ArgumentParser, url: str) -> tuple[str, bool]:
    """A start URL as typed, made one (and whether a scheme was assumed), or a usage error
    that says what is wrong with it: an archive named where a URL goes, a port out of
    range. ``example.com/docs`` is ``https://example.com/docs`` (a browser's guess
    today); ``localhost:8000`` and an IP address are ``http://`` (a local server)."""
    if Path(url).exists() and (url.endswith(".nitpicker") or Path(url).is_dir()):
        parser.error(f"{url} is an archive, not a URL: continue its crawl with --resume "
                     f"{shlex.quote(url)}, read it with nitpicker-query summary "
                     f"{shlex.quote(url)}")
    assumed = False
    if "://" not in url and not url.lower().startswith(("http:", "https:")):
        host = urlsplit("//" + url).hostname or ""
        if not host or " " in url:
            return url, False
        local = host == "localhost" or host.replace(".", "").isdigit() or ":" in host
        url, assumed = ("http://" if local else "https://") + url, True
    try:
        _ = urlsplit(url).port   # raises for a port out of range
    except ValueError:
        netloc = urlsplit(url).netloc
        parser.error(f"{url}: the port in {netloc!r} is not a number from 1 to 65535")
    return url, assumed


def _resume_command(path: Path) -> str:
    return f"{PROG} --resume {shlex.quote(os.path.relpath(path))}"


def _open(parser: argparse.ArgumentParser, args: argparse.Namespace,
          given: dict[str, Any], roots: list[str], headers: RequestHeaders
          ) -> tuple[ArchiveWriter, CrawlOptions]:
    """The writer and the options of this run: a new crawl, or a resumed one. The
    request headers are this run's alone: a resumed crawl stored their names only."""
    if args.resume:
        output = Path(args.output) if args.output else None
        if output is not None:
            _check_output(parser, output, overwrite=args.overwrite)
        writer = ArchiveWriter.resume(args.resume, output=output)
        try:
            info = writer.info()
            stored_text = writer.last_options()
            stored = (CrawlOptions.stored(stored_text) if stored_text is not None
                      else CrawlOptions.from_info(info))
            kept = json_list(info.get("roots"))
        except (sqlite3.Error, ValueError) as exc:
            writer.give_up()
            raise NitpickerError(f"cannot read the crawl's settings: {exc}") from exc
        for name, value in given.items():
            if name in stored and stored[name] != value:
                print(f"{PROG}: {_given_as(name, value)} overrides the crawl's "
                      f"{_given_as(name, stored[name])}", file=sys.stderr)
        _warn_missing_headers(CrawlOptions.stored_header_names(stored_text), headers)
        added = [r for r in roots if r not in kept]
        if added and kept and not args.add_root:
            writer.give_up()
            parser.error(f"{added[0]} is not a start URL of the crawl being resumed "
                         f"({kept[0]}{' …' if len(kept) > 1 else ''}): add --add-root to "
                         "crawl it too (its scope is added), or leave it out")
        roots = kept + added
        if not roots:
            writer.give_up()
            raise NitpickerError("the archive records no start URL to resume from")
        options = CrawlOptions(roots=tuple(roots), **{**stored, **given}, headers=headers)
        if roots != kept:
            writer.set_roots(roots)
        writer.update_info(options.info_row())
        return writer, options
    if not roots:
        parser.error("give at least one start URL (or --resume FILE_OR_DIR)")
    output = Path(args.output) if args.output else _default_output(roots[0])
    _check_output(parser, output, overwrite=args.overwrite)
    workdir = ArchiveWriter.default_workdir(output.absolute())
    if args.overwrite and (workdir / "db.sqlite").exists() and locks.probe(workdir) is None:
        shutil.rmtree(workdir)
    options = CrawlOptions(roots=tuple(roots), **given, headers=headers)
    return ArchiveWriter.create(output, roots=roots, **options.info_row()), options


def _warn_missing_headers(stored: tuple[str, ...], headers: RequestHeaders) -> None:
    """One line when the resumed crawl ran with request headers this run does not send
    (by name, in any case): its pages may now answer 401 — or the user meant it, so the
    crawl goes on."""
    given = {name.lower() for name in headers.names}
    missing = [name for name in stored if name.lower() not in given]
    if missing:
        print(f"{PROG}: warning: the crawl was run with request header(s) "
              f"{escape(', '.join(missing))}, not given here: they are not sent (give them "
              "again with --header, --authorization or --header-file)", file=sys.stderr)


def _restored(options: CrawlOptions, given: dict[str, Any]) -> str:
    """The resumed crawl's own options that differ from the defaults, as they would be
    typed (``--no-render --dedupe-cap 100``); those given on this command line are said
    apart (as overrides)."""
    defaults = CrawlOptions(roots=())
    return " ".join(_given_as(name, getattr(options, name)) for name in FLAGS
                    if name not in given and name != "silent"
                    and getattr(options, name) != getattr(defaults, name))


def _given_as(name: str, value: Any) -> str:
    """An option as it is written on the command line: ``--no-render``, ``--parallels 8``."""
    flag = FLAGS[name]
    if isinstance(value, bool):
        return flag if value else "--no-" + flag.removeprefix("--")
    if isinstance(value, tuple):
        return " ".join(f"{flag} {shlex.quote(v)}" for v in value) or f"no {flag}"
    return f"no {flag}" if value is None else f"{flag} {value}"


UPGRADE_DESCRIPTION = """\
Rewrite an archive written by upstream nitpicker before 0.10 (info.version such as 0.4.4:
HTML in snapshot-html.zip, flat robots columns) as a format-0.10.0 archive that
nitpicker-query, nitpicker-mcp and nitpicker-crawl --resume read. Every page, anchor,
image, resource and referrer is carried over with its id; each HTML snapshot is stored
in page_html_blobs, and the fields format 0.10 added (more meta columns, JSON-LD,
technologies) are derived from it. What has no place in 0.10 is listed on stderr. The
old file is never modified."""


def build_upgrade_parser() -> argparse.ArgumentParser:
    p = CliParser(prog=f"{PROG} upgrade", description=UPGRADE_DESCRIPTION,
                  formatter_class=argparse.RawDescriptionHelpFormatter,
                  epilog="example:\n  nitpicker-crawl upgrade old.nitpicker -o new.nitpicker")
    p.add_argument("archive", metavar="OLD.nitpicker", help="the pre-0.10 archive")
    p.add_argument("-o", "--output", metavar="NEW.nitpicker",
                   help="where to write the format-0.10 archive. Default: "
                   "OLD-0.10.nitpicker beside OLD")
    p.add_argument("--overwrite", action="store_true",
                   help="replace NEW.nitpicker if it exists")
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return p


def upgrade_main(argv: Sequence[str]) -> int:
    """``nitpicker-crawl upgrade OLD.nitpicker [-o NEW.nitpicker]``."""
    from .archive.upgrade import default_output, upgrade

    parser = build_upgrade_parser()
    args = parser.parse_args(argv)
    source = Path(args.archive)
    output = Path(args.output) if args.output else default_output(source)
    _check_output(parser, output, overwrite=args.overwrite, resumable=False)
    with contextlib.suppress(OSError):
        if source.exists() and output.exists() and source.samefile(output):
            parser.error("-o must name another file: the old archive is never modified")
    tty = sys.stderr.isatty()

    def say(line: str) -> None:
        if tty:
            print(f"\r\x1b[K{PROG}: upgrade: {escape(line)}", end="", file=sys.stderr,
                  flush=True)

    try:
        report = upgrade(source, output, say=say)
    except NitpickerError as exc:
        if tty:
            print("\r\x1b[K", end="", file=sys.stderr)
        return _fail(str(exc))
    except KeyboardInterrupt:
        print(f"\n{PROG}: upgrade interrupted; nothing written", file=sys.stderr)
        return 130
    if tty:
        print("\r\x1b[K", end="", file=sys.stderr)
    for note in report.moved:
        print(f"{PROG}: note: {escape(note)}", file=sys.stderr)
    for note in report.notes:
        print(f"{PROG}: not carried over: {escape(note)}", file=sys.stderr)
    counts = ", ".join(f"{n} {table}" for table, n in report.counts.items())
    print(f"{PROG}: upgraded {escape(source.name)} (format {escape(report.version)}) → "
          f"{escape(str(output))} (format 0.10.0): {counts}; {report.snapshots} HTML "
          f"snapshots, {report.derived} pages' 0.10 fields derived from them", file=sys.stderr)
    return 0


CONVERT_DESCRIPTION = """\
Rewrite an archive in the other format. --to 0.13 writes one of ours (format 0.10.0, a
.nitpicker file or a crawl directory) as format 0.13.0, the only format upstream
nitpicker 0.13 and later opens; --to 0.10 writes a format-0.13 archive as 0.10.0. Pages,
links, images, resources and their ids are carried over (the counts are checked); what
the other format cannot hold is listed on stderr. The input is never modified."""


def build_convert_parser() -> argparse.ArgumentParser:
    p = CliParser(prog=f"{PROG} convert", description=CONVERT_DESCRIPTION,
                  formatter_class=argparse.RawDescriptionHelpFormatter,
                  epilog="examples:\n"
                  "  nitpicker-crawl convert site.nitpicker --to 0.13 -o site-0.13.nitpicker\n"
                  "  nitpicker-crawl convert upstream.nitpicker --to 0.10 -o ours.nitpicker")
    p.add_argument("archive", metavar="ARCHIVE",
                   help="a .nitpicker file, or a crawl directory holding db.sqlite")
    p.add_argument("--to", required=True, choices=("0.13", "0.10"),
                   help="the format to write: 0.13 (upstream 0.13 and later) or 0.10 (ours, "
                   "upstream 0.11-0.12)")
    p.add_argument("-o", "--output", required=True, metavar="OUT.nitpicker",
                   help="where to write the converted archive")
    p.add_argument("--force", "--overwrite", dest="force", action="store_true",
                   help="replace OUT.nitpicker if it exists (--overwrite, as for upgrade)")
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return p


def convert_main(argv: Sequence[str]) -> int:
    """``nitpicker-crawl convert ARCHIVE --to {0.13,0.10} -o OUT [--force]``."""
    from .archive.convert import convert

    parser = build_convert_parser()
    args = parser.parse_args(argv)
    source, output = Path(args.archive), Path(args.output)
    _check_output(parser, output, overwrite=args.force, resumable=False, flag="--force")
    with contextlib.suppress(OSError):
        if source.exists() and output.exists() and source.samefile(output):
            parser.error("-o must name another file: the archive converted is never modified")
    tty = sys.stderr.isatty()
    started = time.monotonic()

    def say(line: str) -> None:
        if tty:
            print(f"\r\x1b[K{PROG}: convert: {escape(line)} "
                  f"({time.monotonic() - started:.0f} s)", end="", file=sys.stderr, flush=True)

    # SIGTERM (a service manager, timeout) and SIGHUP stop it as Ctrl-C does: the
    # temporary directory and the worker go, nothing is written (exit 143, 129, 130)
    received = [signal.SIGINT]

    def stop(signum: int, _frame: object) -> None:
        received[0] = signal.Signals(signum)
        raise KeyboardInterrupt

    previous = {s: signal.signal(s, stop) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        report = convert(source, output, to=args.to, say=say)
    except NitpickerError as exc:
        if tty:
            print("\r\x1b[K", end="", file=sys.stderr)
        return _fail(str(exc))
    except KeyboardInterrupt:
        print(f"\n{PROG}: convert interrupted; nothing written", file=sys.stderr)
        return 128 + received[0]
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    if tty:
        print("\r\x1b[K", end="", file=sys.stderr)
    for note in report.moved:
        print(f"{PROG}: note: {escape(note)}", file=sys.stderr)
    for note in report.notes:
        print(f"{PROG}: not carried over: {escape(note)}", file=sys.stderr)
    counts = ", ".join(f"{n} {table}" for table, n in report.counts.items())
    print(f"{PROG}: converted {escape(source.name)} (format {escape(report.version)}) → "
          f"{escape(str(output))} (format {'0.13.0' if args.to == '0.13' else '0.10.0'}) in "
          f"{time.monotonic() - started:.1f} s: {counts}", file=sys.stderr)
    return 0


def _templates(writer: ArchiveWriter, options: CrawlOptions, *, silent: bool
               ) -> templates.Stored | None:
    """The crawl-end step (:mod:`nitpicker_crawl.extract.templates`), with its progress line. A
    Ctrl-C or SIGTERM here gives up the step alone: the archive is written without the
    tables and template-clusters computes them on first call."""
    if not options.templates:
        return None
    writer.commit()

    def stop(signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    previous = {signum: signal.signal(signum, stop) for signum in (signal.SIGTERM,
                                                                   signal.SIGHUP)}
    line = None if silent else StderrLine(sys.stderr, "templates")
    try:
        with progress.reporting(line or (lambda _step: None)):
            return templates.store(writer.conn, writer.workdir)
    except KeyboardInterrupt:
        if line is not None:
            line.end()
            line = None
        print(f"{PROG}: templates: stopped; the archive is written without them (the first "
              "template-clusters call computes them)", file=sys.stderr)
        return None
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        if line is not None:
            line.end()


def main(argv: Sequence[str] | None = None) -> int:
    outlive_readers()   # `… 2>&1 | head` must not stop or wedge a crawl
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["upgrade"]:
        return upgrade_main(arguments[1:])
    if arguments[:1] == ["convert"]:
        return convert_main(arguments[1:])
    if arguments[:1] == ["browser-host"]:
        from .fetch.browser_host import main as browser_host_main

        return browser_host_main(arguments[1:])
    if arguments[:1] == ["analyze"]:
        from .analyze.cli import main as analyze_main

        return analyze_main(arguments[1:])
    parser = build_parser()
    args = parser.parse_args(arguments)
    given = _given(args)
    _check_ranges(parser, given)
    headers = _request_headers(parser, args)
    lent, local_browser = _browsers(parser, args)
    roots: list[str] = []
    for url in args.urls:
        url, assumed = _with_scheme(parser, url)
        identity = normalize(url)
        if identity is None:
            parser.error(f"not an http(s) URL: {url!r} (example: https://example.com/)")
        if assumed:
            print(f"{PROG}: {args.urls[len(roots)]} has no scheme: crawling {identity}",
                  file=sys.stderr)
        roots.append(identity)  # a browser's reading: https://Bücher.example/ is xn--…
    listed = None
    if args.list_file is not None:  # read before anything is written: a bad list changes nothing
        try:
            lines, sha = read_list(args.list_file)
        except OSError as exc:
            parser.error(f"--list {args.list_file}: {exc.strerror or exc}")
        except ValueError as exc:
            parser.error(str(exc))
        listed = (f"list:{Path(args.list_file).name if args.list_file != '-' else 'stdin'}",
                  lines, sha)
    try:
        writer, options = _open(parser, args, given, roots, headers)
    except ArchiveBusy as exc:
        return _fail(f"{exc} (another nitpicker-crawl is writing it)")
    except NitpickerError as exc:
        return _fail(str(exc))
    except OSError as exc:  # the disk, not the input: say what failed, where
        return _fail(f"cannot write the crawl's working files: {exc.strerror or exc}"
                     + (f": {exc.filename}" if exc.filename else ""))
    if lent or not local_browser:
        if not options.render:   # a resumed --no-render crawl
            if args.resume:
                writer.give_up()
            else:
                writer.discard()
            return _fail("--browser-endpoint renders pages: this crawl runs with --no-render")
        options = dataclasses.replace(options, browser_endpoints=lent,
                                      local_browser=local_browser)
    writer.start_run(options.to_json())
    templates.forget(writer.conn)  # a resumed crawl's pages change: computed again at its end
    crawler = Crawler(options, writer, listed=listed)
    if args.resume:
        resumed = crawler.seed_from_archive()
        if not args.silent:
            said = [plural(resumed.done, "URL") + " done (" + plural(
                resumed.pages, "HTML page") + ")",
                    f"{resumed.queued} still queued",
                    plural(resumed.retried, "failed URL") + " to try again"]
            if resumed.events:
                said.append(plural(resumed.events, "cap event") + " restored")
            restored = _restored(options, given)
            print(f"{PROG}: resuming {os.path.relpath(args.resume)}: {', '.join(said)}; "
                  f"with its options{': ' + restored if restored else ' (all defaults)'}"
                  + (" and those given here" if given else ""), file=sys.stderr)
    if not args.silent:
        print(f"{PROG}: scope: {escape(Scope(list(options.roots)).describe())}",
              file=sys.stderr)
    crawler.seed(list(options.roots))
    started = time.monotonic()
    try:
        outcome = asyncio.run(crawler.run())
    except NitpickerError as exc:  # e.g. no browser: nothing was crawled
        if args.resume:
            writer.give_up()
        else:
            writer.discard()
        return _fail(str(exc))
    except KeyboardInterrupt:
        with contextlib.suppress(Exception):
            writer.end_run("interrupted", urls_done=crawler.counters.internal_done
                           + crawler.counters.external_done,
                           pages_saved=crawler.counters.pages_saved)
        writer.abandon()
        print(f"{PROG}: stopped at once; the crawl so far is in {writer.workdir} — continue "
              f"with: {_resume_command(writer.workdir)}", file=sys.stderr)
        return 130
    if not args.resume and outcome.stop_reason != "interrupted" and \
            writer.fetched_internal() == 0:
        writer.discard()
        first = (f"; first: {fit(outcome.error_urls[0], 200)}: "
                 f"{fit(outcome.first_error or '', 500)}"
                 if outcome.error_urls else "")
        return _fail(f"no page of the site could be fetched{first}; no archive written")
    writer.end_run(outcome.stop_reason, urls_done=outcome.urls_done,
                   pages_saved=outcome.pages_saved)
    stored = _templates(writer, options, silent=bool(args.silent)) \
        if outcome.stop_reason != "interrupted" else None
    totals = crawl_totals(writer.conn,  # in summary's words: the two always agree
                          externals_checked=options.fetch_external)
    failed_start = _failed_start(writer.conn, options.roots) if totals["htmlPages"] == 0 \
        else None
    output = writer.close()
    elapsed = time.monotonic() - started
    again = _resume_command(output)
    summary = (f"{plural(totals['urls'], 'URL')} ({plural(totals['htmlPages'], 'HTML page')}) "
               f"in {elapsed:.1f} s → {os.path.relpath(output)}")
    if outcome.stop_reason == "interrupted":
        signum = outcome.signal or signal.SIGINT
        left = (f"; {outcome.abandoned} page(s) still loading after --stop-grace "
                f"{options.stop_grace_s:g} s were left for it" if outcome.abandoned else "")
        print(f"{PROG}: interrupted ({signal.Signals(signum).name}); {summary}{left}. "
              f"Continue with: {again}", file=sys.stderr)
        return 128 + signum
    if outcome.stop_reason == "network-outage":
        summary += (f" (stopped: nothing answered for more than --max-outage "
                    f"{options.max_outage_s:g} s; continue with: {again})")
    if outcome.stop_reason == "max-pages":
        summary += (f" (stopped at --max-pages {options.max_pages}; continue with: {again} "
                    f"--max-pages {2 * (options.max_pages or 0)})")
    if crawler.softcap is not None and crawler.softcap.events:
        complete = outcome.stop_reason == "complete"
        verdicts = Counter(c.evidence(complete=complete)["verdict"]
                           for c in crawler.softcap.deferral.cases.values())
        told = ", ".join(f"{n} {v}" for v, n in sorted(verdicts.items()))
        summary += (f"; soft cap: {len(crawler.softcap.events)} cluster(s) suspected "
                    f"({told}), {crawler.cap_refused:,} URLs refused in the archive "
                    f"(nitpicker-query dedupe-cap-events {shlex.quote(os.path.relpath(output))})")
    print(f"{PROG}: done: {summary}", file=sys.stderr)
    turn = crawler.site_inventory
    if turn.inventory.urls:
        read = plural(len(turn.inventory.urls), "URL") + " in the sitemaps or the list"
        if turn.reached:
            shown = shlex.quote(os.path.relpath(output))
            pages, files = turn.unlinked
            print(f"{PROG}: inventory: {read}, {pages + files} of them linked from "
                  f"no crawled page (nitpicker-query isolated-pages {shown})"
                  + (f", of which {plural(files, 'file')} (stylesheets, scripts, images …) "
                     f"stored as resources (nitpicker-query unused-resources {shown})"
                     if files else ""), file=sys.stderr)
        else:
            print(f"{PROG}: inventory: {read}; not crawled yet: the crawl stopped before the "
                  "linked site was done (--resume crawls them)", file=sys.stderr)
    if stored is not None and not args.silent:
        print(f"{PROG}: templates: {templates.describe(stored)}", file=sys.stderr)
    if outcome.problem_pages:
        print(f"{PROG}: {outcome.problem_pages} page(s) stored with a problem; first: "
              f"{escape(fit(outcome.first_problem or '', 300))}", file=sys.stderr)
    if outcome.internal_errors:
        print(f"{PROG}: {outcome.internal_errors} URL(s) of the site could not be fetched; "
              f"first: {escape(fit(outcome.error_urls[0], 200))}: "
              f"{escape(fit(outcome.first_error or '', 500))}", file=sys.stderr)
    elif outcome.external_errors:
        print(f"{PROG}: {outcome.external_errors} external link(s) could not be fetched",
              file=sys.stderr)
    code = outcome.exit_code(options.strict)
    if failed_start is not None:
        print(f"{PROG}: the start URL answered {escape(failed_start)} and nothing else of the "
              "site was crawled: check the address (the archive holds that answer)",
              file=sys.stderr)
        code = 1 if code in (0, 2) else code
    return code


MAX_START_HOPS = 20
"""Redirects followed from a start URL to the answer it ends at (a loop stops there)."""


def _failed_start(conn: sqlite3.Connection, roots: Sequence[str]) -> str | None:
    """``404 Not Found (https://…/)`` when every start URL ended at an error (status 400
    or more, after its redirects), else None: a mistyped address is not a crawled site."""
    said: list[str] = []
    for root in roots:
        row = conn.execute("SELECT status, statusText, redirectDestId FROM pages "
                           "WHERE url = ?", (root,)).fetchone()
        for _ in range(MAX_START_HOPS):
            if row is None or row[2] is None:
                break
            row = conn.execute("SELECT status, statusText, redirectDestId FROM pages "
                               "WHERE id = ?", (row[2],)).fetchone()
        if row is None or row[0] is None or row[0] < 400:
            return None
        said.append(f"{row[0]} {row[1] or ''}".strip() + f" ({fit(root, 200)})")
    return ", ".join(said) if said else None


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
