"""Margin losses and their subgradients; :mod:`perceptron.sgd` descends on them.

Every loss here is a function of the functional margin ``m = y (w.x + b)`` only:

==============  ========================  =====================================================
loss            ``L(m)``                  slope ``L'(m)`` used by SGD (a subderivative at kinks)
==============  ========================  =====================================================
``perceptron``  ``max(0, -m)``            ``-1`` where ``m <= 0``, else ``0``
``hinge``       ``max(0, 1 - m)``         ``-1`` where ``m <= 1``, else ``0``
``logistic``    ``log(1 + exp(-m))``      ``-1 / (1 + exp(m))``
==============  ========================  =====================================================

At a kink (``m = 0`` for the perceptron loss, ``m = 1`` for the hinge) the subdifferential of
``L`` is the whole interval ``[-1, 0]``; the slope ``-1`` is chosen there. For the perceptron
loss that choice is the book's mistake rule (a score of 0 is a mistake), and it is what makes
:func:`~perceptron.train_sgd` with ``loss="perceptron"`` and :func:`~perceptron.train` the same algorithm,
step for step. It is also scikit-learn's choice (``SGDClassifier`` uses ``m <= threshold``).

By the chain rule a subgradient of ``(w, b) -> L(y (w.x + b))`` is ``L'(m) * y * (x, 1)``.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.special import expit

from ._validation import check_loss, check_margins, check_scalar, check_signs, check_w, check_X

Floats = NDArray[np.float64]


# --- the losses as functions of the margin ------------------------------------------------------


def perceptron_loss(margins: ArrayLike) -> NDArray[np.float64]:
    """Return the perceptron loss ``max(0, -m)`` of every margin ``m``.

    It is zero for a correctly classified point and grows linearly with how far a misclassified
    point is on the wrong side (in units of ``||w||``).

    Parameters
    ----------
    margins : array_like
        Functional margins ``y (w.x + b)``, finite.

    Returns
    -------
    ndarray of the same shape

    Raises
    ------
    ValueError
        If a margin is not a finite number.

    Examples
    --------
    >>> perceptron_loss([-2.0, 0.0, 3.0]).tolist()
    [2.0, 0.0, 0.0]
    """
    return _perceptron_values(check_margins(margins))


def hinge_loss(margins: ArrayLike) -> NDArray[np.float64]:
    """Return the hinge loss ``max(0, 1 - m)`` of every margin ``m``.

    Unlike the perceptron loss it also charges correctly classified points whose margin is
    below 1, so ``w = 0`` (every margin 0, loss 1 per point) is not a minimiser.

    Parameters
    ----------
    margins : array_like
        Functional margins ``y (w.x + b)``, finite.

    Returns
    -------
    ndarray of the same shape

    Raises
    ------
    ValueError
        If a margin is not a finite number.

    Examples
    --------
    >>> hinge_loss([-2.0, 0.0, 0.5, 3.0]).tolist()
    [3.0, 1.0, 0.5, 0.0]
    """
    return _hinge_values(check_margins(margins))


def logistic_loss(margins: ArrayLike) -> NDArray[np.float64]:
    """Return the logistic loss ``log(1 + exp(-m))`` of every margin ``m`` (natural log).

    Computed as ``logaddexp(0, -m)``, which neither overflows for very negative margins nor
    loses the tiny values of very positive ones. It is positive for every margin.

    Parameters
    ----------
    margins : array_like
        Functional margins ``y (w.x + b)``, finite.

    Returns
    -------
    ndarray of the same shape

    Raises
    ------
    ValueError
        If a margin is not a finite number.

    Examples
    --------
    >>> logistic_loss([-1000.0, 0.0]).round(6).tolist()
    [1000.0, 0.693147]
    """
    return _logistic_values(check_margins(margins))


# The three losses on trusted margins (finite float64, checked by the caller): the public
# functions above and below and perceptron.sgd compute them here, after checking their input once.
def _perceptron_values(m: Floats) -> Floats:
    return np.maximum(0.0, -m) + 0.0  # + 0.0 turns the -0.0 of m = 0 into 0.0


def _hinge_values(m: Floats, target: float = 1.0) -> Floats:
    # The hinge at margin ``target``: how far each margin falls short of it (the slacks of
    # perceptron.online's bounds, whose target is gamma).
    out = np.subtract(target, m)
    if isinstance(out, np.ndarray):  # in place: one array of m's size, not two
        return np.maximum(0.0, out, out=out)
    return np.maximum(0.0, out)  # m of shape (): a NumPy scalar, as before


def _logistic_values(m: Floats) -> Floats:
    return np.logaddexp(0.0, -m)


_LOSS_VALUES: dict[str, Callable[[Floats], Floats]] = {
    "perceptron": _perceptron_values,
    "hinge": _hinge_values,
    "logistic": _logistic_values,
}


def loss_slope(margins: ArrayLike, loss: str = "perceptron") -> NDArray[np.float64]:
    """Return the slope ``L'(m)`` that SGD uses, a subderivative of the loss at every margin.

    Where the loss is differentiable this is its derivative. At the kink (``m = 0`` for the
    perceptron loss, ``m = 1`` for the hinge) every number in ``[-1, 0]`` is a subderivative;
    the function returns ``-1``, so a point with score 0 is treated as a mistake.

    Parameters
    ----------
    margins : array_like
        Functional margins, finite.
    loss : {"perceptron", "hinge", "logistic"}, default "perceptron"

    Returns
    -------
    ndarray of the same shape, values in [-1, 0]

    Raises
    ------
    ValueError
        On an unknown loss or a non-finite margin.

    Examples
    --------
    >>> loss_slope([-1.0, 0.0, 0.5, 2.0], "perceptron").tolist()
    [-1.0, -1.0, 0.0, 0.0]
    >>> loss_slope([-1.0, 0.0, 1.0, 2.0], "hinge").tolist()
    [-1.0, -1.0, -1.0, 0.0]
    >>> loss_slope([0.0], "logistic").tolist()
    [-0.5]
    """
    name = check_loss(loss)
    return _slopes(check_margins(margins), name)


def _slopes(m: Floats, name: str) -> Floats:
    """:func:`loss_slope` on trusted margins and a known loss name."""
    if name == "perceptron":
        return np.where(m <= 0.0, -1.0, 0.0)
    if name == "hinge":
        return np.where(m <= 1.0, -1.0, 0.0)
    return -expit(-m)


# Scalar twins of loss_slope for the sample-by-sample loop (numpy calls on scalars are slow).
# tests/package/test_losses.py checks that they agree with loss_slope; perceptron.sgd steps with them.
def _slope_perceptron(m: float) -> float:
    return -1.0 if m <= 0.0 else 0.0


def _slope_hinge(m: float) -> float:
    return -1.0 if m <= 1.0 else 0.0


def _slope_logistic(m: float) -> float:
    if m >= 0.0:  # exp(-m) <= 1: no overflow
        e = math.exp(-m)
        return -e / (1.0 + e)
    return -1.0 / (1.0 + math.exp(m))


_SCALAR_SLOPES: dict[str, Callable[[float], float]] = {
    "perceptron": _slope_perceptron,
    "hinge": _slope_hinge,
    "logistic": _slope_logistic,
}


# --- losses and subgradients of a classifier on a dataset --------------------------------------


def _margins(X: ArrayLike, y: ArrayLike, w: ArrayLike, b: float) -> tuple[Floats, Floats, Floats]:
    """Validated X and y and the functional margins y_i (w.x_i + b)."""
    Xa = check_X(X)
    ya = check_signs(y, Xa.shape[0])
    wa = check_w(w, Xa.shape[1])
    return Xa, ya, ya * (Xa @ wa + check_scalar(b, "b"))


def total_loss(
    X: ArrayLike, y: ArrayLike, w: ArrayLike, b: float = 0.0, *, loss: str = "perceptron"
) -> float:
    """Return ``sum_i L(y_i (w.x_i + b))``, the loss of the classifier ``(w, b)`` on the data.

    Parameters
    ----------
    X : array_like of shape (n_samples, n_features)
    y : array_like of shape (n_samples,), labels in {-1, +1}
    w : array_like of shape (n_features,)
    b : float, default 0.0
    loss : {"perceptron", "hinge", "logistic"}, default "perceptron"

    Returns
    -------
    float

    Raises
    ------
    ValueError
        On invalid data or weights, or an unknown loss.

    Examples
    --------
    >>> X, y = [[1.0, 0.0], [-1.0, 0.0]], [1, 1]
    >>> total_loss(X, y, [1.0, 0.0], loss="hinge")
    2.0
    """
    name = check_loss(loss)
    _, _, m = _margins(X, y, w, b)
    return float(np.sum(_LOSS_VALUES[name](m)))


def perceptron_criterion(X: ArrayLike, y: ArrayLike, w: ArrayLike, b: float = 0.0) -> float:
    """Return the perceptron criterion ``E(w, b) = -sum over mistakes of y_i (w.x_i + b)``.

    The sum runs over the points with ``y_i (w.x_i + b) <= 0``; points exactly on the hyperplane
    add 0, so this equals ``sum_i max(0, -y_i (w.x_i + b))``. It is never negative, it is 0 for
    every separating ``(w, b)`` and also for ``w = 0, b = 0``: that trivial minimiser is why
    minimising ``E`` alone does not find a separating hyperplane.

    Parameters
    ----------
    X : array_like of shape (n_samples, n_features)
    y : array_like of shape (n_samples,), labels in {-1, +1}
    w : array_like of shape (n_features,)
    b : float, default 0.0

    Returns
    -------
    float

    Raises
    ------
    ValueError
        On invalid data or weights.

    References
    ----------
    .. [1] C. M. Bishop, *Pattern Recognition and Machine Learning*, Springer, 2006, sec. 4.1.7.

    Examples
    --------
    >>> X, y = [[2.0, 0.0], [-1.0, 0.0]], [1, 1]
    >>> perceptron_criterion(X, y, [1.0, 0.0])
    1.0
    >>> perceptron_criterion(X, y, [0.0, 0.0])
    0.0
    """
    return total_loss(X, y, w, b, loss="perceptron")


def loss_subgradient(
    X: ArrayLike, y: ArrayLike, w: ArrayLike, b: float = 0.0, *, loss: str = "perceptron"
) -> tuple[NDArray[np.float64], float]:
    """Return a subgradient ``(g_w, g_b)`` of ``(w, b) -> sum_i L(y_i (w.x_i + b))``.

    It is ``sum_i L'(m_i) y_i (x_i, 1)`` with the slopes of :func:`loss_slope`, so at a kink
    the slope ``-1`` is used. Pass a single row to get the per-example subgradient that one
    SGD step uses.

    Parameters
    ----------
    X : array_like of shape (n_samples, n_features)
    y : array_like of shape (n_samples,), labels in {-1, +1}
    w : array_like of shape (n_features,)
    b : float, default 0.0
    loss : {"perceptron", "hinge", "logistic"}, default "perceptron"

    Returns
    -------
    g_w : ndarray of shape (n_features,)
    g_b : float

    Raises
    ------
    ValueError
        On invalid data or weights, or an unknown loss.

    Examples
    --------
    >>> g_w, g_b = loss_subgradient([[1.0, 2.0]], [1], [0.0, 0.0])  # score 0: the kink
    >>> g_w.tolist(), g_b
    ([-1.0, -2.0], -1.0)
    """
    name = check_loss(loss)
    Xa, ya, m = _margins(X, y, w, b)
    coef = _slopes(m, name) * ya
    return coef @ Xa, float(np.sum(coef))
