"""Hostile HTML: deep nesting, a 5 MB line, binary bytes, 50,000 siblings. Every entry
point answers (no traceback, no recursion error) and reads a bounded part of the page."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from page_cluster import extract_landmarks, resolve, resolve_page_cluster_keys, tokenize
from page_cluster.tokens import MAX_DEPTH, MAX_ELEMENTS

CLI = str(Path(sys.executable).with_name("page-cluster"))

HOSTILE = {
    "nesting": "<body><header>" + "<div class='d'>" * 10_000 + "deep" + "</div>" * 10_000
               + "</header><main><p>x</p></main></body>",
    "long line": "<body><main>" + "<span class='s'>y</span>" * 220_000 + "</main></body>",
    "binary": "<body><nav>" + bytes(range(256)).decode("latin-1") * 400 + "</nav>"
              "<main>\x00<p>\x00</p></main></body>",
    "siblings": "<body><main><ul class='l'>" + "<li class='i'>x</li>" * 50_000
                + "</ul></main><footer>f</footer></body>",
    "unclosed": "<body><header><nav><main><aside><form>" * 2_000,
}


@pytest.mark.parametrize("name", HOSTILE)
def test_library_entry_points_survive(name: str) -> None:
    html = HOSTILE[name]
    tokens = tokenize(html)
    assert len(tokens) <= 2 * MAX_ELEMENTS
    assert all(t.count(">") < MAX_DEPTH for t in tokens)
    landmarks = extract_landmarks(html)
    assert all(html[lm.offset:lm.end] == lm.html for lm in landmarks)
    keys = resolve_page_cluster_keys([{"html": html}, {"html": html}])
    assert len(keys) == 2 and keys[0] == keys[1]


def test_hostile_pages_do_not_disturb_the_others() -> None:
    normal = "<body><main><article class='post'><h1>t</h1><p>x</p></article></main></body>"
    pages = [{"html": h, "paths": ["h", str(i)]} for i, h in enumerate(HOSTILE.values())]
    pages += [{"html": normal, "paths": ["blog", str(i)]} for i in range(5)]
    result = resolve(pages)
    assert len(set(result.keys[-5:])) == 1
    assert result.keys[-1] not in result.keys[:len(HOSTILE)]


def test_cli_survives_hostile_lines() -> None:
    lines = "".join(json.dumps({"id": name, "html": html}) + "\n"
                    for name, html in HOSTILE.items())
    done = subprocess.run([CLI], input=lines, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert [json.loads(line)["id"] for line in done.stdout.splitlines()] == list(HOSTILE)
    assert "Traceback" not in done.stderr and "RecursionError" not in done.stderr
