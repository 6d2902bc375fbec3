"""Kits around real software nobody here wrote, each installed from Debian or PyPI,
filled through the software's own tools and served on 127.0.0.1 (:mod:`.serving`)."""
