"""page_cluster's per-page helpers: landmarks with positions, the chrome test, landmark
variants, the mirror axis and the validation it corroborates."""

from __future__ import annotations

import random

import pytest

from page_cluster import (
    detect_mirror_axis,
    extract_landmarks,
    find_cross_cluster_duplicates,
    is_chrome_landmark_instance,
    merge_validated_clusters,
    normalize_href_by_mirror_axis,
    normalize_path_by_mirror_axis,
    resolve,
    resolve_landmark_variant_keys,
    safe_merges,
    synthetic,
    validate_cluster_partition,
)

PAGE = """<!doctype html>
<html><body>
<header class="site"><nav class="global"><a href="/">Home</a></nav></header>
<main id="main"><p>Intro<aside class="toc"><ul><li>One</ul></aside></p>
  <div role="search"><form><input name="q"></form></div>
</main>
<footer>Bye"""


def test_landmarks_come_with_their_positions_and_source() -> None:
    found = extract_landmarks(PAGE)
    assert [(lm.kind, lm.tag, lm.nested) for lm in found] == [
        ("header", "header", False), ("main", "main", False), ("aside", "aside", True),
        ("search", "div", True), ("footer", "footer", False)]
    lines = PAGE.split("\n")
    for lm in found:
        assert PAGE[lm.offset:lm.end] == lm.html
        assert lines[lm.line - 1][lm.column - 1:].startswith(lm.html.split("\n")[0])
    header, main, aside, search, footer = found
    assert (header.line, header.column) == (3, 1)
    assert header.html.endswith("</nav></header>")
    assert (aside.line, aside.column) == (4, 25) and aside.html.endswith("</aside>")
    assert main.html.endswith("</main>") and search.html.endswith("</form></div>")
    assert footer.html == "<footer>Bye" and footer.end == len(PAGE)  # never closed
    # tokens are relative to the landmark; the nav in the header is the header's
    assert header.tokens == {"header.site", "header.site>nav.global",
                             "header.site>nav.global>a"}
    assert "div[search]>form>input" in search.tokens


def test_landmarks_by_role_and_stray_end_tags() -> None:
    html = '<body></div><div role="banner"><span></p></span></div><div role="contentinfo">x'
    found = extract_landmarks(html)
    assert [(lm.kind, lm.tag) for lm in found] == [("header", "div"), ("footer", "div")]
    assert found[0].html == '<div role="banner"><span></p></span></div>'
    assert extract_landmarks("<p>no landmarks</p>") == []


def test_chrome_instance_both_directions() -> None:
    shell = ["header.site", "header.site>nav.global", "header.site>nav.global>a",
             "header.site>nav.global>ul", "header.site>nav.global>ul>li",
             "header.site>div.logo", "header.site>div.logo>img", "header.site>form",
             "header.site>form>input", "header.site>form>button"]
    assert is_chrome_landmark_instance(shell, shell)
    assert is_chrome_landmark_instance(shell[:-1], shell)           # one item missing
    assert not is_chrome_landmark_instance(shell[:5], shell)        # half of it: not chrome
    own = shell + [f"header.site>div.mega>ul.col-{i}" for i in range(15)]
    assert not is_chrome_landmark_instance(own, shell)               # mostly its own
    assert not is_chrome_landmark_instance(shell, [])                # no shell: content
    assert not is_chrome_landmark_instance(["header.other", "header.other>h1"], shell)


def test_reasons_shell_tokens_tell_chrome_from_local_landmarks() -> None:
    pairs = list(synthetic.site(300, seed=6))
    result = resolve(p for p, _t in pairs)
    page, template = next((p, t) for p, t in pairs if t == "news-detail-sidebar")
    reason = result.reasons[result.keys[pairs.index((page, template))]]
    landmarks = reason["landmarks"]
    assert landmarks["header"]["chromeRate"] == 1.0 and landmarks["header"]["shellTokens"]
    assert landmarks["aside"]["chromeRate"] == 0.0 and landmarks["aside"]["shellTokens"] == []
    assert landmarks["aside"]["presenceRate"] == 1.0
    assert landmarks["header"]["memberCountWithInstance"] == reason["memberCount"]
    instances = {lm.kind: lm for lm in extract_landmarks(page["html"])}
    assert is_chrome_landmark_instance(instances["header"].tokens,
                                       landmarks["header"]["shellTokens"])
    assert not is_chrome_landmark_instance(instances["aside"].tokens,
                                           landmarks["header"]["shellTokens"])


def _header(design: int, rng: random.Random) -> str:
    items = "".join(f"<li class='item'><a>{i}</a></li>" for i in range(rng.randint(3, 9)))
    login = "<a class='login'>Log in</a>" if rng.random() < 0.5 else ""
    if design == 0:
        return f"<header class='site'><div class='logo'></div><ul class='menu'>{items}</ul>" \
               f"{login}</header>"
    return (f"<header class='site compact'><button class='burger'></button><nav class="
            f"'drawer'><ol class='drawer-list'>{items}</ol></nav><form class='search'>"
            f"<input></form>{login}</header>")


def test_landmark_variants_split_designs_not_options() -> None:
    rng = random.Random(3)
    designs = [rng.randrange(2) for _ in range(60)]
    pages = [f"<body>{_header(d, rng)}<main><p>x</p></main></body>" for d in designs]
    pages.append("<body><main><p>no header</p></main></body>")
    keys = resolve_landmark_variant_keys(pages, "header")
    assert keys[-1] == "none"
    by_design = {d: {k for k, dd in zip(keys, designs, strict=False) if dd == d}
                 for d in (0, 1)}
    # two designs, two keys: the optional login link and menu length do not split
    assert len(by_design[0]) == 1 and len(by_design[1]) == 1
    assert by_design[0] != by_design[1]
    assert keys[0] == "header:0"
    same = resolve_landmark_variant_keys([{"html": pages[0]}, pages[0]], "header")
    assert same == ["header:0", "header:0"]
    # main too, compared from itself: the same design wrapped or not is one variant
    mains = ["<body><div class='w'><main class='m'><ul><li>x</ul></main></div></body>",
             "<body><main class='m'><ul><li>y</li><li>z</li></ul></main></body>",
             "<body><main class='m'><article><h1>t</h1><table><tr><td>1</table></article>"
             "</main></body>", "<p>no main</p>"]
    assert resolve_landmark_variant_keys(mains, "main") == ["main:0", "main:0", "main:1",
                                                             "none"]
    with pytest.raises(ValueError, match="kind must be one of"):
        resolve_landmark_variant_keys(pages, "banner")


def test_mirror_axis_found_and_not_invented() -> None:
    slugs = ["home", "about", "contact", "news", "faq", "team"]
    site = [["en", s] for s in slugs] + [["ja", s] for s in slugs[:-1]] + \
        [["products", f"shirt-{c}"] for c in ("red", "blue", "green")] + \
        [["blog", "page", str(i)] for i in range(1, 40)] + [["docs", "en", "api"]]
    axis = detect_mirror_axis(site)
    assert axis is not None and (axis.position, axis.values) == (0, ("en", "ja"))
    assert axis.skeletons == 5
    # siblings, pagers and a lone language folder are no axis
    assert detect_mirror_axis([p for p in site if p[0] not in ("en", "ja")]) is None
    assert detect_mirror_axis([["en", "a"], ["ja", "a"]]) is None   # one page: chance
    assert detect_mirror_axis([]) is None
    assert normalize_path_by_mirror_axis(["ja", "about"], axis) == ["{mirror}", "about"]
    assert normalize_path_by_mirror_axis(["products", "x"], axis) == ["products", "x"]
    assert normalize_path_by_mirror_axis(["ja"], None) == ["ja"]
    assert normalize_href_by_mirror_axis("https://x.test/ja/css/site.css?v=2", axis) == \
        "https://x.test/{mirror}/css/site.css?v=2"
    assert normalize_href_by_mirror_axis("/css/site.css", axis) == "/css/site.css"
    assert normalize_href_by_mirror_axis("http://[bad", axis) == "http://[bad"


def test_validation_merges_mirrors_only_when_the_axis_and_structure_agree() -> None:
    en = frozenset(range(20))
    ja = frozenset(range(19)) | {99}            # a translated page: one block differs
    other = frozenset(range(100, 120))          # a different template under a mirror path
    slugs = ["a", "b", "c", "d"]
    keys = ["en"] * 4 + ["ja"] * 4 + ["x", "y"]
    tokens = [en] * 4 + [ja] * 4 + [en, other]
    paths = [["en", s] for s in slugs] + [["ja", s] for s in slugs] + \
        [["en", "z"], ["ja", "z"]]
    report = validate_cluster_partition(keys, tokens, paths)
    assert report["mirrorAxis"] == {"position": 0, "values": ["en", "ja"], "skeletons": 5}
    pairs = {tuple(d["clusterKeys"]): d for d in report["crossClusterDuplicates"]}
    assert pairs[("en", "ja")]["corroboratedByMirrorAxis"]
    assert pairs[("en", "ja")]["similarity"] == pytest.approx(19 / 21, abs=1e-4)
    assert pairs[("en", "x")]["similarity"] == 1.0             # identical structure
    assert ("x", "y") not in pairs                             # mirrors, but unlike
    merged = merge_validated_clusters(keys, safe_merges(report["crossClusterDuplicates"]))
    assert merged[:9] == ["en"] * 9 and merged[9] == "y"
    # without paths: only identical structures count
    plain = find_cross_cluster_duplicates(keys, tokens)
    assert [d["clusterKeys"] for d in plain] == [["en", "x"]]
