"""Writing ``.nitpicker`` archives: :class:`ArchiveWriter` (the one owner of a write
connection) and the tar container, and beside them every rewrite of an archive — the
upgrade from upstream ≤ 0.9 and the conversions between formats 0.10 and 0.13."""

from .writer import ArchiveWriter, PageFields

__all__ = ["ArchiveWriter", "PageFields"]
