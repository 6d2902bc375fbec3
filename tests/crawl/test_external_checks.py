"""External links are checked beside the site, never in its way (issue 39, row 5).

A site on 127.0.0.1 links hosts on other loopback addresses: one that accepts and never
answers, one where nothing listens, one that answers slowly but answers. What a user
sees: every page of the site crawled, the slow host's links at 200 with their title (a
slow host is not a dead one), the dead hosts' links failed — the first with its own
error, the others of the same host *not requested*, each saying why.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.server
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import nitpicker_query as q
from nitpicker_crawl.crawl.frontier import Frontier, QueueItem
from tests.crawl.conftest import SiteHandler, local_site, run_crawl

HUNG, REFUSED, SLOW = "127.0.1.201", "127.0.1.202", "127.0.1.203"


class _SlowHost(SiteHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        time.sleep(1.0)
        self.answer(404 if self.path == "/robots.txt" else 200,
                    f"<title>Slow {self.path}</title>", content_type="text/html")

    do_HEAD = do_GET


@contextlib.contextmanager
def _elsewhere() -> Iterator[dict[str, list[str]]]:
    """The three external hosts, and the links to each."""
    hung = socket.socket()
    hung.bind((HUNG, 0))
    hung.listen(16)   # the kernel accepts; nobody ever answers
    with socket.socket() as probe:
        probe.bind((REFUSED, 0))
        closed = probe.getsockname()[1]
    slow = http.server.ThreadingHTTPServer((SLOW, 0), _SlowHost)
    threading.Thread(target=slow.serve_forever, daemon=True).start()
    try:
        yield {
            "hung": [f"http://{HUNG}:{hung.getsockname()[1]}/h{k}" for k in range(3)],
            "refused": [f"http://{REFUSED}:{closed}/r{k}" for k in range(2)],
            "slow": [f"http://{SLOW}:{slow.server_address[1]}/s{k}" for k in range(3)],
        }
    finally:
        slow.shutdown()
        slow.server_close()
        hung.close()


def _site(links: list[str]) -> type[http.server.BaseHTTPRequestHandler]:
    class Site(SiteHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            n = self.path.strip("/").removeprefix("p")
            if self.path == "/" or (n.isdigit() and int(n) < 6):
                k = int(n or 0)
                out = "".join(f'<a href="{u}">x</a>' for u in links[k::6])
                self.answer(200, f"<title>Page {k}</title><a href='/p{k + 1}'>next</a>"
                            f"<a href='/gone'>gone</a>{out}", content_type="text/html")
            else:
                self.answer(404, "<title>Not found</title>", content_type="text/html")
    return Site


def _all(hosts: dict[str, list[str]]) -> list[str]:
    return [url for urls in hosts.values() for url in urls]


def _errors(archive: Path) -> dict[str, str]:
    with q.open_archive(archive) as a:
        return {r[0]: r[1] for r in a.execute("SELECT url, message FROM crawl_errors")}


def test_dead_hosts_fail_their_other_links_at_once_and_slow_ones_are_waited_for(
        tmp_path: Path) -> None:
    with _elsewhere() as hosts, local_site(_site(_all(hosts))) as base:
        r = run_crawl(tmp_path, base, "-o", "x.nitpicker", "--no-render", "--silent",
                      "--external-timeout", "3", "--ignore-robots", "--no-sitemap")
        assert r.returncode == 2, r.stderr   # only external links failed
    archive = tmp_path / "x.nitpicker"
    pages = {p["url"]: p for p in q.list_pages(archive, limit=100)["items"]}
    # the site itself: every page, its own 404 too
    assert [pages[f"{base}p{k}"]["status"] for k in range(1, 6)] == [200] * 5
    assert pages[base + "gone"]["status"] == 404
    # slow is not dead: each link asked and answered, its title kept
    assert [pages[u]["status"] for u in hosts["slow"]] == [200, 200, 200]
    assert pages[hosts["slow"][2]]["title"] == "Slow /s2"
    errors = _errors(archive)
    hung = [errors[u] for u in hosts["hung"]]
    asked = [m for m in hung if "not requested" not in m]
    # two links of a host are asked at once at most: one or two waited the whole budget
    assert 1 <= len(asked) <= 2
    assert all(m.startswith("deadline: ") and "within 3 s (--external-timeout)" in m
               for m in asked)
    for m in hung:
        if "not requested" in m:
            assert m.startswith("deadline: ") and f"{HUNG}:" in m and "sent no answer to" in m
    refused = [errors[u] for u in hosts["refused"]]
    assert all(m.startswith(f"connect ECONNREFUSED {REFUSED}:") for m in refused)


def test_a_robots_txt_that_never_answers_shuts_its_host_only(tmp_path: Path) -> None:
    """The other direction for robots.txt: the hung host's robots.txt makes its links
    failures naming it; the slow host's robots.txt (a 404, slowly) allows its links."""
    with _elsewhere() as hosts, local_site(_site(_all(hosts))) as base:
        r = run_crawl(tmp_path, base, "-o", "x.nitpicker", "--no-render", "--silent",
                      "--external-timeout", "3", "--no-sitemap")
        assert r.returncode == 2, r.stderr
    archive = tmp_path / "x.nitpicker"
    errors = _errors(archive)
    assert all(errors[u].startswith("robots.txt unreachable: ") and "--external-timeout" in
               errors[u] for u in hosts["hung"])
    pages = {p["url"]: p for p in q.list_pages(archive, limit=100)["items"]}
    assert [pages[u]["status"] for u in hosts["slow"]] == [200, 200, 200]


def test_the_external_lane_serves_each_host_in_turn_two_at_a_time() -> None:
    """One link of a host never heard of at a time (a second would wait on its robots.txt
    or its silence too); two at a time once one of its links is done."""
    async def run() -> list[str]:
        frontier = Frontier(per_host=2)
        for url in ("http://a/0", "http://a/1", "http://a/2", "http://a/3", "http://b/1"):
            frontier.add(url, external=True, metadata_only=True)
        first = await frontier.next(external=True)
        assert first is not None and first.url == "http://a/0"
        alone = await frontier.next(external=True)
        assert alone is not None and alone.url == "http://b/1"   # a waits for its first
        await frontier.done(first)
        await frontier.done(alone)
        frontier.add("http://site/page", external=False, metadata_only=False)
        got = []
        for _ in range(2):   # a is settled: two at a time
            item = await frontier.next(external=True)
            assert item is not None
            got.append(item.url)
        # a's third waits while two of a's are in flight; the site's lane is its own
        site = await frontier.next()
        assert site is not None and site.url == "http://site/page"
        waiting = asyncio.ensure_future(frontier.next(external=True))
        await asyncio.sleep(0.05)
        assert not waiting.done()
        await frontier.done(QueueItem("http://a/1", True, True))
        third = await asyncio.wait_for(waiting, 1)
        assert third is not None
        return [*got, third.url]

    assert asyncio.run(run()) == ["http://a/1", "http://a/2", "http://a/3"]
