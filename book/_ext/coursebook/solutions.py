"""The one solution filter: the student edition's book, PDF and notebooks hold no solution.

A chapter writes a solution in one of two ways: a ``{solution}`` block (text, or code that is not
run), or a *gated* solution, ``{solution-start}`` ... ``{solution-end}`` around executed code cells.
The same rule removes both from the two forms a chapter takes:

- :func:`drop_from_doctree` (Sphinx, after reading, when ``student_build`` is set), where
  sphinx-exercise has already merged a gated solution's cells into one solution node. Its own
  ``hide_solutions`` option is not used: for a gated solution it drops only the opening directive,
  leaving the solution's code cells on the page and an unmatched ``{solution-end}``;
- :func:`drop_from_notebook`, the MyST notebook JSON (the student edition's notebooks, and the
  source of its Jupyter-native ones).
"""

from __future__ import annotations

import copy
import re

from docutils import nodes

from . import myst


def drop_from_doctree(app, doctree: nodes.document) -> None:
    """Remove every solution node (``doctree-read`` handler; a no-op unless ``student_build``)."""
    if not app.config.student_build:
        return
    from sphinx_exercise.nodes import solution_end_node, solution_node, solution_start_node

    kinds = (solution_node, solution_start_node, solution_end_node)
    for node in list(doctree.findall(lambda n: isinstance(n, kinds))):
        node.parent.remove(node)


def _cut(text: str, inside: bool) -> tuple[str, bool]:
    """One Markdown cell's text without its solutions; ``inside``: a gated solution is open."""
    lines = text.split("\n")
    kept, pos = [], 0
    for block in myst.blocks(text):
        if not inside:
            kept.extend(lines[pos:block.start])
        if block.name == "solution-start":
            inside = True
        elif block.name == "solution-end":
            inside = False
        elif block.kind != "solution" and not inside:
            kept.extend(lines[block.start:block.end])
        pos = block.end
    if not inside:
        kept.extend(lines[pos:])
    return re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip("\n"), inside


def drop_from_markdown(text: str) -> str:
    """A Markdown text without its ``{solution}`` blocks (and anything gated, if it holds a gate)."""
    return _cut(text, False)[0]


def drop_from_notebook(notebook: dict) -> dict:
    """A copy of a MyST notebook without any solution: its ``{solution}`` blocks, and every cell of a
    gated solution (a code cell between the gates is dropped; a Markdown cell keeps what lies
    outside them).

    Raises ValueError when a ``{solution-start}`` is never closed.
    """
    notebook = copy.deepcopy(notebook)
    cells, inside = [], False
    for cell in notebook["cells"]:
        if cell["cell_type"] != "markdown":
            if not inside:
                cells.append(cell)
            continue
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        text, inside = _cut(source, inside)
        if text.strip():
            cell["source"] = text.splitlines(keepends=True)
            cells.append(cell)
    if inside:
        raise ValueError("a {solution-start} has no {solution-end}")
    notebook["cells"] = cells
    return notebook
