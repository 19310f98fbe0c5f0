"""The compiled passes of one-vs-all training (:mod:`perceptron._one_vs_all`): scikit-learn's SGD step.

Each pass visits the rows in ``order``; for row ``i`` with label ``y[i] = +-1`` it computes the
score ``(x_1 w_1 + x_2 w_2 + ...) + b`` one product and one addition at a time, left to right over
the stored entries (all of a dense row, the non-zeros of a sparse one: the same sum, since the
others add zeros), exactly as scikit-learn's ``_plain_sgd`` does; on a mistake ``y s <= 0`` it adds
``0 - y s`` to the pass's loss, ``w += x * step[i]`` and, when ``kappa2`` (the squared bias scale)
is not 0, ``b += step[i] * kappa2``. Every operation is rounded once, in scikit-learn's order, so
the weights are scikit-learn's bit for bit. Both return ``(mistakes, b, loss, overflowed)``;
``overflowed`` says a score was inf or NaN (the pass stops there). ``w`` is updated in place.
"""

from __future__ import annotations

import math

from ._core import compiled


@compiled()
def dense_pass(X, order, y, step, kappa2, w, b):  # pragma: no cover - compiled
    """One pass over the rows of ``X`` in ``order``; returns ``(mistakes, b, loss, overflowed)``."""
    mistakes = 0
    loss = 0.0
    for k in range(order.size):
        i = order[k]
        s = 0.0
        for j in range(w.size):
            s += X[i, j] * w[j]
        z = (s + b) * y[i]
        if not math.isfinite(z):
            return mistakes, b, loss, True
        if z <= 0.0:
            loss += 0.0 - z
            u = step[i]
            if u != 0.0:
                for j in range(w.size):
                    w[j] += X[i, j] * u
            if u * kappa2 != 0.0:
                b += u * kappa2
            mistakes += 1
    return mistakes, b, loss, False


@compiled()
def sparse_pass(data, indices, indptr, order, y, step, kappa2, w, b):  # pragma: no cover - compiled
    """:func:`dense_pass` on a CSR matrix (sorted indices, no duplicates): only the stored entries."""
    mistakes = 0
    loss = 0.0
    for k in range(order.size):
        i = order[k]
        s = 0.0
        for t in range(indptr[i], indptr[i + 1]):
            s += data[t] * w[indices[t]]
        z = (s + b) * y[i]
        if not math.isfinite(z):
            return mistakes, b, loss, True
        if z <= 0.0:
            loss += 0.0 - z
            u = step[i]
            if u != 0.0:
                for t in range(indptr[i], indptr[i + 1]):
                    w[indices[t]] += data[t] * u
            if u * kappa2 != 0.0:
                b += u * kappa2
            mistakes += 1
    return mistakes, b, loss, False
