"""Tests of perceptron.proof: the convergence proof's inequalities along real runs."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron import datasets, max_margin, mistake_bound, radius, train
from perceptron.proof import ProofQuantities, proof_quantities
from tests.package.strategies import separable_data

RTOL = 1e-9  # the inequalities are exact; this only absorbs rounding


def assert_proof_holds(q: ProofQuantities, mistakes: int) -> None:
    assert len(q.k) == mistakes
    assert np.all(q.sq_norm <= q.sq_norm_bound * (1 + RTOL))
    assert np.all(q.alignment >= q.alignment_bound * (1 - RTOL))
    assert np.all(q.cosine <= 1 + RTOL)
    assert np.all(q.cosine >= q.cosine_bound * (1 - RTOL))
    assert mistakes <= q.bound * (1 + RTOL)


@settings(max_examples=40, deadline=None)
@given(data=separable_data(bias=False, max_samples=30, max_features=4, scales=(1.0, 7.5, 300.0)),
       mode=st.sampled_from(["one", "radius", "none"]),
       shuffle_seed=st.one_of(st.none(), st.integers(0, 1000)))
def test_every_inequality_of_the_proof_holds_along_recorded_runs(data, mode, shuffle_seed):
    # Tiny scales are left out: with bias "one" their bound runs to millions of updates. At these
    # scales the bound is at most ~1e4, and every pass but the last makes a mistake, so the run
    # must converge well within max_epochs: converging is part of what the theorem promises.
    X, y = data
    run = train(X, y, bias=mode, record=True, shuffle=shuffle_seed is not None, seed=shuffle_seed,
                max_epochs=100_000)
    assert run.converged
    assert_proof_holds(proof_quantities(X, y, run, bias=mode), run.mistakes)


@settings(max_examples=25, deadline=None)
@given(data=separable_data(bias=True, max_samples=30, max_features=3))
def test_radius_mode_obeys_the_proof_with_the_max_margin_hyperplane_as_reference(data):
    X, y = data
    run = train(X, y, bias="radius", record=True)
    best = max_margin(X, y)
    q = proof_quantities(X, y, run, best.w, best.b, bias="radius")
    assert_proof_holds(q, run.mistakes)
    # The augmented proof is never weaker than the textbook (2R / gamma*)^2.
    assert q.bound <= (2 * radius(X) / best.gamma) ** 2 * (1 + 1e-6)


def test_default_reference_reproduces_mistake_bound_for_none_and_one():
    X, y = datasets.make_separable(40, 3, margin=0.05, bias="none", seed=3)
    for mode in ("none", "one"):
        q = proof_quantities(X, y, train(X, y, bias=mode, record=True), bias=mode)
        assert q.bound == pytest.approx(mistake_bound(X, y, bias=mode), rel=1e-6)


def test_quantities_do_not_depend_on_the_learning_rate():
    X, y = datasets.make_separable(30, margin=0.05, seed=5)
    base = proof_quantities(X, y, train(X, y, record=True))
    for eta in (0.01, 7.5):
        q = proof_quantities(X, y, train(X, y, eta=eta, record=True), eta=eta)
        np.testing.assert_allclose(q.sq_norm, base.sq_norm, rtol=1e-9)
        np.testing.assert_allclose(q.alignment, base.alignment, rtol=1e-9)


def test_reference_separator_is_used_up_to_scale():
    X, y = datasets.make_separable(30, margin=0.05, seed=6)
    run = train(X, y, record=True)
    best = max_margin(X, y)
    q1 = proof_quantities(X, y, run, best.w, best.b)
    q10 = proof_quantities(X, y, run, 10 * best.w, 10 * best.b)
    np.testing.assert_allclose(q1.alignment, q10.alignment, rtol=1e-12)
    assert q1.margin == pytest.approx(q10.margin, rel=1e-12)
    # Any separator other than the best augmented one gives a weaker (larger) bound.
    assert q1.bound >= proof_quantities(X, y, run).bound * (1 - 1e-9)


@pytest.mark.parametrize("d", [1, 2, 5, 12])
def test_bound_is_attained_by_orthonormal_points(d):
    # d unit vectors labelled +1 and one short negative point: every e_i is met on the
    # hyperplane (score 0) once, so the run makes exactly d = (R / gamma*)^2 mistakes.
    X = np.vstack([np.eye(d), -np.ones((1, d)) / d])
    y = np.array([1] * d + [-1])
    run = train(X, y, bias="none", record=True)
    q = proof_quantities(X, y, run, bias="none")
    assert run.mistakes == d
    assert q.bound == pytest.approx(d, rel=1e-9)
    np.testing.assert_allclose(q.sq_norm, q.sq_norm_bound, rtol=1e-12)


def test_refuses_a_run_without_history():
    X, y = datasets.make_separable(20, seed=1)
    with pytest.raises(ValueError, match="record=True"):
        proof_quantities(X, y, train(X, y))


def test_refuses_a_run_from_a_nonzero_start():
    X, y = datasets.make_separable(20, seed=1)
    run = train(X, y, w0=[0.3, -0.2], record=True)
    with pytest.raises(ValueError, match="zero start"):
        proof_quantities(X, y, run)


def test_refuses_a_run_made_with_another_learning_rate_or_bias():
    X, y = datasets.make_separable(20, margin=0.02, seed=2)
    with pytest.raises(ValueError, match="eta|bias"):
        proof_quantities(X, y, train(X, y, eta=3.0, record=True), eta=1.0)
    with pytest.raises(ValueError, match="bias"):
        proof_quantities(X, y, train(X, y, bias="radius", record=True), bias="one")


def test_refuses_a_run_on_other_data():
    X, y = datasets.make_separable(20, seed=1)
    X2, y2 = datasets.make_separable(20, seed=2)
    with pytest.raises(ValueError):
        proof_quantities(X2, y2, train(X, y, record=True))


def test_refuses_a_reference_that_does_not_separate():
    X, y = datasets.make_separable(20, seed=1)
    run = train(X, y, record=True)
    best = max_margin(X, y)
    with pytest.raises(ValueError, match="does not separate"):
        proof_quantities(X, y, run, -best.w, -best.b)
    with pytest.raises(ValueError, match="zero vector"):
        proof_quantities(X, y, run, [0.0, 0.0], 0.0)


def test_refuses_an_offset_for_bias_none_and_bad_arguments():
    X, y = datasets.make_separable(20, bias="none", seed=1)
    run = train(X, y, bias="none", record=True)
    with pytest.raises(ValueError, match="b_star must be 0"):
        proof_quantities(X, y, run, [1.0, 0.0], 0.5, bias="none")
    with pytest.raises(ValueError, match="b0 = 0"):
        proof_quantities(X, y, train(X, y, bias="none", b0=0.1, record=True), bias="none")
    with pytest.raises(ValueError, match="TrainResult"):
        proof_quantities(X, y, (run.w, run.b))
    with pytest.raises(ValueError, match="unknown bias"):
        proof_quantities(X, y, run, bias="zero")
    with pytest.raises(ValueError, match="eta"):
        proof_quantities(X, y, run, bias="none", eta=0.0)
