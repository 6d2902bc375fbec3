"""The extended synthetic site (``synthetic.site(extended=True)``): what it generates, and
its two hardest cases both ways — three templates that share all chrome, path and
stylesheets stay apart; a template of optional blocks in any order stays one
(:mod:`page_cluster.options`)."""

from __future__ import annotations

import re
from collections import Counter, defaultdict

from page_cluster import resolve_page_cluster_keys, synthetic
from page_cluster.stylesheets import first_party

PAGES = list(synthetic.site(3000, seed=7, extended=True))


def _keys_by_template() -> dict[str, Counter[str]]:
    keys = resolve_page_cluster_keys([p for p, _t in PAGES])
    by: dict[str, Counter[str]] = defaultdict(Counter)
    for (_p, template), key in zip(PAGES, keys, strict=True):
        by[template][key] += 1
    return by


def test_the_classic_site_is_unchanged_and_the_extended_one_adds_four_templates() -> None:
    classic = {t for _p, t in synthetic.site(1500, seed=7)}
    extended = {t for _p, t in PAGES}
    assert extended - classic == set(synthetic.EXTENDED)
    assert "campaign" not in classic


def test_it_has_the_hard_cases_of_real_sites() -> None:
    hrefs = [p["stylesheetHrefs"] for p, _t in PAGES if "stylesheetHrefs" in p]
    third = sum(any(h.startswith("https://fonts.googleapis.com/") for h in hs) for hs in hrefs)
    assert 0.3 < third / len(hrefs) < 0.5            # a web font on a random share
    # third-party hrefs never reach the block; first-party ones lose their query
    assert all(all(c.startswith("/css/") and "?" not in c
                   for c in first_party(hs, "example.test")) for hs in hrefs)
    details = [p["html"] for p, t in PAGES if t == "blog-detail"]
    ids = {i for h in details for i in re.findall(r'<section id="([^"]+)"', h)}
    assert len(ids) > len(details)                   # ids made from headings: all differ
    orders = {tuple(re.findall(r'class="lp-(\w+)"', p["html"])) for p, t in PAGES
              if t == "campaign"}
    assert len(orders) > 20                          # optional blocks, any order
    info = {t: {(tuple(p["paths"][:1]), tuple(sorted(first_party(p["stylesheetHrefs"],
                                                                "example.test"))))
                for p, tt in PAGES if tt == t and "stylesheetHrefs" in p}
            for t in ("info-faq", "info-policy", "info-team")}
    assert len(set().union(*info.values())) == 1     # one path and stylesheet block


def test_templates_that_share_all_chrome_stay_apart() -> None:
    by = _keys_by_template()
    mains = {t: by[t].most_common(1)[0][0] for t in ("info-faq", "info-policy", "info-team")}
    assert len(set(mains.values())) == 3, mains


def test_optional_blocks_in_any_order_stay_one_template() -> None:
    by = _keys_by_template()
    _top, n = by["campaign"].most_common(1)[0]
    assert n >= 0.95 * sum(by["campaign"].values()), by["campaign"]
