"""The chapters carry the figure descriptions of book/figure_descriptions.yml (coursebook.figures)."""

from __future__ import annotations

import pytest

from coursebook import figures as describe_figures


def test_every_chapter_figure_and_slider_is_described_and_applied():
    # raises on a figure/slider cell without a description or an id found in no chapter
    changed = describe_figures.apply(check=True)
    assert not changed, f"run `python -m coursebook.figures`: {changed} lack their descriptions"


def test_slider_alt_is_added_once_and_kept_within_the_code_column():
    src = 'def draw(k):\n    return k\n\npc.widgets.SliderFigure(draw, [1, 2], name="k (n)", initial=1)'
    define = 'def describe(k):\n    return f"frame {k}"\n'
    once = describe_figures.add_slider_alt(src, "describe", define, "x")
    assert describe_figures.add_slider_alt(once, "describe", define, "x") == once
    assert once.count("def describe(") == 1 and once.rstrip().endswith("alt=describe)")
    assert all(len(line) <= describe_figures.WIDTH for line in once.splitlines())
    black = 'pc.widgets.SliderFigure(\n    draw, [1, 2], name="k", initial=1\n)'
    assert describe_figures.add_slider_alt(black, "describe", define, "x").endswith(
        '    draw, [1, 2], name="k", initial=1,\n    alt=describe,\n)')
    with pytest.raises(ValueError, match="no 'pc.widgets.SliderFigure\\(' call"):
        describe_figures.add_slider_alt("x = 1", "describe", define, "x")
    with pytest.raises(ValueError, match="another alt="):
        describe_figures.add_slider_alt(once.replace("alt=describe", "alt=other"), "describe", define, "x")


def test_a_slider_built_by_a_package_function_is_still_a_slider():
    # chapters 1, 2, 4 and 5 call e.g. pc.sliders.turning_slider(...): no "SliderFigure(" in the
    # cell, but its stored output is the SliderFigure's, and the plan, the slides and the figure
    # descriptions must still count and show it
    from coursebook import content, plan

    output = {"output_type": "execute_result",
              "data": {"text/plain": "SliderFigure: rotation (degrees) over 9 positions"}}
    built = {"cell_type": "code", "source": "pc.sliders.turning_slider(X, y, best, pivot, turns)",
             "outputs": [output]}
    assert content.is_slider(built)
    assert content.is_slider({"cell_type": "code", "source": "pc.widgets.SliderFigure(draw, v, name='k')",
                              "outputs": []})
    assert not content.is_slider({"cell_type": "code", "source": "plt.show()", "outputs": []})
    chapters = {c.name: c for c in plan.chapters()}
    assert chapters["04_margins"].sliders == 2 and chapters["05_convergence"].sliders == 1
    assert describe_figures.apply(check=True) == []
