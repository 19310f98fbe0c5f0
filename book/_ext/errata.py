"""Sphinx extension: a "report an error" line at the end of every chapter.

The line links to a new GitHub issue whose title names the chapter, so that errata arrive in one
place (the book's issues button, `use_issues_button` in _config.yml, opens the same tracker). It is
added here once instead of in eight notebooks, and the repository URL is read from the book's
configuration (`repository.url` in _config.yml), so a fork's book points at the fork.
"""

from __future__ import annotations

import re
from urllib.parse import quote

from docutils import nodes
from sphinx.application import Sphinx

CHAPTER = re.compile(r"^notebooks/\d\d_[a-z_]+$")


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


def setup(app: Sphinx) -> dict[str, bool]:
    app.connect("doctree-read", add_errata_line)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
