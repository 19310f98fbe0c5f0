"""Online gradient descent on the hinge loss, its regret against a fixed vector, and the perceptron
read as online gradient descent (on the hinge loss of its mistake rounds). The result is defined here,
as a frozen dataclass."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._validation import check_flag, check_positive, check_signs, check_w, check_X


@dataclass(frozen=True)
class OGDRun:
    """One pass of online gradient descent on the losses ``f_t(w) = max(0, 1 - y_t w.x_t)``.

    In perceptron mode ``f_t`` is that hinge loss on the rounds the learner errs
    (``y_t w_t.x_t <= 0``) and zero on the others.

    Attributes
    ----------
    w : ndarray of shape (T + 1, d)
        ``w[t]`` is held when example ``t`` arrives; ``w[T]`` is the last.
    losses : ndarray of shape (T,)
        ``f_t(w_t)``.
    sq_grads : ndarray of shape (T,)
        ``||g_t||^2`` of the subgradient used in round ``t`` (0 where ``f_t`` is flat at ``w_t``).
    active : ndarray of bool, shape (T,)
        The rounds on which ``f_t`` is the hinge loss (all of them, except in perceptron mode).
    mistaken : ndarray of bool, shape (T,)
        The rounds with ``y_t w_t.x_t <= 0``.
    eta : float
    X, y : ndarray
        The examples, kept to evaluate a comparator.
    """

    w: NDArray[np.float64]
    losses: NDArray[np.float64]
    sq_grads: NDArray[np.float64]
    active: NDArray[np.bool_]
    mistaken: NDArray[np.bool_]
    eta: float
    X: NDArray[np.float64]
    y: NDArray[np.float64]

    @property
    def mistakes(self) -> int:
        """The number of rounds with ``y_t w_t.x_t <= 0``."""
        return int(self.mistaken.sum())

    def comparator_loss(self, u: ArrayLike) -> float:
        """``sum_t f_t(u)``: the loss a fixed ``u`` would have suffered on the same rounds."""
        ua = check_w(u, self.X.shape[1], name="u")
        return float(np.sum(np.maximum(0.0, 1.0 - self.y * (self.X @ ua))[self.active]))

    def regret(self, u: ArrayLike) -> float:
        """``sum_t f_t(w_t) - sum_t f_t(u)``."""
        return float(self.losses.sum()) - self.comparator_loss(u)

    def regret_bound(self, u: ArrayLike) -> float:
        """``||u||^2 / (2 eta) + (eta / 2) sum_t ||g_t||^2``, which the regret against ``u`` never exceeds."""
        ua = check_w(u, self.X.shape[1], name="u")
        return float(ua @ ua / (2 * self.eta) + self.eta / 2 * self.sq_grads.sum())


def online_gradient_descent(X: ArrayLike, y: ArrayLike, eta: float, *, perceptron: bool = False) -> OGDRun:
    """Run online gradient descent on the hinge loss, from ``w = 0``, with a fixed step ``eta``.

    Round ``t``: hold ``w_t``, suffer ``f_t(w_t)``, step ``w_{t+1} = w_t - eta g_t`` along a subgradient
    ``g_t`` of ``f_t`` at ``w_t`` (the book's ``w^(t)``; ``f_t`` may depend on ``w_t``): ``-y_t x_t`` where ``y_t w_t.x_t < 1`` (``f_t`` active), else 0. With
    ``perceptron=True``, ``f_t`` is active only on the mistake rounds ``y_t w_t.x_t <= 0``: the step is
    then the perceptron's update, and the run is the perceptron without bias with learning rate ``eta``.

    Parameters
    ----------
    X : array_like of shape (T, d)
        The points in the order they arrive (append a constant column for a bias).
    y : array_like of shape (T,), labels in {-1, +1}
    eta : float
        The step size, > 0.
    perceptron : bool, default False

    Returns
    -------
    OGDRun

    Raises
    ------
    ValueError
        On invalid data or ``eta <= 0``.

    References
    ----------
    M. Zinkevich, "Online convex programming and generalized infinitesimal gradient ascent",
    ICML 2003; S. Shalev-Shwartz, Foundations and Trends in Machine Learning 4(2), 2012, section 2.4
    and 3.3.

    Examples
    --------
    >>> run = online_gradient_descent([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0]], [1, -1, 1], 0.5)
    >>> run.losses.tolist(), run.w[-1].tolist()
    ([1.0, 1.0, 0.5], [1.0, -0.5])
    >>> run.regret([2.0, -2.0]) <= run.regret_bound([2.0, -2.0])
    True
    """
    Xa = check_X(X)
    ya = check_signs(y, Xa.shape[0])
    eta = check_positive(eta, "eta")
    perceptron = check_flag(perceptron, "perceptron")
    T, d = Xa.shape
    W = np.zeros((T + 1, d))
    losses, sq_grads = np.zeros(T), np.zeros(T)
    active, mistaken = np.ones(T, dtype=bool), np.zeros(T, dtype=bool)
    for t in range(T):
        score = ya[t] * (W[t] @ Xa[t])
        mistaken[t] = score <= 0
        if perceptron:
            active[t] = mistaken[t]
        W[t + 1] = W[t]
        if active[t]:
            losses[t] = max(0.0, 1.0 - score)
            if score < 1:
                W[t + 1] = W[t] + eta * ya[t] * Xa[t]
                sq_grads[t] = Xa[t] @ Xa[t]
    return OGDRun(w=W, losses=losses, sq_grads=sq_grads, active=active, mistaken=mistaken,
                  eta=eta, X=Xa, y=ya)


def perceptron_regret_bound(hinge: float, norm_u: float, radius: float) -> float:
    """Return ``L + ||u|| R sqrt(L) + ||u||^2 R^2``, the perceptron's mistake bound from its regret.

    For any ``u``, the perceptron without bias from ``w = 0`` makes at most this many mistakes,
    ``L`` the total hinge loss ``sum max(0, 1 - y_t u.x_t)`` of ``u`` over the rounds the perceptron
    erred on (at most its hinge loss over all rounds) and ``R`` the largest ``||x_t||`` of those
    rounds. If ``y_t u.x_t >= 1`` on every round, ``u / ||u||`` separates with margin at least
    ``1 / ||u||``, ``L = 0`` and the bound is chapter 5's ``(R / gamma)^2`` with ``gamma = 1 / ||u||``.
    The count is of mistakes (updates, ``y_t w.x_t <= 0``); the errors are at most as many.

    Parameters
    ----------
    hinge : float
        ``L >= 0``.
    norm_u : float
        ``||u|| >= 0``.
    radius : float
        ``R >= 0``.

    Raises
    ------
    ValueError
        If an argument is negative or not finite.

    References
    ----------
    S. Shalev-Shwartz, Foundations and Trends in Machine Learning 4(2), 2012, section 3.3.1.

    Examples
    --------
    >>> perceptron_regret_bound(0.0, 2.0, 3.0)  # separable with margin 1/2 at radius 3
    36.0
    >>> perceptron_regret_bound(4.0, 1.0, 1.0)
    7.0
    """
    values = []
    for value, name in ((hinge, "hinge"), (norm_u, "norm_u"), (radius, "radius")):
        try:
            v = float(value)
        except (TypeError, ValueError):
            raise ValueError(f"{name} must be a real number, got {value!r}") from None
        if not np.isfinite(v) or v < 0:
            raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")
        values.append(v)
    L, a = values[0], values[1] * values[2]
    return float(L + a * np.sqrt(L) + a * a)
