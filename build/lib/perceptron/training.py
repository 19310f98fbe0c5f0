"""Rosenblatt's perceptron: the mistake-driven training loop in its textbook variants.

Conventions (stated once in the book's notation page and used everywhere):

* a *mistake* is ``y_i * (w @ x_i + b) <= 0``: a point on the hyperplane counts as a mistake,
  which is also scikit-learn's rule;
* on a mistake ``w += eta * y_i * x_i``; the bias follows the ``bias`` mode, which is the same
  as augmenting every point with a constant coordinate ``c`` and learning its weight ``b / c``:

  ============  ==========  ===========================  ==============================
  ``bias``      ``c``       bias update                  mistake bound (zero start)
  ============  ==========  ===========================  ==============================
  ``"one"``     1           ``b += eta * y_i``           Novikoff on the augmented data
  ``"radius"``  R           ``b += eta * y_i * R**2``    ``(2 R / gamma)**2``
  ``"none"``    0           ``b`` stays ``b0``           ``(R / gamma)**2``
  ============  ==========  ===========================  ==============================

  where ``R = max_i ||x_i||``.
"""

from __future__ import annotations

import math
import sys
from contextlib import contextmanager
from dataclasses import replace
from typing import Callable, Iterator

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._validation import (
    BiasMode,
    check_bias,
    check_epochs,
    check_positive,
    check_scalar,
    check_w,
    check_Xy,
)
from .results import TrainResult, Update

#: Sample visits (passes x samples) left to the readable loop before the compiled pass takes over.
REFERENCE_BUDGET = 5_000


def bias_scale(X: NDArray[np.float64], bias: BiasMode) -> float:
    """Return the constant ``c`` that the bias mode appends to every point (1, R or 0)."""
    if bias == "one":
        return 1.0
    if bias == "radius":
        return float(np.max(np.linalg.norm(X, axis=1)))
    return 0.0


def visiting_order(n: int, shuffle: bool, seed: int | np.random.Generator | None) -> Callable[[], NDArray[np.intp]]:
    """Return a function giving the order of the next pass: fixed, or a fresh seeded permutation."""
    if not shuffle:
        fixed = np.arange(n)
        return lambda: fixed
    rng = np.random.default_rng(seed)
    return lambda: rng.permutation(n)


def sequential_dot(x: NDArray[np.float64], w: NDArray[np.float64]) -> float:
    """Return ``w . x`` with the products added one at a time, left to right.

    This pins the rounding of a score: it is the order of scikit-learn's ``Perceptron`` and of the
    compiled loop in :mod:`perceptron.fast_training`. ``x @ w`` calls BLAS, which adds in blocks
    (with this machine's OpenBLAS, from 16 features on) and can round differently; that matters
    only for a score within rounding of 0, but then it decides whether a point is a mistake.
    """
    return float(np.cumsum(x * w)[-1])


def count_errors(X: NDArray[np.float64], y: NDArray[np.float64], w: NDArray[np.float64], b: float) -> int:
    """Count the points with ``y (w.x + b) <= 0`` (the book's notion of a mistake)."""
    return int(np.count_nonzero(y * (X @ w + b) <= 0))


def diverged(what: str) -> ValueError:
    """The error raised when arithmetic overflows during training."""
    return ValueError(
        f"training diverged: {what} overflowed to inf/NaN; rescale X or lower eta (or w0/b0)"
    )


@contextmanager
def overflow_raises(what: str) -> Iterator[None]:
    """Inside the block, numpy overflow raises :func:`diverged` naming ``what``.

    Overflow is an error, not a warning followed by inf/NaN weights: a NaN score would otherwise
    compare as "no mistake" and training would go on silently.
    """
    try:
        with np.errstate(over="raise", invalid="raise"):
            yield
    except FloatingPointError:
        raise diverged(what) from None


def prepare_run(
    X: ArrayLike,
    y: ArrayLike,
    eta: float,
    bias: str,
    max_epochs: int,
    shuffle: bool,
    seed: int | np.random.Generator | None,
) -> tuple[NDArray[np.float64], NDArray[np.float64], float, float, int, Callable[[], NDArray[np.intp]]]:
    """Validate the arguments every perceptron variant shares (train, pocket, averaged, voted).

    Returns ``(X, y, eta, step_b, max_epochs, next_order)``: the checked data, the bias step
    ``eta * c**2`` of the bias mode and the function giving each pass's visiting order.
    """
    Xa, ya = check_Xy(X, y)
    eta = check_positive(eta, "eta")
    mode = check_bias(bias)
    max_epochs = check_epochs(max_epochs)
    step_b = eta * bias_scale(Xa, mode) ** 2
    return Xa, ya, eta, step_b, max_epochs, visiting_order(Xa.shape[0], shuffle, seed)


def train(
    X: ArrayLike,
    y: ArrayLike,
    *,
    eta: float = 1.0,
    bias: str = "one",
    w0: ArrayLike | None = None,
    b0: float = 0.0,
    max_epochs: int = 1000,
    shuffle: bool = False,
    seed: int | np.random.Generator | None = None,
    record: bool = False,
) -> TrainResult:
    """Train a perceptron by Rosenblatt's mistake-driven rule.

    The loop visits the samples pass after pass; on every mistake (``y_i (w.x_i + b) <= 0``) it
    adds ``eta * y_i * x_i`` to ``w`` and updates ``b`` as ``bias`` says. It stops after the first
    pass without a mistake, or after ``max_epochs`` passes, so it always terminates.

    Parameters
    ----------
    X : array_like of shape (n_samples, n_features)
        Training points, finite.
    y : array_like of shape (n_samples,)
        Labels, each -1 or +1, both present.
    eta : float, default 1.0
        Learning rate, > 0. From a zero start it only rescales ``(w, b)``: in exact arithmetic
        the mistakes are the same for every ``eta``. In floating point this holds bit for bit when
        ``eta`` is a power of two; otherwise rounding can flip the sign of a score that is exactly
        zero for one ``eta`` (e.g. integer data), so runs can then differ.
    bias : {"one", "radius", "none"}, default "one"
        How the bias is learned: ``b += eta*y`` (augment with 1), ``b += eta*y*R**2`` (the
        variant of the CMU 36-350 notes, augment with R) or not at all (``b`` stays ``b0``).
    w0 : array_like of shape (n_features,), optional
        Starting weights; zeros when omitted.
    b0 : float, default 0.0
        Starting bias.
    max_epochs : int, default 1000
        Largest number of passes, >= 1.
    shuffle : bool, default False
        Visit the samples in a fresh random permutation every pass instead of in the given order.
    seed : int or numpy.random.Generator, optional
        Source of the permutations when ``shuffle`` is True.
    record : bool, default False
        Keep every update (index and the ``(w, b)`` after it) in ``history``.

    Returns
    -------
    TrainResult
        ``w``, ``b``, ``mistakes``, ``epochs``, ``converged``, ``history`` and ``errors``.

    Raises
    ------
    ValueError
        On invalid data, labels other than -1/+1, ``eta <= 0``, ``max_epochs < 1``, an unknown
        ``bias``, or when the weights or scores overflow during training.

    Notes
    -----
    Small runs execute :func:`reference_loop`, the loop the book shows. Once a run has visited
    about ``REFERENCE_BUDGET`` samples without converging (at once when ``n_samples`` exceeds it,
    or when the compiled loop is already loaded), the remaining passes run compiled
    (:mod:`perceptron.fast_training`, with numba), making the same updates in the same order with
    the same floating-point results; ``record=True`` always uses the readable loop.

    See Also
    --------
    pocket : keeps the best weights on data that are not separable.
    averaged : the averaged perceptron.
    mistake_bound : the number of mistakes this function can make on separable data.

    References
    ----------
    .. [1] F. Rosenblatt, "The perceptron: a probabilistic model for information storage and
       organization in the brain", Psychological Review 65(6), 1958.

    Examples
    --------
    >>> X = [[2.0, 1.0], [1.0, 3.0], [-1.0, -1.0], [-2.0, 1.0]]
    >>> y = [1, 1, -1, -1]
    >>> result = train(X, y)
    >>> result.converged, result.mistakes, result.w.tolist(), result.b
    (True, 1, [2.0, 1.0], 1.0)
    """
    Xa, ya, eta, step_b, max_epochs, next_order = prepare_run(X, y, eta, bias, max_epochs, shuffle, seed)
    w = np.zeros(Xa.shape[1]) if w0 is None else check_w(w0, Xa.shape[1], name="w0").copy()
    b = check_scalar(b0, "b0")
    # Both loops below make the same updates in the same order, bit for bit (tests/
    # test_training_speed_paths.py checks it against each other and scikit-learn). Small runs stay
    # in the readable loop, which spares them loading numba; the compiled pass takes over once
    # the work exceeds about REFERENCE_BUDGET sample visits, or at once if it is already loaded.
    if record:
        head = max_epochs
    elif compiled_loop_loaded():
        head = 0
    else:
        head = min(max_epochs, REFERENCE_BUDGET // Xa.shape[0])
    if head > 0:
        # The loop checks every score and weight for inf/NaN and raises `diverged` itself; numpy's
        # own overflow warnings would only print noise before that error.
        with np.errstate(over="ignore", invalid="ignore"):
            result = reference_loop(Xa, ya, eta, step_b, w, b, head, next_order, record)
        if result.converged or head == max_epochs:
            return result
        w, b = result.w, result.b
    from .fast_training import fast_loop  # imported on first use: numba takes ~0.3 s to load

    rest = fast_loop(Xa, ya, eta, step_b, w, b, max_epochs - head, next_order)
    if head == 0:
        return rest
    return replace(rest, mistakes=result.mistakes + rest.mistakes, epochs=head + rest.epochs)


def compiled_loop_loaded() -> bool:
    """Whether :mod:`perceptron.fast_training` (and with it numba) is already imported."""
    return f"{__package__}.fast_training" in sys.modules


def reference_loop(
    X: NDArray[np.float64],
    y: NDArray[np.float64],
    eta: float,
    step_b: float,
    w: NDArray[np.float64],
    b: float,
    max_epochs: int,
    next_order: Callable[[], NDArray[np.intp]],
    record: bool,
) -> TrainResult:
    """The textbook loop, one sample at a time: the version the book teaches from.

    Inputs are trusted (validated by :func:`train`). ``w`` is modified in place.
    """
    mistakes = 0
    history: list[Update] = []
    epoch = 0
    clean = False
    while epoch < max_epochs and not clean:
        epoch += 1
        clean = True
        for i in next_order():
            score = sequential_dot(X[i], w) + b
            if not math.isfinite(score):
                raise diverged("a score")
            if y[i] * score <= 0:  # on the wrong side, or on the hyperplane: a mistake
                w += (eta * y[i]) * X[i]
                b += y[i] * step_b
                mistakes += 1
                clean = False
                if record:
                    history.append(Update(epoch, int(i), w.copy(), float(b)))
        if not (np.isfinite(w).all() and math.isfinite(b)):
            raise diverged("the weights")
    return TrainResult(
        w=w,
        b=float(b),
        mistakes=mistakes,
        epochs=epoch,
        converged=clean,
        history=tuple(history),
        errors=count_errors(X, y, w, b),
    )
