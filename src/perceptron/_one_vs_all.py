"""One-vs-all training behind :class:`perceptron.Perceptron`: scikit-learn's Perceptron, update for update.

scikit-learn's ``Perceptron`` is its SGD (``sklearn/linear_model/_stochastic_gradient.py``) with the
loss ``Hinge(0.0)`` and a constant learning rate ``eta0``. With two classes it solves one binary
problem (``classes_[1]`` is +1); with ``k > 2`` it solves ``k`` of them, class ``i`` (+1) against all
the others (-1), each from its own start, and predicts the class of the largest score. Each binary
problem visits the samples in order and, for sample ``i`` with label ``y = +-1``:

* scores ``p = (x_1 w_1 + x_2 w_2 + ...) + b``, the products of the stored entries added left to
  right (for a sparse row its non-zeros, which adds the same numbers: the others are zeros);
* on a mistake ``y p <= 0`` adds ``0 - y p`` to the pass's loss and steps by ``u = (eta0 y) *
  weight`` with ``weight`` the class weight (1 without ``class_weight``; in a one-vs-all problem
  the rest's weight is 1): ``w += x u`` and, with an intercept, ``b += u`` (times ``R**2`` for
  ``bias="radius"``).

Without ``tol`` scikit-learn makes ``max_iter`` passes; with ``tol`` it stops once
``n_iter_no_change`` passes in a row have a mean loss (the pass's loss / ``n_samples``) above the
best so far minus ``tol``. A pass without a mistake changes nothing, so once one happens no pass is
run any more. Without ``tol`` that is where the run stops (the package's rule; the weights are those
of all ``max_iter`` passes); with ``tol`` the remaining passes, all with loss 0, only advance
scikit-learn's rule, and the count of passes is scikit-learn's ``n_iter_``.

Dense data without class weights and without ``tol`` go through :func:`perceptron.training._train`,
whose compiled pass is certified to make the same decisions (module :mod:`perceptron.fast_training`).
Everything else (sparse rows, class weights, ``tol``) runs the compiled sequential passes of
:mod:`perceptron._sequential_passes`, imported on first use (they load numba): they compute every
score as scikit-learn does, so they are exact by construction. scikit-learn itself scales the
intercept's step by 0.01 on sparse input (``SPARSE_INTERCEPT_DECAY``); this module does not, so
sparse and dense input give the same weights here.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

import numpy as np
import scipy.sparse as sp
from numpy.typing import NDArray

from . import _core
from ._validation import BiasMode
from .training import _train

#: Entries per dense block when the radius of sparse rows is computed (8 MB of float64).
DENSE_BLOCK = 2**20


class Fit(NamedTuple):
    """What one-vs-all training returns (the estimator's fitted attributes)."""

    coef: NDArray[np.float64]  # (n_problems, n_features)
    intercept: NDArray[np.float64]  # (n_problems,)
    n_iter: int  # passes the stopping rule took, the largest over the problems
    mistakes: int  # updates made, over all problems
    converged: bool  # every problem ended with a pass without a mistake


def _radius(X: NDArray[np.float64] | sp.csr_matrix) -> float:
    """``R = max_i ||x_i||``, computed on dense rows so that sparse input gives the dense value bit for bit."""
    if not sp.issparse(X):
        return _core.bias_scale(X, "radius")
    rows = max(1, DENSE_BLOCK // max(1, X.shape[1]))
    return max(float(np.max(np.linalg.norm(X[start : start + rows].toarray(), axis=1)))
               for start in range(0, X.shape[0], rows))


def _passes(
    X,
    y: NDArray[np.float64],
    step: NDArray[np.float64],
    kappa2: float,
    w: NDArray[np.float64],
    b: float,
    max_iter: int,
    next_order: Callable[[], NDArray[np.intp]],
    tol: float | None,
    n_iter_no_change: int,
) -> tuple[float, int, int, bool]:
    """Run one binary problem pass by pass (``w`` in place); return ``(b, n_iter, mistakes, converged)``."""
    from . import _sequential_passes as sequential_passes  # on first use: it loads numba

    n = y.size
    mistakes = 0
    clean = False
    best = math.inf
    stalled = 0
    for epoch in range(1, max_iter + 1):
        loss = 0.0  # after a clean pass nothing changes: every later pass is clean, with loss 0
        if not clean:
            order = np.ascontiguousarray(next_order(), dtype=np.intp)
            if sp.issparse(X):
                made, b, loss, overflowed = sequential_passes.sparse_pass(X.data, X.indices, X.indptr, order, y, step, kappa2, w, b)
            else:
                made, b, loss, overflowed = sequential_passes.dense_pass(X, order, y, step, kappa2, w, b)
            if overflowed or not (np.isfinite(w).all() and math.isfinite(b)):
                raise _core.diverged("a score" if overflowed else "the weights")
            mistakes += made
            clean = made == 0
        if tol is None:
            if clean:  # the package's rule: stop after the first pass without a mistake
                return b, epoch, mistakes, True
            continue
        # scikit-learn's rule (_plain_sgd): a pass "does not improve" when its mean loss exceeds
        # the best mean loss so far minus tol; n_iter_no_change of them in a row stop the run.
        objective = loss / n
        stalled = stalled + 1 if objective > best - tol else 0
        best = min(best, objective)
        if stalled >= n_iter_no_change:
            return b, epoch, mistakes, clean
    return b, max_iter, mistakes, clean


def fit_one_vs_all(
    X,
    y: NDArray,
    classes: NDArray,
    *,
    eta: float,
    bias: BiasMode,
    max_iter: int,
    tol: float | None,
    n_iter_no_change: int,
    class_weight: NDArray[np.float64] | None,
    shuffle: bool,
    seed: int | np.random.Generator | None,
    coef_init: NDArray[np.float64] | None,
    intercept_init: NDArray[np.float64] | None,
) -> Fit:
    """Train one binary problem (two classes) or one per class (more), on trusted input.

    ``X`` is a finite float64 array or CSR/CSC matrix, ``y`` holds labels from ``classes`` (sorted,
    at least two), ``class_weight`` one weight per class or None, ``coef_init``/``intercept_init``
    the start of every problem (shapes ``(n_problems, n_features)``/``(n_problems,)``) or None for zeros.
    """
    if sp.issparse(X):
        X = sp.csr_matrix(X, dtype=np.float64, copy=True)  # CSC converted; the caller's matrix untouched
        X.sum_duplicates()  # sorts the indices: the score adds the products in column order
    else:
        X = np.ascontiguousarray(X, dtype=np.float64)
    n_samples, n_features = X.shape
    n_problems = 1 if classes.size == 2 else classes.size
    # One generator for all problems, consumed one problem after another (an int seed for two
    # classes gives exactly the permutations of train(..., seed=seed)).
    rng = np.random.default_rng(seed) if shuffle else None
    simple = not sp.issparse(X) and class_weight is None and tol is None  # train's own path
    if not simple:  # the squared bias scale of the sequential passes (train computes its own)
        kappa = 0.0 if bias == "none" else 1.0 if bias == "one" else _radius(X)
        kappa2 = kappa * kappa
    coef = np.zeros((n_problems, n_features)) if coef_init is None else np.array(coef_init, dtype=np.float64)
    intercept = np.zeros(n_problems) if intercept_init is None else np.array(intercept_init, dtype=np.float64)
    n_iter, mistakes, converged = 0, 0, True
    for i in range(n_problems):
        positive = classes[1] if n_problems == 1 else classes[i]
        signs = np.where(y == positive, 1.0, -1.0)
        if simple:
            result = _train(X, signs, eta=eta, bias=bias, w0=coef[i], b0=intercept[i], max_epochs=max_iter,
                            shuffle=shuffle, seed=rng)
            coef[i], intercept[i] = result.w, result.b
            made, clean, passes = result.mistakes, result.converged, result.epochs
        else:
            step = eta * signs
            if class_weight is not None:
                # scikit-learn's weights: positive class, negative class (binary); class i, 1.0 (one-vs-all).
                pos, neg = (class_weight[1], class_weight[0]) if n_problems == 1 else (class_weight[i], 1.0)
                step = step * np.where(signs > 0, pos, neg)
            order = _core.visiting_order(n_samples, shuffle, rng)
            w = np.ascontiguousarray(coef[i])
            b, passes, made, clean = _passes(X, signs, step, kappa2, w, float(intercept[i]), max_iter, order, tol,
                                             n_iter_no_change)
            coef[i], intercept[i] = w, b
        n_iter, mistakes, converged = max(n_iter, passes), mistakes + made, converged and clean
    return Fit(coef, intercept, n_iter, mistakes, converged)
