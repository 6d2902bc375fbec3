"""Console messages (issue 25): a rendered crawl keeps what each page said to the console
and its uncaught errors; the queries aggregate them across pages. On real crawls of
TrapZoo, whose /js/ and /slow/ pages log the same error from a shared script, and /js/
also a warning and an uncaught exception; ``--no-render`` runs no script and has none."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import nitpicker_query as q
from nitpicker_crawl.trapzoo import TrapZoo
from tests.crawl.conftest import Crawl

QUERY = str(Path(sys.executable).with_name("nitpicker-query"))


def test_a_shared_error_is_one_message_on_two_pages(rendered_crawl: Crawl,
                                                    zoo: TrapZoo) -> None:
    logs = q.list_console_logs(rendered_crawl.archive)
    ours = {(i["type"], i["text"]): i for i in logs["items"]
            if "trapzoo" in (i["text"] or "")}   # the browser may log its own too
    widget = ours[("error", "trapzoo: widget failed to load")]
    assert (widget["pageCount"], widget["totalCount"]) == (2, 2)
    assert widget["samplePage"] in (f"{zoo.url}js/", f"{zoo.url}slow/")
    warning = ours[("warning", "trapzoo: deprecated API used")]
    assert (warning["pageCount"], warning["totalCount"]) == (1, 1)
    [uncaught] = [i for (kind, _), i in ours.items() if kind == "pageerror"]
    assert "trapzoo: cart is not defined" in uncaught["text"]
    # most frequent first, and the type filter both ways
    counts = [i["totalCount"] for i in logs["items"]]
    assert counts == sorted(counts, reverse=True)
    errors = q.list_console_logs(rendered_crawl.archive, type="error")["items"]
    assert {i["type"] for i in errors} == {"error"} and widget in errors
    assert q.list_console_logs(rendered_crawl.archive, type="nope")["items"] == []


def test_one_pages_messages_in_order(rendered_crawl: Crawl, zoo: TrapZoo) -> None:
    page = q.get_page_console_logs(rendered_crawl.archive, url=f"{zoo.url}js/")
    assert page is not None
    kinds = [(log["type"], log["text"]) for log in page["logs"]]
    ours = [k for k in kinds if "trapzoo" in (k[1] or "")]
    assert [k[0] for k in ours] == ["error", "warning", "pageerror"]   # the page's order
    uncaught = page["logs"][kinds.index(ours[2])]
    assert uncaught["stack"] and "cart is not defined" in uncaught["stack"]
    # a page that loads neither script has none of their messages (the browser's own,
    # such as a resource that failed to load, may come on any page)
    quiet = q.get_page_console_logs(rendered_crawl.archive, url=f"{zoo.url}products/")
    assert quiet is not None and quiet["url"] == f"{zoo.url}products/"
    assert not any("trapzoo" in (log["text"] or "") for log in quiet["logs"])
    assert q.get_page_console_logs(rendered_crawl.archive, url="http://nowhere/") is None


def test_no_render_runs_no_script(plain_crawl: Crawl, zoo: TrapZoo) -> None:
    assert q.list_console_logs(plain_crawl.archive)["total"] == 0
    page = q.get_page_console_logs(plain_crawl.archive, url=f"{zoo.url}js/")
    assert page is not None and page["logs"] == []


def test_cli_and_the_other_format(rendered_crawl: Crawl, zoo: TrapZoo,
                                  tmp_path: Path) -> None:
    r = subprocess.run([QUERY, "console-logs", str(rendered_crawl.archive), "--type",
                        "pageerror", "--format", "json"], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    assert any("cart is not defined" in i["text"] for i in json.loads(r.stdout)["items"])
    r = subprocess.run([QUERY, "console-logs", str(rendered_crawl.archive), "--sort-by",
                        "nope"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "--sort-by" in r.stderr
    new = tmp_path / "site-0.13.nitpicker"
    done = subprocess.run([str(Path(sys.executable).with_name("nitpicker-crawl")), "convert",
                           str(rendered_crawl.archive), "--to", "0.13", "-o", str(new)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    left = [line for line in done.stderr.splitlines() if "not carried over" in line]
    assert not any("console" in line for line in left), left
    assert q.list_console_logs(new) == q.list_console_logs(rendered_crawl.archive)
