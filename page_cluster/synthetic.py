"""A labelled synthetic site: pages whose template is known, for tests and benchmarks.

What makes template clustering hard on real sites is reproduced on purpose:

- every page carries the same chrome (header with the site navigation, footer), so most
  of any page's structure is shared with every other page;
- sections have their own stylesheet besides the site-wide one, and about 2 % of pages
  come without stylesheet data (as when a crawl lost them);
- bodies vary within a template: paragraphs, lists and tables repeated a random number of
  times, optional figures, ids and classes with numbers in them (``post-123``);
- **hard pairs**: two templates of a section that differ only by a sidebar
  (``news-detail`` / ``news-detail-sidebar``), or by one block (``product-detail`` /
  ``product-detail-reviews``); and every section's list page beside its detail page;
- some sections are mirrored under language directories (``/en/…``, ``/ja/…``).

``site(n, seed, extended=True)`` adds what real sites showed the first version lacked:

- **third-party stylesheets** on a random share of pages (a web-font CSS whose query
  names the family, a review widget's CDN on product pages), first-party ones with a
  cache-busting query;
- **content-derived ids**: sections of an article body carry an id made from their
  heading (``<section id="dolor-sit-amet">``), comments ``id="comment-48213"``;
- **one template of optional blocks in random order** (``campaign``: three to six of
  eight blocks per page);
- **templates that share all chrome, path and stylesheets** and differ only inside
  ``main`` (``info-faq``, ``info-policy``, ``info-team`` under ``/info/``).

``site(n, seed)`` yields ``(page, template)`` pairs; a page is the CLI's input record
(``id``, ``html``, ``paths``, ``stylesheetHrefs``, ``host``). Deterministic per seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

_LOREM = ("lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor "
          "incididunt ut labore et dolore magna aliqua enim ad minim veniam quis "
          "nostrud exercitation ullamco laboris nisi aliquip ex ea commodo consequat")
WORDS = tuple(_LOREM.split(" "))

SECTIONS = ("news", "blog", "products", "jobs", "events", "docs", "faq", "press", "stores",
            "recipes", "courses")
"""Sections with a list and a detail template each (22 templates)."""

EXTRA = ("home", "search", "contact", "news-detail-sidebar", "product-detail-reviews",
         "tag", "sitemap")
"""Templates beside the section pairs: 29 templates in all."""

NOTICE_SHARE = 0.05
"""Pages with a site notice above their content (noise every template shows)."""

EXTENDED = ("campaign", "info-faq", "info-policy", "info-team")
"""The extended site's templates beside those: 33 in all."""

CAMPAIGN_BLOCKS = ("hero", "features", "testimonials", "pricing", "video", "gallery",
                   "newsletter", "countdown")

MIRRORED = ("docs", "faq")
"""Sections also served under /en/ and /ja/ (the same templates, other paths)."""


def _text(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words))


def _chrome_head(rng: random.Random, section: str, title: str) -> str:
    nav = "".join(f'<li class="nav-item"><a href="/{s}/">{s.title()}</a></li>'
                  for s in SECTIONS)
    return (f'<header class="site-header"><div class="logo"><a href="/">Example</a></div>'
            f'<nav class="global-nav"><ul>{nav}</ul></nav>'
            f'<form class="site-search" role="search" action="/search">'
            f'<input type="search" name="q"><button>Go</button></form></header>'
            f'<div class="breadcrumb"><a href="/">Home</a> › <span>{section}</span></div>')


def _chrome_foot(rng: random.Random) -> str:
    cols = "".join(f'<div class="footer-col"><h4>{_text(rng, 2)}</h4><ul>'
                   + "".join(f'<li><a href="/x/{i}">{_text(rng, 3)}</a></li>'
                             for i in range(8)) + "</ul></div>" for _ in range(4))
    return (f'<footer class="site-footer"><div class="footer-cols">{cols}</div>'
            f'<p class="copyright">© Example</p></footer>')


def _body(rng: random.Random, paragraphs: tuple[int, int]) -> str:
    """An article body: what varies from page to page inside one template."""
    parts = []
    for _ in range(rng.randint(*paragraphs)):
        kind = rng.random()
        if kind < 0.65:
            parts.append(f"<p>{_text(rng, rng.randint(80, 260))}</p>")
        elif kind < 0.8:
            items = "".join(f"<li>{_text(rng, 8)}</li>" for _ in range(rng.randint(2, 9)))
            parts.append(f"<ul>{items}</ul>")
        elif kind < 0.9:
            rows = "".join(f"<tr><td>{_text(rng, 2)}</td><td>{_text(rng, 3)}</td></tr>"
                           for _ in range(rng.randint(2, 8)))
            parts.append(f"<table><tbody>{rows}</tbody></table>")
        else:
            parts.append(f'<figure><img src="/img/{rng.randint(1, 999)}.jpg" alt="">'
                         f"<figcaption>{_text(rng, 6)}</figcaption></figure>")
        if rng.random() < 0.15:
            parts.append(f"<h2>{_text(rng, 4)}</h2>")
    return "".join(parts)


def _slug(text: str) -> str:
    return "-".join(text.split())


def _sections(rng: random.Random) -> str:
    """An article body as a Markdown renderer writes it: each section with an id made
    from its heading, and a comment thread with numbered ids."""
    parts = []
    for _ in range(rng.randint(2, 7)):
        heading = _text(rng, rng.randint(2, 4))
        parts.append(f'<section id="{_slug(heading)}"><h2>{heading}</h2>'
                     f"{_body(rng, (1, 4))}</section>")
    comments = "".join(f'<li class="comment" id="comment-{rng.randint(1, 99_999)}">'
                       f'<p>{_text(rng, 15)}</p></li>' for _ in range(rng.randint(0, 5)))
    if comments:
        parts.append(f'<ol class="comments">{comments}</ol>')
    return "".join(parts)


def _campaign_block(rng: random.Random, kind: str) -> str:
    if kind == "hero":
        return (f'<section class="lp-hero"><h1>{_text(rng, 5)}</h1><p>{_text(rng, 20)}</p>'
                f'<a class="cta" href="/buy">Buy</a></section>')
    if kind == "features":
        items = "".join(f'<li class="feature"><h3>{_text(rng, 3)}</h3><p>{_text(rng, 12)}'
                        "</p></li>" for _ in range(rng.randint(3, 6)))
        return f'<section class="lp-features"><ul>{items}</ul></section>'
    if kind == "testimonials":
        quotes = "".join(f"<blockquote><p>{_text(rng, 20)}</p><cite>{_text(rng, 2)}</cite>"
                         "</blockquote>" for _ in range(rng.randint(1, 4)))
        return f'<section class="lp-testimonials">{quotes}</section>'
    if kind == "pricing":
        plans = "".join(f'<div class="plan"><h3>{_text(rng, 1)}</h3><span class="price">'
                        f"{rng.randint(5, 99)}</span><ul><li>{_text(rng, 3)}</li></ul></div>"
                        for _ in range(3))
        return f'<section class="lp-pricing">{plans}</section>'
    if kind == "video":
        return ('<section class="lp-video"><div class="video-wrap"><iframe src="/embed" '
                'title="video"></iframe></div></section>')
    if kind == "gallery":
        return '<section class="lp-gallery">' + "".join(
            f'<figure><img src="/g/{i}.jpg" alt=""></figure>'
            for i in range(rng.randint(2, 8))) + "</section>"
    if kind == "newsletter":
        return ('<section class="lp-newsletter"><form><input type="email"><button>Join'
                "</button></form></section>")
    return f'<section class="lp-countdown"><time>{rng.randint(1, 30)}</time></section>'


def _info(rng: random.Random, template: str) -> str:
    """Three templates of one section: same chrome, path and stylesheets."""
    if template == "info-faq":
        qa = "".join(f'<div class="qa"><dt>{_text(rng, 8)}?</dt><dd><p>{_text(rng, 30)}</p>'
                     "</dd></div>" for _ in range(rng.randint(4, 15)))
        return f'<h1 class="page-title">{_text(rng, 2)}</h1><dl class="faq-list">{qa}</dl>'
    if template == "info-policy":
        clauses = "".join(f'<li class="clause"><h2>{_text(rng, 3)}</h2><p>{_text(rng, 60)}'
                          "</p></li>" for _ in range(rng.randint(5, 14)))
        return (f'<h1 class="page-title">{_text(rng, 2)}</h1><p class="updated">'
                f'{_text(rng, 3)}</p><ol class="clauses">{clauses}</ol>')
    people = "".join(f'<li class="person"><img src="/p/{i}.jpg" alt=""><h3>{_text(rng, 2)}'
                     f'</h3><p class="role">{_text(rng, 2)}</p></li>'
                     for i in range(rng.randint(3, 20)))
    return (f'<h1 class="page-title">{_text(rng, 2)}</h1><p class="lead">{_text(rng, 25)}'
            f'</p><ul class="team-grid">{people}</ul>')


def _card(rng: random.Random, section: str, n: int) -> str:
    return (f'<li class="card card-{n}"><a href="/{section}/{n}">'
            f'<img src="/img/{n}.jpg" alt=""><h3 class="card-title">{_text(rng, 5)}</h3>'
            f'</a><p class="card-summary">{_text(rng, 70)}</p>'
            f'<time datetime="2024-01-01">{_text(rng, 2)}</time></li>')


def _main(rng: random.Random, template: str, section: str, extended: bool = False) -> str:
    """The template-specific part of a page."""
    if template == "campaign":
        chosen = rng.sample(CAMPAIGN_BLOCKS, rng.randint(3, 6))   # random order too
        return "".join(_campaign_block(rng, b) for b in chosen)
    if template.startswith("info-"):
        return _info(rng, template)
    if template.endswith("-list") or template == "tag":
        cards = "".join(_card(rng, section, rng.randint(1, 10_000))
                        for _ in range(rng.randint(6, 30)))
        pager = "".join(f'<a class="page" href="?p={i}">{i}</a>'
                        for i in range(1, rng.randint(3, 9)))
        heading = f'<h1 class="list-title">{_text(rng, 3)}</h1>'
        intro = f'<p class="lead">{_text(rng, 30)}</p>' if template == "tag" else ""
        return (f'<section class="listing listing-{section}">{heading}{intro}'
                f'<ul class="cards">{cards}</ul><nav class="pager">{pager}</nav></section>')
    if template == "home":
        hero = f'<section class="hero"><h1>{_text(rng, 4)}</h1><p>{_text(rng, 20)}</p></section>'
        blocks = "".join(f'<section class="teaser teaser-{s}"><h2>{s}</h2><ul class="cards">'
                         + "".join(_card(rng, s, rng.randint(1, 999)) for _ in range(3))
                         + "</ul></section>" for s in SECTIONS[:5])
        return hero + blocks
    if template == "search":
        results = "".join(f'<li class="result"><a href="/r/{i}">{_text(rng, 6)}</a>'
                          f'<p>{_text(rng, 20)}</p></li>' for i in range(rng.randint(0, 20)))
        return (f'<form class="search-form"><input name="q"><select name="s"><option>a'
                f'</option></select><button>Search</button></form>'
                f'<ol class="results">{results}</ol>')
    if template == "contact":
        fields = "".join(f'<div class="field"><label>{_text(rng, 1)}</label><input></div>'
                         for _ in range(5))
        return f'<h1>Contact</h1><form class="contact-form">{fields}<textarea></textarea>' \
               f'<button>Send</button></form><address>{_text(rng, 10)}</address>'
    if template == "sitemap":
        groups = "".join(f"<section><h2>{s}</h2><ul>" + "".join(
            f'<li><a href="/{s}/{i}">{_text(rng, 3)}</a></li>' for i in range(8))
            + "</ul></section>" for s in SECTIONS)
        return f'<h1>Sitemap</h1><div class="sitemap">{groups}</div>'
    # detail pages
    meta = (f'<div class="meta"><time datetime="2024">{_text(rng, 2)}</time>'
            f'<span class="author">{_text(rng, 2)}</span></div>')
    article = (f'<article class="entry entry-{rng.randint(1, 99_999)} {section}-entry">'
               f'<h1 class="entry-title">{_text(rng, 6)}</h1>{meta}'
               f'<div class="entry-body">'
               f'{_sections(rng) if extended else _body(rng, (6, 22))}</div>')
    if section == "products":
        article += (f'<div class="price-box"><span class="price">{rng.randint(5, 500)}</span>'
                    f'<button class="add-to-cart">Add</button></div>'
                    f'<dl class="specs"><dt>a</dt><dd>b</dd><dt>c</dt><dd>d</dd></dl>')
    if template == "product-detail-reviews":
        reviews = "".join(f'<li class="review"><span class="stars">*</span>'
                          f'<p>{_text(rng, 20)}</p></li>' for _ in range(rng.randint(1, 6)))
        article += f'<section class="reviews"><h2>Reviews</h2><ul>{reviews}</ul>' \
                   f'<form class="review-form"><textarea></textarea><button>Post</button>' \
                   f'</form></section>'
    if section == "jobs":
        article += '<a class="apply-button" href="/apply">Apply</a>'
    if section == "events":
        article += (f'<div class="event-info"><span class="venue">{_text(rng, 3)}</span>'
                    f'<span class="date">{_text(rng, 2)}</span></div>')
    if section == "recipes":
        article += ('<ul class="ingredients">'
                    + "".join(f"<li>{_text(rng, 3)}</li>" for _ in range(rng.randint(3, 12)))
                    + '</ul><ol class="steps">'
                    + "".join(f"<li>{_text(rng, 15)}</li>" for _ in range(rng.randint(3, 9)))
                    + "</ol>")
    if section == "courses":
        article += '<div class="syllabus"><h2>Syllabus</h2><ol class="modules">' + "".join(
            f'<li class="module"><h3>{_text(rng, 3)}</h3></li>' for _ in range(5)) + "</ol></div>"
    if rng.random() < 0.5:  # an optional share bar: noise within a template
        article += ('<div class="share"><a class="share-x" href="#">x</a>'
                    '<a class="share-fb" href="#">f</a></div>')
    article += "</article>"
    related = "".join(_card(rng, section, rng.randint(1, 999)) for _ in range(3))
    out = article + f'<section class="related"><h2>Related</h2><ul class="cards">{related}' \
                    "</ul></section>"
    if template == "news-detail-sidebar":
        links = "".join(f'<li><a href="/news/{i}">{_text(rng, 4)}</a></li>' for i in range(6))
        out += (f'<aside class="sidebar"><section class="widget popular"><h2>Popular</h2>'
                f'<ol>{links}</ol></section><section class="widget tags"><h2>Tags</h2>'
                f'<div class="tag-cloud">' + "".join(f'<a class="tag" href="/t/{i}">t</a>'
                                                     for i in range(9))
                + "</div></section></aside>")
    if section == "docs":
        toc = "".join(f'<li><a href="#s{i}">{_text(rng, 3)}</a></li>' for i in range(7))
        out = f'<nav class="docs-toc"><ol>{toc}</ol></nav>' + out
    return out


def _templates(extended: bool = False) -> list[tuple[str, str]]:
    """(template, section) pairs."""
    pairs = [(f"{s}-list", s) for s in SECTIONS] + [(f"{s}-detail", s) for s in SECTIONS]
    pairs += [("home", "home"), ("search", "search"), ("contact", "contact"),
              ("news-detail-sidebar", "news"), ("product-detail-reviews", "products"),
              ("tag", "news"), ("sitemap", "sitemap")]
    if extended:
        pairs += [("campaign", "campaign"), ("info-faq", "info"), ("info-policy", "info"),
                  ("info-team", "info")]
    return pairs


TEMPLATES = tuple(t for t, _s in _templates())


def page(rng: random.Random, n: int, template: str, section: str, extended: bool = False
         ) -> dict[str, Any]:
    """One page of ``template`` with id ``n``."""
    title = _text(rng, 5)
    lang = ""
    if section in MIRRORED and rng.random() < 0.6:
        lang = rng.choice(("en", "ja"))
    if template.endswith("-list"):
        paths = [section] if rng.random() < 0.3 else [section, "page", str(rng.randint(2, 80))]
    elif template.endswith("-detail") or template.endswith("-sidebar") or \
            template.endswith("-reviews"):
        paths = [section, f"{rng.randint(1, 99_999)}"]
        if section == "news":
            paths = ["news", str(rng.randint(2015, 2024)), f"{rng.randint(1, 9999)}"]
    elif template == "home":
        paths = []
    elif template == "tag":
        paths = ["news", "tag", _text(rng, 1)]
    elif section in ("info", "campaign"):
        paths = [section, _slug(_text(rng, 3))]
    else:
        paths = [section]
    if lang:
        paths = [lang, *paths]
    hrefs = ["/css/site.css", f"/css/{section}.css"]
    if extended:
        build = rng.choice(("3f2a", "3f2b", "9c01"))   # a cache-busting query
        hrefs = [f"/css/site.css?v={build}", f"/css/{section}.css?v={build}"]
        if rng.random() < 0.4:
            hrefs.append("https://fonts.googleapis.com/css2?family="
                         + rng.choice(("Inter", "Roboto", "Noto+Sans")))
        if section == "products" and rng.random() < 0.5:
            hrefs.append("https://cdn.reviews-widget.example/v2/widget.css")
        rng.shuffle(hrefs)
    links = "".join(f'<link rel="stylesheet" href="{h}">' for h in hrefs)
    head = (f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
            f"<title>{title}</title>{links}</head>")
    notice = ""
    if rng.random() < NOTICE_SHARE:  # a site notice on some pages: noise, not template
        notice = f'<div class="notice notice-{rng.randint(1, 9)}"><p>{_text(rng, 12)}</p></div>'
    wide = " is-wide" if rng.random() < 0.1 else ""
    body = (f'<body class="page page-{template}">{_chrome_head(rng, section, title)}'
            f'<main id="main" class="content{wide}">{notice}'
            f"{_main(rng, template, section, extended)}"
            f"</main>{_chrome_foot(rng)}</body></html>")
    record: dict[str, Any] = {"id": f"p{n}", "html": head + body, "paths": paths,
                              "host": "example.test"}
    if rng.random() >= 0.02:  # about 2 % of pages come without stylesheet data
        record["stylesheetHrefs"] = [h if h.startswith("https:") else
                                     "http://example.test" + h for h in hrefs] \
            if extended else hrefs
    return record


def site(n: int, seed: int = 1, templates: int | None = None, extended: bool = False
         ) -> Iterator[tuple[dict[str, Any], str]]:
    """``n`` pages in a shuffled order; template sizes follow random weights (some
    templates are common, some rare). ``templates`` limits the site to the first ones;
    ``extended`` adds the hard cases of real sites (module docstring)."""
    rng = random.Random(seed)
    pairs = _templates(extended)
    pairs = pairs[:templates] if templates else pairs
    weights = [rng.uniform(0.2, 3.0) for _ in pairs]
    for i in range(n):
        template, section = rng.choices(pairs, weights)[0]
        yield page(rng, i, template, section, extended), template
