"""One module per query function; each function is re-exported by ``nitpicker_query``."""
