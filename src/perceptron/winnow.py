"""Winnow, Littlestone's multiplicative-update algorithm for sparse disjunctions, its mistake bound,
and a generator of disjunction data. The result is defined here, as a frozen dataclass."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._validation import check_boolean_data, check_fraction, check_integer


@dataclass(frozen=True)
class WinnowRun:
    """One online pass of Winnow.

    Attributes
    ----------
    w : ndarray of shape (d,)
        The last weights.
    predictions : ndarray of shape (T,), in {0, 1}
    promotions : int
        Mistakes on positive examples (the weights of the active variables were doubled).
    demotions : int
        Mistakes on negative examples (the weights of the active variables were halved).
    """

    w: NDArray[np.float64]
    predictions: NDArray[np.int64]
    promotions: int
    demotions: int

    @property
    def mistakes(self) -> int:
        """``promotions + demotions``."""
        return self.promotions + self.demotions


def winnow(X: ArrayLike, y: ArrayLike) -> WinnowRun:
    """Run Winnow once over Boolean examples, with threshold ``d`` and factor 2.

    All ``d`` weights start at 1. Predict 1 if ``w.x >= d``, else 0. On a mistake with label 1
    double, with label 0 halve, the weight of every variable that is 1 in ``x``. (Littlestone's
    Winnow2 with ``alpha = 2``, ``theta = d``.)

    Parameters
    ----------
    X : array_like of shape (T, d), entries in {0, 1}
    y : array_like of shape (T,), labels in {0, 1}
        Boolean, the values of a disjunction: the one place where the package takes labels other
        than -1 and +1 (and it refuses those here).

    Returns
    -------
    WinnowRun

    Raises
    ------
    ValueError
        If ``X`` or ``y`` is not Boolean or their shapes differ.

    References
    ----------
    N. Littlestone, "Learning quickly when irrelevant attributes abound: a new linear-threshold
    algorithm", Machine Learning 2(4), 1988.

    Examples
    --------
    The disjunction ``x_0``, on four variables:

    >>> run = winnow([[1, 0, 0, 0], [0, 1, 1, 1], [1, 0, 0, 0], [1, 0, 0, 0]], [1, 0, 1, 1])
    >>> run.predictions.tolist(), run.w.tolist(), run.mistakes
    ([0, 0, 0, 1], [4.0, 1.0, 1.0, 1.0], 2)
    """
    Xa, ya = check_boolean_data(X, y)
    n = Xa.shape[1]
    w = np.ones(n)
    predictions = np.zeros(len(ya), dtype=np.int64)
    promotions = demotions = 0
    for t, (x, label) in enumerate(zip(Xa, ya)):
        predictions[t] = int(w @ x >= n)
        if predictions[t] != label:
            on = x == 1
            if label == 1:
                w[on] *= 2.0
                promotions += 1
            else:
                w[on] /= 2.0
                demotions += 1
    return WinnowRun(w=w, predictions=predictions, promotions=promotions, demotions=demotions)


def winnow_mistake_bound(n_relevant: int, n_variables: int) -> int:
    """Return ``3 |S| ceil(log2 d) + 1``, Winnow's mistake bound for a disjunction of ``|S|`` of ``d`` variables.

    On any sequence labelled by an OR of ``|S| = n_relevant`` of the ``d = n_variables`` variables,
    :func:`winnow` makes at most ``|S| ceil(log2 d)`` mistakes on positives and at most twice that
    plus one on negatives.

    Parameters
    ----------
    n_relevant : int
        ``|S|``, the number of relevant variables, ``0 <= |S| <= d``.
    n_variables : int
        ``d``, the number of variables, >= 1.

    Raises
    ------
    ValueError
        If ``d < 1`` or ``|S|`` is not in ``[0, d]``.

    Examples
    --------
    >>> winnow_mistake_bound(2, 1000), winnow_mistake_bound(0, 5)
    (61, 1)
    """
    d = check_integer(n_variables, "n_variables", 1)
    size = check_integer(n_relevant, "n_relevant", 0)
    if size > d:
        raise ValueError(f"n_relevant must be at most n_variables = {d}, got {size}")
    return 3 * size * int(np.ceil(np.log2(d) - 1e-12)) + 1 if d > 1 else 1


def disjunction_data(
    n_examples: int, n_variables: int, relevant: ArrayLike, *, density: float = 0.1,
    seed: int | np.random.Generator | None = 0,
) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """Random Boolean examples labelled by the OR of the ``relevant`` variables.

    Every entry is 1 with probability ``density``, independently; the label is 1 when some
    relevant variable is 1.

    Parameters
    ----------
    n_examples, n_variables : int
        >= 1.
    relevant : array_like of int
        Indices of the variables in the disjunction (may be empty: the constant 0).
    density : float, default 0.1
        In (0, 1).
    seed : int or numpy.random.Generator or None, default 0

    Returns
    -------
    X : ndarray of shape (n_examples, n_variables)
    y : ndarray of shape (n_examples,), in {0, 1}

    Raises
    ------
    ValueError
        On counts below 1, indices out of range or ``density`` outside (0, 1).

    Examples
    --------
    >>> X, y = disjunction_data(5, 4, [0, 2], density=0.5, seed=1)
    >>> bool(np.all(y == (X[:, [0, 2]].max(axis=1) == 1)))
    True
    """
    T = check_integer(n_examples, "n_examples", 1)
    n = check_integer(n_variables, "n_variables", 1)
    idx = np.asarray(relevant)
    if idx.ndim != 1 or (idx.size and (not np.issubdtype(idx.dtype, np.integer) or idx.min() < 0 or idx.max() >= n)):
        raise ValueError(f"relevant must be a list of variable indices between 0 and {n - 1}")
    density = check_fraction(density, "density")
    rng = np.random.default_rng(seed)
    X = (rng.random((T, n)) < density).astype(np.float64)
    y = (X[:, idx.astype(np.intp)].sum(axis=1) > 0).astype(np.int64) if idx.size else np.zeros(T, dtype=np.int64)
    return X, y
