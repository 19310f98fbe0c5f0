"""Chapter 5's core path, as first-year readers needed it (issue 32, item 2, third round).

Five panels of first-year readers named the same two places of chapter 5 as their costliest: the bias
case (its 3-D picture of the augmented margin with two distance formulas), and the race drawn on log-log
axes (slopes 1 and 1/2). The race is now drawn on linear axes (the log-log race is in the optional *The
proof, executed*). The bias case keeps its picture on the core, read in words (panel 12, without it,
could not follow "the sheet z = 1"); its formulas are the optional *The two distances, in formulas*.
"""

from __future__ import annotations

from coursebook import ROOT, plan

from .test_core_cells_stand_alone import code_cells
from .test_optional_sections import text_by_path

CH5 = ROOT / "notebooks" / "05_convergence.ipynb"
CORE_MINUTES = 22  # was 22 with the formulas on the core; now the whole theorem and the picture, read in words


def test_the_core_path_fits_its_reading_time():
    chapter = plan.measure(CH5)
    assert chapter.core_reading <= CORE_MINUTES, (chapter.core, chapter.core_reading)


def test_the_core_race_is_linear_the_log_log_race_optional_and_the_3d_picture_on_the_core():
    races = [(core, source) for _, core, source in code_cells(CH5) if "plot_proof_race(" in source]
    assert [core for core, _ in races] == [True, False], "one race on the core, one in an optional section"
    assert 'scale="linear"' in races[0][1] and "linear" not in races[1][1]
    lifted = [core for _, core, source in code_cells(CH5) if "plot_lifted_margin(" in source]
    assert lifted == [True], "the 3-D picture of the lifted margin is not one core cell"
    core, optional = text_by_path(CH5)
    core = " ".join(core.split())
    assert "straight lines, of slopes $1$ and $1/2$" not in core
    assert "slopes $1$ and $1/2$" in " ".join(optional["The proof, executed"].split())
    assert "{prf:ref}`ch5-thm-one`" in core and "the appended $1$ does not scale" in core
    assert "/\\sqrt{\\lVert w \\rVert^2 + b^2}" not in core, "the distance formulas are optional"
