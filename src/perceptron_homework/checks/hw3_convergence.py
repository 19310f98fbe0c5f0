"""Homework 3, convergence and beyond: the tests of q1-q5 (public ones as in the notebook).

:data:`NOTEBOOK_DATA` is the one place of the notebook's data: :func:`variant` hands it to the build,
which renders the master's placeholders with it, and the tests below read it. It does not depend
on the secret (the hidden tests' own data do).
"""

from __future__ import annotations

import numpy as np

import perceptron
from perceptron.datasets import make_overlapping, make_separable
from perceptron.pocket import pocket as reference_pocket

from . import NOTHING_OF_THE_PACKAGE as OWN
from . import TRAINERS, call, check, value

# The notebook's (X, y), and the datasets of the experiment (q4): seeds 0, 1, ..., q4_count - 1.
NOTEBOOK_DATA = {"n": 50, "margin": 0.1, "seed": 11, "q4_n": 30, "q4_margin": 0.05, "q4_count": 20}


def variant(secret: str) -> dict:
    """The master's placeholder values: the notebook's data (the same under every secret)."""
    d = NOTEBOOK_DATA
    return {"data_n": d["n"], "data_margin": d["margin"], "data_seed": d["seed"], "q4_n": d["q4_n"],
            "q4_margin": d["q4_margin"], "q4_count": d["q4_count"]}
NO_BOUND = (*TRAINERS, "sklearn.*")  # novikoff_bound may call max_margin, not the package's bound


def _given():
    return make_separable(NOTEBOOK_DATA["n"], margin=NOTEBOOK_DATA["margin"], seed=NOTEBOOK_DATA["seed"])


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


# ------------------------------------------------------------------------------ q1: radius


@check("q1")
def test_radius_small_example(rng):
    def verdict(out):
        got = out[0]
        assert got is not None and np.isclose(float(got), 5.0), f"expected 5, got {got}"

    return [call("radius", np.array([[3.0, 4.0], [1.0, 0.0], [0.0, -2.0]]))], verdict


@check("q1", hidden=True)
def test_radius_matches_reference(rng):
    cases = [rng.normal(scale=2.0, size=(35, d)) for d in (1, 3, 7)]

    def verdict(out):
        for X, got in zip(cases, out):
            assert np.isclose(float(got), perceptron.radius(X)), f"wrong radius for d = {X.shape[1]}"

    return [call("radius", X, forbid=OWN) for X in cases], verdict


@check("q1", hidden=True)
def test_R_of_the_given_data(rng):
    X, _ = _given()

    def verdict(out):
        R = out[0]
        assert R is not None and np.isclose(float(R), perceptron.radius(X)), "R is not the radius of X"

    return [value("R")], verdict


# ------------------------------------------------------------------- q2: margins, augmented data


@check("q2")
def test_margins_are_consistent(rng):
    def verdict(out):
        gamma, R_aug, gamma_aug = out
        assert all(_is_number(v) for v in (gamma, R_aug, gamma_aug)), "set gamma, R_aug and gamma_aug"
        assert 0 < gamma_aug <= gamma, (
            "0 < gamma_aug <= gamma: the best unit (w, b) for the augmented points has ||w|| <= ||(w, b)|| = 1,"
            " so its margin y (w.x + b) / ||w|| is at least gamma_aug"
        )
        assert R_aug > 1, "every augmented point has norm at least 1"

    return [value("gamma"), value("R_aug"), value("gamma_aug")], verdict


@check("q2", hidden=True)
def test_margins_match_reference(rng):
    X, y = _given()
    Z = np.column_stack([X, np.ones(len(X))])

    def verdict(out):
        gamma, R_aug, gamma_aug = (float(v) for v in out)
        assert np.isclose(gamma, perceptron.max_margin(X, y).gamma, rtol=1e-6), "gamma"
        assert np.isclose(R_aug, perceptron.radius(Z)), "R_aug"
        assert np.isclose(gamma_aug, perceptron.max_margin(Z, y, bias="none").gamma, rtol=1e-6), "gamma_aug"

    return [value("gamma"), value("R_aug"), value("gamma_aug")], verdict


@check("q2", hidden=True)
def test_augment_on_random_data(rng):
    X = rng.normal(size=(9, 3))

    def verdict(out):
        Z = np.asarray(out[0], dtype=float)
        assert Z.shape == (9, 4) and np.allclose(Z[:, :3], X) and np.allclose(Z[:, 3], 1.0), (
            "augment should append a column of ones"
        )

    return [call("augment", X, forbid=OWN)], verdict


# ------------------------------------------------------------------------------ q3: the bound


@check("q3")
def test_bound_of_the_given_data(rng):
    X, y = _given()

    def verdict(out):
        got, R_aug, gamma_aug = out
        assert got is not None and np.isclose(float(got), (float(R_aug) / float(gamma_aug)) ** 2), (
            "expected (R_aug / gamma_aug)**2"
        )

    return [call("novikoff_bound", X, y), value("R_aug"), value("gamma_aug")], verdict


@check("q3", hidden=True)
def test_bound_matches_reference(rng):
    cases = [make_separable(30, d, margin=0.1, seed=int(rng.integers(2**31))) for d in (2, 4)]

    def verdict(out):
        for (X, y), got in zip(cases, out):
            assert np.isclose(float(got), perceptron.mistake_bound(X, y, bias="one"), rtol=1e-6), (
                f"wrong bound for d = {X.shape[1]}"
            )

    return [call("novikoff_bound", X, y, forbid=NO_BOUND) for X, y in cases], verdict


# --------------------------------------------------------------------------- q4: the experiment


@check("q4")
def test_experiment_shapes(rng):
    def verdict(out):
        mistakes, bounds, bound_holds = out
        count = NOTEBOOK_DATA["q4_count"]
        assert np.shape(mistakes) == (count,) and np.shape(bounds) == (count,), "one entry per seed"
        assert isinstance(bound_holds, (bool, np.bool_)), "bound_holds should be True or False"

    return [value("mistakes"), value("bounds"), value("bound_holds")], verdict


@check("q4", hidden=True)
def test_experiment_matches_reference(rng):
    def verdict(out):
        mistakes, bounds = out
        data = [make_separable(NOTEBOOK_DATA["q4_n"], margin=NOTEBOOK_DATA["q4_margin"], seed=s)
                for s in range(NOTEBOOK_DATA["q4_count"])]
        assert np.array_equal(mistakes, [perceptron.train(Xs, ys).mistakes for Xs, ys in data]), "mistakes"
        assert np.allclose(np.asarray(bounds, dtype=float), [perceptron.mistake_bound(Xs, ys) for Xs, ys in data],
                           rtol=1e-6), "bounds"

    return [value("mistakes"), value("bounds")], verdict


@check("q4", hidden=True)
def test_experiment_conclusion(rng):
    def verdict(out):
        mistakes, bounds, bound_holds, tightness = out
        assert bound_holds is True or type(bound_holds) is np.bool_ and bool(bound_holds), (
            "the theorem holds on every separable dataset"
        )
        ratio = np.max(np.asarray(mistakes, dtype=float) / np.asarray(bounds, dtype=float))
        assert np.isclose(float(tightness), ratio), "tightness"

    return [value("mistakes"), value("bounds"), value("bound_holds"), value("tightness")], verdict


# ------------------------------------------------------------------------------ q5: the pocket


@check("q5")
def test_pocket_small_example(rng):
    # One negative point sits among the positives: the best a threshold can do is one error.
    X = np.array([[1.0], [2.0], [3.0], [-1.0], [-2.0], [1.5]])
    y = np.array([1, 1, 1, -1, -1, -1])

    def verdict(out):
        w, b, errors = out[0]
        assert errors == 1, f"expected 1 error, got {errors}"
        assert np.count_nonzero(y * (X @ np.asarray(w, dtype=float) + float(b)) <= 0) == errors, (
            "errors must count the returned (w, b)"
        )

    return [call("pocket", X, y, max_epochs=20)], verdict


@check("q5", hidden=True)
def test_pocket_matches_reference_on_overlapping_data(rng):
    cases = [(*make_overlapping(40, 3, separation=1.5, seed=int(rng.integers(2**31))), epochs) for epochs in (5, 30)]

    def verdict(out):
        for (X, y, epochs), got in zip(cases, out):
            w, b, errors = got
            ref = reference_pocket(X, y, max_epochs=epochs, shuffle=False)
            assert errors == ref.errors, f"{errors} errors instead of {ref.errors}"
            assert np.allclose(w, ref.w) and np.isclose(b, ref.b), "a different (w, b) went into the pocket"

    return [call("pocket", X, y, max_epochs=epochs, forbid=OWN) for X, y, epochs in cases], verdict


@check("q5", hidden=True)
def test_pocket_on_separable_data(rng):
    X, y = make_separable(40, 2, margin=0.1, seed=int(rng.integers(2**31)))

    def verdict(out):
        w, b, errors = out[0]
        ref = perceptron.train(X, y)
        assert errors == 0 and np.allclose(w, ref.w) and np.isclose(b, ref.b), (
            "on separable data the pocket ends with the perceptron's final weights"
        )

    return [call("pocket", X, y, forbid=OWN)], verdict
