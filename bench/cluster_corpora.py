"""Labelled page-cluster corpora built by software we did not write.

    python bench/cluster_corpora.py sphinx  OUT.jsonl   # Debian's python3.11-doc (Sphinx)
    python bench/cluster_corpora.py pelican OUT.jsonl   # a blog built by Debian's pelican

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

- **independent** — a company site (shop, news, docs, community; 25 templates) written by
  a helper from a description of how real sites behave, without reading page_cluster
  (bench/independent_site.py, seed 11, 10,000 pages): the labels are its own.

The packages are installed when this runs as root (``bench/targets.py``); otherwise a
missing one is named and the corpus skipped.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

# the benchmark scripts beside this one (targets.apt_install)
sys.path.append(str(Path(__file__).resolve().parent))

from targets import apt_install

from nitpicker_query.templates import stylesheet_hrefs  # what the archive query passes

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


def independent_pages(pages: int = 10_000, seed: int = 11) -> Iterator[dict[str, Any]]:
    """The site a helper wrote from a description of real sites' behaviour, without
    reading page_cluster (bench/independent_site.py): 25 templates, its own labels."""
    import independent_site

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "site.jsonl"
        with contextlib.redirect_stdout(sys.stderr):  # its histogram is not the bench's
            independent_site.main([str(out), "--pages", str(pages), "--seed", str(seed)])
        with open(out, encoding="utf-8") as f:
            for line in f:
                yield json.loads(line)


CORPORA = {"sphinx": (sphinx_missing, sphinx_pages), "pelican": (pelican_missing, pelican_pages),
           "independent": (lambda: None, independent_pages)}


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
