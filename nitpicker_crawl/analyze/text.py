"""The ``text`` plugin: checks of a page's prose that need no network and no model.

Rules (all severity ``warning``: each can be meant, none is certain):

- ``ja-fullwidth-alnum`` — full-width Latin letters or digits (``ＡＢＣ１２３``) where
  Japanese style guides ask for half-width;
- ``ja-halfwidth-kana`` — half-width katakana (``ｶﾀｶﾅ``), which every Japanese style
  guide replaces with full-width;
- ``ja-doubled-punctuation`` — two Japanese punctuation marks in a row (``。。``,
  ``、、``, ``、。``);
- ``en-doubled-word`` — the same English word twice in a row (``the the``), case
  ignored, inside one text node; a word that is part of a hyphenated (or slashed, dotted)
  compound does not count ("module-level level").

Each finding's code is the text around it. Only text a reader sees is read
(:mod:`.prose`).
"""

from __future__ import annotations

import re

from .plugin import Finding, Outcome, Page
from .prose import context, text_nodes

VERSION = "2"

RULES: tuple[tuple[str, re.Pattern[str], str], ...] = (
    ("ja-fullwidth-alnum", re.compile(r"[Ａ-Ｚａ-ｚ０-９]+"),
     "Full-width letters or digits “{0}”: write them half-width"),
    ("ja-halfwidth-kana", re.compile(r"[\uff66-\uff9f]+"),
     "Half-width katakana “{0}”: write them full-width"),
    ("ja-doubled-punctuation", re.compile(r"[、。，．][、。，．]+"),
     "Doubled punctuation “{0}”"),
    # a word that ends or starts a compound ("module-level level", "one-byte byte") is
    # not a doubled word: no hyphen, slash, dot or underscore joined to either
    ("en-doubled-word", re.compile(r"(?<![\w\-/.])([A-Za-z]+)\s+(\1)(?![\w\-/])",
                                   re.IGNORECASE),
     "Doubled word “{0}”"),
)

MAX_PER_RULE = 100
"""Findings of one rule on one page: a page of ten thousand ``ｶﾅ`` says it once a line,
not ten thousand times."""


def check(texts: list[str]) -> list[Finding]:
    """The findings of every rule on these text nodes."""
    findings: list[Finding] = []
    for rule, pattern, message in RULES:
        count = 0
        for text in texts:
            for m in pattern.finditer(text):
                findings.append(Finding("warning", rule, message.format(m.group(0)),
                                        context(text, m.start(), m.end())))
                count += 1
                if count >= MAX_PER_RULE:
                    break
            if count >= MAX_PER_RULE:
                break
    return findings


class TextPlugin:
    name = "text"
    batch = 200
    concurrency = 1
    identity = f"text {VERSION}"

    async def start(self) -> None:
        return None

    async def analyze(self, pages: list[Page]) -> dict[int, Outcome]:
        return {page.id: check(text_nodes(page.html)) for page in pages}

    async def close(self) -> None:
        return None
