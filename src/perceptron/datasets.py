"""Seeded toy datasets and loaders for data shipped inside installed packages.

Every generator takes an explicit ``seed`` and returns ``(X, y)`` with ``y`` in {-1, +1};
nothing is downloaded at run time.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ._validation import check_integer, check_offset, check_positive, check_scalar

Dataset = tuple[NDArray[np.float64], NDArray[np.int64]]


def make_separable(
    n_samples: int = 50,
    n_features: int = 2,
    *,
    margin: float = 0.1,
    radius: float = 1.0,
    bias: str = "one",
    seed: int | np.random.Generator | None = 0,
) -> Dataset:
    """Draw linearly separable points in a ball, at least ``margin`` away from a random hyperplane.

    Points are uniform in the ball of the given ``radius`` around the origin; those closer than
    ``margin`` to a random hyperplane ``u.x + c = 0`` (``||u|| = 1``; ``c = 0`` when ``bias`` is
    ``"none"``) are redrawn, and each point is labelled by its side. The dataset's best margin is
    therefore at least ``margin``, and ``max_i ||x_i|| <= radius``. Both classes always appear.

    Parameters
    ----------
    n_samples : int, default 50
        Number of points, >= 2.
    n_features : int, default 2
    margin : float, default 0.1
        Half-width of the empty band around the hyperplane, ``0 < margin < radius / 2``.
    radius : float, default 1.0
        Radius of the ball the points are drawn from.
    bias : {"one", "radius", "none"}, default "one"
        The bias mode, as in :func:`~perceptron.train`: with ``"none"`` the separating hyperplane
        passes through the origin, so ``train(X, y, bias="none")`` converges; ``"one"`` and
        ``"radius"`` let it miss the origin (the same data for both).
    seed : int or numpy.random.Generator, default 0

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,), values in {-1, +1}

    Examples
    --------
    >>> X, y = make_separable(20, margin=0.2, seed=1)
    >>> X.shape, sorted(set(y.tolist()))
    ((20, 2), [-1, 1])
    """
    n = check_integer(n_samples, "n_samples", 2)
    d = check_integer(n_features, "n_features", 1)
    offset = check_offset(bias)
    radius = check_positive(radius, "radius")
    margin = check_positive(margin, "margin")
    if margin >= radius / 2:
        raise ValueError(f"margin must be smaller than radius / 2 so both classes fit, got margin={margin:g}, radius={radius:g}")
    rng = np.random.default_rng(seed)
    u = rng.normal(size=d)
    u /= np.linalg.norm(u)
    # An offset at most (radius - 2 margin) / 2 from the origin leaves room on both sides.
    c = float(rng.uniform(-1, 1) * (radius / 2 - margin)) if offset else 0.0
    X = np.empty((n, d))
    filled = 0
    while filled < n:
        batch = _uniform_ball(rng, 4 * n, d) * radius
        keep = batch[np.abs(batch @ u + c) >= margin]
        if len(keep) < 0.01 * len(batch):
            # In high dimension a uniform ball concentrates near every hyperplane through its
            # centre, so rejection would (almost) never finish: draw the rest band-free directly.
            X[filled:] = _outside_band(rng, n - filled, u, c, margin, radius)
            break
        take = min(n - filled, len(keep))
        X[filled : filled + take] = keep[:take]
        filled += take
    y = np.where(X @ u + c >= 0, 1, -1)
    # Guarantee both classes: relabel by moving one point to the far side of the band if needed.
    for label in (1, -1):
        if not np.any(y == label):
            X[0] = -c * u + label * (margin + (radius - margin - abs(c)) / 2) * u
            y[0] = label
    return X, y.astype(np.int64)


def _outside_band(
    rng: np.random.Generator, n: int, u: NDArray[np.float64], c: float, margin: float, radius: float
) -> NDArray[np.float64]:
    """Points in the ball with ``|u.x + c| >= margin``: coordinate along ``u`` uniform on the allowed
    part of [-radius, radius], the orthogonal part uniform in the ball that is left."""
    low, high = (-radius, -c - margin), (-c + margin, radius)  # allowed ranges of t = u.x
    lengths = np.array([max(0.0, low[1] - low[0]), max(0.0, high[1] - high[0])])
    side = rng.choice(2, size=n, p=lengths / lengths.sum())
    t = np.where(side == 0, low[0] + rng.uniform(size=n) * lengths[0], high[0] + rng.uniform(size=n) * lengths[1])
    v = _uniform_ball(rng, n, len(u)) * np.sqrt(np.maximum(radius**2 - t**2, 0.0))[:, None]
    v -= (v @ u)[:, None] * u  # keep only the part orthogonal to u
    return t[:, None] * u + v


def _uniform_ball(rng: np.random.Generator, n: int, d: int) -> NDArray[np.float64]:
    """Points uniform in the unit ball of R^d."""
    g = rng.normal(size=(n, d))
    g /= np.linalg.norm(g, axis=1, keepdims=True)
    return g * rng.uniform(size=(n, 1)) ** (1.0 / d)


def make_overlapping(
    n_samples: int = 100,
    n_features: int = 2,
    *,
    separation: float = 1.0,
    seed: int | np.random.Generator | None = 0,
) -> Dataset:
    """Two Gaussian classes (unit variance) whose means are ``separation`` apart: rarely separable.

    Examples
    --------
    >>> X, y = make_overlapping(10, seed=0)
    >>> X.shape, int((y == 1).sum())
    ((10, 2), 5)
    """
    n = check_integer(n_samples, "n_samples", 2)
    d = check_integer(n_features, "n_features", 1)
    separation = check_scalar(separation, "separation")
    if not np.isfinite(separation) or separation < 0:
        raise ValueError(f"separation must be a finite number >= 0, got {separation!r}")
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) < (n + 1) // 2, 1, -1)
    shift = np.zeros(d)
    shift[0] = separation / 2
    X = rng.normal(size=(n, d)) + y[:, None] * shift
    order = rng.permutation(n)
    return X[order], y[order].astype(np.int64)


def flip_labels(
    y: NDArray[np.int64], fraction: float, *, seed: int | np.random.Generator | None = 0
) -> NDArray[np.int64]:
    """Return a copy of ``y`` with ``round(fraction * n)`` labels, chosen at random, flipped."""
    fraction = check_scalar(fraction, "fraction")
    if not 0 <= fraction <= 1:
        raise ValueError(f"fraction must be in [0, 1], got {fraction!r}")
    y = np.asarray(y).copy()
    rng = np.random.default_rng(seed)
    idx = rng.choice(len(y), size=round(fraction * len(y)), replace=False)
    y[idx] = -y[idx]
    return y


def make_xor(
    n_samples: int = 100, *, noise: float = 0.15, seed: int | np.random.Generator | None = 0
) -> Dataset:
    """The XOR pattern: four clusters at (+-1, +-1), labelled by the sign of ``x1 * x2``.

    No line separates it; a degree-2 polynomial kernel does.

    Examples
    --------
    >>> X, y = make_xor(8, seed=0)
    >>> X.shape
    (8, 2)
    """
    n = check_integer(n_samples, "n_samples", 4)
    noise = check_scalar(noise, "noise")
    if not np.isfinite(noise) or noise < 0:
        raise ValueError(f"noise must be a finite number >= 0, got {noise!r}")
    rng = np.random.default_rng(seed)
    corners = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
    labels = np.array([1, 1, -1, -1])
    pick = np.arange(n) % 4
    X = corners[pick] + noise * rng.normal(size=(n, 2))
    return X, labels[pick].astype(np.int64)


def make_circles(
    n_samples: int = 100, *, noise: float = 0.05, factor: float = 0.5, seed: int = 0
) -> Dataset:
    """Two concentric circles (scikit-learn's generator), inner circle labelled +1.

    Examples
    --------
    >>> X, y = make_circles(10, seed=0)
    >>> X.shape
    (10, 2)
    """
    from sklearn.datasets import make_circles as sk_make_circles

    n = check_integer(n_samples, "n_samples", 2)
    if not 0 < factor < 1:
        raise ValueError(f"factor must be in (0, 1), got {factor!r}")
    X, y01 = sk_make_circles(n_samples=n, noise=noise, factor=factor, random_state=seed)
    return X, np.where(y01 == 1, 1, -1).astype(np.int64)


def load_iris_pair(
    first: str = "setosa", second: str = "versicolor", features: tuple[int, ...] = (0, 1)
) -> Dataset:
    """Two iris species from scikit-learn's bundled copy, ``first`` labelled +1.

    Parameters
    ----------
    first, second : {"setosa", "versicolor", "virginica"}
    features : tuple of int, default (0, 1)
        Columns to keep (0 sepal length, 1 sepal width, 2 petal length, 3 petal width, in cm).

    Examples
    --------
    >>> X, y = load_iris_pair()
    >>> X.shape, int((y == 1).sum())
    ((100, 2), 50)
    """
    data, target, names = _iris_table()
    for name in (first, second):
        if name not in names:
            raise ValueError(f"unknown iris species {name!r}; choose from {names}")
    if first == second:
        raise ValueError("first and second must be different species")
    if not features or any(not isinstance(f, (int, np.integer)) or f not in range(4) for f in features):
        raise ValueError(f"features must be indices in 0..3, got {features!r}")
    keep = np.isin(target, [names.index(first), names.index(second)])
    X = data[keep][:, list(features)].astype(np.float64)
    y = np.where(target[keep] == names.index(first), 1, -1).astype(np.int64)
    return X, y


def _iris_table() -> tuple[NDArray[np.float64], NDArray[np.int64], list[str]]:
    """scikit-learn's bundled iris table: ``(data, target, species names)``.

    ``sklearn.datasets.load_iris`` parses the CSV file ``sklearn/datasets/data/iris.csv``; this reads
    the same file the same way (a header ``150,4,setosa,versicolor,virginica``, then four numbers
    and a class index per row) without importing scikit-learn, which takes seconds, where reading
    150 rows takes a millisecond. Where the file is not found (another scikit-learn layout), it
    calls ``load_iris``. ``tests/package/test_datasets.py`` checks both give the same arrays.
    """
    import csv
    import importlib.util
    from pathlib import Path

    spec = importlib.util.find_spec("sklearn")  # locates the package without running it
    roots = list(spec.submodule_search_locations or []) if spec is not None else []
    for root in roots:
        path = Path(root) / "datasets" / "data" / "iris.csv"
        if not path.is_file():
            continue
        with path.open(encoding="utf-8", newline="") as f:
            rows = csv.reader(f)
            header = next(rows)
            n_samples, n_features, names = int(header[0]), int(header[1]), header[2:]
            data = np.empty((n_samples, n_features))
            target = np.empty(n_samples, dtype=np.int64)
            for i, row in enumerate(rows):
                data[i] = np.asarray(row[:-1], dtype=np.float64)
                target[i] = int(row[-1])
        return data, target, names
    from sklearn.datasets import load_iris

    bunch = load_iris()
    return bunch.data, bunch.target.astype(np.int64), list(bunch.target_names)


def load_digits_pair(first: int = 3, second: int = 8) -> Dataset:
    """Two digits from scikit-learn's bundled 8x8 digits, pixels scaled to [0, 1], ``first`` = +1.

    Examples
    --------
    >>> X, y = load_digits_pair(0, 1)
    >>> X.shape[1], float(X.max())
    (64, 1.0)
    """
    from sklearn.datasets import load_digits

    for digit in (first, second):
        if digit not in range(10):
            raise ValueError(f"digits are 0..9, got {digit!r}")
    if first == second:
        raise ValueError("first and second must be different digits")
    data = load_digits()
    keep = np.isin(data.target, [first, second])
    X = data.data[keep].astype(np.float64) / 16.0
    y = np.where(data.target[keep] == first, 1, -1).astype(np.int64)
    return X, y
