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

In JupyterLab (Binder and `make lab` open the MyST chapters with jupyterlab-myst) a gated solution is
not one block: jupyterlab-myst renders each cell alone, so the opening cell shows a folded solution
header, the code cells after it would stand open under the exercise and the closing cell, which renders
to nothing, would show its source ````` ```{solution-end} ````` once Run All has rendered it again.
:func:`fold_in_notebook` folds them as the book does, in the chapters' own metadata: every cell
between the gates collapsed (``jupyter.source_hidden``, and ``outputs_hidden`` for code), and the
closing cell too when it holds the solution's last words before the gate. A closing cell that holds
the gate alone stays open: jupyterlab-myst renders it to nothing, while collapsed JupyterLab would show
its first line, the gate's source. JupyterLab itself unfolds every cell it runs, whatever these keys say
(a code cell's new output, a Markdown cell's text): the project's JupyterLab extension
``labextensions/perceptron-folds``, which ``make lab`` and Binder's ``postBuild`` add, folds such a
cell again, so Run All leaves the solutions folded. myst-nb ignores these keys; the Jupyter-native
export sets the same ones.

    python -m coursebook.solutions          # fold the gated solutions of every chapter
    python -m coursebook.solutions --check  # exit 1 if a chapter's solution is not folded
"""

from __future__ import annotations

import argparse
import copy
import re
import sys
from pathlib import Path

from docutils import nodes

from . import content, myst, setup_cell


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


def drop_from_notebook(notebook: dict) -> dict:
    """A copy of a MyST notebook without any solution: its ``{solution}`` blocks, and every cell of a
    gated solution (a code cell between the gates is dropped; a Markdown cell keeps what lies
    outside them).

    Raises ValueError when a ``{solution-start}`` is never closed.
    """
    notebook = copy.deepcopy(notebook)
    cells = []
    for step in content.walk(notebook["cells"]):
        cell = step.cell
        if cell["cell_type"] != "markdown":
            if not step.inside:
                cells.append(cell)
            continue
        text, _ = _cut(step.source, step.inside)
        if text.strip():
            cell["source"] = text.splitlines(keepends=True)
            cells.append(cell)
    notebook["cells"] = cells
    return notebook


FOLDED_CODE = {"source_hidden": True, "outputs_hidden": True}
FOLDED_MARKDOWN = {"source_hidden": True}


def _closes_after_text(text: str) -> bool:
    """The cell holds words of the solution, then its closing gate, and nothing after it. (A cell that
    holds the gate alone stays open: collapsed, JupyterLab would show its first line, the gate's source.)"""
    (end,) = [b for b in myst.blocks(text) if b.name == "solution-end"]
    lines = text.split("\n")
    return bool("\n".join(lines[:end.start]).strip()) and not "\n".join(lines[end.end:]).strip()


def fold_in_notebook(notebook: dict) -> bool:
    """Collapse, in place, the cells of each gated solution of a MyST notebook (see the module's
    docstring); True when some cell's metadata changed. Raises ValueError for an unclosed gate."""
    changed = False
    for step in content.walk(notebook["cells"]):
        cell, marks, inside = step.cell, list(step.gates), step.inside
        want: dict | None = None
        if not marks:
            want = (FOLDED_CODE if cell["cell_type"] == "code" else FOLDED_MARKDOWN) if inside else None
        elif marks == ["solution-end"] and inside and _closes_after_text(step.source):
            want = FOLDED_MARKDOWN   # the solution's last words, then the gate: folded on the words
        jupyter = cell["metadata"].get("jupyter", {})
        if want is not None and any(jupyter.get(k) is not v for k, v in want.items()):
            cell["metadata"].setdefault("jupyter", {}).update(want)
            changed = True
        elif (want is None and jupyter.get("source_hidden") and "check" not in cell["metadata"].get("tags", [])
              and not setup_cell.is_setup_cell(cell)):
            raise ValueError(f"cell {cell.get('id')} is collapsed outside any solution")
    return changed


def main(argv: list[str] | None = None) -> int:
    import nbformat

    from . import CHAPTERS, ROOT

    parser = argparse.ArgumentParser(description="Fold the gated solutions of every chapter for JupyterLab.")
    parser.add_argument("--check", action="store_true", help="report unfolded chapters, change nothing")
    args = parser.parse_args(argv)
    stale = []
    for path in CHAPTERS:
        notebook = nbformat.read(path, as_version=4)
        if fold_in_notebook(notebook):
            stale.append(path)
            if not args.check:
                Path(path).write_text(nbformat.writes(notebook) + "\n", encoding="utf-8")
    for path in stale:
        print(f"{'unfolded' if args.check else 'folded'}: {Path(path).relative_to(ROOT)}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
