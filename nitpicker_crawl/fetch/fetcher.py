"""HTTP fetching: redirect chains hop by hop, HEAD preflight with GET fallback, retries.

Redirects are followed by hand so the archive can record every hop
(``redirectDestId`` of each source points at the final page). Per hop:

- ``HEAD`` first (no body transferred); a server that answers 405, 501 or 503 to HEAD,
  or breaks the connection, times out or sends garbage, is asked again with ``GET``
  (bodies of non-HTML answers are not read) — WAFs and frameworks often mishandle HEAD;
- transport failures are retried up to ``retry`` attempts with an escalating timeout
  (``timeout/3``, then ``timeout``, then ``2×timeout``): a slow server gets more time,
  a healthy crawl is not held up by the first attempt;
- a failure that survives the retries becomes a :class:`FetchError` whose message
  starts with the canonical token upstream's classifier knows (``getaddrinfo ENOTFOUND``,
  ``ECONNREFUSED``, ``ETIMEDOUT`` …), so the read side derives the same error kind.

What a server controls is bounded (docs/security.md, "Sites from strangers"):

- **time**: each attempt has a deadline for the whole exchange — connect, headers and
  body — not only for each socket read (``--timeout``: a third of it for the first
  attempt, then all of it, then twice), and the whole URL, every hop and retry
  together, has ``--page-timeout``. A body still arriving then is a ``deadline``
  problem of a page whose status and headers are kept;
- **bytes**: bodies are decoded here, layer by layer and counted as they stream
  (:mod:`nitpicker_crawl.fetch.body`): past ``--max-body-size`` decoded bytes the page is a
  ``body-too-large`` problem with its status and headers, whatever the compression;
- another host's links are checked by a fetcher of their own (``dead_hosts``): once a
  host is found not to exist (DNS) or to refuse connections, every other link to it fails
  at once with the same message instead of paying the same wait again — an offline crawl
  of a manual linking 600 internet URLs pays one lookup per host, not three per URL; a
  host that accepted no connection, or sent not even a status line within the whole
  external deadline, fails its other links at once too, each saying it was *not
  requested* and which link of that host went unanswered;
- a same-site URL that redirects to another host ends at that host: under
  ``--no-fetch-external`` it is not requested (:class:`ExternalRedirect`), otherwise it
  is fetched as external links are, metadata only.

The user's request headers (``--header``, ``--authorization``, ``--header-file``) are
added per request, by the URL of that request alone
(:meth:`~nitpicker_crawl.fetch.request_headers.SiteHeaders.for_url`): since redirects are
followed here hop by hop, a hop to another host is asked without them, whatever the hop
before carried.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urljoin

import httpx2 as httpx

from .body import ACCEPT_ENCODING, BodyTooLarge, UndecodableBody, read_body
from .charset import decode_html
from .request_headers import SiteHeaders
from .urls import normalize

REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
MAX_DEAD_HOSTS = 100_000
"""Hosts remembered as dead (a page linking a million invented hosts stops growing it)."""
HEAD_FALLBACK_STATUSES = frozenset({405, 501, 503})
HTML_TYPES = ("text/html", "application/xhtml+xml")


@dataclass
class Hop:
    url: str
    status: int


@dataclass
class Fetched:
    """The final answer of a chain: where it ended, what it said, and how it got there."""

    url: str
    status: int
    status_text: str
    headers: dict[str, str]
    content_type: str | None
    content_length: int | None
    redirects: list[Hop] = field(default_factory=list)
    body: bytes | None = None
    encoding: str | None = None
    set_cookies: list[str] = field(default_factory=list)  # each Set-Cookie header
    location: str | None = None  # the Location header, raw UTF-8 read as UTF-8
    problem: str | None = None  # why the body is missing: body-too-large, deadline, …

    @property
    def is_html(self) -> bool:
        return self.content_type in HTML_TYPES

    def text(self) -> str:
        """The body as a browser decodes it (:func:`nitpicker_crawl.fetch.charset.decode_html`)."""
        if self.body is None:
            return ""
        return decode_html(self.body, self.encoding)


class FetchError(Exception):
    """A URL that could not be fetched; ``message`` is what ``crawl_errors`` stores."""

    def __init__(self, url: str, message: str, *, redirects: list[Hop] | None = None) -> None:
        super().__init__(message)
        self.url = url
        self.message = message
        self.redirects = redirects or []


class ExternalRedirect(Exception):
    """A redirect left the site while external URLs are not fetched; ``hops`` led there."""

    def __init__(self, target: str, hops: list[Hop]) -> None:
        super().__init__(target)
        self.target = target
        self.hops = hops


class RedirectRefused(Exception):
    """A redirect pointed at a URL the caller's gate refused; ``hops`` led there."""

    def __init__(self, target: str, hops: list[Hop]) -> None:
        super().__init__(target)
        self.target = target
        self.hops = hops


def normalize_content_type(value: str | None) -> str | None:
    if not value:
        return None
    mime = value.split(";", 1)[0].strip().lower()
    return mime or None


def describe_error(url: str, exc: BaseException) -> str:
    """A failure message that begins with the token upstream's classifier expects."""
    host = httpx.URL(url).host
    text = f"{type(exc).__name__}: {exc}".strip()
    cause: BaseException | None = exc
    while cause is not None:
        if isinstance(cause, socket.gaierror):
            code = "EAI_AGAIN" if cause.errno == socket.EAI_AGAIN else "ENOTFOUND"
            return f"getaddrinfo {code} {host}: {text}"
        if isinstance(cause, ConnectionRefusedError):
            return f"connect ECONNREFUSED {host}: {text}"
        if isinstance(cause, ConnectionResetError):
            return f"read ECONNRESET {host}: {text}"
        cause = cause.__cause__ or cause.__context__
    lowered = text.lower()
    if isinstance(exc, httpx.TimeoutException) or "timed out" in lowered:
        return f"ETIMEDOUT {url}: {text}"
    if "name or service not known" in lowered or "nodename nor servname" in lowered:
        return f"getaddrinfo ENOTFOUND {host}: {text}"
    if "connection refused" in lowered or "connect call failed" in lowered:
        return f"connect ECONNREFUSED {host}: {text}"
    if "certificate" in lowered or "ssl" in lowered:
        return f"ERR_CERT {host}: {text}"
    if isinstance(exc, httpx.RemoteProtocolError):
        return f"Parse Error {url}: {text}"
    if isinstance(exc, httpx.ReadError | httpx.WriteError):
        return f"read ECONNRESET {host}: {text}"
    if isinstance(exc, httpx.ConnectError):
        return f"connect ECONNREFUSED {host}: {text}"
    return text


def _headers(response: httpx.Response) -> dict[str, str]:
    result: dict[str, str] = {}
    for key, value in response.headers.multi_items():
        result[key] = f"{result[key]}, {value}" if key in result else value
    return result


def _location(response: httpx.Response) -> str | None:
    """The ``Location`` header from its bytes: UTF-8 when it is valid UTF-8 (what
    browsers assume, so a raw ``/ünï`` is not encoded twice), Latin-1 otherwise."""
    for key, value in response.headers.raw:
        if key.lower() == b"location":
            try:
                return value.decode("utf-8")
            except UnicodeDecodeError:
                return value.decode("latin-1")
    return None


class Fetcher:
    """One shared HTTP client for the crawl (keep-alive, no automatic redirects)."""

    def __init__(self, *, user_agent: str, timeout_s: float, retry: int, parallels: int,
                 max_redirects: int = 10, disable_queries: bool = False,
                 max_body: int = 50 << 20, page_timeout_s: float = 120.0,
                 dead_hosts: bool = False, deadline_flag: str = "--page-timeout",
                 headers: SiteHeaders | None = None) -> None:
        self.timeout_s = timeout_s
        # the user's headers, for the site's hosts only; None or empty: no request has any
        self.headers = headers if headers else None
        self.deadline_flag = deadline_flag   # the flag that sets page_timeout_s
        # host → the failure that showed nothing is there (see the module docstring)
        self.dead_hosts: dict[str, tuple[str, str]] | None = {} if dead_hosts else None
        self.retry = max(1, retry)
        self.max_redirects = max_redirects
        self.disable_queries = disable_queries
        self.max_body = max_body
        self.page_timeout_s = page_timeout_s
        limits = httpx.Limits(max_connections=max(4, parallels * 2),
                              max_keepalive_connections=max(4, parallels * 2))
        self.client = httpx.AsyncClient(
            headers={"User-Agent": user_agent, "Accept-Encoding": ACCEPT_ENCODING},
            limits=limits, follow_redirects=False, verify=True)

    async def close(self) -> None:
        await self.client.aclose()

    def _timeouts(self) -> list[float]:
        base = self.timeout_s
        steps = [max(1.0, base / 3), base, base * 2]
        return [steps[min(i, 2)] for i in range(self.retry)]

    def deadline(self) -> float:
        """The loop time by which a URL fetched from now must be done (``--page-timeout``)."""
        return asyncio.get_running_loop().time() + self.page_timeout_s

    async def _request(self, method: str, url: str, want_body: bool, deadline: float, *,
                       any_type: bool = False, limit: int | None = None,
                       truncate: bool = False) -> Fetched:
        """One hop, retried. ``want_body`` reads the body of an HTML answer to a GET (of
        any answer with ``any_type``), at most ``limit`` decoded bytes (``truncate``:
        keep that much instead of calling it a problem)."""
        loop = asyncio.get_running_loop()
        last: BaseException | None = None
        partial: Fetched | None = None  # the last attempt that got its headers
        spent = 0.0
        # the host is read only by the external links' fetcher (the site's is one host)
        host = httpx.URL(url).netloc.decode("ascii", "replace") \
            if self.dead_hosts is not None else ""
        connect_failed = False
        if self.dead_hosts is not None and host in self.dead_hosts:
            first, message = self.dead_hosts[host]
            head, sep, tail = message.partition(": not requested: ")
            raise FetchError(url, head.replace(first, url) + sep + tail if sep
                             else message.replace(first, url))
        for timeout in self._timeouts():
            remaining = deadline - loop.time()
            if remaining <= 0:
                break
            budget = min(timeout, remaining)
            answer: Fetched | None = None
            started = loop.time()
            try:
                # connecting has a little less than the whole budget, so a host that
                # never accepts is told apart from a server that accepted and went quiet
                limits = httpx.Timeout(budget, connect=budget * 0.9)
                extra = self.headers.for_url(url) if self.headers is not None else None
                async with asyncio.timeout(budget), \
                        self.client.stream(method, url, timeout=limits,
                                           headers=extra or None) as response:
                    answer = self._answer(url, response)
                    if want_body and method == "GET" and (any_type or answer.is_html):
                        answer.body = await read_body(
                            response.aiter_raw(), response.headers.get("content-encoding"),
                            limit or self.max_body, truncate=truncate)
                    return answer
            except BodyTooLarge as exc:
                assert answer is not None
                answer.problem = (f"body-too-large: {url} decodes to more than "
                                  f"{exc.limit:,} bytes (--max-body-size)")
                return answer
            except UndecodableBody as exc:
                assert answer is not None
                answer.problem = f"ERR_CONTENT_DECODING_FAILED {url}: {exc}"
                return answer
            except (TimeoutError, httpx.TimeoutException) as exc:
                spent += loop.time() - started
                last, partial = exc, answer or partial
                connect_failed = isinstance(exc, httpx.ConnectTimeout)
                continue
            except (httpx.TransportError, OSError) as exc:
                last, partial = exc, None
                if isinstance(exc, httpx.ConnectError) and _is_permanent(exc):
                    self._remember_dead(host, url, describe_error(url, exc))
                    break
                continue
        if last is None or isinstance(last, TimeoutError | httpx.TimeoutException):
            cut = loop.time() >= deadline - 0.05
            within = (f"{self.page_timeout_s:g} s ({self.deadline_flag})" if cut else
                      f"{spent:.0f} s ({len(self._timeouts())} attempts, "
                      f"--timeout {self.timeout_s:g})")
            if partial is not None:  # the status and headers came, the body did not
                partial.body = None
                partial.problem = f"deadline: the body of {url} was not complete after {within}"
                return partial
            if connect_failed or cut:
                # accepted no connection, or sent not even a status line in the whole
                # budget: the host's other links are not requested (said so in each)
                kind = "deadline:" if cut else "ETIMEDOUT"   # the first link's own kind
                self._remember_dead(host, url, f"{kind} {url}: not requested: {host} "
                                    f"sent no answer to {url} within {within}")
            raise FetchError(url, f"deadline: {url} sent no complete answer within {within}"
                             if cut else f"ETIMEDOUT {url}: no complete answer within {within}")
        raise FetchError(url, describe_error(url, last))

    def _remember_dead(self, host: str, url: str, message: str) -> None:
        if self.dead_hosts is not None and len(self.dead_hosts) < MAX_DEAD_HOSTS:
            self.dead_hosts[host] = (url, message)

    def forget_dead_hosts(self) -> None:
        """The network was out: what failed meanwhile says nothing about the hosts."""
        if self.dead_hosts is not None:
            self.dead_hosts.clear()

    @staticmethod
    def _answer(url: str, response: httpx.Response) -> Fetched:
        length = response.headers.get("content-length")
        return Fetched(
            url=url, status=response.status_code, status_text=response.reason_phrase or "",
            headers=_headers(response),
            content_type=normalize_content_type(response.headers.get("content-type")),
            content_length=int(length) if length and length.isdigit() else None,
            encoding=response.charset_encoding,
            set_cookies=response.headers.get_list("set-cookie"), location=_location(response))

    async def get(self, url: str, *, limit: int, redirects: int = 5) -> Fetched:
        """A GET of any type with redirects followed (robots.txt), the body cut at
        ``limit`` bytes, everything within ``--page-timeout``."""
        deadline = self.deadline()
        current = url
        for _ in range(redirects + 1):
            answer = await self._request("GET", current, True, deadline, any_type=True,
                                         limit=limit, truncate=True)
            if answer.status in REDIRECT_STATUSES and answer.location:
                target = normalize(urljoin(current, answer.location))
                if target == current:
                    raise FetchError(url, f"ERR_TOO_MANY_REDIRECTS {url}: redirects to "
                                          "itself")
                if target is None:
                    return answer
                current = target
                continue
            return answer
        raise FetchError(url, f"ERR_TOO_MANY_REDIRECTS {url}: more than {redirects} "
                              "redirects")

    async def fetch(self, url: str, *, body: bool, head_first: bool = True,
                    gate: Callable[[str], bool] | None = None,
                    internal: Callable[[str], bool] | None = None,
                    follow_external: bool = True) -> Fetched:
        """Follow ``url``'s redirect chain to its final answer.

        ``body``: read the body of a final HTML answer (GET); ``head_first``: try HEAD
        before GET on each hop (False goes straight to a streamed GET, one request for
        an HTML page instead of two). ``gate(target)`` is asked before each redirect is
        followed; False raises :class:`RedirectRefused` without requesting the target
        (the soft cap sees redirect targets as it sees links). ``internal(target)``
        says whether a redirect stays on the site: one that leaves it raises
        :class:`ExternalRedirect` unless ``follow_external``, and is otherwise followed
        without a body, as external links are fetched.
        """
        hops: list[Hop] = []
        current = url
        deadline = self.deadline()
        for _ in range(self.max_redirects + 1):
            try:
                head: Fetched | None = None
                if head_first:
                    try:
                        head = await self._request("HEAD", current, False, deadline)
                    except FetchError as failed:
                        if failed.message.startswith(PERMANENT):
                            raise  # nothing there: a GET would only wait for it again
                        head = None
                if head is not None and head.status not in HEAD_FALLBACK_STATUSES and not (
                        body and head.is_html and head.status not in REDIRECT_STATUSES):
                    answer = head
                else:  # no HEAD wanted, HEAD refused or broken, or the HTML body is needed
                    answer = await self._request("GET", current, body, deadline)
            except FetchError as exc:
                exc.redirects = hops
                raise
            location = answer.location
            if answer.status in REDIRECT_STATUSES and location:
                target = normalize(urljoin(current, location), disable_queries=self.disable_queries)
                hops.append(Hop(current, answer.status))
                if target is None or target == current:
                    answer.redirects = hops[:-1]
                    return answer
                if internal is not None and not internal(target):
                    if not follow_external:
                        raise ExternalRedirect(target, hops)
                    body, head_first = False, True
                elif gate is not None and not gate(target):
                    raise RedirectRefused(target, hops)
                current = target
                continue
            answer.redirects = hops
            return answer
        raise FetchError(url, f"ERR_TOO_MANY_REDIRECTS {url}: more than {self.max_redirects} "
                              "redirects", redirects=hops)


PERMANENT = ("connect ECONNREFUSED", "getaddrinfo ENOTFOUND")
"""Failures that do not get better by retrying at once: no server, no such host."""


def _is_permanent(exc: BaseException) -> bool:
    return describe_error("http://x/", exc).startswith(PERMANENT)


async def sleep_ms(ms: int) -> None:
    if ms > 0:
        await asyncio.sleep(ms / 1000)
