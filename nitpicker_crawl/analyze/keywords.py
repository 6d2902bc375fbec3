"""The ``search-keywords`` plugin (``--search-keywords a,b``): which pages contain each
keyword, how often, and where.

A page gets one finding per keyword it contains (severity ``info``, rule the keyword as
given, message ``“kw”: N occurrences``, code the text around the first). Matching is on
the visible text (:mod:`.prose`), case-insensitive and width-insensitive (NFKC: ``ＡＢＣ``
finds ``abc``, ``ｶﾅ`` finds ``カナ``).
"""

from __future__ import annotations

import unicodedata

from .plugin import Finding, Outcome, Page
from .prose import context, text_nodes

VERSION = "1"


def fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


class KeywordsPlugin:
    name = "search-keywords"
    batch = 200
    concurrency = 1

    def __init__(self, keywords: list[str]) -> None:
        self.keywords = [k for k in dict.fromkeys(k.strip() for k in keywords) if fold(k)]
        self._folded = [(k, fold(k)) for k in self.keywords]

    @property
    def identity(self) -> str:
        return f"search-keywords {VERSION} " + ",".join(self.keywords)

    async def start(self) -> None:
        return None

    def check(self, html: str) -> list[Finding]:
        shown = " ".join(" ".join(t.split()) for t in text_nodes(html))
        text = fold(shown)
        if len(text) != len(shown):  # folding changed lengths: offsets are the folded text's
            shown = text
        findings = []
        for keyword, folded in self._folded:
            count = text.count(folded)
            if count:
                first = text.find(folded)
                findings.append(Finding(
                    "info", keyword,
                    f"“{keyword}”: {count} occurrence{'s' if count != 1 else ''}",
                    context(shown, first, first + len(folded))))
        return findings

    async def analyze(self, pages: list[Page]) -> dict[int, Outcome]:
        return {page.id: self.check(page.html) for page in pages}

    async def close(self) -> None:
        return None
