# Two commands for a new user (README.md): `make serve` and `make test`. Each sets up what it needs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
export NO_MKDOCS_2_WARNING := 1

.PHONY: setup serve build offline pdf dist bench test lint chromium poppler clean

setup: $(VENV)/.installed node_modules/.package-lock.json plugins/zadachnik/runtime/assets/vendor/.stamp

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund

plugins/zadachnik/runtime/assets/vendor/.stamp: node_modules/.package-lock.json scripts/vendor_assets.py
	$(BIN)/python scripts/vendor_assets.py
	touch $@

serve: setup
	$(BIN)/mkdocs serve

build: setup
	$(BIN)/mkdocs build --strict

# A copy of the site that works opened from disk, Python included, with the problem books as PDF files in its pdf/
# folder: build/zadachnik-offline.zip
offline: setup chromium
	$(BIN)/mkdocs build --strict -f mkdocs.offline.yml
	$(BIN)/zadachnik pdf build/offline/zadachnik --out build/pdf --zip build/zadachnik-offline.zip

# The problem books (each module's and each course's, in every language) as PDF files: build/pdf/*.pdf
pdf: build chromium
	$(BIN)/zadachnik pdf build/site --out build/pdf

# The sdist, then the wheel built from it, as a release ships them (KaTeX, Pyodide and Ace inside): build/dist
dist: setup
	rm -rf build/dist
	$(BIN)/python -m build --outdir build/dist

# Build scaling, math, page speed and offline figures: writes bench/results.md
bench: setup chromium
	$(BIN)/python bench/run.py

chromium:
	@bash scripts/ensure_chromium.sh

# pdftotext, for the tests that read the problem books' PDFs.
poppler:
	@bash scripts/ensure_poppler.sh

lint: setup
	$(BIN)/ruff check plugins tests scripts bench exercises hatch_build.py
	npx --no-install eslint plugins/zadachnik/runtime/assets/js tests/js

# Every test, in worker processes. On two cores the suite is mostly CPU-bound (Chromium's pages and Pyodide, the
# builds), so three workers: a little more than the cores, for the waits. A file's tests stay on one worker,
# which builds its fixture sites once. The slow fuzzing and packaging tests come after, in a step of their own
# (`pytest -m "not slow"` is the quick loop).
TEST_WORKERS ?= 3
test: lint chromium poppler
	$(BIN)/python -m pytest -m "not slow" -n $(TEST_WORKERS) --dist loadfile
	$(BIN)/python -m pytest -m slow -n $(TEST_WORKERS) --dist load

clean:
	rm -rf build
