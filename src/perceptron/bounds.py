"""The perceptron convergence theorem's mistake bounds (Block 1962; Novikoff 1962)."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._validation import check_bias, check_Xy
from .margins import _max_margin, _max_row_norm


def mistake_bound(X: ArrayLike, y: ArrayLike, *, bias: str = "one") -> float:
    """Return an upper bound on the number of mistakes :func:`~perceptron.train` makes from a zero start.

    The bound is the one proved for the same ``bias`` mode, with ``R = max_i ||x_i||``:

    * ``"none"``: ``(R / gamma*_0)**2`` with ``gamma*_0`` the largest margin of a hyperplane through
      the origin (Novikoff's theorem);
    * ``"radius"``: ``(2 R / gamma*)**2`` with ``gamma*`` the largest margin of any hyperplane
      (the form in the CMU 36-350 notes; proved by augmenting every point with ``R``);
    * ``"one"``: Novikoff's bound ``(R~ / gamma~*)**2`` for the points augmented with a 1,
      ``R~ = max_i ||(x_i, 1)||`` and ``gamma~*`` their largest margin through the origin.

    It holds for every learning rate and every visiting order (fixed or shuffled), as long as
    training starts from ``w = 0, b = 0``.

    Parameters
    ----------
    X : array_like of shape (n_samples, n_features)
    y : array_like of shape (n_samples,), labels in {-1, +1}
    bias : {"one", "radius", "none"}, default "one"

    Returns
    -------
    float

    Raises
    ------
    ValueError
        On invalid data, an unknown ``bias``, or data that are not separable in the way the
        bias mode needs (through the origin for ``"none"``).

    Examples
    --------
    >>> X = [[2.0, 0.0], [-2.0, 0.0]]
    >>> round(mistake_bound(X, [1, -1], bias="none"), 6)
    1.0
    """
    Xa, ya = check_Xy(X, y)
    mode = check_bias(bias)
    if mode == "one":
        Xa = np.column_stack([Xa, np.ones(len(ya))])
    R = _max_row_norm(Xa)
    try:
        # "radius": any hyperplane of the data; "one" and "none": through the origin (for "one",
        # of the points augmented with 1 above).
        gamma = _max_margin(Xa, ya, offset=mode == "radius").gamma
    except ValueError as exc:
        if "not linearly separable" not in str(exc):
            raise
        # max_margin's hint names its own argument; say what the perceptron needs here.
        need = "through the origin" if mode == "none" else "by any hyperplane"
        raise ValueError(
            f"the data are not linearly separable {need}, so the perceptron with bias={mode!r} "
            "never converges and no mistake bound applies"
        ) from None
    factor = 2.0 if mode == "radius" else 1.0
    return float((factor * R / gamma) ** 2)
