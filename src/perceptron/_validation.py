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
LossName = Literal["perceptron", "hinge", "logistic"]
LOSS_NAMES: tuple[str, ...] = ("perceptron", "hinge", "logistic")
KERNELS: tuple[str, ...] = ("linear", "poly", "rbf")
MistakeRule = Literal["margin", "sign"]
#: The mistake rules of :func:`perceptron.train`: the book's ``y s <= 0`` and the CMU 36-350
#: notes' ``y != sgn(s)`` with ``sgn(0) = +1``. They differ only when the score ``s`` is exactly 0.
RULES: tuple[str, ...] = ("margin", "sign")


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


def check_fraction(value: float, name: str) -> float:
    """Return ``value`` as a float strictly between 0 and 1 (a probability, a factor, a density)."""
    out = check_scalar(value, name)
    if not 0 < out < 1:
        raise ValueError(f"{name} must be in (0, 1), got {value!r}")
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


def check_signs(y: ArrayLike, n_samples: int, *, name: str = "y") -> NDArray[np.float64]:
    """Labels in {-1, +1} as float64, one class allowed (a loss or an error count needs no second class)."""
    try:
        arr = np.asarray(y, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must hold the numbers -1 and +1, got non-numeric labels") from None
    if arr.shape != (n_samples,):
        raise ValueError(f"{name} must have shape ({n_samples},) to match X, got shape {arr.shape}")
    if not np.isin(arr, (-1.0, 1.0)).all():
        raise ValueError(f"{name} must contain only the labels -1 and +1")
    return arr


def check_Xy(X: ArrayLike, y: ArrayLike, *, plane: bool = False) -> tuple[NDArray[np.float64], ...]:
    """Validate a labelled dataset: finite 2-D ``X`` (2 features if ``plane``), matching ``y`` in {-1, +1}."""
    Xa = check_X(X)
    if plane and Xa.shape[1] != 2:
        raise ValueError(f"the figure draws points in a plane: X must have shape (n, 2), got {Xa.shape}")
    return Xa, check_labels(y, Xa.shape[0])


def check_option(value: str, allowed: tuple[str, ...], name: str, *, hint: str = "") -> str:
    """Return ``value`` if it is one of the strings in ``allowed``, else raise ValueError naming them.

    A non-empty ``hint`` is added to the message in parentheses.
    """
    if not isinstance(value, str) or value not in allowed:
        more = f" ({hint})" if hint else ""
        raise ValueError(f"unknown {name} {value!r}; choose one of {', '.join(map(repr, allowed))}{more}")
    return value


def check_bias(bias: str) -> BiasMode:
    """Return ``bias`` if it names a known bias mode.

    A boolean is refused like any other non-mode, with a hint: ``"none"`` is the mode without
    an offset, ``"one"`` (or ``"radius"``) a mode with one.
    """
    flag = isinstance(bias, (bool, np.bool_))
    hint = "bias is a mode, not a flag: 'none' for a hyperplane through the origin" if flag else ""
    return check_option(bias, BIAS_MODES, "bias", hint=hint)  # type: ignore[return-value]


def check_kernel(kernel):
    """Return ``kernel`` if it is a callable ``k(A, B)`` or names a kernel in :data:`KERNELS`."""
    if callable(kernel):
        return kernel
    if isinstance(kernel, str) and kernel in KERNELS:
        return kernel
    raise ValueError(
        f"unknown kernel {kernel!r}; choose one of {', '.join(map(repr, KERNELS))} "
        "or pass a function k(A, B) returning the Gram matrix"
    )


def check_loss(loss: str) -> LossName:
    """Return ``loss`` if it names a known margin loss."""
    return check_option(loss, LOSS_NAMES, "loss")  # type: ignore[return-value]


def check_offset(bias: str) -> bool:
    """Whether a hyperplane may miss the origin, from a bias mode: False for ``"none"``, else True.

    Where only the hyperplane matters (not how a perceptron learns its offset), ``"one"`` and
    ``"radius"`` mean the same thing. Like every ``bias``, it is a mode, not a flag: a boolean is
    refused by :func:`check_bias`.
    """
    return check_bias(bias) != "none"


def check_rule(rule: str) -> MistakeRule:
    """Return ``rule`` if it names a mistake rule (``"margin"`` or ``"sign"``)."""
    return check_option(rule, RULES, "rule")  # type: ignore[return-value]


def check_margins(margins: ArrayLike) -> NDArray[np.float64]:
    """Return margins as a finite float64 array (any shape)."""
    try:
        arr = np.asarray(margins, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError("margins must be real numbers") from None
    if not np.isfinite(arr).all():
        raise ValueError("margins contain NaN or infinity")
    return arr


def check_positive(value: float, name: str) -> float:
    """Return ``value`` if it is a finite number > 0."""
    out = check_scalar(value, name)
    if out <= 0:
        raise ValueError(f"{name} must be > 0, got {out:g}")
    return out


def check_integer(value: int, name: str, least: int) -> int:
    """Return ``value`` as an int if it is an integer (not a bool, not a float) ``>= least``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        # A ValueError like every failure here (module docstring), not the TypeError of ruff's TRY004.
        raise ValueError(f"{name} must be an integer >= {least}, got {value!r}")  # noqa: TRY004
    if value < least:
        raise ValueError(f"{name} must be >= {least}, got {value}")
    return int(value)


def check_epochs(max_epochs: int, name: str = "max_epochs") -> int:
    """Return ``max_epochs`` if it is an integer >= 1."""
    return check_integer(max_epochs, name, 1)


def check_zero_start(
    W: NDArray[np.float64], Xt: NDArray[np.float64], y: NDArray[np.float64], indices: list[int], R: float
) -> None:
    """Check recorded (augmented) weights ``W`` of a run on ``Xt``: a zero start, then ``y_i x~_i`` steps.

    Undo the first update; what remains is the start, which the proof needs to be zero.

    Also checks that consecutive recorded weights differ by exactly ``y_i x~_i`` (to rounding),
    which catches a run made with another ``bias``, ``eta`` or dataset.
    """
    if len(W) == 0:
        return
    steps = np.diff(np.vstack([np.zeros(W.shape[1]), W]), axis=0)
    idx = np.array(indices)
    expected = y[idx, None] * Xt[idx]
    gap = float(np.max(np.abs(steps[1:] - expected[1:]))) if len(W) > 1 else 0.0
    start = float(np.max(np.abs(W[0] - expected[0])))
    tol = 1e-9 * R * len(W)
    if gap > tol:
        raise ValueError("result's updates are not y_i x~_i steps for this X, bias and eta: pass the run's own")
    if start > tol:
        raise ValueError(
            "the run did not start at w = 0, b = 0 (or was made with another eta); the proof assumes a zero start"
        )


def check_flag(value: bool, name: str) -> bool:
    """Return ``value`` as a bool if it is one (Python's or numpy's), else raise ValueError."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {value!r}")  # noqa: TRY004 (module docstring)
    return bool(value)


def check_tol(tol: float | None) -> float | None:
    """Return ``tol`` as a float >= 0, or None (no stopping rule), else raise ValueError."""
    if tol is None:
        return None
    out = check_scalar(tol, "tol")
    if out < 0:
        raise ValueError(f"tol must be >= 0 or None, got {out:g}")
    return out


def check_fit_intercept(fit_intercept: bool, bias: str) -> BiasMode:
    """The bias mode that ``fit_intercept`` (scikit-learn's flag) and ``bias`` (the book's mode) ask for.

    ``fit_intercept=False`` is scikit-learn's spelling of ``bias="none"``: with the default
    ``bias="one"`` (or ``"none"``) it gives ``"none"``. With ``bias="radius"`` the two contradict each
    other (an intercept scaled by ``R**2``, and no intercept), which raises.
    """
    mode = check_bias(bias)
    if check_flag(fit_intercept, "fit_intercept"):
        return mode
    if mode == "radius":
        raise ValueError(
            "fit_intercept=False contradicts bias='radius' (which learns an intercept); "
            "use fit_intercept=False alone, or bias='none'"
        )
    return "none"


def check_classes(y: ArrayLike, n_samples: int, *, name: str = "y") -> tuple[NDArray[np.generic], NDArray[np.intp]]:
    """Multiclass labels: return ``(classes, index)``, the sorted distinct labels and each sample's
    position among them. Any sortable labels (numbers, strings); at least two distinct ones."""
    arr = np.asarray(y)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D of shape (n_samples,), got shape {arr.shape}")
    if arr.shape[0] != n_samples:
        raise ValueError(f"X and {name} have different lengths: X has {n_samples} samples, {name} has {arr.shape[0]}")
    if arr.dtype.kind == "f" and not np.isfinite(arr).all():
        raise ValueError(f"{name} contains NaN or infinity")
    if arr.dtype.kind not in "biufUS":
        raise ValueError(f"{name} must hold numbers or strings, got dtype {arr.dtype}")
    classes, index = np.unique(arr, return_inverse=True)
    if classes.size < 2:
        raise ValueError(f"{name} has only one class ({classes[0]!r}); a classifier needs at least two")
    return classes, index.reshape(-1)


def check_sequences(
    sequences, tags, n_words: int, n_tags: int
) -> tuple[list[NDArray[np.intp]], list[NDArray[np.intp]]]:
    """Tagged sequences: as many tag sequences as word sequences, each as long as its words, every
    word id in ``0 .. n_words - 1`` and tag id in ``0 .. n_tags - 1``; none empty."""
    if len(sequences) != len(tags):
        raise ValueError(f"{len(sequences)} sequences but {len(tags)} tag sequences")
    if len(sequences) == 0:
        raise ValueError("no sequences to train on")
    words, gold = [], []
    for k, (x, t) in enumerate(zip(sequences, tags)):
        xa, ta = np.asarray(x), np.asarray(t)
        for arr, name, size in ((xa, "word", n_words), (ta, "tag", n_tags)):
            if arr.ndim != 1 or arr.size == 0 or arr.dtype.kind not in "iu":
                raise ValueError(f"sequence {k}: {name} ids must be a non-empty 1-D array of integers")
            if arr.min() < 0 or arr.max() >= size:
                raise ValueError(f"sequence {k}: {name} ids must lie in 0..{size - 1}, found {arr.min()}..{arr.max()}")
        if xa.shape != ta.shape:
            raise ValueError(f"sequence {k} has {xa.size} words but {ta.size} tags")
        words.append(xa.astype(np.intp))
        gold.append(ta.astype(np.intp))
    return words, gold


def check_features(X: ArrayLike, n_features: int, owner: str) -> NDArray[np.float64]:
    """``X`` checked, with as many features as ``n_features`` (else a ValueError naming both)."""
    Xa = check_X(X)
    if Xa.shape[1] != n_features:
        raise ValueError(f"X has {Xa.shape[1]} features but {owner} {n_features}")
    return Xa


def check_class(H: ArrayLike) -> NDArray[np.int8]:
    """A finite class on a finite domain: a non-empty matrix of labels -1/+1 (hypotheses x points)."""
    try:
        arr = np.asarray(H, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError("H must be a numeric matrix of labels -1 and +1") from None
    if arr.ndim != 2 or arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(f"H must be a non-empty 2-D matrix (hypotheses x points), got shape {arr.shape}")
    if not np.isin(arr, (-1.0, 1.0)).all():
        raise ValueError("H must contain only the labels -1 and +1")
    return arr.astype(np.int8)


def check_sequence(xs: ArrayLike, ys: ArrayLike, n_points: int) -> tuple[NDArray[np.intp], NDArray[np.int8]]:
    """Points as column indices of a class with ``n_points`` columns, and their labels -1/+1."""
    xa, ya = np.asarray(xs), np.asarray(ys, dtype=np.float64)
    if xa.ndim != 1 or ya.shape != xa.shape:
        raise ValueError(f"xs and ys must be 1-D of the same length, got shapes {xa.shape} and {ya.shape}")
    if xa.size and (not np.issubdtype(xa.dtype, np.integer) or xa.min() < 0 or xa.max() >= n_points):
        raise ValueError(f"xs must be integer indices of points, between 0 and {n_points - 1}")
    if not np.isin(ya, (-1.0, 1.0)).all():
        raise ValueError("ys must contain only the labels -1 and +1")
    return xa.astype(np.intp), ya.astype(np.int8)


def check_label_table(A: ArrayLike, z: ArrayLike, names: tuple[str, str, str, str], values: tuple[float, float],
                      message: str) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """A non-empty matrix ``A`` and one entry of ``z`` per row, every entry one of ``values``.

    ``names`` are the matrix's name, the vector's name, what its axes are and what ``z`` holds per row
    (for the messages); ``message``
    is the error when an entry is not one of ``values``.
    """
    matrix, vector, rows, per_row = names
    try:
        Aa = np.asarray(A, dtype=np.float64)
        za = np.asarray(z, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{matrix} and {vector} must be numeric arrays of {values[0]:g} and {values[1]:g}") from None
    if Aa.ndim != 2 or Aa.shape[0] == 0 or Aa.shape[1] == 0:
        raise ValueError(f"{matrix} must be a non-empty 2-D array ({rows}), got shape {Aa.shape}")
    if za.shape != (Aa.shape[0],):
        raise ValueError(f"{vector} must have shape ({Aa.shape[0]},), {per_row}, got {za.shape}")
    if not (np.isin(Aa, values).all() and np.isin(za, values).all()):
        raise ValueError(message)
    return Aa, za


def check_boolean_data(X: ArrayLike, y: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """Boolean examples (a non-empty 0/1 matrix) with one 0/1 label per row."""
    Xa, ya = check_label_table(X, y, ("X", "y", "examples x variables", "one label per row of X"), (0.0, 1.0),
                               "Winnow works on Boolean data: X and y must contain only 0 and 1 (not -1)")
    return Xa, ya.astype(np.int64)



def check_study(study: ArrayLike) -> NDArray[np.float64]:
    """Validate a study of the mistake bound: rows (prescribed margin, mistakes, bound), margins and bounds > 0."""
    arr = check_X(study, name="study")
    if arr.shape[1] != 3 or (arr[:, [0, 2]] <= 0).any():
        raise ValueError(f"study must have rows (prescribed margin > 0, mistakes, bound > 0), got shape {arr.shape}")
    return arr
