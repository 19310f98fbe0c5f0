"""Halfspaces as a class of classifiers: a separator by linear programming, shattering, Radon's theorem.

The class is ``{x -> sgn(w.x + b) : w in R^d, b in R}`` with the book's ``sgn(0) = +1``. With an
offset, a labelling is produced by some member exactly when the points are strictly separable
(shift ``b`` a little towards the ``+1`` side), which a linear program decides exactly.
"""

from __future__ import annotations

from itertools import product

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.linalg import null_space
from scipy.optimize import linprog

from ._validation import check_offset, check_X, check_Xy
from .results import Hyperplane

MAX_SHATTER_POINTS = 16  # 2**16 linear programs at most


def _lp_separator(X: NDArray[np.float64], y: NDArray[np.float64], offset: bool) -> Hyperplane | None:
    """Some ``(w, b)`` with ``y_i (w.x_i + b) >= 1`` for every ``i``, or None when there is none."""
    Z = np.column_stack([X, np.ones(len(y))]) if offset else X
    A = y[:, None] * Z
    lp = linprog(np.zeros(Z.shape[1]), A_ub=-A, b_ub=-np.ones(len(y)), bounds=[(None, None)] * Z.shape[1],
                 method="highs")
    if lp.status == 2:
        return None
    if lp.status != 0:
        raise ValueError(f"could not decide separability: {lp.message}")
    v = np.asarray(lp.x, dtype=np.float64)
    return Hyperplane(v[:-1], float(v[-1])) if offset else Hyperplane(v, 0.0)


def separating_hyperplane(X: ArrayLike, y: ArrayLike, *, bias: str = "one") -> Hyperplane:
    """Find a separating hyperplane by linear programming, or prove there is none.

    Solves the feasibility problem: find ``(w, b)`` with ``y_i (w.x_i + b) >= 1`` for every ``i``
    (a linear program with a zero objective, solved by HiGHS). The constraints are feasible exactly
    when the data are strictly separable, since a separator with smallest functional margin
    ``m > 0`` becomes feasible once divided by ``m``.

    Parameters
    ----------
    X : array_like of shape (n_samples, n_features)
    y : array_like of shape (n_samples,), labels in {-1, +1}
    bias : {"one", "radius", "none"}, default "one"
        ``"none"``: a hyperplane through the origin (``b = 0``); otherwise ``b`` is free.

    Returns
    -------
    Hyperplane
        Some feasible ``(w, b)``: any vertex the solver stops at, not the maximum-margin one.

    Raises
    ------
    ValueError
        On invalid data or ``bias``, or when no hyperplane separates the data (through the origin,
        if ``bias="none"``).

    Examples
    --------
    >>> w, b = separating_hyperplane([[2.0, 0.0], [0.0, 0.0]], [1, -1])
    >>> bool(2.0 * w[0] + b >= 1 - 1e-9 and -b >= 1 - 1e-9)
    True
    >>> separating_hyperplane([[0.0], [1.0], [2.0]], [1, -1, 1])
    Traceback (most recent call last):
    ...
    ValueError: the data are not linearly separable: no (w, b) has y_i (w.x_i + b) >= 1 for every i
    """
    Xa, ya = check_Xy(X, y)
    offset = check_offset(bias)
    found = _lp_separator(Xa, ya, offset)
    if found is None:
        where = "" if offset else " through the origin"
        raise ValueError(f"the data are not linearly separable{where}: no (w, b) has y_i (w.x_i + b) >= 1 for every i")
    return found


def shatters(X: ArrayLike) -> bool:
    """Whether halfspaces ``sgn(w.x + b)`` shatter the points: every labelling is some halfspace's.

    Tries all ``2^m`` labellings of the ``m`` points with one linear program each (the two constant
    labellings are met by ``w = 0, b = +-1``).

    Parameters
    ----------
    X : array_like of shape (m, n_features), ``1 <= m <= 16``, distinct rows

    Returns
    -------
    bool

    Raises
    ------
    ValueError
        If ``X`` is invalid, has more than 16 rows, or repeats a point (a repeated point cannot
        take two labels).

    Examples
    --------
    >>> shatters([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    True
    >>> shatters([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    False
    """
    Xa = check_X(X)
    m = Xa.shape[0]
    if m > MAX_SHATTER_POINTS:
        raise ValueError(f"X has {m} points; shatters tries 2^m labellings and takes at most {MAX_SHATTER_POINTS}")
    if len(np.unique(Xa, axis=0)) < m:
        raise ValueError("X repeats a point: one point cannot take two labels, so no class shatters X")
    for labels in product((-1.0, 1.0), repeat=m):
        y = np.array(labels)
        if abs(y.sum()) < m and _lp_separator(Xa, y, offset=True) is None:
            return False
    return True


def radon_partition(X: ArrayLike) -> tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.float64]]:
    """Split ``d + 2`` points of ``R^d`` into two groups whose convex hulls meet (Radon's theorem).

    A non-zero ``a`` with ``sum_i a_i x_i = 0`` and ``sum_i a_i = 0`` exists because these are
    ``d + 1`` linear equations in ``d + 2`` unknowns. ``A_+ = {i : a_i > 0}`` and its complement
    ``A_-`` are both non-empty, and ``q = sum_{i in A_+} a_i x_i / a_+ = sum_{j in A_-} (-a_j) x_j / a_+``
    with ``a_+ = sum_{i in A_+} a_i`` lies in both convex hulls. So labelling ``A_+`` with ``+1``
    and ``A_-`` with ``-1`` is a labelling no halfspace produces. The sign of ``a`` is fixed so
    that the first point with ``a_i != 0`` is in ``A_+``.

    Parameters
    ----------
    X : array_like of shape (d + 2, d)

    Returns
    -------
    A_plus, A_minus : ndarray of int
        The two groups (indices into ``X``), ``A_plus`` the points with ``a_i > 0``.
    q : ndarray of shape (d,)
        A common point of the two convex hulls.

    Raises
    ------
    ValueError
        If ``X`` is invalid or does not have exactly ``n_features + 2`` rows.

    Examples
    --------
    >>> A_plus, A_minus, q = radon_partition([[0.0, 0.0], [2.0, 0.0], [0.0, 2.0], [2.0, 2.0]])
    >>> A_plus.tolist(), A_minus.tolist(), q.round(6).tolist()
    ([0, 3], [1, 2], [1.0, 1.0])
    """
    Xa = check_X(X)
    m, d = Xa.shape
    if m != d + 2:
        raise ValueError(f"Radon's theorem is about d + 2 = {d + 2} points in R^{d}; X has {m}")
    a = null_space(np.vstack([Xa.T, np.ones(m)]))[:, 0]
    a = a / np.max(np.abs(a))  # the largest entry is +-1, so the threshold below is scale-free
    a[np.abs(a) <= 1e-12] = 0.0
    if a[np.flatnonzero(a)[0]] < 0:  # the first point with a_i != 0 goes to A_+
        a = -a
    positive = a > 0
    A_plus, A_minus = np.flatnonzero(positive), np.flatnonzero(~positive)
    return A_plus, A_minus, a[A_plus] @ Xa[A_plus] / a[A_plus].sum()
