"""nitpicker_crawl: the crawler and the archive writer (the only code that writes archives)."""
