"""Tools for watching the perceptron on data that no hyperplane separates.

On such data the perceptron never makes a clean pass. Its weights stay bounded (the perceptron
cycling theorem of Minsky and Papert, proved by Block and Levin), and when the data are integers
and the visiting order is fixed, boundedness forces the weights to repeat exactly. This module
holds what the book needs to *show* that behaviour and to judge the remedies against the truth:

* :func:`weights_at_epoch_ends` turns a recorded run into the weights held after every pass;
* :func:`find_cycle` runs the perceptron pass after pass and detects the first repeated state;
* :func:`fewest_errors_line` finds, by exhaustive search, a line with the fewest training errors
  of all lines in the plane (the target a pocket-style algorithm aims at);
* :func:`choose_epochs` picks the number of passes by the error on held-out data (early stopping).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._core import count_errors
from ._validation import check_bias, check_epochs, check_scalar, check_w, check_Xy
from .results import BestLine, Cycle, TrainResult
from .training import _train


def weights_at_epoch_ends(
    result: TrainResult, *, w0: ArrayLike | None = None, b0: float = 0.0
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Return the weights and bias held at the start and after each pass of a recorded run.

    Parameters
    ----------
    result : TrainResult
        A run of :func:`~perceptron.train` made with ``record=True``.
    w0 : array_like of shape (n_features,), optional
        The run's starting weights (zeros when omitted, as in ``train``).
    b0 : float, default 0.0
        The run's starting bias.

    Returns
    -------
    W : ndarray of shape (result.epochs + 1, n_features)
        ``W[0]`` is the start, ``W[e]`` the weights after pass ``e``.
    b : ndarray of shape (result.epochs + 1,)
        The matching biases.

    Raises
    ------
    ValueError
        If ``result`` is not a TrainResult, or made updates that were not recorded.

    Examples
    --------
    The XOR square from a zero start: four mistakes in the first pass bring the weights back to
    zero, so the state after every pass is the start.

    >>> from perceptron import train
    >>> X = [[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]]
    >>> W, b = weights_at_epoch_ends(train(X, [1, 1, -1, -1], max_epochs=3, record=True))
    >>> W.tolist(), b.tolist()
    ([[0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]], [0.0, 0.0, 0.0, 0.0])
    """
    if not isinstance(result, TrainResult):
        raise ValueError(  # noqa: TRY004 - every bad argument is a ValueError (perceptron._validation)
            f"result must be a TrainResult from train(..., record=True), got {type(result).__name__}"
        )
    if len(result.history) != result.mistakes:
        raise ValueError(
            f"the run made {result.mistakes} updates but recorded {len(result.history)}; "
            "train it with record=True"
        )
    d = result.w.shape[0]
    w = np.zeros(d) if w0 is None else check_w(w0, d, name="w0").copy()
    b = check_scalar(b0, "b0")
    W = np.empty((result.epochs + 1, d))
    biases = np.empty(result.epochs + 1)
    W[0], biases[0] = w, b
    updates = iter(result.history)
    pending = next(updates, None)
    for epoch in range(1, result.epochs + 1):
        while pending is not None and pending.epoch <= epoch:  # the last update of the pass wins
            w, b = pending.w, pending.b
            pending = next(updates, None)
        W[epoch], biases[epoch] = w, b
    return W, biases


def find_cycle(X: ArrayLike, y: ArrayLike, *, bias: str = "one", max_epochs: int = 10_000) -> Cycle | None:
    """Run the perceptron pass after pass (fixed order, ``eta = 1``) until a state repeats.

    One pass in a fixed order is a function of the state ``(w, b)`` at its start, so as soon as a
    starting state repeats, the whole run repeats from there on. With integer data (and
    ``bias="one"`` or ``"none"``) every state is an integer vector; the cycling theorem bounds
    them, so there are finitely many, and a repeat must occur. With other data a repeat is not
    guaranteed (the weights need not come back *exactly*), and the search may end without one.

    Parameters
    ----------
    X : array_like of shape (n_samples, n_features)
        Training points, finite.
    y : array_like of shape (n_samples,)
        Labels, each -1 or +1, both present.
    bias : {"one", "radius", "none"}, default "one"
        How the bias is learned, as in :func:`~perceptron.train`.
    max_epochs : int, default 10000
        Largest number of passes to try, >= 1.

    Returns
    -------
    Cycle or None
        The first repeat, or None when no starting state repeated within ``max_epochs`` passes.

    Raises
    ------
    ValueError
        On invalid data, an unknown ``bias`` or ``max_epochs < 1``.

    Examples
    --------
    On the XOR square one pass of four mistakes returns the weights to zero:

    >>> X = [[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]]
    >>> cycle = find_cycle(X, [1, 1, -1, -1])
    >>> cycle.start, cycle.period, cycle.updates_per_period
    (0, 1, 4)
    """
    Xa, ya = check_Xy(X, y)
    mode = check_bias(bias)
    max_epochs = check_epochs(max_epochs)
    w, b = np.zeros(Xa.shape[1]), 0.0
    seen: dict[bytes, int] = {}
    states: list[tuple[NDArray[np.float64], float]] = []
    mistakes: list[int] = []
    for epoch in range(max_epochs + 1):
        key = np.append(w, b).tobytes()  # exact equality of floats: a repeat means an exact repeat
        if key in seen:
            start = seen[key]
            states.append((w, b))
            return Cycle(
                start=start,
                period=epoch - start,
                weights=np.array([s[0] for s in states]),
                biases=np.array([s[1] for s in states]),
                updates_per_period=int(sum(mistakes[start:epoch])),
            )
        if epoch == max_epochs:
            return None
        seen[key] = epoch
        states.append((w, b))
        one_pass = _train(Xa, ya, bias=mode, w0=w, b0=b, max_epochs=1)  # checked above, not every pass
        mistakes.append(one_pass.mistakes)
        w, b = one_pass.w, float(one_pass.b)
    return None  # unreachable: the loop returns at epoch == max_epochs


def fewest_errors_line(X: ArrayLike, y: ArrayLike) -> BestLine:
    """Return a line of the plane with the fewest training errors ``y (w.x + b) <= 0``.

    Minimising training errors over hyperplanes is NP-hard when the dimension grows with the
    data, but in the plane an exhaustive search is exact and cheap. Along a unit direction ``u``
    the points are ordered by ``u.x``, and a line perpendicular to ``u`` can only split that order
    at one place. The order changes only at the *critical* directions perpendicular to some
    ``x_i - x_j``, so one direction strictly inside each arc between consecutive critical
    directions, with every split and both orientations, covers every labelling a line can
    produce without passing through a point (a line through a point only adds a mistake there).
    The cost is ``O(n^3 log n)`` for ``n`` points, fine up to a few hundred.

    Parameters
    ----------
    X : array_like of shape (n_samples, 2)
        Points of the plane, finite.
    y : array_like of shape (n_samples,)
        Labels, each -1 or +1, both present.

    Returns
    -------
    BestLine
        ``(w, b, errors)`` with ``||w|| = 1`` and the line halfway between the two projections
        it separates, so that no point lies on it.

    Raises
    ------
    ValueError
        On invalid data or when ``X`` does not have exactly two columns.

    Examples
    --------
    Five points in a row labelled -, -, +, -, +: a line splits the row once, so it gets at least
    one of them wrong, and one is enough.

    >>> row = [[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [3.0, 0.0], [4.0, 0.0]]
    >>> line = fewest_errors_line(row, [-1, -1, 1, -1, 1])
    >>> line.errors
    1
    """
    Xa, ya = check_Xy(X, y)
    if Xa.shape[1] != 2:
        raise ValueError(
            f"fewest_errors_line searches lines of the plane: X must have 2 columns, got {Xa.shape[1]}"
        )
    n = Xa.shape[0]
    i, j = np.triu_indices(n, 1)
    diff = Xa[i] - Xa[j]
    diff = diff[np.any(diff != 0, axis=1)]  # duplicate points define no direction
    critical = np.unique(np.mod(np.arctan2(diff[:, 1], diff[:, 0]) + np.pi / 2, np.pi))
    if critical.size == 0:
        critical = np.array([0.0])
    # One direction inside every arc between consecutive critical directions (mod pi).
    directions = (critical + np.append(critical[1:], critical[0] + np.pi)) / 2
    best = BestLine(np.array([1.0, 0.0]), float("inf"), n + 1)
    for theta in directions:
        u = np.array([np.cos(theta), np.sin(theta)])
        proj = Xa @ u
        order = np.argsort(proj, kind="stable")
        labels = ya[order]
        # Split after k sorted points: the first k predicted -1, the rest +1 (errors_up), or the reverse.
        plus_before = np.concatenate([[0], np.cumsum(labels == 1)])
        minus_after = np.concatenate([[0], np.cumsum(labels[::-1] == -1)])[::-1]
        errors_up = plus_before + minus_after
        sorted_proj = proj[order]
        # A split between two equal projections (duplicate points) would put both on the line.
        splittable = np.concatenate([[True], sorted_proj[1:] > sorted_proj[:-1], [True]])
        for sign, errors in ((1.0, errors_up), (-1.0, n - errors_up)):
            errors = np.where(splittable, errors, n + 1)
            k = int(np.argmin(errors))
            if errors[k] < best.errors:
                lo = sorted_proj[k - 1] if k > 0 else sorted_proj[0] - 1.0
                hi = sorted_proj[k] if k < n else sorted_proj[-1] + 1.0
                threshold = (lo + hi) / 2
                best = BestLine(sign * u, float(-sign * threshold), int(errors[k]))
    # The count is re-derived from the returned line, so the two can never disagree.
    return BestLine(best.w, best.b, count_errors(Xa, ya, best.w, best.b))


def choose_epochs(
    X: ArrayLike, y: ArrayLike, X_val: ArrayLike, y_val: ArrayLike, *, max_epochs: int, **options
) -> tuple[int, NDArray[np.float64]]:
    """Choose the number of passes ``T`` by the error on held-out data (early stopping).

    Trains once on ``X, y`` for ``max_epochs`` passes, recording the run, and measures the error
    rate on ``X_val, y_val`` of the weights held at the start (``T = 0``) and after every pass. A
    run that converges early keeps its final weights for the remaining passes.

    Parameters
    ----------
    X, y : array_like
        Training points and labels in {-1, +1}.
    X_val, y_val : array_like
        Held-out points and labels, used for nothing else.
    max_epochs : int
        The largest ``T`` considered, >= 1.
    **options
        Passed to :func:`~perceptron.train` (``shuffle``, ``seed``, ``bias``, ``eta``, ...),
        except ``record``, ``max_epochs``, ``w0`` and ``b0``.

    Returns
    -------
    T : int
        The smallest ``T`` with the lowest held-out error.
    errors : ndarray of shape (max_epochs + 1,)
        ``errors[T]``: the held-out error rate of the weights after ``T`` passes.

    Raises
    ------
    ValueError
        On invalid data, held-out points with another number of features, a ``max_epochs`` below
        1, or an option ``choose_epochs`` sets itself.

    Examples
    --------
    Four points on a line that no threshold separates, the same points held out:

    >>> X, y = [[0.0], [1.0], [2.0], [3.0]], [-1, 1, -1, 1]
    >>> T, errors = choose_epochs(X, y, X, y, max_epochs=4)
    >>> T, errors.tolist()
    (2, [0.5, 0.5, 0.25, 0.5, 0.25])
    """
    from .training import train  # the public entry point: it validates the options

    Xa, ya = check_Xy(X, y)
    Xv, yv = check_Xy(X_val, y_val)
    if Xv.shape[1] != Xa.shape[1]:
        raise ValueError(f"X_val has {Xv.shape[1]} features but X has {Xa.shape[1]}")
    T_max = check_epochs(max_epochs)
    fixed = sorted({"record", "max_epochs", "w0", "b0"} & set(options))
    if fixed:
        raise ValueError(f"choose_epochs sets {', '.join(fixed)} itself; do not pass it")
    run = train(Xa, ya, max_epochs=T_max, record=True, **options)
    W, biases = weights_at_epoch_ends(run)
    W = np.vstack([W, np.repeat(W[-1:], T_max + 1 - len(W), axis=0)])
    biases = np.concatenate([biases, np.repeat(biases[-1:], T_max + 1 - len(biases))])
    scores = Xv @ W.T + biases
    errors = np.mean(np.where(scores >= 0, 1.0, -1.0) != yv[:, None], axis=0)
    return int(np.argmin(errors)), errors
