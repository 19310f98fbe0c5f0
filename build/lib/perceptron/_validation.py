"""Input checks shared by every public function.

Validation happens once, at the public boundary; the algorithms behind it trust their inputs.
Every failure is a ``ValueError`` whose message names the argument and the problem.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

BiasMode = Literal["one", "radius", "none"]
BIAS_MODES: tuple[str, ...] = ("one", "radius", "none")


def check_X(X: ArrayLike, *, name: str = "X") -> NDArray[np.float64]:
    """Return ``X`` as a finite, non-empty 2-D float64 array, or raise ValueError."""
    try:
        arr = np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a numeric array; could not convert it to float: {exc}") from None
    if arr.ndim != 2:
        hint = " (reshape a single feature with X.reshape(-1, 1), a single sample with X.reshape(1, -1))"
        raise ValueError(f"{name} must be 2-D of shape (n_samples, n_features), got {arr.ndim}-D shape {arr.shape}{hint}")
    if arr.shape[0] == 0:
        raise ValueError(f"{name} is empty: it has 0 samples")
    if arr.shape[1] == 0:
        raise ValueError(f"{name} has 0 features")
    if not _all_finite(arr):
        bad = int(np.size(arr) - np.isfinite(arr).sum())
        raise ValueError(f"{name} contains NaN or infinity ({bad} non-finite entries)")
    return arr


def _all_finite(arr: NDArray[np.float64]) -> bool:
    """Whether every entry is finite, without an elementwise temporary in the common case.

    A NaN or infinite entry makes the sum NaN or infinite, so a finite sum proves all entries
    finite (scikit-learn's check); only a non-finite sum (such an entry, or a sum that overflows)
    is looked at entry by entry. The (n, d) boolean temporary of ``np.isfinite(arr).all()`` made
    validation of large X slow and erratic (page faults), a fifth of ``train``'s time at 800 MB.
    """
    with np.errstate(over="ignore", invalid="ignore"):
        total = float(np.sum(arr))
    return bool(np.isfinite(total)) or bool(np.isfinite(arr).all())


def check_w(w: ArrayLike, n_features: int, *, name: str = "w") -> NDArray[np.float64]:
    """Return a weight vector as a finite 1-D float64 array of length ``n_features``."""
    try:
        arr = np.asarray(w, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a numeric vector: {exc}") from None
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D of shape (n_features,), got shape {arr.shape}")
    if arr.shape[0] != n_features:
        raise ValueError(f"{name} has {arr.shape[0]} entries but X has {n_features} features")
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} contains NaN or infinity")
    return arr


def check_scalar(value: float, name: str) -> float:
    """Return ``value`` as a finite float."""
    try:
        out = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a real number, got {value!r}") from None
    if not np.isfinite(out):
        raise ValueError(f"{name} must be finite, got {out}")
    return out


def check_labels(y: ArrayLike, n_samples: int, *, name: str = "y") -> NDArray[np.float64]:
    """Return labels as a float64 vector of -1.0/+1.0 with both classes present.

    The functional API works with labels in {-1, +1} only; other encodings are refused, not guessed.
    """
    try:
        arr = np.asarray(y, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must hold the numbers -1 and +1, got non-numeric labels") from None
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D of shape (n_samples,), got shape {arr.shape}")
    if arr.shape[0] != n_samples:
        raise ValueError(f"X and {name} have different lengths: X has {n_samples} samples, {name} has {arr.shape[0]}")
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} contains NaN or infinity")
    found = np.unique(arr)
    if not np.isin(found, (-1.0, 1.0)).all():
        shown = ", ".join(f"{v:g}" for v in found[:10])
        more = ", ..." if found.size > 10 else ""
        extra = " Map {0, 1} labels with y = 2 * y - 1." if set(found.tolist()) <= {0.0, 1.0} else ""
        raise ValueError(f"{name} must contain only the labels -1 and +1; found {{{shown}{more}}}.{extra}")
    if found.size < 2:
        raise ValueError(f"{name} has only one class ({found[0]:+g}); a classifier needs both -1 and +1")
    return arr


def check_Xy(X: ArrayLike, y: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Validate a labelled dataset: finite 2-D ``X`` and matching ``y`` in {-1, +1}."""
    Xa = check_X(X)
    return Xa, check_labels(y, Xa.shape[0])


def check_bias(bias: str) -> BiasMode:
    """Return ``bias`` if it names a known bias mode."""
    if bias not in BIAS_MODES:
        raise ValueError(f"unknown bias {bias!r}; choose one of {', '.join(map(repr, BIAS_MODES))}")
    return bias  # type: ignore[return-value]


def check_positive(value: float, name: str) -> float:
    """Return ``value`` if it is a finite number > 0."""
    out = check_scalar(value, name)
    if out <= 0:
        raise ValueError(f"{name} must be > 0, got {out:g}")
    return out


def check_epochs(max_epochs: int, name: str = "max_epochs") -> int:
    """Return ``max_epochs`` if it is an integer >= 1."""
    if isinstance(max_epochs, bool) or not isinstance(max_epochs, (int, np.integer)):
        raise ValueError(f"{name} must be an integer >= 1, got {max_epochs!r}")
    if max_epochs < 1:
        raise ValueError(f"{name} must be >= 1, got {max_epochs}")
    return int(max_epochs)
