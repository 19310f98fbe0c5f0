"""Jupyter-native homework: the student notebooks of `make homework`, ready for Colab and JupyterHub.

Copies every ``_build/homework/<hw>/student/<hw>.ipynb`` to ``_build/jupyter/notebooks/homework/<hw>.ipynb``
(beside the chapters' Jupyter-native copies; other folders as arguments, as coursebook.edition does
for the student branch). The build (perceptron_homework.build) already puts the setup cell, which
installs otter-grader and the package, above otter's ``import otter`` cell; the copy checks it
again, so that in Colab the otter cell never runs before the setup cell. Nothing else changes: the
homework masters hold plain Jupyter Markdown (tests/book/test_jupyter_notebooks.py checks it).
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat

from . import ROOT
from .setup_cell import is_setup_cell


def setup_cell_first(nb: nbformat.NotebookNode, name: str) -> nbformat.NotebookNode:
    setup = [i for i, cell in enumerate(nb.cells) if is_setup_cell(cell)]
    if len(setup) != 1:
        raise ValueError(f"{name}: expected one setup cell, found {len(setup)} (run book/_ext/coursebook/setup_cell.py)")
    nb.cells.insert(0, nb.cells.pop(setup[0]))
    return nb


def main(src: Path = ROOT / "_build" / "homework", out: Path = ROOT / "_build" / "jupyter" / "notebooks" / "homework") -> int:
    src, out = Path(src).resolve(), Path(out).resolve()
    written = 0
    for student in sorted(src.glob("*/student/*.ipynb")):
        nb = setup_cell_first(nbformat.read(student, as_version=4), student.name)
        out.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, out / student.name)
        written += 1
    print(f"Jupyter-native homework: {written} notebooks in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))  # optional: the homework's build folder, the output folder
