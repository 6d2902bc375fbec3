"""``list_console_logs`` and ``get_page_console_logs``: what pages said to the console.

A rendered crawl keeps every page's console messages (``console.error``, ``warn``,
``log`` …) and uncaught errors (type ``pageerror``, with their stack): each distinct
message once in ``console_log_items``, each occurrence in ``page_console_logs``. A
``--no-render`` crawl runs no script and has none; an archive without the tables answers
empty lists. Format 0.13 keeps texts and URLs in its ref tables; both are read.

Upstream: ``list-console-logs.ts`` and ``get-page-console-logs.ts`` (0.15).
"""

from __future__ import annotations

from typing import Any

from ..archive.opening import Archive, opened
from .paging import check_choice, check_paging, envelope

SORTS = {"totalCount": "total", "pageCount": "pages", "text": "text", "type": "type"}
"""Sort keys (upstream's) → result columns."""


def _fields(a: Archive) -> str:
    """``type, text, url, line, column, stack`` of ``console_log_items c``, either format."""
    cols = set(a.columns("console_log_items"))
    if "text_id" in cols:   # format 0.13: through the ref tables
        def ref(table: str, column: str, key: str) -> str:
            return (f"(SELECT {column} FROM {table} WHERE id = c.{key})" if key in cols
                    else "NULL")
        text, url = ref("text_refs", "text", "text_id"), ref("url_refs", "url", "loc_url_id")
        stack = ref("text_refs", "text", "stack_text_id")
    else:
        text, url, stack = (f"c.{n}" if n in cols else "NULL"
                            for n in ("text", "loc_url", "stack"))
    return (f"c.type AS type, {text} AS text, {url} AS url, c.loc_line AS line, "
            f"c.loc_column AS col, {stack} AS stack")


def _present(a: Archive) -> bool:
    return a.has_table("console_log_items") and a.has_table("page_console_logs")


def list_console_logs(archive: Archive | str, *, type: str | None = None,
                      sort_by: str = "totalCount", sort_order: str = "desc",
                      limit: int = 100, offset: int = 0) -> dict[str, Any]:
    """Which console messages and uncaught errors did the site's pages produce?

    One item per distinct message (type, text and where it came from), most frequent
    first: ``type`` (``error``, ``warning``, ``log``, ``pageerror`` …), ``text``,
    ``url``/``line``/``column`` of its source, ``pageCount`` (distinct pages),
    ``totalCount`` (occurrences), ``samplePage`` (the first page it was seen on). The
    same error of a shared script on a thousand pages is one item. ``type`` filters
    exactly; ``sort_by`` totalCount, pageCount, text or type."""
    check_choice("sort_by", sort_by, tuple(SORTS))
    check_choice("sort_order", sort_order, ("asc", "desc"))
    limit, offset = check_paging(limit, offset)
    with opened(archive) as a:
        if not _present(a):
            return envelope([], 0, limit, offset)
        where, params = ("WHERE c.type = ?", [type]) if type is not None else ("", [])
        base = (f"FROM page_console_logs l JOIN console_log_items c ON c.id = l.consoleLogId "
                f"{where}")
        total = a.count(f"SELECT count(DISTINCT c.id) {base}", params)
        order = f"{SORTS[sort_by]} {'DESC' if sort_order == 'desc' else 'ASC'}"
        rows = a.execute(
            f"SELECT {_fields(a)}, count(DISTINCT l.pageId) AS pages, count(*) AS total, "
            f"min(l.pageId) AS first {base} "
            f"GROUP BY c.id ORDER BY {order}, total DESC, c.id LIMIT ? OFFSET ?",
            (*params, limit, offset)).fetchall()
        firsts = sorted({r["first"] for r in rows})
        marks = ", ".join("?" * len(firsts))
        urls = dict(a.rows(f"SELECT id, url FROM pages WHERE id IN ({marks})", firsts)
                    ) if firsts else {}
    items = [{"type": r["type"], "text": r["text"], "url": r["url"], "line": r["line"],
              "column": r["col"], "pageCount": r["pages"], "totalCount": r["total"],
              "samplePage": urls.get(r["first"])} for r in rows]
    return envelope(items, total, limit, offset)


def get_page_console_logs(archive: Archive | str, *, url: str) -> dict[str, Any] | None:
    """Every console message and uncaught error of one page, in the order they came:
    ``{url, count, logs: [{type, text, url, line, column, stack, ts}]}`` (``stack`` for
    uncaught errors; ``ts`` epoch ms). None when the URL is not in the archive."""
    with opened(archive) as a:
        page = a.execute("SELECT id FROM pages WHERE url = ?", (url,)).fetchone()
        if page is None:
            return None
        if not _present(a):
            return {"url": url, "count": 0, "logs": []}
        rows = a.execute(
            f"SELECT {_fields(a)}, l.ts AS ts FROM page_console_logs l JOIN "
            f"console_log_items c ON c.id = l.consoleLogId WHERE l.pageId = ? ORDER BY l.id",
            (page["id"],)).fetchall()
    logs = [{"type": r["type"], "text": r["text"], "url": r["url"], "line": r["line"],
             "column": r["col"], "stack": r["stack"], "ts": r["ts"]} for r in rows]
    return {"url": url, "count": len(logs), "logs": logs}
