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
    from perceptron.proof_plots import plot_proof_race

    q = _tight_run()
    ax = plot_proof_race(q)
    lines = {line.get_label(): line for line in ax.get_lines()}
    alignment = lines["u·w_k (measured)"].get_ydata()
    length = lines["‖w_k‖ (measured)"].get_ydata()
    np.testing.assert_allclose(alignment, q.alignment)
    np.testing.assert_allclose(length, np.sqrt(q.sq_norm))
    assert lines["k = (R/γ)²"].get_xdata()[0] == pytest.approx(q.bound)
    assert ax.get_xscale() == ax.get_yscale() == "log"
    assert ax.get_xlabel() and ax.get_ylabel(), "both axes of the race are labelled"
    assert plot_proof_race(q, legend=False).get_legend() is None


def test_proof_race_on_linear_axes_starts_at_zero_and_shows_the_crossing():
    # Chapter 5's core draws the race on linear axes: the bounds from k = 0, the crossing in view.
    from perceptron import datasets, proof_quantities, train
    from perceptron.proof_plots import plot_proof_race

    X, y = datasets.make_separable(80, 5, margin=0.02, bias="none", seed=0)
    q = proof_quantities(X, y, train(X, y, bias="none", record=True), bias="none")
    ax = plot_proof_race(q, scale="linear")
    assert ax.get_xscale() == ax.get_yscale() == "linear"
    lines = {line.get_label(): line for line in ax.get_lines()}
    lower, upper = lines["kγ (proved lower bound)"], lines["√k R (proved upper bound)"]
    k = lower.get_xdata()
    assert k[0] == 0 and ax.get_xlim()[0] == 0 and ax.get_xlim()[1] > q.bound
    np.testing.assert_allclose(lower.get_ydata(), k * q.margin)
    np.testing.assert_allclose(upper.get_ydata(), np.sqrt(k) * q.radius)
    np.testing.assert_allclose(lines["u·w_k (measured)"].get_ydata(), q.alignment)
    assert lines["k = (R/γ)²"].get_xdata()[0] == pytest.approx(q.bound)
    with pytest.raises(ValueError, match="scale must be 'log' or 'linear'"):
        plot_proof_race(q, scale="loglog")
    plt.close("all")


def test_proof_race_title_gives_the_whole_number_of_updates_the_theorem_allows():
    # Chapter 5's first run has (R/gamma)^2 = 681.6: the theorem allows floor(681.6) = 681 updates,
    # and the title said "bound 682" (the bound rounded to the nearest whole number).
    from dataclasses import replace

    from perceptron.proof_plots import plot_proof_race

    q = _tight_run()
    for bound, shown in [(681.6, "681"), (2.0, "2"), (2.0 - 2e-16, "2"), (5.999, "5")]:
        title = plot_proof_race(replace(q, bound=bound)).get_title()
        assert title == f"{len(q.k)} mistakes, bound {shown}", (bound, title)
        plt.close("all")


def test_proof_inequalities_figure_has_one_panel_per_inequality_with_measured_and_bound():
    from perceptron.proof_plots import plot_proof_inequalities

    q = _tight_run()
    fig = plot_proof_inequalities(q, title="tight")
    assert len(fig.axes) == 3 and fig.get_suptitle() == "tight"
    pairs = [(q.sq_norm, q.sq_norm_bound), (q.alignment, q.alignment_bound), (q.cosine, q.cosine_bound)]
    for ax, (measured, bound) in zip(fig.axes, pairs):
        drawn = [line.get_ydata() for line in ax.get_lines()]
        np.testing.assert_allclose(drawn[0], measured)
        np.testing.assert_allclose(drawn[1], bound)
        assert ax.get_ylabel() and ax.get_title(loc="left"), "every panel labels its y-axis and names its inequality"
    for ax in fig.axes[:2]:
        assert [t.get_text() for t in ax.get_legend().get_texts()] == ["measured", "proved bound"]
    # the cosine panel says which curve caps the number of updates: the rising lower bound, under 1
    assert [t.get_text() for t in fig.axes[2].get_legend().get_texts()] == [
        r"measured $\cos \theta_k$", r"lower bound $\sqrt{k}\, \gamma / R$", r"cap $\cos \theta_k \leq 1$"]
    # stacked on one axis of updates, labelled once, at the bottom
    assert all(ax.get_shared_x_axes().joined(ax, fig.axes[2]) for ax in fig.axes)
    assert fig.axes[2].get_xlabel() == "update k"


def test_proof_inequalities_figure_stays_legible_on_a_phone():
    """Shrunk to the 340 px a 390 px wide phone gives a figure of the book, every text is 10 px or more.

    A figure w inches wide shown 340 px wide draws s-point text at s / 72 * 340 / w px: the three
    panels side by side (10.5 in, legends at 8.3 pt) gave 3.7 px.
    """
    from matplotlib.text import Text

    from perceptron.proof_plots import plot_proof_inequalities

    fig = plot_proof_inequalities(_tight_run(), title="tight")
    fig.canvas.draw()
    shown = [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]
    assert len(shown) > 20                                 # titles, labels, tick labels, legends
    smallest = min(t.get_fontsize() for t in shown)
    assert smallest / 72 * 340 / fig.get_size_inches()[0] >= 10
    plt.close(fig)


# --- drawing cost: fewer tick objects and no title measurement, the same picture -------------------

def _png(fig):
    import io

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=60, metadata={"Software": None})
    return buf.getvalue()


def _with_matplotlib_defaults(ax, title):
    """Put back matplotlib's own tick locators and its automatic title placement on ``ax``."""
    from matplotlib.ticker import AutoLocator, LogLocator

    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_locator(LogLocator() if axis.get_scale() == "log" else AutoLocator())
    ax.set_title(title)
    assert hasattr(ax, "_autotitlepos")  # matplotlib's flag (private): a rename must fail this test
    ax._autotitlepos = True  # as on a fresh axes (rcParams["axes.titley"] is None): placed on each draw


def test_classifier_figure_builds_ticks_only_inside_the_view():
    from perceptron import datasets
    from perceptron.plotting import plot_classifier

    X, y = datasets.make_separable(40, margin=0.1, seed=2)
    ax = plot_classifier(X, y, [1.0, 0.5], 0.2, title="some title")
    ax.figure.canvas.draw()
    for axis, (low, high) in [(ax.xaxis, ax.get_xlim()), (ax.yaxis, ax.get_ylim())]:
        locs = axis.get_majorticklocs()
        assert len(locs) >= 2 and np.all((low <= locs) & (locs <= high))
        assert len(axis.majorTicks) == len(locs)  # no tick object built for a location never drawn


@pytest.mark.parametrize("figure", ["classifier", "margin", "proof race"])
def test_lean_ticks_and_fixed_title_draw_the_same_pixels_as_matplotlibs_defaults(figure):
    from perceptron import datasets, proof_quantities, train
    from perceptron.plotting import new_axes, plot_classifier, plot_margin
    from perceptron.proof_plots import plot_proof_race

    X, y = datasets.make_separable(40, margin=0.1, seed=2)
    draw = {"classifier": lambda ax: plot_classifier(X, y, [1.0, 0.5], 0.2, ax, title="t = 1: 3 errors"),
            "margin": lambda ax: plot_margin(X, y, [1.0, 0.5], 0.2, ax, title="t = 1: 3 errors"),
            "proof race": lambda ax: plot_proof_race(
                proof_quantities(X, y, train(X, y, record=True), bias="one"), ax)}[figure]
    ours = draw(None)
    title = ours.get_title()
    reference = draw(new_axes(size=tuple(ours.figure.get_size_inches())))
    _with_matplotlib_defaults(reference, title)
    assert type(ours.xaxis.get_major_locator()) is not type(reference.xaxis.get_major_locator())
    assert _png(ours.figure) == _png(reference.figure)


def test_in_view_ticks_keep_every_location_when_fewer_than_two_are_in_view():
    from perceptron.plotting import plot_data

    ax = plot_data(np.array([[0.0, 0.0], [1.0, 1.0]]), np.array([1, -1]))
    ax.set_xlim(0.45, 0.55)              # at most one default location (0.5) would lie in view
    locs = ax.xaxis.get_majorticklocs()
    assert len(locs) >= 2 and ax.xaxis.get_major_formatter().format_ticks(locs)


def test_plain_log_ticks_build_no_decade_outside_the_view():
    from perceptron.plotting import plain_log_ticks

    fig, ax = plt.subplots()
    ax.loglog([2, 5e3], [0.5, 40])
    plain_log_ticks(ax)
    fig.canvas.draw()
    assert ax.xaxis.get_majorticklocs().tolist() == [10.0, 100.0, 1000.0]
    assert ax.yaxis.get_majorticklocs().tolist() == [1.0, 10.0]


# States a learner's changed seed or size reaches (issue 33): drawn with a note, never a traceback.
def _notes(ax) -> list[str]:
    from perceptron._style import NOTE_GID

    return [t.get_text() for t in ax.texts if t.get_gid() == NOTE_GID]


def _box(ax):
    ax.set(xlim=(-2.0, 2.0), ylim=(-2.0, 2.0))
    return ax


def test_a_vanishing_normal_far_from_its_line_is_a_note_not_a_matplotlib_error():
    """Chapter 10 without its seed: the output weights shrink to 1e-19 while the bias stays 0.11,
    putting the line 1e17 away; drawing its arrow and label there failed inside matplotlib."""
    from perceptron.plotting import plot_hyperplane

    ax = plot_hyperplane([4.6e-19, -1.3e-19], 0.11, _box(plt.figure().add_subplot()))
    ax.figure.canvas.draw()
    assert len(ax.lines) == 0 and [t for t in ax.texts if t.get_text() == "w"] == []
    assert _notes(ax) == ["boundary outside this view (|w| = 4.8e-19): every point here is predicted +1"]
    (tint,) = ax.patches
    assert tint.get_facecolor()[:3] == to_rgba(CLASS_COLORS[1])[:3]
    assert ax.get_xlim() == (-2.0, 2.0)


def test_a_zero_normal_tints_the_view_by_sgn_b_and_says_there_is_no_boundary():
    from perceptron.plotting import plot_hyperplane

    ax = plot_hyperplane([0.0, 0.0], -0.5, _box(plt.figure().add_subplot()))
    ax.figure.canvas.draw()
    assert len(ax.lines) == 0 and _notes(ax) == ["w = 0: no boundary, every point is predicted -1"]
    assert ax.patches[0].get_facecolor()[:3] == to_rgba(CLASS_COLORS[-1])[:3]


def test_a_tiny_normal_whose_line_crosses_the_view_is_drawn_as_any_other():
    from perceptron.plotting import plot_hyperplane

    ax = plot_hyperplane([1e-300, 1e-300], -1e-300, _box(plt.figure().add_subplot()))
    ax.figure.canvas.draw()
    (line,) = ax.lines
    assert np.allclose(line.get_xydata().sum(axis=1), 1.0) and _notes(ax) == []


def test_hidden_values_of_three_units_show_two_coordinates_and_say_so():
    """Chapter 10, section 10.5 with three hidden units: plot_data got shape (4, 3)."""
    from perceptron.plotting import plot_classifier, plot_data, plot_hyperplane

    H = np.array([[1.0, 0.5, -1.0], [-1.0, 0.2, 1.0], [0.3, -1.0, 0.0], [0.0, 1.0, 0.5]])
    y = np.array([1, 1, -1, -1])
    ax = plot_data(H, y)
    assert sorted(map(tuple, np.vstack([c.get_offsets() for c in ax.collections]))) == sorted(map(tuple, H[:, :2]))
    plot_hyperplane([1.0, -2.0, 0.5], 0.1, ax)
    ax.figure.canvas.draw()
    assert _notes(ax) == ["coordinates 1 and 2 of 3 shown",
                          "w has 3 entries: its boundary is not a line in this plane, not drawn"]
    plot_classifier(H, y, [1.0, -2.0, 0.5], 0.1).figure.canvas.draw()


@pytest.mark.parametrize("w, b, message", [
    ([1.0], 0.0, "2 entries"), ([np.nan, 1.0], 0.0, "finite"), ([1.0, 1.0], np.inf, "finite"),
])
def test_plot_hyperplane_refuses_what_is_no_hyperplane(w, b, message):
    from perceptron.plotting import plot_hyperplane

    with pytest.raises(ValueError, match=message):
        plot_hyperplane(w, b)


def test_plot_data_refuses_one_coordinate_and_mismatched_labels():
    from perceptron.plotting import plot_data

    with pytest.raises(ValueError, match="shape"):
        plot_data(np.zeros((3, 1)), [1, -1, 1])
    with pytest.raises(ValueError, match="labels"):
        plot_data(np.zeros((3, 2)), [1, -1])


def test_decision_regions_need_points_in_the_plane():
    from perceptron.plotting import plot_decision_regions

    with pytest.raises(ValueError, match=r"shape \(n, 2\), got \(4, 3\)"):
        plot_decision_regions(lambda Z: np.ones(len(Z)), np.zeros((4, 3)), [1, 1, -1, -1])


def _study():
    """A small study: two prescribed margins, three datasets each (margin, mistakes, bound)."""
    return np.array([[0.1, 3, 20.0], [0.1, 5, 25.0], [0.1, 4, 22.0],
                     [0.01, 30, 900.0], [0.01, 10, 1000.0], [0.01, 20, 950.0]])


def test_bound_study_draws_a_dot_per_dataset_and_the_median_per_margin():
    from perceptron.proof_plots import plot_bound_study

    study = _study()
    fig = plot_bound_study(study, [0.1, 0.01], [0.2, 0.02])
    ax, ax2, bar = fig.axes
    dots = ax.collections[0]
    np.testing.assert_allclose(dots.get_offsets(), study[:, [2, 1]])
    np.testing.assert_allclose(dots.get_array(), np.log10(study[:, 0]))
    assert ax.get_lines()[0].get_label() == "mistakes = bound"
    np.testing.assert_allclose(ax.get_lines()[0].get_xdata(), [1, 1000])
    np.testing.assert_allclose(ax2.get_lines()[0].get_ydata(), [0.2, 0.02])
    assert ax2.xaxis_inverted() and bar.get_ylabel() == "log10 prescribed margin"
    with pytest.raises(ValueError, match="one length"):
        plot_bound_study(study, [0.1, 0.01], [0.2])
    with pytest.raises(ValueError, match="rows"):
        plot_bound_study(study[:, :2], [0.1], [0.2])


def test_race_slider_has_a_frame_per_margin_and_rings_the_run():
    from perceptron.proof_plots import race_slider

    q = _tight_run()
    study = _study()
    slider = race_slider({0.1: q, 0.01: q}, study, initial=1)
    assert slider.values == [0.1, 0.01] and slider.initial == 1
    fig = slider.draw(0.01)
    left, right = fig.axes
    assert left.get_title() == f"{len(q.k)} mistakes, bound 2"      # the proof's race of the run
    lines = {line.get_label(): line for line in right.get_lines()}
    assert len(lines["other margins"].get_xdata()) == 3
    assert lines["the 3 at margin 0.01"].get_ydata().tolist() == [30, 10, 20]
    assert lines["the run on the left"].get_xdata()[0] == pytest.approx(q.bound)
    np.testing.assert_allclose(lines["mistakes = bound"].get_xdata(), [1, 1000])
    assert right.get_title() == "6 datasets"
    assert "(10 to 30 mistakes)" in slider.alt_text(0.01)
    with pytest.raises(ValueError, match="no dataset in study"):
        race_slider({0.5: q, 0.1: q}, study)


# --- the lifted (augmented) margin of chapter 5 -------------------------------------------------

def _segment(ax, prefix):
    line, = [ln for ln in ax.get_lines() if ln.get_label().startswith(prefix)]
    return line.get_xydata()


def test_lifted_margin_picture_draws_the_distance_to_the_plane_shorter_than_to_the_line():
    """Chapter 2's thirty points and chapter 4's maximum-margin line: the side view's segment to the
    plane has length y (w.x + b) / sqrt(|w|^2 + b^2), at right angles to the plane, and the segment to
    the line y (w.x + b) / |w|; for these points the first is the augmented margin itself."""
    from perceptron import datasets, max_margin
    from perceptron.proof_plots import plot_lifted_margin

    X, y = datasets.make_separable(30, margin=0.3, radius=4.0, seed=7)
    best = max_margin(X, y)
    side = plot_lifted_margin(X, y, best.w, best.b).axes[1]
    to_plane, to_line = _segment(side, "to the plane"), _segment(side, "to the line")
    normal = np.append(best.w, best.b)
    closest = np.min(y * (X @ best.w + best.b))
    assert np.linalg.norm(np.diff(to_plane, axis=0)) == pytest.approx(closest / np.linalg.norm(normal))
    assert np.linalg.norm(np.diff(to_line, axis=0)) == pytest.approx(closest / np.linalg.norm(best.w))
    step = np.diff(to_plane, axis=0)[0]       # along (||w||, b), the plane's normal in the side view
    assert step[0] * best.b - step[1] * np.linalg.norm(best.w) == pytest.approx(0, abs=1e-12)
    lifted = max_margin(np.column_stack([X, np.ones(len(X))]), y, bias="none").gamma
    assert closest / np.linalg.norm(normal) == pytest.approx(lifted, rel=1e-6)
    assert lifted < closest / np.linalg.norm(best.w) == pytest.approx(best.gamma)


def test_lifted_margin_picture_lifts_the_points_to_the_sheet_and_puts_the_line_on_the_plane():
    from perceptron.proof_plots import plot_lifted_margin

    X, y, w, b = np.array([[2.0, 1.0], [0.0, -1.0], [3.0, 3.0]]), np.array([1, -1, 1]), np.array([1.0, 1.0]), -1.0
    ax3d = plot_lifted_margin(X, y, w, b).axes[0]
    points = np.vstack([np.array(ln.get_data_3d()).T for ln in ax3d.get_lines() if ln.get_marker() in ("o", "s")])
    assert sorted(map(tuple, points[:, :2])) == sorted(map(tuple, X)) and np.all(points[:, 2] == 1.0)
    line, = [np.array(ln.get_data_3d()).T for ln in ax3d.get_lines() if ln.get_linewidth() == 2]
    assert np.allclose(line[:, 2], 1.0) and np.allclose(line @ np.append(w, b), 0.0)


def test_lifted_margin_picture_is_the_same_for_every_positive_multiple_of_w_and_b():
    from perceptron.proof_plots import plot_lifted_margin

    X, y = np.array([[2.0, 0.0], [0.0, 0.0], [3.0, 1.0]]), np.array([1, -1, 1])
    texts = [[t.get_text() for t in plot_lifted_margin(X, y, c * np.array([1.0, 0.0]), -c).axes[1]
              .get_legend().get_texts()] for c in (1.0, 7.5)]
    assert texts[0] == texts[1] == ["the line, seen end-on", "to the plane: 0.71", "to the line: 1.00"]


@pytest.mark.parametrize(("X", "w", "b", "message"), [
    ([[1.0, 0.0], [-1.0, 0.0]], [0.0, 0.0], 1.0, "zero vector: the plane .* parallel to the sheet"),
    ([[1.0, 0.0], [-1.0, 0.0]], [-1.0, 0.0], 0.0, "does not separate the data: 2 points"),
    ([[1.0, 0.0], [-1.0, 0.0]], [1.0, 0.0], 1.5, "does not separate the data: 1 points"),
    ([[1.0, 0.0, 0.0], [-1.0, 0.0, 0.0]], [1.0, 0.0], 0.0, "shape \\(n, 2\\)"),
])
def test_lifted_margin_picture_refuses_what_it_cannot_draw(X, w, b, message):
    from perceptron.proof_plots import plot_lifted_margin

    with pytest.raises(ValueError, match=message):
        plot_lifted_margin(X, [1, -1], w, b)


def test_lifted_margin_picture_stays_legible_on_a_phone():
    """As for the proof's panels: every text at least 10 px where the figure is shown 340 px wide."""
    from matplotlib.text import Text

    from perceptron import datasets, max_margin
    from perceptron.proof_plots import plot_lifted_margin

    X, y = datasets.make_separable(30, margin=0.3, radius=4.0, seed=7)
    best = max_margin(X, y)
    fig = plot_lifted_margin(X, y, best.w, best.b)
    fig.canvas.draw()
    shown = [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]
    assert len(shown) > 15
    assert min(t.get_fontsize() for t in shown) / 72 * 340 / fig.get_size_inches()[0] >= 10
