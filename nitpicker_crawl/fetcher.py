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
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urljoin

import httpx2 as httpx

from .urls import normalize

REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
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

    @property
    def is_html(self) -> bool:
        return self.content_type in HTML_TYPES

    def text(self) -> str:
        if self.body is None:
            return ""
        return self.body.decode(self.encoding or "utf-8", errors="replace")


class FetchError(Exception):
    """A URL that could not be fetched; ``message`` is what ``crawl_errors`` stores."""

    def __init__(self, url: str, message: str, *, redirects: list[Hop] | None = None) -> None:
        super().__init__(message)
        self.url = url
        self.message = message
        self.redirects = redirects or []


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


class Fetcher:
    """One shared HTTP client for the crawl (keep-alive, no automatic redirects)."""

    def __init__(self, *, user_agent: str, timeout_s: float, retry: int, parallels: int,
                 max_redirects: int = 10, disable_queries: bool = False) -> None:
        self.timeout_s = timeout_s
        self.retry = max(1, retry)
        self.max_redirects = max_redirects
        self.disable_queries = disable_queries
        limits = httpx.Limits(max_connections=max(4, parallels * 2),
                              max_keepalive_connections=max(4, parallels * 2))
        self.client = httpx.AsyncClient(headers={"User-Agent": user_agent}, limits=limits,
                                        follow_redirects=False, verify=True)

    async def close(self) -> None:
        await self.client.aclose()

    def _timeouts(self) -> list[float]:
        base = self.timeout_s
        steps = [max(1.0, base / 3), base, base * 2]
        return [steps[min(i, 2)] for i in range(self.retry)]

    async def _request(self, method: str, url: str, want_body: bool) -> Fetched:
        last: BaseException | None = None
        for timeout in self._timeouts():
            try:
                async with self.client.stream(method, url, timeout=timeout) as response:
                    ctype = normalize_content_type(response.headers.get("content-type"))
                    body = None
                    if want_body and method == "GET" and ctype in HTML_TYPES:
                        body = await response.aread()
                    length = response.headers.get("content-length")
                    return Fetched(
                        url=url, status=response.status_code,
                        status_text=response.reason_phrase or "", headers=_headers(response),
                        content_type=ctype,
                        content_length=int(length) if length and length.isdigit() else None,
                        body=body, encoding=response.charset_encoding,
                        set_cookies=response.headers.get_list("set-cookie"),
                    )
            except (httpx.TransportError, OSError) as exc:
                last = exc
                if isinstance(exc, httpx.ConnectError) and _is_permanent(exc):
                    break
                continue
        assert last is not None
        raise FetchError(url, describe_error(url, last))

    async def fetch(self, url: str, *, body: bool, head_first: bool = True,
                    gate: Callable[[str], bool] | None = None) -> Fetched:
        """Follow ``url``'s redirect chain to its final answer.

        ``body``: read the body of a final HTML answer (GET); ``head_first``: try HEAD
        before GET on each hop (False goes straight to a streamed GET, one request for
        an HTML page instead of two). ``gate(target)`` is asked before each redirect is
        followed; False raises :class:`RedirectRefused` without requesting the target
        (the soft cap sees redirect targets as it sees links).
        """
        hops: list[Hop] = []
        current = url
        for _ in range(self.max_redirects + 1):
            try:
                head: Fetched | None = None
                if head_first:
                    try:
                        head = await self._request("HEAD", current, False)
                    except FetchError:
                        head = None
                if head is not None and head.status not in HEAD_FALLBACK_STATUSES and not (
                        body and head.is_html and head.status not in REDIRECT_STATUSES):
                    answer = head
                else:  # no HEAD wanted, HEAD refused or broken, or the HTML body is needed
                    answer = await self._request("GET", current, body)
            except FetchError as exc:
                exc.redirects = hops
                raise
            location = answer.headers.get("location")
            if answer.status in REDIRECT_STATUSES and location:
                target = normalize(urljoin(current, location), disable_queries=self.disable_queries)
                hops.append(Hop(current, answer.status))
                if target is None or target == current:
                    answer.redirects = hops[:-1]
                    return answer
                if gate is not None and not gate(target):
                    raise RedirectRefused(target, hops)
                current = target
                continue
            answer.redirects = hops
            return answer
        raise FetchError(url, f"ERR_TOO_MANY_REDIRECTS {url}: more than {self.max_redirects} "
                              "redirects", redirects=hops)


def _is_permanent(exc: BaseException) -> bool:
    """Connection refused and unknown hosts do not get better by retrying at once."""
    message = describe_error("http://x/", exc)
    return message.startswith(("connect ECONNREFUSED", "getaddrinfo ENOTFOUND"))


async def sleep_ms(ms: int) -> None:
    if ms > 0:
        await asyncio.sleep(ms / 1000)
