"""The linear classifier itself: scores and predictions, with the book's sgn(0) = +1 convention."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._validation import check_scalar, check_w, check_X, check_Xy


def decision_function(X: ArrayLike, w: ArrayLike, b: float = 0.0) -> NDArray[np.float64]:
    """Return the score ``X @ w + b`` of every row of ``X``.

    Parameters
    ----------
    X : array_like of shape (n_samples, n_features)
        Points to score.
    w : array_like of shape (n_features,)
        Normal vector of the hyperplane.
    b : float, default 0.0
        Offset (bias).

    Returns
    -------
    ndarray of shape (n_samples,)
        ``||w||`` times the directed distance of each point to the hyperplane ``w.x + b = 0``.

    Raises
    ------
    ValueError
        If ``X`` is not a finite non-empty 2-D array or ``w`` does not match its width.

    Examples
    --------
    >>> decision_function([[1.0, 2.0], [0.0, 0.0]], [1.0, -1.0], 0.5)
    array([-0.5,  0.5])
    """
    Xa = check_X(X)
    wa = check_w(w, Xa.shape[1])
    return Xa @ wa + check_scalar(b, "b")


def predict(X: ArrayLike, w: ArrayLike, b: float = 0.0) -> NDArray[np.int64]:
    """Classify the rows of ``X`` with the hyperplane ``(w, b)``.

    A point gets ``+1`` where ``X @ w + b >= 0`` and ``-1`` elsewhere: the book's convention is
    sgn(0) = +1, so a point exactly on the hyperplane is assigned to the positive class.

    Parameters
    ----------
    X : array_like of shape (n_samples, n_features)
        Points to classify.
    w : array_like of shape (n_features,)
        Normal vector of the hyperplane.
    b : float, default 0.0
        Offset (bias).

    Returns
    -------
    ndarray of shape (n_samples,) with values in {-1, +1}

    Raises
    ------
    ValueError
        If ``X`` is not a finite non-empty 2-D array or ``w`` does not match its width.

    Examples
    --------
    >>> predict([[1.0, 1.0], [-1.0, 1.0], [0.0, 0.0]], [1.0, 0.0])
    array([ 1, -1,  1])
    """
    scores = decision_function(X, w, b)
    return np.where(scores >= 0, 1, -1).astype(np.int64)


def prototype(X: ArrayLike, y: ArrayLike) -> tuple[NDArray[np.float64], float]:
    """Return ``(w, b)`` of the prototype (nearest class mean) classifier.

    A point is assigned to the class whose mean is closer. Comparing squared distances,
    ``||x - c_-||^2 - ||x - c_+||^2 = 2 (c_+ - c_-).x + ||c_-||^2 - ||c_+||^2``, so the rule is the
    linear classifier ``w = c_+ - c_-``, ``b = (||c_-||^2 - ||c_+||^2) / 2`` (times 2, which does not
    change it). A point equidistant from both means gets +1, as sgn(0) = +1 says.

    Parameters
    ----------
    X : array_like of shape (n_samples, n_features)
    y : array_like of shape (n_samples,), labels in {-1, +1}

    Returns
    -------
    w : ndarray of shape (n_features,)
    b : float

    Examples
    --------
    >>> w, b = prototype([[2.0, 0.0], [4.0, 0.0], [0.0, 0.0]], [1, 1, -1])
    >>> w.tolist(), b
    ([3.0, 0.0], -4.5)
    """
    Xa, ya = check_Xy(X, y)
    c_pos = Xa[ya == 1].mean(axis=0)
    c_neg = Xa[ya == -1].mean(axis=0)
    return c_pos - c_neg, float((c_neg @ c_neg - c_pos @ c_pos) / 2)
