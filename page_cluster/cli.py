"""``page-cluster < pages.jsonl > clusters.jsonl``: one template key per page.

Input: one JSON object per line, ``{"id", "html", "paths"?, "stylesheetHrefs"?,
"host"?}``. Output: ``{"id", "clusterKey"}`` per input page, in input order. Decided
where upstream left it open:

- blank and whitespace-only lines are skipped (they are not pages);
- a line that is not a JSON object, lacks ``html``, or has a field of the wrong type
  (``html`` not a string, ``paths`` / ``stylesheetHrefs`` not lists of strings) stops
  the run with ``line N: …`` on stderr, exit 1, and nothing on stdout;
- HTML without a ``<body>`` is a page with no structure: it gets a key like any other
  (all such pages of a block share one);
- ``id`` may be any JSON value and is echoed as given (absent: the line number).

Progress goes to stderr: one line rewritten in place on a terminal,
``[page-cluster] <phase>: …`` lines otherwise. Exit 0 done, 1 bad input or failure,
2 bad arguments.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
import time
from collections.abc import Iterator, Sequence
from typing import Any, NoReturn, TextIO

from . import __version__
from .resolve import resolve
from .validate import merge_validated_clusters, safe_merges, validate_cluster_partition


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """The description wrapped to the terminal; the example kept as written."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if "\n" in text:
            return super()._fill_text(text, width, indent)
        return argparse.HelpFormatter._fill_text(self, text, width, indent)


class _Parser(argparse.ArgumentParser):
    """A usage error in one line (``page-cluster: error: … (see page-cluster --help)``).
    The package is pure and imports nothing of nitpicker's, so it has its own."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


PROG = "page-cluster"


class BadLine(Exception):
    def __init__(self, number: int, message: str) -> None:
        super().__init__(f"line {number}: {message}")


def records(stream: TextIO) -> Iterator[dict[str, Any]]:
    """The input's pages, checked one by one."""
    for number, line in enumerate(stream, 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            raise BadLine(number, f"not JSON ({exc.msg} at column {exc.colno})") from None
        if not isinstance(value, dict):
            raise BadLine(number, f"expected a JSON object, got {type(value).__name__}")
        if not isinstance(value.get("html"), str):
            raise BadLine(number, "html must be a string" if "html" in value
                          else "missing field html")
        for name in ("paths", "stylesheetHrefs"):
            field = value.get(name)
            if field is not None and not (isinstance(field, list)
                                          and all(isinstance(v, str) for v in field)):
                raise BadLine(number, f"{name} must be a list of strings")
        if "host" in value and value["host"] is not None and not isinstance(value["host"], str):
            raise BadLine(number, "host must be a string")
        value.setdefault("id", number)
        yield value


class Progress:
    """One line rewritten in place on a terminal; appended ``[page-cluster]`` lines
    otherwise."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.tty = stream.isatty()
        self.started = time.monotonic()

    def __call__(self, phase: str, message: str) -> None:
        elapsed = int(time.monotonic() - self.started)
        if phase == "done":
            text = f"[page-cluster] done — {message} (elapsed {elapsed}s)"
        else:
            text = f"[page-cluster] {phase}: {message}"
        if self.tty:
            end = "\n" if phase == "done" else ""
            self.stream.write(f"\r\x1b[K{text[:200]}{end}")
        else:
            self.stream.write(text + "\n")
        self.stream.flush()


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog=PROG, description="Give pages that share a template the same cluster key, "
        "by DOM structure (text ignored). Reads JSONL pages on stdin, writes "
        '{"id", "clusterKey"} lines on stdout in input order.',
        epilog="example:\n  page-cluster --cluster-reasons-file reasons.json \\\n"
        "      < pages.jsonl > clusters.jsonl", formatter_class=_Formatter)
    p.add_argument("--content-block-attribute", metavar="NAME",
                   help="an attribute a CMS puts on free-form content blocks (e.g. "
                   "data-bgb); elements carrying it are ignored with all they contain")
    p.add_argument("--cluster-reasons-file", metavar="PATH",
                   help="write why each cluster's pages are together (JSON, one entry "
                   "per cluster)")
    p.add_argument("--validation-file", metavar="PATH",
                   help="write the checks of the result (the site's mirror axis from "
                   "the paths, clusters holding identical or mirrored structures, each "
                   "cluster's cohesion) and merge the safe ones: identical structures, or "
                   "mirrors corroborated by the axis")
    p.add_argument("-v", "--version", action="version", version=f"%(prog)s {__version__}")
    return p


def _fail(message: str, code: int = 1) -> int:
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return code


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    ids: list[Any] = []
    paths: list[list[str]] = []

    def pages() -> Iterator[dict[str, Any]]:
        # strict UTF-8 whatever the locale (a C locale would let bad bytes through)
        stream = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="strict")
        for record in records(stream):
            ids.append(record["id"])
            if args.validation_file:  # the mirror axis is found from the paths
                given = record.get("paths")
                paths.append([str(s) for s in given] if isinstance(given, list) else [])
            yield record

    progress = Progress(sys.stderr)
    progress("pass0", "reading input pages")
    try:
        result = resolve(pages(), content_block_attribute=args.content_block_attribute,
                         progress=lambda phase, text: None if phase == "done"
                         else progress(phase, text))
    except BadLine as exc:
        return _fail(str(exc))
    except UnicodeDecodeError:
        return _fail(f"the input is not UTF-8 (after line {len(ids)})")
    except KeyboardInterrupt:
        print(f"\n{PROG}: interrupted; nothing written", file=sys.stderr)
        return 130
    keys = result.keys
    try:
        if args.validation_file:
            tokens = [result.structures[s] for s in result.page_structure]
            report = validate_cluster_partition(keys, tokens, paths)
            merged = merge_validated_clusters(
                keys, safe_merges(report["crossClusterDuplicates"]))
            for old, new in sorted(set(zip(keys, merged, strict=True))):
                if old != new:  # the reasons follow the merge
                    gone = result.reasons.pop(old)
                    target = result.reasons[new]
                    target["memberCount"] += gone["memberCount"]
                    target["blocking"] += gone["blocking"]
                    target.setdefault("mergedClusterKeys", []).append(old)
            keys = merged
            _write_json(args.validation_file, report)
        if args.cluster_reasons_file:
            _write_json(args.cluster_reasons_file, result.reasons)
    except OSError as exc:
        return _fail(f"cannot write {exc.filename}: {exc.strerror}")
    progress("done", f"{len(keys)} pages in {len(set(keys))} clusters")
    out = sys.stdout
    try:
        for page_id, key in zip(ids, keys, strict=True):
            out.write(json.dumps({"id": page_id, "clusterKey": key}, ensure_ascii=False)
                      + "\n")
        out.flush()
    except BrokenPipeError:  # the reader stopped early (| head): not an error
        sys.stderr.close()
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def _write_json(path: str, value: Any) -> None:
    with open(path, "w", encoding="utf-8") as f:
        json.dump(value, f, ensure_ascii=False, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    sys.exit(main())
