"""TrapZoo's families that only content tells apart (soft cap, third generation).

Their meta says "legit" or says nothing useful; what the pages *contain* decides:

=========================  ==========================================  =============
family                     URLs                                        size
=========================  ==========================================  =============
pager past its end         /shelf/?page=N: 8 real pages of books, then  8 + infinite
                           page 8's books again under "Bookshelf -
                           Page N", rel=prev/next, self canonical
share variants             /news/<slug>?ref=<id>&utm_source=…: the      40 + infinite
                           article itself, canonical and og:url naming
                           it; each links two fresh variants
repository browser         /repo/: 12 files in 3 directories, 24        43 + infinite
                           revisions; views of every file and directory
                           at every revision (``?rev=``, rel=prev/next
                           between revisions), sort orders (``?order=
                           &desc=``, propagated into file links),
                           changesets per path, revision logs per path
                           and revision, a timeline going back forever
legit, beside them         /catalogue/?page=1..60 (one generic title,   60 + 60 + 5
                           og:url = canonical = self, other wares on
                           every page), /threads/?p=1..60 (one title,
                           no ordinal, no rel=prev/next, other posts),
                           /news/<slug>?view=print (5: another page)
=========================  ==========================================  =============

Everything is derived from the URL (no state): the same URL always gives the same page.
"""

from __future__ import annotations

import hashlib
import html

WORDS = ("amber", "basalt", "cedar", "dune", "ember", "fjord", "glacier", "heather",
         "island", "juniper", "kelp", "lichen", "marsh", "nettle", "oak", "pine", "quarry",
         "reed", "sierra", "thistle", "upland", "valley", "willow", "yarrow", "zinnia",
         "alder", "birch", "cliff", "delta", "estuary", "fern", "grove", "harbour", "inlet",
         "jetty", "knoll", "lagoon", "meadow", "north", "orchard")
ADJECTIVES = ("quiet", "bright", "hidden", "rolling", "silver", "ancient", "windy", "green",
              "lonely", "golden", "misty", "frozen", "sunny", "wild", "gentle", "stormy")
SHELF_PAGES = 8
BOOKS_PER_PAGE = 10
CATALOGUE_PAGES = 60
NEWS = tuple(f"{a}-{w}" for a, w in zip(ADJECTIVES * 3, WORDS, strict=False))[:40]


def _pick(seed: str, options: tuple[str, ...]) -> str:
    return options[int(hashlib.sha1(seed.encode()).hexdigest()[:8], 16) % len(options)]


def _phrase(seed: str, words: int = 6) -> str:
    return " ".join(_pick(f"{seed}/{i}", WORDS if i % 2 else ADJECTIVES)
                    for i in range(words)).capitalize()


def shelf_books(page: int) -> list[tuple[str, str, str]]:
    """(slug, title, blurb) of the books on one real page of the shelf."""
    books = []
    for i in range(BOOKS_PER_PAGE):
        n = (page - 1) * BOOKS_PER_PAGE + i
        title = f"The {ADJECTIVES[n % 16]} {WORDS[n % 40]} of {WORDS[(n * 7 + 3) % 40]}"
        books.append((f"b{n}", title.title(), _phrase(f"book{n}", 9) + "."))
    return books


def catalogue_items(page: int) -> list[tuple[str, str]]:
    return [(f"{ADJECTIVES[(page * 12 + i) % 16]} {WORDS[(page * 5 + i) % 40]} "
             f"model {page}{i:02d}".title(), _phrase(f"ware{page}-{i}", 8) + ".")
            for i in range(12)]


def thread_posts(page: int) -> list[tuple[str, str]]:
    return [(_pick(f"author{page}-{i}", WORDS).title(), _phrase(f"post{page}-{i}", 14) + ".")
            for i in range(10)]


def blog_posts(page: int) -> list[str]:
    """The titles of the five posts one page of the blog lists."""
    return [_phrase(f"blogpost{page}-{i}", 7) for i in range(5)]


def news_article(slug: str) -> tuple[str, list[str]]:
    title = slug.replace("-", " ").title() + " in the news"
    return title, [_phrase(f"{slug}/p{i}", 16) + "." for i in range(4)]


def news_comments(slug: str) -> list[str]:
    return [_phrase(f"{slug}/c{i}", 10) + "." for i in range(3)]


# ---------------------------------------------------------------------- the repository

DIRS = ("src", "docs", "tests")
FILES = tuple(f"{d}/{WORDS[i * 3 + j]}.{'py' if d != 'docs' else 'txt'}"
              for i, d in enumerate(DIRS) for j in range(4))
REVISIONS = 24
LINES = 30
ORDERS = ("name", "size", "date")


def rev_id(r: int) -> str:
    """A revision's id: a 12-character hex hash, as version control shows them."""
    return hashlib.sha1(f"rev{r}".encode()).hexdigest()[:12]


_BY_ID = {rev_id(r): r for r in range(1, REVISIONS + 1)}


def changed(r: int) -> tuple[str, ...]:
    """The files revision ``r`` changes (two, one of them late-added ones first)."""
    a, b = (r * 5) % len(FILES), (r * 7 + 3) % len(FILES)
    return tuple(sorted({FILES[a], FILES[b]}))


def history(path: str, upto: int = REVISIONS) -> list[int]:
    return [r for r in range(1, upto + 1) if path in changed(r)]


def message(r: int) -> str:
    return f"Revision {r}: {_phrase(f'msg{r}', 7).lower()}"


def file_lines(path: str, r: int) -> list[str]:
    """The file's text at revision ``r``: each change rewrites two of its lines."""
    versions = [0] * LINES
    for k, _ in enumerate(history(path, r)):
        for line in ((k * 3) % LINES, (k * 3 + 1) % LINES):
            versions[line] += 1
    stem = path.rsplit("/", 1)[-1].split(".")[0]
    return [f"{stem}_{WORDS[j % 40]} = {_phrase(f'{path}/{j}/{versions[j]}', 5).lower()!r}"
            for j in range(LINES)]


def legit_repo_paths() -> list[str]:
    """Every page of the repository a complete crawl must fetch: the hubs, every
    directory and file at HEAD, every changeset."""
    return ["/repo/", "/repo/browser", *(f"/repo/browser/{d}" for d in DIRS),
            *(f"/repo/browser/{f}" for f in FILES),
            *(f"/repo/changeset/{rev_id(r)}" for r in range(1, REVISIONS + 1)),
            "/repo/log/", "/repo/timeline"]


def _doc(title: str, body: str, head: str = "") -> str:
    return (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>"
            f"{html.escape(title)} - Repo</title>{head}</head><body><header><a href='/'>"
            f"TrapZoo</a> <a href='/repo/'>Repository</a> <a href='/repo/timeline'>Timeline"
            f"</a> <a href='/repo/browser'>Browse source</a> <a href='/repo/log/'>Log</a>"
            f"</header><main><h1>{html.escape(title)}</h1>{body}</main><footer><p>Powered "
            f"by a small version control browser.</p></footer></body></html>")


def _a(href: str, text: str) -> str:
    return f"<a href='{html.escape(href)}'>{html.escape(text)}</a>"


class Repository:
    """The pages of ``/repo/`` (URL → HTML), derived from the history above."""

    def page(self, path: str, query: dict[str, str]) -> bytes | None:
        text = self._route(path.rstrip("/") or "/", path, query)
        return text.encode() if text is not None else None

    def _route(self, clean: str, path: str, q: dict[str, str]) -> str | None:
        if path == "/repo/" and not q:
            return _doc("Repository", "<p>A project's source.</p>" + "".join(
                f"<p>{_a(h, t)}</p>" for h, t in (("/repo/browser", "Browse the source"),
                                                  ("/repo/log/", "Revision log"),
                                                  ("/repo/timeline", "Timeline"))))
        if clean == "/repo/browser" or clean.startswith("/repo/browser/"):
            return self._browser(clean[len("/repo/browser"):].strip("/"), q)
        if clean.startswith("/repo/changeset/"):
            rest = clean[len("/repo/changeset/"):]
            rid, _, sub = rest.partition("/")
            return self._changeset(rid, sub, q)
        if clean == "/repo/log" or clean.startswith("/repo/log/"):
            return self._log(clean[len("/repo/log"):].strip("/"), q)
        if clean == "/repo/timeline":
            return self._timeline(q)
        return None

    def _at(self, q: dict[str, str]) -> int | None:
        rid = q.get("rev")
        if rid is None:
            return REVISIONS
        return _BY_ID.get(rid)

    def _browser(self, target: str, q: dict[str, str]) -> str | None:
        r = self._at(q)
        if r is None:
            return None
        sort = [f"{k}={q[k]}" for k in ("order", "desc") if k in q]
        if target in FILES:
            return self._file(target, r, q, sort)
        if target and target not in DIRS:
            return None
        entries = list(DIRS) if not target else [f for f in FILES if f.startswith(target + "/")]
        entries = [e for e in entries if e in DIRS or history(e, r)]
        order, desc = q.get("order", "name"), q.get("desc", "0") == "1"
        if order not in ORDERS:
            return None

        def size(e: str) -> int:
            return sum(len(line) for line in file_lines(e, r)) if e in FILES else 0

        def last(e: str) -> int:
            h = history(e, r) if e in FILES else [x for f in FILES if f.startswith(e)
                                                   for x in history(f, r)]
            return max(h, default=0)

        def rank(e: str) -> tuple[int, str]:
            return ({"name": 0, "size": size(e), "date": last(e)}[order], e)

        entries.sort(key=rank, reverse=desc)
        rows = []
        for e in entries:
            link = f"/repo/browser/{e}"
            extra = ([f"rev={rev_id(r)}"] if "rev" in q or sort else []) + sort
            if e in FILES and extra:
                link += "?" + "&".join(extra)
            elif e not in FILES and "rev" in q:
                link += f"?rev={rev_id(r)}"
            rows.append(f"<tr><td>{_a(link, e.rsplit('/', 1)[-1])}</td><td>{size(e)} bytes</td>"
                        f"<td>{message(last(e)) if last(e) else 'empty'}</td></tr>")
        base = f"/repo/browser/{target}".rstrip("/")
        sorts = "".join(f"<th>{_a(f'{base}?order={o}&desc={int(o == order and not desc)}', o)}"
                        "</th>" for o in ORDERS)
        title = f"{target or 'Root'} at revision {r}" if "rev" in q else (target or "Root")
        return _doc(title, f"<table><tr>{sorts}</tr>{''.join(rows)}</table>")

    def _file(self, path: str, r: int, q: dict[str, str], sort: list[str]) -> str | None:
        revs = history(path, r)
        if not revs:
            return None
        shown = revs[-1]
        lines = "".join(f"<tr><th>{j + 1}</th><td>{html.escape(line)}</td></tr>"
                        for j, line in enumerate(file_lines(path, shown)))
        every = history(path)
        at = every.index(shown)
        head = ""
        if "rev" in q:
            if at > 0:
                head += f"<link rel='prev' href='/repo/browser/{path}?rev={rev_id(every[at - 1])}'>"
            if at + 1 < len(every):
                head += f"<link rel='next' href='/repo/browser/{path}?rev={rev_id(every[at + 1])}'>"
        views = "".join(f"<li>{_a(f'/repo/browser/{path}?rev={rev_id(x)}', f'View at {x}')}</li>"
                        for x in every)
        body = (f"<p>Last change: {_a(f'/repo/changeset/{rev_id(shown)}', message(shown))}</p>"
                f"<p>{_a(f'/repo/log/{path}?rev={rev_id(r)}', 'Revision log')}</p>"
                f"<table class='code'>{lines}</table><ul>{views}</ul>")
        title = f"{path} at revision {r}" if "rev" in q else path
        return _doc(title, body, head)

    def _changeset(self, rid: str, sub: str, q: dict[str, str]) -> str | None:
        r = _BY_ID.get(rid)
        if r is None or q:
            return None
        files = changed(r)
        if sub and sub not in files:
            return None
        shown = [sub] if sub else list(files)
        parts = [f"<p>{html.escape(message(r))}</p>"]
        for f in shown:
            k = history(f).index(r)
            touched = ((k * 3) % LINES, (k * 3 + 1) % LINES)
            now, before = file_lines(f, r), file_lines(f, r - 1)
            diff = "".join(f"<li>- {html.escape(before[j])}</li><li>+ {html.escape(now[j])}</li>"
                           for j in touched)
            links = _a(f"/repo/browser/{f}?rev={rev_id(r)}", f"{f} at {r}")
            if not sub:
                links += " " + _a(f"/repo/changeset/{rid}/{f}", f"Changes to {f}")
            parts.append(f"<h2>{html.escape(f)}</h2><p>{links}</p><ul>{diff}</ul>")
        nav = "".join(_a(f"/repo/changeset/{rev_id(x)}", t) for x, t in
                      ((r - 1, "Previous changeset"), (r + 1, "Next changeset"))
                      if 1 <= x <= REVISIONS)
        title = f"Changeset {r} for {sub}" if sub else f"Changeset {r}"
        return _doc(title, "".join(parts) + f"<p>{nav}</p>")

    def _log(self, path: str, q: dict[str, str]) -> str | None:
        r = self._at(q)
        if r is None:
            return None
        if not path:
            if q:
                return None
            listed = "".join(f"<li>{_a(f'/repo/changeset/{rev_id(x)}', message(x))}</li>"
                             for x in range(REVISIONS, 0, -1))
            return _doc("Revision log", f"<ol>{listed}</ol>")
        if path not in FILES and path not in DIRS:
            return None
        revs = [x for f in FILES if f == path or f.startswith(path + "/")
                for x in history(f, r)]
        rows = []
        for x in sorted(set(revs), reverse=True):
            rows.append(f"<li>{_a(f'/repo/browser/{path}?rev={rev_id(x)}', message(x))} "
                        f"{_a(f'/repo/changeset/{rev_id(x)}/{path}', 'changes')} "
                        f"{_a(f'/repo/log/{path}?rev={rev_id(x)}', 'log from here')}</li>")
        return _doc(f"Revision log of {path}", f"<ol>{''.join(rows)}</ol>")

    def _timeline(self, q: dict[str, str]) -> str | None:
        try:
            day = int(q.get("from", "0"))
        except ValueError:
            return None
        if day < 0 or len(q) > 1 or (q and "from" not in q):
            return None
        events = [x for x in range(1, REVISIONS + 1) if REVISIONS - x == day]
        items = "".join(f"<li>{_a(f'/repo/changeset/{rev_id(x)}', message(x))}</li>"
                        for x in events) or "<li>No events on this day.</li>"
        return _doc("Timeline", f"<h2>Day {day}</h2><ul>{items}</ul>"
                    + _a(f"/repo/timeline?from={day + 1}", "Previous day"))


REPOSITORY = Repository()
