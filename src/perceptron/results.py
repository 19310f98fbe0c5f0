"""What the algorithms return: frozen dataclasses with named fields. The binary perceptron's are defined
here; those of the algorithms beyond it in :mod:`perceptron._results_beyond`, imported here: every result
type is ``perceptron.results.<Name>``."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._core import sgn
from ._results_beyond import (
    AdversaryRun,
    HingeBound,
    Hyperplane,
    MulticlassResult,
    MulticlassUpdate,
    NetworkRun,
    OnlinePass,
    StructuredResult,
    TwoLayerNetwork,
)
from ._validation import check_w, check_X


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
        Xa = check_X(X)
        return sgn(Xa @ check_w(self.w, Xa.shape[1]) + self.b)


@dataclass(frozen=True)
class SGDResult:
    """What :func:`~perceptron.train_sgd` returns.

    Attributes
    ----------
    w : ndarray of shape (n_features,)
        Final weights.
    b : float
        Final bias.
    updates : int
        Number of steps that changed ``(w, b)`` (a non-zero slope). For the perceptron loss these
        are the mistakes; for the hinge, the points with margin ``<= 1`` when visited.
    epochs : int
        Passes over the data, the final pass without a step included.
    converged : bool
        True when the last pass made no step (every visited margin had slope 0).
    losses : tuple of float
        The total loss ``sum_i L(m_i)`` of the data after each pass.
    history : tuple of Update
        Every step that changed ``(w, b)``, in order, when run with ``record=True``; else empty.
    """

    w: NDArray[np.float64]
    b: float
    updates: int
    epochs: int
    converged: bool
    losses: tuple[float, ...]
    history: tuple[Update, ...] = field(default=(), repr=False)



@dataclass(frozen=True)
class MaxMargin(Hyperplane):
    """The maximum-margin hyperplane, from :func:`~perceptron.max_margin`.

    Attributes
    ----------
    w : ndarray of shape (n_features,)
        Unit normal, ``||w|| = 1``.
    b : float
        Offset (0 for a hyperplane through the origin).
    gamma : float
        The margin ``min_i y_i (w.x_i + b)``, a distance since ``||w|| = 1``.
    """

    gamma: float


@dataclass(frozen=True)
class BestLine(Hyperplane):
    """A line ``w.x + b = 0`` with the fewest training errors, from :func:`~perceptron.fewest_errors_line`.

    Attributes
    ----------
    w : ndarray of shape (2,)
    b : float
    errors : int
        Its training errors, counted with the mistake rule ``y (w.x + b) <= 0``.
    """

    errors: int


@dataclass(frozen=True)
class Cycle:
    """A repeated state of the perceptron run pass after pass in a fixed order.

    Attributes
    ----------
    start : int
        First pass whose starting state recurs (0 = the initial state).
    period : int
        Number of passes after which that state recurs (the smallest such number).
    weights : ndarray of shape (start + period + 1, n_features)
        The weights at the start of passes ``0, 1, ..., start + period``; the last row equals
        ``weights[start]``.
    biases : ndarray of shape (start + period + 1,)
        The matching biases.
    updates_per_period : int
        Number of mistakes made during one period; 0 means the run converged (a clean pass
        leaves the state unchanged).
    """

    start: int
    period: int
    weights: NDArray[np.float64]
    biases: NDArray[np.float64]
    updates_per_period: int


@dataclass(frozen=True)
class ProofQuantities:
    """The two sides of every inequality of the convergence proof, after each update.

    All sequences have one entry per update ``k = 1, ..., M`` and refer to the augmented
    weights divided by the learning rate, ``w~_k / eta``.

    Attributes
    ----------
    k : ndarray of int
        Update counter ``1, ..., M``.
    sq_norm : ndarray
        ``||w~_k||^2 / eta^2``.
    sq_norm_bound : ndarray
        ``k R~^2``, the proof's upper bound on ``sq_norm``.
    alignment : ndarray
        ``u.w~_k / eta`` with ``u`` the unit-normalised augmented reference separator.
    alignment_bound : ndarray
        ``k g~``, the proof's lower bound on ``alignment``.
    cosine : ndarray
        ``u.w~_k / ||w~_k||``, the cosine of the angle between ``u`` and ``w~_k`` (at most 1).
    cosine_bound : ndarray
        ``sqrt(k) g~ / R~``, the proof's lower bound on ``cosine``.
    radius : float
        ``R~ = max_i ||x~_i||``, the radius of the augmented points.
    margin : float
        ``g~ = min_i y_i u.x~_i``, the reference separator's margin on the augmented points.
    bound : float
        ``(R~ / g~)^2``: the number of updates the proof allows.
    """

    k: NDArray[np.int64]
    sq_norm: NDArray[np.float64]
    sq_norm_bound: NDArray[np.float64]
    alignment: NDArray[np.float64]
    alignment_bound: NDArray[np.float64]
    cosine: NDArray[np.float64]
    cosine_bound: NDArray[np.float64]
    radius: float
    margin: float
    bound: float



__all__ = ["AdversaryRun", "BestLine", "Cycle", "HingeBound", "Hyperplane", "MaxMargin", "MulticlassResult",
           "MulticlassUpdate", "NetworkRun", "OnlinePass", "ProofQuantities", "SGDResult", "StructuredResult",
           "TrainResult", "TwoLayerNetwork", "Update"]
