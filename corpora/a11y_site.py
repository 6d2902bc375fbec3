#!/usr/bin/env python3
"""A small bilingual web site with seeded accessibility, HTML and text faults, and their truth.

    python corpora/a11y_site.py            # serve it, print the base URL, wait for ^C
    python corpora/a11y_site.py --dump     # self-check, print the truth as JSON, exit
    python corpora/a11y_site.py --notes    # self-check, print the look-alike notes

``Site(seed)`` is a context manager that serves, on a free port of 127.0.0.1, an index page
``/`` linking sixty pages built from seven templates: an English blog post (``/blog/``),
product page (``/shop/``), documentation page (``/docs/``) and contact form
(``/contact/``), and a Japanese (``lang="ja"``) corporate page (``/jp/company/``), news
release (``/jp/news/``) and enquiry form (``/jp/contact/``). Pages link ``/css/site.css``
(fonts and layout only, no colour at all) and show ``/img/pic.png``. Unknown paths are 404.

``truth`` maps each page path to the sorted fault kinds the page contains, exactly (the
index and about a quarter of the pages have none). Everything else on a page is meant to be
valid HTML (WHATWG) and WCAG 2.1 AA. Vocabulary:

``img-no-alt``          an ``<img>`` with no alt attribute (not in a link or button)
``control-no-name``     a visible text input, select or textarea with no label of any kind
``low-contrast``        normal-size text (≤16px, not bold) whose inline colours (style
                        attribute, or a rule of the page's ``<style>`` element) contrast
                        below 3:1 (WCAG formula; background on the element or an ancestor)
``duplicate-id``        two elements with one id
``bad-nesting``         content-model errors the parser keeps: ``<div>`` in ``<ul>``, ``<li>``
                        in ``<div>``, ``<div>`` in ``<span>``, ``<button>`` in ``<a>``,
                        ``<p>`` in ``<dl>``
``unknown-attribute``   a made-up attribute: ``colour``, ``rounded``, ``tooltip``,
                        ``data_id`` (underscore), ``textalign``
``ja-fullwidth-alnum``  Japanese prose with full-width Latin letters or digits (２０２４, ＦＡＱ)
``ja-halfwidth-kana``   Japanese prose with half-width katakana (ｶｽﾀﾏｰ)
``ja-doubled-punct``    Japanese prose with 。。, 、、 or 、。
``en-doubled-word``     English prose with a word repeated ("the the", "is is")

Look-alikes that are NOT faults (``notes`` lists, per page, the ones it carries): the
header logo link's image with alt text (every page); decorative images with ``alt=""``;
images with descriptive alt, a caption, ``loading``/``decoding``; controls named by
``<label for>``, a wrapping ``<label>``, ``aria-label`` or ``aria-labelledby``; hidden
inputs; radio buttons sharing a ``name`` (ids unique); submit buttons with text; inline
colours at ≥7:1; a 28px bold heading at 3.5:1 (passes as large text); a good-contrast rule
in ``<style>``; a dark-on-light footer; in-page links to unique ids; ``data-*``, ``aria-*``,
microdata (``itemscope``/``itemprop``), ``inputmode``, ``enterkeyhint``, ``autocomplete``;
correct full-width Japanese (kanji, katakana, 「」, （）, ！, ：), half-width ASCII digits and
Latin words in Japanese, ``）。``; the same word in adjacent table cells or ending one list
item and starting the next, a word ending one sentence and starting the next, and repeated
words inside ``<code>``/``<pre>`` (``typedef struct node node;``).

``_self_check`` (run by ``--dump``) rescans every page with an independent little scanner
(``html.parser``) and asserts that the faults it finds equal the truth, that each seeded
snippet is present, that the colour pairs have the intended ratios and that every page has a
doctype, lang, title and h1 and is linked from the index. While writing it, every page and
every snippet was also checked by hand with the Nu Html Checker and axe-core 4.12 (WCAG 2.1
A/AA and best practice): what has no fault draws no validator message and no axe violation or
"incomplete" result. Standard library only; deterministic for a given seed (not the port).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import re
import struct
import sys
import threading
import zlib
from collections import Counter
from html.parser import HTMLParser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

KINDS = (
    "img-no-alt", "control-no-name", "low-contrast", "duplicate-id", "bad-nesting",
    "unknown-attribute", "ja-fullwidth-alnum", "ja-halfwidth-kana", "ja-doubled-punct",
    "en-doubled-word",
)
ONLY_IN = {"ja-fullwidth-alnum": "ja", "ja-halfwidth-kana": "ja", "ja-doubled-punct": "ja",
           "en-doubled-word": "en"}
LOW_PAIRS = (("#999999", "#ffffff"), ("#aaaaaa", "#f5f5f5"), ("#c9a227", "#fff8e1"),
             ("#ffffff", "#7ec8e3"), ("#8fa3b8", "#ffffff"))
GOOD_PAIRS = (("#ffffff", "#1f4e79"), ("#1a1a1a", "#f0f4f8"), ("#222222", "#eef6ee"),
              ("#222222", "#f4f4f4"))
LARGE_PAIR = ("#888888", "#ffffff")

# ------------------------------------------------------------------ snippets
# "@kind/lang html" is a seeded fault, "%lang note|html" a look-alike; the HTML goes on over the
# next lines (a line break is just whitespace there). A snippet starting with <style>…</style>
# has that rule moved into the page's <head>.
SNIPPETS = """
@img-no-alt/en <div class="author"><img src="/img/pic.png" width="48" height="48"> <span>Written
by Dana Whitfield, support lead</span></div>
@img-no-alt/en <figure><img src="/img/pic.png" width="320" height="200"></figure>
@img-no-alt/en <p><img src="/img/pic.png" width="120" height="80"> The new loading bay opened in
March.</p>
@img-no-alt/ja <div class="staff"><img src="/img/pic.png" width="64" height="64">
<span>営業部 山田太郎</span></div>
@img-no-alt/ja <figure><img src="/img/pic.png" width="320" height="200"></figure>
@control-no-name/en <form action="/" method="get"><p><input type="search" name="q"> <button
type="submit">Search</button></p></form>
@control-no-name/en <form action="/" method="get"><p>Sort by <select name="sort"><option
value="new">Newest first</option><option value="price">Lowest price</option></select> <button
type="submit">Apply</button></p></form>
@control-no-name/en <form action="/" method="get"><h2>Leave a comment</h2><p><textarea
name="comment" rows="4" cols="40"></textarea></p><p><button type="submit">Post comment</button>
</p></form>
@control-no-name/en <form action="/" method="get"><p>Your email address</p><p><input type="email"
name="email"> <button type="submit">Subscribe</button></p></form>
@control-no-name/ja <form action="/" method="get"><p><input type="text" name="q"> <button
type="submit">サイト内検索</button></p></form>
@control-no-name/ja <form action="/" method="get"><p>並び替え <select name="sort"><option
value="new">新しい順</option><option value="old">古い順</option></select> <button
type="submit">表示</button></p></form>
@control-no-name/ja <form action="/" method="get"><p>ご意見・ご感想</p><p><textarea name="comment"
rows="4" cols="40"></textarea></p><p><button type="submit">送信する</button></p></form>
@low-contrast/en <p style="color:#999999;background-color:#ffffff">Prices include VAT and free
delivery on orders over £40.</p>
@low-contrast/en <style>.muted{color:#aaaaaa;background-color:#f5f5f5;font-size:14px}</style> <p
class="muted">Last reviewed by the documentation team in April.</p>
@low-contrast/en <div class="box" style="background-color:#fff8e1"> <p style="color:#c9a227">Note:
the office is closed on public holidays.</p></div>
@low-contrast/en <p style="color:#ffffff;background-color:#7ec8e3">Free returns within 30 days of
delivery.</p>
@low-contrast/en <p><small style="color:#8fa3b8;background-color:#ffffff">Photos by our own
team.</small></p>
@low-contrast/ja
<p style="color:#999999;background-color:#ffffff">※ 表示価格はすべて税込みです。</p>
@low-contrast/ja <div class="box" style="background-color:#fff8e1"> <p
style="color:#c9a227">受付時間は平日9時から17時までです。</p></div>
@low-contrast/ja <style>.note-ja{color:#aaaaaa;background-color:#f5f5f5}</style> <p
class="note-ja">掲載内容は予告なく変更する場合があります。</p>
@duplicate-id/en <section id="shipping"><h2>Shipping</h2>
<p>We ship to the UK and most of Europe.</p></section>
<section id="shipping"><h2>Returns</h2><p>Unused items can be returned within 30 days.</p>
</section>
@duplicate-id/en <h2 id="faq">Questions</h2><p id="faq-note">Answers to the questions we hear most
often.</p> <p id="faq-note">Still stuck? Our support team can help.</p>
@duplicate-id/en <ol><li id="step-1">Create an account.</li><li id="step-1">Add your first
site.</li> <li id="step-3">Start a crawl.</li></ol>
@duplicate-id/ja <h2 id="access">アクセス</h2><p>最寄り駅から徒歩5分です。</p> <div id="access">
<p>駐車場は10台分ございます。</p></div>
@duplicate-id/ja <ol><li id="flow">お申し込み</li><li id="flow">ご契約</li><li
id="flow-3">納品</li></ol>
@bad-nesting/en <ul class="features"><li>Unlimited projects</li><div class="note">Billed
yearly</div> <li>Priority support</li></ul>
@bad-nesting/en <div class="steps"><li>Download the installer.</li><li>Run it and follow the
prompts.</li> </div>
@bad-nesting/en <div class="label-row"><span class="badge"><div>New</div></span>
<span>Spring collection</span></div>
@bad-nesting/en <p><a href="/"><button type="button">Back to the start page</button></a></p>
@bad-nesting/en <dl><dt>Weight</dt><p>350 g</p></dl>
@bad-nesting/ja <ul><li>部品の設計</li><div>試作と評価</div><li>量産</li></ul>
@bad-nesting/ja <div class="flow"><li>お問い合わせ</li><li>お見積もり</li></div>
@bad-nesting/ja <div><span class="tag"><div>新着</div></span> <span>春の新製品</span></div>
@unknown-attribute/en <div class="banner" colour="blue"><p>Spring sale: 20% off all kitchenware
this week.</p></div>
@unknown-attribute/en <p><img src="/img/pic.png" alt="Our workshop by the harbour" width="240"
height="160" rounded></p>
@unknown-attribute/en <p><button type="button" tooltip="Copy the link to this page">
Copy link</button></p>
@unknown-attribute/en <p data_id="1042">Reference number 1042 applies to all orders placed this
month.</p>
@unknown-attribute/en <p textalign="center">Thank you for shopping with us.</p>
@unknown-attribute/ja <div class="banner" colour="red"><p>期間限定キャンペーンを実施中です。</p>
</div>
@unknown-attribute/ja <p><img src="/img/pic.png" alt="本社の外観" width="240" height="160"
rounded></p>
@unknown-attribute/ja <p data_id="77">お問い合わせ番号は受付完了メールに記載しています。</p>
@ja-fullwidth-alnum/ja <p>２０２４年４月１日より、新しい料金プランを導入いたします。</p>
@ja-fullwidth-alnum/ja <p>詳しくはＦＡＱページをご確認ください。</p>
@ja-fullwidth-alnum/ja <p>資料はＰＤＦ形式でダウンロードできます。</p>
@ja-fullwidth-alnum/ja <p>お電話での受付は平日１０時から１７時までです。</p>
@ja-halfwidth-kana/ja <p>ｶｽﾀﾏｰｻﾎﾟｰﾄは平日のみの対応となります。</p>
@ja-halfwidth-kana/ja <p>新しいｻｰﾋﾞｽの詳細は、下記をご覧ください。</p>
@ja-halfwidth-kana/ja <p>ｵﾝﾗｲﾝｼｮｯﾌﾟでも同じ商品をお求めいただけます。</p>
@ja-doubled-punct/ja <p>ご理解のほど、よろしくお願いいたします。。</p>
@ja-doubled-punct/ja <p>当社は東京、、大阪、名古屋に拠点を構えています。</p>
@ja-doubled-punct/ja <p>詳細は決まり次第お知らせします、。</p>
@ja-doubled-punct/ja <p>皆さまのご来場をお待ちしております。。</p>
@en-doubled-word/en <p>Before you start, make sure the the account has admin rights.</p>
@en-doubled-word/en <p>Our team is is based in Bristol and Porto, and we meet in person twice a
year.</p>
@en-doubled-word/en <p>Orders placed before noon usually leave the same day, and and tracking
details follow by email.</p>
@en-doubled-word/en <p>If the crawl stops early, check that the start address is
reachable from from the server.</p>
@en-doubled-word/en <p>We would love to hear from you if you you have questions about wholesale
prices.</p>
%en decorative image with alt=""|<div class="divider"><img src="/img/pic.png" alt="" width="600"
height="6"></div>
%en image with descriptive alt, a caption, loading=lazy and decoding=async|<figure><img
src="/img/pic.png" alt="Two people packing orders at a long wooden bench" width="320" height="200"
loading="lazy" decoding="async"> <figcaption>Packing day at the workshop.</figcaption></figure>
%en input named by a wrapping <label>; hidden input; submit button with text|<form action="/"
method="get"><h2>Newsletter</h2><p><label>Email address <input type="email" name="newsletter"
autocomplete="email"></label></p><input type="hidden" name="source" value="article"><p><button
type="submit">Sign up</button></p></form>
%en search input named by aria-label (with enterkeyhint)|<form action="/" method="get"
role="search"><p><input type="search" name="query" aria-label="Search the site"
enterkeyhint="search"> <button type="submit">Search</button></p></form>
%en number input named by aria-labelledby|<form action="/" method="get"><h2
id="qty-heading">Quantity</h2><p><input type="number" name="quantity" value="1" min="1" max="20"
aria-labelledby="qty-heading"> <button type="submit">Update basket</button></p></form>
%en select named by <label for>|<form action="/" method="get"><p><label
for="currency">Currency</label> <select id="currency" name="currency"><option value="gbp">Pounds
sterling</option><option value="eur">Euro</option> </select> <button type="submit">Change</button>
</p></form>
%en radio buttons sharing one name, each labelled, ids unique|<form action="/" method="get">
<fieldset><legend>Delivery speed</legend><p><input type="radio" id="ship-std" name="speed"
value="standard" checked> <label for="ship-std">Standard</label></p> <p><input type="radio"
id="ship-exp" name="speed" value="express"> <label for="ship-exp">Express</label></p></fieldset>
<p><button type="submit">Save</button></p></form>
%en inline colours at ≥7:1 (white on dark blue, background on the ancestor)|<div class="box"
style="color:#ffffff;background-color:#1f4e79"> <p>Orders placed before 2pm ship the same day.</p>
</div>
%en inline colours at ≥7:1 (near-black on pale grey)|<p
style="color:#1a1a1a;background-color:#f0f4f8">Need help choosing? Our team answers every message
personally.</p>
%en 28px bold heading at 3.5:1 (passes the large-text threshold)|<h2
style="font-size:28px;font-weight:700;color:#888888;background-color:#ffffff">What customers say
</h2><p>Over four hundred reviews, most of them kind.</p>
%en <style> rule with good contrast|
<style>.callout{color:#222222;background-color:#eef6ee}</style>
<p class="callout">Tip: you can pause a scheduled crawl at any time.</p>
%en data-* and aria-* attributes|<ul class="stats" data-source="quarterly-report"
aria-describedby="stats-note"> <li data-value="99.9">Uptime: 99.9%</li><li data-value="1.2">Median
response: 1.2 seconds</li> </ul><p id="stats-note">Figures cover January to March.</p>
%en same word in adjacent table cells ("Yes", "Yes")|<table><caption>Plan comparison</caption>
<thead><tr><th scope="col">Feature</th> <th scope="col">Basic</th><th scope="col">Pro</th></tr>
</thead><tbody> <tr><th scope="row">Email support</th><td>Yes</td><td>Yes</td></tr> <tr><th
scope="row">Phone support</th><td>No</td><td>Yes</td></tr></tbody></table>
%en same word ending one list item and starting the next ("News")|
<h2>Sections</h2><ul><li>Company News</li><li>News archive</li><li>Press kit</li></ul>
%en repeated word inside <pre><code> (typedef struct node node;)|
<pre><code>typedef struct node node;
struct node { int value; node *next; };</code></pre>
%en repeated word inside inline <code> (web web:latest)|<p>Start a container with <code>docker run
--name web web:latest</code> and open port 8080 in a browser.</p>
%en word ending one sentence and starting the next ("release. Release")|<p>Every build is tested
before release. Release notes are published each Friday.</p>
%en in-page link to a unique id|<p><a href="#contact-details">Jump to contact details</a></p> <h2
id="contact-details">Contact details</h2> <p>Write to hello@harbourhill.example or call us
on 0117 496 0000.</p>
%ja decorative image with alt=""|<div class="divider"><img src="/img/pic.png" alt="" width="600"
height="6"></div>
%ja image with Japanese alt text and a caption|<figure><img src="/img/pic.png"
alt="工場の組立ラインで作業する社員" width="320" height="200" loading="lazy">
<figcaption>静岡工場の組立ライン</figcaption></figure>
%ja input named by a wrapping <label>; hidden input; submit button with text|<form action="/"
method="get"><h2>メールマガジン</h2><p><label>メールアドレス <input type="email" name="mail"
autocomplete="email"></label></p><input type="hidden" name="from" value="jp"><p><button
type="submit">登録する</button></p></form>
%ja search input named by aria-label|<form action="/" method="get" role="search"><p><input
type="search" name="kw" aria-label="サイト内検索"> <button type="submit">検索</button></p></form>
%ja select named by <label for>|<form action="/" method="get"><p><label
for="pref">都道府県</label> <select id="pref" name="pref"><option value="13">東京都</option>
<option value="14">神奈川県</option><option value="27">大阪府</option></select> <button
type="submit">絞り込む</button></p></form>
%ja radio buttons sharing one name, each labelled, ids unique|<form action="/" method="get">
<fieldset><legend>ご連絡方法</legend><p><input type="radio" id="via-mail" name="via" value="mail"
checked> <label for="via-mail">メール</label></p> <p><input type="radio" id="via-tel" name="via"
value="tel"> <label for="via-tel">電話</label></p></fieldset><p><button
type="submit">保存</button></p></form>
%ja inline colours at ≥7:1 (white on dark blue, background on the ancestor)|<div class="box"
style="color:#ffffff;background-color:#1f4e79"> <p>お急ぎの方はお電話でもご相談を承ります。</p>
</div>
%ja 28px bold heading at 3.5:1 (passes the large-text threshold)|<h2
style="font-size:28px;font-weight:700;color:#888888;background-color:#ffffff">お客さまの声</h2>
<p>導入いただいたお客さまから多くの声をいただいています。</p>
%ja correct full-width Japanese (kanji, katakana, 「」, （）, ！)|
<p>新シリーズ「みなとライト」（税込3,300円）を発売しました！ぜひ店頭でお試しください。</p>
%ja half-width ASCII digits and Latin letters in Japanese prose (correct)|
<p>2024年10月より、Webサイトから見積もりを依頼できるようになりました。</p>
%ja closing parenthesis followed by 。 (not doubled punctuation)|
<p>本社は横浜市にあります（最寄り駅は関内駅）。</p>
%ja data-* and aria-* attributes; full-width colon ：|<ul class="stats"
data-source="annual-report" aria-describedby="stats-ja"> <li data-value="420">社員数：約420名</li>
<li data-value="3">工場：3か所</li></ul> <p id="stats-ja">2024年3月末時点の数値です。</p>
%ja same word in adjacent table cells ("対応", "対応")|<table><caption>対応サービス</caption>
<thead><tr><th scope="col">サービス</th> <th scope="col">法人</th><th scope="col">個人</th></tr>
</thead><tbody> <tr><th scope="row">出張修理</th><td>対応</td><td>対応</td></tr> <tr><th
scope="row">部品販売</th><td>対応</td><td>なし</td></tr></tbody></table>
"""


def _snippets() -> tuple[dict[str, dict[str, list[str]]], dict[str, list[tuple[str, str]]]]:
    faults: dict[str, dict[str, list[str]]] = {}
    looks: dict[str, list[tuple[str, str]]] = {}
    for rec in re.split(r"\n(?=[@%])", SNIPPETS.strip()):
        if rec[0] == "@":
            head, html = re.split(r"\s", rec, maxsplit=1)
            kind, lang = head[1:].split("/")
            faults.setdefault(kind, {}).setdefault(lang, []).append(html.strip())
        else:
            head, html = rec.split("|", 1)
            looks.setdefault(head[1:3], []).append((head[4:], html.strip()))
    return faults, looks


FAULTS, LOOKALIKES = _snippets()

# ------------------------------------------------------------------ templates and content
EN_PARAS = (
    "We spent most of the last quarter listening to customers and reading support tickets. "
    "The pattern was clear: people wanted fewer surprises and better explanations.",
    "Every change goes through a short review and an automated test run. Nothing reaches "
    "customers without a second pair of eyes.",
    "The new version is faster on large sites and uses less memory, which matters most on "
    "shared hosting.",
    "If something looks wrong, write to us and include the page address. We usually reply "
    "within one working day.",
    "Our workshop is in a converted boat shed near the harbour, and visitors are welcome on "
    "Saturdays.",
    "Each item is checked by hand before it is wrapped in recycled paper and sent with a "
    "tracked courier.",
    "Settings can be changed at any time from the dashboard. Changes apply to the next "
    "scheduled run.",
    "Most teams start with the default limits and adjust them after their first full report.",
    "Accessibility is part of our definition of done, not a separate project at the end.",
)
JA_PARAS = (
    "当社は1987年の創業以来、精密部品の設計と製造を通じて、お客さまのものづくりを支えてまいりました。",
    "現在は国内に三つの工場を持ち、約420名の社員が働いています。",
    "品質と安全を第一に考え、すべての製品について出荷前の検査を行っています。",
    "今後も地域社会とともに成長し、持続可能な社会の実現に貢献してまいります。",
    "このたび、当社ウェブサイトの一部ページを更新いたしました。",
    "ご不明な点がございましたら、お問い合わせフォームよりご連絡ください。",
    "営業時間は平日9時から18時まで、土日祝日は休業となります。",
    "新しいカタログでは、従来品に加えて環境に配慮した素材の製品をご紹介しています。",
)
CODE = ("nitpick crawl https://www.example.com/ --max-pages 500",
        "nitpick export --format csv --output report.csv", "nitpick schedule add --every 7d",
        "pip install nitpick-cli")
AUTHORS = ("Dana Whitfield", "Sam Okafor", "Priya Raman", "Tom Ellery")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")


def _titles(text: str) -> list[tuple[str, str]]:
    """``slug|title; slug|title`` → pairs."""
    return [(a, b) for a, b in (t.split("|") for t in re.split(r"\s*[;\n]\s*", text.strip()))]


TEMPLATES: dict[str, tuple[str, str, list[tuple[str, str]]]] = {  # lang, prefix, pages
    "blog": ("en", "/blog/", _titles("""
remote-year|Five lessons from our first year of remote work
one-machine|Why we moved our build to a single machine
calm-releases|A slower, calmer release cycle; support-inbox|What our support inbox taught us
spring-planning|Notes from the spring planning week; release-notes|How we write release notes
typefaces|Choosing a typeface for long reading; defaults|The quiet value of good defaults
on-call|Our approach to on-call rotations""")),
    "shop": ("en", "/shop/", _titles("""
coffee-mug|Stoneware coffee mug; tea-towels|Linen tea towel set
desk-organiser|Walnut desk organiser; wool-throw|Wool throw blanket
camping-kettle|Enamel camping kettle; tote-bag|Canvas tote bag; food-wraps|Beeswax food wraps
skillet|Cast iron skillet; plant-pot|Ceramic plant pot""")),
    "docs": ("en", "/docs/", _titles("""
install|Installing the command-line tool; crawl-limits|Configuring crawl limits
tokens|Authentication tokens; export-csv|Exporting reports to CSV
scheduling|Scheduling recurring audits; sitemaps|Working with sitemaps; proxy|Proxy settings
upgrading|Upgrading from version 2; timeouts|Troubleshooting timeouts""")),
    "contact": ("en", "/contact/", _titles("""
sales|Contact our sales team; quote|Request a quote; demo|Book a demo
problem|Report a problem; wholesale|Apply for a wholesale account; returns|Return an item
events|Event registration; feedback|Give feedback; address|Change your delivery address""")),
    "jp-company": ("ja", "/jp/company/", _titles("""
profile|会社概要; message|代表挨拶; history|沿革; business|事業内容; recruit|採用情報
access|アクセス; sustainability|サステナビリティ; quality|品質への取り組み""")),
    "jp-news": ("ja", "/jp/news/", _titles("""
new-product|新製品発売のお知らせ; new-year|年末年始休業のお知らせ
office-move|本社移転のお知らせ; exhibition|展示会出展のご案内
maintenance|システムメンテナンスのお知らせ; price|価格改定のお知らせ
summer|夏季休業のお知らせ; seminar|セミナー開催のご案内""")),
    "jp-contact": ("ja", "/jp/contact/", _titles("""
inquiry|お問い合わせ; catalog|資料請求; estimate|見積もり依頼; entry|採用エントリー
seminar|セミナー申し込み; press|取材のお申し込み; repair|修理の受付; member|会員登録""")),
}
FORM_EN = (
    '<form action="/" method="get"><p><label for="name">Full name</label> <input id="name" '
    'type="text" name="name" autocomplete="name" required></p><p><label for="email">Email'
    '</label> <input id="email" type="email" name="email" autocomplete="email" required></p>'
    '<p><label for="message">Message</label> <textarea id="message" name="message" rows="5" '
    'cols="40"></textarea></p><p><button type="submit">Send message</button></p></form>'
)
FORM_JA = (
    '<form action="/" method="get"><p><label for="name">お名前</label> <input id="name" '
    'type="text" name="name" autocomplete="name" required></p><p><label for="email">メール'
    'アドレス</label> <input id="email" type="email" name="email" autocomplete="email" '
    'required></p><p><label for="zip">郵便番号</label> <input id="zip" type="text" name="zip" '
    'inputmode="numeric" autocomplete="postal-code"></p><p><label for="message">お問い合わせ'
    '内容</label> <textarea id="message" name="message" rows="5" cols="40"></textarea></p>'
    '<p><button type="submit">送信する</button></p></form>'
)
TEMPLATE_NOTES = {
    "shop": ["product image with alt text; microdata itemscope/itemtype/itemprop"],
    "docs": ["command in <pre><code>; second nav landmark with its own aria-label"],
    "contact": ["form controls named by <label for>; autocomplete, required"],
    "jp-company": ["table of company facts with row headers; footer with inline colours "
                   "#222222 on #f4f4f4 (≥7:1)"],
    "jp-contact": ["form controls named by <label for>; inputmode=numeric, autocomplete"],
}


def _main_html(tpl: str, r: random.Random, title: str, blocks: str, related: str) -> str:
    """The inside of ``<main>`` for one template."""
    if TEMPLATES[tpl][0] == "ja":
        p0, p1 = r.sample(JA_PARAS, 2)
    else:
        p0, p1 = r.sample(EN_PARAS, 2)
    month, day = r.randint(1, 12), r.randint(1, 28)
    if tpl == "blog":
        return (f'<article class="post"><h1>{title}</h1><p class="meta">Posted on <time '
                f'datetime="2024-{month:02d}-{day:02d}">{day} {MONTHS[month - 1]} 2024</time> '
                f"by {r.choice(AUTHORS)}</p><p>{p0}</p>{blocks}<p>{p1}</p>"
                f"<h2>Related posts</h2><ul>{related}</ul></article>")
    if tpl == "shop":
        return (f'<h1>{title}</h1><div class="product" itemscope itemtype="https://schema.org/'
                f'Product"><p><img src="/img/pic.png" alt="{title}, shown from the front" '
                f'width="320" height="240"></p><p><span itemprop="name">{title}</span>, '
                f"£{r.randint(8, 90)}</p><p itemprop=\"description\">{p0}</p></div>{blocks}"
                f"<h2>You may also like</h2><ul>{related}</ul>")
    if tpl == "docs":
        return (f"<h1>{title}</h1><p>{p0}</p><pre><code>{r.choice(CODE)}</code></pre>{blocks}"
                f"<p>{p1}</p><nav aria-label=\"More documentation\"><h2>More documentation"
                f"</h2><ul>{related}</ul></nav>")
    if tpl == "contact":
        return f"<h1>{title}</h1><p>{p0}</p>{FORM_EN}{blocks}"
    if tpl == "jp-company":
        return (f'<h1>{title}</h1><p>{p0}</p><table><caption>会社データ</caption><tbody><tr><th '
                'scope="row">社名</th><td>株式会社みなと製作所</td></tr><tr><th scope="row">設立'
                '</th><td>1987年4月</td></tr><tr><th scope="row">所在地</th><td>神奈川県横浜市'
                f"中区</td></tr></tbody></table>{blocks}<p>{p1}</p>")
    if tpl == "jp-news":
        return (f'<article><h1>{title}</h1><p><time datetime="2024-{month:02d}-{day:02d}">2024年'
                f"{month}月{day}日</time></p><p>{p0}</p>{blocks}<p>{p1}</p><p>以上</p></article>")
    return f"<h1>{title}</h1><p>{p0}</p>{FORM_JA}{blocks}"


def _document(lang: str, title: str, main: str, css: str, nav: list[tuple[str, str, str]],
              path: str, footer_style: str = "") -> str:
    ja = lang == "ja"
    current, other = ' aria-current="page"', f' lang="{"en" if ja else "ja"}"'
    items = "".join(
        f'<li><a href="{href}"{current if href == path else ""}{other if ln != lang else ""}>'
        f"{text}</a></li>"
        for href, text, ln in nav
    )
    brand = "みなと製作所 ホーム" if ja else "Harbour &amp; Hill home"
    owner = "株式会社みなと製作所" if ja else "Harbour &amp; Hill Ltd"
    site = "みなと製作所" if ja else "Harbour &amp; Hill"
    style = f"<style>{css}</style>\n" if css else ""
    fstyle = f' style="{footer_style}"' if footer_style else ""
    return (
        f'<!doctype html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<title>{title} | {site}</title>\n<link rel="stylesheet" href="/css/site.css">\n{style}'
        f'</head>\n<body>\n<header class="site-header"><a class="brand" href="/"><img '
        f'src="/img/pic.png" alt="{brand}" width="32" height="32"></a>\n<nav aria-label='
        f'"{"メイン" if ja else "Main"}"><ul>{items}</ul></nav></header>\n<main id="content">\n'
        f'{main}\n</main>\n<footer class="site-footer"{fstyle}><p>© 2024 {owner}</p></footer>\n'
        "</body>\n</html>\n"
    )


# ------------------------------------------------------------------ the independent scanner
KNOWN_ATTRS = frozenset({
    "action", "alt", "autocomplete", "charset", "checked", "class", "cols", "colspan", "content",
    "datetime", "decoding", "enterkeyhint", "for", "height", "href", "id", "inputmode", "itemprop",
    "itemscope", "itemtype", "lang", "loading", "max", "method", "min", "name", "rel", "required",
    "role", "rows", "scope", "src", "style", "title", "type", "value", "width",
})
PHRASING_ONLY = frozenset({"span", "em", "strong", "small", "b", "i", "code", "label", "button",
                           "time", "p"})
FLOW_ONLY = frozenset({
    "div", "p", "ul", "ol", "dl", "table", "section", "article", "aside", "nav", "header",
    "footer", "h1", "h2", "h3", "h4", "h5", "h6", "form", "figure", "pre", "blockquote",
    "fieldset",
})
INLINE = frozenset({
    "a", "span", "em", "strong", "small", "b", "i", "code", "time", "label", "abbr", "q", "cite",
    "img", "input",
})
VOID = frozenset({"meta", "link", "img", "input", "br", "hr"})
HEADING_PX = {"h1": 32.0, "h2": 24.0, "h3": 18.72}


def _luminance(colour: str) -> float:
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(int(colour[i:i + 2], 16) / 255) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(fg: str, bg: str) -> float:
    hi, lo = sorted((_luminance(fg), _luminance(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _decls(text: str) -> dict[str, str]:
    pairs = (d.split(":", 1) for d in text.split(";") if ":" in d)
    return {k.strip(): v.strip() for k, v in pairs}


class _Scan(HTMLParser):
    """Finds the fault kinds of one page the simple way; the page must be well formed."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        root = {"tag": "#root", "fg": "#000000", "bg": "#ffffff", "px": 16.0, "bold": False,
                "skip": False}
        self.stack: list[dict[str, Any]] = [root]
        self.found: set[str] = set()
        self.ids: Counter[str] = Counter()
        self.label_for: set[str] = set()
        self.controls: list[tuple[str | None, bool]] = []
        self.rules: dict[str, dict[str, str]] = {}
        self.chunks: list[str] = []
        self.buf: list[str] = []

    def flush(self) -> None:
        if "".join(self.buf).strip():
            self.chunks.append("".join(self.buf))
        self.buf = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        up = self.stack[-1]
        above = {e["tag"] for e in self.stack}
        if any(k not in KNOWN_ATTRS and not k.startswith(("data-", "aria-")) for k in a):
            self.found.add("unknown-attribute")
        if a.get("id"):
            self.ids[a["id"] or ""] += 1
        if tag == "img" and "alt" not in a:
            self.found.add("img-no-alt")
        if ((up["tag"] in ("ul", "ol") and tag != "li")
                or (tag == "li" and up["tag"] not in ("ul", "ol"))
                or (up["tag"] == "dl" and tag not in ("dt", "dd", "div"))
                or (tag in FLOW_ONLY and above & PHRASING_ONLY)
                or (tag in ("a", "button", "select", "textarea") and above & {"a", "button"})):
            self.found.add("bad-nesting")
        if tag == "label" and a.get("for"):
            self.label_for.add(a["for"] or "")
        if tag in ("select", "textarea") or (
                tag == "input" and a.get("type") not in ("hidden", "submit", "button", "image")):
            named = "label" in above or bool({"aria-label", "aria-labelledby", "title"} & set(a))
            self.controls.append((a.get("id"), named))
        if tag not in INLINE:
            self.flush()
        d = {k: v for c in (a.get("class") or "").split() for k, v in self.rules.get(c, {}).items()}
        d.update(_decls(a.get("style") or ""))
        size = d.get("font-size", "")
        weight = d.get("font-weight")
        bold = (weight in ("700", "bold") if weight
                else up["bold"] or tag in ("h1", "h2", "h3", "th", "strong", "b"))
        el = {"tag": tag, "fg": d.get("color", up["fg"]), "bg": d.get("background-color", up["bg"]),
              "px": float(size[:-2]) if size.endswith("px") else HEADING_PX.get(tag, up["px"]),
              "bold": bold, "skip": up["skip"] or tag in ("code", "pre", "script", "style")}
        if tag not in VOID:
            self.stack.append(el)

    def handle_endtag(self, tag: str) -> None:
        if tag not in INLINE:
            self.flush()
        if self.stack[-1]["tag"] != tag:
            raise AssertionError(f"</{tag}> closes <{self.stack[-1]['tag']}>")
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        top = self.stack[-1]
        if top["tag"] == "style":
            for cls, body in re.findall(r"\.([\w-]+)\s*\{([^}]*)\}", data):
                self.rules[cls] = _decls(body)
        if top["skip"] or not data.strip():
            return
        self.buf.append(data)
        large = top["px"] >= 24 or (top["bold"] and top["px"] >= 18.66)
        if contrast(top["fg"], top["bg"]) < (3.0 if large else 4.5):
            self.found.add("low-contrast")

    def result(self) -> set[str]:
        self.flush()
        if len(self.stack) != 1:
            raise AssertionError("unclosed elements")
        if any(n > 1 for n in self.ids.values()):
            self.found.add("duplicate-id")
        if any(not named and (i is None or i not in self.label_for) for i, named in self.controls):
            self.found.add("control-no-name")
        for text in self.chunks:
            for kind, pattern in TEXT_FAULTS:
                if pattern.search(text):
                    self.found.add(kind)
        return self.found


TEXT_FAULTS = (
    ("ja-fullwidth-alnum", re.compile("[０-９Ａ-Ｚａ-ｚ]")),
    ("ja-halfwidth-kana", re.compile("[\uff61-\uff9f]")),
    ("ja-doubled-punct", re.compile("[、。][、。]")),
    ("en-doubled-word", re.compile(r"\b([A-Za-z]+)\s+\1\b", re.IGNORECASE)),
)


def scan(html: str) -> set[str]:
    """Fault kinds found in one page by the module's own simple scanner."""
    s = _Scan()
    s.feed(html)
    s.close()
    return s.result()


# ------------------------------------------------------------------ building the site
SITE_CSS = b"""body { font-family: "Helvetica Neue", Arial, "Hiragino Sans", "Noto Sans JP",
  sans-serif; line-height: 1.6; max-width: 46rem; margin: 0 auto; padding: 0 1rem; }
.site-header, .site-footer { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center;
  padding: 1rem 0; }
nav ul { list-style: none; display: flex; flex-wrap: wrap; gap: 1rem; margin: 0; padding: 0; }
.box, .banner, .callout { padding: 0.75rem 1rem; margin: 1rem 0; }
table { border-collapse: collapse; margin: 1rem 0; }
th, td { padding: 0.25rem 0.75rem; text-align: left; vertical-align: top; }
pre { white-space: pre-wrap; }
img { max-width: 100%; height: auto; }
"""


def _png() -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data)))

    raw = (b"\x00" + bytes((70, 120, 160)) * 4) * 4
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 4, 4, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


class Site:
    """The site, served on 127.0.0.1 while the context is open; see the module docstring."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.url = ""
        self.truth: dict[str, list[str]] = {}
        self.notes: dict[str, list[str]] = {}
        self.seeded: dict[str, list[str]] = {}  # path → fault snippets inserted (HTML part)
        self.pages: dict[str, str] = {}
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._build(random.Random(seed))

    def _build(self, r: random.Random) -> None:
        plan: list[tuple[str, str, str]] = []  # path, template, title
        for tpl, (_lang, prefix, titles) in TEMPLATES.items():
            plan += [(f"{prefix}{slug}/", tpl, title) for slug, title in titles]
        order = list(range(len(plan)))
        r.shuffle(order)
        faults: dict[str, list[str]] = {}
        counts: Counter[str] = Counter()  # per kind, and per (kind, language)
        for n, i in enumerate(order):
            path, tpl, _ = plan[i]
            lang = TEMPLATES[tpl][0]
            allowed = [k for k in KINDS if ONLY_IN.get(k, lang) == lang]
            k = 0 if n < 15 else r.choice((1, 1, 2, 2, 3))
            key = {x: (counts[x] + 2 * counts[f"{x}/{lang}"], r.random()) for x in allowed}
            faults[path] = sorted(allowed, key=key.__getitem__)[:k]
            counts.update(faults[path] + [f"{x}/{lang}" for x in faults[path]])
        first = {tpl: f"{p}{t[0][0]}/" for tpl, (_l, p, t) in TEMPLATES.items()}
        nav = {"en": [("/", "Home", "en"), (first["blog"], "Blog", "en"),
                      (first["shop"], "Shop", "en"), (first["docs"], "Docs", "en"),
                      (first["contact"], "Contact", "en"), (first["jp-company"], "日本語", "ja")],
               "ja": [("/", "ホーム", "ja"), (first["jp-company"], "会社情報", "ja"),
                      (first["jp-news"], "ニュース", "ja"),
                      (first["jp-contact"], "お問い合わせ", "ja"),
                      (first["blog"], "English", "en")]}
        for path, tpl, title in plan:
            lang = TEMPLATES[tpl][0]
            chosen = [r.choice(FAULTS[k][lang]) for k in faults[path]]
            looks = r.sample(LOOKALIKES[lang], r.randint(4, 6) if not faults[path] else
                             r.randint(2, 4))
            blocks = chosen + [snippet for _, snippet in looks]
            r.shuffle(blocks)
            css, body = [], []
            for b in blocks:
                m = re.match(r"<style>(.*?)</style>", b)
                css += [m.group(1)] if m else []
                body.append(b[m.end():] if m else b)
            siblings = [(p, t) for p, tp, t in plan if tp == tpl and p != path]
            related = "".join(f'<li><a href="{p}">{t}</a></li>' for p, t in r.sample(siblings, 3))
            main = _main_html(tpl, r, title, "\n" + "\n".join(body) + "\n", related)
            footer = "background-color:#f4f4f4;color:#222222" if tpl == "jp-company" else ""
            self.pages[path] = _document(lang, title, main, "".join(css), nav[lang], path, footer)
            self.truth[path] = sorted(faults[path])
            self.seeded[path] = [re.sub(r"^<style>.*?</style>", "", s) for s in chosen]
            self.notes[path] = ["header logo link: image with alt text",
                                *TEMPLATE_NOTES.get(tpl, []), *sorted(n for n, _ in looks)]
        sections = []
        for tpl, (lang, _p, _t) in TEMPLATES.items():
            attr = ' lang="ja"' if lang == "ja" else ""
            links = "".join(f'<li><a href="{p}">{t}</a></li>' for p, tp, t in plan if tp == tpl)
            sections.append(f'<section><h2>{tpl.replace("-", " ").title()}</h2><ul{attr}>'
                            f"{links}</ul></section>")
        index = (f"<h1>Site index</h1><p>Every page of the site, by section.</p>"
                 f"{''.join(sections)}")
        self.pages["/"] = _document("en", "Site index", index, "", nav["en"], "/")
        self.truth["/"] = []
        self.notes["/"] = ["header logo link: image with alt text",
                           "links to every page; Japanese titles in a list with lang=ja"]
        self.truth = dict(sorted(self.truth.items()))

    def __enter__(self) -> Site:
        routes = {p: ("text/html; charset=utf-8", h.encode()) for p, h in self.pages.items()}
        routes["/css/site.css"] = ("text/css; charset=utf-8", SITE_CSS)
        routes["/img/pic.png"] = ("image/png", _png())

        class Handler(BaseHTTPRequestHandler):
            def _answer(self, body: bool) -> None:
                found = routes.get(urlsplit(self.path).path)
                ctype, data = found or ("text/html; charset=utf-8", NOT_FOUND)
                self.send_response(200 if found else 404)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                if body:
                    self.wfile.write(data)

            def do_GET(self) -> None:
                self._answer(True)

            def do_HEAD(self) -> None:
                self._answer(False)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join()


NOT_FOUND = (
    b'<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Not found</title>'
    b"</head><body><main><h1>Not found</h1><p><a href=\"/\">Site index</a></p></main></body>"
    b"</html>\n"
)


def _self_check(seed: int = 0) -> Site:
    """Assert that the truth is exact (see the module docstring); return the built site."""
    site = Site(seed)
    for fg, bg in LOW_PAIRS:
        assert contrast(fg, bg) <= 3.0, (fg, bg, contrast(fg, bg))
    for fg, bg in GOOD_PAIRS:
        assert contrast(fg, bg) >= 7.0, (fg, bg, contrast(fg, bg))
    assert 3.0 <= contrast(*LARGE_PAIR) < 4.5, contrast(*LARGE_PAIR)
    for path, html in site.pages.items():
        assert html.startswith("<!doctype html>\n<html lang=\""), path
        assert html.count("<style") <= 1 and html.find("<style") < html.find("</head>"), path
        for needle in ("<title>", "<h1>", "<main", 'charset="utf-8"'):
            assert needle in html, (path, needle)
        for snippet in site.seeded.get(path, []):
            assert snippet in html, (path, snippet)
        found = sorted(scan(html))
        assert found == site.truth[path], (path, found, site.truth[path])
    linked = set(re.findall(r'<a href="(/[^"#]*)"', site.pages["/"]))
    assert linked == set(site.pages), set(site.pages) ^ linked
    per_kind = Counter(k for kinds in site.truth.values() for k in kinds)
    assert all(per_kind[k] >= 4 for k in KINDS), per_kind
    return site


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--dump", action="store_true", help="print the truth as JSON and exit")
    parser.add_argument("--notes", action="store_true", help="print the look-alike notes")
    args = parser.parse_args()
    if args.dump or args.notes:
        site = _self_check(args.seed)
        out = site.truth if args.dump else site.notes
        try:
            json.dump(out, sys.stdout, ensure_ascii=False, indent=1, sort_keys=True)
            sys.stdout.write("\n")
            sys.stdout.flush()
        except BrokenPipeError:
            sys.stderr.close()  # e.g. piped into head
        return
    with Site(args.seed) as site:
        print(site.url, flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            threading.Event().wait()


if __name__ == "__main__":
    main()
