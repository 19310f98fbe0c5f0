"""Bad input to every public function raises ValueError with a message naming the problem."""

from __future__ import annotations

import numpy as np
import pytest

from perceptron import datasets
from perceptron import (
    decision_function,
    functional_margins,
    geometric_margin,
    max_margin,
    mistake_bound,
    predict,
    prototype,
    radius,
    train,
)

GOOD_X = np.array([[1.0, 2.0], [-1.0, 0.5], [0.5, -1.0]])
GOOD_Y = np.array([1, -1, -1])
W = np.array([1.0, -1.0])

def labels_for(X):
    """Valid labels, one per row of X (so that only X can be at fault)."""
    return np.resize([1, -1], len(X) if hasattr(X, "__len__") else 1)


# Every public function that takes labelled data, called with (X, y) and valid other arguments.
WITH_LABELS = {
    "train": lambda X, y: train(X, y),
    "functional_margins": lambda X, y: functional_margins(X, y, W),
    "geometric_margin": lambda X, y: geometric_margin(X, y, W),
    "max_margin": lambda X, y: max_margin(X, y),
    "mistake_bound": lambda X, y: mistake_bound(X, y),
    "prototype": lambda X, y: prototype(X, y),
}
# Every public function that takes points; labelled ones get labels of the right length.
WITH_POINTS = {
    "predict": lambda X: predict(X, W),
    "decision_function": lambda X: decision_function(X, W),
    "radius": lambda X: radius(X),
    **{name: (lambda X, f=f: f(X, labels_for(X))) for name, f in WITH_LABELS.items()},
}
# Every public function with a weight vector and an offset, called with (w, b).
WITH_WEIGHTS = {
    "predict": lambda w, b: predict(GOOD_X, w, b),
    "decision_function": lambda w, b: decision_function(GOOD_X, w, b),
    "functional_margins": lambda w, b: functional_margins(GOOD_X, GOOD_Y, w, b),
    "geometric_margin": lambda w, b: geometric_margin(GOOD_X, GOOD_Y, w, b),
    "train": lambda w, b: train(GOOD_X, GOOD_Y, w0=w, b0=b),
}

BAD_X = {
    "nan": ([[1.0, np.nan], [0.0, 1.0]], r"X contains NaN or infinity \(1 non-finite"),
    "inf": ([[1.0, np.inf], [0.0, 1.0]], "X contains NaN or infinity"),
    "-inf": ([[-np.inf, -np.inf], [0.0, 1.0]], r"X contains NaN or infinity \(2 non-finite"),
    "1-D": ([1.0, 2.0], r"X must be 2-D .* got 1-D .*reshape"),
    "3-D": (np.ones((2, 2, 1)), "X must be 2-D .* got 3-D"),
    "scalar": (3.0, "X must be 2-D .* got 0-D"),
    "empty": (np.empty((0, 2)), "X is empty: it has 0 samples"),
    "no features": (np.empty((2, 0)), "X has 0 features"),
    "text": ([["a", "b"], ["c", "d"]], "X must be a numeric array"),
    "ragged": ([[1.0, 2.0], [3.0]], "X must be a numeric array"),
}

BAD_Y = {
    "nan": ([1.0, np.nan, -1.0], "y contains NaN or infinity"),
    "inf": ([1.0, -np.inf, -1.0], "y contains NaN or infinity"),
    "too short": ([1, -1], "X and y have different lengths: X has 3 samples, y has 2"),
    "too long": ([1, -1, 1, -1], "X and y have different lengths: X has 3 samples, y has 4"),
    "0/1 labels": ([1, 0, 0], r"only the labels -1 and \+1; found \{0, 1\}.*Map \{0, 1\} labels"),
    "booleans": ([True, False, False], r"found \{0, 1\}.*Map \{0, 1\}"),
    "1/2 labels": ([1, 2, 2], r"only the labels -1 and \+1; found \{1, 2\}"),
    "one bad label": ([1, -1, 0.5], r"found \{-1, 0.5, 1\}"),
    "only +1": ([1, 1, 1], r"only one class \(\+1\)"),
    "only -1": ([-1, -1, -1], r"only one class \(-1\)"),
    "2-D": ([[1], [-1], [-1]], r"y must be 1-D .* got shape \(3, 1\)"),
    "text": (["yes", "no", "no"], "y must hold the numbers -1 and \\+1"),
}


@pytest.mark.parametrize("case", BAD_X, ids=str)
@pytest.mark.parametrize("func", WITH_POINTS, ids=str)
def test_bad_points_are_refused_by_every_function(func, case):
    X, message = BAD_X[case]
    with pytest.raises(ValueError, match=message):
        WITH_POINTS[func](X)


@pytest.mark.parametrize("case", BAD_Y, ids=str)
@pytest.mark.parametrize("func", WITH_LABELS, ids=str)
def test_bad_labels_are_refused_by_every_function(func, case):
    y, message = BAD_Y[case]
    with pytest.raises(ValueError, match=message):
        WITH_LABELS[func](GOOD_X, y)


def test_many_unexpected_labels_are_listed_with_an_ellipsis():
    X = np.arange(24.0).reshape(12, 2)
    with pytest.raises(ValueError, match=r"found \{0, 1, 2, .*, 9, \.\.\.\}") as info:
        train(X, np.arange(12))
    assert "Map {0, 1}" not in str(info.value)  # the hint is only for 0/1 labels


@pytest.mark.parametrize(
    "w, message",
    [
        ([1.0], "w has 1 entries but X has 2 features"),
        ([1.0, 2.0, 3.0], "w has 3 entries but X has 2 features"),
        ([[1.0, 2.0]], r"w must be 1-D .* got shape \(1, 2\)"),
        ([np.nan, 1.0], "w contains NaN or infinity"),
        ([1.0, np.inf], "w contains NaN or infinity"),
        (["a", "b"], "w must be a numeric vector"),
    ],
)
@pytest.mark.parametrize("func", WITH_WEIGHTS, ids=str)
def test_bad_weights_are_refused(func, w, message):
    if func == "train":
        message = message.replace("w ", "w0 ", 1)
    with pytest.raises(ValueError, match=message):
        WITH_WEIGHTS[func](w, 0.0)


@pytest.mark.parametrize(
    "b, message",
    [(np.nan, "must be finite, got nan"), (np.inf, "must be finite"),
     ("zero", "must be a real number, got 'zero'"), (None, "must be a real")],
)
@pytest.mark.parametrize("func", WITH_WEIGHTS, ids=str)
def test_bad_offsets_are_refused(func, b, message):
    name = "b0" if func == "train" else "b"
    with pytest.raises(ValueError, match=f"{name} {message}"):
        WITH_WEIGHTS[func](W, b)


@pytest.mark.parametrize(
    "eta, message",
    [(0, "eta must be > 0, got 0"), (-0.5, "eta must be > 0, got -0.5"), (np.nan, "eta must be finite"),
     (np.inf, "eta must be finite"), ("fast", "eta must be a real number")],
)
def test_train_refuses_non_positive_or_non_finite_learning_rate(eta, message):
    with pytest.raises(ValueError, match=message):
        train(GOOD_X, GOOD_Y, eta=eta)


@pytest.mark.parametrize(
    "max_epochs, message",
    [(0, "max_epochs must be >= 1, got 0"), (-3, "max_epochs must be >= 1, got -3"),
     (2.5, "max_epochs must be an integer >= 1, got 2.5"), (10.0, "must be an integer"),
     (True, "must be an integer"), ("10", "must be an integer"), (None, "must be an integer")],
)
def test_train_refuses_max_epochs_below_one_or_not_an_integer(max_epochs, message):
    with pytest.raises(ValueError, match=message):
        train(GOOD_X, GOOD_Y, max_epochs=max_epochs)


def test_train_accepts_numpy_integer_max_epochs():
    assert train(GOOD_X, GOOD_Y, max_epochs=np.int64(1)).epochs == 1


@pytest.mark.parametrize("bias", ["ones", "One", "", None, True, ["one"]])
@pytest.mark.parametrize("func", [train, mistake_bound], ids=lambda f: f.__name__)
def test_unknown_bias_mode_is_refused(func, bias):
    with pytest.raises(ValueError, match=r"unknown bias .*; choose one of 'one', 'radius', 'none'"):
        func(GOOD_X, GOOD_Y, bias=bias)


@pytest.mark.parametrize("bias", ["ones", 1, None, "True"])
@pytest.mark.parametrize("func", [max_margin, lambda X, y, bias: datasets.make_separable(5, bias=bias)])
def test_max_margin_and_make_separable_take_the_bias_modes_of_train(func, bias):
    with pytest.raises(ValueError, match=r"unknown bias .*; choose one of 'one', 'radius', 'none'"):
        func(GOOD_X, GOOD_Y, bias=bias)


@pytest.mark.parametrize(("old", "new"), [(True, "one"), (False, "none")])
def test_boolean_bias_of_earlier_versions_still_works_with_a_deprecation_warning(old, new):
    X, y = [[2.0, 1.0], [3.0, 1.0], [-1.0, 1.0]], [1, 1, -1]
    with pytest.deprecated_call(match=f"bias={old} is deprecated; pass the bias mode bias='{new}'"):
        got = max_margin(X, y, bias=old)
    want = max_margin(X, y, bias=new)
    assert np.array_equal(got.w, want.w) and (got.b, got.gamma) == (want.b, want.gamma)
    with pytest.deprecated_call():
        data = datasets.make_separable(20, bias=old, seed=3)
    assert all(np.array_equal(a, b) for a, b in zip(data, datasets.make_separable(20, bias=new, seed=3)))


def test_validation_does_not_modify_inputs():
    X, y, w = GOOD_X.copy(), GOOD_Y.copy(), W.copy()
    for f in WITH_LABELS.values():
        f(X, y)
    predict(X, w)
    assert np.array_equal(X, GOOD_X) and np.array_equal(y, GOOD_Y) and np.array_equal(w, W)


def test_integer_and_list_inputs_are_accepted():
    X = [[1, 2], [-1, 0], [0, -1]]
    y = [1, -1, -1]
    assert train(X, y).converged
    assert radius(X) == pytest.approx(np.sqrt(5.0))
    assert functional_margins(X, y, [1, 1], 0).tolist() == [3.0, 1.0, 1.0]
