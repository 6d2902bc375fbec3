"""Unused files (issue 25): the site's sitemap names /static/old.css, which no page loads,
and /static/site.css, which every page loads. A rendered crawl stores the first as a
resource of the inventory that no page refers to and lists it; the second is loaded, so
it is not listed (and not fetched again). A ``--no-render`` crawl recorded no loads: the
query says it cannot tell rather than calling every file unused."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import nitpicker_query as q
from nitpicker_crawl.trapzoo import TrapZoo
from nitpicker_query.exceptions import NotRecorded
from tests.crawl.conftest import Crawl

QUERY = str(Path(sys.executable).with_name("nitpicker-query"))


def test_the_file_no_page_loads_is_listed(rendered_crawl: Crawl, zoo: TrapZoo) -> None:
    unused = q.list_unused_resources(rendered_crawl.archive)
    assert unused["items"] == [{"url": f"{zoo.url}static/old.css", "status": 200,
                                "contentType": "text/css", "contentLength": 14,
                                "source": "inventory-seed"}]
    assert unused["total"] == 1
    # the other direction: the sitemap's site.css is loaded by every page
    used = q.get_resource_referrers(rendered_crawl.archive,
                                    resource_url=f"{zoo.url}static/site.css")
    assert used is not None and used["total"] > 100


def test_an_inventory_file_is_no_orphan_page(rendered_crawl: Crawl, zoo: TrapZoo) -> None:
    for listing in (q.list_pages(rendered_crawl.archive, search="/static/", limit=100),
                    q.list_isolated_pages(rendered_crawl.archive, limit=100)):
        assert all("/static/" not in i["url"] for i in listing["items"])


def test_the_crawl_says_where_they_are(rendered_crawl: Crawl) -> None:
    last = [line for line in rendered_crawl.stderr.splitlines() if "inventory:" in line]
    assert last and "of which 1 file (stylesheets, scripts, images …) stored as resources " \
        "(nitpicker-query unused-resources" in last[-1]


def test_no_render_cannot_tell(plain_crawl: Crawl) -> None:
    message = (f"{plain_crawl.archive.name} records no resource any page loaded (a "
               "--no-render crawl, or pages that load nothing): which files are unused "
               "cannot be told; crawl with rendering (the default) to find out")
    with pytest.raises(NotRecorded) as caught:
        q.list_unused_resources(plain_crawl.archive)
    assert str(caught.value) == message
    done = subprocess.run([QUERY, "unused-resources", str(plain_crawl.archive)],
                          capture_output=True, text=True)
    assert done.returncode != 0 and done.stdout == ""
    assert done.stderr.strip().endswith(message) and done.stderr.count("\n") == 1


def test_the_cli_table(rendered_crawl: Crawl, zoo: TrapZoo) -> None:
    out = subprocess.run([QUERY, "unused-resources", str(rendered_crawl.archive), "--format",
                          "csv"], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["url,status,contentType,source,contentLength",
                                f"{zoo.url}static/old.css,200,text/css,inventory-seed,14"]
