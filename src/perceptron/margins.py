"""Margins, the radius of a dataset, the maximum-margin (hard-margin SVM) hyperplane and its dual."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.optimize import linprog, minimize, nnls

from ._validation import check_integer, check_offset, check_positive, check_scalar, check_w, check_X, check_Xy
from .datasets import _uniform_ball
from .linear import count_errors
from .results import MaxMargin


def functional_margins(X: ArrayLike, y: ArrayLike, w: ArrayLike, b: float = 0.0) -> NDArray[np.float64]:
    """Return the functional margin ``y_i (w.x_i + b)`` of every point.

    Parameters
    ----------
    X : array_like of shape (n_samples, n_features)
    y : array_like of shape (n_samples,), labels in {-1, +1}
    w : array_like of shape (n_features,)
    b : float, default 0.0

    Returns
    -------
    ndarray of shape (n_samples,)
        Positive where the point is on its own side of the hyperplane. It scales with ``(w, b)``.

    Examples
    --------
    >>> functional_margins([[1.0, 0.0], [-2.0, 0.0]], [1, -1], [2.0, 0.0])
    array([2., 4.])
    """
    Xa, ya = check_Xy(X, y)
    wa = check_w(w, Xa.shape[1])
    return ya * (Xa @ wa + check_scalar(b, "b"))


def geometric_margin(X: ArrayLike, y: ArrayLike, w: ArrayLike, b: float = 0.0) -> float:
    """Return the dataset's geometric margin ``min_i y_i (w.x_i + b) / ||w||``.

    This is the signed distance from the hyperplane to the closest point, counted positive
    on the point's own side; it is unchanged when ``(w, b)`` is multiplied by any ``c > 0``.
    A negative value means some point is misclassified.

    Raises
    ------
    ValueError
        On invalid data, or when ``w`` is the zero vector (no hyperplane).

    Examples
    --------
    >>> geometric_margin([[1.0, 0.0], [-2.0, 0.0]], [1, -1], [2.0, 0.0])
    1.0
    """
    margins = functional_margins(X, y, w, b)
    norm = _max_row_norm(np.asarray(w, dtype=np.float64)[None, :])
    if norm == 0.0:
        raise ValueError("w is the zero vector: it defines no hyperplane, so there is no geometric margin")
    return float(margins.min() / norm)


def moved_errors(X: ArrayLike, y: ArrayLike, w: ArrayLike, b: float, size: float, *,
                 trials: int = 500, seed: int | None = None) -> int:
    """Count the misclassified points when every point moves by a random step of length at most ``size``.

    Each of ``trials`` trials moves every point ``x_i`` to ``x_i + s_i``, with ``s_i`` drawn
    uniformly from the ball of radius ``size`` (a uniform direction, and a length ``size * u**(1/d)``
    for ``u`` uniform on [0, 1], so that steps are spread evenly over the ball rather than crowded
    at its centre), and counts the moved points that ``(w, b)`` classifies wrongly
    (``sgn(w.x + b) != y``, with sgn(0) = +1). The same ``seed`` draws the same steps for every
    classifier, so two classifiers can be compared on identical moves.

    If ``size`` is less than the geometric margin of ``(w, b)``, no moved point reaches the
    hyperplane and the count is 0.

    Parameters
    ----------
    X : array_like of shape (n_samples, n_features)
    y : array_like of shape (n_samples,), labels in {-1, +1}
    w : array_like of shape (n_features,), not zero
    b : float
    size : float
        The largest length of a step, > 0.
    trials : int, default 500
        Independent trials, each moving every point once.
    seed : int or None
        Seed of ``numpy.random.default_rng``.

    Returns
    -------
    int
        Misclassified moved points, summed over the trials (at most ``trials * n_samples``).

    Raises
    ------
    ValueError
        On invalid data, a zero ``w``, a ``size`` that is not positive, or fewer than one trial.

    Examples
    --------
    >>> X, y = [[2.0, 0.0], [-2.0, 0.0]], [1, -1]
    >>> moved_errors(X, y, [1.0, 0.0], 0.0, 1.9, seed=0)  # the margin is 2: no point can cross
    0
    """
    X, y = check_Xy(X, y)
    w = check_w(w, X.shape[1])
    b = check_scalar(b, "b")
    if not np.any(w):
        raise ValueError("w is the zero vector: it defines no hyperplane")
    size = check_positive(size, "size")
    trials = check_integer(trials, "trials", 1)
    rng = np.random.default_rng(seed)
    wrong = 0
    for _ in range(trials):
        step = _uniform_ball(rng, *X.shape) * size
        wrong += count_errors(X + step, y, w, b, rule="sign")
    return wrong


def radius(X: ArrayLike) -> float:
    """Return ``R = max_i ||x_i||``, the radius of the smallest origin-centred ball holding the data.

    Examples
    --------
    >>> radius([[3.0, 4.0], [1.0, 0.0]])
    5.0
    """
    return _max_row_norm(check_X(X))


def _max_row_norm(X: NDArray[np.float64]) -> float:
    """``max_i ||x_i||`` for finite ``X``, also when squaring its entries would overflow or underflow."""
    top = float(np.max(np.abs(X)))
    if top == 0.0 or 1e-150 < top < 1e150:  # no square overflows or underflows: plain norm
        return float(np.max(np.linalg.norm(X, axis=1)))
    return top * float(np.max(np.linalg.norm(X / top, axis=1)))


def max_margin(X: ArrayLike, y: ArrayLike, *, bias: str = "one") -> MaxMargin:
    """Return the hard-margin separating hyperplane with the largest geometric margin.

    Solves ``min ||w||^2 / 2`` subject to ``y_i (w.x_i + b) >= 1`` (with ``b = 0`` when
    ``bias="none"``), then rescales so that ``||w|| = 1``; the margin is then ``1 / ||w_opt||``.

    Parameters
    ----------
    X : array_like of shape (n_samples, n_features)
    y : array_like of shape (n_samples,), labels in {-1, +1}
    bias : {"one", "radius", "none"}, default "one"
        The bias mode, as in :func:`~perceptron.train`: with ``"none"`` the hyperplane passes
        through the origin; ``"one"`` and ``"radius"`` (which differ only in how a perceptron
        learns the offset) allow any offset.

    Returns
    -------
    MaxMargin
        ``w``, ``b`` and ``gamma``, with ``||w|| = 1`` and ``gamma = min_i y_i (w.x_i + b)``; it
        unpacks as ``w, b, gamma = max_margin(X, y)``.

    Raises
    ------
    ValueError
        On invalid data, an unknown ``bias``, or when the data are not linearly separable
        (through the origin, if ``bias="none"``).

    Notes
    -----
    A linear program first decides separability exactly (HiGHS); SLSQP then solves the
    quadratic program from that feasible point, and the result is polished by solving the
    KKT equations on the active constraints, which brings it to machine precision.

    Examples
    --------
    >>> w, b, gamma = max_margin([[2.0, 0.0], [0.0, 0.0]], [1, -1])
    >>> w.round(6).tolist(), round(b, 6), round(gamma, 6)
    ([1.0, 0.0], -1.0, 1.0)
    """
    Xa, ya = check_Xy(X, y)
    return _max_margin(Xa, ya, offset=check_offset(bias))


def _max_margin(X: NDArray[np.float64], y: NDArray[np.float64], *, offset: bool) -> MaxMargin:
    """:func:`max_margin` on trusted data (checked by the caller); ``offset``: whether ``b`` is free."""
    scale = _max_row_norm(X)
    if scale == 0.0:
        raise ValueError("the data are not linearly separable: every point is the origin")
    # Work on data scaled into the unit ball so that the solvers' tolerances mean the same
    # thing whatever the units of X; the hyperplane is mapped back at the end.
    Z = np.column_stack([X / scale, np.ones(len(y))]) if offset else X / scale
    A = y[:, None] * Z  # constraint rows: A @ v >= 1
    v0 = _feasible_point(A, offset)
    v = _solve_qp(A, v0, offset)
    w, b = (v[:-1], float(v[-1])) if offset else (v, 0.0)
    norm = float(np.linalg.norm(w))
    w_unit = w / norm
    b_unit = b / norm * scale
    gamma = float(np.min(y * (X @ w_unit + b_unit)))
    return MaxMargin(w_unit, b_unit, gamma)


def _feasible_point(A: NDArray[np.float64], bias: bool) -> NDArray[np.float64]:
    """Return some v with A v >= 1, or raise: the LP is feasible iff the data are separable."""
    n, m = A.shape
    lp = linprog(np.zeros(m), A_ub=-A, b_ub=-np.ones(n), bounds=[(None, None)] * m, method="highs")
    if lp.status == 2:
        where = "" if bias else ' through the origin (try bias="one")'
        raise ValueError(f"the data are not linearly separable{where}: no hyperplane puts every point on its own side")
    if lp.status != 0:
        raise ValueError(f"could not decide separability: {lp.message}")
    return np.asarray(lp.x, dtype=np.float64)


def _solve_qp(A: NDArray[np.float64], v0: NDArray[np.float64], bias: bool) -> NDArray[np.float64]:
    """Minimise ||w||^2/2 subject to A v >= 1, starting from a feasible v0."""
    m = A.shape[1]
    k = m - 1 if bias else m  # the bias is not penalised
    mask = np.zeros(m)
    mask[:k] = 1.0
    res = minimize(
        lambda v: 0.5 * np.dot(mask * v, v),
        v0,
        jac=lambda v: mask * v,
        constraints=[{"type": "ineq", "fun": lambda v: A @ v - 1.0, "jac": lambda v: A}],
        method="SLSQP",
        options={"maxiter": 1000, "ftol": 1e-14},
    )
    v = np.asarray(res.x, dtype=np.float64) if np.all(A @ res.x >= 1 - 1e-6) else v0
    return _polish(A, v, bias)


def _polish(A: NDArray[np.float64], v: NDArray[np.float64], bias: bool) -> NDArray[np.float64]:
    """Solve the KKT system on the active constraints; keep the result if it is optimal."""
    margins = A @ v
    # SLSQP leaves the active constraints within its tolerance of 1; try a few cut-offs.
    for tol in (1e-5, 1e-7, 1e-3):
        active = np.flatnonzero(margins <= 1.0 + tol)
        if active.size == 0:
            continue
        candidate = _kkt_solution(A[active], bias)
        if candidate is None:
            continue
        cand_v, alpha = candidate
        if np.min(A @ cand_v) >= 1.0 - 1e-10 and np.min(alpha) >= -1e-9:
            return cand_v
    return v


def _kkt_solution(As: NDArray[np.float64], bias: bool) -> tuple[NDArray[np.float64], NDArray[np.float64]] | None:
    """Minimum of ||w||^2/2 with every row of ``As`` active (As v = 1), and its multipliers."""
    s = As.shape[0]
    if bias:
        Zs, ys = As[:, :-1], As[:, -1]  # the last column is y_i (times the constant 1)
        K = np.zeros((s + 1, s + 1))
        K[:s, :s] = Zs @ Zs.T
        K[:s, s] = ys
        K[s, :s] = ys
        rhs = np.concatenate([np.ones(s), [0.0]])
        sol, *_ = np.linalg.lstsq(K, rhs, rcond=None)
        alpha, b = sol[:s], sol[s]
        w = Zs.T @ alpha
        v = np.concatenate([w, [b]])
    else:
        K = As @ As.T
        alpha, *_ = np.linalg.lstsq(K, np.ones(s), rcond=None)
        v = As.T @ alpha
    if not np.allclose(As @ v, 1.0, rtol=0, atol=1e-9):
        return None
    return v, alpha


def svm_dual(X: ArrayLike, y: ArrayLike, *, tol: float = 1e-7) -> NDArray[np.float64]:
    """Return Lagrange multipliers ``lambda`` of the hard-margin SVM (P2): a solution of its dual.

    The dual of ``min ||w||^2 / 2`` subject to ``y_i (w.x_i + b) >= 1`` is
    ``max sum_i lambda_i - ||sum_i lambda_i y_i x_i||^2 / 2`` subject to ``lambda >= 0`` and
    ``sum_i lambda_i y_i = 0``. The multipliers are found from the KKT conditions: with
    ``(w°, b°)`` the solution of (P2) from :func:`max_margin`, non-negative least squares on the
    points at functional margin 1 (within ``tol``) solves ``sum_i lambda_i y_i x_i = w°``,
    ``sum_i lambda_i y_i = 0``; every other point gets ``lambda_i = 0``.

    Parameters
    ----------
    X : array_like of shape (n_samples, n_features)
    y : array_like of shape (n_samples,), labels in {-1, +1}
    tol : float, default 1e-7
        How close to 1 a functional margin must be for its point to count as on an edge.

    Returns
    -------
    ndarray of shape (n_samples,)
        ``lambda``; when several dual solutions exist, one of them.

    Raises
    ------
    ValueError
        On invalid data, a ``tol`` that is not > 0, data that are not separable, or when the
        multipliers found leave a KKT residual above ``1e-6`` (relative to ``||w°||``).

    Examples
    --------
    >>> svm_dual([[2.0, 0.0], [0.0, 0.0]], [1, -1]).round(6).tolist()
    [0.5, 0.5]
    """
    Xa, ya = check_Xy(X, y)
    tol = check_scalar(tol, "tol")
    if tol <= 0:
        raise ValueError(f"tol must be > 0, got {tol:g}")
    best = _max_margin(Xa, ya, offset=True)
    w, b = best.w / best.gamma, best.b / best.gamma  # (w°, b°) of (P2)
    edge = np.flatnonzero(ya * (Xa @ w + b) <= 1.0 + tol)
    A = np.vstack([(ya[edge, None] * Xa[edge]).T, ya[edge]])  # columns: (y_i x_i, y_i)
    lam_edge, residual = nnls(A, np.concatenate([w, [0.0]]))
    if residual > 1e-6 * np.linalg.norm(w):
        raise ValueError(f"no multipliers satisfy the KKT conditions within 1e-6 (residual {residual:.2e}); try a larger tol")
    lam = np.zeros(len(ya))
    lam[edge] = lam_edge
    return lam
