"""Hosts as a browser reads them (WHATWG URL Standard, host parsing for http and https).

A crawler that reads a host differently from the browser a visitor uses fetches another
machine than the link leads to, or treats one site as two. So a host is parsed the way
Chromium and Firefox do it:

======================================  ===========================  =====================
as written in the link                  host                         why
======================================  ===========================  =====================
``EXAMPLE.com``                         ``example.com``              ASCII case
``ｅｘａｍｐｌｅ.com`` (fullwidth)      ``example.com``              UTS 46 mapping
``Bücher.example``                      ``xn--bcher-kva.example``    IDNA: the A-label is
                                                                     what goes on the wire
``xn--bcher-kva.example``               ``xn--bcher-kva.example``    one identity for both
``%65xample.com``                       ``example.com``              percent-decoded first
``0177.0.0.1``, ``0x7f.1``,             ``127.0.0.1``                IPv4 numbers in octal,
``2130706433``                                                       hex, or fewer parts
``[::FFFF:127.0.0.1]``                  ``[::ffff:7f00:1]``          IPv6 compressed
``exa mple.com``, ``a<b``, ``1.2.3.256``  refused (None)             forbidden code point /
                                                                     an invalid IPv4 number
======================================  ===========================  =====================

A trailing dot is kept (``example.com.`` is another origin to a browser too). Refused
hosts make the URL not a link, as in a browser, where such an ``href`` goes nowhere.
"""

from __future__ import annotations

import functools
import ipaddress
import re
from urllib.parse import unquote_to_bytes

import idna

_FORBIDDEN = re.compile(r"[\x00-\x20#/:<>?@\[\\\]^|%\x7f]")
"""Forbidden domain code points: C0 controls, space and the URL syntax characters."""

_NUMBER = re.compile(r"^(0[xX][0-9a-fA-F]*|[0-9]+)$")
MAX_HOST_LENGTH = 253
"""Longest host a DNS name can be; a longer one names no machine."""


@functools.lru_cache(maxsize=4096)
def parse_host(raw: str) -> str | None:
    """The host a browser requests for ``raw`` (the authority's host part), or None.

    Cached: a crawl meets a handful of hosts in millions of links."""
    if not raw:
        return None
    if raw.startswith("["):
        if not raw.endswith("]"):
            return None
        try:
            return f"[{ipaddress.IPv6Address(raw[1:-1]).compressed}]"
        except ValueError:
            return None
    try:
        domain = unquote_to_bytes(raw).decode("utf-8")
    except UnicodeDecodeError:
        return None
    ascii_domain = _to_ascii(domain)
    if ascii_domain is None or _FORBIDDEN.search(ascii_domain):
        return None
    if _ends_in_number(ascii_domain):
        return _ipv4(ascii_domain)
    if len(ascii_domain.rstrip(".")) > MAX_HOST_LENGTH:
        return None
    return ascii_domain


def _to_ascii(domain: str) -> str | None:
    """UTS 46 mapping (non-transitional), then each non-ASCII label as its A-label.

    ASCII hosts are only lower-cased: browsers accept ``_`` and other characters that
    the strict IDNA 2008 rules refuse (``my_host.local``). The mapping folds fullwidth
    letters and digits, and turns the ideographic full stop into a dot.
    """
    if domain.isascii():
        return domain.lower()
    try:
        mapped = idna.uts46_remap(domain, std3_rules=False, transitional=False)
    except (idna.IDNAError, UnicodeError, ValueError):
        return None
    labels = []
    for label in mapped.split("."):
        if label.isascii():
            labels.append(label.lower())
            continue
        try:
            labels.append("xn--" + label.encode("punycode").decode("ascii"))
        except UnicodeError:
            return None
    return ".".join(labels)


def _ends_in_number(domain: str) -> bool:
    parts = domain.split(".")
    if parts[-1] == "" and len(parts) > 1:
        parts.pop()
    return bool(_NUMBER.match(parts[-1]))


def _ipv4_number(part: str) -> int | None:
    if not part:
        return None
    if part[:2] in ("0x", "0X"):
        return int(part[2:], 16) if part[2:] else 0
    if len(part) > 1 and part[0] == "0":
        return int(part, 8) if all(c in "01234567" for c in part) else None
    return int(part) if part.isdigit() else None


def _ipv4(domain: str) -> str | None:
    """The WHATWG IPv4 parser: 1 to 4 parts, each decimal, ``0x`` hex or ``0`` octal; the
    last part fills the bytes the others left. Anything else is an invalid host."""
    parts = domain.split(".")
    if parts[-1] == "" and len(parts) > 1:
        parts.pop()
    if len(parts) > 4:
        return None
    numbers = []
    for part in parts:
        if not _NUMBER.match(part):
            return None
        number = _ipv4_number(part)
        if number is None:
            return None
        numbers.append(number)
    if any(n > 255 for n in numbers[:-1]) or numbers[-1] >= 256 ** (5 - len(numbers)):
        return None
    address = numbers[-1]
    for i, n in enumerate(numbers[:-1]):
        address += n * 256 ** (3 - i)
    return str(ipaddress.IPv4Address(address))
