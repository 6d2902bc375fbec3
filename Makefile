# nitpicker — set-up, tests, lint, benchmarks, demo. Every target sets itself up.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: test test-slow test-heavy lint bench demo browser inspector analyzers old-playwright lighthouse clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	# tech: the technology tests need it; setuptools' note that an install is editable
	# is information only (a warning of 12 lines): left out of the set-up's output
	PYTHONWARNINGS='ignore:Editable installation' $(BIN)/pip install --quiet -e '.[dev,tech]'
	touch $(STAMP)

# Chromium for the crawler's rendering (Debian's package as root; Playwright's download
# elsewhere). Skipped when a browser is already on PATH.
# Chromium's headless shell renders (1.4x the pages/s of the full browser here); the full
# browser is for Lighthouse. As root from Debian, otherwise Playwright's download of both.
browser:
	@(command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1) && \
	  command -v chromium-headless-shell >/dev/null 2>&1 || \
	  if [ "$$(id -u)" = "0" ]; then (apt-get update -qq && \
	    apt-get install -y -qq chromium chromium-headless-shell >/dev/null); \
	  else $(BIN)/python -m playwright install chromium; fi

# The MCP Inspector's CLI (TypeScript SDK), a second, independent MCP client for the tests.
INSPECTOR := .npm-tools/node_modules/@modelcontextprotocol/inspector-cli/build/index.js
inspector:
	@if command -v npm >/dev/null 2>&1 && [ ! -f $(INSPECTOR) ]; then \
	  npm install --silent --prefix .npm-tools @modelcontextprotocol/inspector-cli@1.0.3; fi

# An older Playwright's server (npm playwright-core 1.56, no browser), for the test of a
# --browser-endpoint whose Playwright is not this crawler's: refused at start, in one line.
OLD_PLAYWRIGHT := .npm-tools/playwright-1.56/node_modules/playwright-core/cli.js
old-playwright:
	@if command -v npm >/dev/null 2>&1 && [ ! -f $(OLD_PLAYWRIGHT) ]; then \
	  npm install --silent --prefix .npm-tools/playwright-1.56 playwright-core@1.56.1; fi

# nitpicker-crawl analyze's tools for the tests: the Nu Html Checker (npm vnu-jar, run by
# Debian's Java) and npm's axe-core (its locales, for --axe-lang). Java as root from
# Debian when missing; elsewhere the vnu tests skip, saying so.
VNU := .npm-tools/node_modules/vnu-jar/build/dist/vnu.jar
AXE := .npm-tools/node_modules/axe-core/axe.min.js
analyzers:
	@command -v java >/dev/null 2>&1 || if [ "$$(id -u)" = "0" ]; then \
	  (apt-get update -qq && apt-get install -y -qq default-jre-headless >/dev/null); fi
	@if command -v npm >/dev/null 2>&1 && { [ ! -f $(VNU) ] || [ ! -f $(AXE) ]; }; then \
	  npm install --silent --prefix .npm-tools vnu-jar@26.9.27 axe-core@4.12.1; fi

test: $(STAMP) browser inspector analyzers old-playwright
	$(BIN)/python -m pytest -q -m "not slow"

# Real third-party targets — MediaWiki and DokuWiki from Debian's packages, Trac from
# PyPI with Debian's git, page-cluster's corpora (Debian's python3.11-doc built by
# Sphinx, a blog built by Debian's pelican) — installed first by bench/targets.py (Debian's packages only
# as root); each test skips with the reason when its target cannot be set up. And the
# long crawls (the whole hostile site and the unbounded TrapZoo rendered, make demo run
# twice for its determinism, the independent trap site at cap 100).
# Lighthouse for the slow test of analyze's lighthouse plugin (185 MB: not for make test)
LIGHTHOUSE := .npm-tools/node_modules/.bin/lighthouse
lighthouse:
	@if command -v npm >/dev/null 2>&1 && [ ! -f $(LIGHTHOUSE) ]; then \
	  npm install --silent --prefix .npm-tools lighthouse@12.8.2; fi

test-slow: $(STAMP) browser analyzers lighthouse
	$(BIN)/python bench/targets.py
	$(BIN)/python -m pytest -q -m "slow and not heavy" -p no:cacheprovider

# The longest crawls of real software (Redmine at caps 20 and 100, Trac and MediaWiki
# following nofollow links at cap 100): about 45 minutes on two cores, so not in CI
test-heavy: $(STAMP) browser analyzers
	$(BIN)/python bench/targets.py
	$(BIN)/python -m pytest -q -m heavy -p no:cacheprovider

lint: $(STAMP)
	$(BIN)/ruff check nitpicker_query nitpicker_crawl nitpicker_mcp nitpicker_viewer page_cluster corpora tests bench scripts
	$(BIN)/mypy --strict nitpicker_query nitpicker_crawl nitpicker_mcp nitpicker_viewer page_cluster

bench: $(STAMP) browser
	$(BIN)/python bench/queries.py --pages 300000 --format013
	$(BIN)/python bench/convert.py --pages 300000
	$(BIN)/python bench/compare.py --pages 300000
	$(BIN)/python bench/link_score.py --pages 300000 --networkx-max 300000
	$(BIN)/python bench/html_extraction.py --pages 300000
	$(BIN)/python bench/upstream_queries.py --pages 300000
	$(BIN)/python bench/near_duplicates.py --pages 300000
	$(BIN)/python bench/mcp_latency.py --pages 300000
	$(BIN)/python bench/mcp_answers.py --pages 300000
	$(BIN)/python bench/guards.py --pages 300000
	$(BIN)/python bench/crawl.py
	$(BIN)/python bench/fetch_once.py
	$(BIN)/python bench/request_headers.py
	$(BIN)/python bench/technologies.py
	$(BIN)/python bench/viewer.py --pages 300000
	$(BIN)/python bench/report.py --pages 30000 300000
	$(BIN)/python bench/report_html.py --pages 30000 300000
	$(BIN)/python bench/analyze.py
	$(BIN)/python bench/clustering.py
	$(BIN)/python bench/template_clusters.py
	$(BIN)/python bench/softcap.py
	$(BIN)/python bench/softcap_sites.py
	$(BIN)/python bench/softcap_content.py
	$(BIN)/python bench/frontier.py
	$(BIN)/python corpora/real/mediawiki.py
	$(BIN)/python bench/hostile.py
	$(BIN)/python bench/before_after.py
	$(BIN)/python bench/endpoints.py

demo: $(STAMP) browser
	$(BIN)/python scripts/demo.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache build *.egg-info .npm-tools .bench-tools
