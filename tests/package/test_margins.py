"""Functional and geometric margins, the radius, and the maximum-margin hyperplane."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import nnls
from sklearn.svm import SVC

import perceptron as pc
from perceptron import datasets, functional_margins, geometric_margin, max_margin, radius
from tests.package.strategies import separable_data


def kkt_residual(X, y, w, b, gamma, *, bias=True):
    """Relative residual of the hard-margin SVM's KKT conditions at ``(w, b) / gamma``.

    In canonical form (margin 1) the optimum satisfies ``w = sum_i alpha_i y_i x_i`` with
    ``alpha_i >= 0`` only on the points at the margin and ``sum_i alpha_i y_i = 0`` when there is a
    bias. Solving that system by non-negative least squares and finding a zero residual
    certifies optimality (the problem is convex), independently of how ``max_margin`` got there.
    """
    margins = y * (X @ w + b)
    support = margins <= gamma * (1 + 1e-6)
    A = (y[support][:, None] * X[support]).T
    target = w / gamma
    if bias:
        A = np.vstack([A, y[support]])
        target = np.append(target, 0.0)
    _, residual = nnls(A, target)
    return residual / np.linalg.norm(target)


def best_angle_margin(X, y):
    """Largest margin of a line through the origin in 2-D, by a sweep over directions.

    The margin of direction theta is a minimum of sinusoids, concave around its maximum, so a
    fine grid followed by a golden-section search around the best grid point finds the maximum
    (golden section, unlike parabolic steps, does not mind the kink where two sinusoids cross).
    """
    def margin(theta):
        return float(np.min(y * (X @ np.array([np.cos(theta), np.sin(theta)]))))

    grid = np.linspace(-np.pi, np.pi, 20_001)
    best = grid[np.argmax([margin(t) for t in grid])]
    lo, hi = best - (grid[1] - grid[0]), best + (grid[1] - grid[0])
    inv_phi = (np.sqrt(5.0) - 1) / 2
    for _ in range(80):
        a, c = hi - inv_phi * (hi - lo), lo + inv_phi * (hi - lo)
        if margin(a) < margin(c):
            lo = a
        else:
            hi = c
    theta = (lo + hi) / 2
    return margin(theta), np.array([np.cos(theta), np.sin(theta)])


# --- functional and geometric margins --------------------------------------------------------


def test_functional_margins_hand_computed():
    X, y = [[1.0, 0.0], [-2.0, 0.0], [0.5, 3.0]], [1, -1, -1]
    assert functional_margins(X, y, [2.0, 0.0], 1.0).tolist() == [3.0, 3.0, -2.0]


@pytest.mark.parametrize("c", [3.0, 0.25, -2.0])
def test_functional_margins_scale_with_w_and_b(c):
    X, y = datasets.make_overlapping(20, 3, seed=1)
    w, b = np.array([0.3, -1.2, 2.0]), 0.7
    np.testing.assert_allclose(functional_margins(X, y, c * w, c * b), c * functional_margins(X, y, w, b),
                               rtol=1e-14, atol=1e-14)


def test_geometric_margin_is_signed_distance_of_the_closest_point():
    # The line x1 = 1: distances 1 (correct side) and -0.5 (x3 is on the wrong side).
    X, y = [[2.0, 0.0], [-1.0, 5.0], [0.5, -1.0]], [1, -1, 1]
    assert geometric_margin(X, y, [4.0, 0.0], -4.0) == -0.5
    assert geometric_margin(X[:2], y[:2], [4.0, 0.0], -4.0) == 1.0


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), c=st.floats(1e-6, 1e6))
def test_geometric_margin_is_invariant_under_positive_rescaling(seed, c):
    X, y = datasets.make_overlapping(15, 3, seed=seed)
    rng = np.random.default_rng(seed)
    w, b = rng.normal(size=3), float(rng.normal())
    assert geometric_margin(X, y, c * w, c * b) == pytest.approx(geometric_margin(X, y, w, b), rel=1e-12)


def test_geometric_margin_flips_to_minus_the_largest_margin_for_negative_w():
    X, y = datasets.make_overlapping(20, 2, seed=3)
    w, b = np.array([1.0, 2.0]), -0.3
    expected = -np.max(functional_margins(X, y, w, b)) / np.linalg.norm(w)
    assert geometric_margin(X, y, -w, -b) == pytest.approx(expected, rel=1e-14)


def test_geometric_margin_of_zero_weights_raises():
    with pytest.raises(ValueError, match="w is the zero vector"):
        geometric_margin([[1.0, 0.0], [-1.0, 0.0]], [1, -1], [0.0, 0.0], 1.0)


def test_geometric_margin_handles_tiny_and_huge_weights():
    X, y = [[1.0, 0.0], [-1.0, 0.0]], [1, -1]
    assert geometric_margin(X, y, [1e-170, 0.0]) == pytest.approx(1.0)  # ||w||**2 underflows
    assert geometric_margin(X, y, [1e160, 0.0]) == pytest.approx(1.0)  # ||w||**2 overflows


# --- radius ----------------------------------------------------------------------------------


def test_radius_is_the_largest_norm():
    assert radius([[3.0, 4.0], [1.0, 0.0]]) == 5.0
    assert radius([[0.0, 0.0]]) == 0.0
    assert radius([[-2.0], [1.0]]) == 2.0


def test_radius_scales_with_data_and_ignores_row_order():
    X = np.random.default_rng(0).normal(size=(30, 4))
    assert radius(X[::-1]) == radius(X)
    assert radius(-3.0 * X) == pytest.approx(3.0 * radius(X), rel=1e-15)


@pytest.mark.parametrize("scale", [1e-170, 1e200])
def test_radius_does_not_overflow_or_underflow_for_extreme_scales(scale):
    assert radius([[3.0 * scale, 4.0 * scale]]) == pytest.approx(5.0 * scale, rel=1e-15)


# --- maximum margin: hand-computed cases -----------------------------------------------------


def test_max_margin_two_points():
    w, b, gamma = max_margin([[2.0, 0.0], [0.0, 0.0]], [1, -1])
    np.testing.assert_allclose(w, [1.0, 0.0], atol=1e-12)
    assert b == pytest.approx(-1.0, abs=1e-12)
    assert gamma == pytest.approx(1.0, abs=1e-12)


def test_max_margin_symmetric_square():
    X = [[1.0, 1.0], [1.0, -1.0], [-1.0, 1.0], [-1.0, -1.0]]
    w, b, gamma = max_margin(X, [1, 1, -1, -1])
    np.testing.assert_allclose(w, [1.0, 0.0], atol=1e-12)
    assert b == pytest.approx(0.0, abs=1e-12)
    assert gamma == pytest.approx(1.0, abs=1e-12)


def test_max_margin_diagonal_boundary():
    # +1 at (1,0) and (0,1), -1 at the origin: the boundary is x1 + x2 = 1/2, margin 1/(2 sqrt 2).
    w, b, gamma = max_margin([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]], [1, 1, -1])
    np.testing.assert_allclose(w, [2**-0.5, 2**-0.5], atol=1e-12)
    assert b == pytest.approx(-0.5 * 2**-0.5, abs=1e-12)
    assert gamma == pytest.approx(0.5 * 2**-0.5, abs=1e-12)


def test_max_margin_in_one_dimension_with_duplicates():
    # Points 1 (twice) and -3: the boundary is their midpoint -1, margin 2.
    w, b, gamma = max_margin([[1.0], [1.0], [-3.0]], [1, 1, -1])
    assert w.tolist() == [1.0]
    assert b == pytest.approx(1.0, abs=1e-12)
    assert gamma == pytest.approx(2.0, abs=1e-12)


def test_max_margin_without_bias_passes_through_the_origin():
    # Through the origin only the directions of the points matter: a smaller margin than with b.
    X, y = [[2.0, 0.0], [0.0, 2.0], [-1.0, 0.5]], [1, 1, -1]
    free = max_margin(X, y)
    through = max_margin(X, y, bias="none")
    assert through.b == 0.0
    assert through.gamma < free.gamma
    gamma, w = best_angle_margin(np.asarray(X), np.asarray(y))
    assert through.gamma == pytest.approx(gamma, rel=1e-9)
    np.testing.assert_allclose(through.w, w, atol=1e-6)


def test_max_margin_when_more_features_than_points():
    X = np.eye(10)[:3]
    w, _b, gamma = max_margin(X, [1, -1, 1], bias="none")
    np.testing.assert_allclose(w[:3], np.array([1.0, -1.0, 1.0]) / np.sqrt(3), atol=1e-12)
    assert gamma == pytest.approx(1 / np.sqrt(3), rel=1e-12)


# --- maximum margin: properties --------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(data=st.data(), bias=st.booleans())
def test_max_margin_is_a_unit_normal_with_certified_optimal_margin(data, bias):
    X, y = data.draw(separable_data(bias=None if bias else False))
    w, b, gamma = max_margin(X, y, bias="one" if bias else "none")
    assert np.linalg.norm(w) == pytest.approx(1.0, abs=1e-12)
    assert gamma > 0
    assert gamma == pytest.approx(np.min(y * (X @ w + b)), rel=1e-12)
    if not bias:
        assert b == 0.0
    assert kkt_residual(X, y, w, b, gamma, bias=bias) < 1e-8


@pytest.mark.parametrize("seed", range(8))
def test_max_margin_through_origin_matches_a_brute_force_angle_sweep(seed):
    X, y = datasets.make_separable(25, 2, margin=0.05, bias="none", seed=seed)
    result = max_margin(X, y, bias="none")
    gamma, w = best_angle_margin(X, y)
    assert result.gamma == pytest.approx(gamma, rel=1e-6)
    np.testing.assert_allclose(result.w, w, atol=1e-5)


@pytest.mark.parametrize("seed", range(6))
def test_max_margin_matches_sklearn_hard_margin_svc(seed):
    X, y = datasets.make_separable(30, 1 + seed % 4, margin=0.05, seed=seed)
    result = max_margin(X, y)
    svc = SVC(kernel="linear", C=1e10, tol=1e-12).fit(X, y)
    w_svc, b_svc = svc.coef_[0], float(svc.intercept_[0])
    gamma_svc = float(np.min(y * (X @ w_svc + b_svc)) / np.linalg.norm(w_svc))
    assert result.gamma == pytest.approx(gamma_svc, rel=1e-6)
    np.testing.assert_allclose(result.w, w_svc / np.linalg.norm(w_svc), atol=1e-5)
    # The SVC hyperplane is feasible, so the exact optimum can never be worse than it.
    assert result.gamma >= gamma_svc * (1 - 1e-12)


@pytest.mark.parametrize("c", [1e-3, 0.5, 40.0, 1e5])
def test_max_margin_scales_with_the_data(c):
    X, y = datasets.make_separable(30, 3, margin=0.1, seed=7)
    base = max_margin(X, y)
    scaled = max_margin(c * X, y)
    assert scaled.gamma == pytest.approx(c * base.gamma, rel=1e-9)
    np.testing.assert_allclose(scaled.w, base.w, atol=1e-9)
    assert scaled.b == pytest.approx(c * base.b, rel=1e-8, abs=1e-9 * c)


def test_max_margin_follows_a_translation_with_the_offset():
    X, y = datasets.make_separable(30, 2, margin=0.1, seed=8)
    shift = np.array([5.0, -3.0])
    base, moved = max_margin(X, y), max_margin(X + shift, y)
    np.testing.assert_allclose(moved.w, base.w, atol=1e-9)
    assert moved.b == pytest.approx(base.b - base.w @ shift, abs=1e-9)
    assert moved.gamma == pytest.approx(base.gamma, rel=1e-9)


@pytest.mark.parametrize("scale", [1e-170, 1e200])
def test_max_margin_works_at_extreme_scales(scale):
    w, _b, gamma = max_margin([[2.0 * scale, 0.0], [0.0, 0.0]], [1, -1])
    np.testing.assert_allclose(w, [1.0, 0.0], atol=1e-12)
    assert gamma == pytest.approx(scale, rel=1e-12)


def test_xor_is_not_linearly_separable(xor):
    X, y = xor
    for bias in ("one", "radius", "none"):
        with pytest.raises(ValueError, match="not linearly separable"):
            max_margin(X, y, bias=bias)


def test_data_separable_only_with_an_offset_fail_without_bias():
    X, y = [[1.0, 0.0], [2.0, 0.0]], [1, -1]
    assert max_margin(X, y).gamma == pytest.approx(0.5, abs=1e-12)
    with pytest.raises(ValueError, match="not linearly separable through the origin \\(try bias=\"one\"\\)"):
        max_margin(X, y, bias="none")


def test_same_point_with_both_labels_is_not_separable():
    with pytest.raises(ValueError, match="not linearly separable"):
        max_margin([[1.0, 1.0], [1.0, 1.0]], [1, -1])
    with pytest.raises(ValueError, match="not linearly separable"):
        max_margin([[0.0, 0.0], [0.0, 0.0]], [1, -1])


def test_moved_errors_is_zero_below_the_margin_and_counts_crossings_above_it():
    # Chapter 4's robustness claim: no moved point crosses when every step is shorter than gamma.
    X, y = pc.datasets.make_separable(40, margin=0.1, seed=2)
    best = pc.max_margin(X, y)
    assert pc.moved_errors(X, y, best.w, best.b, 0.999 * best.gamma, trials=200, seed=3) == 0
    wide = pc.moved_errors(X, y, best.w, best.b, 3 * best.gamma, trials=200, seed=3)
    assert 0 < wide <= 200 * len(X)
    # the same seed draws the same steps: the count is a function of (classifier, seed)
    assert pc.moved_errors(X, y, best.w, best.b, 3 * best.gamma, trials=200, seed=3) == wide


def test_moved_errors_steps_are_uniform_in_the_ball():
    # A point on the line w = e_1, b = 0, labelled -1, is an error exactly when its step has a
    # first coordinate >= 0: half the time. A point at distance t = 0.5 on the +1 side crosses only
    # when the step's first coordinate is below -t, which for a step uniform in the unit ball of
    # R^3 happens with probability (1 - t)^2 (2 + t) / 4 (a cap of the ball). A second point far on
    # the -1 side (never moved across) gives the data both labels.
    for d in (2, 3):
        far, w = -10 * np.eye(d)[0], np.eye(d)[0]
        X, y = np.vstack([np.zeros(d), far, -far]), np.array([-1, -1, 1])
        assert abs(pc.moved_errors(X, y, w, 0.0, 1.0, trials=4000, seed=0) / 4000 - 0.5) < 0.03
    X = np.array([[0.5, 0.0, 0.0], [-10.0, 0.0, 0.0]])
    share = pc.moved_errors(X, np.array([1, -1]), np.eye(3)[0], 0.0, 1.0, trials=20000, seed=1) / 20000
    assert abs(share - (0.5**2) * 2.5 / 4) < 0.01


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"size": 0.0}, "size must be > 0"),
    ({"size": float("nan")}, "size must be finite"),
    ({"trials": 0}, "trials must be >= 1"),
    ({"trials": 2.5}, "trials must be an integer"),
    ({"w": [0.0, 0.0]}, "zero vector"),
    ({"w": [1.0]}, "w"),
])
def test_moved_errors_refuses_bad_input_with_a_named_reason(kwargs, message):
    X, y = [[1.0, 0.0], [-1.0, 0.0]], [1, -1]
    args = {"w": [1.0, 0.0], "size": 0.5, **kwargs}
    with pytest.raises(ValueError, match=message):
        pc.moved_errors(X, y, args.pop("w"), 0.0, args.pop("size"), **args)
