"""``nitpicker-crawl analyze``: plugins run over the archived pages, their findings
written into the archive (upstream's ``analysis_violations``), resumable and atomic.

Modules: :mod:`.plugin` (what a plugin is), :mod:`.store` (the tables), :mod:`.workspace`
(where the writes go), :mod:`.run` (the loop), :mod:`.cli` (the command), and one module
per plugin: :mod:`.axe`, :mod:`.vnu`, :mod:`.text`, :mod:`.keywords`,
:mod:`.lighthouse`.
"""
