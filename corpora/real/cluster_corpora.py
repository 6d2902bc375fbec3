"""Labelled page-cluster corpora built by software we did not write.

    python corpora/real/cluster_corpora.py sphinx  OUT.jsonl   # Debian's python3.11-doc (Sphinx)
    python corpora/real/cluster_corpora.py pelican OUT.jsonl   # a blog built by Debian's pelican
    python corpora/real/cluster_corpora.py mediawiki OUT.jsonl # a real MediaWiki, crawled

Each line is page-cluster's input (``id``, ``html``, ``paths``, ``stylesheetHrefs`` as
absolute URLs with their query, as ``template-clusters`` passes them, ``host``) plus
``label``: the page type, read from what the generator itself wrote, never from our
clustering:

- **sphinx** — the HTML tree Debian ships in ``python3.11-doc`` (built by Sphinx with
  CPython's theme), read from disk as ``http://docs.localhost/<path>``. Sphinx's own
  templates mark their pages inside ``role=main``: ``table.modindextable`` (module index),
  ``table.genindextable`` (the index on one page), ``table.indextable`` (one letter of
  it), ``div.genindex-jumpbox`` alone (the letters), ``#search-results`` (search),
  ``table.contentstable`` (the front page); every other page is a document when Sphinx
  wrote its source beside it (``_sources/``), else a page of the theme's own template.
- **pelican** — Debian's ``pelican`` builds a blog from reStructuredText articles written
  here (random categories, tags, authors, dates, section headings: docutils gives each
  section an id made from its heading), with its ``simple`` theme, pagination and period
  archives. Pelican renders each output path from one template, by the URL settings
  below: the label is the template that defines the file's markup (PELICAN_LABELS).

- **mediawiki** — Debian's MediaWiki 1.39 set up by ``corpora/real/mediawiki.py`` (``wiki`` layout:
  200 articles with 1–4 revisions, 10 categories), served by ``php -S`` and crawled from its
  root by our crawler (``--no-render --dedupe-cap 100 --follow-nofollow --max-pages 6000``),
  so edit, history, diff, old-revision, info, special and API pages are reached; the
  records are the archive's internal ``text/html`` snapshots at their crawled URLs
  (``http://127.0.0.1:<port>/…``). MediaWiki writes the page type into ``<body class>``:
  ``ns-<N>`` (the namespace; ``ns--1`` for special pages), ``action-<action>`` and, on
  special pages, ``mw-special-<Name>``; the label is ``ns<N>/<action>``,
  ``special/<Name>``, or ``api/help`` / ``api/result`` for ``api.php``'s HTML (body
  ``skin-apioutput``; help has ``apihelp-`` blocks, a result ``api-pretty-header``). A view
  is further told by its content (MEDIAWIKI_VIEWS): ``table.diff`` → ``diff``,
  ``#mw-revision-info`` → ``oldid``, an error box as the whole content (a revision that does
  not exist) → ``error``. The crawl takes minutes, so the records are kept in
  MEDIAWIKI_CACHE (reused when not empty; delete it to crawl again); the labels are
  derived again from each record's HTML when read.
- **independent** — a company site (shop, news, docs, community; 25 templates) written by
  a helper from a description of how real sites behave, without reading page_cluster
  (corpora/template_site.py, seed 11, 10,000 pages): the labels are its own.
- **publisher** — a publisher and membership body (magazine, courses, events, jobs, a
  members' directory, a help centre; 25 templates, look-alike pairs such as member and
  author profiles) written by another helper the same way, held out: measured after
  page_cluster's changes, never tuned on (corpora/publisher_site.py, seed 5).
- **municipal** — a council portal (services, planning applications, meetings, library,
  facilities; 26 templates, look-alike pairs such as agendas and minutes) written by a
  third helper the same way, held out while page_cluster was tuned on the publisher
  site (corpora/municipal_site.py, seed 3).

The packages are installed when this runs as root (``bench/targets.py``); otherwise a
missing one is named and the corpus skipped.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

# the benchmark scripts beside this one (targets, mediawiki)
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import nitpicker_query as q
from corpora.real import mediawiki
from corpora.real.serving import apt_install, run_crawl
from nitpicker_query.archive.html_codec import decode_html
from nitpicker_query.exceptions import NotAnArchive
from nitpicker_query.queries.templates import path_segments, stylesheet_hrefs  # as the query does

SPHINX_TREE = Path("/usr/share/doc/python3.11/html")
SPHINX_HOST = "docs.localhost"
BLOG_HOST = "blog.localhost"

def _record(path: str, host: str, html: str, label: str) -> dict[str, Any]:
    url = f"http://{host}/{path}"
    return {"id": url, "html": html, "paths": [s for s in path.split("/") if s],
            "stylesheetHrefs": stylesheet_hrefs(html, url), "host": host, "label": label}


def sphinx_missing() -> str | None:
    if SPHINX_TREE.is_dir() or apt_install(["python3.11-doc"]):
        return None
    return "Debian's python3.11-doc is not installed (apt-get install python3.11-doc)"


def sphinx_label(html: str, has_source: bool) -> str:
    main = html[html.find('role="main"'):]
    if 'class="indextable modindextable"' in main:
        return "module index"
    if "genindextable" in main:
        return "index, all entries"
    if 'class="indextable"' in main:
        return "index, one letter"
    if "genindex-jumpbox" in main:
        return "index, letters"
    if 'id="search-results"' in main:
        return "search"
    if 'class="contentstable"' in main:
        return "front page"
    # Sphinx writes each document's source beside it (_sources/<page>.rst.txt): a page
    # without one was rendered from a template of the theme's own (CPython's download)
    return "document" if has_source else "theme page"


def sphinx_pages() -> Iterator[dict[str, Any]]:
    for file in sorted(SPHINX_TREE.rglob("*.html")):
        rel = file.relative_to(SPHINX_TREE).as_posix()
        if rel.startswith(("_static/", "_sources/", "_images/", "_downloads/")):
            continue
        html = file.read_text(encoding="utf-8", errors="replace")
        source = SPHINX_TREE / "_sources" / (rel.removesuffix(".html") + ".rst.txt")
        yield _record(rel, SPHINX_HOST, html, sphinx_label(html, source.exists()))


def pelican_missing() -> str | None:
    if subprocess.run(["sh", "-c", "command -v pelican"], capture_output=True).returncode == 0:
        return None
    if apt_install(["pelican"]):
        return None
    return "Debian's pelican is not installed (apt-get install pelican)"


WORDS = [
    "garden", "river", "stone", "lantern", "copper", "meadow", "signal", "harbor",
    "orchard", "violet", "canyon", "ember", "falcon", "glacier", "harvest", "island",
    "juniper", "kettle", "lagoon", "marble", "nectar", "oasis", "pepper", "quartz",
    "saffron", "tundra", "velvet", "willow", "yonder", "zephyr",
]

PELICAN_SETTINGS = """
AUTHOR = "Writer"
SITENAME = "Field Notes"
SITEURL = ""
TIMEZONE = "UTC"
DEFAULT_LANG = "en"
THEME = "simple"
DEFAULT_PAGINATION = 6
ARTICLE_URL = ARTICLE_SAVE_AS = "posts/{slug}.html"
PAGE_URL = PAGE_SAVE_AS = "pages/{slug}.html"
CATEGORY_URL = CATEGORY_SAVE_AS = "category/{slug}.html"
TAG_URL = TAG_SAVE_AS = "tag/{slug}.html"
AUTHOR_URL = AUTHOR_SAVE_AS = "author/{slug}.html"
YEAR_ARCHIVE_SAVE_AS = "{date:%Y}/index.html"
MONTH_ARCHIVE_SAVE_AS = "{date:%Y}/{date:%m}/index.html"
FEED_ALL_ATOM = None
CATEGORY_FEED_ATOM = None
TRANSLATION_FEED_ATOM = None
AUTHOR_FEED_ATOM = None
AUTHOR_FEED_RSS = None
"""

PELICAN_LABELS = (
    (re.compile(r"posts/"), "article"),
    (re.compile(r"pages/"), "page"),
    (re.compile(r"^((category|tag|author)/|index\d*\.html$)"), "article list"),
    (re.compile(r"\d{4}/(\d{2}/)?index\.html$|archives\.html$"), "date archive"),
    (re.compile(r"(tags|categories|authors)\.html$"), "term list"),
)
"""Output path → the page type, by the template that defines its markup. PELICAN_SETTINGS
says which template writes which path; in the ``simple`` theme, ``tag.html``,
``category.html`` and ``author.html`` extend ``index.html`` and change only the words of
its heading, ``period_archives.html`` is ``archives.html`` with another heading, and
``tags.html``, ``categories.html``, ``authors.html`` are one list each with other words:
pages whose markup only their text tells apart are one page type."""


def _article(i: int, rng: random.Random) -> str:
    title = " ".join(rng.sample(WORDS, 3)).title() + f" {i}"
    lines = [title, "#" * len(title), "",
             f":date: {2019 + i % 6}-{1 + i % 12:02d}-{1 + i % 27:02d} 10:00",
             f":category: {rng.choice(WORDS[:6]).title()}",
             f":tags: {', '.join(rng.sample(WORDS[6:22], rng.randint(1, 4)))}",
             f":author: {rng.choice(['Ada', 'Brook', 'Cyrus', 'Dana'])}",
             f":slug: post-{i}", f":summary: {' '.join(rng.sample(WORDS, 8))}", ""]
    for _section in range(rng.randint(1, 5)):
        heading = " ".join(rng.sample(WORDS, 2)).title()
        lines += [heading, "=" * len(heading), ""]
        for _p in range(rng.randint(1, 4)):
            lines += [" ".join(rng.choices(WORDS, k=rng.randint(10, 60))), ""]
        if rng.random() < 0.3:
            lines += ["- " + w for w in rng.sample(WORDS, 4)] + [""]
        if rng.random() < 0.2:
            lines += ["::", "", "    print('" + rng.choice(WORDS) + "')", ""]
    return "\n".join(lines)


def pelican_pages(articles: int = 400, seed: int = 7) -> Iterator[dict[str, Any]]:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        content = root / "content"
        (content / "pages").mkdir(parents=True)
        for i in range(articles):
            (content / f"post-{i}.rst").write_text(_article(i, rng), encoding="utf-8")
        for name in ("About", "Contact", "Colophon"):
            (content / "pages" / f"{name.lower()}.rst").write_text(
                f"{name}\n{'#' * len(name)}\n\n{' '.join(rng.choices(WORDS, k=40))}\n",
                encoding="utf-8")
        (root / "conf.py").write_text(PELICAN_SETTINGS, encoding="utf-8")
        out = root / "output"
        subprocess.run(["pelican", str(content), "-o", str(out), "-s", str(root / "conf.py"),
                        "-q"], check=True, capture_output=True)
        for file in sorted(out.rglob("*.html")):
            rel = file.relative_to(out).as_posix()
            label = next((name for pattern, name in PELICAN_LABELS if pattern.search(rel)),
                         None)
            if label is None:
                raise SystemExit(f"pelican wrote {rel}, which no template label matches")
            yield _record(rel, BLOG_HOST, file.read_text(encoding="utf-8"), label)


MEDIAWIKI_CACHE = Path(tempfile.gettempdir()) / "nitpicker-bench-corpora" / "mediawiki.jsonl"
"""The mediawiki corpus's records, written once (set up, serve and crawl take minutes)."""

MEDIAWIKI_PAGES = (
    "SELECT p.id, p.url, r.hash FROM pages p JOIN page_html_ref r ON r.page_id = p.id "
    "WHERE p.scraped = 1 AND p.isExternal = 0 AND p.contentType = 'text/html' "
    "AND p.redirectDestId IS NULL ORDER BY p.id")
"""The crawled internal HTML pages with a snapshot (``api.php``'s HTML output included)."""

_BODY = re.compile(r"<body\b[^>]*>", re.IGNORECASE)
_BODY_CLASS = re.compile(r"""\bclass\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.IGNORECASE)

MEDIAWIKI_VIEWS = (
    (re.compile(r'<table class="diff[ "]'), "diff"),  # DifferenceEngine's table.diff
    (re.compile(r'id="mw-revision-info"'), "oldid"),  # Article's "Revision as of …" notice
    # the content is only an error box: "The revision #N of the page named … does not exist"
    (re.compile(r'id="mw-content-text"[^>]*>\s*<div class="mw-message-box-error'), "error"),
)
"""``action-view`` pages that MediaWiki's markup tells apart, first match wins; any other
view (an article, a category, a system message, an empty user page) is ``view``."""


def _body_classes(html: str) -> list[str]:
    body = _BODY.search(html)
    found = _BODY_CLASS.search(body.group(0)) if body else None
    return (found.group(1) or found.group(2) or "").split() if found else []


def mediawiki_label(html: str) -> str | None:
    """The page type MediaWiki wrote into the page (see the module docstring), or None
    when the page carries no MediaWiki body classes."""
    classes = _body_classes(html)
    if "skin-apioutput" in classes:  # api.php's HTML: help, or a result shown as HTML
        if 'class="api-pretty-header"' in html:
            return "api/result"
        return "api/help" if 'class="apihelp-' in html else "api/other"
    namespace = next((c[3:] for c in classes
                      if re.fullmatch(r"ns--?\d+", c)), None)
    if namespace is None:
        return None
    if namespace == "-1":
        name = next((c.removeprefix("mw-special-") for c in classes
                     if c.startswith("mw-special-")), None)
        return f"special/{name}" if name else None
    action = next((c.removeprefix("action-") for c in classes if c.startswith("action-")),
                  None)
    if action is None:
        return None
    if action == "view":
        action = next((kind for pattern, kind in MEDIAWIKI_VIEWS if pattern.search(html)),
                      "view")
    return f"ns{namespace}/{action}"


def mediawiki_missing() -> str | None:
    return mediawiki.ensure_installed()


def mediawiki_archive_records(archive: Path) -> Iterator[dict[str, Any]]:
    """The archive's internal HTML pages as labelled records (pages without MediaWiki's
    body classes, or whose snapshot cannot be decoded, are left out and counted)."""
    left_out = 0
    with q.open_archive(archive) as a:
        conn = a.connection()
        for _page_id, url, digest in conn.execute(MEDIAWIKI_PAGES).fetchall():
            row = conn.execute("SELECT body, codec FROM page_html_blobs WHERE hash = ?",
                               (digest,)).fetchone()
            try:
                html, _complete = decode_html(row[0], row[1]) if row else ("", False)
            except NotAnArchive:
                html = ""
            label = mediawiki_label(html)
            if label is None:
                left_out += 1
                continue
            yield {"id": url, "html": html, "paths": path_segments(url),
                   "stylesheetHrefs": stylesheet_hrefs(html, url),
                   "host": urlsplit(url).hostname or "", "label": label}
    if left_out:
        print(f"cluster_corpora: mediawiki: {left_out} page(s) without MediaWiki's body "
              "classes left out", file=sys.stderr)


def build_mediawiki_cache(cache: Path = MEDIAWIKI_CACHE) -> None:
    """Set up a wiki, serve it, crawl it and write its records to ``cache`` (whole or not
    at all: written beside it and renamed)."""
    with tempfile.TemporaryDirectory(prefix="nitpicker-mw-corpus-") as tmp:
        started = time.monotonic()
        wiki = mediawiki.setup(Path(tmp) / "wiki", "wiki")
        set_up = time.monotonic() - started
        archive = Path(tmp) / "wiki.nitpicker"
        with mediawiki.serve(wiki) as base:
            code, seconds, stderr = run_crawl(base, archive, cap=100, follow_nofollow=True,
                                              max_pages=6000)
        if code != 0:
            raise RuntimeError(f"nitpicker-crawl of the wiki exited {code}: {stderr[-2000:]}")
        cache.parent.mkdir(parents=True, exist_ok=True)
        partial = cache.with_name(f"{cache.name}.{os.getpid()}.part")
        pages = 0
        with open(partial, "w", encoding="utf-8") as f:
            for record in mediawiki_archive_records(archive):
                f.write(json.dumps(record) + "\n")
                pages += 1
        partial.replace(cache)
    print(f"cluster_corpora: mediawiki: set up in {set_up:.0f} s, crawled in {seconds:.0f} s, "
          f"{pages} pages → {cache}", file=sys.stderr)


def mediawiki_pages(cache: Path = MEDIAWIKI_CACHE) -> Iterator[dict[str, Any]]:
    """The crawled wiki's records, from ``cache`` (built first when missing or empty); the
    label is read again from each page's HTML, so a change of mediawiki_label needs no
    new crawl."""
    if not cache.is_file() or cache.stat().st_size == 0:
        build_mediawiki_cache(cache)
    with open(cache, encoding="utf-8") as f:
        for line in f:
            record = json.loads(line)
            label = mediawiki_label(record["html"])
            if label is not None:
                yield {**record, "label": label}


def independent_pages(pages: int = 10_000, seed: int = 11) -> Iterator[dict[str, Any]]:
    """The site a helper wrote from a description of real sites' behaviour, without
    reading page_cluster (corpora/template_site.py): 25 templates, its own labels."""
    from corpora import template_site

    return _generated(template_site.main, pages, seed)


def publisher_pages(pages: int = 10_000, seed: int = 5) -> Iterator[dict[str, Any]]:
    """A second site written apart from the rules, by another helper, after page_cluster's
    last changes were made without it (corpora/publisher_site.py): a publisher and
    membership body, 25 templates with look-alike pairs, its own labels."""
    from corpora import publisher_site

    return _generated(publisher_site.main, pages, seed)


def municipal_pages(pages: int = 10_000, seed: int = 3) -> Iterator[dict[str, Any]]:
    """A third site written apart from the rules, by a third helper, while page_cluster
    was being tuned on the other two (corpora/municipal_site.py): a council portal,
    26 templates with look-alike pairs, its own labels."""
    from corpora import municipal_site

    return _generated(municipal_site.main, pages, seed)


def _generated(main: Callable[[list[str]], int], pages: int, seed: int
               ) -> Iterator[dict[str, Any]]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "site.jsonl"
        with contextlib.redirect_stdout(sys.stderr):  # its histogram is not the bench's
            main([str(out), "--pages", str(pages), "--seed", str(seed)])
        with open(out, encoding="utf-8") as f:
            for line in f:
                yield json.loads(line)


CORPORA = {"sphinx": (sphinx_missing, sphinx_pages), "pelican": (pelican_missing, pelican_pages),
           "mediawiki": (mediawiki_missing, mediawiki_pages),
           "independent": (lambda: None, independent_pages),
           "publisher": (lambda: None, publisher_pages),
           "municipal": (lambda: None, municipal_pages)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", choices=sorted(CORPORA))
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    missing, pages = CORPORA[args.corpus]
    reason = missing()
    if reason:
        print(f"cluster_corpora: {args.corpus}: {reason}", file=sys.stderr)
        return 1
    with open(args.out, "w", encoding="utf-8") as f:
        for record in pages():
            f.write(json.dumps(record) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
