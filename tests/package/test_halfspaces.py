"""Halfspaces as a class: a separator by linear programming, shattering, Radon's theorem; the SVM dual."""

from __future__ import annotations

from itertools import product

import numpy as np
import pytest
from scipy.optimize import linprog
from sklearn.svm import SVC

from perceptron import datasets, max_margin, radon_partition, separating_hyperplane, shatters, svm_dual


def in_hull(points, p):
    """Whether p is a convex combination of the rows of points (an LP of its own)."""
    m = len(points)
    A_eq = np.vstack([points.T, np.ones(m)])
    lp = linprog(np.zeros(m), A_eq=A_eq, b_eq=np.append(p, 1.0), bounds=[(0, None)] * m, method="highs")
    return lp.status == 0


def test_the_separator_meets_every_constraint_on_separable_data():
    X, y = datasets.make_separable(60, margin=0.05, seed=4)
    w, b = separating_hyperplane(X, y)
    assert np.min(y * (X @ w + b)) >= 1 - 1e-9


def test_the_separator_through_the_origin_has_no_offset():
    X = np.array([[1.0, 1.0], [2.0, -1.0], [-1.0, 0.5]])
    y = np.array([1, 1, -1])
    w, b = separating_hyperplane(X, y, bias="none")
    assert b == 0.0 and np.min(y * (X @ w)) >= 1 - 1e-9


@pytest.mark.parametrize(("X", "y", "bias"), [
    ([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]], [1, 1, -1, -1], "one"),  # XOR
    ([[1.0], [2.0]], [1, -1], "none"),  # needs an offset
])
def test_no_separator_raises_naming_the_problem(X, y, bias):
    with pytest.raises(ValueError, match="not linearly separable"):
        separating_hyperplane(X, y, bias=bias)


def test_the_lp_decides_separability_as_max_margin_does():
    rng = np.random.default_rng(0)
    for _ in range(30):
        X, y = rng.normal(size=(8, 2)), rng.choice([-1, 1], size=8)
        if len(set(y)) < 2:
            continue
        try:
            max_margin(X, y)
            separable = True
        except ValueError:
            separable = False
        try:
            separating_hyperplane(X, y)
            found = True
        except ValueError:
            found = False
        assert found == separable


@pytest.mark.parametrize("d", [1, 2, 3, 4])
def test_the_origin_and_the_unit_vectors_are_shattered(d):
    assert shatters(np.vstack([np.zeros(d), np.eye(d)]))


@pytest.mark.parametrize("d", [1, 2, 3])
def test_no_d_plus_2_points_are_shattered(d):
    rng = np.random.default_rng(d)
    for _ in range(5):
        assert not shatters(rng.normal(size=(d + 2, d)))


def test_collinear_points_in_the_plane_are_not_shattered():
    assert not shatters([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]])
    assert shatters([[0.0, 0.0], [1.0, 1.0], [2.0, 2.1]])


def test_shattering_agrees_with_brute_force_on_four_points_of_the_line():
    # Four points on a line: 2^4 labellings, of which only the 2 * 4 = 8 threshold ones are realised.
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    realised = 0
    for labels in product((-1, 1), repeat=4):
        y = np.array(labels)
        if abs(y.sum()) == 4:
            realised += 1
            continue
        try:
            separating_hyperplane(X, y)
            realised += 1
        except ValueError:
            pass
    assert realised == 8 and not shatters(X) and shatters(X[:2])


@pytest.mark.parametrize(("X", "match"), [
    ([[0.0, 0.0], [0.0, 0.0]], "repeats a point"),
    (np.arange(17.0)[:, None], "at most 16"),
])
def test_shatters_refuses_what_it_cannot_answer(X, match):
    with pytest.raises(ValueError, match=match):
        shatters(X)


@pytest.mark.parametrize("d", [1, 2, 3, 5])
def test_the_radon_point_is_in_both_hulls_and_its_labelling_is_unrealisable(d):
    rng = np.random.default_rng(10 + d)
    X = rng.normal(size=(d + 2, d))
    I, J, p = radon_partition(X)
    assert sorted(np.concatenate([I, J]).tolist()) == list(range(d + 2))
    assert len(I) and len(J)
    assert in_hull(X[I], p) and in_hull(X[J], p)
    y = np.where(np.isin(np.arange(d + 2), I), 1, -1)
    with pytest.raises(ValueError, match="not linearly separable"):
        separating_hyperplane(X, y)


def test_radon_on_a_point_inside_a_triangle():
    I, J, p = radon_partition([[0.0, 0.0], [4.0, 0.0], [0.0, 4.0], [1.0, 1.0]])
    assert {tuple(I), tuple(J)} == {(0, 1, 2), (3,)} and np.allclose(p, [1.0, 1.0])


def test_radon_needs_exactly_d_plus_2_points():
    with pytest.raises(ValueError, match="d \\+ 2 = 4 points"):
        radon_partition(np.eye(3, 2))


def dual_objective(X, y, lam):
    v = (lam * y) @ X
    return lam.sum() - 0.5 * v @ v


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_the_multipliers_satisfy_the_kkt_conditions_and_close_the_duality_gap(seed):
    X, y = datasets.make_separable(30, margin=0.1, seed=seed)
    best = max_margin(X, y)
    w, b = best.w / best.gamma, best.b / best.gamma
    lam = svm_dual(X, y)
    slack = y * (X @ w + b) - 1
    assert np.all(lam >= 0) and abs(lam @ y) < 1e-8
    assert np.allclose((lam * y) @ X, w, atol=1e-7)
    assert np.max(np.abs(lam * slack)) < 1e-7  # complementary slackness
    assert np.isclose(dual_objective(X, y, lam), 0.5 * w @ w, rtol=1e-7)


def test_the_dual_optimum_matches_libsvms():
    X, y = datasets.make_separable(30, margin=0.1, seed=7)
    svc = SVC(kernel="linear", C=1e6, tol=1e-10).fit(X, y)
    lam_sk = np.zeros(len(y))
    lam_sk[svc.support_] = np.abs(svc.dual_coef_[0])
    assert np.isclose(dual_objective(X, y, svm_dual(X, y)), dual_objective(X, y, lam_sk), rtol=1e-5)


def test_weak_duality_any_feasible_multipliers_give_less():
    X, y = datasets.make_separable(20, margin=0.1, seed=2)
    best = max_margin(X, y)
    primal = 0.5 / best.gamma**2
    rng = np.random.default_rng(0)
    for _ in range(200):
        lam = rng.exponential(size=len(y))
        lam[y == 1] *= lam[y == -1].sum() / lam[y == 1].sum()  # sum_i lam_i y_i = 0
        assert dual_objective(X, y, lam) <= primal + 1e-9


def test_svm_dual_refuses_bad_input():
    with pytest.raises(ValueError, match="tol must be > 0"):
        svm_dual([[1.0], [-1.0]], [1, -1], tol=0.0)
    with pytest.raises(ValueError, match="not linearly separable"):
        svm_dual([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]], [1, 1, -1, -1])
