"""Kinds of hard failures (``status = -1``), derived from the error message on read.

The message is never classified at write time (docs/archive-format.md): the kind is a
reading of it, so an improved rule applies to old archives too. The first ten kinds
are our crawler's own (a limit of docs/security.md was reached); the rest are
upstream's. Rules are tried in
order, case-insensitively, and the first match wins — ``EAI_AGAIN`` is a transient DNS
failure even though the same line says ``getaddrinfo``.
"""

from __future__ import annotations

import re

_RULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    # our crawler's limits (docs/security.md): the page was not requested, or cut short
    ("robots-unreachable", ("robots.txt unreachable",)),
    ("body-too-large", ("body-too-large:",)),
    ("deadline", ("deadline:",)),
    ("renderer-memory", ("renderer-memory:",)),
    ("renderer-crash", ("renderer crashed",)),
    ("content-decoding", ("ERR_CONTENT_DECODING_FAILED",)),
    ("too-many-redirects", ("ERR_TOO_MANY_REDIRECTS",)),
    ("links-left-out", ("(--max-links-per-page", "(--max-queued")),
    ("navigation-refused", ("navigation: a script or refresh",)),
    ("not-rendered", ("stored as the server sent it, not rendered",)),
    ("dns-transient", ("EAI_AGAIN", "EREFUSED")),
    ("dns", ("ENOTFOUND", "getaddrinfo", "ERR_NAME_NOT_RESOLVED", "ERR_NAME_RESOLUTION_FAILED",
             "Name or service not known", "nodename nor servname")),
    ("tls", ("ERR_CERT", "ERR_SSL", "CERT_", "SSL routines", "unable to verify",
             "self-signed certificate", "self signed certificate", "ERR_TLS",
             "certificate verify failed", "Hostname/IP does not match certificate's altnames",
             "does not match certificate")),
    ("connection-refused", ("ECONNREFUSED", "ERR_CONNECTION_REFUSED", "Connection refused")),
    ("connection-reset", ("ECONNRESET", "socket hang up", "ERR_CONNECTION_RESET",
                          "ERR_CONNECTION_CLOSED", "ERR_EMPTY_RESPONSE",
                          "Connection reset by peer", "Server disconnected")),
    ("connection-timeout", ("ETIMEDOUT", "ERR_CONNECTION_TIMED_OUT", "ERR_TIMED_OUT")),
    ("local-network", ("ERR_INTERNET_DISCONNECTED", "ERR_NETWORK_CHANGED",
                       "ERR_NETWORK_IO_SUSPENDED", "ERR_ADDRESS_UNREACHABLE",
                       "ERR_NETWORK_UNREACHABLE", "ENETUNREACH", "EHOSTUNREACH",
                       "EADDRNOTAVAIL", "ENOTCONN", "EPIPE", "Network is unreachable")),
    ("parse-error", ("Parse Error", "Expected HTTP/", "Unexpected end of stream")),
    ("client-blocked", ("ERR_BLOCKED_BY_", "ERR_CLEARTEXT_NOT_PERMITTED",
                        "ERR_NETWORK_ACCESS_REVOKED")),
    ("protocol", ("Protocol error", "Target closed", "Session closed",
                  "Execution context was destroyed", "detached Frame", "detached frame")),
    ("timeout", ("Navigation timeout", "TimeoutError", "Timed out", "Timeout: http",
                 "timed out")),
)
_RACE = re.compile(r"Race \d+")
_TIMEOUT_MS = re.compile(r"timeout of \d+ ?ms exceeded", re.IGNORECASE)

ERROR_KINDS: tuple[str, ...] = (*(kind for kind, _ in _RULES), "unknown")


def classify_error_kind(message: str | None) -> str:
    """The kind of a failure message (``dns``, ``tls``, ``timeout``, …, ``unknown``).

    >>> classify_error_kind("getaddrinfo ENOTFOUND example.invalid")
    'dns'
    >>> classify_error_kind("getaddrinfo EAI_AGAIN example.com")
    'dns-transient'
    >>> classify_error_kind(None)
    'unknown'
    """
    if not message:
        return "unknown"
    lowered = message.lower()
    for kind, needles in _RULES:
        if any(n.lower() in lowered for n in needles):
            return kind
        if kind == "protocol" and (_RACE.search(message) or _TIMEOUT_MS.search(message)):
            return "timeout"
    return "unknown"
