"""pocket: Gallant's pocket algorithm with ratchet."""

from __future__ import annotations

import sys
from itertools import pairwise

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from perceptron import datasets, train
from perceptron._core import count_errors
from perceptron.pocket import pocket
from tests.package.strategies import separable_data

BIAS_MODES = ["one", "radius", "none"]


def overlapping(seed: int, n: int = 40, d: int = 2):
    return datasets.make_overlapping(n, d, separation=1.0, seed=seed)


# --- hand-traced run ------------------------------------------------------------------------


def test_hand_traced_run_keeps_the_first_one_error_weights():
    # Traced by hand (bias "one", fixed order). Points x=-1 (y=-1), x=1 (+1), x=2 (-1): no
    # threshold separates them; the best make 1 error. Errors use the rule y(wx+b) <= 0.
    # Pass 1: x=-1 scores 0 -> (w,b)=(1,-1): scores -2,0,1 -> 2 errors < 3: pocket.
    #         x=1 scores 0 -> (2,0): scores -2,2,4 -> 1 error < 2: pocket.
    #         x=2 scores 4 -> (0,-1): scores -1,-1,-1 -> 1 error, not < 1: kept out (ratchet).
    # Pass 2: x=-1 ok; x=1 scores -1 -> (1,0): 1 error; x=2 scores 2 -> (-1,-1): 2 errors.
    # Pass 3: x=-1 scores 0 -> (0,-2): 1 error; x=1 -> (1,-1): 2 errors; x=2 -> (-1,-2): 1 error.
    # 3 + 2 + 3 = 8 updates; the pocket is (2, 0) with 1 error.
    result = pocket([[-1.0], [1.0], [2.0]], [-1, 1, -1], max_epochs=3, shuffle=False, record=True)
    assert result.w.tolist() == [2.0]
    assert result.b == 0.0
    assert (result.errors, result.mistakes, result.epochs, result.converged) == (1, 8, 3, False)
    assert [(u.epoch, u.index, u.w.tolist(), u.b) for u in result.history] == [
        (1, 0, [1.0], -1.0),
        (1, 1, [2.0], 0.0),
    ]


# --- properties -----------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), shuffle=st.booleans(), bias=st.sampled_from(BIAS_MODES))
def test_pocket_never_gets_worse(seed, shuffle, bias):
    X, y = overlapping(seed)
    result = pocket(X, y, bias=bias, max_epochs=15, shuffle=shuffle, seed=seed, record=True)
    recorded = [count_errors(X, y, u.w, u.b) for u in result.history]
    assert recorded, "the first update always beats the zero start's n errors"
    # The ratchet: every change of the pocket strictly lowers its error count.
    assert all(later < earlier for earlier, later in pairwise(recorded))
    assert result.errors == recorded[-1] == count_errors(X, y, result.w, result.b)
    np.testing.assert_array_equal(result.w, result.history[-1].w)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), shuffle=st.booleans())
def test_pocket_returns_the_best_weights_the_perceptron_visited(seed, shuffle):
    # train visits the same weights in the same order (same visiting_order, same seed), so the
    # pocket must be the first of train's recorded weights with the fewest errors.
    X, y = overlapping(seed)
    ours = pocket(X, y, max_epochs=10, shuffle=shuffle, seed=seed)
    plain = train(X, y, max_epochs=10, shuffle=shuffle, seed=seed, record=True)
    errors = [count_errors(X, y, u.w, u.b) for u in plain.history]
    best = int(np.argmin(errors))  # argmin returns the first minimum, as the ratchet keeps it
    assert ours.errors == errors[best] <= plain.errors
    np.testing.assert_array_equal(ours.w, plain.history[best].w)
    assert ours.b == plain.history[best].b
    assert (ours.mistakes, ours.epochs, ours.converged) == (plain.mistakes, plain.epochs, plain.converged)


def test_pocket_follows_train_step_for_step_in_20_dimensions():
    # From 16 features on, BLAS adds a dot product in blocks; pocket and train both add left to
    # right, so they visit the same weights even where a score rounds near 0.
    X, y = datasets.make_overlapping(150, 20, separation=1.0, seed=8)
    ours = pocket(X, y, max_epochs=4, seed=2)
    plain = train(X, y, max_epochs=4, shuffle=True, seed=2, record=True)
    errors = [count_errors(X, y, u.w, u.b) for u in plain.history]
    best = int(np.argmin(errors))
    assert (ours.errors, ours.mistakes, ours.epochs) == (errors[best], plain.mistakes, plain.epochs)
    np.testing.assert_array_equal(ours.w, plain.history[best].w)


@settings(max_examples=40, deadline=None)
@given(data=separable_data(), bias=st.sampled_from(BIAS_MODES), shuffle=st.booleans())
def test_pocket_on_separable_data_returns_the_converged_zero_error_weights(data, bias, shuffle):
    X, y = data
    plain = train(X, y, bias=bias, max_epochs=300, shuffle=shuffle, seed=1)
    # Small margins relative to the bias scale (or no bias at all) can need more passes than
    # the test affords; the claim is about runs that converge.
    assume(plain.converged)
    result = pocket(X, y, bias=bias, max_epochs=300, shuffle=shuffle, seed=1)
    assert result.converged and result.errors == 0
    np.testing.assert_array_equal(result.w, plain.w)
    assert result.b == plain.b
    assert (result.mistakes, result.epochs) == (plain.mistakes, plain.epochs)


def test_pocket_is_much_better_than_the_last_weights_on_noisy_separable_data():
    # Separable data with 10% of labels flipped: the perceptron keeps cycling, its last weights
    # are whatever the last updates left; the pocket holds on to a good hyperplane.
    X, y = datasets.make_separable(200, 2, margin=0.05, seed=3)
    y = datasets.flip_labels(y, 0.1, seed=3)
    best = pocket(X, y, max_epochs=50, seed=0)
    last = train(X, y, max_epochs=50, shuffle=True, seed=0)
    assert not best.converged
    assert best.errors <= 20 + 5  # at most a few errors beyond the 20 flipped labels
    assert best.errors <= last.errors


def test_pocket_on_xor_stops_after_max_epochs():
    X, y = datasets.make_xor(40, noise=0.1, seed=0)
    result = pocket(X, y, max_epochs=7)
    assert result.epochs == 7 and not result.converged
    assert 0 < result.errors < len(y)


def test_pocket_is_reproducible_and_depends_on_the_seed():
    X, y = overlapping(0, n=60)
    first, again = pocket(X, y, seed=5), pocket(X, y, seed=5)
    np.testing.assert_array_equal(first.w, again.w)
    assert first.b == again.b and first.mistakes == again.mistakes
    generator = pocket(X, y, seed=np.random.default_rng(5))
    np.testing.assert_array_equal(generator.w, first.w)
    others = {pocket(X, y, seed=s).mistakes for s in range(6)}
    assert len(others) > 1


def test_pocket_is_exported_by_the_package():
    import perceptron

    assert perceptron.pocket is pocket


def test_pocket_history_is_empty_without_record():
    X, y = overlapping(1)
    assert pocket(X, y, max_epochs=3).history == ()


def test_pocket_learning_rate_only_rescales_the_weights():
    X, y = overlapping(2)
    one = pocket(X, y, eta=1.0, max_epochs=5)
    scaled = pocket(X, y, eta=0.25, max_epochs=5)
    np.testing.assert_allclose(scaled.w, 0.25 * one.w)
    assert scaled.b == pytest.approx(0.25 * one.b)
    assert (scaled.errors, scaled.mistakes) == (one.errors, one.mistakes)


# --- bad input ------------------------------------------------------------------------------

GOOD_X = [[0.0, 1.0], [1.0, 0.0], [2.0, 2.0]]
GOOD_Y = [1, -1, 1]


@pytest.mark.parametrize(
    ("X", "y", "kwargs", "message"),
    [
        ([[0.0, np.nan], [1.0, 0.0], [2.0, 2.0]], GOOD_Y, {}, "NaN"),
        ([0.0, 1.0, 2.0], GOOD_Y, {}, "2-D"),
        (GOOD_X, [1, -1], {}, "different lengths"),
        (GOOD_X, [1, 1, 1], {}, "only one class"),
        (GOOD_X, [1, 0, 1], {}, "only the labels -1 and \\+1"),
        (GOOD_X, GOOD_Y, {"eta": 0.0}, "eta must be > 0"),
        (GOOD_X, GOOD_Y, {"eta": -1.0}, "eta must be > 0"),
        (GOOD_X, GOOD_Y, {"max_epochs": 0}, "max_epochs must be >= 1"),
        (GOOD_X, GOOD_Y, {"max_epochs": 2.5}, "max_epochs must be an integer"),
        (GOOD_X, GOOD_Y, {"bias": "two"}, "unknown bias"),
    ],
)
def test_pocket_rejects_bad_input_with_a_clear_message(X, y, kwargs, message):
    with pytest.raises(ValueError, match=message):
        pocket(X, y, **kwargs)


def test_pocket_reports_overflow_instead_of_returning_nan():
    X = [[1e308, 1e308], [-1e308, 1e308]]
    with pytest.raises(ValueError, match="diverged"):
        pocket(X, [1, -1], max_epochs=50)


# --- the loop on Python floats (few features) -------------------------------------------------


@pytest.mark.parametrize("bias", BIAS_MODES)
@pytest.mark.parametrize("d", [1, 2, 5])
def test_float_loop_makes_the_numpy_loops_run_bit_for_bit(monkeypatch, bias, d):
    module = sys.modules["perceptron.pocket"]  # the package exports the function as .pocket

    rng = np.random.default_rng(d)
    y = rng.choice([-1, 1], size=60)
    X = np.round(rng.normal(size=(60, d)) * 3, 1) + np.outer(y, np.eye(d)[0])  # ties in the scores
    runs = []
    for few in (module._FEW_FEATURES, 0):  # 0: every run takes the numpy loop
        monkeypatch.setattr(module, "_FEW_FEATURES", few)
        runs.append(pocket(X, y, bias=bias, eta=0.3, max_epochs=25, record=True, seed=3))
    fast, slow = runs
    assert np.array_equal(fast.w, slow.w) and fast.b == slow.b
    assert (fast.mistakes, fast.epochs, fast.errors, fast.converged) == (
        slow.mistakes, slow.epochs, slow.errors, slow.converged)
    assert [(u.epoch, u.index, u.w.tolist(), u.b) for u in fast.history] == [
        (u.epoch, u.index, u.w.tolist(), u.b) for u in slow.history]


@pytest.mark.parametrize("few", [8, 0])
def test_both_loops_name_the_same_overflow(monkeypatch, few):
    module = sys.modules["perceptron.pocket"]  # the package exports the function as .pocket

    monkeypatch.setattr(module, "_FEW_FEATURES", few)
    X = np.array([[1e300, 1e300], [-1e300, 5e299], [1.0, 2.0]])
    with pytest.raises(ValueError, match="a score or the weights overflowed"):
        pocket(X, [1, -1, 1], max_epochs=50)
