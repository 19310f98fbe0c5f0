"""Homework 2, linear classifiers: the tests of q1-q4 (public ones as in the notebook)."""

from __future__ import annotations

import numpy as np

import perceptron
from perceptron.datasets import make_separable

from . import NOTHING_OF_THE_PACKAGE as OWN
from . import call, check

# ------------------------------------------------------------------------------ q1: predict


@check("q1")
def test_predict_small_example(rng):
    calls = [call("predict", np.array([[2.0, 1.0], [-1.0, -3.0], [0.5, 0.5]]), np.array([1.0, 1.0]), -1.0)]

    def verdict(out):
        labels = out[0]
        assert np.array_equal(labels, [1, -1, 1]), (
            f"expected [1, -1, 1], got {labels}; the third point lies on the line, and sgn(0) = +1"
        )

    return calls, verdict


@check("q1", hidden=True)
def test_predict_matches_reference_on_random_data(rng):
    cases = []
    for d in (1, 3, 6):
        cases.append((rng.normal(size=(40, d)), rng.normal(size=d), float(rng.normal())))

    def verdict(out):
        for (X, w, b), got in zip(cases, out):
            assert np.array_equal(np.asarray(got), perceptron.predict(X, w, b)), f"wrong labels for d = {X.shape[1]}"

    return [call("predict", X, w, b, forbid=OWN) for X, w, b in cases], verdict


@check("q1", hidden=True)
def test_predict_points_on_the_hyperplane(rng):
    # Integer points and weights: every point of the grid on the line is in X, where sgn(0) = +1 decides.
    w, b = np.array([2.0, -1.0]), 1.0
    grid = np.array([[x1, x2] for x1 in range(-4, 5) for x2 in range(-4, 5)], dtype=float)
    X = np.vstack([grid[rng.integers(0, len(grid), size=60)], grid[grid @ w + b == 0]])
    X = X[rng.permutation(len(X))]

    def verdict(out):
        assert np.array_equal(np.asarray(out[0]), perceptron.predict(X, w, b)), "wrong labels on the hyperplane"

    return [call("predict", X, w, b, forbid=OWN)], verdict


# ------------------------------------------------------------------- q2: functional margins


@check("q2")
def test_functional_margins_small_example(rng):
    X = np.array([[1.0, 0.0], [-2.0, 0.0], [0.0, 1.0]])

    def verdict(out):
        got = out[0]
        assert np.allclose(np.asarray(got, dtype=float), [3.0, 3.0, 1.0]), f"expected [3, 3, 1], got {got}"

    return [call("functional_margins", X, np.array([1, -1, 1]), np.array([2.0, 0.0]), 1.0)], verdict


@check("q2", hidden=True)
def test_functional_margins_match_reference(rng):
    cases = []
    for d in (2, 5):
        cases.append((rng.normal(size=(30, d)), rng.choice([-1, 1], size=30), rng.normal(size=d), float(rng.normal())))

    def verdict(out):
        for (X, y, w, b), got in zip(cases, out):
            assert np.allclose(np.asarray(got, dtype=float), perceptron.functional_margins(X, y, w, b)), (
                f"wrong margins for d = {X.shape[1]}"
            )

    return [call("functional_margins", *case, forbid=OWN) for case in cases], verdict


@check("q2", hidden=True)
def test_functional_margins_scale_with_the_hyperplane(rng):
    X, y = rng.normal(size=(25, 3)), rng.choice([-1, 1], size=25)
    w, b = rng.normal(size=3), float(rng.normal())
    calls = [call("functional_margins", X, y, w, b, forbid=OWN),
             call("functional_margins", X, y, 3.5 * w, 3.5 * b, forbid=OWN)]

    def verdict(out):
        base, scaled = np.asarray(out[0], dtype=float), np.asarray(out[1], dtype=float)
        assert base.shape == (25,) and np.allclose(scaled, 3.5 * base), (
            "multiplying (w, b) by 3.5 should multiply every margin by 3.5"
        )

    return calls, verdict


# --------------------------------------------------------------------- q3: geometric margin


@check("q3")
def test_geometric_margin_small_example(rng):
    X = np.array([[1.0, 0.0], [-2.0, 0.0], [0.0, 1.0]])

    def verdict(out):
        got = out[0]
        assert got is not None and np.isclose(float(got), 0.5), f"expected 0.5, got {got}"

    return [call("geometric_margin", X, np.array([1, -1, 1]), np.array([2.0, 0.0]), 1.0)], verdict


@check("q3", hidden=True)
def test_geometric_margin_matches_reference(rng):
    cases = []
    for d in (2, 4):
        cases.append((rng.normal(size=(30, d)), rng.choice([-1, 1], size=30), rng.normal(size=d), float(rng.normal())))

    def verdict(out):
        for (X, y, w, b), got in zip(cases, out):
            assert np.isclose(float(got), perceptron.geometric_margin(X, y, w, b)), f"wrong margin for d = {X.shape[1]}"

    return [call("geometric_margin", *case, forbid=OWN) for case in cases], verdict


@check("q3", hidden=True)
def test_geometric_margin_ignores_the_scale(rng):
    X, y = make_separable(40, 3, margin=0.2, seed=int(rng.integers(2**31)))
    best = perceptron.max_margin(X, y)
    scales = (0.01, 1.0, 250.0)

    def verdict(out):
        for c, got in zip(scales, out):
            assert np.isclose(float(got), best.gamma), f"the margin changed when (w, b) was multiplied by {c}"

    return [call("geometric_margin", X, y, c * best.w, c * best.b, forbid=OWN) for c in scales], verdict


# ------------------------------------------------------------------------- q4: prototype


@check("q4")
def test_prototype_small_example(rng):
    X = np.array([[2.0, 0.0], [4.0, 0.0], [0.0, 0.0], [-2.0, 0.0]])

    def verdict(out):
        w, b = out[0]
        assert np.allclose(w, [4.0, 0.0]) and np.isclose(b, -4.0), f"expected w = [4, 0], b = -4, got {w}, {b}"

    return [call("prototype_classifier", X, np.array([1, 1, -1, -1]))], verdict


@check("q4", hidden=True)
def test_prototype_matches_reference(rng):
    cases = []
    for d in (2, 5):
        X = rng.normal(size=(45, d))
        y = np.where(rng.random(45) < 0.4, 1, -1)
        y[:2] = (1, -1)  # both classes present, whatever the draw
        cases.append((X, y))

    def verdict(out):
        for (X, y), got in zip(cases, out):
            w, b = got
            w_ref, b_ref = perceptron.prototype(X, y)
            assert np.allclose(w, w_ref) and np.isclose(b, b_ref), f"wrong (w, b) for d = {X.shape[1]}"

    return [call("prototype_classifier", X, y, forbid=OWN) for X, y in cases], verdict


@check("q4", hidden=True)
def test_prototype_picks_the_nearest_mean(rng):
    X = rng.normal(size=(60, 3)) + np.array([1.0, 0.0, -0.5])
    y = np.where(X[:, 0] + rng.normal(scale=1.5, size=60) > 1.0, 1, -1)
    y[:2] = (1, -1)
    queries = rng.normal(scale=3.0, size=(200, 3))

    def verdict(out):
        w, b = out[0]
        to_plus = np.linalg.norm(queries - X[y == 1].mean(axis=0), axis=1)
        to_minus = np.linalg.norm(queries - X[y == -1].mean(axis=0), axis=1)
        nearest = np.where(to_plus <= to_minus, 1, -1)
        labels = np.where(queries @ np.asarray(w, dtype=float) + float(b) >= 0, 1, -1)
        assert np.array_equal(labels, nearest), "some points get the farther class"

    return [call("prototype_classifier", X, y, forbid=OWN)], verdict
