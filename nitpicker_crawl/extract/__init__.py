"""What a fetched page says, as archive columns: the no-render parser, metadata and
links, the body hash and main content, technologies, the site's inventory (sitemaps),
and the template clusters computed at the end of a crawl."""
