"""Result types returned by the training algorithms: small frozen dataclasses with named fields."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike, NDArray


@dataclass(frozen=True)
class Update:
    """One update of a mistake-driven algorithm.

    Attributes
    ----------
    epoch : int
        The pass (1-based) in which the update happened.
    index : int
        Row of ``X`` that triggered the update.
    w : ndarray of shape (n_features,)
        The weights right after the update.
    b : float
        The bias right after the update.
    """

    epoch: int
    index: int
    w: NDArray[np.float64]
    b: float


@dataclass(frozen=True)
class TrainResult:
    """What a perceptron run returns.

    Attributes
    ----------
    w : ndarray of shape (n_features,)
        Final weights (for :func:`~perceptron.pocket`, the pocketed ones; for
        :func:`~perceptron.averaged`, the averaged ones).
    b : float
        Final bias.
    mistakes : int
        Number of updates made (every mistake triggers exactly one update).
    epochs : int
        Number of passes over the data, the final clean pass included.
    converged : bool
        True when the running perceptron made a pass with no mistake. For :func:`~perceptron.train`
        and :func:`~perceptron.pocket` the returned ``(w, b)`` then classifies every training point
        with ``y (w.x + b) > 0``; the averaged weights of :func:`~perceptron.averaged` may still
        make errors (see ``errors``).
    history : tuple of Update
        Every update in order when the run was made with ``record=True``, else empty.
    errors : int
        Training points the returned ``(w, b)`` gets wrong, counted with the mistake rule
        ``y (w.x + b) <= 0``.
    """

    w: NDArray[np.float64]
    b: float
    mistakes: int
    epochs: int
    converged: bool
    history: tuple[Update, ...] = field(default=(), repr=False)
    errors: int = 0

    def predict(self, X: ArrayLike) -> NDArray[np.int64]:
        """Classify ``X`` with the learned hyperplane (sgn(0) = +1)."""
        from .linear import predict

        return predict(X, self.w, self.b)
