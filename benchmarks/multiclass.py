"""Benchmark the estimator's multiclass (one-vs-all) path against scikit-learn's ``Perceptron``.

For each data set it times, as medians of interleaved, rotated repeats:

* ``ours``    -- ``perceptron.Perceptron(max_iter=E, ...).fit(X, y)``;
* ``sklearn`` -- ``sklearn.linear_model.Perceptron(penalty=None, shuffle=False, tol=None, max_iter=E, ...)``
  (with ``tol`` given, both get the same ``tol``).

``same`` is "yes" when the two fits have exactly (``np.array_equal``) the same ``classes_``,
``coef_`` and ``intercept_``, the same ``n_iter_`` (unless ours stopped at a clean pass without
``tol``, where scikit-learn goes on to ``max_iter``) and the same predictions on the training data;
the script exits with status 1 otherwise. Sparse rows run without an intercept: with one,
scikit-learn scales the intercept's steps by 0.01 on sparse input and this estimator does not (see
its docstring), so only ``fit_intercept=False`` is comparable there.

Usage: ``.venv/bin/python benchmarks/multiclass.py [--quick]`` (``--quick``: the small data sets only).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import warnings

import numpy as np
import scipy.sparse as sp
import sklearn
from sklearn.datasets import load_digits
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Perceptron as SklearnPerceptron

import perceptron
from perceptron.estimator import Perceptron


def blobs(n: int, d: int, k: int, seed: int = 0):
    """``k`` Gaussian clusters with overlapping tails: labels 0..k-1, float64 points."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((k, d)) * 2.0
    y = rng.integers(0, k, size=n)
    return centres[y] + rng.standard_normal((n, d)) * 1.5, y


def sparse_blobs(n: int, d: int, k: int, per_row: int, seed: int = 0):
    """Bag-of-words-like CSR data: ``per_row`` random counts per row, 3 more in its class's block of columns."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, size=n)
    rows = np.repeat(np.arange(n), per_row + 3)
    cols = rng.integers(0, d, size=rows.size)
    own = np.arange(rows.size) % (per_row + 3) >= per_row  # the last 3 entries of each row
    cols[own] = y[rows[own]] * (d // k) + rng.integers(0, d // k, size=int(own.sum()))
    counts = rng.poisson(1.0, size=rows.size) + 1.0
    return sp.csr_matrix((counts, (rows, cols)), shape=(n, d)), y  # repeated cells are summed


def cases(quick: bool):
    X, y = load_digits(return_X_y=True)
    yield "digits, 10 classes", X, y, {"max_iter": 5}
    yield "digits, 10 classes", X, y, {"max_iter": 50}
    yield "digits, tol=1e-3", X, y, {"max_iter": 200, "tol": 1e-3}
    yield "digits, strings", X, np.array([f"digit {c}" for c in range(10)])[y], {"max_iter": 20}
    X, y = blobs(10_000, 20, 5)
    yield "blobs 10^4 x 20, 5 classes", X, y, {"max_iter": 20}
    if not quick:
        X, y = blobs(100_000, 100, 10)
        yield "blobs 10^5 x 100, 10 classes", X, y, {"max_iter": 5}
    X, y = sparse_blobs(20_000, 2_000, 5, 10)
    yield "CSR 2*10^4 x 2000, 5 classes", X, y, {"max_iter": 10, "fit_intercept": False}
    if not quick:
        X, y = sparse_blobs(200_000, 20_000, 20, 10)
        yield "CSR 2*10^5 x 20000, 20 classes", X, y, {"max_iter": 5, "fit_intercept": False}


def same_fit(ours: Perceptron, theirs: SklearnPerceptron, X) -> bool:
    return (
        np.array_equal(ours.classes_, theirs.classes_)
        and np.array_equal(ours.coef_, theirs.coef_)
        and np.array_equal(ours.intercept_, theirs.intercept_)
        and (ours.n_iter_ == theirs.n_iter_ or (theirs.tol is None and ours.converged_))
        and np.array_equal(ours.predict(X), theirs.predict(X))
    )


def measure(X, y, params: dict, repeats: int) -> dict:
    theirs_params = {"tol": None, **params}
    runs = {
        "ours": lambda: Perceptron(**params).fit(X, y),
        "sklearn": lambda: SklearnPerceptron(penalty=None, shuffle=False, **theirs_params).fit(X, y),
    }
    times: dict[str, list[float]] = {name: [] for name in runs}
    fitted = {}
    names = list(runs)
    for repeat in range(repeats):
        for name in names[repeat % 2 :] + names[: repeat % 2]:  # alternate who goes first
            start = time.perf_counter()
            fitted[name] = runs[name]()
            times[name].append(time.perf_counter() - start)
    row = {name: statistics.median(t) for name, t in times.items()}
    row["same"] = same_fit(fitted["ours"], fitted["sklearn"], X)
    row["n_iter"] = fitted["ours"].n_iter_
    row["mistakes"] = fitted["ours"].n_mistakes_
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="the small data sets only")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    warnings.simplefilter("ignore", ConvergenceWarning)
    print(f"perceptron {perceptron.__version__}, scikit-learn {sklearn.__version__}, numpy {np.__version__}, "
          f"nproc {os.cpu_count()}, load average {os.getloadavg()[0]:.1f}\n")
    # Compile (or load from numba's cache) every kernel before timing anything.
    Xw, yw = blobs(3_000, 4, 3)
    Perceptron(max_iter=3).fit(Xw, yw)
    Perceptron(max_iter=3, tol=1e-3).fit(Xw, yw)
    Perceptron(max_iter=3, fit_intercept=False).fit(sp.csr_matrix(Xw), yw)
    print("| data | n | d | params | n_iter_ | mistakes | ours (s) | sklearn (s) | ours/sklearn | same |")
    print("|:---|---:|---:|:---|---:|---:|---:|---:|---:|:---:|")
    all_same = True
    started = time.perf_counter()
    for label, X, y, params in cases(args.quick):
        row = measure(X, y, params, args.repeats)
        all_same &= row["same"]
        shown = ", ".join(f"{k}={v}" for k, v in params.items())
        print(f"| {label} | {X.shape[0]:,} | {X.shape[1]:,} | {shown} | {row['n_iter']} | {row['mistakes']:,} "
              f"| {row['ours']:.4f} | {row['sklearn']:.4f} | {row['ours'] / row['sklearn']:.2f} "
              f"| {'yes' if row['same'] else 'NO'} |", flush=True)
    print(f"\nAll fits identical: {'yes' if all_same else 'NO'}. "
          f"Benchmark time: {time.perf_counter() - started:.0f} s.")
    if not all_same:
        sys.exit(1)


if __name__ == "__main__":
    main()
