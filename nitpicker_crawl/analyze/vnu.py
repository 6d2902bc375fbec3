"""The ``vnu`` plugin: HTML conformance by the Nu Html Checker (``vnu.jar``, the W3C's
validator), run on the archived HTML.

Why vnu and not markuplint: it is the reference implementation of the HTML standard's
conformance rules, maintained with the standard, runs offline on a file, and needs only
Java (Debian's ``default-jre-headless``); the npm package ``vnu-jar`` ships the jar.
One JVM checks a whole batch of pages written to a temporary directory, so its start
(about a second) is paid once per batch, not per page.

Where the jar is found: ``NITPICKER_VNU_JAR``, else ``node_modules/vnu-jar`` under the
current directory or the global npm root. Java: ``java`` on PATH.

Findings: severity from vnu's message type — ``error`` (and ``fatal``) → ``error``,
``info`` with subtype ``warning`` → ``warning``, other ``info`` → ``info``. vnu has no
rule ids; the rule is the message with each quoted part (“…”) replaced by ``“*”``, so
"Duplicate ID “a”." and "Duplicate ID “b”." are one rule, ``Duplicate ID “*”.``.
Line and column are vnu's, in the archived HTML; the code is vnu's extract.

A batch whose JVM fails (a page that exhausts its stack, a crash) is split in halves
and checked again, down to the page that fails, which alone is reported as not analysed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

from .plugin import Finding, Outcome, Page, Unavailable
from .tools import npm_package, tool_version

INSTALL = ("the Nu Html Checker is not installed: npm install vnu-jar (and Java: apt-get "
           "install default-jre-headless), or point NITPICKER_VNU_JAR at vnu.jar")
JVM = ("-Xss4m", "-Xmx768m")
SECONDS_PER_PAGE = 5.0
MAX_FINDINGS = 500
"""Findings kept per page (a page of garbage can make vnu say one thing per byte)."""
QUOTED = re.compile(r"(?<!element )(?<!attribute )(?<!Element )(?<!Attribute )“[^”]*”"
                    r"(?! element)(?! attribute)")
"""A quoted part that is not an element's or an attribute's name (vnu writes those
"element “img”", "“alt” attribute"): an id, a value, a URL — what varies per page."""
SEVERITY = {"error": "error", "fatal": "error", "warning": "warning", "info": "info"}


def find_jar() -> Path | None:
    configured = os.environ.get("NITPICKER_VNU_JAR")
    if configured:
        return Path(configured) if Path(configured).is_file() else None
    package = npm_package("vnu-jar", "build/dist/vnu.jar")
    return package / "build" / "dist" / "vnu.jar" if package is not None else None


def rule_of(message: str) -> str:
    return QUOTED.sub("“*”", message)


def severity_of(message: dict[str, Any]) -> str:
    kind = str(message.get("type"))
    if kind == "info":
        return SEVERITY.get(str(message.get("subType") or "info"), "info")
    return SEVERITY.get(kind, "error")


class VnuPlugin:
    name = "vnu"
    batch = 50
    concurrency = 1

    def __init__(self) -> None:
        self._jar: Path | None = None
        self._java: str | None = None
        self._version = "?"

    @property
    def identity(self) -> str:
        return f"vnu {self._version}"

    async def start(self) -> None:
        self._java = shutil.which("java")
        self._jar = find_jar()
        if self._java is None or self._jar is None:
            raise Unavailable(INSTALL)
        self._version = await tool_version([self._java, *JVM, "-jar", str(self._jar),
                                            "--version"], INSTALL)

    async def close(self) -> None:
        return None  # each batch's JVM ends with the batch

    async def analyze(self, pages: list[Page]) -> dict[int, Outcome]:
        with tempfile.TemporaryDirectory(prefix="nitpicker-vnu-") as tmp:
            files = {}
            for page in pages:
                path = Path(tmp) / f"{page.id}.html"
                path.write_text(page.html, encoding="utf-8", errors="replace")
                files[page.id] = path
            return await self._check(pages, files)

    async def _check(self, pages: list[Page], files: dict[int, Path]) -> dict[int, Outcome]:
        assert self._java is not None and self._jar is not None
        proc = await asyncio.create_subprocess_exec(
            self._java, *JVM, "-jar", str(self._jar), "--format", "json",
            "--exit-zero-always", *(str(files[p.id]) for p in pages),
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
        try:
            _, err = await asyncio.wait_for(
                proc.communicate(), 30 + SECONDS_PER_PAGE * len(pages))
            report = json.loads(err) if proc.returncode == 0 else None
        except (TimeoutError, ValueError):
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()
            report = None
        except asyncio.CancelledError:  # a stop: the JVM goes with the batch
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            raise
        if not isinstance(report, dict) or not isinstance(report.get("messages"), list):
            if len(pages) == 1:
                return {pages[0].id: "vnu could not check this page (the JVM failed or "
                        "timed out on it)"}
            half = len(pages) // 2
            return {**await self._check(pages[:half], files),
                    **await self._check(pages[half:], files)}
        by_file = {files[p.id].as_uri(): p.id for p in pages}
        by_file.update({"file:" + str(files[p.id]): p.id for p in pages})
        found: dict[int, Outcome] = {p.id: [] for p in pages}
        for message in report["messages"]:
            if not isinstance(message, dict):
                continue
            page_id = by_file.get(str(message.get("url")))
            if page_id is None:
                continue
            if message.get("type") == "non-document-error":
                found[page_id] = f"vnu could not read it: {str(message.get('message'))[:300]}"
                continue
            into = found[page_id]
            if isinstance(into, str) or len(into) >= MAX_FINDINGS:
                continue
            text = str(message.get("message") or "")
            into.append(Finding(severity_of(message), rule_of(text)[:200], text,
                                str(message.get("extract") or "") or None,
                                _int(message.get("lastLine")),
                                _int(message.get("firstColumn"))))
        return found


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
