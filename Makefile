# The module's two commands are `make book` and `make test`; both bootstrap .venv themselves.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PYTEST := $(BIN)/python -m pytest

.PHONY: book test test-oldest install browser sandbox rscript bench bench-homework homework lock clean student slides

install: $(STAMP)

# The virtual environment is (re)built whenever the pinned set or the package metadata change.
$(STAMP): requirements.lock pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.lock
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	@touch $(STAMP)

# Execute the chapters (cached by jupyter-cache) and build the HTML book; any warning fails it.
book: $(STAMP)
	$(BIN)/python tools/vendor_mathjax.py
	$(BIN)/jupyter-book build . --warningiserror --nitpick --keep-going
	@echo "The book is at file://$(CURDIR)/_build/html/index.html"

# The student edition in _build/student: the HTML book, the notebooks (and the PDF where the project
# builds one) without any solution and without the instructor pages (tools/student_build.py).
student: $(STAMP)
	$(BIN)/python tools/vendor_mathjax.py
	$(BIN)/python tools/student_build.py

# One reveal.js deck per session of the five-session plan in _build/slides (tools/slides.py); reveal.js
# comes from npm (pinned in tools/slides/package-lock.json), MathJax from the vendored copy: no CDN.
SLIDES_JS := tools/slides/node_modules/reveal.js/dist/reveal.js
slides: $(STAMP) $(SLIDES_JS)
	$(BIN)/python tools/vendor_mathjax.py
	$(BIN)/python tools/slides.py
$(SLIDES_JS): tools/slides/package.json tools/slides/package-lock.json
	@command -v npm >/dev/null || { $(if $(filter 0,$(shell id -u)),,sudo) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(if $(filter 0,$(shell id -u)),,sudo) apt-get install -y -qq npm; }
	cd tools/slides && npm ci --no-audit --no-fund --ignore-scripts
	@touch $@

# Debian's Chromium for the browser test of the built book (never a browser download of Playwright's).
CHROMIUM := /usr/bin/chromium
browser: $(CHROMIUM)
$(CHROMIUM):
	$(if $(filter 0,$(shell id -u)),,sudo) apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $(if $(filter 0,$(shell id -u)),,sudo) apt-get install -y -qq chromium

# Debian's bubblewrap: the sandbox every graded homework notebook runs in.
BWRAP := /usr/bin/bwrap
sandbox: $(BWRAP)
$(BWRAP):
	$(if $(filter 0,$(shell id -u)),,sudo) apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $(if $(filter 0,$(shell id -u)),,sudo) apt-get install -y -qq bubblewrap

# Debian's R (Rscript) for the test of the 36-350 notes' R code (book/r/perceptron_36350.R).
RSCRIPT := /usr/bin/Rscript
rscript: $(RSCRIPT)
$(RSCRIPT):
	$(if $(filter 0,$(shell id -u)),,sudo) apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $(if $(filter 0,$(shell id -u)),,sudo) apt-get install -y -qq --no-install-recommends r-base-core

# The book build, then package tests and every docstring example of the package, checks of the built
# book in Chromium, strict nbval over every chapter; two workers (one per core), each file's tests on
# one worker so a notebook runs in order.
test: $(STAMP) browser sandbox rscript
	$(MAKE) --no-print-directory book
	$(MAKE) --no-print-directory student
	$(MAKE) --no-print-directory slides
	$(PYTEST) -n 2 --dist loadfile --doctest-modules src/perceptron tests notebooks --nbval --nbval-current-env \
		--nbval-sanitize-with tests/nbval_sanitize.cfg --ignore=notebooks/homework

# The oldest versions pyproject.toml allows, so that its lower bounds are tested claims: each bound of
# [project].dependencies pinned (tools/oldest_requirements.py) and installed from wheels in a scratch
# environment by uv (pip's resolver takes minutes here), then the package tests and every docstring
# example run against that install. .ci/run calls it after `make test`.
UV_VERSION := 0.13.9
OLDEST     := _build/venv-oldest
OLDEST_UV  := UV_PYTHON_DOWNLOADS=never $(OLDEST)/bin/uv pip install --quiet --python $(OLDEST)/bin/python
test-oldest:
	rm -rf $(OLDEST) && $(PYTHON) -m venv $(OLDEST)
	$(OLDEST)/bin/python -m pip install --quiet --disable-pip-version-check --only-binary=:all: uv==$(UV_VERSION)
	$(PYTHON) tools/oldest_requirements.py > $(OLDEST)/requirements.txt
	$(OLDEST_UV) --only-binary :all: -r $(OLDEST)/requirements.txt
	$(OLDEST_UV) --no-deps .
	$(OLDEST)/bin/python -m pytest -n 2 --dist loadfile --doctest-modules --pyargs perceptron tests \
		--ignore=tests/test_book.py --ignore=tests/test_browser.py --ignore=tests/test_homework.py \
		--ignore=tests/test_environment.py

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py
	$(BIN)/python benchmarks/widget_callbacks.py

# Student notebooks and autograder zips of the homework (otter assign, no Docker) in _build/homework.
# `make homework SECRET=...` draws the hidden tests' data from an instructor's secret (give it in the
# environment, not on a shared machine's command line); an assignment is rebuilt when its master,
# the homework package or the secret change.
HOMEWORK := $(patsubst notebooks/homework/%.ipynb,_build/homework/%/manifest.json,$(wildcard notebooks/homework/hw*.ipynb))
HOMEWORK_SRC := $(wildcard src/perceptron_homework/*.py src/perceptron_homework/checks/*.py)
homework: $(HOMEWORK)
_build/homework/.secret: FORCE
	@mkdir -p $(@D)
	@printf '%s' "$(SECRET)" | sha256sum | cmp -s - $@ 2>/dev/null || printf '%s' "$(SECRET)" | sha256sum > $@
_build/homework/%/manifest.json: notebooks/homework/%.ipynb $(HOMEWORK_SRC) _build/homework/.secret $(STAMP)
	HOMEWORK_SECRET="$(SECRET)" $(BIN)/python tools/homework.py build $< --out _build/homework

# Grade a class of 100 generated submissions with --jobs 2 and print the throughput.
bench-homework: $(STAMP) sandbox
	$(BIN)/python benchmarks/homework_batch.py --jobs 2 --count 100

# Regenerate requirements.lock from requirements.in in a scratch environment.
lock:
	rm -rf .lock-venv && $(PYTHON) -m venv .lock-venv
	.lock-venv/bin/python -m pip install --quiet -r requirements.in
	{ sed -n '1,3p' requirements.lock; .lock-venv/bin/python -m pip freeze --all | grep -v '^pip=='; } > requirements.lock.new
	mv requirements.lock.new requirements.lock && rm -rf .lock-venv
	$(PYTHON) tools/write_environment_yml.py

FORCE:

clean:
	rm -rf _build
