"""Chapter 2's core path, as fresh readers asked for it (issue 32, item 2).

A self-learner wanted the book's own loop, `perceptron_by_hand`, run on the core path right after the
algorithm, with its printed result; a reader counted the entries of the printed list of training errors
and found one more than the updates (the first is the start, before any update), so its label and the
prose say so; the quick check on scaling the points must be answerable without the optional sections;
and the core path fits the reading time the issue set for it.
"""

from __future__ import annotations

import ast
import json
import re

import perceptron as pc
from coursebook import ROOT, plan

from .test_core_cells_stand_alone import HEADING, MARKER, code_cells

CH2 = ROOT / "notebooks" / "02_update_rule.ipynb"
CORE_MINUTES = 19  # issue 32: 29 -> 22 -> 18; 19 with what panels 12-13 asked for (why a +1 point on the line is a mistake, w = 0 is no classifier, the score change behind the 100)


def cells() -> list[dict]:
    return json.loads(CH2.read_text(encoding="utf-8"))["cells"]


def stdout(cell: dict) -> str:
    return "".join("".join(o.get("text", "")) for o in cell["outputs"] if o.get("name") == "stdout")


def core_markdown() -> str:
    """The chapter's markdown without the sections marked (optional) (fences are not headings)."""
    kept, optional_level = [], None
    for cell in cells():
        if cell["cell_type"] != "markdown":
            continue
        fence = None
        for line in "".join(cell["source"]).splitlines():
            mark = re.match(r"\s*(`{3,}|:{3,})", line)
            if mark and fence is None:
                fence = mark[1]
            elif mark and line.strip() == fence:
                fence = None
            elif fence is None and (heading := HEADING.match(line)):
                level = len(heading[1])
                if optional_level is not None and level <= optional_level:
                    optional_level = None
                if optional_level is None and heading[2].rstrip().endswith(MARKER):
                    optional_level = level
            if optional_level is None:
                kept.append(line)
    return "\n".join(kept)


def the_run():
    X, y = pc.datasets.make_separable(30, margin=0.3, radius=4.0, seed=7)
    return pc.train(X, y, record=True)


def calls(source: str, name: str) -> bool:
    return any(isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name
               for node in ast.walk(ast.parse(source)))


def test_perceptron_by_hand_is_run_on_the_core_path_right_after_the_algorithm():
    nb = cells()
    algorithm = next(i for i, c in enumerate(nb) if "{prf:algorithm}" in "".join(c["source"]))
    index, core, source = next(found for found in code_cells(CH2) if found[0] > algorithm)
    assert core and calls(source, "perceptron_by_hand"), "the first code cell after the algorithm does not run it"
    printed = stdout(nb[index])
    updates = [u.index for u in the_run().history]
    assert f"updates on points {updates}" in printed, printed
    assert len(printed.splitlines()) <= 3, "the core's call prints a short result"


def test_the_list_of_training_errors_says_its_first_entry_is_the_start():
    run = the_run()
    for cell in cells():
        if cell["cell_type"] == "code" and "training errors" in stdout(cell):
            label, values = stdout(cell).split(":", 1)
            assert "at the start and after each update" in label, label
            entries = ast.literal_eval(values.strip().splitlines()[0])
            assert len(entries) == run.mistakes + 1
            break
    else:
        raise AssertionError("chapter 2 prints no list of training errors")
    text = " ".join(core_markdown().split())
    assert f"for $k = 0$ (the start) to ${run.mistakes}$" in text


def test_the_scaling_quick_check_is_answered_on_the_core_path():
    text = " ".join(core_markdown().split())
    assert "If every point is scaled by 10" in text  # the quick check is there ...
    assert "Multiply every point by $10$" in text  # ... and the core says why the answer is "not necessarily"
    assert "the bias part does not" in text


def test_the_core_path_fits_its_reading_time():
    chapter = plan.measure(CH2)
    assert chapter.core_reading <= CORE_MINUTES, (chapter.core, chapter.core_reading)
