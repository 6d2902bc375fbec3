"""Build a large, realistic archive with our writer, deterministically (seeded).

    python bench/make_archive.py --pages 300000 -o bench/data/site-300k.nitpicker

Shape per internal page (constants below): ~15 anchors (5 shared header/footer links,
8 to other pages, 1 external, 1 to a redirecting or missing URL), 2 sub-resources from a
shared pool, 2 images, an HTML snapshot built from a shared template plus page text,
and response headers of which some carry security headers. Mixed in: duplicated titles
and descriptions, og:title and canonical mismatches, 404s, network failures (-1),
redirect sources, external pages, and trap clusters (identical meta, og:url → parent).
Writes ``<output>.truth.json`` with the expected count of each query.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from nitpicker_crawl.archive import ArchiveWriter
from nitpicker_query.keys import is_eligible, page_keys


def _signature(w: ArchiveWriter, pid: int, url: str, fields: dict[str, object]) -> None:
    """Write the page's keys as the crawler does (``page_signatures``)."""
    title, og_title, og_url = fields.get("title"), fields.get("og_title"), fields.get("og_url")
    if not is_eligible(is_external=False, content_type=fields.get("contentType"),  # type: ignore[arg-type]
                       title=title, og_title=og_title, og_url=og_url):  # type: ignore[arg-type]
        return
    k = page_keys(url, title=title, description=fields.get("description"),  # type: ignore[arg-type]
                  og_title=og_title, og_url=og_url)  # type: ignore[arg-type]
    w.save_page_signature(pid, signature=k.signature, shape_signature=k.shape_signature,
                          parent_key=k.parent_key, shape_key=k.shape_key)

SEED = 20261130
HOST = "https://bench.example"
SECTIONS = 50                 # /section-<s>/ directories
ANCHORS_RANDOM = 8            # links to other pages per page
RESOURCE_POOL = 40            # shared CSS/JS/font files
IMAGES_PER_PAGE = 2
DUP_TITLE_EVERY = 10          # every 10th page takes a title shared by a group of 5
MISSING_TITLE_EVERY = 50
OG_MISMATCH_EVERY = 17
CANONICAL_MISMATCH_EVERY = 23
NOT_FOUND_EVERY = 97
FAILED_EVERY = 499
REDIRECT_EVERY = 100
EXTERNAL_SITES = 500
TRAP_SIZES = (100, 500, 2000)  # trap clusters: /trap-<k>/list/<n>/
COMMIT_EVERY = 2000

TEMPLATE = (
    "<!doctype html><html lang=en><head><meta charset=utf-8><title>{title}</title>"
    "<link rel=stylesheet href=/assets/site.css></head><body><header><nav>"
    + "".join(f"<a href=/section-{s}/>Section {s}</a>" for s in range(20))
    + "</nav></header><main><h1>{title}</h1>{body}</main><footer>"
    + "Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 20
    + "</footer></body></html>"
)


def build(output: Path, pages: int, seed: int = SEED) -> dict[str, int]:
    rng = random.Random(seed)
    work = output.with_name("._nitpicker-" + output.stem)
    w = ArchiveWriter.create(output, roots=[HOST + "/"], workdir=work)
    truth = {"pages": 0, "notFound": 0, "failed": 0, "redirects": 0, "external": 0,
             "missingTitle": 0, "ogTitleMismatch": 0, "canonicalMismatch": 0, "anchors": 0,
             "images": 0, "traps": len(TRAP_SIZES)}
    urls = [f"{HOST}/section-{i % SECTIONS}/item-{i}/" for i in range(pages)]
    trap_urls = [(k, f"{HOST}/trap-{k}/list/{n}/") for k, size in enumerate(TRAP_SIZES)
                 for n in range(size)]
    resources = []
    for r in range(RESOURCE_POOL):
        kind = ("text/css", "application/javascript", "font/woff2")[r % 3]
        ext = {"text/css": "css", "application/javascript": "js", "font/woff2": "woff2"}[kind]
        resources.append(w.save_resource(f"{HOST}/assets/r{r}.{ext}", isExternal=int(r % 7 == 0),
                                         status=200, statusText="OK", contentType=kind,
                                         contentLength=1000 + r))
    headers_full = {"content-type": "text/html", "Content-Security-Policy": "default-src 'self'",
                    "X-Frame-Options": "DENY", "x-content-type-options": "nosniff",
                    "Strict-Transport-Security": "max-age=63072000"}
    started = time.monotonic()
    for i, url in enumerate(urls):
        status, ctype = 200, "text/html"
        if i % NOT_FOUND_EVERY == 5:
            status = 404
            truth["notFound"] += 1
        elif i % FAILED_EVERY == 7:
            status, ctype = -1, None
            truth["failed"] += 1
        title = f"Item {i} — Section {i % SECTIONS}"
        if i % DUP_TITLE_EVERY == 0:
            title = f"Shared title {i // (DUP_TITLE_EVERY * 5)}"
        if i % MISSING_TITLE_EVERY == 3:
            title = None
        description = f"Description of item {i}" if i % 3 else f"Common description {i % 7}"
        og_title = title
        if title and i % OG_MISMATCH_EVERY == 1:
            og_title = f"{title} | Bench"
        canonical = url if i % CANONICAL_MISMATCH_EVERY != 2 else url + "?ref=canonical"
        fields = {
            "status": status, "statusText": "OK" if status == 200 else None,
            "contentType": ctype, "isExternal": 0, "title": title, "description": description,
            "og_title": og_title, "og_url": url, "canonical": canonical, "lang": "en",
            "responseHeaders": headers_full if i % 4 == 0 else {"content-type": "text/html"},
            "robots_noindex": 1 if i % 211 == 0 else 0,
        }
        if status == -1:
            fields = {"status": -1, "isExternal": 0, "contentType": None}
        pid = w.save_page(url, fields)
        _signature(w, pid, url, fields)
        truth["pages"] += 1
        if status == -1:
            w.add_crawl_error(url, "getaddrinfo ENOTFOUND bench.example")
            continue
        truth["missingTitle"] += title is None and status != -1
        anchors = [(f"{HOST}/", None, "Home")]
        anchors += [(f"{HOST}/section-{s}/", None, f"Section {s}") for s in range(4)]
        anchors += [(urls[rng.randrange(pages)], None, "related") for _ in range(ANCHORS_RANDOM)]
        anchors.append((f"https://ext{rng.randrange(EXTERNAL_SITES)}.example/", None, "partner"))
        anchors.append((f"{HOST}/old/{rng.randrange(max(1, pages // REDIRECT_EVERY))}/", None,
                        "old link"))
        w.replace_anchors(pid, anchors)
        truth["anchors"] += len(anchors)
        for r in rng.sample(resources, 2):
            w.add_referrer(r, pid)
        w.replace_images(pid, [
            {"src": f"{HOST}/img/{i}-{k}.jpg", "alt": None if (i + k) % 5 == 0 else "photo",
             "width": 0 if k and i % 9 == 0 else 640, "height": 480,
             "naturalWidth": 4000 if i % 13 == 0 else 1280, "naturalHeight": 960,
             "isLazy": k == 1, "viewportWidth": 1280}
            for k in range(IMAGES_PER_PAGE)
        ])
        truth["images"] += IMAGES_PER_PAGE
        body = f"<p>{description}</p>" + f"<p>Paragraph {i} " * 30 + "</p>"
        w.save_html(pid, TEMPLATE.format(title=title or "", body=body))
        if (i + 1) % COMMIT_EVERY == 0:
            w.commit()
            rate = (i + 1) / (time.monotonic() - started)
            print(f"\r{i + 1}/{pages} pages ({rate:.0f}/s)", end="", file=sys.stderr)
    for n in range(max(1, pages // REDIRECT_EVERY)):
        dest = w.page_id(urls[(n * REDIRECT_EVERY) % pages])
        w.save_page(f"{HOST}/old/{n}/", status=301, isExternal=0)
        w.record_redirect([f"{HOST}/old/{n}/"], dest)
        truth["redirects"] += 1
    for k in range(EXTERNAL_SITES):
        w.save_page(f"https://ext{k}.example/", status=200, contentType="text/html",
                    isExternal=1, title=f"Partner {k}")
        truth["external"] += 1
    for k, url in trap_urls:
        trap = {"status": 200, "contentType": "text/html", "isExternal": 0,
                "title": f"Archive {k}", "description": "Every article, by date",
                "og_title": f"Archive {k}", "og_url": f"{HOST}/trap-{k}/list/"}
        pid = w.save_page(url, trap)
        _signature(w, pid, url, trap)
        w.save_html(pid, TEMPLATE.format(title=f"Archive {k}", body="<p>same</p>"))
        truth["pages"] += 1
    w.close()
    print(f"\rwrote {output} in {time.monotonic() - started:.0f} s", file=sys.stderr)
    output.with_name(output.name + ".truth.json").write_text(json.dumps(truth, indent=2))
    return truth


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=10_000, help="internal pages (default 10000)")
    parser.add_argument("-o", "--output", type=Path, default=None)
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args()
    out = args.output or Path("bench/data") / f"site-{args.pages}.nitpicker"
    out.parent.mkdir(parents=True, exist_ok=True)
    build(out.absolute(), args.pages, args.seed)


if __name__ == "__main__":
    main()
