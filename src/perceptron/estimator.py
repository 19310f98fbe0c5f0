"""A scikit-learn estimator around :func:`perceptron.train`, for pipelines, grid search and CV.

The estimator adds only what scikit-learn's API needs (input checks, any two labels, fitted
attributes); the learning itself is :func:`~perceptron.train`'s, run on the input the estimator
has checked (not checked a second time), so the two give the same weights.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_is_fitted, check_random_state, validate_data

from ._validation import check_bias, check_epochs, check_positive
from .training import _train


class Perceptron(ClassifierMixin, BaseEstimator):
    """Rosenblatt's perceptron as a binary scikit-learn classifier.

    Fitting maps ``classes_[1]`` to +1 and ``classes_[0]`` to -1 (as scikit-learn does) and runs
    :func:`~perceptron.train` from ``w = 0, b = 0``: on every mistake ``y_i (w.x_i + b) <= 0``,
    ``w += eta0 * y_i * x_i``; it stops after the first pass without a mistake or after
    ``max_iter`` passes.

    With ``bias="one"`` and ``shuffle=False`` this is the algorithm of
    ``sklearn.linear_model.Perceptron(eta0=eta0, penalty=None, shuffle=False, tol=None)``, and
    the fitted ``coef_`` and ``intercept_`` are the same. One deliberate difference: a point whose
    score is exactly 0 is predicted ``classes_[1]`` here (the book's sgn(0) = +1), while
    scikit-learn predicts ``classes_[0]`` there.

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
        Visit the samples in a fresh random permutation every pass.
    random_state : int, numpy.random.Generator, numpy.random.RandomState or None, default None
        Seed of the permutations when ``shuffle`` is True. An int or Generator is passed to
        :func:`~perceptron.train` as its ``seed``; a RandomState is asked for an int seed; None
        draws fresh entropy.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels, sorted; ``classes_[1]`` is the positive class.
    coef_ : ndarray of shape (1, n_features)
        The weight vector ``w``.
    intercept_ : ndarray of shape (1,)
        The bias ``b``.
    n_iter_ : int
        Number of passes made, the final clean pass included.
    n_mistakes_ : int
        Number of updates made.
    converged_ : bool
        True when the last pass made no mistake (the training data are separated).
    n_features_in_ : int
        Number of features seen during fit.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Names of the features, when ``X`` had string column names.

    See Also
    --------
    perceptron.train : the functional form, labels -1/+1.
    sklearn.linear_model.Perceptron : scikit-learn's own, an SGD special case; also multiclass.

    Examples
    --------
    >>> X = [[2.0, 1.0], [1.0, 3.0], [-1.0, -1.0], [-2.0, 1.0]]
    >>> y = ["dog", "dog", "cat", "cat"]
    >>> clf = Perceptron().fit(X, y)  # "dog" = classes_[1] is +1; one mistake, at the first point
    >>> clf.classes_.tolist(), clf.coef_.tolist(), clf.intercept_.tolist()
    (['cat', 'dog'], [[2.0, 1.0]], [1.0])
    >>> clf.predict([[1.0, 1.0], [-3.0, 0.0]]).tolist(), clf.score(X, y)
    (['dog', 'cat'], 1.0)
    """

    def __init__(self, eta0=1.0, bias="one", max_iter=1000, shuffle=False, random_state=None):
        self.eta0 = eta0
        self.bias = bias
        self.max_iter = max_iter
        self.shuffle = shuffle
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False  # binary only: a perceptron is one hyperplane
        return tags

    def fit(self, X: ArrayLike, y: ArrayLike) -> Perceptron:
        """Train on ``X`` and two-class labels ``y``.

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)
            Training points, finite.
        y : array_like of shape (n_samples,)
            Labels of exactly two classes, of any type (e.g. 0/1, -1/+1 or strings).

        Returns
        -------
        self : Perceptron

        Raises
        ------
        ValueError
            On invalid parameters or data, continuous labels, one class or more than two classes,
            or when training overflows.
        """
        # Parameters are checked here, not in __init__: scikit-learn's set_params/clone contract.
        eta0 = check_positive(self.eta0, "eta0")
        bias = check_bias(self.bias)
        max_iter = check_epochs(self.max_iter, "max_iter")
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        y_type = type_of_target(y, input_name="y")
        if y_type != "binary":
            raise ValueError(
                f"Only binary classification is supported. The type of the target is {y_type}; "
                "this perceptron learns one hyperplane, so y must hold exactly two classes."
            )
        self.classes_ = np.unique(y)
        if self.classes_.size < 2:
            raise ValueError(
                f"y contains only one class ({self.classes_[0]!r}); the perceptron needs two classes"
            )
        signs = np.where(y == self.classes_[1], 1.0, -1.0)
        # Everything is checked above (X by validate_data: finite, 2-D, float64), so the trusted
        # form of train runs on it without checking it again.
        result = _train(
            X, signs, eta=eta0, bias=bias, max_epochs=max_iter, shuffle=self.shuffle, seed=self._seed()
        )
        self.coef_ = result.w.reshape(1, -1)
        self.intercept_ = np.array([result.b], dtype=np.float64)
        self.n_iter_ = result.epochs
        self.n_mistakes_ = result.mistakes
        self.converged_ = result.converged
        return self

    def _seed(self) -> int | np.random.Generator | None:
        """Turn ``random_state`` into a seed :func:`~perceptron.train` accepts."""
        state = self.random_state
        if state is None or isinstance(state, (Integral, np.random.Generator)):
            return state
        # A RandomState (or anything check_random_state accepts): draw a seed from it.
        return int(check_random_state(state).randint(np.iinfo(np.int32).max))

    def decision_function(self, X: ArrayLike) -> NDArray[np.float64]:
        """Return the score ``X @ w + b``: positive for ``classes_[1]``.

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return X @ self.coef_[0] + self.intercept_[0]

    def predict(self, X: ArrayLike) -> NDArray:
        """Predict ``classes_[1]`` where the score is ``>= 0`` (sgn(0) = +1), else ``classes_[0]``.

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,), values from ``classes_``
        """
        scores = self.decision_function(X)  # first: it raises NotFittedError before fit
        return self.classes_[(scores >= 0).astype(np.intp)]
