"""The keys of a page: host key, parent path, shape key, meta values, signatures.

One definition, used by the crawler's soft cap while crawling and by the duplicate-cluster
queries afterwards, so a cap and a cluster can never disagree (DESIGN.md §4, seed 000).

Worked examples (``https://example.com`` unless shown; parent path → shape key):

- ``https://www.example.com/list/date/2024/``: ``/list/date`` →
  ``example.com/list/date/{n}/`` (``www.`` and the scheme are not part of any key)
- ``/list/date/1.5e+32/``: ``/list/date`` → ``example.com/list/date/{n}/``
- ``/list?page=1``: ``/list`` → ``example.com/list?page={v}``
- ``/list/2024?p=5``: ``/list/2024`` → ``example.com/list/{n}?p={v}``
- ``/about``: ``/`` → ``example.com/about``; ``/``: ``/`` → ``example.com/``
- ``/search?q=a&page=2&q=b``: ``/search`` → ``example.com/search?page={v}&q={v}``
- ``/archive/2026/11/30/``: ``/archive/2026/11`` → ``example.com/archive/{n}/{n}/{n}/``
- ``/a/b/a/b/a/b/``: ``/a/b/a/b/a`` → ``example.com/a/{r}/``
- ``/guide/x/y/y/x/``: ``/guide/x/y/y`` → ``example.com/guide/{r}/`` (any order of growth)
- ``/projects/holdout/src/holdout/``: ``/projects/holdout/src`` →
  ``example.com/projects/holdout/src/holdout/`` (a word met twice: a name, not growth)
- ``/docs/api/v/intro/``: ``/docs/api/v`` → ``example.com/docs/api/v/intro/`` (no repeat)
- ``/products/shirt-red/``: ``/products`` → ``example.com/products/shirt-red/``

- *host key*: host lower-cased, a leading ``www.`` and a default port removed (a
  non-default port stays: ``example.com:8080``).
- *parent path*: the path without query and fragment, ``%xx`` escapes upper-cased, a
  trailing slash removed (except ``/``). With a query string it is that whole path (query
  pagers vary in the query); without one, the path without its last segment (path pagers
  vary in the last segment).
- *shape key*: the host key and the path with every segment that *looks variable*
  replaced by ``{n}``, paths grown by concatenating relative links abstracted to ``{r}``
  (:func:`_abstract_growth`), then ``?`` and the sorted, de-duplicated query keys as
  ``key={v}``. See :func:`is_variable_segment`.
- *signature*: lower-case hex SHA-1 of the parent key (host key + parent path) and the
  four meta values (title, description, og:title, og:url), joined by ``\\0``; the *shape
  signature* uses the shape key instead. The query string never enters either.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from urllib.parse import SplitResult, parse_qsl, unquote, urlsplit

_DEFAULT_PORTS = {"http": 80, "https": 443}
_PERCENT = re.compile(r"%[0-9a-fA-F]{2}")
_SLASHES = re.compile(r"/{2,}")
_WS = re.compile(r"[ \t\n\f\r]+")
_HEXISH = re.compile(r"^[0-9a-f]{12,}$", re.IGNORECASE)
_TOKENISH = re.compile(r"^[A-Za-z0-9_-]{20,}$")
_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.I)


def host_key(url: str) -> str:
    """``https://WWW.Example.com:443/x`` → ``example.com``; ``http://h:8080/`` → ``h:8080``."""
    return _host_key(urlsplit(url))


def _host_key(parts: SplitResult) -> str:
    """:func:`host_key` of a URL already split (every key of a page splits it once)."""
    host = (parts.hostname or "").lower()
    host = host.removeprefix("www.")
    try:
        port = parts.port
    except ValueError:
        port = None
    if port is not None and port != _DEFAULT_PORTS.get(parts.scheme.lower()):
        host = f"{host}:{port}"
    return host


def _normal_path(path: str) -> str:
    path = path or "/"
    if "%" in path:
        path = _PERCENT.sub(lambda m: m.group(0).upper(), path)
    if "//" in path:
        path = _SLASHES.sub("/", path)
    return path


def parent_path(url: str) -> str:
    """The path a page's siblings share (see the module docstring)."""
    return _parent_path(urlsplit(url))


def _parent_path(parts: SplitResult) -> str:
    path = _normal_path(parts.path)
    stripped = path.rstrip("/") or "/"
    if parts.query:
        return stripped
    if stripped == "/":
        return "/"
    return stripped.rsplit("/", 1)[0] or "/"


def parent_key(url: str) -> str:
    """Host key and parent path: what a page's signature counts it under."""
    parts = urlsplit(url)
    return _host_key(parts) + _parent_path(parts)


def is_variable_segment(segment: str) -> bool:
    """Does this path segment look like a counter, date, id or token?

    Yes: any digit (``2024``, ``1.5e+32``, ``page-3``, ``;jsessionid=A1``), a UUID, a long
    hex string, a 20+ character token of letters, digits, ``-`` and ``_`` with mixed case
    (random ids). No: words (``about``, ``shirt-red``, ``list``), empty segments.
    """
    if not segment:
        return False
    if "%" in segment:
        segment = unquote(segment)  # %C3%A9 is a letter, not digits
    if any(c.isdigit() for c in segment):
        return True
    if _UUID.match(segment) or _HEXISH.match(segment):
        return True
    return bool(_TOKENISH.match(segment) and segment != segment.lower()
                and segment != segment.upper())


MAX_NUMERIC_RUN = 4
"""Consecutive variable segments kept as they are (``{y}/{m}/{d}/{id}``); a longer run
is a path growing by numbers and becomes ``{n}/{r}``."""


GROWTH_REPEATS = 2
"""Repeated word segments (occurrences beyond each word's first) that make a path grown
by relative links: ``/x/y/x/`` has one (a name met twice), ``/x/y/x/y/`` two."""


def _abstract_growth(segments: list[str]) -> list[str]:
    """Paths that grow by concatenating relative links get one shape, whatever the order.

    A page at ``/guide/x/`` linking ``x/`` and ``y/`` makes ``/guide/x/x/``,
    ``/guide/x/y/``, ``/guide/x/y/x/y/y/`` …: once the path's word segments repeat
    :data:`GROWTH_REPEATS` times (a word three times, or two words twice each), everything
    after the first segment is ``{r}`` (``example.com/guide/{r}/``), so the growth of one
    section is one shape, not one per order of concatenation. One word met twice is a
    name, not growth: a project's package under its own name
    (``/projects/holdout/…/src/holdout/``, ``/requests/requests/``) keeps its shape, and a
    relative-link loop needs only one step more to show itself. A path whose segments are
    all different is never touched, so legit deep trees (docs sections, category trees)
    keep their shapes. Numbers repeat by nature (``2024/01/01``) and never count as a
    repetition; a run of more than :data:`MAX_NUMERIC_RUN` of them (``/a/1/2/3/4/5/…``) is
    growth too and becomes ``{n}/{r}``.
    """
    words = [s for s in segments if s != "{n}"]
    if len(words) - len(set(words)) >= GROWTH_REPEATS:
        return [*segments[:1], "{r}"]
    out: list[str] = []
    run = 0
    for segment in segments:
        run = run + 1 if segment == "{n}" else 0
        if run <= MAX_NUMERIC_RUN:
            out.append(segment)
        elif run == MAX_NUMERIC_RUN + 1:
            del out[-MAX_NUMERIC_RUN + 1:]
            out.append("{r}")
    return out


def shape_key(url: str) -> str:
    """Host key + abstracted path + sorted query keys (see the module docstring)."""
    return _shape_key(urlsplit(url))


def _shape_key(parts: SplitResult) -> str:
    path = _normal_path(parts.path)
    trailing = path.endswith("/") and path != "/"
    segments = [s for s in path.split("/") if s]
    abstract = ["{n}" if is_variable_segment(s) else s for s in segments]
    abstract = _abstract_growth(abstract)
    shape = "/" + "/".join(abstract) + ("/" if trailing and abstract else "")
    if not parts.query:
        return _host_key(parts) + shape
    keys = sorted({k for k, _ in parse_qsl(parts.query, keep_blank_values=True)})
    query = "&".join(f"{k}={{v}}" for k in keys)
    return _host_key(parts) + shape + (f"?{query}" if query else "")


def query_values(url: str) -> tuple[tuple[str, str], ...]:
    """The query's ``(key, value)`` pairs in order, blanks kept (what shape families compare)."""
    return tuple(parse_qsl(urlsplit(url).query, keep_blank_values=True))


def split_shape(shape: str) -> tuple[str, frozenset[str]]:
    """``example.com/s?a={v}&b={v}`` → ``("example.com/s", {"a", "b"})``: a shape's path
    part and its query-key set, the two things a shape *family* is made of."""
    path, _, query = shape.partition("?")
    keys = frozenset(k.removesuffix("={v}") for k in query.split("&") if k)
    return path, keys


def meta_value(value: str | None) -> str:
    """Trimmed, inner whitespace runs collapsed (as ``document.title``); None → ``''``."""
    if value is None:
        return ""
    return _WS.sub(" ", str(value)).strip()


def sha1_key(*parts: str) -> str:
    """The hex SHA-1 of the parts joined by NUL: how every key here is hashed."""
    return hashlib.sha1("\0".join(parts).encode("utf-8")).hexdigest()


_sha1 = sha1_key


@dataclass(frozen=True)
class PageKeys:
    """Everything the soft cap and the cluster queries key a page by."""

    parent_path: str
    parent_key: str
    shape_key: str
    signature: str
    shape_signature: str
    title: str
    description: str
    og_title: str
    og_url: str


def page_keys(url: str, *, title: str | None, description: str | None,
              og_title: str | None, og_url: str | None) -> PageKeys:
    """The keys of a page. ``og_url`` is the absolutised value stored in ``pages.og_url``."""
    values = [meta_value(v) for v in (title, description, og_title, og_url)]
    parts = urlsplit(url)
    pp = _parent_path(parts)
    pk = _host_key(parts) + pp
    sk = _shape_key(parts)
    return PageKeys(pp, pk, sk, _sha1(pk, *values), _sha1(sk, *values), *values)


def declared_signature(url: str, target: str, keys: PageKeys) -> str:
    """The key of a *declared copy* cluster: host key, the declared target (canonical form,
    :func:`nitpicker_query.keys.signals.declared_target`) and the four meta values."""
    return _sha1("declared", host_key(url), target, keys.title, keys.description,
                 keys.og_title, keys.og_url)


def repeat_key(shape: str) -> str:
    """The key of a *repeating shape* cluster: the URL shape alone."""
    return _sha1("repeat", shape)


def is_eligible(*, is_external: bool, content_type: str | None, title: str | None,
                og_title: str | None, og_url: str | None) -> bool:
    """Internal HTML pages with a title, og:title or og:url take part; others never."""
    if is_external or content_type != "text/html":
        return False
    return any(meta_value(v) for v in (title, og_title, og_url))


@dataclass(frozen=True)
class View:
    """The *entity* a URL shows and the *view* of it, when it is one (the soft cap's
    entity × view rule, docs/soft-cap.md).

    - A URL with a query is a view of the page at its path: ``/browser/src/a.py?rev=7``
      shows the entity ``/browser/src/a.py`` through the view ``browser?{rev}``. The view's
      *prefix* is the host and the path's first segment (``example.com/browser``; only the
      host for one-segment paths, which have no section to share), its *keys* the query's.
    - A URL without a query whose path goes on after its last variable segment is a view
      of the path up to that segment: ``/changeset/4f2a91/src/a.py`` shows
      ``/changeset/4f2a91`` through ``/changeset/{n}/*`` (keys None: a *trailing* view).
    - Anything else is an entity page itself (``view`` None): ``/browser/src/a.py``,
      ``/changeset/4f2a91``, ``/wiki/Main_Page``.
    """

    entity: str                      # host key + path of the entity
    prefix: str | None = None        # None: the URL is the entity page itself
    keys: frozenset[str] | None = None


def view_of(url: str) -> View:
    """The entity and view of a URL (see :class:`View`)."""
    parts = urlsplit(url)
    host = host_key(url)
    path = _normal_path(parts.path)
    segments = [s for s in path.split("/") if s]
    if parts.query:
        keys = frozenset(k for k, _ in parse_qsl(parts.query, keep_blank_values=True))
        if keys:
            first = segments[0] if len(segments) > 1 else ""
            if first and is_variable_segment(first):
                first = "{n}"
            return View(host + "/" + "/".join(segments), f"{host}/{first}", keys)
    last = max((i for i, s in enumerate(segments) if is_variable_segment(s)), default=-1)
    if 0 <= last < len(segments) - 1:
        head = segments[: last + 1]
        abstract = ["{n}" if is_variable_segment(s) else s for s in head]
        return View(host + "/" + "/".join(head), f"{host}/{'/'.join(abstract)}/*")
    return View(host + "/" + "/".join(segments))
