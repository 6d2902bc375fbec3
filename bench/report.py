"""``nitpicker-query report`` on generated archives: rows per second and peak memory at
two sizes (flat memory is the claim), the workbook read back with openpyxl (each sheet's
header and row count against what the report said it wrote and against the queries),
and LibreOffice's headless conversion of a workbook to PDF.

    python bench/report.py                       # 30,000 and 300,000 pages
    python bench/report.py --pages 3000 30000 --no-write
    python bench/report.py --part memory         # peak RSS and its parts only

Archives come from bench/make_archive.py (15 anchors a page, two resources and two
images a page, redirects, failures, traps). Each report runs in its own process; its
peak RSS is the kernel's (``wait4``), its rows the sum of the lines it prints.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from doc import add_flag, emit
from make_archive import ensure

import nitpicker_query as q

QUERY = str(Path(sys.executable).with_name("nitpicker-query"))


def _rss_parts(pid: int) -> tuple[int, int]:
    """(RssAnon, RssFile) of ``pid`` in KiB: the process's own memory, and the file
    pages it has mapped — SQLite's mmap of the archive (at most its mmap_size), which
    the kernel can drop at any time."""
    anon = file = 0
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("RssAnon:"):
                    anon = int(line.split()[1])
                elif line.startswith("RssFile:"):
                    file = int(line.split()[1])
    except OSError:
        pass
    return anon, file


def run_report(archive: Path, out: Path, *extra: str) -> dict[str, Any]:
    """One report in a child process: seconds, peak RSS (MiB; and its anonymous and
    file-backed parts, sampled every 200 ms), rows per sheet."""
    started = time.monotonic()
    with tempfile.TemporaryFile("w+") as said:
        child = subprocess.Popen([QUERY, "report", str(archive), "-o", str(out), *extra],
                                 stdout=said, stderr=subprocess.DEVNULL, text=True)
        anon = file = 0
        while True:
            waited, status, usage = os.wait4(child.pid, os.WNOHANG)
            if waited:
                break
            a, f = _rss_parts(child.pid)
            anon, file = max(anon, a), max(file, f)
            time.sleep(0.2)
        child.returncode = os.waitstatus_to_exitcode(status)
        said.seek(0)
        stdout = said.read()
    seconds = time.monotonic() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"report of {archive} failed: {stdout}")
    sheets = {}
    for line in stdout.splitlines()[1:]:
        name, _, rows = line.strip().rpartition(": ")
        sheets[name] = int(rows.split()[0].replace(",", ""))
    return {"seconds": seconds, "rss_mib": usage.ru_maxrss / 1024, "anon_mib": anon / 1024,
            "file_mib": file / 1024, "sheets": sheets,
            "rows": sum(sheets.values()), "bytes": out.stat().st_size if out.is_file()
            else sum(p.stat().st_size for p in out.iterdir())}


def read_back(book_path: Path, archive: Path, said: dict[str, int]) -> list[str]:
    """Each sheet of the workbook read by openpyxl: its rows (continuation sheets
    included) equal to what the report said; the sheets a query defines equal to it.
    Returns the problems found (none expected)."""
    import openpyxl

    problems: list[str] = []
    book = openpyxl.load_workbook(book_path, read_only=True)
    counted: dict[str, int] = {}
    headers: dict[str, tuple[Any, ...]] = {}
    for sheet in book.worksheets:
        base = sheet.title.rsplit(" (", 1)[0] if sheet.title.endswith(")") else sheet.title
        rows = sheet.iter_rows(values_only=True)
        header = next(rows)
        if base in headers and headers[base] != header:
            problems.append(f"{sheet.title}: header differs from {base}'s")
        headers.setdefault(base, header)
        counted[base] = counted.get(base, 0) + sum(1 for _ in rows)
    book.close()
    said = {k: v for k, v in said.items() if k != "Violations"}  # a note row when empty
    for name, rows in said.items():
        if counted.get(name) != rows:
            problems.append(f"{name}: {counted.get(name)} rows read, {rows} written")
    with q.open_archive(archive, query_timeout=600) as a:
        expected = {
            "Page List": q.list_pages(a, is_external=False, limit=1)["total"],
            "Links": sum(q.get_summary(a)["totals"][k] for k in ("urls", "queuedUrls")),
            "Resources": q.list_resources(a, limit=1)["total"],
            "Images": q.list_images(a, limit=1)["total"],
        }
    for name, rows in expected.items():
        if name in counted and counted[name] != rows:
            problems.append(f"{name}: {counted[name]} rows, the query says {rows}")
    return problems


def libreoffice(book: Path, work: Path) -> dict[str, Any]:
    """``soffice --headless --convert-to pdf``: seconds, exit status, PDF bytes."""
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None:
        return {"missing": "LibreOffice is not installed (Debian: libreoffice-calc-nogui)"}
    profile = work / "lo-profile"
    started = time.monotonic()
    r = subprocess.run([soffice, f"-env:UserInstallation=file://{profile}", "--headless",
                        "--convert-to", "pdf", "--outdir", str(work), str(book)],
                       capture_output=True, text=True, timeout=3600)
    pdf = work / (book.stem + ".pdf")
    return {"seconds": time.monotonic() - started, "status": r.returncode,
            "pdf_bytes": pdf.stat().st_size if pdf.exists() else 0,
            "stderr": r.stderr.strip()[-300:]}


def memory(sizes: list[int], *, write: bool) -> None:
    """Peak RSS of the workbook of every sheet at each size, and what it is made of."""
    lines = [
        f"`python bench/report.py --part memory --pages {' '.join(map(str, sizes))}` — "
        f"{platform.machine()}, {len(os.sched_getaffinity(0))} CPUs, Python "
        f"{platform.python_version()}; every sheet, xlsx; RssAnon and RssFile from "
        "/proc sampled every 200 ms", "",
        "| pages | archive MiB | rows | seconds | peak RSS MiB | peak RssAnon MiB "
        "(the process's own) | peak RssFile MiB (mapped files: the archive, libraries) |",
        "|---:|---:|---:|---:|---:|---:|---:|"]
    with tempfile.TemporaryDirectory() as tmp:
        for pages in sizes:
            archive = ensure(pages)
            r = run_report(archive, Path(tmp) / f"site-{pages}.xlsx")
            print(pages, r, flush=True)
            lines.append(f"| {pages:,} | {archive.stat().st_size / 2**20:,.0f} | "
                         f"{r['rows']:,} | {r['seconds']:.0f} | {r['rss_mib']:.0f} | "
                         f"{r['anon_mib']:.0f} | {r['file_mib']:.0f} |")
    emit("report-memory", "\n".join(lines), write=write)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, nargs="+", default=[30_000, 300_000])
    parser.add_argument("--render-pages", type=int, default=3_000,
                        help="archive size whose workbook LibreOffice converts to PDF")
    parser.add_argument("--part", choices=("all", "memory"), default="all",
                        help="memory: only the workbook of every sheet at each size, its "
                             "peak RSS split into the process's own and the archive's "
                             "mapped pages (block report-memory)")
    add_flag(parser)
    args = parser.parse_args()
    if args.part == "memory":
        memory(args.pages, write=args.write)
        return
    results: dict[int, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for pages in args.pages:
            archive = ensure(pages)
            book = work / f"site-{pages}.xlsx"
            xlsx = run_report(archive, book)
            csv = run_report(archive, work / f"csv-{pages}", "--format", "csv")
            dedupe = run_report(archive, work / f"dedupe-{pages}.xlsx", "--sheets",
                                "Resources", "--dedupe-resources")
            started = time.monotonic()
            problems = read_back(book, archive, xlsx["sheets"])
            results[pages] = {"xlsx": xlsx, "csv": csv, "dedupe": dedupe,
                              "read_back_s": time.monotonic() - started,
                              "problems": problems}
            print(pages, results[pages], flush=True)
            book.unlink()
        small = ensure(args.render_pages)
        book = work / "render.xlsx"
        rendered = run_report(small, book)
        office = libreoffice(book, work)
        print("libreoffice", office, flush=True)
    first, last = args.pages[0], args.pages[-1]
    lines = [
        f"`python bench/report.py --pages {' '.join(map(str, args.pages))}` — "
        f"{platform.machine()}, {len(os.sched_getaffinity(0))} CPUs, Python "
        f"{platform.python_version()}; archives of bench/make_archive.py (format 0.10)",
        "",
        "| pages | output | rows | seconds | rows/s | peak RSS MiB | file MiB |",
        "|---:|---|---:|---:|---:|---:|---:|",
    ]
    for pages, r in results.items():
        for kind in ("xlsx", "csv", "dedupe"):
            x = r[kind]
            label = {"xlsx": "workbook, every sheet", "csv": "CSV directory, every sheet",
                     "dedupe": "workbook, Resources --dedupe-resources"}[kind]
            lines.append(f"| {pages:,} | {label} | {x['rows']:,} | {x['seconds']:.1f} | "
                         f"{x['rows'] / x['seconds']:,.0f} | {x['rss_mib']:.0f} | "
                         f"{x['bytes'] / 2**20:.1f} |")
    lines.append("")
    for pages, r in results.items():
        sheets = ", ".join(f"{k} {v:,}" for k, v in r["xlsx"]["sheets"].items())
        verdict = "every sheet's rows and header as written and as the queries say" \
            if not r["problems"] else "; ".join(r["problems"])
        lines.append(f"- {pages:,} pages — {sheets}. Read back with openpyxl in "
                     f"{r['read_back_s']:.0f} s: {verdict}.")
    growth = results[last]["xlsx"]["rss_mib"] / results[first]["xlsx"]["rss_mib"]
    lines.append(f"- Peak RSS {last:,} / {first:,} pages: ×{growth:.2f} for ×"
                 f"{last / first:.0f} the pages.")
    if "missing" in office:
        lines.append(f"- LibreOffice: {office['missing']}.")
    else:
        lines.append(f"- LibreOffice `soffice --headless --convert-to pdf` of the "
                     f"{args.render_pages:,}-page workbook ({rendered['rows']:,} rows): exit "
                     f"{office['status']} in {office['seconds']:.0f} s, a PDF of "
                     f"{office['pdf_bytes'] / 2**20:.1f} MiB.")
    emit("report", "\n".join(lines), write=args.write)


if __name__ == "__main__":
    main()
