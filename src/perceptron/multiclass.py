"""The multiclass perceptron: one weight vector per class, Kesler's construction, and its mistake bound.

A point is classified by the class whose weight vector scores it highest. A training *mistake* is
the multiclass form of the book's rule ``y (w.x + b) <= 0``: the point's own class ``y`` does not
score strictly more than every other class, ``s_y <= max_{r != y} s_r``. On a mistake the own class
gains the point and the highest-scoring other class (the *rival*, the earlier class on a tie) loses
it: ``w_y += x``, ``w_r -= x``.

Kesler's construction turns this into the binary perceptron without bias: with ``phi(x, y)`` the
vector of ``n_classes`` blocks that holds ``x`` in block ``y`` (class ``y``'s) and zeros elsewhere, the point
``(x, y)`` becomes the ``n_classes - 1`` points ``z_r = phi(x, y) - phi(x, r)``, all labelled +1, and
the stacked weights ``v = (w_1, ..., w_K)`` score them ``v.z_r = s_y - s_r``. The update above is the
binary update ``v += z_r`` on the lowest-scoring of them, which is how the mistake bound
``2 (R / gamma)**2`` follows from Novikoff's (Crammer and Singer 2003; Collins 2002).

The bias modes are those of :func:`~perceptron.train`: every point is augmented with the constant
``kappa`` (1 for ``"one"``, ``R`` for ``"radius"``, none for ``"none"``) and each class learns
``b_y / kappa`` as the weight of that coordinate.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import _core
from ._validation import check_bias, check_classes, check_epochs, check_scalar, check_X
from .margins import _max_margin, _max_row_norm
from .results import MulticlassResult, MulticlassUpdate


def multiclass_train(
    X: ArrayLike,
    y: ArrayLike,
    *,
    bias: str = "one",
    max_epochs: int = 1000,
    shuffle: bool = False,
    seed: int | np.random.Generator | None = None,
    record: bool = False,
) -> MulticlassResult:
    """Train the multiclass perceptron: on a mistake, the own class gains ``x``, the rival loses it.

    Parameters
    ----------
    X : array_like of shape (n_samples, n_features)
        Training points, finite.
    y : array_like of shape (n_samples,)
        Labels: any numbers or strings, at least two distinct ones.
    bias : {"one", "radius", "none"}, default "one"
        How each class's bias is learned, as in :func:`~perceptron.train`.
    max_epochs : int, default 1000
        Largest number of passes, >= 1.
    shuffle : bool, default False
        Visit the samples in a fresh random permutation every pass.
    seed : int or numpy.random.Generator, optional
        Source of the permutations when ``shuffle`` is True.
    record : bool, default False
        Keep every update (index, own class, rival) in ``history``.

    Returns
    -------
    MulticlassResult
        ``W``, ``b``, ``classes``, ``mistakes``, ``epochs``, ``converged``, ``history``, ``errors``.

    Raises
    ------
    ValueError
        On invalid data, fewer than two classes, an unknown ``bias`` or ``max_epochs < 1``.

    See Also
    --------
    kesler_train : the same run, made by the binary perceptron on Kesler's points.
    multiclass_mistake_bound : the bound on ``mistakes`` for separable data.

    References
    ----------
    .. [1] K. Crammer and Y. Singer, "Ultraconservative online algorithms for multiclass
       problems", Journal of Machine Learning Research 3, 2003.

    Examples
    --------
    >>> X = [[2.0, 0.0], [0.0, 2.0], [-2.0, -2.0]]
    >>> result = multiclass_train(X, ["a", "b", "c"], record=True)
    >>> result.converged, result.mistakes, [(u.index, u.label, u.rival) for u in result.history]
    (True, 3, [(0, 0, 1), (1, 1, 0), (2, 2, 0)])
    >>> result.W.tolist(), result.b.tolist()
    ([[4.0, 0.0], [-2.0, 2.0], [-2.0, -2.0]], [-1.0, 0.0, 1.0])
    >>> result.predict([[3.0, 0.5], [-1.0, -3.0]]).tolist()
    ['a', 'c']
    """
    Xt, index, classes, kappa, d, max_epochs, next_order = _prepare_run(X, y, bias, max_epochs, shuffle, seed)
    V = np.zeros((classes.size, Xt.shape[1]))
    others = ~np.eye(classes.size, dtype=bool)
    rivals_of = [np.flatnonzero(row) for row in others]  # the other classes of each class, in order
    mistakes, history, epoch, clean = 0, [], 0, False
    while epoch < max_epochs and not clean:
        epoch += 1
        clean = True
        for i in next_order():
            scores = V @ Xt[i]
            label = index[i]
            rivals = rivals_of[label]
            rival = rivals[scores[rivals].argmax()]  # the earlier class on a tie
            if scores[label] <= scores[rival]:
                V[label] += Xt[i]
                V[rival] -= Xt[i]
                mistakes += 1
                clean = False
                if record:
                    history.append(MulticlassUpdate(epoch, int(i), int(label), int(rival)))
        if not np.isfinite(V).all():
            raise _core.diverged("the weights")
    return _result(V, Xt, index, classes, kappa, d, mistakes, epoch, clean, history)


def kesler_points(X: ArrayLike, y: ArrayLike, *, bias: str = "one") -> NDArray[np.float64]:
    """Kesler's construction: each labelled point becomes ``n_classes - 1`` points of the binary problem.

    With ``x~`` the point augmented as ``bias`` says and ``phi(x~, k)`` the vector of ``n_classes``
    blocks holding ``x~`` in block ``k``, point ``i`` gives ``z_ir = phi(x~_i, y_i) - phi(x~_i, r)`` for
    every other class ``r`` (in the order of the sorted classes), all labelled +1. Stacked weights
    ``v = (w~_1, ..., w~_K)`` score it ``v.z_ir = s_y - s_r``, so ``v`` makes no multiclass mistake on
    point ``i`` exactly when it scores all of its Kesler points above 0.

    Parameters
    ----------
    X : array_like of shape (n_samples, n_features)
    y : array_like of shape (n_samples,), at least two distinct labels
    bias : {"one", "radius", "none"}, default "one"

    Returns
    -------
    ndarray of shape (n_samples, n_classes - 1, n_classes * m)
        ``m`` is ``n_features + 1``, or ``n_features`` for ``bias="none"``.

    Raises
    ------
    ValueError
        On invalid data, fewer than two classes or an unknown ``bias``.

    References
    ----------
    .. [1] R. O. Duda and P. E. Hart, *Pattern Classification and Scene Analysis*, Wiley, 1973,
       section 5.12 (Kesler's construction).

    Examples
    --------
    >>> kesler_points([[3.0, 4.0]], [2], bias="none").shape  # one class: refused
    Traceback (most recent call last):
    ...
    ValueError: y has only one class (np.int64(2)); a classifier needs at least two
    >>> Z = kesler_points([[3.0, 4.0], [1.0, 0.0]], [1, 0], bias="none")
    >>> Z[0].tolist()
    [[-3.0, -4.0, 3.0, 4.0]]
    """
    Xt, index, classes, *_ = _prepare(X, y, bias)
    return _kesler(Xt, index, classes.size)


def kesler_train(
    X: ArrayLike,
    y: ArrayLike,
    *,
    bias: str = "one",
    max_epochs: int = 1000,
    shuffle: bool = False,
    seed: int | np.random.Generator | None = None,
    record: bool = False,
) -> MulticlassResult:
    """The binary perceptron without bias on Kesler's points: the multiclass perceptron by reduction.

    Stacked weights ``v`` start at 0. At each visit of point ``i`` the lowest-scoring of its Kesler
    points ``z_ir`` (:func:`kesler_points`; the earlier one on a tie) is shown to the binary
    perceptron, which updates ``v += z_ir`` when ``v.z_ir <= 0``, its mistake rule for a +1 label.
    Unstacked, ``v`` is ``(W, b / kappa)``: in exact arithmetic this run makes the same updates as
    :func:`multiclass_train` with the same arguments (bit for bit on integer data, where every score
    is exact; on other data two scores within rounding of each other could order differently).

    Parameters and Returns are those of :func:`multiclass_train`.

    Raises
    ------
    ValueError
        As :func:`multiclass_train`.

    Examples
    --------
    >>> X = [[2.0, 0.0], [0.0, 2.0], [-2.0, -2.0]]
    >>> direct, reduced = multiclass_train(X, [0, 1, 2]), kesler_train(X, [0, 1, 2])
    >>> reduced.mistakes == direct.mistakes and reduced.W.tolist() == direct.W.tolist()
    True
    """
    Xt, index, classes, kappa, d, max_epochs, next_order = _prepare_run(X, y, bias, max_epochs, shuffle, seed)
    Z = _kesler(Xt, index, classes.size)
    v = np.zeros(Z.shape[2])
    mistakes, history, epoch, clean = 0, [], 0, False
    while epoch < max_epochs and not clean:
        epoch += 1
        clean = True
        for i in next_order():
            scores = Z[i] @ v
            j = int(np.argmin(scores))
            if scores[j] <= 0:
                v += Z[i, j]
                mistakes += 1
                clean = False
                if record:
                    label = int(index[i])
                    history.append(MulticlassUpdate(epoch, int(i), label, j if j < label else j + 1))
        if not np.isfinite(v).all():
            raise _core.diverged("the weights")
    V = v.reshape(classes.size, Xt.shape[1])
    return _result(V, Xt, index, classes, kappa, d, mistakes, epoch, clean, history)


def multiclass_margin(X: ArrayLike, y: ArrayLike, *, bias: str = "one") -> float:
    """The largest multiclass margin ``gamma``: the best ``min_i min_{r != y_i} (w~_{y_i} - w~_r).x~_i``
    over stacked weights of unit length, ``sum_y ||w~_y||**2 = 1``.

    It is the largest margin through the origin of Kesler's points (:func:`kesler_points`), and is
    positive exactly when some ``(W, b)`` classifies every point correctly with ``bias``.

    Raises
    ------
    ValueError
        On invalid data, or when no linear multiclass classifier separates the data.

    Examples
    --------
    >>> round(multiclass_margin([[1.0, 0.0], [-1.0, 0.0]], [0, 1], bias="none"), 6)  # w = (+-1, 0)/sqrt(2)
    1.414214
    """
    Xt, index, classes, *_ = _prepare(X, y, bias)
    return _margin(Xt, index, classes.size, bias)


def multiclass_mistake_bound(X: ArrayLike, y: ArrayLike, *, bias: str = "one") -> float:
    """Return ``2 (R~ / gamma)**2``, the bound on the mistakes of :func:`multiclass_train` from a zero start.

    ``R~ = max_i ||x~_i||`` is the radius of the augmented points and ``gamma`` the largest multiclass
    margin (:func:`multiclass_margin`). Kesler's points have length ``sqrt(2) ||x~_i||``, so this is
    Novikoff's bound ``(R_z / gamma)**2`` for them; it holds for every visiting order.

    Raises
    ------
    ValueError
        On invalid data or data that no linear multiclass classifier separates.

    References
    ----------
    .. [1] M. Collins, "Discriminative training methods for hidden Markov models: theory and
       experiments with perceptron algorithms", EMNLP 2002, theorem 1.

    Examples
    --------
    >>> round(multiclass_mistake_bound([[1.0, 0.0], [-1.0, 0.0]], [0, 1], bias="none"), 6)
    1.0
    """
    Xt, index, classes, *_ = _prepare(X, y, bias)
    gamma = _margin(Xt, index, classes.size, bias)
    return float(2.0 * (_max_row_norm(Xt) / gamma) ** 2)


def multiclass_hinge_bound(
    X: ArrayLike, y: ArrayLike, V: ArrayLike, gamma: float, *, bias: str = "one", passes: int = 1
) -> float:
    """Return the mistake bound ``((sqrt(2) R~ + ||xi||) / gamma)**2`` of the multiclass perceptron on any data.

    For stacked weights ``V`` (one row ``(w_k, b_k / kappa)`` per class, in the order of the sorted
    classes), scaled here to unit length, and any ``gamma > 0``, the slack of point ``i`` is
    ``xi_i = max(0, gamma - min_{r != y_i} (V[y_i] - V[r]).x~_i)``: how far the right class falls
    short of beating the best rival by ``gamma``. :func:`multiclass_train` from a zero start makes at
    most this many mistakes in ``passes`` passes in any order (Freund and Schapire's bound on
    Kesler's points, whose radius is ``sqrt(2) R~``). The data need not be separable.

    Parameters
    ----------
    X : array_like of shape (n_samples, n_features)
    y : array_like of shape (n_samples,), any labels of at least two classes
    V : array_like of shape (n_classes, p)
        ``p = n_features + 1`` with a bias, ``n_features`` for ``bias="none"``; not all zero.
    gamma : float
        Target margin, > 0.
    bias : {"one", "radius", "none"}, default "one"
    passes : int, default 1
        Passes covered; ``||xi||`` counts each point once per pass.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        On invalid data, a ``V`` of the wrong shape or all zero, ``gamma <= 0`` or ``passes < 1``.

    Examples
    --------
    >>> round(multiclass_hinge_bound([[1.0], [-1.0]], [0, 1], [[1.0], [-1.0]], 1.0, bias="none"), 6)
    2.0
    """
    Xt, index, classes, *_ = _prepare(X, y, bias)
    Va = np.asarray(V, dtype=np.float64)
    if Va.shape != (classes.size, Xt.shape[1]):
        raise ValueError(f"V must have shape ({classes.size}, {Xt.shape[1]}): one row per class, "
                         f"{Xt.shape[1]} weights each (bias={bias!r}); got {Va.shape}")
    norm = float(np.linalg.norm(Va))
    if not np.isfinite(norm) or norm == 0.0:
        raise ValueError("V must be finite and not all zero")
    gamma = check_scalar(gamma, "gamma")
    if gamma <= 0:
        raise ValueError(f"gamma must be > 0, got {gamma:g}")
    passes = check_epochs(passes, "passes")
    scores = Xt @ (Va / norm).T
    own = scores[np.arange(len(index)), index]
    scores[np.arange(len(index)), index] = -np.inf
    slack = np.maximum(0.0, gamma - (own - scores.max(axis=1)))
    radius = np.sqrt(2.0) * _max_row_norm(Xt)
    return float(((radius + np.sqrt(passes) * np.linalg.norm(slack)) / gamma) ** 2)


def _prepare(
    X: ArrayLike, y: ArrayLike, bias: str
) -> tuple[NDArray[np.float64], NDArray[np.intp], NDArray[np.generic], float, int]:
    """The boundary of every public function: check the data and ``bias``; return the augmented
    points, the class position of each label, the sorted classes, ``kappa`` and the number of features."""
    Xa = check_X(X)
    classes, index = check_classes(y, Xa.shape[0])
    mode = check_bias(bias)
    kappa = _core.bias_scale(Xa, mode)
    Xt = Xa if mode == "none" else np.column_stack([Xa, np.full(len(Xa), kappa)])
    return Xt, index, classes, kappa, Xa.shape[1]


def _prepare_run(
    X: ArrayLike, y: ArrayLike, bias: str, max_epochs: int, shuffle: bool, seed: int | np.random.Generator | None
) -> tuple[NDArray[np.float64], NDArray[np.intp], NDArray[np.generic], float, int, int, Callable[[], NDArray[np.intp]]]:
    """:func:`_prepare` for a training run: also the checked ``max_epochs`` and the visiting order."""
    Xt, index, classes, kappa, d = _prepare(X, y, bias)
    max_epochs = check_epochs(max_epochs)
    return Xt, index, classes, kappa, d, max_epochs, _core.visiting_order(len(Xt), shuffle, seed)


def _margin(Xt: NDArray[np.float64], index: NDArray[np.intp], n_classes: int, bias: str) -> float:
    """:func:`multiclass_margin` of trusted augmented data."""
    Z = _kesler(Xt, index, n_classes).reshape(-1, n_classes * Xt.shape[1])
    # Kesler's points are all labelled +1; the same points as (z, +1) and (-z, -1) have the same
    # margin for every v and give the max-margin solver both labels.
    signs = np.concatenate([np.ones(len(Z)), -np.ones(len(Z))])
    try:
        return _max_margin(np.vstack([Z, -Z]), signs, offset=False).gamma
    except ValueError as exc:
        if "not linearly separable" not in str(exc):
            raise
        raise ValueError(
            f"no linear multiclass classifier (bias={bias!r}) gets every point right: the margin is not positive"
        ) from None


def _kesler(Xt: NDArray[np.float64], index: NDArray[np.intp], n_classes: int) -> NDArray[np.float64]:
    """Kesler's points of trusted augmented data, shape (n, K - 1, K * m)."""
    n, m = Xt.shape
    Z = np.zeros((n, n_classes - 1, n_classes, m))
    for i in range(n):
        rivals = [r for r in range(n_classes) if r != index[i]]
        Z[i, :, index[i]] = Xt[i]
        Z[i, np.arange(n_classes - 1), rivals] = -Xt[i]
    return Z.reshape(n, n_classes - 1, n_classes * m)


def _result(V, Xt, index, classes, kappa, d, mistakes, epoch, clean, history) -> MulticlassResult:
    """Unstack the augmented weights ``V`` into ``(W, b)`` and count the training errors."""
    W = V[:, :d].copy()
    b = V[:, d] * kappa if d < Xt.shape[1] else np.zeros(classes.size)
    scores = Xt @ V.T
    own = scores[np.arange(len(index)), index]
    scores[np.arange(len(index)), index] = -np.inf
    errors = int(np.count_nonzero(own <= scores.max(axis=1)))
    return MulticlassResult(W, b, classes, mistakes, epoch, clean, tuple(history), errors)
