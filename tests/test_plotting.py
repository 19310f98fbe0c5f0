"""Tests of the figure functions in perceptron.plotting that the chapters rely on."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.colors import to_rgba

from perceptron.plotting import CLASS_COLORS, plot_weight_image


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def test_weight_image_shows_the_weights_in_row_major_pixel_order():
    w = np.arange(64.0) - 20.0
    image = plot_weight_image(w).images[0]
    assert np.array_equal(np.asarray(image.get_array()), w.reshape(8, 8))


def test_weight_image_scale_is_symmetric_so_zero_is_white():
    w = np.array([-0.5, 0.0, 2.0, 1.0])
    image = plot_weight_image(w, shape=(2, 2), colorbar=False).images[0]
    assert tuple(float(v) for v in image.get_clim()) == (-2.0, 2.0)
    assert image.to_rgba(0.0) == pytest.approx(to_rgba("white"))


def test_weight_image_colours_positive_weights_like_the_positive_class():
    image = plot_weight_image(np.array([-3.0, 3.0]), shape=(1, 2), colorbar=False).images[0]
    assert image.to_rgba(3.0) == pytest.approx(to_rgba(CLASS_COLORS[1]))
    assert image.to_rgba(-3.0) == pytest.approx(to_rgba(CLASS_COLORS[-1]))


def test_weight_image_of_zero_weights_is_blank_not_an_error():
    image = plot_weight_image(np.zeros(4), shape=(2, 2), colorbar=False).images[0]
    assert tuple(float(v) for v in image.get_clim()) == (-1.0, 1.0)


def test_weight_image_draws_into_given_axes_and_adds_a_labelled_colorbar():
    fig, ax = plt.subplots()
    assert plot_weight_image(np.ones(64), ax=ax, title="w") is ax
    assert ax.get_title() == "w"
    assert [a.get_ylabel() for a in fig.axes if a is not ax] == ["weight"]


@pytest.mark.parametrize("w", [np.ones(63), np.ones((8, 8)), np.r_[np.ones(63), np.nan]])
def test_weight_image_rejects_weights_that_do_not_fill_the_image(w):
    with pytest.raises(ValueError, match="64 finite weights for a 8x8 image"):
        plot_weight_image(w)


# --- margins and the convergence proof (chapters 4 and 5) ---------------------------------------

def _ringed(ax):
    """Centres of the rings plot_margin draws (its last scatter collection)."""
    return np.asarray(ax.collections[-1].get_offsets())


def _dashed_lines(ax):
    return [line for line in ax.get_lines() if line.get_linestyle() == "--"]


def test_margin_picture_rings_the_support_vectors_of_the_max_margin_hyperplane():
    from perceptron import datasets, functional_margins, max_margin
    from perceptron.plotting import plot_margin

    X, y = datasets.make_separable(30, margin=0.1, seed=4)
    best = max_margin(X, y)
    support = X[np.isclose(functional_margins(X, y, best.w, best.b), best.gamma, atol=1e-9)]
    ax = plot_margin(X, y, best.w, best.b)
    assert sorted(map(tuple, _ringed(ax))) == sorted(map(tuple, support))
    assert len(_dashed_lines(ax)) == 2  # the two edges of the band


def test_margin_picture_of_a_misclassifying_line_has_no_band_and_rings_the_worst_point():
    from perceptron.plotting import plot_margin

    X = np.array([[1.0, 0.0], [3.0, 0.0], [-1.0, 0.0]])
    y = np.array([1, -1, -1])                   # x1 = 0 puts (3, 0) on the wrong side, 3 away
    ax = plot_margin(X, y, [1.0, 0.0], 0.0, legend=False)
    assert _dashed_lines(ax) == []
    assert _ringed(ax).tolist() == [[3.0, 0.0]]


def test_margin_picture_refuses_a_zero_normal():
    from perceptron.plotting import plot_margin

    with pytest.raises(ValueError, match="zero vector"):
        plot_margin([[1.0, 0.0], [-1.0, 0.0]], [1, -1], [0.0, 0.0])


def test_plain_log_ticks_label_decades_with_plain_numbers_and_no_minor_ticks():
    from perceptron.plotting import plain_log_ticks

    fig, ax = plt.subplots()
    ax.loglog([1, 1e4], [1e-2, 1e2])
    plain_log_ticks(ax)
    fig.canvas.draw()
    labels = [t.get_text() for t in ax.get_xticklabels() if t.get_text()]
    assert "1000" in labels and not any("$" in text for text in labels)
    assert ax.xaxis.get_minor_locator()() == [] and ax.yaxis.get_minor_locator()() == []


def _tight_run():
    """Three points on which the proof is tight: 2 mistakes, bound 2, ||w_k||^2 = k R^2."""
    from perceptron import proof_quantities, train

    X, y = [[1.0, 0.0], [0.0, 1.0], [-0.5, -0.5]], [1, 1, -1]
    return proof_quantities(X, y, train(X, y, bias="none", record=True), bias="none")


def test_proof_race_plots_the_measured_run_between_the_proved_bounds():
    from perceptron.plotting import plot_proof_race

    q = _tight_run()
    ax = plot_proof_race(q)
    lines = {line.get_label(): line for line in ax.get_lines()}
    alignment = lines["w*·w_k (measured)"].get_ydata()
    length = lines["‖w_k‖ (measured)"].get_ydata()
    np.testing.assert_allclose(alignment, q.alignment)
    np.testing.assert_allclose(length, np.sqrt(q.sq_norm))
    assert lines["k = (R/γ)²"].get_xdata()[0] == pytest.approx(q.bound)
    assert ax.get_xscale() == ax.get_yscale() == "log"
    assert plot_proof_race(q, legend=False).get_legend() is None


def test_proof_inequalities_figure_has_one_panel_per_inequality_with_measured_and_bound():
    from perceptron.plotting import plot_proof_inequalities

    q = _tight_run()
    fig = plot_proof_inequalities(q, title="tight")
    assert len(fig.axes) == 3 and fig.get_suptitle() == "tight"
    pairs = [(q.sq_norm, q.sq_norm_bound), (q.alignment, q.alignment_bound), (q.cosine, q.cosine_bound)]
    for ax, (measured, bound) in zip(fig.axes, pairs):
        drawn = [line.get_ydata() for line in ax.get_lines()]
        np.testing.assert_allclose(drawn[0], measured)
        np.testing.assert_allclose(drawn[1], bound)
