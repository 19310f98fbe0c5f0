"""The linear classifier itself: scores, predictions and training errors, with the book's sgn(0) = +1."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import _core
from ._validation import check_rule, check_scalar, check_signs, check_w, check_X, check_Xy
from .results import Hyperplane


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
    return _core.sgn(scores)


def prototype(X: ArrayLike, y: ArrayLike) -> Hyperplane:
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
    Hyperplane
        ``w`` of shape (n_features,) and ``b``; it unpacks as ``w, b = prototype(X, y)``.

    Examples
    --------
    >>> w, b = prototype([[2.0, 0.0], [4.0, 0.0], [0.0, 0.0]], [1, 1, -1])
    >>> w.tolist(), b
    ([3.0, 0.0], -4.5)
    >>> prototype([[2.0, 0.0], [4.0, 0.0], [0.0, 0.0]], [1, 1, -1]).predict([[1.0, 0.0], [2.0, 5.0]])
    array([-1,  1])
    """
    Xa, ya = check_Xy(X, y)
    c_pos = Xa[ya == 1].mean(axis=0)
    c_neg = Xa[ya == -1].mean(axis=0)
    return Hyperplane(c_pos - c_neg, float((c_neg @ c_neg - c_pos @ c_pos) / 2))


def count_errors(X: ArrayLike, y: ArrayLike, w: ArrayLike, b: float = 0.0, *, rule: str = "margin") -> int:
    """Return how many points ``(w, b)`` gets wrong under a training mistake rule.

    With ``rule="margin"`` (the book's) a point is wrong when ``y_i (w.x_i + b) <= 0``, so a point
    on the hyperplane always counts; with ``rule="sign"`` (the CMU 36-350 notes') when
    ``y_i != sgn(w.x_i + b)`` with ``sgn(0) = +1``, i.e. when :func:`predict` disagrees with
    ``y_i``. This is the ``errors`` field of what :func:`~perceptron.train` returns.

    Parameters
    ----------
    X : array_like of shape (n_samples, n_features)
    y : array_like of shape (n_samples,), labels in {-1, +1}
    w : array_like of shape (n_features,)
    b : float, default 0.0
    rule : {"margin", "sign"}, default "margin"

    Returns
    -------
    int

    Raises
    ------
    ValueError
        On invalid data or weights, labels other than -1/+1, or an unknown ``rule``.

    Examples
    --------
    The zero classifier puts every point on its hyperplane:

    >>> X, y = [[1.0, 2.0], [3.0, -1.0], [0.0, 1.0]], [1, -1, -1]
    >>> count_errors(X, y, [0.0, 0.0]), count_errors(X, y, [0.0, 0.0], rule="sign")
    (3, 2)
    >>> count_errors(X, y, [-1.0, 1.0], 0.5)
    1
    """
    Xa = check_X(X)
    ya = check_signs(y, Xa.shape[0])
    wa = check_w(w, Xa.shape[1])
    return _core.count_errors(Xa, ya, wa, check_scalar(b, "b"), check_rule(rule))
