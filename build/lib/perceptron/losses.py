"""Margin losses, their subgradients, and stochastic (sub)gradient descent on them.

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
:func:`train_sgd` with ``loss="perceptron"`` and :func:`~perceptron.train` the same algorithm,
step for step. It is also scikit-learn's choice (``SGDClassifier`` uses ``m <= threshold``).

By the chain rule a subgradient of ``(w, b) -> L(y (w.x + b))`` is ``L'(m) * y * (x, 1)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.special import expit

from ._validation import (
    check_bias,
    check_epochs,
    check_positive,
    check_scalar,
    check_w,
    check_X,
    check_Xy,
)
from .results import Update
from .training import bias_scale, diverged, sequential_dot, visiting_order

LossName = Literal["perceptron", "hinge", "logistic"]
LOSS_NAMES: tuple[str, ...] = ("perceptron", "hinge", "logistic")
Floats = NDArray[np.float64]


def check_loss(loss: str) -> LossName:
    """Return ``loss`` if it names a known margin loss, else raise ValueError."""
    if loss not in LOSS_NAMES:
        raise ValueError(f"unknown loss {loss!r}; choose one of {', '.join(map(repr, LOSS_NAMES))}")
    return loss  # type: ignore[return-value]


def check_margins(margins: ArrayLike) -> NDArray[np.float64]:
    """Return margins as a finite float64 array (any shape), else raise ValueError."""
    try:
        arr = np.asarray(margins, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError("margins must be real numbers") from None
    if not np.isfinite(arr).all():
        raise ValueError("margins contain NaN or infinity")
    return arr


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
    m = check_margins(margins)
    return np.maximum(0.0, -m) + 0.0  # + 0.0 turns the -0.0 of m = 0 into 0.0


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
    m = check_margins(margins)
    return np.maximum(0.0, 1.0 - m)


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
    m = check_margins(margins)
    return np.logaddexp(0.0, -m)


_LOSS_VALUES: dict[str, Callable[[ArrayLike], NDArray[np.float64]]] = {
    "perceptron": perceptron_loss,
    "hinge": hinge_loss,
    "logistic": logistic_loss,
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
    m = check_margins(margins)
    if name == "perceptron":
        return np.where(m <= 0.0, -1.0, 0.0)
    if name == "hinge":
        return np.where(m <= 1.0, -1.0, 0.0)
    return -expit(-m)


# Scalar twins of loss_slope for the sample-by-sample loop (numpy calls on scalars are slow).
# tests/test_losses.py checks that they agree with loss_slope.
def _slope_perceptron(m: float) -> float:
    return -1.0 if m <= 0.0 else 0.0


def _slope_hinge(m: float) -> float:
    return -1.0 if m <= 1.0 else 0.0


def _slope_logistic(m: float) -> float:
    if m >= 0.0:  # exp(-m) <= 1: no overflow
        e = math.exp(-m)
        return -e / (1.0 + e)
    return -1.0 / (1.0 + math.exp(m))


SCALAR_SLOPES: dict[str, Callable[[float], float]] = {
    "perceptron": _slope_perceptron,
    "hinge": _slope_hinge,
    "logistic": _slope_logistic,
}


# --- losses and subgradients of a classifier on a dataset --------------------------------------


def _check_signs(y: ArrayLike, n_samples: int) -> NDArray[np.float64]:
    """Labels in {-1, +1} as float64; unlike training, a loss is defined for one class too."""
    try:
        arr = np.asarray(y, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError("y must hold the numbers -1 and +1, got non-numeric labels") from None
    if arr.shape != (n_samples,):
        raise ValueError(f"y must have shape ({n_samples},) to match X, got shape {arr.shape}")
    if not np.isin(arr, (-1.0, 1.0)).all():
        raise ValueError("y must contain only the labels -1 and +1")
    return arr


def _margins(X: ArrayLike, y: ArrayLike, w: ArrayLike, b: float) -> tuple[Floats, Floats, Floats]:
    """Validated X and y and the functional margins y_i (w.x_i + b)."""
    Xa = check_X(X)
    ya = _check_signs(y, Xa.shape[0])
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
    coef = loss_slope(m, name) * ya
    return coef @ Xa, float(np.sum(coef))


# --- stochastic gradient descent ----------------------------------------------------------------


@dataclass(frozen=True)
class SGDResult:
    """What :func:`train_sgd` returns.

    Attributes
    ----------
    w : ndarray of shape (n_features,)
        Final weights.
    b : float
        Final bias.
    updates : int
        Number of steps that changed ``(w, b)`` (a non-zero slope). For the perceptron loss these
        are the mistakes; for the hinge, the points with margin ``<= 1`` when visited.
    epochs : int
        Passes over the data, the final pass without a step included.
    converged : bool
        True when the last pass made no step (every visited margin had slope 0).
    losses : tuple of float
        The total loss ``sum_i L(m_i)`` of the data after each pass.
    history : tuple of Update
        Every step that changed ``(w, b)``, in order, when run with ``record=True``; else empty.
    """

    w: NDArray[np.float64]
    b: float
    updates: int
    epochs: int
    converged: bool
    losses: tuple[float, ...]
    history: tuple[Update, ...] = field(default=(), repr=False)


def train_sgd(
    X: ArrayLike,
    y: ArrayLike,
    *,
    loss: str = "hinge",
    eta: float = 1.0,
    bias: str = "one",
    w0: ArrayLike | None = None,
    b0: float = 0.0,
    max_epochs: int = 100,
    shuffle: bool = False,
    seed: int | np.random.Generator | None = None,
    record: bool = False,
) -> SGDResult:
    """Minimise ``sum_i L(y_i (w.x_i + b))`` by stochastic subgradient descent with a constant step.

    Each step visits one sample, computes its margin ``m`` with the current ``(w, b)`` and moves
    against the per-example subgradient ``L'(m) y (x, c)``: ``w -= eta L'(m) y x`` and, as in
    :func:`~perceptron.train`, ``b -= eta L'(m) y c**2`` with ``c`` fixed by ``bias``. Training
    stops after a pass that made no step or after ``max_epochs`` passes.

    With ``loss="perceptron"`` this is Rosenblatt's perceptron: the result has the same ``w``,
    ``b``, steps and history as :func:`~perceptron.train` with the same arguments, bit for bit.

    Parameters
    ----------
    X : array_like of shape (n_samples, n_features)
        Training points, finite.
    y : array_like of shape (n_samples,)
        Labels, each -1 or +1, both present.
    loss : {"perceptron", "hinge", "logistic"}, default "hinge"
        The margin loss; see the module docstring for the slopes used at the kinks.
    eta : float, default 1.0
        Constant step size, > 0.
    bias : {"one", "radius", "none"}, default "one"
        How the bias is learned, as in :func:`~perceptron.train` (augment with 1, with
        ``R = max_i ||x_i||``, or not at all).
    w0 : array_like of shape (n_features,), optional
        Starting weights; zeros when omitted.
    b0 : float, default 0.0
        Starting bias.
    max_epochs : int, default 100
        Largest number of passes, >= 1.
    shuffle : bool, default False
        Visit the samples in a fresh random permutation every pass.
    seed : int or numpy.random.Generator, optional
        Source of the permutations when ``shuffle`` is True (the same permutations as
        :func:`~perceptron.train` draws from the same seed).
    record : bool, default False
        Keep every step that changed ``(w, b)`` in ``history``.

    Returns
    -------
    SGDResult

    Raises
    ------
    ValueError
        On invalid data, an unknown ``loss`` or ``bias``, ``eta <= 0``, ``max_epochs < 1``, or
        when the weights or scores overflow.

    See Also
    --------
    perceptron.train : the perceptron, i.e. this function with ``loss="perceptron"``.

    Examples
    --------
    >>> X = [[2.0, 1.0], [1.0, 3.0], [-1.0, -1.0], [-2.0, 1.0]]
    >>> y = [1, 1, -1, -1]
    >>> r = train_sgd(X, y, loss="perceptron")
    >>> r.w.tolist(), r.b, r.updates, r.converged
    ([2.0, 1.0], 1.0, 1, True)
    >>> r = train_sgd(X, y, loss="hinge", eta=0.1)
    >>> bool(np.all(np.asarray(y) * (np.asarray(X) @ r.w + r.b) > 1)), r.converged
    (True, True)
    """
    Xa, ya = check_Xy(X, y)
    name = check_loss(loss)
    eta = check_positive(eta, "eta")
    mode = check_bias(bias)
    max_epochs = check_epochs(max_epochs)
    w = np.zeros(Xa.shape[1]) if w0 is None else check_w(w0, Xa.shape[1], name="w0").copy()
    b = check_scalar(b0, "b0")
    c2 = bias_scale(Xa, mode) ** 2
    next_order = visiting_order(Xa.shape[0], shuffle, seed)
    slope = SCALAR_SLOPES[name]
    value = _LOSS_VALUES[name]

    updates, epoch, clean = 0, 0, False
    losses: list[float] = []
    history: list[Update] = []
    # Overflow is detected below and reported as a ValueError, so numpy need not warn about it.
    with np.errstate(over="ignore", invalid="ignore"):
        while epoch < max_epochs and not clean:
            epoch += 1
            clean = True
            for i in next_order():
                score = sequential_dot(Xa[i], w) + b  # the rounding perceptron.train uses
                if not math.isfinite(score):
                    raise diverged("a score")
                s = slope(ya[i] * score)
                if s != 0.0:
                    # A step against the subgradient L'(m) y (x, c); the products are grouped as in
                    # perceptron.train so that loss="perceptron" reproduces it exactly.
                    step = -eta * s
                    w += (step * ya[i]) * Xa[i]
                    b += ya[i] * (step * c2)
                    updates += 1
                    clean = False
                    if record:
                        history.append(Update(epoch, int(i), w.copy(), b))
            if not (np.isfinite(w).all() and math.isfinite(b)):
                raise diverged("the weights")
            m = ya * (Xa @ w + b)
            if not np.isfinite(m).all():
                raise diverged("a score")
            losses.append(float(np.sum(value(m))))
    return SGDResult(w=w, b=float(b), updates=updates, epochs=epoch, converged=clean, losses=tuple(losses),
                     history=tuple(history))
