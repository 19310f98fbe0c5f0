"""A scikit-learn estimator around :func:`perceptron.train`, for pipelines, grid search and CV.

The estimator adds what scikit-learn's API needs (input checks, any labels, several classes by
one-vs-all, sparse input, fitted attributes); the learning of each binary problem is
:func:`~perceptron.train`'s, run on the input the estimator has checked (not checked a second
time), so the two give the same weights. The one-vs-all loop is in :mod:`perceptron._one_vs_all`.
"""

from __future__ import annotations

import warnings
from numbers import Integral

import numpy as np
import scipy.sparse as sp
from numpy.typing import ArrayLike, NDArray
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.class_weight import compute_class_weight
from sklearn.utils.multiclass import check_classification_targets, unique_labels
from sklearn.utils.validation import check_is_fitted, check_random_state, validate_data

from ._one_vs_all import fit_one_vs_all
from ._validation import check_epochs, check_fit_intercept, check_flag, check_positive, check_tol


class Perceptron(ClassifierMixin, BaseEstimator):
    """Rosenblatt's perceptron as a scikit-learn classifier: two classes, or several by one-vs-all.

    With two classes, fitting maps ``classes_[1]`` to +1 and ``classes_[0]`` to -1 (as
    scikit-learn does) and runs :func:`~perceptron.train` from ``w = 0, b = 0``: on every mistake
    ``y_i (w.x_i + b) <= 0``, ``w += eta0 * y_i * x_i``. With ``k > 2`` classes it trains ``k``
    such perceptrons, class ``i`` against all others, and predicts the class of the largest score.

    With ``bias="one"`` and ``shuffle=False`` this is the algorithm of
    ``sklearn.linear_model.Perceptron(eta0=eta0, penalty=None, shuffle=False, tol=None)``:
    ``classes_``, ``coef_``, ``intercept_`` and the predictions are bit for bit the same, for any
    labels, two classes or more, and stay so with scikit-learn's ``tol``, ``n_iter_no_change``,
    ``fit_intercept``, ``class_weight`` and ``warm_start`` (``tests/package/test_estimator_sklearn.py``);
    ``n_iter_`` too, unless a run without ``tol`` converged (see ``n_iter_``). Two deliberate
    differences: with two classes a point whose score is exactly 0 is predicted ``classes_[1]``
    here (the book's sgn(0) = +1), while scikit-learn predicts ``classes_[0]``; on sparse input
    scikit-learn scales the intercept's steps by 0.01, while here sparse and dense input give the
    same weights (without an intercept, all four agree).

    Parameters
    ----------
    eta0 : float, default 1.0
        Learning rate, > 0. From the zero start it only rescales ``coef_`` and ``intercept_``.
    bias : {"one", "radius", "none"}, default "one"
        How the intercept is learned: ``b += eta0*y``, ``b += eta0*y*R**2`` with
        ``R = max ||x_i||``, or not at all (it stays 0). See :func:`~perceptron.train`.
    max_iter : int, default 1000
        Largest number of passes over the training data, >= 1.
    shuffle : bool, default False
        Visit the samples in a fresh random permutation every pass (numpy's permutations, not
        scikit-learn's: shuffled runs differ from scikit-learn's).
    random_state : int, numpy.random.Generator, numpy.random.RandomState or None, default None
        Seed of the permutations when ``shuffle`` is True. An int or Generator is passed to
        :func:`~perceptron.train` as its ``seed`` (one generator serves the classes in turn); a
        RandomState is asked for an int seed; None draws fresh entropy.
    tol : float or None, default None
        scikit-learn's stopping rule: stop once ``n_iter_no_change`` passes in a row have a mean
        perceptron loss (``max(0, -y_i (w.x_i + b))`` summed over the pass, before each update,
        divided by ``n_samples``) greater than the best so far minus ``tol``. None (the default
        here; scikit-learn's is 1e-3): the perceptron's rule, stop after the first pass without a
        mistake or after ``max_iter`` passes (scikit-learn makes all ``max_iter``; the later ones
        change nothing, so the weights agree).
    n_iter_no_change : int, default 5
        Passes without improvement that stop the run when ``tol`` is set, >= 1.
    fit_intercept : bool, default True
        scikit-learn's name for learning an intercept: False is ``bias="none"``. Together with
        ``bias="radius"`` it is a contradiction and raises ValueError.
    class_weight : dict, "balanced" or None, default None
        Weights of the classes as in scikit-learn (a dict maps a label to its weight; "balanced"
        weighs a class ``n_samples / (n_classes * count)``): a mistake on a point steps by ``eta0``
        times its class's weight. In one-vs-all problem ``i`` the other classes weigh 1, as in
        scikit-learn.
    warm_start : bool, default False
        Start a new fit from the previous ``coef_`` and ``intercept_`` (same classes and features).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The labels, sorted; with two classes ``classes_[1]`` is the positive class.
    coef_ : ndarray of shape (1, n_features) for two classes, else (n_classes, n_features)
        The weight vectors ``w``, one per one-vs-all problem.
    intercept_ : ndarray of shape (1,) for two classes, else (n_classes,)
        The biases ``b``.
    n_iter_ : int
        Passes the stopping rule took, the largest over the one-vs-all problems. With ``tol`` this is
        scikit-learn's count (it includes the passes after a clean one that its rule waits for;
        they change nothing and are not run). With ``tol=None`` it is the passes up to the first one
        without a mistake (so ``max_iter`` when the run does not converge, as in scikit-learn, whose
        ``n_iter_`` is always ``max_iter`` then).
    n_mistakes_ : int
        Number of updates made, over all problems.
    converged_ : bool
        True when every problem ended with a pass without a mistake (its classes are separated).
    n_features_in_ : int
        Number of features seen during fit.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Names of the features, when ``X`` had string column names.

    See Also
    --------
    perceptron.train : the functional form, labels -1/+1.
    sklearn.linear_model.Perceptron : scikit-learn's own, an SGD special case.

    Notes
    -----
    Parameters of ``sklearn.linear_model.Perceptron`` that are left out, and why: ``penalty``,
    ``alpha`` and ``l1_ratio`` (a regularised SGD step is not the perceptron's update; ``penalty=None``
    is); ``early_stopping`` and ``validation_fraction`` (they hold out a split drawn by
    scikit-learn's own random generator and stop on its score, another algorithm than stopping on
    the training loss); ``n_jobs`` (the one-vs-all problems run one after another); ``verbose``;
    ``fit``'s ``coef_init``, ``intercept_init`` and ``sample_weight`` and ``partial_fit`` (not
    implemented; ``warm_start`` covers restarting). The attribute ``t_`` counts steps for decaying
    learning rates, which a constant ``eta0`` does not have; ``coef_`` stays dense (no
    ``sparsify``/``densify``). Averaging is :func:`~perceptron.averaged`. Defaults that differ from
    scikit-learn's, so that the default is the textbook perceptron: ``shuffle=False`` (True there),
    ``tol=None`` (1e-3) and ``random_state=None`` (0).

    Examples
    --------
    >>> X = [[2.0, 1.0], [1.0, 3.0], [-1.0, -1.0], [-2.0, 1.0]]
    >>> y = ["dog", "dog", "cat", "cat"]
    >>> clf = Perceptron().fit(X, y)  # "dog" = classes_[1] is +1; one mistake, at the first point
    >>> clf.classes_.tolist(), clf.coef_.tolist(), clf.intercept_.tolist()
    (['cat', 'dog'], [[2.0, 1.0]], [1.0])
    >>> clf.predict([[1.0, 1.0], [-3.0, 0.0]]).tolist(), clf.score(X, y)
    (['dog', 'cat'], 1.0)

    Three classes: one perceptron per class, each against the other two, as scikit-learn does.

    >>> X = [[3.0, 0.0], [0.0, 3.0], [-3.0, -3.0], [2.0, -1.0], [-1.0, 2.0], [-2.0, -1.0]]
    >>> y = ["east", "north", "south", "east", "north", "south"]
    >>> clf = Perceptron(max_iter=20).fit(X, y)
    >>> clf.classes_.tolist(), clf.coef_.tolist(), clf.intercept_.tolist()
    (['east', 'north', 'south'], [[6.0, 0.0], [0.0, 6.0], [-2.0, -2.0]], [-1.0, -1.0, -2.0])
    >>> clf.predict([[4.0, 1.0], [0.0, 5.0], [-4.0, -2.0]]).tolist(), clf.score(X, y)
    (['east', 'north', 'south'], 1.0)
    >>> from sklearn.linear_model import Perceptron as SklearnPerceptron
    >>> theirs = SklearnPerceptron(penalty=None, shuffle=False, tol=None, max_iter=20).fit(X, y)
    >>> (theirs.coef_ == clf.coef_).all(), (theirs.intercept_ == clf.intercept_).all()
    (np.True_, np.True_)
    """

    def __init__(
        self,
        eta0=1.0,
        bias="one",
        max_iter=1000,
        shuffle=False,
        random_state=None,
        tol=None,
        n_iter_no_change=5,
        fit_intercept=True,
        class_weight=None,
        warm_start=False,
    ):
        self.eta0 = eta0
        self.bias = bias
        self.max_iter = max_iter
        self.shuffle = shuffle
        self.random_state = random_state
        self.tol = tol
        self.n_iter_no_change = n_iter_no_change
        self.fit_intercept = fit_intercept
        self.class_weight = class_weight
        self.warm_start = warm_start

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True  # CSR and CSC
        return tags

    def fit(self, X: ArrayLike, y: ArrayLike) -> Perceptron:
        """Train on ``X`` and labels ``y`` of two or more classes.

        Parameters
        ----------
        X : array_like or scipy.sparse matrix/array (CSR or CSC) of shape (n_samples, n_features)
            Training points, finite.
        y : array_like of shape (n_samples,)
            Labels of at least two classes, of any type (e.g. 0/1, -1/+1, strings, booleans).

        Returns
        -------
        self : Perceptron

        Raises
        ------
        ValueError
            On invalid parameters or data, continuous labels, one class, a warm start on other
            classes or features, or when training overflows.
        """
        # Parameters are checked here, not in __init__: scikit-learn's set_params/clone contract.
        eta0 = check_positive(self.eta0, "eta0")
        bias = check_fit_intercept(self.fit_intercept, self.bias)
        max_iter = check_epochs(self.max_iter, "max_iter")
        tol = check_tol(self.tol)
        n_iter_no_change = check_epochs(self.n_iter_no_change, "n_iter_no_change")
        shuffle = check_flag(self.shuffle, "shuffle")
        warm = check_flag(self.warm_start, "warm_start") and hasattr(self, "coef_")
        X, y = validate_data(self, X, y, accept_sparse=("csr", "csc"), dtype=np.float64, reset=True)
        check_classification_targets(y)
        classes = unique_labels(y)  # as scikit-learn's: sorted, and of its dtype (str for object strings)
        if classes.size < 2:
            raise ValueError(f"y contains only one class ({classes[0]!r}); the perceptron needs two classes")
        weights = None if self.class_weight is None else compute_class_weight(self.class_weight, classes=classes, y=y)
        start = (self.coef_, self.intercept_) if warm else (None, None)
        if warm and self.coef_.shape != (1 if classes.size == 2 else classes.size, X.shape[1]):
            raise ValueError(
                f"warm_start: the previous fit had coef_ of shape {self.coef_.shape}, these data need "
                f"{(1 if classes.size == 2 else classes.size, X.shape[1])} (other classes or features)"
            )
        result = fit_one_vs_all(
            X, y, classes, eta=eta0, bias=bias, max_iter=max_iter, tol=tol, n_iter_no_change=n_iter_no_change,
            class_weight=weights, shuffle=shuffle, seed=self._seed(), coef_init=start[0], intercept_init=start[1],
        )  # fmt: skip
        self.classes_ = classes
        self.coef_, self.intercept_ = result.coef, result.intercept
        self.n_iter_, self.n_mistakes_, self.converged_ = result.n_iter, result.mistakes, result.converged
        if tol is not None and self.n_iter_ == max_iter:
            warnings.warn(
                f"the stopping rule (tol={tol:g}) did not stop within max_iter={max_iter} passes; "
                "consider increasing max_iter",
                ConvergenceWarning,
                stacklevel=2,
            )
        return self

    def _seed(self) -> int | np.random.Generator | None:
        """Turn ``random_state`` into a seed :func:`~perceptron.train` accepts."""
        state = self.random_state
        if state is None or isinstance(state, (Integral, np.random.Generator)):
            return state
        # A RandomState (or anything check_random_state accepts): draw a seed from it.
        return int(check_random_state(state).randint(np.iinfo(np.int32).max))

    def decision_function(self, X: ArrayLike) -> NDArray[np.float64]:
        """Return the scores ``X @ w + b``: one per sample (two classes), else one per class.

        Parameters
        ----------
        X : array_like or scipy.sparse matrix/array (CSR or CSC) of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,) for two classes (positive for ``classes_[1]``), else
        (n_samples, n_classes)
        """
        check_is_fitted(self)
        X = validate_data(self, X, accept_sparse=("csr", "csc"), dtype=np.float64, reset=False)
        if self.coef_.shape[0] == 1:
            return np.asarray(X @ self.coef_[0]) + self.intercept_[0]
        scores = X @ self.coef_.T  # as scikit-learn computes them, so that ties break alike
        return (scores.toarray() if sp.issparse(scores) else np.asarray(scores)) + self.intercept_

    def predict(self, X: ArrayLike) -> NDArray:
        """Predict the class of the largest score; with two classes ``classes_[1]`` where the score is ``>= 0``.

        Parameters
        ----------
        X : array_like or scipy.sparse matrix/array (CSR or CSC) of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,), values from ``classes_``
        """
        scores = self.decision_function(X)  # first: it raises NotFittedError before fit
        if scores.ndim == 1:
            return self.classes_[(scores >= 0).astype(np.intp)]  # sgn(0) = +1
        return self.classes_[scores.argmax(axis=1)]  # the first of tied classes, as scikit-learn
