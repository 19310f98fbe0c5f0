"""train: Rosenblatt's loop, its bias modes, learning rate, visiting order, history and limits.

Over 400 lines because it is the one test file of training.py (one file per module, as `make
test-oldest` runs them), and train is the function every chapter calls: each option has its own tests.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.linear_model import Perceptron

from perceptron import datasets, train
from perceptron.margins import functional_margins
from tests.package.strategies import separable_data

BIAS_MODES = ["one", "radius", "none"]


def overlapping(seed: int, n: int = 40, d: int = 3):
    return datasets.make_overlapping(n, d, separation=0.5, seed=seed)


# --- hand-traced runs -----------------------------------------------------------------------


def test_hand_traced_run_counts_boundary_points_as_mistakes():
    # Traced by hand with bias "one": x1 scores 0 (mistake) -> w=(0,-1), b=-1; x2 scores -1
    # (mistake) -> w=(1,-1), b=0; x3 scores 0 (on the hyperplane: mistake) -> w=(2,0), b=-1;
    # the second pass is clean.
    X = [[0.0, 1.0], [1.0, 0.0], [-1.0, -1.0]]
    y = [-1, 1, -1]
    result = train(X, y, record=True)
    assert [u.index for u in result.history] == [0, 1, 2]
    assert result.w.tolist() == [2.0, 0.0]
    assert result.b == -1.0
    assert (result.mistakes, result.epochs, result.converged, result.errors) == (3, 2, True, 0)


def test_radius_bias_first_update_adds_eta_y_r_squared():
    # R = ||(3, 4)|| = 5, so a mistake moves b by eta * y * 25.
    X = [[3.0, 4.0], [-1.0, 0.0]]
    y = [1, -1]
    result = train(X, y, eta=0.5, bias="radius", record=True)
    first, second = result.history[:2]
    assert first.w.tolist() == [1.5, 2.0] and first.b == 12.5
    # x2 then scores -1.5 + 12.5 = 11 although its label is -1: a mistake, b back to 0.
    assert second.w.tolist() == [2.0, 2.0] and second.b == 0.0
    assert (result.mistakes, result.epochs, result.converged) == (2, 2, True)


def test_one_bias_update_adds_eta_y_to_b():
    X, y = [[1.0, 2.0], [-1.0, -1.0]], [-1, 1]
    result = train(X, y, eta=0.25, record=True)
    assert result.history[0].w.tolist() == [-0.25, -0.5]
    assert result.history[0].b == -0.25


def test_none_bias_keeps_b_at_its_start_value():
    X, y = datasets.make_separable(30, 3, bias="none", seed=4)
    for b0 in (0.0, 0.37):
        result = train(X, y, bias="none", b0=b0, record=True, shuffle=True, seed=1)
        assert result.mistakes > 0
        assert result.b == b0
        assert all(u.b == b0 for u in result.history)


# --- epochs, convergence, errors --------------------------------------------------------------


def test_start_that_already_separates_takes_one_clean_epoch():
    X, y = [[1.0, 0.0], [-1.0, 0.0]], [1, -1]
    result = train(X, y, w0=[1.0, 0.0], record=True)
    assert (result.mistakes, result.epochs, result.converged, result.errors) == (0, 1, True, 0)
    assert result.history == ()
    assert result.w.tolist() == [1.0, 0.0] and result.b == 0.0


def test_epochs_count_the_final_clean_pass(toy):
    # One mistake in pass 1 (x1 scores 0), then a clean pass 2 confirms convergence.
    X, y = toy
    result = train(X, y)
    assert (result.mistakes, result.epochs, result.converged) == (1, 2, True)
    assert result.w.tolist() == [2.0, 1.0] and result.b == 1.0


def test_converged_needs_a_clean_pass_even_if_weights_already_fit(toy):
    X, y = toy
    result = train(X, y, max_epochs=1)
    assert result.errors == 0  # the weights after pass 1 fit every point ...
    assert not result.converged  # ... but no pass was made without a mistake
    assert result.epochs == 1


@settings(max_examples=40, deadline=None)
@given(data=separable_data(scales=(1.0,)), mode=st.sampled_from(BIAS_MODES), shuffle=st.booleans(),
       seed=st.integers(0, 1000))
def test_converged_run_has_zero_training_error(data, mode, shuffle, seed):
    # At unit scale the mistake bound is at most a few thousand, so the run always converges.
    X, y = data
    if mode == "none":  # needs data separable through the origin
        X, y = datasets.make_separable(len(y), X.shape[1], bias="none", seed=seed)
    result = train(X, y, bias=mode, shuffle=shuffle, seed=seed, max_epochs=100_000)
    assert result.converged
    assert result.errors == 0
    assert np.all(functional_margins(X, y, result.w, result.b) > 0)


@pytest.mark.parametrize("mode", BIAS_MODES)
@pytest.mark.parametrize("max_epochs", [1, 7, 60])
@pytest.mark.parametrize("shuffle", [False, True])
def test_training_stops_on_non_separable_data_after_max_epochs(xor, mode, max_epochs, shuffle):
    X, y = xor
    result = train(X, y, bias=mode, max_epochs=max_epochs, shuffle=shuffle, seed=0)
    assert result.epochs == max_epochs
    assert not result.converged
    assert result.errors > 0
    assert result.mistakes >= max_epochs  # every pass that is not clean makes a mistake


def test_errors_counts_points_misclassified_by_the_final_weights(xor):
    X, y = xor
    result = train(X, y, max_epochs=5)
    assert result.errors == int(np.sum(y * (X @ result.w + result.b) <= 0))


# --- learning rate ---------------------------------------------------------------------------


@settings(max_examples=50, deadline=None)
@given(
    case=st.one_of(separable_data(), st.integers(0, 10_000).map(overlapping)),
    eta=st.floats(1e-3, 1e3),
    mode=st.sampled_from(BIAS_MODES),
    shuffle=st.booleans(),
)
def test_zero_start_makes_learning_rate_irrelevant(case, eta, mode, shuffle):
    X, y = case
    ref = train(X, y, bias=mode, shuffle=shuffle, seed=5, max_epochs=30)
    run = train(X, y, eta=eta, bias=mode, shuffle=shuffle, seed=5, max_epochs=30)
    assert (run.mistakes, run.epochs, run.converged) == (ref.mistakes, ref.epochs, ref.converged)
    # Each coordinate is a sum of up to `mistakes` terms of size <= eta * max|x| (eta * R**2 for
    # the radius bias): allow rounding at that scale, which is far below any real difference.
    m = max(ref.mistakes, 1)
    assert np.allclose(run.w, eta * ref.w, rtol=1e-10, atol=1e-12 * eta * m * np.max(np.abs(X)))
    R2 = float(np.max(np.sum(X**2, axis=1)))
    assert np.allclose(run.b, eta * ref.b, rtol=1e-10, atol=1e-12 * eta * m * max(1.0, R2))


@settings(max_examples=40, deadline=None)
@given(
    case=st.one_of(separable_data(), st.integers(0, 10_000).map(overlapping)),
    power=st.integers(-12, 12),
    mode=st.sampled_from(BIAS_MODES),
)
def test_power_of_two_learning_rate_scales_weights_bit_for_bit(case, power, mode):
    X, y = case
    eta = 2.0**power  # multiplying by 2**k is exact, so every score keeps its exact sign
    ref = train(X, y, bias=mode, max_epochs=30, record=True)
    run = train(X, y, eta=eta, bias=mode, max_epochs=30, record=True)
    assert (run.mistakes, run.epochs, run.converged) == (ref.mistakes, ref.epochs, ref.converged)
    assert np.array_equal(run.w, eta * ref.w)
    assert run.b == eta * ref.b
    assert [u.index for u in run.history] == [u.index for u in ref.history]


def test_power_of_two_learning_rate_is_exact_even_with_ties_on_an_integer_grid():
    # Integer points make exact zero scores common; scaling by 2**k keeps them exactly zero.
    rng = np.random.default_rng(11)
    for _ in range(30):
        X = rng.integers(-3, 4, size=(8, 2)).astype(float)
        y = np.where(np.arange(8) % 2 == 0, 1, -1)
        ref = train(X, y, max_epochs=40)
        run = train(X, y, eta=0.125, max_epochs=40)
        assert run.mistakes == ref.mistakes and run.epochs == ref.epochs
        assert np.array_equal(run.w, 0.125 * ref.w) and run.b == 0.125 * ref.b


def test_nonzero_start_learning_rate_changes_the_path():
    # From w0 = (-3, 0), eta = 1 needs four updates (traced by hand); eta = 4 jumps straight to
    # w = (1, 0) after one.
    X, y = [[1.0, 0.0], [-1.0, 0.0]], [1, -1]
    slow = train(X, y, eta=1.0, bias="none", w0=[-3.0, 0.0], record=True)
    fast = train(X, y, eta=4.0, bias="none", w0=[-3.0, 0.0], record=True)
    assert [u.index for u in slow.history] == [0, 1, 0, 1]
    assert slow.mistakes == 4 and slow.w.tolist() == [1.0, 0.0]
    assert fast.mistakes == 1 and fast.w.tolist() == [1.0, 0.0]


# --- history ---------------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(
    case=st.one_of(separable_data(max_samples=25), st.integers(0, 10_000).map(overlapping)),
    mode=st.sampled_from(BIAS_MODES),
    eta=st.sampled_from([1.0, 0.3, 17.0]),
    shuffle=st.booleans(),
    start=st.booleans(),
)
def test_history_replays_to_every_recorded_update(case, mode, eta, shuffle, start):
    X, y = case
    d = X.shape[1]
    w0 = np.linspace(-1.0, 1.0, d) if start else None
    b0 = 0.4 if start else 0.0
    result = train(X, y, eta=eta, bias=mode, w0=w0, b0=b0, shuffle=shuffle, seed=2, max_epochs=15,
                   record=True)
    assert len(result.history) == result.mistakes
    R2 = float(np.max(np.linalg.norm(X, axis=1))) ** 2
    step_b = {"one": eta, "radius": eta * R2, "none": 0.0}[mode]
    w = np.zeros(d) if w0 is None else w0.copy()
    b = b0
    last_epoch = 1
    for u in result.history:
        assert last_epoch <= u.epoch <= result.epochs
        last_epoch = u.epoch
        i = u.index
        assert y[i] * (X[i] @ w + b) <= 0, "an update happened on a correctly classified point"
        w = w + eta * y[i] * X[i]
        b = b + y[i] * step_b
        assert np.array_equal(u.w, w)
        assert u.b == pytest.approx(b, rel=1e-14, abs=1e-300)
    assert np.array_equal(result.w, w)
    assert result.b == pytest.approx(b, rel=1e-14, abs=1e-300)
    if result.converged and result.history:
        assert result.history[-1].epoch == result.epochs - 1  # the last pass was clean


def test_history_is_empty_without_record(toy):
    X, y = toy
    assert train(X, y).history == ()


def test_recorded_weights_are_snapshots_not_aliases(xor):
    X, y = xor
    result = train(X, y, max_epochs=3, record=True)
    ws = [u.w for u in result.history]
    assert len({id(w) for w in ws}) == len(ws)
    assert not np.array_equal(ws[0], result.w)


# --- visiting order --------------------------------------------------------------------------


def test_shuffle_with_same_seed_is_reproducible(xor):
    X, y = xor
    a = train(X, y, shuffle=True, seed=123, max_epochs=10, record=True)
    b = train(X, y, shuffle=True, seed=123, max_epochs=10, record=True)
    assert [u.index for u in a.history] == [u.index for u in b.history]
    assert np.array_equal(a.w, b.w) and a.b == b.b and a.mistakes == b.mistakes


def test_shuffle_accepts_a_generator_and_matches_the_same_integer_seed(xor):
    X, y = xor
    a = train(X, y, shuffle=True, seed=np.random.default_rng(9), max_epochs=5)
    b = train(X, y, shuffle=True, seed=9, max_epochs=5)
    assert np.array_equal(a.w, b.w) and a.mistakes == b.mistakes


def test_shuffle_with_different_seeds_can_differ(xor):
    X, y = xor
    runs = {tuple(u.index for u in train(X, y, shuffle=True, seed=s, max_epochs=3, record=True).history)
            for s in range(5)}
    assert len(runs) > 1


def test_shuffle_visits_in_a_permuted_order_and_fixed_order_is_sequential(xor):
    X, y = xor
    fixed = train(X, y, max_epochs=2, record=True)
    for epoch in (1, 2):
        idx = [u.index for u in fixed.history if u.epoch == epoch]
        assert idx == sorted(idx)
    shuffled = train(X, y, shuffle=True, seed=0, max_epochs=2, record=True)
    idx = [u.index for u in shuffled.history if u.epoch == 1]
    assert idx != sorted(idx)


def test_seed_is_ignored_without_shuffle(xor):
    X, y = xor
    a, b = train(X, y, seed=1, max_epochs=4), train(X, y, seed=2, max_epochs=4)
    assert np.array_equal(a.w, b.w) and a.b == b.b


# --- scikit-learn equivalence ----------------------------------------------------------------


def sk_perceptron(X, y, epochs):
    clf = Perceptron(eta0=1.0, penalty=None, shuffle=False, tol=None, max_iter=epochs)
    clf.fit(X, y)
    return clf.coef_[0], clf.intercept_[0]


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("seed", range(6))
def test_matches_sklearn_perceptron_bit_for_bit_on_separable_data(seed):
    mode = "one" if seed % 2 == 0 else "none"
    X, y = datasets.make_separable(20 + 7 * seed, 1 + seed % 4, margin=0.03, bias=mode, seed=seed)
    result = train(X, y)
    assert result.converged
    coef, intercept = sk_perceptron(X, y, result.epochs)
    assert np.array_equal(coef, result.w)
    assert np.array_equal(intercept, result.b)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("epochs", [1, 4, 25])
def test_matches_sklearn_perceptron_bit_for_bit_on_non_separable_data(seed, epochs):
    X, y = overlapping(seed, n=30 + 5 * seed, d=2 + seed % 3)
    result = train(X, y, max_epochs=epochs)
    assert not result.converged
    coef, intercept = sk_perceptron(X, y, epochs)
    assert np.array_equal(coef, result.w)
    assert np.array_equal(intercept, result.b)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_matches_sklearn_perceptron_with_ties_on_an_integer_grid():
    # Exact zero scores are frequent here; both treat them as mistakes.
    rng = np.random.default_rng(5)
    X = rng.integers(-3, 4, size=(12, 2)).astype(float)
    y = np.where(rng.random(12) < 0.5, 1, -1)
    result = train(X, y, max_epochs=9)
    coef, intercept = sk_perceptron(X, y, 9)
    assert np.array_equal(coef, result.w) and np.array_equal(intercept, result.b)


# --- robustness ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "X, eta",
    [
        ([[1e200, 1e200], [-1e200, 1e200]], 1.0),  # the score of x2 overflows after one update
        ([[1e308, 1e308], [-1e308, 1e308]], 1e308),  # the update itself overflows
        ([[1e300, 0.0], [0.0, 1e300]], 1.0),  # finite weights, but the pass-2 score overflows
    ],
)
def test_overflow_raises_value_error_instead_of_returning_inf(X, eta):
    with pytest.raises(ValueError, match="diverged.*overflow"):
        train(X, [1, -1], eta=eta, max_epochs=10_000)


def test_radius_bias_step_overflow_raises_value_error():
    # R**2 = 1e400 is inf in float64 although every coordinate is finite.
    with pytest.raises(ValueError, match="diverged.*overflow"):
        train([[1e200, 0.0], [-1e200, 0.0]], [1, -1], bias="radius")


def test_train_does_not_modify_its_inputs():
    X = np.array([[1.0, 2.0], [-1.0, 0.5], [0.3, -2.0]])
    y = np.array([1, -1, -1])
    w0 = np.array([0.5, -0.5])
    copies = X.copy(), y.copy(), w0.copy()
    result = train(X, y, w0=w0)
    assert result.mistakes > 0
    for original, copy in zip((X, y, w0), copies):
        assert np.array_equal(original, copy)


def test_train_result_is_frozen(toy):
    result = train(*toy)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.mistakes = 0  # type: ignore[misc]


# --- the mistake rule -------------------------------------------------------------------------


def test_sign_rule_hand_traced_run_skips_plus_one_points_on_the_hyperplane():
    # From w = 0, b = 0 every score is 0: under "sign" (sgn(0) = +1) points 0 and 1 are right,
    # point 2 (label -1) is the first mistake; then w = (1, 1), b = -1 separates everything.
    X = [[2.0, 1.0], [1.0, 3.0], [-1.0, -1.0], [-2.0, 1.0]]
    y = [1, 1, -1, -1]
    result = train(X, y, rule="sign", record=True)
    assert [u.index for u in result.history] == [2]
    assert (result.w.tolist(), result.b, result.epochs, result.converged) == ([1.0, 1.0], -1.0, 2, True)
    assert [u.index for u in train(X, y, record=True).history] == [0]


def test_sign_rule_updates_a_minus_one_point_with_score_zero_and_margin_rule_both():
    X, y = [[1.0, 0.0], [-1.0, 0.0]], [-1, 1]
    for rule in ("margin", "sign"):
        assert train(X, y, rule=rule, record=True, max_epochs=1).history[0].index == 0


@settings(max_examples=25, deadline=None)
@given(data=separable_data(scales=(1.0,)), mode=st.sampled_from(BIAS_MODES), seed=st.integers(0, 1000))
def test_converged_sign_rule_run_predicts_every_training_label(data, mode, seed):
    X, y = data
    if mode == "none":
        X, y = datasets.make_separable(len(y), X.shape[1], bias="none", seed=seed)
    result = train(X, y, bias=mode, shuffle=True, seed=seed, max_epochs=100_000, rule="sign")
    assert result.converged and result.errors == 0
    assert np.array_equal(np.where(X @ result.w + result.b >= 0, 1, -1), y)


def test_errors_are_counted_with_the_run_s_rule():
    # One pass on the hyperplane-only data: the final (w, b) = (0, 0) puts every point on it.
    X, y = np.zeros((3, 1)), np.array([1, -1, 1])
    margin = train(X, y, bias="none", max_epochs=1)
    sign = train(X, y, bias="none", max_epochs=1, rule="sign")
    assert (margin.errors, sign.errors) == (3, 1)


@pytest.mark.parametrize("rule", ["sgn", "Margin", "", None, 1])
def test_unknown_rule_is_refused_naming_the_choices(rule):
    with pytest.raises(ValueError, match=r"unknown rule .*; choose one of 'margin', 'sign'"):
        train([[1.0], [-1.0]], [1, -1], rule=rule)
