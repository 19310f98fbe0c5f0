"""Sphinx extension: the student build, without solutions.

With ``student_build: true`` under ``sphinx: config:`` (set by tools/student_build.py, never in the
default _config.yml), every solution is removed from the document tree after reading: the
``{solution}`` blocks and the gated ``{solution-start}`` ... ``{solution-end}`` ones, whose cells
sphinx-exercise has already merged into one solution node by then. sphinx-exercise's own
``hide_solutions`` option is not used: it drops a plain ``{solution}`` while parsing, but for a gated
solution it drops only the opening directive, leaving the solution's code cells on the page and an
unmatched ``{solution-end}``.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.application import Sphinx


def drop_solutions(app: Sphinx, doctree: nodes.document) -> None:
    if not app.config.student_build:
        return
    from sphinx_exercise.nodes import solution_end_node, solution_node, solution_start_node

    for node in list(doctree.findall(lambda n: isinstance(n, (solution_node, solution_start_node,
                                                                  solution_end_node)))):
        node.parent.remove(node)


def add_student_tag(app: Sphinx, config) -> None:
    # Pages can say ```{only} not student``` around text that only the full book should show.
    if config.student_build:
        app.tags.add("student")


def setup(app: Sphinx) -> dict[str, bool]:
    app.add_config_value("student_build", False, "env")
    app.connect("config-inited", add_student_tag)
    app.connect("doctree-read", drop_solutions)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
