"""perceptron.Perceptron: the scikit-learn estimator around train."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.linear_model import Perceptron as SklearnPerceptron
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

from perceptron import datasets, train
from perceptron.estimator import Perceptron

# --- scikit-learn's own API checks ----------------------------------------------------------


def _array_api_check_in_fresh_interpreter(keywords: dict) -> None:
    """Run check_array_api_input where scikit-learn can run it: SCIPY_ARRAY_API=1 must be set
    before scipy is first imported, which is too late inside this test session."""
    code = textwrap.dedent(
        f"""
        from sklearn.utils.estimator_checks import check_array_api_input
        from perceptron.estimator import Perceptron
        check_array_api_input("Perceptron", Perceptron(), **{keywords!r})
        print("passed")
        """
    )
    env = {**os.environ, "SCIPY_ARRAY_API": "1"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0 and done.stdout.strip().endswith("passed"), done.stderr[-2000:]


@parametrize_with_checks([Perceptron()])
def test_estimator_passes_every_scikit_learn_check(estimator, check):
    # All 56 checks of scikit-learn 1.9 run (those for several classes, sparse input and class_weight
    # included); none is skipped or marked as an expected failure.
    if check.func.__name__ == "check_array_api_input":
        _array_api_check_in_fresh_interpreter(check.keywords)
    else:
        check(estimator)


# --- the same weights as scikit-learn's Perceptron -------------------------------------------


def _sklearn_twin(max_iter: int) -> SklearnPerceptron:
    return SklearnPerceptron(eta0=1.0, penalty=None, shuffle=False, tol=None, max_iter=max_iter)


@pytest.mark.parametrize("max_iter", [1, 5, 40])
@pytest.mark.parametrize(
    ("dataset", "labels"),
    [
        (lambda: datasets.load_iris_pair("versicolor", "virginica", (0, 1)), ("cat", "dog")),
        (lambda: datasets.load_digits_pair(3, 8), (0, 1)),
        (lambda: datasets.make_overlapping(150, 4, separation=1.0, seed=3), (-1, 1)),
    ],
    ids=["iris-strings", "digits-01", "gaussians-pm1"],
)
def test_coef_and_intercept_are_bit_identical_to_sklearn_perceptron(dataset, labels, max_iter):
    X, y = dataset()
    y = np.where(y == 1, labels[1], labels[0])  # labels[1] sorts last: it is classes_[1] in both
    ours = Perceptron(eta0=1, max_iter=max_iter).fit(X, y)
    theirs = _sklearn_twin(max_iter).fit(X, y)
    np.testing.assert_array_equal(ours.classes_, theirs.classes_)
    assert ours.coef_.shape == theirs.coef_.shape == (1, X.shape[1])
    assert ours.intercept_.shape == theirs.intercept_.shape == (1,)
    np.testing.assert_array_equal(ours.coef_, theirs.coef_)
    np.testing.assert_array_equal(ours.intercept_, theirs.intercept_)
    # The predictions can only differ at a score of exactly 0 (sgn(0) = +1 here); there is none.
    assert np.all(ours.decision_function(X) != 0)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
    np.testing.assert_array_equal(ours.decision_function(X), theirs.decision_function(X))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), bias=st.sampled_from(["one", "radius", "none"]), shuffle=st.booleans())
def test_estimator_is_train_with_classes_one_as_plus_one(seed, bias, shuffle):
    X, y = datasets.make_overlapping(40, 3, separation=1.5, seed=seed)
    labels = np.where(y == 1, "yes", "no")  # sorted: "no" < "yes", so "yes" is +1
    params = {"eta0": 0.5, "bias": bias, "max_iter": 20, "shuffle": shuffle}
    clf = Perceptron(**params, random_state=seed % 1000).fit(X, labels)
    result = train(X, y, eta=0.5, bias=bias, max_epochs=20, shuffle=shuffle, seed=seed % 1000)
    np.testing.assert_array_equal(clf.coef_[0], result.w)
    assert clf.intercept_[0] == result.b
    assert (clf.n_iter_, clf.n_mistakes_) == (result.epochs, result.mistakes)
    assert clf.converged_ == result.converged
    assert clf.n_features_in_ == 3
    np.testing.assert_array_equal(clf.predict(X), np.where(result.predict(X) == 1, "yes", "no"))


def test_a_point_on_the_hyperplane_is_predicted_as_the_positive_class():
    # Hand trace (the class docstring's example): one mistake, w = (2, 1), b = 1; the point
    # (0, -1) scores 0 and gets classes_[1] = "dog" (scikit-learn would say "cat").
    X = [[2.0, 1.0], [1.0, 3.0], [-1.0, -1.0], [-2.0, 1.0]]
    clf = Perceptron().fit(X, ["dog", "dog", "cat", "cat"])
    assert clf.coef_.tolist() == [[2.0, 1.0]] and clf.intercept_.tolist() == [1.0]
    assert clf.decision_function([[0.0, -1.0]]).tolist() == [0.0]
    assert clf.predict([[0.0, -1.0]]).tolist() == ["dog"]


def test_random_state_gives_reproducible_shuffles():
    X, y = datasets.make_overlapping(60, 2, seed=1)
    a = Perceptron(shuffle=True, random_state=7, max_iter=5).fit(X, y)
    b = Perceptron(shuffle=True, random_state=7, max_iter=5).fit(X, y)
    c = Perceptron(shuffle=True, random_state=np.random.RandomState(7), max_iter=5).fit(X, y)
    d = Perceptron(shuffle=True, random_state=np.random.RandomState(7), max_iter=5).fit(X, y)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_array_equal(c.coef_, d.coef_)
    fits = [Perceptron(shuffle=True, random_state=s, max_iter=5).fit(X, y) for s in range(5)]
    different = {tuple(clf.coef_[0]) for clf in fits}
    assert len(different) > 1


def test_estimator_is_exported_by_the_package_on_first_use():
    import perceptron

    assert perceptron.Perceptron is Perceptron
    assert "Perceptron" in perceptron.__all__


def test_works_inside_a_pipeline_with_cross_validation():
    X, y = datasets.load_iris_pair("setosa", "versicolor", (0, 1))
    scores = cross_val_score(make_pipeline(StandardScaler(), Perceptron(max_iter=50)), X, y, cv=5)
    assert scores.mean() > 0.95  # setosa and versicolor are separable by sepal size


# --- bad input ------------------------------------------------------------------------------

X3 = [[0.0, 1.0], [1.0, 0.0], [2.0, 2.0]]


@pytest.mark.parametrize(
    ("params", "X", "y", "message"),
    [
        ({}, X3, [1, 1, 1], "only one class"),
        ({}, X3, [0.5, 1.5, 2.5], "Unknown label type"),
        ({}, [[0.0, np.nan], [1.0, 0.0], [2.0, 2.0]], [0, 1, 0], "NaN"),
        ({}, [0.0, 1.0, 2.0], [0, 1, 0], "2D array"),
        ({}, X3, [0, 1], "inconsistent numbers of samples"),
        ({"eta0": 0.0}, X3, [0, 1, 0], "eta0 must be > 0"),
        ({"eta0": -2.0}, X3, [0, 1, 0], "eta0 must be > 0"),
        ({"max_iter": 0}, X3, [0, 1, 0], "max_iter must be >= 1"),
        ({"bias": "yes"}, X3, [0, 1, 0], "unknown bias"),
        ({"fit_intercept": False, "bias": "radius"}, X3, [0, 1, 0], "fit_intercept=False contradicts bias='radius'"),
        ({"fit_intercept": 1}, X3, [0, 1, 0], "fit_intercept must be True or False"),
        ({"tol": -1.0}, X3, [0, 1, 0], "tol must be >= 0 or None"),
        ({"tol": np.nan}, X3, [0, 1, 0], "tol"),
        ({"n_iter_no_change": 0}, X3, [0, 1, 0], "n_iter_no_change must be >= 1"),
        ({"shuffle": "yes"}, X3, [0, 1, 0], "shuffle must be True or False"),
        ({"warm_start": None}, X3, [0, 1, 0], "warm_start must be True or False"),
        ({"class_weight": {7: 2.0}}, X3, [0, 1, 0], "not in class_weight"),
    ],
)
def test_fit_rejects_bad_input_with_a_clear_message(params, X, y, message):
    with pytest.raises(ValueError, match=message):
        Perceptron(**params).fit(X, y)


def test_predict_rejects_the_wrong_number_of_features():
    clf = Perceptron().fit(X3, [0, 1, 0])
    with pytest.raises(ValueError, match="3 features"):
        clf.predict([[1.0, 2.0, 3.0]])
