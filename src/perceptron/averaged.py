"""The averaged and the voted perceptron: combine every weight vector the perceptron visits.

Both run the ordinary perceptron for a fixed number of passes ``T = max_epochs`` and record, for
every weight vector ``(w_k, b_k)`` it holds, its *survival count* ``nu_k``: the number of sample
visits after which it was the current vector (the visit that created it included, as in Freund and
Schapire's algorithm [1]_). The counts add up to ``n * T``.

* The **voted** perceptron classifies by a vote of the vectors, each weighted by its count:
  ``sgn(sum_k nu_k sgn(w_k.x + b_k))``.
* The **averaged** perceptron [1]_, [2]_ replaces the vote by the single hyperplane
  ``w_avg = sum_k nu_k w_k / (n T)``, ``b_avg = sum_k nu_k b_k / (n T)``: the plain mean of the
  weights held after each of the ``n T`` sample visits. This is also what scikit-learn computes
  with ``SGDClassifier(loss="perceptron", learning_rate="constant", eta0=1.0, penalty=None,
  average=True, shuffle=False, tol=None, max_iter=T)``, bias ``"one"``; its ``Perceptron`` has no
  ``average`` option.

The number of passes is fixed, as in [1]_ and [2]_: a pass without a mistake does not end the run
early, because the remaining passes still weigh the average. Those passes cannot change the
weights, though, so they are not replayed: their ``n`` visits per pass are credited to the final
vector directly, which gives exactly the same counts.

References
----------
.. [1] Y. Freund and R. E. Schapire, "Large margin classification using the perceptron
   algorithm", Machine Learning 37(3), 277-296, 1999.
.. [2] M. Collins, "Discriminative training methods for hidden Markov models: theory and
   experiments with perceptron algorithms", EMNLP 2002.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._core import count_errors, diverged, overflow_raises, prepare_run, sequential_dot, sgn
from ._validation import check_X
from .results import TrainResult

# One weight vector the perceptron held: (w_k, b_k, nu_k).
Survivor = tuple[NDArray[np.float64], float, int]


@dataclass(frozen=True)
class VotedPerceptron:
    """Freund and Schapire's voted perceptron: weight vectors and their survival counts.

    Attributes
    ----------
    vectors : tuple of (ndarray of shape (n_features,), float, int)
        Every weight vector ``(w_k, b_k, nu_k)`` the perceptron held, in order, with ``nu_k >= 1``
        the number of sample visits it survived (the zero start, which never survives a visit,
        is left out).
    """

    vectors: tuple[Survivor, ...]

    def predict(self, X: ArrayLike) -> NDArray[np.int64]:
        """Classify ``X`` by the count-weighted vote ``sgn(sum_k nu_k sgn(w_k.x + b_k))``.

        Both signs follow the book's convention sgn(0) = +1: a vector whose score is exactly 0
        votes +1, and a tied vote predicts +1.

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,) with values in {-1, +1}

        Raises
        ------
        ValueError
            If ``X`` is not a finite 2-D array with as many features as the training data.
        """
        Xa = check_X(X)
        W = np.stack([w for w, _, _ in self.vectors])
        if Xa.shape[1] != W.shape[1]:
            raise ValueError(f"X has {Xa.shape[1]} features but the perceptron was trained on {W.shape[1]}")
        b = np.array([b for _, b, _ in self.vectors])
        counts = np.array([c for _, _, c in self.vectors])
        votes = sgn(Xa @ W.T + b)  # shape (n_samples, n_vectors)
        return sgn(votes @ counts)


def _survivors(
    X: NDArray[np.float64],
    y: NDArray[np.float64],
    eta: float,
    step_b: float,
    max_epochs: int,
    next_order: Callable[[], NDArray[np.intp]],
) -> tuple[list[Survivor], int, bool]:
    """Run the perceptron for ``max_epochs`` passes; return its vectors with survival counts.

    Also returns the number of updates and whether the last pass was clean. Inputs are trusted.
    """
    with overflow_raises("a score or the weights"):
        return _survivor_loop(X, y, eta, step_b, max_epochs, next_order)


def _survivor_loop(
    X: NDArray[np.float64],
    y: NDArray[np.float64],
    eta: float,
    step_b: float,
    max_epochs: int,
    next_order: Callable[[], NDArray[np.intp]],
) -> tuple[list[Survivor], int, bool]:
    """The loop of :func:`_survivors`."""
    n = X.shape[0]
    w = np.zeros(X.shape[1])
    b = 0.0
    count = 0  # visits survived so far by the current (w, b)
    survivors: list[Survivor] = []
    mistakes = 0
    clean = False
    for epoch in range(1, max_epochs + 1):
        clean = True
        for i in next_order():
            # Added left to right, as train and scikit-learn do: a score within rounding of 0
            # then falls on the same side in all three.
            score = sequential_dot(X[i], w) + b
            if not math.isfinite(score):
                raise diverged("a score")
            if y[i] * score <= 0:
                if count:
                    survivors.append((w, b, count))
                w = w + (eta * y[i]) * X[i]  # a new array: the recorded one must not change
                b += float(y[i]) * step_b
                count = 0
                mistakes += 1
                clean = False
            count += 1  # the current vector survives this visit (F&S: a new vector starts at 1)
        if not (np.isfinite(w).all() and math.isfinite(b)):
            raise diverged("the weights")
        if clean:
            # No later pass can make a mistake; credit its visits without replaying them.
            count += n * (max_epochs - epoch)
            break
    survivors.append((w, b, count))
    return survivors, mistakes, clean


def averaged(
    X: ArrayLike,
    y: ArrayLike,
    *,
    eta: float = 1.0,
    bias: str = "one",
    max_epochs: int = 10,
    shuffle: bool = False,
    seed: int | np.random.Generator | None = None,
) -> TrainResult:
    """Train the averaged perceptron: the mean of the weights after every sample visit.

    The perceptron of :func:`~perceptron.train` (zero start, update on ``y_i (w.x_i + b) <= 0``)
    runs for exactly ``max_epochs`` passes; writing ``(w_t, b_t)`` for its weights right after
    the ``t``-th sample visit (updated or not), the result is

    ``w = (1 / (n T)) * sum_{t=1}^{n T} w_t``  and  ``b = (1 / (n T)) * sum_{t=1}^{n T} b_t``

    with ``T = max_epochs``. Passes after a clean one are accounted for without being replayed
    (they cannot change the weights).

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
    max_epochs : int, default 10
        The number of passes ``T`` the average runs over, >= 1.
    shuffle : bool, default False
        Visit the samples in a fresh random permutation every pass.
    seed : int or numpy.random.Generator, optional
        Source of the permutations when ``shuffle`` is True.

    Returns
    -------
    TrainResult
        ``w``, ``b``: the averaged weights; ``errors``: their training errors (mistake rule);
        ``mistakes``: the perceptron's updates; ``epochs``: ``max_epochs``, the passes averaged
        over; ``converged``: True when the perceptron's own weights had a clean pass (the
        averaged weights may still err on training points, see ``errors``). ``history`` is empty.

    Raises
    ------
    ValueError
        On invalid data, labels other than -1/+1, ``eta <= 0``, ``max_epochs < 1``, an unknown
        ``bias``, or when the weights overflow.

    See Also
    --------
    voted : keeps the vectors and lets them vote instead of averaging them.
    train : the perceptron, which returns its last weights.

    Examples
    --------
    Two points on a line. The first visit is a mistake and gives ``(w, b) = (2, 1)``, which
    classifies both points, so every one of the ``2 * 3`` visits ends with ``(2, 1)``:

    >>> result = averaged([[2.0], [-1.0]], [1, -1], max_epochs=3)
    >>> result.w.tolist(), result.b, result.mistakes, result.converged
    ([2.0], 1.0, 1, True)
    """
    Xa, ya, eta, step_b, max_epochs, next_order = prepare_run(X, y, eta, bias, max_epochs, shuffle, seed)
    survivors, mistakes, clean = _survivors(Xa, ya, eta, step_b, max_epochs, next_order)
    counts = np.array([c for _, _, c in survivors], dtype=np.float64)
    total = counts.sum()  # == n * max_epochs
    with overflow_raises("the sum of the weights"):
        w = counts @ np.stack([wk for wk, _, _ in survivors]) / total
        b = float(counts @ np.array([bk for _, bk, _ in survivors]) / total)
    return TrainResult(
        w=w,
        b=b,
        mistakes=mistakes,
        epochs=max_epochs,
        converged=clean,
        errors=count_errors(Xa, ya, w, b),
    )


def voted(
    X: ArrayLike,
    y: ArrayLike,
    *,
    eta: float = 1.0,
    bias: str = "one",
    max_epochs: int = 10,
    shuffle: bool = False,
    seed: int | np.random.Generator | None = None,
) -> VotedPerceptron:
    """Train Freund and Schapire's voted perceptron.

    Runs the same perceptron as :func:`averaged` for exactly ``max_epochs`` passes and keeps
    every weight vector it held with its survival count ``nu_k`` (the number of sample visits
    after which it was the current vector). The model predicts ``sgn(sum_k nu_k sgn(w_k.x + b_k))``.

    Parameters
    ----------
    X : array_like of shape (n_samples, n_features)
        Training points, finite.
    y : array_like of shape (n_samples,)
        Labels, each -1 or +1, both present.
    eta : float, default 1.0
        Learning rate, > 0. It rescales every vector and so never changes a vote.
    bias : {"one", "radius", "none"}, default "one"
        How the bias is learned, as in :func:`~perceptron.train`.
    max_epochs : int, default 10
        The number of passes ``T``, >= 1. The counts add up to ``n * T``.
    shuffle : bool, default False
        Visit the samples in a fresh random permutation every pass.
    seed : int or numpy.random.Generator, optional
        Source of the permutations when ``shuffle`` is True.

    Returns
    -------
    VotedPerceptron
        The vectors ``(w_k, b_k, nu_k)`` and a ``predict`` method.

    Raises
    ------
    ValueError
        On invalid data, labels other than -1/+1, ``eta <= 0``, ``max_epochs < 1``, an unknown
        ``bias``, or when the weights overflow.

    Examples
    --------
    On the two points of :func:`averaged`'s example the one vector after the first mistake
    survives all ``2 * 3`` visits:

    >>> model = voted([[2.0], [-1.0]], [1, -1], max_epochs=3)
    >>> [(w.tolist(), b, c) for w, b, c in model.vectors]
    [([2.0], 1.0, 6)]
    >>> model.predict([[5.0], [-5.0]]).tolist()
    [1, -1]
    """
    Xa, ya, eta, step_b, max_epochs, next_order = prepare_run(X, y, eta, bias, max_epochs, shuffle, seed)
    survivors, _, _ = _survivors(Xa, ya, eta, step_b, max_epochs, next_order)
    return VotedPerceptron(vectors=tuple(survivors))
