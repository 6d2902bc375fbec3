"""nitpicker_mcp: the stdio MCP server over nitpicker_query (imports nothing else of ours)."""
