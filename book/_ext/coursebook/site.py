"""The small stages every page shares: the version in the footer, the errata line, no CDN scripts.

* **Version.** Every page shows the version it was built from, ``perceptron.__version__`` (read from
  ``src/perceptron/_version.py``, the number CITATION.cff and CHANGELOG.md carry, checked by
  tests), in the footer next to a link to the changelog; it is also Sphinx's ``version``/``release``.
* **Errata.** A "report an error" line ends every chapter; it opens a new GitHub issue whose title
  names the chapter, on the tracker of ``issues_url`` (default: ``<repository.url>/issues``; a fork's
  book points at the fork), the tracker the book's issues button opens too.
* **One repository name.** ``repository.url`` and ``repository.branch`` of _config.yml (for the student
  edition, the student repository and branch: :mod:`coursebook.edition`) make every link of the
  book: the repository button (``/tree/<branch>`` where the branch is not ``main``), the changelog
  (``/blob/<branch>/CHANGELOG.md``), the edit and issue buttons, the errata line, and every mention of
  the upstream repository (:data:`UPSTREAM`) in a page's text, code blocks included (the clone
  command, the citation). The links are a configuration value Sphinx compares between builds
  (``coursebook_links``, rebuild ``env``): changing the URL re-reads every page, so no page keeps
  the old one from a cached build.
* **Offline.** Jupyter Book 1 always loads sphinx-thebe, which writes a script pointing at thebe on
  unpkg into every page (twice, which also raises a console error). The book has no thebe buttons,
  so its page-script hook is disconnected.
* **Student edition.** With ``student_build: true`` (set by :mod:`coursebook.edition`), pages can
  say ``{only} not student`` around text that only the full book shows.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import quote

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.config import Config

from . import book_version

CHAPTER = re.compile(r"^notebooks/\d\d_[a-z_]+$")
# The repository the sources name (the clone command, the citation); a build rewrites it to its own.
UPSTREAM = "https://github.com/perceptron-course/perceptron"


def links(config: Config) -> dict[str, str]:
    """The repository, branch and issue tracker this build links to."""
    options = config.html_theme_options or {}
    repository = (options.get("repository_url") or "").rstrip("/")
    branch = options.get("repository_branch") or "main"
    issues = (config.issues_url or (f"{repository}/issues" if repository else "")).rstrip("/")
    return {"repository": repository, "branch": branch, "issues": issues}


def record_links(app: Sphinx, config: Config) -> None:
    # A value with rebuild "env": Sphinx re-reads every page when it differs from the cached build's.
    config.coursebook_links = "|".join(links(config).values())


def show_version(app: Sphinx, config: Config) -> None:
    version = book_version()
    config.version = config.release = version
    options = dict(config.html_theme_options or {})
    where = links(config)
    repository, branch = where["repository"], where["branch"]
    changelog = f' (<a href="{repository}/blob/{branch}/CHANGELOG.md">changes</a>)' if repository else ""
    footer = f'<p class="book-version">Version {version}{changelog}.</p>'
    options["extra_footer"] = footer + (options.get("extra_footer") or "")
    config.html_theme_options = options


def rename_repository(app: Sphinx, docname: str, source: list[str]) -> None:
    """Every mention of the upstream repository in a page names this build's repository instead."""
    repository = links(app.config)["repository"]
    if repository and repository != UPSTREAM:
        source[0] = re.sub(re.escape(UPSTREAM) + r"(?![\w.-])", repository, source[0])


def rename_in_sources(app: Sphinx, exception: Exception | None) -> None:
    """The download button's copies of the sources (``_sources/``) name this build's repository too."""
    repository = links(app.config)["repository"]
    sources = Path(app.outdir) / "_sources"
    if exception is not None or not repository or repository == UPSTREAM or not sources.is_dir():
        return
    for path in sources.rglob("*"):
        if path.is_file() and path.suffix in {".md", ".ipynb", ".txt"}:
            text = path.read_text(encoding="utf-8")
            renamed = re.sub(re.escape(UPSTREAM) + r"(?![\w.-])", repository, text)
            if renamed != text:
                path.write_text(renamed, encoding="utf-8")


def point_source_buttons(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """The header's repository button opens the build's branch, its issue button the build's tracker.

    Runs after sphinx-book-theme's add_source_buttons (501).
    """
    where = links(app.config)
    if not where["repository"]:
        return
    for button in _buttons(context.get("header_buttons", [])):
        label = button.get("label")
        if label == "source-repository-button" and where["branch"] != "main":
            button["url"] = f"{where['repository']}/tree/{where['branch']}"
        elif label == "source-issues-button":
            title = quote(f"Issue on page /{pagename}.html")
            button["url"] = f"{where['issues']}/new?title={title}"


def _buttons(entries):
    for entry in entries:
        if isinstance(entry, dict):
            yield entry
            yield from _buttons(entry.get("buttons", []))


def register(app: Sphinx) -> None:
    app.add_config_value("issues_url", "", "env")        # "": <repository.url>/issues
    app.add_config_value("coursebook_links", "", "env")  # set by record_links, compared between builds
    app.connect("config-inited", record_links)
    app.connect("config-inited", show_version)
    app.connect("config-inited", add_student_tag)
    app.connect("source-read", rename_repository)
    app.connect("build-finished", rename_in_sources)
    app.connect("html-page-context", point_source_buttons, priority=502)
    app.connect("builder-inited", drop_thebe_scripts)
    app.connect("doctree-read", add_errata_line)


def add_student_tag(app: Sphinx, config: Config) -> None:
    if config.student_build:
        app.tags.add("student")


def issue_url(app: Sphinx, docname: str) -> str | None:
    issues = links(app.config)["issues"]
    if not issues:
        return None
    title = quote(f"Erratum in {docname.split('/')[-1]}: ")
    return f"{issues}/new?title={title}&labels=erratum"


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
