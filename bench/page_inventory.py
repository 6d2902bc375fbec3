"""Issue 25's page readers on real software: main regions, console messages, unused files.

    python bench/page_inventory.py [--pages 150] [--no-write]

Two wikis from Debian's packages, crawled rendered (Chromium) with the soft cap, each
checked against a truth that is not the crawler's:

- **DokuWiki** (Debian's package, corpora/real/dokuwiki.py's seeded wiki) with a ``sidebar`` page,
  which its default template shows in a ``<nav>`` holding a ``<div class="content">``
  *before* the ``<main>`` that holds the page. Main region: for every wiki page crawled,
  the region found and its headings against the page's own wiki text (its ``=====``
  heading lines, plus DokuWiki's table-of-contents heading when it has three or more).
  The same pages under upstream's one-selector rule (the first candidate in document
  order), for comparison. Unused files: every file of the template's and DokuWiki's image
  directories is given as ``--list``; the files the crawl calls unused are checked
  against a separate Chromium visit (Playwright alone, none of the crawler's code) of
  every page the crawl stored, which records every URL each page requested.
- **MediaWiki** (Debian's package, corpora/real/mediawiki.py's seeded wiki) with its site script
  ``MediaWiki:Common.js`` set to log an error and throw, as a broken gadget does; served
  by MediaWiki's own ResourceLoader (``load.php``). Console messages: the archive's
  messages of every article page against the separate Chromium visit's console and
  page errors of the same pages. Main region: pages with sections, whose heading count
  is given by MediaWiki's own parser (``api.php?action=parse&prop=sections``: the title,
  each section, and the "Contents" heading it adds from four sections on).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from doc import add_flag, emit  # noqa: E402

import nitpicker_query as q  # noqa: E402
from corpora.real import (  # noqa: E402
    dokuwiki,
    mediawiki,
)
from nitpicker_crawl.fetch.renderer import find_browser  # noqa: E402
from page_cluster.nesting import parse_html  # noqa: E402

CRAWL = str(Path(sys.executable).with_name("nitpicker-crawl"))
UPSTREAM_ORDER = ("main, [role=\"main\"], #main, .main, #content, .content, #contents, "
                  ".contents, #main-content, .main-content, #main_content, .main_content, "
                  "#mainContent, .mainContent")
"""Upstream's candidates joined into one selector: the first match in document order."""
BROKEN_SCRIPT = ("console.error('bench: gadget failed to load');\n"
                 "throw new Error('bench: gadget threw');\n")


def crawl(base: str, out: Path, pages: int, *extra: str) -> str:
    done = subprocess.run(
        [CRAWL, base, "-o", str(out), "--render", "--dedupe-cap", "20", "--max-pages",
         str(pages), "--no-fetch-external", "--parallels", "2", "--no-templates",
         "--silent", *extra], capture_output=True, text=True, timeout=3600, cwd=out.parent)
    if done.returncode not in (0, 2, 3):
        raise SystemExit(f"crawl of {base} failed ({done.returncode}): {done.stderr[-500:]}")
    return done.stderr


def visit(urls: list[str]) -> dict[str, dict[str, Any]]:
    """Each URL in a fresh Chromium page (Playwright alone): the URLs it requested and its
    console messages and uncaught errors ``(type, text)``."""
    from playwright.sync_api import sync_playwright

    seen: dict[str, dict[str, Any]] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=find_browser(), headless=True)
        for url in urls:
            page = browser.new_page()
            requested: set[str] = set()
            messages: list[tuple[str, str]] = []
            page.on("request", lambda r, got=requested: got.add(r.url))
            page.on("console", lambda m, got=messages: got.append(
                (m.type, m.text, m.location.get("url") or None)))
            page.on("pageerror", lambda e, got=messages: got.append(
                ("pageerror", e.message, None)))
            page.goto(url, wait_until="load", timeout=60_000)
            page.wait_for_timeout(300)
            seen[url] = {"requested": requested, "console": messages}
            page.close()
        browser.close()
    return seen


def html_pages(archive: Path) -> list[str]:
    with q.open_archive(archive) as a:
        return [u for (u,) in a.rows(
            "SELECT url FROM pages WHERE scraped = 1 AND isExternal = 0 AND status = 200 AND "
            "contentType = 'text/html' AND redirectDestId IS NULL ORDER BY url")]


def stored_html(archive: Path, url: str) -> str:
    page = q.get_page_html(archive, url=url, max_length=5_000_000)
    return str(page["html"]) if page else ""


# --------------------------------------------------------------------------- DokuWiki

def dokuwiki_part(work: Path, pages: int) -> dict[str, Any]:
    wiki = dokuwiki.setup(work / "dw")
    sidebar = ("===== Quick links =====\n\n  * [[start]]\n  * [[projects:start]]\n\n"
               "===== Help =====\n\n  * [[wiki:syntax]]\n")
    (wiki.data / "pages" / "sidebar.txt").write_text(sidebar)
    files = sorted(p for d in ("lib/tpl/dokuwiki/images", "lib/images")
                   for p in (wiki.www / d).rglob("*") if p.is_file()
                   and p.suffix in (".png", ".gif", ".svg", ".ico", ".jpg"))
    with dokuwiki.serve(wiki) as base:
        listing = work / "dw-files.txt"
        urls = [base + str(p.relative_to(wiki.www)) for p in files]
        listing.write_text("\n".join(urls) + "\n")
        out = work / "dw.nitpicker"
        # the wiki's pages and every listed file (no --max-pages cut before the
        # inventory's turn); the edit, revision and diff views are left out, as an
        # auditor of content leaves them out
        crawl(base, out, 5000, "--list", str(listing), "--no-sitemap", "--exclude-pattern",
              r"[?&](do|rev|rev2\[\]|idx)=|/lib/exe/")
        crawled = html_pages(out)
        content = {u for u in crawled if _doku_id(u) is not None}
        truth = {u: _doku_headings(wiki, _doku_id(u) or "") for u in content}
        ours = {u: q.get_page_main_contents(out, url=u) for u in content}
        upstream = {u: _upstream_region(stored_html(out, u)) for u in content}
        unused = {i["url"] for i in q.list_unused_resources(out, limit=1000)["items"]}
        seen = visit(crawled)
    requested = set().union(*(v["requested"] for v in seen.values()))
    listed = set(urls)
    ours_ok = sum(1 for u in content if ours[u] and ours[u]["region"]
                  and ours[u]["region"]["id"] == "dokuwiki__content"
                  and ours[u]["counts"]["headings"] == truth[u])
    upstream_main = sum(1 for u in content if upstream[u][0] == "dokuwiki__content")
    upstream_ok = sum(1 for u in content if upstream[u] == ("dokuwiki__content", truth[u]))
    return {
        "pages": len(crawled), "content": len(content), "ours_ok": ours_ok,
        "upstream_main": upstream_main, "upstream_ok": upstream_ok,
        "upstream_regions": Counter(r for r, _ in upstream.values()).most_common(3),
        "listed": len(listed), "unused": len(unused),
        "used_by_visit": len(listed & requested),
        "unused_but_requested": sorted(unused & requested),
        "not_unused_not_requested": sorted((listed - unused) - requested)[:10],
        "not_unused_not_requested_n": len((listed - unused) - requested),
    }


def _doku_id(url: str) -> str | None:
    """The page id of a plain view of a wiki page (no ``do=``, no revision)."""
    parts = urllib.parse.urlsplit(url)
    query = dict(urllib.parse.parse_qsl(parts.query))
    if parts.path not in ("/doku.php", "/") or set(query) - {"id"}:
        return None
    return query.get("id", "start")


def _doku_headings(wiki: dokuwiki.Wiki, page_id: str) -> int:
    """Headings the page's wiki text makes, plus the table-of-contents heading DokuWiki
    adds from three headings on (``tocminheads``)."""
    source = wiki.data / "pages" / (page_id.replace(":", "/") + ".txt")
    if not source.exists():
        return -1
    count = sum(1 for line in source.read_text().splitlines()
                if re.fullmatch(r"\s*={2,6}[^=].*?={2,6}\s*", line))
    return count + (1 if count >= 3 else 0)


def _upstream_region(html: str) -> tuple[str | None, int]:
    """Upstream's region (its id, else ``.classes``) and its heading count."""
    tree = parse_html(html)
    node = tree.css_first(UPSTREAM_ORDER)
    if node is None:
        return None, 0
    headings = [n for n in node.css("h1, h2, h3, h4, h5, h6") if n.mem_id != node.mem_id]
    return node.attributes.get("id") or f".{node.attributes.get('class')}", len(headings)


def _upstream_is(html: str, want: dict[str, Any] | None) -> bool:
    """Is upstream's region the element of the truth?"""
    node = parse_html(html).css_first(UPSTREAM_ORDER)
    if node is None or want is None:
        return node is None and want is None
    return ((node.tag or "") == want["tag"] and (node.attributes.get("id") or None)
            == want["id"] and set(want["classes"]) <= set(
                (node.attributes.get("class") or "").split()))


# --------------------------------------------------------------------------- MediaWiki

SECTIONED = 12


def mediawiki_part(work: Path, pages: int) -> dict[str, Any]:
    wiki = mediawiki.setup(work / "mw", "wiki")
    extra = work / "mw-extra"
    extra.mkdir()
    # the site script, as an administrator saves it (importTextFiles would drop ".js")
    subprocess.run(["php", "maintenance/edit.php", "-u", "Admin", "-s", "bench",
                    "MediaWiki:Common.js"], input=BROKEN_SCRIPT, cwd=mediawiki.MEDIAWIKI,
                   env=wiki.env, check=True, capture_output=True, text=True)
    for n in range(SECTIONED):
        sections = "\n\n".join(f"{'=' * (2 + (s % 2))} Part {s} {'=' * (2 + (s % 2))}\n"
                               f"Text of part {s}." for s in range(n % 7))
        (extra / f"Sectioned {n:02d}").write_text(
            f"Sectioned page {n}.\n\n{sections}\n\n[[Topic 001]]\n")
    wiki.php("maintenance/importTextFiles.php", "--overwrite", "-s", "bench",
             *sorted(str(p) for p in extra.iterdir()))
    (extra / "Main Page").write_text("The bench wiki.\n\n" + "".join(
        f"* [[Sectioned {n:02d}]]\n" for n in range(SECTIONED)) + "* [[Topic 000]]\n")
    wiki.php("maintenance/importTextFiles.php", "--overwrite", "-s", "bench",
             str(extra / "Main Page"))
    with mediawiki.serve(wiki) as base:
        out = work / "mw.nitpicker"
        crawl(base + "wiki/Main_Page", out, pages, "--exclude-pattern",
              r"Special:|[?&](action|diff|oldid|printable|curid)=", "--no-sitemap")
        crawled = [u for u in html_pages(out) if "/wiki/" in u]
        sectioned = [u for u in crawled if "/wiki/Sectioned_" in u]
        truth = {u: _mw_headings(base, u) for u in sectioned}
        ours = {u: q.get_page_main_contents(out, url=u) for u in sectioned}
        archive_logs = {u: q.get_page_console_logs(out, url=u) for u in crawled}
        seen = visit(crawled)
    ours_ok = sum(1 for u in sectioned if ours[u] and ours[u]["counts"]["headings"] == truth[u])
    regions = Counter((m["region"] or {}).get("selector") for m in ours.values() if m)
    both = agree = 0
    missed: list[tuple[str, Any]] = []
    extra_found: list[tuple[str, Any]] = []
    favicon = 0   # the browser's own /favicon.ico 404, said on whichever page came first
    for url in crawled:
        stored_all = [(log["type"], log["text"], log["url"] if log["type"] != "pageerror"
                       else None) for log in (archive_logs[url] or {"logs": []})["logs"]]
        stored = Counter(m[:2] for m in stored_all if not _favicon(m))
        live = Counter(m[:2] for m in seen[url]["console"] if not _favicon(m))
        favicon += sum(1 for m in stored_all if _favicon(m))
        both += sum(live.values())
        agree += sum((stored & live).values())
        missed += [(url, k) for k in (live - stored)]
        extra_found += [(url, k) for k in (stored - live)]
    pages_with_error = sum(1 for u in crawled if any(
        log["type"] == "pageerror" and "bench: gadget threw" in (log["text"] or "")
        for log in (archive_logs[u] or {"logs": []})["logs"]))
    summary = q.list_console_logs(out, limit=20)["items"]
    return {"pages": len(crawled), "sectioned": len(sectioned), "ours_ok": ours_ok,
            "regions": regions.most_common(3), "live_messages": both, "agree": agree,
            "missed": missed[:5], "missed_n": len(missed), "extra": extra_found[:5],
            "extra_n": len(extra_found), "pages_with_error": pages_with_error,
            "favicon": favicon,
            "distinct": [(i["type"], (i["text"] or "")[:60], i["pageCount"], i["url"])
                         for i in summary[:4]]}


def _favicon(message: tuple[Any, ...]) -> bool:
    return str(message[2] or "").endswith("/favicon.ico")


def _mw_headings(base: str, url: str) -> int:
    title = urllib.parse.unquote(url.rsplit("/wiki/", 1)[1])
    api = base + "api.php?" + urllib.parse.urlencode(
        {"action": "parse", "page": title, "prop": "sections", "format": "json"})
    with urllib.request.urlopen(api, timeout=30) as r:
        sections = len(json.load(r)["parse"]["sections"])
    return 1 + sections + (1 if sections >= 4 else 0)


# --------------------------------------------------------------------------- independent

def independent_part(work: Path) -> dict[str, Any]:
    """bench/multi_cms.py: a site written apart from these rules, by someone told
    how real products mark up their pages, with the truth an editor would give."""
    from corpora import multi_cms

    with multi_cms.Site() as site:
        out = work / "independent.nitpicker"
        crawl(site.url, out, 2000)
        truth = site.truth
        pages = truth["pages"]
        ours = {u: q.get_page_main_contents(out, url=u) for u in pages}
        upstream = sum(_upstream_is(stored_html(out, u), want["main"])
                       for u, want in pages.items())
        unused = {i["url"] for i in q.list_unused_resources(out, limit=1000)["items"]}
    fields = Counter[str]()
    wrong: dict[str, list[str]] = {}
    for url, want in pages.items():
        got = ours[url]
        if got is None:
            wrong.setdefault("(not crawled)", []).append(url)
            continue
        region = got["region"] or {}
        checks = {
            "region": want["main"] is not None and region.get("nodeName", "").lower()
            == want["main"]["tag"] and (region.get("id") or None) == want["main"]["id"]
            and set(want["main"]["classes"]) <= set(region.get("classList") or []),
            "headings": [[h["level"], h["text"]] for h in got["headings"]]
            == want["headings"],
            "images": [[i["src"], i["alt"]] for i in got["images"]]
            == [[src, alt or ""] for src, alt in want["images"]],
            "tables": [{"rows": t["rows"], "cols": t["cols"], "thead": t["hasHeader"],
                        "tfoot": t["hasFooter"], "merged": t["hasMergedCell"]}
                       for t in got["tables"]] == want["tables"],
            "buttons": got["counts"]["buttons"] == want["buttons"],
            "media": [got["counts"][k] for k in ("iframes", "videos", "audios", "canvases")]
            == [want[k] for k in ("iframes", "videos", "audios", "canvases")],
            "custom elements": [c["nodeName"].lower() for c in got["customElements"]]
            == want["custom_elements"],
            "text length": got["wordCount"] == want["text_chars"],
        }
        for name, ok in checks.items():
            fields[name] += bool(ok)
            if not ok:
                wrong.setdefault(name, []).append(f"{want['template']} {url}")
    want_unused = set(truth["files"]["unused"])
    used = set(truth["files"]["used"])
    return {"pages": len(pages), "fields": dict(fields), "upstream_region": upstream,
            "wrong": {
        k: sorted(set(v))[:6] for k, v in wrong.items()},
        "wrong_templates": {k: sorted({x.split()[0] for x in v}) for k, v in wrong.items()},
        "unused_truth": len(want_unused), "unused_found": len(unused & want_unused),
        "unused_wrong": sorted(unused - want_unused), "used": len(used),
        "used_called_unused": sorted(unused & used)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=150)
    add_flag(parser)
    args = parser.parse_args()
    for name, module in (("DokuWiki", dokuwiki), ("MediaWiki", mediawiki)):
        why = module.missing()
        if why is not None:
            raise SystemExit(f"{name}: {why} (python bench/targets.py installs it)")
    with tempfile.TemporaryDirectory() as tmp:
        ind = independent_part(Path(tmp))
        print(json.dumps(ind, indent=1, default=list), flush=True)
        dw = dokuwiki_part(Path(tmp), args.pages)
        print(json.dumps(dw, indent=1, default=list), flush=True)
        mw = mediawiki_part(Path(tmp), args.pages)
        print(json.dumps(mw, indent=1, default=list), flush=True)
    lines = [
        f"`python bench/page_inventory.py --pages {args.pages}` — {platform.machine()}, "
        f"{len(os.sched_getaffinity(0))} CPUs, Python {platform.python_version()}; "
        "rendered crawls (Chromium), soft cap 20",
        "",
        "| target | measurement | value |",
        "|---|---|---:|",
        *(f"| independent site | {name}: pages right | {n} / {ind['pages']}"
          + (f" (wrong on {', '.join(ind['wrong_templates'].get(name, []))})"
             if n < ind["pages"] else "") + " |"
          for name, n in ind["fields"].items()),
        f"| independent site | region right under upstream's one-selector rule | "
        f"{ind['upstream_region']} / {ind['pages']} |",
        f"| independent site | unused files found / in the truth; called unused but used; "
        f"unused not in the truth | {ind['unused_found']} / {ind['unused_truth']}; "
        f"{len(ind['used_called_unused'])}; {len(ind['unused_wrong'])} |",
        f"| DokuWiki | HTML pages crawled / plain views of wiki pages | {dw['pages']} / "
        f"{dw['content']} |",
        f"| DokuWiki | region `main#dokuwiki__content` with the wiki text's heading count "
        f"(ours) | {dw['ours_ok']} / {dw['content']} |",
        f"| DokuWiki | the same under upstream's one-selector rule (region right / right "
        f"and count right) | {dw['upstream_main']} / {dw['upstream_ok']} of "
        f"{dw['content']} (it picks {dw['upstream_regions'][0][0]} on "
        f"{dw['upstream_regions'][0][1]}) |",
        f"| DokuWiki | image files given with `--list` / loaded by some page (Chromium "
        f"visit) / listed unused by the crawl | {dw['listed']} / {dw['used_by_visit']} / "
        f"{dw['unused']} |",
        f"| DokuWiki | listed unused but requested by the visit (wrong) | "
        f"{len(dw['unused_but_requested'])} |",
        f"| DokuWiki | not listed unused and requested by no page (missed) | "
        f"{dw['not_unused_not_requested_n']} |",
        f"| MediaWiki | article pages crawled / pages with sections | {mw['pages']} / "
        f"{mw['sectioned']} |",
        f"| MediaWiki | heading count equal to the parser's sections + title (+ Contents) "
        f"| {mw['ours_ok']} / {mw['sectioned']} (region {mw['regions'][0][0]}) |",
        f"| MediaWiki | console messages of the Chromium visit / also in the archive | "
        f"{mw['live_messages']} / {mw['agree']} |",
        f"| MediaWiki | in the archive, not in the visit | {mw['extra_n']} |",
        f"| MediaWiki | the browser's own `/favicon.ico` 404 (on whichever page came first; "
        f"left out above) | {mw['favicon']} |",
        f"| MediaWiki | pages with the site script's uncaught error (`pageerror`, from "
        f"`load.php`) | {mw['pages_with_error']} / {mw['pages']} |",
    ]
    emit("page-inventory-real", "\n".join(lines), write=args.write)


if __name__ == "__main__":
    main()
