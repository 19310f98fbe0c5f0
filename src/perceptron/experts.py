"""Learning a finite class online: the halving algorithm, the Littlestone dimension, the Standard
Optimal Algorithm (SOA) and weighted majority in the experts setting.

A finite class on a finite domain is a matrix ``H`` of labels in {-1, +1}: row ``h`` is a
hypothesis, column ``x`` a point of the domain, ``H[h, x]`` the label ``h`` gives ``x``. A
sequence is a list of column indices ``xs`` with labels ``ys``. Ties in a vote go to ``+1``, as
``sgn(0) = +1`` does everywhere in the book. The results are defined here, as frozen dataclasses.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._validation import (
    check_class,
    check_fraction,
    check_integer,
    check_label_table,
    check_scalar,
    check_sequence,
)


@dataclass(frozen=True)
class ClassRun:
    """One online pass of a learner for a finite class.

    Attributes
    ----------
    predictions : ndarray of shape (T,)
        The label predicted in each round, before the true one was shown.
    mistakes : int
        Rounds whose prediction differed from the label.
    version_sizes : ndarray of shape (T + 1,)
        How many hypotheses agreed with every label shown before round ``t`` (the last entry:
        after the whole sequence).
    """

    predictions: NDArray[np.float64]
    mistakes: int
    version_sizes: NDArray[np.int64]


@dataclass(frozen=True)
class ExpertsRun:
    """One run of weighted majority.

    Attributes
    ----------
    predictions : ndarray of shape (T,)
    mistakes : int
        The learner's mistakes ``M``.
    expert_mistakes : ndarray of shape (|E|,)
        Each expert's mistakes; the best expert's is ``M* = expert_mistakes.min()``.
    weights : ndarray of shape (T + 1, |E|)
        The weights held before each round (the last row: after the last one).
    beta : float
        The factor applied to the weight of an expert that errs (the book's ``sigma``).
    """

    predictions: NDArray[np.float64]
    mistakes: int
    expert_mistakes: NDArray[np.int64]
    weights: NDArray[np.float64]
    beta: float


def _vote(labels: NDArray[np.int8]) -> int:
    return 1 if labels.sum() >= 0 else -1


def _shrink(H: NDArray[np.int8], alive: NDArray[np.bool_], x: int, y: int, t: int) -> NDArray[np.bool_]:
    alive = alive & (H[:, x] == y)
    if not alive.any():
        raise ValueError(f"the labels are not realizable by H: no hypothesis agrees with rounds 0 to {t}")
    return alive


def halving(H: ArrayLike, xs: ArrayLike, ys: ArrayLike) -> ClassRun:
    """Run the halving algorithm: predict the majority vote of the hypotheses still consistent.

    Every mistake removes the majority, at least half of the version space, so on a sequence some
    hypothesis of ``H`` labels correctly, the algorithm makes at most ``log2 |H|`` mistakes. ``H`` is
    a set: duplicate rows count once.

    Parameters
    ----------
    H : array_like of shape (n_hypotheses, n_points), labels in {-1, +1}
    xs : array_like of int, shape (T,)
        The points shown, as column indices of ``H``.
    ys : array_like of shape (T,), labels in {-1, +1}

    Returns
    -------
    ClassRun

    Raises
    ------
    ValueError
        On a malformed ``H`` or sequence, or if no hypothesis of ``H`` agrees with all the labels.

    References
    ----------
    N. Littlestone, "Learning quickly when irrelevant attributes abound: a new linear-threshold
    algorithm", Machine Learning 2(4), 1988.

    Examples
    --------
    The four thresholds on three points (see :func:`thresholds`); the target is the third.

    >>> run = halving(thresholds(3), [1, 0, 2], [-1, -1, 1])
    >>> run.mistakes, run.version_sizes.tolist()
    (1, [4, 2, 2, 1])
    """
    Ha = np.unique(check_class(H), axis=0)
    xa, ya = check_sequence(xs, ys, Ha.shape[1])
    alive = np.ones(len(Ha), dtype=bool)
    predictions, sizes = np.empty(len(xa)), [len(Ha)]
    for t, (x, y) in enumerate(zip(xa, ya)):
        predictions[t] = _vote(Ha[alive, x])
        alive = _shrink(Ha, alive, x, int(y), t)
        sizes.append(int(alive.sum()))
    return ClassRun(predictions=predictions, mistakes=int(np.sum(predictions != ya)),
                    version_sizes=np.array(sizes, dtype=np.int64))


def _ldim(H: NDArray[np.int8]):
    """The Littlestone dimension of every subset of the rows of ``H``, memoised on the subset."""

    @cache
    def ldim(rows: frozenset[int]) -> int:
        if len(rows) <= 1:
            return len(rows) - 1  # -1 for the empty class, 0 for one hypothesis
        sub = H[sorted(rows)]
        best = 0
        for x in range(H.shape[1]):
            plus = frozenset(r for r, label in zip(sorted(rows), sub[:, x]) if label == 1)
            if plus and plus != rows:
                best = max(best, 1 + min(ldim(plus), ldim(rows - plus)))
        return best

    return ldim


def littlestone_dimension(H: ArrayLike) -> int:
    """Return the Littlestone dimension of a finite class on a finite domain, by brute force.

    The largest depth ``D`` of a complete binary tree of points, every root-to-leaf path of which
    (its points with the labels of the branches taken) is labelled correctly by some hypothesis of
    ``H``. It is computed by the recursion ``Ldim(V) = max_x 1 + min(Ldim(V_x^+), Ldim(V_x^-))`` over
    the points ``x`` that split ``V`` (both parts non-empty), 0 for a non-empty ``V`` that no point
    splits (one hypothesis, for instance) and -1 for the empty class; exponential in the worst case, for
    small classes only. Duplicate rows count once.

    Parameters
    ----------
    H : array_like of shape (n_hypotheses, n_points), labels in {-1, +1}

    Returns
    -------
    int
        Between 0 and ``floor(log2 |H|)``.

    Raises
    ------
    ValueError
        On a malformed ``H``.

    References
    ----------
    N. Littlestone, Machine Learning 2(4), 1988; S. Shalev-Shwartz, "Online learning and online
    convex optimization", Foundations and Trends in Machine Learning 4(2), 2012, section 3.1.

    Examples
    --------
    >>> littlestone_dimension(thresholds(7)), littlestone_dimension(thresholds(8))
    (3, 3)
    >>> littlestone_dimension(np.eye(4) * 2 - 1)  # the four singletons: Ldim 1, |H| = 4
    1
    """
    Ha = np.unique(check_class(H), axis=0)
    return _ldim(Ha)(frozenset(range(len(Ha))))


def soa(H: ArrayLike, xs: ArrayLike, ys: ArrayLike) -> ClassRun:
    """Run the Standard Optimal Algorithm: predict the label whose version space has the larger
    Littlestone dimension (ties to +1).

    On a sequence labelled by some hypothesis of ``H`` it makes at most ``Ldim(H)`` mistakes, and
    no deterministic learner can guarantee fewer.

    Parameters
    ----------
    H, xs, ys
        As in :func:`halving`; the Littlestone dimensions are computed by brute force, so ``H``
        must be small.

    Returns
    -------
    ClassRun

    Raises
    ------
    ValueError
        As :func:`halving` does.

    Examples
    --------
    The singletons on four points: ``Ldim = 1``, so SOA errs at most once although ``log2 |H| = 2``.

    >>> H = np.eye(4) * 2 - 1
    >>> soa(H, [0, 1, 2, 3], [-1, -1, -1, 1]).mistakes
    1
    """
    Ha = np.unique(check_class(H), axis=0)
    xa, ya = check_sequence(xs, ys, Ha.shape[1])
    ldim = _ldim(Ha)
    alive = np.ones(len(Ha), dtype=bool)
    predictions, sizes = np.empty(len(xa)), [len(Ha)]
    for t, (x, y) in enumerate(zip(xa, ya)):
        rows = np.flatnonzero(alive)
        plus = frozenset(int(r) for r in rows if Ha[r, x] == 1)
        minus = frozenset(int(r) for r in rows) - plus
        predictions[t] = 1 if ldim(plus) >= ldim(minus) else -1
        alive = _shrink(Ha, alive, x, int(y), t)
        sizes.append(int(alive.sum()))
    return ClassRun(predictions=predictions, mistakes=int(np.sum(predictions != ya)),
                    version_sizes=np.array(sizes, dtype=np.int64))


def thresholds(m: int) -> NDArray[np.int8]:
    """The ``m + 1`` thresholds on the points ``0, ..., m - 1`` of a line, as a class matrix.

    Row ``a`` labels point ``x`` with ``+1`` if ``x >= a`` and ``-1`` otherwise, ``a = 0, ..., m``:
    the halfspaces of the real line restricted to ``m`` points (``a = m``: all negative).

    Examples
    --------
    >>> thresholds(2).tolist()
    [[1, 1], [-1, 1], [-1, -1]]
    """
    m = check_integer(m, "m", 1)
    return np.where(np.arange(m)[None, :] >= np.arange(m + 1)[:, None], 1, -1).astype(np.int8)


def weighted_majority(advice: ArrayLike, outcomes: ArrayLike, *, beta: float = 0.5) -> ExpertsRun:
    """Run the (deterministic) weighted majority algorithm of Littlestone and Warmuth.

    Every expert starts with weight 1. In each round the learner predicts the label with the larger
    total weight (ties to +1), then multiplies by ``beta`` the weight of every expert that erred.

    Parameters
    ----------
    advice : array_like of shape (T, |E|), labels in {-1, +1}
        ``advice[t, i]`` is expert ``i``'s prediction in round ``t``.
    outcomes : array_like of shape (T,), labels in {-1, +1}
    beta : float, default 0.5
        The book's ``sigma``, in [0, 1); ``beta = 0`` is the halving algorithm on the experts.

    Returns
    -------
    ExpertsRun

    Raises
    ------
    ValueError
        On malformed advice or outcomes, or ``beta`` outside [0, 1).

    References
    ----------
    N. Littlestone and M. K. Warmuth, "The weighted majority algorithm", Information and
    Computation 108(2), 1994.

    Examples
    --------
    >>> advice = [[1, -1, 1], [1, -1, -1], [1, 1, -1]]
    >>> run = weighted_majority(advice, [1, -1, 1])
    >>> run.mistakes, run.expert_mistakes.tolist(), run.weights[-1].tolist()
    (0, [1, 1, 1], [0.5, 0.5, 0.5])
    """
    A, z = check_label_table(advice, outcomes, ("advice", "outcomes", "rounds x experts", "one per round"), (-1.0, 1.0),
                             "advice and outcomes must contain only the labels -1 and +1")
    beta = check_scalar(beta, "beta")
    if not 0 <= beta < 1:
        raise ValueError(f"beta must be in [0, 1), got {beta!r}")
    T, N = A.shape
    weights = np.ones((T + 1, N))
    predictions = np.empty(T)
    for t in range(T):
        w = weights[t]
        predictions[t] = 1.0 if w[A[t] == 1].sum() >= w[A[t] == -1].sum() else -1.0
        weights[t + 1] = np.where(A[t] != z[t], beta * w, w)
    return ExpertsRun(predictions=predictions, mistakes=int(np.sum(predictions != z)),
                      expert_mistakes=np.sum(A != z[:, None], axis=0).astype(np.int64),
                      weights=weights, beta=beta)


def weighted_majority_bound(best_mistakes: int, n_experts: int, *, beta: float = 0.5) -> float:
    """Return ``(M* ln(1/beta) + ln |E|) / ln(2 / (1 + beta))``, weighted majority's mistake bound.

    ``M*`` is the best expert's mistakes, ``|E|`` the number of experts and ``beta`` the book's
    ``lambda``. With ``beta = 1/2`` it is ``(M* + log2 |E|) / log2(4/3)``, about ``2.41 (M* + log2 |E|)``.

    Parameters
    ----------
    best_mistakes : int
        ``M*``, the mistakes of the best expert, >= 0.
    n_experts : int
        ``|E|``, >= 1.
    beta : float, default 0.5
        In (0, 1).

    Raises
    ------
    ValueError
        If an argument is out of range (``beta = 0`` has no bound once ``M* > 0``).

    Examples
    --------
    >>> round(weighted_majority_bound(0, 8), 4), round(weighted_majority_bound(10, 8), 2)
    (7.2283, 31.32)
    """
    m = check_integer(best_mistakes, "best_mistakes", 0)
    n = check_integer(n_experts, "n_experts", 1)
    beta = check_fraction(beta, "beta")
    return float((m * np.log(1 / beta) + np.log(n)) / np.log(2 / (1 + beta)))
