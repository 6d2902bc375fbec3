"""page-cluster (issue 11): templates found by DOM structure, as a library and a CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from page_cluster import (
    auto_cut_threshold,
    find_cross_cluster_duplicates,
    jaccard_similarity,
    merge_validated_clusters,
    resolve,
    resolve_page_cluster_keys,
    synthetic,
    tokenize,
)
from page_cluster.scoring import adjusted_rand_index, purity

CLI = str(Path(sys.executable).with_name("page-cluster"))


def page(body: str, paths: list[str] | None = None) -> dict[str, object]:
    return {"html": f"<html><body>{body}</body></html>", "paths": paths or ["a", "1"],
            "stylesheetHrefs": ["/a.css"]}


@pytest.mark.parametrize("seed", [1, 5, 9])
def test_eight_templates_exactly(seed: int) -> None:
    pairs = list(synthetic.site(192, seed=seed, templates=8))
    labels = [t for _p, t in pairs]
    keys = resolve_page_cluster_keys(p for p, _t in pairs)
    assert len(set(labels)) == 8
    assert adjusted_rand_index(labels, keys) == 1.0 and purity(labels, keys) == 1.0


def test_whole_synthetic_site_with_hard_pairs() -> None:
    pairs = list(synthetic.site(3000, seed=3))
    labels = [t for _p, t in pairs]
    keys = resolve_page_cluster_keys(p for p, _t in pairs)
    assert len(set(labels)) == 29
    assert adjusted_rand_index(labels, keys) >= 0.97
    # the hard pairs are apart: sidebar or not, a reviews block or not
    for a, b in (("news-detail", "news-detail-sidebar"),
                 ("products-detail", "product-detail-reviews"), ("news-list", "tag")):
        ka = {k for k, t in zip(keys, labels, strict=True) if t == a}
        kb = {k for k, t in zip(keys, labels, strict=True) if t == b}
        assert ka and kb and not ka & kb, (a, b)


def test_text_is_ignored_and_structure_is_not() -> None:
    one = tokenize("<body><main><article class='post post-12'><p>one</p></article></main>")
    two = tokenize("<body><main><article class='post post-99'><p>two two</p></article>"
                   "</main>")
    other = tokenize("<body><main><section><p>one</p></section></main>")
    assert one == two  # text and digits in names are not structure
    assert set(one) != set(other)
    assert tokenize("<p>no body element</p>") == tokenize("<html><body><p>x</p></body></html>")
    assert tokenize("") == []


def test_same_template_different_bodies_one_key_and_others_apart() -> None:
    list_page = "<main><ul class='cards'>" + "<li class='card'><a>x</a></li>" * 8 + "</ul></main>"
    detail = "<main><article><h1>t</h1><div class='body'>{}</div></article></main>"
    bodies = ["<p>a</p>" * 3, "<ul><li>x</li></ul><p>b</p>", "<table><tr><td>1</td></tr>"
              "</table>", "<figure><img></figure><p>c</p>", "<h2>h</h2><p>d</p>",
              "<ol><li>1</li></ol>", "<p>e</p><blockquote>q</blockquote>", "<pre>x</pre>",
              "<dl><dt>a</dt><dd>b</dd></dl>", "<p>f</p><hr>"]
    pages = [page(detail.format(b)) for b in bodies] + [page(list_page)] * 5
    keys = resolve_page_cluster_keys(pages)
    assert len(set(keys[:10])) == 1 and len(set(keys[10:])) == 1 and keys[0] != keys[10]


def test_content_block_attribute() -> None:
    pages = [page(f"<main><div data-bgb><{tag}>x</{tag}></div><h1>t</h1></main>")
             for tag in ("p", "table", "ul", "form")]
    keys = resolve_page_cluster_keys(pages, content_block_attribute="data-bgb")
    assert len(set(keys)) == 1


def test_deterministic_and_in_input_order() -> None:
    pages = [p for p, _t in synthetic.site(400, seed=2)]
    first, second = resolve(iter(pages)), resolve(iter(pages))
    assert first.keys == second.keys and first.reasons == second.reasons
    assert len(first.keys) == 400


def test_primitives() -> None:
    assert jaccard_similarity({1, 2}, {2, 3}) == pytest.approx(1 / 3)
    assert jaccard_similarity(set(), set()) == 1.0
    assert auto_cut_threshold([0.0, 0.05, 0.1, 0.8, 0.9]) == pytest.approx(0.45)
    assert auto_cut_threshold([0.3, 0.3]) is None
    keys = ["a", "b", "c", "a"]
    tokens = [frozenset({1}), frozenset({1}), frozenset({2}), frozenset({3})]
    duplicates = find_cross_cluster_duplicates(keys, tokens)
    assert [d["clusterKeys"] for d in duplicates] == [["a", "b"]]  # c is not a copy
    assert merge_validated_clusters(keys, duplicates) == ["a", "a", "c", "a"]


def run(lines: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CLI, *args], input=lines, capture_output=True, text=True,
                          timeout=120)


def test_cli_contract(tmp_path: Path) -> None:
    pairs = list(synthetic.site(120, seed=4, templates=8))
    text = "\n".join(json.dumps(p) for p, _t in pairs) + "\n\n   \n"
    done = run(text, "--cluster-reasons-file", str(tmp_path / "r.json"),
               "--validation-file", str(tmp_path / "v.json"))
    assert done.returncode == 0, done.stderr
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert [o["id"] for o in out] == [p["id"] for p, _t in pairs]  # input order
    labels = [t for _p, t in pairs]
    assert adjusted_rand_index(labels, [o["clusterKey"] for o in out]) == 1.0
    reasons = json.loads((tmp_path / "r.json").read_text())
    assert set(reasons) == {o["clusterKey"] for o in out}
    assert sum(r["memberCount"] for r in reasons.values()) == len(pairs)
    assert all(r["structuralCoreTokens"] for r in reasons.values())
    assert "cohesion" in json.loads((tmp_path / "v.json").read_text())
    assert "[page-cluster] done — 120 pages in 8 clusters" in done.stderr
    for phase in ("pass0:", "pass1:", "pass1b:", "stage-b:"):  # grep-able progress lines
        assert f"[page-cluster] {phase}" in done.stderr, phase
    again = run(text, "--cluster-reasons-file", str(tmp_path / "r2.json"),
                "--validation-file", str(tmp_path / "v2.json"))
    assert again.stdout == done.stdout  # byte-identical
    assert (tmp_path / "r2.json").read_bytes() == (tmp_path / "r.json").read_bytes()


@pytest.mark.parametrize("line,message", [
    ("{not json", "line 2: not JSON"),
    ("[1, 2]", "line 2: expected a JSON object, got list"),
    ('{"id": 3}', "line 2: missing field html"),
    ('{"id": 3, "html": 5}', "line 2: html must be a string"),
    ('{"id": 3, "html": "", "paths": "a/b"}', "line 2: paths must be a list of strings"),
    ('{"id": 3, "html": "", "stylesheetHrefs": [1]}',
     "line 2: stylesheetHrefs must be a list of strings"),
])
def test_cli_bad_lines(line: str, message: str) -> None:
    done = run('{"id": 1, "html": "<p>x</p>"}\n' + line + "\n")
    assert done.returncode == 1 and done.stdout == ""
    assert f"page-cluster: error: {message}" in done.stderr and "Traceback" not in done.stderr


def test_cli_arguments_and_empty_input() -> None:
    assert run("", "--bogus").returncode == 2
    version = run("", "--version")
    assert version.returncode == 0 and version.stdout.startswith("page-cluster ")
    empty = run("\n  \n")
    assert empty.returncode == 0 and empty.stdout == ""
    no_body = run('{"id": "x", "html": "plain text, no tags"}\n')
    assert no_body.returncode == 0 and json.loads(no_body.stdout)["id"] == "x"


def test_cli_refuses_non_utf8() -> None:
    done = subprocess.run([CLI], input=b'{"id": 1, "html": "<p>\xff</p>"}\n',
                          capture_output=True, timeout=60)
    assert done.returncode == 1 and done.stdout == b""
    assert b"not UTF-8" in done.stderr and b"Traceback" not in done.stderr
