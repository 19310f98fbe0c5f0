"""The private core every training algorithm shares: nothing in the package sits below it but
:mod:`perceptron._validation`.

It holds the pieces of a mistake-driven run that must be the same in every variant (the
perceptron, the pocket, the averaged and voted perceptrons, SGD, the compiled pass, the proof's
quantities): the bias scale, the visiting order, the rounding of a score, the mistake rules, the
error count, the divergence error and overflow guard, and the argument checks they all share
(:func:`prepare_run`, the public functions' boundary). Everything else here trusts its input.
Higher modules import from here, never from :mod:`perceptron.training`, so the package's imports
run one way (``tests/package/test_structure.py`` checks that no import, late ones included, closes a cycle).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._validation import BiasMode, MistakeRule, check_bias, check_epochs, check_positive, check_Xy


def bias_scale(X: NDArray[np.float64], bias: BiasMode) -> float:
    """Return the constant ``kappa`` that the bias mode appends to every point (1, R or 0)."""
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


def sgn(scores: ArrayLike) -> NDArray[np.int64]:
    """The sign of every score as -1/+1, with the book's ``sgn(0) = +1`` (also for ``-0.0``)."""
    return np.where(np.asarray(scores) >= 0, 1, -1).astype(np.int64)


def count_errors(
    X: NDArray[np.float64],
    y: NDArray[np.float64],
    w: NDArray[np.float64],
    b: float,
    rule: MistakeRule = "margin",
) -> int:
    """Count the mistakes of ``(w, b)`` on trusted data (``y`` in -1.0/+1.0) under ``rule``.

    ``"margin"``: ``y (w.x + b) <= 0``; ``"sign"``: ``y != sgn(w.x + b)`` with ``sgn(0) = +1``.
    The scores come from ``X @ w`` (BLAS); see :func:`sequential_dot` for when that matters.
    """
    scores = X @ w + b
    if rule == "margin":
        return int(np.count_nonzero(y * scores <= 0))
    return int(np.count_nonzero(sgn(scores) != y))


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

    This is the public functions' boundary: it checks each argument once, then :func:`plan_run`
    works on the checked values. Returns ``(X, y, eta, step_b, max_epochs, next_order)``: the
    checked data, the bias step ``eta * kappa**2`` of the bias mode and the function giving each
    pass's visiting order.
    """
    Xa, ya = check_Xy(X, y)
    eta = check_positive(eta, "eta")
    mode = check_bias(bias)
    max_epochs = check_epochs(max_epochs)
    step_b, next_order = plan_run(Xa, eta, mode, shuffle, seed)
    return Xa, ya, eta, step_b, max_epochs, next_order


def plan_run(
    X: NDArray[np.float64],
    eta: float,
    bias: BiasMode,
    shuffle: bool,
    seed: int | np.random.Generator | None,
) -> tuple[float, Callable[[], NDArray[np.intp]]]:
    """Return ``(step_b, next_order)`` of a run on trusted, already validated arguments.

    ``step_b = eta * kappa**2`` is the bias step of the bias mode, ``next_order`` gives each pass's
    visiting order (see :func:`visiting_order`).
    """
    # kappa * kappa, not kappa ** 2: a product is rounded correctly everywhere (IEEE 754), while
    # float ** 2 calls the C library's pow, which glibc misrounds for about 1 value in 1250 (and other
    # libraries differently): step_b would then depend on the platform, and the playground's
    # JavaScript (tests/book/test_playground.py) could not reproduce it.
    kappa = bias_scale(X, bias)
    return eta * (kappa * kappa), visiting_order(X.shape[0], shuffle, seed)


def compiled(**options):
    """``numba.njit`` with an on-disk cache, or without one when no cache directory is writable.

    numba is imported here, on first use, so that importing this module does not load it.

    numba looks for ``NUMBA_CACHE_DIR``, then ``__pycache__`` beside the compiled module, then the
    user's cache directory; if none is writable, caching would raise at import, so compile in memory.
    """
    import numba

    def decorate(func):
        try:
            return numba.njit(cache=True, nogil=True, **options)(func)
        except RuntimeError:
            return numba.njit(cache=False, nogil=True, **options)(func)

    return decorate
