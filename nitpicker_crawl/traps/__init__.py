"""Crawler traps: the soft cap that suspects clusters while crawling, the deferral that
lets a suspect's own pages decide, the bounded memory of content seen, and which pages
each cap event refused."""
