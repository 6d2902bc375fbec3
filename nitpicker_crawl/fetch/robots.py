"""robots.txt as RFC 9309 says, fetched once per origin, never able to take the site down.

What each answer means (RFC 9309 §2.3.1, §2.4, §2.5):

=================================  ==============================================
robots.txt answers                 the crawl
=================================  ==============================================
2xx                                its rules apply (the first 512 KiB are parsed,
                                   as UTF-8 whatever the declared charset, bad
                                   bytes replaced; a file with no readable rule
                                   allows everything, and says so)
3xx                                followed, up to five hops; more: as a 4xx
4xx (but 429)                      "unavailable": everything allowed
5xx, 429, a reset, a deadline     "unreachable": **nothing** is fetched from that
                                   origin; asked again twice (after 1 s and 3 s),
                                   then every :data:`UNREACHABLE_RETRY_S` seconds
                                   while the crawl goes on. URLs refused meanwhile
                                   are failures (``robots.txt unreachable …``,
                                   exit 1), to retry with ``--resume`` or to crawl
                                   with ``--ignore-robots``
no server (refused, unknown host)  the pages are requested, and fail with that
                                   error (robots.txt is asked again later)
=================================  ==============================================

Each fetch has the whole ``--timeout`` as its deadline (a robots.txt trickling one byte
every five seconds is unreachable, not a reason to wait forever), and its body is cut
at 512 KiB. Problems are reported through ``on_note(robots_url, message)`` (the
crawler stores them as ``crawl_errors`` rows and prints them once).

Matching (RFC 9309 §2.2): the group whose ``user-agent`` equals the crawler's product
token (case-insensitive; the ``User-Agent`` up to its first ``/``), else ``*``; groups of
the same agent are merged. Of the rules matching the URL's path and query, the longest
wins, ``allow`` on a tie; ``*`` matches any characters, a final ``$`` the end.
``/robots.txt`` itself is always allowed. Python's ``urllib.robotparser`` does none of
this (first match wins, no wildcards), so it is not used.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import quote, urlsplit

from .fetcher import Fetcher, FetchError
from .urls import origin

PARSE_LIMIT = 512 * 1024
"""Bytes of robots.txt parsed (RFC 9309 §2.5: at least 500 KiB)."""

UNREACHABLE_RETRY_S = 60.0
"""After the first three tries, how long an unreachable robots.txt keeps its origin shut
before it is asked again."""

RETRY_DELAYS_S = (1.0, 3.0)
CACHE_S = 24 * 3600.0
"""RFC 9309 §2.4: a cached robots.txt is used for at most 24 hours."""

ROBOTS_REFUSED = "robots.txt"
"""What :meth:`Robots.check` returns for a URL a rule disallows (the skip reason)."""


def _matches(pattern: str, path: str) -> bool:
    """``*`` any characters, a final ``$`` the end of the path. Linear in the path for
    each piece: the pieces between stars are found leftmost, which is exact for
    patterns made of literals and stars (no backtracking to exploit)."""
    anchored = pattern.endswith("$")
    if anchored:
        pattern = pattern[:-1]
    pieces = pattern.split("*")
    if not path.startswith(pieces[0]):
        return False
    position = len(pieces[0])
    if len(pieces) == 1:
        return position == len(path) if anchored else True
    for piece in pieces[1:-1]:
        found = path.find(piece, position)
        if found < 0:
            return False
        position = found + len(piece)
    last = pieces[-1]
    if anchored:
        return path.endswith(last) and len(path) - len(last) >= position
    return path.find(last, position) >= 0


def _encoded(value: str) -> str:
    """A rule's path written as URL identities are: non-ASCII and spaces percent-encoded."""
    return quote(value, safe="/%:@!$&'()*+,;=~-._?#[]^`{|}\\\"<>")


@dataclass
class Rules:
    """The rules of one agent's groups: ``(allow, pattern)`` pairs."""

    rules: list[tuple[bool, str]]

    def allowed(self, path: str) -> bool:
        if path == "/robots.txt":
            return True
        best_length, verdict = -1, True
        for allow, pattern in self.rules:
            if len(pattern) < best_length or (len(pattern) == best_length and not allow):
                continue
            if _matches(pattern, path):
                best_length, verdict = len(pattern), allow
        return verdict


def parse(text: str, product: str) -> tuple[Rules, int]:
    """The rules for ``product`` (lower case) and how many lines were read as rules of
    any group (0: the file says nothing a crawler can use)."""
    groups: dict[str, list[tuple[bool, str]]] = {}
    current: list[str] = []
    in_agents = False
    understood = 0
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        key, sep, value = line.partition(":")
        if not sep:
            continue
        key, value = key.strip().lower(), value.strip()
        if key == "user-agent":
            if not in_agents:
                current = []
            current.append(value.lower())
            groups.setdefault(value.lower(), [])
            in_agents = True
            understood += 1
        elif key in ("allow", "disallow"):
            in_agents = False
            if not current:
                continue
            understood += 1
            if value:
                for agent in current:
                    groups[agent].append((key == "allow", _encoded(value)))
    chosen = groups.get(product)
    if chosen is None:
        chosen = groups.get("*", [])
    return Rules(chosen), understood


def sitemap_lines(text: str) -> list[str]:
    """The ``Sitemap:`` lines of a robots.txt (RFC 9309 §2.3.5: outside any group, any
    URL), in order, each once; at most :data:`MAX_SITEMAP_LINES`."""
    found: dict[str, None] = {}
    for line in text.splitlines():
        key, sep, value = line.split("#", 1)[0].partition(":")
        if sep and key.strip().lower() == "sitemap" and value.strip():
            found[value.strip()] = None
            if len(found) >= MAX_SITEMAP_LINES:
                break
    return list(found)


MAX_SITEMAP_LINES = 100
"""``Sitemap:`` lines read from one robots.txt (sites list a handful)."""


@dataclass
class _State:
    rules: Rules | None  # None: nothing is allowed (unreachable)
    until: float  # monotonic time after which robots.txt is asked again
    reason: str | None = None  # why nothing is allowed
    sitemaps: list[str] = field(default_factory=list)  # its Sitemap: lines


class Robots:
    """Answers "may we fetch this URL?" per origin (see the module for every case)."""

    def __init__(self, fetcher: Fetcher, user_agent: str,
                 on_note: Callable[[str, str], None] | None = None, *,
                 links_only: bool = False) -> None:
        self.fetcher = fetcher
        # True: the origins of external links, each checked once: the fetcher's own
        # deadline bounds a fetch (--external-timeout; the fetcher remembers a host that
        # let it pass), and an unreachable robots.txt is not asked again after 1 and 3 s
        self.links_only = links_only
        self.product = user_agent.split("/", 1)[0].split()[0].lower() if user_agent.strip() \
            else "*"
        self.on_note = on_note
        self._states: dict[str, _State] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._tried: set[str] = set()

    async def _state(self, key: str) -> _State:
        lock = self._locks.setdefault(key, asyncio.Lock())
        async with lock:
            state = self._states.get(key)
            if state is None or time.monotonic() >= state.until:
                state = self._states[key] = await self._load(key)
        return state

    async def sitemaps(self, url: str) -> list[str]:
        """The ``Sitemap:`` lines of the robots.txt of ``url``'s origin (loaded once, as
        :meth:`check` loads it)."""
        return list((await self._state(origin(url))).sitemaps)

    async def check(self, url: str) -> str | None:
        """None when ``url`` may be fetched; :data:`ROBOTS_REFUSED` when a rule forbids
        it; otherwise the failure message of an unreachable robots.txt."""
        state = await self._state(origin(url))
        if state.rules is None:
            return state.reason
        parts = urlsplit(url)
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        return None if state.rules.allowed(path) else ROBOTS_REFUSED

    def _note(self, robots_url: str, message: str) -> None:
        if self.on_note is not None:
            self.on_note(robots_url, message)

    async def _load(self, key: str) -> _State:
        robots_url = f"{key}/robots.txt"
        delays = RETRY_DELAYS_S if key not in self._tried and not self.links_only else ()
        self._tried.add(key)
        outcome = await self._try(robots_url)
        for delay in delays:
            if isinstance(outcome, _State):
                break
            await asyncio.sleep(delay)
            outcome = await self._try(robots_url)
        if isinstance(outcome, _State):
            return outcome
        reason = (f"robots.txt unreachable: {robots_url} {outcome}; RFC 9309 asks to fetch "
                  f"nothing of {key} until it answers (asked again every "
                  f"{UNREACHABLE_RETRY_S:g} s; --ignore-robots crawls anyway)")
        self._note(robots_url, reason)
        return _State(None, time.monotonic() + UNREACHABLE_RETRY_S, reason)

    async def _try(self, robots_url: str) -> _State | str:
        """One fetch: the state it settles, or what made robots.txt unreachable."""
        fetcher = self.fetcher
        try:
            answer = await asyncio.wait_for(
                fetcher.get(robots_url, limit=PARSE_LIMIT),
                timeout=None if self.links_only else fetcher.timeout_s)
        except TimeoutError:
            return f"sent no complete answer within {fetcher.timeout_s:g} s (--timeout)"
        except FetchError as exc:
            if exc.message.startswith("ERR_TOO_MANY_REDIRECTS"):
                self._note(robots_url, f"robots.txt: {exc.message}; treated as missing "
                           "(everything allowed)")
                return _State(Rules([]), time.monotonic() + CACHE_S)
            if exc.message.startswith(("connect ECONNREFUSED", "getaddrinfo ENOTFOUND")):
                # no server there at all: a page request cannot burden one either, and
                # fails with the error that says what is wrong (asked again later)
                return _State(Rules([]), time.monotonic() + UNREACHABLE_RETRY_S)
            return f"could not be fetched ({exc.message[:300]})"
        status = answer.status
        if status >= 500 or status == 429:
            return f"answered {status}"
        if answer.problem is not None and answer.problem.startswith("deadline"):
            return f"answered {status} but its body did not arrive in time"
        if answer.problem is not None:  # a body that cannot be decoded: as an empty file
            self._note(robots_url, f"robots.txt: {answer.problem[:300]}; read as empty "
                       "(everything allowed)")
            return _State(Rules([]), time.monotonic() + CACHE_S)
        until = time.monotonic() + CACHE_S
        if 300 <= status < 400:
            self._note(robots_url, f"robots.txt: {robots_url} answered {status} without a "
                       "redirect to follow; treated as missing (everything allowed)")
        if not 200 <= status < 300 or answer.body is None:
            return _State(Rules([]), until)  # unavailable (4xx): everything allowed
        body = answer.body
        text = body.decode("utf-8", errors="replace").lstrip("\ufeff")
        rules, understood = parse(text, self.product)
        sitemaps = sitemap_lines(text)
        if body.strip() and not understood and not sitemaps:
            self._note(robots_url, f"robots.txt: no rule could be read in the {len(body):,} "
                       f"bytes of {robots_url} (not a robots.txt?); everything allowed")
        elif len(body) >= PARSE_LIMIT:
            self._note(robots_url, f"robots.txt: {robots_url} is longer than {PARSE_LIMIT:,} "
                       "bytes; the rest is ignored (RFC 9309 §2.5)")
        return _State(rules, until, sitemaps=sitemaps)
