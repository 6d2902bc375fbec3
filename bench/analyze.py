"""``nitpicker-crawl analyze`` on pages nobody here wrote: cost, memory and findings.

    python bench/analyze.py [--no-write] [--skip-axe] [--part all|cost|independent|memory|mediawiki]

Corpora, each served on 127.0.0.1 and crawled ``--no-render`` first:

- **sphinx** — the Python 3.11 documentation Debian ships (``python3.11-doc``, built by
  Sphinx): what each plugin finds on a real documentation site, and its pages/s;
- **pelican** — blogs built by Debian's ``pelican`` (``simple`` theme) from generated
  articles, at about 500 and 2,000 pages: each plugin's pages/s, and the peak memory of
  ``analyze --all`` at both sizes (the process tree's RSS — Python, Chromium, the JVM —
  sampled every 100 ms from ``/proc``), which should not grow with the page count;
- **mediawiki** — Debian's MediaWiki 1.39 (corpora/real/mediawiki.py's wiki): each plugin's cost
  and most frequent rules on a real wiki's pages;
- **independent** — ``corpora/a11y_site.py``, a site written apart from the plugins'
  rules (by someone briefed with the faults' descriptions only), with its ground truth:
  each fault kind's pages found and missed, and findings of that kind's rules on pages
  without it.

Writes the ``analyze`` and ``analyze-independent`` blocks of docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from doc import add_flag, emit  # noqa: E402

import nitpicker_query as q  # noqa: E402
from corpora.real import mediawiki as mw  # noqa: E402
from corpora.real.cluster_corpora import PELICAN_SETTINGS, SPHINX_TREE, _article  # noqa: E402

CRAWL = str(Path(sys.executable).with_name("nitpicker-crawl"))
TOOLS = ROOT / ".npm-tools" / "node_modules"
ENV = {**os.environ, "NITPICKER_VNU_JAR": str(TOOLS / "vnu-jar" / "build" / "dist" / "vnu.jar"),
       "NITPICKER_AXE_CORE": str(TOOLS / "axe-core")}
PLUGINS = ("text", "search-keywords", "vnu", "axe")
KEYWORDS = "python,garden,the"


@contextlib.contextmanager
def static(directory: Path) -> Iterator[str]:
    """``directory`` served by the standard library's file server on a free port."""
    handler = functools.partial(_Quiet, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        return None


def crawl(base: str, out: Path) -> Path:
    r = subprocess.run([CRAWL, base, "-o", str(out), "--no-render", "--silent",
                        "--no-fetch-external", "--parallels", "4"],
                       capture_output=True, text=True, timeout=3600)
    if r.returncode != 0 or not out.exists():
        raise SystemExit(f"crawl of {base} failed ({r.returncode}): {r.stderr[-1500:]}")
    return out


def pelican_site(articles: int, into: Path, seed: int = 7) -> Path:
    import random

    rng = random.Random(seed)
    content = into / "content"
    (content / "pages").mkdir(parents=True)
    for i in range(articles):
        (content / f"post-{i}.rst").write_text(_article(i, rng), encoding="utf-8")
    (into / "conf.py").write_text(PELICAN_SETTINGS, encoding="utf-8")
    out = into / "output"
    subprocess.run(["pelican", str(content), "-o", str(out), "-s", str(into / "conf.py"),
                    "-q"], check=True, capture_output=True)
    return out


def _tree_rss(root: int) -> tuple[int, int]:
    """(RSS of ``root``, RSS of ``root`` and every descendant), bytes, from /proc."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, ppid = int(entry), int(fields[1])
        children.setdefault(ppid, []).append(pid)
        rss[pid] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        total += rss.get(pid, 0)
        stack.extend(children.get(pid, []))
    return rss.get(root, 0), total


def run_analyze(archive: Path, *args: str) -> dict[str, Any]:
    """Analyze a copy of ``archive``; wall time, peak RSS (own, tree), findings."""
    copy = archive.with_name(f"copy-{archive.name}")
    shutil.copy2(archive, copy)
    started = time.monotonic()
    proc = subprocess.Popen([CRAWL, "analyze", str(copy), "--silent", *args],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env=ENV)
    own = tree = 0
    while proc.poll() is None:
        o, t = _tree_rss(proc.pid)
        own, tree = max(own, o), max(tree, t)
        time.sleep(0.1)
    err = proc.stderr.read() if proc.stderr else ""
    seconds = time.monotonic() - started
    if proc.returncode != 0:
        raise SystemExit(f"analyze {args} exited {proc.returncode}: {err[-1500:]}")
    result = {"seconds": seconds, "own": own, "tree": tree, "stderr": err,
              "findings": q.get_violations(copy, limit=1)["total"],
              "items": _all(copy), "copy": copy}
    return result


def _all(archive: Path) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    offset: int | None = 0
    while offset is not None:
        page = q.get_violations(archive, limit=1000, offset=offset)
        items += page["items"]
        offset = page["nextOffset"]
    return items


def pages_of(archive: Path) -> int:
    """The pages analyze reads: internal HTML pages with a stored snapshot."""
    from nitpicker_query.format.v010 import strict_page

    with q.open_archive(archive) as a:
        return a.count(f"SELECT count(*) FROM pages p JOIN page_html_ref r ON "
                       f"r.page_id = p.id WHERE {strict_page('p')}")


MB = 1 << 20


PELICAN_SIZES = (330, 1350)


def pelican_archive(articles: int, tmp: Path) -> Path:
    """A Pelican blog of ``articles`` articles, built and crawled ``--no-render`` once."""
    archive = tmp / f"pelican-{articles}.nitpicker"
    if not archive.exists():
        built = pelican_site(articles, tmp / f"pelican-{articles}")
        with static(built) as base:
            crawl(base, archive)
    return archive


def memory_rows(tmp: Path, *, skip_axe: bool) -> list[str]:
    """``analyze --all`` at both Pelican sizes: time and peak RSS, a table row each."""
    rows = ["| pelican pages | `--all` seconds | pages/s | findings | peak RSS of analyze, MiB "
            "| peak RSS of its tree, MiB |", "|---:|---:|---:|---:|---:|---:|"]
    for articles in PELICAN_SIZES:
        archive = pelican_archive(articles, tmp)
        pages = pages_of(archive)
        run = run_analyze(archive, "--search-keywords", KEYWORDS,
                          *(("--plugin", "vnu", "--plugin", "text", "--plugin",
                             "search-keywords") if skip_axe else ("--all",)))
        rows.append(f"| {pages:,} | {run['seconds']:.1f} | {pages / run['seconds']:.1f} | "
                    f"{run['findings']:,} | {run['own'] / MB:.0f} | {run['tree'] / MB:.0f} |")
        run["copy"].unlink()
    return rows


def mediawiki(tmp: Path, plugins: tuple[str, ...]) -> list[str]:
    """Debian's MediaWiki (corpora/real/mediawiki.py's wiki, ``/wiki/`` layout), crawled with
    ``--dedupe-cap 20``: each plugin's cost and most frequent rules on its pages."""
    why = mw.ensure_installed()
    if why is not None:
        return [f"(MediaWiki not measured: {why})"]
    wiki = mw.setup(tmp / "wiki", "wiki")
    archive = tmp / "mediawiki.nitpicker"
    with mw.serve(wiki) as base:
        result = mw.crawl(wiki, base, archive, cap=20)
    if result.returncode != 0:
        raise SystemExit(f"crawl of the wiki failed: {result.stderr[-1500:]}")
    rows, runs = per_plugin("mediawiki 1.39 (Debian)", archive, plugins)
    return [*rows, "", "Most frequent rules on the MediaWiki pages:", "", *top_rules(runs, 6)]


def per_plugin(name: str, archive: Path, plugins: tuple[str, ...]) -> tuple[list[str], dict[
        str, dict[str, Any]]]:
    pages = pages_of(archive)
    rows, runs = [], {}
    for plugin in plugins:
        extra = ("--search-keywords", KEYWORDS) if plugin == "search-keywords" else ()
        run = run_analyze(archive, "--plugin", plugin, *extra)
        runs[plugin] = run
        failed = "could not be analysed" in run["stderr"]
        rows.append(f"| {name} | {pages:,} | `{plugin}` | {run['seconds']:.1f} | "
                    f"{pages / run['seconds']:.1f} | {run['findings']:,} | "
                    f"{len({i['url'] for i in run['items']}):,} | "
                    f"{run['tree'] / MB:.0f} | {'some (see stderr)' if failed else 'none'} |")
        run["copy"].unlink()
    return rows, runs


def top_rules(runs: dict[str, dict[str, Any]], n: int = 4) -> list[str]:
    lines = []
    for plugin, run in runs.items():
        counts = Counter(i["rule"] for i in run["items"])
        pages: dict[str, set[str]] = {}
        for i in run["items"]:
            pages.setdefault(i["rule"], set()).add(i["url"])
        if counts:
            lines.append(f"- `{plugin}`: " + "; ".join(
                f"`{rule[:70]}` {count:,} on {len(pages[rule]):,} pages"
                for rule, count in counts.most_common(n)))
    return lines


KINDS = {
    # the independent site's fault kind → (validator, does a rule mean it)
    "img-no-alt": ("axe", lambda r: r == "image-alt"),
    "control-no-name": ("axe", lambda r: r in ("label", "select-name")),
    "low-contrast": ("axe", lambda r: r == "color-contrast"),
    "duplicate-id": ("vnu", lambda r: r.startswith("Duplicate ID")),
    # vnu's content-model errors, in each of the forms its messages take
    "bad-nesting": ("vnu", lambda r: "not allowed as child of element" in r
                    or "must not appear as a descendant of" in r
                    or r.startswith(("Stray start tag", "Stray end tag"))),
    "unknown-attribute": ("vnu", lambda r: r.startswith("Attribute “")
                          and "not allowed on element" in r),
    "ja-fullwidth-alnum": ("text", lambda r: r == "ja-fullwidth-alnum"),
    "ja-halfwidth-kana": ("text", lambda r: r == "ja-halfwidth-kana"),
    "ja-doubled-punct": ("text", lambda r: r == "ja-doubled-punctuation"),
    "en-doubled-word": ("text", lambda r: r == "en-doubled-word"),
}


def independent(tmp: Path) -> list[str]:
    try:
        from corpora.a11y_site import Site
    except ImportError:
        return ["(corpora/a11y_site.py missing: independent site not measured)"]
    with Site() as site:
        archive = crawl(site.url, tmp / "independent.nitpicker")
        truth: dict[str, list[str]] = site.truth
    run = run_analyze(archive, "--plugin", "axe", "--plugin", "vnu", "--plugin", "text")
    found: dict[str, set[str]] = {}
    for item in run["items"]:
        path = "/" + item["url"].split("/", 3)[3] if item["url"].count("/") >= 3 else "/"
        for kind, (validator, means) in KINDS.items():
            if item["validator"] == validator and means(item["rule"]):
                found.setdefault(kind, set()).add(path)
    lines = ["| fault kind | pages with it | found | missed | pages without it flagged |",
             "|---|---:|---:|---:|---:|"]
    for kind in KINDS:
        having = {p for p, kinds in truth.items() if kind in kinds}
        hit = found.get(kind, set())
        lines.append(f"| `{kind}` | {len(having)} | {len(having & hit)} | "
                     f"{len(having - hit)}{_names(having - hit)} | "
                     f"{len(hit - having)}{_names(hit - having)} |")
    clean = {p for p, kinds in truth.items() if not kinds}
    other = Counter((i["validator"], i["rule"][:60]) for i in run["items"]
                    if ("/" + i["url"].split("/", 3)[3]) in clean)
    lines.append("")
    lines.append(f"{len(truth)} pages, {len(clean)} without any seeded fault; findings on "
                 f"those: {sum(other.values())}"
                 + (" — " + "; ".join(f"{v} `{r}` ×{n}" for (v, r), n in other.most_common(5))
                    if other else ""))
    run["copy"].unlink()
    return lines


def _names(paths: set[str]) -> str:
    return f" ({', '.join(sorted(paths)[:3])})" if paths else ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_flag(parser)
    parser.add_argument("--skip-axe", action="store_true", help="leave the axe plugin out")
    parser.add_argument("--part", choices=("all", "cost", "independent", "memory",
                                           "mediawiki"), default="all",
                        help="cost: sphinx and pelican (block analyze); independent: the "
                             "independent site (block analyze-independent); memory: only "
                             "`--all` at both Pelican sizes (block analyze-memory); "
                             "mediawiki: Debian's MediaWiki (block analyze-mediawiki)")
    args = parser.parse_args()
    machine = (f"{platform.machine()}, {os.cpu_count()} cores, Python "
               f"{platform.python_version()}")
    if args.part in ("all", "independent"):
        with tempfile.TemporaryDirectory(prefix="nitpicker-bench-analyze-") as tmp_name:
            indep = independent(Path(tmp_name))
        emit("analyze-independent", "\n".join([
            f"`python bench/analyze.py --part independent` ({machine}): the independent site "
            "(corpora/a11y_site.py, written apart from the rules), `--plugin axe "
            "--plugin vnu --plugin text`:", "", *indep]), write=args.write)
    if args.part == "independent":
        return 0
    plugins = tuple(p for p in PLUGINS if not (args.skip_axe and p == "axe"))
    head = ["| corpus | pages | plugin | seconds | pages/s | findings | pages with findings | "
            "peak RSS, MiB (tree) | pages not analysed |", "|---|---:|---|---:|---:|---:|---:|"
            "---:|---|"]
    if args.part in ("all", "mediawiki"):
        with tempfile.TemporaryDirectory(prefix="nitpicker-bench-analyze-") as tmp_name:
            wiki = mediawiki(Path(tmp_name), plugins)
        emit("analyze-mediawiki", "\n".join([
            f"`python bench/analyze.py --part mediawiki{' --skip-axe' if args.skip_axe else ''}`"
            f" ({machine}; corpora/real/mediawiki.py's wiki of {mw.ARTICLES} articles in "
            f"{mw.CATEGORIES} categories with "
            "their histories, `/wiki/` layout, crawled `--no-render --dedupe-cap 20`)", "",
            *head, *wiki]), write=args.write)
        if args.part == "mediawiki":
            return 0
    if args.part == "memory":
        with tempfile.TemporaryDirectory(prefix="nitpicker-bench-analyze-") as tmp_name:
            memory = memory_rows(Path(tmp_name), skip_axe=args.skip_axe)
        plugins_run = "vnu and text" if args.skip_axe else "every plugin but lighthouse"
        emit("analyze-memory", "\n".join([
            f"`python bench/analyze.py --part memory{' --skip-axe' if args.skip_axe else ''}` "
            f"({machine}; `analyze --all` = {plugins_run}, on a fresh copy of each archive, tar "
            "rewrite included; RSS sampled every 100 ms over the process tree: Python, "
            "Chromium, the JVM)", "", *memory]), write=args.write)
        return 0
    rows: list[str] = []
    notes: list[str] = []
    with tempfile.TemporaryDirectory(prefix="nitpicker-bench-analyze-") as tmp_name:
        tmp = Path(tmp_name)
        if SPHINX_TREE.is_dir():
            with static(SPHINX_TREE) as base:
                sphinx = crawl(base, tmp / "sphinx.nitpicker")
            r, runs = per_plugin("sphinx (python3.11-doc)", sphinx, plugins)
            rows += r
            notes += ["", "Most frequent rules on the Python documentation:", ""]
            notes += top_rules(runs)
        for articles in PELICAN_SIZES:
            archive = pelican_archive(articles, tmp)
            r, _runs = per_plugin(f"pelican ({articles} articles)", archive, plugins)
            rows += r
        memory = ["", *memory_rows(tmp, skip_axe=args.skip_axe)]
    markdown = "\n".join([
        f"`python bench/analyze.py` ({machine}; each run on a fresh copy of the archive, "
        "tar rewrite included; RSS sampled every 100 ms over the process tree)", "",
        *head, *rows, *memory, *notes])
    emit("analyze", markdown, write=args.write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
