"""TrapZoo as a person running ``make demo`` sees it: a client that hangs up is no error."""

from __future__ import annotations

import socket
import struct
import time

import pytest

from nitpicker_crawl.trapzoo import TrapZoo


def _reset(host: str, port: int, sent: bytes) -> None:
    """Send ``sent`` and hang up with a TCP reset (SO_LINGER 0), as a killed crawler does."""
    with socket.create_connection((host, port), timeout=5) as sock:
        sock.sendall(sent)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))


@pytest.mark.parametrize("sent", [b"GET / HTTP/1.1\r\nHost: x\r\n", b"GET /blog/ HTTP/1.1\r\n"])
def test_a_client_that_resets_prints_no_traceback(capfd: pytest.CaptureFixture[str],
                                                   sent: bytes) -> None:
    with TrapZoo() as zoo:
        host, port = zoo.url.split("//")[1].rstrip("/").split(":")
        for _ in range(20):
            _reset(host, int(port), sent)
        time.sleep(0.5)  # the handler threads meet the reset
        # … and the site still answers
        with socket.create_connection((host, int(port)), timeout=5) as sock:
            sock.sendall(b"GET / HTTP/1.0\r\n\r\n")
            assert b" 200 " in sock.recv(15)
    err = capfd.readouterr().err
    assert "Traceback" not in err and "ConnectionResetError" not in err, err
