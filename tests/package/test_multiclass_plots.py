"""multiclass_plots: the regions, claims and confusion-matrix figures of the chapter on several classes."""

from __future__ import annotations

import itertools

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pytest

from perceptron import multiclass_train
from perceptron._style import CLASS_COLORS
from perceptron.multiclass_plots import (
    CONTESTED_COLOR,
    MULTICLASS_COLORS,
    UNCLAIMED_COLOR,
    plot_claims,
    plot_class_regions,
    plot_confusion,
    plot_multiclass_data,
    plot_update,
)

X = np.array([[0.0, 0.0], [2.0, 0.0], [0.0, 2.0], [2.0, 2.0]])
y = np.array([0, 1, 2, 2])


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def test_the_first_two_classes_keep_the_book_colours_and_all_are_distinct():
    assert MULTICLASS_COLORS[:2] == (CLASS_COLORS[1], CLASS_COLORS[-1])
    assert len(set(MULTICLASS_COLORS) | {UNCLAIMED_COLOR, CONTESTED_COLOR}) == len(MULTICLASS_COLORS) + 2


def test_regions_tint_each_grid_point_with_its_predicted_class():
    result = multiclass_train(X, y)
    ax = plot_class_regions(result.predict, X, y, resolution=40)
    image = ax.images[0].get_array()
    assert image.shape == (40, 40) and set(np.unique(image)) <= {0, 1, 2}
    assert len(ax.collections) >= 3         # one scatter per class (and the boundary contours)


def test_claims_mark_unclaimed_and_contested_points():
    # Class 0 claims x1 < 1, class 1 claims x1 > 0.5: the strip 0.5 < x1 < 1 is contested; class 2
    # claims nothing, so the grid has no class-2 tint.
    def scores(P):
        return np.column_stack([1 - P[:, 0], P[:, 0] - 0.5, -np.ones(len(P))])

    ax = plot_claims(scores, X, y, resolution=60)
    values = set(np.unique(ax.images[0].get_array()))
    assert values == {0, 1, 4}                  # class 0, class 1, contested (K + 1 = 4)
    with pytest.raises(ValueError, match="one score per class"):
        plot_claims(lambda P: P, X, y)


def test_confusion_counts_the_pairs():
    ax = plot_confusion([0, 1, 1, 2], [0, 1, 2, 2])
    counts = ax.images[0].get_array()
    assert counts.tolist() == [[1, 0, 0], [0, 1, 1], [0, 0, 1]]


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="2-D points"):
        plot_multiclass_data(np.zeros((3, 3)), [0, 1, 2])
    with pytest.raises(ValueError, match="at most 8 classes"):
        plot_multiclass_data(np.zeros((9, 2)), np.arange(9))
    with pytest.raises(ValueError, match="not classes of y"):
        plot_class_regions(lambda P: np.full(len(P), 7), X, y, resolution=5)


def test_update_states_rebuild_the_run_two_rows_at_a_time():
    from perceptron.multiclass_plots import update_states

    P = np.array([[-2.0, -1.0], [2.0, -1.0], [0.0, 2.5], [-1.5, -0.5], [1.0, -2.0], [0.5, 3.0]])
    labels = np.array([0, 1, 2, 0, 1, 2])
    run = multiclass_train(P, labels, record=True)
    states = update_states(run, P)
    assert len(states) == run.mistakes + 1 > 1
    assert np.array_equal(states[-1], np.column_stack([run.W, run.b]))
    assert all(np.sum(np.any(b != a, axis=1)) == 2 for a, b in itertools.pairwise(states))


def test_update_states_refuse_a_run_without_history_or_other_points():
    from perceptron.multiclass_plots import update_states

    with pytest.raises(ValueError, match="record=True"):
        update_states(multiclass_train(X, y), X)
    run = multiclass_train(X, y, record=True)
    with pytest.raises(ValueError, match="rebuild"):
        update_states(run, X + 1.0)


def test_plot_update_rings_the_point_and_describe_update_counts_the_wrong_points():
    from perceptron.multiclass_plots import describe_update

    run = multiclass_train(X, y, record=True)
    assert "3 of the 4 points" in describe_update(run, X, y, 0)  # zero weights: all go to class 0
    assert "0 of the 4 points" in describe_update(run, X, y, run.mistakes)
    ax = plot_update(run, X, y, 1)
    ringed = ax.collections[-1].get_offsets()[0]
    assert np.array_equal(ringed, X[run.history[0].index])
    with pytest.raises(ValueError, match="update count"):
        plot_update(run, X, y, run.mistakes + 1)


@pytest.mark.parametrize("draw", [
    lambda run: plot_multiclass_data(X, y),
    lambda run: plot_class_regions(run.predict, X, y),
    lambda run: plot_claims(lambda P: np.zeros((len(P), 3)), X, y),
    lambda run: plot_update(run, X, y, 1),
], ids=["data", "regions", "claims", "update"])
def test_each_figure_checks_its_points_once(draw, monkeypatch):
    from perceptron import multiclass_plots

    calls = []
    points = multiclass_plots._points
    monkeypatch.setattr(multiclass_plots, "_points", lambda *a: calls.append(1) or points(*a))
    draw(multiclass_train(X, y, record=True))
    assert calls == [1]
