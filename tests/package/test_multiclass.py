"""multiclass: the multiclass perceptron, Kesler's construction, the multiclass margin and mistake bound."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron import (
    kesler_points,
    kesler_train,
    multiclass_hinge_bound,
    multiclass_margin,
    multiclass_mistake_bound,
    multiclass_train,
    train,
)

BIAS_MODES = ["one", "radius", "none"]


@st.composite
def integer_blobs(draw, max_classes: int = 4, max_per_class: int = 8, max_features: int = 3):
    """Integer points around well-spread integer centres: separable (with an offset) most of the time,
    and every score exact in floating point, so that two runs can be compared bit for bit."""
    seed = draw(st.integers(0, 2**32 - 1))
    k = draw(st.integers(2, max_classes))
    d = draw(st.integers(1, max_features))
    per = draw(st.integers(1, max_per_class))
    rng = np.random.default_rng(seed)
    centres = rng.integers(-30, 31, size=(k, d))
    X = np.vstack([c + rng.integers(-3, 4, size=(per, d)) for c in centres]).astype(float)
    y = np.repeat(np.arange(k), per)
    order = rng.permutation(len(y))
    return X[order], y[order]


def test_hand_traced_run_gives_the_point_to_its_class_and_takes_it_from_the_rival():
    # Pass 1, bias "one" (points (2,0,1), (0,2,1), (-2,-2,1)): every score is 0 for the first point,
    # so it is a mistake and the rival is the earliest other class, b; the second point's rival is
    # a (score 1 > 0); for the third all scores are 0 and the rival is a again. Pass 2 is clean.
    X = [[2.0, 0.0], [0.0, 2.0], [-2.0, -2.0]]
    result = multiclass_train(X, ["a", "b", "c"], record=True)
    assert [(u.index, u.label, u.rival) for u in result.history] == [(0, 0, 1), (1, 1, 0), (2, 2, 0)]
    assert result.W.tolist() == [[4, 0], [-2, 2], [-2, -2]] and result.b.tolist() == [-1, 0, 1]
    assert (result.mistakes, result.epochs, result.converged, result.errors) == (3, 2, True, 0)
    assert result.classes.tolist() == ["a", "b", "c"]


def test_two_classes_are_the_binary_perceptron_with_twice_the_step():
    # With two classes w_+1 = -w_-1 = v and the score difference is 2 v.x: the same mistakes as train
    # with eta = 2 (from a zero start the learning rate does not change the mistakes), w = 2 v.
    X = np.array([[2.0, 1.0], [1.0, 3.0], [-1.0, -1.0], [-2.0, 1.0], [0.5, -2.0]])
    y = np.array([1, 1, -1, -1, 1])
    for bias in BIAS_MODES:
        multi = multiclass_train(X, y, bias=bias, record=True)
        binary = train(X, y, bias=bias, eta=2.0, record=True, max_epochs=1000)
        # classes are sorted: row 0 is -1, row 1 is +1. A tie (score 0) is a mistake in both.
        assert [u.index for u in multi.history] == [u.index for u in binary.history], bias
        assert np.allclose(multi.W[1] - multi.W[0], binary.w) and np.isclose(multi.b[1] - multi.b[0], binary.b)
        assert np.allclose(multi.W[0], -multi.W[1])


@settings(max_examples=60, deadline=None)
@given(integer_blobs(), st.sampled_from(BIAS_MODES[::2]), st.booleans())
def test_kesler_reduction_makes_the_same_updates_as_the_direct_rule(data, bias, shuffle):
    X, y = data
    direct = multiclass_train(X, y, bias=bias, shuffle=shuffle, seed=3, max_epochs=50, record=True)
    reduced = kesler_train(X, y, bias=bias, shuffle=shuffle, seed=3, max_epochs=50, record=True)
    assert direct.history == reduced.history
    assert np.array_equal(direct.W, reduced.W) and np.array_equal(direct.b, reduced.b)
    assert (direct.mistakes, direct.epochs, direct.converged, direct.errors) == (
        reduced.mistakes, reduced.epochs, reduced.converged, reduced.errors)


@settings(max_examples=40, deadline=None)
@given(integer_blobs(max_classes=3, max_per_class=6, max_features=2), st.sampled_from(BIAS_MODES), st.booleans())
def test_mistakes_never_exceed_twice_the_squared_radius_over_margin(data, bias, shuffle):
    X, y = data
    try:
        bound = multiclass_mistake_bound(X, y, bias=bias)
    except ValueError as exc:           # a draw that no multiclass linear classifier separates
        assert "no linear multiclass classifier" in str(exc)
        return
    result = multiclass_train(X, y, bias=bias, shuffle=shuffle, seed=0, max_epochs=100_000)
    assert result.converged and result.errors == 0
    assert result.mistakes <= bound * (1 + 1e-6)


def test_the_bound_is_twice_novikoff_for_the_augmented_radius_and_the_kesler_margin():
    X = np.array([[1.0, 0.0], [-1.0, 0.0]])
    # w = (1, 0)/sqrt(2), (-1, 0)/sqrt(2) scores the difference 2/sqrt(2) = sqrt(2) on both points.
    assert np.isclose(multiclass_margin(X, [0, 1], bias="none"), np.sqrt(2))
    assert np.isclose(multiclass_mistake_bound(X, [0, 1], bias="none"), 2 * (1 / np.sqrt(2)) ** 2)
    Z = kesler_points(X, [0, 1], bias="none").reshape(-1, 4)
    assert np.allclose(np.linalg.norm(Z, axis=1), np.sqrt(2) * np.linalg.norm(X, axis=1))


def test_kesler_points_score_the_difference_of_the_own_and_the_rival_class():
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(12, 3)), rng.integers(0, 4, 12)
    y[:4] = np.arange(4)
    W, b = rng.normal(size=(4, 3)), rng.normal(size=4)
    Z = kesler_points(X, y)
    assert Z.shape == (12, 3, 16)
    v = np.column_stack([W, b]).ravel()
    S = X @ W.T + b
    for i in range(12):
        rivals = [r for r in range(4) if r != y[i]]
        assert np.allclose(Z[i] @ v, S[i, y[i]] - S[i, rivals])


def test_predict_takes_the_highest_score_and_the_earlier_class_on_a_tie():
    result = multiclass_train([[0.0, 1.0], [1.0, 0.0], [0.0, -1.0]], [10, 20, 30], bias="none")
    scores = result.decision_function([[0.0, 0.0], [0.0, 5.0]])
    assert np.all(scores[0] == 0) and result.predict([[0.0, 0.0]]).tolist() == [10]
    assert result.predict([[0.0, 5.0]]).tolist() == [10] and result.errors == 0


def test_non_separable_data_stop_at_max_epochs_and_count_errors():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = [0, 1, 0, 1]
    result = multiclass_train(X, y, max_epochs=7)
    assert not result.converged and result.epochs == 7 and result.errors > 0
    with pytest.raises(ValueError, match="no linear multiclass classifier"):
        multiclass_mistake_bound(X, y)


def test_shuffled_runs_are_reproducible_from_the_seed():
    rng = np.random.default_rng(1)
    X, y = rng.normal(size=(30, 2)), rng.integers(0, 3, 30)
    one, two = (multiclass_train(X, y, shuffle=True, seed=5, max_epochs=20, record=True) for _ in range(2))
    assert one.history == two.history and np.array_equal(one.W, two.W)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"X": [[1.0], [2.0]], "y": [1, 1]}, "only one class"),
        ({"X": [[1.0], [2.0]], "y": [1, 2, 3]}, "different lengths"),
        ({"X": [[1.0], [np.nan]], "y": [1, 2]}, "NaN"),
        ({"X": [1.0, 2.0], "y": [1, 2]}, "2-D"),
        ({"X": [[1.0], [2.0]], "y": [1.0, np.nan]}, "NaN"),
        ({"X": [[1.0], [2.0]], "y": [[1], [2]]}, "1-D"),
        ({"X": [[1.0], [2.0]], "y": [1, 2], "bias": True}, "bias is a mode"),
        ({"X": [[1.0], [2.0]], "y": [1, 2], "max_epochs": 0}, "max_epochs"),
    ],
)
def test_bad_input_is_refused_with_a_message_naming_it(kwargs, message):
    for function in (multiclass_train, kesler_train):
        with pytest.raises(ValueError, match=message):
            function(**kwargs)


def overlapping_clouds(seed, n=60):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, size=n)
    centres = np.array([[-1.0, -0.5], [1.0, -0.5], [0.0, 1.2]])
    return centres[y] + rng.normal(scale=0.9, size=(n, 2)), y


@pytest.mark.parametrize("seed", range(6))
def test_the_multiclass_hinge_bound_holds_on_data_no_classifier_separates(seed):
    X, y = overlapping_clouds(seed)
    with pytest.raises(ValueError, match="margin is not positive"):
        multiclass_margin(X, y)
    V = np.array([[-1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])  # left, right, up
    for passes in (1, 3, 10):
        run = multiclass_train(X, y, max_epochs=passes, shuffle=True, seed=seed)
        assert run.epochs == passes  # never converges on these data
        bound = min(multiclass_hinge_bound(X, y, V, g, passes=passes) for g in np.linspace(0.05, 3, 60))
        assert run.mistakes <= bound


def test_the_multiclass_hinge_bound_is_the_formula():
    X, y = overlapping_clouds(1, n=20)
    V = np.random.default_rng(2).normal(size=(3, 3))
    U = V / np.linalg.norm(V)
    Xt = np.column_stack([X, np.ones(len(X))])
    slack = [max(0.0, 0.7 - min((U[y[i]] - U[r]) @ Xt[i] for r in range(3) if r != y[i])) for i in range(20)]
    R = np.sqrt(2) * np.linalg.norm(Xt, axis=1).max()
    expected = ((R + np.sqrt(4) * np.linalg.norm(slack)) / 0.7) ** 2
    assert multiclass_hinge_bound(X, y, 5 * V, 0.7, passes=4) == pytest.approx(expected)


def test_without_slack_the_multiclass_hinge_bound_is_twice_novikoffs():
    X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]])
    y = np.array([0, 1, 2])
    V = np.column_stack([X, np.zeros(3)])  # each class's weights: its own point
    scores = np.column_stack([X, np.ones(3)]) @ (V / np.linalg.norm(V)).T
    gamma = min(scores[i, i] - max(scores[i, r] for r in range(3) if r != i) for i in range(3))
    R = np.linalg.norm(np.column_stack([X, np.ones(3)]), axis=1).max()
    assert multiclass_hinge_bound(X, y, V, gamma) == pytest.approx(2 * (R / gamma) ** 2)


@pytest.mark.parametrize(("V", "gamma", "passes", "match"), [
    (np.ones((3, 2)), 1.0, 1, r"V must have shape \(3, 3\)"),
    (np.zeros((3, 3)), 1.0, 1, "not all zero"),
    (np.ones((3, 3)), 0.0, 1, "gamma must be > 0"),
    (np.ones((3, 3)), 1.0, 0, "passes must be >= 1"),
])
def test_the_multiclass_hinge_bound_refuses_bad_input(V, gamma, passes, match):
    X, y = overlapping_clouds(0, n=12)
    with pytest.raises(ValueError, match=match):
        multiclass_hinge_bound(X, y, V, gamma, passes=passes)
