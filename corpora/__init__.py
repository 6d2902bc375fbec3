"""Corpora the tests and the benchmarks share: sites and archives written apart from the
rule they test, and kits around real software nobody here wrote (``corpora/real/``).

A rule that passes a corpus written by its own author proves little, so each generator
here was written by a helper briefed with how real sites (or broken servers) behave, never
with the rule it is measured against; the module's own docstring says what it holds and
what a complete answer is (its ground truth). Not part of the distribution.

========================= ================================================= ==========================
module                    what it is                                        written apart from
========================= ================================================= ==========================
``example_corp``          a company site, finite sections beside trap       the soft cap
                          families (calendars, sessions, pagers, feeds)
``holdout_works``         a held-out site on a CMS with generic metadata:   the soft cap (its fourth
                          a catalogue of codes and prices, a one-title      generation), unseen while
                          thread, a real feed beside a trap feed            the rules were tuned
``template_site``         10,000 labelled pages of 25 templates with        page-cluster
                          shared chrome, third-party CSS, content ids
``multi_cms``             about seventy pages in eleven CMS markups, with   the main-region rules and
                          each page's main region and unused files          the unused-files query
``a11y_site``             a bilingual site with seeded accessibility,       the analyze plugins
                          HTML and text faults, and their truth
``hostile_site``          a server whose 85 paths misbehave as broken or    the crawler's limits
                          malicious servers do, and 12 robots.txt modes
``hostile_archives``      archives built to hurt a reader (lying tars,      — (written here, case by
                          bombs, foreign schemas)                           case from the attacks)
``fixture_archives``      the fixture archives of the archive format's      — (the format's own
                          specification (§8), every field known             examples)
``real/``                 MediaWiki, DokuWiki, Trac, Redmine, hgweb, the    everything: real software
                          Apache manual, Sphinx and Pelican output          from Debian and PyPI
========================= ================================================= ==========================
"""
