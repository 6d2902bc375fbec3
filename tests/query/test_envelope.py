"""Every list query returns the one envelope, and pages through all of its rows."""

from __future__ import annotations

from pathlib import Path

import pytest

from nitpicker_query import get_template_clusters
from nitpicker_query.queries.catalog import QUERIES, QuerySpec
from tests.query.test_readonly import SAMPLE_ARGS

LISTS = [s for s in QUERIES if s.is_list]


@pytest.mark.parametrize("spec", LISTS, ids=lambda s: s.name)
def test_envelope_and_paging(spec: QuerySpec, extended_archive: Path) -> None:
    args = SAMPLE_ARGS.get(spec.name, {})
    if spec.name == "find_mismatches":
        args = {"type": "canonical"}
    if spec.name == "get_template_cluster":  # a key the archive has
        args = {"key": get_template_clusters(extended_archive)["items"][0]["key"]}
    full = spec.function(extended_archive, **args, limit=1000)
    assert list(full)[-5:] == ["items", "total", "limit", "offset", "nextOffset"]
    assert full["total"] == len(full["items"]) and full["nextOffset"] is None
    collected, offset = [], 0
    while True:
        page = spec.function(extended_archive, **args, limit=1, offset=offset)
        assert len(page["items"]) <= 1 and page["total"] == full["total"]
        collected += page["items"]
        if page["nextOffset"] is None:
            break
        offset = page["nextOffset"]
    assert collected == full["items"]


@pytest.mark.parametrize("spec", LISTS, ids=lambda s: s.name)
def test_every_list_has_limit_and_offset_params(spec: QuerySpec) -> None:
    names = [p.name for p in spec.params]
    assert "limit" in names and "offset" in names
