"""averaged and voted: the perceptron's weight vectors, averaged or voting."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.linear_model import SGDClassifier

from perceptron import datasets, train
from perceptron.averaged import VotedPerceptron, averaged, voted


def overlapping(seed: int, n: int = 30, d: int = 2):
    return datasets.make_overlapping(n, d, separation=1.0, seed=seed)


# Not separable (the pocket tests trace the same run): x=-1 (y=-1), x=1 (+1), x=2 (-1).
LINE_X = [[-1.0], [1.0], [2.0]]
LINE_Y = [-1, 1, -1]

# Separable (test_training's hand trace): updates at the first three visits, then clean.
PLANE_X = [[0.0, 1.0], [1.0, 0.0], [-1.0, -1.0]]
PLANE_Y = [-1, 1, -1]


# --- hand-computed cases --------------------------------------------------------------------


def test_averaged_is_the_mean_of_the_weights_after_every_visit_on_a_hand_traced_run():
    # Weights (w, b) after each of the 6 visits (bias "one", fixed order, T = 2):
    #   pass 1: x=-1 scores 0 -> (1,-1); x=1 scores 0 -> (2,0); x=2 scores 4 -> (0,-1)
    #   pass 2: x=-1 scores -1, correct -> (0,-1); x=1 scores -1 -> (1,0); x=2 scores 2 -> (-1,-1)
    # mean w = (1+2+0+0+1-1)/6 = 1/2, mean b = (-1+0-1-1+0-1)/6 = -2/3.
    # Errors of (1/2, -2/3): scores -7/6 (y=-1 ok), -1/6 (y=+1 wrong), 1/3 (y=-1 wrong) -> 2.
    result = averaged(LINE_X, LINE_Y, max_epochs=2)
    assert result.w.tolist() == pytest.approx([0.5])
    assert result.b == pytest.approx(-2 / 3)
    assert (result.mistakes, result.epochs, result.converged, result.errors) == (5, 2, False, 2)
    assert result.history == ()


def test_voted_keeps_each_vector_with_its_survival_count_on_a_hand_traced_run():
    # Same run: every vector lives one visit except (0,-1), which survives two.
    model = voted(LINE_X, LINE_Y, max_epochs=2)
    assert [(w.tolist(), b, c) for w, b, c in model.vectors] == [
        ([1.0], -1.0, 1),
        ([2.0], 0.0, 1),
        ([0.0], -1.0, 2),
        ([1.0], 0.0, 1),
        ([-1.0], -1.0, 1),
    ]


def test_voted_prediction_weighs_votes_by_survival_and_breaks_ties_to_plus_one():
    # Votes sgn(w x + b) of the five vectors above (sgn(0) = +1), weights 1, 1, 2, 1, 1:
    #   x = 1 : +1 (score 0), +1, -1, +1, -1  -> 1 + 1 - 2 + 1 - 1 = 0  -> tie -> +1
    #   x = -1: -1, -1, -1, -1, +1 (score 0)  -> -1 - 1 - 2 - 1 + 1 = -4 -> -1
    #   x = 10: +1, +1, -1, +1, -1            -> 0 -> +1
    #   x = -3: -1, -1, -1, -1, +1 (score 2)  -> -4 -> -1
    model = voted(LINE_X, LINE_Y, max_epochs=2)
    assert model.predict([[1.0], [-1.0], [10.0], [-3.0]]).tolist() == [1, -1, 1, -1]


def test_passes_after_convergence_still_count_in_the_average():
    # Updates at visits 1-3: (0,-1) b=-1, (1,-1) b=0, (2,0) b=-1; pass 2 is clean, and with
    # T = 4 the last vector holds for visits 3..12, i.e. 10 of the 12 visits.
    # mean w = ((0 + 1 + 10*2)/12, (-1 - 1 + 10*0)/12) = (7/4, -1/6); mean b = (-1 + 0 - 10)/12.
    result = averaged(PLANE_X, PLANE_Y, max_epochs=4)
    assert result.w.tolist() == pytest.approx([7 / 4, -1 / 6])
    assert result.b == pytest.approx(-11 / 12)
    assert (result.mistakes, result.epochs, result.converged, result.errors) == (3, 4, True, 0)
    model = voted(PLANE_X, PLANE_Y, max_epochs=4)
    assert [(w.tolist(), b, c) for w, b, c in model.vectors] == [
        ([0.0, -1.0], -1.0, 1),
        ([1.0, -1.0], 0.0, 1),
        ([2.0, 0.0], -1.0, 10),
    ]


# --- properties -----------------------------------------------------------------------------


def weights_after_every_visit(X, y, max_epochs: int):
    """Replay train's recorded updates (fixed order) into the weights after each visit."""
    n = len(y)
    history = train(X, y, max_epochs=max_epochs, record=True).history
    updates = {(u.epoch - 1) * n + u.index: (u.w, u.b) for u in history}
    w, b = np.zeros(np.shape(X)[1]), 0.0
    ws, bs = [], []
    for t in range(n * max_epochs):  # train stops at a clean pass; the weights then hold
        w, b = updates.get(t, (w, b))
        ws.append(w)
        bs.append(b)
    return np.array(ws), np.array(bs)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), separable=st.booleans(), epochs=st.integers(1, 8))
def test_averaged_equals_the_replayed_mean_of_train_weights(seed, separable, epochs):
    X, y = datasets.make_separable(25, 2, seed=seed) if separable else overlapping(seed, n=25)
    ws, bs = weights_after_every_visit(X, y, epochs)
    result = averaged(X, y, max_epochs=epochs)
    np.testing.assert_allclose(result.w, ws.mean(axis=0), rtol=1e-12, atol=1e-12)
    assert result.b == pytest.approx(bs.mean(), rel=1e-12, abs=1e-12)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), separable=st.booleans(), epochs=st.integers(1, 6))
def test_averaged_matches_scikit_learn_averaged_sgd_perceptron(seed, separable, epochs):
    # scikit-learn's ASGD with the perceptron loss, a constant step and no penalty is exactly
    # the averaged perceptron (it averages from the first visit when average=True).
    X, y = datasets.make_separable(30, 3, seed=seed) if separable else overlapping(seed, d=3)
    sk = SGDClassifier(
        loss="perceptron", learning_rate="constant", eta0=1.0, penalty=None, average=True,
        shuffle=False, tol=None, max_iter=epochs,
    ).fit(X, y)
    result = averaged(X, y, max_epochs=epochs)
    np.testing.assert_allclose(result.w, sk.coef_[0], rtol=1e-10, atol=1e-12)
    assert result.b == pytest.approx(sk.intercept_[0], rel=1e-10, abs=1e-12)


def test_the_module_docstring_names_the_scikit_learn_call_that_matches():
    # The docstring once named Perceptron(average=True), which scikit-learn does not have: evaluate
    # the call it names (with T = 3 passes) and compare.
    import importlib

    import sklearn.linear_model

    doc = " ".join(importlib.import_module("perceptron.averaged").__doc__.split())
    named = re.search(r"computes with ``([A-Za-z]+\(.*?\))``", doc).group(1)
    X, y = overlapping(3, d=3)
    sk = eval(named, {**vars(sklearn.linear_model), "T": 3}).fit(X, y)
    result = averaged(X, y, max_epochs=3)
    np.testing.assert_allclose(result.w, sk.coef_[0], rtol=1e-10, atol=1e-12)
    assert result.b == pytest.approx(sk.intercept_[0], rel=1e-10, abs=1e-12)


def test_averaged_matches_scikit_learn_on_the_64_pixel_digits():
    X, y = datasets.load_digits_pair(3, 8)
    sk = SGDClassifier(
        loss="perceptron", learning_rate="constant", eta0=1.0, penalty=None, average=True,
        shuffle=False, tol=None, max_iter=6,
    ).fit(X, y)
    result = averaged(X, y, max_epochs=6)
    np.testing.assert_allclose(result.w, sk.coef_[0], rtol=1e-10, atol=1e-12)
    assert result.b == pytest.approx(sk.intercept_[0], rel=1e-10, abs=1e-12)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), epochs=st.integers(1, 6), shuffle=st.booleans())
def test_voted_counts_add_up_to_every_visit_and_end_at_train_weights(seed, epochs, shuffle):
    X, y = overlapping(seed)
    model = voted(X, y, max_epochs=epochs, shuffle=shuffle, seed=seed)
    counts = [c for _, _, c in model.vectors]
    assert sum(counts) == len(y) * epochs and min(counts) >= 1
    last = train(X, y, max_epochs=epochs, shuffle=shuffle, seed=seed)
    np.testing.assert_array_equal(model.vectors[-1][0], last.w)
    assert model.vectors[-1][1] == last.b
    assert len(model.vectors) == last.mistakes  # one new vector per mistake


def test_learning_rate_rescales_the_average_and_never_changes_a_vote():
    X, y = overlapping(4)
    one, tenth = averaged(X, y, max_epochs=5), averaged(X, y, eta=0.1, max_epochs=5)
    np.testing.assert_allclose(tenth.w, 0.1 * one.w)
    assert tenth.b == pytest.approx(0.1 * one.b)
    grid = np.random.default_rng(0).normal(size=(50, 2))
    assert (voted(X, y, max_epochs=5).predict(grid) == voted(X, y, eta=0.1, max_epochs=5).predict(grid)).all()


def test_averaged_generalizes_better_than_the_last_weights_on_noisy_data():
    # The textbook motivation: on data that are not separable the last weights jump around,
    # their average is stable. Measured on fresh points from the same distribution.
    X, y = datasets.make_overlapping(200, 2, separation=2.0, seed=10)
    Xt, yt = datasets.make_overlapping(2000, 2, separation=2.0, seed=11)
    last = train(X, y, max_epochs=10)
    avg = averaged(X, y, max_epochs=10)
    accuracy_last = (last.predict(Xt) == yt).mean()
    accuracy_avg = (avg.predict(Xt) == yt).mean()
    assert accuracy_avg >= accuracy_last
    assert accuracy_avg > 0.8  # the Bayes rate for means 2 apart, unit variance, is about 0.84


def test_averaged_and_voted_are_exported_by_the_package():
    import perceptron

    assert perceptron.averaged is averaged and perceptron.voted is voted
    assert perceptron.VotedPerceptron is VotedPerceptron


def test_voted_perceptron_is_a_frozen_dataclass():
    model = voted(PLANE_X, PLANE_Y)
    assert isinstance(model, VotedPerceptron)
    with pytest.raises(AttributeError):
        model.vectors = ()  # type: ignore[misc]


def test_shuffled_runs_are_reproducible():
    X, y = overlapping(6)
    first = averaged(X, y, shuffle=True, seed=3)
    again = averaged(X, y, shuffle=True, seed=np.random.default_rng(3))
    np.testing.assert_array_equal(first.w, again.w)
    assert first.b == again.b


# --- bad input ------------------------------------------------------------------------------

GOOD_X = [[0.0, 1.0], [1.0, 0.0], [2.0, 2.0]]
GOOD_Y = [1, -1, 1]
BAD_INPUTS = [
    ([[0.0, np.inf], [1.0, 0.0], [2.0, 2.0]], GOOD_Y, {}, "NaN or infinity"),
    ([[[0.0]], [[1.0]], [[2.0]]], GOOD_Y, {}, "2-D"),
    (GOOD_X, [1, -1], {}, "different lengths"),
    (GOOD_X, [-1, -1, -1], {}, "only one class"),
    (GOOD_X, [1, 2, 1], {}, "only the labels -1 and \\+1"),
    (GOOD_X, GOOD_Y, {"eta": 0}, "eta must be > 0"),
    (GOOD_X, GOOD_Y, {"max_epochs": 0}, "max_epochs must be >= 1"),
    (GOOD_X, GOOD_Y, {"bias": "zero"}, "unknown bias"),
]


@pytest.mark.parametrize("fit", [averaged, voted])
@pytest.mark.parametrize(("X", "y", "kwargs", "message"), BAD_INPUTS)
def test_averaged_and_voted_reject_bad_input_with_a_clear_message(fit, X, y, kwargs, message):
    with pytest.raises(ValueError, match=message):
        fit(X, y, **kwargs)


def test_voted_predict_rejects_points_of_the_wrong_width():
    model = voted(GOOD_X, GOOD_Y)
    with pytest.raises(ValueError, match="3 features but the perceptron was trained on 2"):
        model.predict([[1.0, 2.0, 3.0]])
    with pytest.raises(ValueError, match="NaN"):
        model.predict([[np.nan, 1.0]])


@pytest.mark.parametrize("fit", [averaged, voted])
def test_overflow_is_reported_not_returned(fit):
    with pytest.raises(ValueError, match="diverged"):
        fit([[1e308, 1e308], [-1e308, 1e308]], [1, -1], max_epochs=50)
