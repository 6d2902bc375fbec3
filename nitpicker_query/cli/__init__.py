"""``nitpicker-query`` on the command line: the parser built from the query catalog
(:mod:`.main`) and the renderers of a result for a terminal or a pipe (:mod:`.render`)."""
