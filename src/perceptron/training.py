"""Rosenblatt's perceptron: the mistake-driven training loop in its textbook variants.

Conventions (stated once in the book's notation page and used everywhere):

* a *mistake* is ``y_i * (w @ x_i + b) <= 0``: a point on the hyperplane counts as a mistake,
  which is also scikit-learn's rule (``rule="margin"``); ``rule="sign"`` instead counts a mistake
  when ``y_i != sgn(w @ x_i + b)`` with ``sgn(0) = +1``, the rule of the CMU 36-350 notes, under
  which a point on the hyperplane is a mistake only when its label is -1;
* on a mistake ``w += eta * y_i * x_i``; the bias follows the ``bias`` mode, which is the same
  as augmenting every point with a constant coordinate ``kappa`` and learning its weight ``b / kappa``:

  ============  ==========  ===========================  ==============================
  ``bias``      ``kappa``   bias update                  mistake bound (zero start)
  ============  ==========  ===========================  ==============================
  ``"one"``     1           ``b += eta * y_i``           Novikoff on the augmented data
  ``"radius"``  R           ``b += eta * y_i * R**2``    ``(2 R / gamma*)**2``
  ``"none"``    0           ``b`` stays ``b0``           ``(R / gamma*_0)**2``
  ============  ==========  ===========================  ==============================

  where ``R = max_i ||x_i||``.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from dataclasses import replace

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import _core
from ._validation import BiasMode, check_rule, check_scalar, check_w
from .results import TrainResult, Update

#: Sample visits (passes x samples) left to the readable loop before the compiled pass takes over.
REFERENCE_BUDGET = 5_000


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
    rule: str = "margin",
) -> TrainResult:
    """Train a perceptron by Rosenblatt's mistake-driven rule.

    The loop visits the samples pass after pass; on every mistake (``y_i (w.x_i + b) <= 0``, or
    as ``rule`` says) it adds ``eta * y_i * x_i`` to ``w`` and updates ``b`` as ``bias`` says. It
    stops after the first pass without a mistake, or after ``max_epochs`` passes, so it always
    terminates.

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
    rule : {"margin", "sign"}, default "margin"
        What counts as a mistake, with the score ``s = w.x_i + b`` (products added left to right,
        then ``b``). ``"margin"``, the book's rule: ``y_i s <= 0``, so a point on the hyperplane
        is always a mistake. ``"sign"``, the rule of the CMU 36-350 notes: ``y_i != sgn(s)`` with
        ``sgn(0) = +1``, so a point on the hyperplane is a mistake only when ``y_i = -1`` (an
        update when ``s < 0`` for ``y_i = +1`` and when ``s >= 0`` for ``y_i = -1``). The two
        rules make the same run unless some score is exactly 0, which happens from the zero
        start (the first point is always a mistake under ``"margin"``, only a -1 point under
        ``"sign"``) and on integer-valued data.

    Returns
    -------
    TrainResult
        ``w``, ``b``, ``mistakes``, ``epochs``, ``converged``, ``history`` and ``errors``
        (counted with ``rule``, so a converged run has ``errors == 0`` under either rule).

    Raises
    ------
    ValueError
        On invalid data, labels other than -1/+1, ``eta <= 0``, ``max_epochs < 1``, an unknown
        ``bias`` or ``rule``, or when the weights or scores overflow during training.

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
    mistake_bound : an upper bound on the number of mistakes this function makes on separable data.

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

    From the zero start every score is 0. Under the notes' rule the first point (label +1) is
    then classified correctly, so the first update comes from the first -1 point:

    >>> result = train(X, y, rule="sign", record=True)
    >>> result.history[0].index, result.mistakes, result.w.tolist(), result.b
    (2, 1, [1.0, 1.0], -1.0)
    """
    Xa, ya, eta, step_b, max_epochs, next_order = _core.prepare_run(
        X, y, eta, bias, max_epochs, shuffle, seed
    )
    rule = check_rule(rule)
    w = np.zeros(Xa.shape[1]) if w0 is None else check_w(w0, Xa.shape[1], name="w0").copy()
    b = check_scalar(b0, "b0")
    return _run(Xa, ya, eta, step_b, w, b, max_epochs, next_order, record, rule)


def _train(
    X: NDArray[np.float64],
    y: NDArray[np.float64],
    *,
    eta: float = 1.0,
    bias: BiasMode = "one",
    w0: NDArray[np.float64] | None = None,
    b0: float = 0.0,
    max_epochs: int = 1000,
    shuffle: bool = False,
    seed: int | np.random.Generator | None = None,
) -> TrainResult:
    """:func:`train` (``record=False``, ``rule="margin"``) on arguments its caller has validated.

    For the package's own public functions that checked their input at their boundary (the
    scikit-learn estimator, :func:`~perceptron.find_cycle`), so that it is not checked again:
    ``X`` a finite 2-D float64 array, ``y`` float64 in {-1.0, +1.0}, ``w0`` (copied, not modified)
    a finite float64 vector of ``X``'s width, the options valid. Same result as :func:`train`.
    """
    step_b, next_order = _core.plan_run(X, eta, bias, shuffle, seed)
    w = np.zeros(X.shape[1]) if w0 is None else np.array(w0, dtype=np.float64)
    return _run(X, y, eta, step_b, w, float(b0), max_epochs, next_order, False, "margin")


def _run(
    X: NDArray[np.float64],
    y: NDArray[np.float64],
    eta: float,
    step_b: float,
    w: NDArray[np.float64],
    b: float,
    max_epochs: int,
    next_order: Callable[[], NDArray[np.intp]],
    record: bool,
    rule: str,
) -> TrainResult:
    """Run the perceptron on trusted inputs, in the readable loop, the compiled one or both.

    ``w`` is modified in place.
    """
    # Both loops below make the same updates in the same order, bit for bit (tests/
    # test_training_speed_paths.py checks it against each other and scikit-learn). Small runs stay
    # in the readable loop, which spares them loading numba; the compiled pass takes over once
    # the work exceeds about REFERENCE_BUDGET sample visits, or at once if it is already loaded.
    if record:
        head = max_epochs
    elif _compiled_loop_loaded():
        head = 0
    else:
        head = min(max_epochs, REFERENCE_BUDGET // X.shape[0])
    if head > 0:
        # The loop checks every score and weight for inf/NaN and raises `diverged` itself; numpy's
        # own overflow warnings would only print noise before that error.
        with np.errstate(over="ignore", invalid="ignore"):
            result = reference_loop(X, y, eta, step_b, w, b, head, next_order, record, rule)
        if result.converged or head == max_epochs:
            return result
        w, b = result.w, result.b
    from .fast_training import fast_loop  # imported on first use: numba takes ~0.3 s to load

    rest = fast_loop(X, y, eta, step_b, w, b, max_epochs - head, next_order, rule)
    if head == 0:
        return rest
    return replace(rest, mistakes=result.mistakes + rest.mistakes, epochs=head + rest.epochs)


def _compiled_loop_loaded() -> bool:
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
    rule: str = "margin",
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
            score = _core.sequential_dot(X[i], w) + b
            if not math.isfinite(score):
                raise _core.diverged("a score")
            if rule == "margin":  # the book's rule: on the wrong side, or on the hyperplane
                wrong = y[i] * score <= 0
            else:  # the notes' rule: y != sgn(score), with sgn(0) = +1
                wrong = y[i] != (1.0 if score >= 0 else -1.0)
            if wrong:
                w += (eta * y[i]) * X[i]
                b += y[i] * step_b
                mistakes += 1
                clean = False
                if record:
                    history.append(Update(epoch, int(i), w.copy(), float(b)))
        if not (np.isfinite(w).all() and math.isfinite(b)):
            raise _core.diverged("the weights")
    return TrainResult(
        w=w,
        b=float(b),
        mistakes=mistakes,
        epochs=epoch,
        converged=clean,
        history=tuple(history),
        errors=_core.count_errors(X, y, w, b, rule),
    )

