"""The small stages every page shares: the version in the footer, the errata line, no CDN scripts.

* **Version.** Every page shows the version it was built from, ``perceptron.__version__`` (read from
  ``src/perceptron/_version.py``, the number CITATION.cff and CHANGELOG.md carry, checked by
  tests), in the footer next to a link to the changelog; it is also Sphinx's ``version``/``release``.
* **Errata.** A "report an error" line ends every chapter; it opens a new GitHub issue whose title
  names the chapter, on the repository of ``repository.url`` in _config.yml (a fork's book points at
  the fork), the tracker the book's issues button opens too.
* **Offline.** Jupyter Book 1 always loads sphinx-thebe, which writes a script pointing at thebe on
  unpkg into every page (twice, which also raises a console error). The book has no thebe buttons,
  so its page-script hook is disconnected.
* **Student edition.** With ``student_build: true`` (set by :mod:`coursebook.student`), pages can
  say ``{only} not student`` around text that only the full book shows.
"""

from __future__ import annotations

import re
from urllib.parse import quote

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.config import Config

from . import book_version

CHAPTER = re.compile(r"^notebooks/\d\d_[a-z_]+$")
def show_version(app: Sphinx, config: Config) -> None:
    version = book_version()
    config.version = config.release = version
    options = dict(config.html_theme_options or {})
    repository = options.get("repository_url", "").rstrip("/")
    changelog = f' (<a href="{repository}/blob/main/CHANGELOG.md">changes</a>)' if repository else ""
    footer = f'<p class="book-version">Version {version}{changelog}.</p>'
    options["extra_footer"] = footer + (options.get("extra_footer") or "")
    config.html_theme_options = options


def add_student_tag(app: Sphinx, config: Config) -> None:
    if config.student_build:
        app.tags.add("student")


def issue_url(app: Sphinx, docname: str) -> str | None:
    repository = (app.config.html_theme_options or {}).get("repository_url")
    if not repository:
        return None
    title = quote(f"Erratum in {docname.split('/')[-1]}: ")
    return f"{repository.rstrip('/')}/issues/new?title={title}&labels=erratum"


def add_errata_line(app: Sphinx, doctree: nodes.document) -> None:
    docname = app.env.docname
    url = issue_url(app, docname)
    if url is None or not CHAPTER.match(docname):
        return
    sections = list(doctree.findall(nodes.section))
    target = sections[-1] if sections else doctree      # the last section in reading order
    para = nodes.paragraph(classes=["errata"])
    para += nodes.Text("Found a mistake on this page, in the mathematics, the code or the text? ")
    para += nodes.reference("", "Report an error", refuri=url, internal=False)
    para += nodes.Text(" (opens a GitHub issue naming this chapter; corrections are listed in the changelog).")
    target += para


def drop_thebe_scripts(app: Sphinx) -> None:
    try:
        from sphinx_thebe import init_thebe_core
    except ImportError:
        return
    for listener in list(app.events.listeners.get("env-before-read-docs", [])):
        if listener.handler is init_thebe_core:
            app.disconnect(listener.id)
