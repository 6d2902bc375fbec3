"""``nitpicker-viewer``: a read-only web viewer of ``.nitpicker`` archives.

The HTTP counterpart of the MCP server: every view and every ``/api/<query>`` endpoint
calls a query function of :mod:`nitpicker_query` (no SQL here), with the same options
(camelCase), envelopes and one-line errors.
"""
