"""Getting a URL's answer: URL identity and scope, robots.txt, HTTP with its redirect
chains and bounded bodies, charsets, Chromium rendering with its tab memory bound, and
the network outages that pause a crawl."""
