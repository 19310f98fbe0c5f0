"""Tests of perceptron.sliders: the core chapters' sliders (chapters 1, 2 and 4 call these instead of
drawing in the cell): frames per position, what each frame draws, and the refusals of bad input."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pytest


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")



@pytest.fixture
def plane():
    """Forty separable points in the plane (chapter 4's data) and their maximum-margin line."""
    import perceptron as pc

    X, y = pc.datasets.make_separable(40, margin=0.1, seed=2)
    return X, y, pc.max_margin(X, y)


def _title(fig) -> str:
    return fig.axes[0].get_title()


def test_direction_slider_rings_exactly_the_misclassified_points(plane):
    import numpy as np

    import perceptron as pc
    from perceptron.sliders import direction_slider, separating_degrees, unit_vector

    X, y, best = plane
    good = separating_degrees(X, y, best.b)
    assert good, "the max-margin bias separates in some direction"
    assert all(not (pc.predict(X, unit_vector(a), best.b) != y).any() for a in good)
    bad = (good[0] + 180) % 360
    assert bad not in good
    slider = direction_slider(X, y, best.b, [good[0], bad], initial=1)
    assert len(slider.values) == 2 and slider.initial == 1
    for angle in slider.values:
        wrong = int(np.sum(pc.predict(X, unit_vector(angle), best.b) != y))
        fig = slider.draw(angle)
        assert _title(fig) == f"angle {angle}°: {wrong} misclassified"
        rings = [c for c in fig.axes[0].collections if list(c.get_sizes()) == [150]]
        assert len(rings) == 1 and len(rings[0].get_offsets()) == wrong
        assert f"{wrong} on the wrong side" in slider.alt_text(angle)
    assert "0 on the wrong side" in slider.alt_text(good[0])


def test_updates_slider_has_a_frame_per_update_and_dashes_the_previous_boundary():
    import perceptron as pc
    from perceptron.sliders import updates_slider

    X, y = pc.datasets.make_separable(30, margin=0.1, seed=7)
    run = pc.train(X, y, record=True)
    slider = updates_slider(X, y, run, initial=2)
    assert slider.values == list(range(len(run.history) + 1))
    assert _title(slider.draw(0)) == "start: $w = 0$, $b = 0$"
    k = len(run.history)
    fig = slider.draw(k)
    u = run.history[-1]
    assert _title(fig) == f"update {k} (epoch {u.epoch}) on point {u.index}: 0 errors"
    assert any(line.get_linestyle() == "--" for line in fig.axes[0].get_lines())
    assert f"on the ringed point {u.index}" in slider.alt_text(k)
    for j in range(1, k + 1):  # the title's count of errors is named in the description
        w, b = run.history[j - 1].w, run.history[j - 1].b
        made = pc.count_errors(X, y, w, b, rule="sign")
        said = "1 error" if made == 1 else f"{made} errors"  # "1 errors" was printed
        assert f"{said} (points with sgn(w·x + b) ≠ y)" in slider.alt_text(j)
        assert _title(slider.draw(j)).endswith(f": {said}")
    # Update 1 follows w = 0, which has no boundary: nothing dashed, and no "w = 0" note on the
    # picture of a w that is no longer 0 (a first-year reader took it for the current state).
    first = slider.draw(1)
    assert not any(line.get_linestyle() == "--" for line in first.axes[0].get_lines())
    assert not [t.get_text() for t in first.axes[0].texts if "w = 0" in t.get_text()]
    assert "no boundary before it (w was 0)" in slider.alt_text(1)


def test_eta_slider_shows_both_runs_and_the_start_per_learning_rate():
    import numpy as np

    import perceptron as pc
    from perceptron.sliders import eta_slider

    X, y = pc.datasets.make_separable(30, margin=0.1, seed=7)
    w0, b0 = np.array([2.0, 2.0]), 3.0
    etas = [0.1, 1.0, 10.0]
    zero = {eta: pc.train(X, y, eta=eta) for eta in etas}
    start = {eta: pc.train(X, y, eta=eta, w0=w0, b0=b0) for eta in etas}
    slider = eta_slider(X, y, zero, start, w0, b0, initial=1)
    assert slider.values == etas
    fig = slider.draw(0.1)
    assert len(fig.axes) == 2
    assert fig.axes[1].get_title() == f"from w₀ = (2, 2), b₀ = 3: {start[0.1].mistakes} mistakes"
    assert fig.axes[0].get_title().startswith(f"zero start: {zero[0.1].mistakes} mistakes")
    with pytest.raises(ValueError, match="same learning rates"):
        eta_slider(X, y, zero, {1.0: start[1.0]}, w0, b0)


def test_turning_slider_marks_the_margin_of_each_turn_on_the_full_curve(plane):
    import numpy as np

    from perceptron.sliders import turned_line, turned_margins, turning_slider

    X, y, best = plane
    centre = X.mean(axis=0)
    pivot = centre - (centre @ best.w + best.b) * best.w
    w, b = turned_line(best.w, pivot, 0)
    np.testing.assert_allclose(w, best.w)
    assert b == pytest.approx(best.b)
    curve = turned_margins(X, y, best.w, pivot, [-30, 0, 30])
    assert curve[1] == pytest.approx(best.gamma) and curve.max() == curve[1]
    slider = turning_slider(X, y, best, pivot, [-30, 0, 30], initial=1)
    assert len(slider.values) == 3
    fig = slider.draw(30)
    right = fig.axes[1].get_lines()
    assert len(right[0].get_xdata()) == 721                 # the curve, -90° to 90° by quarters
    assert right[-1].get_xdata()[0] == 30 and right[-1].get_ydata()[0] == pytest.approx(curve[2])
    # the title names the ringed point as the one whose distance is the margin (rings mean other things
    # on other chapters' pictures: misclassified points, the point of an update)
    assert _title(fig) == f"turned +30°: margin {curve[2]:+.4f} (ringed)"


def test_shifting_slider_margin_falls_by_the_shift(plane):
    from perceptron.sliders import shifting_slider

    X, y, best = plane
    slider = shifting_slider(X, y, best, [0.0, 0.5, 1.0], initial=1)
    assert len(slider.values) == 3
    for s in slider.values:
        assert _title(slider.draw(s)) == f"t = {s:+.1f} γ*: margin {(1 - s) * best.gamma:+.4f}"
    assert "margin +0.0000" in slider.alt_text(1.0)          # no "-0.0000" on a support vector


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda X, y, best: __import__("perceptron.sliders").sliders.direction_slider(
            X[:, :1], y, 0.0, [0, 1]), "shape \\(n, 2\\)"),
        (lambda X, y, best: __import__("perceptron.sliders").sliders.direction_slider(
            X, y[:-1], 0.0, [0, 1]), "different lengths"),
        (lambda X, y, best: __import__("perceptron.sliders").sliders.separating_degrees(
            X, y, float("nan")), "b must be finite"),
        (lambda X, y, best: __import__("perceptron.sliders").sliders.turning_slider(
            X, y, object(), [0.0, 0.0], [0, 1]), "maximum-margin result"),
        (lambda X, y, best: __import__("perceptron.sliders").sliders.turned_line(
            best.w, [0.0], 10), "pivot"),
        (lambda X, y, best: __import__("perceptron.sliders").sliders.updates_slider(
            X, y, object()), "recorded run"),
    ],
)
def test_chapter_sliders_refuse_bad_input(plane, call, message):
    X, y, best = plane
    with pytest.raises(ValueError, match=message):
        call(X, y, best)
