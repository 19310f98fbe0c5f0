"""Solutions that compute something are executed code cells, not fenced snippets nobody runs.

A chapter's solution is either a `{solution}` block of prose, or a gated block: a markdown cell that
opens `{solution-start}`, executed code cells, and a markdown cell that closes `{solution-end}`
(sphinx-exercise), so that nbval and the book build run every solution's code.
"""

from __future__ import annotations

import json
import re

import pytest

from coursebook import CHAPTERS

BLOCK = re.compile(r"^(`{3,})\{solution\} (\S+)\n(.*?)^\1[ \t]*$", re.MULTILINE | re.DOTALL)


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_no_solution_hides_code_in_a_fenced_snippet(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            for block in BLOCK.finditer("".join(cell["source"])):
                assert "```python" not in block.group(3), f"{path.stem}: solution {block.group(2)} has a fenced snippet"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_gated_solutions_are_closed_and_hold_executed_code(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    open_label, code_cells, seen = None, 0, 0
    for cell in nb["cells"]:
        text = "".join(cell["source"])
        if cell["cell_type"] == "code":
            if open_label is not None:
                code_cells += 1
                assert cell.get("execution_count") is not None, f"{path.stem}: {open_label} has an unexecuted cell"
            continue
        for event in re.findall(r"\{solution-(start|end)\}\s*(\S*)", text):
            if event[0] == "start":
                assert open_label is None, f"{path.stem}: {event[1]} starts inside {open_label}"
                open_label, code_cells = event[1], 0
            else:
                assert open_label is not None, f"{path.stem}: solution-end without a start"
                assert code_cells > 0, f"{path.stem}: gated solution {open_label} holds no code cell"
                open_label, seen = None, seen + 1
    assert open_label is None, f"{path.stem}: solution {open_label} is never closed"


def test_all_solution_code_of_the_book_is_executed():
    """The 23 snippets the solutions once held (24 with the SVM grid of chapter 7) are code cells."""
    total = 0
    for path in CHAPTERS:
        nb = json.loads(path.read_text(encoding="utf-8"))
        text = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
        total += len(re.findall(r"\{solution-start\}", text))
    assert total >= 23


def test_every_gated_solution_is_folded_for_jupyterlab():
    """coursebook.solutions folds each gated solution's cells in the chapters' metadata (JupyterLab shows
    them collapsed; tests/environments/test_lab.py checks it live); --check fails on an unfolded one."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "coursebook.solutions", "--check"], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, f"unfolded gated solutions (run python -m coursebook.solutions):\n{done.stdout}"


def test_folding_collapses_the_cells_between_the_gates_and_never_a_lone_gate():
    from coursebook.solutions import fold_in_notebook

    def md(text):
        return {"cell_type": "markdown", "metadata": {}, "source": text}

    def code(text):
        return {"cell_type": "code", "metadata": {}, "source": text, "outputs": []}

    nb = {"cells": [md("```{exercise}\n:label: ex\nDo it.\n```\n\n```{solution-start} ex\n```\nFirst."),
                    code("x = 1"), md("More words."), md("```{solution-end}\n```"), code("y = 2"),
                    md("```{solution-start} ex\n```"), code("z = 3"), md("Last words.\n\n```{solution-end}\n```")]}
    assert fold_in_notebook(nb) is True
    hidden = [c["metadata"].get("jupyter", {}) for c in nb["cells"]]
    assert hidden == [{}, {"source_hidden": True, "outputs_hidden": True}, {"source_hidden": True}, {}, {},
                      {}, {"source_hidden": True, "outputs_hidden": True}, {"source_hidden": True}]
    assert fold_in_notebook(nb) is False
    nb["cells"].append(md("```{solution-start} ex\n```"))
    with pytest.raises(ValueError, match="no {solution-end}"):
        fold_in_notebook(nb)
