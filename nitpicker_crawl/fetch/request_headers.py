"""Request headers for the site alone: ``--header``, ``--authorization``, ``--header-file``.

A staging site behind a login wants something with every request (``Authorization``, a
token, a shared secret). Those values are secrets, and this module is their only keeper:

- **checked before anything is written**: a name must be an HTTP token (RFC 9110 §5.6.2),
  a value printable ASCII on one line (a CR, LF or NUL would smuggle in a header of its
  own, and a client refusing it mid-crawl would quote it in its error); the headers the
  HTTP client sets for each request (``Host``, ``Content-Length``, ``Transfer-Encoding``,
  ``Connection`` …) and ``Accept-Encoding`` (the crawler decodes bodies itself) are
  refused, and so is ``User-Agent``: ``--user-agent`` sets it, for every host, and it
  picks robots.txt's rules. Every error names the flag and at most a header's *name*.
- **sent to the site's hosts only**: :meth:`SiteHeaders.for_url` is the one answer to
  "which headers go with this URL", asked by the fetcher for each hop of each chain
  (pages, robots.txt, sitemaps, the outage probe; a redirect's next hop by its own URL)
  and by the renderer for each request the browser makes. A URL gets them when its host
  and port are a start URL's, compared as the scope compares them (``http://h/`` and
  ``https://h/`` are one site) — but never over plain ``http`` when every start URL on
  that host said ``https``: a link or redirect down to ``http`` must not put a password
  on the wire in clear. Another host, or the same host on another port, never gets them.
- **never stored or shown**: :class:`RequestHeaders` shows its names only (``repr``,
  ``str``); the archive records the names (``crawl_runs.options``, ``header_names``).
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterable, Sequence
from urllib.parse import urlsplit

from .scope import host_port

TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
"""An HTTP field name (RFC 9110 §5.1: a token)."""

VALUE = re.compile(r"[\t\x20-\x7e]*")
"""What a value may hold: printable ASCII, spaces and tabs (no controls, no other bytes
whose encoding httpx and Chromium would each guess)."""

SET_BY_CLIENT = frozenset({"host", "content-length", "transfer-encoding", "connection",
                           "keep-alive", "proxy-connection", "te", "trailer", "upgrade"})
"""Headers of the message and the connection, which the HTTP client writes itself for
each request: one given by hand would contradict it."""

SCHEMES = frozenset({"basic", "bearer", "digest", "token", "negotiate"})
"""``--authorization`` values that are a scheme with its credentials missing: what an
unquoted ``--authorization Bearer TOKEN`` leaves (the token becomes a start URL)."""

MAX_FILE_BYTES = 64 << 10
"""Most bytes of a ``--header-file`` read (a path to a log or a device by mistake)."""


class HeaderError(ValueError):
    """A header option the crawl refuses. Its message names the flag and at most a
    header's name, never a value: it is printed, and a value may be a password."""


def check_name(name: str, where: str) -> None:
    """``name`` as a header the crawl may send, or :class:`HeaderError`."""
    if not TOKEN.fullmatch(name):
        shown = name if len(name) <= 60 else name[:59] + "…"
        raise HeaderError(f"{where}: {shown!r} is not a header name (letters, digits and "
                          "!#$%&'*+-.^_`|~ only)")
    lowered = name.lower()
    if lowered in SET_BY_CLIENT:
        raise HeaderError(f"{where}: {name} cannot be given: the HTTP client sets it for "
                          "each request")
    if lowered == "accept-encoding":
        raise HeaderError(f"{where}: {name} cannot be given: the crawler asks for the "
                          "encodings it decodes itself")
    if lowered == "user-agent":
        raise HeaderError(f"{where}: set {name} with --user-agent (it is sent to every "
                          "host, and robots.txt's rules are chosen by it)")


def _breaks(name: str, value: str, where: str) -> None:
    """A value on more than one line, or with a NUL: :class:`HeaderError`."""
    if "\r" in value or "\n" in value:
        raise HeaderError(f"{where}: the value of {name} holds a line break (CR or LF)")
    if "\0" in value:
        raise HeaderError(f"{where}: the value of {name} holds a NUL character")


def check_value(name: str, value: str, where: str) -> None:
    """``value`` as the crawl may send it, or :class:`HeaderError` (which never quotes
    it)."""
    _breaks(name, value, where)
    if not VALUE.fullmatch(value):
        raise HeaderError(f"{where}: the value of {name} holds a character other than "
                          "printable ASCII, space or tab")


def parse_header(text: str, where: str) -> tuple[str, str]:
    """``Name: value`` as a checked ``(name, value)``; spaces and tabs around the value
    are not part of it (RFC 9110 §5.5), none is allowed before the colon."""
    name, colon, value = text.partition(":")
    if not colon:
        raise HeaderError(f"{where}: expected 'Name: value', found no colon")
    check_name(name, where)
    value = value.strip(" \t")
    check_value(name, value, where)
    return name, value


def authorization_value(text: str) -> str:
    """``--authorization``'s header value: ``user:password`` (no space) as
    ``Basic base64(user:password)`` (RFC 7617, UTF-8), anything else as given."""
    where = "--authorization"
    value = text.strip(" \t")
    _breaks("Authorization", value, where)
    if not value:
        raise HeaderError(f"{where}: the value is empty")
    if value.lower() in SCHEMES:
        raise HeaderError(f"{where}: {value!r} alone has no credentials; quote the whole "
                          f"value: --authorization '{value} …'")
    if " " not in value and ":" in value:
        value = "Basic " + base64.b64encode(value.encode("utf-8")).decode("ascii")
    check_value("Authorization", value, where)
    return value


def read_header_file(path: str) -> list[tuple[str, str]]:
    """The headers of a ``--header-file``: one ``Name: value`` a line, blank lines and
    ``#`` comments skipped. Errors say the file and line, never the line itself."""
    where = f"--header-file {path}"
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise HeaderError(f"{where}: {exc.strerror or type(exc).__name__}") from None
    if len(data) > MAX_FILE_BYTES:
        raise HeaderError(f"{where}: longer than {MAX_FILE_BYTES // 1024} KiB")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise HeaderError(f"{where}: not UTF-8 text") from None
    pairs = []
    for number, line in enumerate(text.split("\n"), 1):
        line = line.removesuffix("\r")
        if not line.strip(" \t") or line.lstrip(" \t").startswith("#"):
            continue
        pairs.append(parse_header(line.strip(" \t"), f"{where} line {number}"))
    return pairs


class RequestHeaders:
    """Checked headers, one per name: a name given again (in any case) replaces the
    earlier value. Its ``repr`` shows the names only, so a crawl's options can be
    printed, logged or compared without a value in sight. Not a dataclass on purpose:
    ``dataclasses.asdict`` of the options must not turn it into a dict of values."""

    __slots__ = ("_pairs",)

    def __init__(self, pairs: Iterable[tuple[str, str]] = ()) -> None:
        merged: dict[str, tuple[str, str]] = {}
        for name, value in pairs:
            check_name(name, "header")
            check_value(name, value, "header")
            merged.pop(name.lower(), None)
            merged[name.lower()] = (name, value)
        self._pairs = tuple(merged.values())

    @property
    def names(self) -> tuple[str, ...]:
        """The names, as given, in the order they are sent."""
        return tuple(name for name, _ in self._pairs)

    def pairs(self) -> tuple[tuple[str, str], ...]:
        """``(name, value)`` of each header: for the clients that send them, only."""
        return self._pairs

    def for_site(self, roots: Sequence[str]) -> SiteHeaders:
        """These headers bound to the crawl's start URLs."""
        return SiteHeaders(self, roots)

    def __bool__(self) -> bool:
        return bool(self._pairs)

    def __len__(self) -> int:
        return len(self._pairs)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RequestHeaders) and self._pairs == other._pairs

    def __hash__(self) -> int:
        return hash(self._pairs)

    def __repr__(self) -> str:
        return f"RequestHeaders(names={self.names!r})"

    __str__ = __repr__


def from_flags(files: Sequence[str] = (), headers: Sequence[str] = (),
               authorization: str | None = None) -> RequestHeaders:
    """The headers the command line asks for, read in this order: each ``--header-file``,
    each ``--header``, ``--authorization`` — a later one with the same name wins, so a
    header typed on the command line overrides the file's."""
    pairs: list[tuple[str, str]] = []
    for path in files:
        pairs.extend(read_header_file(path))
    pairs.extend(parse_header(text, "--header") for text in headers)
    if authorization is not None:
        pairs.append(("Authorization", authorization_value(authorization)))
    return RequestHeaders(pairs)


class SiteHeaders:
    """Headers bound to the start URLs' hosts: :meth:`for_url` is what one request
    carries (see the module's docstring for the rule)."""

    __slots__ = ("_headers", "_origins")

    def __init__(self, headers: RequestHeaders, roots: Sequence[str]) -> None:
        self._headers = dict(headers.pairs())
        # (host, port) → the schemes its start URLs were given with
        self._origins: dict[tuple[str, int | None], set[str]] = {}
        for root in roots:
            try:
                key = host_port(root)
            except ValueError:
                continue
            self._origins.setdefault(key, set()).add(urlsplit(root).scheme.lower())

    def __bool__(self) -> bool:
        return bool(self._headers)

    def __repr__(self) -> str:
        return f"SiteHeaders(names={tuple(self._headers)!r})"

    def applies(self, url: str) -> bool:
        """Whether a request to ``url`` carries the headers."""
        if not self._headers:
            return False
        try:
            scheme, key = urlsplit(url).scheme.lower(), host_port(url)
        except ValueError:  # a port out of range: no host of ours
            return False
        schemes = self._origins.get(key)
        if not schemes or scheme not in ("http", "https"):
            return False
        return scheme == "https" or "http" in schemes

    def for_url(self, url: str) -> dict[str, str]:
        """The headers a request to ``url`` carries: all of them, or none."""
        return dict(self._headers) if self.applies(url) else {}
