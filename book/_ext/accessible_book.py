"""Sphinx extension: the book's own fixes for WCAG 2.1 AA, checked by axe-core in tests/book/test_browser.py.

* ``accessible.css`` (book/_static) darkens the theme's link colours where they miss 4.5:1.
* Bibliography entries: docutils writes ``role="doc-biblioentry"`` (deprecated in DPUB-ARIA 1.1)
  inside a ``role="list"`` whose children are then no list items. Each entry is written as a
  ``role="listitem"`` of that list instead; ids, classes and back-links stay as they were.
* The search button is named by the text it shows, "Search Ctrl+K" (the theme's ``aria-label="Search"``
  fails WCAG 2.5.3 Label in Name), in ``book/_templates/search-button-field.html``.
* The sidebar's expand/collapse toggles (a ``<summary>`` holding only an icon, written by the theme
  for a toc entry with sub-pages) get an accessible name (axe rule ``summary-name``), and myst-nb's
  fold of a hidden code cell is named by the text it shows.
* Dark mode from the first paint: the theme's head script sets ``data-theme="auto"``, which its CSS
  draws in light colours, and only its deferred script turns "auto" into the reader's scheme. A reader
  whose system is dark saw the page light for the first ~0.8 s, then every colour fading for 0.15 s
  (the theme's ``.btn`` transitions), during which axe measured the search button's text at 1.2:1.
  An inline head script resolves the theme the way the theme's script does, before the body is drawn.
"""

from __future__ import annotations

from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx

STATIC = Path(__file__).resolve().parents[1] / "_static"
TEMPLATES = Path(__file__).resolve().parents[1] / "_templates"  # overrides of the theme's components


def visit_citation(self, node: nodes.citation) -> None:
    if not isinstance(node.previous_sibling(), nodes.citation):
        self.body.append('<div role="list" class="citation-list">\n')
    self.body.append(self.starttag(node, "div", classes=[node.tagname], role="listitem"))


def depart_citation(self, node: nodes.citation) -> None:
    self.body.append("</div>\n")
    if not isinstance(node.next_node(descend=False, siblings=True), nodes.citation):
        self.body.append("</div>\n")


TOC_TOGGLE = '<summary><span class="toctree-toggle" role="presentation">'
NAMED_TOC_TOGGLE = '<summary aria-label="Show or hide the sub-pages"><span class="toctree-toggle" role="presentation">'


# myst-nb's fold of a hidden cell (tag hide-input) shows "Show code cell source" but is named
# "Toggle hidden content": named by its visible text instead (WCAG 2.5.3 Label in Name).
HIDDEN_CELL_TOGGLE = '<summary aria-label="Toggle hidden content">'
OUTPUT_FIXES = {TOC_TOGGLE: NAMED_TOC_TOGGLE, HIDDEN_CELL_TOGGLE: "<summary>"}


def fix_rendered_names(app: Sphinx, exception: Exception | None) -> None:
    """The theme and myst-nb write these controls in their templates; fix their names in the output."""
    if exception is not None or app.builder.format != "html":
        return
    for page in Path(app.outdir).rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        fixed = text
        for old, new in OUTPUT_FIXES.items():
            fixed = fixed.replace(old, new)
        if fixed != text:
            page.write_text(fixed, encoding="utf-8")


# The theme's own rule (pydata-sphinx-theme.js, setMode): "auto" follows prefers-color-scheme, "light"
# and "dark" are the reader's choice from the theme switcher (kept in localStorage), anything else is
# "auto". Run in <head>, after the theme's inline script has copied localStorage into data-mode.
RESOLVE_THEME = (
    "(function(d){var m=d.dataset.mode;if(m!=='light'&&m!=='dark'){m=window.matchMedia&&"
    "matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light'}d.dataset.theme=m})"
    "(document.documentElement);"
)


def add_static_and_template_paths(app: Sphinx, config) -> None:
    if str(STATIC) not in config.html_static_path:
        config.html_static_path.append(str(STATIC))
    if str(TEMPLATES) not in config.templates_path:
        config.templates_path.insert(0, str(TEMPLATES))


def setup(app: Sphinx) -> dict[str, bool]:
    app.connect("config-inited", add_static_and_template_paths)
    app.add_css_file("accessible.css")
    app.add_js_file(None, body=RESOLVE_THEME, priority=100)
    app.add_node(nodes.citation, override=True, html=(visit_citation, depart_citation))
    app.connect("build-finished", fix_rendered_names)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
