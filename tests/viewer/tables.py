"""The tables of a viewer page as a person reads them: header texts and cell texts."""

from __future__ import annotations

from html.parser import HTMLParser


class _Tables(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: list[list[list[str]]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th") and self.tables and self.tables[-1]:
            self._cell = []
        elif tag == "br" and self._cell is not None:
            self._cell.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def tables(html: str) -> list[list[list[str]]]:
    """Every ``<table>`` of ``html``: rows of cell texts, the header row first."""
    parser = _Tables()
    parser.feed(html)
    return parser.tables


def table(html: str) -> list[dict[str, str]]:
    """The first table as one ``{header: cell}`` dict per body row."""
    rows = tables(html)[0]
    head = rows[0]
    return [dict(zip(head, row, strict=True)) for row in rows[1:]]
