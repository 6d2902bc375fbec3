"""Writing ``.nitpicker`` archives: :class:`ArchiveWriter` and the tar container."""

from .writer import ArchiveWriter, PageFields

__all__ = ["ArchiveWriter", "PageFields"]
