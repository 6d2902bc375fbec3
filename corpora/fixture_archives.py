"""Fixture archives, described as data and built with our writer (ARCHIVE-FORMAT.md §8).

``build_pre013`` mirrors upstream's pre-0.13 fixture generator; ``extended=True`` adds
the redirect, error, external, skipped and cap-event rows of §8.2. Expected results in
the tests are computed by hand from these rows, not captured from our own output.
"""

from __future__ import annotations

from pathlib import Path

from nitpicker_crawl.archive import ArchiveWriter

BASE = "http://localhost"
HTML_A = "<html><body>A</body></html>"


def build_pre013(directory: Path, *, extended: bool = False,
                 name: str = "pre-0.13-fixture") -> Path:
    """Write ``<directory>/<name>.nitpicker`` and return its path."""
    out = directory / f"{name}.nitpicker"
    w = ArchiveWriter.create(
        out, roots=[BASE], workdir=directory / f"._nitpicker-{name}",
        recursive=True, interval=0, image=False, fetchExternal=False, parallels=1,
        excludes=[], excludeKeywords=[], excludeUrls=[], maxExcludedDepth=0, retry=3,
        fromList=False, disableQueries=False, userAgent="fixture", ignoreRobots=False,
    )
    common = {"scraped": 1, "isTarget": 1, "isExternal": 0, "statusText": "OK",
              "contentType": "text/html", "contentLength": 100, "responseHeaders": {},
              "isSkipped": 0, "firstCrawledAt": 1000, "lastCrawledAt": 1000}
    a = w.save_page(f"{BASE}/a", common, status=200, title="Page A")
    b = w.save_page(f"{BASE}/b", common, status=200, title="Page B")
    w.replace_anchors(a, [(f"{BASE}/b", None, "link1"), (f"{BASE}/b", None, "link2")])
    w.replace_anchors(b, [(f"{BASE}/a", None, "back")])
    css = w.save_resource(f"{BASE}/style.css", isExternal=0, status=200, statusText="OK",
                          contentType="text/css", contentLength=42, responseHeaders={})
    w.add_referrer(css, a)
    w.add_referrer(css, b)
    w.conn.execute(
        "INSERT INTO page_errors (pageId, phase, message, createdAt) VALUES (?, ?, ?, ?)",
        (a, "screenshot", "viewport switch failed", 1000),
    )
    w.replace_tags(a, [{"provider": "WordPress", "category": "CMS", "externalId": "wp",
                        "confidence": 100}])
    w.replace_jsonld(b, [{"kind": "ld+json", "type": "Article", "raw": '{"@type":"Article"}',
                          "parsed": '{"@type":"Article"}', "parseError": None}])
    w.save_html(a, HTML_A, codec="none")
    if extended:
        old_b = w.save_page(f"{BASE}/old-b", scraped=1, isTarget=1, isExternal=0, status=301)
        w.record_redirect([f"{BASE}/old-b"], b)
        assert old_b != b
        w.save_page(f"{BASE}/missing", scraped=1, isTarget=1, isExternal=0, status=404,
                    contentType="text/html", title="Not Found")
        w.save_page(f"{BASE}/flaky", scraped=1, isTarget=1, isExternal=0, status=503,
                    contentType="text/html")
        w.save_page("https://example.org/", scraped=1, isTarget=0, isExternal=1, status=200,
                    contentType="text/html", title="Example Domain")
        w.skip_page(f"{BASE}/list/date/1.5e+32/", "dedupe-cap")
        w.replace_anchors(a, [(f"{BASE}/b", None, "link1"), (f"{BASE}/b", None, "link2"),
                              (f"{BASE}/old-b", None, "old link"),
                              (f"{BASE}/missing", None, "dead")])
        w.replace_anchors(b, [(f"{BASE}/a", None, "back"), (f"{BASE}/flaky", None, "flaky"),
                              ("https://example.org/", None, "ext"),
                              (f"{BASE}/list/date/1.5e+32/", None, "next")])
        w.add_dedupe_cap_event(
            shape_key="localhost/list/date/{n}/", sample_url=f"{BASE}/list/date/2031/",
            body_hash=None, effective_threshold=30, observed_count=30,
            detected_at=1767225600000, rejected_count=1,
            signature="79dc25ad3abcbc287973c7ecba30e1a951991ee0", parent_path="/list/date",
            title="News list", description="All news", og_title="News list",
            og_url=f"{BASE}/list/", trap_score=0.75,
            signals={"ogUrlMismatch": True, "ogUrlPointsToParent": True, "ogUrlSelf": False,
                     "canonicalSelf": False, "relPrevNext": False, "ordinalTitle": False},
        )
    return w.close()
