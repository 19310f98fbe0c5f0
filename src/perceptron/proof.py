"""The quantities of the perceptron convergence proof, measured along a recorded training run.

The proof of the mistake bound (Novikoff 1962; Block 1962) follows two numbers through the
updates of a run started at ``w = 0, b = 0``. Writing every bias mode as the perceptron without
bias on augmented points ``x~ = (x, kappa)`` with weights ``w~ = (w, b / kappa)`` (``kappa = 1`` for
``bias="one"``, ``kappa = R`` for ``"radius"``, no extra coordinate for ``"none"``), and ``u`` a unit
vector separating the augmented points with margin ``g~ = min_i y_i u.x~_i > 0``:

* the squared norm grows slowly: ``||w~_k||^2 <= k eta^2 R~^2`` with ``R~ = max_i ||x~_i||``;
* the alignment with ``u`` grows fast: ``u.w~_k >= k eta g~``;

so the cosine ``u.w~_k / ||w~_k||``, at most 1, is at least ``sqrt(k) g~ / R~``, and the number
of updates ``k`` cannot exceed ``(R~ / g~)^2``. :func:`proof_quantities` returns these sequences
(divided by ``eta``, which from a zero start only rescales them) so that a chapter can plot
and assert each inequality.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._core import bias_scale
from ._validation import check_bias, check_positive, check_scalar, check_w, check_Xy, check_zero_start
from .margins import _max_margin, _max_row_norm
from .results import ProofQuantities, TrainResult


def _augment(X: NDArray[np.float64], bias: str) -> tuple[NDArray[np.float64], float]:
    """Append the bias mode's constant ``kappa`` to every row (nothing for ``"none"``); return ``(X~, kappa)``."""
    kappa = bias_scale(X, bias)  # type: ignore[arg-type]
    if bias == "none":
        return X, 0.0
    return np.column_stack([X, np.full(X.shape[0], kappa)]), kappa


def proof_quantities(
    X: ArrayLike,
    y: ArrayLike,
    result: TrainResult,
    w_star: ArrayLike | None = None,
    b_star: float = 0.0,
    *,
    bias: str = "one",
    eta: float = 1.0,
) -> ProofQuantities:
    """Measure the convergence proof's quantities along a run recorded with ``record=True``.

    Parameters
    ----------
    X : array_like of shape (n_samples, n_features)
        The training points of the run.
    y : array_like of shape (n_samples,), labels in {-1, +1}
    result : TrainResult
        A run of :func:`~perceptron.train` on ``(X, y)`` with ``record=True``, started from
        ``w = 0, b = 0``, with the same ``bias`` and ``eta`` as given here.
    w_star : array_like of shape (n_features,), optional
        Normal of the reference separator ``(w_star, b_star)`` the proof compares with (any
        scale). When omitted, the separator with the largest margin on the augmented points
        is used, which gives the smallest bound the proof can give for this bias mode.
    b_star : float, default 0.0
        Offset of the reference separator; must be 0 when ``bias="none"``. Ignored when
        ``w_star`` is omitted.
    bias : {"one", "radius", "none"}, default "one"
        The bias mode of the run.
    eta : float, default 1.0
        The learning rate of the run.

    Returns
    -------
    ProofQuantities

    Raises
    ------
    ValueError
        On invalid data; when ``result`` holds no history of its updates (train with
        ``record=True``) or does not belong to ``(X, y)``, ``bias`` and ``eta``; when the run
        did not start at ``w = 0, b = 0`` (the proof assumes it); when the reference does not
        separate the augmented points with a positive margin; or when ``b_star != 0`` with
        ``bias="none"``.

    References
    ----------
    .. [1] A. B. J. Novikoff, "On convergence proofs on perceptrons", Symposium on the
       Mathematical Theory of Automata, 1962.
    .. [2] H. D. Block, "The perceptron: a model for brain functioning. I", Reviews of Modern
       Physics 34(1), 1962.

    Examples
    --------
    >>> from perceptron import train
    >>> X, y = [[1.0, 0.0], [0.0, 1.0], [-0.5, -0.5]], [1, 1, -1]
    >>> run = train(X, y, bias="none", record=True)
    >>> q = proof_quantities(X, y, run, bias="none")
    >>> q.k.tolist(), q.sq_norm.tolist(), q.sq_norm_bound.tolist()
    ([1, 2], [1.0, 2.0], [1.0, 2.0])
    >>> round(q.margin ** 2, 12), round(q.bound, 12)
    (0.5, 2.0)
    """
    Xa, ya = check_Xy(X, y)
    mode = check_bias(bias)
    eta = check_positive(eta, "eta")
    if not isinstance(result, TrainResult):
        raise ValueError(  # noqa: TRY004 - every bad argument is a ValueError (perceptron._validation)
            f"result must be a TrainResult from perceptron.train, got {type(result).__name__}"
        )
    if len(result.history) != result.mistakes:
        raise ValueError(
            f"result records {len(result.history)} of its {result.mistakes} updates: train with record=True"
        )
    Xt, kappa = _augment(Xa, mode)
    u = _reference(Xa, ya, Xt, kappa, mode, w_star, b_star)
    margin = float(np.min(ya * (Xt @ u)))
    if margin <= 0:
        raise ValueError(
            f"the reference separator does not separate the data (its smallest margin is {margin:.3g} <= 0)"
        )
    R = _max_row_norm(Xt)
    W = _augmented_history(result, Xa.shape, kappa, mode) / eta
    check_zero_start(W, Xt, ya, [u.index for u in result.history], R)
    k = np.arange(1, len(W) + 1, dtype=np.int64)
    sq_norm = np.einsum("ij,ij->i", W, W)
    alignment = W @ u
    with np.errstate(invalid="ignore", divide="ignore"):  # an update can never give w~ = 0 here
        cosine = alignment / np.sqrt(sq_norm)
    return ProofQuantities(
        k=k,
        sq_norm=sq_norm,
        sq_norm_bound=k * R**2,
        alignment=alignment,
        alignment_bound=k * margin,
        cosine=cosine,
        cosine_bound=np.sqrt(k) * margin / R,
        radius=R,
        margin=margin,
        bound=(R / margin) ** 2,
    )


def _reference(
    X: NDArray[np.float64],
    y: NDArray[np.float64],
    Xt: NDArray[np.float64],
    kappa: float,
    mode: str,
    w_star: ArrayLike | None,
    b_star: float,
) -> NDArray[np.float64]:
    """The unit augmented reference separator ``u``: the given ``(w*, b*/kappa)`` or the best one."""
    if w_star is None:
        return _max_margin(Xt, y, offset=False).w
    w = check_w(w_star, X.shape[1], name="w_star")
    b = check_scalar(b_star, "b_star")
    if mode == "none":
        if b != 0.0:
            raise ValueError(f"bias='none' trains hyperplanes through the origin: b_star must be 0, got {b:g}")
        v = w
    else:
        v = np.append(w, b / kappa)
    norm = float(np.linalg.norm(v))
    if norm == 0.0:
        raise ValueError("w_star is the zero vector: it defines no separator")
    return v / norm


def _augmented_history(result: TrainResult, shape: tuple[int, int], kappa: float, mode: str) -> NDArray[np.float64]:
    """Rows ``w~_k = (w_k, b_k / kappa)`` of the recorded updates (``w_k`` alone for ``"none"``)."""
    n, d = shape
    width = d if mode == "none" else d + 1
    W = np.empty((len(result.history), width))
    for row, update in enumerate(result.history):
        if not 0 <= update.index < n or np.shape(update.w) != (d,):
            raise ValueError("result does not belong to X: its updates name other samples or dimensions")
        if mode == "none" and update.b != 0.0:
            raise ValueError("the run's bias is not 0: with bias='none' the proof assumes b0 = 0")
        W[row, :d] = update.w
        if mode != "none":
            W[row, d] = update.b / kappa
    return W
