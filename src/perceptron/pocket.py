"""Gallant's pocket algorithm with ratchet: the perceptron for data that are not separable.

On data that no hyperplane separates, the perceptron never settles: its weights keep cycling and
the last ones can be arbitrarily bad. The pocket algorithm runs the same updates but keeps, "in
its pocket", the best weights seen so far, and returns those.

Which variant, and why
----------------------
Gallant [1]_ gives two rules for when to swap the pocket. The original one counts the *run
length* of the current weights (consecutive correctly classified random samples) and swaps when
it beats the pocket's run; the *ratchet* adds a second test, so that a swap happens only when the
candidate also makes strictly fewer errors on the whole training set. Run lengths are a cheap,
noisy proxy for that error count: they decide which candidates get evaluated at all.

This module uses the exact form of the ratchet instead: every time an update produces new
weights, their training errors are counted, and they go into the pocket when they make strictly
fewer errors than the pocket. The reasons:

* the weights change only at updates, so this evaluates *every* weight vector the perceptron
  visits, and the pocket is the best of them: the run-length rule only evaluates a subset of the
  same candidates, so it can never end with fewer errors than this rule on the same run;
* the result depends on the visiting order alone, not on a second random stream of run lengths,
  which keeps the book's examples reproducible and easy to explain;
* counting errors costs ``O(n d)`` per update, which is small at the sizes the course uses
  (thousands of points); Gallant's proxy was designed for far slower machines.

Both guarantees hold by construction: the pocket's error count never increases (it changes only
to a strictly smaller value), and on separable data the loop stops after a clean pass, whose
weights make zero errors and therefore sit in the pocket.

References
----------
.. [1] S. I. Gallant, "Perceptron-based learning algorithms", IEEE Transactions on Neural
   Networks 1(2), 179-191, 1990.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._core import count_errors, diverged, overflow_raises, prepare_run, sequential_dot
from .results import TrainResult, Update


def pocket(
    X: ArrayLike,
    y: ArrayLike,
    *,
    eta: float = 1.0,
    bias: str = "one",
    max_epochs: int = 100,
    shuffle: bool = True,
    seed: int | np.random.Generator | None = 0,
    record: bool = False,
) -> TrainResult:
    """Train a perceptron and return the weights with the fewest training errors it visited.

    The perceptron runs exactly as in :func:`~perceptron.train` (start at ``w = 0, b = 0``; on a
    mistake ``y_i (w.x_i + b) <= 0`` add ``eta * y_i * x_i`` to ``w`` and update ``b`` as ``bias``
    says). After every update the new weights' training errors are counted with the same mistake
    rule; they replace the pocketed weights only when they make *strictly* fewer errors (the
    ratchet), so the pocket never gets worse. The pocket starts as the zero weights, which get
    every point wrong under the mistake rule. The loop stops after the first pass without a
    mistake or after ``max_epochs`` passes.

    Parameters
    ----------
    X : array_like of shape (n_samples, n_features)
        Training points, finite.
    y : array_like of shape (n_samples,)
        Labels, each -1 or +1, both present.
    eta : float, default 1.0
        Learning rate, > 0. From the zero start it only rescales the weights.
    bias : {"one", "radius", "none"}, default "one"
        How the bias is learned, as in :func:`~perceptron.train`.
    max_epochs : int, default 100
        Largest number of passes, >= 1.
    shuffle : bool, default True
        Visit the samples in a fresh random permutation every pass. Gallant's algorithm draws
        every sample independently at random, and his pocket convergence theorem is proved for
        that sampling, not for this one; on data that are not separable a fixed order can lock
        the perceptron into a short cycle of weights.
    seed : int or numpy.random.Generator, default 0
        Source of the permutations when ``shuffle`` is True.
    record : bool, default False
        Keep in ``history`` one :class:`~perceptron.Update` per change of the pocket: the epoch,
        the index of the point whose update produced the new pocket, and the pocketed ``(w, b)``.

    Returns
    -------
    TrainResult
        ``w`` and ``b`` are the pocketed weights and ``errors`` their training errors;
        ``mistakes`` counts the perceptron's updates, ``epochs`` its passes, and ``converged`` is
        True when a pass made no mistake (then ``errors == 0``).

    Raises
    ------
    ValueError
        On invalid data, labels other than -1/+1, ``eta <= 0``, ``max_epochs < 1``, an unknown
        ``bias``, or when the weights overflow.

    See Also
    --------
    train : the perceptron itself, which returns its last weights.
    averaged : another remedy for data that are not separable.

    Examples
    --------
    Two overlapping Gaussian classes: the perceptron's last weights err on 6 of the 100 points,
    the pocketed ones on 3.

    >>> from perceptron import train
    >>> from perceptron.datasets import make_overlapping
    >>> X, y = make_overlapping(100, separation=3.0, seed=0)
    >>> train(X, y, max_epochs=10).errors
    6
    >>> result = pocket(X, y, max_epochs=10, seed=0)
    >>> result.converged, result.errors
    (False, 3)
    """
    Xa, ya, eta, step_b, max_epochs, next_order = prepare_run(X, y, eta, bias, max_epochs, shuffle, seed)

    with overflow_raises("a score or the weights"):
        return _pocket_loop(Xa, ya, eta, step_b, max_epochs, next_order, record)


def _pocket_loop(
    X: NDArray[np.float64],
    y: NDArray[np.float64],
    eta: float,
    step_b: float,
    max_epochs: int,
    next_order: Callable[[], NDArray[np.intp]],
    record: bool,
) -> TrainResult:
    """The perceptron loop with a ratcheted pocket. Inputs are trusted (validated by pocket)."""
    if X.shape[1] <= _FEW_FEATURES:
        return _pocket_loop_floats(X, y, eta, step_b, max_epochs, next_order, record)
    w = np.zeros(X.shape[1])
    b = 0.0
    best_w, best_b = w.copy(), b
    best_errors = X.shape[0]  # the zero start scores 0 everywhere: every point is a mistake
    history: list[Update] = []
    mistakes = 0
    epoch = 0
    clean = False
    while epoch < max_epochs and not clean:
        epoch += 1
        clean = True
        for i in next_order():
            # Added left to right, as train and scikit-learn do: a score within rounding of 0
            # then falls on the same side in all three.
            score = sequential_dot(X[i], w) + b
            if not math.isfinite(score):
                raise diverged("a score")
            if y[i] * score > 0:
                continue
            w += (eta * y[i]) * X[i]
            b += float(y[i]) * step_b
            if not (np.isfinite(w).all() and math.isfinite(b)):
                raise diverged("the weights")  # before inf/NaN weights could reach the pocket
            mistakes += 1
            clean = False
            errors = count_errors(X, y, w, b)
            if errors < best_errors:  # the ratchet: strictly fewer errors, or keep the pocket
                best_w, best_b, best_errors = w.copy(), float(b), errors
                if record:
                    history.append(Update(epoch, int(i), best_w.copy(), best_b))
    return TrainResult(
        w=best_w,
        b=best_b,
        mistakes=mistakes,
        epochs=epoch,
        converged=clean,
        history=tuple(history),
        errors=best_errors,
    )


# Up to this many features, _pocket_loop_floats runs the loop on Python floats (several times
# faster: a numpy call costs more than a few float operations).
_FEW_FEATURES = 8


def _pocket_loop_floats(
    X: NDArray[np.float64],
    y: NDArray[np.float64],
    eta: float,
    step_b: float,
    max_epochs: int,
    next_order: Callable[[], NDArray[np.intp]],
    record: bool,
) -> TrainResult:
    """:func:`_pocket_loop` on Python floats, for few features: the same run, bit for bit.

    Every operation is the one the numpy loop makes, on the same IEEE 754 doubles: the products
    ``x_j w_j`` added left to right, then ``b``; the update ``w_j + (eta y_i) x_ij``. Python's
    float arithmetic does not raise on overflow, so a score or weight that is not finite hands the
    step back to numpy, which raises exactly as :func:`_pocket_loop` does.
    """
    rows, labels = X.tolist(), y.tolist()
    d = X.shape[1]
    w = [0.0] * d
    b = 0.0
    best_w, best_b = np.zeros(d), b
    best_errors = X.shape[0]  # the zero start scores 0 everywhere: every point is a mistake
    history: list[Update] = []
    mistakes = 0
    epoch = 0
    clean = False
    while epoch < max_epochs and not clean:
        epoch += 1
        clean = True
        for i in next_order():
            x = rows[i]
            score = x[0] * w[0]
            for j in range(1, d):
                score += x[j] * w[j]
            score += b
            if not math.isfinite(score):
                score = sequential_dot(X[i], np.array(w)) + b  # raises where numpy overflows
                raise diverged("a score")
            y_i = labels[i]
            if y_i * score > 0:
                continue
            step = eta * y_i
            new_w = [w_j + step * x_j for w_j, x_j in zip(w, x)]
            b += y_i * step_b
            if not (all(map(math.isfinite, new_w)) and math.isfinite(b)):
                np.array(w) + step * X[i]  # raises where numpy overflows
                raise diverged("the weights")
            w = new_w
            mistakes += 1
            clean = False
            w_array = np.array(w)
            errors = count_errors(X, y, w_array, b)
            if errors < best_errors:  # the ratchet: strictly fewer errors, or keep the pocket
                best_w, best_b, best_errors = w_array, float(b), errors
                if record:
                    history.append(Update(epoch, int(i), best_w.copy(), best_b))
    return TrainResult(
        w=best_w,
        b=best_b,
        mistakes=mistakes,
        epochs=epoch,
        converged=clean,
        history=tuple(history),
        errors=best_errors,
    )
