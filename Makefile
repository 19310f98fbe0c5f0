# The module's two commands are `make book` and `make test`; both bootstrap .venv themselves.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PYTEST := $(BIN)/python -m pytest

.PHONY: book test install browser bench homework lock clean lab

install: $(STAMP)

# The virtual environment is (re)built whenever the pinned set or the package metadata change.
$(STAMP): requirements.lock pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.lock
	@# The distribution was called `perceptron` before 0.1.0 became perceptron-course: drop the old name.
	@$(BIN)/python -m pip uninstall --quiet --yes perceptron 2>/dev/null || true
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	@touch $(STAMP)

# Execute the chapters (cached by jupyter-cache) and build the HTML book; any warning fails it. The
# build also writes the Jupyter-native chapters (no MyST) to _build/jupyter (book/_ext/jupyter_notebooks.py).
book: $(STAMP)
	$(BIN)/python tools/vendor_mathjax.py
	$(BIN)/jupyter-book build . --warningiserror --nitpick --keep-going
	@echo "The book is at file://$(CURDIR)/_build/html/index.html"

# Debian's Chromium for the browser test of the built book (never a browser download of Playwright's).
CHROMIUM := /usr/bin/chromium
browser: $(CHROMIUM)
$(CHROMIUM):
	$(if $(filter 0,$(shell id -u)),,sudo) apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $(if $(filter 0,$(shell id -u)),,sudo) apt-get install -y -qq chromium

# The book build, then package tests, checks of the built book in Chromium, strict nbval over every
# chapter; two workers (one per core), each file's tests on one worker so a notebook runs in order.
test: $(STAMP) browser
	$(MAKE) --no-print-directory book
	$(PYTEST) -n 2 --dist loadfile tests notebooks --nbval --nbval-current-env \
		--nbval-sanitize-with tests/nbval_sanitize.cfg --ignore=notebooks/homework

# JupyterLab from .venv (pinned in the lock, with jupyterlab-myst) on the chapters, kernel = .venv's Python.
lab: $(STAMP)
	$(BIN)/jupyter lab --ServerApp.root_dir=$(CURDIR) --ServerApp.default_url=/lab/tree/notebooks \
		$(if $(filter 0,$(shell id -u)),--allow-root) $(LAB_ARGS)

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py
	$(BIN)/python benchmarks/widget_callbacks.py

# Student notebooks and autograder zips of the homework (otter assign, no Docker) in _build/homework,
# and the student notebooks' Jupyter-native copies beside the chapters' in _build/jupyter/notebooks/homework;
# an assignment is rebuilt only when its master, the hidden tests' helper or the build tool change.
HOMEWORK := $(patsubst notebooks/homework/%.ipynb,_build/homework/%/manifest.json,$(wildcard notebooks/homework/hw*.ipynb))
homework: $(HOMEWORK)
_build/homework/%/manifest.json: notebooks/homework/%.ipynb notebooks/homework/hwcheck.py tools/homework.py $(STAMP)
	$(BIN)/python tools/homework.py build $< --out _build/homework
	$(BIN)/python tools/jupyter_homework.py

# Regenerate requirements.lock from requirements.in in a scratch environment.
lock:
	rm -rf .lock-venv && $(PYTHON) -m venv .lock-venv
	.lock-venv/bin/python -m pip install --quiet -r requirements.in
	{ sed -n '1,3p' requirements.lock; .lock-venv/bin/python -m pip freeze --all | grep -v '^pip=='; } > requirements.lock.new
	mv requirements.lock.new requirements.lock
	.lock-venv/bin/python tools/write_environment_yml.py && rm -rf .lock-venv

clean:
	rm -rf _build
