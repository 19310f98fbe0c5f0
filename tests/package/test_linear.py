"""predict and decision_function: the linear classifier and its sgn(0) = +1 convention."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from perceptron import count_errors, decision_function, predict, prototype, train

finite = st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False)


def test_points_on_the_hyperplane_are_predicted_positive():
    # Every row lies exactly on x1 - x2 = 0 (resp. x1 = 2): the score is exactly 0.
    on_line = np.array([[2.0, 2.0], [0.0, 0.0], [-3.5, -3.5]])
    assert predict(on_line, [1.0, -1.0]).tolist() == [1, 1, 1]
    assert predict([[2.0, 5.0], [2.0, -7.0]], [1.0, 0.0], -2.0).tolist() == [1, 1]


def test_zero_weights_predict_positive_everywhere():
    X = np.array([[1.0, 2.0], [-4.0, 0.5], [0.0, 0.0]])
    assert predict(X, [0.0, 0.0]).tolist() == [1, 1, 1]
    assert predict(X, [0.0, 0.0], -1e-300).tolist() == [-1, -1, -1]


def test_predict_classifies_by_side_of_the_hyperplane():
    X = np.array([[1.0, 1.0], [-1.0, 1.0], [3.0, -10.0], [-0.5, 0.0]])
    assert predict(X, [1.0, 0.0]).tolist() == [1, -1, 1, -1]
    assert predict(X, [1.0, 0.0], 1.0).tolist() == [1, 1, 1, 1]


def test_predict_returns_int64_vector_with_one_entry_per_row():
    X = np.random.default_rng(0).normal(size=(7, 3))
    labels = predict(X, [1.0, -2.0, 0.5], 0.1)
    assert labels.shape == (7,)
    assert labels.dtype == np.int64
    assert set(labels.tolist()) <= {-1, 1}


def test_decision_function_returns_float64_scores_of_each_row():
    X = [[1.0, 2.0], [0.0, 0.0], [3.0, -1.0]]
    scores = decision_function(X, [1.0, -1.0], 0.5)
    assert scores.dtype == np.float64
    assert scores.tolist() == [-0.5, 0.5, 4.5]


def test_single_row_and_integer_lists_are_accepted():
    assert predict([[1, 2]], [1, 1]).tolist() == [1]
    assert decision_function([[1, 2]], [1, 1], 1).tolist() == [4.0]


def test_decision_function_over_norm_is_the_signed_distance():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(20, 3))
    w, b = np.array([2.0, -1.0, 0.5]), 0.7
    d = decision_function(X, w, b) / np.linalg.norm(w)
    # Moving each point back by d along the unit normal lands it on the hyperplane.
    feet = X - d[:, None] * (w / np.linalg.norm(w))
    np.testing.assert_allclose(feet @ w + b, 0.0, atol=1e-12)


@settings(max_examples=60, deadline=None)
@given(
    X=arrays(np.float64, st.tuples(st.integers(1, 12), st.just(3)), elements=finite),
    w=arrays(np.float64, 3, elements=finite),
    b=finite,
)
def test_predict_agrees_with_decision_function_nonnegative(X, w, b):
    scores = decision_function(X, w, b)
    np.testing.assert_allclose(scores, X @ w + b, rtol=0, atol=0)
    assert np.array_equal(predict(X, w, b), np.where(scores >= 0, 1, -1))


def test_train_result_predict_uses_the_learned_hyperplane(toy):
    X, y = toy
    result = train(X, y)
    assert np.array_equal(result.predict(X), predict(X, result.w, result.b))
    assert np.array_equal(result.predict(X), y)


def test_predict_does_not_modify_its_inputs():
    X = np.array([[1.0, 2.0], [3.0, 4.0]])
    w = np.array([1.0, -1.0])
    X_copy, w_copy = X.copy(), w.copy()
    predict(X, w, 0.5)
    assert np.array_equal(X, X_copy) and np.array_equal(w, w_copy)


@pytest.mark.parametrize("w", [[1.0], [1.0, 2.0, 3.0]])
def test_weight_length_must_match_features(w):
    with pytest.raises(ValueError, match="w has .* entries but X has 2 features"):
        predict([[1.0, 2.0]], w)


# --- prototype (nearest class mean) ----------------------------------------------------------


def test_prototype_hand_computed_means():
    # c+ = (3, 0), c- = (0, 0): w = c+ - c- = (3, 0), b = (0 - 9) / 2.
    w, b = prototype([[2.0, 0.0], [4.0, 0.0], [0.0, 0.0]], [1, 1, -1])
    assert w.tolist() == [3.0, 0.0] and b == -4.5


def test_prototype_assigns_each_point_to_the_nearer_class_mean():
    rng = np.random.default_rng(2)
    X, y = rng.normal(size=(30, 3)), np.where(np.arange(30) < 12, 1, -1)
    w, b = prototype(X, y)
    c_pos, c_neg = X[y == 1].mean(axis=0), X[y == -1].mean(axis=0)
    Q = rng.normal(size=(200, 3)) * 3
    nearer_pos = np.linalg.norm(Q - c_pos, axis=1) < np.linalg.norm(Q - c_neg, axis=1)
    assert np.array_equal(predict(Q, w, b) == 1, nearer_pos)


def test_prototype_puts_the_midpoint_of_the_means_on_the_hyperplane():
    X = np.array([[1.0, 3.0], [3.0, 5.0], [-2.0, 0.0], [0.0, -2.0]])
    w, b = prototype(X, [1, 1, -1, -1])
    midpoint = (np.array([2.0, 4.0]) + np.array([-1.0, -1.0])) / 2
    assert midpoint @ w + b == pytest.approx(0.0, abs=1e-12)
    assert predict(midpoint[None, :], w, b).tolist() == [1]  # equidistant gets +1


@settings(max_examples=60, deadline=None)
@given(
    X=arrays(np.float64, (12, 2), elements=st.integers(-3, 3).map(float)),
    y=arrays(np.int64, 12, elements=st.sampled_from([-1, 1])),
    w=arrays(np.float64, 2, elements=st.integers(-2, 2).map(float)),
    b=st.integers(-2, 2).map(float),
)
def test_count_errors_counts_margin_mistakes_and_sign_disagreements(X, y, w, b):
    # Integer data: many scores are exactly 0, where the two rules part.
    assert count_errors(X, y, w, b) == int(np.sum(y * (X @ w + b) <= 0))
    assert count_errors(X, y, w, b, rule="sign") == int(np.sum(predict(X, w, b) != y))


def test_count_errors_accepts_one_class_and_refuses_bad_input():
    assert count_errors([[1.0], [2.0]], [1, 1], [1.0]) == 0
    with pytest.raises(ValueError, match="y must contain only the labels -1 and \\+1"):
        count_errors([[1.0]], [0], [1.0])
    with pytest.raises(ValueError, match="w has 2 entries but X has 1 features"):
        count_errors([[1.0]], [1], [1.0, 2.0])
    with pytest.raises(ValueError, match="unknown rule 'sgn'"):
        count_errors([[1.0]], [1], [1.0], rule="sgn")
