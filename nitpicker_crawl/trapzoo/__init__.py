"""TrapZoo: a deterministic local site full of crawler traps and plumbing cases.

Start it with ``python -m nitpicker_crawl.trapzoo``; it serves a main origin and a second
("external") origin on free 127.0.0.1 ports. See :mod:`.site` for the families.
"""

from .server import TrapZoo

__all__ = ["TrapZoo"]
