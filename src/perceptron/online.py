"""Online learning guarantees without separability: the hinge mistake bound of Freund and Schapire,
the adversary behind the matching lower bound, and the online-to-batch conversion."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.optimize import minimize

from ._core import sgn
from ._validation import (
    check_bias,
    check_fraction,
    check_integer,
    check_positive,
    check_w,
    check_Xy,
)
from .losses import _hinge_values
from .margins import _max_row_norm
from .results import AdversaryRun, HingeBound, OnlinePass

_REPLAYED: list = []  # perceptron_learner's last replay: [X_seen, y_seen, w after them]

Learner = Callable[[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]], float]


def _augmented(X: NDArray[np.float64], bias: str) -> NDArray[np.float64]:
    """The points the perceptron of mode ``bias`` runs on through the origin: ``(x, kappa)``."""
    mode = check_bias(bias)
    if mode == "none":
        return X
    kappa = 1.0 if mode == "one" else _max_row_norm(X)
    return np.column_stack([X, np.full(len(X), kappa)])


def _bound(margins: NDArray[np.float64], radius: float, gamma: float, passes: int) -> tuple[float, float]:
    slack_norm = float(np.linalg.norm(_hinge_values(margins, gamma)))
    return float(((radius + np.sqrt(passes) * slack_norm) / gamma) ** 2), slack_norm


def hinge_mistake_bound(
    X: ArrayLike, y: ArrayLike, u: ArrayLike, gamma: float, *, bias: str = "one", passes: int = 1
) -> float:
    """Return Freund and Schapire's mistake bound ``((R~ + ||xi||) / gamma)**2`` for any data.

    For any unit vector ``u`` and any ``gamma > 0``, let ``xi_i = max(0, gamma - y_i u.x~_i)`` be
    how far point ``i`` falls short of margin ``gamma`` along ``u``, and ``R~ = max_i ||x~_i||``.
    The perceptron of mode ``bias`` (the perceptron through the origin on the augmented points
    ``x~_i = (x_i, kappa)``, ``kappa = 1`` for ``"one"``, ``R`` for ``"radius"``, none for ``"none"``),
    started at zero with any learning rate, makes at most this many mistakes in ``passes`` passes
    over the data in any order. The data need not be separable; with ``xi = 0`` it is the
    convergence theorem's ``(R~ / gamma)**2``.

    Parameters
    ----------
    X : array_like of shape (n_samples, n_features)
    y : array_like of shape (n_samples,), labels in {-1, +1}
    u : array_like of shape (p,)
        The reference direction, ``p = n_features + 1`` with a bias, ``n_features`` for ``"none"``;
        any nonzero vector, scaled here to unit length.
    gamma : float
        The target margin, > 0.
    bias : {"one", "radius", "none"}, default "one"
    passes : int, default 1
        The number of passes covered; every pass adds its slacks, so ``||xi||`` counts
        ``sqrt(passes)`` times.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        On invalid data, a ``u`` of the wrong length or zero, ``gamma <= 0`` or ``passes < 1``.

    References
    ----------
    Y. Freund and R. E. Schapire, "Large margin classification using the perceptron algorithm",
    Machine Learning 37(3), 1999, Theorem 2.

    Examples
    --------
    Separable along ``u`` at margin 1 (no slack): the convergence theorem's ``(R / gamma)**2``.

    >>> X, y = [[2.0, 0.0], [-1.0, 0.0]], [1, -1]
    >>> hinge_mistake_bound(X, y, [1.0, 0.0], 1.0, bias="none")
    4.0

    At margin 2 the second point falls short by 1: ``((2 + 1) / 2)**2``.

    >>> hinge_mistake_bound(X, y, [1.0, 0.0], 2.0, bias="none")
    2.25
    """
    Xa, ya = check_Xy(X, y)
    Xt = _augmented(Xa, bias)
    ua = check_w(u, Xt.shape[1], name="u")
    norm = float(np.linalg.norm(ua))
    if norm == 0.0:
        raise ValueError("u must be nonzero (it is scaled to unit length)")
    gamma = check_positive(gamma, "gamma")
    passes = check_integer(passes, "passes", 1)
    return _bound(ya * (Xt @ (ua / norm)), _max_row_norm(Xt), gamma, passes)[0]


def _best_gamma(margins: NDArray[np.float64], radius: float, passes: int) -> tuple[NDArray, NDArray]:
    """For each row of margins (one direction), the grid gamma with the smallest bound, and that bound."""
    top = max(float(margins.max()), radius)
    grid = np.linspace(top / 400, top, 400)
    values = np.empty((len(grid), len(margins)))
    slacks = np.empty_like(margins)  # reused: the loop allocates nothing of this size
    for j, gamma in enumerate(grid):
        # np.linalg.norm(_hinge_values(margins, gamma), axis=1), operation for operation
        np.subtract(gamma, margins, out=slacks)
        np.maximum(0.0, slacks, out=slacks)
        np.multiply(slacks, slacks, out=slacks)
        slack_norm = np.sqrt(np.add.reduce(slacks, axis=1))
        values[j] = ((radius + np.sqrt(passes) * slack_norm) / gamma) ** 2
    return grid[np.argmin(values, axis=0)], values.min(axis=0)


def tightest_hinge_bound(
    X: ArrayLike,
    y: ArrayLike,
    *,
    bias: str = "one",
    passes: int = 1,
    n_directions: int = 2000,
    seed: int | np.random.Generator | None = 0,
) -> HingeBound:
    """Search for the unit ``u`` and margin ``gamma`` that make :func:`hinge_mistake_bound` smallest.

    Every ``(u, gamma)`` gives a valid bound, so the result is a valid bound whatever the search
    finds; it is the smallest over ``n_directions`` random directions (each with its best
    ``gamma`` on a grid), refined by a Nelder-Mead search from the best of them.

    Parameters
    ----------
    X : array_like of shape (n_samples, n_features)
    y : array_like of shape (n_samples,), labels in {-1, +1}
    bias : {"one", "radius", "none"}, default "one"
    passes : int, default 1
    n_directions : int, default 2000
    seed : int or numpy.random.Generator or None, default 0

    Returns
    -------
    HingeBound

    Raises
    ------
    ValueError
        On invalid data, ``passes < 1`` or ``n_directions < 1``.

    Examples
    --------
    >>> X, y = [[2.0, 0.0], [-1.0, 0.0], [0.5, 0.0]], [1, -1, -1]
    >>> best = tightest_hinge_bound(X, y, bias="none", n_directions=50)
    >>> best.bound >= 1.0, best.slack_norm > 0  # not separable through the origin
    (True, True)
    """
    Xa, ya = check_Xy(X, y)
    Xt = _augmented(Xa, bias)
    passes = check_integer(passes, "passes", 1)
    n_directions = check_integer(n_directions, "n_directions", 1)
    radius = _max_row_norm(Xt)
    signed = ya[:, None] * Xt
    rng = np.random.default_rng(seed)
    directions = rng.normal(size=(n_directions, Xt.shape[1]))
    directions /= np.linalg.norm(directions, axis=1, keepdims=True)
    gammas, values = _best_gamma(directions @ signed.T, radius, passes)
    start, gamma0 = directions[np.argmin(values)], gammas[np.argmin(values)]

    def objective(z: NDArray[np.float64]) -> float:
        v, gamma = z[:-1], float(np.exp(z[-1]))
        norm = np.linalg.norm(v)
        return np.inf if norm == 0 else _bound(signed @ (v / norm), radius, gamma, passes)[0]

    z = minimize(objective, np.append(start, np.log(gamma0)), method="Nelder-Mead",
                 options={"xatol": 1e-8, "fatol": 1e-10, "maxiter": 4000}).x
    u, gamma = z[:-1] / np.linalg.norm(z[:-1]), float(np.exp(z[-1]))
    bound, slack_norm = _bound(signed @ u, radius, gamma, passes)
    return HingeBound(u=u, gamma=gamma, radius=radius, slack_norm=slack_norm, passes=passes, bound=bound)


def perceptron_learner(X_seen: ArrayLike, y_seen: ArrayLike, x: ArrayLike) -> int:
    """Predict the label of ``x`` as the online perceptron would after the examples seen so far.

    The perceptron through the origin (``bias="none"``) from ``w = 0`` replays one pass over the
    seen examples, updating on every ``y_t w.x_t <= 0``, and predicts ``sgn(w.x)`` with
    ``sgn(0) = +1``. A learner in the form :func:`adversary_sequence` expects.

    Examples
    --------
    >>> perceptron_learner(np.empty((0, 2)), np.empty(0), [1.0, 0.0])  # w = 0: sgn(0) = +1
    1
    >>> perceptron_learner([[1.0, 0.0]], [-1], [2.0, 1.0])
    -1
    """
    xa = np.asarray(x, dtype=np.float64)
    Xs, ys = np.asarray(X_seen, dtype=np.float64), np.asarray(y_seen, dtype=np.float64)
    # An adversary calls the learner on ever longer prefixes of one sequence: the replay resumes from
    # the last call's w when this call's examples begin exactly with that call's (same updates, same w).
    start, w = _resume(Xs, ys, xa.shape[0])
    dot = w.dot  # w @ x_t (the same BLAS dot), without the operator's dispatch; w changes in place
    for x_t, y_t in zip(Xs[start:], ys[start:].tolist()):
        if y_t * dot(x_t) <= 0:
            w += y_t * x_t
    _REPLAYED[:] = [Xs.copy(), ys.copy(), w.copy()]
    return int(sgn(w @ xa))


def _resume(X: NDArray[np.float64], y: NDArray[np.float64], dim: int) -> tuple[int, NDArray[np.float64]]:
    """(k, a copy of w after the first k of ``X, y``) if the last replay saw exactly those, else (0, zeros)."""
    if _REPLAYED:
        X0, y0, w0 = _REPLAYED
        k = X0.shape[0]
        if (X.ndim == 2 and X.shape[1:] == X0.shape[1:] == (dim,) and k <= X.shape[0] and y.shape == X.shape[:1]
                and np.array_equal(X[:k], X0) and np.array_equal(y[:k], y0)):
            return k, w0.copy()
    return 0, np.zeros(dim)


def adversary_sequence(learner: Learner, rounds: int, *, radius: float = 1.0, dim: int | None = None) -> AdversaryRun:
    """Make any deterministic online learner err in every one of ``rounds`` rounds, on separable data.

    Round ``t`` shows the learner ``x_t = radius * e_t`` (the ``t``-th standard basis vector of
    ``R^dim``) and the examples of the rounds before; whatever it predicts, the label is the
    opposite. The sequence is separated by ``u = sum_t y_t e_t / sqrt(N)`` with margin
    ``radius / sqrt(N)``: with ``N = floor((R / gamma)**2)`` no learner's mistake bound for data of
    radius ``R`` and margin ``gamma`` in dimension ``N`` or more can be below ``N``.

    Parameters
    ----------
    learner : callable ``learner(X_seen, y_seen, x) -> -1 or +1``
        Given the examples so far (arrays of shapes ``(t, dim)`` and ``(t,)``) and the new point,
        returns a prediction in {-1, +1}, e.g. :func:`perceptron_learner`.
    rounds : int
        Number of rounds ``N``, >= 1.
    radius : float, default 1.0
        The norm of every point, > 0.
    dim : int, optional
        The dimension, >= ``rounds`` (default ``rounds``).

    Returns
    -------
    AdversaryRun

    Raises
    ------
    ValueError
        If ``learner`` is not callable or predicts anything but -1 or +1, ``rounds < 1``,
        ``radius <= 0`` or ``dim < N``.

    References
    ----------
    N. Littlestone, "Learning quickly when irrelevant attributes abound: a new linear-threshold
    algorithm", Machine Learning 2(4), 1988 (the mistake-bound model and its lower bounds).

    Examples
    --------
    >>> run = adversary_sequence(perceptron_learner, 4, radius=2.0)
    >>> run.mistakes, run.margin, run.y.tolist()
    (4, 1.0, [-1.0, -1.0, -1.0, -1.0])
    >>> adversary_sequence(lambda X, y, x: 1, 3).mistakes  # a constant learner fares no better
    3
    """
    if not callable(learner):
        raise ValueError(f"learner must be a callable learner(X_seen, y_seen, x), got {learner!r}")  # noqa: TRY004
    k = check_integer(rounds, "rounds", 1)
    radius = check_positive(radius, "radius")
    dim = k if dim is None else check_integer(dim, "dim", k)  # the message names k as a number
    X = radius * np.eye(k, dim)
    y = np.zeros(k)
    predictions = np.zeros(k)
    for t in range(k):
        guess = learner(X[:t].copy(), y[:t].copy(), X[t].copy())
        if isinstance(guess, (bool, np.bool_)) or guess not in (-1, 1):
            raise ValueError(f"learner must predict -1 or +1, got {guess!r} in round {t}")
        predictions[t] = float(guess)
        y[t] = -predictions[t]
    u = np.zeros(dim)
    u[:k] = y / np.sqrt(k)
    return AdversaryRun(X=X, y=y, predictions=predictions, mistakes=int(np.sum(predictions != y)),
                        u=u, margin=float(np.min(y * (X @ u))))


def online_pass(X: ArrayLike, y: ArrayLike, *, bias: str = "one") -> OnlinePass:
    """Run the perceptron once over the examples in their order and keep the hypothesis each one met.

    ``w[t], b[t]`` are the weights held when example ``t`` arrives, trained on examples
    ``0, ..., t - 1`` only: on i.i.d. data, example ``t`` is a fresh test point for them. The bias
    is learned as in :func:`~perceptron.train` (from ``w = 0, b = 0``, ``eta = 1``; from a zero start
    the learning rate changes nothing).

    Examples
    --------
    >>> run = online_pass([[1.0, 0.0], [-1.0, 0.0], [2.0, 0.0]], [1, -1, 1])
    >>> run.mistakes, run.w.tolist(), run.b.tolist()
    (2, [[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]], [0.0, 1.0, 0.0])
    """
    Xa, ya = check_Xy(X, y)
    mode = check_bias(bias)
    step_b = {"one": 1.0, "radius": _max_row_norm(Xa) ** 2, "none": 0.0}[mode]
    n, d = Xa.shape
    W, biases, mistaken = np.zeros((n, d)), np.zeros(n), np.zeros(n, dtype=bool)
    w, b = np.zeros(d), 0.0
    for t in range(n):
        W[t], biases[t] = w, b
        if ya[t] * (w @ Xa[t] + b) <= 0:
            mistaken[t] = True
            w, b = w + ya[t] * Xa[t], b + ya[t] * step_b
    return OnlinePass(w=W, b=biases, mistaken=mistaken)


def online_to_batch_bound(mistakes: int, n: int, delta: float = 0.05) -> float:
    """Return ``M / n + sqrt(2 ln(1 / delta) / n)``, the online-to-batch bound on the mean test error.

    If ``n`` examples are drawn i.i.d. and an online learner makes ``M`` mistakes in one pass over
    them, then with probability at least ``1 - delta`` the mean over ``t`` of the test error of the
    hypothesis that met example ``t`` is at most this (Cesa-Bianchi, Conconi and Gentile); so is the
    expected test error of one of them picked at random, and the majority vote's is at most twice it.

    Parameters
    ----------
    mistakes : int
        ``M``, between 0 and ``n``.
    n : int
        Number of examples, >= 1.
    delta : float, default 0.05
        Confidence parameter, in (0, 1).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``mistakes`` is not an integer in ``[0, n]`` or ``delta`` is not in (0, 1).

    References
    ----------
    N. Cesa-Bianchi, A. Conconi and C. Gentile, "On the generalization ability of on-line learning
    algorithms", IEEE Transactions on Information Theory 50(9), 2004.

    Examples
    --------
    >>> round(online_to_batch_bound(10, 1000, delta=0.05), 4)
    0.0874
    """
    n = check_integer(n, "n", 1)
    mistakes = check_integer(mistakes, "mistakes", 0)
    if mistakes > n:
        raise ValueError(f"mistakes must be at most n = {n}, got {mistakes}")
    delta = check_fraction(delta, "delta")
    return mistakes / n + float(np.sqrt(2 * np.log(1 / delta) / n))



def held_out_bound(n_val: int, candidates: int, delta: float = 0.05) -> float:
    """Return ``sqrt(ln(2 k / delta) / (2 n))``: how far held-out errors can stray, all ``k`` at once.

    If ``k`` classifiers are fixed before ``n`` held-out examples are drawn i.i.d., then with
    probability at least ``1 - delta`` every one of them has a test error within this distance of
    its error rate on the held-out examples (Hoeffding's inequality for each, a union bound over
    the ``k``). So the one with the lowest held-out error has test error at most that error plus
    this, and at most the best test error of the ``k`` plus twice this.

    Parameters
    ----------
    n_val : int
        ``n``, the number of held-out examples, >= 1.
    candidates : int
        ``k``, the number of classifiers compared, >= 1 (for early stopping over ``T = 0, ..., T_max``,
        ``k = T_max + 1``).
    delta : float, default 0.05
        Confidence parameter, in (0, 1).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``n_val`` or ``candidates`` is not an integer >= 1, or ``delta`` is not in (0, 1).

    Examples
    --------
    >>> round(held_out_bound(1000, 51, delta=0.05), 4)
    0.0617
    """
    n = check_integer(n_val, "n_val", 1)
    k = check_integer(candidates, "candidates", 1)
    delta = check_fraction(delta, "delta")
    return float(np.sqrt(np.log(2 * k / delta) / (2 * n)))
