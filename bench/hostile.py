"""The crawler against hostile sites, with its default limits (issue 20's "must show").

    python bench/hostile.py              # both modes, the whole hostile site (~10 minutes)
    python bench/hostile.py --quick      # --no-render only

1. The whole hostile site of ``corpora/hostile_site.py`` (85 cases written apart from the
   crawler's rules) crawled from ``/`` with the *default* limits and ``--dedupe-cap 100``
   (its relative-link trap never ends otherwise), ``--no-render`` and rendered, each under
   ``/usr/bin/time -v``: wall time, the largest process's peak RSS, whether the crawl
   ended by itself, every normal page present, and each hostile URL's record by kind.
2. A real server we did not write misbehaving: nginx from Debian (``nginx-light``,
   installed when missing and root), serving a static gzip bomb (``gzip_static``, 5 GiB of
   zeros as a 5 MB ``.gz``), a page trickled at 1 byte/s (``limit_rate``), a robots.txt that
   answers 503, and its own ordinary pages; crawled with the defaults (and, for robots.txt,
   a second server): what each becomes, wall time and peak RSS.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import platform
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import zlib
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from doc import add_flag, emit  # noqa: E402

import nitpicker_query as q  # noqa: E402
from corpora.hostile_site import CASES, NORMAL_PAGES, HostileSite  # noqa: E402

CRAWL = str(Path(sys.executable).with_name("nitpicker-crawl"))


def timed(args: list[str], cwd: Path, limit_s: float) -> tuple[int, float, int]:
    """Exit status, wall seconds and the peak RSS (bytes) ``/usr/bin/time -v`` reports."""
    if not ensure_package("/usr/bin/time", "time"):
        raise SystemExit("bench/hostile.py needs /usr/bin/time (apt-get install time)")
    started = time.monotonic()
    r = subprocess.run(["/usr/bin/time", "-v", "timeout", "-k", "20", str(limit_s), *args],
                       cwd=cwd, capture_output=True, text=True)
    match = re.search(r"Maximum resident set size \(kbytes\): (\d+)", r.stderr)
    return r.returncode, time.monotonic() - started, int(match.group(1)) * 1024 if match else 0


def ensure_package(path: str, package: str) -> bool:
    """Is ``path`` there — after installing Debian's ``package`` when root and missing?"""
    if not Path(path).exists() and os.geteuid() == 0:
        for step in (["apt-get", "install", "-y", "-qq", package],
                     ["apt-get", "update", "-qq"],
                     ["apt-get", "install", "-y", "-qq", package]):
            subprocess.run(step, check=False, capture_output=True,
                           env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
            if Path(path).exists():
                break
    return Path(path).exists()


def kinds_of(archive: Path, base: str) -> Counter[str]:
    """Each hostile case's record, by what it became (a kind, or stored / answered)."""
    seen: Counter[str] = Counter()
    with q.open_archive(archive) as a:
        for case in CASES:
            detail = q.get_page_detail(a, url=base + case.path)
            if detail is None:
                seen["no row"] += 1
                continue
            problems = sorted({p["kind"] for p in detail["problems"]})
            if problems:
                seen["+".join(problems)] += 1
            elif detail["redirectFromTotal"] or detail["status"] is None:
                seen["redirect"] += 1
            else:
                seen[f"status {detail['status']}"] += 1
    return seen


def whole_site(mode: str) -> dict[str, object]:
    with HostileSite() as site, tempfile.TemporaryDirectory() as tmp:
        args = [CRAWL, site.url, "-o", "site.nitpicker", "--dedupe-cap", "100", "--silent",
                "--no-fetch-external", *(["--no-render"] if mode == "no-render" else [])]
        code, seconds, peak = timed(args, Path(tmp), 3600)
        archive = Path(tmp) / "site.nitpicker"
        normal = 0
        if archive.exists():
            with q.open_archive(archive) as a:
                normal = sum(1 for p in NORMAL_PAGES if a.execute(
                    "SELECT 1 FROM pages WHERE url = ? AND status = 200",
                    (site.url.rstrip("/") + p,)).fetchone())
            outcomes = kinds_of(archive, site.url.rstrip("/"))
            stop = q.get_summary(archive)["crawl"]["stopReason"]
        else:
            outcomes, stop = Counter(), "no archive"
        return {"mode": mode, "exit": code, "seconds": seconds, "peak": peak, "stop": stop,
                "normal": normal, "outcomes": outcomes, "other": site.other_hits()}


NGINX_CONF = """
worker_processes 1;
daemon off;
pid {root}/nginx.pid;
error_log {root}/error.log;
events {{ worker_connections 64; }}
http {{
    access_log off;
    default_type text/html;
    client_body_temp_path {root}/tmp; proxy_temp_path {root}/tmp;
    fastcgi_temp_path {root}/tmp; uwsgi_temp_path {root}/tmp; scgi_temp_path {root}/tmp;
    server {{
        listen 127.0.0.1:{port};
        root {root}/site;
        location /bomb/ {{ gzip_static always; gunzip off; }}
        location /slow/ {{ limit_rate 1; }}
        location = /robots.txt {{ {robots} }}
    }}
}}
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def ensure_nginx() -> str | None:
    found = shutil.which("nginx")
    if found is None and ensure_package("/usr/sbin/nginx", "nginx-light"):
        found = "/usr/sbin/nginx"
    return found


@contextlib.contextmanager
def nginx(binary: str, robots: str) -> Iterator[str]:
    """nginx serving an ordinary site plus its hostile corners; yields its URL."""
    root = Path(tempfile.mkdtemp(prefix="bench-nginx-"))
    root.chmod(0o755)  # nginx's workers (www-data, when started as root) read the site
    site = root / "site"
    for d in ("bomb", "slow", "tmp"):
        (site / d).mkdir(parents=True, exist_ok=True)
    (root / "tmp").mkdir()
    pages = [f"page-{i}.html" for i in range(20)]
    links = "".join(f'<a href="/{p}">{p}</a> ' for p in pages)
    (site / "index.html").write_text(
        f"<html><head><title>nginx home</title></head><body>{links}"
        '<a href="/bomb/zeros.html">bomb</a> <a href="/slow/page.html">slow</a></body></html>')
    for p in pages:
        (site / p).write_text(f"<html><head><title>{p}</title></head><body>"
                              f'<a href="/">home</a></body></html>')
    compressor = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    with open(site / "bomb" / "zeros.html.gz", "wb") as out:
        block = b"\0" * (1 << 20)
        for _ in range(5 * 1024):
            out.write(compressor.compress(block))
        out.write(compressor.flush())
    (site / "bomb" / "zeros.html").write_text("<html><title>uncompressed</title></html>")
    (site / "slow" / "page.html").write_text("<html><head><title>slow</title></head><body>"
                                             + "x" * 600 + "</body></html>")
    port = _free_port()
    (root / "nginx.conf").write_text(NGINX_CONF.format(root=root, port=port, robots=robots))
    proc = subprocess.Popen([binary, "-c", str(root / "nginx.conf"), "-p", str(root)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port)):
                break
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}/"
    finally:
        proc.send_signal(signal.SIGQUIT)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=10)
        proc.kill()
        shutil.rmtree(root, ignore_errors=True)


def real_server(binary: str) -> list[str]:
    lines = []
    with nginx(binary, 'return 200 "User-agent: *\\nDisallow: /private/\\n";') as url, \
            tempfile.TemporaryDirectory() as tmp:
        code, seconds, peak = timed([CRAWL, url, "-o", "n.nitpicker", "--no-render",
                                     "--silent"], Path(tmp), 3600)
        with q.open_archive(Path(tmp) / "n.nitpicker") as a:
            stored = a.execute("SELECT count(*) FROM pages WHERE status = 200 AND title "
                               "LIKE 'page-%'").fetchone()[0]
            bomb = q.get_page_detail(a, url=url + "bomb/zeros.html")
            slow = q.get_page_detail(a, url=url + "slow/page.html")
        lines.append(f"| nginx 1.22 (Debian), defaults, `--no-render` | exit {code}, "
                     f"{seconds:.0f} s, peak RSS {peak >> 20} MiB; {stored}/20 ordinary pages "
                     f"stored; gzip_static bomb: {_said(bomb)}; `limit_rate 1`: {_said(slow)} |")
    with nginx(binary, "return 503;") as url, tempfile.TemporaryDirectory() as tmp:
        code, seconds, peak = timed([CRAWL, url, "-o", "n.nitpicker", "--no-render",
                                     "--silent"], Path(tmp), 600)
        lines.append(f"| nginx, robots.txt `return 503` | exit {code} in {seconds:.0f} s, "
                     f"{'no archive' if not (Path(tmp) / 'n.nitpicker').exists() else 'archive'}"
                     " (robots-unreachable: nothing of the origin fetched) |")
    return lines


def _said(detail: dict[str, object] | None) -> str:
    if detail is None:
        return "no row"
    problems = detail.get("problems") or []
    kinds = sorted({p["kind"] for p in problems}) if isinstance(problems, list) else []
    return f"status {detail.get('status')}, " + (", ".join(kinds) or "no problem")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="--no-render only, no nginx")
    add_flag(parser)
    args = parser.parse_args()
    rows = []
    for mode in ("no-render",) if args.quick else ("no-render", "rendered"):
        r = whole_site(mode)
        counted: Counter[str] = r["outcomes"]  # type: ignore[assignment]
        outcomes = ", ".join(f"{k} {n}" for k, n in counted.most_common())
        rows.append(f"| whole hostile site, defaults + `--dedupe-cap 100`, {mode} | exit "
                    f"{r['exit']}, {r['seconds']:.0f} s, stop {r['stop']}, peak RSS "
                    f"{int(str(r['peak'])) >> 20} MiB (bound 2048); normal pages "
                    f"{r['normal']}/{len(NORMAL_PAGES)}; other host asked {r['other']} times; "
                    f"{len(CASES)} cases: {outcomes} |")
    binary = None if args.quick else ensure_nginx()
    if binary is not None:
        rows += real_server(binary)
    elif not args.quick:
        rows.append("| nginx | not installed (run as root to install nginx-light) |")
    head = (f"`python bench/hostile.py` on {platform.node() or 'this machine'} "
            f"({os.cpu_count()} cores), {time.strftime('%Y-%m-%d')}:\n\n")
    emit("hostile", head + "\n".join(["| crawl | outcome |", "|---|---|", *rows]),
         write=args.write)


if __name__ == "__main__":
    main()
