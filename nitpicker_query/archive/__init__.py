"""Getting at an archive's database: the tar read safely, the extraction cache, the lock
convention shared with upstream, the stored-HTML codec, and :class:`Archive` over them."""
