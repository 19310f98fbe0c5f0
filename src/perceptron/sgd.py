"""Stochastic (sub)gradient descent on the margin losses of :mod:`perceptron.losses`.

With the perceptron loss and its slope -1 at the kink, the step is Rosenblatt's update: the
function below then makes the same updates as :func:`~perceptron.train`, bit for bit, because it
scores a point with the same left-to-right sum (:func:`perceptron._core.sequential_dot`) and
groups the products of an update the same way.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from ._core import bias_scale, diverged, sequential_dot, visiting_order
from ._validation import check_bias, check_epochs, check_loss, check_positive, check_scalar, check_w, check_Xy
from .losses import _LOSS_VALUES, _SCALAR_SLOPES
from .results import SGDResult, Update


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
    against the per-example subgradient ``L'(m) y (x, kappa)``: ``w -= eta L'(m) y x`` and, as in
    :func:`~perceptron.train`, ``b -= eta L'(m) y kappa**2`` with ``kappa`` fixed by ``bias``. Training
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
        ``w``, ``b``, ``updates``, ``epochs``, ``converged``, ``losses`` and ``history``.

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
    kappa = bias_scale(Xa, mode)
    kappa2 = kappa * kappa  # as _core.prepare_run: a correctly rounded product, not libm's pow
    next_order = visiting_order(Xa.shape[0], shuffle, seed)
    slope = _SCALAR_SLOPES[name]
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
                    # A step against the subgradient L'(m) y (x, kappa); the products are grouped as in
                    # perceptron.train so that loss="perceptron" reproduces it exactly.
                    step = -eta * s
                    w += (step * ya[i]) * Xa[i]
                    b += ya[i] * (step * kappa2)
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
