"""Corpora the tests and the benchmarks share: sites and archives written apart from the
rule they test, and kits around real software nobody here wrote (``corpora/real/``).

A rule that passes a corpus written by its own author proves little, so each generator
here was written by a helper briefed with how real sites (or broken servers) behave, never
with the rule it is measured against; the module's own docstring says what it holds and
what a complete answer is (its ground truth). Not part of the distribution.

- ``example_corp`` — a company site, finite sections beside trap families (calendars,
  sessions, pagers, feeds). Written apart from the soft cap.
- ``holdout_works`` — a held-out site on a CMS with generic metadata: a catalogue of codes
  and prices, a thread with one title, a real feed beside a trap feed. Written apart from
  the soft cap's fourth generation, and unseen while its rules were tuned.
- ``template_site`` — 10,000 labelled pages of 25 templates with shared chrome,
  third-party stylesheets and content ids. Written apart from page-cluster.
- ``multi_cms`` — about seventy pages in eleven CMS markups, each page's main region and
  unused files known. Written apart from the main-region rules and the unused-files query.
- ``a11y_site`` — a bilingual site with seeded accessibility, HTML and text faults, and
  their truth. Written apart from the analyze plugins.
- ``hostile_site`` — a server whose 85 paths misbehave as broken or malicious servers do,
  and 12 robots.txt modes. Written apart from the crawler's limits.
- ``edited_site`` — a company site served "old" and "new", around a release: nineteen known
  edits, every other byte the same. Written apart from the crawl comparison.
- ``hostile_archives`` — archives built to hurt a reader (lying tars, bombs, foreign
  schemas), written here case by case from the attacks they stand for.
- ``fixture_archives`` — small archives every row of which is known, after upstream's
  own pre-0.13 fixture generator; the tests' expected answers are worked out by hand.
- ``real/`` — MediaWiki, DokuWiki, Trac, Redmine, Mercurial's hgweb, the Apache manual,
  Sphinx and Pelican output: real software from Debian and PyPI, written by its authors.
"""
