"""Every code cell of a chapter shows its result, so that strict nbval has something to compare.

A code cell with no stored output is one nbval only runs: if its numbers changed, nothing would
notice, and a student reading the book sees code without what it computes. So each code cell of a
chapter (``notebooks/NN_*.ipynb``; homework masters are not chapters) prints, displays or plots
what the prose around it talks about, solution cells included. Three kinds of cell are silent by
design, each marked by a tag:

``check``
    A check cell (tests/content/test_check_cells.py): assertions only; it prints nothing and fails
    nbval by raising when its claim breaks.
``remove-cell``
    The setup cell that installs the package where it is missing (coursebook.setup_cell); hidden in
    the book, so there is no result to show.
``silent``
    A cell that only imports, defines functions or classes, or sets printing options: it has no
    result. This test checks that a ``silent`` cell holds nothing else, so the tag cannot hide a
    computation.
"""

from __future__ import annotations

import ast
import json

import pytest

from coursebook import CHAPTERS

SILENT_BY_DESIGN = {"check", "remove-cell", "silent"}
SILENT_STATEMENTS = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef)
OPTION_CALLS = {"set_printoptions"}

def code_cells(cells):
    return [c for c in cells if c["cell_type"] == "code"]


def tags(cell):
    return set(cell["metadata"].get("tags", []))


def only_imports_and_definitions(source: str) -> bool:
    def harmless(node: ast.stmt) -> bool:
        if isinstance(node, SILENT_STATEMENTS):
            return True
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            func = node.value.func
            return isinstance(func, ast.Attribute) and func.attr in OPTION_CALLS
        return False

    body = ast.parse(source).body
    return bool(body) and all(map(harmless, body))


def outputless(cells):
    """The ids of the code cells that show nothing and are not silent by design."""
    return [c["id"] for c in code_cells(cells) if not c["outputs"] and not tags(c) & SILENT_BY_DESIGN]


def misused_silent_tags(cells):
    """The ids of ``silent`` cells that compute something or show an output after all."""
    return [c["id"] for c in code_cells(cells) if "silent" in tags(c)
            and (c["outputs"] or not only_imports_and_definitions("".join(c["source"])))]


def chapter_cells(chapter):
    return json.loads(chapter.read_text(encoding="utf-8"))["cells"]


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_every_code_cell_of_a_chapter_shows_its_result(chapter):
    cells = chapter_cells(chapter)
    assert outputless(cells) == [], "code cells without an output: print or plot their result, merge them "\
        "into a neighbour, or (imports and definitions only) tag them 'silent'"


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_silent_cells_only_import_and_define(chapter):
    assert misused_silent_tags(chapter_cells(chapter)) == []


def test_the_chapters_are_the_numbered_notebooks_not_the_homework():
    assert CHAPTERS and all(c.parent.name == "notebooks" and c.stem[:2].isdigit() for c in CHAPTERS)


def cell(source, outputs=(), tags=(), id="c"):
    return {"cell_type": "code", "source": [source], "outputs": list(outputs), "id": id,
            "metadata": {"tags": list(tags)} if tags else {}}


PRINTED = {"output_type": "stream", "name": "stdout", "text": ["1\n"]}


def test_a_cell_without_output_is_found_unless_silent_by_design():
    cells = [
        cell("x = 1", id="quiet"),
        cell("print(x)", [PRINTED], id="shows"),
        cell("assert x == 1", tags=["check", "hide-input"], id="check"),
        cell("import os", tags=["remove-cell"], id="setup"),
        cell("import numpy as np\nnp.set_printoptions(precision=4)", tags=["silent"], id="imports"),
        {"cell_type": "markdown", "source": ["text"], "metadata": {}, "id": "prose"},
    ]
    assert outputless(cells) == ["quiet"]


def test_the_silent_tag_cannot_hide_a_computation():
    cells = [
        cell("def f(x):\n    return 2 * x\n\n\nclass A:\n    pass", tags=["silent"], id="definitions"),
        cell("import numpy as np\nnp.set_printoptions(precision=3)", tags=["silent"], id="options"),
        cell("import numpy as np\nw = np.zeros(2)", tags=["silent"], id="assigns"),
        cell("f(3)", tags=["silent"], id="calls"),
        cell("def f(x):\n    return x", [PRINTED], tags=["silent"], id="prints"),
    ]
    assert misused_silent_tags(cells) == ["assigns", "calls", "prints"]


def test_rewriting_the_setup_cell_keeps_its_execution_count(tmp_path, monkeypatch):
    """coursebook.setup_cell rewrites a stale setup cell's source without erasing the count of the run the
    chapter's outputs come from (it used to reset it to null, a diff in every chapter at each version)."""
    import nbformat

    from coursebook import setup_cell

    notebook = nbformat.read(CHAPTERS[0], as_version=4)
    cell = next(c for c in notebook.cells if setup_cell.is_setup_cell(c))
    cell.source, cell.execution_count = cell.source + "\n# stale", 1
    del cell.metadata["jupyter"]  # unfolded: the rewrite folds it again (JupyterLab shows it collapsed)
    path = tmp_path / CHAPTERS[0].name
    nbformat.write(notebook, path)
    assert setup_cell.update(path, homework=False, check=False)
    rewritten = next(c for c in nbformat.read(path, as_version=4).cells if setup_cell.is_setup_cell(c))
    assert rewritten.source == setup_cell.cell_source(False) and rewritten.execution_count == 1
    assert rewritten.metadata["jupyter"] == {"source_hidden": True}
