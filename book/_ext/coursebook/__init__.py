"""coursebook: the machinery of the Perceptron book, one stage a module.

Registered once as a Sphinx extension (``extra_extensions`` in _config.yml); its stages, in the order
a chapter goes through them:

==================  ===========================================================================
``myst``            the one MyST reader (markdown-it-py): directive blocks, roles, targets
``solutions``       the one solution filter, for doctrees and for notebook JSON (student edition)
``site``            version in the footer, errata line, no CDN scripts, the ``student`` tag
``accessibility``   WCAG fixes: citations as list items, named controls, dark mode from first paint
``pages``           the HTML stage: frames as files, sized images; then each page fixed once
``svg_math``        every formula typeset to SVG by MathJax in Node (called by ``pages``)
``icons``           Font Awesome by CSS instead of its script (called by ``pages``)
``notebooks``       the Jupyter-native chapters (Colab, JupyterHub, download button)
``pdf``             the LaTeX stage of ``make pdf``
==================  ===========================================================================

The content model, read by both kinds of stage, the tests and the benchmarks: ``content`` (a chapter's
cells, blocks, labels and gated solutions; a bank's questions), on ``myst`` and ``CHAPTERS`` below.

Command-line chores, run by the Makefile as ``python -m coursebook.<name>``; none is imported by the
Sphinx stages above:

=======================  ======================================================================
``edition``              the student edition (``make student``, ``make publish-student``)
``slides``, ``plan``     the slides and the course plan on the instructors' page
``banks``                the question banks' balanced keys and LMS exports (``bank_numbers``)
``execute``              re-execute chapters after a code change
``figures``              figure descriptions
``setup_cell``           every notebook's setup cell
``homework_notebooks``   the homework's Jupyter-native notebooks
``environment``          Binder's environment.yml
``lines``                the course's lines against the machinery's (``make lines``)
``serve``                the one static server: ``make serve``, the browser tests, the benchmarks
``playground``           the playground's presets (book/_static/playground_presets.json)
=======================  ======================================================================

The package is installed editable from ``book/_ext`` by ``make install``; ``ROOT`` is the
repository it was installed from.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
_VERSION = re.compile(r'^__version__\s*=\s*"([^"]+)"', re.MULTILINE)


def book_version() -> str:
    """The package's version, read from src/perceptron/_version.py (not from an installed package,
    which may be another checkout's): the footer of every page and the setup cell carry it."""
    match = _VERSION.search((ROOT / "src" / "perceptron" / "_version.py").read_text(encoding="utf-8"))
    if match is None:
        raise ValueError("src/perceptron/_version.py defines no __version__")
    return match.group(1)


def setup(app) -> dict[str, bool]:
    """Register every Sphinx stage, once."""
    from . import accessibility, notebooks, pages, pdf, phone, site, solutions, svg_math

    app.add_config_value("student_build", False, "env")
    app.connect("doctree-read", solutions.drop_from_doctree)
    site.register(app)  # after the solution filter: its errata line goes on the filtered doctree
    accessibility.register(app)
    svg_math.register(app)
    phone.register(app)
    app.add_css_file(pages.icons.TARGET)
    app.connect("html-page-context", pages.lighten_page)
    notebooks.register(app)
    pdf.register(app)
    # After notebooks.write_notebooks, which rewrites _sources/: every page is final when it runs.
    app.connect("build-finished", pages.finish_pages)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
