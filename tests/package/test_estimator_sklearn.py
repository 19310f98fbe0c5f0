"""perceptron.Perceptron against scikit-learn's Perceptron: several classes, sparse input, tol.

The first part adapts scikit-learn's own tests for its Perceptron
(``sklearn/linear_model/tests/test_perceptron.py``, scikit-learn 1.9) to this estimator; the rest
checks that the one-vs-all fit is scikit-learn's bit for bit.
"""

from __future__ import annotations

import math
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_digits, load_iris
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Perceptron as SklearnPerceptron

from perceptron import _one_vs_all, train
from perceptron.estimator import Perceptron


def _shuffled_iris():
    """Iris in a fixed random order (scikit-learn's tests shuffle it the same way, seed 12)."""
    X, y = load_iris(return_X_y=True)
    order = np.random.RandomState(12).permutation(len(y))
    return X[order], y[order]


X_IRIS, Y_IRIS = _shuffled_iris()
SPARSE = [sp.csr_matrix, sp.csr_array, sp.csc_matrix, sp.csc_array]


def _theirs(**params) -> SklearnPerceptron:
    return SklearnPerceptron(penalty=None, shuffle=False, tol=None, **params)


def _assert_same_fit(ours: Perceptron, theirs: SklearnPerceptron, X) -> None:
    np.testing.assert_array_equal(ours.classes_, theirs.classes_)
    assert ours.classes_.dtype == theirs.classes_.dtype
    assert ours.coef_.shape == theirs.coef_.shape and ours.intercept_.shape == theirs.intercept_.shape
    np.testing.assert_array_equal(ours.coef_, theirs.coef_)
    np.testing.assert_array_equal(ours.intercept_, theirs.intercept_)
    if theirs.tol is None and ours.converged_:  # here the run stopped at its clean pass
        assert ours.n_iter_ <= theirs.n_iter_ == theirs.max_iter
    else:
        assert ours.n_iter_ == theirs.n_iter_
    np.testing.assert_array_equal(ours.decision_function(X), theirs.decision_function(X))
    scores = ours.decision_function(X)
    if scores.ndim == 1:  # two classes: the predictions differ only at a score of 0 (sgn(0) = +1 here)
        agree = scores != 0
        np.testing.assert_array_equal(ours.predict(X)[agree], theirs.predict(X)[agree])
    else:
        np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))


# --- scikit-learn's test_perceptron.py, adapted ----------------------------------------------


@pytest.mark.parametrize("container", [np.asarray, sp.csr_matrix, sp.csr_array], ids=["dense", "csr", "csr_array"])
def test_accuracy_on_iris_dense_and_csr(container):
    # sklearn: test_perceptron_accuracy (three classes, 100 passes in order, score > 0.7).
    data = container(X_IRIS)
    clf = Perceptron(max_iter=100, tol=None, shuffle=False).fit(data, Y_IRIS)
    assert clf.score(data, Y_IRIS) > 0.7
    assert clf.coef_.shape == (3, 4)


def _hand_perceptron(X, y, passes):
    """The perceptron written out by hand: a mistake when y (w.x + b) <= 0, then w += y x, b += y."""
    w = np.zeros(X.shape[1])
    b = 0.0
    for _ in range(passes):
        for x, label in zip(X, y, strict=True):
            total = 0.0
            for xj, wj in zip(x, w, strict=True):  # left to right, as the estimator adds them
                total += xj * wj
            score = total + b
            if label * score <= 0:
                w = w + label * x
                b += label
    return w, b


def test_correctness_against_a_hand_written_loop():
    # sklearn: test_perceptron_correctness (versicolor against the rest, 2 passes). sklearn's hand
    # loop predicts with np.sign, which counts a score of 0 as a mistake too, and compares to 6
    # decimals; here the sum is written in the estimator's order, so the weights agree exactly.
    y_bin = np.where(Y_IRIS == 1, 1, -1)
    w, b = _hand_perceptron(X_IRIS, y_bin, passes=2)
    clf = Perceptron(max_iter=2, shuffle=False, tol=None).fit(X_IRIS, y_bin)
    np.testing.assert_array_equal(clf.coef_.ravel(), w)
    assert clf.intercept_[0] == b


def test_probability_methods_are_undefined():
    # sklearn: test_undefined_methods. A perceptron's score is not a probability.
    clf = Perceptron(max_iter=100)
    for method in ("predict_proba", "predict_log_proba"):
        with pytest.raises(AttributeError):
            getattr(clf, method)


# sklearn: test_perceptron_l1_ratio does not apply: it checks that l1_ratio changes an elastic-net
# penalty, and this estimator has no penalty (penalty=None is the perceptron; see the class Notes).


# --- bit for bit scikit-learn's one-vs-all -----------------------------------------------------


@pytest.mark.parametrize("max_iter", [1, 5, 50])
def test_iris_three_classes_is_sklearn_bit_for_bit(max_iter):
    ours = Perceptron(max_iter=max_iter).fit(X_IRIS, Y_IRIS)
    _assert_same_fit(ours, _theirs(max_iter=max_iter).fit(X_IRIS, Y_IRIS), X_IRIS)
    assert not ours.converged_  # versicolor and virginica overlap: the runs do not separate them


def test_digits_ten_classes_is_sklearn_bit_for_bit():
    X, y = load_digits(return_X_y=True)
    X, y = X[:500], y[:500]
    ours = Perceptron(max_iter=15).fit(X, y)
    _assert_same_fit(ours, _theirs(max_iter=15).fit(X, y), X)
    assert ours.coef_.shape == (10, 64) and ours.score(X, y) > 0.9


@pytest.mark.parametrize(
    "labels",
    [
        np.array(["setosa", "versicolor", "virginica"]),
        np.array([-7, 0, 3]),
        np.array([2.0, -1.0, 10.0]),
        np.array(["b", "a", "c"], dtype=object),
    ],
    ids=["str", "int", "float", "object"],
)
def test_any_label_type_gives_sklearn_fit(labels):
    y = labels[Y_IRIS]
    ours = Perceptron(max_iter=10, eta0=0.5).fit(X_IRIS, y)
    _assert_same_fit(ours, _theirs(max_iter=10, eta0=0.5).fit(X_IRIS, y), X_IRIS)
    assert set(ours.predict(X_IRIS)) <= set(labels)


def test_boolean_labels_are_two_classes_as_in_sklearn():
    y = X_IRIS[:, 0] > 5.8
    ours = Perceptron(max_iter=10).fit(X_IRIS, y)
    _assert_same_fit(ours, _theirs(max_iter=10).fit(X_IRIS, y), X_IRIS)
    assert ours.classes_.tolist() == [False, True] and ours.predict(X_IRIS).dtype == bool


@pytest.mark.parametrize("container", SPARSE, ids=lambda c: c.__name__)
@pytest.mark.parametrize("bias", ["one", "radius", "none"])
def test_sparse_input_gives_the_dense_weights(container, bias):
    X = X_IRIS.copy()
    X[X < 1.5] = 0.0  # a third of the entries are zeros, left out of the sparse matrix
    dense = Perceptron(max_iter=30, bias=bias).fit(X, Y_IRIS)
    sparse = Perceptron(max_iter=30, bias=bias).fit(container(X), Y_IRIS)
    np.testing.assert_array_equal(sparse.coef_, dense.coef_)
    np.testing.assert_array_equal(sparse.intercept_, dense.intercept_)
    assert (sparse.n_iter_, sparse.n_mistakes_) == (dense.n_iter_, dense.n_mistakes_)
    # Scores of sparse rows are summed in another order than BLAS's (in scikit-learn too): close, not equal.
    np.testing.assert_allclose(sparse.decision_function(container(X)), dense.decision_function(X), rtol=1e-12)
    np.testing.assert_array_equal(sparse.predict(container(X)), dense.predict(X))


def test_sparse_radius_is_computed_in_blocks_like_the_dense_one(monkeypatch):
    X = X_IRIS * np.array([1e-3, 1.0, 7.0, 1e3])
    monkeypatch.setattr(_one_vs_all, "DENSE_BLOCK", 9)  # two rows per block: 75 blocks
    assert _one_vs_all._radius(sp.csr_matrix(X)) == _one_vs_all._radius(X) == np.linalg.norm(X, axis=1).max()


def test_unsorted_duplicate_sparse_entries_are_summed_and_the_input_is_untouched():
    X = sp.csr_matrix(X_IRIS)
    rows, cols = X.nonzero()
    halves = sp.csr_matrix((np.r_[X.data / 2, X.data / 2][::-1], (np.r_[rows, rows][::-1], np.r_[cols, cols][::-1])),
                           shape=X.shape)  # fmt: skip
    halves.has_canonical_format = False  # two entries per position, written in reverse order
    before = halves.data.copy()
    fitted = Perceptron(max_iter=20).fit(halves, Y_IRIS)
    np.testing.assert_array_equal(fitted.coef_, Perceptron(max_iter=20).fit(halves.toarray(), Y_IRIS).coef_)
    np.testing.assert_array_equal(halves.data, before)


@pytest.mark.parametrize("container", [sp.csr_matrix, sp.csc_matrix])
def test_sparse_without_intercept_is_sklearn_sparse_bit_for_bit(container):
    X = container(X_IRIS)
    ours = Perceptron(max_iter=20, fit_intercept=False).fit(X, Y_IRIS)
    _assert_same_fit(ours, _theirs(max_iter=20, fit_intercept=False).fit(X, Y_IRIS), X)
    assert np.all(ours.intercept_ == 0)


def test_sklearn_scales_the_intercept_step_on_sparse_input_and_this_estimator_does_not():
    # scikit-learn multiplies the intercept's steps by 0.01 on sparse input (SPARSE_INTERCEPT_DECAY),
    # so its sparse and dense fits differ; the class docstring says so. Here the first update of the
    # first problem (setosa against the rest, first point not a setosa) gives b = -1, or -0.01 there.
    X = sp.csr_matrix(X_IRIS)
    theirs_sparse = _theirs(max_iter=1).fit(X, Y_IRIS)
    theirs_dense = _theirs(max_iter=1).fit(X_IRIS, Y_IRIS)
    ours = Perceptron(max_iter=1).fit(X, Y_IRIS)
    assert not np.array_equal(theirs_sparse.intercept_, theirs_dense.intercept_)
    np.testing.assert_array_equal(ours.intercept_, theirs_dense.intercept_)
    np.testing.assert_array_equal(ours.coef_, theirs_dense.coef_)


@pytest.mark.parametrize(("tol", "n_iter_no_change"), [(0.0, 1), (1e-3, 1), (1e-3, 5), (0.5, 3), (10.0, 2)])
def test_tol_stops_where_sklearn_stops(tol, n_iter_no_change):
    ours = Perceptron(tol=tol, n_iter_no_change=n_iter_no_change, max_iter=300)
    theirs = SklearnPerceptron(penalty=None, shuffle=False, tol=tol, n_iter_no_change=n_iter_no_change, max_iter=300)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        _assert_same_fit(ours.fit(X_IRIS, Y_IRIS), theirs.fit(X_IRIS, Y_IRIS), X_IRIS)
    assert (ours.n_iter_ < 300) == (tol > 0)  # tol = 0 never stops: the loss never falls by > 0 for good


def test_tol_on_separable_data_counts_the_passes_after_the_clean_one():
    # Setosa against the rest is separable: once a pass is clean no pass is run, but n_iter_ counts
    # the n_iter_no_change passes scikit-learn makes before its rule stops it.
    y = Y_IRIS == 0
    ours = Perceptron(tol=1e-3, n_iter_no_change=4, max_iter=100).fit(X_IRIS, y)
    theirs = SklearnPerceptron(penalty=None, shuffle=False, tol=1e-3, n_iter_no_change=4, max_iter=100)
    _assert_same_fit(ours, theirs.fit(X_IRIS, y), X_IRIS)
    clean_pass = train(X_IRIS, np.where(y, 1, -1), max_epochs=100).epochs  # the first pass without a mistake
    assert ours.converged_ and ours.n_iter_ > clean_pass


def test_tol_warns_when_max_iter_ends_the_run_as_sklearn_does():
    with pytest.warns(ConvergenceWarning, match="max_iter=3"):
        Perceptron(tol=1e-3, max_iter=3).fit(X_IRIS, Y_IRIS)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Perceptron(max_iter=3).fit(X_IRIS, Y_IRIS)  # tol=None: max_iter passes is the plan, no warning


@pytest.mark.parametrize("class_weight", ["balanced", {0: 0.5, 1: 3.0, 2: 1.0}])
@pytest.mark.parametrize("classes", [(0, 1, 2), (1, 2)], ids=["three", "two"])
def test_class_weight_is_sklearn_bit_for_bit(class_weight, classes):
    keep = np.isin(Y_IRIS, classes) & (np.arange(150) < 110)  # unequal classes: "balanced" is not all ones
    X, y = X_IRIS[keep], Y_IRIS[keep]
    ours = Perceptron(max_iter=25, class_weight=class_weight).fit(X, y)
    _assert_same_fit(ours, _theirs(max_iter=25, class_weight=class_weight).fit(X, y), X)
    unweighted = Perceptron(max_iter=25).fit(X, y)
    assert not np.array_equal(ours.coef_, unweighted.coef_)


def test_unit_class_weights_change_nothing():
    plain = Perceptron(max_iter=25).fit(X_IRIS, Y_IRIS)  # the certified compiled path of train
    weighted = Perceptron(max_iter=25, class_weight={0: 1.0, 1: 1.0, 2: 1.0}).fit(X_IRIS, Y_IRIS)  # the other
    np.testing.assert_array_equal(plain.coef_, weighted.coef_)
    np.testing.assert_array_equal(plain.intercept_, weighted.intercept_)


def test_warm_start_continues_like_sklearn_and_checks_the_shape():
    ours = Perceptron(max_iter=3, warm_start=True).fit(X_IRIS, Y_IRIS).fit(X_IRIS, Y_IRIS)
    theirs = _theirs(max_iter=3, warm_start=True).fit(X_IRIS, Y_IRIS).fit(X_IRIS, Y_IRIS)
    _assert_same_fit(ours, theirs, X_IRIS)
    assert not np.array_equal(ours.coef_, Perceptron(max_iter=3).fit(X_IRIS, Y_IRIS).coef_)
    with pytest.raises(ValueError, match=r"warm_start: the previous fit had coef_ of shape \(3, 4\)"):
        ours.fit(X_IRIS, Y_IRIS == 0)
    cold = Perceptron(max_iter=3).fit(X_IRIS, Y_IRIS)
    np.testing.assert_array_equal(cold.fit(X_IRIS, Y_IRIS).coef_, Perceptron(max_iter=3).fit(X_IRIS, Y_IRIS).coef_)


def test_fit_intercept_false_is_bias_none():
    a = Perceptron(max_iter=10, fit_intercept=False).fit(X_IRIS, Y_IRIS)
    b = Perceptron(max_iter=10, bias="none").fit(X_IRIS, Y_IRIS)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    assert np.all(a.intercept_ == 0) and np.all(b.intercept_ == 0)
    _assert_same_fit(a, _theirs(max_iter=10, fit_intercept=False).fit(X_IRIS, Y_IRIS), X_IRIS)


def test_shuffled_runs_are_reproducible_and_sparse_shuffles_alike():
    params = {"max_iter": 8, "shuffle": True, "random_state": 3}
    a = Perceptron(**params).fit(X_IRIS, Y_IRIS)
    b = Perceptron(**params).fit(sp.csr_matrix(X_IRIS), Y_IRIS)
    c = Perceptron(**{**params, "random_state": 4}).fit(X_IRIS, Y_IRIS)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    assert not np.array_equal(a.coef_, c.coef_)


def test_predict_breaks_ties_between_classes_like_sklearn():
    # The first point scores 0 for every class after one pass; argmax takes the first class.
    X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]])
    y = np.array([2, 0, 1, 2])
    ours = Perceptron(max_iter=1, fit_intercept=False).fit(X, y)
    theirs = _theirs(max_iter=1, fit_intercept=False).fit(X, y)
    assert ours.decision_function(X[:1]).tolist() == [[0.0, 0.0, 0.0]]
    _assert_same_fit(ours, theirs, X)
    assert ours.predict(X[:1]).tolist() == [0]


def test_training_that_overflows_raises():
    X = np.array([[1e308, 1e308], [-1e308, 1e308], [1e308, -1e308]])
    with pytest.raises(ValueError, match="training diverged"):
        Perceptron(max_iter=50, tol=0.0).fit(X, [0, 1, 2])


# --- properties ------------------------------------------------------------------------------


@st.composite
def _labelled_grids(draw):
    """Small integer-valued data (many exact ties in the scores) with 2 to 5 classes."""
    n = draw(st.integers(6, 30))
    d = draw(st.integers(1, 5))
    k = draw(st.integers(2, 5))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    X = rng.integers(-3, 4, size=(n, d)).astype(float)
    y = rng.integers(0, k, size=n)
    y[:2] = [0, 1]  # at least two classes
    return X, y


@settings(max_examples=40, deadline=None)
@given(data=_labelled_grids(), max_iter=st.integers(1, 12), eta0=st.sampled_from([1.0, 0.25, 0.1, 3.0]),
       fit_intercept=st.booleans())  # fmt: skip
def test_any_small_problem_is_sklearn_bit_for_bit(data, max_iter, eta0, fit_intercept):
    X, y = data
    params = {"max_iter": max_iter, "eta0": eta0, "fit_intercept": fit_intercept}
    ours = Perceptron(**params).fit(X, y)
    _assert_same_fit(ours, _theirs(**params).fit(X, y), X)
    sparse = Perceptron(**params).fit(sp.csr_matrix(X), y)
    np.testing.assert_array_equal(sparse.coef_, ours.coef_)
    np.testing.assert_array_equal(sparse.intercept_, ours.intercept_)


@settings(max_examples=25, deadline=None)
@given(data=_labelled_grids(), tol=st.sampled_from([0.0, 1e-3, 0.1, 1.0]), patience=st.integers(1, 4))
def test_the_stopping_rule_is_sklearn_bit_for_bit(data, tol, patience):
    X, y = data
    ours = Perceptron(tol=tol, n_iter_no_change=patience, max_iter=40)
    theirs = SklearnPerceptron(penalty=None, shuffle=False, tol=tol, n_iter_no_change=patience, max_iter=40)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        _assert_same_fit(ours.fit(X, y), theirs.fit(X, y), X)
    assert math.isfinite(ours.intercept_.sum())


def test_without_tol_n_iter_counts_the_passes_up_to_the_clean_one():
    # Setosa against the rest is separable: train stops at its first clean pass and so does the
    # estimator (scikit-learn goes on to max_iter, changing nothing). Three classes: versicolor
    # against the rest never separates, so the largest count over the problems is max_iter.
    y = Y_IRIS == 0
    clean_pass = train(X_IRIS, np.where(y, 1, -1), max_epochs=100).epochs
    assert Perceptron(max_iter=100).fit(X_IRIS, y).n_iter_ == clean_pass < 100
    assert Perceptron(max_iter=100).fit(X_IRIS, Y_IRIS).n_iter_ == 100
    assert Perceptron(max_iter=100, class_weight={False: 1.0, True: 1.0}).fit(X_IRIS, y).n_iter_ == clean_pass


def test_a_small_dense_fit_does_not_load_numba_and_a_sparse_one_does():
    # Like train, a small dense fit stays in the readable loop; only the sequential passes (sparse
    # input, class weights, tol) load numba, on first use.
    code = textwrap.dedent(
        """
        import sys
        import scipy.sparse as sp
        from sklearn.datasets import load_iris
        from perceptron.estimator import Perceptron
        X, y = load_iris(return_X_y=True)
        Perceptron(max_iter=2).fit(X, y)
        print("numba" in sys.modules)
        Perceptron(max_iter=2).fit(sp.csr_matrix(X), y)
        print("numba" in sys.modules)
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=False)
    assert done.stdout.split() == ["False", "True"], done.stderr[-2000:]


def test_every_sklearn_parameter_is_implemented_or_explained_in_the_notes():
    theirs, ours = set(SklearnPerceptron().get_params()), set(Perceptron().get_params())
    assert theirs & ours == {"eta0", "max_iter", "shuffle", "random_state", "tol", "n_iter_no_change",
                             "fit_intercept", "class_weight", "warm_start"}  # fmt: skip
    assert ours - theirs == {"bias"}
    notes = Perceptron.__doc__.split("Notes\n    -----")[1].split("Examples\n")[0]
    assert [name for name in sorted(theirs - ours) if f"``{name}``" not in notes] == []
