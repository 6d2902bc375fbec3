"""Build a large, realistic archive with our writer, deterministically, with its ground truth.

    python bench/make_archive.py --pages 300000     # → bench/data/site-300000.nitpicker

Per internal page (constants below): 15 anchors (home and 4 sections from the header and
footer — never-fetched targets, as a crawl stopped early leaves them — 8 to other pages,
1 external, 1 to a redirect source), 2 sub-resources from a shared pool, 2 images, a zstd
HTML snapshot of ~20 KB (a shared template plus page text), and response headers, a
quarter of them with all four security headers. Mixed in: titles and descriptions
shared by groups of 5, og:title and canonical mismatches, 404s, network failures (-1),
redirect sources, 500 external sites, and trap clusters of 100–5,000 pages (identical
meta, og:url pointing at the parent list). ``page_signatures`` is filled as our crawler
does.

Next to the archive, ``<archive>.truth.json`` holds the expected answer of every query,
computed here from what was generated — not by running the queries — so a test can check
the queries against it (``tests/query/test_ground_truth.py``).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from nitpicker_crawl.archive import ArchiveWriter
from nitpicker_query.keys.page_keys import is_eligible, page_keys

SEED = 20261130
HOST = "https://bench.example"
SECTIONS = 50                 # /section-<s>/ directories
HEADER_LINKS = 5              # home + 4 sections on every page (header/footer duplicates)
ANCHORS_RANDOM = 8            # links to other pages per page
RESOURCE_POOL = 40            # shared CSS/JS/font files
IMAGES_PER_PAGE = 2
DUP_TITLE_EVERY = 10          # every 10th page takes a title shared by a group of 5
MISSING_TITLE_EVERY = 50
OG_MISMATCH_EVERY = 17
CANONICAL_MISMATCH_EVERY = 23
NOT_FOUND_EVERY = 97
FAILED_EVERY = 499
REDIRECT_EVERY = 100          # one redirect source per 100 pages
EXTERNAL_SITES = 500
TRAP_SIZES = (100, 500, 2000, 5000)  # trap clusters: /trap-<k>/list/<n>/
HTML_PARAGRAPHS = 120         # ~20 KB of HTML per page before compression
COMMIT_EVERY = 2000

TEMPLATE = (
    "<!doctype html><html lang=en><head><meta charset=utf-8><title>{title}</title>"
    "<link rel=stylesheet href=/assets/site.css></head><body><header><nav>"
    + "".join(f"<a href=/section-{s}/>Section {s}</a>" for s in range(20))
    + "</nav></header><main><h1>{title}</h1>{body}</main><footer>"
    + "Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 20
    + "</footer></body></html>"
)
FULL_HEADERS = {"content-type": "text/html", "Content-Security-Policy": "default-src 'self'",
                "X-Frame-Options": "DENY", "x-content-type-options": "nosniff",
                "Strict-Transport-Security": "max-age=63072000"}


def _status(i: int) -> int:
    if i % NOT_FOUND_EVERY == 5:
        return 404
    if i % FAILED_EVERY == 7:
        return -1
    return 200


def _title(i: int) -> str | None:
    if i % MISSING_TITLE_EVERY == 3:
        return None
    if i % DUP_TITLE_EVERY == 0:
        return f"Shared title {i // (DUP_TITLE_EVERY * 5)}"
    return f"Item {i} — Section {i % SECTIONS}"


def _signature(w: ArchiveWriter, pid: int, url: str, fields: dict[str, Any]) -> None:
    """Write the page's keys as the crawler does (``page_signatures``)."""
    if not is_eligible(is_external=False, content_type=fields.get("contentType"),
                       title=fields.get("title"), og_title=fields.get("og_title"),
                       og_url=fields.get("og_url")):
        return
    k = page_keys(url, title=fields.get("title"), description=fields.get("description"),
                  og_title=fields.get("og_title"), og_url=fields.get("og_url"))
    w.save_page_signature(pid, signature=k.signature, shape_signature=k.shape_signature,
                          parent_key=k.parent_key, shape_key=k.shape_key)


def build(output: Path, pages: int, seed: int = SEED) -> dict[str, Any]:
    """Write the archive and its truth file; return the truth."""
    rng = random.Random(seed)
    work = output.with_name("._nitpicker-" + output.stem)
    w = ArchiveWriter.create(output, roots=[HOST + "/"], workdir=work)
    urls = [f"{HOST}/section-{i % SECTIONS}/item-{i}/" for i in range(pages)]
    redirects = max(1, pages // REDIRECT_EVERY)
    redirect_dest = {f"{HOST}/old/{n}/": (n * REDIRECT_EVERY) % pages for n in range(redirects)}
    resources = []
    for r in range(RESOURCE_POOL):
        kind = ("text/css", "application/javascript", "font/woff2")[r % 3]
        ext = {"text/css": "css", "application/javascript": "js", "font/woff2": "woff2"}[kind]
        resources.append(w.save_resource(f"{HOST}/assets/r{r}.{ext}", isExternal=int(r % 7 == 0),
                                         status=200, statusText="OK", contentType=kind,
                                         contentLength=1000 + r))
    # facts for the ground truth, gathered while writing
    strict_titles: Counter[str] = Counter()
    strict_descriptions: Counter[str] = Counter()
    status_counts: Counter[int] = Counter()
    missing_title = og_mismatch = canonical_mismatch = headers_missing = strict = 0
    broken = external_links = images = images_missing_alt = anchors_total = 0
    referrers: Counter[int] = Counter()
    started = time.monotonic()
    for i, url in enumerate(urls):
        status = _status(i)
        status_counts[status] += 1
        if status == -1:
            pid = w.save_page(url, {"status": -1, "isExternal": 0, "contentType": None})
            w.add_crawl_error(url, "getaddrinfo ENOTFOUND bench.example")
            missing_title += 1
            continue
        title = _title(i)
        description = f"Description of item {i}" if i % 3 else f"Common description {i % 7}"
        og_title = f"{title} | Bench" if title and i % OG_MISMATCH_EVERY == 1 else title
        canonical = url if i % CANONICAL_MISMATCH_EVERY != 2 else url + "?ref=canonical"
        full_headers = i % 4 == 0
        fields = {
            "status": status, "statusText": "OK" if status == 200 else "Not Found",
            "contentType": "text/html", "isExternal": 0, "title": title,
            "description": description, "og_title": og_title, "og_url": url,
            "canonical": canonical, "lang": "en",
            "responseHeaders": FULL_HEADERS if full_headers else {"content-type": "text/html"},
            "robots_noindex": 1 if i % 211 == 0 else 0,
        }
        pid = w.save_page(url, fields)
        _signature(w, pid, url, fields)
        strict += 1
        missing_title += title is None
        if title:
            strict_titles[title] += 1
        strict_descriptions[description] += 1
        og_mismatch += bool(title) and og_title != title
        canonical_mismatch += canonical != url
        headers_missing += not full_headers
        anchors = [(f"{HOST}/", None, "Home")]
        anchors += [(f"{HOST}/section-{s}/", None, f"Section {s}")
                    for s in range(HEADER_LINKS - 1)]
        targets = [rng.randrange(pages) for _ in range(ANCHORS_RANDOM)]
        anchors += [(urls[j], None, "related") for j in targets]
        broken += sum(_status(j) == 404 for j in targets)
        anchors.append((f"https://ext{rng.randrange(EXTERNAL_SITES)}.example/", None, "partner"))
        external_links += 1
        old = f"{HOST}/old/{rng.randrange(redirects)}/"
        anchors.append((old, None, "old link"))
        broken += _status(redirect_dest[old]) == 404
        w.replace_anchors(pid, anchors)
        anchors_total += len(anchors)
        for r in rng.sample(range(RESOURCE_POOL), 2):
            w.add_referrer(resources[r], pid)
            referrers[r] += 1
        alts = [None if (i + k) % 5 == 0 else "photo" for k in range(IMAGES_PER_PAGE)]
        w.replace_images(pid, [
            {"src": f"{HOST}/img/{i}-{k}.jpg", "alt": alts[k],
             "width": 0 if k and i % 9 == 0 else 640, "height": 480,
             "naturalWidth": 4000 if i % 13 == 0 else 1280, "naturalHeight": 960,
             "isLazy": k == 1, "viewportWidth": 1280}
            for k in range(IMAGES_PER_PAGE)
        ])
        images += IMAGES_PER_PAGE
        images_missing_alt += sum(a is None for a in alts)
        body = f"<p>{description}</p>" + "".join(
            f"<p>Paragraph {p} of item {i}: {title or ''}</p>" for p in range(HTML_PARAGRAPHS))
        w.save_html(pid, TEMPLATE.format(title=title or "", body=body))
        if (i + 1) % COMMIT_EVERY == 0:
            w.commit()
            rate = (i + 1) / (time.monotonic() - started)
            print(f"\r{i + 1}/{pages} pages ({rate:.0f}/s)", end="", file=sys.stderr)
    for source, j in redirect_dest.items():
        w.save_page(source, status=301, isExternal=0)
        w.record_redirect([source], w.page_id(urls[j]))
    for k in range(EXTERNAL_SITES):
        w.save_page(f"https://ext{k}.example/", status=200, contentType="text/html",
                    isExternal=1, title=f"Partner {k}")
    trap_pages = 0
    for k, size in enumerate(TRAP_SIZES):
        for n in range(size):
            url = f"{HOST}/trap-{k}/list/{n}/"
            trap = {"status": 200, "contentType": "text/html", "isExternal": 0,
                    "title": f"Archive {k}", "description": "Every article, by date",
                    "og_title": f"Archive {k}", "og_url": f"{HOST}/trap-{k}/list/"}
            pid = w.save_page(url, trap)
            _signature(w, pid, url, trap)
            w.save_html(pid, TEMPLATE.format(title=f"Archive {k}", body="<p>same</p>"))
            trap_pages += 1
            strict += 1
            strict_titles[f"Archive {k}"] += 1
            strict_descriptions["Every article, by date"] += 1
            # no response headers stored: not known to miss any (check_headers: null)
    status_counts[200] += trap_pages + EXTERNAL_SITES
    w.close()
    truth: dict[str, Any] = {
        "pages": pages,
        "list_pages": {"total": pages + trap_pages + EXTERNAL_SITES,
                       "missing_title": missing_title, "status_404": status_counts[404],
                       "external": EXTERNAL_SITES},
        "get_summary": {"totalPages": pages + trap_pages + EXTERNAL_SITES,
                        "internalPages": pages + trap_pages, "externalPages": EXTERNAL_SITES,
                        "statusDistribution": {str(s): n for s, n in sorted(status_counts.items())},
                        "strictPages": strict},
        "find_duplicates": {
            "title": sum(1 for n in strict_titles.values() if n > 1),
            "description": sum(1 for n in strict_descriptions.values() if n > 1)},
        "find_mismatches": {"canonical": canonical_mismatch, "og:title": og_mismatch},
        "list_links": {"broken": broken, "external": external_links},
        "anchors": anchors_total,
        "list_images": {"total": images, "missing_alt": images_missing_alt},
        "list_resources": {"total": RESOURCE_POOL},
        "get_resource_referrers": {f"{HOST}/assets/r0.css": referrers[0]},
        "check_headers": {"total": strict, "missing_only": headers_missing},
        "get_duplicate_clusters": {"counts": sorted(TRAP_SIZES, reverse=True)},
        "redirects": redirects,
    }
    output.with_name(output.name + ".truth.json").write_text(json.dumps(truth, indent=2))
    print(f"\rwrote {output} in {time.monotonic() - started:.0f} s", file=sys.stderr)
    return truth


DATA = Path(__file__).resolve().parent / "data"


def archive_path(pages: int) -> Path:
    """Where the benchmark archive of ``pages`` pages lives (shared by the benchmarks)."""
    return DATA / f"site-{pages}.nitpicker"


def ensure_013(pages: int) -> Path:
    """The benchmark archive of ``pages`` pages converted to format 0.13 (by our
    converter, on first use), beside the 0.10 one."""
    source = ensure(pages)
    converted = source.with_name(source.stem + "-0.13.nitpicker")
    if not converted.exists():
        subprocess.run([str(Path(sys.executable).with_name("nitpicker-crawl")), "convert",
                        str(source), "--to", "0.13", "-o", str(converted)], check=True)
    return converted


def ensure(pages: int) -> Path:
    """The benchmark archive of ``pages`` pages, built on first use (minutes at 300,000)."""
    path = archive_path(pages)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        build(path, pages)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=10_000, help="internal pages (default 10000)")
    parser.add_argument("-o", "--output", type=Path, default=None)
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args()
    out = args.output or archive_path(args.pages)
    out.parent.mkdir(parents=True, exist_ok=True)
    build(out.absolute(), args.pages, args.seed)


if __name__ == "__main__":
    main()
