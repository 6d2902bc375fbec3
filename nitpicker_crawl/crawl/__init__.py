"""The crawl itself: the frontier, the loop and its workers, what each answer records in
the archive, the site's inventory, stopping, and the progress line."""
